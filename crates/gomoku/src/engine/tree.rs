//! The alpha-beta tree: iterative-deepening principal-variation search over a [`Position`] with
//! aspiration windows at the root, the pruning and reductions that pay in Gomoku (razoring into a
//! VCF quiescence, reverse futility, a rare null move where no three of the opponent's is pending,
//! late-move pruning and reductions), a move order from both colours' cell values, the
//! transposition move, killers and history, and a two-way bucketed transposition table with
//! generations.
//!
//! The quiescence of fours: the side to move tries its fours (each forces the block) up to
//! [`QUIESCENCE_FOURS`] deep, so a VCF at the horizon is seen as the win it is. Only the fours that
//! follow the mover's last stone (on its lines), and after the first [`QUIESCENCE_PLAIN_FOURS`]
//! only fours that make more besides: the attack a line started, not every four on the board.
//! Razoring drops into it; depth-0 leaves do only when [`LEAF_QUIESCENCE`] is on (off: measured
//! weaker against a threat-space attacker).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine::params::{SCORE_DROP, STABLE_ITERATIONS, STABLE_SHRINK, UNSTABLE_STRETCH};
use crate::engine::policy::Places;
use crate::engine::position::Position;
use crate::{Bitboard, Color, Direction, Point};

/// A score meaning "wins"; `MATE - n` wins in `n` plies.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this are wins or losses.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Whether a node whose side to move has a four-three or a double three, against an opponent with
/// no four to make, counts as won in five plies at once ([`wins_in_five`]). Since v2.14.
const QUICK_WINS: bool = true;
/// The deepest iteration.
pub const MAX_DEPTH: i32 = 64;
/// The deepest ply (quiescence included).
const MAX_PLY: i32 = 160;
/// Fours the quiescence plays in a row at most.
pub const QUIESCENCE_FOURS: i32 = 12;
/// Whether the quiescence plays only the fours on a line through the mover's last stone (within
/// four cells): it follows the attack that stone started instead of every four on the board.
/// On since v2.7 (BENCHMARKS.md, issue 17).
pub const QUIESCENCE_NEAR_LAST: bool = true;
/// The quiescence's plain fours: after this many fours in a row, the mover plays only fours whose
/// cell makes more besides ([`QUIESCENCE_COMBINATION`]). Since v2.7.
pub const QUIESCENCE_PLAIN_FOURS: i32 = 2;
/// The cell value ([`crate::engine::cells::CLASS_VALUE`] summed) of a four that makes a two or a
/// three on another line at once: a four alone is 45, with a two 55.
pub const QUIESCENCE_COMBINATION: i32 = 55;
/// Whether depth-0 leaves go into the quiescence of fours (else they take the evaluation; razoring
/// uses the quiescence either way). On since v2.6, which plays no threat-space search at the root
/// but its own VCF: the tree's leaves see the fours beyond the horizon instead.
pub const LEAF_QUIESCENCE: bool = true;
/// Whether a move that makes a four costs no depth (its block is forced and free too). Off: on,
/// it scored 43-3-54 (-38 Elo [-108, +28]) against off over 100 games at 300 ms a move.
pub const FOUR_EXTENSION: bool = false;
/// Moves tried at an inner node at most (best first; see [`MATED_BREADTH`]).
const BREADTH: usize = 28;
/// Past [`BREADTH`] while every move tried so far loses to a mate (session 49), at nodes of fewer
/// plies from the root than this (0: none, the default; `u8::MAX`: every node). With the hard cap
/// a node whose best-ordered moves all lose reports a mate even when a lower-ranked move escapes:
/// in a lost game of session 48 (SPSA knobs, breadth 16) the engine claimed a mate in seven whose
/// one refutation, an edge cell, ranked past the breadth, played it, and its attack came to
/// nothing. Going past the cap makes the claims sound (Rapfi and Stockfish prune late moves only
/// once a move has escaped the mate), but it played worse against Rapfi at 1 s: everywhere 0.305
/// against the cap's 0.360 over the same 100 slots, at the root's replies only 0.146 against
/// 0.354 over 24 (BENCHMARKS.md, session 49). Off until a cheaper form wins.
const MATED_BREADTH: u8 = 0;

/// Reply extensions along one line at most (0: none, the default): a move made while facing
/// the opponent's open three (the reply to a threat, as a check's reply in chess) costs no
/// depth while the line has had fewer than this many, so that a threat sequence of the
/// opponent's costs a ply a threat instead of two (`--knobs reply-ext=N`).
const REPLY_EXTENSIONS: u8 = 0;

/// Whether a four counts as a reply extension too (0: no, the default; `--knobs four-ext=1`):
/// a four costs no depth while the line has had fewer than [`REPLY_EXTENSIONS`] extensions.
const FOUR_EXTENSIONS: u8 = 0;

/// Whether a move that makes a three or more right after the same side's last move did (an
/// attack carried on, the shape of a threat sequence) is never reduced or pruned late, as an
/// important move (`--knobs attack-important=1`; off by default).
const ATTACK_IMPORTANT: bool = false;
/// Whether the replies to an open three are reduced and pruned late like any other move
/// (Rapfi's way: only the first defences are searched at full depth, so that a threat
/// sequence's other defences are refuted by shallower searches), instead of all being
/// important (`--knobs facing-reduce=0` for the old way). On since v2.21 (session 52): it
/// finds 41 of the 144 mates of `docs/tuning/mates-15-freestyle-rapfi1s.jsonl` at 1 s where
/// v2.19 found 19-20, and scored 0.415 and 0.400 against Rapfi at 1 s over two runs of 100
/// games where v2.19 scored 0.360 (BENCHMARKS.md, session 52).
const FACING_REDUCE: bool = true;
/// A forced block's extension beyond the ply it costs, in hundredths of a ply (0, the default:
/// a block costs nothing and gains nothing; `--knobs block-ext=H`). Rapfi extends a block of a
/// four by 1.3 plies, so that a run of fours costs 0.7 a four: here the hundredths add up along
/// the line and each whole ply they make is added to the depth at the block that completes it.
const BLOCK_EXTENSION: u8 = 0;
/// The move number (from 0, in the node's order) from which late moves are reduced at inner
/// nodes (`--knobs lmr-from=N`): the first two moves are searched at full depth by default,
/// Rapfi's only the first.
const LMR_FROM: usize = 2;
/// Whether moves made important by their cell values or by being killers are reduced late as
/// other moves are (Rapfi's way: it reduces every move but the first, importance only shading
/// the reduction), while still exempt from late-move pruning (`--knobs lmr-important=1`; off by
/// default). The table's move and the four-three defences stay unreduced. Session 53: 37 of the
/// mate set's 144 at 1 s (v2.21 41) and 41-1-58 against Rapfi at 1 s, +0.007 (se 0.033) slot by
/// slot against v2.21's two runs: no gain (BENCHMARKS.md).
const LMR_IMPORTANT: bool = false;
/// Whether a node whose evaluation is no better than at the same side's previous node (two
/// plies up) reduces its late moves a ply more when their reduction is already above one, and
/// with [`switch::MOVE_COUNT_PRUNING`] prunes after half the moves (Stockfish's and Rapfi's
/// "improving"; `--knobs improving=1`; off by default). Session 53: 41 of the mate set's 144
/// (as v2.21), but 3-0-18 against Rapfi at 1 s, -0.190 (se 0.094) slot by slot against v2.21:
/// stopped after 21 games (BENCHMARKS.md).
const IMPROVING: bool = false;
/// Whether the prunings before the moves (razoring, reverse futility, the null move) and the
/// fail-high reduction read the table's stored score instead of the static evaluation where the
/// stored bound says the score lies beyond it (Stockfish's and Rapfi's "ttValue as a better
/// evaluation"; `--knobs tt-eval=1`; off by default). Mates are never used so. Session 54: 38 of
/// the mate set's 144 at 1 s, 36-1-63 against Rapfi at 1 s, -0.060 (se 0.043) slot by slot
/// against v2.22: not kept (BENCHMARKS.md).
const TT_EVAL: bool = false;
/// Whether the history is kept as Stockfish and Rapfi keep theirs (`--knobs history-gravity=1`;
/// off by default): a cut-off adds a bonus to its move and takes it from every move searched
/// before it at the node, each update pulled towards zero in proportion to the value
/// ([`HISTORY_RANGE`]), so the history is a bounded, signed success rate. Off: a cut-off adds
/// `depth^2`, and nothing is taken away. Session 54: 40 of the mate set's 144, 43-1-56 against
/// Rapfi at 1 s (+0.010, se 0.038, against v2.22); with [`HISTORY_REDUCTION`] 45-1-54 and then
/// 38-1-61 in a second run (83-2-115 over 200, about v2.21-v2.22's 0.413): no gain shows, not
/// kept.
const HISTORY_GRAVITY: bool = false;
/// The bound of the history under [`HISTORY_GRAVITY`].
const HISTORY_RANGE: i32 = 1 << 16;
/// Whether the move order also reads a continuation history (Stockfish's counter-move history):
/// per colour, per cell of the opponent's last stone and per cell, how often a move there has cut
/// off after a stone there, kept as [`HISTORY_GRAVITY`] keeps the history and added to the order
/// score as the history is (`--knobs continuation=1`, with `history-gravity=1`; off by default).
/// Session 54, with gravity and the history reduction: 38-2-60 against Rapfi at 1 s, -0.035
/// (se 0.038) against v2.22: not kept.
const CONTINUATION: bool = false;
/// The per-ply evaluation where none is known.
const NO_EVAL: i32 = i32::MIN;
/// Cell values at or above this (to the mover or to the opponent) make a move "important": it is
/// never reduced or pruned late (a straight four, a five, or two threats at once, own or the
/// opponent's). Threes and single fours are reduced like any other move: at 40 (every three
/// important) nine moves in ten were, and the tree hardly narrowed; 250 scored +89 [+19, +159]
/// against 40 (with [`LATE_MOVES`] below and only real defences when facing a three, 100 games at
/// 300 ms a move, BENCHMARKS.md); against Rapfi the two score the same.
const IMPORTANT: i32 = 250;
/// Null move only from this depth, and only when the evaluation beats beta by
/// [`NULL_MOVE_MARGIN`]: rare, as Rapfi's. Since v2.8 (at depth 3 and any margin before).
const NULL_MOVE_DEPTH: i32 = 6;
/// See [`NULL_MOVE_DEPTH`].
const NULL_MOVE_MARGIN: i32 = 200;
/// Aspiration windows: from this root depth on, each iteration first searches a window of
/// [`ASPIRATION`] either side of the previous iteration's score, widened on a failure. Since v2.8.
const ASPIRATION_DEPTH: i32 = 5;
/// See [`ASPIRATION_DEPTH`].
const ASPIRATION: i32 = 20;
/// Razoring margins by depth (1..=3).
const RAZOR: [i32; 4] = [0, 180, 320, 480];
/// Reverse-futility margin per ply of depth.
const FUTILITY: i32 = 90;
/// The deepest node where reverse futility applies (`--knobs futility-depth=N`). Rapfi's
/// classical search has no such limit (its margin grows with the depth instead).
const FUTILITY_DEPTH: i32 = 6;
/// Move-count pruning in Rapfi's form, in percent of its count (`--knobs move-count=P`; 0, the
/// default: off): at every node but the root, PV and facing nodes included, once a move that
/// escapes a mate has been found, the moves from the `(3 + depth^1.32) * P / 100`-th on are
/// skipped, whatever they are (Rapfi prunes so at every depth, halving the count where the
/// evaluation has not improved).
const MOVE_COUNT: u16 = 0;

/// Correction history (Stockfish's, 2023-24; off by default): the static evaluation is moved by
/// what the search has found it misses in positions with the same stones of one colour. Two
/// tables per side to move, one keyed by the side to move's stones, one by the opponent's
/// ([`Position::colour_hash`]); each entry learns the mean of (search score - corrected
/// evaluation) at the nodes whose best move is quiet, weighted by depth, and the evaluation adds
/// this many percent of the two entries' mean.
const CORRECTION: u16 = 0;

/// Extensions of the table's move in hundredths of a ply, after Rapfi's (off by default;
/// `--knobs ttm-ext=1`): where no singular test ran, the table's move gains 25 at PV nodes and 8
/// elsewhere, and 24 more when it makes a four within four cells of the mover's last stone (5
/// within six). The hundredths add up along the line as a block's extension does.
const TTM_EXTENSION: bool = false;
/// The table's move's extension at PV nodes, in hundredths of a ply ([`TTM_EXTENSION`]).
const TTM_EXT_PV: u8 = 25;
/// The same at other nodes.
const TTM_EXT_NON_PV: u8 = 8;
/// The same for a four near the mover's last stone: within four cells, within six.
const TTM_EXT_NEAR_FOUR: [u8; 2] = [24, 5];

/// Double singular extension, after Stockfish's and Rapfi's (0, the default: off;
/// `--knobs double-se=M`): at a non-PV node, a table's move whose singular test leaves every
/// other move more than M evaluation units under the bar is searched two plies deeper, at most
/// [`DOUBLE_SE_LIMIT`] times along a line.
const DOUBLE_SE: u16 = 0;
/// See [`DOUBLE_SE`].
const DOUBLE_SE_LIMIT: u8 = 10;

/// The root's late-move reduction in percent of the inner nodes' (`--knobs root-reduce=P`;
/// 100, the default, the same reduction).
const ROOT_REDUCE: u16 = 100;
/// Plies taken off the root's late-move reduction, after the scaling by [`ROOT_REDUCE`]
/// (`--knobs root-less=N`; 0, the default). Rapfi's root, a PV node on the PV, reduces about
/// two plies less than its other nodes.
const ROOT_LESS: u8 = 0;
/// Plies taken off the late-move reduction at inner PV nodes beyond the one they already lose
/// (`--knobs pv-less=N`; 0, the default). Rapfi's PV nodes reduce about two plies less than its
/// others (one for the open window, one for being on the PV).
const PV_LESS: u8 = 0;
/// The root's order between iterations (`--knobs root-order=1`; off by default): as Stockfish and
/// Rapfi keep it, only the moves that raised alpha (and the first) are ranked by their scores;
/// the others keep their places, instead of being sorted by the upper bounds their null-window
/// searches returned, which sends a move refuted once at a shallow reduced depth to the end of
/// the list, where it is reduced even more.
const ROOT_ORDER: bool = false;

/// Entries of each correction table (a power of two).
const CORRECTION_SLOTS: usize = 1 << 14;

/// Correction entries are in 64ths of an evaluation unit.
const CORRECTION_GRAIN: i32 = 64;

/// The largest correction an entry holds, in evaluation units.
const CORRECTION_LIMIT: i32 = 200;
/// Late-move pruning: moves tried at depth `d` (1..=6) before the unimportant ones are skipped
/// (3 + d * d / 2).
const LATE_MOVES: [usize; 7] = [0, 3, 5, 7, 11, 15, 21];
/// Singular extension (since v2.11): at a node of at least this depth, the table's move, when the
/// table holds a lower bound (or exact score) for the node at most [`SINGULAR_TABLE_DEPTH`] plies
/// shallower, is searched a ply deeper if every other move, searched at half the depth, scores
/// below the stored score less [`SINGULAR_MARGIN`] a ply of depth: it is the only good move.
/// When even the others reach beta, the node fails high at once (multi-cut); when they reach the
/// margin but not beta while the stored score is above beta, the table's move is searched a ply
/// shallower.
const SINGULAR_DEPTH: i32 = 7;
/// See [`SINGULAR_DEPTH`].
const SINGULAR_TABLE_DEPTH: i32 = 2;
/// See [`SINGULAR_DEPTH`]; evaluation units a ply of depth.
const SINGULAR_MARGIN: i32 = 2;
/// Late-move reductions are `ln(depth) * ln(move number) / LMR_DIVISOR` plies: 1.0 scored +74
/// [+5, +143] against 1.8, and 0.75 +21 [-47, +89] against 1.0 (100 games each at 300 ms).
const LMR_DIVISOR: f64 = 1.0;
/// The late-move divisor grows with the search's time: it is [`LMR_DIVISOR`] plus this much per
/// doubling of the time alpha-beta is given beyond [`LMR_BASE_TIME`] (none under it, nor in a
/// search limited by nodes alone). Against Rapfi at 5 s a move, divisors 1.0, 1.4 and 2.0 scored
/// 0.250, 0.300 and 0.350 (40 games each, sessions 39-40) and 3.0 0.300 (session 41), while at
/// 1 s 1.4 scored 0.360 against 1.0's 0.405 (100 games each, session 40): longer searches want
/// lighter reductions. But growth 0.5 (about 2.0 at 5 s a move, where alpha-beta gets about 4 s;
/// 1 s a move unchanged) scored 0.263 over 40 games (session 41): no gain established, so none
/// by default; `--knobs lmr-growth=G` for experiments.
const LMR_GROWTH: f64 = 0.0;
/// See [`LMR_GROWTH`].
const LMR_BASE_TIME: Duration = Duration::from_secs(1);
/// See [`LMR_GROWTH`]: the divisor grows no further beyond this many doublings (16 s), where
/// nothing has been measured; an analysis without a time limit keeps the base divisor.
const LMR_MAX_DOUBLINGS: f64 = 4.0;
/// Policy-based reduction (since v2.13, after Rapfi's): a reduced move whose order score
/// ([`Position::order`], hundredths of a logit) lies more than this below the best of the node's
/// moves is reduced a ply more. 200 and 300 scored 0.395 and 0.398 against Rapfi at 300 ms where
/// the same build without it scored 0.330, and a graded reduction (a ply more each further 150
/// from 150, at most 3) 0.312 (200 games each).
const POLICY_GAP: i32 = 200;

/// Cut-node reduction (since v2.15, after Rapfi's and Stockfish's): at a node expected to fail
/// high (a null-window child searched in the role of a refutation: see [`Tree::search`]'s `cut`),
/// a late move that is reduced at all is reduced this many plies more. 2 scored 0.385 against
/// Rapfi at 300 ms where the same build without it scored 0.310 (200 games each, session 22), but
/// 0.335 at 1 s against v2.14's 0.355 and +17 Elo [-50, +85] in self-play (100 games each): kept
/// on weak evidence, as the standard form of the technique.
const CUT_REDUCTION: i32 = 2;

/// Counter moves (after Stockfish's and Rapfi's): per colour and per cell of the opponent's last
/// move, the move that last cut off after it; the move picker tries it after the killers, before
/// the moves ordered by cell values and history. On since v2.16, with [`IIR_DEPTH`] and
/// [`PV_TABLE_REDUCTION`]: the three together scored 0.388 against Rapfi at 300 ms where v2.15
/// scored 0.312 (200 games each; each alone 0.343-0.364, session 31). With
/// [`HISTORY_REDUCTION`] too, the four scored 0.405 over 400 games, but lost one line six times
/// to the PyPI `gomoku` AI at the CI test's fixed 150,000 nodes (34 of 40; the three: 40).
const COUNTER_MOVES: bool = true;
/// The counter move's order bonus: below the killers' (2^21 and 2^22), above any history (at most
/// 2^16) plus cell order.
const COUNTER_BONUS: i64 = 1 << 20;

/// Internal iterative reduction (after Stockfish's and Rapfi's): a node of at least this depth
/// with no table move is searched a ply shallower (0: never). On from 4 since v2.16 (see
/// [`COUNTER_MOVES`]); alone it scored 0.385 and 0.343 in two runs against Rapfi at 300 ms.
const IIR_DEPTH: i32 = 4;

/// PV table-entry reduction (after Rapfi's reduction of a PV node whose table move has not been
/// chosen for a few iterations): a PV node whose table move comes from an entry this many plies
/// shallower or more is searched a ply shallower, two plies from twice the gap.
const PV_TABLE_GAP: i32 = 3;
/// Whether [`PV_TABLE_GAP`]'s reduction is on: since v2.16 (see [`COUNTER_MOVES`]).
const PV_TABLE_REDUCTION: bool = true;

/// History in the reductions (after Stockfish's and Rapfi's statistics term): a late move that is
/// reduced at all is reduced a ply more when its history is 0 or less, a ply less when it is
/// [`HISTORY_HIGH`] or more. Where that leaves a reduction of -1, the move is searched a ply
/// deeper than its siblings (Rapfi's reduced searches may also go a ply deeper). Off: with
/// the three of v2.16 it scored 0.350 against Rapfi at 300 ms where the three alone scored 0.388
/// (200 games each, session 32). `--knobs history-reduction=1` turns it on (session 54: with
/// [`HISTORY_GRAVITY`], 83-2-115 over two runs of 100 at 1 s against Rapfi, no gain).
const HISTORY_REDUCTION: bool = false;
/// The history above which a move is reduced a ply less: a cut-off at depth `d` adds `d^2`.
const HISTORY_HIGH: i32 = 4096;

