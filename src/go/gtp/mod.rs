//! `stonelab go gtp`: a Go engine speaking GTP version 2 on stdin/stdout.
//!
//! [`Gtp`] owns the engine and answers one request at a time: each line is cleaned and parsed
//! into a typed [`command::Command`] (or a parse error) before anything acts on it. Answers are
//! `=[id] result` or `?[id] message`, each followed by an empty line; a malformed line gets a `?`
//! answer and the loop goes on. Rules: area scoring, suicide illegal, simple ko. `final_score` is
//! the area count after removing the dead stones, which Monte-Carlo ownership finds
//! ([`stonelab_go::ownership`]: a block whose points end owned by the opponent in most of 1,000
//! tactical playouts from the position is dead); `final_status_list dead` lists those stones and
//! `alive` the others. `seki` is always empty: seki stones are listed alive (random playouts do
//! not tell seki apart, and for an area count a seki group counts as alive anyway).
//!
//! Parts: [`command`] parses a line into a typed command, [`clock`] computes the time a move
//! gets, `engine.rs` holds the game and chooses moves, and [`Gtp::serve`] here is the loop, generic
//! over its input and output so that tests drive it in-process.

pub mod clock;
pub mod command;
mod engine;

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use anyhow::Context;
use stonelab_go::score::format_score;
use stonelab_go::vertex::{format_move, format_vertex, COLUMNS};
use stonelab_go::{mcts, ownership};
use stonelab_go::{Board, Color, Geometry, Move, Point, Rules};

use command::{Command, Request, Status, COMMANDS};
pub use engine::{Decision, Engine, SearchLimits};

/// The engine's margin share (`--score-weight`) when none is given: 0.1 scored 149-5-46 against
/// the win alone's 137-5-58 at fixed playouts against Pachi, and 21-2-27 at 2 s a move where the
/// win alone scored 10-3-25 (BENCHMARKS.md, sessions 65-66).
pub const GTP_SCORE_WEIGHT: f32 = 0.1;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Solved results database(s) from `stonelab go solve --out`; used on boards of their size
    #[arg(long = "db", value_name = "FILE")]
    pub db: Vec<PathBuf>,
    /// With --db: what an endless game is worth (`tie`: 0 before komi, so a side that cannot force
    /// a better end keeps the tie value instead)
    #[arg(long, value_enum, default_value_t = crate::go::CyclesArg::Interval)]
    pub cycles: crate::go::CyclesArg,
    /// The ko rule: `simple` (a pass clears the ban) or `positional-superko` (no stone may
    /// recreate an earlier board of the game: `play` refuses one, and with --db the engine plays
    /// the exact superko value of the position with its history)
    #[arg(long, value_enum, default_value_t = crate::go::solve::KoArg::Simple)]
    pub ko: crate::go::solve::KoArg,
    /// Search threads
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// The threads grow one tree together (with a virtual loss on each thread's path); false:
    /// one tree each, whose root statistics are summed (weaker, but with --playouts the same
    /// moves every run). With --threads 2 or more a shared tree's moves are not repeatable,
    /// even with --playouts
    #[arg(long = "shared-tree", value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set)]
    pub shared_tree: bool,
    /// Playouts per move (the same moves every run with --threads 1 or --shared-tree false)
    #[arg(long, conflicts_with = "move_ms")]
    pub playouts: Option<u64>,
    /// Milliseconds per move (default 1000; GTP time settings can only shorten it)
    #[arg(long = "move-ms", value_name = "T", value_parser = crate::common::parse_ms)]
    pub move_ms: Option<u64>,
    /// Learned move model for the search's priors: a gamma file from `stonelab go fit-model`,
    /// `builtin` for the one built into the program, or `none` for the hand-set priors alone
    #[arg(long, value_name = "FILE", default_value = "builtin")]
    pub model: String,
    /// Weight of the model's prior: a move of probability p among its siblings starts with
    /// W * sqrt(p) virtual wins
    #[arg(long = "model-weight", value_name = "W", default_value_t = stonelab_go::mcts::PRIOR_MODEL)]
    pub model_weight: f64,
    /// Playouts answer the opponent's last stone with the model's 3x3 gammas instead of MoGo's
    /// shapes, a move elsewhere weighing R per empty point (needs a model)
    #[arg(long = "playout-replies", value_name = "R")]
    pub playout_replies: Option<f32>,
    /// Start each move's search from the subtree that the previous move's search grew below the
    /// moves played since (tree reuse)
    #[arg(long = "tree-reuse", value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set)]
    pub tree_reuse: bool,
    /// Draw fresh randomness for every search, also with --playouts (which otherwise replays
    /// exactly): games between fixed-playout engines then differ
    #[arg(long = "fresh-seed")]
    pub fresh_seed: bool,
    /// Last good reply with forgetting in the playouts: a stone that answered the opponent's
    /// stone in a won playout is tried again as the answer to it
    #[arg(long = "last-good-reply", value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set)]
    pub last_good_reply: bool,
    /// Michi's hand-set priors (captures, shapes, nearness to the last move, ...) next to the
    /// model's; false (the default) leaves a new child the even prior and the model's alone.
    /// Without a model (--model none) the hand-set priors always apply
    #[arg(long = "hand-priors", value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set)]
    pub hand_priors: bool,
    /// Dynamic komi when winning (after Pachi's): from a fifth of the board's points into the
    /// game, while the last search's win rate is above 0.85 each search counts with a point more
    /// of komi against the engine, and 4 points less once it falls below 0.8, so that a won game
    /// is still played for points (a search whose playouts all win cannot tell a solid move from
    /// a slack one)
    #[arg(long = "dynamic-komi", value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set)]
    pub dynamic_komi: bool,
    /// Where --score-weight's margin term is centred: `zero` (Black's lead less komi, counted
    /// from an even game) or `expected` (the lead less the previous search's mean lead in the
    /// same game, as KataGo centres its dynamic score utility: far from an even game the tanh of
    /// the whole lead is flat and cannot tell a solid move from a slack one)
    #[arg(long = "score-centre", value_name = "CENTRE", default_value = "zero")]
    pub score_centre: ScoreCentre,
    #[command(flatten)]
    pub playout: crate::go::PlayoutArgs,
    #[command(flatten)]
    pub tree: crate::go::TreePolicyArgs,
}

