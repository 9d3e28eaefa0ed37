//! A plain, unvalidated arrangement of stones (shakmaty's `Setup`): any stones, side to move, ko
//! point and capture counts. [`Board::from_setup`](crate::Board::from_setup) validates it and hands
//! it back with the reasons when it is not a legal position.
//!
//! ```
//! use stonelab_go::{Board, Rules, Setup};
//! let setup: Setup = "XO\nO.\n".parse().unwrap();
//! // The black corner stone has no liberty.
//! let err = Board::from_setup(setup, Rules::default()).unwrap_err();
//! assert_eq!(err.to_string(), "illegal setup: black block at (0,0) has no liberty");
//! ```

use std::fmt;
use std::str::FromStr;

use crate::bitboard::{Bitboard, Geometry, Point, MAX_SIZE};
use crate::color::Color;

/// Any arrangement of stones on a board, with no legality guaranteed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub geometry: Geometry,
    pub black: Bitboard,
    pub white: Bitboard,
    pub to_move: Color,
    /// The point the side to move may not play because of simple ko.
    pub ko: Option<Point>,
    /// Stones captured by Black and by White.
    pub captures: [u32; 2],
}

/// One reason a setup is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SetupProblem {
    /// Stones lie outside the geometry.
    StonesOffBoard(Bitboard),
    /// Points hold both a black and a white stone.
    BothColours(Bitboard),
    /// A block has no liberty; the point is one of its stones.
    NoLiberties(Color, Point),
    /// The ko point is not one a single-stone capture by the opponent could have left.
    BadKo(Point),
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::StonesOffBoard(b) => write!(f, "stones off the board at {b:?}"),
            SetupProblem::BothColours(b) => write!(f, "points with both colours: {b:?}"),
            SetupProblem::NoLiberties(c, p) => write!(f, "{c} block at {p} has no liberty"),
            SetupProblem::BadKo(p) => write!(f, "{p} cannot be a ko point"),
        }
    }
}

/// A setup that is not a legal position: the setup itself and every reason found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    pub setup: Box<Setup>,
    pub problems: Vec<SetupProblem>,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal setup: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SetupError {}

impl Setup {
    /// The empty board, Black to move.
    #[must_use]
    pub fn empty(geometry: Geometry) -> Setup {
        Setup {
            geometry,
            black: Bitboard::EMPTY,
            white: Bitboard::EMPTY,
            to_move: Color::Black,
            ko: None,
            captures: [0; 2],
        }
    }

    /// The stones of one colour.
    #[must_use]
    pub fn stones(&self, color: Color) -> Bitboard {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The colour on `p` (Black wins if both are set).
    #[must_use]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        if self.black.contains(p) {
            Some(Color::Black)
        } else if self.white.contains(p) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Puts a stone of `color` on `p`, or empties it with `None`.
    pub fn set(&mut self, p: Point, color: Option<Color>) {
        self.black.clear(p);
        self.white.clear(p);
        match color {
            Some(Color::Black) => self.black.set(p),
            Some(Color::White) => self.white.set(p),
            None => {}
        }
    }

    /// Every reason this setup is not a legal position (empty when it is one).
    #[must_use]
    pub fn problems(&self) -> Vec<SetupProblem> {
        let g = &self.geometry;
        let mut out = Vec::new();
        let off = (self.black | self.white).and_not(g.mask());
        if off.any() {
            out.push(SetupProblem::StonesOffBoard(off));
        }
        let both = self.black & self.white;
        if both.any() {
            out.push(SetupProblem::BothColours(both));
        }
        let black = self.black & g.mask();
        let white = self.white & g.mask();
        let empty = g.not(black | white);
        for (color, mine) in [(Color::Black, black), (Color::White, white)] {
            let mut rest = mine;
            while let Some(p) = rest.first() {
                let block = g.flood(Bitboard::from_point(p), mine);
                if (g.neighbours(block) & empty).is_empty() {
                    out.push(SetupProblem::NoLiberties(color, p));
                }
                rest = rest.and_not(block);
            }
        }
        if let Some(k) = self.ko {
            if !self.is_ko_shape(k) {
                out.push(SetupProblem::BadKo(k));
            }
        }
        out
    }

