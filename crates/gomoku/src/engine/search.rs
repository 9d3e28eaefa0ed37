//! Move choice: a few sure things first, alpha-beta after.
//!
//! At the root, in order: a five; a block of the opponent's five; a straight four; the engine's own
//! VCF ([`crate::search::solve`]). Two more threat-space steps are there and off since v2.6
//! ([`super::params::ROOT_OWN_VCT`], [`ROOT_OPPONENT_THREAT`]; the own VCT also by the knob `own-vct`): the engine's own VCT, and, when the opponent would
//! have a VCF or VCT if it were to move, only the moves after which the solver finds no such win
//! (the defender's view). What is left goes to iterative-deepening principal-variation alpha-beta
//! with a Zobrist transposition table. Inside the tree, fives, forced blocks and straight fours are
//! scored as wins and losses at once, a side facing an open three only tries counter-fours and the
//! squares that stop it, and the leaves play out their fours (the quiescence).
//!
//! With a node budget and no time limit everything is deterministic: the same position and budget
//! give the same move and node count.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::params::{
    ALPHABETA_TIME_SHARE, DEFENCE_FIRST_TRY, DEFENCE_FLOOR, DEFENCE_SHARE, OPPONENT_THREAT_SHARE,
    OWN_VCF_SHARE, PERCENT, ROOT_OPPONENT_THREAT, SAFETY_CHECKS, SAFETY_CHECK_TIME_DIVISOR,
    TSS_FLOOR,
};
use super::tree::Tree;
use crate::engine::position::Position;
use crate::search::defence::{self, Playable};
use crate::search::{self, Budget, Mode, Proof};
use crate::{Bitboard, Board, Color, Point, Rule};

pub use super::tree::MATE;

/// The engine's position is what the defender's view plays on.
impl Playable for Position {
    fn board(&self) -> &Board {
        Position::board(self)
    }

    fn fives(&self, c: Color) -> Bitboard {
        self.class_sets(c).five
    }

    fn fours(&self, c: Color) -> Bitboard {
        self.class_sets(c).four
    }

    fn play(&mut self, p: Point, c: Color) {
        self.make(p, c);
    }

    fn take_back(&mut self, _p: Point) {
        self.unmake();
    }
}

/// Why the engine chose its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The first move of the game.
    Opening,
    /// The move completes a five.
    Five,
    /// The move blocks the opponent's five.
    Block,
    /// The move makes a straight four or a double four: a win next move.
    OpenFour,
    /// The first move of a VCF.
    Vcf,
    /// The first move of a VCT.
    Vct,
    /// Alpha-beta among the moves that stop the opponent's threat sequences.
    Defend,
    /// Alpha-beta over the candidate moves.
    Search,
}

impl Reason {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Reason::Opening => "opening",
            Reason::Five => "five",
            Reason::Block => "block",
            Reason::OpenFour => "open_four",
            Reason::Vcf => "vcf",
            Reason::Vct => "vct",
            Reason::Defend => "defend",
            Reason::Search => "search",
        }
    }
}

/// The engine's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub best: Point,
    pub reason: Reason,
    /// The alpha-beta score (from the mover's side), when alpha-beta chose the move.
    pub score: Option<i32>,
    /// The deepest completed alpha-beta iteration.
    pub depth: u32,
    /// Nodes searched in all (threat-space and alpha-beta).
    pub nodes: u64,
    /// The expected line from `best` on (the threat sequence, or alpha-beta's principal variation),
    /// `best` first.
    pub pv: Vec<Point>,
}

/// One line of a multi-line search ([`Engine::think_lines`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub best: Point,
    /// The alpha-beta score from the mover's side.
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// The principal variation, `best` first.
    pub pv: Vec<Point>,
}

/// Moves of the principal variations reported.
const PV_MOVES: usize = 12;

/// The Gomoku engine: a position, the alpha-beta tree (with its shared transposition table) and
/// the number of search threads.
#[derive(Debug)]
pub struct Engine {
    pos: Position,
    tree: Tree,
    threads: usize,
    /// Points the engine may not choose (a front end's `YXBLOCK`).
    excluded: Bitboard,
    /// The soft time limit of the next timed moves ([`Engine::set_soft_time`]).
    soft: Option<Duration>,
    /// The own VCT's share of a move, in thousandths (the knob `own-vct`; 0: none).
    own_vct: u32,
}

impl Engine {
    /// An engine with an empty board and a transposition table of about `table_bytes` (rounded down
    /// to a power of two entries, at least 1024), searching with one thread.
    #[must_use]
    pub fn new(size: usize, rule: Rule, table_bytes: usize) -> Engine {
        Engine {
            pos: Position::new(size, rule),
            tree: Tree::new(size, table_bytes),
            threads: 1,
            excluded: Bitboard::EMPTY,
            soft: None,
            own_vct: super::tree::knob::Knobs::default().own_vct,
        }
    }

