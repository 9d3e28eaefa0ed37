//! `stonelab go match`: a match between two GTP engines.
//!
//! The engine given by `--black` plays Black in odd-numbered games and White in even ones. Moves
//! are checked on our [`Board`] (area scoring, suicide illegal, simple ko): an illegal or
//! unreadable move, or a failed `genmove`, loses the game. So does leaving any command of the
//! game unanswered for `--timeout-ms` (each engine's output is read by a thread, and the runner
//! waits on a channel with a time limit): the engine is then killed, with its process group, and
//! started afresh for the next game. A scorer that times out on `final_score` is only left out.
//! A game ends after two passes in a row, a resignation, or the move cap (`4 * points + 64`,
//! passes included). A finished game is scored by area on our board; every engine that knows
//! `final_score` is asked too, and a score that differs from ours is reported as a disagreement. The referee, whose score decides the game, is
//! the first engine (`--black` command first) that offers `final_score` and is not stonelab
//! itself (an independent referee: stonelab's own `final_score` is a Monte-Carlo estimate of the
//! dead stones); without one, our count decides. The referee must count by area too: GNU Go
//! counts by Japanese rules (territory and prisoners) unless started with `--chinese-rules`, and
//! then scores a game that was played on inside one's own area differently from the rules the
//! game was played under; give it `gnugo --mode gtp --chinese-rules`.
//!
//! The Elo difference comes from the score fraction `p = (W + D/2) / N` of the `--black` engine,
//! `-400 log10(1/p - 1)`, with a 95% interval from the Wilson score interval of `p`.
//!
//! With `--record FILE` the match can be resumed after an interruption (like gogui-twogtp's
//! continuation of a match). FILE is JSON Lines: line 1 a header
//! `{"record":"stonelab go match","version":1,"black":..,"white":..,"size":..,"komi":..,"move_ms":..}`
//! naming the match's arguments, then one line per finished game, the object the `games` array of
//! `--format json` holds for it. After every game the whole file is written to `FILE.tmp`, synced
//! and renamed over FILE, so FILE is always complete; a new FILE gets its header before game 1.
//! When FILE exists, its header must match `--black`, `--white`, `--size`, `--komi` and
//! `--move-ms`, and every line must be a game, numbered in order (else the match does not start).
//! Its games count towards `--games`: the runner plays games `recorded + 1 ..= --games` (colours
//! alternate by game number as always), and the report (tallies, Elo, disagreements, `games`)
//! covers the recorded games and the new ones; `restarts` counts this run only. When no game is
//! left to play, no engine is started: the report then has empty engine names, and the referee
//! is the one the recorded games name.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use stonelab_go::score::format_score;
use stonelab_go::vertex::{format_move, parse_vertex};
use stonelab_go::{Board, Color, Geometry, Move, Rules};

use crate::arena::{Elo, EngineProcess, Numbered, ReadError, Record};
use crate::common::Format;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Command line of the first engine (Black in odd-numbered games), run by `sh -c`
    #[arg(long)]
    pub black: String,
    /// Command line of the second engine (White in odd-numbered games). Games are scored by area:
    /// run GNU Go as `gnugo --mode gtp --chinese-rules` so that its final_score counts by area too
    #[arg(long)]
    pub white: String,
    /// Board size (square, 2..19)
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi
    #[arg(long, default_value_t = 7.0, allow_negative_numbers = true,
          value_parser = crate::common::parse_komi)]
    pub komi: f64,
    /// Games to play (colours alternate)
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Milliseconds per move, sent to both engines as byo-yomi `time_settings 0 S 1` with S the
    /// whole seconds rounded up (GTP times are integers: for less, use the engines' own options)
    #[arg(long = "move-ms", value_name = "T", value_parser = crate::common::parse_ms)]
    pub move_ms: Option<u64>,
    /// Milliseconds an engine may take to answer any command; one that takes longer loses the
    /// game by timeout, is killed and is started afresh for the next game [default: 10 times
    /// --move-ms, at least 10000; 60000 without --move-ms]
    #[arg(long = "timeout-ms", value_name = "T", value_parser = crate::common::parse_ms)]
    pub timeout_ms: Option<u64>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// JSON Lines file recording the match, to resume it: a header with --black, --white,
    /// --size, --komi and --move-ms, then one line per finished game (as in the JSON `games`),
    /// rewritten atomically (FILE.tmp, then a rename) after every game. If FILE exists, its
    /// header must match these arguments; its games count towards --games and are reported with
    /// the new ones, and only the games left are played (no engine is started if none is left)
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Folder to write every game played to as SGF (`game-0001.sgf`: FF[4] GM[1] with SZ, KM,
    /// RU[Chinese], PB/PW (the engines' names and labels), RE and the moves; made if missing)
    #[arg(long = "sgf-dir", value_name = "DIR")]
    pub sgf_dir: Option<PathBuf>,
}

