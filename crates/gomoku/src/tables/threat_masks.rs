//! The seed-compatible line table: one `u16` threat mask for each of the 21,523,359 skew-ternary line
//! codes (lines of length 15, and 1..15 for diagonals), 41 MiB per rule. Mask bit `i` is the cell at
//! digit `i`. Semantics (REFERENCE.md): per colour, its five points if it has any, else its open-four
//! points; the union over both colours.
//!
//! Built lazily on first use, in parallel: each chunk of codes decodes its first code and then walks the
//! codes in skew-counting order (each step changes one or two digits), keeping the line's white, black
//! and on-board masks up to date, and evaluates [`line::threat_mask`] (a few dozen bit operations).

use rayon::prelude::*;

use crate::tables::line::{self, LineStones};
use crate::tables::skew::{decode, CODE_COUNT, LINE_CELLS};
use crate::tables::PerRule;
use crate::Rule;

const ALL_CELLS: u32 = (1 << LINE_CELLS) - 1;
const NO_EDGE: usize = LINE_CELLS;
const CHUNK: usize = 1 << 15;

/// The seed's table for one rule.
pub struct ThreatMaskTable {
    rule: Rule,
    entries: Box<[u16]>,
}

static TABLES: PerRule<ThreatMaskTable> = PerRule::new();

/// A line being counted through in skew-ternary order.
struct Counter {
    digits: [u8; LINE_CELLS],
    edge: usize,
    line: LineStones,
}

impl Counter {
    fn at(code: u32) -> Counter {
        let digits = decode(code).expect("code in range");
        let mut line = LineStones::default();
        let mut edge = NO_EDGE;
        for (i, &d) in digits.iter().enumerate() {
            match d {
                1 => line.white |= 1 << i,
                2 => line.black |= 1 << i,
                3 => edge = i,
                _ => {}
            }
        }
        let mut c = Counter { digits, edge, line };
        c.set_cells();
        c
    }

    fn set_cells(&mut self) {
        self.line.cells = if self.edge == NO_EDGE {
            ALL_CELLS
        } else {
            ALL_CELLS & !((2 << self.edge) - 1)
        };
    }

    /// The next code: a 3 becomes 0 and carries into the digit above; otherwise digit 0 grows.
    fn step(&mut self) {
        let pos = if self.edge == NO_EDGE {
            0
        } else {
            self.digits[self.edge] = 0;
            self.edge += 1;
            self.edge
        };
        let bit = 1 << pos;
        match self.digits[pos] {
            0 => {
                self.digits[pos] = 1;
                self.line.white |= bit;
                self.edge = NO_EDGE;
            }
            1 => {
                self.digits[pos] = 2;
                self.line.white &= !bit;
                self.line.black |= bit;
                self.edge = NO_EDGE;
            }
            _ => {
                self.digits[pos] = 3;
                self.line.black &= !bit;
                self.edge = pos;
            }
        }
        self.set_cells();
    }
}

impl ThreatMaskTable {
    /// The shared table of `rule`, built on first use.
    #[must_use]
    pub fn get(rule: Rule) -> &'static ThreatMaskTable {
        TABLES.get_or_build(rule, ThreatMaskTable::build)
    }

    /// Builds the table of `rule` from scratch (all cores, via rayon).
    #[must_use]
    pub fn build(rule: Rule) -> ThreatMaskTable {
        let mut entries = vec![0u16; CODE_COUNT].into_boxed_slice();
        entries
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(chunk, out)| {
                let mut counter = Counter::at((chunk * CHUNK) as u32);
                let n = out.len();
                let mut i = 0;
                while i < n {
                    if counter.edge == NO_EDGE && counter.digits[0] == 0 && i + 4 < n {
                        // Four codes in a row differ only in digit 0: empty, white, black, edge.
                        let base = counter.line;
                        let mut with = |j: usize, l: LineStones| {
                            out[i + j] = line::threat_mask(l, rule) as u16;
                        };
                        with(0, base);
                        with(
                            1,
                            LineStones {
                                white: base.white | 1,
                                ..base
                            },
                        );
                        with(
                            2,
                            LineStones {
                                black: base.black | 1,
                                ..base
                            },
                        );
                        with(
                            3,
                            LineStones {
                                cells: base.cells & !1,
                                ..base
                            },
                        );
                        counter.digits[0] = 3;
                        counter.edge = 0;
                        counter.step();
                        i += 4;
                    } else {
                        out[i] = line::threat_mask(counter.line, rule) as u16;
                        if i + 1 < n {
                            counter.step();
                        }
                        i += 1;
                    }
                }
            });
        ThreatMaskTable { rule, entries }
    }

    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The threat mask of a line code (bit `i` = digit `i`).
    #[inline]
    #[must_use]
    pub fn lookup(&self, code: u32) -> u16 {
        self.entries[code as usize]
    }

    /// All entries, indexed by code.
    #[must_use]
    pub fn entries(&self) -> &[u16] {
        &self.entries
    }

    /// The table's size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(&*self.entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::skew::encode;

    #[test]
    fn counter_walks_codes_in_order() {
        let mut c = Counter::at(0);
        for code in 0..5000u32 {
            assert_eq!(encode(&c.digits), Some(code));
            let fresh = Counter::at(code);
            assert_eq!(fresh.line, c.line, "code {code}");
            c.step();
        }
    }
}
