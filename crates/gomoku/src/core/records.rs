//! Game records: Piskvork's `.psq` and SGF (FF[4], GM[4]), written by `gomoku match` and read
//! wherever a position is read.
//!
//! `.psq` (the Gomocup manager's format): a first line `Piskvorky WxH, 11:11, 0`, then one move a
//! line as `x,y,ms` with `x` and `y` from 1 at the top left and the milliseconds the move took, then
//! free lines (we write the two engines' commands, Black's first, and `-1`). Reading takes the size
//! from the first line and the moves up to the first line that is not one.
//!
//! SGF: `(;FF[4]GM[4]SZ[15]RU[renju]PB[..]PW[..]RE[B+]...;B[hh];W[ii]...)`, points as two letters
//! from `a` (column, then row from the top). Reading takes `SZ`, the setup stones `AB` and `AW` of
//! the root and the moves `B` and `W` of the main line (the first variation at each fork); an empty
//! value or `tt` is a pass, which Gomoku has not, and is refused.

use crate::core::bitboard::{MAX_SIZE, MIN_SIZE};
use crate::{Color, Point, Rule};

/// A game read from a record: the board size, setup stones, and the moves in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub size: usize,
    /// Stones placed before the first move (SGF `AB` / `AW`).
    pub setup: Vec<(Point, Color)>,
    /// The moves, each with its colour (SGF says it; `.psq` alternates from Black).
    pub moves: Vec<(Point, Color)>,
}

/// Why a record could not be read: the 1-based line and column, and what is wrong.
pub type RecordError = (usize, usize, String);

/// Whether `text` looks like a `.psq` record.
#[must_use]
pub fn is_psq(text: &str) -> bool {
    text.trim_start().starts_with("Piskvorky")
}

/// Whether `text` looks like an SGF record.
#[must_use]
pub fn is_sgf(text: &str) -> bool {
    text.trim_start().starts_with('(')
}

/// A game as a `.psq` record: `moves` with the milliseconds each took, and the engines' commands.
#[must_use]
pub fn to_psq(size: usize, moves: &[(Point, u64)], black: &str, white: &str) -> String {
    let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for &(p, ms) in moves {
        out.push_str(&format!("{},{},{ms}\n", p.x + 1, p.y + 1));
    }
    for name in [black, white] {
        out.push_str(&name.replace(['\n', '\r'], " "));
        out.push('\n');
    }
    out.push_str("-1\n");
    out
}

/// An SGF value with `]` and `\` escaped.
fn sgf_text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// A value from the input, made safe for a one-line message: escaped, at most 20 characters.
fn shown(v: &str) -> String {
    let e: String = v.escape_debug().collect();
    if e.chars().count() > 20 {
        format!("{}...", e.chars().take(20).collect::<String>())
    } else {
        e
    }
}

/// A point as SGF's two letters.
fn sgf_point(p: Point) -> String {
    format!("{}{}", char::from(b'a' + p.x), char::from(b'a' + p.y))
}

/// A game as SGF: Black's moves first, alternating; `result` as SGF's `RE` (`B+`, `W+F`, `0`).
#[must_use]
pub fn to_sgf(
    size: usize,
    rule: Rule,
    moves: &[Point],
    black: &str,
    white: &str,
    result: Option<&str>,
) -> String {
    let mut out = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[stonelab]SZ[{size}]RU[{}]PB[{}]PW[{}]",
        rule.name(),
        sgf_text(black),
        sgf_text(white)
    );
    if let Some(r) = result {
        out.push_str(&format!("RE[{}]", sgf_text(r)));
    }
    for (i, &p) in moves.iter().enumerate() {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        out.push_str(&format!(";{c}[{}]", sgf_point(p)));
    }
    out.push_str(")\n");
    out
}

