//! `stonelab go selfplay`: games of the engine against itself, as training data for the learned
//! move model (`stonelab go fit-model`).
//!
//! Each game starts from the empty board. Its first `--random-moves` moves are drawn among the
//! searched root moves with probability proportional to their visits (so that games differ);
//! after that every move is the search's most visited one, the label the model learns. A game
//! ends after two passes, when the side to move's best move wins less than 5% (a resignation,
//! recorded as `B+R` or `W+R`), or at the move cap (`3 * points`). Searches run on one thread
//! each, with `--playouts` playouts and a seed derived from `--seed`, the game's number and the
//! move's, so a game replays exactly; `--jobs` games run at once.
//!
//! The record is JSON Lines, one game a line in game order (`game`, `size`, `komi`,
//! `playouts`, `random_moves`, `seed`, `moves` as GTP vertices, `result`), rewritten by a
//! temporary file and a rename after every game; an existing file with the same settings is
//! resumed (its games are kept and only the missing ones played).

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::{bail, Context};
use stonelab_go::mcts::{self, SearchConfig};
use stonelab_go::movemodel::MoveModel;
use stonelab_go::vertex::{format_move, parse_size};
use stonelab_go::{Board, Color, Geometry, Move, Rng, Rules};

/// Resign below this win rate of the best move (the game's outcome is clear; the positions after
/// it teach little).
const RESIGN: f64 = 0.05;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size as ROWSxCOLS or N
    #[arg(long, default_value = "9x9")]
    pub size: String,
    /// Komi
    #[arg(long, default_value_t = 7.0, allow_negative_numbers = true, value_parser = crate::common::parse_komi)]
    pub komi: f64,
    /// Games in the record when done (games already in --out count)
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Playouts per move (one thread a search)
    #[arg(long, default_value_t = 20_000)]
    pub playouts: u64,
    /// Opening moves drawn in proportion to the root's visits instead of the most visited
    #[arg(long = "random-moves", default_value_t = 6)]
    pub random_moves: usize,
    /// Seed of the games (game i uses a seed derived from it and i)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// Learned move model of the players' priors: a file, `builtin` or `none` (see `go gtp`)
    #[arg(long, value_name = "FILE", default_value = "builtin")]
    pub model: String,
    /// Weight of the model's prior (see `go gtp --model-weight`)
    #[arg(long = "model-weight", value_name = "W", default_value_t = stonelab_go::mcts::PRIOR_MODEL)]
    pub model_weight: f64,
    /// The hand-set priors next to the model's (see `go gtp --hand-priors`)
    #[arg(long = "hand-priors", value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set)]
    pub hand_priors: bool,
    #[command(flatten)]
    pub tree: crate::go::TreePolicyArgs,
    /// JSON Lines record to write (and resume)
    #[arg(long)]
    pub out: PathBuf,
    /// Show a progress bar even when stderr is not a terminal
    #[arg(long)]
    pub progress: bool,
}

/// One game of the record.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub game: usize,
    pub size: String,
    pub komi: f64,
    pub playouts: u64,
    pub random_moves: usize,
    pub seed: u64,
    pub moves: Vec<String>,
    pub result: String,
    /// Whether the hand-set priors applied (`--hand-priors`, or no model); absent in records
    /// from before the option, which used them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_priors: Option<bool>,
    /// The tree's selection rule (`TreePolicy`'s display form); absent in records from before
    /// session 26, which used MoGo's (`TreePolicy::MOGO`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    crate::common::check_threads("--jobs", args.jobs)?;
    crate::common::check_output_path(&args.out, "--out")?;
    if args.playouts == 0 {
        bail!("--playouts must be positive");
    }
    let geometry = parse_size(&args.size)?;
    let size = stonelab_go::vertex::format_size(&geometry);
    crate::go::check_model_weight(args.model_weight)?;
    let model = crate::go::load_model(&args.model)?;
    let policy = args.tree.policy()?;
    let tree = policy.to_string();
    let mut done: Vec<GameRecord> = Vec::new();
    if args.out.exists() {
        let text = std::fs::read_to_string(&args.out)
            .with_context(|| format!("cannot read --out {}", args.out.display()))?;
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let g: GameRecord = serde_json::from_str(line).with_context(|| {
                format!("{} line {}: not a selfplay game", args.out.display(), n + 1)
            })?;
            let hand = g.hand_priors.unwrap_or(true);
            let their_tree = g
                .tree
                .clone()
                .unwrap_or_else(|| stonelab_go::mcts::TreePolicy::MOGO.to_string());
            if (
                g.size.as_str(),
                g.komi,
                g.playouts,
                g.random_moves,
                g.seed,
                hand,
                their_tree.as_str(),
            ) != (
                size.as_str(),
                args.komi,
                args.playouts,
                args.random_moves,
                args.seed,
                args.hand_priors || model.is_none(),
                tree.as_str(),
            ) {
                bail!(
                    "{} holds games of other settings (game {}: {} komi {} playouts {} \
                     random moves {} seed {} hand priors {hand} {their_tree}); write to a new file",
                    args.out.display(),
                    g.game,
                    g.size,
                    g.komi,
                    g.playouts,
                    g.random_moves,
                    g.seed
                );
            }
            done.push(g);
        }
    }
    let start = done.len();
    let bar = crate::common::progress_bar("games", true, args.progress);
    if let Some(bar) = &bar {
        bar.set_length(args.games.saturating_sub(start) as u64);
    }
    let next = AtomicUsize::new(start);
    let record = Mutex::new(done);
    // Finished games waiting for the ones before them (the file stays in game order).
    let pending: Mutex<Vec<GameRecord>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.min(args.games.saturating_sub(start)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= args.games || failure.lock().unwrap().is_some() {
                    break;
                }
                let game = play_game(&args, geometry, &size, i, model.clone(), policy);
                let mut waiting = pending.lock().unwrap();
                waiting.push(game);
                let mut games = record.lock().unwrap();
                let before = games.len();
                loop {
                    let want = games.len();
                    let Some(k) = waiting.iter().position(|g| g.game == want) else {
                        break;
                    };
                    games.push(waiting.swap_remove(k));
                }
                if games.len() > before {
                    if let Err(e) = write_record(&args.out, &games) {
                        *failure.lock().unwrap() = Some(e);
                        break;
                    }
                }
                if let Some(bar) = &bar {
                    bar.inc(1);
                }
            });
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    let games = record.into_inner().unwrap();
    let positions: usize = games.iter().map(|g| g.moves.len()).sum();
    crate::common::write_stdout(format_args!(
        "{} games ({} new), {positions} moves, in {}\n",
        games.len(),
        games.len() - start,
        args.out.display()
    ))?;
    Ok(())
}

