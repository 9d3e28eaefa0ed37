//! `stonelab go playout-error`: how well the search's playouts judge positions, against a
//! judge's values.
//!
//! The input is the judge cache that `scripts/go-probe probe` keeps beside a position set
//! (`SET.judge.jsonl`: one JSON object a line, `{"key": "SIZE/KOMI/B E5,W C5,...", "value": V}`,
//! V the judge's win rate for the side to move). For each position the command runs the
//! search's playouts ([`stonelab_go::mcts::playout_value`], the value a leaf of the tree starts
//! from; the playout flags are `go gtp`'s) and compares their win rate for the side to move with
//! the judge's: the mean squared error, the correlation, and the slope of the judge's values on
//! ours (below 1: our values spread wider than the judge's; above 1: narrower). Playouts that
//! judge better make the tree's leaves right more often (Silver and Tesauro's simulation
//! balancing minimises this error). Positions run in parallel, each from its own seed: the same
//! flags give the same figures.

use std::collections::HashSet;
use std::io::BufRead as _;

use anyhow::{bail, Context as _};
use rayon::prelude::*;
use stonelab_go::mcts::{self, SearchConfig};
use stonelab_go::vertex::{parse_color, parse_size, parse_vertex};
use stonelab_go::{Board, Move, Rules};

use crate::common::Format;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Positions with the judge's values: a `go-probe` judge cache (SET.judge.jsonl)
    pub judged: std::path::PathBuf,
    /// Playouts per position
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: u64,
    /// Only the first N distinct positions of the file
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Seed of the playouts (position i uses one derived from it and i)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads [default: the cores]
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub playout: crate::go::PlayoutArgs,
    /// Show a progress bar even when stderr is not a terminal
    #[arg(long)]
    pub progress: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// One judged position.
struct Judged {
    /// The moves before the last one (siblings share it).
    parent: String,
    board: Board,
    komi: f64,
    value: f64,
}

/// What the command reports (JSON field names; the text form prints the same).
#[derive(serde::Serialize, Debug, PartialEq)]
pub struct Report {
    pub positions: usize,
    pub playouts: u64,
    /// Mean squared difference between our win rate and the judge's.
    pub mse: f64,
    /// Pearson correlation of ours and the judge's.
    pub correlation: f64,
    /// Least-squares slope of the judge's values on ours.
    pub slope: f64,
    pub mean_ours: f64,
    pub mean_judge: f64,
    /// Pairs of siblings (positions one move apart from the same position) whose judge's
    /// values differ by [`PAIR_MARGIN`] or more.
    pub pairs: usize,
    /// The share of those pairs that our values order as the judge's do: how well the playouts
    /// tell a good move from a worse one in the same position, which is what the tree asks.
    pub pair_agreement: f64,
}

/// The least difference of the judge's values that makes two siblings a pair
/// ([`Report::pairs`]).
pub const PAIR_MARGIN: f64 = 0.05;

/// The position of a cache key `SIZE/KOMI/MOVES` (moves as `B E5,W C5`, empty for none).
fn position(key: &str) -> anyhow::Result<(Board, f64)> {
    let mut parts = key.splitn(3, '/');
    let (Some(size), Some(komi), Some(moves)) = (parts.next(), parts.next(), parts.next()) else {
        bail!("a key must read SIZE/KOMI/MOVES");
    };
    let geometry = if size.contains('x') {
        parse_size(size)?
    } else {
        parse_size(&format!("{size}x{size}"))?
    };
    let komi: f64 = komi
        .parse()
        .ok()
        .filter(|k: &f64| k.is_finite())
        .with_context(|| format!("bad komi {komi:?}"))?;
    let mut board = Board::new(geometry, Rules::default());
    for mv in moves.split(',').filter(|m| !m.trim().is_empty()) {
        let (colour, vertex) = mv
            .trim()
            .split_once(' ')
            .with_context(|| format!("bad move {mv:?} (want e.g. \"B E5\")"))?;
        let colour = parse_color(colour).with_context(|| format!("bad colour in {mv:?}"))?;
        let vertex = parse_vertex(vertex.trim(), &geometry)?;
        board
            .try_play_as(colour, vertex)
            .map_err(|e| anyhow::anyhow!("illegal move {mv:?}: {e}"))?;
    }
    Ok((board, komi))
}

