//! The evaluation's weights and the move order's scores: for each combination of a cell's four
//! classes ([`super::cells::combinations`]), what the cell is worth to the side to move and to the
//! side waiting, and how likely a move there is. They are data, `crates/gomoku/data/eval-weights.txt`
//! (written by `stonelab gomoku tune`) and `crates/gomoku/data/order-weights.txt` (written by
//! `stonelab gomoku tune-order`; renju reads `order-weights-handset.txt`), each file's header naming
//! the games they were fitted on; the files are compiled in.
//!
//! The format: `#` comments, then one line per combination, `A B C D first second`, the four
//! class names strongest first (as [`Class`]'s `Debug` prints them) and two integers in
//! -32767..=32767. Every combination appears exactly once.
//!
//! An order file may add two lines (since v2.19; zeros where absent), `NearOpponent v0 .. v7` and
//! `NearOwn v0 .. v7`: the score of a move by where it lies relative to the opponent's last stone
//! and to the mover's own last stone ([`super::policy::near_bucket`]'s eight places), in the same
//! hundredths of a logit.

use std::sync::OnceLock;

use super::cells::{combination_index, COMBINATIONS};
use super::classes::Class;

/// The compiled-in weights file.
pub const WEIGHTS_FILE: &str = include_str!("../../data/eval-weights.txt");

/// The compiled-in move-order file of freestyle and exactly five, in the same format: per
/// combination, the order score of a move there from the mover's own lines (`attack`) and from
/// the opponent's (`defend`), in hundredths of a logit of the probability that a strong engine
/// plays the cell (written by `stonelab gomoku tune-order`; the file's header names the games).
pub const ORDER_FILE: &str = include_str!("../../data/order-weights.txt");

/// The compiled-in move-order file of renju (both colours), in the same format: the order was
/// fitted to freestyle games, and renju keeps the hand-set order until it has its own fit.
pub const ORDER_RENJU_FILE: &str = include_str!("../../data/order-weights-handset.txt");

/// The compiled-in renju weights of Black's cells, in the same format: under renju the two colours
/// play different games (Black may not make double threes, double fours or overlines, and wins
/// only by exactly five), so each has weights of its own, as Rapfi's classical evaluation keeps
/// two renju tables.
pub const RENJU_BLACK_FILE: &str = include_str!("../../data/eval-weights-renju-black.txt");

/// The compiled-in renju weights of White's cells ([`RENJU_BLACK_FILE`]).
pub const RENJU_WHITE_FILE: &str = include_str!("../../data/eval-weights-renju-white.txt");

static WEIGHTS: OnceLock<Vec<(i32, i32)>> = OnceLock::new();
static RENJU_BLACK: OnceLock<Vec<(i32, i32)>> = OnceLock::new();
static RENJU_WHITE: OnceLock<Vec<(i32, i32)>> = OnceLock::new();
static ORDER: OnceLock<Order> = OnceLock::new();
static ORDER_RENJU: OnceLock<Order> = OnceLock::new();

/// The number of place scores of an order file: [`super::policy::NEAR`] relative to the
/// opponent's last stone, then as many relative to the mover's.
pub const NEAR_SCORES: usize = 16;

/// An order file: the cell scores per combination and the place scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    pub pairs: Vec<(i32, i32)>,
    pub near: [i32; NEAR_SCORES],
}

/// The names of the two place lines of an order file.
const NEAR_LINES: [&str; 2] = ["NearOpponent", "NearOwn"];

/// The evaluation weights a cell table is built from: the shared ones (freestyle, exactly five)
/// or one colour's under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// `eval-weights.txt`: both colours under freestyle and exactly five.
    Shared,
    /// `eval-weights-renju-black.txt`: Black's cells under renju.
    RenjuBlack,
    /// `eval-weights-renju-white.txt`: White's cells under renju.
    RenjuWhite,
}

impl Source {
    /// The source of colour `c`'s cells under `rule`.
    #[must_use]
    pub fn of(rule: crate::Rule, c: crate::Color) -> Source {
        match (rule, c) {
            (crate::Rule::Renju, crate::Color::Black) => Source::RenjuBlack,
            (crate::Rule::Renju, crate::Color::White) => Source::RenjuWhite,
            _ => Source::Shared,
        }
    }
}