/// Less reduction where the PV has been (Stockfish's `ttPv`, which Rapfi credits with about 10
/// Elo): a node searched as a PV node, or whose table entry was stored by one, marks its entry,
/// and at such a node that is not itself a PV node a reduced late move is reduced a ply less (not
/// below none). PV nodes already reduce a ply less ([`reduction`]).
const TTPV_REDUCTION: bool = false;

/// Search switches (session 33), bits of [`SWITCHES`]; a field of the tree so that tests can
/// turn each on and off. Screened against Rapfi in BENCHMARKS.md (session 33).
pub mod switch {
    /// Four-three defence: facing a four-three of the opponent's (and no open three), only the
    /// moves of [`Tree::defences_of_four_three`], none of them reduced or pruned late.
    pub const B4F3: u32 = 1;
    /// Delaying fours (after Rapfi's): facing an open three, a four of ours that does not stop it
    /// is no longer "important": reduced like a late move, two plies more when more than four cells
    /// from the opponent's last stone and one more when that far from our own; below depth 4, one
    /// far from both gets only the quiescence (its block, then our fours), and a full search only
    /// when that beats alpha. Rapfi skips such fours; session 33 screened skipping (0.443 against
    /// Rapfi at 300 ms, control 0.350), but it drops a VCF that starts far from the last stones,
    /// which the suite test below catches.
    pub const DELAY_FOURS: u32 = 2;
    /// Razoring at nodes facing an open three: at a non-PV node of depth 2 or less, a quiescence
    /// that cannot reach alpha ends the node.
    pub const FACING_RAZOR: u32 = 4;
    /// Continued attacks (Rapfi's): a move that makes a three or more, when the same side's move
    /// two plies before did too, is reduced a ply less.
    pub const CONTINUED_ATTACK: u32 = 8;
    /// Depth cut after an improvement (Stockfish's and Rapfi's): once a move raises alpha (below
    /// beta) at a node of depth 3 to 11, the remaining moves are searched a ply shallower.
    pub const ALPHA_CUT: u32 = 16;
    /// Moves that make nothing (Rapfi's): at a non-PV node of depth 4 or less that faces no threat,
    /// a move whose cell is worth less than an open two to either side (cell value under 10) is
    /// skipped after the first move.
    pub const PRUNE_NOTHING: u32 = 32;
    /// Fail-high reduction (Rapfi's): at a non-PV cut node whose evaluation beats beta by 23 a ply
    /// of depth less 14 (135 more facing an open three), every move but the first and the fours a
    /// ply shallower.
    pub const FAIL_HIGH_REDUCTION: u32 = 64;
    /// Move-count pruning at every depth (Rapfi's): at a non-PV node that faces no open three, the
    /// moves after the first 3 + depth^1.32 are skipped unless worth [`IMPORTANT`] to either side
    /// or the table's move.
    pub const MOVE_COUNT_PRUNING: u32 = 128;
    /// As [`switch::B4F3`], but the defences are reduced and pruned late as other moves are.
    pub const B4F3_REDUCED: u32 = 256;
    /// Delaying fours pay for their block (session 38): facing an open three, a four of ours that
    /// does not stop it (other than the table's move) is searched a ply shallower. The forced
    /// block that answers a four costs no depth, so without this a chain of such fours costs one
    /// ply for every two moves, and in middle games 30-60% of the tree lay under them.
    pub const DELAY_PLY: u32 = 512;

    /// Every switch by its name (the constant's, lower case with hyphens).
    pub const NAMES: [(&str, u32); 10] = [
        ("b4f3", B4F3),
        ("delay-fours", DELAY_FOURS),
        ("facing-razor", FACING_RAZOR),
        ("continued-attack", CONTINUED_ATTACK),
        ("alpha-cut", ALPHA_CUT),
        ("prune-nothing", PRUNE_NOTHING),
        ("fail-high-reduction", FAIL_HIGH_REDUCTION),
        ("move-count-pruning", MOVE_COUNT_PRUNING),
        ("b4f3-reduced", B4F3_REDUCED),
        ("delay-ply", DELAY_PLY),
    ];

    /// The switches of a comma-separated list of names (`none`: no switch).
    ///
    /// # Errors
    /// An unknown name, with the known ones.
    pub fn parse(list: &str) -> Result<u32, String> {
        let mut bits = 0;
        for name in list
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty() && *n != "none")
        {
            match NAMES.iter().find(|(n, _)| *n == name) {
                Some(&(_, bit)) => bits |= bit,
                None => {
                    let known: Vec<&str> = NAMES.iter().map(|(n, _)| *n).collect();
                    return Err(format!(
                        "unknown search switch '{name}' (known: none, {})",
                        known.join(", ")
                    ));
                }
            }
        }
        Ok(bits)
    }
}

/// Numeric search parameters for experiments (`pbrain-stonelab --knobs lmr-divisor=1.4,...`);
/// the defaults are the engine's constants, so a tree without knobs set is the engine's own.
pub mod knob {
    /// The numbers a tree reads instead of its constants.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Knobs {
        /// [`super::LMR_DIVISOR`].
        pub lmr_divisor: f64,
        /// [`super::LMR_GROWTH`].
        pub lmr_growth: f64,
        /// [`super::POLICY_GAP`].
        pub policy_gap: i32,
        /// [`super::CUT_REDUCTION`].
        pub cut_reduction: i32,
        /// The evaluation's style in percent ([`crate::engine::position::Position::set_style`]):
        /// 0, the plain evaluation, by default.
        pub style: i32,
        /// Added to [`Knobs::style`] when the searching side is White (the sum kept within
        /// -50..=50); 0 by default.
        pub white_style: i32,
        /// Every how many of the main thread's stand-pat evaluations a position is kept for
        /// tuning ([`super::Tree::take_leaves`]); 0, none, by default.
        pub leaf_sample: u64,
        /// [`crate::engine::position::Position::set_smooth`] while the tree searches: 0 (off,
        /// the default) or 1.
        pub smooth: u8,
        /// The evaluation's tempo in percent ([`crate::engine::position::Position::set_tempo`]):
        /// 0, the plain evaluation, by default.
        pub tempo: i32,
        /// The root's own VCT before alpha-beta, in thousandths of the move's budget (0: none,
        /// the default; [`crate::engine::params::ROOT_OWN_VCT`]).
        pub own_vct: u32,
        /// The pruning margins and widths.
        pub margins: Margins,
    }

    /// The search's margins and widths, for tuning (`scripts/gomoku-spsa`); each defaults to
    /// the engine's constant.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Margins {
        /// [`super::IMPORTANT`].
        pub important: i32,
        /// [`super::NULL_MOVE_DEPTH`].
        pub null_move_depth: i32,
        /// [`super::NULL_MOVE_MARGIN`].
        pub null_move_margin: i32,
        /// [`super::ASPIRATION`].
        pub aspiration: i32,
        /// [`super::RAZOR`] scaled by this many percent.
        pub razor: i32,
        /// [`super::FUTILITY`].
        pub futility: i32,
        /// [`super::LATE_MOVES`] scaled by this many percent (rounded up).
        pub late_moves: i32,
        /// [`super::SINGULAR_MARGIN`].
        pub singular_margin: i32,
        /// [`super::QUIESCENCE_COMBINATION`].
        pub quiescence_combination: i32,
        /// [`super::BREADTH`].
        pub breadth: usize,
        /// Past the breadth while every move tried loses to a mate, at nodes of fewer plies than
        /// this ([`super::MATED_BREADTH`]; 0, the default: the breadth is a hard cap).
        pub mated_breadth: u8,
        /// [`super::REPLY_EXTENSIONS`].
        pub reply_extensions: u8,
        /// [`super::FOUR_EXTENSIONS`].
        pub four_extensions: u8,
        /// [`super::ATTACK_IMPORTANT`].
        pub attack_important: bool,
        /// [`super::FACING_REDUCE`].
        pub facing_reduce: bool,
        /// [`super::BLOCK_EXTENSION`].
        pub block_extension: u8,
        /// [`super::LMR_FROM`].
        pub lmr_from: usize,
        /// [`super::LMR_IMPORTANT`].
        pub lmr_important: bool,
        /// [`super::IMPROVING`].
        pub improving: bool,
        /// [`super::TT_EVAL`].
        pub tt_eval: bool,
        /// [`super::HISTORY_GRAVITY`].
        pub history_gravity: bool,
        /// [`super::HISTORY_REDUCTION`].
        pub history_reduction: bool,
        /// [`super::CONTINUATION`].
        pub continuation: bool,
        /// [`super::FUTILITY_DEPTH`].
        pub futility_depth: i32,
        /// [`super::MOVE_COUNT`].
        pub move_count: u16,
        /// [`super::CORRECTION`].
        pub correction: u16,
        /// [`super::TTM_EXTENSION`].
        pub ttm_extension: bool,
        /// [`super::DOUBLE_SE`].
        pub double_se: u16,
        /// [`super::ROOT_REDUCE`].
        pub root_reduce: u16,
        /// [`super::ROOT_LESS`].
        pub root_less: u8,
        /// [`super::PV_LESS`].
        pub pv_less: u8,
        /// [`super::ROOT_ORDER`].
        pub root_order: bool,
    }

    impl Default for Margins {
        fn default() -> Margins {
            Margins {
                important: super::IMPORTANT,
                null_move_depth: super::NULL_MOVE_DEPTH,
                null_move_margin: super::NULL_MOVE_MARGIN,
                aspiration: super::ASPIRATION,
                razor: 100,
                futility: super::FUTILITY,
                late_moves: 100,
                singular_margin: super::SINGULAR_MARGIN,
                quiescence_combination: super::QUIESCENCE_COMBINATION,
                breadth: super::BREADTH,
                mated_breadth: super::MATED_BREADTH,
                reply_extensions: super::REPLY_EXTENSIONS,
                four_extensions: super::FOUR_EXTENSIONS,
                attack_important: super::ATTACK_IMPORTANT,
                facing_reduce: super::FACING_REDUCE,
                block_extension: super::BLOCK_EXTENSION,
                lmr_from: super::LMR_FROM,
                lmr_important: super::LMR_IMPORTANT,
                improving: super::IMPROVING,
                tt_eval: super::TT_EVAL,
                history_gravity: super::HISTORY_GRAVITY,
                history_reduction: super::HISTORY_REDUCTION,
                continuation: super::CONTINUATION,
                futility_depth: super::FUTILITY_DEPTH,
                move_count: super::MOVE_COUNT,
                correction: super::CORRECTION,
                ttm_extension: super::TTM_EXTENSION,
                double_se: super::DOUBLE_SE,
                root_reduce: super::ROOT_REDUCE,
                root_less: super::ROOT_LESS,
                pv_less: super::PV_LESS,
                root_order: super::ROOT_ORDER,
            }
        }
    }

    impl Margins {
        /// The razoring margin at `depth` (1..=3).
        #[must_use]
        pub fn razor_at(&self, depth: i32) -> i32 {
            super::RAZOR[depth as usize] * self.razor / 100
        }

        /// The moves tried at `depth` (1..=6) before unimportant ones are skipped; `None`
        /// deeper.
        #[must_use]
        pub fn late_moves_at(&self, depth: i32) -> Option<usize> {
            let base = *super::LATE_MOVES.get(usize::try_from(depth).ok()?)?;
            Some((base * self.late_moves as usize).div_ceil(100))
        }
    }

    // The divisor is never NaN (`parse` keeps it in a range), so equality is total.
    impl Eq for Knobs {}

    impl Default for Knobs {
        fn default() -> Knobs {
            Knobs {
                lmr_divisor: super::LMR_DIVISOR,
                lmr_growth: super::LMR_GROWTH,
                policy_gap: super::POLICY_GAP,
                cut_reduction: super::CUT_REDUCTION,
                style: 0,
                white_style: 0,
                leaf_sample: 0,
                smooth: 0,
                tempo: 0,
                own_vct: if crate::engine::params::ROOT_OWN_VCT {
                    crate::engine::params::OWN_VCT_SHARE * 10
                } else {
                    0
                },
                margins: Margins::default(),
            }
        }
    }

    /// Every knob's name, for messages.
    pub const NAMES: [&str; 42] = [
        "lmr-divisor",
        "lmr-growth",
        "policy-gap",
        "cut-reduction",
        "style",
        "leaf-sample",
        "smooth",
        "tempo",
        "important",
        "null-move-depth",
        "null-move-margin",
        "aspiration",
        "razor",
        "futility",
        "late-moves",
        "singular-margin",
        "quiescence-combination",
        "breadth",
        "mated-breadth",
        "own-vct",
        "reply-ext",
        "four-ext",
        "attack-important",
        "facing-reduce",
        "block-ext",
        "lmr-from",
        "lmr-important",
        "improving",
        "tt-eval",
        "history-gravity",
        "history-reduction",
        "continuation",
        "futility-depth",
        "move-count",
        "white-style",
        "correction",
        "ttm-ext",
        "double-se",
        "root-reduce",
        "root-less",
        "pv-less",
        "root-order",
    ];

    /// The knobs of a comma-separated list of `name=value` (the others at their defaults;
    /// `none` or an empty list: all at their defaults).
    ///
    /// # Errors
    /// An unknown name (with the known ones), a missing `=`, or a value out of range.
    pub fn parse(list: &str) -> Result<Knobs, String> {
        let mut k = Knobs::default();
        for item in list
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty() && *n != "none")
        {
            let Some((name, value)) = item.split_once('=') else {
                return Err(format!("search knob '{item}' is not NAME=VALUE"));
            };
            let (name, value) = (name.trim(), value.trim());
            match name {
                "lmr-divisor" => k.lmr_divisor = number(name, value, 0.25..=16.0)?,
                "lmr-growth" => k.lmr_growth = number(name, value, 0.0..=8.0)?,
                "policy-gap" => k.policy_gap = number(name, value, 0..=100_000)?,
                "cut-reduction" => k.cut_reduction = number(name, value, 0..=4)?,
                "style" => k.style = number(name, value, -50..=50)?,
                "white-style" => k.white_style = number(name, value, -50..=50)?,
                "leaf-sample" => k.leaf_sample = number(name, value, 0..=1_000_000_000)?,
                "smooth" => k.smooth = number(name, value, 0..=1)?,
                "tempo" => k.tempo = number(name, value, -50..=50)?,
                "important" => k.margins.important = number(name, value, 1..=100_000)?,
                "null-move-depth" => k.margins.null_move_depth = number(name, value, 1..=64)?,
                "null-move-margin" => {
                    k.margins.null_move_margin = number(name, value, -10_000..=100_000)?;
                }
                "aspiration" => k.margins.aspiration = number(name, value, 1..=100_000)?,
                "razor" => k.margins.razor = number(name, value, 0..=1000)?,
                "futility" => k.margins.futility = number(name, value, 0..=100_000)?,
                "late-moves" => k.margins.late_moves = number(name, value, 10..=1000)?,
                "singular-margin" => k.margins.singular_margin = number(name, value, 0..=1000)?,
                "quiescence-combination" => {
                    k.margins.quiescence_combination = number(name, value, 0..=100_000)?;
                }
                "breadth" => k.margins.breadth = number(name, value, 1..=400)?,
                "mated-breadth" => k.margins.mated_breadth = number(name, value, 0..=255)?,
                "own-vct" => k.own_vct = number(name, value, 0..=500)?,
                "reply-ext" => k.margins.reply_extensions = number(name, value, 0..=64)?,
                "four-ext" => k.margins.four_extensions = number(name, value, 0..=1)?,
                "attack-important" => {
                    k.margins.attack_important = number::<u8>(name, value, 0..=1)? == 1;
                }
                "facing-reduce" => {
                    k.margins.facing_reduce = number::<u8>(name, value, 0..=1)? == 1;
                }
                "block-ext" => k.margins.block_extension = number(name, value, 0..=100)?,
                "lmr-from" => k.margins.lmr_from = number(name, value, 1..=64)?,
                "lmr-important" => {
                    k.margins.lmr_important = number::<u8>(name, value, 0..=1)? == 1;
                }
                "improving" => k.margins.improving = number::<u8>(name, value, 0..=1)? == 1,
                "tt-eval" => k.margins.tt_eval = number::<u8>(name, value, 0..=1)? == 1,
                "history-gravity" => {
                    k.margins.history_gravity = number::<u8>(name, value, 0..=1)? == 1;
                }
                "history-reduction" => {
                    k.margins.history_reduction = number::<u8>(name, value, 0..=1)? == 1;
                }
                "continuation" => {
                    k.margins.continuation = number::<u8>(name, value, 0..=1)? == 1;
                }
                "futility-depth" => k.margins.futility_depth = number(name, value, 0..=64)?,
                "move-count" => k.margins.move_count = number(name, value, 0..=1000)?,
                "correction" => k.margins.correction = number(name, value, 0..=400)?,
                "ttm-ext" => k.margins.ttm_extension = number::<u8>(name, value, 0..=1)? == 1,
                "double-se" => k.margins.double_se = number(name, value, 0..=1000)?,
                "root-reduce" => k.margins.root_reduce = number(name, value, 0..=400)?,
                "root-less" => k.margins.root_less = number(name, value, 0..=16)?,
                "pv-less" => k.margins.pv_less = number(name, value, 0..=16)?,
                "root-order" => k.margins.root_order = number::<u8>(name, value, 0..=1)? == 1,
                _ => {
                    return Err(format!(
                        "unknown search knob '{name}' (known: {})",
                        NAMES.join(", ")
                    ))
                }
            }
        }
        Ok(k)
    }

    /// The knob `name`'s `value`, refused when it does not parse or lies outside `range`.
    fn number<T>(name: &str, value: &str, range: std::ops::RangeInclusive<T>) -> Result<T, String>
    where
        T: std::str::FromStr + PartialOrd + std::fmt::Display,
    {
        let v: T = value
            .parse()
            .map_err(|_| format!("search knob {name}: bad value '{value}'"))?;
        if range.contains(&v) {
            Ok(v)
        } else {
            Err(format!(
                "search knob {name}: {v} is not in {}..={}",
                range.start(),
                range.end()
            ))
        }
    }
}

/// The switches on by default: none yet. Each of the session's screen scored at or above the
/// control against Rapfi at 300 ms, but none is established at 1 s (BENCHMARKS.md, session 33),
/// so the search is v2.16's.
pub const SWITCHES: u32 = 0;

/// Table generations wrap at 32 (five bits of an entry's meta byte).
const GENERATION_MASK: u8 = 31;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    None,
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// What a node's `best` score is, searched with the window (`alpha0`, `beta`).
    fn of(best: i32, alpha0: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One transposition-table entry, packed into a `u64` in the shared table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    score: i32,
    best: u16,
    depth: i8,
    /// Bound in bits 0..2, "was on the PV" in bit 2 ([`TTPV_REDUCTION`]), generation in bits
    /// 3..8.
    meta: u8,
}

impl Entry {
    fn bound(self) -> Bound {
        match self.meta & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => Bound::None,
        }
    }

    fn generation(self) -> u8 {
        self.meta >> 3
    }

    /// Whether the node was a PV node, or had an entry that said so, when this was stored.
    fn was_pv(self) -> bool {
        self.meta & 4 != 0
    }

    fn pack(self) -> u64 {
        u64::from(self.score as u32)
            | u64::from(self.best) << 32
            | u64::from(self.depth as u8) << 48
            | u64::from(self.meta) << 56
    }

    fn unpack(bits: u64) -> Entry {
        Entry {
            score: bits as u32 as i32,
            best: (bits >> 32) as u16,
            depth: (bits >> 48) as u8 as i8,
            meta: (bits >> 56) as u8,
        }
    }
}

/// One slot of the shared table: the entry, and the key XOR the entry, so that a slot torn by two
/// threads writing at once reads as a miss rather than as a wrong entry (Hyatt's lockless scheme).
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The transposition table, shared by the search threads: two-slot buckets of 16 bytes a slot.
///
/// The slots live in an anonymous memory map rather than on the heap: the kernel hands its pages
/// over zeroed when first touched, so a table of hundreds of MiB costs nothing to make (a new game
/// makes one) and only the pages the search reaches are ever resident; and on Linux the map asks
/// for transparent huge pages, so that probes scattered over the table miss the TLB less. Where
/// the map cannot be made, the slots go on the heap.
#[derive(Debug)]
pub struct Table {
    storage: Storage,
    /// The number of slots, a power of two.
    len: usize,
}

#[derive(Debug)]
enum Storage {
    Mapped(memmap2::MmapMut),
    Heap(Box<[Slot]>),
}

/// Bytes of one transposition-table slot.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Slot>();

/// The largest table: 16 GiB (`pbrain-stonelab --tt-mib`'s largest).
pub const MAX_TABLE_BYTES: usize = 16 << 30;

