//! Random-number building blocks shared by every stonelab crate, written once.
//!
//! - [`splitmix64`]: Steele, Lea & Flood's SplitMix64 step (OOPSLA 2014; Vigna's public-domain
//!   `splitmix64.c`), used to seed other generators and to fill Zobrist key tables.
//! - [`SplitMix64`]: the same as an owned stream.
//! - [`Xorshift64Star`]: Vigna's xorshift64* ("An experimental exploration of Marsaglia's xorshift
//!   generators, scrambled", ACM TOMS 2016): tiny and seedable, for choosing moves and making
//!   test positions.
//! - [`Wyrand`]: Wang Yi's wyrand, a counter mixed by one 128-bit multiply, for playouts.
//!
//! None of these is for cryptography. Each is `const`-constructible, so key tables can be built at
//! compile time.

#![no_std]

/// The golden-ratio increment of SplitMix64 (2^64 / phi, odd).
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// One step of SplitMix64: advances `state` by [`GOLDEN_GAMMA`] and returns the mixed output.
#[inline]
pub const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN_GAMMA);
    mix64(*state)
}

/// SplitMix64's output function (a variant of MurmurHash3's finaliser): a bijection on `u64`
/// that spreads every input bit over every output bit.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A SplitMix64 stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A stream whose whole sequence is fixed by `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 bits.
    #[inline]
    pub const fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.state)
    }

    /// Fills a `ROWS x COLS` table of keys, row by row, from the stream.
    #[must_use]
    pub const fn table<const ROWS: usize, const COLS: usize>(&mut self) -> [[u64; COLS]; ROWS] {
        let mut keys = [[0; COLS]; ROWS];
        let mut r = 0;
        while r < ROWS {
            let mut c = 0;
            while c < COLS {
                keys[r][c] = self.next_u64();
                c += 1;
            }
            r += 1;
        }
        keys
    }
}

/// xorshift64* (Vigna): 64 bits of state, shifts and one multiply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xorshift64Star {
    state: u64,
}

impl Xorshift64Star {
    /// A generator seeded from `seed`: the seed is spread by a multiply and made non-zero, so any
    /// `u64` (0 included) is a good seed.
    #[must_use]
    pub const fn new(seed: u64) -> Xorshift64Star {
        Xorshift64Star {
            state: seed.wrapping_mul(GOLDEN_GAMMA) | 1,
        }
    }

    /// A generator that starts from exactly `state` (which must not be 0: a zero state stays 0).
    #[must_use]
    pub const fn from_state(state: u64) -> Xorshift64Star {
        Xorshift64Star { state }
    }

    /// The next 64 bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`0 < n < 2^32`), by multiply-shift of the high 32 bits (bias below
    /// `n / 2^32`, far under what the uses here can see).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// wyrand (Wang Yi): a 64-bit counter mixed by one 128-bit multiply. Passes BigCrush/PractRand for
/// the volumes a playout uses, and costs a few cycles per number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wyrand {
    state: u64,
}

impl Wyrand {
    /// A generator whose whole sequence is fixed by `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Wyrand {
        Wyrand { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.state as u128) * ((self.state ^ 0xe703_7ed1_a0b4_28db) as u128);
        ((t >> 64) as u64) ^ (t as u64)
    }

    /// A uniform integer in `0..n` (`n > 0`), without bias: Lemire's multiply-and-reject.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut m = (self.next_u64() as u32 as u64) * n as u64;
        if (m as u32) < n {
            // Rare: only when the low word falls under 2^32 mod n.
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = (self.next_u64() as u32 as u64) * n as u64;
            }
        }
        (m >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_published_reference() {
        // Vigna's splitmix64.c from state 0: 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, ...
        let mut s = 0;
        assert_eq!(splitmix64(&mut s), 0xe220_a839_7b1d_cdaf);
        assert_eq!(splitmix64(&mut s), 0x6e78_9e6a_a1b9_65f4);
        let mut stream = SplitMix64::new(0);
        assert_eq!(stream.next_u64(), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn table_is_the_stream_in_row_order() {
        let t: [[u64; 3]; 2] = SplitMix64::new(5).table();
        let mut s = SplitMix64::new(5);
        for row in t {
            for k in row {
                assert_eq!(k, s.next_u64());
            }
        }
    }

    #[test]
    fn xorshift_matches_a_hand_step() {
        // One step from state 1, by hand: x ^= x >> 12 (1); x ^= x << 25 (0x2000001);
        // x ^= x >> 27 (0x2000001); output x * 0x2545F4914F6CDD1D.
        let mut r = Xorshift64Star::from_state(1);
        assert_eq!(
            r.next_u64(),
            0x0200_0001u64.wrapping_mul(0x2545_F491_4F6C_DD1D)
        );
        let mut z = Xorshift64Star::new(0);
        assert_ne!(z.next_u64(), 0, "seed 0 is made non-zero");
        assert!((0..1000).all(|_| z.below(7) < 7));
    }

    #[test]
    fn wyrand_below_is_in_range_and_roughly_uniform() {
        let mut rng = Wyrand::new(42);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[rng.below(7) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(Wyrand::new(3).below(1), 0);
    }
}
