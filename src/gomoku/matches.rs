//! `stonelab gomoku match`: a match between two Gomocup (pbrain) engines.
//!
//! Every game starts both engines afresh (`sh -c CMD`), sends `START`, the `INFO` keys
//! (timeout_turn, timeout_match: 0 or `--match-ms`, max_memory, rule, game_type) and plays. Each opening (a list of
//! stones, Black first) is played twice, the engines swapping colours; without `--openings` every
//! game starts from the empty board and the colours alternate. An engine sees the stones it has not
//! been told of as a `BOARD` block the first time it moves (or `BEGIN` on an empty board), then
//! `TURN x,y` with the opponent's last move.
//!
//! Adjudication: a move that completes a five (freestyle: five or more; standard: exactly five) wins;
//! an occupied, off-board or unreadable move, an `ERROR` or `UNKNOWN` answer, a dead engine, or no
//! answer within the move time plus a grace of max(1 s, the move time) loses; a full board is a draw.
//! An engine's first answer of a game has 5 s more: the `INFO` keys are not answered, so an
//! engine works through them (Rapfi sizes its hash table to `max_memory`) on the first move's clock.
//! With `--match-ms M` each engine also has M ms for its whole game: `INFO time_left` (what it has
//! left) comes before every move request, the time from a request's last line to the answer is
//! charged to it, and an answer later than its time left plus a second loses on time.
//! The Elo difference (engine A's view) is `-400 log10(1/p - 1)` for the score fraction `p`, with a
//! 95% interval from the Wilson score interval of `p`.
//!
//! Each engine runs in a process group of its own; after `END` and a grace second the group is
//! killed, so a hung engine never outlives its game. `--threads N` is sent as `INFO thread_num N`
//! to both engines (equal threads). With `--record FILE` every finished game is kept in a JSON
//! Lines file (line 1 a header `{"record":"stonelab gomoku match","version":1,...}` naming the
//! match's arguments, then one line per game, as in the JSON `games`), rewritten atomically after
//! each game; a run given an existing FILE checks its header against the arguments, plays only the
//! game numbers not recorded yet and reports all of them.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use stonelab_gomoku::engine::Position;
use stonelab_gomoku::{Color, Point, Rule, MAX_SIZE, MIN_SIZE};

use super::RuleArg;
use crate::arena::{
    progress_bar, write_atomically, Elo, EngineProcess, Numbered, ReadError, Record,
};
use crate::common::{print_json, Format};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Command line of engine A (run by `sh -c`; `{game}` in it becomes the game number, e.g. for a
    /// seed)
    #[arg(long)]
    pub a: String,
    /// Command line of engine B
    #[arg(long)]
    pub b: String,
    /// Games to play (each opening twice, colours swapped)
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Board size (5..20)
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Winning rule
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    pub rule: RuleArg,
    /// Milliseconds per move, sent as INFO timeout_turn
    #[arg(long = "turn-ms", default_value_t = 1000, value_name = "T",
          value_parser = crate::common::parse_ms)]
    pub turn_ms: u64,
    /// Milliseconds for each engine's whole game (a match clock, as Gomocup's), sent as INFO
    /// timeout_match, with INFO time_left before every move; an engine whose clock runs out (past
    /// a grace of a second) loses on time. 0: no match clock (sent as timeout_match 0). Swap2's
    /// opening answers are not charged
    #[arg(long = "match-ms", default_value_t = 0, value_name = "M",
          value_parser = crate::common::parse_ms)]
    pub match_ms: u64,
    /// Openings, one per line: stones as `x,y` (0-based from the top left) or `h8` (column letter,
    /// row number from 1 at the bottom), Black first, alternating; `#` starts a comment
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Bytes of memory each engine may use, sent as INFO max_memory (0: no limit)
    #[arg(long = "max-memory", default_value_t = 350 << 20)]
    pub max_memory: u64,
    /// Games played at once
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Search threads of each engine, sent to both as INFO thread_num (1..=256)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// JSON Lines file recording the match, to resume it: a header with the match's arguments,
    /// then one line per finished game (as in the JSON `games`), rewritten atomically
    /// (FILE.tmp, then a rename) after every game. If FILE exists, its header must match these
    /// arguments; only the games it lacks are played, and all are reported
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// How each game's opening is made: `none` (the openings file's stones, or an empty board) or
    /// `swap2` (Gomocup's swap2, spoken through SWAP2BOARD: the first player, A in odd games,
    /// places three stones, or takes them from --openings; the second answers SWAP to take Black,
    /// a move as White, or two more stones, after which the first answers SWAP or a move as White)
    #[arg(long = "opening-rule", value_enum, default_value_t = OpeningRule::None)]
    pub opening_rule: OpeningRule,
    /// Folder to write every game played to as Piskvork `.psq` (`game-0001.psq`, ...; made if
    /// missing)
    #[arg(long = "psq-dir", value_name = "DIR")]
    pub psq_dir: Option<PathBuf>,
    /// Folder to write every game played to as SGF (`game-0001.sgf`, FF[4] GM[4] with SZ and RU)
    #[arg(long = "sgf-dir", value_name = "DIR")]
    pub sgf_dir: Option<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// How the opening of each game is made.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningRule {
    /// The openings file's stones (or an empty board); colours alternate by game
    #[default]
    None,
    /// Gomocup's swap2, through SWAP2BOARD
    Swap2,
}

