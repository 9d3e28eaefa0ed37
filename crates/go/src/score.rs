//! Area scoring: each side's stones plus the empty regions bordered by that side only.
//!
//! ```
//! use stonelab_go::{score, Setup};
//! let s: Setup = ".X.O.\n.X.O.\n.X.O.\n".parse().unwrap();
//! // Black: 3 stones + 3 in column 0; White: 3 stones + 3 in column 4; column 2 is neutral.
//! assert_eq!(score::area(&s.geometry, s.black, s.white), [6, 6]);
//! assert_eq!(score::format_score(-7.5), "W+7.5");
//! ```

use crate::bitboard::{Bitboard, Geometry};

/// Black's and White's area: stones plus the empty regions whose neighbours are all of that colour.
#[must_use]
pub fn area(g: &Geometry, black: Bitboard, white: Bitboard) -> [u32; 2] {
    let [b, w] = owners(g, black, white);
    [b.count(), w.count()]
}

/// The points each side owns by area: its stones plus the empty regions whose neighbours are all of
/// that colour (empty regions touching both colours, or none, belong to neither).
#[must_use]
pub fn owners(g: &Geometry, black: Bitboard, white: Bitboard) -> [Bitboard; 2] {
    let empty = g.not(black | white);
    let mut out = [black, white];
    let mut rest = empty;
    while let Some(p) = rest.first() {
        let region = g.flood(Bitboard::from_point(p), empty);
        let border = g.neighbours(region);
        let b = (border & black).any();
        let w = (border & white).any();
        if b && !w {
            out[0] |= region;
        } else if w && !b {
            out[1] |= region;
        }
        rest = rest.and_not(region);
    }
    out
}

/// A score from Black's point of view as `B+x`, `W+x` or `0`; whole numbers print without a
/// decimal point (`B+3`, `W+0.5`).
#[must_use]
pub fn format_score(score: f64) -> String {
    if score == 0.0 {
        return "0".to_string();
    }
    let side = if score > 0.0 { 'B' } else { 'W' };
    format!("{side}+{}", score.abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Setup;

    #[test]
    fn empty_board_and_dame() {
        let s: Setup = "...\n...\n".parse().unwrap();
        assert_eq!(area(&s.geometry, s.black, s.white), [0, 0]);
        let s: Setup = "X..\n...\n".parse().unwrap();
        assert_eq!(area(&s.geometry, s.black, s.white), [6, 0]);
        let s: Setup = "X.O\n...\n".parse().unwrap();
        assert_eq!(area(&s.geometry, s.black, s.white), [1, 1]);
    }

    #[test]
    fn formatting() {
        assert_eq!(format_score(0.0), "0");
        assert_eq!(format_score(3.0), "B+3");
        assert_eq!(format_score(3.5), "B+3.5");
        assert_eq!(format_score(-0.5), "W+0.5");
        assert_eq!(format_score(-25.0), "W+25");
    }
}
