//! Monte-Carlo tree search: UCT with RAVE (all-moves-as-first) and prior knowledge over the
//! eye-aware playouts of [`crate::playout`], on several threads. The playouts answer the last move
//! first (capture a chain it left in atari, save one it put in atari, else play a MoGo 3x3 shape
//! next to it) and avoid big self-ataris before they fall back to a uniform random move
//! ([`PlayoutBoard::policy_move`]).
//!
//! A new child starts with virtual playouts from what is known about its move (Gelly and Silver's
//! prior knowledge, with Michi's values: [`PRIOR_EVEN`] and the constants after it): captures and
//! saves, 3x3 shapes and nearness to the last move count as wins, self-ataris and moves on the
//! first two lines far from any stone as losses. They go into both its own and its AMAF
//! statistics, and are taken out again from the root figures a search reports.
//!
//! Each thread grows its own tree from the same root with its own seed (root parallelism); the
//! visit counts of the root moves are summed at the end and the most visited move wins (ties go to
//! the first move in point order, pass last). With a fixed seed, thread count and playout count the
//! search is deterministic; with a deadline it stops when the time is up. Or all threads grow one
//! tree ([`SearchConfig::shared_tree`]): a thread descends and backs up under the tree's lock,
//! leaving a virtual loss on its path while its playout runs outside the lock.
//!
//! Selection value of a child with `n` visits and `ñ` AMAF visits:
//! `(1 - β) Q + β Q_amaf + C sqrt(ln N / (n + 1))`, by the [`TreePolicy`]: by default (since
//! session 26, Pachi's rule) `C` = 0 and Silver's schedule `β = ñ / (ñ + n + n ñ / K)` with `K` =
//! [`SILVER_EQUIVALENCE`], and a move played sooner after the node counts up to
//! 1 + [`AMAF_DISTANCE`] times in its AMAF statistics; before, MoGo's schedule
//! `β = sqrt(K / (3n + K))` with `K` = [`RAVE_EQUIVALENCE`], `C` = [`EXPLORATION`] and every AMAF
//! move counted once ([`TreePolicy::MOGO`]). A node is expanded after [`EXPAND_AFTER`] visits; its
//! children are the legal moves that do not fill an own rule-2/4 eye (an eye next to an own chain in
//! atari stays: rule 2/4 also counts false eyes that join two chains), plus a pass. Two passes in
//! the tree do not end the game there: the playout after them plays on, so stones that cannot
//! live are captured before the area count, as a referee that removes dead stones would see it
//! (scoring the board as it stands would make the search pass with dead stones on the board).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use crate::bitboard::{Point, BITS};
use crate::board::{Board, Move};
use crate::color::Color;
use crate::movemodel::{self, MoveModel};
use crate::playout::{MoveFeatures, PlayoutBoard, PlayoutWeights, PolicyOptions};
use crate::rng::Rng;

/// RAVE equivalence parameter `K`: at `n = K / 3` visits the tree value and the AMAF value weigh
/// about the same.
pub const RAVE_EQUIVALENCE: f64 = 1000.0;

/// How a child's AMAF statistics weigh against its own in the selection value ([`TreePolicy`]):
/// `(1 - β) Q + β Q_amaf`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RaveSchedule {
    /// MoGo's schedule: `β = sqrt(K / (3n + K))` from the child's `n` visits.
    MoGo(f64),
    /// Silver's (the minimum-error schedule of Gelly and Silver 2011, Pachi's default):
    /// `β = ñ / (ñ + n + n ñ / K)` from the child's `n` visits and `ñ` AMAF visits.
    Silver(f64),
}

/// The tree's selection rule: the exploration constant `C` of `C sqrt(ln N / (n + 1))`, the RAVE
/// schedule, and the AMAF distance weight `D`: a move first played `k` of the `m` moves after
/// the node (tree and playout) counts `1 + D (m - k) / (m + 1)` times in its AMAF statistics, so
/// moves played sooner weigh up to `1 + D` (Pachi's `distance_rave`); `D = 0` counts every move
/// once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreePolicy {
    pub exploration: f64,
    pub rave: RaveSchedule,
    pub amaf_distance: u32,
    /// A new child's prior virtual playouts go into its AMAF statistics too (Gelly and Silver),
    /// not only into its own (Pachi's `amaf_prior`, off there by default).
    pub amaf_prior: bool,
}

impl TreePolicy {
    /// The rule before session 26: MoGo's schedule with `K` = [`RAVE_EQUIVALENCE`], exploration
    /// [`EXPLORATION`], every AMAF move counted once.
    pub const MOGO: TreePolicy = TreePolicy {
        exploration: EXPLORATION,
        rave: RaveSchedule::MoGo(RAVE_EQUIVALENCE),
        amaf_distance: 0,
        amaf_prior: true,
    };

    /// The default since session 26 (Pachi's tree rule; BENCHMARKS.md): no exploration term,
    /// Silver's schedule with `K` = [`SILVER_EQUIVALENCE`], AMAF distance weight
    /// [`AMAF_DISTANCE`].
    pub const SILVER: TreePolicy = TreePolicy {
        exploration: 0.0,
        rave: RaveSchedule::Silver(SILVER_EQUIVALENCE),
        amaf_distance: AMAF_DISTANCE,
        amaf_prior: true,
    };

    /// `β` of a child with `visits` visits and `amaf` AMAF visits.
    #[inline]
    #[must_use]
    pub fn beta(&self, visits: f64, amaf: f64) -> f64 {
        match self.rave {
            RaveSchedule::MoGo(k) => (k / (3.0 * visits + k)).sqrt(),
            RaveSchedule::Silver(k) => amaf / (amaf + visits + visits * amaf / k),
        }
    }

    /// The AMAF weight of a move first played at move `at` of a sequence of `len` moves, for
    /// the node whose children's move is move `start` (`start <= at < len`).
    #[inline]
    #[must_use]
    pub fn amaf_weight(&self, start: usize, at: usize, len: usize) -> u32 {
        1 + (self.amaf_distance as usize * (len - at) / (len - start + 1)) as u32
    }

    /// [`TreePolicy::amaf_weight`] for one node (`start`, `len`) and many moves: the division
    /// is a multiplication by the reciprocal, floored after adding 1e-9, which is exact while
    /// the numerator `D (len - at)` is below 2^40 and the denominator below 10^8 (a true
    /// quotient's fraction is then 0, which the rounding error cannot take below 0 after the
    /// nudge, or at least 1e-8, which the nudge cannot carry past 1; tested exhaustively
    /// beyond the longest playout of 19x19).
    #[inline]
    fn amaf_weights(&self, start: usize, len: usize) -> impl Fn(usize) -> u32 {
        let (d, inv) = (self.amaf_distance as usize, 1.0 / (len - start + 1) as f64);
        move |at| 1 + ((d * (len - at)) as f64 * inv + 1e-9) as u32
    }
}

impl Default for TreePolicy {
    fn default() -> TreePolicy {
        TreePolicy::SILVER
    }
}

impl std::fmt::Display for TreePolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (name, k) = match self.rave {
            RaveSchedule::MoGo(k) => ("mogo", k),
            RaveSchedule::Silver(k) => ("silver", k),
        };
        write!(
            f,
            "rave {name} {k} exploration {} amaf-distance {}{}",
            self.exploration,
            self.amaf_distance,
            // (Only when not the default, so that records written before it was an option
            // still name the same rule.)
            if self.amaf_prior {
                ""
            } else {
                " amaf-prior false"
            }
        )
    }
}

/// `K` of Silver's schedule in the default [`TreePolicy`] (Pachi's on boards up to 13x13).
pub const SILVER_EQUIVALENCE: f64 = 3000.0;

/// The AMAF distance weight of the default [`TreePolicy`] (Pachi's).
pub const AMAF_DISTANCE: u32 = 3;

/// UCT exploration constant of [`TreePolicy::MOGO`] (small: RAVE does most of the exploring).
pub const EXPLORATION: f64 = 0.25;
/// Visits (prior ones not counted) before a node's children are added.
pub const EXPAND_AFTER: u32 = 8;
/// Most nodes one thread's tree may hold (32 bytes each, so at most 256 MiB a thread; a shared
/// tree may hold this many for each thread that grows it); past that, leaves stop growing.
pub const MAX_NODES: usize = 8_000_000;
/// Prior knowledge a new child starts with, as virtual playouts (visits, wins) added to both its
/// own and its AMAF statistics (Gelly and Silver 2007; the values are Michi's): every move...
pub const PRIOR_EVEN: (u16, u16) = (10, 5);
/// ...a capture of one stone, and of more (also a move that saves an own chain in atari)...
pub const PRIOR_CAPTURE_ONE: (u16, u16) = (15, 15);
pub const PRIOR_CAPTURE_MANY: (u16, u16) = (30, 30);
/// ...a self-atari of two stones or more that captures nothing (virtual losses)...
pub const PRIOR_SELF_ATARI: (u16, u16) = (10, 0);
/// ...a MoGo 3x3 shape ([`crate::pattern3`])...
pub const PRIOR_PATTERN: (u16, u16) = (10, 10);
/// ...Manhattan distance 1, 2 and 3 from the last move...
pub const PRIOR_NEAR_LAST: [(u16, u16); 3] = [(24, 24), (22, 22), (8, 8)];
/// ...and, with no stone within distance 3, a move on the first two lines (losses) or on the
/// third (wins).
pub const PRIOR_EMPTY_AREA: (u16, u16) = (10, 0);
pub const PRIOR_THIRD_LINE: (u16, u16) = (10, 10);
/// With a learned move model ([`SearchConfig::model`]): a child whose move the model gives
/// probability `p` among its siblings also starts with `w * sqrt(p)` virtual wins, `w` =
/// [`SearchConfig::model_weight`], by default this (twice Michi's weighting of its large
/// patterns; Pachi gives its pattern prior 210 on 9x9). Measured in BENCHMARKS (session 25)
/// with the model in place of the hand-set priors ([`SearchConfig::hand_priors`] false).
pub const PRIOR_MODEL: f64 = 200.0;

