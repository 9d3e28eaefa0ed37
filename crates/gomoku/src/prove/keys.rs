//! Position keys of the prover: 128-bit Zobrist keys kept for all eight symmetries of the square
//! board at once, so that a position and its rotations and reflections share one table entry.

use stonelab_rand::SplitMix64;

use crate::{Color, Point};

/// Second half of the 128-bit keys (the first half is the crate's one Zobrist table).
static KEYS_HI: [[u64; 400]; 2] = SplitMix64::new(0x9E00_F00D_0019).table::<2, 400>();
/// Xored into the key of a position where the defender is to move.
const DEFENDER_TO_MOVE: u128 = 0x5bd1_e995_9e37_79b9_7f4a_7c15_f39c_c060;

/// The 128-bit key of a stone of `c` on `p`.
#[inline]
fn stone_key(p: Point, c: Color) -> u128 {
    let i = p.y as usize * 20 + p.x as usize;
    u128::from(KEYS_HI[c.index()][i]) << 64 | u128::from(crate::tables::zobrist::key(p, c))
}

/// One of the eight symmetries of a square board of side `n`: bit 2 swaps the axes, then bit 0
/// mirrors x and bit 1 mirrors y.
#[inline]
#[must_use]
pub fn apply(t: u8, p: Point, n: usize) -> Point {
    let m = (n - 1) as u8;
    let (mut x, mut y) = if t & 4 != 0 { (p.y, p.x) } else { (p.x, p.y) };
    if t & 1 != 0 {
        x = m - x;
    }
    if t & 2 != 0 {
        y = m - y;
    }
    Point::new(x, y)
}

/// The inverse of [`apply`]: `invert(t, apply(t, p, n), n) == p`.
#[inline]
#[must_use]
pub fn invert(t: u8, p: Point, n: usize) -> Point {
    let m = (n - 1) as u8;
    let (mut x, mut y) = (p.x, p.y);
    if t & 1 != 0 {
        x = m - x;
    }
    if t & 2 != 0 {
        y = m - y;
    }
    if t & 4 != 0 {
        Point::new(y, x)
    } else {
        Point::new(x, y)
    }
}

/// The keys of one position under the eight symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymKeys {
    n: usize,
    keys: [u128; 8],
}

impl SymKeys {
    /// The keys of the empty board of side `n`.
    #[must_use]
    pub fn new(n: usize) -> SymKeys {
        SymKeys { n, keys: [0; 8] }
    }

    /// Adds (or, a second time, removes) a stone of `c` on `p`.
    #[inline]
    pub fn toggle(&mut self, p: Point, c: Color) {
        for t in 0..8 {
            self.keys[t] ^= stone_key(apply(t as u8, p, self.n), c);
        }
    }

    /// The keys after a stone of `c` on `p`, this one unchanged.
    #[inline]
    #[must_use]
    pub fn with(&self, p: Point, c: Color) -> SymKeys {
        let mut k = *self;
        k.toggle(p, c);
        k
    }

    /// The canonical key (the least over the symmetries; `defender` marks whose move it is) and
    /// the symmetry that gives it (the first one, when several do).
    #[inline]
    #[must_use]
    pub fn canonical(&self, defender: bool) -> (u128, u8) {
        let mut best = (self.keys[0], 0u8);
        for t in 1..8 {
            if self.keys[t] < best.0 {
                best = (self.keys[t], t as u8);
            }
        }
        let side = if defender { DEFENDER_TO_MOVE } else { 0 };
        (best.0 ^ side, best.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invert_undoes_apply_on_every_point_and_symmetry() {
        for n in [5usize, 8, 15, 20] {
            for t in 0..8 {
                for y in 0..n as u8 {
                    for x in 0..n as u8 {
                        let p = Point::new(x, y);
                        let q = apply(t, p, n);
                        assert!((q.x as usize) < n && (q.y as usize) < n);
                        assert_eq!(invert(t, q, n), p);
                    }
                }
            }
        }
    }

    #[test]
    fn symmetric_positions_share_the_canonical_key() {
        let n = 9;
        let stones = [
            (Point::new(1, 2), Color::Black),
            (Point::new(4, 4), Color::White),
            (Point::new(7, 3), Color::Black),
        ];
        let mut base = SymKeys::new(n);
        for &(p, c) in &stones {
            base.toggle(p, c);
        }
        for t in 0..8 {
            let mut k = SymKeys::new(n);
            for &(p, c) in &stones {
                k.toggle(apply(t, p, n), c);
            }
            assert_eq!(k.canonical(false).0, base.canonical(false).0);
            assert_ne!(k.canonical(false).0, k.canonical(true).0);
        }
        // A different position gets a different key.
        let other = base.with(Point::new(0, 0), Color::White);
        assert_ne!(other.canonical(false).0, base.canonical(false).0);
    }
}