/// The weights of combination `i` (to move, waiting).
#[must_use]
pub fn weight(i: usize) -> (i16, i16) {
    weight_of(Source::Shared, i)
}

/// The weights of combination `i` (to move, waiting) from `source`.
#[must_use]
pub fn weight_of(source: Source, i: usize) -> (i16, i16) {
    let (lock, file, name) = match source {
        Source::Shared => (&WEIGHTS, WEIGHTS_FILE, "eval-weights.txt"),
        Source::RenjuBlack => (
            &RENJU_BLACK,
            RENJU_BLACK_FILE,
            "eval-weights-renju-black.txt",
        ),
        Source::RenjuWhite => (
            &RENJU_WHITE,
            RENJU_WHITE_FILE,
            "eval-weights-renju-white.txt",
        ),
    };
    narrow(lock.get_or_init(|| parse(file).unwrap_or_else(|e| panic!("{name}: {e}")))[i])
}

/// The move-order scores of combination `i` (attack, defend) under freestyle and exactly five.
#[must_use]
pub fn order(i: usize) -> (i16, i16) {
    order_of(Source::Shared, i)
}

/// The move-order scores of combination `i` (attack, defend) for the cells of `source`: the
/// shared order, or renju's for either colour.
#[must_use]
pub fn order_of(source: Source, i: usize) -> (i16, i16) {
    narrow(order_file(source).pairs[i])
}

/// The place scores of `source`'s order ([`Order::near`]).
#[must_use]
pub fn near_of(source: Source) -> &'static [i32; NEAR_SCORES] {
    &order_file(source).near
}

fn order_file(source: Source) -> &'static Order {
    let (lock, file, name) = match source {
        Source::Shared => (&ORDER, ORDER_FILE, "order-weights.txt"),
        Source::RenjuBlack | Source::RenjuWhite => {
            (&ORDER_RENJU, ORDER_RENJU_FILE, "order-weights-handset.txt")
        }
    };
    lock.get_or_init(|| parse_order(file).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// Which table [`replace`] sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// The evaluation's weights (`eval-weights.txt`).
    Eval,
    /// The move order's scores (`order-weights.txt`).
    Order,
    /// The move order's scores under renju (`order-weights-handset.txt`).
    OrderRenju,
    /// The evaluation's threat-mask weights (`threat-weights.txt`, [`super::threats`]' format).
    Threat,
    /// Black's evaluation weights under renju (`eval-weights-renju-black.txt`).
    RenjuBlack,
    /// White's evaluation weights under renju (`eval-weights-renju-white.txt`).
    RenjuWhite,
    /// The threat-mask weights under renju with Black to move (`threat-weights-renju-black.txt`).
    ThreatRenjuBlack,
    /// The threat-mask weights under renju with White to move (`threat-weights-renju-white.txt`).
    ThreatRenjuWhite,
}

/// Uses the weights in `text` (the files' format) instead of the compiled-in file, for
/// experiments with weights that are not compiled in (`pbrain-stonelab --eval-weights`). Must
/// come before anything reads the table: the cell table is built from it on first use.
///
/// # Errors
/// The text does not parse ([`parse`]), or the table has been read already.
pub fn replace(table: Table, text: &str) -> Result<(), String> {
    let lock = match table {
        Table::Eval => &WEIGHTS,
        Table::Order | Table::OrderRenju => {
            let lock = if table == Table::Order {
                &ORDER
            } else {
                &ORDER_RENJU
            };
            return lock
                .set(parse_order(text)?)
                .map_err(|_| READ_BEFORE.to_string());
        }
        Table::RenjuBlack => &RENJU_BLACK,
        Table::RenjuWhite => &RENJU_WHITE,
        Table::Threat => return super::threats::replace(text),
        Table::ThreatRenjuBlack => return super::threats::replace_renju(crate::Color::Black, text),
        Table::ThreatRenjuWhite => return super::threats::replace_renju(crate::Color::White, text),
    };
    let weights = parse(text)?;
    lock.set(weights).map_err(|_| READ_BEFORE.to_string())
}

