//! `stonelab gomoku tune-order`: fit the tree's move order to a stronger engine's moves in game
//! records (softmax regression; the method: `stonelab_gomoku::engine::policy`, the data:
//! docs/gomoku-engine.md).

use std::path::PathBuf;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use stonelab_gomoku::engine::cells::{combinations, COMBINATIONS};
use stonelab_gomoku::engine::policy::{self, Fit, MoveSamples, SCORES};
use stonelab_gomoku::engine::{weights, Class};
use stonelab_gomoku::{Color, Point, Rule};

use crate::arena::write_atomically;
use crate::common::Format;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game records (`gomoku match` or `gomoku selfplay` JSON Lines); one board and rule
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// Whose moves to learn: engine `a` or `b` of the records (`gomoku match --a/--b`)
    #[arg(long, value_parser = ["a", "b"])]
    player: String,
    /// Moves of that player left out at the start of every game, besides the opening
    #[arg(long, default_value_t = 0)]
    skip: usize,
    /// Full passes of Adam over the samples
    #[arg(long, default_value_t = 1500)]
    epochs: usize,
    /// Adam's step, in logits
    #[arg(long, default_value_t = 0.05)]
    step: f64,
    /// L2 pull towards the compiled-in scores of the records' rule (renju has its own), in loss
    /// units per squared logit
    #[arg(long, default_value_t = 1e-6)]
    l2: f64,
    /// Percent of the games held out to measure the fit (every k-th game)
    #[arg(long, default_value_t = 10)]
    holdout: u32,
    /// Write the fitted scores here (the format of crates/gomoku/data/order-weights.txt)
    #[arg(long)]
    out: Option<PathBuf>,
    /// Start from (and pull towards) the scores in this order file instead of the compiled-in
    /// ones, e.g. a fit of another rule as the prior for a smaller set of games
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    /// Keep the place scores (relative to the last stones) as they start; fit the cell scores
    /// only
    #[arg(long)]
    cells_only: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Deserialize)]
struct GameLine {
    black: String,
    moves: Vec<[u8; 2]>,
    opening_stones: usize,
}

/// How well a set of scores predicts the moves.
#[derive(Serialize)]
struct Fitness {
    loss: f64,
    top1: f64,
    top3: f64,
}

impl Fitness {
    fn of(samples: &MoveSamples, scores: &[f64]) -> Fitness {
        Fitness {
            loss: samples.loss(scores),
            top1: samples.top(scores, 1),
            top3: samples.top(scores, 3),
        }
    }
}