/// Which engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Side {
    A,
    B,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum End {
    Five,
    BoardFull,
    /// Renju: Black played a forbidden point (double-three, double-four, overline) and loses.
    Forbidden,
    IllegalMove,
    Timeout,
    EngineError,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Game {
    number: u32,
    opening: usize,
    /// The engine that played Black (first).
    black: Side,
    /// The winner, or None for a draw.
    winner: Option<Side>,
    end: End,
    /// Every stone in order, the opening's included: `[x, y]`.
    moves: Vec<[u8; 2]>,
    /// Stones of the opening at the start of `moves`.
    opening_stones: usize,
    note: Option<String>,
    /// Milliseconds each move after the opening took (records from before this field have none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    ms: Vec<u64>,
    /// Under `--opening-rule swap2`: who placed which stones and who swapped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    swap2: Option<String>,
}

#[derive(Debug, Serialize)]
struct Summary {
    a: String,
    b: String,
    size: usize,
    rule: &'static str,
    turn_ms: u64,
    threads: u32,
    games: Vec<Game>,
    /// Engine A's wins, draws and losses.
    wins: u32,
    draws: u32,
    losses: u32,
    /// A's wins and losses as Black.
    wins_as_black: u32,
    losses_as_black: u32,
    illegal_moves: u32,
    timeouts: u32,
    elo: Elo,
}

impl Numbered for Game {
    fn number(&self) -> u32 {
        self.number
    }
}

/// Line 1 of a `--record` file: the arguments that make a match.
#[derive(Serialize)]
struct Header<'a> {
    record: &'static str,
    version: u32,
    a: &'a str,
    b: &'a str,
    size: usize,
    rule: &'static str,
    turn_ms: u64,
    openings: Option<&'a str>,
    max_memory: u64,
    threads: u32,
    /// `swap2`; left out when the openings are played as given (so older records still match).
    #[serde(skip_serializing_if = "Option::is_none")]
    opening_rule: Option<&'static str>,
    /// `--match-ms`; left out without a match clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    match_ms: Option<u64>,
}

/// A pbrain engine in a child process of its own group.
struct Engine {
    process: EngineProcess,
    /// Whether the engine has been told of every stone so far.
    synced: bool,
    /// When the engine last answered a move request.
    answered: Option<Instant>,
    /// When the last request's final line was sent (its clock started).
    sent: Option<Instant>,
}

/// The pause between an engine's answer and its next move request. Brains that read their input
/// while they think (Rapfi) are still winding their search down for a moment after they print
/// a move, and drop a command that arrives then (its argument is then read as an unknown
/// command); GUIs and Piskvork never answer that fast. The engine's clock starts after it.
const SETTLE: Duration = Duration::from_millis(20);

/// The extra time an engine has for its first answer of a game. The `INFO` keys sent after `START`
/// have no answer, so the engine handles them on the first move's clock: Rapfi, told
/// `max_memory`, allocates and clears its hash table then, and its first move at 1 s took 1.0-1.5 s
/// (2 s, a loss on time, 6 times in 100 games on a loaded machine in session 61).
const SETUP_GRACE: Duration = Duration::from_secs(5);

