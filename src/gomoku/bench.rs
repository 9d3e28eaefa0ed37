//! `stonelab gomoku bench`: fixed, deterministic positions from plausible 15x15 games; medians over the
//! positions of the time per operation.

use std::hint::black_box;
use std::time::Instant;

use serde::Serialize;
use stonelab_gomoku::games::{bench_positions, nearby_move, Rng};
use stonelab_gomoku::search::suite::parse_suite;
use stonelab_gomoku::search::{self, Limits, Mode};
use stonelab_gomoku::{
    renju, tables::reference, Bitboard, Board, Color, LineCodes, PatternTable, Point, Rule,
    ThreatMaskTable,
};

use super::RuleArg;
use crate::common::{print_json, Format};

const POSITIONS: usize = 1000;
const REPEAT: u32 = 64;
const MOVES: usize = 8;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Figures: lut_build_ms (first use of the seed table: a full build in this process),\n\
    pattern_build_ms (the per-cell pattern table), make_unmake_ns (one make and one unmake of the line\n\
    codes), threats_full_ns (every line looked up: the seed's loop), threats_incremental_ns (bringing the\n\
    threat set up to date after one make), pattern_tracking_ns (the same for the per-colour class sets,\n\
    when tracked), naive_ns (the reference scanner), speedup_vs_naive\n\
    (naive_ns / threats_full_ns), renju_fouls_ns (Black's forbidden points of the whole board under\n\
    renju, crates/gomoku/src/renju.rs), renju_fouls_reference_ns (the cell-walking reference on every\n\
    empty point, first 100 positions; the two must agree), renju_table_bytes (the renju window table).\n\
    Times are medians over the positions.\n\n\
    Threat-space search over the committed suite (tests/data/gomoku/tss_suite.txt, both rules, whatever\n\
    --rule says): tss_suite_ms (total time, median of 3 runs), tss_max_ms (slowest position),\n\
    tss_nodes_per_s, and alphabeta_suite_ms for a plain alpha-beta over four and three moves (no\n\
    cost-square filter, no table, fixed depth: the depth of the solver's win, else the solver's default;\n\
    at most 200,000 nodes a position, alphabeta_capped counts those stopped), alphabeta_ratio\n\
    (alphabeta_suite_ms / tss_suite_ms).\n\n\
    Engine: nodes_per_s (the pbrain engine's search, threat-space nodes included, 100,000 nodes on\n\
    each of engine_positions fixed positions), signature (their total node count) and decisions (a\n\
    hash of each position's move, score and depth: a change to the search that keeps the node count,\n\
    as searches that run to the budget do, still changes it); timed_nodes_per_s_1_thread and\n\
    timed_nodes_per_s_threads (250 ms a position, one thread and --threads threads: Lazy SMP, every\n\
    thread's nodes counted)."
)]
pub struct Args {
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Winning rule
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    rule: RuleArg,
    /// Threads of the timed engine figure (default: the machine's cores)
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

#[derive(Serialize)]
struct Figures {
    rule: &'static str,
    positions: usize,
    lut_build_ms: f64,
    pattern_build_ms: f64,
    make_unmake_ns: f64,
    threats_full_ns: f64,
    threats_incremental_ns: f64,
    pattern_tracking_ns: f64,
    naive_ns: f64,
    speedup_vs_naive: f64,
    renju_fouls_ns: f64,
    renju_fouls_reference_ns: f64,
    renju_table_bytes: usize,
    tss_positions: usize,
    tss_suite_ms: f64,
    tss_max_ms: f64,
    tss_nodes_per_s: f64,
    alphabeta_suite_ms: f64,
    alphabeta_nodes: u64,
    alphabeta_capped: usize,
    alphabeta_ratio: f64,
    engine_positions: usize,
    nodes_per_s: f64,
    signature: u64,
    decisions: u64,
    threads: usize,
    timed_nodes_per_s_1_thread: f64,
    timed_nodes_per_s_threads: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Nanoseconds per call of `f`, over `REPEAT` calls after one untimed call (so the position's table
/// entries are in cache, as in a search that keeps working on one board).
fn per_call(mut f: impl FnMut()) -> f64 {
    f();
    let start = Instant::now();
    for _ in 0..REPEAT {
        f();
    }
    start.elapsed().as_nanos() as f64 / f64::from(REPEAT)
}

/// Milliseconds `f` takes: the first use of a table is its build in this process.
fn first_use_ms(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64() * 1e3
}

/// Nanoseconds per make and unmake of one of `candidates` on `board`, with its threat points brought
/// up to date after the last.
fn board_make_unmake_ns(board: &mut Board, candidates: &[Point], color: Color) -> f64 {
    per_call(|| {
        for &p in candidates {
            board.make(black_box(p), color);
            board.unmake(black_box(p));
        }
        black_box(board.threat_points());
    }) / candidates.len() as f64
}

/// The per-position times (ns) behind the line-code figures, one entry per position.
#[derive(Default)]
struct PositionTimes {
    make_unmake: Vec<f64>,
    full: Vec<f64>,
    incremental: Vec<f64>,
    tracking: Vec<f64>,
    naive: Vec<f64>,
    fouls: Vec<f64>,
    fouls_reference: Vec<f64>,
}

/// Positions whose forbidden points the cell-walking reference also finds (it is slow).
const REFERENCE_FOUL_POSITIONS: usize = 100;

impl PositionTimes {
    /// Times the operations on `board` (a bench position, `color` to move) with `MOVES` candidate
    /// moves near its stones, drawn from `rng`.
    fn add(
        &mut self,
        mut board: Board,
        color: Color,
        rule: Rule,
        rng: &mut Rng,
    ) -> anyhow::Result<()> {
        let candidates: Vec<Point> = (0..MOVES)
            .filter_map(|_| nearby_move(&board, rng))
            .collect();
        let mut codes: LineCodes = board.codes().clone();
        let codes_ns = per_call(|| {
            for &p in &candidates {
                codes.make(black_box(p), color);
                codes.unmake(black_box(p), color);
            }
            black_box(&codes);
        }) / candidates.len() as f64;
        let board_ns = board_make_unmake_ns(&mut board, &candidates, color);
        let mut tracked = board.clone();
        tracked.track_patterns();
        let tracked_ns = board_make_unmake_ns(&mut tracked, &candidates, color);
        self.tracking.push(((tracked_ns - board_ns) / 2.0).max(0.0));
        self.make_unmake.push(codes_ns);
        self.incremental
            .push(((board_ns - codes_ns) / 2.0).max(0.0));
        self.full.push(per_call(|| {
            black_box(black_box(&board).threat_points_full());
        }));
        let grid = board.to_grid();
        let start = Instant::now();
        black_box(reference::threats(black_box(&grid), rule));
        self.naive.push(start.elapsed().as_nanos() as f64);
        let fast = renju::fouls(&board);
        self.fouls.push(per_call(|| {
            black_box(renju::fouls(black_box(&board)));
        }));
        if self.fouls_reference.len() < REFERENCE_FOUL_POSITIONS {
            let start = Instant::now();
            let slow: Vec<(Point, renju::Foul)> = grid
                .points()
                .filter(|&p| grid.get(p).is_none())
                .filter_map(|p| renju::reference::foul(&grid, p).map(|f| (p, f)))
                .collect();
            self.fouls_reference.push(start.elapsed().as_nanos() as f64);
            if fast != slow {
                anyhow::bail!(
                    "renju forbidden points differ from the reference on bench position {}",
                    self.fouls_reference.len()
                );
            }
        }
        Ok(())
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let rule = Rule::from(args.rule);
    let lut_build_ms = first_use_ms(|| {
        black_box(ThreatMaskTable::get(rule).lookup(0));
    });
    let pattern_build_ms = first_use_ms(|| {
        black_box(PatternTable::get(rule).lookup(0));
    });

    let positions = bench_positions(POSITIONS, rule);
    let mut times = PositionTimes::default();
    let mut rng = Rng::new(2024);
    for moves in &positions {
        let mut board = Board::new(15, rule)?;
        let mut color = Color::Black;
        for &p in moves {
            board.make(p, color);
            color = !color;
        }
        times.add(board, color, rule, &mut rng)?;
    }
    let suite = suite_figures();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let threads = args.threads.unwrap_or(cores).clamp(1, 256);
    let engine = super::bench_engine::engine_figures(rule, threads);
    let threats_full_ns = median(times.full);
    let naive_ns = median(times.naive);
    let figures = Figures {
        rule: rule.name(),
        positions: positions.len(),
        lut_build_ms,
        pattern_build_ms,
        make_unmake_ns: median(times.make_unmake),
        threats_full_ns,
        threats_incremental_ns: median(times.incremental),
        pattern_tracking_ns: median(times.tracking),
        naive_ns,
        speedup_vs_naive: naive_ns / threats_full_ns,
        renju_fouls_ns: median(times.fouls),
        renju_fouls_reference_ns: median(times.fouls_reference),
        renju_table_bytes: renju::ShapeTable::get().bytes(),
        tss_positions: suite.positions,
        tss_suite_ms: suite.tss_ms,
        tss_max_ms: suite.tss_max_ms,
        tss_nodes_per_s: suite.tss_nodes as f64 / (suite.tss_ms / 1e3),
        alphabeta_suite_ms: suite.ab_ms,
        alphabeta_nodes: suite.ab_nodes,
        alphabeta_capped: suite.ab_capped,
        alphabeta_ratio: suite.ab_ms / suite.tss_ms,
        engine_positions: engine.positions,
        nodes_per_s: engine.nodes_per_s,
        signature: engine.signature,
        decisions: engine.decisions,
        threads: engine.threads,
        timed_nodes_per_s_1_thread: engine.timed_nodes_per_s_1,
        timed_nodes_per_s_threads: engine.timed_nodes_per_s_n,
    };
    match args.format {
        Format::Json => print_json(&figures)?,
        Format::Text => print_text(&figures)?,
    }
    Ok(())
}

/// The figures one a line, `name value`, times with one decimal.
fn print_text(f: &Figures) -> Result<(), crate::common::OutputError> {
    outln!("rule {}", f.rule)?;
    outln!("positions {}", f.positions)?;
    for (name, v) in [
        ("lut_build_ms", f.lut_build_ms),
        ("pattern_build_ms", f.pattern_build_ms),
        ("make_unmake_ns", f.make_unmake_ns),
        ("threats_full_ns", f.threats_full_ns),
        ("threats_incremental_ns", f.threats_incremental_ns),
        ("pattern_tracking_ns", f.pattern_tracking_ns),
        ("naive_ns", f.naive_ns),
        ("speedup_vs_naive", f.speedup_vs_naive),
        ("renju_fouls_ns", f.renju_fouls_ns),
        ("renju_fouls_reference_ns", f.renju_fouls_reference_ns),
        ("renju_table_bytes", f.renju_table_bytes as f64),
        ("tss_positions", f.tss_positions as f64),
        ("tss_suite_ms", f.tss_suite_ms),
        ("tss_max_ms", f.tss_max_ms),
        ("tss_nodes_per_s", f.tss_nodes_per_s),
        ("alphabeta_suite_ms", f.alphabeta_suite_ms),
        ("alphabeta_nodes", f.alphabeta_nodes as f64),
        ("alphabeta_capped", f.alphabeta_capped as f64),
        ("alphabeta_ratio", f.alphabeta_ratio),
        ("engine_positions", f.engine_positions as f64),
        ("nodes_per_s", f.nodes_per_s),
    ] {
        outln!("{name} {v:.1}")?;
    }
    outln!("signature {}", f.signature)?;
    outln!("decisions {}", f.decisions)?;
    outln!("threads {}", f.threads)?;
    outln!(
        "timed_nodes_per_s_1_thread {:.1}",
        f.timed_nodes_per_s_1_thread
    )?;
    outln!(
        "timed_nodes_per_s_threads {:.1}",
        f.timed_nodes_per_s_threads
    )
}

const SUITE: &str = include_str!("../../tests/data/gomoku/tss_suite.txt");
const AB_CAP: u64 = 200_000;

struct SuiteFigures {
    positions: usize,
    tss_ms: f64,
    tss_max_ms: f64,
    tss_nodes: u64,
    ab_ms: f64,
    ab_nodes: u64,
    ab_capped: usize,
}

/// The suite's positions: mode, rule, board, side to move.
fn suite_positions() -> Vec<(Mode, Rule, Board, Color)> {
    parse_suite(SUITE)
        .into_iter()
        .map(|e| (e.mode, e.rule, Board::from_grid(&e.grid, e.rule), e.to_move))
        .collect()
}

fn suite_figures() -> SuiteFigures {
    let positions = suite_positions();
    let mut totals = Vec::new();
    let (mut tss_max_ms, mut tss_nodes, mut depths) = (0.0f64, 0, Vec::new());
    for run in 0..3 {
        let mut total = 0.0;
        for (mode, _, board, c) in &positions {
            let start = Instant::now();
            let out = search::solve(board, *c, *mode, &Limits::for_mode(*mode));
            let ms = start.elapsed().as_secs_f64() * 1e3;
            total += ms;
            tss_max_ms = tss_max_ms.max(ms);
            if run == 0 {
                tss_nodes += out.nodes;
                let line = out.proof.map_or(0, |p| p.line().len() as u32);
                depths.push(if line > 0 {
                    line.div_ceil(2)
                } else {
                    Limits::for_mode(*mode).depth
                });
            }
        }
        totals.push(total);
    }
    let tss_ms = median(totals);
    let (mut ab_nodes, mut ab_capped) = (0, 0);
    let start = Instant::now();
    for ((mode, _, board, c), &depth) in positions.iter().zip(&depths) {
        let mut b = board.clone();
        b.track_patterns();
        let mut nodes = 0;
        black_box(ab_attack(&mut b, *c, *mode, depth, &mut nodes));
        ab_nodes += nodes;
        if nodes >= AB_CAP {
            ab_capped += 1;
        }
    }
    let ab_ms = start.elapsed().as_secs_f64() * 1e3;
    SuiteFigures {
        positions: positions.len(),
        tss_ms,
        tss_max_ms,
        tss_nodes,
        ab_ms,
        ab_nodes,
        ab_capped,
    }
}

/// Plain alpha-beta (win/loss values, so a cut-off is the first win): the attacker plays a five, a
/// forced block, or any four (and three in VCT); the defender any block of a five point, any square
/// within reach of a win move of the attacker, and any four or three of its own.
fn ab_attack(b: &mut Board, a: Color, mode: Mode, depth: u32, nodes: &mut u64) -> bool {
    *nodes += 1;
    if !search::five_points(b, a).is_empty() {
        return true;
    }
    if depth <= 1 || *nodes >= AB_CAP {
        return false;
    }
    let theirs = search::five_points(b, !a);
    let moves = if theirs.is_empty() {
        let mut m = search::four_moves(b, a);
        if mode == Mode::Vct {
            m |= search::three_moves(b, a);
        }
        m
    } else {
        theirs
    };
    for m in moves.iter() {
        b.make(m, a);
        let won = ab_defend(b, a, mode, depth - 1, nodes);
        b.unmake(m);
        if won {
            return true;
        }
    }
    false
}

fn ab_defend(b: &mut Board, a: Color, mode: Mode, depth: u32, nodes: &mut u64) -> bool {
    *nodes += 1;
    let d = !a;
    if !search::five_points(b, d).is_empty() || *nodes >= AB_CAP {
        return false;
    }
    let fives = search::five_points(b, a);
    let mut moves = search::four_moves(b, d);
    if !fives.is_empty() {
        moves |= fives;
    } else {
        let wins = search::win_moves(b, a);
        if wins.is_empty() {
            return false;
        }
        moves |= search::three_moves(b, d);
        for w in wins.iter() {
            moves |= search::influence(b, w);
        }
    }
    let moves: Bitboard = moves;
    for x in moves.iter() {
        b.make(x, d);
        let won = ab_attack(b, a, mode, depth, nodes);
        b.unmake(x);
        if !won {
            return false;
        }
    }
    true
}
