//! Reading positions from text, and drawing them back with marked points. Input styles, detected
//! from the text:
//! - a diagram of `.` (empty), `X` (black), `O` (white), one line per row, top row first (row
//!   numbers before the rows and a line of column letters, as this module draws them, are allowed);
//! - the seed's glyphs: `●` black, `○` white, any of `┌┬┐├┼┤└┴┘` empty;
//! - a move list such as `h8 i9 h9`: column letter from `a`, row 1 at the bottom, Black first;
//! - a game record: Piskvork's `.psq` or SGF ([`crate::records`]).

use crate::core::bitboard::{MAX_SIZE, MIN_SIZE};
use crate::core::records::{self, Record};
use crate::{Bitboard, Color, Grid, Point, Rule};

const EMPTY_GLYPHS: &str = "┌┬┐├┼┤└┴┘";
const DEFAULT_SIZE: usize = 15;

/// A bad input, with the 1-based line and column it was found at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct NotationError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

fn err(line: usize, column: usize, message: impl Into<String>) -> NotationError {
    NotationError {
        line,
        column,
        message: message.into(),
    }
}

/// How the input was written; output is drawn in the same style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Style {
    /// `.XO` diagram.
    Ascii,
    /// The seed's glyphs; the original characters of every row are kept.
    Glyphs(Vec<Vec<char>>),
    /// A move list, a game record or a diagram with coordinates (drawn back as a `.XO` diagram
    /// with coordinates).
    Moves,
}

/// A parsed position and the style it was written in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub grid: Grid,
    pub style: Style,
}

/// Parses a position. `size` is the board size of a move list (default 15); for a diagram, when
/// given, it must agree with the diagram.
pub fn parse_position(text: &str, size: Option<usize>) -> Result<Parsed, NotationError> {
    parse(text, size, None)
}

/// [`parse_position`] for a game under `rule`: a move list must also end at its first five (a
/// stone after the game was won is refused).
pub fn parse_game(text: &str, size: Option<usize>, rule: Rule) -> Result<Parsed, NotationError> {
    parse(text, size, Some(rule))
}

fn parse(text: &str, size: Option<usize>, rule: Option<Rule>) -> Result<Parsed, NotationError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if records::is_psq(text) || records::is_sgf(text) {
        let record = if records::is_psq(text) {
            records::parse_psq(text)
        } else {
            records::parse_sgf(text)
        }
        .map_err(|(line, column, message)| err(line, column, message))?;
        return place_record(&record, size, rule);
    }
    let (_, first) = text
        .lines()
        .flat_map(tokens)
        .next()
        .ok_or_else(|| err(1, 1, "empty input"))?;
    if looks_like_a_move(first) {
        return parse_moves(text, size.unwrap_or(DEFAULT_SIZE), rule);
    }
    let glyphs = text
        .chars()
        .any(|ch| ch == '●' || ch == '○' || EMPTY_GLYPHS.contains(ch));
    let parsed = parse_diagram(text, glyphs)?;
    if let Some(s) = size {
        if s != parsed.grid.size() {
            return Err(err(
                1,
                1,
                format!(
                    "the diagram is {n}x{n} but --size {s} was given",
                    n = parsed.grid.size()
                ),
            ));
        }
    }
    Ok(parsed)
}

/// A token that is meant as a move, even a malformed one (`h-1`, `h+2`), so that it is reported
/// as a bad move rather than as a bad diagram.
fn looks_like_a_move(tok: &str) -> bool {
    let mut chars = tok.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && tok.len() > 1
        && chars.all(|c| c.is_ascii_digit() || c == '-' || c == '+')
}

fn is_move_token(tok: &str) -> bool {
    let mut chars = tok.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && tok.len() > 1
        && chars.all(|c| c.is_ascii_digit())
}

/// The position of a game record: its setup stones, then its moves (each on an empty point, none
/// after a five when `rule` is given). `size`, when given, must agree with the record's.
fn place_record(
    r: &Record,
    size: Option<usize>,
    rule: Option<Rule>,
) -> Result<Parsed, NotationError> {
    if let Some(s) = size {
        if s != r.size {
            return Err(err(
                1,
                1,
                format!("the record is {n}x{n} but --size {s} was given", n = r.size),
            ));
        }
    }
    let mut grid = Grid::new(r.size).map_err(|e| err(1, 1, e.to_string()))?;
    let mut won = false;
    for (k, &(p, c)) in r.setup.iter().chain(&r.moves).enumerate() {
        let name = point_name(p, r.size);
        if grid.get(p).is_some() {
            return Err(err(
                1,
                1,
                format!("stone {} ({name}) is on an occupied point", k + 1),
            ));
        }
        if won {
            return Err(err(
                1,
                1,
                format!(
                    "stone {} ({name}) comes after a five: the game was over",
                    k + 1
                ),
            ));
        }
        grid.set(p, Some(c));
        won = rule.is_some_and(|rule| grid.wins_at(p, rule));
    }
    Ok(Parsed {
        grid,
        style: Style::Moves,
    })
}

