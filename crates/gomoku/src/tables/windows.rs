//! The one builder of per-cell window tables: one byte per window key (the `reach` cells on each
//! side of a cell, 2 bits each), the white class in the low nibble and the black class in the high
//! one. [`crate::PatternTable`] and the engine's [`crate::engine::ClassTable`] are both built here,
//! and both dereference to their [`WindowTable`] for its rule, raw entries and size.

use rayon::prelude::*;

use crate::{Color, Rule};

/// Keys per parallel chunk.
const CHUNK: usize = 1 << 12;

/// A table of one byte per window key of one rule.
pub struct WindowTable {
    rule: Rule,
    entries: Box<[u8]>,
}

impl WindowTable {
    /// Builds the table of `rule`, in parallel: `entry(key)` for every key (2^16 keys for
    /// freestyle, 2^20 for standard).
    pub(crate) fn build(rule: Rule, entry: impl Fn(u32) -> u8 + Sync) -> WindowTable {
        let keys = 1usize << (4 * rule.reach());
        let mut entries = vec![0u8; keys].into_boxed_slice();
        entries
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(chunk, out)| {
                for (i, slot) in out.iter_mut().enumerate() {
                    *slot = entry((chunk * CHUNK + i) as u32);
                }
            });
        WindowTable { rule, entries }
    }

    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Both nibbles of a key: the white class in the low nibble, the black one in the high nibble.
    #[inline]
    #[must_use]
    pub fn lookup(&self, key: u32) -> u8 {
        self.entries[key as usize]
    }

    /// The nibble of colour `c` of a key.
    #[inline]
    pub(crate) fn nibble(&self, key: u32, c: Color) -> u8 {
        self.lookup(key) >> (4 * c.index()) & 0xF
    }

    /// The table's size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.entries.len()
    }
}
