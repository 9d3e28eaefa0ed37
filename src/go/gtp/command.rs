//! GTP version 2 input: a line is cleaned (control characters dropped, tabs to spaces, comments
//! cut), split into an optional numeric id, a command name and arguments, and parsed into a typed
//! [`Command`] before anything acts on it.

use super::clock::TimeSettings;
use stonelab_go::vertex::{parse_color, parse_vertex};
use stonelab_go::{Color, Geometry, Move};

/// Every command the engine knows, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "loadsgf",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "list_stones",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "printsgf",
    "gogui-analyze_commands",
    "lz-analyze",
    "lz-genmove_analyze",
    "kata-analyze",
    "cputime",
];

/// The output dialect of a live analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Leela Zero's (`winrate` in 1/10000, read by Lizzie and Sabaki).
    Lz,
    /// KataGo's (`winrate` from 0 to 1, with `utility` and score fields).
    Kata,
}

/// A vertex as written (column index, row counted from the bottom from 1), before it is checked
/// against the board; or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vertex {
    Pass,
    At { col: usize, row: usize },
}

impl Vertex {
    /// The move on a board of geometry `g`, `None` when the vertex is off that board.
    pub fn to_move(self, g: &Geometry) -> Option<Move> {
        match self {
            Vertex::Pass => Some(Move::Pass),
            Vertex::At { col, row } => g.point(g.rows().checked_sub(row)?, col).map(Move::Play),
        }
    }
}

/// Stone status classes of `final_status_list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Alive,
    Dead,
    Seki,
}

/// A parsed command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    /// GoGui's extension: the process's CPU time so far, in seconds.
    CpuTime,
    Name,
    Version,
    Known(String),
    ListCommands,
    Quit,
    BoardSize(usize),
    ClearBoard,
    Komi(f64),
    Play(Color, Vertex),
    GenMove(Color),
    Undo,
    ShowBoard,
    FinalScore,
    FinalStatusList(Status),
    LoadSgf {
        path: String,
        move_number: Option<usize>,
    },
    TimeSettings(TimeSettings),
    TimeLeft {
        color: Color,
        time: f64,
        stones: u32,
    },
    ListStones(Color),
    /// The move `genmove` would choose, not played.
    RegGenMove(Color),
    /// `genmove` that does not pass while the opponent has dead stones on the board.
    GenMoveCleanup(Color),
    FixedHandicap(usize),
    PlaceFreeHandicap(usize),
    SetFreeHandicap(Vec<Vertex>),
    /// The game as SGF, to the file when one is named.
    PrintSgf(Option<String>),
    AnalyzeCommands,
    /// Live analysis until the next command (`lz-analyze`, `kata-analyze`), or for one move that
    /// is then played (`lz-genmove_analyze`).
    Analyze {
        dialect: Dialect,
        color: Option<Color>,
        /// Centiseconds between updates.
        interval: u32,
        genmove: bool,
    },
}

/// Why a line is not a command the engine can run; the text is the GTP error message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    Unknown,
    Syntax(String),
}

impl ParseError {
    pub fn message(&self) -> String {
        match self {
            ParseError::Unknown => "unknown command".to_string(),
            ParseError::Syntax(why) => format!("syntax error: {why}"),
        }
    }
}

/// One request line: the id (echoed in the answer) and the command or why it is not one.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: Option<u64>,
    pub command: Result<Command, ParseError>,
}

/// Cleans a raw line as GTP section 3.1 asks; `None` for a line with nothing left (ignored).
#[must_use]
pub fn preprocess(line: &str) -> Option<String> {
    let line = line.split('#').next().unwrap_or("");
    let clean: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let clean = clean.trim().to_string();
    (!clean.is_empty()).then_some(clean)
}

