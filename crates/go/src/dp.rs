//! Tromp's border-state dynamic program: the number of legal positions of a board, exactly,
//! without visiting them.
//!
//! Points are added one at a time in row-major order. The border is the last `cols` points
//! placed; each border point keeps its colour, a block label (blocks joined through points
//! already placed share one) and whether that block already has a liberty. A block that leaves
//! the border without a liberty kills the partial position. Counts are `u128` with an overflow
//! check; on overflow the program reruns with big integers (`num-bigint`).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

pub use num_bigint::BigUint;

use crate::enumerate::Shape;

/// Widest border the packed state supports (the board is turned so the border is its shorter
/// side).
pub const MAX_WIDTH: usize = 15;

const EMPTY: u8 = 0;
const EDGE: u8 = 3;

/// Why the dynamic program refuses a board.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum DpError {
    #[error(
        "board {shape} needs a border of {width} points; the dynamic program handles at most \
         {MAX_WIDTH} (estimated {states:.1e} border states, {gib:.0} GiB)"
    )]
    TooWide {
        shape: Shape,
        width: usize,
        states: f64,
        gib: f64,
    },
}

/// Rough peak number of border states of a board `width` points wide: the measured peaks
/// grow about 5-fold per column (widths 7, 8, 9: 41,227, 201,975 and 1,007,881 states; see
/// `peak_states` and BENCHMARKS.md), so this is 1.0e6 · 5^(width - 9).
#[must_use]
pub fn estimated_states(width: usize) -> f64 {
    1.0e6 * 5f64.powi(width as i32 - 9)
}

/// Peak resident bytes per peak border state, measured: 265 MiB for the 1.0 M states of 9x9
/// (`u128` counts; two generations of hash maps with their slack), about 360 bytes per state
/// with big integers (10x10).
const BYTES_PER_STATE: f64 = 360.0;

/// Estimated peak memory in bytes of [`count_legal`] on `shape`.
#[must_use]
pub fn estimated_bytes(shape: Shape) -> f64 {
    estimated_states(shape.rows.min(shape.cols)) * BYTES_PER_STATE
}

/// Counts the legal positions of `shape` exactly.
pub fn count_legal(shape: Shape) -> Result<BigUint, DpError> {
    count_legal_with_progress(shape, &|_, _| {})
}

/// [`count_legal`], calling `progress(done, total)` after each cell placed (the count starts
/// over with big integers on the one size, 9x9, where 128 bits may overflow).
pub fn count_legal_with_progress(
    shape: Shape,
    progress: &dyn Fn(usize, usize),
) -> Result<BigUint, DpError> {
    let (long, width) = if shape.cols <= shape.rows {
        (shape.rows, shape.cols)
    } else {
        (shape.cols, shape.rows)
    };
    if width > MAX_WIDTH {
        return Err(DpError::TooWide {
            shape,
            width,
            states: estimated_states(width),
            gib: estimated_bytes(shape) / f64::from(1u32 << 30),
        });
    }
    // Every partial count is at most 3^(points placed): up to 80 points u128 cannot overflow;
    // at 81 (9x9) it may, and the check catches it; beyond, start with big integers.
    let cells = long * width;
    let mut placed = 0;
    let mut seen = |_: usize| {
        placed += 1;
        progress(placed, cells);
    };
    let small = if cells <= 81 {
        drive::<u128>(long, width, &mut seen)
    } else {
        None
    };
    if small.is_none() {
        placed = 0;
    }
    Ok(match small {
        Some(n) => BigUint::from(n),
        None => drive::<BigUint>(long, width, &mut |_| {
            placed += 1;
            progress(placed, cells);
        })
        .expect("big integers do not overflow"),
    })
}

/// The largest number of distinct border states met while counting `shape` (for benches).
#[must_use]
pub fn peak_states(shape: Shape) -> usize {
    let width = shape.rows.min(shape.cols);
    let long = shape.rows.max(shape.cols);
    let mut peak = 0;
    let _ = drive::<u128>(long, width, &mut |n| peak = peak.max(n));
    peak
}

/// An exact counter: `u128` reports overflow, `BigUint` never does.
trait Count: Clone + Default {
    fn one() -> Self;
    /// Adds `other`; false on overflow.
    fn add(&mut self, other: &Self) -> bool;
}

impl Count for u128 {
    fn one() -> Self {
        1
    }
    fn add(&mut self, other: &Self) -> bool {
        match self.checked_add(*other) {
            Some(v) => {
                *self = v;
                true
            }
            None => false,
        }
    }
}

impl Count for BigUint {
    fn one() -> Self {
        BigUint::from(1u8)
    }
    fn add(&mut self, other: &Self) -> bool {
        *self += other;
        true
    }
}

