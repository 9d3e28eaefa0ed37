//! Stone colours, numbered as in the seed: white 0 (line digit 1), black 1 (line digit 2). Black moves
//! first.

use std::ops::Not;

/// The colour of a stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White, the second player; skew-ternary digit 1.
    White = 0,
    /// Black, the first player; skew-ternary digit 2.
    Black = 1,
}

impl Color {
    /// Both colours, white first (the seed's colour numbers).
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for white, 1 for black.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The line digit of a stone of this colour: 1 white, 2 black.
    #[must_use]
    pub const fn digit(self) -> u32 {
        self as u32 + 1
    }

    /// The lower-case name used in JSON.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;

    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_match_the_seed() {
        assert_eq!(Color::White.digit(), 1);
        assert_eq!(Color::Black.digit(), 2);
        assert_eq!(!Color::Black, Color::White);
    }
}
