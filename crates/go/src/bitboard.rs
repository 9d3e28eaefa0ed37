//! Bitboards for Go boards up to 19x19, rectangles included.
//!
//! A point `(row, col)` is bit `row * STRIDE + col` with a fixed stride of 20: column 19 is a padding
//! column that is never on the board, so a left/right shift can never carry a stone into the next row
//! once the result is masked with the board. Row 0 is the top row, as in diagrams. The same layout
//! serves every size, so a [`Point`] means the same bit on every board; a [`Geometry`] holds the
//! board's size and its on-board mask, and does the shifts that respect the edges.
//!
//! ```
//! use stonelab_go::{Bitboard, Geometry, Point};
//! let g = Geometry::new(3, 3).unwrap();
//! let centre = Bitboard::from_point(Point::new(1, 1));
//! // The four orthogonal neighbours of the centre of a 3x3 board.
//! assert_eq!(g.neighbours(centre).count(), 4);
//! // A corner has two.
//! assert_eq!(g.neighbours(Bitboard::from_point(Point::new(0, 0))).count(), 2);
//! ```

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign};

/// Largest number of rows or columns.
pub const MAX_SIZE: usize = 19;
/// Bits per row in the layout (one padding column).
pub const STRIDE: usize = 20;
/// 64-bit words in a bitboard: 19 rows of 20 bits is 380 bits.
pub const WORDS: usize = 6;
/// Number of bit positions (including padding and unused bits).
pub const BITS: usize = WORDS * 64;

/// A point of the board, stored as its bit index `row * STRIDE + col`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Point(u16);

impl Point {
    /// The point at `row` (0 = top) and `col` (0 = left). Both must be below [`MAX_SIZE`].
    #[must_use]
    #[inline]
    pub const fn new(row: usize, col: usize) -> Point {
        assert!(row < MAX_SIZE && col < MAX_SIZE);
        Point((row * STRIDE + col) as u16)
    }

    /// The point with bit index `index`, if that index is a real point of a 19x19 board.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Point> {
        if index / STRIDE < MAX_SIZE && index % STRIDE < MAX_SIZE {
            Some(Point(index as u16))
        } else {
            None
        }
    }

    /// Bit index in a [`Bitboard`].
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row, 0 at the top.
    #[must_use]
    #[inline]
    pub const fn row(self) -> usize {
        self.0 as usize / STRIDE
    }

    /// Column, 0 at the left.
    #[must_use]
    #[inline]
    pub const fn col(self) -> usize {
        self.0 as usize % STRIDE
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row(), self.col())
    }
}