impl Args {
    /// The answer time limit in force (see `--timeout-ms`).
    fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.unwrap_or(match self.move_ms {
            Some(ms) => ms.saturating_mul(10).max(10_000),
            None => 60_000,
        }))
    }
}

/// A GTP engine in a child process (in a process group of its own, so that killing it takes any
/// process it started too).
struct Client {
    process: EngineProcess,
    /// How long an answer may take.
    timeout: Duration,
    name: String,
    final_score: bool,
}

/// Why a command got no GTP answer.
enum Failure {
    /// No answer within the time limit (the engine must be killed: it may answer late).
    Timeout(String),
    /// The engine closed its output or answered something that is not GTP.
    Broken(anyhow::Error),
}

impl Failure {
    fn into_error(self) -> anyhow::Error {
        match self {
            Failure::Timeout(why) => anyhow::anyhow!(why),
            Failure::Broken(e) => e,
        }
    }
}

impl Client {
    /// Starts an engine and asks its `name` and whether it knows `final_score`.
    fn spawn(command: &str, timeout: Duration) -> anyhow::Result<Client> {
        let mut client = Client {
            process: EngineProcess::spawn(command)?,
            timeout,
            name: String::new(),
            final_score: false,
        };
        client.name = match client.send("name").map_err(Failure::into_error)? {
            Ok(name) => name,
            Err(e) => bail!("engine '{command}': name failed: {e}"),
        };
        client.final_score = client
            .send("known_command final_score")
            .map_err(Failure::into_error)?
            .as_deref()
            == Ok("true");
        Ok(client)
    }

    fn command(&self) -> &str {
        self.process.command()
    }

    /// Sends one command and reads the answer within the time limit: `Ok(Ok(text))` for `=`,
    /// `Ok(Err(message))` for `?`.
    fn send(&mut self, line: &str) -> Result<Result<String, String>, Failure> {
        let what = format!("engine '{}' (command '{line}')", self.command());
        let what = || what.clone();
        self.process
            .send(line)
            .with_context(what)
            .map_err(Failure::Broken)?;
        let deadline = crate::common::deadline(self.timeout);
        let mut lines: Vec<String> = Vec::new();
        loop {
            let text = match self.process.read_line(deadline) {
                Ok(text) => text,
                Err(ReadError::Timeout) => {
                    return Err(Failure::Timeout(format!(
                        "{}: no answer in {} ms",
                        what(),
                        self.timeout.as_millis()
                    )))
                }
                Err(ReadError::Closed) => {
                    return Err(Failure::Broken(anyhow::anyhow!(
                        "{}: the engine closed its output",
                        what()
                    )))
                }
            };
            let text = text.trim_end_matches('\r');
            if text.trim().is_empty() {
                if lines.is_empty() {
                    continue;
                }
                break;
            }
            lines.push(text.to_string());
        }
        parse_answer(&lines).map_err(|why| Failure::Broken(anyhow::anyhow!("{}: {why}", what())))
    }

    /// `quit`, then a kill of the group if the engine has not left within a second.
    fn quit(self) {
        self.process.shutdown("quit", Duration::from_secs(1));
    }

    /// Kills the engine's whole process group (the `sh` and what it started).
    fn kill(&mut self) {
        self.process.kill();
    }
}

