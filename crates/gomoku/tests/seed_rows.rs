//! The rows of the seed's table, as printed in seed 000 (tests/data/gomoku/seed_table_rows.txt): digits,
//! drawing and mask, under both rules (none of the printed rows holds an overline).

use stonelab_gomoku::tables::skew::{decode, digit_string, line_drawing};
use stonelab_gomoku::{Rule, ThreatMaskTable};

const ROWS: &str = include_str!("../../../tests/data/gomoku/seed_table_rows.txt");

#[test]
fn every_printed_row_is_reproduced() {
    let mut count = 0;
    for row in ROWS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields.len(), 4, "row {row}");
        let index: u32 = fields[0].parse().unwrap();
        let digits = decode(index).unwrap();
        assert_eq!(digit_string(&digits), fields[1], "digits of {index}");
        assert_eq!(line_drawing(&digits), fields[2], "line of {index}");
        let mask = u16::from_str_radix(fields[3].trim_start_matches("0b"), 2).unwrap();
        for rule in Rule::ALL {
            assert_eq!(
                ThreatMaskTable::get(rule).lookup(index),
                mask,
                "mask of {index} ({rule})"
            );
        }
        count += 1;
    }
    assert_eq!(count, 56);
}