/// What an engine answered to a move request.
enum Answer {
    Move(Point),
    Bad(End, String),
}

impl Engine {
    fn spawn(command: &str) -> anyhow::Result<Engine> {
        Ok(Engine {
            process: EngineProcess::spawn(command)?,
            synced: false,
            answered: None,
            sent: None,
        })
    }

    /// Sends one line, CR LF ended as Piskvork does; false if the engine is gone.
    fn send(&mut self, line: &str) -> bool {
        self.process.send(&format!("{line}\r")).is_ok()
    }

    /// The next line that is not MESSAGE or DEBUG, within `limit`. A `SUGGEST x,y` is accepted
    /// with `PLAY x,y` (the brain then answers the move; a bad suggestion is its to refuse).
    fn answer_line(&mut self, limit: Duration) -> Result<String, (End, String)> {
        let deadline = crate::common::deadline(limit);
        loop {
            match self.process.read_line(deadline) {
                Ok(line) => {
                    let line = line.trim().to_string();
                    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((&line, ""));
                    if word.eq_ignore_ascii_case("SUGGEST") {
                        if !self.send(&format!("PLAY {}", rest.trim())) {
                            return Err((End::EngineError, "the engine closed its input".into()));
                        }
                        continue;
                    }
                    if line.is_empty()
                        || ["MESSAGE", "DEBUG"]
                            .iter()
                            .any(|w| word.eq_ignore_ascii_case(w))
                    {
                        continue;
                    }
                    return Ok(line);
                }
                Err(ReadError::Timeout) => {
                    return Err((
                        End::Timeout,
                        format!("no answer in {} ms", limit.as_millis()),
                    ))
                }
                Err(ReadError::Closed) => {
                    return Err((End::EngineError, "the engine closed its output".into()))
                }
            }
        }
    }

    /// Sends a request and reads the move it answers.
    fn request(&mut self, lines: &[String], limit: Duration, size: usize) -> Answer {
        match self.ask_within(lines, limit) {
            Ok(line) => parse_answer(&line, size),
            Err((end, why)) => Answer::Bad(end, why),
        }
    }

    /// Sends `lines` (after the settling pause) and reads the answer line within `limit`.
    fn ask_within(&mut self, lines: &[String], limit: Duration) -> Result<String, (End, String)> {
        let limit = match self.answered {
            Some(t) => {
                std::thread::sleep(SETTLE.saturating_sub(t.elapsed()));
                limit
            }
            None => limit + SETUP_GRACE,
        };
        for l in lines {
            if !self.send(l) {
                return Err((End::EngineError, "the engine closed its input".into()));
            }
        }
        self.sent = Some(Instant::now());
        let line = self.answer_line(limit)?;
        self.answered = Some(Instant::now());
        Ok(line)
    }

    /// `END`, then a kill of the engine's process group if it has not left within a second.
    fn finish(self) {
        self.process.shutdown("END\r", Duration::from_secs(1));
    }
}

/// A move answer `x,y`, checked against the board size.
fn parse_answer(line: &str, size: usize) -> Answer {
    let upper = line.to_ascii_uppercase();
    if upper.starts_with("ERROR") || upper.starts_with("UNKNOWN") {
        return Answer::Bad(End::EngineError, format!("answered '{line}'"));
    }
    let parsed = line.split_once(',').and_then(|(x, y)| {
        Some((
            x.trim().parse::<usize>().ok()?,
            y.trim().parse::<usize>().ok()?,
        ))
    });
    match parsed {
        Some((x, y)) if x < size && y < size => Answer::Move(Point::new(x as u8, y as u8)),
        Some((x, y)) => Answer::Bad(End::IllegalMove, format!("{x},{y} is off the board")),
        None => Answer::Bad(End::IllegalMove, format!("unreadable move '{line}'")),
    }
}