/// Where the margin term of `--score-weight` is centred (`--score-centre`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreCentre {
    /// At an even game: the lead less komi.
    Zero,
    /// At the previous search's mean lead in the same game.
    Expected,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    crate::common::check_threads("--threads", args.threads)?;
    if args.playouts == Some(0) || args.move_ms == Some(0) {
        anyhow::bail!("--playouts and --move-ms must be positive");
    }
    crate::go::check_model_weight(args.model_weight)?;
    let model = crate::go::load_model(&args.model)?;
    let tree_policy = args.tree.policy()?;
    if let Some(r) = args.playout_replies {
        if !(r.is_finite() && r >= 0.0) {
            anyhow::bail!("--playout-replies must be a finite number, 0 or more");
        }
        if model.is_none() {
            anyhow::bail!("--playout-replies needs a model (--model none has none)");
        }
    }
    let mut engine = Engine::new(limits(&args, model, tree_policy));
    if args.ko == crate::go::solve::KoArg::PositionalSuperko
        && args.cycles != crate::go::CyclesArg::Interval
    {
        anyhow::bail!("--ko positional-superko has no endless games: leave out --cycles");
    }
    engine.set_cycles(args.cycles.into());
    engine.set_superko(args.ko == crate::go::solve::KoArg::PositionalSuperko);
    for path in &args.db {
        engine
            .load_database(path)
            .with_context(|| format!("cannot load database {}", path.display()))?;
    }
    Gtp::new(engine).serve(
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout().lock(),
    )
}

/// The engine's search settings from the command line, its defaults filled in.
fn limits(
    args: &Args,
    model: Option<std::sync::Arc<stonelab_go::movemodel::MoveModel>>,
    tree_policy: mcts::TreePolicy,
) -> SearchLimits {
    SearchLimits {
        threads: args.threads,
        shared_tree: args.shared_tree,
        playouts: args.playouts,
        move_ms: args.move_ms,
        model,
        model_weight: args.model_weight,
        playout_remote: args.playout_replies,
        tree_reuse: args.tree_reuse,
        fresh_seed: args.fresh_seed,
        last_good_reply: args.last_good_reply,
        two_liberties: args.playout.two_liberties,
        hand_priors: args.hand_priors,
        tree_policy,
        second_last_shapes: args.playout.second_last_shapes,
        nakade: args.playout.nakade,
        ko_fights: args.playout.ko_fights,
        dynamic_komi: args.dynamic_komi,
        score_centre: args.score_centre == ScoreCentre::Expected,
        local_rate: args.playout.local_rate,
        score_weight: args.playout.score_weight(GTP_SCORE_WEIGHT),
        global_capture: args.playout.global_capture,
        sacrifices: args.playout.sacrifices,
        score_scale: args.playout.score_scale,
    }
}

/// One answer, ready to write (empty line included).
pub struct Answer {
    pub text: String,
    pub quit: bool,
}

/// The protocol: owns the engine, turns each line into an answer.
pub struct Gtp {
    engine: Engine,
}

impl Gtp {
    /// The protocol around `engine`.
    #[must_use]
    pub fn new(engine: Engine) -> Gtp {
        Gtp { engine }
    }

