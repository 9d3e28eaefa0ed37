//! Stone colours.

use std::fmt;

/// The colour of a stone or of a player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[must_use]
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White (an index into per-colour arrays).
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour's letter in GTP and SGF: `B` or `W`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// The colour's diagram glyph: `X` for Black, `O` for White.
    #[must_use]
    pub const fn glyph(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_and_index() {
        assert_eq!(Color::Black.opponent(), Color::White);
        assert_eq!(Color::White.opponent().opponent(), Color::White);
        assert_eq!(Color::ALL.map(Color::index), [0, 1]);
        assert_eq!(Color::White.to_string(), "white");
    }
}
