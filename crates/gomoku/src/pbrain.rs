//! The Gomocup manager protocol ("pbrain", as Piskvork speaks it): typed commands, their parser, and
//! [`Brain`], the protocol loop that owns a game and answers each line.
//!
//! Every line is parsed into a [`Command`] before anything acts on it. Malformed input gets an
//! `ERROR <why>` line and the brain goes on; an unknown command gets `UNKNOWN <command>`. Moves are
//! `x,y`, 0-based from the top left. Lines may end in CR LF or LF; every answer is flushed.

use std::fmt;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use crate::engine::{Budget, Decision, Engine, Position};
use crate::{Bitboard, Color, Point, Rule, MAX_SIZE, MIN_SIZE};

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
    /// `BOARD`: stone lines follow until `DONE`.
    Board,
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
fn parse_point(text: &str) -> Result<Point, ParseError> {
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
                other => Info::Other(other.to_string()),
            };
            Ok(Some(Command::Info(info)))
        }
        _ => Ok(Some(Command::Unknown(word.to_string()))),
    }
}

/// Who chooses the brain's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The engine: threat-space search and alpha-beta.
    Engine,
    /// A uniformly random empty cell (seeded, so games replay).
    Random(u64),
    /// One ply: a five, else a block of a five, else the move with the best static evaluation
    /// afterwards (ties broken at random, seeded).
    Greedy(u64),
}

/// Settings of a brain that the manager does not send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub player: Player,
    /// A fixed node budget per move (deterministic; overrides the clock).
    pub nodes: Option<u64>,
    /// Transposition-table bytes when the manager sets no memory limit.
    pub table_bytes: usize,
    /// Print `MESSAGE` lines about each decision.
    pub messages: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            player: Player::Engine,
            nodes: None,
            table_bytes: 64 << 20,
            messages: true,
        }
    }
}

/// What the manager told the brain about time and memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Limits {
    timeout_turn: u64,
    timeout_match: u64,
    time_left: Option<u64>,
    max_memory: u64,
    rule: Rule,
}

/// Time kept back from every move for process and pipe overhead, in milliseconds.
const MARGIN_MS: u64 = 40;
/// Memory the brain needs besides its transposition table: the seed table (41 MiB), the class
/// tables, the threat solver's tables and the process itself.
const FIXED_MEMORY: u64 = 96 << 20;

/// The protocol loop: one game's state and the answers.
pub struct Brain<W: Write> {
    out: W,
    options: Options,
    limits: Limits,
    engine: Option<Engine>,
    size: usize,
    /// Stones of an open `BOARD` block, and the first error in it.
    board_block: Option<BoardBlock>,
    rng: u64,
}

/// The stone lines of an open `BOARD` block (point, field) and the first error in it.
type BoardBlock = (Vec<(Point, u8)>, Option<String>);

/// The brain's own stones are Black, the opponent's White (the rules here are symmetric).
const OWN: Color = Color::Black;
const OPPONENT: Color = Color::White;

impl<W: Write> Brain<W> {
    #[must_use]
    pub fn new(out: W, options: Options) -> Brain<W> {
        let seed = match options.player {
            Player::Random(s) | Player::Greedy(s) => s,
            Player::Engine => 0,
        };
        Brain {
            out,
            options,
            limits: Limits {
                timeout_turn: 5000,
                timeout_match: 0,
                time_left: None,
                max_memory: 0,
                rule: Rule::Freestyle,
            },
            engine: None,
            size: 0,
            board_block: None,
            rng: seed ^ 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// Reads lines until `END` or the end of input, answering each.
    pub fn run(&mut self, input: impl BufRead) -> std::io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(l) => l,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    self.say("ERROR input is not UTF-8")?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            if !self.handle(&line)? {
                break;
            }
        }
        Ok(())
    }