/// Whether `t` is a line of column letters `a b c ...` (spaces allowed), as diagrams are labelled.
fn is_column_labels(t: &str) -> bool {
    let letters: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
    !letters.is_empty()
        && letters
            .iter()
            .enumerate()
            .all(|(k, &c)| u32::from(c) == u32::from('a') + k as u32)
}

fn parse_diagram(text: &str, glyphs: bool) -> Result<Parsed, NotationError> {
    // (line number, cells) of each non-blank line; blank lines only at the start or the end.
    let mut rows: Vec<(usize, Vec<char>)> = Vec::new();
    let mut blank_after: Option<usize> = None;
    let mut labelled = false;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let mut row = raw.trim_end();
        if !glyphs {
            // Coordinates as `render` draws them: a row number before the row, a line of letters.
            let t = row.trim_start();
            if is_column_labels(t) {
                labelled = true;
                continue;
            }
            if let Some((label, rest)) = t.split_once(' ') {
                if label.chars().all(|c| c.is_ascii_digit()) {
                    row = rest.trim_start();
                    labelled = true;
                }
            }
        }
        if row.is_empty() {
            if !rows.is_empty() && blank_after.is_none() {
                blank_after = Some(line_no);
            }
            continue;
        }
        if let Some(b) = blank_after {
            return Err(err(b, 1, "blank line inside the diagram"));
        }
        let cells: Vec<char> = row.chars().collect();
        for (j, &ch) in cells.iter().enumerate() {
            let ok = if glyphs {
                ch == '●' || ch == '○' || EMPTY_GLYPHS.contains(ch)
            } else {
                matches!(ch, '.' | 'X' | 'O')
            };
            if !ok {
                let expected = if glyphs {
                    "● ○ or one of ┌┬┐├┼┤└┴┘"
                } else {
                    "'.', 'X' or 'O'"
                };
                return Err(err(
                    line_no,
                    j + 1,
                    format!(
                        "unknown glyph '{}' (expected {expected})",
                        ch.escape_default()
                    ),
                ));
            }
        }
        if let Some((_, first)) = rows.first() {
            if cells.len() != first.len() {
                return Err(err(
                    line_no,
                    cells.len().min(first.len()) + 1,
                    format!(
                        "ragged rows: this row has {} cells, the first row has {}",
                        cells.len(),
                        first.len()
                    ),
                ));
            }
        }
        rows.push((line_no, cells));
    }
    if rows.is_empty() {
        return Err(err(1, 1, "no board rows (only coordinates)"));
    }
    let width = rows[0].1.len();
    let height = rows.len();
    if height != width {
        let (line, column) = if height > width {
            (rows[width].0, 1)
        } else {
            (rows[height - 1].0 + 1, 1)
        };
        return Err(err(
            line,
            column,
            format!("the board is not square: {height} rows of {width} cells"),
        ));
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&width) {
        return Err(err(
            rows[0].0,
            1,
            format!("board size {width} is outside {MIN_SIZE}..={MAX_SIZE}"),
        ));
    }
    let mut grid = Grid::new(width).expect("size checked");
    for (y, (_, cells)) in rows.iter().enumerate() {
        for (x, &ch) in cells.iter().enumerate() {
            let stone = match ch {
                'X' | '●' => Some(Color::Black),
                'O' | '○' => Some(Color::White),
                _ => None,
            };
            grid.set(Point::new(x as u8, y as u8), stone);
        }
    }
    let style = if glyphs {
        Style::Glyphs(rows.into_iter().map(|(_, c)| c).collect())
    } else if labelled {
        Style::Moves
    } else {
        Style::Ascii
    };
    Ok(Parsed { grid, style })
}

fn parse_moves(text: &str, size: usize, rule: Option<Rule>) -> Result<Parsed, NotationError> {
    let mut grid = Grid::new(size).map_err(|e| err(1, 1, e.to_string()))?;
    let mut color = Color::Black;
    // The move that made a five, when `rule` is given.
    let mut won: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        for (column, tok) in tokens(line) {
            let at = |msg: String| err(i + 1, column, msg);
            if let Some(five) = &won {
                return Err(at(format!(
                    "move {tok} comes after the five made by {five}: the game was over"
                )));
            }
            if !is_move_token(tok) {
                return Err(at(format!(
                    "'{tok}' is not a move (expected a column letter and a row number, e.g. h8)"
                )));
            }
            let letter = tok.as_bytes()[0].to_ascii_lowercase();
            let x = (letter - b'a') as usize;
            let row: usize = tok[1..].parse().unwrap_or(usize::MAX);
            if x >= size || row == 0 || row > size {
                return Err(at(format!("move {tok} is off the {size}x{size} board")));
            }
            let p = Point::new(x as u8, (size - row) as u8);
            if grid.get(p).is_some() {
                return Err(at(format!("move {tok} is on an occupied point")));
            }
            grid.set(p, Some(color));
            if rule.is_some_and(|r| grid.wins_at(p, r)) {
                won = Some(tok.to_string());
            }
            color = !color;
        }
    }
    Ok(Parsed {
        grid,
        style: Style::Moves,
    })
}

