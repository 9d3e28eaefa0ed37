//! Rule 2/4 eye points for the whole board at once (seed 004), and the naive per-point reference.
//!
//! A point is an *eye* of a colour when it is **eye-like** (empty, and every orthogonal neighbour is
//! an own stone or off the board) and passes **Rule 2/4**: with four *virtual* own stones placed on
//! the off-board diagonal corners `(-1,-1)`, `(-1,C)`, `(R,-1)` and `(R,C)`, at least two of its four
//! diagonals are own stones. A diagonal that is off the board and is not one of those four virtual
//! stones does not count. In one picture (3x3, Black `X`, the eye `e` at the corner needs its single
//! on-board diagonal, the virtual stone `v` gives the other):
//!
//! ```text
//!  v . . . v
//!  . e X . .
//!  . X X . .
//!  . . . . .
//!  v . . . v
//! ```
//!
//! [`EyeMasks::eyes`] computes it with shifts, ANDs and ORs over the whole board, branch-free, using
//! the seed's nine-operation form of "at least two of four":
//! `t = tl|tr; b = bl|br; rule24 = (t|bl) & (tl|b) & (tr|b) & (t|br)`.
//!
//! **Degenerate boards.** The virtual stones sit at those four coordinates whatever the size, so on
//! a 1xN board the two end points each see two virtual diagonals (`(-1,-1)` and `(1,-1)` on the left)
//! and pass, while interior points see none and fail; Nx1 is the same turned; on 1x1 the single
//! point sees all four. The bitboard form agrees because it ORs each virtual stone into the matching
//! diagonal plane at the matching corner point, and on a thin board two of those corner points are
//! the same point. [`eyes_naive`] follows the definition literally and the exhaustive tests compare.
//!
//! ```
//! use stonelab_go::{eyes::EyeMasks, Bitboard, Geometry, Point};
//! let g = Geometry::new(3, 3).unwrap();
//! let own: Bitboard = [(0, 1), (1, 0), (1, 1)].iter().map(|&(r, c)| Point::new(r, c)).collect();
//! let empty = g.not(own);
//! let eyes = EyeMasks::new(g).eyes(own, empty);
//! assert_eq!(eyes, Bitboard::from_point(Point::new(0, 0)));
//! ```

use crate::bitboard::{Bitboard, Geometry, Point, STRIDE};

const S: u32 = STRIDE as u32;

/// The per-geometry masks the whole-board eye computation needs, built once.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EyeMasks {
    geometry: Geometry,
    /// Top-left corner point: its top-left diagonal is the virtual stone `(-1,-1)`.
    top_left: Bitboard,
    /// Top-right corner point: its top-right diagonal is the virtual stone `(-1,C)`.
    top_right: Bitboard,
    /// Bottom-left corner point: its bottom-left diagonal is the virtual stone `(R,-1)`.
    bottom_left: Bitboard,
    /// Bottom-right corner point: its bottom-right diagonal is the virtual stone `(R,C)`.
    bottom_right: Bitboard,
}

impl EyeMasks {
    /// The masks of a geometry.
    #[must_use]
    pub fn new(geometry: Geometry) -> EyeMasks {
        let (last_row, last_col) = (geometry.rows() - 1, geometry.cols() - 1);
        let corner = |r, c| Bitboard::from_point(Point::new(r, c));
        EyeMasks {
            geometry,
            top_left: corner(0, 0),
            top_right: corner(0, last_col),
            bottom_left: corner(last_row, 0),
            bottom_right: corner(last_row, last_col),
        }
    }