    /// Answers one line. Returns false after `END`.
    pub fn handle(&mut self, line: &str) -> std::io::Result<bool> {
        let in_board = self.board_block.is_some();
        let command = match parse(line, in_board) {
            Ok(Some(c)) => c,
            Ok(None) => return Ok(true),
            Err(e) => {
                if let Some((_, error)) = &mut self.board_block {
                    error.get_or_insert(e.0);
                    return Ok(true);
                }
                self.say(&format!("ERROR {e}"))?;
                return Ok(true);
            }
        };
        match command {
            Command::End => return Ok(false),
            Command::Start(n) => self.start(n, n)?,
            Command::RectStart(w, h) => self.start(w, h)?,
            Command::Restart => match &mut self.engine {
                Some(_) => {
                    self.new_game(Vec::new());
                    self.say("OK")?;
                }
                None => self.say("ERROR no game: send START first")?,
            },
            Command::About => self.say(&format!(
                "name=\"stonelab\", version=\"{}\", author=\"stonelab developers\", country=\"-\", www=\"-\"",
                env!("CARGO_PKG_VERSION")
            ))?,
            Command::Info(info) => self.info(info)?,
            Command::Begin => {
                if self.engine.is_none() {
                    self.say("ERROR no game: send START first")?;
                } else {
                    self.answer()?;
                }
            }
            Command::Turn(p) => {
                if let Err(why) = self.place(p, OPPONENT) {
                    self.say(&format!("ERROR {why}"))?;
                } else {
                    self.answer()?;
                }
            }
            Command::Play(p) => {
                if let Err(why) = self.place(p, OWN) {
                    self.say(&format!("ERROR {why}"))?;
                } else {
                    self.say(&format!("{},{}", p.x, p.y))?;
                }
            }
            Command::Takeback(p) => self.takeback(p)?,
            Command::Board => {
                if self.engine.is_none() {
                    self.say("ERROR no game: send START first")?;
                    // Swallow the block anyway so its lines do not read as commands.
                }
                self.board_block = Some((Vec::new(), None));
            }
            Command::BoardLine(p, field) => match &mut self.board_block {
                Some((lines, _)) => lines.push((p, field)),
                None => self.say("ERROR a stone line outside BOARD")?,
            },
            Command::Done => self.done()?,
            Command::Unknown(word) => self.say(&format!("UNKNOWN command '{word}'"))?,
        }
        Ok(true)
    }

