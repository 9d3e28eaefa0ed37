//! The Gomocup brain: [`Brain`] owns one game (the engine, the manager's limits, an open `BOARD`
//! block, the baseline players' generator) and answers each manager line on any [`Write`]; it reads
//! from any [`BufRead`], so tests drive it in-process. Lines may end in CR LF or LF; every answer
//! is flushed.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use stonelab_gomoku::engine::players::{greedy_move, player_rng, random_move, Xorshift64Star};
use stonelab_gomoku::engine::time::Clock;
use stonelab_gomoku::engine::{Budget, Engine, Reason, MATE};
use stonelab_gomoku::search::referee::Referee;
use stonelab_gomoku::{point_name, Bitboard, Color, Grid, Point, Rule, MAX_SIZE, MIN_SIZE};

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub player: Player,
    /// A fixed node budget per move (deterministic; overrides the clock).
    pub nodes: Option<u64>,
    /// Transposition-table bytes when the manager sets no memory limit.
    pub table_bytes: usize,
    /// The most transposition-table bytes under a manager's memory limit (the table takes what
    /// the limit leaves, up to this).
    pub table_cap: usize,
    /// Print `MESSAGE` lines about each decision.
    pub messages: bool,
    /// Search threads until the manager sends `INFO thread_num`.
    pub threads: usize,
    /// Proved wins (`gomoku prove --db`): played whenever the position is in them.
    pub book: Option<std::sync::Arc<stonelab_gomoku::prove::db::Book>>,
    /// Answer move requests with `SUGGEST x,y` and play only what `PLAY x,y` then names.
    pub suggest: bool,
    /// The search switches (`stonelab_gomoku::engine::tree::switch`).
    pub switches: u32,
    /// The numeric search parameters (`stonelab_gomoku::engine::tree::knob`).
    pub knobs: stonelab_gomoku::engine::tree::knob::Knobs,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            player: Player::Engine,
            nodes: None,
            table_bytes: 64 << 20,
            table_cap: usize::MAX,
            messages: true,
            threads: 1,
            book: None,
            suggest: false,
            switches: stonelab_gomoku::engine::tree::SWITCHES,
            knobs: stonelab_gomoku::engine::tree::knob::Knobs::default(),
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
    /// An open `YXBLOCK` (true) or `YXBLOCKUNDO` (false) block: its points so far, its first error.
    block_block: Option<(bool, Vec<Point>, Option<String>)>,
    /// Points the brain may not choose (`YXBLOCK`).
    excluded: Bitboard,
    /// Set by the input reader on `YXSTOP`: the engine's search stops.
    abort: Arc<AtomicBool>,
    /// The random and greedy players' generator.
    rng: Xorshift64Star,
}

/// An open `BOARD`, `YXBOARD` or `SWAP2BOARD` block: its stone lines (point, field), the first error
/// in it, and what `DONE` does.
type BoardBlock = (Vec<(Point, u8)>, Option<String>, AtDone);

/// What `DONE` does after a position block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AtDone {
    /// `BOARD`: the brain moves.
    Move,
    /// `YXBOARD`: the position is only set.
    Nothing,
    /// `SWAP2BOARD`: the brain answers the swap2 opening's next step.
    Swap2,
}

/// Swap2: with 3 stones, a score (White to move) within this of even gets two more stones.
const SWAP2_EVEN: i32 = 60;

/// Balanced three-stone openings for swap2's first step (15x15, centred; shifted for other sizes):
/// the match openings judged by Rapfi (`docs/matches/openings-15-freestyle.txt`).
const OPENINGS: &str = include_str!("../../../docs/matches/openings-15-freestyle.txt");