impl Table {
    /// A table of about `bytes` (a power of two slots, at least 1024, at most
    /// [`MAX_TABLE_BYTES`]).
    #[must_use]
    pub fn new(bytes: usize) -> Table {
        let len = (bytes / ENTRY_BYTES).clamp(1024, MAX_TABLE_BYTES / ENTRY_BYTES);
        let mut len = 1usize << (usize::BITS - 1 - len.leading_zeros());
        // A map the system refuses is tried at half the size, down to a small one on the heap.
        loop {
            if let Ok(map) = memmap2::MmapMut::map_anon(len * ENTRY_BYTES) {
                #[cfg(target_os = "linux")]
                // Only advice: without huge pages the table works the same, a little slower.
                let _ = map.advise(memmap2::Advice::HugePage);
                return Table {
                    storage: Storage::Mapped(map),
                    len,
                };
            }
            if len <= 1 << 16 {
                return Table {
                    storage: Storage::Heap((0..len).map(|_| Slot::default()).collect()),
                    len,
                };
            }
            len /= 2;
        }
    }

    /// The slots.
    #[inline]
    fn slots(&self) -> &[Slot] {
        match &self.storage {
            // SAFETY: the map is `len * ENTRY_BYTES` bytes, page-aligned (more than a slot's
            // 8-byte alignment), zeroed by the kernel (all zeros is a valid pair of atomics), and
            // lives as long as `self`; every access to it goes through these atomics.
            Storage::Mapped(map) => unsafe {
                std::slice::from_raw_parts(map.as_ptr().cast::<Slot>(), self.len)
            },
            Storage::Heap(slots) => slots,
        }
    }

    /// The table's size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.len * ENTRY_BYTES
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Asks the processor to bring in the bucket of `key` (a hint): called right after a move, so
    /// that the child's probe finds it in the cache.
    #[inline]
    fn prefetch(&self, key: u64) {
        let base = (key as usize) & (self.len - 1) & !1;
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch reads nothing and writes nothing; the address is a valid reference.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                std::ptr::from_ref(&self.slots()[base]).cast::<i8>(),
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = base;
    }

    /// The entry in slot `i` if it belongs to `key`.
    #[inline]
    fn load(&self, i: usize, key: u64) -> Option<Entry> {
        let slot = &self.slots()[i];
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (check ^ data == key && data != 0).then(|| Entry::unpack(data))
    }

    /// The entry in slot `i`, whoever it belongs to (for replacement).
    #[inline]
    fn peek(&self, i: usize) -> Entry {
        Entry::unpack(self.slots()[i].data.load(Ordering::Relaxed))
    }

    #[inline]
    fn save(&self, i: usize, key: u64, e: Entry) {
        let data = e.pack();
        let slot = &self.slots()[i];
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

/// One thread's search state: the shared transposition table, its own move-order statistics and
/// limits, and the flag that stops every thread.
#[derive(Debug)]
pub struct Tree {
    table: Arc<Table>,
    generation: u8,
    /// Per cell, per colour: cutoffs weighted by depth squared.
    history: Vec<[i32; 2]>,
    /// Per ply: the two latest moves that cut off.
    killers: Vec<[u16; 2]>,
    /// Per cell of the opponent's last move, per colour to move: the latest reply that cut off
    /// (`u16::MAX`: none).
    counters: Vec<[u16; 2]>,
    /// The continuation history ([`CONTINUATION`]): at `last * cells + cell`, per colour (empty
    /// unless the knob is on).
    continuation: Vec<[i32; 2]>,
    /// [`COUNTER_MOVES`], a field so that tests can switch it off.
    counter_moves: bool,
    /// [`IIR_DEPTH`], a field so that tests can switch it.
    iir_depth: i32,
    /// [`PV_TABLE_REDUCTION`], a field so that tests can switch it.
    pv_table_reduction: bool,
    /// [`HISTORY_REDUCTION`], a field so that tests can switch it.
    history_reduction: bool,
    /// [`TTPV_REDUCTION`], a field so that tests can switch it.
    ttpv_reduction: bool,
    /// [`SWITCHES`], a field so that tests can switch each.
    switches: u32,
    /// Per ply: whether the move made there made a three or more for its side.
    attacked: Vec<bool>,
    /// Move lists given back by the nodes that used them, for the next nodes to fill.
    move_buffers: Vec<Vec<Point>>,
    /// The scored candidates' buffer of [`Tree::moves`].
    scored_buffer: Vec<(i64, usize, Point)>,
    /// Per ply: the static evaluation of the node there for its side to move ([`NO_EVAL`] at a
    /// forced block or a node not yet evaluated), for [`IMPROVING`].
    evals: Vec<i32>,
    /// Per ply: the reply extensions along the line to the node there
    /// ([`knob::Margins::reply_extensions`]).
    extended: Vec<u8>,
    /// Double singular extensions along the line to each ply ([`DOUBLE_SE`]).
    doubled: Vec<u8>,
    /// The root moves (their places in the iteration's list) that raised alpha in the last root
    /// iteration, the first included ([`ROOT_ORDER`]).
    raised: Vec<usize>,
    /// Per ply: the hundredths of a ply of block extension carried along the line to the node
    /// there ([`knob::Margins::block_extension`]).
    credit: Vec<u8>,
    size: usize,
    pub nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Set by the main thread when it stops; helpers poll it.
    stop: Arc<AtomicBool>,
    /// Set from outside (a front end's `YXSTOP`): every thread stops as at its deadline.
    abort: Arc<AtomicBool>,
    pub stopped: bool,
    /// Whether the quiescence is selective ([`QUIESCENCE_NEAR_LAST`],
    /// [`QUIESCENCE_PLAIN_FOURS`]); off, it tries every four (tests compare the two).
    selective: bool,
    /// The policy-based reduction's gap ([`POLICY_GAP`]; `i32::MAX`: none, for tests).
    policy_gap: i32,
    /// [`CUT_REDUCTION`], a field so that tests can switch it off.
    cut_reduction: i32,
    /// The evaluation's style for the searching side ([`knob::Knobs::style`]).
    style: i32,
    /// What White adds to it ([`knob::Knobs::white_style`]).
    white_style: i32,
    /// The evaluation's tempo ([`knob::Knobs::tempo`]).
    tempo: i32,
    /// [`LMR_DIVISOR`], a field so that experiments can set it ([`knob`]).
    lmr_divisor: f64,
    /// [`LMR_GROWTH`], likewise.
    lmr_growth: f64,
    /// The divisor of the search under way: `lmr_divisor` grown for its time ([`LMR_GROWTH`]).
    lmr_now: f64,
    /// Whether nodes with a sure win in five plies end at once ([`QUICK_WINS`]; off for tests).
    quick_wins: bool,
    /// Per ply: the move a singular search leaves out at that node (`u16::MAX`: none).
    excluded: Vec<u16>,
    /// The main thread's soft time limit: when the search started and the time it aims at (see
    /// [`Tree::set_soft`]).
    soft: Option<(Instant, Duration)>,
    /// [`knob::Knobs::leaf_sample`] (0 in helpers), the stand-pat evaluations counted so far,
    /// and the positions kept: each one's stones, Black's and White's alternating from Black's.
    leaf_sample: u64,
    /// [`knob::Knobs::smooth`].
    smooth: bool,
    /// [`knob::Knobs::margins`].
    margins: knob::Margins,
    leaf_count: u64,
    leaves: Vec<Vec<Point>>,
    /// The correction history ([`CORRECTION`]): four tables of [`CORRECTION_SLOTS`] entries, by
    /// side to move and by whose stones key them (empty while the knob is off).
    correction: Vec<i32>,
}

/// What one iteration of the root search found.
#[derive(Clone, Debug)]
pub struct Ranked {
    /// The root moves, best first.
    pub moves: Vec<Point>,
    /// The best move's score.
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
}

impl Tree {
    /// A tree for boards of side `size` with a table of about `table_bytes` (a power of two
    /// entries, at least 1024).
    #[must_use]
    pub fn new(size: usize, table_bytes: usize) -> Tree {
        Tree {
            table: Arc::new(Table::new(table_bytes)),
            generation: 0,
            history: vec![[0; 2]; size * size],
            killers: vec![[u16::MAX; 2]; MAX_PLY as usize + 2],
            counters: vec![[u16::MAX; 2]; size * size],
            continuation: Vec::new(),
            counter_moves: COUNTER_MOVES,
            iir_depth: IIR_DEPTH,
            pv_table_reduction: PV_TABLE_REDUCTION,
            history_reduction: HISTORY_REDUCTION,
            ttpv_reduction: TTPV_REDUCTION,
            switches: SWITCHES,
            attacked: vec![false; MAX_PLY as usize + 2],
            move_buffers: Vec::new(),
            scored_buffer: Vec::new(),
            evals: vec![NO_EVAL; MAX_PLY as usize + 2],
            extended: vec![0; MAX_PLY as usize + 2],
            doubled: vec![0; MAX_PLY as usize + 2],
            raised: Vec::new(),
            credit: vec![0; MAX_PLY as usize + 2],
            size,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop: Arc::new(AtomicBool::new(false)),
            abort: Arc::new(AtomicBool::new(false)),
            stopped: false,
            selective: true,
            policy_gap: POLICY_GAP,
            cut_reduction: CUT_REDUCTION,
            style: 0,
            white_style: 0,
            tempo: 0,
            lmr_divisor: LMR_DIVISOR,
            lmr_growth: LMR_GROWTH,
            lmr_now: LMR_DIVISOR,
            quick_wins: QUICK_WINS,
            excluded: vec![u16::MAX; MAX_PLY as usize + 2],
            soft: None,
            leaf_sample: 0,
            smooth: false,
            margins: knob::Margins::default(),
            leaf_count: 0,
            leaves: Vec::new(),
            correction: Vec::new(),
        }
    }

    /// A helper thread's tree: the same table, stop flag and history, its own killers and counts.
    #[must_use]
    pub fn helper(&self) -> Tree {
        Tree {
            table: Arc::clone(&self.table),
            generation: self.generation,
            history: self.history.clone(),
            killers: vec![[u16::MAX; 2]; MAX_PLY as usize + 2],
            counters: self.counters.clone(),
            continuation: self.continuation.clone(),
            counter_moves: self.counter_moves,
            iir_depth: self.iir_depth,
            pv_table_reduction: self.pv_table_reduction,
            history_reduction: self.history_reduction,
            ttpv_reduction: self.ttpv_reduction,
            switches: self.switches,
            attacked: vec![false; MAX_PLY as usize + 2],
            move_buffers: Vec::new(),
            scored_buffer: Vec::new(),
            evals: vec![NO_EVAL; MAX_PLY as usize + 2],
            extended: vec![0; MAX_PLY as usize + 2],
            doubled: vec![0; MAX_PLY as usize + 2],
            raised: Vec::new(),
            credit: vec![0; MAX_PLY as usize + 2],
            size: self.size,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop: Arc::clone(&self.stop),
            abort: Arc::clone(&self.abort),
            stopped: false,
            selective: self.selective,
            policy_gap: self.policy_gap,
            cut_reduction: self.cut_reduction,
            style: self.style,
            white_style: self.white_style,
            tempo: self.tempo,
            lmr_divisor: self.lmr_divisor,
            lmr_growth: self.lmr_growth,
            lmr_now: self.lmr_now,
            quick_wins: self.quick_wins,
            excluded: vec![u16::MAX; MAX_PLY as usize + 2],
            soft: None,
            leaf_sample: 0,
            smooth: self.smooth,
            margins: self.margins,
            leaf_count: 0,
            leaves: Vec::new(),
            correction: self.correction.clone(),
        }
    }

    /// Sets the search switches ([`switch`]; the default is [`SWITCHES`]).
    pub fn set_switches(&mut self, switches: u32) {
        self.switches = switches;
    }

    /// Sets the numeric search parameters ([`knob`]; the default is the engine's constants).
    pub fn set_knobs(&mut self, knobs: knob::Knobs) {
        self.lmr_divisor = knobs.lmr_divisor;
        self.lmr_growth = knobs.lmr_growth;
        self.lmr_now = knobs.lmr_divisor;
        self.policy_gap = knobs.policy_gap;
        self.cut_reduction = knobs.cut_reduction;
        self.style = knobs.style;
        self.white_style = knobs.white_style;
        self.tempo = knobs.tempo;
        self.leaf_sample = knobs.leaf_sample;
        self.smooth = knobs.smooth == 1;
        self.history_reduction = knobs.margins.history_reduction;
        // The continuation history is made only when asked for (size^4 entries).
        if knobs.margins.continuation && self.continuation.is_empty() {
            let cells = self.history.len();
            self.continuation = vec![[0; 2]; cells * cells];
        }
        self.margins = knobs.margins;
        if self.margins.correction > 0 && self.correction.is_empty() {
            self.correction = vec![0; 4 * CORRECTION_SLOTS];
        }
    }

    /// The two correction entries of a node with `s` to move: keyed by `s`'s stones and by the
    /// opponent's.
    fn correction_slots(pos: &Position, s: Color) -> [usize; 2] {
        let base = s.index() * 2 * CORRECTION_SLOTS;
        let own = (pos.colour_hash(s) >> 40) as usize & (CORRECTION_SLOTS - 1);
        let theirs = (pos.colour_hash(!s) >> 40) as usize & (CORRECTION_SLOTS - 1);
        [base + own, base + CORRECTION_SLOTS + theirs]
    }

    /// The static evaluation `raw` of a node with `s` to move, corrected ([`CORRECTION`]).
    #[inline]
    fn corrected(&self, pos: &Position, s: Color, raw: i32) -> i32 {
        if self.correction.is_empty() || self.margins.correction == 0 {
            return raw;
        }
        let [a, b] = Tree::correction_slots(pos, s);
        let sum = i64::from(self.correction[a] + self.correction[b]);
        let c = sum * i64::from(self.margins.correction) / (200 * i64::from(CORRECTION_GRAIN));
        raw + c as i32
    }

    /// Teaches the correction of a node with `s` to move that a search of `depth` found its
    /// score `residual` above the corrected evaluation: each entry moves `depth / 128` (at most
    /// 1/8) of the way, and stays within [`CORRECTION_LIMIT`].
    fn correct(&mut self, pos: &Position, s: Color, depth: i32, residual: i32) {
        if self.correction.is_empty() || self.margins.correction == 0 {
            return;
        }
        let step = residual.clamp(-4 * CORRECTION_LIMIT, 4 * CORRECTION_LIMIT)
            * CORRECTION_GRAIN
            * depth.clamp(1, 16)
            / 128;
        let limit = CORRECTION_LIMIT * CORRECTION_GRAIN;
        for i in Tree::correction_slots(pos, s) {
            self.correction[i] = (self.correction[i] + step).clamp(-limit, limit);
        }
    }

    /// Sets the soft time limit of the next searches: `Some((start, aim))` stops the iterations
    /// once `aim` has passed since `start` at the end of an iteration, the aim stretched by half
    /// after an iteration that changed the best move (and by 30% after one whose score fell) and
    /// shrunk while the best move stays the same ([`crate::engine::params`]: `UNSTABLE_STRETCH`
    /// and the numbers after it). The deadline given to [`Tree::iterate`] stays the hard limit.
    pub fn set_soft(&mut self, soft: Option<(Instant, Duration)>) {
        self.soft = soft;
    }

    /// The transposition table's size in bytes.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Makes `flag` the tree's abort flag: while it is set, searches stop as at their deadline
    /// (the best move of the last completed iteration stands).
    pub fn set_abort(&mut self, flag: Arc<AtomicBool>) {
        self.abort = flag;
    }

    /// The tree's abort flag ([`Tree::set_abort`]).
    pub(crate) fn abort_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.abort)
    }

    /// The principal variation that starts with `me` playing `first`: then the table's best move of
    /// each position in turn, while it is an empty cell, up to `max` moves (`first` included) or a
    /// five.
    #[must_use]
    pub fn principal_variation(
        &self,
        pos: &mut Position,
        me: Color,
        first: Point,
        max: usize,
    ) -> Vec<Point> {
        let cells = pos.size() * pos.size();
        let mut line = vec![first];
        let mut s = me;
        let mut made = 0;
        loop {
            let p = line[line.len() - 1];
            if pos.stone(p).is_some() {
                line.pop();
                break;
            }
            let five = pos.makes_five(p, s);
            pos.make_quick(p, s);
            made += 1;
            s = !s;
            if five || line.len() >= max || pos.stone_count() >= cells {
                break;
            }
            let Some(e) = self.probe(pos.hash() ^ (s as u64)).0 else {
                break;
            };
            let cell = usize::from(e.best);
            if cell >= cells {
                break;
            }
            line.push(Point::new(
                (cell % self.size) as u8,
                (cell / self.size) as u8,
            ));
        }
        for _ in 0..made {
            pos.unmake_quick();
        }
        line
    }

    /// Iterative deepening with `threads` threads (Lazy SMP: helpers search the same root on
    /// copies of the position and share the table; odd helpers start one ply deeper, so that the
    /// threads spread over depths). The main thread's result is the answer; the helpers stop when
    /// it does. Node counts include every thread's.
    pub fn iterate_threads(
        &mut self,
        pos: &mut Position,
        me: Color,
        roots: Vec<Point>,
        nodes: Option<u64>,
        deadline: Option<Instant>,
        threads: usize,
    ) -> Ranked {
        if threads <= 1 {
            return self.iterate(pos, me, roots, nodes, deadline);
        }
        self.lmr_now = self.lmr_for(deadline);
        self.stop.store(false, Ordering::Relaxed);
        let extra = std::thread::scope(|scope| {
            let mut helpers = Vec::new();
            for i in 1..threads {
                let mut tree = self.helper();
                tree.generation = (self.generation + 1) & GENERATION_MASK;
                let mut copy = pos.clone();
                let roots = roots.clone();
                helpers.push(scope.spawn(move || {
                    tree.deepen(&mut copy, me, roots, 1 + (i % 2) as i32);
                    tree.nodes
                }));
            }
            let ranked = self.iterate(pos, me, roots, nodes, deadline);
            self.stop.store(true, Ordering::Relaxed);
            let extra: u64 = helpers.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            (ranked, extra)
        });
        let (ranked, extra) = extra;
        self.nodes += extra;
        ranked
    }

    /// Iterative deepening over `roots` (ordered, best first) for `me`, within `nodes` more nodes
    /// and until `deadline`. Returns the roots ranked by the deepest completed iteration.
    pub fn iterate(
        &mut self,
        pos: &mut Position,
        me: Color,
        roots: Vec<Point>,
        nodes: Option<u64>,
        deadline: Option<Instant>,
    ) -> Ranked {
        self.node_limit = nodes.unwrap_or(u64::MAX).saturating_add(self.nodes);
        self.deadline = deadline;
        self.lmr_now = self.lmr_for(deadline);
        self.generation = (self.generation + 1) & GENERATION_MASK;
        for h in &mut self.continuation {
            h[0] /= 8;
            h[1] /= 8;
        }
        for h in &mut self.history {
            h[0] /= 8;
            h[1] /= 8;
        }
        self.deepen(pos, me, roots, 1)
    }

    /// The late-move divisor of a search that ends at `deadline` ([`LMR_GROWTH`]).
    fn lmr_for(&self, deadline: Option<Instant>) -> f64 {
        lmr_divisor_for(
            self.lmr_divisor,
            self.lmr_growth,
            deadline.map(|d| d.saturating_duration_since(Instant::now())),
        )
    }

    /// The iterations from `first_depth` on, until a limit, the stop flag or a proven result,
    /// with the evaluation's style set for `me` while they run.
    fn deepen(
        &mut self,
        pos: &mut Position,
        me: Color,
        roots: Vec<Point>,
        first_depth: i32,
    ) -> Ranked {
        let white = if me == Color::White {
            self.white_style
        } else {
            0
        };
        pos.set_style(me, (self.style + white).clamp(-50, 50));
        pos.set_smooth(self.smooth);
        pos.set_tempo(self.tempo);
        let ranked = self.deepen_styled(pos, me, roots, first_depth);
        pos.set_style(me, 0);
        pos.set_smooth(false);
        pos.set_tempo(0);
        ranked
    }

