//! Move choice: threat-space search first, alpha-beta after.
//!
//! At the root, in order: a five; a block of the opponent's five; a straight four; the engine's own
//! VCF, then VCT ([`crate::search::solve`]); then, when the opponent would have a VCF or VCT if it were
//! to move, only the moves after which the solver finds no such win (the defender's view). What is
//! left goes to iterative-deepening principal-variation alpha-beta with a Zobrist transposition
//! table. Inside the tree, fives, forced blocks and straight fours are scored as wins and losses at
//! once, and a side facing an open three only tries counter-fours and the squares that stop it.
//!
//! With a node budget and no time limit everything is deterministic: the same position and budget
//! give the same move and node count.

use std::time::{Duration, Instant};

use super::params::{
    ALPHABETA_TIME_SHARE, BREADTH, DEFENCE_FIRST_TRY, DEFENCE_FLOOR, DEFENCE_SHARE, MAX_DEPTH,
    OPPONENT_THREAT_SHARE, OWN_VCF_SHARE, OWN_VCT_SHARE, PERCENT, SAFETY_CHECKS,
    SAFETY_CHECK_TIME_DIVISOR, TSS_FLOOR,
};
use crate::engine::position::Position;
use crate::search::defence::{self, Playable};
use crate::search::{self, Budget, Mode, Proof};
use crate::{Bitboard, Board, Color, Point, Rule};

/// A score meaning "wins"; `MATE - n` wins in `n` plies.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this are wins or losses.
const MATE_BOUND: i32 = MATE - 1000;

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
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    best: u16,
    depth: i8,
    bound: Bound,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    None,
    Exact,
    Lower,
    Upper,
}

/// The Gomoku engine: a position, a transposition table and the search state.
#[derive(Debug)]
pub struct Engine {
    pos: Position,
    table: Vec<Entry>,
    history: Vec<[u32; 2]>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

/// Bytes of one transposition-table entry.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

impl Engine {
    /// An engine with an empty board and a transposition table of about `table_bytes` (rounded down
    /// to a power of two entries, at least 1024).
    #[must_use]
    pub fn new(size: usize, rule: Rule, table_bytes: usize) -> Engine {
        let entries = (table_bytes / ENTRY_BYTES).max(1024);
        let entries = 1usize << (usize::BITS - 1 - entries.leading_zeros());
        Engine {
            pos: Position::new(size, rule),
            table: vec![Entry::default(); entries],
            history: vec![[0; 2]; size * size],
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
        }
    }

    /// The transposition table's size in bytes.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.len() * ENTRY_BYTES
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
    pub fn think(&mut self, me: Color, budget: Budget) -> Decision {
        let start = Instant::now();
        self.nodes = 0;
        if let Some((best, reason)) = self.immediate(me) {
            return decide(best, reason, 0);
        }
        let mut tss_nodes = 0;
        if let Some((best, reason)) = self.own_win(me, budget, &mut tss_nodes) {
            return decide(best, reason, tss_nodes);
        }
        let threat = self.opponent_threat(me, budget, &mut tss_nodes);
        let mut reason = Reason::Search;
        let mut roots = self.candidates(me, true);
        if let Some(proof) = threat {
            let budget = budget.share(DEFENCE_SHARE, PERCENT, DEFENCE_FLOOR);
            let (safe, used) = self.defences(me, &proof, &roots, budget);
            tss_nodes += used;
            if !safe.is_empty() {
                roots = safe;
                reason = Reason::Defend;
            }
        }
        if roots.len() == 1 {
            return decide(roots[0], reason, tss_nodes);
        }
        // Alpha-beta gets what is left, less a reserve for checking its choice.
        let left = Budget {
            time: budget
                .time
                .map(|t| t.saturating_sub(start.elapsed()) * ALPHABETA_TIME_SHARE / PERCENT),
            nodes: budget.nodes.map(|b| b.saturating_sub(tss_nodes).max(1)),
        };
        let (ranked, score, depth) = self.iterate(me, roots, left);
        let mut best = ranked[0];
        if reason == Reason::Search {
            let (safe, nodes) = self.first_safe(me, &ranked, budget, start);
            tss_nodes += nodes;
            best = safe.unwrap_or(best);
        }
        Decision {
            best,
            reason,
            score: Some(score),
            depth,
            nodes: tss_nodes + self.nodes,
        }
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
            return Some((p, Reason::Block));
        }
        first(self.pos.class_sets(me).open_four).map(|p| (p, Reason::OpenFour))
    }

