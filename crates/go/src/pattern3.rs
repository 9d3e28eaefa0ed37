//! 3x3 patterns around a candidate move, for the playout policy and the tree's priors.
//!
//! The shapes are the ones MoGo's playouts answer the last move with (Gelly, Wang, Munos and
//! Teytaud, "Modification of UCT with Patterns in Monte-Carlo Go", 2006): hane, cut and edge
//! shapes, each a 3x3 window around an empty point. A pattern holds for either colour (each is
//! also matched with the colours swapped) and in each of the 8 orientations of the square.
//!
//! A window is coded as a 16-bit key, two bits per neighbour in [`NEIGHBOUR_ORDER`] (0 empty,
//! 1 black, 2 white, 3 off the board), so a match is one bit test in a 64 Kbit table
//! ([`Pattern3Table`], 8 KiB), built once from the pattern texts by expanding their wildcards.
//! [`matches_naive`] is the slow reference: it tries every pattern in every orientation and
//! colouring on the window itself, and a test compares the two on all 65,536 keys.

use std::sync::OnceLock;

/// Neighbour order of the key, as (row, column) offsets: row by row from the top left, the centre
/// left out.
pub const NEIGHBOUR_ORDER: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The shapes, three rows of three from the top, the centre (`.`) the move. `X` and `O` are
/// stones of the two colours, `x` anything but an `X` stone (empty, `O`, or off the board), `o`
/// anything but an `O` stone, `?` anything, `.` empty, and a space off the board.
pub const PATTERNS: [[&str; 3]; 13] = [
    // Hane: enclosing.
    ["XOX", "...", "???"],
    // Hane: non-cutting.
    ["XO.", "...", "?.?"],
    // Hane: magari (bending round).
    ["XO?", "X..", "x.?"],
    // Diagonal attachment next to an own stone.
    [".O.", "X..", "..."],
    // Cut: an unprotected cut.
    ["XO?", "O.o", "?o?"],
    // Cut: a cut the peep already threatens.
    ["XO?", "O.X", "???"],
    // Cut: the cutting point between two stones.
    ["?X?", "O.O", "ooo"],
    // Cut: a knight's-move cut.
    ["OX?", "o.O", "???"],
    // Edge: chase along the side.
    ["X.?", "O.?", "   "],
    // Edge: block the cut on the side.
    ["OX?", "X.O", "   "],
    // Edge: block the connection on the side.
    ["?X?", "x.O", "   "],
    // Edge: descend (sagari).
    ["?XO", "x.x", "   "],
    // Edge: cut on the side.
    ["?OX", "X.O", "   "],
];

/// Colour codes of the key.
const EMPTY: u8 = 0;
const OFF: u8 = 3;

/// Whether the pattern character `ch` accepts the code `k`, with `x_code` the code of `X`.
fn accepts(ch: u8, k: u8, x_code: u8) -> bool {
    let o_code = 3 - x_code;
    match ch {
        b'.' => k == EMPTY,
        b'X' => k == x_code,
        b'O' => k == o_code,
        b'x' => k != x_code,
        b'o' => k != o_code,
        b'?' => true,
        b' ' => k == OFF,
        _ => unreachable!("pattern character {ch}"),
    }
}

/// The offset (row, column) moved by orientation `t` of the square (0..8: a transpose bit and
/// two flips).
#[must_use]
pub fn orient(t: u8, r: i32, c: i32) -> (i32, i32) {
    let (mut r, mut c) = (r, c);
    if t & 1 != 0 {
        std::mem::swap(&mut r, &mut c);
    }
    if t & 2 != 0 {
        r = -r;
    }
    if t & 4 != 0 {
        c = -c;
    }
    (r, c)
}

/// The pattern character at (row, column) of `pattern` seen in orientation `t` (see [`orient`]).
fn oriented(pattern: &[&str; 3], t: u8, r: i32, c: i32) -> u8 {
    let (r, c) = orient(t, r, c);
    pattern[(r + 1) as usize].as_bytes()[(c + 1) as usize]
}

/// The code of neighbour `i` in `key`.
#[must_use]
pub const fn code_at(key: u16, i: usize) -> u8 {
    ((key >> (2 * i)) & 3) as u8
}

