//! Per-cell, per-direction, per-colour threat classes, modelled on Rapfi's pattern classes, and the
//! table that finds them in one lookup.
//!
//! Design (as Rapfi): a line of the board is kept as a string of 2-bit cell codes (the seed's digits: 0
//! empty, 1 white, 2 black, 3 edge). The class of an empty cell in one direction depends only on the
//! `reach` cells on each side of it: 4 for freestyle (every five holding the cell lies within 4 cells),
//! 5 for standard (the exactly-five check also looks at the cell just past the five). The table key is
//! those `2 * reach` cells, 2 bits each (centre left out): 2^16 keys for freestyle, 2^20 for standard.
//! An entry is one byte: the white class in the low nibble, the black class in the high nibble. RAM:
//! 64 KiB (freestyle), 1 MiB (standard). Built lazily from the bit-parallel line code in
//! [`super::line`], one small evaluation per key a board can produce.

use std::ops::Deref;

use super::line::{classes_at, LineStones};
use super::windows::WindowTable;
use super::PerRule;
use crate::{Color, Rule};

/// The class of an empty cell for one colour in one direction, weakest first. After a stone of that
/// colour on the cell, counting only fives that hold the cell:
///
/// ```text
/// Five       X X X X .      the stone completes a five (standard: exactly five)
/// OpenFour   . X X X . .    two five points afterwards (a straight four)
/// Four       O X X X . .    one five point afterwards
/// OpenThree  . . X . X . .  some further move then makes it an open four
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pattern {
    #[default]
    None = 0,
    OpenThree = 1,
    Four = 2,
    OpenFour = 3,
    Five = 4,
}

impl Pattern {
    /// All classes, weakest first.
    pub const ALL: [Pattern; 5] = [
        Pattern::None,
        Pattern::OpenThree,
        Pattern::Four,
        Pattern::OpenFour,
        Pattern::Five,
    ];

    /// The class stored as `bits` (its place in [`Pattern::ALL`]); `None` past the strongest.
    #[must_use]
    pub const fn from_bits(bits: u8) -> Pattern {
        if (bits as usize) < Pattern::ALL.len() {
            Pattern::ALL[bits as usize]
        } else {
            Pattern::None
        }
    }

    /// The lower-case name used in JSON.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Pattern::None => "none",
            Pattern::OpenThree => "open_three",
            Pattern::Four => "four",
            Pattern::OpenFour => "open_four",
            Pattern::Five => "five",
        }
    }
}

/// The per-cell window table of one rule; its [`WindowTable`] gives the rule, both classes of a key
/// ([`WindowTable::lookup`]) and the size.
pub struct PatternTable(WindowTable);

static TABLES: PerRule<PatternTable> = PerRule::new();

impl PatternTable {
    /// The shared table of `rule`, built on first use.
    #[must_use]
    pub fn get(rule: Rule) -> &'static PatternTable {
        TABLES.get_or_build(rule, PatternTable::build)
    }

    /// Builds the table of `rule` from scratch (keys no board can produce stay 0).
    #[must_use]
    pub fn build(rule: Rule) -> PatternTable {
        PatternTable(WindowTable::build(rule, |key| {
            if is_board_window(key, rule) {
                let [w, b] = classes_at(window_line(key, rule), rule.reach() as u32, rule);
                w as u8 | (b as u8) << 4
            } else {
                0
            }
        }))
    }

    /// The class of colour `c` of the centre of a window key.
    #[inline]
    #[must_use]
    pub fn pattern(&self, key: u32, c: Color) -> Pattern {
        Pattern::from_bits(self.0.nibble(key, c))
    }
}

impl Deref for PatternTable {
    type Target = WindowTable;

    fn deref(&self) -> &WindowTable {
        &self.0
    }
}

/// The window key of the centre cell `t` of a line string of 2-bit codes in which cell `t` sits at bit
/// `2 * (t + pad)` (cells outside the line coded 3).
#[inline]
#[must_use]
pub const fn window_key(string: u64, t: u32, pad: u32, rule: Rule) -> u32 {
    let reach = rule.reach() as u32;
    let side = (1u64 << (2 * reach)) - 1;
    let lo = (string >> (2 * (t + pad - reach))) & side;
    let hi = (string >> (2 * (t + pad + 1))) & side;
    (lo | hi << (2 * reach)) as u32
}

/// Whether a board can produce this key: edge cells only at the window's two ends (on the left a run
/// from the far end, on the right a run to the far end). Other keys are never looked up and stay 0;
/// skipping them makes the standard build about 8 times cheaper (364^2 of 2^20 keys remain).
#[must_use]
pub fn is_board_window(key: u32, rule: Rule) -> bool {
    let reach = rule.reach() as u32;
    let mut edges = 0u32;
    for j in 0..2 * reach {
        if key >> (2 * j) & 3 == 3 {
            edges |= 1 << j;
        }
    }
    let side = (1u32 << reach) - 1;
    let left = edges & side;
    // Left: cells 0..reach run from the far end, so the edges are bits 0..e.
    // Right: cells reach..2*reach run towards the far end, so the edges are the top bits.
    let right = (edges >> reach).reverse_bits() >> (32 - reach);
    left & (left + 1) == 0 && right & (right + 1) == 0
}

/// The window of a key as a line of `2 * reach + 1` cells, centre empty, edge cells left out.
#[must_use]
pub fn window_line(key: u32, rule: Rule) -> LineStones {
    let reach = rule.reach() as u32;
    let mut line = LineStones {
        cells: 1 << reach,
        ..LineStones::default()
    };
    for j in 0..2 * reach {
        let cell = if j < reach { j } else { j + 1 };
        match key >> (2 * j) & 3 {
            0 => line.cells |= 1 << cell,
            1 => {
                line.cells |= 1 << cell;
                line.white |= 1 << cell;
            }
            2 => {
                line.cells |= 1 << cell;
                line.black |= 1 << cell;
            }
            _ => {}
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_order_is_strength() {
        assert!(Pattern::Five > Pattern::OpenFour);
        assert!(Pattern::Four > Pattern::OpenThree);
        for p in Pattern::ALL {
            assert_eq!(Pattern::from_bits(p as u8), p);
        }
    }

    #[test]
    fn straight_four_in_the_window() {
        // Freestyle window: cells -4..-1 = ". X X X", +1..+4 = ". . . .": an open-four point.
        let codes = [0u32, 2, 2, 2, 0, 0, 0, 0];
        let key = codes
            .iter()
            .enumerate()
            .fold(0, |k, (j, &c)| k | c << (2 * j));
        let table = PatternTable::get(Rule::Freestyle);
        assert_eq!(table.pattern(key, Color::Black), Pattern::OpenFour);
        assert_eq!(table.pattern(key, Color::White), Pattern::None);
    }
}