/// Reads an openings file; an opening that already holds a five under `rule` is refused.
pub(crate) fn read_openings(
    path: &str,
    size: usize,
    rule: Rule,
) -> anyhow::Result<Vec<Vec<Point>>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read openings '{path}'"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut stones: Vec<Point> = Vec::new();
        for token in line.split([' ', '\t', ';']).filter(|t| !t.is_empty()) {
            let p = parse_stone(token, size)
                .with_context(|| format!("{path}:{}: bad stone '{token}'", i + 1))?;
            if stones.contains(&p) {
                bail!("{path}:{}: stone '{token}' given twice", i + 1);
            }
            stones.push(p);
        }
        if stones.len() >= size * size {
            bail!("{path}:{}: the opening fills the board", i + 1);
        }
        let mut grid = stonelab_gomoku::Grid::new(size)?;
        let mut colour = Color::Black;
        for &p in &stones {
            grid.set(p, Some(colour));
            colour = !colour;
        }
        let referee = stonelab_gomoku::search::referee::Referee::new(&grid, rule);
        if let Some(c) = Color::ALL.into_iter().find(|&c| referee.has_five(c)) {
            bail!(
                "{path}:{}: the opening already holds a five of {} (the game would be over)",
                i + 1,
                c.name()
            );
        }
        out.push(stones);
    }
    if out.is_empty() {
        bail!("{path}: no opening in the file");
    }
    Ok(out)
}

/// `x,y` (0-based, top left) or `h8` (column letter, row from 1 at the bottom).
fn parse_stone(token: &str, size: usize) -> anyhow::Result<Point> {
    let (x, y) = if let Some((x, y)) = token.split_once(',') {
        (x.trim().parse::<usize>()?, y.trim().parse::<usize>()?)
    } else {
        let mut chars = token.chars();
        let letter = chars.next().context("empty stone")?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            bail!("expected a column letter");
        }
        let row: usize = chars.as_str().parse()?;
        if row == 0 || row > size {
            bail!("row {row} is off the board");
        }
        ((letter as u8 - b'a') as usize, size - row)
    };
    if x >= size || y >= size {
        bail!("off the {size}x{size} board");
    }
    Ok(Point::new(x as u8, y as u8))
}

struct Setup<'a> {
    args: &'a Args,
    rule: Rule,
    openings: Vec<Vec<Point>>,
}

fn play_game(setup: &Setup, number: u32) -> anyhow::Result<Game> {
    let args = setup.args;
    let index = (number as usize - 1) / 2 % setup.openings.len();
    let opening = &setup.openings[index];
    let black = if number % 2 == 1 { Side::A } else { Side::B };
    let command = |c: &str| c.replace("{game}", &number.to_string());
    let mut engines = [
        Engine::spawn(&command(&args.a))?,
        Engine::spawn(&command(&args.b))?,
    ];
    let mut game = Game {
        number,
        opening: index,
        black,
        winner: None,
        end: End::BoardFull,
        moves: opening.iter().map(|p| [p.x, p.y]).collect(),
        opening_stones: opening.len(),
        note: None,
        ms: Vec::new(),
        swap2: None,
    };
    // An engine that refuses START loses before the first move.
    let started = [Side::A, Side::B]
        .into_iter()
        .try_for_each(|side| start(&mut engines[side.slot()], setup, side));
    match started {
        Ok(()) if args.opening_rule == OpeningRule::Swap2 => {
            match swap2(&mut engines, setup, black, opening) {
                Ok((stones, black, note)) => {
                    game.moves = stones.iter().map(|p| [p.x, p.y]).collect();
                    game.opening_stones = stones.len();
                    game.black = black;
                    game.swap2 = Some(note);
                    for e in &mut engines {
                        e.synced = false;
                    }
                    play_moves(&mut engines, setup, &stones, &mut game);
                }
                Err((side, end, why)) => {
                    game.winner = Some(side.other());
                    game.end = end;
                    game.note = Some(format!("engine {side:?}: swap2: {why}"));
                }
            }
        }
        Ok(()) => play_moves(&mut engines, setup, opening, &mut game),
        Err((side, why)) => {
            game.winner = Some(side.other());
            game.end = End::EngineError;
            game.note = Some(why);
        }
    }
    for e in engines {
        e.finish();
    }
    Ok(game)
}

/// The grace past an engine's match clock before it loses on time, in milliseconds.
const MATCH_GRACE_MS: u64 = 1000;

