//! The Gomocup manager protocol ("pbrain", as Piskvork speaks it): the command line shared by
//! `pbrain-stonelab` and `stonelab gomoku pbrain` (here), the typed commands and their parser
//! ([`command`]), and the protocol loop ([`brain`]).

pub mod brain;
pub mod command;

use brain::{thread_count, Brain, Options, Player};

/// Who chooses the brain's moves.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlayerArg {
    /// Threat-space search, then principal-variation alpha-beta.
    #[default]
    Engine,
    /// A uniformly random empty cell (a baseline).
    Random,
    /// One ply: a five, else a block, else the best static evaluation (a baseline).
    Greedy,
}

#[derive(clap::Args, Debug, Default)]
pub struct Args {
    /// Who chooses the moves
    #[arg(long, value_enum, default_value_t = PlayerArg::Engine)]
    pub player: PlayerArg,
    /// Seed of the random and greedy players
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Search a fixed number of nodes per move instead of following the clock (deterministic)
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Transposition-table size in MiB when the manager sets no max_memory (default 64); under a
    /// manager's max_memory the table takes what the limit leaves, and this caps it (1..=16384).
    /// Without it, the table is also no larger than the turn can use: 32 MiB a second of
    /// timeout_turn, at least 16 MiB
    #[arg(long = "tt-mib", value_name = "MIB", value_parser = parse_tt_mib)]
    pub tt_mib: Option<usize>,
    /// Print no MESSAGE lines
    #[arg(long)]
    pub quiet: bool,
    /// Search threads (Lazy SMP) until the manager sends INFO thread_num; at most the machine's cores
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: u64,
    /// A proof database (`gomoku prove --db`): the brain plays its proved move whenever the
    /// position is in it (as the database's attacker, on its size and rule)
    #[arg(long, value_name = "FILE")]
    pub db: Option<std::path::PathBuf>,
    /// Answer each move request with `SUGGEST x,y` instead of the move, and play the move the
    /// manager then sends with `PLAY x,y` (the protocol's way for a manager to overrule a brain)
    #[arg(long)]
    pub suggest: bool,
    /// Search switches for experiments, comma-separated (`none`, or any of: b4f3, delay-fours,
    /// facing-razor, continued-attack, alpha-cut, prune-nothing, fail-high-reduction,
    /// move-count-pruning, b4f3-reduced; docs/gomoku-engine.md); default: the engine's own
    /// (none at present)
    #[arg(long, value_name = "LIST", value_parser = stonelab_gomoku::engine::tree::switch::parse)]
    pub switches: Option<u32>,
    /// Numeric search parameters for experiments, comma-separated NAME=VALUE (`lmr-divisor`,
    /// the late-move reduction's divisor, default 1.0; `lmr-growth`, what the divisor gains per
    /// doubling of a search's time beyond 1 s, up to 16 s, default 0; `policy-gap`, the policy-based
    /// reduction's gap in hundredths of a logit, default 200; `cut-reduction`, the extra plies at
    /// expected cut nodes, default 2; `style`, -50..50: the searching side's cells weigh 100 + N
    /// percent in the evaluation and the opponent's 100 - N, default 0; `leaf-sample`, N > 0: print
    /// every N-th position where the search stood pat as `MESSAGE leaf ...` after the move, for
    /// tuning, default 0; `smooth`, 1: the evaluation's cell sums averaged over the last move,
    /// default 0; `tempo`, -50..50: the side to move's cells weigh 100 + N percent and the
    /// waiting side's 100 - N, default 0; the pruning margins and widths, each defaulting to the
    /// engine's constant: `important` (250), `null-move-depth` (6), `null-move-margin` (200),
    /// `aspiration` (20), `razor` (percent of the razoring margins, 100), `futility` (90 a ply),
    /// `late-moves` (percent of the move-count pruning limits, 100), `singular-margin` (2 a ply),
    /// `quiescence-combination` (55), `breadth` (28 moves); `scripts/gomoku-spsa` tunes them);
    /// `mated-breadth`, N: a node fewer than N plies from the root tries moves past the breadth
    /// while every move tried loses to a mate (sound mate claims), 0: the breadth is a hard cap
    /// (default 0); `own-vct`, the root's own VCT before
    /// alpha-beta in thousandths of the move's budget, 0: none (default 0); `reply-ext`, N: a
    /// move made facing the opponent's open three costs no depth while its line has had fewer
    /// than N such extensions (default 0); `four-ext`, 1: a four counts as such an extension
    /// too (default 0); `attack-important`, 1: a three or more right after the same side's last
    /// move did too is never reduced (default 0); `facing-reduce`, 1: the replies to an open
    /// three are reduced like other late moves (default since v2.21), 0: all searched at full
    /// depth as before; `block-ext`, H: a forced block adds H hundredths of a ply to its line's depth, a
    /// whole ply at a time (default 0); `lmr-from`, N: late-move reductions start at the N-th
    /// move (from 0) of an inner node (default 2); `lmr-important`, 1: moves important by their
    /// cells or as killers are reduced late too, still never pruned late (default 0);
    /// `improving`, 1: where the evaluation is no better than at the same side's previous node,
    /// late moves are reduced a ply more and move-count pruning comes at half the count
    /// (default 0); `tt-eval`, 1: razoring, reverse futility, the null move and the fail-high
    /// reduction read the table's stored score where its bound puts it beyond the static
    /// evaluation (default 0); `history-gravity`, 1: a cut-off adds to its move's history and
    /// takes from the moves searched before it, each value pulled towards zero (a bounded, signed
    /// success rate, as Stockfish and Rapfi keep it), 0: cut-offs only add depth^2 (default 0);
    /// `history-reduction`, 1: a reduced late move whose history is 0 or less is reduced a ply
    /// more, one whose history is 4096 or more a ply less (default 0); `continuation`, 1: the move
    /// order adds a history of each move after the opponent's last stone (per cell pair, kept as
    /// `history-gravity` keeps the history; default 0); `futility-depth`, N: reverse futility
    /// up to depth N (default 6); `move-count`, P: Rapfi's move-count pruning at P percent of
    /// its count 3 + depth^1.32, at every node but the root once a move escapes a mate, 0: off
    /// (default 0); `white-style`, -50..50: added to `style` when the engine plays White
    /// (default 0); `correction`, P: correction history, the static evaluation moved by P percent
    /// of what the search found it missed at nodes with the same stones of either colour, 0: off
    /// (default 0); `ttm-ext`, 1: the table's move gains 0.25 of a ply at PV nodes and 0.08
    /// elsewhere, 0.24 more as a four within four cells of the mover's last stone (Rapfi's), the
    /// hundredths adding up along the line (default 0); `double-se`, M: a singular table's move
    /// whose rivals stay M more under the bar is extended two plies at non-PV nodes, at most ten
    /// times a line, 0: off (default 0); `root-reduce`, P: the root's late-move reduction at P
    /// percent of the inner nodes' (default 100); `root-less`, N: N plies off it after that
    /// (default 0); `pv-less`, N: N plies more off the reduction at inner PV nodes (default 0);
    /// `root-order`, 1: between iterations only the root moves that raised alpha move up by
    /// score, the others keep their places (Stockfish's and Rapfi's), 0: all sorted by their
    /// scores (default 0); default: the engine's own
    #[arg(long, value_name = "LIST", value_parser = stonelab_gomoku::engine::tree::knob::parse)]
    pub knobs: Option<stonelab_gomoku::engine::tree::knob::Knobs>,
    /// The evaluation's weights from this file instead of the compiled-in
    /// `crates/gomoku/data/eval-weights.txt` (the same format; `gomoku tune --out` writes it), for
    /// experiments
    #[arg(long = "eval-weights", value_name = "FILE")]
    pub eval_weights: Option<std::path::PathBuf>,
    /// The move order's scores under freestyle and exactly five from this file instead of the
    /// compiled-in `crates/gomoku/data/order-weights.txt` (the same format; `gomoku tune-order
    /// --out` writes it), for experiments
    #[arg(long = "order-weights", value_name = "FILE")]
    pub order_weights: Option<std::path::PathBuf>,
    /// The move order's scores under renju from this file instead of the compiled-in
    /// `crates/gomoku/data/order-weights-handset.txt` (the same format), for experiments
    #[arg(long = "renju-order-weights", value_name = "FILE")]
    pub renju_order_weights: Option<std::path::PathBuf>,
    /// The evaluation's threat-mask weights from this file instead of the compiled-in
    /// `crates/gomoku/data/threat-weights.txt` (the same format; `gomoku tune --threat-out`
    /// writes it), for experiments
    #[arg(long = "threat-weights", value_name = "FILE")]
    pub threat_weights: Option<std::path::PathBuf>,
    /// Black's evaluation weights under renju from this file instead of the compiled-in
    /// `crates/gomoku/data/eval-weights-renju-black.txt` (the same format; `gomoku tune --out` on
    /// renju records writes it), for experiments
    #[arg(long = "renju-black-weights", value_name = "FILE")]
    pub renju_black_weights: Option<std::path::PathBuf>,
    /// White's evaluation weights under renju from this file instead of the compiled-in
    /// `crates/gomoku/data/eval-weights-renju-white.txt` (`gomoku tune --out-white` writes it),
    /// for experiments
    #[arg(long = "renju-white-weights", value_name = "FILE")]
    pub renju_white_weights: Option<std::path::PathBuf>,
    /// The threat-mask weights under renju with Black to move from this file instead of the
    /// compiled-in `crates/gomoku/data/threat-weights-renju-black.txt` (`gomoku tune
    /// --threat-out` on renju records writes it), for experiments
    #[arg(long = "renju-black-threat-weights", value_name = "FILE")]
    pub renju_black_threat_weights: Option<std::path::PathBuf>,
    /// The same with White to move (`threat-weights-renju-white.txt`; `gomoku tune
    /// --threat-out-white`)
    #[arg(long = "renju-white-threat-weights", value_name = "FILE")]
    pub renju_white_threat_weights: Option<std::path::PathBuf>,
    /// The net added to the evaluation, instead of the compiled-in one: a file written by
    /// `stonelab gomoku tune --model net --net-out FILE`; a net fitted under renju (`colours 2`)
    /// serves renju, any other freestyle and exactly five (crates/gomoku/data/eval-net.txt);
    /// `none` for the linear evaluation alone under every rule
    #[arg(long = "eval-net", value_name = "FILE")]
    pub eval_net: Option<std::path::PathBuf>,
}

