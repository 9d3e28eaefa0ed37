//! `stonelab go solve`: solves a small board by retrograde analysis on timely dataflow.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use stonelab_go::vertex::{format_move, parse_size};
use stonelab_go::{Board, Move};
use stonelab_retro::dataflow::{self, Event, Options, Workers};
use stonelab_retro::go::{self as gogame, GoGame};
use stonelab_retro::{db, sweep, Bounds, Edge, GameGraph};

use crate::common::Format;

/// Largest board (in points) the solver accepts: 4x5 needs about 20 GiB of edges in memory.
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
    /// Seconds between checkpoints
    #[arg(long, default_value_t = 60)]
    pub checkpoint_secs: u64,
    /// Also solve by plain value sweeps and check that every state agrees (slow; small boards)
    #[arg(long)]
    pub verify: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Testing aid: end the process abruptly (exit code 137, as after SIGKILL) once a checkpoint of
    /// this round or later is written.
    #[arg(long, hide = true)]
    pub abort_after_round: Option<u32>,
}

/// Builds the game over the board's reduced positions: from a state file, or by enumerating into
/// a temporary one.
pub fn build_game(rows: usize, cols: usize, states: Option<&Path>) -> anyhow::Result<GoGame> {
    if rows * cols > MAX_POINTS {
        bail!(
            "board {rows}x{cols} has {} points; the solver keeps every edge in memory and stops at \
             {MAX_POINTS} points (4x5 needs about 20 GiB; 5x5, about 8 TB: see BENCHMARKS.md)",
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

/// Best moves from the start, and a principal variation (a value-keeping pass if there is one, else
/// the first best move; it stops at
/// the end of the game or after four moves per point, when a cycle keeps it going).
pub fn best_and_pv(
    game: &GoGame,
    value: &dyn Fn(u64) -> Bounds,
) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let g = *game.geometry();
    let mut board = Board::new(g, stonelab_go::Rules::STANDARD);
    let mut pass = false;
    let mut best_first = Vec::new();
    let mut pv = Vec::new();
    for ply in 0..4 * g.area() + 2 {
        let here = value(game.state_of(&board, pass)?);
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
    Ok((best_first, pv))
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
    let workers = workers_of(&args)?;

    let started = Instant::now();
    check_memory(g.rows(), g.cols())?;
    let game = Arc::new(build_game(g.rows(), g.cols(), args.states.as_deref())?);
    let checkpoint_dir = args.checkpoint_dir.clone().or_else(|| {
        args.out
            .as_ref()
            .map(|o| PathBuf::from(format!("{}.ckpt", o.display())))
    });
    let progress = crate::common::Spinner::new(format!("solving {}x{}", g.rows(), g.cols()));
    let on_event = progress_events(progress.clone(), args.abort_after_round);
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
    let (best, pv) = best_and_pv(&game, &lookup)?;
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
    print_report(&args, &solved)
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
) -> Arc<dyn Fn(Event) + Send + Sync> {
    Arc::new(move |e: Event| match e {
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
    pv: Vec<String>,
    seconds: f64,
}

fn print_report(args: &Args, solved: &Solved) -> anyhow::Result<()> {
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
        Format::Json => crate::common::print_json(&serde_json::json!({
            "board": board,
            "rules": gogame::rules_json(args.komi),
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
            "pv": pv,
            "verified": args.verify,
            "seconds": seconds,
        }))?,
        Format::Text => {
            println!("board {board}");
            println!("rules {}, komi {}", gogame::RULES_TEXT, args.komi);
            println!("positions {}", game.positions());
            println!("states {}", game.num_states());
            println!("edges {edges}");
            println!("rounds {rounds}");
            println!("value {}", gogame::format_bounds(*root, args.komi));
            println!("best {}", best.join(" "));
            println!("pv {}", pv.join(" "));
            if args.verify {
                println!("verified by value sweeps: every state agrees");
            }
            println!("seconds {seconds:.3}");
        }
    }
    Ok(())
}