    /// [`Tree::deepen`]'s iterations.
    fn deepen_styled(
        &mut self,
        pos: &mut Position,
        me: Color,
        mut roots: Vec<Point>,
        first_depth: i32,
    ) -> Ranked {
        self.stopped = false;
        for k in &mut self.killers {
            *k = [u16::MAX; 2];
        }
        let mut best = (0, 0);
        let empty = pos.size() * pos.size() - pos.stone_count();
        let max_depth = MAX_DEPTH.min(empty as i32);
        let mut previous: Option<i32> = None;
        // The best move of the last iteration and how many iterations in a row it has been.
        let mut settled: (Option<Point>, u64) = (None, 0);
        for depth in first_depth.min(max_depth)..=max_depth {
            let (mut lo, mut hi) = match previous {
                Some(v) if depth >= ASPIRATION_DEPTH && v.abs() < MATE_BOUND => {
                    (v - self.margins.aspiration, v + self.margins.aspiration)
                }
                _ => (-MATE - 1, MATE + 1),
            };
            let mut delta = self.margins.aspiration;
            let mut scored = loop {
                let scored = self.root_iteration(pos, me, &roots, depth, lo, hi);
                if self.stopped {
                    break scored;
                }
                let top = scored
                    .iter()
                    .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
                let Some(&(top, k, p)) = top else {
                    break scored;
                };
                // Outside the window the scores are bounds only: widen it and search again
                // (fully once the margin passes 400).
                if top <= lo && lo > -MATE - 1 {
                    lo = (top - delta).max(-MATE - 1);
                    delta += delta / 2 + 10;
                    if delta > 400 {
                        lo = -MATE - 1;
                    }
                } else if top >= hi && hi < MATE + 1 {
                    // The move that failed high goes first in the next try.
                    roots.remove(k);
                    roots.insert(0, p);
                    hi = (top + delta).min(MATE + 1);
                    delta += delta / 2 + 10;
                    if delta > 400 {
                        hi = MATE + 1;
                    }
                } else {
                    break scored;
                }
            };
            if self.stopped {
                // A move of the unfinished iteration that beat the previous best (searched first
                // at this depth) is the better guess; scores at or below the window's floor are
                // only bounds.
                scored.retain(|x| x.0 > lo);
                let first = scored.iter().find(|x| x.1 == 0).map(|x| x.0);
                if let Some(&(score, k, p)) = scored
                    .iter()
                    .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
                {
                    if k > 0 && first.is_none_or(|f| score > f) {
                        roots.remove(k);
                        roots.insert(0, p);
                        best.0 = score;
                    }
                }
                break;
            }
            sort_roots(
                &mut scored,
                self.margins.root_order.then_some(&self.raised[..]),
            );
            roots = scored.iter().map(|&(_, _, p)| p).collect();
            best = (scored[0].0, depth as u32);
            let dropped = previous.is_some_and(|v| scored[0].0 <= v - SCORE_DROP);
            previous = Some(scored[0].0);
            if scored[0].0.abs() >= MATE_BOUND {
                break;
            }
            if let Some((start, aim)) = self.soft {
                let changed = settled.0 != Some(roots[0]);
                settled = (Some(roots[0]), if changed { 0 } else { settled.1 + 1 });
                if depth >= 4 && start.elapsed() >= soft_aim(aim, changed, settled.1, dropped) {
                    break;
                }
            }
        }
        Ranked {
            moves: roots,
            score: best.0,
            depth: best.1,
        }
    }

    /// One iteration over the root moves at `depth` with the window (`lo`, `hi`): each move's
    /// score with its index in `roots`, in search order. Stops after a move fails high, or when
    /// the search is stopped (the moves searched so far).
    fn root_iteration(
        &mut self,
        pos: &mut Position,
        me: Color,
        roots: &[Point],
        depth: i32,
        lo: i32,
        hi: i32,
    ) -> Vec<(i32, usize, Point)> {
        let mut alpha = lo;
        let beta = hi;
        let mut scored = Vec::with_capacity(roots.len());
        self.raised.clear();
        for (k, &p) in roots.iter().enumerate() {
            // Read before the move: an occupied cell has no value.
            let important = pos.value(p, me) >= self.margins.important
                || pos.value(p, !me) >= self.margins.important;
            pos.make_quick(p, me);
            self.extended[1] = 0;
            self.credit[1] = 0;
            self.doubled[1] = 0;
            let score = if k == 0 {
                -self.search(pos, depth - 1, -beta, -alpha, 1, !me, true, false)
            } else {
                // Late root moves are reduced like inner ones, and searched again at full
                // depth when they beat the best so far.
                let r = if depth >= 3 && k >= 2 && !important {
                    let r = reduction(depth, k, false, self.lmr_now);
                    let r = r * i32::from(self.margins.root_reduce) / 100;
                    (r - i32::from(self.margins.root_less)).clamp(0, depth - 2)
                } else {
                    0
                };
                let mut s =
                    -self.search(pos, depth - 1 - r, -alpha - 1, -alpha, 1, !me, false, true);
                if r > 0 && s > alpha && !self.stopped {
                    s = -self.search(pos, depth - 1, -alpha - 1, -alpha, 1, !me, false, true);
                }
                if s > alpha && !self.stopped {
                    s = -self.search(pos, depth - 1, -beta, -alpha, 1, !me, true, false);
                }
                s
            };
            pos.unmake_quick();
            if self.stopped {
                break;
            }
            scored.push((score, k, p));
            if k == 0 || score > alpha {
                self.raised.push(k);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        scored
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        let polled = self.nodes & 1023 == 0
            && (self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.stop.load(Ordering::Relaxed)
                || self.abort.load(Ordering::Relaxed));
        if self.nodes >= self.node_limit || polled {
            self.stopped = true;
        }
        self.stopped
    }

    /// A node's start: counted, the budget checked (`Some(Ok(0))` when it is spent), then
    /// [`Tree::forced`].
    #[inline]
    fn enter(&mut self, pos: &Position, s: Color, ply: i32) -> Option<Result<i32, Point>> {
        self.nodes += 1;
        if self.out_of_budget() {
            return Some(Ok(0));
        }
        self.forced(pos, s, ply)
    }

    /// The checks every node starts with: a five to complete, the opponent's five to block, a
    /// straight four. `Some(Ok(score))` when they decide the node; `Some(Err(p))` when the only
    /// move is the block on `p` (the caller plays it at the same depth).
    #[inline]
    fn forced(&self, pos: &Position, s: Color, ply: i32) -> Option<Result<i32, Point>> {
        let o = !s;
        if !pos.class_sets(s).five.is_empty() {
            return Some(Ok(MATE - ply - 1));
        }
        let their_fives = pos.class_sets(o).five;
        if let Some(p) = first(their_fives) {
            if their_fives.count() >= 2 {
                return Some(Ok(-(MATE - ply - 2)));
            }
            if pos.stone_count() + 1 >= pos.size() * pos.size() {
                return Some(Ok(0));
            }
            if pos.is_foul(p, s) {
                // Renju: Black may not block there.
                return Some(Ok(-(MATE - ply - 2)));
            }
            return Some(Err(p));
        }
        if has_straight_four_move(pos, s) {
            return Some(Ok(MATE - ply - 3));
        }
        if self.quick_wins && wins_in_five(pos, s) {
            return Some(Ok(MATE - ply - 5));
        }
        if pos.stone_count() >= pos.size() * pos.size() {
            return Some(Ok(0));
        }
        None
    }

    /// Negamax with alpha-beta; `s` is to move; `pv` marks nodes searched with an open window,
    /// `cut` the null-window nodes expected to fail high (Stockfish's `cutNode`): a late move's
    /// reduced search is one, and along first moves the flag alternates.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
        s: Color,
        pv: bool,
        cut: bool,
    ) -> i32 {
        let o = !s;
        match self.enter(pos, s, ply) {
            Some(Ok(score)) => return score,
            Some(Err(block)) => {
                // A forced block costs no depth.
                self.attacked[ply as usize] = false;
                self.evals[ply as usize] = NO_EVAL;
                self.extended[ply as usize + 1] = self.extended[ply as usize];
                let credit = self.credit[ply as usize] + self.margins.block_extension;
                self.credit[ply as usize + 1] = credit % 100;
                self.doubled[ply as usize + 1] = self.doubled[ply as usize];
                // Past the horizon the block leads into the quiescence, as without the knob.
                let depth = if depth > 0 {
                    depth + i32::from(credit / 100)
                } else {
                    depth
                };
                pos.make_quick(block, s);
                let score = -self.search(pos, depth, -beta, -alpha, ply + 1, o, pv, !cut);
                pos.unmake_quick();
                return score;
            }
            None => {}
        }
        // Mate-distance pruning: no line here can beat a win found nearer the root.
        alpha = alpha.max(-(MATE - ply));
        beta = beta.min(MATE - ply - 1);
        if alpha >= beta {
            return alpha;
        }
        if depth <= 0 || ply >= MAX_PLY {
            if !LEAF_QUIESCENCE {
                return pos.evaluate(s);
            }
            return self.quiesce(pos, alpha, beta, ply, s, 0);
        }
        let key = pos.hash() ^ (s as u64);
        // A singular search (below) is this node again without one move: no table cut, no
        // pruning before the moves, nothing stored.
        let excluded = self.excluded[ply as usize];
        let (hint, entry) = if excluded == u16::MAX {
            match self.table_cut(key, depth, alpha, beta, ply, pv) {
                Ok(score) => return score,
                Err(found) => found,
            }
        } else {
            (u16::MAX, None)
        };
        // Internal iterative reduction: a node the table knows nothing of is searched a ply
        // shallower.
        let depth = if self.iir_depth > 0
            && hint == u16::MAX
            && excluded == u16::MAX
            && depth >= self.iir_depth
        {
            depth - 1
        } else {
            depth
        };
        // A PV node whose table move was found by a much shallower search.
        let depth = match entry {
            Some(e) if self.pv_table_reduction && pv && depth > 1 && hint != u16::MAX => {
                depth - pv_table_reduction(depth, i32::from(e.depth))
            }
            _ => depth,
        };
        let ttpv = pv || entry.is_some_and(Entry::was_pv);
        let facing = !pos.class_sets(o).open_four.is_empty();
        // The opponent threatens a four-three (and has no open three).
        let theirs = pos.class_sets(o);
        let b4f3 = self.switches & (switch::B4F3 | switch::B4F3_REDUCED) != 0
            && !facing
            && !(theirs.four & theirs.three).is_empty();
        let b4f3_important = b4f3 && self.switches & switch::B4F3 != 0;
        let eval = self.corrected(pos, s, pos.evaluate(s));
        self.evals[ply as usize] = eval;
        // Whether the node is worse than its side's previous node (unknown counts as better).
        let worse = self.margins.improving
            && ply >= 2
            && self.evals[ply as usize - 2] != NO_EVAL
            && eval <= self.evals[ply as usize - 2];
        // The evaluation the prunings read: the table's score where its bound says it lies
        // beyond the static one.
        let eval_p = match entry {
            Some(e) if self.margins.tt_eval => {
                let v = from_table(e.score, ply);
                let beyond = match e.bound() {
                    Bound::Exact => true,
                    Bound::Lower => v > eval,
                    Bound::Upper => v < eval,
                    Bound::None => false,
                };
                if beyond && v.abs() < MATE_BOUND {
                    v
                } else {
                    eval
                }
            }
            _ => eval,
        };
        if !pv && !facing && excluded == u16::MAX && beta.abs() < MATE_BOUND {
            if let Some(score) = self.prune_early(pos, depth, alpha, beta, ply, s, eval_p) {
                return score;
            }
        }
        if self.switches & switch::FACING_RAZOR != 0
            && !pv
            && facing
            && depth <= 2
            && excluded == u16::MAX
            && beta.abs() < MATE_BOUND
        {
            let v = self.quiesce(pos, alpha, alpha + 1, ply, s, 0);
            if self.stopped {
                return 0;
            }
            if v <= alpha {
                return v;
            }
        }
        let (moves, breadth) = if b4f3 {
            self.defences_of_four_three(pos, s, ply, hint)
        } else {
            self.moves(pos, s, ply, hint, facing)
        };
        let delay4 = self.switches & switch::DELAY_FOURS != 0 && facing;
        // The last stones of each side, read only where delaying fours are judged by them.
        let lasts = if delay4 {
            let m = pos.moves();
            let own = m.iter().rev().find(|x| x.1 == s).map(|x| x.0);
            let theirs = m.iter().rev().find(|x| x.1 == o).map(|x| x.0);
            (own, theirs)
        } else {
            (None, None)
        };
        // Fail-high reduction (Rapfi's): at a cut node far above beta, non-fours a ply shallower.
        let fail_high = self.switches & switch::FAIL_HIGH_REDUCTION != 0
            && cut
            && !pv
            && excluded == u16::MAX
            && beta.abs() < MATE_BOUND
            && eval_p >= beta + 23 * depth - 14 + if facing { 135 } else { 0 };
        let mut depth = depth;
        // The best order score among the moves, for the policy-based reduction.
        let places = Places::of(pos, s);
        let top = if depth >= 3 {
            moves[..breadth]
                .iter()
                .map(|&p| pos.order(p, s) + places.score(p))
                .max()
                .unwrap_or(0)
        } else {
            0
        };
        if moves.is_empty() {
            // Only renju's forbidden points can leave a side facing a straight four with no move.
            return if facing { -(MATE - ply - 4) } else { eval };
        }
        let alpha0 = alpha;
        let mut best = -MATE - 1;
        let mut best_move = moves[0];
        // The moves searched so far that did not cut off, for the history's penalty.
        let mut tried = [0u16; 32];
        let mut tried_len = 0;
        for (k, &p) in moves.iter().enumerate() {
            if k >= breadth && (best > -MATE_BOUND || ply >= i32::from(self.margins.mated_breadth))
            {
                break;
            }
            let cell = self.cell(p);
            if cell as u16 == excluded {
                continue;
            }
            let mut singular = 0;
            let mut tested = false;
            self.doubled[ply as usize + 1] = self.doubled[ply as usize];
            if cell as u16 == hint && depth >= SINGULAR_DEPTH {
                match self.singular(pos, entry, hint, depth, beta, ply, s, pv) {
                    Ok(ext) => {
                        tested = ext.is_some();
                        singular = ext.unwrap_or(0);
                    }
                    Err(score) => return score,
                }
            }
            // Facing an open three, a four of ours that does not stop it only delays the defence.
            let delaying = delay4
                && cell != usize::from(hint)
                && pos.class_sets(s).four.contains(p)
                && !stops_straight_fours(pos, p, s);
            let far_own = delaying && lasts.0.is_none_or(|q| chebyshev(p, q) > 4);
            let far_theirs = delaying && lasts.1.is_none_or(|q| chebyshev(p, q) > 4);
            // Near the leaves, a delaying four far from both last stones gets only the
            // quiescence (its block, then our fours): a VCF it starts is still seen.
            let leaf_only =
                delaying && far_own && far_theirs && depth < 4 && k > 0 && best > -MATE_BOUND;
            if self.switches & switch::MOVE_COUNT_PRUNING != 0
                && !pv
                && !important_cell(pos, p, s, cell, hint)
                && !facing
                && k >= move_count(depth, if worse { 50 } else { 100 })
                && best > -MATE_BOUND
            {
                continue;
            }
            if self.margins.move_count > 0
                && ply > 0
                && best > -MATE_BOUND
                && k >= move_count(depth, self.margins.move_count)
            {
                continue;
            }
            if self.switches & switch::PRUNE_NOTHING != 0
                && !pv
                && !facing
                && !b4f3
                && depth <= 4
                && k > 0
                && cell != usize::from(hint)
                && best > -MATE_BOUND
                && pos.value(p, s) < 10
                && pos.value(p, o) < 10
            {
                continue;
            }
            let attack = pos.value(p, s) >= 40;
            let continues = attack && ply >= 2 && self.attacked[ply as usize - 2];
            let continued = self.switches & switch::CONTINUED_ATTACK != 0 && continues;
            let important = (((facing && !self.margins.facing_reduce) || b4f3_important)
                && !delaying)
                || cell == usize::from(hint)
                || pos.value(p, s) >= self.margins.important
                || pos.value(p, o) >= self.margins.important
                || self.killers[ply as usize].contains(&(cell as u16))
                || (self.margins.attack_important && continues);
            if !pv
                && !important
                && self.margins.late_moves_at(depth).is_some_and(|n| k >= n)
                && best > -MATE_BOUND
            {
                continue;
            }
            let four = pos.class_sets(s).four.contains(p);
            let mut ext = i32::from(FOUR_EXTENSION && four);
            let line_ext = self.extended[ply as usize];
            if ext == 0
                && line_ext < self.margins.reply_extensions
                && (facing || (self.margins.four_extensions != 0 && four))
            {
                ext = 1;
            }
            self.extended[ply as usize + 1] = line_ext + u8::from(ext > 0);
            // The table's move's extension in hundredths, where no singular test judged it.
            let mut credit = self.credit[ply as usize];
            if self.margins.ttm_extension && cell == usize::from(hint) && !tested {
                credit += if pv { TTM_EXT_PV } else { TTM_EXT_NON_PV };
                if pos.class_sets(s).four.contains(p) {
                    let own = pos.moves().iter().rev().find(|x| x.1 == s).map(|x| x.0);
                    match own.map(|q| chebyshev(p, q)) {
                        Some(0..=4) => credit += TTM_EXT_NEAR_FOUR[0],
                        Some(5..=6) => credit += TTM_EXT_NEAR_FOUR[1],
                        _ => {}
                    }
                }
            }
            self.credit[ply as usize + 1] = credit % 100;
            let ext = ext + i32::from(credit / 100);
            // Late moves are reduced, a ply more when far below the best move's order score and
            // more at cut nodes.
            let unreduced = if self.margins.lmr_important {
                (b4f3_important && !delaying) || cell == usize::from(hint)
            } else {
                important
            };
            let reduce = (k >= self.margins.lmr_from && !unreduced).then(|| Reduce {
                extra: i32::from(
                    depth >= 3 && top - pos.order(p, s) - places.score(p) > self.policy_gap,
                ) + if cut { self.cut_reduction } else { 0 }
                    + if self.history_reduction {
                        history_reduction(self.history[cell][s.index()])
                    } else {
                        0
                    }
                    + if delaying {
                        i32::from(far_theirs) * 2 + i32::from(far_own)
                    } else {
                        0
                    }
                    - i32::from(continued),
                less: self.ttpv_reduction && ttpv && !pv,
                worse: worse && !pv,
            });
            self.attacked[ply as usize] = attack;
            let shallower = (fail_high && k > 0 && !pos.class_sets(s).four.contains(p))
                || (self.switches & switch::DELAY_PLY != 0
                    && facing
                    && cell != usize::from(hint)
                    && pos.class_sets(s).four.contains(p)
                    && !stops_straight_fours(pos, p, s));
            pos.make_quick(p, s);
            self.table.prefetch(pos.hash() ^ (o as u64));
            let child_depth = depth + ext + singular - i32::from(shallower);
            let mut score = -MATE - 1;
            if leaf_only {
                score = -self.quiesce(pos, -alpha - 1, -alpha, ply + 1, o, 0);
            }
            if score == -MATE - 1 || (score > alpha && !self.stopped) {
                score =
                    self.search_child(pos, k, reduce, child_depth, alpha, beta, ply, o, pv, cut);
            }
            pos.unmake_quick();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = p;
            }
            if self.margins.history_gravity && score < beta && tried_len < tried.len() {
                tried[tried_len] = cell as u16;
                tried_len += 1;
            }
            if score > alpha {
                alpha = score;
                if self.switches & switch::ALPHA_CUT != 0
                    && alpha < beta
                    && depth > 2
                    && depth < 12
                    && beta < MATE_BOUND
                    && alpha > -MATE_BOUND
                {
                    depth -= 1;
                }
            }
            if alpha >= beta {
                if self.margins.history_gravity {
                    let bonus = (64 * depth * depth).min(8192);
                    gravity(&mut self.history[cell][s.index()], bonus);
                    for &c in &tried[..tried_len] {
                        gravity(&mut self.history[usize::from(c)][s.index()], -bonus);
                    }
                    if let Some(base) = self.continuation_base(pos) {
                        gravity(&mut self.continuation[base + cell][s.index()], bonus);
                        for &c in &tried[..tried_len] {
                            let h = &mut self.continuation[base + usize::from(c)][s.index()];
                            gravity(h, -bonus);
                        }
                    }
                } else {
                    self.history[cell][s.index()] += depth * depth;
                }
                let killers = &mut self.killers[ply as usize];
                if killers[0] != cell as u16 {
                    killers[1] = killers[0];
                    killers[0] = cell as u16;
                }
                if let Some(last) = self.counter_slot(pos) {
                    self.counters[last][s.index()] = cell as u16;
                }
                break;
            }
        }
        if excluded != u16::MAX {
            return best;
        }
        let bound = Bound::of(best, alpha0, beta);
        let best_cell = self.cell(best_move) as u16;
        // The correction learns from nodes that face no three and whose best move is quiet
        // (no four), where the score's bound says on which side of the evaluation it lies.
        if !self.correction.is_empty()
            && !facing
            && best.abs() < MATE_BOUND
            && !pos.class_sets(s).four.contains(best_move)
            && match bound {
                Bound::Exact => true,
                Bound::Lower => best > eval,
                Bound::Upper => best < eval,
                Bound::None => false,
            }
        {
            self.correct(pos, s, depth, best - eval);
        }
        self.store_marked(key, best, ply, best_cell, depth, bound, ttpv);
        self.move_buffers.push(moves);
        best
    }

