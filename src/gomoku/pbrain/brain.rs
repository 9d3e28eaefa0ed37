//! The Gomocup brain: [`Brain`] owns one game (the engine, the manager's limits, an open `BOARD`
//! block, the baseline players' generator) and answers each manager line on any [`Write`]; it reads
//! from any [`BufRead`], so tests drive it in-process. Lines may end in CR LF or LF; every answer
//! is flushed.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use stonelab_gomoku::engine::players::{greedy_move, player_rng, random_move, Xorshift64Star};
use stonelab_gomoku::engine::time::Clock;
use stonelab_gomoku::engine::{Budget, Decision, Engine};
use stonelab_gomoku::search::referee::Referee;
use stonelab_gomoku::{Bitboard, Color, Grid, Point, Rule, MAX_SIZE, MIN_SIZE};

use super::command::{parse, Command, Info};

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
    /// Search threads until the manager sends `INFO thread_num`.
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            player: Player::Engine,
            nodes: None,
            table_bytes: 64 << 20,
            messages: true,
            threads: 1,
        }
    }
}

/// The protocol loop: one game's state and the answers.
pub struct Brain<W: Write> {
    out: W,
    options: Options,
    /// What the manager said about time and memory.
    clock: Clock,
    rule: Rule,
    engine: Option<Engine>,
    size: usize,
    /// Stones of an open `BOARD` block, and the first error in it.
    board_block: Option<BoardBlock>,
    /// The random and greedy players' generator.
    rng: Xorshift64Star,
}

/// The stone lines of an open `BOARD` block (point, field) and the first error in it.
type BoardBlock = (Vec<(Point, u8)>, Option<String>);