    /// Answers the requests of `input` on `output`, one line at a time and flushed after each
    /// answer, until `quit` or the end of the input. The input is read on a thread of its own, so
    /// that a live analysis (`lz-analyze`) runs until the next line arrives.
    pub fn serve(
        &mut self,
        input: impl BufRead + Send + 'static,
        mut output: impl Write,
    ) -> anyhow::Result<()> {
        let (tx, rx) = std::sync::mpsc::channel::<std::io::Result<String>>();
        std::thread::spawn(move || {
            let mut input = input;
            let mut line = Vec::new();
            loop {
                line.clear();
                match input.read_until(b'\n', &mut line) {
                    Ok(0) => return,
                    Ok(_) => {
                        if tx
                            .send(Ok(String::from_utf8_lossy(&line).into_owned()))
                            .is_err()
                        {
                            return;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
        });
        let mut pending: Option<String> = None;
        loop {
            let text = match pending.take() {
                Some(t) => t,
                None => match rx.recv() {
                    Ok(line) => line.context("cannot read standard input")?,
                    // The input ended.
                    Err(_) => return Ok(()),
                },
            };
            if let Some(clean) = command::preprocess(&text) {
                let Request { id, command } = command::parse(&clean);
                if let Ok(Command::Analyze {
                    dialect,
                    color,
                    interval,
                    genmove,
                }) = command
                {
                    let id = id.map(|n| n.to_string()).unwrap_or_default();
                    pending =
                        self.analyze(&id, dialect, color, interval, genmove, &rx, &mut output)?;
                    continue;
                }
            }
            let Some(answer) = self.answer(&text) else {
                continue;
            };
            output.write_all(answer.text.as_bytes())?;
            output.flush()?;
            if answer.quit {
                return Ok(());
            }
        }
    }

    /// A live analysis: `=id`, then a line of `info move ...` entries every `interval`
    /// centiseconds until the next input line arrives (returned, to be answered next), then an
    /// empty line. Each update sums searches of one interval each, so the counts keep growing.
    /// With `genmove`, the analysis runs for the engine's move time and ends with `play VERTEX`
    /// (the most visited move, then played).
    #[allow(clippy::too_many_arguments)]
    fn analyze(
        &mut self,
        id: &str,
        dialect: command::Dialect,
        color: Option<Color>,
        interval: u32,
        genmove: bool,
        rx: &std::sync::mpsc::Receiver<std::io::Result<String>>,
        output: &mut impl Write,
    ) -> anyhow::Result<Option<String>> {
        use std::sync::mpsc::TryRecvError;
        let color = color.unwrap_or_else(|| self.engine.board().to_move());
        let g = *self.engine.board().geometry();
        writeln!(output, "={id}")?;
        output.flush()?;
        let step = std::time::Duration::from_millis(10 * u64::from(interval));
        let budget = std::time::Duration::from_millis(self.engine.move_ms());
        let started = std::time::Instant::now();
        let mut totals: Vec<mcts::MoveStats> = Vec::new();
        let mut round = 0u64;
        let next = loop {
            let result = self.engine.analyze(color, step, round);
            round += 1;
            for m in result.moves {
                match totals.iter_mut().find(|t| t.mv == m.mv) {
                    Some(t) => {
                        t.visits += m.visits;
                        t.wins += m.wins;
                    }
                    None => totals.push(m),
                }
            }
            writeln!(output, "{}", info_line(&totals, dialect, &g))?;
            output.flush()?;
            if genmove {
                if started.elapsed() >= budget {
                    break None;
                }
                continue;
            }
            match rx.try_recv() {
                Ok(line) => break Some(line.context("cannot read standard input")?),
                Err(TryRecvError::Empty) => {}
                // The input ended: stop here.
                Err(TryRecvError::Disconnected) => break None,
            }
        };
        if genmove {
            let best = totals
                .iter()
                .max_by_key(|m| m.visits)
                .map_or(Move::Pass, |m| m.mv);
            let mut board = self.engine.board().clone();
            board
                .try_play_as(color, best)
                .map_err(|_| anyhow::anyhow!("the analysis chose an illegal move"))?;
            self.engine.set_board(board);
            writeln!(output, "play {}", format_move(best, &g))?;
        }
        writeln!(output)?;
        output.flush()?;
        Ok(next)
    }

    /// The answer to one raw input line, `None` for a line GTP ignores (empty or a comment).
    pub fn answer(&mut self, line: &str) -> Option<Answer> {
        let clean = command::preprocess(line)?;
        let Request { id, command } = command::parse(&clean);
        let id = id.map(|n| n.to_string()).unwrap_or_default();
        let quit = command == Ok(Command::Quit);
        let result = command
            .map_err(|e| e.message())
            .and_then(|c| self.execute(c));
        let text = match result {
            Ok(r) => format!("={id} {r}\n\n"),
            // A message may echo the request: escaped and cut short, one line.
            Err(e) => format!("?{id} {}\n\n", crate::common::clean(&e, 200)),
        };
        Some(Answer { text, quit })
    }

    fn execute(&mut self, command: Command) -> Result<String, String> {
        let g = *self.engine.board().geometry();
        match command {
            Command::ProtocolVersion => Ok("2".into()),
            Command::Name => Ok("stonelab".into()),
            Command::CpuTime => cpu_seconds()
                .map(|t| format!("{t:.3}"))
                .ok_or_else(|| "cputime not available on this system".to_string()),
            Command::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Command::Known(name) => Ok(COMMANDS.contains(&name.as_str()).to_string()),
            Command::ListCommands => Ok(COMMANDS.join("\n")),
            Command::Quit => Ok(String::new()),
            Command::BoardSize(n) => {
                if !(2..=stonelab_go::MAX_SIZE).contains(&n) {
                    return Err("unacceptable size".into());
                }
                self.engine
                    .reset(Geometry::new(n, n).expect("size in range"));
                Ok(String::new())
            }
            Command::ClearBoard => {
                self.engine.reset(g);
                Ok(String::new())
            }
            Command::Komi(k) => {
                self.engine.set_komi(k);
                Ok(String::new())
            }
            Command::Play(color, vertex) => {
                let mv = vertex.to_move(&g).ok_or("illegal move")?;
                self.engine.try_play(color, mv)?;
                Ok(String::new())
            }
            Command::GenMove(color) => Ok(match self.engine.genmove(color) {
                Decision::Play(mv) => format_move(mv, &g),
                Decision::Resign => "resign".into(),
            }),
            Command::Undo => {
                let mut board = self.engine.board().clone();
                board.undo().map_err(|_| "cannot undo".to_string())?;
                self.engine.set_board(board);
                Ok(String::new())
            }
            Command::ShowBoard => Ok(show(self.engine.board(), self.engine.komi())),
            Command::FinalScore => Ok(format_score(self.evaluate().score)),
            Command::FinalStatusList(status) => Ok(match status {
                Status::Alive => {
                    let dead = self.evaluate().dead;
                    vertices(self.engine.board().occupied().and_not(dead).iter(), &g)
                }
                Status::Dead => vertices(self.evaluate().dead.iter(), &g),
                Status::Seki => String::new(),
            }),
            Command::LoadSgf { path, move_number } => {
                let (board, komi) = load_sgf(&path, move_number)
                    .map_err(|e| format!("cannot load file: {}", crate::common::message(&e)))?;
                self.engine.reset(*board.geometry());
                self.engine.set_board(board);
                if let Some(k) = komi {
                    self.engine.set_komi(k);
                }
                Ok(String::new())
            }
            Command::TimeSettings(settings) => {
                self.engine.time_settings(settings);
                Ok(String::new())
            }
            Command::TimeLeft {
                color,
                time,
                stones,
            } => {
                self.engine.time_left(color, time, stones);
                Ok(String::new())
            }
            Command::ListStones(color) => {
                Ok(vertices(self.engine.board().stones(color).iter(), &g))
            }
            Command::RegGenMove(color) => Ok(match self.engine.choose_move(color, false) {
                Decision::Play(mv) => format_move(mv, &g),
                Decision::Resign => "resign".into(),
            }),
            Command::GenMoveCleanup(color) => {
                // The cleanup phase never resigns; a resignation would count as a pass.
                let mv = match self.engine.choose_move(color, true) {
                    Decision::Play(mv) => mv,
                    Decision::Resign => Move::Pass,
                };
                let mut board = self.engine.board().clone();
                board
                    .try_play_as(color, mv)
                    .map_err(|_| "the engine chose an illegal move".to_string())?;
                self.engine.set_board(board);
                Ok(format_move(mv, &g))
            }
            Command::FixedHandicap(n) | Command::PlaceFreeHandicap(n) => {
                let free = matches!(command, Command::PlaceFreeHandicap(_));
                if !self.engine.board().occupied().is_empty() {
                    return Err("board not empty".into());
                }
                let points = handicap_points(&g, n, free).ok_or("invalid number of stones")?;
                self.place_handicap(&points)?;
                Ok(vertices(points.into_iter(), &g))
            }
            Command::SetFreeHandicap(list) => {
                if !self.engine.board().occupied().is_empty() {
                    return Err("board not empty".into());
                }
                let mut points = Vec::new();
                for v in list {
                    match v.to_move(&g) {
                        Some(Move::Play(p)) if !points.contains(&p) => points.push(p),
                        _ => return Err("bad vertex list".into()),
                    }
                }
                if points.len() < 2 || points.len() >= g.rows() * g.cols() {
                    return Err("bad vertex list".into());
                }
                self.place_handicap(&points)?;
                Ok(String::new())
            }
            Command::PrintSgf(path) => {
                let text = game_sgf(self.engine.board(), self.engine.komi());
                match path {
                    None => Ok(text.trim_end().to_string()),
                    Some(path) => {
                        crate::arena::write_atomically(
                            std::path::Path::new(&path),
                            text.as_bytes(),
                        )
                        .map_err(|e| {
                            format!("cannot write file: {}", crate::common::message(&e))
                        })?;
                        Ok(String::new())
                    }
                }
            }
            Command::AnalyzeCommands => Ok(ANALYZE_COMMANDS.join("\n")),
            // Streamed by `serve`; reached only through `answer` alone.
            Command::Analyze { .. } => Err("analysis needs the serve loop".into()),
        }
    }

    /// Puts Black's handicap stones on the empty board, White to move.
    fn place_handicap(&mut self, points: &[Point]) -> Result<(), String> {
        let mut setup = self.engine.board().to_setup();
        for &p in points {
            setup.black |= stonelab_go::Bitboard::from_point(p);
        }
        setup.to_move = Color::White;
        setup.ko = None;
        let board = Board::from_setup(setup, Rules::STANDARD).map_err(|e| e.to_string())?;
        self.engine.set_board(board);
        Ok(())
    }
}

/// One analysis update: `info move V visits N winrate W ... order K pv V` for every root move
/// searched, most visited first (Leela Zero's winrate in 1/10000; KataGo's from 0 to 1 with its
/// utility and score fields, the scores 0: the search does not estimate them). The PV is the move
/// alone, and the prior 0.
fn info_line(totals: &[mcts::MoveStats], dialect: command::Dialect, g: &Geometry) -> String {
    let mut moves: Vec<&mcts::MoveStats> = totals.iter().filter(|m| m.visits > 0).collect();
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.win_rate().total_cmp(&a.win_rate()))
    });
    let mut out = String::new();
    for (order, m) in moves.iter().enumerate() {
        let w = m.win_rate();
        let n = m.visits as f64;
        let lcb = (w - 1.96 * (w * (1.0 - w) / n).sqrt()).max(0.0);
        let v = format_move(m.mv, g);
        if !out.is_empty() {
            out.push(' ');
        }
        let _ = match dialect {
            command::Dialect::Lz => write!(
                out,
                "info move {v} visits {} winrate {} prior 0 lcb {} order {order} pv {v}",
                m.visits,
                (w * 10_000.0).round() as i64,
                (lcb * 10_000.0).round() as i64
            ),
            command::Dialect::Kata => write!(
                out,
                "info move {v} visits {} utility {:.6} winrate {w:.6} scoreMean 0 scoreStdev 0 \
                 scoreLead 0 scoreSelfplay 0 prior 0 lcb {lcb:.6} utilityLcb {:.6} order {order} pv {v}",
                m.visits,
                2.0 * w - 1.0,
                2.0 * lcb - 1.0
            ),
        };
    }
    out
}

/// GoGui's analyze commands (`type/label/command`).
const ANALYZE_COMMANDS: &[&str] = &[
    "plist/Dead Stones/final_status_list dead",
    "plist/Alive Stones/final_status_list alive",
    "string/Final Score/final_score",
    "move/Regression Move Black/reg_genmove b",
    "move/Regression Move White/reg_genmove w",
    "none/Print SGF/printsgf",
];

/// Handicap stones for `n` stones: GTP's fixed placement (section 4.1.1: the 4-4 points, the 3-3
/// points below 13x13, in the order D4 Q16 D16 Q4, then the side midpoints and the centre);
/// `free` also allows more stones than the fixed table has (then the empty points nearest the
/// centre). `None` for a count the placement does not allow.
fn handicap_points(g: &Geometry, n: usize, free: bool) -> Option<Vec<Point>> {
    let size = g.rows();
    if n < 2 || g.rows() != g.cols() || size < 7 {
        if free && n >= 2 && n < g.rows() * g.cols() {
            return Some(nearest_centre(g, n, &[]));
        }
        return None;
    }
    let d = if size >= 13 { 4 } else { 3 };
    let (lo, hi, mid) = (d, size + 1 - d, size.div_ceil(2));
    let max = if size % 2 == 1 && size > 7 { 9 } else { 4 };
    // (column from 1, row from 1 at the bottom)
    let table = [
        (lo, lo),
        (hi, hi),
        (lo, hi),
        (hi, lo),
        (lo, mid),
        (hi, mid),
        (mid, lo),
        (mid, hi),
    ];
    let pick: Vec<(usize, usize)> = match n.min(max) {
        2..=4 => table[..n.min(max)].to_vec(),
        5 => [&table[..4], &[(mid, mid)]].concat(),
        6 => table[..6].to_vec(),
        7 => [&table[..6], &[(mid, mid)]].concat(),
        8 => table[..8].to_vec(),
        _ => [&table[..8], &[(mid, mid)]].concat(),
    };
    if n > max && !free {
        return None;
    }
    let at = |(c, r): (usize, usize)| g.point(size - r, c - 1).expect("on the board");
    let mut points: Vec<Point> = pick.into_iter().map(at).collect();
    if n > points.len() {
        if n >= size * size {
            return None;
        }
        let more = nearest_centre(g, n - points.len(), &points);
        points.extend(more);
    }
    Some(points)
}

/// The `n` points nearest the centre (ties by row, then column), leaving out `taken`.
fn nearest_centre(g: &Geometry, n: usize, taken: &[Point]) -> Vec<Point> {
    let (cr, cc) = (g.rows() as i64 - 1, g.cols() as i64 - 1);
    let mut all: Vec<Point> = (0..g.rows())
        .flat_map(|r| (0..g.cols()).filter_map(move |c| g.point(r, c)))
        .filter(|p| !taken.contains(p))
        .collect();
    all.sort_by_key(|p| {
        let (r, c) = (2 * p.row() as i64 - cr, 2 * p.col() as i64 - cc);
        (r * r + c * c, p.row(), p.col())
    });
    all.truncate(n);
    all
}

/// The game as an SGF record: size, komi, area rules, the starting stones (handicap or loaded
/// setup) and every move since, with the colour that played it.
fn game_sgf(board: &Board, komi: f64) -> String {
    let g = board.geometry();
    let coord = |p: Point| {
        format!(
            "{}{}",
            (b'a' + p.col() as u8) as char,
            (b'a' + p.row() as u8) as char
        )
    };
    // Walk back to the start, noting who played each move (the side not to move after it).
    let mut start = board.clone();
    let mut moves = Vec::new();
    while start.history_len() > 0 {
        let color = start.to_move().opponent();
        let mv = start.moves().last().expect("a move in the history");
        moves.push((color, mv));
        if start.undo().is_err() {
            break;
        }
    }
    moves.reverse();
    let mut out = format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[stonelab:{}]SZ[{}]KM[{komi}]RU[Chinese]",
        env!("CARGO_PKG_VERSION"),
        g.rows()
    );
    for (tag, color) in [("AB", Color::Black), ("AW", Color::White)] {
        let stones: Vec<Point> = start.stones(color).iter().collect();
        if !stones.is_empty() {
            out.push_str(tag);
            for p in stones {
                let _ = write!(out, "[{}]", coord(p));
            }
        }
    }
    if start.to_move() == Color::White && (moves.is_empty() || moves[0].0 == Color::White) {
        out.push_str("PL[W]");
    }
    for (color, mv) in moves {
        let tag = if color == Color::Black { 'B' } else { 'W' };
        let at = match mv {
            Move::Pass => String::new(),
            Move::Play(p) => coord(p),
        };
        let _ = write!(out, "\n;{tag}[{at}]");
    }
    out.push_str(")\n");
    out
}

