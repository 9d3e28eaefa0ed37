//! Text forms of board sizes, vertices and moves: GTP vertices (columns `A`..`T` without `I`, row 1
//! at the bottom, `pass`), sizes `RxC`, and move lists `B C3 W D4 B pass`.
//!
//! ```
//! use stonelab_go::vertex::{format_vertex, parse_vertex, parse_size};
//! use stonelab_go::{Move, Point};
//! let g = parse_size("9x9").unwrap();
//! // C3 on 9x9: column 2, third row from the bottom (row index 6 from the top).
//! assert_eq!(parse_vertex("C3", &g), Ok(Move::Play(Point::new(6, 2))));
//! assert_eq!(format_vertex(Point::new(0, 8), &g), "J9");
//! ```

use crate::bitboard::{Geometry, Point, MAX_SIZE};
use crate::board::Move;
use crate::color::Color;

/// Column letters of GTP (no `I`).
pub const COLUMNS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";

/// Why a vertex could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VertexError {
    /// Not a vertex at all.
    #[error("'{0}' is not a vertex (expected e.g. C3 or pass)")]
    Malformed(String),
    /// A well-formed vertex outside this board.
    #[error("'{0}' is off the board")]
    OffBoard(String),
}

/// Why a size could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad board size '{0}': expected ROWSxCOLS (or N), each 1..=19")]
pub struct SizeParseError(pub String);

/// Reads `RxC` (rows x columns) or a single `N` for a square board.
pub fn parse_size(text: &str) -> Result<Geometry, SizeParseError> {
    let err = || SizeParseError(text.to_string());
    let t = text.trim();
    let (r, c) = match t.split_once(['x', 'X']) {
        Some((r, c)) => (r, c),
        None => (t, t),
    };
    let r: usize = r.trim().parse().map_err(|_| err())?;
    let c: usize = c.trim().parse().map_err(|_| err())?;
    Geometry::new(r, c).map_err(|_| err())
}

/// Formats a size as `RxC`.
#[must_use]
pub fn format_size(g: &Geometry) -> String {
    format!("{}x{}", g.rows(), g.cols())
}

/// Reads a GTP vertex (case-insensitive) or `pass`.
pub fn parse_vertex(text: &str, g: &Geometry) -> Result<Move, VertexError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let malformed = || VertexError::Malformed(t.to_string());
    let mut chars = t.chars();
    let letter = chars.next().ok_or_else(malformed)?.to_ascii_uppercase();
    let col = COLUMNS
        .iter()
        .position(|&c| c as char == letter)
        .ok_or_else(malformed)?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(malformed());
    }
    let row_from_bottom: usize = digits.parse().map_err(|_| malformed())?;
    if row_from_bottom == 0 || row_from_bottom > MAX_SIZE {
        return Err(malformed());
    }
    if row_from_bottom > g.rows() || col >= g.cols() {
        return Err(VertexError::OffBoard(t.to_string()));
    }
    Ok(Move::Play(Point::new(g.rows() - row_from_bottom, col)))
}

/// The GTP vertex of a point of `g`.
#[must_use]
pub fn format_vertex(p: Point, g: &Geometry) -> String {
    format!(
        "{}{}",
        COLUMNS[p.col()] as char,
        g.rows().saturating_sub(p.row())
    )
}

/// The GTP form of a move (`pass` for a pass).
#[must_use]
pub fn format_move(mv: Move, g: &Geometry) -> String {
    match mv {
        Move::Play(p) => format_vertex(p, g),
        Move::Pass => "pass".to_string(),
    }
}

/// Reads a colour: `B`, `W`, `black`, `white` (case-insensitive).
#[must_use]
pub fn parse_color(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// One entry of a move list; the vertex is kept as text so that an off-board vertex can be reported
/// as an illegal move with its number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedMove {
    pub color: Color,
    pub vertex: String,
}

/// Why a move list could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveListError {
    #[error("move {number}: '{token}' is not a colour (expected B or W)")]
    BadColor { number: usize, token: String },
    #[error("move {number}: colour {color} has no vertex after it")]
    MissingVertex { number: usize, color: char },
}

/// Splits `B C3 W D4 B pass` into colour and vertex pairs (commas and semicolons count as spaces).
pub fn parse_move_list(text: &str) -> Result<Vec<ListedMove>, MoveListError> {
    let mut tokens = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|t| !t.is_empty());
    let mut out = Vec::new();
    while let Some(tok) = tokens.next() {
        let number = out.len() + 1;
        let color = parse_color(tok).ok_or_else(|| MoveListError::BadColor {
            number,
            token: tok.to_string(),
        })?;
        let vertex = tokens.next().ok_or(MoveListError::MissingVertex {
            number,
            color: color.letter(),
        })?;
        out.push(ListedMove {
            color,
            vertex: vertex.to_string(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_round_trip_on_every_size() {
        for rows in 1..=19 {
            for cols in 1..=19 {
                let g = Geometry::new(rows, cols).unwrap();
                for p in g.points() {
                    let v = format_vertex(p, &g);
                    assert_eq!(parse_vertex(&v, &g), Ok(Move::Play(p)));
                    assert_eq!(parse_vertex(&v.to_lowercase(), &g), Ok(Move::Play(p)));
                }
            }
        }
    }

    #[test]
    fn bad_vertices() {
        let g = Geometry::new(9, 9).unwrap();
        assert_eq!(parse_vertex("PASS", &g), Ok(Move::Pass));
        for bad in ["", "I5", "A0", "A", "3C", "Z1", "A20", "A1x", "A-1"] {
            assert!(
                matches!(parse_vertex(bad, &g), Err(VertexError::Malformed(_))),
                "{bad}"
            );
        }
        for off in ["K1", "A10", "T19"] {
            assert!(
                matches!(parse_vertex(off, &g), Err(VertexError::OffBoard(_))),
                "{off}"
            );
        }
    }

    #[test]
    fn sizes_and_lists() {
        assert_eq!(parse_size("3x5").unwrap().cols(), 5);
        assert_eq!(parse_size("7").unwrap().rows(), 7);
        for bad in ["0x3", "20x2", "x", "3x", "a"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        let l = parse_move_list("B C3 w d4\nB pass").unwrap();
        assert_eq!(l.len(), 3);
        assert_eq!(l[1].color, Color::White);
        assert!(matches!(
            parse_move_list("B C3 X D4"),
            Err(MoveListError::BadColor { number: 2, .. })
        ));
        assert!(matches!(
            parse_move_list("B C3 W"),
            Err(MoveListError::MissingVertex { number: 2, .. })
        ));
    }
}