/// A GTP answer's lines (the blank line that ends it left out): `Ok(text)` for `=`, `Err(text)`
/// for `?`, with the id and the first space removed; an error for anything else.
fn parse_answer(lines: &[String]) -> Result<Result<String, String>, String> {
    let first = &lines[0];
    let ok = match first.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => return Err(format!("answer '{first}' is not GTP")),
    };
    let body = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
    let mut text = body.trim().to_string();
    for l in &lines[1..] {
        text.push('\n');
        text.push_str(l);
    }
    Ok(if ok { Ok(text) } else { Err(text) })
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum End {
    TwoPasses,
    MoveCap,
    Resignation,
    IllegalMove,
    GenmoveFailed,
    /// An engine did not answer a command in time (`--timeout-ms`).
    Timeout,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Game {
    number: u32,
    black: String,
    white: String,
    moves: u32,
    end: End,
    /// `B`, `W` or `draw`.
    winner: String,
    /// The result in GTP form (`B+3.5`, `W+Resign`, ...).
    result: String,
    /// Our area count (Black's view, komi subtracted), for games that were scored.
    area_score: Option<f64>,
    /// The scores the engines' `final_score` gave, by engine label.
    engine_scores: Vec<(String, String)>,
    referee: Option<String>,
    disagreement: bool,
    /// The illegal move, the failed genmove or the command left unanswered, with the engine.
    note: Option<String>,
    sequence: Vec<String>,
}

#[derive(Clone, Debug, Default, Serialize)]
struct Tally {
    engine: String,
    name: String,
    wins: u32,
    losses: u32,
    draws: u32,
    illegal_moves: u32,
    /// Games lost by not answering in time.
    timeouts: u32,
    /// Times the engine was killed and started afresh after a timeout.
    restarts: u32,
}

/// The two engines' labels, by engine index (0: the `--black` command).
const LABELS: [&str; 2] = ["black", "white"];

pub fn run(args: Args) -> anyhow::Result<()> {
    check_args(&args)?;
    let (mut record, mut games) = match &args.record {
        Some(path) => {
            let (record, games) = open_record(path, &args)?;
            (Some(record), games)
        }
        None => (None, Vec::new()),
    };
    // Games already recorded (at most the lines of a file, far below u32::MAX).
    let recorded = games.len() as u32;
    let mut engines = if recorded < args.games {
        Some(start_engines(&args)?)
    } else {
        None
    };
    let mut tallies: Vec<Tally> = (0..2)
        .map(|i| Tally {
            engine: LABELS[i].to_string(),
            name: engines
                .as_ref()
                .map_or(String::new(), |e| e[i].name.clone()),
            ..Tally::default()
        })
        .collect();
    let referee = match &engines {
        Some(e) => (0..2).find(|&i| e[i].final_score && e[i].name != "stonelab"),
        None => games
            .iter()
            .find_map(|g| g.referee.as_deref())
            .and_then(|r| LABELS.iter().position(|&l| l == r)),
    };
    if let Some(r) = record.as_ref().filter(|r| r.existed()) {
        if args.format == Format::Text {
            outln!("resuming {}: {recorded} games recorded", r.path().display())?;
        }
    }
    let names: [String; 2] = [tallies[0].name.clone(), tallies[1].name.clone()];
    for game in &games {
        count(&mut tallies, game);
        if args.format == Format::Text {
            print_game(game, &names)?;
        }
    }
    if let Some(engines) = engines.as_mut() {
        for number in recorded + 1..=args.games {
            let (game, hung) = play_game(engines, &args, number, referee)?;
            count(&mut tallies, &game);
            if args.format == Format::Text {
                print_game(&game, &names)?;
            }
            if let Some(record) = record.as_mut() {
                record.push(&game)?;
            }
            if let Some(dir) = &args.sgf_dir {
                write_sgf(dir, &args, &game, &names)?;
            }
            games.push(game);
            restart_hung(engines, hung, &args, number < args.games, &mut tallies)?;
        }
    }
    for e in engines.into_iter().flatten() {
        e.quit();
    }
    report(&args, &games, &tallies, referee)
}

/// Writes `game` as `DIR/game-NNNN.sgf` (atomically; the folder is made if missing).
fn write_sgf(
    dir: &std::path::Path,
    args: &Args,
    game: &Game,
    names: &[String; 2],
) -> anyhow::Result<()> {
    use std::fmt::Write as _;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("--sgf-dir: cannot make '{}'", dir.display()))?;
    let g = Geometry::new(args.size, args.size).expect("size checked");
    let label = |l: &str| {
        let i = LABELS.iter().position(|&x| x == l).unwrap_or(0);
        let name = if names[i].is_empty() { l } else { &names[i] };
        sgf_text(&format!("{name} ({l})"))
    };
    let mut out = format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[stonelab:{}]SZ[{}]KM[{}]RU[Chinese]PB[{}]PW[{}]RE[{}]",
        env!("CARGO_PKG_VERSION"),
        args.size,
        args.komi,
        label(&game.black),
        label(&game.white),
        sgf_text(&game.result)
    );
    for entry in &game.sequence {
        // "B D4", "W pass": the colour's letter and the vertex.
        let (color, v) = entry.split_once(' ').unwrap_or(("B", entry));
        let at = match stonelab_go::vertex::parse_vertex(v, &g) {
            Ok(stonelab_go::Move::Play(p)) => format!(
                "{}{}",
                (b'a' + p.col() as u8) as char,
                (b'a' + p.row() as u8) as char
            ),
            _ => String::new(),
        };
        let _ = write!(out, "\n;{color}[{at}]");
    }
    out.push_str(")\n");
    let path = dir.join(format!("game-{:04}.sgf", game.number));
    crate::arena::write_atomically(&path, out.as_bytes()).with_context(|| "--sgf-dir")
}