    fn say(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn start(&mut self, w: usize, h: usize) -> std::io::Result<()> {
        if w != h {
            return self.say(&format!(
                "ERROR rectangular boards are not supported ({w}x{h}); use a square board"
            ));
        }
        if !(MIN_SIZE..=MAX_SIZE).contains(&w) {
            return self.say(&format!(
                "ERROR unsupported size {w}: boards from {MIN_SIZE} to {MAX_SIZE}"
            ));
        }
        self.size = w;
        self.board_block = None;
        // Builds the tables now, not on the first move's clock.
        self.new_game(Vec::new());
        self.say("OK")
    }

    /// A fresh engine for the current size and rule, with `stones` on the board.
    fn new_game(&mut self, stones: Vec<(Point, Color)>) {
        let table = if self.limits.max_memory == 0 {
            self.options.table_bytes
        } else {
            let spare = self.limits.max_memory.saturating_sub(FIXED_MEMORY) / 2;
            (spare as usize).clamp(1 << 20, self.options.table_bytes)
        };
        let mut engine = Engine::new(self.size, self.limits.rule, table);
        for (p, c) in stones {
            engine.make(p, c);
        }
        self.engine = Some(engine);
    }

    fn stones(&self) -> Vec<(Point, Color)> {
        self.engine
            .as_ref()
            .map(|e| e.position().moves().to_vec())
            .unwrap_or_default()
    }

    fn info(&mut self, info: Info) -> std::io::Result<()> {
        match info {
            Info::TimeoutTurn(t) => self.limits.timeout_turn = t,
            Info::TimeoutMatch(t) => self.limits.timeout_match = t,
            Info::TimeLeft(t) => self.limits.time_left = Some(t),
            Info::MaxMemory(m) => {
                self.limits.max_memory = m;
                if self.engine.is_some() {
                    let stones = self.stones();
                    self.new_game(stones);
                }
            }
            Info::Rule(bits) => {
                if bits & 4 != 0 {
                    return self
                        .say("ERROR renju is not supported (rule 0 freestyle, 1 exactly five)");
                }
                if bits & 8 != 0 {
                    return self
                        .say("ERROR caro is not supported (rule 0 freestyle, 1 exactly five)");
                }
                let rule = if bits & 1 != 0 {
                    Rule::Standard
                } else {
                    Rule::Freestyle
                };
                if rule != self.limits.rule {
                    self.limits.rule = rule;
                    if self.engine.is_some() {
                        let stones = self.stones();
                        self.new_game(stones);
                    }
                }
            }
            Info::Other(_) => {}
        }
        Ok(())
    }

    /// Puts a stone of `c` on `p`, or says why not.
    fn place(&mut self, p: Point, c: Color) -> Result<(), String> {
        let Some(engine) = &mut self.engine else {
            return Err("no game: send START first".into());
        };
        let n = engine.position().size();
        if usize::from(p.x) >= n || usize::from(p.y) >= n {
            return Err(format!("{},{} is off the {n}x{n} board", p.x, p.y));
        }
        if engine.position().stone(p).is_some() {
            return Err(format!("{},{} is occupied", p.x, p.y));
        }
        engine.make(p, c);
        Ok(())
    }

    fn takeback(&mut self, p: Point) -> std::io::Result<()> {
        let stones = self.stones();
        if self.engine.is_none() {
            return self.say("ERROR no game: send START first");
        }
        let Some(i) = stones.iter().position(|&(q, _)| q == p) else {
            return self.say(&format!("ERROR no stone on {},{}", p.x, p.y));
        };
        if i + 1 == stones.len() {
            if let Some(e) = &mut self.engine {
                e.unmake();
            }
        } else {
            let mut rest = stones;
            rest.remove(i);
            self.new_game(rest);
        }
        self.say("OK")
    }

    fn done(&mut self) -> std::io::Result<()> {
        let Some((lines, error)) = self.board_block.take() else {
            return self.say("ERROR DONE without BOARD");
        };
        if self.engine.is_none() {
            return self.say("ERROR no game: send START first");
        }
        if let Some(e) = error {
            return self.say(&format!("ERROR in BOARD: {e}"));
        }
        let n = self.size;
        let mut seen = Bitboard::EMPTY;
        let mut stones = Vec::new();
        for (p, field) in lines {
            if usize::from(p.x) >= n || usize::from(p.y) >= n {
                return self.say(&format!("ERROR in BOARD: {},{} is off the board", p.x, p.y));
            }
            if seen.contains(p) {
                return self.say(&format!("ERROR in BOARD: {},{} given twice", p.x, p.y));
            }
            seen.insert(p);
            match field {
                1 => stones.push((p, OWN)),
                2 => stones.push((p, OPPONENT)),
                _ => {} // a mark of continuous games, not a stone
            }
        }
        self.new_game(stones);
        self.answer()
    }

    /// The time for this move, in milliseconds.
    fn move_ms(&self, empties: usize) -> u64 {
        let turn = if self.limits.timeout_turn == 0 {
            100
        } else {
            self.limits.timeout_turn
        };
        let mut ms = turn;
        if self.limits.timeout_match > 0 {
            if let Some(left) = self.limits.time_left {
                // Spread what is left over the moves the game may still take.
                let moves_left = (empties as u64 / 4).max(10);
                ms = ms.min(left / moves_left);
            }
        }
        (ms * 3 / 4).saturating_sub(MARGIN_MS).max(5)
    }

    /// Chooses and prints the brain's move.
    fn answer(&mut self) -> std::io::Result<()> {
        let started = Instant::now();
        let player = self.options.player;
        let Some(engine) = self.engine.as_mut() else {
            return self.say("ERROR no game: send START first");
        };
        let pos = engine.position();
        let n = pos.size();
        let empties = n * n - pos.stone_count();
        if empties == 0 {
            return self.say("ERROR the board is full");
        }
        let decision = match player {
            Player::Engine => {
                let budget = match self.options.nodes {
                    Some(nodes) => Budget::nodes(nodes),
                    None => Budget::time(Duration::from_millis(self.move_ms(empties))),
                };
                let engine = self.engine.as_mut().expect("checked above");
                Some(engine.think(OWN, budget))
            }
            Player::Random(_) => None,
            Player::Greedy(_) => None,
        };
        let engine = self.engine.as_mut().expect("checked above");
        let best = match (&decision, player) {
            (Some(d), _) => d.best,
            (None, Player::Greedy(_)) => greedy_move(engine.position(), OWN, &mut self.rng),
            (None, _) => random_move(engine.position(), &mut self.rng),
        };
        engine.make(best, OWN);
        if self.options.messages {
            if let Some(Decision {
                reason,
                score,
                depth,
                nodes,
                ..
            }) = decision
            {
                let score = score.map_or("-".to_string(), |s| s.to_string());
                let ms = started.elapsed().as_millis();
                self.say(&format!(
                    "MESSAGE {} depth {depth} score {score} nodes {nodes} ms {ms}",
                    reason.name()
                ))?;
            }
        }
        self.say(&format!("{},{}", best.x, best.y))
    }
}

/// xorshift64*: a small seeded generator for the random and greedy players.
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

fn empties(pos: &Position) -> Vec<Point> {
    let n = pos.size() as u8;
    (0..n)
        .flat_map(|y| (0..n).map(move |x| Point::new(x, y)))
        .filter(|&p| pos.stone(p).is_none())
        .collect()
}

/// A uniformly random empty cell (the position must have one).
#[must_use]
pub fn random_move(pos: &Position, rng: &mut u64) -> Point {
    let cells = empties(pos);
    cells[(next_random(rng) % cells.len() as u64) as usize]
}

/// The one-ply greedy move of `me`: a five, else a block of the opponent's five, else the empty
/// cell near the stones with the best static evaluation after the move (ties at random).
#[must_use]
pub fn greedy_move(pos: &Position, me: Color, rng: &mut u64) -> Point {
    if let Some(p) = pos.threats(me).five.iter().next() {
        return p;
    }
    if let Some(p) = pos.threats(!me).five.iter().next() {
        return p;
    }
    let mut cells: Vec<Point> = empties(pos)
        .into_iter()
        .filter(|&p| pos.is_near(p))
        .collect();
    if cells.is_empty() {
        cells = empties(pos);
    }
    let mut work = pos.clone();
    let mut best = Vec::new();
    let mut best_score = i32::MIN;
    for p in cells {
        work.make(p, me);
        let score = -work.evaluate(!me);
        work.unmake();
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(p);
        }
    }
    best[(next_random(rng) % best.len() as u64) as usize]
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
        assert_eq!(
            ok("INFO folder C:\\x y"),
            Command::Info(Info::Other("folder".into()))
        );
        assert_eq!(ok("SWAP2BOARD"), Command::Unknown("SWAP2BOARD".into()));
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

