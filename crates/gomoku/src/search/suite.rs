//! The format of the committed solver suite (`tests/data/gomoku/tss_suite.txt`), read by its test,
//! `stonelab gomoku bench`, the `suite_times` example and the brain's tests: one 15x15 position a
//! line, `mode rule expected source moves...` (a move list, Black first); blank lines and lines
//! starting with `#` are skipped.

use super::Mode;
use crate::{parse_position, Color, Grid, Rule};

/// One position of the suite.
pub struct SuiteEntry<'a> {
    /// The line as written.
    pub line: &'a str,
    pub mode: Mode,
    pub rule: Rule,
    /// The expected result: `win` (true) or `no_win_found` (false).
    pub win: bool,
    /// The move list, its moves joined by single spaces.
    pub moves: String,
    pub grid: Grid,
    /// The side to move: Black when the stone counts are equal, else White.
    pub to_move: Color,
}

/// The positions of a suite text, in order. Panics on a malformed line (the suite is committed).
#[must_use]
pub fn parse_suite(text: &str) -> Vec<SuiteEntry<'_>> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let mode = match f[0] {
                "vcf" => Mode::Vcf,
                "vct" => Mode::Vct,
                m => panic!("bad suite mode {m}"),
            };
            let rule: Rule = f[1].parse().expect("suite rule");
            let win = match f[2] {
                "win" => true,
                "no_win_found" => false,
                r => panic!("bad suite result {r}"),
            };
            let moves = f[4..].join(" ");
            let grid = parse_position(&moves, Some(15))
                .expect("suite position")
                .grid;
            let count = |c| grid.points().filter(|&p| grid.get(p) == Some(c)).count();
            let to_move = if count(Color::Black) == count(Color::White) {
                Color::Black
            } else {
                Color::White
            };
            SuiteEntry {
                line,
                mode,
                rule,
                win,
                moves,
                grid,
                to_move,
            }
        })
        .collect()
}