/// Reads a `.psq` record.
pub fn parse_psq(text: &str) -> Result<Record, RecordError> {
    let mut lines = text.lines().enumerate();
    let (_, first) = lines.next().ok_or((1, 1, "empty record".to_string()))?;
    let dims = first
        .trim_start()
        .strip_prefix("Piskvorky")
        .and_then(|rest| rest.split(',').next())
        .map(str::trim)
        .ok_or((1, 1, "expected 'Piskvorky WxH, ...'".to_string()))?;
    let (w, h) = dims
        .split_once(['x', 'X'])
        .and_then(|(w, h)| {
            Some((
                w.trim().parse::<usize>().ok()?,
                h.trim().parse::<usize>().ok()?,
            ))
        })
        .ok_or((1, 1, format!("bad board size '{}'", shown(dims))))?;
    if w != h {
        return Err((1, 1, format!("the board is {w}x{h}: only square boards")));
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&w) {
        return Err((
            1,
            1,
            format!("board size {w} is outside {MIN_SIZE}..={MAX_SIZE}"),
        ));
    }
    let mut moves = Vec::new();
    for (i, line) in lines {
        let parts: Vec<&str> = line.trim().split(',').map(str::trim).collect();
        let numbers: Option<Vec<i64>> = parts.iter().map(|t| t.parse().ok()).collect();
        let Some(numbers) = numbers.filter(|v| (2..=3).contains(&v.len())) else {
            break; // the trailer: engine names, result
        };
        let (x, y) = (numbers[0], numbers[1]);
        if !(1..=w as i64).contains(&x) || !(1..=w as i64).contains(&y) {
            return Err((i + 1, 1, format!("move {x},{y} is off the {w}x{w} board")));
        }
        let c = if moves.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        moves.push((Point::new((x - 1) as u8, (y - 1) as u8), c));
    }
    Ok(Record {
        size: w,
        setup: Vec::new(),
        moves,
    })
}