    /// The first move of the engine's own VCF, else VCT, each within its share of `budget`.
    fn own_win(&mut self, me: Color, budget: Budget, nodes: &mut u64) -> Option<(Point, Reason)> {
        for (mode, share, reason) in [
            (Mode::Vcf, OWN_VCF_SHARE, Reason::Vcf),
            (Mode::Vct, OWN_VCT_SHARE, Reason::Vct),
        ] {
            let limits = budget.share(share, PERCENT, TSS_FLOOR).tss_limits(mode);
            let out = search::solve(self.pos.board(), me, mode, &limits);
            *nodes += out.nodes;
            if let Some(proof) = out.proof {
                return Some((proof.line()[0], reason));
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

    /// Iterative deepening over `roots` (ordered, best first). Returns the roots ranked by the
    /// deepest completed iteration (best first), the best score and that depth.
    fn iterate(
        &mut self,
        me: Color,
        mut roots: Vec<Point>,
        budget: Budget,
    ) -> (Vec<Point>, i32, u32) {
        self.node_limit = budget.nodes.unwrap_or(u64::MAX).saturating_add(self.nodes);
        self.deadline = budget.time.map(|t| Instant::now() + t);
        self.stopped = false;
        let mut best = (0, 0);
        let max_depth = MAX_DEPTH.min(self.empty_count() as i32);
        for depth in 1..=max_depth {
            let mut alpha = -MATE - 1;
            let beta = MATE + 1;
            let mut scored = Vec::with_capacity(roots.len());
            for (k, &p) in roots.iter().enumerate() {
                self.pos.make(p, me);
                let score = if k == 0 {
                    -self.search(depth - 1, -beta, -alpha, 1, !me)
                } else {
                    let mut s = -self.search(depth - 1, -alpha - 1, -alpha, 1, !me);
                    if s > alpha && !self.stopped {
                        s = -self.search(depth - 1, -beta, -alpha, 1, !me);
                    }
                    s
                };
                self.pos.unmake();
                if self.stopped {
                    break;
                }
                scored.push((score, k, p));
                if score > alpha {
                    alpha = score;
                }
            }
            if self.stopped {
                break;
            }
            // Stable sort: ties keep the previous order, so the result is deterministic.
            scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            roots = scored.iter().map(|&(_, _, p)| p).collect();
            best = (scored[0].0, depth as u32);
            if scored[0].0.abs() >= MATE_BOUND {
                break;
            }
        }
        (roots, best.0, best.1)
    }

    fn empty_count(&self) -> usize {
        let n = self.pos.size();
        n * n - self.pos.stone_count()
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// Negamax with alpha-beta; `s` is to move.
    fn search(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: i32, s: Color) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let o = !s;
        if !self.pos.class_sets(s).five.is_empty() {
            return MATE - ply - 1;
        }
        let their_fives = self.pos.class_sets(o).five;
        let forced = first(their_fives);
        if let Some(p) = forced {
            if their_fives.count() >= 2 {
                return -(MATE - ply - 2);
            }
            if self.empty_count() == 1 {
                return 0;
            }
            // A forced block costs no depth.
            self.pos.make(p, s);
            let score = -self.search(depth, -beta, -alpha, ply + 1, o);
            self.pos.unmake();
            return score;
        }
        if !self.pos.class_sets(s).open_four.is_empty() {
            return MATE - ply - 3;
        }
        if self.empty_count() == 0 {
            return 0;
        }
        if depth <= 0 || ply >= 2 * MAX_DEPTH {
            return self.pos.evaluate(s);
        }
        let key = self.pos.hash() ^ (s as u64);
        let slot = (key as usize) & (self.table.len() - 1);
        let entry = self.table[slot];
        let mut hint = None;
        if entry.key == key && entry.bound != Bound::None {
            hint = Some(self.point(entry.best));
            if i32::from(entry.depth) >= depth {
                let score = from_table(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        let mut moves = self.candidates(s, false);
        if let Some(h) = hint {
            if let Some(i) = moves.iter().position(|&m| m == h) {
                moves[..=i].rotate_right(1);
            }
        }
        if moves.is_empty() {
            return self.pos.evaluate(s);
        }
        let alpha0 = alpha;
        let mut best = -MATE - 1;
        let mut best_move = moves[0];
        for (k, &p) in moves.iter().enumerate() {
            self.pos.make(p, s);
            let score = if k == 0 {
                -self.search(depth - 1, -beta, -alpha, ply + 1, o)
            } else {
                let mut v = -self.search(depth - 1, -alpha - 1, -alpha, ply + 1, o);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.search(depth - 1, -beta, -alpha, ply + 1, o);
                }
                v
            };
            self.pos.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = p;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                let i = self.cell(p);
                self.history[i][s.index()] += (depth * depth) as u32;
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if entry.key != key || i32::from(entry.depth) <= depth {
            self.table[slot] = Entry {
                key,
                score: to_table(best, ply),
                best: self.cell(best_move) as u16,
                depth: depth as i8,
                bound,
            };
        }
        best
    }

    #[inline]
    fn cell(&self, p: Point) -> usize {
        p.y as usize * self.pos.size() + p.x as usize
    }

    #[inline]
    fn point(&self, i: u16) -> Point {
        let n = self.pos.size() as u16;
        Point::new((i % n) as u8, (i / n) as u8)
    }

    /// The moves worth trying for `s`, best first. Facing an open three (the opponent has a
    /// straight-four move), only counter-fours and the squares that stop it. Away from the root, at
    /// most [`BREADTH`] moves.
    fn candidates(&self, s: Color, root: bool) -> Vec<Point> {
        let o = !s;
        let n = self.pos.size();
        let theirs = self.pos.class_sets(o);
        let restrict = if theirs.open_four.is_empty() {
            None
        } else {
            Some(theirs.open_four | theirs.four | self.pos.class_sets(s).four)
        };
        let mut scored: Vec<(i64, usize, Point)> = Vec::with_capacity(64);
        for y in 0..n as u8 {
            for x in 0..n as u8 {
                let p = Point::new(x, y);
                if self.pos.stone(p).is_some() {
                    continue;
                }
                match restrict {
                    Some(r) if !r.contains(p) => continue,
                    None if !self.pos.is_near(p) => continue,
                    _ => {}
                }
                let i = self.cell(p);
                let score = i64::from(self.pos.value(p, s)) * 6
                    + i64::from(self.pos.value(p, o)) * 5
                    + i64::from(self.history[i][s.index()].min(1 << 20) >> 4);
                scored.push((score, i, p));
            }
        }
        scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        if !root {
            scored.truncate(BREADTH);
        }
        if scored.is_empty() && root {
            // No stone nearby (or nothing left to restrict to): every empty cell.
            for y in 0..n as u8 {
                for x in 0..n as u8 {
                    let p = Point::new(x, y);
                    if self.pos.stone(p).is_none() {
                        scored.push((0, self.cell(p), p));
                    }
                }
            }
        }
        scored.into_iter().map(|(_, _, p)| p).collect()
    }
}

/// The first point of a set (lowest `y`, then `x`).
#[inline]
/// A decision made without alpha-beta.
fn decide(best: Point, reason: Reason, nodes: u64) -> Decision {
    Decision {
        best,
        reason,
        score: None,
        depth: 0,
        nodes,
    }
}

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
