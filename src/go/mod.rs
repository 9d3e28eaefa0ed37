//! `stonelab go ...` subcommands. Each subcommand lives in its own file with its `Args` and `run`.

use anyhow::Context as _;
use clap::Subcommand;

pub mod bench;
pub mod count;
pub mod enumerate;
pub mod eyes;
pub mod fitmodel;
pub mod gtp;
pub mod matches;
pub mod perft;
pub mod playouterr;
pub mod query;
pub mod replay;
pub mod selfplay;
pub mod solve;

/// A subcommand's arguments parsed from command-line words as `stonelab go NAME WORDS...` would
/// parse them, for the tests that check a command's defaults and refusals.
#[cfg(test)]
pub(crate) fn parse_args<A: clap::Args>(name: &str, words: &[&str]) -> Result<A, clap::Error> {
    use clap::Parser as _;
    #[derive(clap::Parser)]
    struct Cli<A: clap::Args> {
        #[command(flatten)]
        args: A,
    }
    Cli::<A>::try_parse_from(std::iter::once(name).chain(words.iter().copied())).map(|c| c.args)
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count move sequences of a given length (no passes) from the empty board
    Perft(perft::Args),
    /// Play a move list or an SGF file and print the final position, captures, ko and score
    Replay(replay::Args),
    /// Count legal positions of a board (enumeration, or Tromp's dynamic program)
    Count(count::Args),
    /// Write the state table (reduced legal positions and ko points) for the retrograde solver
    Enumerate(enumerate::Args),
    /// Mark rule-2/4 eye points of a board diagram
    Eyes(eyes::Args),
    /// Run the Go benchmarks and print figures
    Bench(bench::Args),
    /// Solve a small board by retrograde analysis (timely dataflow; one or several processes)
    Solve(solve::Args),
    /// Value and value-keeping moves of a position, from a solved database
    Query(query::Args),
    /// Play Go over GTP version 2 (perfect play from solved databases, else Monte-Carlo tree search)
    Gtp(gtp::Args),
    /// Play a match between two GTP engines and report wins, losses and the Elo difference
    Match(matches::Args),
    /// Play the engine against itself and record the games (training data for fit-model)
    Selfplay(selfplay::Args),
    /// Fit the learned move model (pattern and tactical gammas) to self-play records
    FitModel(fitmodel::Args),
    /// Measure how well the search's playouts judge positions, against a judge's values
    /// (the judge cache of scripts/go-probe)
    PlayoutError(playouterr::Args),
}

/// The checks every command that writes files or starts threads makes, for `go solve`: `--out`
/// must be a regular file or new, in a folder that exists; a `--checkpoint-dir` must be in a
/// folder that exists; `--workers` and `--processes` are bounded.
fn check_solve(args: &solve::Args) -> anyhow::Result<()> {
    crate::common::check_threads("--workers", args.workers)?;
    crate::common::check_threads("--processes", args.processes)?;
    if let Some(out) = &args.out {
        crate::common::check_output_path(out, "--out")?;
    }
    if let Some(dir) = &args.checkpoint_dir {
        if !dir.is_dir() {
            crate::common::check_output_path(dir, "--checkpoint-dir")?;
        }
    }
    Ok(())
}

pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Perft(args) => perft::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Count(args) => count::run(args),
        Command::Enumerate(args) => enumerate::run(args),
        Command::Eyes(args) => eyes::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Solve(args) => {
            check_solve(&args)?;
            solve::run(args)
        }
        Command::Query(args) => query::run(args),
        Command::Gtp(args) => gtp::run(args),
        Command::Match(args) => matches::run(args),
        Command::Selfplay(args) => selfplay::run(args),
        Command::FitModel(args) => fitmodel::run(args),
        Command::PlayoutError(args) => playouterr::run(args),
    }
}

/// The learned move model that `--model` names: `builtin` (the model built into the program,
/// `crates/go/data/model-9x9.txt`), `none`, or a gamma file from `stonelab go fit-model`.
pub fn load_model(
    name: &str,
) -> anyhow::Result<Option<std::sync::Arc<stonelab_go::movemodel::MoveModel>>> {
    use stonelab_go::movemodel::MoveModel;
    let model = match name {
        "none" => return Ok(None),
        "builtin" => MoveModel::builtin(),
        path => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read --model {path}"))?;
            MoveModel::parse(&text).with_context(|| format!("--model {path}"))?
        }
    };
    Ok(Some(std::sync::Arc::new(model)))
}