/// Longest answer line, in characters (an `ERROR` echoing a huge input line is cut).
const MAX_ANSWER: usize = 200;

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
            block_block: None,
            excluded: Bitboard::EMPTY,
            abort: Arc::new(AtomicBool::new(false)),
            rng: player_rng(seed),
        }
    }

    /// Reads lines until `END` or the end of input, answering each. A reader thread takes the
    /// lines in, so that a `YXSTOP` stops a search in progress.
    pub fn run(&mut self, input: impl BufRead + Send + 'static) -> std::io::Result<()> {
        let (tx, rx) = std::sync::mpsc::channel();
        let abort = Arc::clone(&self.abort);
        std::thread::spawn(move || {
            for line in input.lines() {
                if matches!(&line, Ok(l) if l.trim().eq_ignore_ascii_case("YXSTOP")) {
                    abort.store(true, Ordering::Relaxed);
                }
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        for line in rx {
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
        if self.block_block.is_some() {
            self.block_line(line)?;
            return Ok(true);
        }
        let in_board = self.board_block.is_some();
        let command = match parse(line, in_board) {
            Ok(Some(c)) => c,
            Ok(None) => return Ok(true),
            Err(e) => {
                if let Some((_, error, _)) = &mut self.board_block {
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
                if let Err(why) = self.place(p) {
                    self.say(&format!("ERROR {why}"))?;
                } else {
                    self.answer()?;
                }
            }
            Command::Play(p) => {
                if let Err(why) = self.place(p) {
                    self.say(&format!("ERROR {why}"))?;
                } else {
                    self.say(&format!("{},{}", p.x, p.y))?;
                }
            }
            Command::Takeback(p) => self.takeback(p)?,
            Command::Board | Command::YxBoard | Command::Swap2Board => {
                if self.engine.is_none() {
                    self.say("ERROR no game: send START first")?;
                    // Swallow the block anyway so its lines do not read as commands.
                }
                let at_done = match command {
                    Command::Board => AtDone::Move,
                    Command::YxBoard => AtDone::Nothing,
                    _ => AtDone::Swap2,
                };
                self.board_block = Some((Vec::new(), None, at_done));
            }
            Command::Nbest(k) => self.nbest(k)?,
            // The reader set the abort flag when it read the line, so a search asked for before it
            // has stopped; the flag is cleared when the line's turn comes.
            Command::Stop => self.abort.store(false, Ordering::Relaxed),
            Command::Block => self.block_block = Some((true, Vec::new(), None)),
            Command::BlockUndo => self.block_block = Some((false, Vec::new(), None)),
            Command::BlockReset => {
                self.excluded = Bitboard::EMPTY;
                if let Some(e) = &mut self.engine {
                    e.set_excluded(Bitboard::EMPTY);
                }
            }
            Command::SearchDefend => self.search_defend()?,
            Command::BoardLine(p, field) => match &mut self.board_block {
                Some((lines, _, _)) => lines.push((p, field)),
                None => self.say("ERROR a stone line outside BOARD")?,
            },
            Command::Done => self.done()?,
            Command::ShowForbid => self.show_forbid()?,
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
        // Builds the tables now, not on the first move's clock: the current rule's by making
        // the game, and the other rules' too, since an `INFO rule` that changes the rule comes
        // just before the first move, whose clock the manager starts as soon as it has sent it.
        self.new_game(Vec::new());
        for rule in Rule::ALL {
            if rule != self.rule {
                let _ = Engine::new(self.size, rule, 1 << 20);
            }
        }
        self.say("OK")
    }

    /// The transposition-table bytes the current limits give.
    fn table_request(&self) -> usize {
        self.clock
            .table_bytes(self.options.table_bytes, self.options.table_cap)
    }

    /// A fresh engine for the current size and rule, with `stones` on the board.
    fn new_game(&mut self, stones: Vec<(Point, Color)>) {
        let table = self.table_request();
        let mut engine = Engine::new(self.size, self.rule, table);
        engine.set_threads(self.options.threads);
        engine.set_switches(self.options.switches);
        engine.set_knobs(self.options.knobs);
        engine.set_abort(Arc::clone(&self.abort));
        engine.set_excluded(self.excluded);
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
            Info::TimeoutTurn(t) => {
                // The table is sized by the turn as well (`Clock::table_bytes`).
                let before = self.table_request();
                self.clock.timeout_turn = t;
                if self.engine.is_some() && self.table_request() != before {
                    let stones = self.stones();
                    self.new_game(stones);
                }
            }
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
                if bits & 8 != 0 {
                    return self.say(
                        "ERROR caro is not supported (rule 0 freestyle, 1 exactly five, 4 renju)",
                    );
                }
                let rule = if bits & 4 != 0 {
                    Rule::Renju
                } else if bits & 1 != 0 {
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

    /// The colour to move: Black after an even number of stones.
    fn to_move(&self) -> Color {
        let stones = self
            .engine
            .as_ref()
            .map_or(0, |e| e.position().stone_count());
        if stones % 2 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// `YXSHOWFORBID`: `FORBID ` and every point forbidden to Black as `xxyy` (two digits each),
    /// then `.`; no points under freestyle and standard.
    fn show_forbid(&mut self) -> std::io::Result<()> {
        let Some(engine) = &self.engine else {
            return self.say("ERROR no game: send START first");
        };
        let mut line = String::from("FORBID ");
        if self.rule == Rule::Renju {
            for (p, _) in stonelab_gomoku::renju::fouls(engine.position().board()) {
                line.push_str(&format!("{:02}{:02}", p.x, p.y));
            }
        }
        line.push('.');
        self.say(&line)
    }

    /// Puts a stone of the colour to move on `p`, or says why not.
    fn place(&mut self, p: Point) -> Result<(), String> {
        let c = self.to_move();
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
        let Some((lines, error, at_done)) = self.board_block.take() else {
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
        let own_count = lines.iter().filter(|l| l.1 == 1).count();
        let their_count = lines.iter().filter(|l| l.1 == 2).count();
        // After BOARD the brain moves next: it is Black with as many stones as the opponent, White
        // with one fewer. After YXBOARD it may also have just moved (one stone more: Black).
        let diff = their_count as i64 - own_count as i64;
        let impossible = |brain: &str| {
            format!(
                "ERROR in BOARD: impossible position ({own_count} own stones, {their_count} \
                 opponent's): {brain}"
            )
        };
        let (own, theirs) = match diff {
            0 | -1 => (Color::Black, Color::White),
            1 => (Color::White, Color::Black),
            _ => return self.say(&impossible("the stone counts differ by more than one")),
        };
        let think = at_done == AtDone::Move;
        for (p, field) in lines {
            if usize::from(p.x) >= n || usize::from(p.y) >= n {
                return self.say(&format!("ERROR in BOARD: {},{} is off the board", p.x, p.y));
            }
            if seen.contains(p) {
                return self.say(&format!("ERROR in BOARD: {},{} given twice", p.x, p.y));
            }
            seen.insert(p);
            match field {
                // Swap2: the stones are the opening's, Black first, in the order given.
                1 | 2 if at_done == AtDone::Swap2 => {
                    let c = if stones.len() % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    stones.push((p, c));
                }
                1 => stones.push((p, own)),
                2 => stones.push((p, theirs)),
                _ => {} // a mark of continuous games, not a stone
            }
        }
        if let Some(c) = Self::finished(n, self.rule, &stones) {
            return self.say(&format!(
                "ERROR in BOARD: the game is over ({} has five in a row)",
                if c == own {
                    "the brain"
                } else {
                    "the opponent"
                }
            ));
        }
        if think && diff < 0 {
            return self.say(&impossible(
                "the brain to move has as many stones as the opponent or one fewer",
            ));
        }
        self.new_game(stones);
        match at_done {
            AtDone::Move => self.answer(),
            AtDone::Nothing => Ok(()),
            AtDone::Swap2 => self.swap2(),
        }
    }

    /// One line of an open `YXBLOCK` / `YXBLOCKUNDO` block: a point, or `DONE`.
    fn block_line(&mut self, line: &str) -> std::io::Result<()> {
        let line = line.trim();
        if line.is_empty() {
            return Ok(());
        }
        let Some((add, points, error)) = &mut self.block_block else {
            return Ok(());
        };
        if !line.eq_ignore_ascii_case("DONE") {
            match super::command::parse_point(line) {
                Ok(p) => points.push(p),
                Err(e) => {
                    error.get_or_insert(e.0);
                }
            }
            return Ok(());
        }
        let (add, points, error) = (*add, std::mem::take(points), error.take());
        self.block_block = None;
        if let Some(e) = error {
            return self.say(&format!("ERROR in YXBLOCK: {e}"));
        }
        for p in points {
            if usize::from(p.x) >= MAX_SIZE || usize::from(p.y) >= MAX_SIZE {
                return self.say(&format!(
                    "ERROR in YXBLOCK: {},{} is off the board",
                    p.x, p.y
                ));
            }
            if add {
                self.excluded.insert(p);
            } else {
                self.excluded.remove(p);
            }
        }
        if let Some(e) = &mut self.engine {
            e.set_excluded(self.excluded);
        }
        Ok(())
    }

    /// Why the brain cannot move now (no game, a full board, a five on it), or `None`.
    fn cannot_move(&self) -> Option<String> {
        let Some(engine) = &self.engine else {
            return Some("ERROR no game: send START first".into());
        };
        let pos = engine.position();
        if pos.stone_count() == pos.size() * pos.size() {
            return Some("ERROR the board is full".into());
        }
        let own = self.to_move();
        self.five().map(|c| {
            let who = if c == own {
                "the brain"
            } else {
                "the opponent"
            };
            format!("ERROR the game is over: {who} has five in a row")
        })
    }

    /// The empty cells of the board (1 before a game).
    fn empties(&self) -> usize {
        self.engine.as_ref().map_or(1, |e| {
            let pos = e.position();
            pos.size() * pos.size() - pos.stone_count()
        })
    }

    /// The time or node budget of the brain's next move.
    fn budget(&self) -> Budget {
        let empties = self.empties();
        match self.options.nodes {
            Some(nodes) => Budget::nodes(nodes),
            None => Budget::time(Duration::from_millis(self.clock.move_ms(empties))),
        }
    }

    /// The time the brain's next move aims at when the match clock binds (below the budget's
    /// hard limit), else `None`: the whole budget.
    fn soft_time(&self) -> Option<Duration> {
        if self.options.nodes.is_some() {
            return None;
        }
        let plan = self.clock.plan(self.empties());
        (plan.soft_ms < plan.hard_ms).then(|| Duration::from_millis(plan.soft_ms))
    }

    /// A line of moves in renju notation (`h8 i9 ...`).
    fn names(&self, line: &[Point]) -> String {
        line.iter()
            .map(|&p| point_name(p, self.size))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `YXNBEST k`: the `k` best moves by alpha-beta as `MESSAGE (i) score | depth | pv` lines, then
    /// the best is played.
    fn nbest(&mut self, k: usize) -> std::io::Result<()> {
        if let Some(why) = self.cannot_move() {
            return self.say(&why);
        }
        if k == 0 || self.options.player != Player::Engine {
            return self.answer();
        }
        let own = self.to_move();
        let budget = self.budget();
        let engine = self.engine.as_mut().expect("checked above");
        let lines = engine.think_lines(own, k, budget);
        let Some(first) = lines.first().map(|l| l.best) else {
            return self.answer();
        };
        for (i, l) in lines.iter().enumerate() {
            let text = format!(
                "MESSAGE ({}) {} | {} | {}",
                i + 1,
                l.score,
                l.depth,
                self.names(&l.pv)
            );
            self.say(&text)?;
        }
        if let Some(e) = self.engine.as_mut() {
            e.make(first, own);
        }
        self.say(&format!("{},{}", first.x, first.y))
    }

    /// `YXSEARCHDEFEND`: the moves after which the opponent has no threat sequence, as
    /// `MESSAGE defend h8 ...` (`MESSAGE defend: no threat` when it has none), then the brain's move.
    fn search_defend(&mut self) -> std::io::Result<()> {
        if let Some(why) = self.cannot_move() {
            return self.say(&why);
        }
        if self.options.player == Player::Engine {
            let own = self.to_move();
            let budget = self.budget();
            let engine = self.engine.as_mut().expect("checked above");
            let text = match engine.threat_defences(own, budget) {
                None => "MESSAGE defend: no threat".to_string(),
                Some(v) if v.is_empty() => "MESSAGE defend: none found".to_string(),
                Some(v) => format!("MESSAGE defend {}", self.names(&v)),
            };
            self.say(&text)?;
        }
        self.answer()
    }

    /// `SWAP2BOARD` ... `DONE`: on an empty board, three opening stones (`x,y x,y x,y`, Black,
    /// White, Black); with three stones (the brain is the second player), `SWAP` (it takes Black),
    /// a move as White, or two more stones when the position is near even; with five stones (the
    /// first player's choice), `SWAP` or a move as White.
    fn swap2(&mut self) -> std::io::Result<()> {
        let Some(engine) = self.engine.as_mut() else {
            return self.say("ERROR no game: send START first");
        };
        let n = self.size;
        let stones = engine.position().stone_count();
        match stones {
            0 => {
                let opening = swap2_opening(n, &mut self.rng);
                let mut c = Color::Black;
                for &p in &opening {
                    engine.make(p, c);
                    c = !c;
                }
                let text: Vec<String> =
                    opening.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
                self.say(&text.join(" "))
            }
            3 | 5 => {
                if let Some(why) = self.cannot_move() {
                    return self.say(&why);
                }
                let budget = self.budget();
                let half = Budget {
                    time: budget.time.map(|t| t / 2),
                    nodes: budget.nodes.map(|n| (n / 2).max(1)),
                };
                let engine = self.engine.as_mut().expect("checked above");
                // Swap2's choices take their whole budget (no aim left from an earlier move).
                engine.set_soft_time(None);
                let d = engine.think(Color::White, if stones == 3 { half } else { budget });
                let value = match d.reason {
                    Reason::Five | Reason::OpenFour | Reason::Vcf | Reason::Vct => MATE,
                    _ => d.score.unwrap_or(0),
                };
                if stones == 3 && value.abs() <= SWAP2_EVEN {
                    engine.make(d.best, Color::White);
                    let b = engine.think(Color::Black, half).best;
                    engine.make(b, Color::Black);
                    self.say(&format!("{},{} {},{}", d.best.x, d.best.y, b.x, b.y))
                } else if value < 0 {
                    self.say("SWAP")
                } else {
                    engine.make(d.best, Color::White);
                    self.say(&format!("{},{}", d.best.x, d.best.y))
                }
            }
            k => self.say(&format!("ERROR SWAP2BOARD needs 0, 3 or 5 stones, not {k}")),
        }
    }

    /// The colour with a five among `stones` under `rule`, if any.
    fn finished(n: usize, rule: Rule, stones: &[(Point, Color)]) -> Option<Color> {
        let mut grid = Grid::new(n).ok()?;
        for &(p, c) in stones {
            grid.set(p, Some(c));
        }
        let referee = Referee::new(&grid, rule);
        Color::ALL.into_iter().find(|&c| referee.has_five(c))
    }

    /// The side with a five on the board under the game's rule, if any (the game is then over).
    fn five(&self) -> Option<Color> {
        let pos = self.engine.as_ref()?.position();
        Self::finished(pos.size(), self.rule, pos.moves())
    }

    /// Chooses and prints the brain's move.
    fn answer(&mut self) -> std::io::Result<()> {
        let started = Instant::now();
        let player = self.options.player;
        let own = self.to_move();
        if let Some(why) = self.cannot_move() {
            return self.say(&why);
        }
        let budget = self.budget();
        let soft = self.soft_time();
        let engine = self.engine.as_mut().expect("checked above");
        engine.set_soft_time(soft);
        if let Some(m) = self
            .options
            .book
            .as_ref()
            .and_then(|b| b.proved_move(engine.position().board(), own))
        {
            if self.options.messages {
                self.say("MESSAGE proof: a proved win from the database")?;
            }
            return self.give_move(m, own);
        }
        let decision = match player {
            Player::Engine => Some(engine.think(own, budget)),
            Player::Random(_) | Player::Greedy(_) => None,
        };
        let best = match (&decision, player) {
            (Some(d), _) => d.best,
            (None, Player::Greedy(_)) => greedy_move(engine.position(), own, &mut self.rng),
            (None, _) => random_move(engine.position(), &mut self.rng),
        };
        if self.options.messages {
            if let Some(d) = decision {
                let score = d.score.map_or("-".to_string(), |s| s.to_string());
                let ms = started.elapsed().as_millis();
                let per_ms = u128::from(d.nodes) / ms.max(1);
                self.say(&format!(
                    "MESSAGE {} depth {} score {score} nodes {} ms {ms} n/ms {per_ms} pv {}",
                    d.reason.name(),
                    d.depth,
                    d.nodes,
                    self.names(&d.pv)
                ))?;
            }
            // The search's kept leaves (`--knobs leaf-sample=N`), for tuning: the stones, Black's
            // and White's alternating, two letters a stone (column and row from the top left, `a`
            // for 0); a position too long for one line is left out.
            let leaves = self.engine.as_mut().map(Engine::take_leaves);
            for leaf in leaves.unwrap_or_default() {
                let line: String = leaf
                    .iter()
                    .flat_map(|p| [p.x, p.y])
                    .map(|v| char::from(b'a' + v))
                    .collect();
                if line.len() + 13 <= MAX_ANSWER {
                    self.say(&format!("MESSAGE leaf {line}"))?;
                }
            }
        }
        self.give_move(best, own)
    }

    /// Plays `m` for `own` and answers it, or with `--suggest` only suggests it (`SUGGEST x,y`):
    /// the manager's `PLAY` then places the stone.
    fn give_move(&mut self, m: Point, own: Color) -> std::io::Result<()> {
        if self.options.suggest {
            return self.say(&format!("SUGGEST {},{}", m.x, m.y));
        }
        self.engine.as_mut().expect("a game is on").make(m, own);
        self.say(&format!("{},{}", m.x, m.y))
    }
}

/// Swap2's first step: a balanced three-stone opening (Black, White, Black) from [`OPENINGS`],
/// chosen at random, moved from the 15x15 centre to this board's.
fn swap2_opening(size: usize, rng: &mut Xorshift64Star) -> Vec<Point> {
    let openings: Vec<Vec<(i32, i32)>> = OPENINGS
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .filter_map(|t| {
                    let (x, y) = t.split_once(',')?;
                    Some((x.parse().ok()?, y.parse().ok()?))
                })
                .collect()
        })
        .filter(|o: &Vec<(i32, i32)>| o.len() == 3)
        .collect();
    let shift = size as i32 / 2 - 7;
    let inside = |&(x, y): &(i32, i32)| {
        (0..size as i32).contains(&(x + shift)) && (0..size as i32).contains(&(y + shift))
    };
    let fitting: Vec<&Vec<(i32, i32)>> = openings.iter().filter(|o| o.iter().all(inside)).collect();
    let c = (size / 2) as i32;
    let fallback = vec![(c, c), (c - 1, c - 1), (c + 1, c - 1)];
    let chosen = if fitting.is_empty() {
        &fallback
    } else {
        fitting[rng.below(fitting.len())]
    };
    chosen
        .iter()
        .map(|&(x, y)| {
            let (x, y) = if fitting.is_empty() {
                (x, y)
            } else {
                (x + shift, y + shift)
            };
            Point::new(x as u8, y as u8)
        })
        .collect()
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
        let mut out = session_with_messages(lines, options);
        out.retain(|l| !l.starts_with("MESSAGE"));
        out
    }

    /// Like `session`, MESSAGE lines kept.
    fn session_with_messages(lines: &[&str], options: Options) -> Vec<String> {
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
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn yxblock_keeps_the_brain_off_the_listed_points() {
        let out = session(
            &[
                "START 15",
                "YXBLOCK",
                "7,7",
                "8,8",
                "DONE",
                "BEGIN",
                "YXBLOCKUNDO",
                "7,7",
                "DONE",
                "RESTART",
                "BEGIN",
                "YXBLOCKRESET",
                "YXBLOCK",
                "x",
                "DONE",
            ],
            quick(),
        );
        assert_eq!(out[0], "OK");
        let first = parse_point(&out[1]).unwrap();
        assert!(first != p(7, 7) && first != p(8, 8), "{out:?}");
        assert_eq!(out[2], "OK");
        assert_eq!(out[3], "7,7", "unblocked again: {out:?}");
        assert!(out[4].starts_with("ERROR in YXBLOCK"), "{out:?}");
    }

    #[test]
    fn yxnbest_reports_distinct_lines_and_plays_the_first() {
        let out =
            session_with_messages(&["START 15", "TURN 7,7", "TURN 9,9", "YXNBEST 3"], quick());
        let lines: Vec<&String> = out.iter().filter(|l| l.starts_with("MESSAGE (")).collect();
        assert_eq!(lines.len(), 3, "{out:?}");
        let firsts: Vec<&str> = lines
            .iter()
            .map(|l| l.rsplit(" | ").next().unwrap().split(' ').next().unwrap())
            .collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        let played = parse_point(out.last().unwrap()).unwrap();
        assert_eq!(point_name(played, 15), firsts[0], "{out:?}");
    }

    #[test]
    fn yxsearchdefend_lists_the_defences_of_an_open_three() {
        // The opponent (White, to move after us... we are Black with 3 stones each) has an open
        // three on row 3: the defences include its ends.
        let out = session_with_messages(
            &[
                "START 15",
                "YXBOARD",
                "0,14,1",
                "5,3,2",
                "14,14,1",
                "6,3,2",
                "14,0,1",
                "7,3,2",
                "DONE",
                "YXSEARCHDEFEND",
            ],
            quick(),
        );
        let defend = out
            .iter()
            .find(|l| l.starts_with("MESSAGE defend"))
            .unwrap();
        assert!(defend.contains("e12") || defend.contains("i12"), "{out:?}");
        let reply = parse_point(out.last().unwrap()).unwrap();
        assert!(
            [p(3, 3), p(4, 3), p(8, 3), p(9, 3)].contains(&reply),
            "{out:?}"
        );
    }

    #[test]
    fn swap2_opening_steps() {
        let out = session(&["START 15", "SWAP2BOARD", "DONE"], quick());
        let stones: Vec<Point> = out[1].split(' ').map(|t| parse_point(t).unwrap()).collect();
        assert_eq!(stones.len(), 3, "{out:?}");
        assert!(stones[0] != stones[1] && stones[1] != stones[2] && stones[0] != stones[2]);
        // Three stones: SWAP, a move, or two moves, on empty points.
        let mut lines = vec!["START 15".to_string(), "SWAP2BOARD".to_string()];
        for (i, q) in stones.iter().enumerate() {
            lines.push(format!("{},{},{}", q.x, q.y, 1 + i % 2));
        }
        lines.push("DONE".into());
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let out = session(&refs, quick());
        let answer = &out[1];
        if answer != "SWAP" {
            for t in answer.split(' ') {
                assert!(!stones.contains(&parse_point(t).unwrap()), "{out:?}");
            }
        }
        let out = session(&["START 15", "SWAP2BOARD", "7,7,1", "DONE"], quick());
        assert!(out[1].starts_with("ERROR SWAP2BOARD"), "{out:?}");
    }

    /// Runs a brain with the default options on `input`: its output and how long it took.
    fn run_timed(input: &str) -> (String, Duration) {
        let mut out = Vec::new();
        let started = Instant::now();
        {
            let mut brain = Brain::new(&mut out, Options::default());
            brain
                .run(std::io::Cursor::new(input.as_bytes().to_vec()))
                .unwrap();
        }
        (String::from_utf8(out).unwrap(), started.elapsed())
    }

    #[test]
    fn yxstop_stops_a_long_search() {
        let (text, took) = run_timed(
            "START 15\nINFO timeout_turn 30000\nBOARD\n7,7,2\n8,8,1\n6,8,2\nDONE\nYXSTOP\nEND\n",
        );
        let mv = text
            .lines()
            .filter(|l| !l.starts_with("MESSAGE"))
            .nth(1)
            .unwrap();
        parse_point(mv).unwrap();
        assert!(
            took < Duration::from_secs(10),
            "YXSTOP did not stop the 30 s search: {took:?}"
        );
    }

    #[test]
    fn a_short_match_clock_bounds_the_move() {
        // 30 s a turn but 3 s left of the match: about 220 empty cells are 55 moves to come, so
        // the move aims at 54 ms and may take three times that (`Clock::plan`'s unit tests hold
        // the exact figures). Here only that the match clock binds: MESSAGE's `ms` far below the
        // 28 s the turn alone would give, with room for a loaded machine (the clock is read
        // between batches of nodes: 281 ms once under a CI run and two busy threads).
        let (text, took) = run_timed(
            "START 15\nINFO timeout_turn 30000\nINFO timeout_match 100000\n\
             INFO time_left 3000\nBOARD\n7,7,2\n8,8,1\n6,8,2\nDONE\nEND\n",
        );
        let message = text
            .lines()
            .find(|l| l.starts_with("MESSAGE search"))
            .unwrap_or_else(|| panic!("{text}"));
        let words: Vec<&str> = message.split_whitespace().collect();
        let at = words.iter().position(|&w| w == "ms").unwrap();
        let ms: u64 = words[at + 1].parse().unwrap();
        assert!(ms < 3000, "{message}");
        assert!(took < Duration::from_secs(10), "{text}");
    }

    #[test]
    fn the_table_is_sized_by_the_memory_limit_and_the_turn() {
        let table = |lines: &[&str]| {
            let mut out = Vec::new();
            let mut brain = Brain::new(&mut out, Options::default());
            for line in lines {
                brain.handle(line).unwrap();
            }
            brain.engine.as_ref().map(Engine::table_bytes)
        };
        // Gomocup's 350 MB at 1 s a turn: 32 MiB, in either order of the INFO lines.
        let one = ["INFO timeout_turn 1000", "INFO max_memory 367001600"];
        assert_eq!(table(&[&["START 15"][..], &one].concat()), Some(32 << 20));
        let other = [one[1], one[0]];
        assert_eq!(table(&[&["START 15"][..], &other].concat()), Some(32 << 20));
        // The same limit at 10 s: the memory's 256 MiB.
        let ten = [
            "START 15",
            "INFO max_memory 367001600",
            "INFO timeout_turn 10000",
        ];
        assert_eq!(table(&ten), Some(256 << 20));
        // A user's --tt-mib is kept whatever the turn.
        let mut out = Vec::new();
        let options = Options {
            table_bytes: 128 << 20,
            table_cap: 128 << 20,
            ..Options::default()
        };
        let mut brain = Brain::new(&mut out, options);
        for line in [
            "START 15",
            "INFO timeout_turn 1000",
            "INFO max_memory 367001600",
        ] {
            brain.handle(line).unwrap();
        }
        assert_eq!(
            brain.engine.as_ref().map(Engine::table_bytes),
            Some(128 << 20)
        );
    }

    fn quick() -> Options {
        Options {
            nodes: Some(2000),
            ..Options::default()
        }
    }

    #[test]
    fn plays_the_proved_move_of_a_proof_database() {
        use stonelab_gomoku::prove::db::{Book, Db};
        use stonelab_gomoku::prove::{Options as ProveOptions, Prover, Verdict};
        let suite = include_str!("../../../tests/data/gomoku/tss_suite.txt");
        let entry = stonelab_gomoku::search::suite::parse_suite(suite)
            .into_iter()
            .find(|e| e.win && e.to_move == Color::Black && e.rule == Rule::Freestyle)
            .expect("a freestyle win with Black to move");
        let mut prover = Prover::new(
            &entry.grid,
            Rule::Freestyle,
            Color::Black,
            Color::Black,
            ProveOptions::default(),
        );
        assert_eq!(prover.run(), Verdict::Win);
        let book = Book::new(Db {
            size: 15,
            rule: Rule::Freestyle,
            attacker: Color::Black,
            entries: prover.solved().collect(),
        });
        let board = stonelab_gomoku::Board::from_grid(&entry.grid, Rule::Freestyle);
        let proved = book
            .proved_move(&board, Color::Black)
            .expect("a proved move");
        let mut lines = vec!["START 15".to_string(), "BOARD".to_string()];
        for q in entry.grid.points() {
            match entry.grid.get(q) {
                Some(Color::Black) => lines.push(format!("{},{},1", q.x, q.y)),
                Some(Color::White) => lines.push(format!("{},{},2", q.x, q.y)),
                None => {}
            }
        }
        lines.push("DONE".into());
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let options = Options {
            book: Some(std::sync::Arc::new(book)),
            ..quick()
        };
        let out = session_with_messages(&lines, options);
        assert!(
            out.iter().any(|l| l.starts_with("MESSAGE proof")),
            "{out:?}"
        );
        assert_eq!(out.last().unwrap(), &format!("{},{}", proved.x, proved.y));
        // The book is not used for the other side.
        let white = Book::new(Db {
            size: 15,
            rule: Rule::Freestyle,
            attacker: Color::White,
            entries: prover.solved().collect(),
        });
        assert_eq!(white.proved_move(&board, Color::Black), None);
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
                "YXSHOWFORBID now",
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
        assert!(out[10].contains("takes no argument"), "{out:?}");
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
            out[1], "ERROR in BOARD: the game is over (the brain has five in a row)",
            "{out:?}"
        );
        let theirs = [
            "START 15", "BOARD", "3,5,2", "4,5,2", "5,5,2", "6,5,2", "3,6,1", "4,6,1", "5,6,1",
            "9,9,1", "0,0,2", "DONE", "TURN 7,5",
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