/// With [`SearchConfig::ko_fights`]: for how many moves after a ko capture the playouts go back
/// to the ko (Pachi's `koage`).
pub const KO_FIGHT_MOVES: usize = 3;

/// With [`SearchConfig::ko_fights`]: in what percentage of the turns they may, the playouts
/// retake or fill the ko (Pachi's `korate`).
pub const KO_FIGHT_PERCENT: u32 = 40;

/// What one search is asked to do.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Komi, subtracted from Black's area score.
    pub komi: f64,
    /// Threads (each grows its own tree, or all one: [`SearchConfig::shared_tree`]).
    pub threads: usize,
    /// All threads grow one tree (tree parallelism: a thread takes the tree's lock to descend
    /// and to back up, and leaves a virtual loss on its path meanwhile) instead of one each
    /// (root parallelism, whose root statistics are summed at the end). With more than one
    /// thread a shared tree's search is not repeatable, even with fixed seeds and playouts.
    pub shared_tree: bool,
    /// Total playouts (split over the threads); `None` for no limit (then give a deadline).
    pub playouts: Option<u64>,
    /// When to stop, if the playout count is not reached first.
    pub deadline: Option<Instant>,
    /// Seed of the random playouts (thread `i` uses a seed derived from it and `i`).
    pub seed: u64,
    /// With a deadline and no playout count: stop as soon as the most visited root move of the
    /// first thread's tree cannot be overtaken there in the time left, at the playout rate so far.
    pub early_stop: bool,
    /// A learned move model for the children's priors ([`PRIOR_MODEL`]), if any.
    pub model: Option<Arc<MoveModel>>,
    /// The weight of the model's prior (see [`PRIOR_MODEL`]).
    pub model_weight: f64,
    /// With a model: the playouts answer the last stone with the model's 3x3 gammas
    /// ([`PlayoutBoard::policy_move_weighted`]), a move elsewhere weighing this much per empty
    /// point; `None`: with MoGo's shapes.
    pub playout_remote: Option<f32>,
    /// Last good reply with forgetting (Drake; Baier and Drake 2010) in the playouts: after each
    /// playout, every stone of the winner that answered an opponent's stone is remembered as the
    /// reply to that stone, and a loser's remembered reply that was played is forgotten; a
    /// playout tries the remembered reply to the last stone after the capture and save replies.
    pub last_good_reply: bool,
    /// The playouts fight two-liberty chains around the last stone
    /// ([`PlayoutBoard::two_liberty_reply`]) after the capture and save replies.
    pub two_liberties: bool,
    /// The selection rule ([`TreePolicy`]).
    pub tree_policy: TreePolicy,
    /// The playouts draw their 3x3 shapes around the side to move's own previous stone too, not
    /// only around the opponent's last ([`PolicyOptions::second_last`]).
    pub second_last_shapes: bool,
    /// The playouts play the vital point of a small eye space next to the opponent's last stone
    /// ([`PlayoutBoard::nakade_reply`]).
    pub nakade: bool,
    /// The playouts fight kos: for [`KO_FIGHT_MOVES`] moves after a ko capture, once the ban is
    /// lifted, the side to move retakes (or fills) the ko in [`KO_FIGHT_PERCENT`] of its turns
    /// (Pachi's ko check), instead of leaving the ko to the random choice.
    pub ko_fights: bool,
    /// The percentage (0 to 100) of the playout moves that try the local answers after the
    /// capture and save replies (ko fights, two-liberty fights, last good reply, nakade, the 3x3
    /// shapes); the others go from those replies straight to the random choice
    /// ([`PolicyOptions::skip_local`]). 100: every move tries them.
    pub local_rate: u32,
    /// The share (0 to 1) of a playout's result that is its margin rather than its win or loss:
    /// Black's result is `(1 - w) win + w (1 + tanh(score / s)) / 2`, `w` this weight, `s`
    /// [`SearchConfig::score_scale`] and `score` Black's area lead less komi, so that a search
    /// whose playouts nearly all win still prefers the move that keeps more of its lead (and one
    /// that nearly all lose the move that loses by less). 0: the win or loss alone.
    pub score_weight: f32,
    /// The percentage (0 to 100) of the playout moves that reach the random choice which first
    /// capture an opponent chain in atari anywhere on the board
    /// ([`PolicyOptions::global_capture`]). 0: none.
    pub global_capture: u32,
    /// The playouts' random choice may play a big self-atari that kills from inside (a nakade
    /// with stones: [`PolicyOptions::sacrifices`]), which it otherwise never plays.
    pub sacrifices: bool,
    /// The margin in points at which [`SearchConfig::score_weight`]'s term is three quarters
    /// of the way from even to its bound (tanh(1) = 0.76).
    pub score_scale: f32,
    /// Black's lead (area less komi) at which [`SearchConfig::score_weight`]'s term is one
    /// half: `score` there is the lead less this centre. 0 counts margins from an even game;
    /// the expected outcome (the previous search's [`SearchResult::mean_score`], as KataGo
    /// centres its dynamic score utility) keeps the term telling moves apart when the game is
    /// far from even, where the tanh of the whole lead is flat.
    pub score_centre: f32,
    /// The hand-set priors ([`PRIOR_CAPTURE_ONE`] and after) besides [`PRIOR_EVEN`] and the
    /// model's below the root; without them (false) and with a model a child starts from the
    /// even prior and the model's alone, as Pachi's children start from its pattern prior. The
    /// children of a new tree's root always get them (the configuration measured in BENCHMARKS,
    /// session 25; a root kept from the previous move's tree keeps its children as they were),
    /// and without a model every child does.
    pub hand_priors: bool,
}

/// Statistics of one root move, summed over the threads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStats {
    pub mv: Move,
    pub visits: u64,
    /// Wins of the side to move (draws count half), with the margin term of
    /// [`SearchConfig::score_weight`] when it has one.
    pub wins: f64,
    /// The side to move's win rate by the games' results alone (no margin term) over this
    /// search's playouts through the move (a reused tree's older ones not counted); `None`
    /// when none went through it.
    pub outright: Option<f64>,
}

impl MoveStats {
    /// Win rate for the side to move (0.5 when never visited).
    #[must_use]
    pub fn win_rate(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / self.visits as f64
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The most visited root move.
    pub best: Move,
    /// Playouts run, over all threads.
    pub playouts: u64,
    /// Every root move with its statistics, in point order, pass last.
    pub moves: Vec<MoveStats>,
    /// Black's mean area lead less komi at the end of this search's playouts (`None` without
    /// playouts).
    pub mean_score: Option<f64>,
}

impl SearchResult {
    /// Statistics of the best move.
    #[must_use]
    pub fn best_stats(&self) -> MoveStats {
        *self
            .moves
            .iter()
            .find(|m| m.mv == self.best)
            .expect("the best move is a root move")
    }
}

/// A tree node: the move that led here, played by `color`, and its statistics from `color`'s side
/// (prior virtual playouts included).
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Point index of the move, or [`PASS`].
    mv: u16,
    color: Color,
    expanded: bool,
    /// A thread is computing this node's children outside the shared tree's lock
    /// ([`SearchConfig::shared_tree`]); the others treat it as a leaf meanwhile.
    expanding: bool,
    n_children: u16,
    /// Prior virtual visits and wins (see [`PRIOR_EVEN`]).
    prior_visits: u16,
    prior_wins: u16,
    first_child: u32,
    visits: u32,
    wins: f32,
    amaf_visits: u32,
    amaf_wins: f32,
}

const PASS: u16 = u16::MAX;

fn encode(mv: Move) -> u16 {
    match mv {
        Move::Pass => PASS,
        Move::Play(p) => p.index() as u16,
    }
}

fn decode(mv: u16) -> Move {
    if mv == PASS {
        Move::Pass
    } else {
        Move::Play(Point::from_index(mv as usize).expect("a stored point"))
    }
}

/// The playout board of a position: the stones placed one by one (a pass in between when the
/// colour to place is not to move, since a stone of a legal position never captures while the
/// position is being built), then the side to move set by a pass when needed. The ko ban is not
/// carried over: the root moves come from [`Board::legal_moves`], which honours it.
#[must_use]
pub fn playout_board(board: &Board) -> PlayoutBoard {
    let mut pb = PlayoutBoard::new(*board.geometry());
    for color in Color::ALL {
        for p in board.stones(color).iter() {
            if pb.to_move() != color {
                pb.play(Move::Pass);
            }
            pb.play(Move::Play(p));
        }
    }
    if pb.to_move() != board.to_move() {
        pb.play(Move::Pass);
    }
    pb
}

/// Searches the position of `board` (whose history ended with `passes` consecutive passes) for
/// the side to move.
///
/// # Panics
/// If neither a playout count nor a deadline is given.
#[must_use]
pub fn search(board: &Board, passes: u32, config: &SearchConfig) -> SearchResult {
    search_reusing(board, passes, config, None).0
}

/// The default scale of [`SearchConfig::score_scale`] on a board of `area` points: its square
/// root (9 points on 9x9, 19 on 19x19).
#[must_use]
pub fn default_score_scale(area: usize) -> f32 {
    (area as f32).sqrt()
}

