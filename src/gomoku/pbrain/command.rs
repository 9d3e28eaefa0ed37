//! The Gomocup manager protocol's lines as typed [`Command`]s, and their parser. Every line is
//! parsed before anything acts on it; a malformed one is a [`ParseError`] (the brain answers
//! `ERROR <why>`), an unknown command is [`Command::Unknown`]. Moves are `x,y`, 0-based.

use std::fmt;

use stonelab_gomoku::Point;

/// One manager line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n`: a new game on an n x n board.
    Start(usize),
    /// `RECTSTART w,h`: a new game on a w x h board.
    RectStart(usize, usize),
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the brain moves first.
    Begin,
    /// `TURN x,y`: the opponent played there; the brain answers.
    Turn(Point),
    /// `BOARD`: stone lines follow until `DONE`; the brain then answers with its move.
    Board,
    /// `YXBOARD` (Yixin's extension): as `BOARD`, but the position is only set, with no answer.
    YxBoard,
    /// `x,y,f` inside a `BOARD` block (f: 1 own, 2 opponent, 3 a mark of continuous games).
    BoardLine(Point, u8),
    /// `DONE`: the end of a `BOARD` block; the brain answers.
    Done,
    /// `INFO key value`.
    Info(Info),
    /// `TAKEBACK x,y`: remove that stone.
    Takeback(Point),
    /// `PLAY x,y`: the brain must play there (answered with the same move).
    Play(Point),
    /// `ABOUT`.
    About,
    /// `YXSHOWFORBID` (Yixin's extension): Black's forbidden points under renju.
    ShowForbid,
    /// `YXNBEST n`: the brain's `n` best moves as `MESSAGE` lines, then it plays the best.
    Nbest(usize),
    /// `YXSTOP`: stop thinking now (the reader sees it while the brain thinks); idle, nothing.
    Stop,
    /// `YXBLOCK`: `x,y` lines until `DONE`, points the brain may not choose from now on.
    Block,
    /// `YXBLOCKUNDO`: `x,y` lines until `DONE`, points taken off the block list.
    BlockUndo,
    /// `YXBLOCKRESET`: the block list emptied.
    BlockReset,
    /// `YXSEARCHDEFEND`: the moves that stop the opponent's threat sequence, as a `MESSAGE`; then
    /// the brain plays.
    SearchDefend,
    /// `SWAP2BOARD`: stone lines until `DONE`; the brain answers the swap2 opening's next step.
    Swap2Board,
    /// `END`: quit, no answer.
    End,
    /// A command this brain does not know.
    Unknown(String),
}

/// An `INFO` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// Milliseconds for one move (0: as fast as possible).
    TimeoutTurn(u64),
    /// Milliseconds for the whole match (0: no limit).
    TimeoutMatch(u64),
    /// Milliseconds left in the match.
    TimeLeft(u64),
    /// Bytes of memory the brain may use (0: no limit).
    MaxMemory(u64),
    /// The rule bitmask: 1 exactly five, 2 continuous game, 4 renju, 8 caro.
    Rule(u32),
    /// Search threads (Yixin's and Rapfi's extension).
    ThreadNum(u64),
    /// A key this brain does not use (game_type, evaluate, folder, ...); ignored.
    Other(String),
}

/// Why a line could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn bad(message: impl Into<String>) -> ParseError {
    ParseError(message.into())
}

/// Parses `x,y` (spaces around the numbers allowed).
pub(crate) fn parse_point(text: &str) -> Result<Point, ParseError> {
    let mut parts = text.split(',');
    let (Some(x), Some(y), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad(format!("expected x,y, got '{text}'")));
    };
    let coord = |s: &str| {
        s.trim()
            .parse::<u8>()
            .map_err(|_| bad(format!("bad coordinate '{}' in '{text}'", s.trim())))
    };
    Ok(Point::new(coord(x)?, coord(y)?))
}

fn parse_number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, ParseError> {
    text.trim()
        .parse()
        .map_err(|_| bad(format!("bad {what} '{}'", text.trim())))
}

