//! `stonelab go fit-model`: fits the learned move model ([`stonelab_go::movemodel`]) to the moves
//! of self-play records (`stonelab go selfplay`).
//!
//! Every position after a game's random opening moves whose move is a stone is a training
//! position: the candidates are the moves the tree search would consider there (legal, not
//! filling an own eye), the label is the move the search chose. Every `--holdout`-th game is
//! kept out of the fit and scored afterwards: mean log-likelihood of the chosen moves and how
//! often the model's favourite is the chosen move, next to a uniform choice among the
//! candidates. The model is written (temporary file, rename) with comments that say which
//! records and settings made it.
//!
//! Records of `stonelab go match` are read too (recognized by their header line): every move of
//! every game after the first `--skip-moves`, by both engines, is then a training position. So a
//! model can be fitted on another engine's games (a match of that engine against itself).

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Context};
use stonelab_go::mcts::{last_stones, playout_board};
use stonelab_go::movemodel::{self, Features, MoveModel, TrainingPosition};
use stonelab_go::vertex::{parse_size, parse_vertex};
use stonelab_go::{Board, Move, Rules};

use super::selfplay::GameRecord;
use crate::common::Format;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Self-play records (JSON Lines from `stonelab go selfplay`)
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// Model file to write
    #[arg(long)]
    pub out: PathBuf,
    /// Rounds of minorization-maximization over all feature groups
    #[arg(long, default_value_t = 30)]
    pub rounds: usize,
    /// Keep every N-th game out of the fit and score the model on it (0: none)
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
    /// In `stonelab go match` records: the opening moves of each game left out of the fit
    /// (self-play records say their own random opening moves)
    #[arg(long, default_value_t = 0)]
    pub skip_moves: usize,
    /// Fit a gamma for every diamond (the 12 points within distance 2, up to symmetry) seen
    /// among at least this many candidate moves; 0 fits none
    #[arg(long, default_value_t = 0)]
    pub diamond_min: usize,
    /// Fit a gamma for every spatial pattern (the 24 points within distance 3, up to symmetry)
    /// seen among at least this many candidate moves; a move whose spatial pattern has one is
    /// scored by it instead of its diamond. 0 fits none
    #[arg(long, default_value_t = 0)]
    pub spatial_min: usize,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// How well a model predicts a set of positions.
#[derive(serde::Serialize, Clone, Copy, Debug)]
struct Score {
    positions: usize,
    log_likelihood: f64,
    uniform_log_likelihood: f64,
    top1: f64,
}

fn score(model: &MoveModel, positions: &[TrainingPosition]) -> Score {
    let n = positions.len().max(1) as f64;
    let uniform: f64 = positions
        .iter()
        .map(|p| -(p.candidates.len() as f64).ln())
        .sum::<f64>()
        / n;
    let top1 = positions
        .iter()
        .filter(|p| {
            let best = p
                .candidates
                .iter()
                .map(|f| model.strength(f))
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(i, _)| i);
            best == Some(p.played)
        })
        .count() as f64
        / n;
    Score {
        positions: positions.len(),
        log_likelihood: movemodel::log_likelihood(model, positions),
        uniform_log_likelihood: uniform,
        top1,
    }
}

/// The header line of a `stonelab go match` record (the fields read here).
#[derive(serde::Deserialize)]
struct MatchHeader {
    record: String,
    size: u32,
    komi: f64,
}

/// A game line of a `stonelab go match` record (the fields read here).
#[derive(serde::Deserialize)]
struct MatchGame {
    number: usize,
    result: String,
    /// "B E5", "W pass", ...
    sequence: Vec<String>,
}

/// A match record's game as a self-play record: its moves without colours (they alternate from
/// Black), the first `skip` of them not trained on.
fn match_game(header: &MatchHeader, line: &str, skip: usize) -> anyhow::Result<GameRecord> {
    let g: MatchGame = serde_json::from_str(line)?;
    let moves = g
        .sequence
        .iter()
        .map(|e| e.split_once(' ').map_or(e.as_str(), |(_, v)| v).to_owned())
        .collect();
    Ok(GameRecord {
        game: g.number,
        size: format!("{0}x{0}", header.size),
        komi: header.komi,
        playouts: 0,
        random_moves: skip,
        seed: 0,
        moves,
        result: g.result,
        hand_priors: None,
        tree: None,
    })
}