/// Parses a cleaned, non-empty line.
#[must_use]
pub fn parse(line: &str) -> Request {
    let mut words = line.split_whitespace();
    let mut first = words.next().unwrap_or("");
    let mut id = None;
    if first.bytes().all(|b| b.is_ascii_digit()) && !first.is_empty() {
        match first.parse::<u64>() {
            Ok(n) => id = Some(n),
            Err(_) => {
                return Request {
                    id: None,
                    command: Err(ParseError::Syntax(format!("id '{first}' is too large"))),
                }
            }
        }
        first = words.next().unwrap_or("");
        if first.is_empty() {
            return Request {
                id,
                command: Err(ParseError::Syntax("no command after the id".into())),
            };
        }
    }
    let args: Vec<&str> = words.collect();
    Request {
        id,
        command: parse_command(first, &args),
    }
}

fn syntax(why: impl Into<String>) -> ParseError {
    ParseError::Syntax(why.into())
}

fn arity(args: &[&str], n: usize, usage: &str) -> Result<(), ParseError> {
    if args.len() == n {
        Ok(())
    } else {
        Err(syntax(format!("expected {usage}")))
    }
}

fn color(text: &str) -> Result<Color, ParseError> {
    parse_color(text).ok_or_else(|| syntax(format!("'{text}' is not a colour")))
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, ParseError> {
    text.parse()
        .map_err(|_| syntax(format!("'{text}' is not {what}")))
}

fn seconds(text: &str) -> Result<f64, ParseError> {
    let t: f64 = number(text, "a time")?;
    if t.is_finite() && t >= 0.0 {
        Ok(t)
    } else {
        Err(syntax(format!("'{text}' is not a time")))
    }
}

/// KGS's `kgs-time_settings`: `none`, `absolute MAIN`, `byoyomi MAIN PERIOD PERIODS` (Japanese)
/// or `canadian MAIN TIME STONES` (as `time_settings`).
fn kgs_time_settings(args: &[&str]) -> Result<TimeSettings, ParseError> {
    let usage =
        "none, absolute MAIN, byoyomi MAIN PERIOD_TIME PERIODS or canadian MAIN TIME STONES";
    let (kind, rest) = args
        .split_first()
        .ok_or_else(|| syntax(format!("expected {usage}")))?;
    match kind.to_ascii_lowercase().as_str() {
        // GTP reads no time at all as no limit.
        "none" => arity(rest, 0, usage).map(|()| TimeSettings::canadian(0.0, 0.0, 0)),
        "absolute" => {
            arity(rest, 1, usage)?;
            Ok(TimeSettings::canadian(seconds(rest[0])?, 0.0, 0))
        }
        "byoyomi" => {
            arity(rest, 3, usage)?;
            let (main, period) = (seconds(rest[0])?, seconds(rest[1])?);
            let periods: u32 = number(rest[2], "a period count")?;
            if periods == 0 {
                // No periods: absolute time.
                return Ok(TimeSettings::canadian(main, 0.0, 0));
            }
            Ok(TimeSettings {
                main,
                byo_yomi: period,
                stones: periods,
                periods: true,
            })
        }
        "canadian" => {
            arity(rest, 3, usage)?;
            Ok(TimeSettings::canadian(
                seconds(rest[0])?,
                seconds(rest[1])?,
                number(rest[2], "a stone count")?,
            ))
        }
        _ => Err(syntax(format!(
            "'{kind}' is not a time system: expected {usage}"
        ))),
    }
}

/// Reads a vertex syntactically (any column `A`..`T` without `I`, rows 1..19, or `pass`).
fn vertex(text: &str) -> Result<Vertex, ParseError> {
    let big = Geometry::new(stonelab_go::MAX_SIZE, stonelab_go::MAX_SIZE).expect("19x19");
    match parse_vertex(text, &big) {
        Ok(Move::Pass) => Ok(Vertex::Pass),
        Ok(Move::Play(p)) => Ok(Vertex::At {
            col: p.col(),
            row: stonelab_go::MAX_SIZE - p.row(),
        }),
        Err(e) => Err(syntax(e.to_string())),
    }
}

fn parse_command(name: &str, args: &[&str]) -> Result<Command, ParseError> {
    let simple = |c: Command| arity(args, 0, "no arguments").map(|()| c);
    match name {
        "protocol_version" => simple(Command::ProtocolVersion),
        "name" => simple(Command::Name),
        "version" => simple(Command::Version),
        "known_command" => {
            arity(args, 1, "a command name")?;
            Ok(Command::Known(args[0].to_string()))
        }
        "list_commands" => simple(Command::ListCommands),
        "cputime" => simple(Command::CpuTime),
        "quit" => simple(Command::Quit),
        "boardsize" => {
            arity(args, 1, "a board size")?;
            Ok(Command::BoardSize(number(args[0], "a board size")?))
        }
        "clear_board" => simple(Command::ClearBoard),
        "komi" => {
            arity(args, 1, "a komi")?;
            let k: f64 = number(args[0], "a komi")?;
            if !k.is_finite() {
                return Err(syntax("komi must be finite"));
            }
            Ok(Command::Komi(k))
        }
        "play" => {
            arity(args, 2, "a colour and a vertex")?;
            Ok(Command::Play(color(args[0])?, vertex(args[1])?))
        }
        "genmove" => {
            arity(args, 1, "a colour")?;
            Ok(Command::GenMove(color(args[0])?))
        }
        "undo" => simple(Command::Undo),
        "showboard" => simple(Command::ShowBoard),
        "final_score" => simple(Command::FinalScore),
        "final_status_list" => {
            arity(args, 1, "alive, dead or seki")?;
            let status = match args[0].to_ascii_lowercase().as_str() {
                "alive" => Status::Alive,
                "dead" => Status::Dead,
                "seki" => Status::Seki,
                other => return Err(syntax(format!("'{other}' is not alive, dead or seki"))),
            };
            Ok(Command::FinalStatusList(status))
        }
        "loadsgf" => {
            if args.is_empty() || args.len() > 2 {
                return Err(syntax("expected a file name and an optional move number"));
            }
            let move_number = match args.get(1) {
                Some(n) => Some(number(n, "a move number")?),
                None => None,
            };
            Ok(Command::LoadSgf {
                path: args[0].to_string(),
                move_number,
            })
        }
        "time_settings" => {
            arity(args, 3, "main time, byo-yomi time and byo-yomi stones")?;
            Ok(Command::TimeSettings(TimeSettings::canadian(
                seconds(args[0])?,
                seconds(args[1])?,
                number(args[2], "a stone count")?,
            )))
        }
        "kgs-time_settings" => kgs_time_settings(args).map(Command::TimeSettings),
        "time_left" => {
            arity(args, 3, "a colour, a time and a stone count")?;
            Ok(Command::TimeLeft {
                color: color(args[0])?,
                time: seconds(args[1])?,
                stones: number(args[2], "a stone count")?,
            })
        }
        "list_stones" => {
            arity(args, 1, "a colour")?;
            Ok(Command::ListStones(color(args[0])?))
        }
        "reg_genmove" => {
            arity(args, 1, "a colour")?;
            Ok(Command::RegGenMove(color(args[0])?))
        }
        "kgs-genmove_cleanup" => {
            arity(args, 1, "a colour")?;
            Ok(Command::GenMoveCleanup(color(args[0])?))
        }
        "fixed_handicap" | "place_free_handicap" => {
            arity(args, 1, "a number of stones")?;
            let n = number(args[0], "a number of stones")?;
            Ok(if name == "fixed_handicap" {
                Command::FixedHandicap(n)
            } else {
                Command::PlaceFreeHandicap(n)
            })
        }
        "set_free_handicap" => {
            if args.is_empty() {
                return Err(syntax("expected vertices"));
            }
            Ok(Command::SetFreeHandicap(
                args.iter().map(|a| vertex(a)).collect::<Result<_, _>>()?,
            ))
        }
        "printsgf" => {
            if args.len() > 1 {
                return Err(syntax("expected an optional file name"));
            }
            Ok(Command::PrintSgf(args.first().map(|s| s.to_string())))
        }
        "gogui-analyze_commands" => simple(Command::AnalyzeCommands),
        "lz-analyze" | "kata-analyze" | "lz-genmove_analyze" => analyze(name, args),
        _ => Err(ParseError::Unknown),
    }
}

/// `[colour] [interval] [key value ...]`: the colour (default the side to move), the update
/// interval in centiseconds (bare or as `interval N`; default 100); other pairs (`minmoves`,
/// `ownership` ...) are read and ignored. `lz-genmove_analyze` needs the colour.
fn analyze(name: &str, args: &[&str]) -> Result<Command, ParseError> {
    let mut rest = args;
    let color = match rest.first().and_then(|a| parse_color(a)) {
        Some(c) => {
            rest = &rest[1..];
            Some(c)
        }
        None => None,
    };
    let mut interval = 100u32;
    if let Some(first) = rest.first() {
        if let Ok(n) = first.parse::<u32>() {
            interval = n;
            rest = &rest[1..];
        }
    }
    while !rest.is_empty() {
        if rest.len() < 2 {
            return Err(syntax(format!("'{}' has no value", rest[0])));
        }
        if rest[0] == "interval" {
            interval = number(rest[1], "an interval")?;
        }
        rest = &rest[2..];
    }
    let genmove = name == "lz-genmove_analyze";
    if genmove && color.is_none() {
        return Err(syntax("expected a colour"));
    }
    Ok(Command::Analyze {
        dialect: if name == "kata-analyze" {
            Dialect::Kata
        } else {
            Dialect::Lz
        },
        color,
        interval: interval.max(1),
        genmove,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cleaned() {
        assert_eq!(preprocess("  # only a comment"), None);
        assert_eq!(preprocess("\t\r\n"), None);
        assert_eq!(
            preprocess("1\tplay\x07 b c3 # move").as_deref(),
            Some("1 play b c3")
        );
    }

    #[test]
    fn ids_and_commands() {
        let r = parse("12 play W pass");
        assert_eq!(r.id, Some(12));
        assert_eq!(r.command, Ok(Command::Play(Color::White, Vertex::Pass)));
        assert_eq!(
            parse("genmove black").command,
            Ok(Command::GenMove(Color::Black))
        );
        assert_eq!(parse("3 frobnicate").command, Err(ParseError::Unknown));
        for line in [
            "7",
            "play b i3",
            "play x c3",
            "boardsize nine",
            "komi nan",
            "time_left b -1 0",
        ] {
            let command = parse(line).command;
            assert!(
                matches!(command, Err(ParseError::Syntax(_))),
                "{line}: {command:?}"
            );
        }
    }

    #[test]
    fn kgs_time_settings_read_each_system() {
        let read = |line: &str| match parse(line).command {
            Ok(Command::TimeSettings(t)) => Some(t),
            _ => None,
        };
        let canadian = |m, b, s| Some(TimeSettings::canadian(m, b, s));
        assert_eq!(read("kgs-time_settings none"), canadian(0.0, 0.0, 0));
        assert_eq!(
            read("kgs-time_settings absolute 300"),
            canadian(300.0, 0.0, 0)
        );
        assert_eq!(
            read("kgs-time_settings canadian 60 30 5"),
            canadian(60.0, 30.0, 5)
        );
        assert_eq!(
            read("kgs-time_settings byoyomi 60 30 0"),
            canadian(60.0, 0.0, 0)
        );
        assert_eq!(
            read("kgs-time_settings ByoYomi 600 30 5"),
            Some(TimeSettings {
                main: 600.0,
                byo_yomi: 30.0,
                stones: 5,
                periods: true
            })
        );
        for line in [
            "kgs-time_settings",
            "kgs-time_settings none 5",
            "kgs-time_settings absolute",
            "kgs-time_settings byoyomi 60 30",
            "kgs-time_settings canadian 60 -1 5",
            "kgs-time_settings fischer 60 5",
        ] {
            let command = parse(line).command;
            assert!(
                matches!(command, Err(ParseError::Syntax(_))),
                "{line}: {command:?}"
            );
        }
    }

    #[test]
    fn vertices_check_against_the_board() {
        let g = Geometry::new(5, 5).unwrap();
        let Ok(Command::Play(_, v)) = parse("play b e5").command else {
            panic!()
        };
        assert!(v.to_move(&g).is_some());
        let Ok(Command::Play(_, v)) = parse("play b f5").command else {
            panic!()
        };
        assert_eq!(v.to_move(&g), None);
        let Ok(Command::Play(_, v)) = parse("play b a6").command else {
            panic!()
        };
        assert_eq!(v.to_move(&g), None);
    }
}