/// Parses one line. `in_board` says whether a `BOARD` block is open (then `x,y,f` lines and `DONE`
/// are expected). An empty line is `Ok(None)`.
pub fn parse(line: &str, in_board: bool) -> Result<Option<Command>, ParseError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    let upper = word.to_ascii_uppercase();
    if in_board && upper != "DONE" {
        let mut parts = line.split(',');
        let (Some(x), Some(y), Some(f), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad(format!("expected x,y,field or DONE, got '{line}'")));
        };
        let p = parse_point(&format!("{x},{y}"))?;
        let field: u8 = parse_number(f, "field")?;
        if !(1..=3).contains(&field) {
            return Err(bad(format!(
                "bad field {field} (1 own, 2 opponent, 3 mark)"
            )));
        }
        return Ok(Some(Command::BoardLine(p, field)));
    }
    let no_args = |c: Command| {
        if rest.is_empty() {
            Ok(Some(c))
        } else {
            Err(bad(format!("{upper} takes no argument")))
        }
    };
    match upper.as_str() {
        "START" => Ok(Some(Command::Start(parse_number(rest, "board size")?))),
        "YXSHOWFORBID" => no_args(Command::ShowForbid),
        "YXNBEST" => Ok(Some(Command::Nbest(parse_number(rest, "YXNBEST count")?))),
        "YXSTOP" => no_args(Command::Stop),
        "YXBLOCK" => no_args(Command::Block),
        "YXBLOCKUNDO" => no_args(Command::BlockUndo),
        "YXBLOCKRESET" => no_args(Command::BlockReset),
        "YXSEARCHDEFEND" => no_args(Command::SearchDefend),
        "SWAP2BOARD" => no_args(Command::Swap2Board),
        "RECTSTART" => {
            let mut parts = rest.split(',');
            let (Some(w), Some(h), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(bad(format!("expected RECTSTART w,h, got '{line}'")));
            };
            Ok(Some(Command::RectStart(
                parse_number(w, "width")?,
                parse_number(h, "height")?,
            )))
        }
        "RESTART" => no_args(Command::Restart),
        "BEGIN" => no_args(Command::Begin),
        "TURN" => Ok(Some(Command::Turn(parse_point(rest)?))),
        "BOARD" => no_args(Command::Board),
        "YXBOARD" => no_args(Command::YxBoard),
        "DONE" => no_args(Command::Done),
        "TAKEBACK" => Ok(Some(Command::Takeback(parse_point(rest)?))),
        "PLAY" => Ok(Some(Command::Play(parse_point(rest)?))),
        "ABOUT" => no_args(Command::About),
        "END" => no_args(Command::End),
        "INFO" => {
            let (key, value) = match rest.find(char::is_whitespace) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            if key.is_empty() {
                return Err(bad("INFO needs a key and a value"));
            }
            let info = match key.to_ascii_lowercase().as_str() {
                "timeout_turn" => Info::TimeoutTurn(parse_number(value, "timeout_turn")?),
                "timeout_match" => Info::TimeoutMatch(parse_number(value, "timeout_match")?),
                "time_left" => Info::TimeLeft(parse_number(value, "time_left")?),
                "max_memory" => Info::MaxMemory(parse_number(value, "max_memory")?),
                "rule" => Info::Rule(parse_number(value, "rule")?),
                "thread_num" => Info::ThreadNum(parse_number(value, "thread_num")?),
                other => Info::Other(other.to_string()),
            };
            Ok(Some(Command::Info(info)))
        }
        _ => Ok(Some(Command::Unknown(word.to_string()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: u8, y: u8) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn parses_every_command() {
        let ok = |line: &str| parse(line, false).unwrap().unwrap();
        assert_eq!(ok("START 15"), Command::Start(15));
        assert_eq!(ok("start 20\r"), Command::Start(20));
        assert_eq!(ok("RECTSTART 20,15"), Command::RectStart(20, 15));
        assert_eq!(ok("RESTART"), Command::Restart);
        assert_eq!(ok("BEGIN"), Command::Begin);
        assert_eq!(ok("TURN 7,8"), Command::Turn(p(7, 8)));
        assert_eq!(ok("TURN 7, 8"), Command::Turn(p(7, 8)));
        assert_eq!(ok("BOARD"), Command::Board);
        assert_eq!(ok("DONE"), Command::Done);
        assert_eq!(ok("TAKEBACK 3,4"), Command::Takeback(p(3, 4)));
        assert_eq!(ok("PLAY 3,4"), Command::Play(p(3, 4)));
        assert_eq!(ok("ABOUT"), Command::About);
        assert_eq!(ok("END"), Command::End);
        assert_eq!(
            ok("INFO timeout_turn 5000"),
            Command::Info(Info::TimeoutTurn(5000))
        );
        assert_eq!(
            ok("INFO timeout_match 120000"),
            Command::Info(Info::TimeoutMatch(120000))
        );
        assert_eq!(
            ok("INFO time_left 1000"),
            Command::Info(Info::TimeLeft(1000))
        );
        assert_eq!(
            ok("INFO max_memory 367001600"),
            Command::Info(Info::MaxMemory(367001600))
        );
        assert_eq!(ok("INFO rule 1"), Command::Info(Info::Rule(1)));
        assert_eq!(ok("INFO thread_num 2"), Command::Info(Info::ThreadNum(2)));
        assert_eq!(
            ok("INFO folder C:\\x y"),
            Command::Info(Info::Other("folder".into()))
        );
        assert_eq!(ok("SWAP2BOARD"), Command::Swap2Board);
        assert_eq!(ok("yxboard"), Command::YxBoard);
        assert_eq!(ok("YXSHOWFORBID"), Command::ShowForbid);
        assert_eq!(ok("YXNBEST 5"), Command::Nbest(5));
        assert_eq!(ok("YXSTOP"), Command::Stop);
        assert_eq!(ok("YXBLOCK"), Command::Block);
        assert_eq!(ok("YXBLOCKUNDO"), Command::BlockUndo);
        assert_eq!(ok("YXBLOCKRESET"), Command::BlockReset);
        assert_eq!(ok("YXSEARCHDEFEND"), Command::SearchDefend);
        assert!(parse("YXNBEST many", false).is_err());
        assert!(parse("YXSTOP now", false).is_err());
        assert_eq!(ok("HELLO world"), Command::Unknown("HELLO".into()));
        assert_eq!(parse("   \r", false), Ok(None));
        let board = |line: &str| parse(line, true).unwrap().unwrap();
        assert_eq!(board("10,10,1"), Command::BoardLine(p(10, 10), 1));
        assert_eq!(board("0,3,2\r"), Command::BoardLine(p(0, 3), 2));
        assert_eq!(board("0,3,3"), Command::BoardLine(p(0, 3), 3));
        assert_eq!(board("done"), Command::Done);
    }

    #[test]
    fn rejects_malformed_lines() {
        for line in [
            "START",
            "START x",
            "START -1",
            "START 15 16",
            "RECTSTART 20",
            "RECTSTART a,b",
            "TURN",
            "TURN 7",
            "TURN 7,8,9",
            "TURN a,b",
            "TURN -1,3",
            "TURN 300,3",
            "TAKEBACK",
            "PLAY x",
            "BEGIN now",
            "RESTART 1",
            "INFO",
            "INFO timeout_turn",
            "INFO timeout_turn fast",
            "INFO max_memory -5",
            "INFO rule x",
            "END now",
        ] {
            assert!(parse(line, false).is_err(), "{line:?} parsed");
        }
        for line in ["1,2", "1,2,", "1,2,4", "1,2,0", "a,b,1", "1,2,1,1", "BEGIN"] {
            assert!(parse(line, true).is_err(), "{line:?} parsed in BOARD");
        }
    }
}