impl Gtp {
    /// Dead stones and the score without them, by Monte-Carlo ownership
    /// ([`stonelab_go::ownership`]; deterministic for a position).
    fn evaluate(&self) -> ownership::Evaluation {
        ownership::evaluate(
            self.engine.board(),
            self.engine.komi(),
            ownership::DEFAULT_PLAYOUTS,
        )
    }
}

/// Vertices sorted by column, then by row from the bottom (`A1 A2 B1`), space-separated.
fn vertices(points: impl Iterator<Item = Point>, g: &Geometry) -> String {
    let mut ps: Vec<Point> = points.collect();
    ps.sort_by_key(|p| (p.col(), g.rows() - p.row()));
    ps.iter()
        .map(|&p| format_vertex(p, g))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The board with coordinates, the side to move, captures and komi (no empty lines).
fn show(board: &Board, komi: f64) -> String {
    let g = board.geometry();
    let letters: String = COLUMNS[..g.cols()]
        .iter()
        .map(|&c| format!(" {}", c as char))
        .collect();
    let mut out = format!("\n   {letters}\n");
    for r in 0..g.rows() {
        let number = g.rows() - r;
        let _ = write!(out, "{number:>2} ");
        for c in 0..g.cols() {
            let p = Point::new(r, c);
            let glyph = match board.color_at(p) {
                Some(color) => color.glyph(),
                None if board.ko() == Some(p) => '*',
                None => '.',
            };
            let _ = write!(out, " {glyph}");
        }
        let _ = writeln!(out, " {number:>2}");
    }
    let _ = writeln!(out, "   {letters}");
    let _ = write!(
        out,
        "{} to move, captures black {} white {}, komi {komi}",
        board.to_move(),
        board.captures(Color::Black),
        board.captures(Color::White)
    );
    out
}

/// The position of an SGF file (its `SZ`, square, 2..19) before move `move_number` (all moves
/// when `None`), and its komi (`KM`) if it gives one.
fn load_sgf(path: &str, move_number: Option<usize>) -> anyhow::Result<(Board, Option<f64>)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read '{path}'"))?;
    let game = crate::go::replay::SgfGame::read(&text)?;
    let (rows, cols) = game.size.unwrap_or((19, 19));
    if rows != cols || !(2..=stonelab_go::MAX_SIZE).contains(&rows) {
        anyhow::bail!("board size {rows}x{cols} is not square 2..19");
    }
    let mut board = Board::new(
        Geometry::new(rows, cols).expect("size in range"),
        Rules::STANDARD,
    );
    let played = game.replay(&mut board)?;
    if let Some(n) = move_number {
        let keep = n.saturating_sub(1);
        for _ in keep..played {
            board
                .undo()
                .map_err(|_| anyhow::anyhow!("cannot go back to move {n} past a setup node"))?;
        }
    }
    Ok((board, game.komi))
}

