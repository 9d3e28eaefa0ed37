//! Board shape (`RxC`), serial numbers and the board's symmetries, as the seed defines them.
//!
//! Serial = Σ v(id)·3^id with id = row·cols + col and v = 0 empty, 1 black, 2 white.

use std::fmt;
use std::str::FromStr;

/// Largest number of points for which a serial fits in a `u64` (3^40 < 2^64).
pub const MAX_POINTS: usize = 40;

/// Largest side accepted by the parser (the dynamic program is the only user of big boards).
pub const MAX_SIDE: usize = 64;

/// A board shape: `rows` × `cols`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
}

/// Why a board size string such as `4x4` was rejected.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ShapeError {
    #[error("malformed board size '{0}': expected ROWSxCOLS, e.g. 4x4")]
    Malformed(String),
    #[error("board size '{0}' has a zero dimension")]
    Zero(String),
    #[error("board size '{0}' has a side longer than {MAX_SIDE}")]
    TooLarge(String),
}

impl Shape {
    /// A shape; `None` when a side is zero or longer than [`MAX_SIDE`].
    #[must_use]
    pub const fn new(rows: usize, cols: usize) -> Option<Self> {
        if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE {
            None
        } else {
            Some(Shape { rows, cols })
        }
    }

    /// Whether serials of this board fit in a `u64` (at most [`MAX_POINTS`] points).
    #[must_use]
    pub const fn has_serials(self) -> bool {
        self.points() <= MAX_POINTS
    }

    /// Number of points.
    #[must_use]
    pub const fn points(self) -> usize {
        self.rows * self.cols
    }

    /// Number of serials, 3^points. Panics unless [`Shape::has_serials`].
    #[must_use]
    pub const fn serial_count(self) -> u64 {
        3u64.pow(self.points() as u32)
    }

    /// The same board turned on its side (rows and columns swapped).
    #[must_use]
    pub const fn transposed(self) -> Self {
        Shape {
            rows: self.cols,
            cols: self.rows,
        }
    }

    /// The symmetries of this board: all 8 for a square, 4 for a rectangle (no colour swap).
    #[must_use]
    pub fn symmetries(self) -> &'static [Symmetry] {
        if self.rows == self.cols {
            &Symmetry::ALL
        } else {
            &Symmetry::ALL[..4]
        }
    }

    /// Bit mask with one bit per point (bit `id`).
    #[must_use]
    pub const fn full_mask(self) -> u64 {
        (1u64 << self.points()) - 1
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    fn from_str(s: &str) -> Result<Self, ShapeError> {
        let malformed = || ShapeError::Malformed(s.to_string());
        let (r, c) = s.split_once(['x', 'X']).ok_or_else(malformed)?;
        let parse = |t: &str| {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                Err(malformed())
            } else {
                t.parse::<usize>().map_err(|_| malformed())
            }
        };
        let (rows, cols) = (parse(r)?, parse(c)?);
        if rows == 0 || cols == 0 {
            return Err(ShapeError::Zero(s.to_string()));
        }
        Shape::new(rows, cols).ok_or_else(|| ShapeError::TooLarge(s.to_string()))
    }
}

/// One symmetry of the board. The first four exist on every board; the last four (which swap
/// rows and columns) only on a square one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    Identity,
    /// (r, c) → (R-1-r, c)
    FlipRows,
    /// (r, c) → (r, C-1-c)
    FlipCols,
    /// (r, c) → (R-1-r, C-1-c)
    Rotate180,
    /// (r, c) → (c, r)
    Transpose,
    /// (r, c) → (c, R-1-r): a quarter turn clockwise
    Rotate90,
    /// (r, c) → (C-1-c, r): a quarter turn anticlockwise
    Rotate270,
    /// (r, c) → (C-1-c, R-1-r)
    AntiTranspose,
}

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipRows,
        Symmetry::FlipCols,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
        Symmetry::AntiTranspose,
    ];

    /// Where point `(r, c)` of a `shape` board goes, as `(row, col)` of the image board.
    #[must_use]
    pub const fn map(self, shape: Shape, r: usize, c: usize) -> (usize, usize) {
        let (rr, cc) = (shape.rows - 1 - r, shape.cols - 1 - c);
        match self {
            Symmetry::Identity => (r, c),
            Symmetry::FlipRows => (rr, c),
            Symmetry::FlipCols => (r, cc),
            Symmetry::Rotate180 => (rr, cc),
            Symmetry::Transpose => (c, r),
            Symmetry::Rotate90 => (c, rr),
            Symmetry::Rotate270 => (cc, r),
            Symmetry::AntiTranspose => (cc, rr),
        }
    }

    /// Where point `id` goes (ids of the image board). Symmetries that swap rows and columns
    /// are only valid on square boards, so the image has the same shape.
    #[must_use]
    pub const fn map_point(self, shape: Shape, id: usize) -> usize {
        let (r, c) = self.map(shape, id / shape.cols, id % shape.cols);
        r * shape.cols + c
    }
}

/// Powers of three up to 3^40.
pub(crate) const POW3: [u64; MAX_POINTS + 1] = {
    let mut t = [1u64; MAX_POINTS + 1];
    let mut i = 1;
    while i <= MAX_POINTS {
        t[i] = t[i - 1] * 3;
        i += 1;
    }
    t
};

/// Image of a serial under a symmetry (digit by digit; use [`canonical`] in bulk code).
#[must_use]
pub fn image(shape: Shape, sym: Symmetry, serial: u64) -> u64 {
    let mut s = serial;
    let mut out = 0;
    for id in 0..shape.points() {
        let v = s % 3;
        s /= 3;
        out += v * POW3[sym.map_point(shape, id)];
    }
    out
}

