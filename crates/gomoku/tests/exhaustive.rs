//! Every entry of every table equals the slow reference (run optimised: `cargo test --release`).
//! - the seed table: all 21,523,359 codes, both rules;
//! - the per-cell pattern table: every window key, both rules, both colours.

use rayon::prelude::*;
use stonelab_gomoku::tables::pattern::is_board_window;
use stonelab_gomoku::tables::reference;
use stonelab_gomoku::tables::skew::{decode, line_len, CODE_COUNT, LINE_CELLS};
use stonelab_gomoku::{Color, PatternTable, Rule, ThreatMaskTable};

fn digit_cell(d: u8) -> Option<Color> {
    match d {
        1 => Some(Color::White),
        2 => Some(Color::Black),
        _ => None,
    }
}

#[test]
fn seed_table_equals_reference_everywhere() {
    for rule in Rule::ALL {
        let table = ThreatMaskTable::get(rule);
        assert_eq!(table.entries().len(), CODE_COUNT);
        let bad: Vec<(usize, u16, u32)> = table
            .entries()
            .par_chunks(1 << 16)
            .enumerate()
            .flat_map_iter(|(chunk, entries)| {
                let mut bad = Vec::new();
                for (i, &got) in entries.iter().enumerate() {
                    let code = chunk << 16 | i;
                    let digits = decode(code as u32).unwrap();
                    let len = line_len(&digits);
                    let low = LINE_CELLS - len;
                    let line: Vec<Option<Color>> =
                        digits[low..].iter().map(|&d| digit_cell(d)).collect();
                    let want = reference::threat_mask(&line, rule) << low;
                    if u32::from(got) != want && bad.len() < 5 {
                        bad.push((code, got, want));
                    }
                }
                bad
            })
            .collect();
        assert!(bad.is_empty(), "{rule}: (code, table, reference): {bad:?}");
    }
}

#[test]
fn pattern_table_equals_reference_everywhere() {
    for rule in Rule::ALL {
        let table = PatternTable::get(rule);
        let reach = rule.reach();
        let keys = 1u32 << (4 * reach);
        let bad: Vec<(u32, Color)> = (0..keys)
            .into_par_iter()
            .flat_map_iter(|key| {
                // The window as a line: edge cells (code 3) are left out, so the line is the run of
                // on-board cells around the centre that the key can describe.
                let mut cells = Vec::new();
                let mut centre = 0;
                for j in 0..=2 * reach {
                    if j == reach {
                        centre = cells.len();
                        cells.push(None);
                        continue;
                    }
                    let k = if j < reach { j } else { j - 1 };
                    match key >> (2 * k) & 3 {
                        3 => {
                            // An edge splits the window: what lies beyond it is off the board.
                            if j < reach {
                                cells.clear();
                            } else {
                                break;
                            }
                        }
                        d => cells.push(digit_cell(d as u8)),
                    }
                }
                // Only keys a board can produce: edge codes only at the ends of the window.
                let valid = (0..2 * reach).all(|k| {
                    let is_edge = |k: usize| key >> (2 * k) & 3 == 3;
                    if k < reach {
                        !is_edge(k) || (0..k).all(is_edge)
                    } else {
                        !is_edge(k) || (k..2 * reach).all(is_edge)
                    }
                });
                assert_eq!(valid, is_board_window(key, rule), "key {key:#x}");
                Color::ALL
                    .into_iter()
                    .filter(move |&c| {
                        valid
                            && table.pattern(key, c) != reference::pattern(&cells, centre, c, rule)
                    })
                    .map(move |c| (key, c))
                    .take(1)
                    .collect::<Vec<_>>()
            })
            .collect();
        assert!(
            bad.is_empty(),
            "{rule}: {} keys differ, e.g. {:?}",
            bad.len(),
            &bad[..bad.len().min(5)]
        );
    }
}