/// The time an engine has for one answer: the turn, plus the turn again (at least a second) of
/// grace.
fn answer_limit(turn_ms: u64) -> Duration {
    Duration::from_millis(turn_ms.saturating_add(turn_ms.max(1000)))
}

/// What swap2 made: the stones (Black first, alternating), who is Black, and a note of the choices.
type Swap2Opening = (Vec<Point>, Side, String);

/// Gomocup's swap2 through `SWAP2BOARD`: `first` places three stones (unless `given` holds them),
/// the other answers `SWAP` (it takes Black), a move as White, or two more stones; after two more,
/// `first` answers `SWAP` (it takes Black) or a move as White. The stones placed (Black first,
/// alternating), who is Black, and a note of the choices; or the side that answered badly.
fn swap2(
    engines: &mut [Engine; 2],
    setup: &Setup,
    first: Side,
    given: &[Point],
) -> Result<Swap2Opening, (Side, End, String)> {
    let n = setup.args.size;
    let limit = answer_limit(setup.args.turn_ms);
    let second = first.other();
    // Asks `side` about `stones`: the stones of the colour it has by default (Black for the first
    // player) are its own (field 1).
    let mut ask = |side: Side, stones: &[Point], want: &[usize]| {
        let own_black = side == first;
        let mut lines = vec!["SWAP2BOARD".to_string()];
        for (i, p) in stones.iter().enumerate() {
            let black = i % 2 == 0;
            let field = if black == own_black { 1 } else { 2 };
            lines.push(format!("{},{},{field}", p.x, p.y));
        }
        lines.push("DONE".to_string());
        let line = engines[side.slot()]
            .ask_within(&lines, limit)
            .map_err(|(end, why)| (side, end, why))?;
        if line.eq_ignore_ascii_case("SWAP") && want.contains(&0) {
            return Ok(Vec::new());
        }
        let mut points = Vec::new();
        for token in line.split_whitespace() {
            match parse_answer(token, n) {
                Answer::Move(p) if !stones.contains(&p) && !points.contains(&p) => points.push(p),
                Answer::Move(p) => {
                    return Err((side, End::IllegalMove, format!("{},{} is taken", p.x, p.y)))
                }
                Answer::Bad(end, why) => return Err((side, end, why)),
            }
        }
        if !want.contains(&points.len()) {
            return Err((side, End::IllegalMove, format!("answered '{line}'")));
        }
        Ok(points)
    };
    let mut stones = given.to_vec();
    let mut note = Vec::new();
    // Who placed the last stones (blamed for a five among them).
    let mut placer = first;
    if stones.is_empty() {
        stones = ask(first, &stones, &[3])?;
        note.push(format!("{first:?} placed 3"));
    } else {
        note.push("3 from the openings".to_string());
    }
    let answer = ask(second, &stones, &[0, 1, 2])?;
    if !answer.is_empty() {
        placer = second;
    }
    let black = match answer.len() {
        0 => {
            note.push(format!("{second:?} took Black"));
            second
        }
        1 => {
            note.push(format!("{second:?} took White"));
            stones.extend(answer);
            first
        }
        _ => {
            note.push(format!("{second:?} placed 2"));
            stones.extend(answer);
            let answer = ask(first, &stones, &[0, 1])?;
            if answer.is_empty() {
                note.push(format!("{first:?} took Black"));
                first
            } else {
                note.push(format!("{first:?} took White"));
                stones.extend(answer);
                placer = first;
                second
            }
        }
    };
    let mut grid = stonelab_gomoku::Grid::new(n).expect("size checked");
    let mut colour = Color::Black;
    for &p in &stones {
        grid.set(p, Some(colour));
        colour = !colour;
    }
    let referee = stonelab_gomoku::search::referee::Referee::new(&grid, setup.rule);
    if let Some(c) = Color::ALL.into_iter().find(|&c| referee.has_five(c)) {
        return Err((
            placer,
            End::IllegalMove,
            format!("the opening stones hold a five of {}", c.name()),
        ));
    }
    Ok((stones, black, note.join("; ")))
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }

    /// The engine's index in the pair.
    fn slot(self) -> usize {
        match self {
            Side::A => 0,
            Side::B => 1,
        }
    }
}