const READ_BEFORE: &str = "the weights were read before they could be replaced";

/// Reads an order file: [`parse`]'s lines and the two optional place lines.
pub fn parse_order(text: &str) -> Result<Order, String> {
    let mut near = [0; NEAR_SCORES];
    let mut seen = [false; 2];
    let mut rest = String::with_capacity(text.len());
    for (n, line) in text.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(which) = words
            .first()
            .and_then(|w| NEAR_LINES.iter().position(|name| name == w))
        else {
            rest.push_str(line);
            rest.push('\n');
            continue;
        };
        // Keep the line numbers of the rest for its messages.
        rest.push('\n');
        let bad = || format!("line {}: expected `{} v0 .. v7`", n + 1, NEAR_LINES[which]);
        if words.len() != 1 + NEAR_SCORES / 2 || std::mem::replace(&mut seen[which], true) {
            return Err(bad());
        }
        for (k, w) in words[1..].iter().enumerate() {
            near[which * NEAR_SCORES / 2 + k] = match w.parse::<i16>() {
                Ok(v) if v != i16::MIN => i32::from(v),
                _ => return Err(bad()),
            };
        }
    }
    Ok(Order {
        pairs: parse(&rest)?,
        near,
    })
}

/// A pair that [`parse`] has checked to fit in 16 bits.
fn narrow((a, b): (i32, i32)) -> (i16, i16) {
    (a as i16, b as i16)
}

/// The class named `name` (`Five`, `F4`, ..., `Dead`).
#[must_use]
pub fn class_named(name: &str) -> Option<Class> {
    Class::ALL.into_iter().find(|k| format!("{k:?}") == name)
}

/// Reads a weights file: one `(to_move, waiting)` pair per combination, by combination number.
///
/// # Errors
/// A line that does not parse, a combination given twice, or one missing.
pub fn parse(text: &str) -> Result<Vec<(i32, i32)>, String> {
    let mut out: Vec<Option<(i32, i32)>> = vec![None; COMBINATIONS];
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("line {}: expected `A B C D to_move waiting`", n + 1);
        if words.len() != 6 {
            return Err(bad());
        }
        let mut ks = [Class::Dead; 4];
        for (k, w) in ks.iter_mut().zip(&words[..4]) {
            *k = class_named(w).ok_or_else(bad)?;
        }
        let number = |w: &str| match w.parse::<i16>() {
            Ok(v) if v != i16::MIN => Ok(i32::from(v)),
            _ => Err(format!(
                "line {}: `{w}` is not an integer in -32767..=32767",
                n + 1
            )),
        };
        let to_move = number(words[4])?;
        let waiting = number(words[5])?;
        let i = combination_index(ks);
        if out[i].replace((to_move, waiting)).is_some() {
            return Err(format!("line {}: combination given twice", n + 1));
        }
    }
    out.into_iter()
        .enumerate()
        .map(|(i, w)| w.ok_or_else(|| format!("combination {i} missing")))
        .collect()
}

/// Writes an order in the file's format: [`format`]'s lines, then the two place lines.
#[must_use]
pub fn format_order(header: &[String], order: &Order) -> String {
    use std::fmt::Write;
    let mut s = format(header, &order.pairs);
    for (which, name) in NEAR_LINES.iter().enumerate() {
        let half = &order.near[which * NEAR_SCORES / 2..(which + 1) * NEAR_SCORES / 2];
        let values: Vec<String> = half.iter().map(i32::to_string).collect();
        let _ = writeln!(s, "{name} {}", values.join(" "));
    }
    s
}

