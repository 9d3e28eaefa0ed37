//! `stonelab go solve`: solves a small board by retrograde analysis on timely dataflow.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use stonelab_go::vertex::{format_move, parse_size};
use stonelab_go::{Board, Move};
use stonelab_retro::count;
use stonelab_retro::dataflow::{self, Event, Options, Workers};
use stonelab_retro::go::{self as gogame, GoGame};
use stonelab_retro::space::Space;
use stonelab_retro::{db, sweep, Bounds, Edge, GameGraph};

use crate::common::Format;

/// Largest board (in points) the state table and both solvers accept (4x5).
const MAX_POINTS: usize = 20;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Rules: area scoring, komi 0 unless given, suicide illegal, simple ko (a pass \
clears the ban), two consecutive passes end the game, Black first. Where cycles let a side avoid \
the end, the value is an interval [lo,hi]: lo is the best end score Black can force, hi the best \
White can force.\n\nSeveral processes: start the same command on every host with --processes N \
--process P (0..N-1) and the same --hostfile (one host:port per line, in process order; without \
it, localhost ports 2101.. are used). Process 0 prints the result and writes --out."
)]
pub struct Args {
    /// Board size as ROWSxCOLS, e.g. 3x3 (at most 20 points)
    pub board: String,
    /// Komi, subtracted from Black's area score (the database is komi-independent)
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub komi: f64,
    /// What an endless game is worth in the reported value, best moves and line (the database
    /// stores the intervals either way)
    #[arg(long, value_enum, default_value_t = super::CyclesArg::Interval)]
    pub cycles: super::CyclesArg,
    /// The ko rule of the reported value: `simple` (the database's rule) or
    /// `positional-superko` (no stone may recreate an earlier board of the game; the exact value
    /// of the empty board by a history-aware search ordered by the simple-ko database)
    #[arg(long, value_enum, default_value_t = KoArg::Simple)]
    pub ko: KoArg,
    /// With --ko positional-superko: give up after this many search nodes
    #[arg(long, default_value_t = 2_000_000_000, value_name = "NODES")]
    pub node_limit: u64,
    /// With --ko positional-superko: the depth of each test's first search and the step to the
    /// next (tuning aid)
    #[arg(long, hide = true, num_args = 2, value_names = ["FIRST", "STEP"])]
    pub superko_depths: Option<Vec<u32>>,
    /// Write the results database here (temporary name, then rename)
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads in this process
    #[arg(long, default_value_t = 1)]
    pub workers: usize,
    /// Number of processes (timely cluster)
    #[arg(long, default_value_t = 1)]
    pub processes: usize,
    /// This process's index, 0..processes
    #[arg(long, default_value_t = 0)]
    pub process: usize,
    /// File of host:port lines, one per process in order
    #[arg(long)]
    pub hostfile: Option<PathBuf>,
    /// Read the positions from a state table written by `stonelab go enumerate` instead of enumerating
    #[arg(long)]
    pub states: Option<PathBuf>,
    /// Checkpoint folder (default: OUT.ckpt when --out is given); a run resumes from it
    #[arg(long)]
    pub checkpoint_dir: Option<PathBuf>,
    /// Seconds between checkpoints (at least ten times a checkpoint's cost); 0: after every round
    #[arg(long, default_value_t = 60)]
    pub checkpoint_secs: u64,
    /// Also solve by plain value sweeps and check that every state agrees (slow; small boards)
    #[arg(long)]
    pub verify: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Which solver: `counting` (the default: nothing stored per edge, un-move generation) or
    /// `edges` (the slow reference that stores every move; boards up to about 4x4)
    #[arg(long, value_enum, default_value_t = Solver::Counting)]
    pub solver: Solver,
    /// Show progress on stderr even when it is not a terminal (one line every 10 s); on a
    /// terminal a progress bar is shown anyway
    #[arg(long)]
    pub progress: bool,
    /// Testing aid: end the process abruptly (exit code 137, as after SIGKILL) once a checkpoint of
    /// this round or later is written.
    #[arg(long, hide = true)]
    pub abort_after_round: Option<u32>,
    /// With several processes: give up with an error when the others have not all connected
    /// within this many seconds
    #[arg(long, default_value_t = 120, value_name = "SECONDS")]
    pub connect_timeout: u64,
}