/// Text escaped for an SGF property value (`]` and `\\`).
fn sgf_text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

fn check_args(args: &Args) -> anyhow::Result<()> {
    if !(2..=stonelab_go::MAX_SIZE).contains(&args.size) {
        bail!("--size must be 2..19 (GTP boards are square)");
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.timeout_ms == Some(0) {
        bail!("--timeout-ms must be positive");
    }
    if let Some(path) = &args.record {
        crate::common::check_output_path(path, "--record")?;
    }
    Ok(())
}

/// Starts the `--black` and the `--white` engine (the first is stopped if the second fails).
fn start_engines(args: &Args) -> anyhow::Result<[Client; 2]> {
    let timeout = args.timeout();
    let black = Client::spawn(&args.black, timeout)?;
    let white = match Client::spawn(&args.white, timeout) {
        Ok(w) => w,
        Err(e) => {
            black.quit();
            return Err(e);
        }
    };
    Ok([black, white])
}

/// An engine that did not answer in time may answer late, or never: it is killed, and a fresh
/// one plays on if `more` games are left.
fn restart_hung(
    engines: &mut [Client; 2],
    hung: [bool; 2],
    args: &Args,
    more: bool,
    tallies: &mut [Tally],
) -> anyhow::Result<()> {
    for i in (0..2).filter(|&i| hung[i]) {
        engines[i].kill();
        if more {
            let command = if i == 0 { &args.black } else { &args.white };
            engines[i] = Client::spawn(command, args.timeout())
                .with_context(|| format!("cannot restart the {} engine", LABELS[i]))?;
            tallies[i].restarts += 1;
        }
    }
    Ok(())
}

/// The match's summary: JSON, or the tallies, the referee and the Elo difference as text.
fn report(
    args: &Args,
    games: &[Game],
    tallies: &[Tally],
    referee: Option<usize>,
) -> anyhow::Result<()> {
    let elo = Elo::of(tallies[0].wins, tallies[0].draws, tallies[0].losses);
    let disagreements = games.iter().filter(|g| g.disagreement).count();
    match args.format {
        Format::Json => crate::common::print_json(&serde_json::json!({
            "size": args.size,
            "komi": args.komi,
            "move_ms": args.move_ms,
            "timeout_ms": args.timeout().as_millis() as u64,
            "games": games,
            "engines": tallies,
            "referee": referee.map(|i| LABELS[i]),
            "disagreements": disagreements,
            "elo": elo,
        }))?,
        Format::Text => {
            for t in tallies {
                // No name when no engine was started (every game was recorded).
                let name = if t.name.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", t.name)
                };
                outln!(
                    "{}{name}: {} wins, {} losses, {} draws, {} illegal moves, {} timeouts",
                    t.engine,
                    t.wins,
                    t.losses,
                    t.draws,
                    t.illegal_moves,
                    t.timeouts
                )?;
            }
            outln!(
                "referee {}, disagreements with the area count {disagreements}",
                referee.map_or("none (area count)", |i| LABELS[i])
            )?;
            let shown = elo.interval_text().replacen(" [", " [95%: ", 1);
            outln!("elo (black engine minus white engine) {shown}")?;
        }
    }
    Ok(())
}