/// Longest answer line, in characters (an `ERROR` echoing a huge input line is cut).
const MAX_ANSWER: usize = 200;

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
            clock: Clock::default(),
            rule: Rule::Freestyle,
            engine: None,
            size: 0,
            board_block: None,
            rng: player_rng(seed),
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

    /// Writes one answer line. Parts of the manager's input echoed in it are escaped and cut
    /// short, so that an answer is always one line of sane length.
    fn say(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.out, "{}", crate::common::clean(line, MAX_ANSWER))?;
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
        let table = self.clock.table_bytes(self.options.table_bytes);
        let mut engine = Engine::new(self.size, self.rule, table);
        engine.set_threads(self.options.threads);
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
            Info::TimeoutTurn(t) => self.clock.timeout_turn = t,
            Info::TimeoutMatch(t) => self.clock.timeout_match = t,
            Info::TimeLeft(t) => self.clock.time_left = Some(t),
            Info::MaxMemory(m) => {
                self.clock.max_memory = m;
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
                if rule != self.rule {
                    self.rule = rule;
                    if self.engine.is_some() {
                        let stones = self.stones();
                        self.new_game(stones);
                    }
                }
            }
            Info::ThreadNum(n) => {
                let (threads, clamped) = thread_count(n);
                self.options.threads = threads;
                if let Some(engine) = self.engine.as_mut() {
                    engine.set_threads(threads);
                }
                if clamped {
                    return self.say(&format!(
                        "MESSAGE thread_num {n} clamped to {threads} (the machine's cores)"
                    ));
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

    /// The side with a five on the board under the game's rule, if any (the game is then over).
    fn five(&self) -> Option<Color> {
        let pos = self.engine.as_ref()?.position();
        let mut grid = Grid::new(pos.size()).ok()?;
        for &(p, c) in pos.moves() {
            grid.set(p, Some(c));
        }
        let referee = Referee::new(&grid, self.rule);
        Color::ALL.into_iter().find(|&c| referee.has_five(c))
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
        if let Some(c) = self.five() {
            let who = if c == OWN {
                "the brain"
            } else {
                "the opponent"
            };
            return self.say(&format!("ERROR the game is over: {who} has five in a row"));
        }
        let decision = match player {
            Player::Engine => {
                let budget = match self.options.nodes {
                    Some(nodes) => Budget::nodes(nodes),
                    None => Budget::time(Duration::from_millis(self.clock.move_ms(empties))),
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

/// The threads to search with for a requested `n`: at least 1, at most the machine's cores; and
/// whether `n` was changed.
#[must_use]
pub fn thread_count(n: u64) -> (usize, bool) {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let threads = usize::try_from(n).unwrap_or(usize::MAX).clamp(1, cores);
    (threads, threads as u64 != n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::pbrain::command::parse_point;

    fn p(x: u8, y: u8) -> Point {
        Point::new(x, y)
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
    fn echoed_input_is_escaped_and_cut() {
        let huge = format!("X\u{1b}[2J{}", "y".repeat(5_000_000));
        let out = session(&["START 15", &huge, &format!("TURN {huge}")], quick());
        assert_eq!(out.len(), 3, "one line per answer");
        assert!(
            out[1].starts_with("UNKNOWN command 'X\\u{1b}[2Jyyy"),
            "{}",
            &out[1][..40]
        );
        for line in &out[1..] {
            assert!(line.len() < 300, "{}", line.len());
            assert!(!line.contains('\u{1b}'));
        }
        assert!(out[2].starts_with("ERROR"));
    }

    #[test]
    fn thread_num_is_clamped_to_the_cores_with_a_message() {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let mut out = Vec::new();
        let mut brain = Brain::new(&mut out, quick());
        for line in [
            "START 15",
            "INFO thread_num 100000",
            "INFO thread_num 0",
            "INFO thread_num x",
        ] {
            brain.handle(line).unwrap();
        }
        let out: Vec<String> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(out[0], "OK");
        assert_eq!(
            out[1],
            format!("MESSAGE thread_num 100000 clamped to {cores} (the machine's cores)")
        );
        assert_eq!(
            out[2],
            "MESSAGE thread_num 0 clamped to 1 (the machine's cores)"
        );
        assert!(out[3].starts_with("ERROR"), "{out:?}");
        assert_eq!(thread_count(1), (1, false));
        // Two threads play the same forced win as one.
        let mut options = quick();
        options.threads = 2;
        let out = session(
            &[
                "START 15", "BOARD", "3,5,1", "4,5,1", "5,5,1", "6,5,1", "3,6,2", "4,6,2", "5,6,2",
                "6,6,2", "DONE",
            ],
            options,
        );
        assert!(out[1] == "2,5" || out[1] == "7,5", "{out:?}");
    }

    #[test]
    fn a_board_with_a_five_is_a_finished_game() {
        // The brain's own five on row 5 (3..7), and the opponent's.
        let own = [
            "START 15", "BOARD", "3,5,1", "4,5,1", "5,5,1", "6,5,1", "7,5,1", "3,6,2", "4,6,2",
            "5,6,2", "6,6,2", "DONE",
        ];
        let out = session(&own, quick());
        assert_eq!(
            out[1], "ERROR the game is over: the brain has five in a row",
            "{out:?}"
        );
        let theirs = [
            "START 15", "BOARD", "3,5,2", "4,5,2", "5,5,2", "6,5,2", "3,6,1", "4,6,1", "5,6,1",
            "6,6,1", "0,0,1", "DONE", "TURN 7,5",
        ];
        let out = session(&theirs, quick());
        assert!(parse_point(&out[1]).is_ok(), "{out:?}");
        assert_eq!(
            out[2], "ERROR the game is over: the opponent has five in a row",
            "{out:?}"
        );
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
            // (Until someone has five: the brain then says the game is over.)
            let mut seen = Vec::new();
            for _ in 0..12 {
                let text = String::from_utf8(brain.out.clone()).unwrap();
                let last = text.lines().last().unwrap();
                if last.starts_with("ERROR the game is over") {
                    break;
                }
                let last = parse_point(last).unwrap();
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