/// Plays game `i` (see the module docs).
fn play_game(
    args: &Args,
    geometry: Geometry,
    size: &str,
    i: usize,
    model: Option<Arc<MoveModel>>,
    policy: mcts::TreePolicy,
) -> GameRecord {
    let mut board = Board::new(geometry, Rules::default());
    let game_seed = args.seed ^ (i as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03);
    let mut rng = Rng::new(game_seed);
    let mut moves = Vec::new();
    let mut passes = 0;
    let mut result = None;
    let cap = 3 * geometry.area();
    while passes < 2 && moves.len() < cap {
        let config = SearchConfig {
            komi: args.komi,
            threads: 1,
            shared_tree: false,
            playouts: Some(args.playouts),
            deadline: None,
            seed: game_seed ^ (moves.len() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            early_stop: false,
            model: model.clone(),
            model_weight: args.model_weight,
            playout_remote: None,
            last_good_reply: false,
            two_liberties: false,
            hand_priors: args.hand_priors,
            tree_policy: policy,
            second_last_shapes: false,
            nakade: false,
            ko_fights: false,
            local_rate: 100,
            score_weight: 0.0,
            score_scale: 1.0,
            score_centre: 0.0,
            global_capture: 0,
            sacrifices: false,
        };
        let searched = mcts::search(&board, passes, &config);
        let to_move = board.to_move();
        let mv = if moves.len() < args.random_moves {
            draw(&searched, &mut rng)
        } else {
            if searched.best_stats().win_rate() < RESIGN {
                result = Some(format!(
                    "{}+R",
                    if to_move == Color::Black { "W" } else { "B" }
                ));
                break;
            }
            searched.best
        };
        board.play(mv);
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
        moves.push(format_move(mv, &geometry));
    }
    let result = result.unwrap_or_else(|| stonelab_go::format_score(board.area_score(args.komi)));
    GameRecord {
        game: i,
        size: size.to_owned(),
        komi: args.komi,
        playouts: args.playouts,
        random_moves: args.random_moves,
        seed: args.seed,
        moves,
        result,
        hand_priors: Some(args.hand_priors || model.is_none()),
        tree: Some(policy.to_string()),
    }
}

/// A root move drawn with probability proportional to its visits (the pass only when nothing
/// else was visited).
fn draw(result: &mcts::SearchResult, rng: &mut Rng) -> Move {
    let total: u64 = result
        .moves
        .iter()
        .filter(|m| m.mv != Move::Pass)
        .map(|m| m.visits)
        .sum();
    if total == 0 {
        return result.best;
    }
    let mut x = u64::from(rng.below(u32::MAX)) * total / u64::from(u32::MAX);
    for m in result.moves.iter().filter(|m| m.mv != Move::Pass) {
        if x < m.visits {
            return m.mv;
        }
        x -= m.visits;
    }
    result.best
}

/// Writes the record by a temporary file and a rename.
fn write_record(path: &std::path::Path, games: &[GameRecord]) -> anyhow::Result<()> {
    let mut text = Vec::new();
    for g in games {
        serde_json::to_writer(&mut text, g)?;
        text.push(b'\n');
    }
    let tmp = path.with_extension("jsonl.tmp");
    let mut f =
        std::fs::File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    f.write_all(&text)
        .and_then(|()| f.sync_all())
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path)
        .with_context(|| format!("cannot rename {} to {}", tmp.display(), path.display()))?;
    Ok(())
}