    /// The singular-extension test of the table's move `hint` at a node of `depth` (see
    /// [`SINGULAR_DEPTH`]): `Ok(Some(plies))` to add to its depth (2 with [`DOUBLE_SE`], 1, 0 or
    /// -1), `Ok(None)` when the table gives no ground for the test, or `Err(score)` when the node
    /// fails high without it (also `Err(0)` when the search was stopped).
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        pos: &mut Position,
        entry: Option<Entry>,
        hint: u16,
        depth: i32,
        beta: i32,
        ply: i32,
        s: Color,
        pv: bool,
    ) -> Result<Option<i32>, i32> {
        let Some(e) = entry else { return Ok(None) };
        let stored = from_table(e.score, ply);
        if stored.abs() >= MATE_BOUND
            || !matches!(e.bound(), Bound::Lower | Bound::Exact)
            || i32::from(e.depth) < depth - SINGULAR_TABLE_DEPTH
        {
            return Ok(None);
        }
        let bar = stored - self.margins.singular_margin * depth;
        self.excluded[ply as usize] = hint;
        let v = self.search(pos, depth / 2, bar - 1, bar, ply, s, false, false);
        self.excluded[ply as usize] = u16::MAX;
        if self.stopped {
            Err(0)
        } else if v < bar {
            let double = self.margins.double_se;
            if double > 0
                && !pv
                && v < bar - i32::from(double)
                && self.doubled[ply as usize] < DOUBLE_SE_LIMIT
            {
                self.doubled[ply as usize + 1] = self.doubled[ply as usize] + 1;
                Ok(Some(2))
            } else {
                Ok(Some(1))
            }
        } else if bar >= beta {
            Err(bar)
        } else if stored >= beta {
            Ok(Some(-1))
        } else {
            Ok(Some(0))
        }
    }

    /// The table's verdict for `key` at `depth`: `Ok(score)` when a stored bound decides the node
    /// (never at PV nodes), else `Err((move, entry))`: the stored best move to try first
    /// (`u16::MAX`: none) and the entry, if any.
    fn table_cut(
        &self,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
        pv: bool,
    ) -> Result<i32, (u16, Option<Entry>)> {
        let Some(e) = self.probe(key).0 else {
            return Err((u16::MAX, None));
        };
        if !pv && i32::from(e.depth) >= depth {
            let score = from_table(e.score, ply);
            match e.bound() {
                Bound::Exact => return Ok(score),
                Bound::Lower if score >= beta => return Ok(score),
                Bound::Upper if score <= alpha => return Ok(score),
                _ => {}
            }
        }
        Err((e.best, Some(e)))
    }

    /// The prunings tried before any move, at a non-PV node where the opponent has no open three:
    /// razoring, reverse futility and the null move. `Some(score)` when one of them decides.
    fn prune_early(
        &mut self,
        pos: &mut Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
        s: Color,
        eval: i32,
    ) -> Option<i32> {
        // Razoring: far below alpha near the leaves, only a VCF can save the node.
        if depth <= 3 && eval + self.margins.razor_at(depth) < alpha {
            return Some(self.quiesce(pos, alpha, alpha + 1, ply, s, 0));
        }
        // Reverse futility: far above beta near the leaves.
        if depth <= self.margins.futility_depth && eval - self.margins.futility * depth >= beta {
            return Some(eval);
        }
        // Null move: with no three of the opponent's pending, passing and still failing high
        // means a real move fails high too. The opponent's fours are searched after the pass.
        if depth >= self.margins.null_move_depth
            && eval >= beta + self.margins.null_move_margin
            && pos.class_sets(!s).four.is_empty()
        {
            let r = 2 + depth / 4;
            self.extended[ply as usize + 1] = self.extended[ply as usize];
            self.credit[ply as usize + 1] = self.credit[ply as usize];
            self.doubled[ply as usize + 1] = self.doubled[ply as usize];
            let v = -self.search(
                pos,
                depth - 1 - r,
                -beta,
                -beta + 1,
                ply + 1,
                !s,
                false,
                false,
            );
            if self.stopped {
                return Some(0);
            }
            if v >= beta {
                return Some(if v >= MATE_BOUND { beta } else { v });
            }
        }
        None
    }

    /// The score of the `k`-th move (already played; `o` to move): the first with the full
    /// window, the others with a null window, reduced when `reduce` is `Some` and deep enough
    /// (the late-move reduction plus its `extra` plies, a ply less when `less` but not below
    /// none), searched again at full depth on a fail-high and with the full window at PV nodes.
    fn search_child(
        &mut self,
        pos: &mut Position,
        k: usize,
        reduce: Option<Reduce>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: i32,
        o: Color,
        pv: bool,
        cut: bool,
    ) -> i32 {
        if k == 0 {
            return -self.search(pos, depth - 1, -beta, -alpha, ply + 1, o, pv, !pv && !cut);
        }
        let r = match reduce {
            Some(Reduce { extra, less, worse }) if depth >= 3 => {
                let base = reduction(depth, k, pv, self.lmr_now);
                let base = if pv {
                    (base - i32::from(self.margins.pv_less)).max(0)
                } else {
                    base
                };
                let base = base + i32::from(worse && base > 1);
                let r = (base + extra).min(depth - 2);
                if less && r > 0 {
                    r - 1
                } else {
                    r
                }
            }
            _ => 0,
        };
        let mut v = -self.search(
            pos,
            depth - 1 - r,
            -alpha - 1,
            -alpha,
            ply + 1,
            o,
            false,
            true,
        );
        if v > alpha && r > 0 && !self.stopped {
            v = -self.search(pos, depth - 1, -alpha - 1, -alpha, ply + 1, o, false, !cut);
        }
        if pv && v > alpha && v < beta && !self.stopped {
            v = -self.search(pos, depth - 1, -beta, -alpha, ply + 1, o, true, false);
        }
        v
    }

    /// Counts a stand-pat evaluation of `pos` with `s` to move and keeps every
    /// [`knob::Knobs::leaf_sample`]-th position whose stone counts say `s` is to move (after a
    /// null move they do not).
    fn sample_leaf(&mut self, pos: &Position, s: Color) {
        self.leaf_count += 1;
        if self.leaf_count % self.leaf_sample != 0 || pos.side_to_move() != s {
            return;
        }
        let stones = |c: Color| pos.moves().iter().filter(move |m| m.1 == c).map(|m| m.0);
        let mut white = stones(Color::White);
        let mut line = Vec::with_capacity(pos.stone_count());
        for b in stones(Color::Black) {
            line.push(b);
            line.extend(white.next());
        }
        self.leaves.push(line);
    }

    /// The positions kept by [`knob::Knobs::leaf_sample`] since the last call.
    pub fn take_leaves(&mut self) -> Vec<Vec<Point>> {
        std::mem::take(&mut self.leaves)
    }

    /// The quiescence: the side to move stands pat on the evaluation or plays one of its fours
    /// (the opponent's block is forced), so a VCF beyond the horizon is found.
    fn quiesce(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        s: Color,
        fours: i32,
    ) -> i32 {
        let o = !s;
        match self.enter(pos, s, ply) {
            Some(Ok(score)) => return score,
            Some(Err(block)) => {
                pos.make_quick(block, s);
                let score = -self.quiesce(pos, -beta, -alpha, ply + 1, o, fours);
                pos.unmake_quick();
                return score;
            }
            None => {}
        }
        let stand = self.corrected(pos, s, pos.evaluate(s));
        if self.leaf_sample != 0 {
            self.sample_leaf(pos, s);
        }
        if stand >= beta || fours >= QUIESCENCE_FOURS || ply >= MAX_PLY {
            return stand;
        }
        if pos.class_sets(s).four.is_empty() {
            return stand;
        }
        let key = pos.hash() ^ (s as u64);
        if let (Some(e), _) = self.probe(key) {
            let score = from_table(e.score, ply);
            match e.bound() {
                Bound::Exact => return score,
                Bound::Lower if score >= beta => return score,
                Bound::Upper if score <= alpha => return score,
                _ => {}
            }
        }
        let alpha0 = alpha;
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut best_move = u16::MAX;
        let last = pos.moves().iter().rev().find(|m| m.1 == s).map(|m| m.0);
        let mut tries: Vec<(i32, Point)> = pos
            .class_sets(s)
            .four
            .iter()
            .filter(|&p| !pos.is_foul(p, s))
            .filter(|&p| !self.selective || !QUIESCENCE_NEAR_LAST || on_line_near(last, p))
            .map(|p| (pos.value(p, s), p))
            .filter(|&(v, _)| {
                !self.selective
                    || fours < QUIESCENCE_PLAIN_FOURS
                    || v >= self.margins.quiescence_combination
            })
            .collect();
        tries.sort_unstable_by(|a, b| {
            b.0.cmp(&a.0)
                .then(a.1.y.cmp(&b.1.y))
                .then(a.1.x.cmp(&b.1.x))
        });
        for (_, p) in tries {
            pos.make_quick(p, s);
            let v = -self.quiesce(pos, -beta, -alpha, ply + 1, o, fours + 1);
            pos.unmake_quick();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = self.cell(p) as u16;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        let bound = Bound::of(best, alpha0, beta);
        self.store(key, best, ply, best_move, 0, bound);
        best
    }

    /// The moves worth trying for `s` at an inner node, best first: the table's move, killers,
    /// then by both colours' cell values and history. Facing an open three (the opponent has a
    /// straight-four move), only counter-fours and the real defences: the moves after which the
    /// opponent has no straight-four move (among the cells where the opponent makes a four).
    /// Every candidate comes back, with how many of them the node tries unless all of those
    /// lose ([`Tree::order_moves`]).
    fn moves(
        &mut self,
        pos: &mut Position,
        s: Color,
        ply: i32,
        hint: u16,
        facing: bool,
    ) -> (Vec<Point>, usize) {
        let mut scored = std::mem::take(&mut self.scored_buffer);
        self.scored_into(pos, s, facing, &mut scored);
        if facing {
            let own_fours = pos.class_sets(s).four;
            scored.retain(|&(_, _, p)| own_fours.contains(p) || stops_straight_fours(pos, p, s));
        }
        self.order_moves(scored, ply, hint, pos, s)
    }

    /// `scored` sorted best first (the table's move, killers, the counter move, then the
    /// scores), and the breadth: how many of them a node tries ([`BREADTH`] at most). The node
    /// goes on past the breadth only while every move tried so far loses to a mate: a mate is
    /// claimed only when every candidate loses, not just the best-ordered ones (a defence the
    /// order ranks low, on the board's edge say, is still found).
    fn order_moves(
        &mut self,
        mut scored: Vec<(i64, usize, Point)>,
        ply: i32,
        hint: u16,
        pos: &Position,
        s: Color,
    ) -> (Vec<Point>, usize) {
        let killers = self.killers[ply as usize];
        let counter = self
            .counter_slot(pos)
            .map_or(u16::MAX, |last| self.counters[last][s.index()]);
        for m in &mut scored {
            let cell = m.1 as u16;
            if cell == hint {
                m.0 = i64::MAX;
            } else if cell == killers[0] {
                m.0 += 1 << 22;
            } else if cell == killers[1] {
                m.0 += 1 << 21;
            } else if cell == counter {
                m.0 += COUNTER_BONUS;
            }
        }
        let order =
            |a: &(i64, usize, Point), b: &(i64, usize, Point)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        let breadth = scored.len().min(self.margins.breadth);
        // Past the breadth no move is tried unless the node may go on while mated: then the
        // whole list is sorted, else only the first `breadth` are chosen and sorted (the order is
        // total, so they are the full sort's first moves in the same order).
        if self.margins.mated_breadth == 0 && breadth < scored.len() {
            if breadth > 0 {
                scored.select_nth_unstable_by(breadth - 1, order);
            }
            scored.truncate(breadth);
        }
        scored.sort_unstable_by(order);
        // Both lists come from buffers kept by the tree (a node gives its move list back when it
        // ends): no allocation at a node.
        let mut moves = self.move_buffers.pop().unwrap_or_default();
        moves.clear();
        moves.extend(scored.iter().map(|&(_, _, p)| p));
        scored.clear();
        self.scored_buffer = scored;
        (moves, breadth)
    }

    /// The moves for `s` when the opponent has a four-three to play (and no open three): our
    /// fours, the moves after which the opponent has no four-three, and our moves on a line
    /// through a completion cell of the four (within four cells) that make a two or more there,
    /// so that the forced block may make a four of ours; every move when a completion cell makes
    /// a four of ours already. Ordered as [`Tree::moves`] orders. Every move left out loses in
    /// five plies (a unit test checks each with the referee).
    fn defences_of_four_three(
        &mut self,
        pos: &mut Position,
        s: Color,
        ply: i32,
        hint: u16,
    ) -> (Vec<Point>, usize) {
        let o = !s;
        let theirs = pos.class_sets(o);
        let threats = theirs.four & theirs.three;
        let mut completions = Vec::new();
        for q in threats.iter() {
            pos.make_quick(q, o);
            completions.extend(pos.class_sets(o).five.iter());
            pos.unmake_quick();
        }
        let own_fours = pos.class_sets(s).four;
        let mut scored = std::mem::take(&mut self.scored_buffer);
        self.scored_into(pos, s, false, &mut scored);
        // A block that makes a four of ours already answers the threat: no restriction.
        if completions.iter().any(|&c| own_fours.contains(c)) {
            return self.order_moves(scored, ply, hint, pos, s);
        }
        scored.retain(|&(_, _, p)| {
            if own_fours.contains(p) || threats.contains(p) {
                return true;
            }
            if pos.value(p, s) >= 10 && completions.iter().any(|&c| on_line_near(Some(c), p)) {
                return true;
            }
            pos.make_quick(p, s);
            let t = pos.class_sets(o);
            let kills = (t.four & t.three).is_empty();
            pos.unmake_quick();
            kills
        });
        self.order_moves(scored, ply, hint, pos, s)
    }

    /// The cell of the last move, whose counter-move entry the node reads and writes (`None`
    /// when counter moves are off or no move was played).
    #[inline]
    /// Where the continuation history after the last stone begins (`None`: [`CONTINUATION`] off
    /// or no stone yet).
    fn continuation_base(&self, pos: &Position) -> Option<usize> {
        if !self.margins.continuation || self.continuation.is_empty() {
            return None;
        }
        let cells = self.history.len();
        pos.moves().last().map(|&(p, _)| self.cell(p) * cells)
    }

    fn counter_slot(&self, pos: &Position) -> Option<usize> {
        if !self.counter_moves {
            return None;
        }
        pos.moves().last().map(|&(p, _)| self.cell(p))
    }

    /// The root's moves for `me`, best first; every empty cell when no stone is near any.
    #[must_use]
    pub fn root_moves(&self, pos: &Position, me: Color) -> Vec<Point> {
        let facing = !pos.class_sets(!me).open_four.is_empty();
        let mut scored = self.scored(pos, me, facing);
        scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        if scored.is_empty() {
            let n = pos.size() as u8;
            for y in 0..n {
                for x in 0..n {
                    let p = Point::new(x, y);
                    if pos.stone(p).is_none() && !pos.is_foul(p, me) {
                        scored.push((0, self.cell(p), p));
                    }
                }
            }
        }
        scored.into_iter().map(|(_, _, p)| p).collect()
    }

    /// Candidate cells with their order score (mover's value, opponent's value, history).
    fn scored(&self, pos: &Position, s: Color, facing: bool) -> Vec<(i64, usize, Point)> {
        let mut scored = Vec::new();
        self.scored_into(pos, s, facing, &mut scored);
        scored
    }

    /// [`Tree::scored`] into `scored` (emptied first).
    fn scored_into(
        &self,
        pos: &Position,
        s: Color,
        facing: bool,
        scored: &mut Vec<(i64, usize, Point)>,
    ) {
        scored.clear();
        let o = !s;
        let cells = if facing {
            let theirs = pos.class_sets(o);
            theirs.open_four | theirs.four | pos.class_sets(s).four
        } else {
            pos.candidates()
        };
        let fouls = pos.has_fouls(s);
        let places = Places::of(pos, s);
        let base = self.continuation_base(pos);
        for p in cells.iter() {
            if fouls && pos.is_foul(p, s) {
                continue;
            }
            let i = self.cell(p);
            let follow = base.map_or(0, |b| self.continuation[b + i][s.index()] >> 4);
            let score = i64::from(pos.order(p, s) + places.score(p)) * 3
                + i64::from(self.history[i][s.index()].min(1 << 20) >> 4)
                + i64::from(follow);
            scored.push((score, i, p));
        }
    }

    /// The entry for `key` if the table holds one, and the slot to write it to.
    #[inline]
    fn probe(&self, key: u64) -> (Option<Entry>, usize) {
        let base = (key as usize) & (self.table.len() - 1) & !1;
        for slot in [base, base + 1] {
            if let Some(e) = self.table.load(slot, key) {
                if e.bound() != Bound::None {
                    return (Some(e), slot);
                }
            }
        }
        // Replace the shallower entry, an entry of an older search first.
        let (a, b) = (self.table.peek(base), self.table.peek(base + 1));
        let worth = |e: Entry| {
            let age = (self.generation.wrapping_sub(e.generation()) & GENERATION_MASK) as i32;
            i32::from(e.depth) - 4 * age
        };
        (None, if worth(a) <= worth(b) { base } else { base + 1 })
    }

    fn store(&mut self, key: u64, score: i32, ply: i32, best: u16, depth: i32, bound: Bound) {
        self.store_marked(key, score, ply, best, depth, bound, false);
    }

    /// [`Tree::store`], with the entry marked as the PV's when `was_pv` ([`TTPV_REDUCTION`]).
    #[allow(clippy::too_many_arguments)]
    fn store_marked(
        &mut self,
        key: u64,
        score: i32,
        ply: i32,
        best: u16,
        depth: i32,
        bound: Bound,
        was_pv: bool,
    ) {
        let (found, slot) = self.probe(key);
        if let Some(e) = found {
            // Keep a deeper result of this search for the same position.
            if i32::from(e.depth) > depth
                && e.generation() == self.generation
                && bound != Bound::Exact
            {
                return;
            }
        }
        let bound_bits = match bound {
            Bound::None => 0,
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let entry = Entry {
            score: to_table(score, ply),
            best,
            depth: depth.clamp(0, 127) as i8,
            meta: bound_bits | u8::from(was_pv) << 2 | self.generation << 3,
        };
        self.table.save(slot, key, entry);
    }

    #[inline]
    fn cell(&self, p: Point) -> usize {
        p.y as usize * self.size + p.x as usize
    }
}

/// What a late move's reduction adds to the plain late-move reduction ([`Tree::search_child`]).
#[derive(Clone, Copy, Debug)]
struct Reduce {
    /// Plies more (fewer when negative).
    extra: i32,
    /// A ply less, not below none ([`TTPV_REDUCTION`]).
    less: bool,
    /// A ply more when the reduction is already above one ([`IMPROVING`]).
    worse: bool,
}

/// The late-move divisor `base` grown by `growth` per doubling of `time` beyond
/// [`LMR_BASE_TIME`], at most [`LMR_MAX_DOUBLINGS`] (`base` itself for no time limit or one
/// under the base).
fn lmr_divisor_for(base: f64, growth: f64, time: Option<Duration>) -> f64 {
    let Some(time) = time else {
        return base;
    };
    let doublings = (time.as_secs_f64() / LMR_BASE_TIME.as_secs_f64()).log2();
    base + growth * doublings.clamp(0.0, LMR_MAX_DOUBLINGS)
}

/// Late-move reduction for the `k`-th move at `depth`: grows with the log of both, divided by
/// `divisor` ([`LMR_DIVISOR`]).
#[inline]
/// Sorts an iteration's root moves `(score, place, move)` for the next: by score, ties in their
/// places (stable, so the result is deterministic); with `raised` ([`ROOT_ORDER`]) only the moves
/// at those places are ranked by score, ahead of the others, which keep their places.
fn sort_roots(scored: &mut [(i32, usize, Point)], raised: Option<&[usize]>) {
    match raised {
        None => scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1))),
        Some(raised) => {
            scored.sort_by(
                |a, b| match (raised.contains(&a.1), raised.contains(&b.1)) {
                    (true, true) => b.0.cmp(&a.0).then(a.1.cmp(&b.1)),
                    (true, false) => std::cmp::Ordering::Less,
                    (false, true) => std::cmp::Ordering::Greater,
                    (false, false) => a.1.cmp(&b.1),
                },
            )
        }
    }
}

fn reduction(depth: i32, k: usize, pv: bool, divisor: f64) -> i32 {
    let r = (f64::from(depth).ln() * (k as f64).ln() / divisor) as i32;
    if pv {
        (r - 1).max(0)
    } else {
        r
    }
}

/// The moves a node of `depth` tries under [`MOVE_COUNT`] (and
/// [`switch::MOVE_COUNT_PRUNING`]) at `percent` of Rapfi's count `3 + depth^1.32` (at least
/// one).
fn move_count(depth: i32, percent: u16) -> usize {
    let full = 3.0 + f64::from(depth.max(0)).powf(1.32);
    ((full * f64::from(percent) / 100.0) as usize).max(1)
}

/// The plies a PV node of `depth` whose table entry was searched to `entry_depth` loses
/// ([`PV_TABLE_GAP`]).
fn pv_table_reduction(depth: i32, entry_depth: i32) -> i32 {
    ((depth - entry_depth).max(0) / PV_TABLE_GAP).min(2)
}