/// The ko rule of `go solve`'s reported value.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KoArg {
    /// Simple ko (a pass clears the ban): the database's rule
    #[default]
    Simple,
    /// Positional superko: no stone may recreate an earlier board of the game
    PositionalSuperko,
}

/// Ends the process with an error when no worker has started (the cluster is not connected)
/// within `seconds`.
fn watch_connection(started: Arc<std::sync::atomic::AtomicBool>, process: usize, seconds: u64) {
    std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        while Instant::now() < deadline {
            if started.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        eprintln!(
            "stonelab: error: process {process}: the other processes did not all connect within \
             {seconds} s (--connect-timeout); check that each runs with the same --processes and \
             --hostfile"
        );
        std::process::exit(2);
    });
}

/// The two solvers behind `go solve`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// Threshold counting over a dense value table; predecessors by un-move generation.
    Counting,
    /// The edge-storing timely propagation (the reference).
    Edges,
}

/// Builds the game over the board's reduced positions: from a state file, or by enumerating into
/// a temporary one.
pub fn build_game(rows: usize, cols: usize, states: Option<&Path>) -> anyhow::Result<GoGame> {
    if rows * cols > MAX_POINTS {
        bail!(
            "board {rows}x{cols} has {} points; the state table stops at {MAX_POINTS} points (4x5); \
             bigger boards need a cluster: see docs/go-solver.md",
            rows * cols
        );
    }
    if let Some(path) = states {
        let table = stonelab_go::statefile::StateTable::open(path)
            .with_context(|| format!("cannot read state table {}", path.display()))?;
        let shape = table.shape();
        if (shape.rows, shape.cols) != (rows, cols) {
            bail!(
                "state table {} is for {}x{}, not {rows}x{cols}",
                path.display(),
                shape.rows,
                shape.cols
            );
        }
        return Ok(GoGame::new(table)?);
    }
    let dir = std::env::temp_dir().join(format!("stonelab-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(format!("{rows}x{cols}.states"));
    let game = GoGame::enumerate(rows, cols, &path, None).map_err(|e| anyhow::anyhow!("{e}"))?;
    // The table is memory-mapped; the name can go now.
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir(&dir);
    Ok(game)
}

/// Bytes the solver needs for `states` states: 12 per state and 28 per move (slot, predecessor entry
/// and the transient edge record), with 8 moves per state (4x4 has 6.7).
fn estimated_bytes(states: u64) -> u64 {
    states * 12 + states * 8 * 28
}

/// Refuses, before any work, a board whose estimated memory exceeds what this machine has
/// available. The state count is estimated from the exact legal count (Tromp's dynamic program,
/// instant for these sizes): 4 states per reduced position, about `legal / symmetries` of them.
fn check_memory(rows: usize, cols: usize) -> anyhow::Result<()> {
    if rows * cols > MAX_POINTS {
        return Ok(()); // build_game refuses with its own message.
    }
    let Some(shape) = stonelab_go::enumerate::Shape::new(rows, cols) else {
        return Ok(());
    };
    let legal = stonelab_go::dp::count_legal(shape)?;
    let legal: f64 = legal.to_string().parse().unwrap_or(f64::MAX);
    let states = 4.0 * legal / shape.symmetries().len() as f64;
    let need = estimated_bytes(states as u64);
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("MemAvailable:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map(|kb| kb * 1024);
    if let Some(available) = available {
        if need > available / 10 * 9 {
            bail!(
                "board {rows}x{cols} has about {states:.3e} states; solving keeps every move in memory \
                 and needs about {:.0} GiB, but {:.1} GiB are available (see docs/go-solver.md for \
                 what bigger boards need)",
                need as f64 / f64::from(1u32 << 30),
                available as f64 / f64::from(1u32 << 30)
            );
        }
    }
    Ok(())
}

/// The database metadata: board, rules and counts (komi-independent, so no komi).
pub fn db_meta(game: &GoGame) -> String {
    let g = game.geometry();
    serde_json::json!({
        "format": "stonelab go solve",
        "board": format!("{}x{}", g.rows(), g.cols()),
        "rules": gogame::rules_json(0.0),
        "scores": "Black's area minus White's, komi 0: subtract komi",
        "positions": game.positions(),
        "ko_states": game.ko_states(),
        "states": game.num_states(),
    })
    .to_string()
}

/// The moves of a board with the bounds each leads to.
pub fn move_bounds(
    game: &GoGame,
    board: &mut Board,
    pass: bool,
    value: impl Fn(u64) -> Bounds,
) -> anyhow::Result<Vec<(Move, Bounds)>> {
    Ok(game
        .moves(board, pass)?
        .into_iter()
        .map(|(m, e)| {
            let b = match e {
                Edge::End(score) => Bounds::end(score),
                Edge::State(t) => value(t),
            };
            (m, b)
        })
        .collect())
}

/// A principal variation: its moves and, when the line runs into a cycle (a state reached before,
/// up to the board's symmetries), the index of the move from which it repeats for ever.
pub struct Variation {
    pub moves: Vec<String>,
    pub repeats_from: Option<usize>,
}

/// Best moves from the start, and a principal variation (a value-keeping pass if there is one, else
/// the first best move). It stops at the end of the game, or once it reaches a state it has been in
/// before (up to symmetry): then [`Variation::repeats_from`] says where the cycle starts.
pub fn best_and_pv(
    game: &GoGame,
    value: &dyn Fn(u64) -> Bounds,
) -> anyhow::Result<(Vec<String>, Variation)> {
    let g = *game.geometry();
    let mut board = Board::new(g, stonelab_go::Rules::STANDARD);
    let mut pass = false;
    let mut best_first = Vec::new();
    let mut pv = Vec::new();
    let mut seen = std::collections::HashMap::new();
    let mut repeats_from = None;
    for ply in 0..4 * g.area() + 2 {
        let state = game.state_of(&board, pass)?;
        if let Some(&first) = seen.get(&state) {
            repeats_from = Some(first);
            break;
        }
        seen.insert(state, ply);
        let here = value(state);
        let moves = move_bounds(game, &mut board, pass, value)?;
        let best = gogame::best_moves(board.to_move(), here, &moves);
        if ply == 0 {
            best_first = best.iter().map(|&m| format_move(m, &g)).collect();
        }
        // A pass that keeps the value ends the line soonest; otherwise the first best move.
        let Some(&mv) = best.iter().find(|&&m| m == Move::Pass).or(best.first()) else {
            break;
        };
        pv.push(format_move(mv, &g));
        if mv == Move::Pass && pass {
            break;
        }
        pass = mv == Move::Pass;
        board.play_unchecked(mv);
    }
    Ok((
        best_first,
        Variation {
            moves: pv,
            repeats_from,
        },
    ))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let g = parse_size(&args.board)?;
    if !args.komi.is_finite() {
        bail!("komi must be a finite number");
    }
    if args.workers == 0 {
        bail!("--workers must be at least 1");
    }
    if args.processes == 0 || args.process >= args.processes {
        bail!(
            "--process must be below --processes ({} given, {} processes)",
            args.process,
            args.processes
        );
    }
    if args.ko == KoArg::PositionalSuperko {
        if args.solver != Solver::Counting || args.processes > 1 || args.verify {
            bail!("--ko positional-superko runs on one process with the counting solver, without --verify");
        }
        if args.cycles != super::CyclesArg::Interval {
            bail!("--ko positional-superko has no endless games: leave out --cycles");
        }
    }
    let workers = workers_of(&args)?;
    if args.solver == Solver::Counting {
        return run_counting(&args, g.rows(), g.cols(), workers);
    }

    let started = Instant::now();
    check_memory(g.rows(), g.cols())?;
    let game = Arc::new(build_game(g.rows(), g.cols(), args.states.as_deref())?);
    let checkpoint_dir = args.checkpoint_dir.clone().or_else(|| {
        args.out
            .as_ref()
            .map(|o| PathBuf::from(format!("{}.ckpt", o.display())))
    });
    let progress = crate::common::Spinner::new(format!("solving {}x{}", g.rows(), g.cols()));
    let connected = Arc::new(std::sync::atomic::AtomicBool::new(false));
    if args.processes > 1 {
        watch_connection(connected.clone(), args.process, args.connect_timeout);
    }
    let on_event = progress_events(progress.clone(), args.abort_after_round, connected);
    let options = Options {
        workers,
        checkpoint_dir: checkpoint_dir.clone(),
        checkpoint_every: Duration::from_secs(args.checkpoint_secs),
        game_key: db_meta(&game),
        on_event: Some(on_event),
    };
    let outcome = dataflow::solve(game.clone(), options)?;
    progress.finish();
    if let Some(round) = outcome.resumed_round {
        eprintln!("resumed from checkpoints written after round {round}");
    }
    let Some(values) = outcome.values else {
        // Not process 0: its part is done.
        eprintln!("process {} done", args.process);
        return Ok(());
    };
    if args.verify {
        verify(&game, &values)?;
    }
    if let Some(out) = &args.out {
        db::write(out, &db_meta(&game), &values)
            .with_context(|| format!("cannot write {}", out.display()))?;
        if let Some(dir) = &checkpoint_dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    let lookup = |s: u64| values[s as usize];
    let root = values[game.start() as usize];
    let cycles = stonelab_retro::Cycles::from(args.cycles);
    let root = root.under(cycles);
    let (best, pv) = best_and_pv(&game, &|s| lookup(s).under(cycles))?;
    let seconds = started.elapsed().as_secs_f64();
    let solved = Solved {
        game: &game,
        edges: outcome.edges,
        rounds: outcome.rounds,
        root,
        best,
        pv,
        seconds,
    };
    print_report(
        &args,
        &solved,
        Some(Extra {
            solver: "edges",
            estimated_bytes: estimated_bytes(game.num_states()),
            traffic: None,
            peak_rss: peak_rss(),
        }),
    )
}

/// The state table of a board: `--states`, or enumerated into a temporary file (removed once
/// opened: the maps keep it). Returns the space (checked position by position) and the reference
/// game over the same table (for moves and best lines).
pub fn build_space(
    rows: usize,
    cols: usize,
    states: Option<&Path>,
    threads: usize,
) -> anyhow::Result<(Space, GoGame)> {
    let open = |path: &Path| -> anyhow::Result<(Space, GoGame)> {
        let space = Space::open(path, threads)
            .with_context(|| format!("cannot use state table {}", path.display()))?;
        let shape = space.shape();
        if (shape.rows, shape.cols) != (rows, cols) {
            bail!(
                "state table {} is for {}x{}, not {rows}x{cols}",
                path.display(),
                shape.rows,
                shape.cols
            );
        }
        let table = stonelab_go::statefile::StateTable::open(path)?;
        let game = GoGame::with_ko_keys(table, space.ko_keys().to_vec())?;
        Ok((space, game))
    };
    if let Some(path) = states {
        return open(path);
    }
    let dir = std::env::temp_dir().join(format!("stonelab-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(format!("{rows}x{cols}.states"));
    let shape = stonelab_go::enumerate::Shape::new(rows, cols)
        .ok_or_else(|| anyhow::anyhow!("bad board {rows}x{cols}"))?;
    let set =
        stonelab_go::enumerate::Enumerator::new(shape)?.reduced_set(Some(threads), &|_, _| {})?;
    stonelab_go::statefile::write(&path, &set)?;
    drop(set);
    let built = open(&path);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir(&dir);
    built
}

/// Peak resident memory of this process so far (Linux), in bytes.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

fn available_bytes() -> Option<u64> {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("MemAvailable:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map(|kb| kb * 1024)
}

/// The counting solver's memory before any work, from the exact legal count (Tromp's dynamic
/// program): positions about `legal / symmetries`, ko states at most 15% of them (4x4: 11%), the
/// state table's bitset `3^points / 8` bytes, and the enumeration's own peak (its bitset as atomic
/// words and the ko list), whichever is larger. One estimator: [`count::estimated_bytes`].
pub fn estimate_counting(rows: usize, cols: usize, memory: bool) -> anyhow::Result<(u64, u64)> {
    let shape = stonelab_go::enumerate::Shape::new(rows, cols)
        .ok_or_else(|| anyhow::anyhow!("bad board {rows}x{cols}"))?;
    let legal = stonelab_go::dp::count_legal(shape)?;
    let legal: f64 = legal.to_string().parse().unwrap_or(f64::MAX);
    let positions = (legal / shape.symmetries().len() as f64 * 1.01) as u64;
    let ko = positions / 100 * 15;
    let bitset = 3f64.powi(shape.points() as i32) / 8.0 * 1.02;
    let table = bitset as u64 + ko * 2;
    let solve = count::estimated_bytes(positions, ko, table, memory);
    let enumerate = (bitset * 2.0) as u64 + ko * 16 + (64 << 20);
    Ok((solve.max(enumerate), 4 * positions + ko))
}

/// `go solve` with the counting solver.
fn run_counting(args: &Args, rows: usize, cols: usize, workers: Workers) -> anyhow::Result<()> {
    if rows * cols > 20 {
        let need = estimate_counting(rows, cols, false)
            .map(|(b, _)| format!(" (about {:.0} GiB)", b as f64 / f64::from(1u32 << 30)))
            .unwrap_or_default();
        bail!(
            "board {rows}x{cols} has {} points; the solver's state table stops at 20 points (4x5); \
             bigger boards need a cluster{need}: see docs/go-solver.md",
            rows * cols
        );
    }
    let started = Instant::now();
    let memory = args.out.is_none() || args.verify;
    let (need, states) = estimate_counting(rows, cols, memory)?;
    if let Some(avail) = available_bytes() {
        if need > avail / 10 * 9 {
            bail!(
                "board {rows}x{cols} has about {states:.3e} states; the counting solver needs about \
                 {:.1} GiB, but {:.1} GiB are available",
                need as f64 / f64::from(1u32 << 30),
                avail as f64 / f64::from(1u32 << 30),
                states = states as f64
            );
        }
    }
    let threads = match &workers {
        Workers::Threads(n) => *n,
        Workers::Cluster { threads, .. } => *threads,
    };
    let (space, game) = build_space(rows, cols, args.states.as_deref(), threads.max(1))?;
    let space = Arc::new(space);
    let checkpoint_dir = args.checkpoint_dir.clone().or_else(|| {
        args.out
            .as_ref()
            .map(|o| PathBuf::from(format!("{}.ckpt", o.display())))
    });
    let meta = db_meta(&game);
    let output = match (&args.out, memory) {
        (Some(path), false) => count::Output::File {
            path: path.clone(),
            meta: meta.clone(),
        },
        (Some(path), true) => count::Output::Both {
            path: path.clone(),
            meta: meta.clone(),
        },
        (None, _) => count::Output::Memory,
    };
    let bar = CountProgress::new(args.progress, format!("{rows}x{cols}"));
    let connected = Arc::new(std::sync::atomic::AtomicBool::new(false));
    if args.processes > 1 {
        watch_connection(connected.clone(), args.process, args.connect_timeout);
    }
    let on_event = {
        let bar = bar.clone();
        let abort = args.abort_after_round;
        Arc::new(move |e: count::Event| {
            if let count::Event::Started { .. } = e {
                connected.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            if let (Some(r), count::Event::Checkpoint { .. }) = (abort, &e) {
                if bar.round() >= u64::from(r) {
                    std::process::exit(137);
                }
            }
            bar.event(&e);
        })
    };
    let options = count::Options {
        workers,
        checkpoint_dir,
        checkpoint_every: Duration::from_secs(args.checkpoint_secs),
        game_key: meta.clone(),
        on_event: Some(on_event),
        output,
    };
    let outcome = count::solve(space.clone(), options)?;
    bar.finish();
    if let Some(g) = outcome.resumed {
        eprintln!("resumed from checkpoints (generation {g})");
    }
    if args.process != 0 {
        eprintln!("process {} done", args.process);
        return Ok(());
    }
    let db_file = match (&outcome.values, &args.out) {
        (None, Some(out)) => Some(db::Database::open(out)?),
        _ => None,
    };
    let lookup = |s: u64| match (&outcome.values, &db_file) {
        (Some(v), _) => v[s as usize],
        (None, Some(d)) => d.get(s).expect("state below len"),
        (None, None) => unreachable!("values are in memory or in the file"),
    };
    if args.verify {
        let values: Vec<Bounds> = (0..game.num_states()).map(lookup).collect();
        verify(&game, &values)?;
    }
    if args.ko == KoArg::PositionalSuperko {
        let tie =
            |b: &Board, pass: bool| game.state_of(b, pass).ok().map(|s| lookup(s).tie_value());
        return report_superko(args, &game, &tie, started);
    }
    let root = lookup(game.start());
    let cycles = stonelab_retro::Cycles::from(args.cycles);
    let root = root.under(cycles);
    let (best, pv) = best_and_pv(&game, &|s| lookup(s).under(cycles))?;
    let seconds = started.elapsed().as_secs_f64();
    let solved = Solved {
        game: &game,
        edges: outcome.moves,
        rounds: outcome.rounds as u32,
        root,
        best,
        pv,
        seconds,
    };
    print_report(
        args,
        &solved,
        Some(Extra {
            solver: "counting",
            estimated_bytes: need,
            traffic: Some(outcome.traffic),
            peak_rss: peak_rss(),
        }),
    )
}

/// The rules of a value under positional superko, as JSON fields.
pub fn superko_rules_json(komi: f64) -> serde_json::Value {
    let mut rules = gogame::rules_json(komi);
    rules["ko"] = serde_json::json!("positional-superko");
    rules["pass_clears_ko"] = serde_json::Value::Null;
    rules["cycles"] = serde_json::json!("none: no board may recur, every game ends");
    rules
}

/// `go solve --ko positional-superko`: the empty board's exact value under positional superko,
/// by [`superko::solve_empty`] with the simple-ko tie values (`tie`) as its move order.
fn report_superko(
    args: &Args,
    game: &GoGame,
    tie: stonelab_retro::superko::Hint<'_>,
    started: Instant,
) -> anyhow::Result<()> {
    use stonelab_retro::superko;
    let g = *game.geometry();
    let board = format!("{}x{}", g.rows(), g.cols());
    let searched = Instant::now();
    let spinner = crate::common::Spinner::new(format!("{board}: positional-superko search"));
    let depths = args
        .superko_depths
        .as_ref()
        .map(|d| (d[0].max(1), d[1].max(1)));
    let result = superko::solve_empty_with(g, Some(tie), Some(args.node_limit), depths);
    spinner.finish();
    let (value, best, stats) = result.map_err(|e| {
        anyhow::anyhow!("{board}: {e}; raise --node-limit (the value stays unknown)")
    })?;
    let best = best.map(|m| format_move(m, &g)).unwrap_or_default();
    let search_seconds = searched.elapsed().as_secs_f64();
    let seconds = started.elapsed().as_secs_f64();
    let rules_text = format!("{}, komi {}", superko::RULES_TEXT, args.komi);
    match args.format {
        Format::Json => {
            crate::common::print_json(&serde_json::json!({
                "board": board,
                "rules": superko_rules_json(args.komi),
                "positions": game.positions(),
                "states": game.num_states(),
                "value": {
                    "lo": gogame::bound_json(value, args.komi),
                    "hi": gogame::bound_json(value, args.komi),
                },
                "exact": true,
                "best": [best],
                "nodes": stats.nodes,
                "table_hits": stats.table_hits,
                "table_entries": stats.entries,
                "tests": stats.tests,
                "search_seconds": search_seconds,
                "seconds": seconds,
                "peak_rss_bytes": peak_rss(),
            }))?;
        }
        Format::Text => {
            println!("board {board}");
            println!("rules {rules_text}");
            println!("positions {}", game.positions());
            println!("states {}", game.num_states());
            println!(
                "value {}",
                gogame::format_bounds(Bounds::end(value), args.komi)
            );
            println!("best {best}");
            println!(
                "nodes {} (table hits {}, entries {}, tests {})",
                stats.nodes, stats.table_hits, stats.entries, stats.tests
            );
            println!("search_seconds {search_seconds:.3}");
            println!("seconds {seconds:.3}");
            if let Some(b) = peak_rss() {
                println!("peak_rss {:.0} MiB", b as f64 / f64::from(1u32 << 20));
            }
        }
    }
    Ok(())
}

/// What the counting solver adds to the report (JSON only: the text lines stay as they were).
struct Extra {
    solver: &'static str,
    estimated_bytes: u64,
    peak_rss: Option<u64>,
    /// The counting solver's predecessor notices.
    traffic: Option<count::Traffic>,
}

/// The counting solver's progress: a bar on a terminal (states decided of all, with an ETA), and
/// with `--progress` elsewhere a line every 10 seconds.
#[derive(Clone)]
struct CountProgress {
    bar: Option<indicatif::ProgressBar>,
    lines: bool,
    inner: Arc<std::sync::Mutex<ProgressState>>,
}

struct ProgressState {
    started: Instant,
    last_line: Instant,
    round: u64,
    /// When the propagation started (after the degrees), for the ETA.
    propagation: Option<(Instant, f64)>,
}

impl CountProgress {
    fn new(force: bool, board: String) -> CountProgress {
        use std::io::IsTerminal;
        let terminal = std::io::stderr().is_terminal();
        let bar = terminal.then(|| {
            let bar = indicatif::ProgressBar::new(1000);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{prefix} [{bar:30}] {percent:>3}% {msg} (ETA {eta})",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            bar.set_prefix(format!("solving {board}"));
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        let now = Instant::now();
        CountProgress {
            bar,
            lines: force && !terminal,
            inner: Arc::new(std::sync::Mutex::new(ProgressState {
                started: now,
                last_line: now - Duration::from_secs(60),
                round: 0,
                propagation: None,
            })),
        }
    }

    fn round(&self) -> u64 {
        self.inner.lock().map(|s| s.round).unwrap_or(0)
    }

    fn event(&self, e: &count::Event) {
        let Ok(mut st) = self.inner.lock() else {
            return;
        };
        let (message, fraction) = match *e {
            count::Event::Started { .. } => return,
            count::Event::Degrees { done, owned, .. } => (
                format!("counting moves: {done} of {owned} states (worker 0)"),
                None,
            ),
            count::Event::Round {
                stage,
                threshold,
                round,
                frontier,
                decided,
                states,
                ..
            } => {
                st.round = round;
                let fraction = decided as f64 / (2 * states).max(1) as f64;
                if st.propagation.is_none() {
                    st.propagation = Some((Instant::now(), fraction));
                }
                let bound = if stage == count::Stage::Lo {
                    "lo"
                } else {
                    "hi"
                };
                (
                    format!(
                        "round {round}: {bound} >= {threshold:+}, {frontier} states changed, \
                         {:.1}% decided",
                        100.0 * fraction
                    ),
                    Some(fraction),
                )
            }
            count::Event::Checkpoint {
                generation,
                seconds,
            } => (
                format!("checkpoint {generation} written ({seconds:.1} s)"),
                None,
            ),
        };
        if let Some(bar) = &self.bar {
            if let Some(f) = fraction {
                bar.set_position((f * 1000.0) as u64);
            }
            bar.set_message(message.clone());
        }
        if self.lines && (st.last_line.elapsed() >= Duration::from_secs(10) || fraction.is_none()) {
            st.last_line = Instant::now();
            // Work is about proportional to the states decided (each generates its
            // predecessors once), so the rate since the propagation began gives the ETA.
            let eta = match (fraction, st.propagation) {
                (Some(f), Some((t0, f0))) if f > f0 => {
                    Some(t0.elapsed().as_secs_f64() / (f - f0) * (1.0 - f))
                }
                _ => None,
            };
            let eta = eta.map_or(String::new(), |s| format!(", ETA {:.0} s", s));
            eprintln!(
                "[{:.0} s] {message}{eta}",
                st.started.elapsed().as_secs_f64()
            );
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The worker layout the arguments ask for: threads here, or one process of a cluster whose
/// addresses come from the hostfile (default: localhost ports from 2101).
fn workers_of(args: &Args) -> anyhow::Result<Workers> {
    if args.processes == 1 {
        return Ok(Workers::Threads(args.workers));
    }
    let addresses = match &args.hostfile {
        Some(path) => read_hostfile(path, args.processes)?,
        None => (0..args.processes)
            .map(|i| format!("localhost:{}", 2101 + i))
            .collect(),
    };
    Ok(Workers::Cluster {
        threads: args.workers,
        process: args.process,
        addresses,
    })
}

/// The `host:port` lines of a hostfile, which must list one per process.
fn read_hostfile(path: &Path, processes: usize) -> anyhow::Result<Vec<String>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read hostfile {}", path.display()))?;
    let hosts: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    if hosts.len() != processes {
        bail!(
            "hostfile {} lists {} hosts for {} processes",
            path.display(),
            hosts.len(),
            processes
        );
    }
    Ok(hosts)
}

/// Shows the solver's progress on the spinner; with `abort_after`, exits with status 137 right
/// after a checkpoint of that round or later (as if killed there).
fn progress_events(
    progress: crate::common::Spinner,
    abort_after: Option<u32>,
    connected: Arc<std::sync::atomic::AtomicBool>,
) -> Arc<dyn Fn(Event) + Send + Sync> {
    Arc::new(move |e: Event| match e {
        Event::Started { .. } => connected.store(true, std::sync::atomic::Ordering::Relaxed),
        Event::Checkpoint { round, .. } if abort_after.is_some_and(|r| round >= r) => {
            std::process::exit(137)
        }
        Event::EdgesBuilt {
            states,
            edges,
            seconds,
        } => progress.set(format!("{states} states, {edges} edges ({seconds:.1} s)")),
        Event::Round { round, changed, .. } => {
            progress.set(format!("round {round}: {changed} states changed"))
        }
        Event::Checkpoint { .. } => {}
    })
}

/// Checks the dataflow's values against the value sweeps of [`sweep::solve`].
fn verify(game: &GoGame, values: &[Bounds]) -> anyhow::Result<()> {
    let (swept, _) = sweep::solve(game);
    if let Some(s) = (0..values.len()).find(|&s| swept[s] != values[s]) {
        bail!(
            "verification failed at state {s}: dataflow {} vs sweeps {}",
            values[s],
            swept[s]
        );
    }
    Ok(())
}

/// What a finished solve reports.
struct Solved<'a> {
    game: &'a GoGame,
    edges: u64,
    rounds: u32,
    root: Bounds,
    best: Vec<String>,
    pv: Variation,
    seconds: f64,
}

/// The counting solver's messages: predecessor notices of 8 bytes (a state number) between workers
/// (`sent`; between processes where the workers are in different ones) and within them (`kept`),
/// the most bytes sent in one round, and the gather of the table to worker 0 (4 bytes a state).
fn traffic_json(t: &count::Traffic, states: u64) -> serde_json::Value {
    serde_json::json!({
        "notices_sent": t.sent,
        "notices_kept": t.kept,
        "bytes_sent": 8 * t.sent,
        "max_round_bytes_sent": 8 * t.max_round_sent,
        "rounds": t.rounds,
        "frontier_by_worker": t.frontier_by_worker,
        "slowest_frontier": t.slowest_frontier,
        "gather_bytes": 4 * states,
    })
}

fn print_report(args: &Args, solved: &Solved, extra: Option<Extra>) -> anyhow::Result<()> {
    let Solved {
        game,
        edges,
        rounds,
        root,
        best,
        pv,
        seconds,
    } = solved;
    let g = game.geometry();
    let board = format!("{}x{}", g.rows(), g.cols());
    match args.format {
        Format::Json => crate::common::print_json(&{
            let mut j = serde_json::json!({
            "board": board,
            "rules": gogame::rules_json_under(args.komi, args.cycles.into()),
            "positions": game.positions(),
            "states": game.num_states(),
            "edges": edges,
            "rounds": rounds,
            "value": {
                "lo": gogame::bound_json(root.lo, args.komi),
                "hi": gogame::bound_json(root.hi, args.komi),
            },
            "exact": root.is_exact(),
            "best": best,
            "pv": pv.moves,
            // 0-based index in `pv` of the first move of the cycle it ends in, or null.
            "pv_repeats_from": pv.repeats_from,
            "verified": args.verify,
            "seconds": seconds,
            });
            if let Some(x) = &extra {
                j["solver"] = serde_json::json!(x.solver);
                j["estimated_bytes"] = serde_json::json!(x.estimated_bytes);
                j["peak_rss_bytes"] = serde_json::json!(x.peak_rss);
                if let Some(t) = &x.traffic {
                    j["messages"] = traffic_json(t, game.num_states());
                }
            }
            j
        })?,
        Format::Text => {
            println!("board {board}");
            println!(
                "rules {}, komi {}",
                gogame::rules_text(args.cycles.into()),
                args.komi
            );
            println!("positions {}", game.positions());
            println!("states {}", game.num_states());
            println!("edges {edges}");
            println!("rounds {rounds}");
            println!("value {}", gogame::format_bounds(*root, args.komi));
            println!("best {}", best.join(" "));
            println!("pv {}", pv.moves.join(" "));
            if let Some(k) = pv.repeats_from {
                println!(
                    "pv_repeats_from {} (the position after move {k} comes back: the line cycles)",
                    k + 1
                );
            }
            if args.verify {
                println!("verified by value sweeps: every state agrees");
            }
            if let Some(t) = extra.as_ref().and_then(|x| x.traffic.as_ref()) {
                println!(
                    "messages {} notices sent to other workers ({} bytes, at most {} in a round of {}), {} kept",
                    t.sent,
                    8 * t.sent,
                    8 * t.max_round_sent,
                    t.rounds,
                    t.kept
                );
            }
            println!("seconds {seconds:.3}");
        }
    }
    Ok(())
}
