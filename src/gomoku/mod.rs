//! `stonelab gomoku ...` subcommands: threat marking, table rows, benchmark.

use clap::Subcommand;

pub mod bench;
pub mod bench_engine;
pub mod forbidden;
pub mod lut;
pub mod matches;
pub mod pbrain;
pub mod prove;
pub mod solve;
pub mod threats;
pub mod tune;
pub mod tune_order;

/// The rule as a command-line value.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RuleArg {
    /// Five or more in a row wins (also `0`, Gomocup's rule number).
    #[default]
    #[value(alias = "0")]
    Freestyle,
    /// Exactly five wins; an overline neither wins nor counts as a five point (also `1`).
    #[value(alias = "1")]
    Standard,
    /// Renju: Black wins by exactly five and may not play a double-three, a double-four or an
    /// overline; White wins by five or more (also `4`)
    #[value(alias = "4")]
    Renju,
}

impl From<RuleArg> for stonelab_gomoku::Rule {
    fn from(r: RuleArg) -> Self {
        match r {
            RuleArg::Freestyle => stonelab_gomoku::Rule::Freestyle,
            RuleArg::Standard => stonelab_gomoku::Rule::Standard,
            RuleArg::Renju => stonelab_gomoku::Rule::Renju,
        }
    }
}

/// Reads the position of `file` (or standard input for `None` or `-`) as a game under `rule`: a
/// diagram, glyphs, a move list or a `.psq` / SGF record; `size` (5..=20) is a move list's board
/// size and must agree with a diagram's. Errors name the input.
pub(crate) fn read_position(
    file: Option<&str>,
    size: Option<usize>,
    rule: stonelab_gomoku::Rule,
) -> anyhow::Result<stonelab_gomoku::Parsed> {
    let text = crate::common::read_input(file)?;
    parse_position(&text, input_name(file), size, rule)
}

/// [`read_position`] of text already read from the input called `name`.
pub(crate) fn parse_position(
    text: &str,
    name: &str,
    size: Option<usize>,
    rule: stonelab_gomoku::Rule,
) -> anyhow::Result<stonelab_gomoku::Parsed> {
    use stonelab_gomoku::{MAX_SIZE, MIN_SIZE};
    if let Some(size) = size {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            anyhow::bail!("--size {size} is outside {MIN_SIZE}..={MAX_SIZE}");
        }
    }
    stonelab_gomoku::parse_game(text, size, rule).map_err(|e| anyhow::anyhow!("{name}: {e}"))
}

/// How messages name an input file (`<stdin>` for standard input).
pub(crate) fn input_name(file: Option<&str>) -> &str {
    match file {
        None | Some("-") => "<stdin>",
        Some(f) => f,
    }
}

/// The black and white stone counts of a position to search, refused when a side already has a
/// five (`task` says what there is nothing left to do).
pub(crate) fn counts_without_five(
    grid: &stonelab_gomoku::Grid,
    rule: stonelab_gomoku::Rule,
    name: &str,
    task: &str,
) -> anyhow::Result<(usize, usize)> {
    use stonelab_gomoku::Color;
    let referee = stonelab_gomoku::search::referee::Referee::new(grid, rule);
    for c in Color::ALL {
        if referee.has_five(c) {
            anyhow::bail!("{name}: {} already has a five; nothing to {task}", c.name());
        }
    }
    let count = |c: Color| grid.points().filter(|&p| grid.get(p) == Some(c)).count();
    Ok((count(Color::Black), count(Color::White)))
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Mark every threat point of a position with `x` (the seed's line-table threat mask)
    ///
    /// A threat point is, per colour, a point where a stone makes five (if that colour has any on the
    /// line), else a point after which the line holds two five points (an open four); the union over
    /// both colours and all lines.
    Threats(threats::Args),
    /// Black's forbidden points under renju (double-three, double-four, overline)
    Forbidden(forbidden::Args),
    /// Print entries of the seed's skew-ternary line table as `INDEX DIGITS LINE 0bMASK`
    Lut(lut::Args),
    /// Time the line tables on a fixed set of positions from plausible games
    Bench(bench::Args),
    /// Threat-space search (VCF or VCT) for a win of one side
    Solve(solve::Args),
    /// The engine as a Gomocup brain on stdin/stdout (the same as the `pbrain-stonelab` program)
    ///
    /// Speaks the Piskvork manager protocol: START, BEGIN, TURN, BOARD/DONE, INFO, END, ABOUT,
    /// RESTART, TAKEBACK, RECTSTART (square sizes only) and PLAY; anything else gets UNKNOWN.
    Pbrain(Box<pbrain::Args>),
    /// A match between two Gomocup (pbrain) engines, with adjudication and an Elo estimate
    Match(matches::Args),
    /// Self-play games of the engine at a fixed node budget, as data for `gomoku tune`
    ///
    /// Every game starts from an opening of the file (in turn), then plays a few random moves next
    /// to the stones, then the engine plays both sides. The record is resumable: run the same
    /// command again to add the games still missing.
    Selfplay(tune::SelfplayArgs),
    /// Fit the evaluation's weights to the results of recorded games (logistic regression)
    ///
    /// Reads `gomoku selfplay` or `gomoku match` records, fits the weight of every class
    /// combination of a cell as the side to move and as the side waiting, and reports the
    /// cross-entropy before and after on the fitted and the held-out games.
    Tune(Box<tune::TuneArgs>),
    /// Fit the search's move order to a stronger engine's moves in game records (softmax regression)
    ///
    /// Every move of the chosen player (`--player a` or `b` of `gomoku match` records) is a
    /// sample: the candidate cells, each scored by its own and the opponent's class combination,
    /// and the cell played. Reports how often the move played is the best-scored candidate
    /// (top-1) or among the best three, before and after, on the fitted and the held-out games.
    TuneOrder(tune_order::Args),
    /// Prove a whole game from a position (the empty board by default): df-pn over threat-space search
    ///
    /// Result 'win', 'no_win' (every attacker strategy refuted) or 'unknown' (a limit hit). A win
    /// can be written as a certificate (--out) that `gomoku check-proof` checks without search.
    Prove(prove::ProveArgs),
    /// Check a proof certificate exhaustively (every defender reply)
    CheckProof(prove::CheckArgs),
    /// Print a proof certificate's attacker move after a line of moves, or 'none'
    ProofMove(prove::MoveArgs),
}

pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Threats(args) => threats::run(args),
        Command::Forbidden(args) => forbidden::run(args),
        Command::Lut(args) => lut::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Pbrain(args) => Ok(pbrain::run(&args)?),
        Command::Match(args) => matches::run(args),
        Command::Selfplay(args) => tune::selfplay(args),
        Command::Tune(args) => tune::tune(*args),
        Command::TuneOrder(args) => tune_order::run(args),
        Command::Prove(args) => prove::prove(args),
        Command::CheckProof(args) => prove::check_proof(args),
        Command::ProofMove(args) => prove::proof_move(args),
    }
}