#[derive(Serialize)]
struct Report {
    games: usize,
    train_samples: usize,
    holdout_samples: usize,
    train_before: Fitness,
    train_after: Fitness,
    holdout_before: Fitness,
    holdout_after: Fitness,
    /// The fitted place scores ([`weights::Order::near`]).
    near: [i32; weights::NEAR_SCORES],
    out: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (mut train, mut held) = (MoveSamples::new(), MoveSamples::new());
    let mut games = 0;
    let mut board: Option<Rule> = None;
    let every = super::tune::holdout_every(args.holdout);
    for path in &args.records {
        let text = super::tune::read_text(path)?;
        let mut lines = text.lines();
        let (head, size, rule) =
            super::tune::record_header(path, lines.next(), &mut board, &Rule::ALL)?;
        if head["record"].as_str() == Some("stonelab gomoku labels") {
            bail!(
                "'{}': labelled positions, not games: no moves to learn",
                path.display()
            );
        }
        for (i, line) in lines.enumerate() {
            let g: GameLine = serde_json::from_str(line)
                .with_context(|| format!("'{}' line {}: not a game", path.display(), i + 2))?;
            let moves: Vec<Point> = g.moves.iter().map(|m| Point::new(m[0], m[1])).collect();
            let player = if g.black == args.player {
                Color::Black
            } else {
                Color::White
            };
            games += 1;
            let into = if games % every == 0 {
                &mut held
            } else {
                &mut train
            };
            // The player's first `skip` moves after the opening: 2 * skip plies.
            let skip = g.opening_stones + 2 * args.skip;
            if let Err(k) = into.add_game(size, rule, &moves, player, skip) {
                bail!(
                    "'{}' line {}: move {} is off the board or on a stone",
                    path.display(),
                    i + 2,
                    k + 1
                );
            }
        }
    }
    if train.is_empty() {
        bail!("no moves to fit in the records");
    }
    let rule = board.unwrap_or(Rule::Freestyle);
    let start = match &args.start {
        None => policy::current_scores_for(rule),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read '{}'", path.display()))?;
            let order = weights::parse_order(&text)
                .map_err(|e| anyhow::anyhow!("'{}': {e}", path.display()))?;
            policy::scores_of(&order)
        }
    };
    // Cells where a stone makes a five are played before any ordering: never in the samples.
    let frozen: Vec<bool> = (0..SCORES)
        .map(|k| {
            if k >= policy::CELL_SCORES {
                args.cells_only
            } else {
                combinations()[k % COMBINATIONS][0] == Class::Five
            }
        })
        .collect();
    let fit = Fit {
        l2: args.l2,
        epochs: args.epochs,
        step: args.step,
    };
    let fitted = policy::fit(&train, &start, &frozen, fit);
    // The file keeps hundredths of a logit: judge what the engine will read.
    let order = policy::order_of_scores(&fitted);
    let rounded = policy::scores_of(&order);
    let report = Report {
        games,
        train_samples: train.len(),
        holdout_samples: held.len(),
        train_before: Fitness::of(&train, &start),
        train_after: Fitness::of(&train, &rounded),
        holdout_before: Fitness::of(&held, &start),
        holdout_after: Fitness::of(&held, &rounded),
        near: order.near,
        out: args.out.as_ref().map(|p| p.display().to_string()),
    };
    if let Some(out) = &args.out {
        let names: Vec<String> = args
            .records
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let header = vec![
            "Move-order scores of stonelab's Gomoku engine, one line per combination of a cell's four".into(),
            "direction classes (strongest first): the score of a move there from the mover's own lines".into(),
            "(attack) and from the opponent's lines at the same cell (defend), in hundredths of a logit;".into(),
            "then the scores of a move's place relative to the opponent's last stone and to the mover's".into(),
            "(none, on a line at 1 to 4, a knight's move, off the lines within 4, farther).".into(),
            "Format: crates/gomoku/src/engine/weights.rs; method: crates/gomoku/src/engine/policy.rs.".into(),
            format!(
                "Provenance: `stonelab gomoku tune-order --player {} --skip {} --epochs {} --step {} --l2 {} --holdout {}` on",
                args.player, args.skip, args.epochs, args.step, args.l2, args.holdout
            ),
            format!("{} ({games} games,", names.join(" ")),
            format!(
                "{} moves fitted, {} held out), starting from {}; held-out top-1 {:.3} -> {:.3},",
                report.train_samples,
                report.holdout_samples,
                args.start
                    .as_ref()
                    .map_or("the compiled-in scores".to_string(), |p| p.display().to_string()),
                report.holdout_before.top1,
                report.holdout_after.top1
            ),
            format!(
                "top-3 {:.3} -> {:.3}, negative log-likelihood {:.4} -> {:.4}.",
                report.holdout_before.top3,
                report.holdout_after.top3,
                report.holdout_before.loss,
                report.holdout_after.loss
            ),
        ];
        write_atomically(out, weights::format_order(&header, &order).as_bytes())
            .with_context(|| format!("cannot write '{}'", out.display()))?;
    }
    match args.format {
        Format::Json => println!("{}", serde_json::to_string(&report)?),
        Format::Text => {
            println!(
                "{} games, {} moves fitted, {} held out",
                report.games, report.train_samples, report.holdout_samples
            );
            for (name, before, after) in [
                ("fitted", &report.train_before, &report.train_after),
                ("held out", &report.holdout_before, &report.holdout_after),
            ] {
                println!(
                    "{name}: top-1 {:.3} -> {:.3}, top-3 {:.3} -> {:.3}, loss {:.4} -> {:.4}",
                    before.top1, after.top1, before.top3, after.top3, before.loss, after.loss
                );
            }
            let (theirs, mine) = report.near.split_at(weights::NEAR_SCORES / 2);
            println!("places (hundredths of a logit): relative to the opponent's last stone {theirs:?}, to the mover's {mine:?}");
        }
    }
    Ok(())
}