/// Black's playout result from its win (1), tie (0.5) or loss (0) and its area lead `score` (komi
/// subtracted): `(1 - weight) win + weight (1 + tanh(score / scale)) / 2`
/// ([`SearchConfig::score_weight`]). Always in 0..=1, above one half exactly when Black wins.
#[must_use]
pub fn blend_margin(win: f32, score: f32, weight: f32, scale: f32) -> f32 {
    if weight <= 0.0 {
        return win;
    }
    (1.0 - weight) * win + weight * 0.5 * (1.0 + (score / scale).tanh())
}

/// The side to move's win rate at `board` (after `passes` passes in a row) over `playouts` of the
/// search's playouts under `config` (its komi, seed and playout settings; nothing of the tree):
/// the value a leaf of the search starts from. `stonelab go playout-error` measures it against a
/// judge's values.
#[must_use]
pub fn playout_value(board: &Board, passes: u32, config: &SearchConfig, playouts: u64) -> f64 {
    let root = playout_board(board);
    let mut tree = Tree::new(
        root.clone(),
        passes,
        last_stones(board),
        config.komi,
        config.seed,
        None,
    );
    tree.configure_playouts(config);
    let mut scratch = root;
    let mut black = 0.0;
    for _ in 0..playouts {
        scratch.copy_from(&tree.root);
        tree.seq.clear();
        black += f64::from(tree.play_out(&mut scratch, passes).0);
    }
    let black = black / playouts.max(1) as f64;
    if board.to_move() == Color::Black {
        black
    } else {
        1.0 - black
    }
}

/// The trees of a finished search, kept to start the next search of the same game from
/// ([`search_reusing`]).
pub struct Reuse {
    board: Board,
    komi: f64,
    /// Each tree's nodes (one tree when it was shared by the threads).
    trees: Vec<Vec<Node>>,
}

impl Reuse {
    /// Nodes held, over all threads' trees.
    #[must_use]
    pub fn nodes(&self) -> usize {
        self.trees.iter().map(Vec::len).sum()
    }
}

/// [`search`], starting each thread's tree from the subtree that the previous search of the same
/// game (`previous`) grew below the moves played since (tree reuse): when `board` is the
/// previous root after one to four more moves with the same komi and thread count, and each
/// thread's tree had expanded the nodes down that line, the subtree's statistics are kept and
/// the new playouts are added to them (the reported playouts count only the new ones; the
/// visits of the root moves include the old). Otherwise, or for a thread whose tree did not reach
/// that deep, a fresh tree. Returns the result and the trees for the next search.
///
/// # Panics
/// If neither a playout count nor a deadline is given.
#[must_use]
pub fn search_reusing(
    board: &Board,
    passes: u32,
    config: &SearchConfig,
    previous: Option<Reuse>,
) -> (SearchResult, Reuse) {
    assert!(
        config.playouts.is_some() || config.deadline.is_some(),
        "a search needs a playout count or a deadline"
    );
    let root = playout_board(board);
    let to_move = board.to_move();
    // The last move, when it was a stone still on the board (the priors and the playouts answer it).
    let (last, last2) = last_stones(board);
    let mut root_moves: Vec<Move> = board
        .legal_moves()
        .iter()
        .filter(|&p| !root.is_eye_to_keep(p, to_move))
        .map(Move::Play)
        .collect();
    root_moves.push(Move::Pass);
    let threads = config.threads.max(1);
    // One tree for all threads, or one each.
    let trees = if config.shared_tree { 1 } else { threads };
    let mut kept: Vec<Option<Vec<Node>>> = (0..trees).map(|_| None).collect();
    if let Some(prev) = previous {
        if let Some(line) = line_between(&prev, board, config, trees) {
            let wanted: Vec<u16> = root_moves.iter().map(|&m| encode(m)).collect();
            for (slot, nodes) in kept.iter_mut().zip(&prev.trees) {
                *slot = subtree(nodes, &line, &wanted);
            }
        }
    }
    let arenas: Vec<Mutex<Vec<Node>>> = kept
        .into_iter()
        .map(|old| Mutex::new(old.unwrap_or_default()))
        .collect();
    // The model's `owner` feature reads the root's ownership (one estimate for the whole tree,
    // as Pachi's pattern prior reads its root ownermap).
    let owner = config.model.as_ref().filter(|m| m.uses_owner()).map(|_| {
        Arc::new(movemodel::OwnerMap::estimate(
            board,
            movemodel::OWNER_PLAYOUTS,
        ))
    });
    let stop = AtomicBool::new(false);
    let (playouts, score_sum, outright) = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                let root = root.clone();
                let owner = owner.clone();
                let root_moves = &root_moves;
                let arena = &arenas[i % trees];
                let quota = config
                    .playouts
                    .map(|n| n / threads as u64 + u64::from((i as u64) < n % threads as u64));
                let seed = config.seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let stop = &stop;
                // Thread 0 watches its tree, which the other threads grow too when it is shared.
                let watch = if config.early_stop && i == 0 && quota.is_none() {
                    threads / trees
                } else {
                    0
                };
                scope.spawn(move || {
                    let mut tree = Tree::new(
                        root,
                        passes,
                        (last, last2),
                        config.komi,
                        seed,
                        config.model.clone().map(|model| TreeModel {
                            model,
                            weight: config.model_weight,
                            owner: owner.clone(),
                            hand_priors: config.hand_priors,
                        }),
                    );
                    {
                        let mut nodes = lock(arena);
                        if nodes.is_empty() {
                            *nodes = tree.root_nodes(root_moves);
                        }
                    }
                    tree.configure_playouts(config);
                    tree.max_nodes = MAX_NODES * (threads / trees);
                    tree.policy = config.tree_policy;

                    tree.run(arena, quota, config.deadline, stop, watch);
                    (tree.playouts, tree.score_sum, tree.outright)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("search thread panicked"))
            .fold(
                (0u64, 0f64, vec![(0u64, 0f64); root_moves.len()]),
                |(n, s, mut o), (m, t, u)| {
                    for (a, b) in o.iter_mut().zip(u) {
                        a.0 += b.0;
                        a.1 += b.1;
                    }
                    (n + m, s + t, o)
                },
            )
    });
    let results: Vec<Vec<Node>> = arenas
        .into_iter()
        .map(|a| a.into_inner().unwrap_or_else(PoisonError::into_inner))
        .collect();
    let mut moves: Vec<MoveStats> = root_moves
        .iter()
        .map(|&mv| MoveStats {
            mv,
            visits: 0,
            wins: 0.0,
            outright: None,
        })
        .collect();
    for (stats, &(n, black)) in moves.iter_mut().zip(&outright) {
        if n > 0 {
            let rate = black / n as f64;
            stats.outright = Some(if to_move == Color::Black {
                rate
            } else {
                1.0 - rate
            });
        }
    }
    for nodes in &results {
        let root = nodes[0];
        for (k, stats) in moves.iter_mut().enumerate() {
            let child = nodes[root.first_child as usize + k];
            stats.visits += u64::from(child.visits - u32::from(child.prior_visits));
            stats.wins += f64::from(child.wins) - f64::from(child.prior_wins);
        }
    }
    let mut best = 0;
    for (k, m) in moves.iter().enumerate() {
        if m.visits > moves[best].visits {
            best = k;
        }
    }
    let result = SearchResult {
        best: moves[best].mv,
        playouts,
        moves,
        mean_score: (playouts > 0).then(|| score_sum / playouts as f64),
    };
    let reuse = Reuse {
        board: board.clone(),
        komi: config.komi,
        trees: results,
    };
    (result, reuse)
}

/// The moves (encoded) that lead from the previous search's root to `board`, when `board` is that
/// root after one to four more moves of the same game with the same komi and as many trees.
fn line_between(
    prev: &Reuse,
    board: &Board,
    config: &SearchConfig,
    trees: usize,
) -> Option<Vec<u16>> {
    if prev.komi.to_bits() != config.komi.to_bits()
        || prev.trees.len() != trees
        || prev.board.geometry() != board.geometry()
    {
        return None;
    }
    let (old, new) = (prev.board.history_len(), board.history_len());
    if new <= old || new > old + 4 {
        return None;
    }
    // The same moves before, and the previous root replayed with the new moves is this board.
    let moves: Vec<Move> = board.moves().collect();
    if !prev.board.moves().eq(moves[..old].iter().copied()) {
        return None;
    }
    let mut replay = prev.board.clone();
    for &mv in &moves[old..] {
        replay.try_play(mv).ok()?;
    }
    let same = Color::ALL
        .iter()
        .all(|&c| replay.stones(c) == board.stones(c))
        && replay.to_move() == board.to_move()
        && replay.hash() == board.hash();
    same.then(|| moves[old..].iter().map(|&m| encode(m)).collect())
}

/// The last two moves of `board`'s history when they were stones still on the board: the
/// opponent's last and the side to move's before it.
#[must_use]
pub fn last_stones(board: &Board) -> (Option<Point>, Option<Point>) {
    let to_move = board.to_move();
    let moves: Vec<Move> = board.moves().collect();
    let stone = |i: usize, c: Color| match moves.len().checked_sub(i).map(|k| moves[k]) {
        Some(Move::Play(p)) if board.color_at(p) == Some(c) => Some(p),
        _ => None,
    };
    (stone(1, to_move.opponent()), stone(2, to_move))
}