    /// The geometry the masks were built for.
    #[must_use]
    pub const fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The eye points of the player whose stones are `own`, with `empty` the empty points (both
    /// must lie on the board; `own` and `empty` disjoint).
    ///
    /// The shifts are the raw bit shifts, not the masked [`Geometry`] ones: everything after the
    /// shifts is pointwise and the result is finally ANDed with `empty`, which lies on the board,
    /// so bits that a shift puts off the board (or on the padding column) never reach the answer,
    /// and the stride-20 layout never carries a bit onto a wrong on-board point.
    #[must_use]
    #[inline]
    pub fn eyes(&self, own: Bitboard, empty: Bitboard) -> Bitboard {
        let g = &self.geometry;
        // Neighbour below / above / left / right is own, or off the board.
        let eyelike = empty
            & (own.shr::<S>() | g.bottom_edge())
            & (own.shl::<S>() | g.top_edge())
            & (own.shl::<1>() | g.left_edge())
            & (own.shr::<1>() | g.right_edge());
        // Diagonal planes: `tl` holds p when p's top-left diagonal is own (virtual stones included).
        let tl = own.shl::<{ S + 1 }>() | self.top_left;
        let tr = own.shl::<{ S - 1 }>() | self.top_right;
        let bl = own.shr::<{ S - 1 }>() | self.bottom_left;
        let br = own.shr::<{ S + 1 }>() | self.bottom_right;
        let t = tl | tr;
        let b = bl | br;
        let rule24 = (t | bl) & (tl | b) & (tr | b) & (t | br);
        eyelike & rule24
    }

    /// The eye points of Black and of White (indexed by [`crate::Color::index`]).
    #[must_use]
    #[inline]
    pub fn eyes_both(&self, black: Bitboard, white: Bitboard) -> [Bitboard; 2] {
        let empty = self.geometry.not(black | white);
        [self.eyes(black, empty), self.eyes(white, empty)]
    }
}

/// The eye points of `own` on a board of geometry `g` (builds the masks; prefer [`EyeMasks`] in
/// loops).
#[must_use]
pub fn eyes(g: &Geometry, own: Bitboard, empty: Bitboard) -> Bitboard {
    EyeMasks::new(*g).eyes(own, empty)
}

/// Whether `p` is an eye of `own`, written point by point from the definition: explicit
/// neighbours, explicit diagonals, explicit virtual corner stones. The reference for [`eyes`].
#[must_use]
pub fn is_eye_naive(g: &Geometry, own: Bitboard, empty: Bitboard, p: Point) -> bool {
    let (rows, cols) = (g.rows() as i32, g.cols() as i32);
    let (r, c) = (p.row() as i32, p.col() as i32);
    let on_board = |r: i32, c: i32| r >= 0 && c >= 0 && r < rows && c < cols;
    let is_own =
        |r: i32, c: i32| on_board(r, c) && own.contains(Point::new(r as usize, c as usize));
    if !on_board(r, c) || !empty.contains(p) {
        return false;
    }
    for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
        let (nr, nc) = (r + dr, c + dc);
        if on_board(nr, nc) && !is_own(nr, nc) {
            return false;
        }
    }
    let virtual_stones = [(-1, -1), (-1, cols), (rows, -1), (rows, cols)];
    let mut own_diagonals = 0;
    for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
        let (nr, nc) = (r + dr, c + dc);
        if is_own(nr, nc) || virtual_stones.contains(&(nr, nc)) {
            own_diagonals += 1;
        }
    }
    own_diagonals >= 2
}

/// [`is_eye_naive`] over every point of the board.
#[must_use]
pub fn eyes_naive(g: &Geometry, own: Bitboard, empty: Bitboard) -> Bitboard {
    g.points()
        .filter(|&p| is_eye_naive(g, own, empty, p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> (Geometry, Bitboard, Bitboard) {
        let g = Geometry::new(rows.len(), rows[0].len()).unwrap();
        let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for (r, line) in rows.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    'X' => black.set(Point::new(r, c)),
                    'O' => white.set(Point::new(r, c)),
                    _ => {}
                }
            }
        }
        (g, black, white)
    }

    #[test]
    fn corner_edge_and_centre() {
        let (g, black, white) = board(&[
            ".X.X.", //
            "XXXXX", //
            "X.X.X", //
            "XX.XX", //
            "X.XX.",
        ]);
        let [b, w] = EyeMasks::new(g).eyes_both(black, white);
        assert!(w.is_empty());
        // (0,0): corner, diagonal (1,1) own. (0,2): edge, both diagonals own. (0,4): corner.
        // (2,1): centre, diagonals (1,0),(1,2),(3,0),(3,2): three own -> eye. (2,3) likewise.
        // (3,2): eye-like, but one own diagonal of four. (4,1): eye-like edge point, diagonal (3,2)
        // empty -> not an eye. (4,4): corner, virtual stone plus (3,3).
        let want: Bitboard = [(0, 0), (0, 2), (0, 4), (2, 1), (2, 3), (4, 4)]
            .iter()
            .map(|&(r, c)| Point::new(r, c))
            .collect();
        assert_eq!(b, want);
        assert_eq!(b, eyes_naive(&g, black, g.not(black | white)));
    }

    #[test]
    fn degenerate_boards() {
        // 1x1: the lone empty point is an eye of both colours.
        let g = Geometry::new(1, 1).unwrap();
        let m = EyeMasks::new(g);
        assert_eq!(m.eyes_both(Bitboard::EMPTY, Bitboard::EMPTY), [g.mask(); 2]);
        // 1x3 `.X.`: both ends are eyes of Black (two virtual diagonals each).
        let (g, black, white) = board(&[".X."]);
        assert_eq!(EyeMasks::new(g).eyes_both(black, white)[0].count(), 2);
        // 1x5 `X.X.X`: interior points have no virtual diagonal, so no eye.
        let (g, black, white) = board(&["X.X.X"]);
        assert!(EyeMasks::new(g).eyes_both(black, white)[0].is_empty());
        // 3x1 column `.`/`X`/`.`: same as 1x3 turned.
        let (g, black, white) = board(&[".", "X", "."]);
        assert_eq!(EyeMasks::new(g).eyes_both(black, white)[0].count(), 2);
    }
}