/// The training positions of one game (see the module docs).
fn positions_of(game: &GameRecord) -> anyhow::Result<Vec<TrainingPosition>> {
    let geometry = parse_size(&game.size)?;
    let mut board = Board::new(geometry, Rules::default());
    let mut out = Vec::new();
    for (k, text) in game.moves.iter().enumerate() {
        let mv = parse_vertex(text, &geometry)
            .with_context(|| format!("game {} move {}", game.game, k + 1))?;
        if let (Move::Play(played), true) = (mv, k >= game.random_moves) {
            let pb = playout_board(&board);
            let to_move = board.to_move();
            let (last, last2) = last_stones(&board);
            let owner = movemodel::OwnerMap::estimate(&board, movemodel::OWNER_PLAYOUTS);
            let mut candidates: Vec<Features> = Vec::new();
            let mut index = None;
            for p in board.legal_moves().iter() {
                if pb.is_eye_to_keep(p, to_move) {
                    continue;
                }
                if p == played {
                    index = Some(candidates.len());
                }
                let f = pb.move_features(p);
                candidates.push(movemodel::features_from(
                    &pb,
                    p,
                    &f,
                    last,
                    last2,
                    Some(&owner),
                ));
            }
            if let Some(played) = index {
                out.push(TrainingPosition { candidates, played });
            }
        }
        board
            .try_play(mv)
            .map_err(|e| anyhow::anyhow!("game {} move {} ({text}): {e}", game.game, k + 1))?;
    }
    Ok(out)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    crate::common::check_output_path(&args.out, "--out")?;
    let mut games = Vec::new();
    for path in &args.records {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let mut header: Option<MatchHeader> = None;
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let at = || format!("{} line {}", path.display(), n + 1);
            if n == 0 {
                if let Ok(h) = serde_json::from_str::<MatchHeader>(line) {
                    if h.record == "stonelab go match" {
                        header = Some(h);
                        continue;
                    }
                }
            }
            let g = match &header {
                Some(h) => match_game(h, line, args.skip_moves)
                    .with_context(|| format!("{}: not a match game", at()))?,
                None => serde_json::from_str(line)
                    .with_context(|| format!("{}: not a selfplay game", at()))?,
            };
            games.push(g);
        }
    }
    if games.is_empty() {
        bail!("no games in the records");
    }
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, g) in games.iter().enumerate() {
        let positions = positions_of(g)?;
        if args.holdout > 0 && i % args.holdout == args.holdout - 1 {
            test.extend(positions);
        } else {
            train.extend(positions);
        }
    }
    if train.is_empty() {
        bail!("no training positions (every move is in the random openings?)");
    }
    let bar = crate::common::progress_bar("rounds", true, false);
    if let Some(bar) = &bar {
        bar.set_length(args.rounds as u64);
    }
    let (mut model, history) = movemodel::fit_reporting(
        &train,
        args.rounds,
        args.diamond_min,
        args.spatial_min,
        &mut |round, _| {
            if let Some(bar) = &bar {
                bar.set_position(round as u64);
            }
        },
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let train_score = score(&model, &train);
    let test_score = (!test.is_empty()).then(|| score(&model, &test));
    let names: Vec<String> = args
        .records
        .iter()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .collect();
    model.provenance = vec![
        "stonelab learned move model (generalized Bradley-Terry gammas, Coulom 2007)".to_owned(),
        format!(
            "fitted by `stonelab go fit-model --rounds {} --holdout {} --diamond-min {} --spatial-min {} --skip-moves {}` on {}",
            args.rounds,
            args.holdout,
            args.diamond_min,
            args.spatial_min,
            args.skip_moves,
            names.join(" ")
        ),
        if games[0].playouts == 0 {
            format!(
                "{} games (match records: {} komi {}, first {} moves skipped), {} training positions",
                games.len(),
                games[0].size,
                games[0].komi,
                games[0].random_moves,
                train.len()
            )
        } else {
            format!(
                "{} games (settings: {} komi {} playouts {} random moves {}), {} training positions",
                games.len(),
                games[0].size,
                games[0].komi,
                games[0].playouts,
                games[0].random_moves,
                train.len()
            )
        },
        format!(
            "training: log-likelihood {:.4} (uniform {:.4}), top-1 {:.3}",
            train_score.log_likelihood, train_score.uniform_log_likelihood, train_score.top1
        ),
    ];
    if let Some(t) = test_score {
        model.provenance.push(format!(
            "held out: {} positions, log-likelihood {:.4} (uniform {:.4}), top-1 {:.3}",
            t.positions, t.log_likelihood, t.uniform_log_likelihood, t.top1
        ));
    }
    let tmp = args.out.with_extension("tmp");
    let mut f =
        std::fs::File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    f.write_all(model.to_text().as_bytes())
        .and_then(|()| f.sync_all())
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &args.out)
        .with_context(|| format!("cannot rename {} to {}", tmp.display(), args.out.display()))?;
    match args.format {
        Format::Json => crate::common::print_json(&serde_json::json!({
            "games": games.len(),
            "train": train_score,
            "holdout": test_score,
            "log_likelihood_by_round": history,
            "out": args.out.display().to_string(),
        })),
        Format::Text => {
            for line in &model.provenance {
                crate::common::write_stdout(format_args!("{line}\n"))?;
            }
            crate::common::write_stdout(format_args!("model written to {}\n", args.out.display()))?;
            Ok(())
        }
    }
}