/// `h` moved by `bonus` and pulled towards zero in proportion to itself, so that it stays within
/// [`HISTORY_RANGE`] ([`HISTORY_GRAVITY`]).
fn gravity(h: &mut i32, bonus: i32) {
    let pull = i64::from(*h) * i64::from(bonus.abs()) / i64::from(HISTORY_RANGE);
    *h += bonus - pull as i32;
}

/// The plies a reduced late move with history `h` loses (or gains) ([`HISTORY_REDUCTION`]).
fn history_reduction(h: i32) -> i32 {
    if h <= 0 {
        1
    } else if h >= HISTORY_HIGH {
        -1
    } else {
        0
    }
}

/// The soft limit after an iteration: `aim` stretched when the iteration `changed` the best move
/// or its score `dropped`, shrunk by the iterations it has been `stable`.
fn soft_aim(aim: Duration, changed: bool, stable: u64, dropped: bool) -> Duration {
    let mut aim = if changed {
        aim * UNSTABLE_STRETCH as u32 / 100
    } else {
        aim * 100 / (100 + STABLE_SHRINK * stable.min(STABLE_ITERATIONS)) as u32
    };
    if dropped {
        aim = aim * 13 / 10;
    }
    aim
}

/// Whether `s` (to move, with no five to make or block and no straight four to make) surely wins
/// in five plies, seen from the class sets alone (after Rapfi's quick win check): the opponent has
/// no move that makes a four, and `s` has a move that makes a four and an open three on another
/// line (the block is forced, cannot touch the three's line, and cannot make a four, so the three
/// becomes a straight four), or one that makes two open threes (one stone cannot stop both, and the
/// opponent has no four to gain a tempo with). Never for Black under renju, whose later moves may be
/// forbidden; never with fewer than five empty cells.
fn wins_in_five(pos: &Position, s: Color) -> bool {
    if !pos.class_sets(!s).four.is_empty()
        || pos.has_fouls(s)
        || pos.stone_count() + 5 > pos.size() * pos.size()
    {
        return false;
    }
    let ours = pos.class_sets(s);
    !(ours.four & ours.three).is_empty()
        || ours.three.iter().any(|p| {
            Direction::ALL
                .iter()
                .filter(|&&d| pos.class(p, d, s).is_three())
                .count()
                >= 2
        })
}

/// Whether `c` has a move that makes a straight four (under renju, one not forbidden to Black).
fn has_straight_four_move(pos: &Position, c: Color) -> bool {
    let open_fours = pos.class_sets(c).open_four;
    !open_fours.is_empty() && (!pos.has_fouls(c) || open_fours.iter().any(|p| !pos.is_foul(p, c)))
}

/// Whether `s` playing `p` leaves the opponent no straight-four move.
fn stops_straight_fours(pos: &mut Position, p: Point, s: Color) -> bool {
    pos.make_quick(p, s);
    let stops = !has_straight_four_move(pos, !s);
    pos.unmake_quick();
    stops
}

/// Whether a move is exempt from move-count pruning: the table's move, a cell worth
/// [`IMPORTANT`] to either side.
fn important_cell(pos: &Position, p: Point, s: Color, cell: usize, hint: u16) -> bool {
    cell == usize::from(hint) || pos.value(p, s) >= IMPORTANT || pos.value(p, !s) >= IMPORTANT
}

/// The larger of the two coordinate distances.
fn chebyshev(p: Point, q: Point) -> i32 {
    (i32::from(p.x) - i32::from(q.x))
        .abs()
        .max((i32::from(p.y) - i32::from(q.y)).abs())
}

/// Whether `p` lies on a row, column or diagonal through `last` within four cells of it (true
/// when there is no `last`).
fn on_line_near(last: Option<Point>, p: Point) -> bool {
    let Some(q) = last else { return true };
    let dx = (i32::from(p.x) - i32::from(q.x)).abs();
    let dy = (i32::from(p.y) - i32::from(q.y)).abs();
    dx.max(dy) <= 4 && (dx == 0 || dy == 0 || dx == dy)
}

/// The first point of a set (lowest `y`, then `x`).
#[inline]
fn first(set: Bitboard) -> Option<Point> {
    set.iter().next()
}