/// A set of points, one bit per point (see the module docs for the layout).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub [u64; WORDS]);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard([0; WORDS]);

    /// The set holding one point.
    #[must_use]
    #[inline]
    pub const fn from_point(p: Point) -> Bitboard {
        let mut words = [0; WORDS];
        words[p.index() / 64] = 1 << (p.index() % 64);
        Bitboard(words)
    }

    /// Whether `p` is in the set.
    #[must_use]
    #[inline]
    pub const fn contains(&self, p: Point) -> bool {
        self.0[p.index() / 64] >> (p.index() % 64) & 1 != 0
    }

    /// Adds `p`.
    #[inline]
    pub fn set(&mut self, p: Point) {
        self.0[p.index() / 64] |= 1 << (p.index() % 64);
    }

    /// Removes `p`.
    #[inline]
    pub fn clear(&mut self, p: Point) {
        self.0[p.index() / 64] &= !(1 << (p.index() % 64));
    }

    /// Adds `p` and returns the set (for building constants in expressions).
    #[must_use]
    #[inline]
    pub fn with(mut self, p: Point) -> Bitboard {
        self.set(p);
        self
    }

    /// Number of points in the set.
    #[must_use]
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set is empty.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Whether the set has at least one point.
    #[must_use]
    #[inline]
    pub fn any(&self) -> bool {
        !self.is_empty()
    }

    /// The points of `self` that are not in `other`.
    #[must_use]
    #[inline]
    pub fn and_not(self, other: Bitboard) -> Bitboard {
        let mut out = self;
        for i in 0..WORDS {
            out.0[i] &= !other.0[i];
        }
        out
    }

    /// The lowest point of the set, if any.
    #[must_use]
    #[inline]
    pub fn first(&self) -> Option<Point> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(Point((i * 64 + w.trailing_zeros() as usize) as u16));
            }
        }
        None
    }

    /// Iterates over the points in increasing bit order (row by row, top first).
    #[must_use]
    #[inline]
    pub fn iter(&self) -> Iter {
        Iter {
            words: self.0,
            word: 0,
        }
    }

    /// Raw shift towards higher bit indices by `N` bits, `0 < N < 64`. Bits may land on padding or
    /// off-board positions: mask the result (see [`Geometry`]).
    #[must_use]
    #[inline(always)]
    pub fn shl<const N: u32>(self) -> Bitboard {
        let w = self.0;
        let mut out = [0; WORDS];
        out[0] = w[0] << N;
        for i in 1..WORDS {
            out[i] = (w[i] << N) | (w[i - 1] >> (64 - N));
        }
        Bitboard(out)
    }

    /// Raw shift towards lower bit indices by `N` bits, `0 < N < 64`.
    #[must_use]
    #[inline(always)]
    pub fn shr<const N: u32>(self) -> Bitboard {
        let w = self.0;
        let mut out = [0; WORDS];
        for i in 0..WORDS - 1 {
            out[i] = (w[i] >> N) | (w[i + 1] << (64 - N));
        }
        out[WORDS - 1] = w[WORDS - 1] >> N;
        Bitboard(out)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for p in iter {
            b.set(p);
        }
        b
    }
}

macro_rules! wordwise {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                let mut out = self;
                for i in 0..WORDS {
                    out.0[i] = self.0[i] $op rhs.0[i];
                }
                out
            }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign(&mut self, rhs: Bitboard) {
                *self = *self $op rhs;
            }
        }
    };
}
wordwise!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wordwise!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wordwise!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

/// Iterator over the points of a [`Bitboard`].
#[derive(Clone, Debug)]
pub struct Iter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for Iter {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Point((self.word * 64 + w.trailing_zeros() as usize) as u16));
            }
            self.word += 1;
        }
        None
    }
}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = Iter;
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

/// Why a board size was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unsupported board size {rows}x{cols}: rows and columns must be 1..=19")]
pub struct SizeError {
    pub rows: usize,
    pub cols: usize,
}

/// A board's size and the masks that make shifts respect its edges.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    rows: usize,
    cols: usize,
    mask: Bitboard,
    top: Bitboard,
    bottom: Bitboard,
    left: Bitboard,
    right: Bitboard,
}

impl Geometry {
    /// The geometry of a `rows` x `cols` board, 1..=19 each.
    pub fn new(rows: usize, cols: usize) -> Result<Geometry, SizeError> {
        if !(1..=MAX_SIZE).contains(&rows) || !(1..=MAX_SIZE).contains(&cols) {
            return Err(SizeError { rows, cols });
        }
        let mut g = Geometry {
            rows,
            cols,
            mask: Bitboard::EMPTY,
            top: Bitboard::EMPTY,
            bottom: Bitboard::EMPTY,
            left: Bitboard::EMPTY,
            right: Bitboard::EMPTY,
        };
        for r in 0..rows {
            for c in 0..cols {
                let p = Point::new(r, c);
                g.mask.set(p);
                if r == 0 {
                    g.top.set(p);
                }
                if r == rows - 1 {
                    g.bottom.set(p);
                }
                if c == 0 {
                    g.left.set(p);
                }
                if c == cols - 1 {
                    g.right.set(p);
                }
            }
        }
        Ok(g)
    }

    /// Number of rows.
    #[must_use]
    #[inline]
    pub const fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    #[must_use]
    #[inline]
    pub const fn cols(&self) -> usize {
        self.cols
    }