/// `START` (answered `OK` within 30 s) and the match's `INFO` keys.
fn start(e: &mut Engine, setup: &Setup, side: Side) -> Result<(), (Side, String)> {
    let args = setup.args;
    if !e.send(&format!("START {}", args.size)) {
        return Err((
            side,
            format!("engine {side:?}: START: the engine closed its input"),
        ));
    }
    match e.answer_line(Duration::from_secs(30)) {
        Ok(l) if l.eq_ignore_ascii_case("OK") => {}
        Ok(l) => return Err((side, format!("engine {side:?} answered START with '{l}'"))),
        Err((_, why)) => return Err((side, format!("engine {side:?}: START: {why}"))),
    }
    let rule_bits = setup.rule.gomocup_bits();
    for info in [
        format!("INFO timeout_turn {}", args.turn_ms),
        format!("INFO timeout_match {}", args.match_ms),
        format!("INFO max_memory {}", args.max_memory),
        format!("INFO rule {rule_bits}"),
        format!("INFO thread_num {}", args.threads),
        "INFO game_type 1".to_string(),
    ] {
        e.send(&info);
    }
    Ok(())
}

/// What an engine is sent when it is to move: `TURN` with the last move if it has seen the rest,
/// else `BEGIN` on an empty board, else the whole position as a `BOARD` block.
fn move_request(e: &Engine, pos: &Position, me: Color) -> Vec<String> {
    if e.synced {
        let (p, _) = *pos.moves().last().expect("a synced engine has seen a move");
        vec![format!("TURN {},{}", p.x, p.y)]
    } else if pos.stone_count() == 0 {
        vec!["BEGIN".to_string()]
    } else {
        let mut lines = vec!["BOARD".to_string()];
        for &(p, c) in pos.moves() {
            lines.push(format!("{},{},{}", p.x, p.y, if c == me { 1 } else { 2 }));
        }
        lines.push("DONE".to_string());
        lines
    }
}