    /// Points the engine may not choose from now on (empty: none), for analysis front ends. When
    /// every candidate is excluded it still moves (the first empty cell that is not).
    pub fn set_excluded(&mut self, points: Bitboard) {
        self.excluded = points;
    }

    /// Makes `flag` the abort flag of the search: while it is set, alpha-beta stops as at its
    /// deadline and the best move so far stands, and the threat searches stop as at their limits
    /// (finding nothing more). The caller clears it.
    pub fn set_abort(&mut self, flag: Arc<AtomicBool>) {
        self.tree.set_abort(flag);
    }

    /// The transposition table's size in bytes.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.tree.table_bytes()
    }

    /// Sets the time [`Engine::think`] aims at under a time budget (`None`: the whole budget):
    /// alpha-beta starts no new iteration once it has passed since the move began, the aim
    /// stretched while the best move changes and shrunk while it stays (time management under a
    /// match clock; the budget stays the hard limit).
    pub fn set_soft_time(&mut self, soft: Option<Duration>) {
        self.soft = soft;
    }

    /// Sets the search switches ([`super::tree::switch`]; default [`super::tree::SWITCHES`]).
    pub fn set_switches(&mut self, switches: u32) {
        self.tree.set_switches(switches);
    }

    /// Sets the numeric search parameters ([`super::tree::knob`]; default: the engine's constants).
    pub fn set_knobs(&mut self, knobs: super::tree::knob::Knobs) {
        self.own_vct = knobs.own_vct;
        self.tree.set_knobs(knobs);
    }

    /// The positions the search kept for tuning since the last call ([`super::tree::Tree::take_leaves`]).
    pub fn take_leaves(&mut self) -> Vec<Vec<Point>> {
        self.tree.take_leaves()
    }

    /// Sets the number of search threads (at least 1): Lazy SMP over one shared table.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The number of search threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Plays `c` on `p` (which must be empty and on the board).
    pub fn make(&mut self, p: Point, c: Color) {
        self.pos.make(p, c);
    }

    /// Takes back the last move.
    pub fn unmake(&mut self) {
        self.pos.unmake();
    }

    /// Chooses a move for `me` within `budget`. The board must have an empty cell and no five.
    /// The abort flag ([`Engine::set_abort`]) stops the threat-space phases too.
    pub fn think(&mut self, me: Color, budget: Budget) -> Decision {
        search::with_stop(self.tree.abort_flag(), || self.think_inner(me, budget))
    }

    fn think_inner(&mut self, me: Color, budget: Budget) -> Decision {
        let start = Instant::now();
        if let Some((best, reason)) = self.immediate(me) {
            if !self.excluded.contains(best) {
                return decide(best, reason, 0);
            }
        }
        let mut tss_nodes = 0;
        if let Some((line, reason)) = self.own_win(me, budget, &mut tss_nodes) {
            return Decision {
                pv: line.clone(),
                ..decide(line[0], reason, tss_nodes)
            };
        }
        let threat = if ROOT_OPPONENT_THREAT {
            self.opponent_threat(me, budget, &mut tss_nodes)
        } else {
            None
        };
        let mut reason = Reason::Search;
        let mut roots = self.root_moves(me);
        if let Some(proof) = threat {
            let budget = budget.share(DEFENCE_SHARE, PERCENT, DEFENCE_FLOOR);
            let (safe, used) = self.defences(me, &proof, &roots, budget);
            tss_nodes += used;
            if !safe.is_empty() {
                roots = safe;
                reason = Reason::Defend;
            }
        }
        if roots.len() <= 1 {
            // No root at all only when every empty cell is forbidden to Black (renju) or excluded.
            let only = roots.first().copied().or_else(|| self.any_empty());
            return decide(only.expect("think needs an empty cell"), reason, tss_nodes);
        }
        // Alpha-beta gets what is left, less a reserve for checking its choice.
        let left = Budget {
            time: budget
                .time
                .map(|t| t.saturating_sub(start.elapsed()) * ALPHABETA_TIME_SHARE / PERCENT),
            nodes: budget.nodes.map(|b| b.saturating_sub(tss_nodes).max(1)),
        };
        self.tree.nodes = 0;
        let deadline = left.time.map(|t| Instant::now() + t);
        if left.time.is_some() {
            self.tree.set_soft(self.soft.map(|aim| (start, aim)));
        }
        let ranked =
            self.tree
                .iterate_threads(&mut self.pos, me, roots, left.nodes, deadline, self.threads);
        self.tree.set_soft(None);
        let (ranked, score, depth) = (ranked.moves, ranked.score, ranked.depth);
        let mut best = ranked[0];
        if reason == Reason::Search {
            let (safe, nodes) = self.first_safe(me, &ranked, budget, start);
            tss_nodes += nodes;
            best = safe.unwrap_or(best);
        }
        let pv = self
            .tree
            .principal_variation(&mut self.pos, me, best, PV_MOVES);
        Decision {
            best,
            reason,
            score: Some(score),
            depth,
            nodes: tss_nodes + self.tree.nodes,
            pv,
        }
    }

    /// The root moves of `me`, best first, less the excluded points.
    fn root_moves(&self, me: Color) -> Vec<Point> {
        let mut roots = self.tree.root_moves(&self.pos, me);
        roots.retain(|&p| !self.excluded.contains(p));
        roots
    }

    /// The `count` best moves of `me` by alpha-beta alone (no threat-space search), each searched
    /// without the ones before it, with an equal share of `budget`: best first, each with its
    /// score, depth and principal variation. Fewer when there are fewer moves.
    pub fn think_lines(&mut self, me: Color, count: usize, budget: Budget) -> Vec<Line> {
        let start = Instant::now();
        let mut roots = self.root_moves(me);
        let mut out = Vec::new();
        for i in 0..count.min(roots.len()) {
            let left = (count - i) as u32;
            let time = budget
                .time
                .map(|t| t.saturating_sub(start.elapsed()) / left);
            let nodes = budget.nodes.map(|n| (n / count as u64).max(1));
            self.tree.nodes = 0;
            let deadline = time.map(|t| Instant::now() + t);
            let ranked = self.tree.iterate_threads(
                &mut self.pos,
                me,
                roots.clone(),
                nodes,
                deadline,
                self.threads,
            );
            let best = ranked.moves[0];
            let pv = self
                .tree
                .principal_variation(&mut self.pos, me, best, PV_MOVES);
            out.push(Line {
                best,
                score: ranked.score,
                depth: ranked.depth,
                pv,
            });
            roots.retain(|&p| p != best);
        }
        out
    }

    /// When the opponent would have a VCF or VCT if it were to move: the moves of `me` after which
    /// the threat solver finds none any more (the engine's own defences, within `budget`); `None`
    /// when there is no threat to meet.
    pub fn threat_defences(&mut self, me: Color, budget: Budget) -> Option<Vec<Point>> {
        search::with_stop(self.tree.abort_flag(), || {
            self.threat_defences_inner(me, budget)
        })
    }

    fn threat_defences_inner(&mut self, me: Color, budget: Budget) -> Option<Vec<Point>> {
        let mut nodes = 0;
        let proof = self.opponent_threat(me, budget, &mut nodes)?;
        let roots = self.root_moves(me);
        Some(self.defences(me, &proof, &roots, budget).0)
    }

    /// Chooses a move for `me` by alpha-beta alone within `nodes` (a five, a block of a five and a
    /// straight four are still played at once; no threat-space search): the self-play of the
    /// evaluation tuner, many times cheaper than [`Engine::think`].
    pub fn think_tree(&mut self, me: Color, nodes: u64) -> Point {
        if let Some((best, _)) = self.immediate(me) {
            return best;
        }
        let roots = self.root_moves(me);
        if roots.len() <= 1 {
            let only = roots.first().copied().or_else(|| self.any_empty());
            return only.expect("think_tree needs an empty cell");
        }
        self.tree.nodes = 0;
        self.tree
            .iterate_threads(&mut self.pos, me, roots, Some(nodes), None, 1)
            .moves[0]
    }

    /// Some empty cell (the first in row order that is not excluded, else the first).
    fn any_empty(&self) -> Option<Point> {
        let n = self.pos.size() as u8;
        let empty = || {
            (0..n)
                .flat_map(|y| (0..n).map(move |x| Point::new(x, y)))
                .filter(|&p| self.pos.stone(p).is_none())
        };
        empty()
            .find(|&p| !self.excluded.contains(p))
            .or_else(|| empty().next())
    }

    /// The moves decided without search: the opening moves, a five, a block of the opponent's
    /// five, a straight four.
    fn immediate(&self, me: Color) -> Option<(Point, Reason)> {
        let n = self.pos.size();
        if self.pos.stone_count() == 0 {
            let c = (n / 2) as u8;
            return Some((Point::new(c, c), Reason::Opening));
        }
        if self.pos.stone_count() == 1 {
            // One opponent stone: answer diagonally next to it, towards the centre.
            let (q, _) = self.pos.moves()[0];
            let towards = |v: u8| {
                if usize::from(v) * 2 < n {
                    v + 1
                } else {
                    v.saturating_sub(1)
                }
            };
            let p = Point::new(towards(q.x), towards(q.y));
            if p != q && self.pos.stone(p).is_none() {
                return Some((p, Reason::Opening));
            }
        }
        let o = !me;
        if let Some(p) = first(self.pos.class_sets(me).five) {
            return Some((p, Reason::Five));
        }
        if let Some(p) = first(self.pos.class_sets(o).five) {
            if !self.pos.is_foul(p, me) {
                return Some((p, Reason::Block));
            }
        }
        self.pos
            .class_sets(me)
            .open_four
            .iter()
            .find(|&p| !self.pos.is_foul(p, me))
            .map(|p| (p, Reason::OpenFour))
    }

    /// The engine's own VCF, else VCT, each within its share of `budget`: the principal line.
    fn own_win(
        &mut self,
        me: Color,
        budget: Budget,
        nodes: &mut u64,
    ) -> Option<(Vec<Point>, Reason)> {
        for (mode, share, reason) in [
            (Mode::Vcf, OWN_VCF_SHARE * 10, Reason::Vcf),
            (Mode::Vct, self.own_vct, Reason::Vct),
        ] {
            if share == 0 {
                continue;
            }
            let limits = budget
                .share(share, PERCENT * 10, TSS_FLOOR)
                .tss_limits(mode);
            let out = search::solve(self.pos.board(), me, mode, &limits);
            *nodes += out.nodes;
            if let Some(proof) = out.proof {
                // The threat search does not know renju's forbidden points yet: a line that starts
                // on one is no win.
                let line = proof.line();
                if !self.pos.is_foul(line[0], me) && !self.excluded.contains(line[0]) {
                    return Some((line, reason));
                }
            }
        }
        None
    }

    /// The opponent's VCF, else VCT, as if it were to move.
    fn opponent_threat(&mut self, me: Color, budget: Budget, nodes: &mut u64) -> Option<Proof> {
        for mode in [Mode::Vcf, Mode::Vct] {
            let limits = budget
                .share(OPPONENT_THREAT_SHARE, PERCENT, TSS_FLOOR)
                .tss_limits(mode);
            let out = search::solve(self.pos.board(), !me, mode, &limits);
            *nodes += out.nodes;
            if out.proof.is_some() {
                return out.proof;
            }
        }
        None
    }

    /// The best few of alpha-beta's `ranked` moves, in order: the first after which the opponent
    /// has no threat sequence (alpha-beta's horizon is shorter than a VCT). Returns it (if any)
    /// and the nodes searched.
    fn first_safe(
        &mut self,
        me: Color,
        ranked: &[Point],
        budget: Budget,
        start: Instant,
    ) -> (Option<Point>, u64) {
        let check = Budget {
            time: budget
                .time
                .map(|t| t.saturating_sub(start.elapsed()) / SAFETY_CHECK_TIME_DIVISOR),
            nodes: budget.nodes.map(|_| TSS_FLOOR),
        };
        let mut nodes = 0;
        for &p in ranked.iter().take(SAFETY_CHECKS) {
            if start.elapsed() >= budget.time.unwrap_or(Duration::MAX) {
                break;
            }
            let verdict = defence::threat_after(&mut self.pos, p, me, check);
            nodes += verdict.nodes;
            if !verdict.refuted {
                return (Some(p), nodes);
            }
        }
        (None, nodes)
    }

    /// The moves among `roots` that use the squares of the opponent's threat `proof` (or make a
    /// four or three of our own) and that [`defence::defences`] keeps: after them the threat solver
    /// finds no VCF or VCT of the opponent.
    fn defences(
        &mut self,
        me: Color,
        proof: &Proof,
        roots: &[Point],
        budget: Budget,
    ) -> (Vec<Point>, u64) {
        let mut relevant = defence::proof_squares(self.pos.board(), proof);
        let mine = self.pos.class_sets(me);
        relevant |= mine.four;
        relevant |= mine.three;
        let tries: Vec<Point> = roots
            .iter()
            .copied()
            .filter(|&p| relevant.contains(p))
            .collect();
        defence::defences(&mut self.pos, me, tries, budget, DEFENCE_FIRST_TRY)
    }
}

/// A decision made without alpha-beta.
fn decide(best: Point, reason: Reason, nodes: u64) -> Decision {
    Decision {
        best,
        reason,
        score: None,
        depth: 0,
        nodes,
        pv: vec![best],
    }
}

/// The first point of a set (lowest `y`, then `x`).
#[inline]
fn first(set: Bitboard) -> Option<Point> {
    set.iter().next()
}