fn read(path: &std::path::Path, limit: Option<usize>) -> anyhow::Result<Vec<Judged>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let at = || format!("{} line {}", path.display(), i + 1);
        let entry: serde_json::Value =
            serde_json::from_str(&line).with_context(|| format!("{}: not JSON", at()))?;
        let (Some(key), Some(value)) = (entry["key"].as_str(), entry["value"].as_f64()) else {
            bail!("{}: want {{\"key\": ..., \"value\": ...}}", at());
        };
        if !(0.0..=1.0).contains(&value) {
            bail!("{}: the value {value} is not a win rate", at());
        }
        if !seen.insert(key.to_string()) {
            continue;
        }
        let (board, komi) = position(key).with_context(at)?;
        let parent = key
            .rsplit_once(',')
            .map_or("", |(head, _)| head)
            .to_string();
        out.push(Judged {
            parent,
            board,
            komi,
            value,
        });
        if limit.is_some_and(|n| out.len() >= n) {
            break;
        }
    }
    if out.is_empty() {
        bail!("{} holds no judged positions", path.display());
    }
    Ok(out)
}

/// The search configuration whose playouts are measured.
fn config(args: &Args, komi: f64, seed: u64, area: usize) -> SearchConfig {
    SearchConfig {
        komi,
        threads: 1,
        shared_tree: false,
        playouts: Some(args.playouts),
        deadline: None,
        seed,
        early_stop: false,
        model: None,
        model_weight: mcts::PRIOR_MODEL,
        playout_remote: None,
        last_good_reply: false,
        two_liberties: args.playout.two_liberties,
        hand_priors: false,
        tree_policy: mcts::TreePolicy::default(),
        second_last_shapes: args.playout.second_last_shapes,
        nakade: args.playout.nakade,
        ko_fights: args.playout.ko_fights,
        local_rate: args.playout.local_rate,
        // The value a leaf starts from: with a margin share, no longer a pure win rate.
        score_weight: args.playout.score_weight(0.0),
        global_capture: args.playout.global_capture,
        sacrifices: args.playout.sacrifices,
        score_scale: args.playout.score_scale(area),
        score_centre: 0.0,
    }
}