/// `--model-weight` must be a finite number from 0 to 10,000 (a child's prior counts in `u16`
/// virtual playouts).
pub fn check_model_weight(w: f64) -> anyhow::Result<()> {
    if !(0.0..=10_000.0).contains(&w) {
        anyhow::bail!("--model-weight must be from 0 to 10000 (got {w})");
    }
    Ok(())
}

/// The playouts' move choice beyond the defaults, as `go gtp` and `go playout-error` take it
/// ([`stonelab_go::mcts::SearchConfig`]).
#[derive(clap::Args, Clone, Debug)]
pub struct PlayoutArgs {
    /// Playouts fight chains of two liberties around the opponent's last stone: an atari that
    /// catches the last stone's chain in a ladder, or the defence of an own chain that one would
    /// catch
    #[arg(long = "two-liberties", value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set)]
    pub two_liberties: bool,
    /// Playouts draw their 3x3 shapes around the engine's own previous stone too, not only
    /// around the opponent's last (Pachi's second-last-move patterns)
    #[arg(long = "second-last-shapes", value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set)]
    pub second_last_shapes: bool,
    /// Playouts play the vital point of a small eye space (three to six points, bounded by the
    /// opponent's stones and the edge) next to the opponent's last stone (Pachi's nakade check)
    #[arg(long = "nakade", value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set)]
    pub nakade: bool,
    /// Playouts fight kos: for three moves after a ko capture, once the ban is lifted, the side
    /// to move retakes or fills the ko in 40% of its turns (Pachi's ko check)
    #[arg(long = "ko-fights", value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set)]
    pub ko_fights: bool,
    /// Percentage (0 to 100) of the playout moves that try the local answers after the capture
    /// and save replies (ko fights, two-liberty fights, last good reply, nakade, 3x3 shapes);
    /// the others go straight to the random choice
    #[arg(long = "local-rate", value_name = "P", default_value_t = 100, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub local_rate: u32,
    /// Percentage (0 to 100) of the playout moves that, before the random choice, capture an
    /// opponent chain in atari anywhere on the board (Fuego's and Pachi's capture rule; the
    /// replies to the last stone see only the chains next to it)
    #[arg(long = "global-capture", value_name = "P", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub global_capture: u32,
    /// Playouts may play a big self-atari that kills from inside: a chain of two to six stones
    /// whose capture leaves the capturing chain no space but a dead shape (up to three points,
    /// the square and T-shaped fours, the bulky and cross fives, the rabbity six), which they
    /// otherwise never play (so an opponent group with such stones inside and only shared
    /// liberties looks alive to them)
    #[arg(long = "sacrifices", value_name = "BOOL", default_value_t = false, action = clap::ArgAction::Set)]
    pub sacrifices: bool,
    /// Share (0 to 1) of a playout's result that is its margin rather than its win: Black's
    /// result is (1 - W) win + W (1 + tanh(lead / S)) / 2, so that a search whose playouts
    /// nearly all win still prefers the move that keeps more of its lead (Fuego's score
    /// modification, KataGo's score utility). 0: the win alone [default: 0.1 in `go gtp`
    /// (measured stronger against Pachi, BENCHMARKS.md sessions 65-66), 0 in `go playout-error`,
    /// which compares win rates]
    #[arg(long = "score-weight", value_name = "W", value_parser = parse_unit)]
    pub score_weight: Option<f32>,
    /// The margin S of --score-weight in points [default: the square root of the board's
    /// points: 9 on 9x9]
    #[arg(long = "score-scale", value_name = "S", value_parser = parse_positive)]
    pub score_scale: Option<f32>,
}

/// A number from 0 to 1.
fn parse_unit(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("expected a number from 0 to 1, got {text:?}")),
    }
}

/// A finite number above 0.
fn parse_positive(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("expected a number above 0, got {text:?}")),
    }
}