    /// Whether `k` is a point the side to move could be banned from by simple ko: on the board and
    /// empty, every neighbour an opponent stone, one of them a lone stone whose only liberty is `k`.
    fn is_ko_shape(&self, k: Point) -> bool {
        let g = &self.geometry;
        let theirs = self.stones(self.to_move.opponent()) & g.mask();
        let empty = g.not(self.black | self.white);
        if !empty.contains(k) {
            return false;
        }
        let kb = Bitboard::from_point(k);
        let nbrs = g.neighbours(kb);
        if nbrs.and_not(theirs).any() {
            return false;
        }
        nbrs.iter().any(|q| {
            let qb = Bitboard::from_point(q);
            g.flood(qb, theirs) == qb && g.neighbours(qb) & empty == kb
        })
    }
}

/// Why a diagram could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiagramError {
    #[error("empty diagram")]
    Empty,
    #[error("row {row} has {len} points, row 1 has {want}")]
    Ragged { row: usize, len: usize, want: usize },
    #[error("unexpected character '{ch}' in row {row} (use X, O and .)")]
    BadChar { row: usize, ch: char },
    #[error("diagram is {rows}x{cols}; rows and columns must be 1..={MAX_SIZE}")]
    Size { rows: usize, cols: usize },
}

impl FromStr for Setup {
    type Err = DiagramError;

    /// Reads a diagram: one line per row, top first, `X` black, `O` white, `.` empty; spaces are
    /// ignored, blank lines skipped. Black to move, no ko.
    fn from_str(text: &str) -> Result<Setup, DiagramError> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        if rows.is_empty() {
            return Err(DiagramError::Empty);
        }
        let cols = rows[0].len();
        let geometry = Geometry::new(rows.len(), cols).map_err(|_| DiagramError::Size {
            rows: rows.len(),
            cols,
        })?;
        let mut setup = Setup::empty(geometry);
        for (r, row) in rows.iter().enumerate() {
            if row.len() != cols {
                return Err(DiagramError::Ragged {
                    row: r + 1,
                    len: row.len(),
                    want: cols,
                });
            }
            for (c, &ch) in row.iter().enumerate() {
                let color = match ch {
                    'X' | 'x' | 'B' | 'b' => Some(Color::Black),
                    'O' | 'o' | 'W' | 'w' => Some(Color::White),
                    '.' | '+' => None,
                    _ => return Err(DiagramError::BadChar { row: r + 1, ch }),
                };
                setup.set(Point::new(r, c), color);
            }
        }
        Ok(setup)
    }
}

impl fmt::Display for Setup {
    /// The diagram: one line per row, top row first, `X` black, `O` white, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.geometry.rows() {
            for c in 0..self.geometry.cols() {
                let ch = match self.color_at(Point::new(r, c)) {
                    Some(color) => color.glyph(),
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_round_trip() {
        let text = "X.O\n.XO\nOO.\n";
        let s: Setup = text.parse().unwrap();
        assert_eq!(s.to_string(), text);
        assert_eq!(s.black.count(), 2);
        assert!(s.problems().is_empty());
        assert!(matches!(
            "X.\nXXX\n".parse::<Setup>(),
            Err(DiagramError::Ragged { .. })
        ));
        assert!(matches!(
            "X?\n".parse::<Setup>(),
            Err(DiagramError::BadChar { .. })
        ));
    }

    #[test]
    fn problems_are_reported() {
        // White's corner stone is captured but still there; Black's block is fine.
        let mut s: Setup = "OX.\nX..\n...\n".parse().unwrap();
        assert_eq!(
            s.problems(),
            vec![SetupProblem::NoLiberties(Color::White, Point::new(0, 0))]
        );
        s.set(Point::new(0, 0), None);
        assert!(s.problems().is_empty());
        // White to move, banned from (0,0) by ko: needs a lone black stone in atari next to it.
        s.to_move = Color::White;
        s.ko = Some(Point::new(0, 0));
        assert_eq!(s.problems(), vec![SetupProblem::BadKo(Point::new(0, 0))]);
        let mut k: Setup = ".XO\nXO.\nO..\n".parse().unwrap();
        k.to_move = Color::White;
        k.ko = Some(Point::new(0, 0));
        assert!(k.problems().is_empty(), "{:?}", k.problems());
        k.ko = Some(Point::new(2, 2));
        assert_eq!(k.problems(), vec![SetupProblem::BadKo(Point::new(2, 2))]);
    }
}
