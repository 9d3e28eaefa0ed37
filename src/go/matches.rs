//! `stonelab go match`: a match between two GTP engines.
//!
//! The engine given by `--black` plays Black in odd-numbered games and White in even ones. Moves
//! are checked on our [`Board`] (area scoring, suicide illegal, simple ko): an illegal or
//! unreadable move, or a failed `genmove`, loses the game. A game ends after two passes in a row,
//! a resignation, or the move cap (`4 * points + 64`, passes included). A finished game is scored
//! by area on our board; every engine that knows `final_score` is asked too, and a score that
//! differs from ours is reported as a disagreement. The referee, whose score decides the game, is
//! the first engine (`--black` command first) that offers `final_score` and is not stonelab
//! itself (an independent referee: stonelab's own `final_score` is a Monte-Carlo estimate of the
//! dead stones); without one, our count decides.
//!
//! The Elo difference comes from the score fraction `p = (W + D/2) / N` of the `--black` engine,
//! `-400 log10(1/p - 1)`, with a 95% interval from the Wilson score interval of `p`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command as Process, Stdio};

use anyhow::{bail, Context};
use serde::Serialize;
use stonelab_go::score::format_score;
use stonelab_go::vertex::{format_move, parse_vertex};
use stonelab_go::{Board, Color, Geometry, Move, Rules};

use crate::common::{fmt_elo, Elo, Format};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Command line of the first engine (Black in odd-numbered games), run by `sh -c`
    #[arg(long)]
    pub black: String,
    /// Command line of the second engine (White in odd-numbered games)
    #[arg(long)]
    pub white: String,
    /// Board size (square, 2..19)
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi
    #[arg(long, default_value_t = 7.0, allow_negative_numbers = true)]
    pub komi: f64,
    /// Games to play (colours alternate)
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Milliseconds per move, sent to both engines as byo-yomi `time_settings 0 S 1` with S the
    /// whole seconds rounded up (GTP times are integers: for less, use the engines' own options)
    #[arg(long = "move-ms", value_name = "T")]
    pub move_ms: Option<u64>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// A GTP engine in a child process.
struct Client {
    command: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    name: String,
    final_score: bool,
}

impl Client {
    fn spawn(command: &str) -> anyhow::Result<Client> {
        let mut child = Process::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start engine '{command}'"))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("engine stdout")?);
        let mut client = Client {
            command: command.to_string(),
            child,
            stdin,
            stdout,
            name: String::new(),
            final_score: false,
        };
        client.name = client
            .send("name")?
            .map_err(|e| anyhow::anyhow!("engine '{command}': name failed: {e}"))?;
        client.final_score = client.send("known_command final_score")?.as_deref() == Ok("true");
        Ok(client)
    }