/// Mate scores are stored relative to the node, not the root.
fn to_table(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

fn from_table(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rule;

    /// The moves a node tries before its breadth (all of them unless every one loses).
    fn tried((mut moves, breadth): (Vec<Point>, usize)) -> Vec<Point> {
        moves.truncate(breadth);
        moves
    }

    fn position(size: usize, stones: &[(u8, u8, Color)]) -> Position {
        let mut pos = Position::new(size, Rule::Freestyle);
        for &(x, y, c) in stones {
            pos.make(Point::new(x, y), c);
        }
        pos
    }

    #[test]
    fn table_keeps_the_deeper_entry_of_the_same_search_and_replaces_old_ones() {
        let mut tree = Tree::new(15, 1 << 16);
        tree.store(42, 10, 0, 7, 8, Bound::Lower);
        tree.store(42, 20, 0, 9, 3, Bound::Lower);
        let (e, _) = tree.probe(42);
        let e = e.expect("stored");
        assert_eq!((e.depth, e.best, e.score), (8, 7, 10));
        // An exact result replaces it.
        tree.store(42, 30, 0, 5, 3, Bound::Exact);
        assert_eq!(tree.probe(42).0.unwrap().best, 5);
        // A later generation replaces the old deep entry.
        tree.generation = (tree.generation + 5) & GENERATION_MASK;
        tree.store(42, 40, 0, 3, 1, Bound::Lower);
        assert_eq!(tree.probe(42).0.unwrap().best, 3);
    }

    #[test]
    fn table_stores_mates_relative_to_the_node() {
        let mut tree = Tree::new(15, 1 << 16);
        tree.store(7, MATE - 9, 4, 1, 5, Bound::Exact);
        let e = tree.probe(7).0.unwrap();
        assert_eq!(from_table(e.score, 6), MATE - 11);
    }

    #[test]
    fn buckets_hold_two_positions_and_replace_the_less_worth() {
        let mut tree = Tree::new(15, 1024 * ENTRY_BYTES);
        let mask = tree.table.len() as u64 - 1;
        let (a, b, c) = (2, 2 + (mask + 1), 3 + 2 * (mask + 1));
        tree.store(a, 1, 0, 1, 9, Bound::Exact);
        tree.store(b, 2, 0, 2, 2, Bound::Exact);
        assert!(tree.probe(a).0.is_some() && tree.probe(b).0.is_some());
        tree.store(c, 3, 0, 3, 5, Bound::Exact);
        assert!(tree.probe(a).0.is_some(), "the deeper entry stays");
        assert!(tree.probe(b).0.is_none(), "the shallower entry goes");
        assert!(tree.probe(c).0.is_some());
    }

    #[test]
    fn move_order_puts_the_fours_and_blocks_first() {
        use Color::{Black as B, White as W};
        // Black X X X . on row 7 (open three at 4..6), White two stones.
        let mut pos = position(
            15,
            &[(4, 7, B), (10, 10, W), (5, 7, B), (11, 11, W), (6, 7, B)],
        );
        let mut tree = Tree::new(15, 1 << 16);
        // White to move faces an open three: only the blocks and counter-fours.
        let moves = tried(tree.moves(&mut pos, W, 1, u16::MAX, true));
        let blocks: Vec<Point> = moves.iter().copied().filter(|p| p.y == 7).collect();
        assert!(!moves.is_empty());
        assert!(moves
            .iter()
            .all(|p| p.y == 7 || pos.class_sets(W).four.contains(*p)));
        assert!(blocks.contains(&Point::new(3, 7)) && blocks.contains(&Point::new(7, 7)));
        // Black to move: its straight-four points lead.
        let moves = tried(tree.moves(&mut pos, B, 1, u16::MAX, false));
        let top: Vec<Point> = moves[..2].to_vec();
        assert!(top.contains(&Point::new(3, 7)) && top.contains(&Point::new(7, 7)));
    }

    #[test]
    fn the_counter_move_comes_after_the_killers_and_before_the_rest() {
        use Color::{Black as B, White as W};
        // A quiet middle game: no threes, no fours; Black's last stone at (9, 7).
        let mut pos = position(15, &[(7, 7, B), (8, 8, W), (6, 9, B), (9, 9, W), (9, 7, B)]);
        let last = pos.moves().last().unwrap().0;
        let mut tree = Tree::new(15, 1 << 16);
        tree.counter_moves = true;
        let plain = tried(tree.moves(&mut pos, W, 1, u16::MAX, false));
        // The last of the plain order becomes the counter move to Black's last stone, the second
        // last a killer.
        let counter = plain[plain.len() - 1];
        let killer = plain[plain.len() - 2];
        let cell = tree.cell(last);
        tree.counters[cell][W.index()] = tree.cell(counter) as u16;
        tree.killers[1] = [tree.cell(killer) as u16, u16::MAX];
        let ordered = tried(tree.moves(&mut pos, W, 1, u16::MAX, false));
        assert_eq!(&ordered[..2], &[killer, counter]);
        assert_eq!(&ordered[2..], &plain[..plain.len() - 2]);
        // The entry is per colour and per last move: Black to move, or after another last
        // stone, it is not read.
        let black = tried(tree.moves(&mut pos, B, 1, u16::MAX, false));
        assert_ne!(black.first(), Some(&counter));
        tree.counter_moves = false;
        tree.killers[1] = [u16::MAX; 2];
        assert_eq!(tried(tree.moves(&mut pos, W, 1, u16::MAX, false)), plain);
    }

    #[test]
    fn a_cut_off_records_the_counter_move_to_the_last_stone() {
        use Color::{Black as B, White as W};
        let mut pos = position(15, &[(7, 7, B), (8, 8, W), (6, 9, B), (9, 9, W), (9, 7, B)]);
        let mut tree = Tree::new(15, 1 << 16);
        tree.counter_moves = true;
        let last = tree.cell(Point::new(9, 7));
        assert_eq!(tree.counters[last], [u16::MAX; 2]);
        // Any move of White's beats a window far below the evaluation: the first one cuts off,
        // and is recorded as White's killer at that ply and counter to Black's last stone.
        let v = tree.search(&mut pos, 2, -20_000, -19_999, 1, W, true, false);
        assert!(v >= -19_999);
        let killer = tree.killers[1][0];
        assert_ne!(killer, u16::MAX);
        assert_eq!(tree.counters[last][W.index()], killer);
        assert_eq!(tree.counters[last][B.index()], u16::MAX);
        // Switched off, nothing is recorded.
        let mut tree = Tree::new(15, 1 << 16);
        tree.counter_moves = false;
        tree.search(&mut pos, 2, -20_000, -19_999, 1, W, true, false);
        assert_eq!(tree.counters[last], [u16::MAX; 2]);
    }

    #[test]
    fn facing_a_three_only_the_real_defences_and_own_fours_are_tried() {
        use Color::{Black as B, White as W};
        // Black: an open three on row 7 (4..6) and a closed three on column 12 (rows 2..4, White
        // above it). White: a closed three on row 12 (cols 2..4, Black to its left).
        let mut pos = position(
            15,
            &[
                (4, 7, B),
                (2, 12, W),
                (5, 7, B),
                (3, 12, W),
                (6, 7, B),
                (4, 12, W),
                (12, 2, B),
                (12, 1, W),
                (12, 3, B),
                (1, 12, B),
                (12, 4, B),
                (14, 14, W),
            ],
        );
        let mut tree = Tree::new(15, 1 << 16);
        let moves = tried(tree.moves(&mut pos, W, 1, u16::MAX, true));
        let own_fours = pos.class_sets(W).four;
        // Every move is a White four or leaves Black no straight four; the slow check by hand:
        for &p in &moves {
            pos.make(p, W);
            let stops = pos.class_sets(B).open_four.is_empty();
            pos.unmake();
            assert!(own_fours.contains(p) || stops, "{p:?} in {moves:?}");
        }
        // The three's ends (3,7), (7,7) stay; Black's column-12 four points (12,5), (12,6) stop
        // nothing, and the far points (2,7), (8,7) leave Black the other end's straight four:
        // all four are left out.
        for p in [(3, 7), (7, 7)] {
            assert!(
                moves.contains(&Point::new(p.0, p.1)),
                "{p:?} missing from {moves:?}"
            );
        }
        for p in [(12, 5), (12, 6), (2, 7), (8, 7)] {
            assert!(!moves.contains(&Point::new(p.0, p.1)), "{p:?} in {moves:?}");
        }
        // White's own fours (row 12: (5,12), (6,12)) are there.
        assert!(moves.contains(&Point::new(5, 12)) && moves.contains(&Point::new(6, 12)));
    }

    #[test]
    fn quiescence_finds_the_suite_vcfs_beyond_the_horizon() {
        // Every freestyle VCF of the solver suite (tests/data/gomoku/tss_suite.txt, proofs the
        // referee accepted) is seen by the quiescence alone, from a full window.
        let suite = include_str!("../../../../tests/data/gomoku/tss_suite.txt");
        let mut checked = 0;
        for line in suite.lines().filter(|l| l.starts_with("vcf freestyle win")) {
            let moves = line
                .split_whitespace()
                .skip(4)
                .collect::<Vec<_>>()
                .join(" ");
            let grid = crate::parse_position(&moves, Some(15))
                .expect("suite position")
                .grid;
            let mut pos = Position::new(15, crate::Rule::Freestyle);
            let mut counts = [0; 2];
            for p in grid.points() {
                if let Some(c) = grid.get(p) {
                    pos.make(p, c);
                    counts[c.index()] += 1;
                }
            }
            let s = if counts[Color::Black.index()] == counts[Color::White.index()] {
                Color::Black
            } else {
                Color::White
            };
            // The stones were placed in board order, so the "last stone" is arbitrary: the
            // complete quiescence (every four) must see each VCF.
            let mut tree = Tree::new(15, 1 << 20);
            tree.selective = false;
            let v = tree.quiesce(&mut pos, -MATE, MATE, 0, s, 0);
            assert!(v >= MATE_BOUND, "{line}: quiescence score {v}");
            checked += 1;
        }
        assert!(checked >= 10, "{checked} suite positions");
    }

    #[test]
    fn the_selective_quiescence_follows_the_last_stone() {
        use Color::{Black as B, White as W};
        // Black has two closed threes: row 3 (cols 2..4, White at 1,3), far from Black's last
        // stone, and column 10 (rows 8..10, White at 10,7), through it (10,10 is Black's last).
        // Each gives fours; together they make no VCF.
        let mut pos = position(
            15,
            &[
                (2, 3, B),
                (1, 3, W),
                (3, 3, B),
                (10, 7, W),
                (4, 3, B),
                (0, 14, W),
                (10, 8, B),
                (14, 0, W),
                (10, 9, B),
                (14, 14, W),
                (10, 10, B),
                (7, 0, W),
            ],
        );
        assert_eq!(pos.moves().last().map(|m| m.0), Some(Point::new(7, 0)));
        let fours = pos.class_sets(B).four;
        assert!(fours.contains(Point::new(5, 3)) && fours.contains(Point::new(10, 11)));
        // Selective: only the column through (10,10) is tried; the full one tries both rows. The
        // node counts tell: a four tried costs at least the block and the reply node.
        let mut count = |selective: bool| {
            let mut tree = Tree::new(15, 1 << 20);
            tree.selective = selective;
            let v = tree.quiesce(&mut pos, -MATE, MATE, 0, B, 0);
            assert!(v < MATE_BOUND, "no VCF here: {v}");
            tree.nodes
        };
        let (sel, full) = (count(true), count(false));
        assert!(sel < full, "selective {sel} nodes, full {full}");
        assert!(on_line_near(Some(Point::new(10, 10)), Point::new(10, 11)));
        assert!(on_line_near(Some(Point::new(10, 10)), Point::new(14, 14)));
        assert!(!on_line_near(Some(Point::new(10, 10)), Point::new(5, 3)));
        assert!(!on_line_near(Some(Point::new(10, 10)), Point::new(15, 15)));
        assert!(!on_line_near(Some(Point::new(10, 10)), Point::new(11, 12)));
        assert!(on_line_near(None, Point::new(5, 3)));
    }

    /// The policy-based reduction narrows the tree: fewer nodes to the same depth on random
    /// middle-game positions; and it keeps the wins: every freestyle VCF of the solver suite is
    /// still a win at every depth up to 5.
    #[test]
    fn policy_reduction_narrows_the_tree_and_keeps_the_wins() {
        narrows_the_tree_and_keeps_the_wins("policy", |tree, on| {
            tree.policy_gap = if on { POLICY_GAP } else { i32::MAX };
        });
    }

    /// The late-move reduction's divisor as a knob: a smaller one (more reduction) narrows the
    /// tree against the engine's own, and the suite's VCFs stay wins.
    #[test]
    fn smaller_lmr_divisor_narrows_the_tree_and_keeps_the_wins() {
        narrows_the_tree_and_keeps_the_wins("lmr-divisor", |tree, on| {
            tree.set_knobs(knob::Knobs {
                lmr_divisor: if on { 0.6 } else { LMR_DIVISOR },
                ..knob::Knobs::default()
            });
        });
    }

    /// The divisor grows by the growth per doubling of the time beyond a second, up to
    /// [`LMR_MAX_DOUBLINGS`], and not at all without a time limit or under a second.
    #[test]
    fn lmr_divisor_grows_with_time() {
        let ms = |m| Some(Duration::from_millis(m));
        assert_eq!(lmr_divisor_for(1.0, 0.5, None), 1.0);
        assert_eq!(lmr_divisor_for(1.0, 0.5, ms(0)), 1.0);
        assert_eq!(lmr_divisor_for(1.0, 0.5, ms(999)), 1.0);
        assert_eq!(lmr_divisor_for(1.0, 0.5, ms(1000)), 1.0);
        assert_eq!(lmr_divisor_for(1.0, 0.5, ms(2000)), 1.5);
        assert_eq!(lmr_divisor_for(1.2, 0.5, ms(4000)), 2.2);
        assert_eq!(lmr_divisor_for(1.0, 0.0, ms(4000)), 1.0);
        let most = 1.0 + 0.5 * LMR_MAX_DOUBLINGS;
        assert_eq!(lmr_divisor_for(1.0, 0.5, ms(3_600_000)), most);
        let d = lmr_divisor_for(1.0, 0.5, ms(3000));
        assert!((d - (1.0 + 0.5 * 3f64.log2())).abs() < 1e-12, "{d}");
    }

    #[test]
    fn knobs_parse_and_refuse() {
        assert_eq!(knob::parse(""), Ok(knob::Knobs::default()));
        assert_eq!(knob::parse("none"), Ok(knob::Knobs::default()));
        let k = knob::parse(
            " lmr-divisor = 1.5 ,policy-gap=300,cut-reduction=1,lmr-growth=0.5,style=-20",
        )
        .unwrap();
        assert_eq!(
            k,
            knob::Knobs {
                lmr_divisor: 1.5,
                lmr_growth: 0.5,
                policy_gap: 300,
                cut_reduction: 1,
                style: -20,
                white_style: 0,
                leaf_sample: 0,
                smooth: 0,
                tempo: 0,
                own_vct: 0,
                margins: knob::Margins::default(),
            }
        );
        assert_eq!(knob::parse("leaf-sample=7").unwrap().leaf_sample, 7);
        assert_eq!(knob::parse("own-vct=20").unwrap().own_vct, 20);
        assert!(knob::parse("own-vct=501").is_err());
        assert_eq!(
            knob::parse("mated-breadth=255")
                .unwrap()
                .margins
                .mated_breadth,
            255
        );
        assert!(knob::parse("mated-breadth=256").is_err());
        let m = knob::parse("reply-ext=8,four-ext=1,attack-important=1")
            .unwrap()
            .margins;
        assert_eq!(
            (m.reply_extensions, m.four_extensions, m.attack_important),
            (8, 1, true)
        );
        assert!(knob::parse("reply-ext=65").is_err());
        assert!(knob::parse("four-ext=2").is_err());
        assert!(knob::parse("attack-important=2").is_err());
        assert!(knob::parse("facing-reduce=2").is_err());
        assert_eq!(
            knob::parse("block-ext=30").unwrap().margins.block_extension,
            30
        );
        assert!(knob::parse("block-ext=101").is_err());
        assert_eq!(knob::parse("lmr-from=1").unwrap().margins.lmr_from, 1);
        assert!(knob::parse("lmr-from=0").is_err());
        let m = knob::parse("lmr-important=1,improving=1,tt-eval=1,history-gravity=1")
            .unwrap()
            .margins;
        assert!(m.lmr_important && m.improving && m.tt_eval && m.history_gravity);
        assert!(!knob::Margins::default().tt_eval && !knob::Margins::default().history_gravity);
        assert!(knob::parse("history-gravity=2").is_err());
        assert!(
            knob::parse("history-reduction=1")
                .unwrap()
                .margins
                .history_reduction
        );
        assert!(knob::parse("history-reduction=2").is_err());
        assert!(knob::parse("continuation=1").unwrap().margins.continuation);
        assert!(knob::parse("continuation=2").is_err());
        assert!(knob::parse("tt-eval=2").is_err());
        assert!(!knob::Margins::default().lmr_important && !knob::Margins::default().improving);
        assert!(knob::parse("lmr-important=2").is_err());
        assert!(knob::parse("improving=2").is_err());
        let m = knob::parse("futility-depth=64,move-count=50")
            .unwrap()
            .margins;
        assert_eq!((m.futility_depth, m.move_count), (64, 50));
        assert!(knob::parse("futility-depth=65").is_err());
        assert_eq!(
            (move_count(1, 100), move_count(10, 100), move_count(10, 50)),
            (4, 23, 11)
        );
        // The switch's count (its own formula before session 55), with and without halving.
        for d in 0..=64 {
            let full = 3 + f64::from(d).powf(1.32) as usize;
            assert_eq!(
                (move_count(d, 100), move_count(d, 50)),
                (full, full / 2),
                "{d}"
            );
        }
        let m = knob::parse("futility=120,razor=50,late-moves=150,breadth=20")
            .unwrap()
            .margins;
        assert_eq!(
            (m.futility, m.razor, m.late_moves, m.breadth),
            (120, 50, 150, 20)
        );
        assert_eq!(m.razor_at(2), RAZOR[2] / 2);
        assert_eq!(m.late_moves_at(1), Some(5));
        assert_eq!(m.late_moves_at(7), None);
        let d = knob::Margins::default();
        for depth in 0..=6 {
            assert_eq!(d.late_moves_at(depth), Some(LATE_MOVES[depth as usize]));
        }
        assert!(knob::parse("breadth=0").is_err());
        assert_eq!(knob::parse("tempo=-12").unwrap().tempo, -12);
        assert!(knob::parse("tempo=51").is_err());
        assert!(knob::parse("leaf-sample=-1").is_err());
        let k = knob::parse("policy-gap=250").unwrap();
        assert_eq!(k.policy_gap, 250);
        assert_eq!(k.lmr_divisor, LMR_DIVISOR);
        assert_eq!(k.cut_reduction, CUT_REDUCTION);
        for bad in [
            "lmr-divisor",
            "lmr-divisor=x",
            "lmr-divisor=0.1",
            "lmr-divisor=NaN",
            "policy-gap=-1",
            "cut-reduction=5",
            "style=51",
            "style=2.5",
            "depth=3",
        ] {
            assert!(knob::parse(bad).is_err(), "{bad}");
        }
        assert!(knob::parse("depth=3").unwrap_err().contains("lmr-divisor"));
        // Setting the defaults leaves the tree as it was.
        let mut tree = Tree::new(15, 1 << 20);
        let before = (tree.lmr_divisor, tree.policy_gap, tree.cut_reduction);
        tree.set_knobs(knob::Knobs::default());
        assert_eq!(
            before,
            (tree.lmr_divisor, tree.policy_gap, tree.cut_reduction)
        );
    }

    /// The leaf sample keeps every N-th stand-pat position, each with the root's stones plus the
    /// moves of a line (Black's and White's alternating, as many Black stones as White's or one
    /// more, the side to move by the counts), and helpers keep none; off, nothing is kept.
    #[test]
    fn leaf_sample_keeps_positions_of_the_tree() {
        let mut pos = Position::new(15, crate::Rule::Freestyle);
        let opening = [(7, 7), (8, 8), (6, 8), (8, 6), (7, 9), (9, 7)];
        let mut c = Color::Black;
        for (x, y) in opening {
            pos.make(Point::new(x, y), c);
            c = !c;
        }
        let mut off = Tree::new(15, 1 << 20);
        off.search(&mut pos, 6, -MATE, MATE, 0, c, true, false);
        assert!(off.take_leaves().is_empty());
        let mut tree = Tree::new(15, 1 << 20);
        tree.set_knobs(knob::Knobs {
            leaf_sample: 20,
            ..knob::Knobs::default()
        });
        assert_eq!(tree.helper().leaf_sample, 0);
        tree.search(&mut pos, 6, -MATE, MATE, 0, c, true, false);
        let leaves = tree.take_leaves();
        assert!(leaves.len() >= 5, "{} leaves", leaves.len());
        assert!(tree.take_leaves().is_empty());
        for leaf in &leaves {
            assert!(leaf.len() >= opening.len(), "{leaf:?}");
            let mut seen = Position::new(15, crate::Rule::Freestyle);
            let mut colour = Color::Black;
            for &p in leaf {
                assert!(seen.stone(p).is_none(), "{leaf:?}");
                seen.make(p, colour);
                colour = !colour;
            }
            for (i, &(x, y)) in opening.iter().enumerate() {
                let want = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                assert_eq!(seen.stone(Point::new(x, y)), Some(want), "{leaf:?}");
            }
        }
    }

    /// Measured with internal iterative reduction off: with it on (v2.16), the cut-node reduction
    /// no longer narrows a fixed-depth tree (135,257 nodes against 133,048 without, on 32 of these
    /// positions), probably because both take depth from the same nodes (cut nodes with no
    /// table move).
    #[test]
    fn cut_node_reduction_narrows_the_tree_and_keeps_the_wins() {
        narrows_the_tree_and_keeps_the_wins("cut-node", |tree, on| {
            tree.cut_reduction = if on { CUT_REDUCTION } else { 0 };
            tree.iir_depth = 0;
        });
    }

    /// A reduction switched on by `set` searches fewer nodes at depth 10 on random middle games
    /// than without it, and every VCF of the solver suite still scores as a win at depths 1-5.
    ///
    /// The tree is searched with the linear evaluation (no net), as when these reductions were
    /// measured: the node counts of eight positions move with every refit of the net (v2.25's
    /// made three of these reductions search more nodes here, session 61), and the test is of
    /// the search, not of the net.
    fn narrows_the_tree_and_keeps_the_wins(what: &str, set: impl Fn(&mut Tree, bool)) {
        let mut rng = stonelab_rand::Xorshift64Star::new(0x9011_C7ED_0000_0001);
        let (mut with, mut without) = (0, 0);
        for _ in 0..8 {
            let mut pos = Position::new(15, crate::Rule::Freestyle);
            pos.set_net(None);
            let mut c = Color::Black;
            for _ in 0..8 + rng.below(6) {
                loop {
                    let p = Point::new(3 + rng.below(9) as u8, 3 + rng.below(9) as u8);
                    if pos.stone(p).is_none() {
                        pos.make(p, c);
                        break;
                    }
                }
                c = !c;
            }
            for (on, total) in [(true, &mut with), (false, &mut without)] {
                let mut tree = Tree::new(15, 1 << 22);
                set(&mut tree, on);
                tree.search(&mut pos, 10, -MATE, MATE, 0, c, true, false);
                *total += tree.nodes;
            }
        }
        assert!(
            with < without,
            "with the {what} reduction {with} nodes, without {without}"
        );
        keeps_the_wins(set);
    }

    /// Every VCF of the solver suite scores as a win at depths 1-5 with the switch `set` on.
    fn keeps_the_wins(set: impl Fn(&mut Tree, bool)) {
        let suite = include_str!("../../../../tests/data/gomoku/tss_suite.txt");
        let mut checked = 0;
        for line in suite.lines().filter(|l| l.starts_with("vcf freestyle win")) {
            let moves = line.split_whitespace().skip(4).collect::<Vec<_>>();
            let grid = crate::parse_position(&moves.join(" "), Some(15))
                .expect("suite position")
                .grid;
            let mut pos = Position::new(15, crate::Rule::Freestyle);
            for p in grid.points() {
                if let Some(c) = grid.get(p) {
                    pos.make(p, c);
                }
            }
            let black = pos.moves().iter().filter(|m| m.1 == Color::Black).count();
            let s = if 2 * black == pos.stone_count() {
                Color::Black
            } else {
                Color::White
            };
            let mut tree = Tree::new(15, 1 << 20);
            set(&mut tree, true);
            for depth in 1..=5 {
                let v = tree.search(&mut pos, depth, -MATE, MATE, 0, s, true, false);
                assert!(v >= MATE_BOUND, "{line}: depth {depth} score {v}");
            }
            checked += 1;
        }
        assert!(checked >= 10, "{checked} suite positions");
    }

    #[test]
    fn reply_extensions_and_important_attacks_keep_the_wins() {
        for list in [
            "reply-ext=8",
            "reply-ext=4,four-ext=1",
            "attack-important=1",
            "block-ext=30",
            "block-ext=100,facing-reduce=1",
            "lmr-from=1,facing-reduce=1",
            "lmr-important=1",
            "improving=1",
            "improving=1,lmr-important=1",
            "tt-eval=1",
            "history-gravity=1",
            "history-gravity=1,history-reduction=1",
            "history-gravity=1,continuation=1",
            "futility-depth=64",
            "move-count=100",
            "move-count=50,futility-depth=64",
        ] {
            let knobs = knob::parse(list).unwrap();
            keeps_the_wins(|tree, on| {
                if on {
                    tree.set_knobs(knobs);
                }
            });
        }
    }

    #[test]
    fn reducing_the_replies_to_a_three_narrows_the_tree_and_keeps_the_wins() {
        let on = knob::parse("facing-reduce=1").unwrap();
        let off = knob::parse("facing-reduce=0").unwrap();
        assert!(on.margins.facing_reduce && !off.margins.facing_reduce);
        narrows_the_tree_and_keeps_the_wins("facing", |tree, reduce| {
            tree.set_knobs(if reduce { on } else { off });
        });
    }

    #[test]
    fn internal_iterative_reduction_narrows_the_tree_and_keeps_the_wins() {
        narrows_the_tree_and_keeps_the_wins("internal iterative", |tree, on| {
            tree.iir_depth = if on { IIR_DEPTH } else { 0 };
        });
    }

    /// The PV mark: an entry stored by a PV search says so, one stored by a null-window search
    /// does not, the mark survives packing beside the bound and generation, and the reduction it
    /// switches keeps the suite's wins.
    #[test]
    fn pv_nodes_mark_their_entries_and_the_ttpv_reduction_keeps_the_wins() {
        let e = Entry {
            score: -5,
            best: 17,
            depth: 9,
            meta: 3 | 4 | (GENERATION_MASK << 3),
        };
        let back = Entry::unpack(e.pack());
        assert_eq!(back, e);
        assert!(back.was_pv());
        assert_eq!(back.bound(), Bound::Upper);
        assert_eq!(back.generation(), GENERATION_MASK);
        let pos = position(
            15,
            &[
                (7, 7, Color::Black),
                (8, 8, Color::White),
                (6, 8, Color::Black),
            ],
        );
        let key = pos.hash() ^ (Color::White as u64);
        for pv in [true, false] {
            let mut pos = pos.clone();
            let mut tree = Tree::new(15, 1 << 20);
            tree.search(&mut pos, 4, -MATE, MATE, 0, Color::White, pv, false);
            let stored = tree.probe(key).0.expect("the root's entry");
            assert_eq!(stored.was_pv(), pv);
        }
        keeps_the_wins(|tree, on| tree.ttpv_reduction = on);
    }

    #[test]
    fn the_history_under_gravity_stays_in_range_and_follows_its_results() {
        let mut rng = stonelab_rand::Xorshift64Star::new(0x6EA7_0000_0000_0054);
        let mut h = 0;
        for _ in 0..100_000 {
            let bonus = (64 * (1 + rng.below(30) as i32).pow(2)).min(8192);
            gravity(&mut h, if rng.below(2) == 0 { bonus } else { -bonus });
            assert!(h.abs() <= HISTORY_RANGE, "{h}");
        }
        // Always cutting off converges up to the range, never cutting off down to its negative.
        let (mut up, mut down) = (0, 0);
        for _ in 0..1000 {
            gravity(&mut up, 8192);
            gravity(&mut down, -8192);
        }
        assert!(up > HISTORY_RANGE * 99 / 100 && up <= HISTORY_RANGE, "{up}");
        assert!(
            down < -HISTORY_RANGE * 99 / 100 && down >= -HISTORY_RANGE,
            "{down}"
        );
    }

    #[test]
    fn pv_table_and_history_reductions_keep_the_wins() {
        narrows_the_tree_and_keeps_the_wins("PV table and history", |tree, on| {
            tree.pv_table_reduction = on;
            tree.history_reduction = on;
        });
        // The PV table reduction: nothing below a gap of three plies, one to five, then two.
        let plies: Vec<i32> = (0..=9)
            .map(|gap| pv_table_reduction(12, 12 - gap))
            .collect();
        assert_eq!(plies, [0, 0, 0, 1, 1, 1, 2, 2, 2, 2]);
        assert_eq!(pv_table_reduction(5, 9), 0);
        // The history term: a ply more for a move that never cut off, a ply less for a frequent
        // one.
        assert_eq!(
            [0, 1, 4095, 4096, 1 << 20].map(history_reduction),
            [1, 0, 0, -1, -1]
        );
    }

    #[test]
    fn pruning_never_drops_a_five_or_a_forced_block() {
        use Color::{Black as B, White as W};
        let mut pos = position(
            15,
            &[
                (3, 7, B),
                (3, 8, W),
                (4, 7, B),
                (4, 8, W),
                (5, 7, B),
                (5, 8, W),
                (6, 7, B),
                (10, 1, W),
            ],
        );
        let mut tree = Tree::new(15, 1 << 20);
        // Black has four in a row: a five at (2,7) or (7,7), at any depth and window.
        for depth in 1..6 {
            for (a, b) in [(-MATE, MATE), (100, 101), (-101, -100)] {
                let v = tree.search(&mut pos, depth, a, b, 0, B, false, false);
                assert!(v >= MATE_BOUND.min(b), "depth {depth} window {a},{b}: {v}");
            }
        }
        // White to move must block and then loses to the other end: a loss whatever it does.
        let v = tree.search(&mut pos, 3, -MATE, MATE, 0, W, true, false);
        assert!(v <= -MATE_BOUND, "{v}");
    }

    /// The singular search is the node without its table move: with the only winning move left
    /// out the node is no longer won, and it writes nothing to the table.
    #[test]
    fn a_singular_search_leaves_the_move_out_and_stores_nothing() {
        use Color::{Black as B, White as W};
        // Black's (8,7) makes a four (5..8 on row 7, blocked at (4,7); five point (9,7)) and an
        // open three on column 8 (rows 5..7): a four-three. White's other stones close the
        // diagonals through Black's, so within three plies it is Black's one win.
        let mut pos = position(
            15,
            &[
                (5, 7, B),
                (4, 7, W),
                (6, 7, B),
                (6, 8, W),
                (7, 7, B),
                (9, 5, W),
                (8, 5, B),
                (7, 6, W),
                (8, 6, B),
                (9, 4, W),
            ],
        );
        let mut tree = Tree::new(15, 1 << 20);
        // The four-three would end the node before any move is searched.
        tree.quick_wins = false;
        let win = Point::new(8, 7);
        let ply = 2;
        let v = tree.search(&mut pos, 3, -MATE, MATE, ply, B, true, false);
        assert!(v >= MATE_BOUND, "{v}");
        let key = pos.hash() ^ (B as u64);
        let (stored, _) = tree.probe(key);
        let stored = stored.expect("the node is stored");
        assert_eq!(stored.best, tree.cell(win) as u16);
        tree.excluded[ply as usize] = tree.cell(win) as u16;
        let without = tree.search(&mut pos, 3, -MATE, MATE, ply, B, false, false);
        tree.excluded[ply as usize] = u16::MAX;
        assert!(without < MATE_BOUND, "{without}");
        assert_eq!(tree.probe(key).0, Some(stored));
        // The singular test itself. A stored mate is never tested; a stored score far above what
        // the other moves reach makes the move singular (a ply more); one far below a low beta
        // that the other moves still beat fails the node high without the move (multi-cut).
        let test = |tree: &mut Tree, pos: &mut Position, score: i32, beta: i32| {
            let e = Entry {
                score,
                depth: 6,
                ..stored
            };
            tree.singular(pos, Some(e), stored.best, 6, beta, ply, B, false)
        };
        assert_eq!(test(&mut tree, &mut pos, stored.score, MATE), Ok(None));
        assert_eq!(test(&mut tree, &mut pos, 50_000, MATE), Ok(Some(1)));
        // With the double extension, far above the others is two plies at a non-PV node.
        tree.set_knobs(knob::parse("double-se=20").unwrap());
        assert_eq!(test(&mut tree, &mut pos, 50_000, MATE), Ok(Some(2)));
        tree.set_knobs(knob::parse("none").unwrap());
        assert_eq!(
            test(&mut tree, &mut pos, -50_000, -60_000),
            Err(-50_000 - SINGULAR_MARGIN * 6)
        );
        assert_eq!(tree.probe(key).0, Some(stored));
    }

    #[test]
    fn a_node_claims_a_mate_only_when_every_candidate_loses() {
        use Color::{Black as B, White as W};
        // Session 48, game 19 against Rapfi, after Black's b8 (1,7): Black threatens d10 (3,5),
        // a four (d10 e9 f8 g7) and an open three (b8 c9 d10) at once. White's a7 (0,8) closes
        // the three's far end, and d10 is then a four and a closed three: no win (Rapfi and the
        // engine both play a7 here and the game went on for fifty moves). The order ranks a7,
        // on the edge, low; with the breadth at 16 it was never tried, every move tried lost to
        // the four-three, and the node reported White mated.
        let stones = [
            (7, 7, B),
            (7, 5, W),
            (5, 5, B),
            (6, 6, W),
            (5, 7, B),
            (5, 6, W),
            (4, 6, B),
            (4, 7, W),
            (6, 8, B),
            (7, 9, W),
            (3, 8, B),
            (3, 7, W),
            (5, 8, B),
            (7, 8, W),
            (4, 9, B),
            (5, 9, W),
            (2, 7, B),
            (5, 10, W),
            (2, 6, B),
            (2, 5, W),
            (1, 6, B),
            (0, 5, W),
            (3, 6, B),
            (0, 6, W),
            (1, 7, B),
        ];
        let mut pos = position(15, &stones);
        let a7 = Point::new(0, 8);
        let search = |mated_breadth: u8, pos: &mut Position| {
            // The whole ordered list (a node that may go past the breadth sorts it all).
            let mut ranker = Tree::new(15, 1 << 16);
            ranker.margins.breadth = 16;
            ranker.margins.mated_breadth = 1;
            let (moves, breadth) = ranker.moves(pos, W, 0, u16::MAX, false);
            assert_eq!(breadth, 16);
            let mut tree = Tree::new(15, 1 << 16);
            tree.margins.breadth = 16;
            tree.margins.mated_breadth = mated_breadth;
            let rank = moves
                .iter()
                .position(|&p| p == a7)
                .expect("a7 is a candidate");
            assert!(rank >= 16, "a7 ranks {rank}");
            tree.search(pos, 4, -MATE, MATE, 0, W, true, false)
        };
        // The hard cap (the default) claims the mate that is not there; going past it while
        // every move loses, at this node's ply or at every node, finds a7.
        assert!(search(0, &mut pos) <= -MATE_BOUND);
        assert!(search(1, &mut pos) > -MATE_BOUND);
        assert!(search(u8::MAX, &mut pos) > -MATE_BOUND);
        // After a7 Black has no mate at that depth either.
        pos.make(a7, W);
        let mut tree = Tree::new(15, 1 << 16);
        let v = tree.search(&mut pos, 5, -MATE, MATE, 0, B, true, false);
        assert!(v < MATE_BOUND, "{v}");
    }

    #[test]
    fn two_threads_agree_with_one_on_a_forced_win_and_stop_together() {
        use Color::{Black as B, White as W};
        // Black X X X . . with both ends open on row 7 and White scattered: a straight four wins.
        let stones = [
            (5, 7, B),
            (0, 0, W),
            (6, 7, B),
            (14, 0, W),
            (7, 7, B),
            (0, 14, W),
        ];
        let mut pos = position(15, &stones);
        let mut tree = Tree::new(15, 1 << 20);
        let roots = tree.root_moves(&pos, B);
        let deadline = Some(Instant::now() + std::time::Duration::from_millis(300));
        let r = tree.iterate_threads(&mut pos, B, roots, None, deadline, 2);
        assert!(r.score >= MATE_BOUND, "{}", r.score);
        assert!([Point::new(4, 7), Point::new(8, 7)].contains(&r.moves[0]));
        assert!(pos.is_consistent());
        // Quiet position, a short deadline: both threads stop and the main result stands.
        let mut pos = position(15, &[(7, 7, B), (8, 8, W)]);
        let roots = tree.root_moves(&pos, B);
        let start = Instant::now();
        let deadline = Some(start + std::time::Duration::from_millis(100));
        let r = tree.iterate_threads(&mut pos, B, roots, None, deadline, 2);
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
        assert!(r.depth >= 1 && pos.stone_count() == 2);
    }

    /// Correction history: an entry learns the mean residual it is taught and stays within its
    /// limit, the evaluation moves by the knob's share of it, and the suite's wins are kept.
    #[test]
    fn the_correction_follows_the_residuals_and_keeps_the_wins() {
        let pos = position(
            15,
            &[
                (7, 7, Color::Black),
                (8, 8, Color::White),
                (6, 8, Color::Black),
            ],
        );
        let mut tree = Tree::new(15, 1 << 20);
        assert_eq!(tree.corrected(&pos, Color::White, 17), 17);
        tree.set_knobs(knob::parse("correction=100").unwrap());
        assert_eq!(tree.corrected(&pos, Color::White, 17), 17);
        // Taught that the search finds 40 more than the evaluation, the corrected evaluation
        // closes in on 57 from below and does not overshoot.
        let mut last = 17;
        for _ in 0..200 {
            let now = tree.corrected(&pos, Color::White, 17);
            assert!(now >= last && now <= 57, "{now}");
            tree.correct(&pos, Color::White, 8, 57 - now);
            last = now;
        }
        assert!(last >= 55, "{last}");
        // The other side to move has tables of its own.
        assert_eq!(tree.corrected(&pos, Color::Black, 17), 17);
        // Half the knob, half the correction; far residuals stay within the limit.
        tree.set_knobs(knob::parse("correction=50").unwrap());
        let half = tree.corrected(&pos, Color::White, 17) - 17;
        assert!((half - (last - 17) / 2).abs() <= 1, "{half}");
        tree.set_knobs(knob::parse("correction=100").unwrap());
        for _ in 0..1000 {
            tree.correct(&pos, Color::White, 16, 1_000_000);
        }
        assert_eq!(tree.corrected(&pos, Color::White, 0), CORRECTION_LIMIT);
        // In the search: the tables fill, and the suite's VCFs stay wins.
        let mut pos = pos.clone();
        let mut fresh = Tree::new(15, 1 << 20);
        fresh.set_knobs(knob::parse("correction=100").unwrap());
        fresh.search(&mut pos, 6, -MATE, MATE, 0, Color::White, true, false);
        assert!(fresh.correction.iter().any(|&e| e != 0));
        keeps_the_wins(|tree, on| {
            if on {
                tree.set_knobs(knob::parse("correction=100").unwrap());
            }
        });
    }

    #[test]
    fn table_move_extensions_deepen_the_tree_and_keep_the_wins() {
        // A middle-game position searched to a fixed depth: the table's move's extensions
        // (hundredths adding up to whole plies) and the double singular extension grow the
        // tree; with both off it is the default's tree.
        let stones = [
            (7, 7, Color::Black),
            (8, 8, Color::White),
            (6, 8, Color::Black),
            (8, 6, Color::White),
            (8, 7, Color::Black),
            (6, 6, Color::White),
            (7, 9, Color::Black),
            (9, 7, Color::White),
        ];
        let nodes = |list: &str| {
            let mut pos = position(15, &stones);
            let mut tree = Tree::new(15, 1 << 20);
            tree.set_knobs(knob::parse(list).unwrap());
            for depth in 1..=9 {
                tree.search(&mut pos, depth, -MATE, MATE, 0, Color::Black, true, false);
            }
            assert!(pos.is_consistent());
            tree.nodes
        };
        let base = nodes("none");
        assert_eq!(nodes("ttm-ext=0,double-se=0"), base);
        assert!(nodes("ttm-ext=1") > base, "ttm-ext");
        assert_ne!(nodes("double-se=5"), base, "double-se");
        assert!(knob::parse("ttm-ext=2").is_err());
        assert!(knob::parse("double-se=1001").is_err());
        keeps_the_wins(|tree, on| {
            if on {
                tree.set_knobs(knob::parse("ttm-ext=1,double-se=5").unwrap());
            }
        });
    }

    #[test]
    fn the_roots_reduction_can_hide_a_quiet_winning_move() {
        // A middle-game position of a lost 1 s game (docs/tuning/mates-15-freestyle-rapfi1s.jsonl,
        // after four plies of Rapfi's line): Black's quiet e4 starts a win through White's
        // counter-fours. With the root's late moves unreduced a fixed budget finds it; `root-less`
        // past any reduction is the same search.
        let moves = "h8 g10 h9 h7 g8 i10 j8 i8 j9 i9 i7 j6 i11 j10 f10 h6 f8 h10 k10 g6 e8 d8 \
                     f6 f9 e11 g9 k11 m11 f5 e9 d5 f7 e5 c5";
        let grid = crate::parse_position(moves, Some(15))
            .expect("position")
            .grid;
        // The position and a fresh tree with the knobs of `list`.
        let setup = |list: &str| {
            let mut pos = Position::new(15, crate::Rule::Freestyle);
            for p in grid.points() {
                if let Some(c) = grid.get(p) {
                    pos.make(p, c);
                }
            }
            let mut tree = Tree::new(15, 1 << 20);
            tree.set_knobs(knob::parse(list).unwrap());
            (pos, tree)
        };
        let run = |list: &str| {
            let (mut pos, mut tree) = setup(list);
            let roots = tree.root_moves(&pos, Color::Black);
            let r = tree.iterate(&mut pos, Color::Black, roots, Some(600_000), None);
            assert!(pos.is_consistent());
            (r.moves[0], r.score, tree.nodes)
        };
        let unreduced = run("root-reduce=0");
        assert_eq!(unreduced.0, Point::new(4, 11), "e4");
        assert!(unreduced.1 >= MATE_BOUND, "{}", unreduced.1);
        assert_eq!(run("root-less=16"), unreduced);
        assert_eq!(run("root-reduce=100,root-less=0,pv-less=0"), run("none"));
        // `pv-less` reshapes the PV nodes' subtrees of a fixed-depth search.
        let fixed = |list: &str| {
            let (mut pos, mut tree) = setup(list);
            for depth in 1..=7 {
                tree.search(&mut pos, depth, -MATE, MATE, 0, Color::Black, true, false);
            }
            tree.nodes
        };
        assert_ne!(fixed("pv-less=3"), fixed("none"));
        assert_eq!(fixed("pv-less=0"), fixed("none"));
        assert!(knob::parse("root-reduce=401").is_err());
        assert!(knob::parse("root-less=17").is_err());
    }

    #[test]
    fn the_root_order_moves_only_the_moves_that_raised_alpha() {
        let p = |x| Point::new(x, 0);
        let scored = vec![
            (10, 0, p(0)),
            (5, 1, p(1)),
            (30, 2, p(2)),
            (-100, 3, p(3)),
            (20, 4, p(4)),
            (5, 5, p(5)),
        ];
        let order = |raised: Option<&[usize]>| {
            let mut s = scored.clone();
            sort_roots(&mut s, raised);
            s.iter().map(|m| m.2.x).collect::<Vec<_>>()
        };
        // By the scores (upper bounds for all but the moves that raised alpha), ties in place.
        assert_eq!(order(None), [2, 4, 0, 1, 5, 3]);
        // The first move and the one that raised alpha by score; the rest where they were.
        assert_eq!(order(Some(&[0, 2])), [2, 0, 1, 3, 4, 5]);
        assert!(knob::parse("root-order=1").unwrap().margins.root_order);
        assert!(knob::parse("root-order=2").is_err());
    }

    #[test]
    fn white_style_changes_only_whites_searches() {
        use Color::{Black as B, White as W};
        // One search a colour at a fixed budget, with and without the knob: the nodes and the
        // score are the same for Black, and White's differ (its evaluation leans).
        let run = |list: &str, me: Color, stones: &[(u8, u8, Color)]| {
            let mut pos = position(15, stones);
            let mut tree = Tree::new(15, 1 << 20);
            tree.set_knobs(knob::parse(list).unwrap());
            let roots = tree.root_moves(&pos, me);
            let r = tree.iterate(&mut pos, me, roots, Some(60_000), None);
            assert!(pos.is_consistent());
            (tree.nodes, r.score)
        };
        let white_to_move = [(7, 7, B), (8, 8, W), (6, 8, B), (8, 6, W), (9, 7, B)];
        let black_to_move = [(7, 7, B), (8, 8, W), (6, 8, B), (8, 6, W)];
        assert_eq!(
            run("white-style=-30", B, &black_to_move),
            run("", B, &black_to_move)
        );
        assert_ne!(
            run("white-style=-30", W, &white_to_move),
            run("", W, &white_to_move)
        );
        // As the same lean given to both colours.
        assert_eq!(
            run("white-style=-30", W, &white_to_move),
            run("style=-30", W, &white_to_move)
        );
    }

    #[test]
    fn a_spent_soft_limit_ends_the_iterations_after_depth_four() {
        use Color::{Black as B, White as W};
        let stones = [(7, 7, B), (8, 8, W), (6, 8, B), (8, 6, W)];
        let mut pos = position(15, &stones);
        let mut tree = Tree::new(15, 1 << 20);
        // Without a soft limit a node budget decides the depth.
        let roots = tree.root_moves(&pos, B);
        let full = tree.iterate(&mut pos, B, roots.clone(), Some(200_000), None);
        assert!(full.depth > 4, "{}", full.depth);
        // A soft limit already spent: the search stops at the first iteration that may stop it.
        let mut tree = Tree::new(15, 1 << 20);
        tree.set_soft(Some((Instant::now(), Duration::ZERO)));
        let r = tree.iterate(&mut pos, B, roots.clone(), Some(200_000), None);
        assert_eq!(r.depth, 4);
        // A distant one: the node budget decides again.
        let mut tree = Tree::new(15, 1 << 20);
        tree.set_soft(Some((Instant::now(), Duration::from_secs(3600))));
        let r = tree.iterate(&mut pos, B, roots, Some(200_000), None);
        assert_eq!(r.depth, full.depth);
        assert!(pos.is_consistent());
    }

    #[test]
    fn the_soft_aim_stretches_on_change_and_shrinks_with_stability() {
        let aim = Duration::from_millis(1000);
        assert_eq!(soft_aim(aim, true, 0, false), Duration::from_millis(1500));
        assert_eq!(soft_aim(aim, false, 0, false), aim);
        assert_eq!(
            soft_aim(aim, false, 1, false),
            Duration::from_nanos(833_333_333)
        );
        assert_eq!(soft_aim(aim, false, 5, false), Duration::from_millis(500));
        // Stability counts up to five iterations.
        assert_eq!(soft_aim(aim, false, 9, false), Duration::from_millis(500));
        assert_eq!(soft_aim(aim, false, 0, true), Duration::from_millis(1300));
        assert_eq!(soft_aim(aim, true, 0, true), Duration::from_millis(1950));
    }

    /// Whether `s` to move wins within three plies against any defence, by the referee alone: it
    /// has a five point, or a move after which it has two five points and the opponent none.
    fn referee_wins_in_three(r: &mut crate::search::referee::Referee, s: Color) -> bool {
        let empties: Vec<Point> = r.empties().collect();
        if empties.iter().any(|&p| r.makes_five(p, s)) {
            return true;
        }
        empties.iter().any(|&m| {
            r.play(m, s);
            let won = r.five_points(s).len() >= 2 && r.five_points(!s).is_empty();
            r.clear(m);
            won
        })
    }

    /// Whether `s` to move wins within five plies by playing `m`, by the referee alone: after `m`
    /// every reply either makes no five and leaves `s` a win within three plies.
    fn referee_wins_in_five_with(
        r: &mut crate::search::referee::Referee,
        s: Color,
        m: Point,
    ) -> bool {
        r.play(m, s);
        let replies: Vec<Point> = r.empties().collect();
        let won = replies.iter().all(|&q| {
            if r.makes_five(q, !s) {
                return false;
            }
            r.play(q, !s);
            let w = referee_wins_in_three(r, s);
            r.clear(q);
            w
        });
        r.clear(m);
        won
    }

    #[test]
    fn switch_lists_parse_by_name() {
        assert_eq!(
            switch::parse("delay-fours, alpha-cut"),
            Ok(switch::DELAY_FOURS | switch::ALPHA_CUT)
        );
        assert_eq!(switch::parse("none"), Ok(0));
        assert_eq!(switch::parse(""), Ok(0));
        let e = switch::parse("delay-fours,bogus").unwrap_err();
        assert!(e.contains("'bogus'") && e.contains("b4f3-reduced"), "{e}");
        // Every bit has one name.
        let bits = switch::NAMES.iter().fold(0, |a, (_, b)| {
            assert_eq!(a & b, 0);
            a | b
        });
        assert_eq!(bits.count_ones() as usize, switch::NAMES.len());
    }

    /// Every search switch (screened, BENCHMARKS.md session 33) keeps every VCF of the solver
    /// suite a win, each alone and all together; the depth cut narrows the tree. (Not every one
    /// narrows this fixed-depth tree of 8 random middle games: 38,923 nodes without any, 41,161
    /// with the delaying-four reduction, whose quiescence tries and re-searches cost more than
    /// its reductions save, 43,600 with the move-count pruning, and 38,923 with the pruning of
    /// cells worth less than an open two, which met no such cell here.)
    #[test]
    fn every_search_switch_keeps_the_wins() {
        let all = [
            switch::B4F3,
            switch::DELAY_FOURS,
            switch::FACING_RAZOR,
            switch::CONTINUED_ATTACK,
            switch::ALPHA_CUT,
            switch::PRUNE_NOTHING,
            switch::FAIL_HIGH_REDUCTION,
            switch::MOVE_COUNT_PRUNING,
            switch::B4F3_REDUCED,
            switch::DELAY_PLY,
        ];
        for bit in all {
            keeps_the_wins(|tree, on| tree.switches = if on { bit } else { 0 });
        }
        let every = all.iter().fold(0, |a, b| a | b);
        keeps_the_wins(|tree, on| tree.switches = if on { every } else { 0 });
        narrows_the_tree_and_keeps_the_wins("alpha cut", |tree, on| {
            tree.switches = if on { switch::ALPHA_CUT } else { 0 };
        });
    }

    /// A game of `size` and `rule` with Black's stone in the centre: the position, the same as a
    /// grid for the referee, and the colour that moved.
    fn centre_stone(size: usize, rule: Rule) -> (Position, crate::Grid, Color) {
        let mut pos = Position::new(size, rule);
        let mut grid = crate::Grid::new(size).unwrap();
        let mid = (size / 2) as u8;
        pos.make(Point::new(mid, mid), Color::Black);
        grid.set(Point::new(mid, mid), Some(Color::Black));
        (pos, grid, Color::Black)
    }

    /// The move list chosen and sorted up to the breadth is the fully sorted list's first
    /// `breadth` moves, in the same order (the full sort is the path taken when a node may go
    /// past the breadth), on random positions with random history, killers and table moves.
    #[test]
    fn the_partial_sort_keeps_the_full_sorts_first_moves() {
        let mut rng = stonelab_rand::Xorshift64Star::new(0x5E1E_C7ED_0000_0028);
        let full = knob::parse("mated-breadth=1").unwrap();
        let mut compared = 0;
        for game in 0..40 {
            let mut pos = Position::new(15, Rule::Freestyle);
            let mut c = Color::Black;
            pos.make(Point::new(7, 7), c);
            for _ in 0..4 + game % 30 {
                c = !c;
                let cands: Vec<Point> = pos.candidates().iter().collect();
                let p = cands[rng.below(cands.len())];
                if pos.makes_five(p, c) {
                    break;
                }
                pos.make(p, c);
            }
            let s = !c;
            let (mut partial, mut whole) = (Tree::new(15, 1 << 16), Tree::new(15, 1 << 16));
            whole.set_knobs(full);
            for _ in 0..50 {
                let cell = rng.below(225);
                let bonus = rng.below(5000) as i32;
                partial.history[cell][s.index()] += bonus;
                whole.history[cell][s.index()] += bonus;
            }
            let killers = [rng.below(225) as u16, rng.below(225) as u16];
            partial.killers[1] = killers;
            whole.killers[1] = killers;
            let hint = rng.below(225) as u16;
            let (a, n) = partial.moves(&mut pos, s, 1, hint, false);
            let (b, m) = whole.moves(&mut pos, s, 1, hint, false);
            assert_eq!(n, m);
            assert_eq!(a.len(), n, "only the breadth is kept");
            assert_eq!(a[..], b[..n], "game {game}");
            compared += usize::from(b.len() > n);
        }
        assert!(
            compared >= 20,
            "only {compared} lists longer than the breadth"
        );
    }

    /// Random games on small boards: wherever the side to move faces a four-three (and no open
    /// three), every candidate that [`Tree::defences_of_four_three`] leaves out loses in five
    /// plies by the referee alone (the opponent plays one of its four-threes).
    #[test]
    fn every_move_left_out_against_a_four_three_loses_in_five_by_the_referee() {
        use crate::search::referee::Referee;
        let mut rng = stonelab_rand::Xorshift64Star::new(0x0B4F_3DEF_E2CE_0033);
        let (mut positions, mut left_out) = (0usize, 0usize);
        for (size, rule) in [
            (9, Rule::Freestyle),
            (9, Rule::Standard),
            (11, Rule::Freestyle),
        ] {
            let mut found = 0;
            let mut games = 0;
            while found < 25 && games < 2000 {
                games += 1;
                let (mut pos, mut grid, mut c) = centre_stone(size, rule);
                for _ in 0..size * size / 2 {
                    c = !c;
                    let cands: Vec<Point> = pos.candidates().iter().collect();
                    let p = cands[rng.below(cands.len())];
                    if pos.makes_five(p, c) {
                        break;
                    }
                    pos.make(p, c);
                    grid.set(p, Some(c));
                    let (s, o) = (!c, c);
                    let mut tree = Tree::new(size, 1 << 16);
                    if tree.forced(&pos, s, 0).is_some() || !pos.class_sets(o).open_four.is_empty()
                    {
                        continue;
                    }
                    let theirs = pos.class_sets(o);
                    if (theirs.four & theirs.three).is_empty() {
                        continue;
                    }
                    let kept = tried(tree.defences_of_four_three(&mut pos, s, 0, u16::MAX));
                    let all = tried(tree.moves(&mut pos, s, 0, u16::MAX, false));
                    for &m in all.iter().filter(|m| !kept.contains(m)) {
                        // Every four-three of the opponent's after `m`; one of them must win.
                        pos.make(m, s);
                        let t = pos.class_sets(o);
                        let threats: Vec<Point> = (t.four & t.three).iter().collect();
                        pos.unmake();
                        let mut r = Referee::new(&grid, rule);
                        r.play(m, s);
                        let lost = threats
                            .iter()
                            .any(|&q| referee_wins_in_five_with(&mut r, o, q));
                        assert!(
                            lost,
                            "{rule:?} {size}x{size}: {m:?} left out but holds: {:?}",
                            pos.moves()
                        );
                        left_out += 1;
                    }
                    positions += 1;
                    found += 1;
                    break;
                }
            }
        }
        assert!(positions >= 50 && left_out >= 200, "{positions} {left_out}");
    }

    #[test]
    fn every_quick_win_is_a_win_in_five_by_the_referee() {
        use crate::search::referee::Referee;
        let mut rng = stonelab_rand::Xorshift64Star::new(0x0511_C4F1_5E00_0014);
        let mut checked = [0usize; 2];
        for (size, rule) in [
            (9, Rule::Freestyle),
            (9, Rule::Standard),
            (11, Rule::Freestyle),
            (11, Rule::Renju),
        ] {
            let mut games = 0;
            while games < 150 {
                games += 1;
                let (mut pos, mut grid, mut c) = centre_stone(size, rule);
                for _ in 0..size * size / 2 {
                    c = !c;
                    let cands: Vec<Point> = pos
                        .candidates()
                        .iter()
                        .filter(|&p| !pos.is_foul(p, c))
                        .collect();
                    if cands.is_empty() {
                        break;
                    }
                    let p = cands[rng.below(cands.len())];
                    if pos.makes_five(p, c) {
                        break;
                    }
                    pos.make(p, c);
                    grid.set(p, Some(c));
                    let s = !c;
                    let sets = pos.class_sets(s);
                    let decided = !sets.five.is_empty()
                        || !pos.class_sets(c).five.is_empty()
                        || has_straight_four_move(&pos, s);
                    if decided || !wins_in_five(&pos, s) {
                        continue;
                    }
                    // The move that wins: a four-three, else a double three.
                    let four_three = (sets.four & sets.three).iter().next();
                    let m = four_three.or_else(|| {
                        sets.three.iter().find(|&p| {
                            Direction::ALL
                                .iter()
                                .filter(|&&d| pos.class(p, d, s).is_three())
                                .count()
                                >= 2
                        })
                    });
                    let m = m.expect("a winning move");
                    let mut r = Referee::new(&grid, rule);
                    assert!(
                        referee_wins_in_five_with(&mut r, s, m),
                        "{rule:?} {size}x{size}: {:?} to move, {m:?} claimed: {:?}",
                        s,
                        pos.moves()
                    );
                    checked[usize::from(four_three.is_none())] += 1;
                    break;
                }
            }
        }
        // Both kinds were met and checked.
        assert!(checked[0] >= 20 && checked[1] >= 20, "{checked:?}");
    }
}