    fn session(lines: &[&str], options: Options) -> Vec<String> {
        let mut out = Vec::new();
        let mut brain = Brain::new(&mut out, options);
        for line in lines {
            if !brain.handle(line).unwrap() {
                break;
            }
        }
        String::from_utf8(out)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("MESSAGE"))
            .map(str::to_string)
            .collect()
    }

    fn quick() -> Options {
        Options {
            nodes: Some(2000),
            ..Options::default()
        }
    }

    #[test]
    fn answers_a_session() {
        let out = session(
            &[
                "ABOUT",
                "START 15",
                "INFO timeout_turn 1000",
                "INFO game_type 1",
                "BEGIN",
                "TURN 0,0",
                "TAKEBACK 0,0",
                "RESTART",
                "FOO",
                "END",
                "ABOUT",
            ],
            quick(),
        );
        assert!(out[0].starts_with("name=\"stonelab\""), "{out:?}");
        assert_eq!(out[1], "OK");
        assert_eq!(out[2], "7,7");
        let second = parse_point(&out[3]).unwrap();
        assert!(second.x < 15 && second.y < 15 && second != p(7, 7) && second != p(0, 0));
        assert_eq!(out[4..], ["OK", "OK", "UNKNOWN command 'FOO'"]);
    }

    #[test]
    fn errors_keep_the_brain_running() {
        let out = session(
            &[
                "BEGIN",
                "TURN 1,1",
                "START 4",
                "START 21",
                "RECTSTART 20,15",
                "START 8",
                "TURN 8,0",
                "TURN 1,1",
                "TURN 1,1",
                "TURN x",
                "INFO rule 4",
                "INFO rule 8",
                "TAKEBACK 6,6",
                "BOARD",
                "1,1,1",
                "1,1,2",
                "DONE",
                "BOARD",
                "9,9,1",
                "DONE",
                "BOARD",
                "garbage",
                "DONE",
                "DONE",
                "BEGIN",
            ],
            quick(),
        );
        let errors = out.iter().filter(|l| l.starts_with("ERROR")).count();
        assert_eq!(out[0], "ERROR no game: send START first");
        assert_eq!(out[1], "ERROR no game: send START first");
        assert!(out[2].starts_with("ERROR unsupported size 4"));
        assert!(out[3].starts_with("ERROR unsupported size 21"));
        assert!(out[4].starts_with("ERROR rectangular"));
        assert_eq!(out[5], "OK");
        assert!(out[6].contains("off the 8x8 board"));
        // TURN 1,1 is answered with a move; then 1,1 is occupied.
        let reply = parse_point(&out[7]).unwrap();
        assert_ne!(reply, p(1, 1));
        assert!(out[8].contains("occupied"));
        assert!(out[9].starts_with("ERROR"));
        assert!(out[10].contains("renju"));
        assert!(out[11].contains("caro"));
        assert!(out[12].contains("no stone on 6,6"));
        assert!(out[13].contains("given twice"));
        assert!(out[14].contains("off the board"));
        assert!(out[15].starts_with("ERROR in BOARD"));
        assert_eq!(out[16], "ERROR DONE without BOARD");
        assert_eq!(errors, 15);
        assert!(parse_point(&out[17]).is_ok(), "{out:?}");
    }

    #[test]
    fn board_then_done_plays_the_win() {
        // Own stones 3..6 on row 5 of 15x15: the five is at 2,5 or 7,5.
        let out = session(
            &[
                "START 15", "BOARD", "3,5,1", "4,5,1", "5,5,1", "6,5,1", "3,6,2", "4,6,2", "5,6,2",
                "6,6,2", "DONE",
            ],
            quick(),
        );
        assert_eq!(out[0], "OK");
        assert!(out[1] == "2,5" || out[1] == "7,5", "{out:?}");
    }

    #[test]
    fn random_and_greedy_players_play_legal_moves() {
        for player in [Player::Random(7), Player::Greedy(7)] {
            let options = Options {
                player,
                ..Options::default()
            };
            let mut out = Vec::new();
            let mut brain = Brain::new(&mut out, options);
            brain.handle("START 5").unwrap();
            brain.handle("BEGIN").unwrap();
            // The opponent takes the first empty cell each time; the brain must never repeat one.
            let mut seen = Vec::new();
            for _ in 0..12 {
                let text = String::from_utf8(brain.out.clone()).unwrap();
                let last = parse_point(text.lines().last().unwrap()).unwrap();
                assert!(!seen.contains(&last), "{player:?} replayed {last:?}");
                seen.push(last);
                let next = (0..25u8)
                    .map(|i| p(i % 5, i / 5))
                    .find(|q| !seen.contains(q))
                    .unwrap();
                seen.push(next);
                brain
                    .handle(&format!("TURN {},{}", next.x, next.y))
                    .unwrap();
            }
        }
    }
}