/// Multiplicative hash for packed `u128` border keys (SipHash is several times slower here).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u128(&mut self, x: u128) {
        let h = ((x as u64) ^ ((x >> 64) as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 31);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Map<C> = HashMap<u128, C, BuildHasherDefault<KeyHasher>>;

/// A border: colour and label per column, one liberty bit per label.
#[derive(Clone, Copy)]
struct Border {
    colors: [u8; MAX_WIDTH],
    labels: [u8; MAX_WIDTH],
    libs: u16,
}

impl Border {
    fn pack(&self, width: usize) -> u128 {
        let mut k = u128::from(self.libs);
        for c in 0..width {
            k = (k << 6) | u128::from(self.colors[c]) << 4 | u128::from(self.labels[c]);
        }
        k
    }

    fn unpack(mut k: u128, width: usize) -> Self {
        let mut b = Border {
            colors: [EDGE; MAX_WIDTH],
            labels: [0; MAX_WIDTH],
            libs: 0,
        };
        for c in (0..width).rev() {
            b.labels[c] = (k & 15) as u8;
            b.colors[c] = ((k >> 4) & 3) as u8;
            k >>= 6;
        }
        b.libs = k as u16;
        b
    }

    fn is_stone(&self, c: usize) -> bool {
        matches!(self.colors[c], 1 | 2)
    }

    /// Puts colour `x` at column `j`, replacing the point above. `None` when a block dies.
    fn place(&self, width: usize, j: usize, x: u8) -> Option<Border> {
        let mut b = *self;
        let above = b.colors[j];
        let left = if j > 0 { b.colors[j - 1] } else { EDGE };
        // A temporary label no border point uses (labels are < width <= 15).
        const FRESH: u8 = 15;
        let mut libs = u32::from(b.libs);
        let above_label = b.labels[j];
        if x == EMPTY {
            if b.is_stone(j) {
                libs |= 1 << above_label;
            }
            if j > 0 && b.is_stone(j - 1) {
                libs |= 1 << b.labels[j - 1];
            }
            b.colors[j] = EMPTY;
            b.labels[j] = 0;
        } else {
            let mut lib = above == EMPTY || left == EMPTY;
            let mut merged = [u8::MAX; 2];
            if above == x {
                merged[0] = above_label;
            }
            if j > 0 && left == x {
                merged[1] = b.labels[j - 1];
            }
            for &m in &merged {
                if m != u8::MAX {
                    lib |= libs >> m & 1 == 1;
                }
            }
            b.colors[j] = x;
            b.labels[j] = FRESH;
            for c in 0..width {
                if c != j && b.is_stone(c) && merged.contains(&b.labels[c]) {
                    b.labels[c] = FRESH;
                }
            }
            if lib {
                libs |= 1 << FRESH;
            }
        }
        // The point above left the border: its block must live on or have a liberty.
        if above == 1 || above == 2 {
            let joined = x == above;
            let still = joined || (0..width).any(|c| b.is_stone(c) && b.labels[c] == above_label);
            if !still && libs >> above_label & 1 == 0 {
                return None;
            }
        }
        // Renumber labels by first appearance.
        let mut map = [u8::MAX; 16];
        let mut next = 0u8;
        let mut new_libs = 0u16;
        for c in 0..width {
            if b.is_stone(c) {
                let l = b.labels[c] as usize;
                if map[l] == u8::MAX {
                    map[l] = next;
                    if libs >> l & 1 == 1 {
                        new_libs |= 1 << next;
                    }
                    next += 1;
                }
                b.labels[c] = map[l];
            } else {
                b.labels[c] = 0;
            }
        }
        b.libs = new_libs;
        Some(b)
    }

    fn accepting(&self, width: usize) -> bool {
        (0..width).all(|c| !self.is_stone(c) || self.libs >> self.labels[c] & 1 == 1)
    }
}

/// The program itself, calling `seen(border states)` after each cell; `None` on overflow of `C`.
fn drive<C: Count>(long: usize, width: usize, seen: &mut dyn FnMut(usize)) -> Option<C> {
    let start = Border {
        colors: [EDGE; MAX_WIDTH],
        labels: [0; MAX_WIDTH],
        libs: 0,
    };
    let mut cur: Map<C> = Map::default();
    cur.insert(start.pack(width), C::one());
    for _row in 0..long {
        for j in 0..width {
            let mut next: Map<C> = Map::with_capacity_and_hasher(cur.len() * 2, Default::default());
            for (&k, n) in &cur {
                let b = Border::unpack(k, width);
                for x in 0..3 {
                    if let Some(nb) = b.place(width, j, x) {
                        if !next.entry(nb.pack(width)).or_default().add(n) {
                            return None;
                        }
                    }
                }
            }
            cur = next;
            seen(cur.len());
        }
    }
    let mut total = C::default();
    for (&k, n) in &cur {
        if Border::unpack(k, width).accepting(width) && !total.add(n) {
            return None;
        }
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_boards() {
        let l = |r, c| count_legal(Shape::new(r, c).unwrap()).unwrap();
        assert_eq!(l(1, 1), BigUint::from(1u8));
        assert_eq!(l(2, 2), BigUint::from(57u8));
        assert_eq!(l(3, 3), BigUint::from(12675u32));
        assert_eq!(l(4, 4), BigUint::from(24318165u32));
    }

    #[test]
    fn big_integers_agree_with_u128() {
        assert_eq!(
            BigUint::from(drive::<u128>(5, 4, &mut |_| {}).unwrap()),
            drive::<BigUint>(5, 4, &mut |_| {}).unwrap()
        );
    }
}