/// The nodes of the subtree below the moves `line` from the root, copied into a fresh arena
/// with that node as the root, when every node down the line is expanded and the new root's
/// children are exactly the moves `wanted` (encoded, in order); else `None`.
fn subtree(nodes: &[Node], line: &[u16], wanted: &[u16]) -> Option<Vec<Node>> {
    let mut at = 0usize;
    for &mv in line {
        let n = nodes[at];
        if !n.expanded {
            return None;
        }
        let first = n.first_child as usize;
        at = (first..first + n.n_children as usize).find(|&c| nodes[c].mv == mv)?;
    }
    let root = nodes[at];
    if !root.expanded || usize::from(root.n_children) != wanted.len() {
        return None;
    }
    let first = root.first_child as usize;
    if !(0..wanted.len()).all(|k| nodes[first + k].mv == wanted[k]) {
        return None;
    }
    // Breadth first: each copied node's children are copied as one block after it.
    let mut copy = Vec::with_capacity(1024);
    copy.push(root);
    let mut next = 0;
    while next < copy.len() {
        let n: Node = copy[next];
        if n.expanded {
            let from = n.first_child as usize;
            copy[next].first_child = copy.len() as u32;
            copy.extend_from_slice(&nodes[from..from + n.n_children as usize]);
        }
        next += 1;
    }
    Some(copy)
}

/// Real visits of the most visited root move less those of the second.
fn root_lead(nodes: &[Node]) -> u32 {
    let root = nodes[0];
    let (mut best, mut second) = (0, 0);
    for c in &nodes[root.first_child as usize..][..root.n_children as usize] {
        let v = c.visits - u32::from(c.prior_visits);
        if v > best {
            second = best;
            best = v;
        } else if v > second {
            second = v;
        }
    }
    best - second
}

/// The child of `node` with the highest selection value under `policy`.
fn select(nodes: &[Node], policy: TreePolicy, node: usize) -> usize {
    let n = nodes[node];
    let log_n = f64::from(n.visits.max(1)).ln();
    // (Without an exploration term its square root is not worth computing: adding 0 changes
    // no value.)
    let explore = policy.exploration != 0.0;
    let first = n.first_child as usize;
    let mut best = first;
    let mut best_value = f64::NEG_INFINITY;
    for c in first..first + n.n_children as usize {
        let child = &nodes[c];
        let visits = f64::from(child.visits);
        let q = if child.visits == 0 {
            0.5
        } else {
            f64::from(child.wins) / visits
        };
        let value = if child.mv == PASS || child.amaf_visits == 0 {
            q
        } else {
            let q_amaf = f64::from(child.amaf_wins) / f64::from(child.amaf_visits);
            let beta = policy.beta(visits, f64::from(child.amaf_visits));
            (1.0 - beta) * q + beta * q_amaf
        } + if explore {
            policy.exploration * (log_n / (visits + 1.0)).sqrt()
        } else {
            0.0
        };
        if value > best_value {
            best_value = value;
            best = c;
        }
    }
    best
}

/// A tree's nodes behind a lock: each thread's own, or one shared by all
/// ([`SearchConfig::shared_tree`]).
type Arena = Mutex<Vec<Node>>;

fn lock(arena: &Arena) -> MutexGuard<'_, Vec<Node>> {
    for _ in 0..4000 {
        match arena.try_lock() {
            Ok(guard) => return guard,
            Err(std::sync::TryLockError::Poisoned(e)) => return e.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => std::hint::spin_loop(),
        }
    }
    arena.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One thread's search over a tree whose nodes it is given ([`Arena`]): its playout state,
/// randomness and scratch space.
struct Tree {
    root: PlayoutBoard,
    root_passes: u32,
    /// The last two stones played before the root position (see [`last_stones`]).
    root_last: Option<Point>,
    root_last2: Option<Point>,
    /// The learned model and its prior's weight.
    model: Option<TreeModel>,
    /// The playouts' weighted replies, if any ([`SearchConfig::playout_remote`]).
    weights: Option<PlayoutWeights>,
    /// Last good reply with forgetting ([`SearchConfig::last_good_reply`]): per colour and
    /// point of the opponent's last stone, the reply that last won, or [`PASS`] for none.
    lgr: Option<Vec<u16>>,
    /// [`SearchConfig::two_liberties`].
    two_liberties: bool,
    /// [`SearchConfig::second_last_shapes`].
    second_last_shapes: bool,
    /// [`SearchConfig::nakade`].
    nakade: bool,
    /// [`SearchConfig::ko_fights`].
    ko_fights: bool,
    /// 100 less [`SearchConfig::local_rate`].
    skip_local: u32,
    /// [`SearchConfig::global_capture`].
    global_capture: u32,
    /// [`SearchConfig::sacrifices`].
    sacrifices: bool,
    /// [`SearchConfig::score_weight`], [`SearchConfig::score_scale`] and
    /// [`SearchConfig::score_centre`].
    score_weight: f32,
    score_scale: f32,
    score_centre: f32,
    /// The sum of Black's area leads less komi at the end of this tree's playouts.
    score_sum: f64,
    /// Per root move (in the root's child order): this thread's playouts through it and the sum
    /// of Black's results by the game's result alone (1 a win, 0.5 a tie; no margin term).
    outright: Vec<(u64, f64)>,
    /// The most nodes of the tree: [`MAX_NODES`] for each thread that grows it.
    max_nodes: usize,
    /// [`SearchConfig::tree_policy`].
    policy: TreePolicy,
    komi: f64,
    rng: Rng,
    playouts: u64,
    /// Moves after the root of the current iteration (point index or [`PASS`], colour).
    seq: Vec<(u16, Color)>,
    path: Vec<u32>,
    /// Per point: who played it first from the current depth on (AMAF), 0 none, 1 black, 2 white.
    first: Vec<u8>,
    /// Per point: the move number (in `seq`) where `first` was recorded.
    first_at: Vec<u16>,
    cap: usize,
}

/// A tree's move model and how its prior is given.
struct TreeModel {
    model: Arc<MoveModel>,
    /// [`SearchConfig::model_weight`].
    weight: f64,
    /// The root's ownership buckets for the model's `owner` feature, when it has one.
    owner: Option<Arc<movemodel::OwnerMap>>,
    /// [`SearchConfig::hand_priors`].
    hand_priors: bool,
}

impl Tree {
    fn new(
        root: PlayoutBoard,
        passes: u32,
        (last, last2): (Option<Point>, Option<Point>),
        komi: f64,
        seed: u64,
        model: Option<TreeModel>,
    ) -> Tree {
        let cap = crate::playout::move_cap(root.geometry().area());
        Tree {
            root,
            root_passes: passes,
            root_last: last,
            root_last2: last2,
            model,
            weights: None,
            lgr: None,
            two_liberties: false,
            second_last_shapes: false,
            nakade: false,
            ko_fights: false,
            skip_local: 0,
            global_capture: 0,
            sacrifices: false,
            score_weight: 0.0,
            score_scale: 1.0,
            score_centre: 0.0,
            score_sum: 0.0,
            outright: Vec::new(),
            max_nodes: MAX_NODES,
            policy: TreePolicy::default(),
            komi,
            rng: Rng::new(seed),
            playouts: 0,
            seq: Vec::with_capacity(cap + 8),
            path: Vec::with_capacity(64),
            first: vec![0; BITS],
            first_at: vec![0; BITS],
            cap,
        }
    }

    /// A new tree: the root, and its children `moves` (the root moves, pass last).
    fn root_nodes(&self, moves: &[Move]) -> Vec<Node> {
        let mut root = Node::new(PASS, self.root.to_move().opponent());
        root.expanded = true;
        root.first_child = 1;
        root.n_children = moves.len() as u16;
        let points: Vec<Point> = moves
            .iter()
            .filter_map(|&mv| match mv {
                Move::Play(p) => Some(p),
                Move::Pass => None,
            })
            .collect();
        let mut nodes = vec![root];
        let last = (self.root_last, self.root_last2);
        nodes.extend(self.children(&self.root, &points, last, true));
        nodes
    }

    /// The children of the moves `points` and a pass, with their priors: the hand-set ones
    /// when `root` (a new tree's root) or the model's [`TreeModel::hand_priors`] asks for them.
    fn children(
        &self,
        board: &PlayoutBoard,
        points: &[Point],
        (last, last2): (Option<Point>, Option<Point>),
        root: bool,
    ) -> Vec<Node> {
        let to_move = board.to_move();
        let mut nodes = Vec::with_capacity(points.len() + 1);
        // Each move's tactical features (ladder reads among them) are read once, for both priors.
        let tactics: Vec<MoveFeatures> = points.iter().map(|&p| board.move_features(p)).collect();
        for (&p, f) in points.iter().zip(&tactics) {
            nodes.push(Node::with_prior(
                p,
                to_move,
                board,
                f,
                last,
                root || self.model.as_ref().is_none_or(|m| m.hand_priors),
            ));
        }
        if let Some(TreeModel {
            model,
            weight,
            owner,
            ..
        }) = &self.model
        {
            let strengths: Vec<f64> = points
                .iter()
                .zip(&tactics)
                .map(|(&p, f)| {
                    let owner = owner.as_deref();
                    model.strength(&movemodel::features_from(board, p, f, last, last2, owner))
                })
                .collect();
            let total: f64 = strengths.iter().sum();
            if total > 0.0 {
                for (node, s) in nodes.iter_mut().zip(strengths) {
                    node.add_prior((weight * (s / total).sqrt()).round() as u16);
                }
            }
        }
        if !self.policy.amaf_prior {
            for node in &mut nodes {
                node.amaf_visits = 0;
                node.amaf_wins = 0.0;
            }
        }
        nodes.push(Node::pass(to_move));
        nodes
    }