/// The tokens of a line (separated by whitespace or commas), each with its 1-based column in chars.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte offset, column)
    for (column, (byte, ch)) in line.char_indices().enumerate() {
        let separator = ch.is_whitespace() || ch == ',';
        match (separator, start) {
            (true, Some((from, col))) => {
                out.push((col, &line[from..byte]));
                start = None;
            }
            (false, None) => start = Some((byte, column + 1)),
            _ => {}
        }
    }
    if let Some((from, col)) = start {
        out.push((col, &line[from..]));
    }
    out
}

/// The point named `tok` in move-list notation (`h8`: column letter from `a`, row 1 at the bottom)
/// on a board of side `size`, or `None` when it is not a point of that board.
#[must_use]
pub fn parse_point(tok: &str, size: usize) -> Option<Point> {
    if !is_move_token(tok) {
        return None;
    }
    let x = (tok.as_bytes()[0].to_ascii_lowercase() - b'a') as usize;
    let row: usize = tok[1..].parse().ok()?;
    (x < size && row != 0 && row <= size).then(|| Point::new(x as u8, (size - row) as u8))
}

/// A point in move-list notation: column letter from `a`, row 1 at the bottom (`h8` is the centre of
/// 15x15).
#[must_use]
pub fn point_name(p: Point, size: usize) -> String {
    format!("{}{}", char::from(b'a' + p.x), size - p.y as usize)
}

/// Draws a position in its input style, with every point of `marks` shown as `x`. One line per row;
/// a position read from moves or a record gets coordinates (row numbers from 1 at the bottom on
/// the left, column letters from `a` below), which the diagram reader accepts back.
#[must_use]
pub fn render(parsed: &Parsed, marks: &Bitboard) -> String {
    let grid = &parsed.grid;
    let n = grid.size();
    let labelled = parsed.style == Style::Moves;
    let mut out = String::with_capacity(n * (n + 4) * 3);
    for y in 0..n {
        if labelled {
            out.push_str(&format!("{:>2} ", n - y));
        }
        for x in 0..n {
            let p = Point::new(x as u8, y as u8);
            let ch = if marks.contains(p) {
                'x'
            } else {
                match &parsed.style {
                    Style::Glyphs(rows) => rows[y][x],
                    Style::Ascii | Style::Moves => match grid.get(p) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    },
                }
            };
            out.push(ch);
        }
        out.push('\n');
    }
    if labelled {
        out.push_str("   ");
        out.extend((0..n as u8).map(|k| char::from(b'a' + k)));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_list_black_first_row_one_at_bottom() {
        let p = parse_position("a1,b2", Some(5)).unwrap();
        assert_eq!(p.grid.get(Point::new(0, 4)), Some(Color::Black));
        assert_eq!(p.grid.get(Point::new(1, 3)), Some(Color::White));
        assert_eq!(p.style, Style::Moves);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse_position(".....\n..Q..\n.....\n.....\n.....\n", None).unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        let e = parse_position("h8 h8", None).unwrap_err();
        assert_eq!((e.line, e.column), (1, 4));
        // Columns count characters, whatever the separators' widths.
        let e = parse_position("h8\u{3000}, h8", None).unwrap_err();
        assert_eq!((e.line, e.column), (1, 6));
        let e = parse_position("....\n....\n....\n....\n", None).unwrap_err();
        assert!(e.message.contains("outside"));
    }

    #[test]
    fn malformed_moves_are_reported_as_moves() {
        let e = parse_position("h8 h-1", None).unwrap_err();
        assert!(e.message.contains("'h-1' is not a move"), "{e}");
        let e = parse_position("h-1", None).unwrap_err();
        assert!(e.message.contains("'h-1' is not a move"), "{e}");
    }

    #[test]
    fn a_game_ends_at_its_first_five() {
        // Black's five on row 8 (a8..e8), then one more stone.
        let game = "a8 a1 b8 b1 c8 c1 d8 d1 e8 o15";
        assert!(parse_position(game, None).is_ok());
        let e = parse_game(game, None, Rule::Freestyle).unwrap_err();
        assert_eq!((e.line, e.column), (1, 28));
        assert!(e.message.contains("after the five made by e8"), "{e}");
        // Six in a row: the game goes on under the standard rule only.
        let overline = "a8 a1 b8 b1 c8 c1 e8 e1 f8 f1 d8 o15";
        assert!(parse_game(overline, None, Rule::Freestyle).is_err());
        assert!(parse_game(overline, None, Rule::Standard).is_ok());
        assert!(parse_game("a8 a1 b8 b1 c8 c1 d8 d1 e8", None, Rule::Standard).is_ok());
    }

    #[test]
    fn ascii_round_trip() {
        let text = ".....\n.X...\n..O..\n.....\n.....\n";
        let p = parse_position(text, None).unwrap();
        assert_eq!(render(&p, &Bitboard::EMPTY), text);
    }
}