/// Writes weights in the file's format, after the `header` lines (each written as a comment).
#[must_use]
pub fn format(header: &[String], weights: &[(i32, i32)]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    for h in header {
        let _ = writeln!(s, "# {h}");
    }
    for (ks, (a, b)) in super::cells::combinations().iter().zip(weights) {
        let names: Vec<String> = ks.iter().map(|k| format!("{k:?}")).collect();
        let _ = writeln!(s, "{} {a} {b}", names.join(" "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_in_file_parses_and_round_trips() {
        let w = parse(WEIGHTS_FILE).expect("valid");
        assert_eq!(w.len(), COMBINATIONS);
        assert_eq!(parse(&format(&["x".into()], &w)).expect("valid"), w);
        // A cell where nothing is possible is worth nothing.
        assert_eq!(w[combination_index([Class::Dead; 4])], (0, 0));
        // The move-order and renju files have the same format.
        for file in [ORDER_FILE, ORDER_RENJU_FILE] {
            assert_eq!(parse(file).expect("valid").len(), COMBINATIONS);
        }
        for file in [RENJU_BLACK_FILE, RENJU_WHITE_FILE] {
            let w = parse(file).expect("valid");
            assert_eq!(w[combination_index([Class::Dead; 4])], (0, 0));
        }
    }

    #[test]
    fn weights_are_replaced_only_with_a_valid_file_and_before_they_are_read() {
        assert!(replace(Table::Eval, "Five Five Five Five 1\n")
            .unwrap_err()
            .contains("expected"));
        // Once read, the table stays as it is.
        let first = weight(0);
        let text = format(&[], &parse(WEIGHTS_FILE).expect("valid"));
        assert!(replace(Table::Eval, &text)
            .unwrap_err()
            .contains("read before"));
        assert_eq!(weight(0), first);
    }

    #[test]
    fn bad_files_are_refused() {
        let w = parse(WEIGHTS_FILE).expect("valid");
        let good = format(&[], &w);
        assert!(parse("Five Five Five Five 1\n").is_err());
        assert!(parse("Five Five Five Six 1 2\n").is_err());
        assert!(parse(&format!("{good}Five Five Five Five 1 2\n")).is_err());
        let missing: String = good.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert!(parse(&missing).is_err());
        // Weights live in 16 bits.
        let first = good.lines().next().expect("a line");
        let rest: String = good.lines().skip(1).map(|l| format!("{l}\n")).collect();
        let names: Vec<&str> = first.split_whitespace().take(4).collect();
        let big = format!("{} 40000 0\n{rest}", names.join(" "));
        assert!(parse(&big).unwrap_err().contains("40000"));
        let fits = format!("{} 32767 -32767\n{rest}", names.join(" "));
        assert!(parse(&fits).is_ok());
    }

    /// Order files: the place lines are optional (zeros where absent), round-trip, and are
    /// refused when malformed; evaluation files take none.
    #[test]
    fn order_files_carry_the_place_lines() {
        let plain = parse_order(ORDER_RENJU_FILE).expect("valid");
        assert_eq!(plain.near, [0; NEAR_SCORES]);
        assert_eq!(plain.pairs, parse(ORDER_RENJU_FILE).expect("valid"));
        let mut order = plain.clone();
        order.near = std::array::from_fn(|k| k as i32 * 7 - 50);
        let text = format_order(&["x".into()], &order);
        assert_eq!(parse_order(&text).expect("valid"), order);
        let twice = format!("{text}NearOwn 1 2 3 4 5 6 7 8\n");
        assert!(parse_order(&twice).unwrap_err().contains("NearOwn"));
        let long = text.replace("NearOpponent", "NearOpponent 1");
        assert!(parse_order(&long).unwrap_err().contains("NearOpponent"));
        let cells = format(&[], &plain.pairs);
        let big = format!("{cells}NearOwn 1 2 3 4 5 6 7 40000\n");
        assert!(parse_order(&big).is_err());
        let fits = format!("{cells}NearOwn 1 2 3 4 5 6 7 -32767\n");
        assert_eq!(parse_order(&fits).expect("valid").near[15], -32767);
        // The cell lines keep their numbers in the messages.
        let bad = format!("NearOwn 0 0 0 0 0 0 0 0\nFive Five 1 2\n{cells}");
        assert!(parse_order(&bad).unwrap_err().starts_with("line 2:"));
        assert!(parse(&text).is_err());
    }
}
