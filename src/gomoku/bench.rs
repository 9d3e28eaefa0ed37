//! `stonelab gomoku bench`: fixed, deterministic positions from plausible 15x15 games; medians over the
//! positions of the time per operation.

use std::hint::black_box;
use std::time::Instant;

use serde::Serialize;
use stonelab_gomoku::games::{bench_positions, nearby_move, Rng};
use stonelab_gomoku::{reference, Board, Color, LineCodes, PatternTable, Point, Rule, SeedTable};

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
    (naive_ns / threats_full_ns). Times are medians over the positions."
)]
pub struct Args {
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Winning rule
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    rule: RuleArg,
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

pub fn run(args: Args) -> anyhow::Result<()> {
    let rule = Rule::from(args.rule);
    let start = Instant::now();
    black_box(SeedTable::get(rule).lookup(0));
    let lut_build_ms = start.elapsed().as_secs_f64() * 1e3;
    let start = Instant::now();
    black_box(PatternTable::get(rule).lookup(0));
    let pattern_build_ms = start.elapsed().as_secs_f64() * 1e3;

    let positions = bench_positions(POSITIONS, rule);
    let (mut make_unmake, mut full, mut incremental, mut tracking, mut naive) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut rng = Rng::new(2024);
    for moves in &positions {
        let mut board = Board::new(15, rule)?;
        let mut color = Color::Black;
        for &p in moves {
            board.make(p, color);
            color = !color;
        }
        let candidates: Vec<Point> = (0..MOVES)
            .filter_map(|_| nearby_move(&board, &mut rng))
            .collect();
        let mut codes: LineCodes = board.codes().clone();
        let codes_ns = per_call(|| {
            for &p in &candidates {
                codes.make(black_box(p), color);
                codes.unmake(black_box(p), color);
            }
            black_box(&codes);
        }) / candidates.len() as f64;
        let board_ns = per_call(|| {
            for &p in &candidates {
                board.make(black_box(p), color);
                board.unmake(black_box(p));
            }
            black_box(board.threats());
        }) / candidates.len() as f64;
        let mut tracked = board.clone();
        tracked.track_patterns();
        let tracked_ns = per_call(|| {
            for &p in &candidates {
                tracked.make(black_box(p), color);
                tracked.unmake(black_box(p));
            }
            black_box(tracked.threats());
        }) / candidates.len() as f64;
        tracking.push(((tracked_ns - board_ns) / 2.0).max(0.0));
        make_unmake.push(codes_ns);
        incremental.push(((board_ns - codes_ns) / 2.0).max(0.0));
        full.push(per_call(|| {
            black_box(black_box(&board).threats_full());
        }));
        let grid = board.to_grid();
        let start = Instant::now();
        black_box(reference::threats(black_box(&grid), rule));
        naive.push(start.elapsed().as_nanos() as f64);
    }
    let threats_full_ns = median(full);
    let naive_ns = median(naive);
    let figures = Figures {
        rule: rule.name(),
        positions: positions.len(),
        lut_build_ms,
        pattern_build_ms,
        make_unmake_ns: median(make_unmake),
        threats_full_ns,
        threats_incremental_ns: median(incremental),
        pattern_tracking_ns: median(tracking),
        naive_ns,
        speedup_vs_naive: naive_ns / threats_full_ns,
    };
    match args.format {
        Format::Json => print_json(&figures)?,
        Format::Text => {
            let f = &figures;
            println!("rule {}", f.rule);
            println!("positions {}", f.positions);
            for (name, v) in [
                ("lut_build_ms", f.lut_build_ms),
                ("pattern_build_ms", f.pattern_build_ms),
                ("make_unmake_ns", f.make_unmake_ns),
                ("threats_full_ns", f.threats_full_ns),
                ("threats_incremental_ns", f.threats_incremental_ns),
                ("pattern_tracking_ns", f.pattern_tracking_ns),
                ("naive_ns", f.naive_ns),
                ("speedup_vs_naive", f.speedup_vs_naive),
            ] {
                println!("{name} {v:.1}");
            }
        }
    }
    Ok(())
}
