//! Game records: Piskvork's `.psq` and SGF (FF[4], GM[4]), written by `gomoku match` and read
//! wherever a position is read.
//!
//! `.psq` (the Gomocup manager's format): a first line `Piskvorky WxH, 11:11, 0`, then one move a
//! line as `x,y,ms` with `x` and `y` from 1 at the top left and the milliseconds the move took, then
//! free lines (we write the two engines' commands, Black's first, and `-1`). Reading takes the size
//! from the first line and the moves up to the first line that is not one.
//!
//! SGF: `(;FF[4]GM[4]SZ[15]RU[renju]PB[..]PW[..]RE[B+]...;B[hh];W[ii]...)`, points as two letters
//! from `a` (column, then row from the top). Reading (with `stonelab-sgf`, the reader Go uses too)
//! takes `SZ`, the setup stones `AB` and `AW` before the first move and the moves `B` and `W` of the
//! main line (the first variation at each fork); an empty value or `tt` is a pass, which Gomoku has
//! not, and is refused.

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

/// Reads an SGF record's main line (with the shared reader of `stonelab-sgf`): `SZ` (square,
/// 5..=20; required), the setup stones `AB` / `AW` of any node before the first move, and the moves
/// `B` / `W`. A pass (an empty value or `tt`) is no Gomoku move and is refused.
pub fn parse_sgf(text: &str) -> Result<Record, RecordError> {
    let nodes = stonelab_sgf::main_line(text).map_err(|e| (e.line, 1, e.to_string()))?;
    let size = nodes.iter().find_map(|n| n.value("SZ")).ok_or((
        1,
        1,
        "the record has no SZ (board size)".to_string(),
    ))?;
    let n = match stonelab_sgf::size(size) {
        Some((w, h)) if w == h && (MIN_SIZE..=MAX_SIZE).contains(&w) => w,
        Some((w, h)) if w == h => {
            return Err((
                1,
                1,
                format!("board size {w} is outside {MIN_SIZE}..={MAX_SIZE}"),
            ))
        }
        Some((w, h)) => return Err((1, 1, format!("SZ[{w}:{h}]: only square boards"))),
        None => return Err((1, 1, format!("bad size SZ[{}]", shown(size)))),
    };
    let mut setup = Vec::new();
    let mut moves = Vec::new();
    for (k, node) in nodes.iter().enumerate() {
        for prop in &node.properties {
            let color = match prop.id.as_str() {
                "B" | "AB" => Color::Black,
                "W" | "AW" => Color::White,
                _ => continue,
            };
            let setup_stone = prop.id.starts_with('A');
            for v in &prop.values {
                let at = |why: &str| {
                    (
                        1,
                        1,
                        format!("node {}: {}[{}] {why}", k + 1, prop.id, shown(v)),
                    )
                };
                let points = if setup_stone {
                    stonelab_sgf::points(v).ok_or_else(|| at("is not a point list"))?
                } else {
                    match stonelab_sgf::move_value(v) {
                        Some(stonelab_sgf::SgfMove::At(x, y))
                            if !(x == 19 && y == 19 && n <= 19) =>
                        {
                            vec![(x, y)]
                        }
                        Some(_) => return Err(at("is a pass, which Gomoku has not")),
                        None => return Err(at("is not a point")),
                    }
                };
                for (x, y) in points {
                    if x >= n || y >= n {
                        return Err(at(&format!("is off the {n}x{n} board")));
                    }
                    let p = Point::new(x as u8, y as u8);
                    if setup_stone {
                        if !moves.is_empty() {
                            return Err(at("sets up a stone after the first move"));
                        }
                        setup.push((p, color));
                    } else {
                        moves.push((p, color));
                    }
                }
            }
        }
    }
    Ok(Record {
        size: n,
        setup,
        moves,
    })
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