/// The slow reference: whether some pattern, in some orientation and colouring, accepts the
/// window `key` around an empty centre.
#[must_use]
pub fn matches_naive(key: u16) -> bool {
    PATTERNS.iter().any(|pattern| {
        (0..8u8).any(|t| {
            [1u8, 2].iter().any(|&x_code| {
                NEIGHBOUR_ORDER.iter().enumerate().all(|(i, &(r, c))| {
                    accepts(oriented(pattern, t, r, c), code_at(key, i), x_code)
                })
            })
        })
    })
}

/// The pattern table: one bit per key.
pub struct Pattern3Table {
    bits: [u64; 1024],
}

impl Pattern3Table {
    /// Builds the table by expanding each oriented, coloured pattern into the keys it accepts.
    #[must_use]
    pub fn build() -> Pattern3Table {
        let mut table = Pattern3Table { bits: [0; 1024] };
        for pattern in &PATTERNS {
            for t in 0..8u8 {
                for x_code in [1u8, 2] {
                    let choices: Vec<Vec<u8>> = NEIGHBOUR_ORDER
                        .iter()
                        .map(|&(r, c)| {
                            let ch = oriented(pattern, t, r, c);
                            (0..4).filter(|&k| accepts(ch, k, x_code)).collect()
                        })
                        .collect();
                    table.expand(&choices, 0, 0);
                }
            }
        }
        table
    }

    fn expand(&mut self, choices: &[Vec<u8>], i: usize, key: u16) {
        if i == choices.len() {
            self.bits[usize::from(key >> 6)] |= 1 << (key & 63);
            return;
        }
        for &k in &choices[i] {
            self.expand(choices, i + 1, key | u16::from(k) << (2 * i));
        }
    }

    /// Whether the window `key` matches a pattern.
    #[inline]
    #[must_use]
    pub fn matches(&self, key: u16) -> bool {
        self.bits[usize::from(key >> 6)] >> (key & 63) & 1 != 0
    }

    /// The process-wide table, built on first use (about a millisecond).
    #[must_use]
    pub fn get() -> &'static Pattern3Table {
        static TABLE: OnceLock<Pattern3Table> = OnceLock::new();
        TABLE.get_or_init(Pattern3Table::build)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_equals_reference_on_every_key() {
        let table = Pattern3Table::build();
        let mut hits = 0;
        for key in 0..=u16::MAX {
            assert_eq!(table.matches(key), matches_naive(key), "key {key:#06x}");
            hits += u32::from(table.matches(key));
        }
        // Some windows match and most do not.
        assert!(hits > 100 && hits < 20_000, "{hits}");
    }

    fn key_of(rows: [&str; 3]) -> u16 {
        let mut key = 0u16;
        for (i, &(r, c)) in NEIGHBOUR_ORDER.iter().enumerate() {
            let k = match rows[(r + 1) as usize].as_bytes()[(c + 1) as usize] {
                b'.' => 0,
                b'B' => 1,
                b'W' => 2,
                b'#' => 3,
                other => panic!("{other}"),
            };
            key |= k << (2 * i);
        }
        key
    }

    #[test]
    fn known_shapes() {
        let t = Pattern3Table::get();
        // Enclosing hane, either colour, any orientation.
        assert!(t.matches(key_of(["BWB", "...", "..."])));
        assert!(t.matches(key_of(["WBW", "...", "..."])));
        assert!(t.matches(key_of(["...", "...", "BWB"])));
        assert!(t.matches(key_of(["B..", "W..", "B.."])));
        // A cut between two diagonal stones.
        assert!(t.matches(key_of(["BW.", "W..", "..."])));
        // An edge shape (block the cut on the side).
        assert!(t.matches(key_of(["WB.", "B.W", "###"])));
        // One stone alone is no shape.
        assert!(!t.matches(key_of([".B.", "...", "..."])));
        // A non-cutting hane, turned.
        assert!(t.matches(key_of(["B..", "W..", "..."])));
        // Nothing around: no pattern.
        assert!(!t.matches(key_of(["...", "...", "..."])));
        assert!(!t.matches(key_of(["###", "#..", "#.."])));
    }
}