/// Plays from the opening until a five, a full board or a forfeit; fills in `game`.
fn play_moves(engines: &mut [Engine; 2], setup: &Setup, opening: &[Point], game: &mut Game) {
    let n = setup.args.size;
    let turn_ms = setup.args.turn_ms;
    let limit = answer_limit(turn_ms);
    let match_ms = setup.args.match_ms;
    // Each engine's match time used so far, by slot.
    let mut used = [0u64; 2];
    let mut pos = Position::new(n, setup.rule);
    let mut colour = Color::Black;
    for &p in opening {
        pos.make(p, colour);
        colour = !colour;
    }
    let colour_of = |side: Side| {
        if side == game.black {
            Color::Black
        } else {
            Color::White
        }
    };
    let mut to_move = if colour == Color::Black {
        game.black
    } else {
        game.black.other()
    };
    loop {
        if pos.stone_count() == n * n {
            game.end = End::BoardFull;
            return;
        }
        let me = colour_of(to_move);
        let e = &mut engines[to_move.slot()];
        let mut request = move_request(e, &pos, me);
        e.synced = true;
        let mut limit = limit;
        if match_ms > 0 {
            let used = used[to_move.slot()];
            request.insert(
                0,
                format!("INFO time_left {}", match_ms.saturating_sub(used)),
            );
            limit = limit.min(Duration::from_millis(
                (match_ms + MATCH_GRACE_MS).saturating_sub(used),
            ));
        }
        let asked = Instant::now();
        let answer = e.request(&request, limit, n);
        let spent = e.sent.unwrap_or(asked).elapsed().as_millis() as u64;
        used[to_move.slot()] += spent;
        game.ms.push(spent);
        let (end, note) = match answer {
            Answer::Move(p) if pos.stone(p).is_none() => {
                let five = pos.makes_five(p, me);
                let foul = if five || !pos.has_fouls(me) {
                    None
                } else {
                    stonelab_gomoku::renju::foul(pos.board(), p)
                };
                pos.make(p, me);
                if let Some(foul) = foul {
                    game.moves.push([p.x, p.y]);
                    (
                        End::Forbidden,
                        Some(format!(
                            "engine {to_move:?} (Black) played {}, forbidden ({})",
                            stonelab_gomoku::point_name(p, n),
                            foul.name().replace('_', " ")
                        )),
                    )
                } else {
                    game.moves.push([p.x, p.y]);
                    if !five {
                        to_move = to_move.other();
                        continue;
                    }
                    (End::Five, None)
                }
            }
            Answer::Move(p) => (
                End::IllegalMove,
                Some(format!(
                    "engine {to_move:?} played occupied {},{}",
                    p.x, p.y
                )),
            ),
            Answer::Bad(end, why) => (end, Some(format!("engine {to_move:?}: {why}"))),
        };
        game.end = end;
        game.note = note;
        game.winner = Some(if end == End::Five {
            to_move
        } else {
            to_move.other()
        });
        return;
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&args.size) {
        bail!(
            "unsupported size {}: boards from {MIN_SIZE} to {MAX_SIZE}",
            args.size
        );
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    crate::common::check_threads("--jobs", args.jobs)?;
    if let Some(path) = &args.record {
        crate::common::check_output_path(path, "--record")?;
    }
    let openings = match &args.openings {
        Some(path) => read_openings(path, args.size, args.rule.into())?,
        None => vec![Vec::new()],
    };
    if args.opening_rule == OpeningRule::Swap2 {
        if let Some(i) = openings.iter().position(|o| !o.is_empty() && o.len() != 3) {
            bail!(
                "--opening-rule swap2 needs openings of three stones; opening {} has {}",
                i + 1,
                openings[i].len()
            );
        }
    }
    let setup = Setup {
        args: &args,
        rule: args.rule.into(),
        openings,
    };
    let (record, recorded) = match &args.record {
        Some(path) => {
            let (record, games) = Record::open::<Game>(path, &header(&setup))?;
            if let Some(g) = games.iter().find(|g| g.number > args.games) {
                bail!(
                    "record file '{}' holds game {}, more than --games {}",
                    path.display(),
                    g.number,
                    args.games
                );
            }
            (Some(record), games)
        }
        None => (None, Vec::new()),
    };
    let todo: Vec<u32> = (1..=args.games)
        .filter(|&n| !record.as_ref().is_some_and(|r| r.has(n)))
        .collect();
    let record = Mutex::new(record);
    let games = play_games(&setup, &todo, &record)?;
    let mut all = recorded;
    all.extend(games);
    all.sort_by_key(|g| g.number);
    report(&setup, all)
}

/// The `--record` header of this match.
fn header<'a>(setup: &Setup<'a>) -> Header<'a> {
    let args = setup.args;
    Header {
        record: "stonelab gomoku match",
        version: 1,
        a: &args.a,
        b: &args.b,
        size: args.size,
        rule: setup.rule.name(),
        turn_ms: args.turn_ms,
        openings: args.openings.as_deref(),
        max_memory: args.max_memory,
        threads: args.threads,
        opening_rule: (args.opening_rule == OpeningRule::Swap2).then_some("swap2"),
        match_ms: (args.match_ms > 0).then_some(args.match_ms),
    }
}

/// Plays the games numbered `todo`, `--jobs` at a time, each recorded as it ends.
fn play_games(
    setup: &Setup,
    todo: &[u32],
    record: &Mutex<Option<Record>>,
) -> anyhow::Result<Vec<Game>> {
    let bar = progress_bar(todo.len() as u64);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Mutex<Vec<anyhow::Result<Game>>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..setup.args.jobs.clamp(1, todo.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&number) = todo.get(i) else { break };
                let game = play_game(setup, number).and_then(|game| {
                    if let Some(r) = record.lock().expect("no poisoned lock").as_mut() {
                        r.push(&game)?;
                    }
                    write_game_files(setup, &game)?;
                    Ok(game)
                });
                if let Some(b) = &bar {
                    b.inc(1);
                }
                results.lock().expect("no poisoned lock").push(game);
            });
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    results
        .into_inner()
        .expect("no poisoned lock")
        .into_iter()
        .collect()
}