/// Adds a finished game to the tallies (by engine index: 0 the `--black` engine).
fn count(tallies: &mut [Tally], game: &Game) {
    // Engine index playing Black.
    let first = usize::from(game.black != "black");
    let black_won = match game.winner.as_str() {
        "B" => Some(true),
        "W" => Some(false),
        _ => None,
    };
    for (i, tally) in tallies.iter_mut().enumerate() {
        let plays_black = i == first;
        match black_won {
            None => tally.draws += 1,
            Some(b) if b == plays_black => tally.wins += 1,
            Some(_) => tally.losses += 1,
        }
    }
    if matches!(
        game.end,
        End::IllegalMove | End::GenmoveFailed | End::Timeout
    ) {
        let loser = if game.winner == "B" { 1 - first } else { first };
        tallies[loser].illegal_moves += u32::from(game.end == End::IllegalMove);
        tallies[loser].timeouts += u32::from(game.end == End::Timeout);
    }
}

/// Line 1 of a `--record` file: the arguments that make a match.
#[derive(Debug, Serialize)]
struct Header {
    record: &'static str,
    version: u32,
    black: String,
    white: String,
    size: usize,
    komi: f64,
    move_ms: Option<u64>,
}

impl Header {
    fn of(args: &Args) -> Header {
        Header {
            record: "stonelab go match",
            version: 1,
            black: args.black.clone(),
            white: args.white.clone(),
            size: args.size,
            komi: args.komi,
            move_ms: args.move_ms,
        }
    }
}

impl Numbered for Game {
    fn number(&self) -> u32 {
        self.number
    }
}

/// Opens (or creates) the `--record` file; its games must be numbered 1, 2, ... in order, with
/// the colours alternating as this runner plays them.
fn open_record(path: &std::path::Path, args: &Args) -> anyhow::Result<(Record, Vec<Game>)> {
    let (record, games) = Record::open::<Game>(path, &Header::of(args))?;
    let shown = path.display();
    for (i, game) in games.iter().enumerate() {
        let (at, number) = (i + 2, i as u32 + 1);
        if game.number != number {
            bail!(
                "record file '{shown}' line {at}: game number {}, expected {number}",
                game.number
            );
        }
        if !["B", "W", "draw"].contains(&game.winner.as_str()) {
            bail!(
                "record file '{shown}' line {at}: game {number} has winner '{}', expected B, W \
                 or draw",
                crate::common::clean(&game.winner, 20)
            );
        }
        let (black, white) = labels_of(number);
        if game.black != black || game.white != white {
            bail!(
                "record file '{shown}' line {at}: game {number} has black={} white={}, \
                 expected black={black} white={white}",
                game.black,
                game.white
            );
        }
    }
    Ok((record, games))
}

/// The labels of the engines playing Black and White in game `number`.
fn labels_of(number: u32) -> (&'static str, &'static str) {
    if number % 2 == 1 {
        ("black", "white")
    } else {
        ("white", "black")
    }
}

/// Why a game stopped before its end: an engine left a command unanswered in time (it loses),
/// or something no game can go on from.
enum Stop {
    Timeout { engine: usize, note: String },
    Fatal(anyhow::Error),
}

/// Sends `line` to engine `i`: a timeout stops the game, a broken engine stops the match.
fn ask(engines: &mut [Client; 2], i: usize, line: &str) -> Result<Result<String, String>, Stop> {
    engines[i].send(line).map_err(|f| match f {
        Failure::Timeout(note) => Stop::Timeout { engine: i, note },
        Failure::Broken(e) => Stop::Fatal(e),
    })
}

/// [`ask`], where a `?` answer stops the match too.
fn must(engines: &mut [Client; 2], i: usize, line: &str) -> Result<String, Stop> {
    ask(engines, i, line)?.map_err(|e| {
        Stop::Fatal(anyhow::anyhow!(
            "engine '{}': '{line}' failed: {e}",
            engines[i].command()
        ))
    })
}