    /// Runs playouts until the quota, the deadline or `stop`; when `watch` (the number of threads
    /// growing this tree, 0 for none), sets `stop` once the most visited root move cannot be
    /// overtaken in the time left by that many threads at this thread's playout rate (see
    /// [`SearchConfig::early_stop`]).
    fn run(
        &mut self,
        arena: &Arena,
        quota: Option<u64>,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        watch: usize,
    ) {
        let mut board = self.root.clone();
        let start = Instant::now();
        loop {
            if quota.is_some_and(|q| self.playouts >= q) {
                break;
            }
            if self.playouts.is_multiple_of(16) {
                if let Some(d) = deadline {
                    let now = Instant::now();
                    if now >= d || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if watch > 0 && self.playouts.is_multiple_of(1024) && self.playouts > 0 {
                        let left = d.duration_since(now).as_secs_f64();
                        let done = now.duration_since(start).as_secs_f64().max(1e-9);
                        let to_come = (watch as u64 * self.playouts) as f64 * left / done;
                        if root_lead(&lock(arena)) as f64 > to_come {
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                }
            }
            board.copy_from(&self.root);
            self.iterate(arena, &mut board);
            self.playouts += 1;
        }
    }

    /// The last stone played in the current iteration (the root's last before any move).
    fn last_stone(&self) -> Option<Point> {
        match self.seq.last() {
            Some(&(mv, _)) if mv != PASS => Point::from_index(mv as usize),
            Some(_) => None,
            None => self.root_last,
        }
    }

    /// The stone played before the last one in the current iteration, if that move was one.
    /// (The tree's moves cannot have been captured yet when it expands: a capture of the
    /// second-last stone by the last one is rare enough not to matter to a prior.)
    fn last_stone2(&self) -> Option<Point> {
        match self.seq.len() {
            0 => self.root_last2,
            1 => self.root_last,
            n => match self.seq[n - 2].0 {
                PASS => None,
                mv => Point::from_index(mv as usize),
            },
        }
    }

    /// One playout: the descent (under the arena's lock, which a node's expansion lets go
    /// while it computes the children), the playout, and the backup (under the lock again).
    /// Each node of the path gets its visit on the way down and its win on the way back, so
    /// that other threads on a shared tree see a virtual loss meanwhile; alone on its tree the
    /// statistics are what they would be with both added at the end.
    fn iterate(&mut self, arena: &Arena, board: &mut PlayoutBoard) {
        self.seq.clear();
        self.path.clear();
        self.path.push(0);
        let mut node = 0usize;
        let mut passes = self.root_passes;
        // Descent.
        let mut nodes = lock(arena);
        loop {
            let n = nodes[node];
            if !n.expanded {
                if n.expanding || n.visits - u32::from(n.prior_visits) < EXPAND_AFTER {
                    break;
                }
                let area = board.geometry().area();
                if nodes.len() + area + 1 > self.max_nodes {
                    break;
                }
                nodes[node].expanding = true;
                drop(nodes);
                let children = self.expansion(board);
                nodes = lock(arena);
                let first = nodes.len();
                nodes.extend_from_slice(&children);
                let n = &mut nodes[node];
                n.expanding = false;
                n.expanded = true;
                n.first_child = first as u32;
                n.n_children = children.len() as u16;
            }
            let child = select(&nodes, self.policy, node);
            nodes[node].visits += 1;
            let mv = nodes[child].mv;
            board.play(decode(mv));
            passes = if mv == PASS { passes + 1 } else { 0 };
            self.seq.push((mv, board.to_move().opponent()));
            self.path.push(child as u32);
            node = child;
        }
        nodes[node].visits += 1;
        drop(nodes);
        let (black, outright) = self.play_out(board, passes);
        let mut nodes = lock(arena);
        // The result alone, for the root move this playout went through.
        if let Some(&child) = self.path.get(1) {
            let k = (child - nodes[0].first_child) as usize;
            if self.outright.len() <= k {
                self.outright.resize(k + 1, (0, 0.0));
            }
            self.outright[k].0 += 1;
            self.outright[k].1 += f64::from(outright);
        }
        self.backup(&mut nodes, black);
    }

    /// The playout settings of `config` (everything but the tree's).
    fn configure_playouts(&mut self, config: &SearchConfig) {
        if let (Some(model), Some(remote)) = (&config.model, config.playout_remote) {
            self.weights = Some(model.playout_weights(remote));
        }
        if config.last_good_reply {
            self.lgr = Some(vec![PASS; 2 * BITS]);
        }
        self.two_liberties = config.two_liberties;
        self.second_last_shapes = config.second_last_shapes;
        self.nakade = config.nakade;
        self.ko_fights = config.ko_fights;
        self.skip_local = 100 - config.local_rate.min(100);
        self.global_capture = config.global_capture.min(100);
        self.sacrifices = config.sacrifices;
        self.score_weight = config.score_weight.clamp(0.0, 1.0);
        self.score_scale = config.score_scale.max(f32::MIN_POSITIVE);
        self.score_centre = if config.score_centre.is_finite() {
            config.score_centre
        } else {
            0.0
        };
    }

    /// The playout from `board`, reached by the moves in `seq` after `passes` passes in a row,
    /// to the end of the game (after two passes in the tree it plays on: see the module docs);
    /// Black's result (1 a win, 0.5 a tie, 0 a loss). Updates the last good replies.
    fn play_out(&mut self, board: &mut PlayoutBoard, mut passes: u32) -> (f32, f32) {
        if passes >= 2 {
            passes = 0;
        }
        // The last ko seen in the playout: its point and the move number of the capture.
        let mut ko_seen = board.ko().map(|k| (k, self.seq.len()));
        while passes < 2 && self.seq.len() < self.cap {
            let color = board.to_move();
            let last = self.last_stone();
            let suggested = self.lgr.as_ref().and_then(|lgr| {
                let l = last?;
                let r = lgr[color.index() * BITS + l.index()];
                match (r != PASS).then(|| decode(r))? {
                    Move::Play(p) => Some(p),
                    Move::Pass => None,
                }
            });
            let options = PolicyOptions {
                suggested: suggested.filter(|_| self.weights.is_none()),
                weights: self.weights.as_ref(),
                two_liberties: self.two_liberties,
                second_last: if self.second_last_shapes {
                    self.last_stone2()
                } else {
                    None
                },
                nakade: self.nakade,
                ko_retake: match ko_seen {
                    Some((k, at))
                        if self.ko_fights
                            && board.ko().is_none()
                            && self.seq.len() - at < KO_FIGHT_MOVES
                            && self.rng.below(100) < KO_FIGHT_PERCENT =>
                    {
                        Some(k)
                    }
                    _ => None,
                },
                skip_local: self.skip_local,
                global_capture: self.global_capture,
                sacrifices: self.sacrifices,
            };
            let mv = board.policy_move_with(&mut self.rng, last, &options);
            board.play(mv);
            if self.ko_fights {
                if let Some(k) = board.ko() {
                    ko_seen = Some((k, self.seq.len() + 1));
                }
            }
            let mv = encode(mv);
            passes = if mv == PASS { passes + 1 } else { 0 };
            self.seq.push((mv, color));
        }
        let score = board.area_score(self.komi);
        self.score_sum += score;
        let black = if score > 0.0 {
            1.0
        } else if score < 0.0 {
            0.0
        } else {
            0.5
        };
        if score != 0.0 {
            self.remember_replies(score > 0.0);
        }
        let blended = blend_margin(
            black,
            score as f32 - self.score_centre,
            self.score_weight,
            self.score_scale,
        );
        (blended, black)
    }

    /// Last good reply's update after a playout that `black_won` or not (see
    /// [`SearchConfig::last_good_reply`]), over the moves of the iteration (tree and playout).
    fn remember_replies(&mut self, black_won: bool) {
        let Some(lgr) = self.lgr.as_mut() else {
            return;
        };
        let mut prev = match self.root_last {
            Some(p) => p.index() as u16,
            None => PASS,
        };
        for &(mv, color) in &self.seq {
            if prev != PASS && mv != PASS {
                let slot = &mut lgr[color.index() * BITS + usize::from(prev)];
                if (color == Color::Black) == black_won {
                    *slot = mv;
                } else if *slot == mv {
                    *slot = PASS;
                }
            }
            prev = mv;
        }
    }

    /// The children of a leaf at `board`: its legal moves that fill no own eye (but an eye next to
    /// an own chain in atari: [`PlayoutBoard::is_eye_to_keep`]), and a pass.
    fn expansion(&self, board: &PlayoutBoard) -> Vec<Node> {
        let to_move = board.to_move();
        let last = (self.last_stone(), self.last_stone2());
        let points: Vec<Point> = board
            .geometry()
            .points()
            .filter(|&p| board.is_legal(p) && !board.is_eye_to_keep(p, to_move))
            .collect();
        self.children(board, &points, last, false)
    }

    /// Updates the path's statistics and the AMAF statistics of the path nodes' children.
    fn backup(&mut self, nodes: &mut [Node], black: f32) {
        let policy = self.policy;
        let reward = |c: Color| {
            if c == Color::Black {
                black
            } else {
                1.0 - black
            }
        };
        // (The visits were counted on the way down.)
        for &i in &self.path {
            let n = &mut nodes[i as usize];
            n.wins += reward(n.color);
        }
        // Walk the moves backwards: after move `d` is recorded, `first` says who played each point
        // first from depth `d` on, which is what the children of path node `d` need.
        self.first.fill(0);
        let depth = self.path.len() - 1;
        for d in (0..self.seq.len()).rev() {
            let (mv, color) = self.seq[d];
            if mv != PASS {
                self.first[mv as usize] = color.index() as u8 + 1;
                self.first_at[mv as usize] = d as u16;
            }
            if d <= depth {
                // Node `path[d]` (its children's move is seq[d]).
                let node = nodes[self.path[d] as usize];
                if !node.expanded {
                    continue;
                }
                let first = node.first_child as usize;
                let weight = policy.amaf_weights(d, self.seq.len());
                for c in first..first + node.n_children as usize {
                    let child = &mut nodes[c];
                    if child.mv != PASS
                        && self.first[child.mv as usize] == child.color.index() as u8 + 1
                    {
                        let at = self.first_at[child.mv as usize] as usize;
                        let w = weight(at);
                        child.amaf_visits += w;
                        child.amaf_wins += reward(child.color) * w as f32;
                    }
                }
            }
        }
    }
}

impl Node {
    /// A child for `color` playing `p` on `board` (where `color` is to move and `last` is the
    /// last stone played, if the last move was one), with its prior (see [`PRIOR_EVEN`]).
    /// `f` is `board.move_features(p)`.
    fn with_prior(
        p: Point,
        color: Color,
        board: &PlayoutBoard,
        f: &MoveFeatures,
        last: Option<Point>,
        hand: bool,
    ) -> Node {
        let mut node = Node::new(p.index() as u16, color);
        let mut add = |(v, w): (u16, u16)| {
            node.prior_visits += v;
            node.prior_wins += w;
        };
        add(PRIOR_EVEN);
        if hand {
            add(Node::hand_prior(p, board, f, last));
        }
        let (v, w) = (u32::from(node.prior_visits), f32::from(node.prior_wins));
        node.visits = v;
        node.wins = w;
        node.amaf_visits = v;
        node.amaf_wins = w;
        node
    }

    /// The hand-set priors of the move `p` ([`PRIOR_CAPTURE_ONE`] and after), summed as
    /// (visits, wins).
    fn hand_prior(
        p: Point,
        board: &PlayoutBoard,
        f: &MoveFeatures,
        last: Option<Point>,
    ) -> (u16, u16) {
        let mut sum = (0u16, 0u16);
        let mut add = |(v, w): (u16, u16)| {
            sum.0 += v;
            sum.1 += w;
        };
        if f.captures > 1 {
            add(PRIOR_CAPTURE_MANY);
        } else if f.captures == 1 || f.saves {
            add(PRIOR_CAPTURE_ONE);
        }
        if f.self_atari || f.ladder_escape {
            add(PRIOR_SELF_ATARI);
        }
        if f.ladder_captures > 1 {
            add(PRIOR_CAPTURE_MANY);
        } else if f.ladder_captures == 1 {
            add(PRIOR_CAPTURE_ONE);
        }
        if f.pattern {
            add(PRIOR_PATTERN);
        }
        if let Some(l) = last {
            let d = p.row().abs_diff(l.row()) + p.col().abs_diff(l.col());
            if (1..=3).contains(&d) {
                add(PRIOR_NEAR_LAST[d - 1]);
            }
        }
        let line = board.geometry().edge_distance(p);
        if line <= 2 && board.empty_area(p, 3) {
            add(if line < 2 {
                PRIOR_EMPTY_AREA
            } else {
                PRIOR_THIRD_LINE
            });
        }
        sum
    }

    /// Adds `wins` virtual wins (as many visits) to the prior, own and AMAF statistics.
    fn add_prior(&mut self, wins: u16) {
        self.prior_visits = self.prior_visits.saturating_add(wins);
        self.prior_wins = self.prior_wins.saturating_add(wins);
        self.visits += u32::from(wins);
        self.wins += f32::from(wins);
        self.amaf_visits += u32::from(wins);
        self.amaf_wins += f32::from(wins);
    }

    /// A pass child for `color`, with the even prior only (without one it would be the first
    /// choice of every new node: an unvisited child gets the full exploration bonus).
    fn pass(color: Color) -> Node {
        let mut node = Node::new(PASS, color);
        let (v, w) = PRIOR_EVEN;
        node.prior_visits = v;
        node.prior_wins = w;
        node.visits = u32::from(v);
        node.wins = f32::from(w);
        node
    }

    const fn new(mv: u16, color: Color) -> Node {
        Node {
            mv,
            color,
            expanded: false,
            expanding: false,
            n_children: 0,
            prior_visits: 0,
            prior_wins: 0,
            first_child: 0,
            visits: 0,
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Geometry, Rules, Setup};

    fn config(playouts: u64, threads: usize) -> SearchConfig {
        SearchConfig {
            komi: 0.5,
            threads,
            shared_tree: false,
            playouts: Some(playouts),
            deadline: None,
            seed: 7,
            early_stop: false,
            model: None,
            model_weight: PRIOR_MODEL,
            playout_remote: None,
            last_good_reply: false,
            two_liberties: false,
            hand_priors: true,
            tree_policy: TreePolicy::default(),
            second_last_shapes: false,
            nakade: false,
            ko_fights: false,
            local_rate: 100,
            score_weight: 0.0,
            score_scale: 10.0,
            score_centre: 0.0,
            global_capture: 0,
            sacrifices: false,
        }
    }

    #[test]
    fn the_margin_blend_keeps_the_winner_and_orders_the_margins() {
        // Weight 0 is the win alone, whatever the margin.
        for score in [-40.0, -0.5, 0.0, 0.5, 40.0] {
            for win in [0.0, 0.5, 1.0] {
                assert_eq!(blend_margin(win, score, 0.0, 9.0), win);
            }
        }
        for weight in [0.05, 0.2, 0.5, 1.0] {
            let mut last = -1.0;
            for i in -400..=400 {
                let score = i as f32 * 0.25;
                let win = if score > 0.0 {
                    1.0
                } else if score < 0.0 {
                    0.0
                } else {
                    0.5
                };
                let v = blend_margin(win, score, weight, 9.0);
                assert!((0.0..=1.0).contains(&v), "{v}");
                // Above one half exactly for Black's wins, one half for a tie.
                assert_eq!(v > 0.5, score > 0.0, "{weight} {score} {v}");
                assert_eq!(v < 0.5, score < 0.0, "{weight} {score} {v}");
                // A bigger lead is worth more (or, far out, as much).
                assert!(v >= last, "{weight} {score}");
                last = v;
            }
            // A lead of one scale is three quarters of the way to the bound.
            let v = blend_margin(1.0, 9.0, weight, 9.0);
            let expected = 1.0 - weight + weight * 0.5 * (1.0 + 1f32.tanh());
            assert!((v - expected).abs() < 1e-6);
        }
    }

    #[test]
    fn the_mean_score_and_the_centre_of_the_margin_term() {
        // 5x5 filled with Black but for two one-point eyes: Black's only move is the pass, White
        // has no legal move, and every playout ends at once with Black's whole area, 25 less the
        // komi.
        let mut setup: Setup = "XXXXX\nX.XXX\nXXXXX\nXXX.X\nXXXXX\n".parse().unwrap();
        setup.to_move = Color::Black;
        let board = Board::from_setup(setup, Rules::STANDARD).unwrap();
        let mut cfg = config(500, 1);
        cfg.komi = 0.5;
        cfg.score_weight = 0.1;
        cfg.score_scale = 9.0;
        let zero = search(&board, 0, &cfg);
        assert_eq!(zero.moves.len(), 1, "{:?}", zero.moves);
        assert_eq!(zero.mean_score, Some(24.5));
        // Counted from an even game the lead is far out on the tanh; centred at the lead the
        // margin term is one half.
        let far = 0.9 + 0.05 * (1.0 + (24.5f64 / 9.0).tanh());
        assert!(
            (zero.best_stats().win_rate() - far).abs() < 1e-4,
            "{:?}",
            zero.moves
        );
        cfg.score_centre = 24.5;
        let centred = search(&board, 0, &cfg);
        assert_eq!(centred.mean_score, Some(24.5));
        assert!(
            (centred.best_stats().win_rate() - 0.95).abs() < 1e-4,
            "{:?}",
            centred.moves
        );
        // Every playout is a win, whatever the margin term makes of it.
        assert_eq!(zero.best_stats().outright, Some(1.0));
        assert_eq!(centred.best_stats().outright, Some(1.0));
        // A centre past the lead takes from the margin term, never from the win.
        cfg.score_centre = 60.0;
        let past = search(&board, 0, &cfg).best_stats().win_rate();
        assert!(past > 0.9 && past < 0.95, "{past}");
    }

    #[test]
    fn a_margin_share_changes_a_won_search_but_not_its_move_legality() {
        // 5x5, a Black wall on the middle column: the left two columns are Black's, and White
        // cannot win the game (15 points to at most 10).
        let mut setup: Setup = "..X..\n..X..\n..X.O\n..X..\n..X..\n".parse().unwrap();
        setup.to_move = Color::White;
        let board = Board::from_setup(setup, Rules::STANDARD).unwrap();
        let plain = search(&board, 0, &config(3000, 1));
        let mut with_margin = config(3000, 1);
        with_margin.score_weight = 0.3;
        with_margin.score_scale = 5.0;
        let blended = search(&board, 0, &with_margin);
        for result in [&plain, &blended] {
            let best = result.best_stats();
            assert!(
                best.win_rate() < 0.5,
                "White to move is lost: {}",
                best.win_rate()
            );
            if let Move::Play(p) = best.mv {
                assert!(board.is_legal(p));
            }
        }
        assert_ne!(
            plain.moves, blended.moves,
            "the margin share changes the statistics"
        );
        // Without a margin share the outright rate is the win rate; with a share W the value is
        // (1 - W) times the outright rate plus W times the mean margin term (0 to 1).
        for m in plain.moves.iter().filter(|m| m.visits > 0) {
            assert!((m.outright.unwrap() - m.win_rate()).abs() < 1e-4, "{m:?}");
        }
        for m in blended.moves.iter().filter(|m| m.visits > 0) {
            let margin = m.win_rate() - 0.7 * m.outright.unwrap();
            assert!((-1e-4..=0.3 + 1e-4).contains(&margin), "{m:?}");
        }
    }

    #[test]
    fn tree_policy_schedules() {
        // MoGo's: beta = sqrt(K / (3n + K)) whatever the AMAF count.
        let mogo = TreePolicy::MOGO;
        assert!((mogo.beta(0.0, 50.0) - 1.0).abs() < 1e-12);
        assert!((mogo.beta(1000.0, 5.0) - 0.5).abs() < 1e-12);
        // Silver's: r / (r + n + n r / K); all AMAF when the node has no visits of its own.
        let silver = TreePolicy::SILVER;
        assert_eq!(silver.beta(0.0, 40.0), 1.0);
        let (n, r, k) = (300.0, 900.0, SILVER_EQUIVALENCE);
        assert!((silver.beta(n, r) - r / (r + n + n * r / k)).abs() < 1e-12);
        // With many visits the node's own value takes over.
        assert!(silver.beta(1e6, 1e6) < 0.01);
        // Distance weights: 1 + D (len - at) / (len - start + 1), from 1 + D down to 1.
        for len in 1..40 {
            for start in 0..len {
                for at in start..len {
                    let w = silver.amaf_weight(start, at, len);
                    assert!((1..=1 + AMAF_DISTANCE).contains(&w));
                    assert_eq!(w, 1 + (3 * (len - at) / (len - start + 1)) as u32);
                    assert_eq!(mogo.amaf_weight(start, at, len), 1);
                    assert_eq!(silver.amaf_weights(start, len)(at), w);
                }
            }
        }
    }

    #[test]
    fn amaf_weights_by_reciprocal_are_the_integer_quotients() {
        // Every numerator D (len - at) with D up to 10 and every denominator len - start + 1
        // past the longest playout of 19x19 (the moves of an iteration are at most
        // move_cap(361) plus the tree's).
        let longest = crate::playout::move_cap(361) + 200;
        for b in 1..=longest + 1 {
            let policy = TreePolicy {
                amaf_distance: 10,
                ..TreePolicy::SILVER
            };
            // start = 0, len = b - 1: numerators 10 (len - at) for at in 0..len.
            let len = b - 1;
            let weight = policy.amaf_weights(0, len);
            for at in 0..len {
                assert_eq!(weight(at), policy.amaf_weight(0, at, len), "{at} {len}");
            }
            // And every numerator up to 10 b against this denominator.
            let inv = 1.0 / b as f64;
            for a in 0..=10 * b {
                assert_eq!((a as f64 * inv + 1e-9) as usize, a / b, "{a} / {b}");
            }
        }
    }

    #[test]
    fn playout_board_matches_board() {
        let setup: Setup = "XO..\n.XO.\n..X.\nO...\n".parse().unwrap();
        let mut setup = setup;
        setup.to_move = Color::White;
        let board = Board::from_setup(setup, Rules::STANDARD).unwrap();
        let pb = playout_board(&board);
        for c in Color::ALL {
            assert_eq!(pb.stones(c), board.stones(c));
        }
        assert_eq!(pb.to_move(), Color::White);
    }

    /// White's lower chain is in atari at D4, a point rule 2/4 counts as White's eye (two White
    /// and two Black diagonals) that joins it to the upper chain: the tree has it among its moves
    /// and plays it (before session 58 it left every own rule-2/4 eye out, and lost the chain).
    #[test]
    fn the_tree_fills_a_false_eye_to_save_a_chain() {
        let mut setup: Setup = ".......\n.......\n..XOO..\n.XO.O..\n.XOOX..\n..XX...\n.......\n"
            .parse()
            .unwrap();
        setup.to_move = Color::White;
        let board = Board::from_setup(setup, Rules::STANDARD).unwrap();
        let result = search(&board, 0, &config(2000, 1));
        assert_eq!(result.best, Move::Play(Point::new(3, 3)));
    }

    #[test]
    fn deterministic_for_fixed_seed_and_playouts() {
        let board = Board::new(Geometry::new(5, 5).unwrap(), Rules::STANDARD);
        let a = search(&board, 0, &config(2000, 2));
        let b = search(&board, 0, &config(2000, 2));
        assert_eq!(a.best, b.best);
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.playouts, 2000);
    }

    #[test]
    fn a_model_adds_its_prior_to_the_children() {
        // A model that weighs the corner window a million times more: on the empty 9x9 board
        // each corner child gets round(100 * sqrt(~1/4)) = 50 more virtual wins than without the
        // model, every other child none (its share rounds to 0).
        let board = Board::new(Geometry::new(9, 9).unwrap(), Rules::STANDARD);
        let root = playout_board(&board);
        let corner = Point::new(0, 0);
        let class = movemodel::features(&root, corner, None, None).0[0];
        let mut model = MoveModel::uniform();
        model.gammas[0][usize::from(class)] = 1e6;
        let moves: Vec<Move> = board.legal_moves().iter().map(Move::Play).collect();
        let plain = Tree::new(root.clone(), 0, (None, None), 7.0, 1, None).root_nodes(&moves);
        let with = Tree::new(
            root,
            0,
            (None, None),
            7.0,
            1,
            Some(TreeModel {
                model: Arc::new(model),
                weight: 100.0,
                owner: None,
                hand_priors: true,
            }),
        )
        .root_nodes(&moves);
        let mut corners = 0;
        for (a, b) in plain.iter().zip(&with).skip(1) {
            let p = decode(a.mv);
            let extra = b.prior_wins - a.prior_wins;
            assert_eq!(extra, b.prior_visits - a.prior_visits);
            assert_eq!(b.amaf_visits - a.amaf_visits, u32::from(extra));
            let is_corner = matches!(p, Move::Play(q) if (q.row() == 0 || q.row() == 8) && (q.col() == 0 || q.col() == 8));
            assert_eq!(extra, if is_corner { 50 } else { 0 }, "{p:?}");
            corners += usize::from(is_corner);
        }
        assert_eq!(corners, 4);
    }

    #[test]
    fn without_hand_priors_a_child_has_the_even_and_the_model_prior_only() {
        // A uniform model on the empty 9x9 board gives every move p = 1/81: with weight 90 that
        // is 10 virtual wins, plus PRIOR_EVEN's (10, 5). A new tree's root children also get the
        // hand-set priors (some of them differ); children added below the root get them only
        // with `hand_priors`.
        let board = Board::new(Geometry::new(9, 9).unwrap(), Rules::STANDARD);
        let root = playout_board(&board);
        let moves: Vec<Move> = board.legal_moves().iter().map(Move::Play).collect();
        let points: Vec<Point> = board.legal_moves().iter().collect();
        let bare_prior = |n: &Node| (n.prior_visits, n.prior_wins) == (20, 15);
        for hand_priors in [false, true] {
            let tree = Tree::new(
                root.clone(),
                0,
                (None, None),
                7.0,
                1,
                Some(TreeModel {
                    model: Arc::new(MoveModel::uniform()),
                    weight: 90.0,
                    owner: None,
                    hand_priors,
                }),
            );
            assert!(!tree.root_nodes(&moves)[1..=81].iter().all(bare_prior));
            let children = tree.children(&root, &points, (None, None), false);
            assert_eq!(children[..81].iter().all(bare_prior), !hand_priors);
        }
    }

    #[test]
    fn without_the_amaf_prior_the_prior_is_in_the_own_statistics_only() {
        // The same children with the prior in both statistics and in the own ones alone: the
        // own statistics equal, the AMAF ones empty.
        let board = Board::new(Geometry::new(9, 9).unwrap(), Rules::STANDARD);
        let root = playout_board(&board);
        let points: Vec<Point> = board.legal_moves().iter().collect();
        let model = || {
            Some(TreeModel {
                model: Arc::new(MoveModel::builtin()),
                weight: 100.0,
                owner: None,
                hand_priors: true,
            })
        };
        let both = Tree::new(root.clone(), 0, (None, None), 7.0, 1, model());
        let mut own = Tree::new(root.clone(), 0, (None, None), 7.0, 1, model());
        own.policy.amaf_prior = false;
        let a = both.children(&root, &points, (None, None), false);
        let b = own.children(&root, &points, (None, None), false);
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((x.visits, x.wins), (y.visits, y.wins));
            assert_eq!((y.amaf_visits, y.amaf_wins), (0, 0.0));
            if x.mv != PASS {
                assert_eq!((x.amaf_visits, x.amaf_wins), (x.visits, x.wins));
            }
        }
        assert_eq!(
            TreePolicy {
                amaf_prior: false,
                ..TreePolicy::SILVER
            }
            .to_string(),
            format!("{} amaf-prior false", TreePolicy::SILVER)
        );
    }

    /// White's five stones on the fourth row of a 7x7 board have one liberty, E3; Black to move.
    fn capture_position() -> Board {
        let mut setup: Setup = ".......\n.......\nXXXXXX.\nOOOOOX.\nXXXX.O.\n.......\n.......\n"
            .parse()
            .unwrap();
        setup.to_move = Color::Black;
        Board::from_setup(setup, Rules::STANDARD).unwrap()
    }

    #[test]
    fn captures_a_group_in_atari() {
        // White's five stones on the fourth row have one liberty, E3; Black to move takes them
        // there. Otherwise White connects at E3 to F3 and Black's four stones below are the ones
        // in trouble.
        let board = capture_position();
        // Under either selection rule.
        for policy in [TreePolicy::SILVER, TreePolicy::MOGO] {
            let mut c = config(3000, 1);
            c.tree_policy = policy;
            let r = search(&board, 0, &c);
            assert_eq!(r.best, Move::Play(Point::new(4, 4)), "{policy}: {r:?}");
            assert!(r.best_stats().win_rate() > 0.8, "{policy}");
        }
    }

    #[test]
    fn a_shared_tree_counts_every_playout_once_and_leaves_no_virtual_loss() {
        // Three threads on one tree: every playout is one visit of the root and of exactly one
        // root move, and its result is backed up to both (the root's wins, for the player who
        // moved into it, and its children's, for the side to move, add up to the playouts: a
        // virtual loss left behind would be a visit without its win); below, a node's real
        // visits are at least its children's (more by the playouts that stopped at it).
        let board = capture_position();
        let mut c = config(6000, 3);
        c.shared_tree = true;
        let (r, reuse) = search_reusing(&board, 0, &c, None);
        assert_eq!(r.playouts, 6000);
        assert_eq!(r.moves.iter().map(|m| m.visits).sum::<u64>(), 6000);
        assert_eq!(reuse.trees.len(), 1);
        let nodes = &reuse.trees[0];
        assert_eq!(nodes[0].visits, 6000);
        let real = |n: &Node| n.visits - u32::from(n.prior_visits);
        let root_kids = &nodes[1..][..usize::from(nodes[0].n_children)];
        let kid_wins: f64 = root_kids
            .iter()
            .map(|n| f64::from(n.wins) - f64::from(n.prior_wins))
            .sum();
        assert!((f64::from(nodes[0].wins) + kid_wins - 6000.0).abs() < 0.01);
        let mut expanded = 0;
        for n in nodes.iter() {
            assert!(!n.expanding);
            assert!(n.wins >= 0.0 && n.wins <= n.visits as f32 + 1e-3, "{n:?}");
            if n.expanded {
                expanded += 1;
                let kids = &nodes[n.first_child as usize..][..usize::from(n.n_children)];
                let below: u32 = kids.iter().map(real).sum();
                assert!(below <= real(n), "{n:?}");
            }
        }
        assert!(expanded > 10);
        // The shared tree still finds the capture, and every thread's playouts count.
        assert_eq!(r.best, Move::Play(Point::new(4, 4)), "{r:?}");
        assert!(r.best_stats().win_rate() > 0.8);
    }

    #[test]
    fn one_thread_on_a_shared_tree_searches_as_alone() {
        let board = Board::new(Geometry::new(7, 7).unwrap(), Rules::STANDARD);
        let mut c = config(2000, 1);
        let alone = search(&board, 0, &c);
        c.shared_tree = true;
        assert_eq!(search(&board, 0, &c).moves, alone.moves);
    }

    #[test]
    fn tree_reuse_keeps_the_subtree_of_the_moves_played() {
        // Search, play the best move and thread 0's most visited reply to it, search again from
        // the kept trees: the new root moves carry the old subtree's visits on top of the new
        // playouts. A position that does not follow from the previous root starts afresh.
        let g = Geometry::new(7, 7).unwrap();
        let mut board = Board::new(g, Rules::STANDARD);
        let (first, reuse) = search_reusing(&board, 0, &config(4000, 2), None);
        let tree = &reuse.trees[0];
        let root = tree[0];
        let best = (root.first_child as usize..)
            .take(root.n_children as usize)
            .find(|&c| decode(tree[c].mv) == first.best)
            .unwrap();
        let b = tree[best];
        assert!(b.expanded);
        let reply = (b.first_child as usize..)
            .take(b.n_children as usize)
            .max_by_key(|&c| tree[c].visits)
            .unwrap();
        let reply_move = decode(tree[reply].mv);
        // Real visits of the reply's children in each thread's tree.
        let kept: u64 = reuse
            .trees
            .iter()
            .map(|t| {
                let r = t[0];
                let b = (r.first_child as usize..)
                    .take(r.n_children as usize)
                    .find(|&c| decode(t[c].mv) == first.best)
                    .unwrap();
                let bn = t[b];
                let Some(rep) = (bn.first_child as usize..)
                    .take(bn.n_children as usize)
                    .find(|&c| decode(t[c].mv) == reply_move)
                else {
                    return 0;
                };
                let rn = t[rep];
                if !rn.expanded {
                    return 0;
                }
                (rn.first_child as usize..)
                    .take(rn.n_children as usize)
                    .map(|c| u64::from(t[c].visits - u32::from(t[c].prior_visits)))
                    .sum()
            })
            .sum();
        assert!(kept > 0);
        board.play(first.best);
        board.play(reply_move);
        let (second, _) = search_reusing(&board, 0, &config(1000, 2), Some(reuse));
        let visits: u64 = second.moves.iter().map(|m| m.visits).sum();
        assert_eq!(second.playouts, 1000);
        assert_eq!(visits, 1000 + kept);
        // The same search again is deterministic; a fresh search counts only its own playouts.
        let (_, reuse) = search_reusing(&Board::new(g, Rules::STANDARD), 0, &config(4000, 2), None);
        let (again, _) = search_reusing(&board, 0, &config(1000, 2), Some(reuse));
        assert_eq!(again.moves, second.moves);
        let fresh = search(&board, 0, &config(1000, 2));
        assert_eq!(fresh.moves.iter().map(|m| m.visits).sum::<u64>(), 1000);
        // Another game (one stone elsewhere) or another komi: nothing kept.
        let (_, reuse) = search_reusing(&board, 0, &config(1000, 2), None);
        let mut other = Board::new(g, Rules::STANDARD);
        other.play(Move::Play(Point::new(0, 0)));
        other.play(Move::Play(Point::new(6, 6)));
        let (r, reuse) = search_reusing(&other, 0, &config(500, 2), Some(reuse));
        assert_eq!(r.moves.iter().map(|m| m.visits).sum::<u64>(), 500);
        let mut next = other.clone();
        next.play(r.best);
        let mut komi = config(500, 2);
        komi.komi = 7.5;
        let (r, _) = search_reusing(&next, 0, &komi, Some(reuse));
        assert_eq!(r.moves.iter().map(|m| m.visits).sum::<u64>(), 500);
    }

    #[test]
    fn last_good_reply_remembers_the_winners_answers_and_forgets_the_losers() {
        let board = Board::new(Geometry::new(5, 5).unwrap(), Rules::STANDARD);
        let root = playout_board(&board);
        let mut tree = Tree::new(root, 0, (None, None), 0.5, 1, None);
        tree.lgr = Some(vec![PASS; 2 * BITS]);
        let at = |r, c| Point::new(r, c).index() as u16;
        let (b, w) = (Color::Black, Color::White);
        // Black C3, White C4, Black pass, White D4, Black B2: Black wins. Black's B2 never
        // answered a stone (it follows a pass); White's stones are the loser's.
        tree.seq = vec![
            (at(2, 2), b),
            (at(3, 2), w),
            (PASS, b),
            (at(3, 3), w),
            (at(1, 1), b),
        ];
        tree.remember_replies(true);
        let lgr = |t: &Tree, c: Color, prev: u16| {
            t.lgr.as_ref().unwrap()[c.index() * BITS + usize::from(prev)]
        };
        assert_eq!(lgr(&tree, b, at(3, 2)), PASS, "Black's pass is no reply");
        assert_eq!(
            lgr(&tree, w, at(2, 2)),
            PASS,
            "the loser's reply is not kept"
        );
        // Black C3, White C4, Black D3: White wins. White's C4 answers C3; Black's D3 is not kept.
        tree.seq = vec![(at(2, 2), b), (at(3, 2), w), (at(2, 3), b)];
        tree.remember_replies(false);
        assert_eq!(lgr(&tree, w, at(2, 2)), at(3, 2));
        assert_eq!(lgr(&tree, b, at(3, 2)), PASS);
        // Now Black wins with the same line: White's remembered C4 is forgotten, Black's D3 kept.
        tree.remember_replies(true);
        assert_eq!(lgr(&tree, w, at(2, 2)), PASS);
        assert_eq!(lgr(&tree, b, at(3, 2)), at(2, 3));
        // White wins with C4 again (remembered), then loses with another answer, C2: the
        // remembered C4 stays.
        tree.seq = vec![(at(2, 2), b), (at(3, 2), w), (at(4, 4), b)];
        tree.remember_replies(false);
        tree.seq = vec![(at(2, 2), b), (at(1, 2), w)];
        tree.remember_replies(true);
        assert_eq!(lgr(&tree, w, at(2, 2)), at(3, 2));
        // The root's last stone is the first move's predecessor.
        tree.root_last = Some(Point::new(0, 0));
        tree.seq = vec![(at(4, 0), b)];
        tree.remember_replies(true);
        assert_eq!(lgr(&tree, b, at(0, 0)), at(4, 0));
    }

    #[test]
    fn last_good_reply_searches_still_capture() {
        let board = capture_position();
        let mut c = config(3000, 2);
        c.last_good_reply = true;
        let r = search(&board, 0, &c);
        assert_eq!(r.best, Move::Play(Point::new(4, 4)), "{r:?}");
        assert_eq!(search(&board, 0, &c).moves, r.moves);
    }
}