/// Reads an SGF record's main line.
pub fn parse_sgf(text: &str) -> Result<Record, RecordError> {
    let chars: Vec<char> = text.chars().collect();
    // Line and column of each char, for the errors.
    let at = |i: usize| {
        let before = &chars[..i.min(chars.len())];
        let line = before.iter().filter(|&&c| c == '\n').count() + 1;
        let column = before.iter().rev().take_while(|&&c| c != '\n').count() + 1;
        (line, column)
    };
    let fail = |i: usize, m: String| {
        let (l, c) = at(i);
        (l, c, m)
    };
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    if chars.get(i) != Some(&'(') {
        return Err(fail(i, "an SGF record starts with '('".into()));
    }
    let mut size = 19;
    let mut size_seen = false;
    let mut props: Vec<(String, Vec<String>, usize)> = Vec::new();
    let mut depth = 0usize;
    // The main line: nodes in order until the first variation closes.
    loop {
        skip_ws(&mut i);
        let Some(&ch) = chars.get(i) else {
            return Err(fail(i, "the record ends inside a game tree".into()));
        };
        match ch {
            '(' => {
                depth += 1;
                i += 1;
            }
            ')' => break,
            ';' => i += 1,
            c if c.is_ascii_uppercase() => {
                let start = i;
                let mut ident = String::new();
                while i < chars.len() && chars[i].is_ascii_alphabetic() {
                    ident.push(chars[i]);
                    i += 1;
                }
                let mut values = Vec::new();
                loop {
                    skip_ws(&mut i);
                    if chars.get(i) != Some(&'[') {
                        break;
                    }
                    i += 1;
                    let mut v = String::new();
                    loop {
                        match chars.get(i) {
                            None => {
                                return Err(fail(
                                    start,
                                    format!("property {} is not closed", shown(&ident)),
                                ))
                            }
                            Some(']') => break,
                            Some('\\') => {
                                if let Some(&n) = chars.get(i + 1) {
                                    v.push(n);
                                }
                                i += 2;
                            }
                            Some(&c) => {
                                v.push(c);
                                i += 1;
                            }
                        }
                    }
                    i += 1;
                    values.push(v);
                }
                if values.is_empty() {
                    return Err(fail(
                        start,
                        format!("property {} has no value", shown(&ident)),
                    ));
                }
                props.push((ident, values, start));
            }
            other => return Err(fail(i, format!("unexpected '{}'", other.escape_debug()))),
        }
    }
    let _ = depth;
    let mut setup = Vec::new();
    let mut moves = Vec::new();
    for (ident, values, start) in &props {
        if ident == "SZ" {
            let v = &values[0];
            let n: usize = v
                .split(':')
                .next()
                .and_then(|s| s.trim().parse().ok())
                .ok_or_else(|| fail(*start, format!("bad size SZ[{}]", shown(v))))?;
            if v.contains(':') && v.split(':').nth(1).map(str::trim) != Some(&n.to_string()) {
                return Err(fail(
                    *start,
                    format!("SZ[{}]: only square boards", shown(v)),
                ));
            }
            if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
                return Err(fail(
                    *start,
                    format!("board size {n} is outside {MIN_SIZE}..={MAX_SIZE}"),
                ));
            }
            size = n;
            size_seen = true;
        }
    }
    if !size_seen {
        return Err(fail(0, "the record has no SZ (board size)".into()));
    }
    let point = |v: &str, start: usize| -> Result<Point, RecordError> {
        let b = v.trim().as_bytes();
        if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
            return Err(fail(
                start,
                format!("bad point [{}] (a pass is no Gomoku move)", shown(v)),
            ));
        }
        let (x, y) = ((b[0] - b'a') as usize, (b[1] - b'a') as usize);
        if x >= size || y >= size {
            return Err(fail(
                start,
                format!("point [{}] is off the {size}x{size} board", shown(v)),
            ));
        }
        Ok(Point::new(x as u8, y as u8))
    };
    for (ident, values, start) in &props {
        let color = match ident.as_str() {
            "B" | "AB" => Color::Black,
            "W" | "AW" => Color::White,
            _ => continue,
        };
        for v in values {
            let p = point(v, *start)?;
            if ident.starts_with('A') {
                setup.push((p, color));
            } else {
                moves.push((p, color));
            }
        }
    }
    Ok(Record { size, setup, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn psq_round_trip() {
        let moves = [
            (Point::new(7, 7), 10),
            (Point::new(8, 8), 20),
            (Point::new(0, 14), 0),
        ];
        let text = to_psq(15, &moves, "a", "b");
        assert!(text.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,10\n9,9,20\n1,15,0\n"));
        let r = parse_psq(&text).unwrap();
        assert_eq!(r.size, 15);
        let points: Vec<Point> = r.moves.iter().map(|m| m.0).collect();
        assert_eq!(points, moves.map(|m| m.0));
        assert_eq!(r.moves[1].1, Color::White);
        assert!(parse_psq("Piskvorky 15x15, 11:11, 0\n16,1,0\n").is_err());
        assert!(parse_psq("Piskvorky 15x20, 11:11, 0\n").is_err());
    }

    #[test]
    fn sgf_round_trip_and_setup() {
        let moves = [Point::new(7, 7), Point::new(8, 8), Point::new(0, 14)];
        let text = to_sgf(15, Rule::Renju, &moves, "x]y", "b", Some("B+"));
        assert!(text.starts_with("(;FF[4]GM[4]"), "{text}");
        assert!(
            text.contains("RU[renju]") && text.contains("PB[x\\]y]"),
            "{text}"
        );
        let r = parse_sgf(&text).unwrap();
        assert_eq!(r.size, 15);
        let points: Vec<Point> = r.moves.iter().map(|m| m.0).collect();
        assert_eq!(points, moves);
        let r = parse_sgf("(;GM[4]SZ[9]AB[ee][ff]AW[dd];W[aa](;B[bb])(;B[cc]))").unwrap();
        assert_eq!(r.setup.len(), 3);
        assert_eq!(
            r.moves,
            [
                (Point::new(0, 0), Color::White),
                (Point::new(1, 1), Color::Black)
            ]
        );
        for bad in [
            "(;SZ[15];B[])",
            "(;SZ[15];B[zz])",
            "(;B[aa])",
            "(;SZ[15];B[aa]",
            "x",
        ] {
            assert!(parse_sgf(bad).is_err(), "{bad}");
        }
    }
}