impl PlayoutArgs {
    /// `--score-weight`, or `default` where it is not given.
    pub fn score_weight(&self, default: f32) -> f32 {
        self.score_weight.unwrap_or(default)
    }

    /// The scale of `--score-weight`'s margin on a board of `area` points.
    pub fn score_scale(&self, area: usize) -> f32 {
        self.score_scale
            .unwrap_or_else(|| stonelab_go::mcts::default_score_scale(area))
    }
}

/// The tree's selection rule, as `go gtp` and `go selfplay` take it
/// ([`stonelab_go::mcts::TreePolicy`]).
#[derive(clap::Args, Clone, Debug)]
pub struct TreePolicyArgs {
    /// RAVE schedule: `silver` (beta = r / (r + n + n r / K), Pachi's; the default) or `mogo`
    /// (beta = sqrt(K / (3n + K)), the rule before session 26), n a child's visits and r its
    /// AMAF visits
    #[arg(long, value_enum, default_value_t = RaveArg::Silver)]
    pub rave: RaveArg,
    /// K of the RAVE schedule [default: 3000 with silver, 1000 with mogo]
    #[arg(long = "rave-equivalence", value_name = "K")]
    pub rave_equivalence: Option<f64>,
    /// Exploration constant C of C sqrt(ln N / (n + 1)) [default: 0 with silver, 0.25 with mogo]
    #[arg(long, value_name = "C")]
    pub exploration: Option<f64>,
    /// AMAF distance weight D: a move played sooner after the node counts up to 1 + D times in
    /// its AMAF statistics [default: 3 with silver, 0 with mogo]
    #[arg(long = "amaf-distance", value_name = "D")]
    pub amaf_distance: Option<u32>,
    /// A new child's prior virtual playouts count in its AMAF statistics too, not only in its
    /// own (false: Pachi's way, the prior in the child's own statistics alone)
    #[arg(long = "amaf-prior", value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set)]
    pub amaf_prior: bool,
}

/// `--rave`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaveArg {
    Silver,
    Mogo,
}

impl TreePolicyArgs {
    /// The policy, or a one-line error for a value out of range.
    pub fn policy(&self) -> anyhow::Result<stonelab_go::mcts::TreePolicy> {
        use stonelab_go::mcts::{RaveSchedule, TreePolicy};
        let base = match self.rave {
            RaveArg::Silver => TreePolicy::SILVER,
            RaveArg::Mogo => TreePolicy::MOGO,
        };
        let k = self.rave_equivalence.unwrap_or(match base.rave {
            RaveSchedule::MoGo(k) | RaveSchedule::Silver(k) => k,
        });
        if !(k.is_finite() && k > 0.0) {
            anyhow::bail!("--rave-equivalence must be a positive number (got {k})");
        }
        let exploration = self.exploration.unwrap_or(base.exploration);
        if !(exploration.is_finite() && exploration >= 0.0) {
            anyhow::bail!("--exploration must be a finite number, 0 or more (got {exploration})");
        }
        let amaf_distance = self.amaf_distance.unwrap_or(base.amaf_distance);
        if amaf_distance > 100 {
            anyhow::bail!("--amaf-distance must be from 0 to 100 (got {amaf_distance})");
        }
        Ok(TreePolicy {
            exploration,
            rave: match self.rave {
                RaveArg::Silver => RaveSchedule::Silver(k),
                RaveArg::Mogo => RaveSchedule::MoGo(k),
            },
            amaf_distance,
            amaf_prior: self.amaf_prior,
        })
    }
}

/// What an endless game is worth, as the `--cycles` option names it.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CyclesArg {
    /// No convention: values are intervals [lo,hi] where cycles let a side avoid the end
    #[default]
    Interval,
    /// An endless game scores 0 before komi (van der Werf's basic-ko convention): exact values
    Tie,
}

impl From<CyclesArg> for stonelab_retro::Cycles {
    fn from(c: CyclesArg) -> stonelab_retro::Cycles {
        match c {
            CyclesArg::Interval => stonelab_retro::Cycles::Interval,
            CyclesArg::Tie => stonelab_retro::Cycles::Tie,
        }
    }
}