/// The CPU time this process has used (all threads, user and system), in seconds, from
/// `/proc/self/stat` (Linux: fields 14 and 15, in ticks of 1/100 s); `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some((user + system) as f64 / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answers of an in-process session (each without its empty line).
    fn session(input: &str) -> Vec<String> {
        let mut gtp = Gtp::new(Engine::new(SearchLimits {
            threads: 1,
            shared_tree: false,
            playouts: Some(200),
            move_ms: None,
            model: None,
            model_weight: stonelab_go::mcts::PRIOR_MODEL,
            playout_remote: None,
            tree_reuse: true,
            fresh_seed: false,
            last_good_reply: false,
            two_liberties: false,
            hand_priors: true,
            tree_policy: stonelab_go::mcts::TreePolicy::default(),
            second_last_shapes: false,
            nakade: false,
            ko_fights: false,
            local_rate: 100,
            score_weight: 0.0,
            score_scale: None,
            global_capture: 0,
            sacrifices: false,
            dynamic_komi: false,
            score_centre: false,
        }));
        let mut output = Vec::new();
        gtp.serve(std::io::Cursor::new(input.as_bytes().to_vec()), &mut output)
            .unwrap();
        let text = String::from_utf8(output).unwrap();
        assert!(text.is_empty() || text.ends_with("\n\n"), "{text:?}");
        text.split_terminator("\n\n").map(str::to_string).collect()
    }

    /// `go gtp`'s arguments as the command line gives them.
    fn parse(words: &[&str]) -> Result<Args, clap::Error> {
        crate::go::parse_args("gtp", words)
    }

    #[test]
    fn the_engine_takes_a_margin_share_by_default() {
        let policy = stonelab_go::mcts::TreePolicy::default();
        let by_default = limits(&parse(&[]).unwrap(), None, policy);
        assert_eq!(by_default.score_weight, GTP_SCORE_WEIGHT);
        assert!(by_default.score_weight > 0.0);
        let win_alone = limits(&parse(&["--score-weight", "0"]).unwrap(), None, policy);
        assert_eq!(win_alone.score_weight, 0.0);
        let given = limits(&parse(&["--score-weight", "0.25"]).unwrap(), None, policy);
        assert_eq!(given.score_weight, 0.25);
        for bad in ["1.5", "-0.1", "nan", "x"] {
            assert!(parse(&["--score-weight", bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_loop_answers_until_quit() {
        let answers = session(
            "1 name\n\n# a comment\n2 boardsize 5\n3 play b c3\nplay w c3\n4 frobnicate\n\
             5 list_stones black\n6 genmove w\n7 quit\n8 name\n",
        );
        assert_eq!(answers.len(), 8, "{answers:?}");
        assert!(answers[6].starts_with("=6 "), "{answers:?}");
        let others = [&answers[..6], &answers[7..]].concat();
        let expect = [
            "=1 stonelab",
            "=2 ",
            "=3 ",
            "? illegal move",
            "?4 unknown command",
            "=5 C3",
            "=7 ",
        ];
        assert_eq!(others, expect);
        // Fixed playouts: the same session plays the same move.
        assert_eq!(session("genmove b\n"), session("genmove b\n"));
    }

    #[test]
    fn handicap_placement_follows_the_gtp_table_and_refuses_bad_requests() {
        let a = session(
            "boardsize 19\nfixed_handicap 9\nfixed_handicap 2\nclear_board\nfixed_handicap 4\n\
             boardsize 9\nfixed_handicap 5\nclear_board\nfixed_handicap 10\nplace_free_handicap 10\n\
             clear_board\nset_free_handicap a1 a1\nset_free_handicap a1\nset_free_handicap a1 j9\n\
             list_stones black\nboardsize 5\nfixed_handicap 2\nplace_free_handicap 2\n",
        );
        let expect = [
            "= ",
            "= D4 D10 D16 K4 K10 K16 Q4 Q10 Q16",
            "? board not empty",
            "= ",
            "= D4 D16 Q4 Q16",
            "= ",
            "= C3 C7 E5 G3 G7",
            "= ",
            "? invalid number of stones",
            "= C3 C5 C7 E3 E5 E6 E7 G3 G5 G7",
            "= ",
            "? bad vertex list",
            "? bad vertex list",
            "= ",
            "= A1 J9",
            "= ",
            "? invalid number of stones",
            "= C3 C4",
        ];
        assert_eq!(a, expect);
    }

    #[test]
    fn printsgf_round_trips_through_loadsgf_with_handicap_and_komi() {
        let dir = std::env::temp_dir().join(format!("stonelab-printsgf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.sgf");
        let p = path.display();
        let a = session(&format!(
            "boardsize 9\nkomi 0.5\nfixed_handicap 2\nplay w e5\nplay b d5\nplay w pass\n\
             play b d4\nlist_stones black\nlist_stones white\nprintsgf {p}\nclear_board\nkomi 7\n\
             loadsgf {p}\nlist_stones black\nlist_stones white\nshowboard\nprintsgf\n"
        ));
        assert_eq!(a[7], "= C3 D4 D5 G7");
        assert_eq!(a[8], "= E5");
        assert_eq!(a[13], a[7]);
        assert_eq!(a[14], a[8]);
        assert!(
            a[15].contains("white to move") && a[15].contains("komi 0.5"),
            "{}",
            a[15]
        );
        assert!(
            a[16].starts_with("= (;GM[1]FF[4]") && a[16].contains("KM[0.5]"),
            "{}",
            a[16]
        );
        assert!(a[16].contains("AB[gc][cg]PL[W]"), "{}", a[16]);
        assert!(
            a[16].contains(";W[ee]") && a[16].contains(";W[]"),
            "{}",
            a[16]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reg_genmove_leaves_the_board_and_cleanup_captures_dead_stones() {
        let a = session("boardsize 5\nplay b c3\nreg_genmove w\nlist_stones white\n");
        assert!(a[2].starts_with("= ") && a[2] != "= PASS", "{a:?}");
        assert_eq!(a[3], "= ");
        // Black walls off the left; White owns the right; a White stone on A3 is lost.
        let a = session(
            "boardsize 5\nplay b c1\nplay w d1\nplay b c2\nplay w d2\nplay b c3\nplay w d3\n\
             play b c4\nplay w d4\nplay b c5\nplay w d5\nplay b pass\nplay w a3\n\
             final_status_list dead\nkgs-genmove_cleanup b\n",
        );
        // (Whether the ownership estimate calls A3 dead depends on its playouts; with it dead
        // the answer is next to it, and in any case the cleanup phase does not pass here.)
        if a[13] == "= A3" {
            assert!(["= A2", "= A4", "= B3"].contains(&a[14].as_str()), "{a:?}");
        }
        assert!(a[14] != "= PASS" && a[14].len() > 3, "{a:?}");
    }

    #[test]
    fn live_analysis_streams_info_lines_until_the_next_command() {
        let a = session(
            "boardsize 5\n1 lz-analyze b 5\nname\nkata-analyze w interval 5 ownership true\n\
             lz-genmove_analyze b 5\nlist_stones black\nlz-analyze q\nlz-genmove_analyze\n",
        );
        assert_eq!(a[0], "= ");
        let lz = &a[1];
        assert!(lz.starts_with("=1\ninfo move "), "{lz}");
        let line = lz.lines().nth(1).unwrap();
        // Every entry: move, visits, winrate (1/10000), prior, lcb, order, pv.
        let entries: Vec<&str> = line.split("info move ").filter(|e| !e.is_empty()).collect();
        // The visited root moves only: with no exploration term (the default selection rule)
        // 200 playouts visit few of them.
        assert!(entries.len() >= 2, "{line}");
        let mut last_visits = u64::MAX;
        for (k, e) in entries.iter().enumerate() {
            let f: Vec<&str> = e.split_whitespace().collect();
            assert_eq!(f[1], "visits");
            let visits: u64 = f[2].parse().unwrap();
            assert!(visits <= last_visits, "most visited first: {line}");
            last_visits = visits;
            assert_eq!(f[3], "winrate");
            assert!(f[4].parse::<u32>().unwrap() <= 10_000);
            assert_eq!(&f[7..10], ["lcb", f[8], "order"]);
            assert_eq!(f[10], k.to_string());
            assert_eq!(f[11], "pv");
            assert_eq!(f[12], f[0]);
        }
        assert_eq!(a[2], "= stonelab");
        assert!(
            a[3].starts_with("=\ninfo move ")
                && a[3].contains(" utility ")
                && a[3].contains(" winrate 0."),
            "{}",
            a[3]
        );
        // lz-genmove_analyze ends with the move, which is played.
        let last = a[4].lines().last().unwrap();
        let played = last.strip_prefix("play ").expect("a play line");
        assert_eq!(a[5], format!("= {played}"));
        assert!(a[6].starts_with("? syntax error"), "{}", a[6]);
        assert!(a[7].starts_with("? syntax error"), "{}", a[7]);
    }

    #[test]
    fn the_loop_ends_with_its_input() {
        assert_eq!(session("protocol_version\n"), ["= 2"]);
        assert!(session("").is_empty());
    }
}