/// Writes `game` to the `--psq-dir` and `--sgf-dir` folders (if given), each file atomically.
fn write_game_files(setup: &Setup, game: &Game) -> anyhow::Result<()> {
    let args = setup.args;
    let (black, white) = match game.black {
        Side::A => (&args.a, &args.b),
        Side::B => (&args.b, &args.a),
    };
    let moves: Vec<Point> = game.moves.iter().map(|m| Point::new(m[0], m[1])).collect();
    if let Some(dir) = &args.psq_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--psq-dir: cannot make '{}'", dir.display()))?;
        let opening = game.opening_stones;
        let timed: Vec<(Point, u64)> = moves
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let ms = i.checked_sub(opening).and_then(|k| game.ms.get(k));
                (p, ms.copied().unwrap_or(0))
            })
            .collect();
        let text = stonelab_gomoku::records::to_psq(args.size, &timed, black, white);
        let path = dir.join(format!("game-{:04}.psq", game.number));
        write_atomically(&path, text.as_bytes()).with_context(|| "--psq-dir")?;
    }
    if let Some(dir) = &args.sgf_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--sgf-dir: cannot make '{}'", dir.display()))?;
        let result = match game.winner {
            None => "0".to_string(),
            Some(w) => {
                let colour = if w == game.black { 'B' } else { 'W' };
                let how = match game.end {
                    End::Five => "",
                    End::Timeout => "T",
                    _ => "F",
                };
                format!("{colour}+{how}")
            }
        };
        let text = stonelab_gomoku::records::to_sgf(
            args.size,
            setup.rule,
            &moves,
            black,
            white,
            Some(&result),
        );
        let path = dir.join(format!("game-{:04}.sgf", game.number));
        write_atomically(&path, text.as_bytes()).with_context(|| "--sgf-dir")?;
    }
    Ok(())
}

/// The match's summary, as JSON or text.
fn report(setup: &Setup, games: Vec<Game>) -> anyhow::Result<()> {
    let args = setup.args;
    let count = |f: &dyn Fn(&Game) -> bool| games.iter().filter(|g| f(g)).count() as u32;
    let wins = count(&|g| g.winner == Some(Side::A));
    let losses = count(&|g| g.winner == Some(Side::B));
    let draws = count(&|g| g.winner.is_none());
    let summary = Summary {
        a: args.a.clone(),
        b: args.b.clone(),
        size: args.size,
        rule: setup.rule.name(),
        turn_ms: args.turn_ms,
        threads: args.threads,
        wins,
        draws,
        losses,
        wins_as_black: count(&|g| g.black == Side::A && g.winner == Some(Side::A)),
        losses_as_black: count(&|g| g.black == Side::A && g.winner == Some(Side::B)),
        illegal_moves: count(&|g| g.end == End::IllegalMove),
        timeouts: count(&|g| g.end == End::Timeout),
        elo: Elo::of(wins, draws, losses),
        games,
    };
    if args.format == Format::Json {
        return print_json(&summary);
    }
    for g in &summary.games {
        let winner = match g.winner {
            Some(Side::A) => "A wins",
            Some(Side::B) => "B wins",
            None => "draw",
        };
        let note = g
            .note
            .as_deref()
            .map_or(String::new(), |n| format!(" ({n})"));
        outln!(
            "game {:>3}: A plays {}, {winner} by {:?} after {} stones{note}",
            g.number,
            if g.black == Side::A { "black" } else { "white" },
            g.end,
            g.moves.len()
        )?;
    }
    outln!(
        "A: {}\nB: {}\n{}x{} {}, {} ms a move: A {} wins, {} draws, {} losses (score {:.3}); Elo A-B {} (95%)",
        summary.a,
        summary.b,
        summary.size,
        summary.size,
        summary.rule,
        summary.turn_ms,
        summary.wins,
        summary.draws,
        summary.losses,
        summary.elo.score,
        summary.elo.interval_text(),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stones_parse_in_both_notations() {
        assert_eq!(parse_stone("7,7", 15).unwrap(), Point::new(7, 7));
        assert_eq!(parse_stone("h8", 15).unwrap(), Point::new(7, 7));
        assert_eq!(parse_stone("a1", 15).unwrap(), Point::new(0, 14));
        assert!(parse_stone("p1", 15).is_err());
        assert!(parse_stone("15,0", 15).is_err());
        assert!(parse_stone("a0", 15).is_err());
        assert!(parse_stone("x", 15).is_err());
    }
}