/// Largest `--tt-mib`: 16 GiB of table.
const MAX_TT_MIB: usize = 16 << 10;

fn parse_tt_mib(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_TT_MIB).contains(&n) => Ok(n),
        _ => Err(format!("expected a size in MiB, 1..={MAX_TT_MIB}")),
    }
}

/// Speaks the protocol on standard input and output until `END` or the end of input.
pub fn run(args: &Args) -> std::io::Result<()> {
    use stonelab_gomoku::engine::weights::{replace, Table};
    for (flag, path, table) in [
        ("--eval-weights", &args.eval_weights, Table::Eval),
        ("--order-weights", &args.order_weights, Table::Order),
        (
            "--renju-order-weights",
            &args.renju_order_weights,
            Table::OrderRenju,
        ),
        ("--threat-weights", &args.threat_weights, Table::Threat),
        (
            "--renju-black-weights",
            &args.renju_black_weights,
            Table::RenjuBlack,
        ),
        (
            "--renju-white-weights",
            &args.renju_white_weights,
            Table::RenjuWhite,
        ),
        (
            "--renju-black-threat-weights",
            &args.renju_black_threat_weights,
            Table::ThreatRenjuBlack,
        ),
        (
            "--renju-white-threat-weights",
            &args.renju_white_threat_weights,
            Table::ThreatRenjuWhite,
        ),
    ] {
        if let Some(path) = path {
            let text = std::fs::read_to_string(path).map_err(|e| {
                std::io::Error::new(e.kind(), format!("{flag} {}: {e}", path.display()))
            })?;
            replace(table, &text).map_err(|e| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{flag} {}: {e}", path.display()),
                )
            })?;
        }
    }
    if let Some(path) = &args.eval_net {
        let text = if path.as_os_str() == "none" {
            None
        } else {
            Some(std::fs::read_to_string(path).map_err(|e| {
                std::io::Error::new(e.kind(), format!("--eval-net {}: {e}", path.display()))
            })?)
        };
        stonelab_gomoku::engine::net::install(text.as_deref()).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("--eval-net {}: {e}", path.display()),
            )
        })?;
    }
    let player = match args.player {
        PlayerArg::Engine => Player::Engine,
        PlayerArg::Random => Player::Random(args.seed),
        PlayerArg::Greedy => Player::Greedy(args.seed),
    };
    let options = Options {
        player,
        nodes: args.nodes,
        table_bytes: args.tt_mib.unwrap_or(64).max(1) << 20,
        table_cap: args.tt_mib.map_or(usize::MAX, |mib| mib.max(1) << 20),
        messages: !args.quiet,
        threads: thread_count(args.threads).0,
        suggest: args.suggest,
        switches: args
            .switches
            .unwrap_or(stonelab_gomoku::engine::tree::SWITCHES),
        knobs: args.knobs.unwrap_or_default(),
        book: match &args.db {
            None => None,
            Some(path) => match stonelab_gomoku::prove::db::Db::load(path) {
                Ok(Some(db)) => Some(std::sync::Arc::new(stonelab_gomoku::prove::db::Book::new(
                    db,
                ))),
                Ok(None) => {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::NotFound,
                        format!("--db {}: no such file", path.display()),
                    ))
                }
                Err(e) => return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, e)),
            },
        },
    };
    let stdout = std::io::stdout();
    let mut brain = Brain::new(stdout.lock(), options);
    brain.run(std::io::BufReader::new(std::io::stdin()))
}