    /// Number of points.
    #[must_use]
    #[inline]
    pub const fn area(&self) -> usize {
        self.rows * self.cols
    }

    /// How far `p` is from the nearest edge: 0 on the first line, 1 on the second, ...
    #[must_use]
    pub fn edge_distance(&self, p: Point) -> usize {
        p.row()
            .min(p.col())
            .min(self.rows() - 1 - p.row())
            .min(self.cols() - 1 - p.col())
    }

    /// Every point of the board.
    #[must_use]
    #[inline]
    pub const fn mask(&self) -> Bitboard {
        self.mask
    }

    /// The top row.
    #[must_use]
    #[inline]
    pub const fn top_edge(&self) -> Bitboard {
        self.top
    }

    /// The bottom row.
    #[must_use]
    #[inline]
    pub const fn bottom_edge(&self) -> Bitboard {
        self.bottom
    }

    /// The leftmost column.
    #[must_use]
    #[inline]
    pub const fn left_edge(&self) -> Bitboard {
        self.left
    }

    /// The rightmost column.
    #[must_use]
    #[inline]
    pub const fn right_edge(&self) -> Bitboard {
        self.right
    }

    /// Whether `(row, col)` is on the board.
    #[must_use]
    #[inline]
    pub const fn contains(&self, row: usize, col: usize) -> bool {
        row < self.rows && col < self.cols
    }

    /// The point at `(row, col)` if it is on the board.
    #[must_use]
    #[inline]
    pub const fn point(&self, row: usize, col: usize) -> Option<Point> {
        if self.contains(row, col) {
            Some(Point::new(row, col))
        } else {
            None
        }
    }