/// Plays one game; also says which engines left a command unanswered (to be restarted).
fn play_game(
    engines: &mut [Client; 2],
    args: &Args,
    number: u32,
    referee: Option<usize>,
) -> anyhow::Result<(Game, [bool; 2])> {
    let labels = LABELS;
    // Engine index playing Black.
    let first = if number % 2 == 1 { 0 } else { 1 };
    let g = Geometry::new(args.size, args.size).expect("size checked");
    let mut board = Board::new(g, Rules::STANDARD);
    let mut sequence = Vec::new();
    let played =
        set_up(engines, args).and_then(|()| moves(engines, first, &mut board, &mut sequence));
    let mut hung = [false; 2];
    let (end, forfeit, note) = match played {
        Ok(ended) => ended,
        Err(Stop::Fatal(e)) => return Err(e),
        Err(Stop::Timeout { engine, note }) => {
            hung[engine] = true;
            let color = if engine == first {
                Color::Black
            } else {
                Color::White
            };
            let note = format!("{} {note}", labels[engine]);
            (End::Timeout, Some(color), Some(note))
        }
    };
    let mut game = Game {
        number,
        black: labels[first].to_string(),
        white: labels[1 - first].to_string(),
        moves: sequence.len() as u32,
        end,
        winner: String::new(),
        result: String::new(),
        area_score: None,
        engine_scores: Vec::new(),
        referee: None,
        disagreement: false,
        note,
        sequence,
    };
    if let Some(loser) = forfeit {
        let winner = loser.opponent().letter();
        game.winner = winner.to_string();
        game.result = match end {
            End::Resignation => format!("{winner}+Resign"),
            End::Timeout => format!("{winner}+Time"),
            _ => format!("{winner}+Forfeit"),
        };
        return Ok((game, hung));
    }
    let decided = score_game(engines, args, referee, &board, &mut game, &mut hung)?;
    game.winner = if decided > 0.0 {
        "B"
    } else if decided < 0.0 {
        "W"
    } else {
        "draw"
    }
    .to_string();
    game.result = format_score(decided);
    Ok((game, hung))
}

/// Scores a finished game: our area count, and every engine's `final_score` (a scorer that does
/// not answer in time is left out and marked hung); the referee's score, if it gave one, decides.
fn score_game(
    engines: &mut [Client; 2],
    args: &Args,
    referee: Option<usize>,
    board: &Board,
    game: &mut Game,
    hung: &mut [bool; 2],
) -> anyhow::Result<f64> {
    let area = board.area_score(args.komi);
    game.area_score = Some(area);
    let mut decided = area;
    for i in 0..2 {
        if !engines[i].final_score {
            continue;
        }
        // A scorer that does not answer in time is left out (and restarted); the game stands.
        let text = match ask(engines, i, "final_score") {
            Ok(Ok(text)) => text,
            Ok(Err(_)) => continue,
            Err(Stop::Timeout { .. }) => {
                hung[i] = true;
                continue;
            }
            Err(Stop::Fatal(e)) => return Err(e),
        };
        let score = parse_score(&text);
        if score != Some(area) {
            game.disagreement = true;
        }
        if Some(i) == referee {
            if let Some(s) = score {
                decided = s;
                game.referee = Some(LABELS[i].to_string());
            }
        }
        game.engine_scores.push((LABELS[i].to_string(), text));
    }
    Ok(decided)
}

/// Sets both engines up for a new game: board size, an empty board, komi and the clock.
fn set_up(engines: &mut [Client; 2], args: &Args) -> Result<(), Stop> {
    for i in 0..2 {
        ask(engines, i, &format!("boardsize {}", args.size))?.map_err(|m| {
            Stop::Fatal(anyhow::anyhow!(
                "engine '{}' refuses size {}: {m}",
                engines[i].command(),
                args.size
            ))
        })?;
        must(engines, i, "clear_board")?;
        must(engines, i, &format!("komi {}", args.komi))?;
        if let Some(ms) = args.move_ms {
            // GTP times are whole seconds; an engine that refuses clocks plays on without.
            let _ = ask(
                engines,
                i,
                &format!("time_settings 0 {} 1", ms.div_ceil(1000)),
            )?;
        }
    }
    Ok(())
}

