//! A small, fast, seeded random generator for playouts (wyrand), so that a playout replays exactly
//! from its seed; also random positions for tests and benchmarks. Not for cryptography.

use crate::bitboard::{Bitboard, Geometry};

/// wyrand (Wang Yi): a 64-bit counter mixed by one 128-bit multiply. Passes BigCrush/PractRand for
/// the volumes a playout uses, and costs a few cycles per number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose whole sequence is fixed by `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.state) * u128::from(self.state ^ 0xe703_7ed1_a0b4_28db);
        ((t >> 64) as u64) ^ (t as u64)
    }

    /// A uniform integer in `0..n` (`n > 0`), without bias: Lemire's multiply-and-reject.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut m = u64::from(self.next_u64() as u32) * u64::from(n);
        if (m as u32) < n {
            // Rare: only when the low word falls under 2^32 mod n.
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.next_u64() as u32) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// Random stones (not necessarily a legal position): each point is empty with probability
    /// `empty_pct`/100, otherwise black with probability `black_pct`/100 and else white.
    /// Returns Black's and White's stones.
    pub fn position(&mut self, g: &Geometry, empty_pct: u32, black_pct: u32) -> [Bitboard; 2] {
        let mut stones = [Bitboard::EMPTY; 2];
        for p in g.points() {
            if self.below(100) >= empty_pct {
                let c = usize::from(self.below(100) >= black_pct);
                stones[c].set(p);
            }
        }
        stones
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut rng = Rng::new(42);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[rng.below(7) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(Rng::new(3).below(1), 0);
    }
}