/// The canonical (smallest) image of `serial` under the board's symmetries, and the first
/// symmetry (in [`Symmetry::ALL`] order) that maps `serial` to it. A position is *reduced*
/// exactly when `canonical(shape, s).0 == s`.
#[must_use]
pub fn canonical(shape: Shape, serial: u64) -> (u64, Symmetry) {
    let mut best = (serial, Symmetry::Identity);
    for &sym in &shape.symmetries()[1..] {
        let img = image(shape, sym, serial);
        if img < best.0 {
            best = (img, sym);
        }
    }
    best
}

/// Per-row image tables: entry `(k * rows + r) * 3^cols + p` is what row pattern `p` (digit c
/// = colour of column c) on row `r` adds to the image serial under the `k + 1`-th symmetry
/// of the board (the identity is left out).
pub(crate) fn row_images(shape: Shape) -> Vec<u64> {
    let npat = 3usize.pow(shape.cols as u32);
    let syms = &shape.symmetries()[1..];
    let mut img = vec![0u64; syms.len() * shape.rows * npat];
    for (k, &sym) in syms.iter().enumerate() {
        for r in 0..shape.rows {
            for p in 0..npat {
                let mut x = p;
                let mut v = 0;
                for c in 0..shape.cols {
                    v += (x % 3) as u64 * POW3[sym.map_point(shape, r * shape.cols + c)];
                    x /= 3;
                }
                img[(k * shape.rows + r) * npat + p] = v;
            }
        }
    }
    img
}

/// [`canonical`] in bulk: the images are sums of one table entry per row (one division by
/// 3^cols per row instead of one per point and symmetry). For the solver's successor loop.
#[derive(Clone, Debug)]
pub struct Canonicalizer {
    shape: Shape,
    npat: u64,
    img: Vec<u64>,
}

impl Canonicalizer {
    /// Tables for `shape` (7 · rows · 3^cols words). `None` when serials do not fit 64 bits
    /// or rows are wider than 10.
    #[must_use]
    pub fn new(shape: Shape) -> Option<Self> {
        (shape.has_serials() && shape.cols <= 10).then(|| Canonicalizer {
            shape,
            npat: 3u64.pow(shape.cols as u32),
            img: row_images(shape),
        })
    }

    /// Same answer as [`canonical`]: the smallest image and the first symmetry giving it.
    #[must_use]
    pub fn canonical(&self, serial: u64) -> (u64, Symmetry) {
        let syms = &self.shape.symmetries()[1..];
        let rows = self.shape.rows;
        let npat = self.npat as usize;
        let mut imgs = [0u64; 7];
        let mut s = serial;
        for r in 0..rows {
            let p = (s % self.npat) as usize;
            s /= self.npat;
            for k in 0..syms.len() {
                imgs[k] += self.img[(k * rows + r) * npat + p];
            }
        }
        let mut best = (serial, Symmetry::Identity);
        for (k, &sym) in syms.iter().enumerate() {
            if imgs[k] < best.0 {
                best = (imgs[k], sym);
            }
        }
        best
    }
}

/// Splits a serial into (black, white) point masks.
#[must_use]
pub fn decode(shape: Shape, serial: u64) -> (u64, u64) {
    let (mut black, mut white) = (0, 0);
    let mut s = serial;
    for id in 0..shape.points() {
        match s % 3 {
            1 => black |= 1 << id,
            2 => white |= 1 << id,
            _ => {}
        }
        s /= 3;
    }
    (black, white)
}

/// Serial of a position given as (black, white) point masks.
#[must_use]
pub fn encode(shape: Shape, black: u64, white: u64) -> u64 {
    (0..shape.points())
        .map(|id| {
            let v = ((black >> id) & 1) + 2 * ((white >> id) & 1);
            v * POW3[id]
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sizes() {
        assert_eq!("4x5".parse(), Ok(Shape { rows: 4, cols: 5 }));
        assert!(matches!(
            "4".parse::<Shape>(),
            Err(ShapeError::Malformed(_))
        ));
        assert!(matches!(
            "4x-1".parse::<Shape>(),
            Err(ShapeError::Malformed(_))
        ));
        assert!(matches!("0x3".parse::<Shape>(), Err(ShapeError::Zero(_))));
        assert!(matches!(
            "70x7".parse::<Shape>(),
            Err(ShapeError::TooLarge(_))
        ));
        assert!(!"7x7".parse::<Shape>().unwrap().has_serials());
    }

    #[test]
    fn symmetries_are_permutations_and_canonical_is_minimal() {
        for shape in [
            Shape { rows: 3, cols: 3 },
            Shape { rows: 2, cols: 3 },
            Shape { rows: 3, cols: 2 },
        ] {
            for &sym in shape.symmetries() {
                let mut seen = 0u64;
                for id in 0..shape.points() {
                    seen |= 1 << sym.map_point(shape, id);
                }
                assert_eq!(seen, shape.full_mask());
            }
            let fast = Canonicalizer::new(shape).unwrap();
            for s in 0..shape.serial_count() {
                let (c, sym) = canonical(shape, s);
                assert_eq!(fast.canonical(s), (c, sym));
                assert_eq!(image(shape, sym, s), c);
                assert!(c <= s);
                let (b, w) = decode(shape, s);
                assert_eq!(encode(shape, b, w), s);
            }
        }
    }
}

#[cfg(test)]
mod canonicalizer_tests {
    use super::*;

    #[test]
    fn bulk_canonical_matches_on_5x5_and_4x5_samples() {
        for shape in [Shape { rows: 5, cols: 5 }, Shape { rows: 4, cols: 5 }] {
            let fast = Canonicalizer::new(shape).unwrap();
            let n = shape.serial_count();
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..20_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let s = x % n;
                assert_eq!(fast.canonical(s), canonical(shape, s), "{shape} {s}");
            }
        }
    }
}