/// Plays the moves until the game ends: how, and who forfeits.
fn moves(
    engines: &mut [Client; 2],
    first: usize,
    board: &mut Board,
    sequence: &mut Vec<String>,
) -> Result<(End, Option<Color>, Option<String>), Stop> {
    let g = *board.geometry();
    let labels = LABELS;
    let cap = 4 * g.area() + 64;
    let mut passes = 0;
    loop {
        if passes >= 2 {
            return Ok((End::TwoPasses, None, None));
        }
        if sequence.len() >= cap {
            return Ok((End::MoveCap, None, None));
        }
        let color = board.to_move();
        let who = if color == Color::Black {
            first
        } else {
            1 - first
        };
        let letter = color.letter();
        let text = match ask(engines, who, &format!("genmove {letter}"))? {
            Ok(t) => t,
            Err(e) => {
                let note = format!("{} genmove failed: {e}", labels[who]);
                return Ok((End::GenmoveFailed, Some(color), Some(note)));
            }
        };
        if text.eq_ignore_ascii_case("resign") {
            return Ok((End::Resignation, Some(color), None));
        }
        let mv = match parse_vertex(&text, &g) {
            Ok(mv) => mv,
            Err(_) => {
                let note = format!("{} played '{text}', not a vertex of the board", labels[who]);
                return Ok((End::IllegalMove, Some(color), Some(note)));
            }
        };
        if let Err(e) = board.try_play(mv) {
            let note = format!("{} played illegal {letter} {text} ({e})", labels[who]);
            return Ok((End::IllegalMove, Some(color), Some(note)));
        }
        let shown = format_move(mv, &g);
        sequence.push(format!("{letter} {shown}"));
        must(engines, 1 - who, &format!("play {letter} {shown}"))?;
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
    }
}

/// `B+3.5` → 3.5, `W+2` → -2, `0` → 0.
fn parse_score(text: &str) -> Option<f64> {
    let t = text.trim();
    if t == "0" {
        return Some(0.0);
    }
    let (side, rest) = t.split_once('+')?;
    let v: f64 = rest.parse().ok()?;
    match side {
        "B" | "b" => Some(v),
        "W" | "w" => Some(-v),
        _ => None,
    }
}

/// One game's line; `names` are the engines' GTP names by engine index (empty when unknown),
/// shown after their labels.
fn print_game(game: &Game, names: &[String; 2]) -> Result<(), crate::common::OutputError> {
    let named = |label: &str| {
        let i = usize::from(label != LABELS[0]);
        if names[i].is_empty() {
            label.to_string()
        } else {
            format!("{label} ({})", crate::common::clean(&names[i], 60))
        }
    };
    let mut line = format!(
        "game {}: black={} white={} {} after {} moves ({:?})",
        game.number,
        named(&game.black),
        named(&game.white),
        game.result,
        game.moves,
        game.end
    );
    if let Some(a) = game.area_score {
        line.push_str(&format!(", area count {}", format_score(a)));
    }
    for (who, s) in &game.engine_scores {
        line.push_str(&format!(", {who} final_score {s}"));
    }
    if game.disagreement {
        line.push_str(", DISAGREEMENT");
    }
    if let Some(n) = &game.note {
        line.push_str(&format!(", {n}"));
    }
    outln!("{line}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_elo() {
        assert_eq!(parse_score("B+3.5"), Some(3.5));
        assert_eq!(parse_score("W+2"), Some(-2.0));
        assert_eq!(parse_score("0"), Some(0.0));
        assert_eq!(parse_score("?"), None);
        let t = Tally {
            wins: 5,
            losses: 5,
            ..Tally::default()
        };
        let e = Elo::of(t.wins, t.draws, t.losses);
        assert_eq!(e.difference, Some(0.0));
        assert!(e.low.unwrap() < -100.0 && e.high.unwrap() > 100.0);
        let t = Tally {
            wins: 4,
            ..Tally::default()
        };
        let e = Elo::of(t.wins, t.draws, t.losses);
        assert_eq!(e.difference, None);
        assert!(e.low.unwrap() > 0.0 && e.high.is_none());
    }
}