    /// Every point of the board, row by row, top first.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| Point::new(r, c)))
    }

    /// The complement of `b` within the board.
    #[must_use]
    #[inline(always)]
    pub fn not(&self, b: Bitboard) -> Bitboard {
        self.mask.and_not(b)
    }

    /// Moves every point one row up (towards row 0); the top row falls off.
    #[must_use]
    #[inline(always)]
    pub fn up(&self, b: Bitboard) -> Bitboard {
        b.shr::<{ STRIDE as u32 }>() & self.mask
    }

    /// Moves every point one row down; the bottom row falls off.
    #[must_use]
    #[inline(always)]
    pub fn down(&self, b: Bitboard) -> Bitboard {
        b.shl::<{ STRIDE as u32 }>() & self.mask
    }

    /// Moves every point one column left (towards column 0); the left column falls off.
    #[must_use]
    #[inline(always)]
    pub fn left(&self, b: Bitboard) -> Bitboard {
        b.shr::<1>() & self.mask
    }

    /// Moves every point one column right; the right column falls off.
    #[must_use]
    #[inline(always)]
    pub fn right(&self, b: Bitboard) -> Bitboard {
        b.shl::<1>() & self.mask
    }

    /// Moves every point one step up and one left.
    #[must_use]
    #[inline(always)]
    pub fn up_left(&self, b: Bitboard) -> Bitboard {
        b.shr::<{ STRIDE as u32 + 1 }>() & self.mask
    }

    /// Moves every point one step up and one right.
    #[must_use]
    #[inline(always)]
    pub fn up_right(&self, b: Bitboard) -> Bitboard {
        b.shr::<{ STRIDE as u32 - 1 }>() & self.mask
    }

    /// Moves every point one step down and one left.
    #[must_use]
    #[inline(always)]
    pub fn down_left(&self, b: Bitboard) -> Bitboard {
        b.shl::<{ STRIDE as u32 - 1 }>() & self.mask
    }

    /// Moves every point one step down and one right.
    #[must_use]
    #[inline(always)]
    pub fn down_right(&self, b: Bitboard) -> Bitboard {
        b.shl::<{ STRIDE as u32 + 1 }>() & self.mask
    }

    /// The orthogonal neighbours of the points of `b` (which may include points of `b`).
    #[must_use]
    #[inline]
    pub fn neighbours(&self, b: Bitboard) -> Bitboard {
        // Shifts by one and by a row, masked once: the padding column absorbs left/right carries.
        (b.shl::<1>() | b.shr::<1>() | b.shl::<{ STRIDE as u32 }>() | b.shr::<{ STRIDE as u32 }>())
            & self.mask
    }

    /// The points of `within` connected to `seed` through orthogonal steps inside `within`
    /// (`seed` is clipped to `within`).
    #[must_use]
    pub fn flood(&self, seed: Bitboard, within: Bitboard) -> Bitboard {
        let mut region = seed & within;
        loop {
            let grown = (region | self.neighbours(region)) & within;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every combination of shifts and sizes against a per-point reference, on a few patterns.
    #[test]
    fn shifts_match_per_point_reference() {
        type Step = (i32, i32, fn(&Geometry, Bitboard) -> Bitboard);
        let steps: [Step; 8] = [
            (-1, 0, Geometry::up),
            (1, 0, Geometry::down),
            (0, -1, Geometry::left),
            (0, 1, Geometry::right),
            (-1, -1, Geometry::up_left),
            (-1, 1, Geometry::up_right),
            (1, -1, Geometry::down_left),
            (1, 1, Geometry::down_right),
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for rows in 1..=MAX_SIZE {
            for cols in 1..=MAX_SIZE {
                let g = Geometry::new(rows, cols).unwrap();
                for trial in 0..4 {
                    let mut b = Bitboard::EMPTY;
                    for p in g.points() {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        if trial == 0 || seed.is_multiple_of(3) {
                            b.set(p);
                        }
                    }
                    for &(dr, dc, f) in &steps {
                        let mut want = Bitboard::EMPTY;
                        for p in b.iter() {
                            let (r, c) = (p.row() as i32 + dr, p.col() as i32 + dc);
                            if r >= 0 && c >= 0 && g.contains(r as usize, c as usize) {
                                want.set(Point::new(r as usize, c as usize));
                            }
                        }
                        assert_eq!(f(&g, b), want, "{rows}x{cols} step ({dr},{dc})");
                    }
                    let n = g.neighbours(b);
                    let want = g.up(b) | g.down(b) | g.left(b) | g.right(b);
                    assert_eq!(n, want);
                }
            }
        }
    }

    #[test]
    fn set_ops_count_and_iter() {
        let g = Geometry::new(19, 19).unwrap();
        assert_eq!(g.mask().count(), 361);
        assert_eq!(g.not(Bitboard::EMPTY), g.mask());
        assert_eq!(g.not(g.mask()), Bitboard::EMPTY);
        let pts: Vec<Point> = g.mask().iter().collect();
        assert_eq!(pts.len(), 361);
        assert!(pts.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(pts.iter().copied().collect::<Bitboard>(), g.mask());
        let mut b = Bitboard::from_point(Point::new(18, 18));
        assert!(b.contains(Point::new(18, 18)));
        b.clear(Point::new(18, 18));
        assert!(b.is_empty());
        assert_eq!(g.top_edge().count(), 19);
        assert_eq!(
            (g.left_edge() & g.top_edge()).first(),
            Some(Point::new(0, 0))
        );
    }

    #[test]
    fn flood_fills_connected_region() {
        let g = Geometry::new(3, 4).unwrap();
        // A wall in column 1 splits column 0 from columns 2..3.
        let wall: Bitboard = (0..3).map(|r| Point::new(r, 1)).collect();
        let open = g.not(wall);
        let left = g.flood(Bitboard::from_point(Point::new(0, 0)), open);
        assert_eq!(left.count(), 3);
        let right = g.flood(Bitboard::from_point(Point::new(2, 3)), open);
        assert_eq!(right.count(), 6);
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(Geometry::new(0, 5).is_err());
        assert!(Geometry::new(20, 5).is_err());
        assert!(Geometry::new(19, 19).is_ok());
        assert!(Point::from_index(19).is_none());
        assert_eq!(Point::from_index(21), Some(Point::new(1, 1)));
    }
}