/// The figures of `pairs` (ours, the judge's), each position's with its parent (the key less its
/// last move) for the sibling pairs.
#[must_use]
pub fn summarise(pairs: &[(f64, f64)], parents: &[&str], playouts: u64) -> Report {
    let mut by_parent: std::collections::HashMap<&str, Vec<(f64, f64)>> = Default::default();
    for (&parent, &pair) in parents.iter().zip(pairs) {
        by_parent.entry(parent).or_default().push(pair);
    }
    let (mut sibling_pairs, mut agree) = (0usize, 0usize);
    for children in by_parent.values() {
        for (i, a) in children.iter().enumerate() {
            for b in &children[i + 1..] {
                if (a.1 - b.1).abs() >= PAIR_MARGIN {
                    sibling_pairs += 1;
                    agree += usize::from((a.0 - b.0) * (a.1 - b.1) > 0.0);
                }
            }
        }
    }
    let n = pairs.len() as f64;
    let mean = |f: &dyn Fn(&(f64, f64)) -> f64| pairs.iter().map(f).sum::<f64>() / n;
    let (mx, my) = (mean(&|p| p.0), mean(&|p| p.1));
    let cov = mean(&|p| (p.0 - mx) * (p.1 - my));
    let (vx, vy) = (mean(&|p| (p.0 - mx).powi(2)), mean(&|p| (p.1 - my).powi(2)));
    Report {
        positions: pairs.len(),
        playouts,
        mse: mean(&|p| (p.0 - p.1).powi(2)),
        correlation: if vx > 0.0 && vy > 0.0 {
            cov / (vx * vy).sqrt()
        } else {
            0.0
        },
        slope: if vx > 0.0 { cov / vx } else { 0.0 },
        mean_ours: mx,
        mean_judge: my,
        pairs: sibling_pairs,
        pair_agreement: if sibling_pairs > 0 {
            agree as f64 / sibling_pairs as f64
        } else {
            0.0
        },
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(t) = args.threads {
        crate::common::check_threads("--threads", t)?;
    }
    let judged = read(&args.judged, args.limit)?;
    let bar = crate::common::progress_bar("positions", judged.len() > 50, args.progress);
    if let Some(bar) = &bar {
        bar.set_length(judged.len() as u64);
    }
    let work = || -> Vec<(f64, f64)> {
        judged
            .par_iter()
            .enumerate()
            .map(|(i, j)| {
                let seed = args.seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let config = config(&args, j.komi, seed, j.board.geometry().area());
                let passes = u32::from(j.board.moves().last() == Some(Move::Pass));
                let ours = mcts::playout_value(&j.board, passes, &config, args.playouts);
                if let Some(bar) = &bar {
                    bar.inc(1);
                }
                (ours, j.value)
            })
            .collect()
    };
    let pairs = match args.threads {
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .context("cannot start the worker threads")?
            .install(work),
        None => work(),
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let parents: Vec<&str> = judged.iter().map(|j| j.parent.as_str()).collect();
    let report = summarise(&pairs, &parents, args.playouts);
    match args.format {
        Format::Json => println!("{}", serde_json::to_string(&report)?),
        Format::Text => println!(
            "positions {}, {} playouts each: mean squared error {:.4}, correlation {:.4}, slope {:.3}, mean {:.3} (judge {:.3}); sibling pairs {}, ordered as the judge orders them {:.4}",
            report.positions,
            report.playouts,
            report.mse,
            report.correlation,
            report.slope,
            report.mean_ours,
            report.mean_judge,
            report.pairs,
            report.pair_agreement
        ),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playouts_are_judged_by_the_win_alone_by_default() {
        let parse = |words: &[&str]| {
            let line = [&["set.judge.jsonl"], words].concat();
            crate::go::parse_args::<Args>("playout-error", &line).unwrap()
        };
        assert_eq!(config(&parse(&[]), 7.0, 1, 81).score_weight, 0.0);
        let given = parse(&["--score-weight", "0.1"]);
        assert_eq!(config(&given, 7.0, 1, 81).score_weight, 0.1);
    }

    #[test]
    fn figures_of_a_known_sample() {
        // The judge's values are 0.5 + 2 (ours - 0.5): correlation 1, slope 2.
        let pairs = [(0.4, 0.3), (0.5, 0.5), (0.6, 0.7)];
        let r = summarise(&pairs, &["a", "b", "b"], 10);
        assert!((r.correlation - 1.0).abs() < 1e-12);
        assert!((r.slope - 2.0).abs() < 1e-12);
        assert!((r.mse - (0.01 + 0.0 + 0.01) / 3.0).abs() < 1e-12);
        assert!((r.mean_ours - 0.5).abs() < 1e-12 && (r.mean_judge - 0.5).abs() < 1e-12);
        // One sibling pair (the two children of "b"), ordered as the judge orders it.
        assert_eq!((r.pairs, r.pair_agreement), (1, 1.0));
        let r = summarise(&[(0.6, 0.3), (0.4, 0.7), (0.5, 0.72)], &["c"; 3], 10);
        // Pairs (1,2) and (1,3) differ enough: ordered the other way; (2,3) does not count.
        assert_eq!((r.pairs, r.pair_agreement), (2, 0.0));
    }

    #[test]
    fn keys_are_read_as_positions() {
        let (board, komi) = position("9/7.0/B E5,W C5").unwrap();
        assert_eq!(komi, 7.0);
        assert_eq!(board.moves().count(), 2);
        assert_eq!(board.to_move(), stonelab_go::Color::Black);
        let (board, _) = position("5x5/0.5/").unwrap();
        assert_eq!(board.moves().count(), 0);
        assert!(position("9/7.0/B E5,B E5").is_err(), "an occupied point");
        assert!(position("9/seven/B E5").is_err());
        assert!(position("9/7.0").is_err());
    }
}
