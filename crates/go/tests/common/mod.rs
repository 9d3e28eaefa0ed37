//! Helpers shared by stonelab-go's integration tests (`mod common;` in each): the ground-truth
//! files of `tests/data/go` at the workspace root, and the small generator the randomised
//! cross-checks draw their games from.

#![allow(dead_code)]

use stonelab_go::{Bitboard, Point};

/// The text of `tests/data/go/NAME` (the ground truth, with its sources, at the workspace root).
pub fn data_file(name: &str) -> String {
    let path = format!("{}/../../tests/data/go/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// The rows of a CSV data file: `#` comments, blank lines and the header line skipped, fields
/// split on commas.
pub fn data_rows(name: &str) -> Vec<Vec<String>> {
    data_file(name)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// Marsaglia's xorshift64 (shifts 13, 7, 17): the games of the randomised tests are fixed by the
/// seed, and stay the games they always were.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (modulo: the small bias does not matter here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A point of `b` drawn uniformly, `None` when `b` is empty.
    pub fn pick(&mut self, b: Bitboard) -> Option<Point> {
        let v: Vec<Point> = b.iter().collect();
        (!v.is_empty()).then(|| v[self.below(v.len())])
    }
}