    /// Sends one command; the outer error is a dead or garbled engine, the inner one a `?` answer.
    fn send(&mut self, line: &str) -> anyhow::Result<Result<String, String>> {
        let what = || format!("engine '{}' (command '{line}')", self.command);
        writeln!(self.stdin, "{line}").with_context(what)?;
        self.stdin.flush().with_context(what)?;
        let mut answer = String::new();
        let mut lines = Vec::new();
        loop {
            answer.clear();
            let n = self.stdout.read_line(&mut answer).with_context(what)?;
            if n == 0 {
                bail!("{}: the engine closed its output", what());
            }
            let text = answer.trim_end_matches(['\r', '\n']);
            if text.trim().is_empty() {
                if lines.is_empty() {
                    continue;
                }
                break;
            }
            lines.push(text.to_string());
        }
        let first = &lines[0];
        let ok = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => bail!("{}: answer '{first}' is not GTP", what()),
        };
        let body = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        let mut text = body.trim().to_string();
        for l in &lines[1..] {
            text.push('\n');
            text.push_str(l);
        }
        Ok(if ok { Ok(text) } else { Err(text) })
    }

    fn must(&mut self, line: &str) -> anyhow::Result<String> {
        self.send(line)?
            .map_err(|e| anyhow::anyhow!("engine '{}': '{line}' failed: {e}", self.command))
    }

    fn quit(mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum End {
    TwoPasses,
    MoveCap,
    Resignation,
    IllegalMove,
    GenmoveFailed,
}

#[derive(Clone, Debug, Serialize)]
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
    /// The illegal move, or the failed genmove, with the engine that made it.
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
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if !(2..=stonelab_go::MAX_SIZE).contains(&args.size) {
        bail!("--size must be 2..19 (GTP boards are square)");
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let g = Geometry::new(args.size, args.size).expect("size in range");
    let mut engines = [Client::spawn(&args.black)?, Client::spawn(&args.white)?];
    let labels = ["black", "white"];
    let mut tallies: Vec<Tally> = (0..2)
        .map(|i| Tally {
            engine: labels[i].to_string(),
            name: engines[i].name.clone(),
            ..Tally::default()
        })
        .collect();
    let referee = (0..2).find(|&i| engines[i].final_score && engines[i].name != "stonelab");
    let mut games = Vec::new();
    for number in 1..=args.games {
        // Engine index playing Black.
        let first = if number % 2 == 1 { 0 } else { 1 };
        let game = play_game(&mut engines, &args, g, number, first, referee, labels)?;
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
        if game.end == End::IllegalMove || game.end == End::GenmoveFailed {
            let loser = if game.winner == "B" { 1 - first } else { first };
            tallies[loser].illegal_moves += u32::from(game.end == End::IllegalMove);
        }
        if args.format == Format::Text {
            print_game(&game);
        }
        games.push(game);
    }
    for e in engines {
        e.quit();
    }
    let elo = Elo::of(tallies[0].wins, tallies[0].draws, tallies[0].losses);
    let disagreements = games.iter().filter(|g| g.disagreement).count();
    match args.format {
        Format::Json => crate::common::print_json(&serde_json::json!({
            "size": args.size,
            "komi": args.komi,
            "move_ms": args.move_ms,
            "games": games,
            "engines": tallies,
            "referee": referee.map(|i| labels[i]),
            "disagreements": disagreements,
            "elo": elo,
        }))?,
        Format::Text => {
            for t in &tallies {
                println!(
                    "{} ({}): {} wins, {} losses, {} draws, {} illegal moves",
                    t.engine, t.name, t.wins, t.losses, t.draws, t.illegal_moves
                );
            }
            println!(
                "referee {}, disagreements with the area count {disagreements}",
                referee.map_or("none (area count)", |i| labels[i])
            );
            println!(
                "elo (black engine minus white engine) {} [95%: {}, {}]",
                fmt_elo(
                    elo.difference,
                    if elo.score > 0.5 { "+inf" } else { "-inf" }
                ),
                fmt_elo(elo.low, "-inf"),
                fmt_elo(elo.high, "+inf")
            );
        }
    }
    Ok(())
}

fn play_game(
    engines: &mut [Client; 2],
    args: &Args,
    g: Geometry,
    number: u32,
    first: usize,
    referee: Option<usize>,
    labels: [&str; 2],
) -> anyhow::Result<Game> {
    for e in engines.iter_mut() {
        e.send(&format!("boardsize {}", args.size))?.map_err(|m| {
            anyhow::anyhow!("engine '{}' refuses size {}: {m}", e.command, args.size)
        })?;
        e.must("clear_board")?;
        e.must(&format!("komi {}", args.komi))?;
        if let Some(ms) = args.move_ms {
            // GTP times are whole seconds; an engine that refuses clocks plays on without.
            let _ = e.send(&format!("time_settings 0 {} 1", ms.div_ceil(1000)))?;
        }
    }
    let mut board = Board::new(g, Rules::STANDARD);
    let cap = 4 * g.area() as u32 + 64;
    let mut passes = 0;
    let mut sequence = Vec::new();
    let (end, forfeit, note) = loop {
        if passes >= 2 {
            break (End::TwoPasses, None, None);
        }
        if sequence.len() as u32 >= cap {
            break (End::MoveCap, None, None);
        }
        let color = board.to_move();
        let who = if color == Color::Black {
            first
        } else {
            1 - first
        };
        let letter = color.letter();
        let answer = engines[who].send(&format!("genmove {letter}"))?;
        let text = match answer {
            Ok(t) => t,
            Err(e) => {
                let note = format!("{} genmove failed: {e}", labels[who]);
                break (End::GenmoveFailed, Some(color), Some(note));
            }
        };
        if text.eq_ignore_ascii_case("resign") {
            break (End::Resignation, Some(color), None);
        }
        let mv = match parse_vertex(&text, &g) {
            Ok(mv) => mv,
            Err(_) => {
                let note = format!("{} played '{text}', not a vertex of the board", labels[who]);
                break (End::IllegalMove, Some(color), Some(note));
            }
        };
        if let Err(e) = board.try_play(mv) {
            let note = format!("{} played illegal {letter} {text} ({e})", labels[who]);
            break (End::IllegalMove, Some(color), Some(note));
        }
        let shown = format_move(mv, &g);
        sequence.push(format!("{letter} {shown}"));
        engines[1 - who].must(&format!("play {letter} {shown}"))?;
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
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
            _ => format!("{winner}+Forfeit"),
        };
        return Ok(game);
    }
    let area = board.area_score(args.komi);
    game.area_score = Some(area);
    let mut decided = area;
    for (i, e) in engines.iter_mut().enumerate() {
        if !e.final_score {
            continue;
        }
        let Ok(text) = e.send("final_score")? else {
            continue;
        };
        let score = parse_score(&text);
        if score != Some(area) {
            game.disagreement = true;
        }
        if Some(i) == referee {
            if let Some(s) = score {
                decided = s;
                game.referee = Some(labels[i].to_string());
            }
        }
        game.engine_scores.push((labels[i].to_string(), text));
    }
    game.winner = if decided > 0.0 {
        "B"
    } else if decided < 0.0 {
        "W"
    } else {
        "draw"
    }
    .to_string();
    game.result = format_score(decided);
    Ok(game)
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

fn print_game(game: &Game) {
    let mut line = format!(
        "game {}: black={} white={} {} after {} moves ({:?})",
        game.number, game.black, game.white, game.result, game.moves, game.end
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
    println!("{line}");
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
