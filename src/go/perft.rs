//! `stonelab go perft`: counts move sequences (no passes) from the empty board.

use std::time::Instant;

use stonelab_go::vertex::{format_size, parse_size};
use stonelab_go::{perft, Board, Geometry, Rules};

use crate::common::Format;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size as ROWSxCOLS, e.g. 9x9 (1x1 up to 19x19)
    #[arg(long)]
    pub size: String,
    /// Number of plies
    #[arg(long)]
    pub depth: u32,
    /// Allow suicide (a multi-stone suicide removes the group)
    #[arg(long)]
    pub suicide: bool,
    /// Disable the simple-ko rule
    #[arg(long)]
    pub no_ko: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Slow reference: play every move of the last ply instead of counting legal moves in bulk
    #[arg(long)]
    pub naive: bool,
    /// Show a progress bar (root moves done) on stderr even when it is not a terminal (on a
    /// terminal, long runs show one anyway)
    #[arg(long)]
    pub progress: bool,
}

/// The JSON report, fields in the documented order.
#[derive(serde::Serialize)]
struct Report {
    size: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let geometry = parse_size(&args.size)?;
    let rules = Rules {
        suicide: args.suicide,
        simple_ko: !args.no_ko,
    };
    let board = Board::new(geometry, rules);
    let start = Instant::now();
    // Every ply but the last is played (the last is counted in bulk): seconds from about 1e7
    // positions before the last ply.
    let points = (geometry.rows() * geometry.cols()) as f64;
    let long = points.powi(args.depth.saturating_sub(1).min(64) as i32) >= 1e7;
    let bar = crate::common::progress_bar("root moves", long, args.progress);
    let progress = |done: usize, total: usize| super::count::advance(bar.as_ref(), done, total);
    let nodes = perft::perft_parallel_with_progress(&board, args.depth, args.naive, &progress);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let seconds = start.elapsed().as_secs_f64();
    match args.format {
        Format::Text => outln!("{nodes}")?,
        Format::Json => crate::common::print_json(&Report {
            size: format_size(&geometry),
            depth: args.depth,
            nodes,
            seconds,
        })?,
    }
    Ok(())
}

/// Figures for `stonelab go bench`: `perft_nodes_per_s` (9x9, depth 4, all cores) and
/// `play_undo_ns` (one play plus one undo, averaged over fixed random games on 9x9).
pub fn bench_figures() -> anyhow::Result<Vec<(String, serde_json::Value)>> {
    let g = Geometry::new(9, 9)?;
    let board = Board::new(g, Rules::default());
    let start = Instant::now();
    let nodes = perft::perft_parallel(&board, 4);
    let perft_rate = nodes as f64 / start.elapsed().as_secs_f64();

    // Fixed move sequences: 64 games of up to 120 moves.
    let games = perft::sample_games(g, Rules::default(), 64, 120, 0x2545_f491_4f6c_dd1d);
    let mut b = Board::new(g, Rules::default());
    let mut ops = 0u64;
    let start = Instant::now();
    for _ in 0..20 {
        for moves in &games {
            for &mv in moves {
                b.play_unchecked(mv);
            }
            for _ in moves {
                b.undo()?;
            }
            ops += moves.len() as u64;
        }
    }
    let play_undo_ns = start.elapsed().as_nanos() as f64 / ops as f64;
    Ok(vec![
        (
            "perft_nodes_per_s".to_string(),
            serde_json::json!(perft_rate.round() as u64),
        ),
        (
            "play_undo_ns".to_string(),
            serde_json::json!((play_undo_ns * 10.0).round() / 10.0),
        ),
    ])
}
