//! Move choice: threat-space search first, alpha-beta after.
//!
//! At the root, in order: a five; a block of the opponent's five; a straight four; the engine's own
//! VCF, then VCT ([`crate::tss::solve`]); then, when the opponent would have a VCF or VCT if it were
//! to move, only the moves after which the solver finds no such win (the defender's view). What is
//! left goes to iterative-deepening principal-variation alpha-beta with a Zobrist transposition
//! table. Inside the tree, fives, forced blocks and straight fours are scored as wins and losses at
//! once, and a side facing an open three only tries counter-fours and the squares that stop it.
//!
//! With a node budget and no time limit everything is deterministic: the same position and budget
//! give the same move and node count.

use std::time::{Duration, Instant};

use crate::engine::position::Position;
use crate::tss::{self, Limits, Mode, Proof};
use crate::{Bitboard, Color, Point, Rule};

/// A score meaning "wins"; `MATE - n` wins in `n` plies.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this are wins or losses.
const MATE_BOUND: i32 = MATE - 1000;
/// The most moves tried at a node that is not the root (best first).
const BREADTH: usize = 24;
/// The fewest nodes a threat search gets under a node budget.
const TSS_FLOOR: u64 = 20_000;
/// Alpha-beta's best moves checked for an opponent threat sequence afterwards.
const SAFETY_CHECKS: usize = 5;
/// The deepest iteration.
const MAX_DEPTH: i32 = 64;

/// How much the engine may think about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock time (None: no limit).
    pub time: Option<Duration>,
    /// Nodes in all, threat-space search included (None: no limit).
    pub nodes: Option<u64>,
}

impl Budget {
    /// A deterministic budget of `nodes`.
    #[must_use]
    pub const fn nodes(nodes: u64) -> Budget {
        Budget {
            time: None,
            nodes: Some(nodes),
        }
    }

    /// A budget of wall-clock time.
    #[must_use]
    pub const fn time(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            nodes: None,
        }
    }

    /// A share of this budget (`num / den` of the nodes and time), with at least `floor` nodes: the
    /// threat searches are cheap and decide games, so a small alpha-beta budget does not starve
    /// them.
    fn share(&self, num: u32, den: u32, floor: u64) -> Budget {
        Budget {
            time: self.time.map(|t| t * num / den),
            nodes: self
                .nodes
                .map(|n| (n * u64::from(num) / u64::from(den)).max(floor.max(1))),
        }
    }

    fn tss_limits(&self, mode: Mode) -> Limits {
        let mut limits = Limits::for_mode(mode);
        limits.time = self.time;
        limits.nodes = self.nodes.unwrap_or(u64::MAX).min(limits.nodes);
        limits
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

    /// Clears the transposition table and the history (a new game).
    pub fn clear_tables(&mut self) {
        self.table.fill(Entry::default());
        self.history.fill([0; 2]);
    }

    /// Chooses a move for `me` within `budget`. The board must have an empty cell and no five.
    pub fn think(&mut self, me: Color, budget: Budget) -> Decision {
        let start = Instant::now();
        self.nodes = 0;
        let n = self.pos.size();
        let decide = |best, reason, nodes| Decision {
            best,
            reason,
            score: None,
            depth: 0,
            nodes,
        };
        if self.pos.stone_count() == 0 {
            let c = (n / 2) as u8;
            return decide(Point::new(c, c), Reason::Opening, 0);
        }
        let o = !me;
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
                return decide(p, Reason::Opening, 0);
            }
        }
        if let Some(p) = first(self.pos.threats(me).five) {
            return decide(p, Reason::Five, 0);
        }
        if let Some(p) = first(self.pos.threats(o).five) {
            return decide(p, Reason::Block, 0);
        }
        if let Some(p) = first(self.pos.threats(me).open_four) {
            return decide(p, Reason::OpenFour, 0);
        }
        let mut tss_nodes = 0;
        // Own wins first: VCF, then VCT.
        for (mode, share, reason) in [(Mode::Vcf, 10, Reason::Vcf), (Mode::Vct, 15, Reason::Vct)] {
            let out = tss::solve(
                self.pos.board(),
                me,
                mode,
                &budget.share(share, 100, TSS_FLOOR).tss_limits(mode),
            );
            tss_nodes += out.nodes;
            if let Some(proof) = out.proof {
                return decide(proof.line()[0], reason, tss_nodes);
            }
        }
        // The opponent's threat, as if it were to move.
        let mut threat = None;
        for mode in [Mode::Vcf, Mode::Vct] {
            let out = tss::solve(
                self.pos.board(),
                o,
                mode,
                &budget.share(10, 100, TSS_FLOOR).tss_limits(mode),
            );
            tss_nodes += out.nodes;
            if let Some(proof) = out.proof {
                threat = Some(proof);
                break;
            }
        }
        let mut reason = Reason::Search;
        let mut roots = self.candidates(me, true);
        if let Some(proof) = threat {
            let (safe, used) =
                self.defences(me, &proof, &roots, budget.share(35, 100, 5 * TSS_FLOOR));
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
                .map(|t| t.saturating_sub(start.elapsed()) * 85 / 100),
            nodes: budget.nodes.map(|b| b.saturating_sub(tss_nodes).max(1)),
        };
        let (ranked, score, depth) = self.iterate(me, roots, left);
        let mut best = ranked[0];
        if reason == Reason::Search {
            // The best few by alpha-beta, in order: the first after which the opponent has no
            // threat sequence (alpha-beta's horizon is shorter than a VCT).
            let check = Budget {
                time: budget.time.map(|t| t.saturating_sub(start.elapsed()) / 5),
                nodes: budget.nodes.map(|_| TSS_FLOOR),
            };
            for &p in ranked.iter().take(SAFETY_CHECKS) {
                if start.elapsed() >= budget.time.unwrap_or(Duration::MAX) {
                    break;
                }
                let (refuted, _, nodes) = self.threat_after(p, me, check);
                tss_nodes += nodes;
                if !refuted {
                    best = p;
                    break;
                }
            }
        }
        Decision {
            best,
            reason,
            score: Some(score),
            depth,
            nodes: tss_nodes + self.nodes,
        }
    }

    /// The moves among `roots` that use the squares of the opponent's threat `proof` (or make a
    /// four or three of our own) after which the threat solver finds no VCF or VCT of the
    /// opponent: those proven safe if any, else those whose searches hit a limit, else those never
    /// tried for lack of budget (an empty answer: every candidate loses to a proven sequence).
    fn defences(
        &mut self,
        me: Color,
        proof: &Proof,
        roots: &[Point],
        budget: Budget,
    ) -> (Vec<Point>, u64) {
        let mut relevant = Bitboard::EMPTY;
        let mut stack = vec![proof];
        while let Some(node) = stack.pop() {
            match node {
                Proof::Five(p) => relevant |= tss::influence(self.pos.board(), *p),
                Proof::Threat { attack, replies } => {
                    relevant |= tss::influence(self.pos.board(), *attack);
                    for (reply, next) in replies {
                        relevant.insert(*reply);
                        stack.push(next);
                    }
                }
            }
        }
        let mine = self.pos.threats(me);
        relevant |= mine.four;
        relevant |= mine.three;
        let tries: Vec<Point> = roots
            .iter()
            .copied()
            .filter(|&p| relevant.contains(p))
            .collect();
        let deadline = budget.time.map(|t| Instant::now() + t);
        let mut used = 0;
        // Rounds of growing effort: a refutation (the opponent's win after the move) is usually
        // found fast, so a cheap first round drops most candidates, and the budget left goes to the
        // few survivors, each round four times deeper, until each is proven safe (both searches ran
        // to their depth without a win) or the budget is spent. What is left: proven safe, else
        // the survivors (a limit stopped their searches), else those never tried for lack of budget.
        let mut safe = Vec::new();
        let mut alive = tries;
        let mut untried = Vec::new();
        let mut per_try = TSS_FLOOR / 16;
        let mut first_round = true;
        loop {
            let mut next = Vec::new();
            let count = alive.len();
            for (k, &p) in alive.iter().enumerate() {
                let now = Instant::now();
                if deadline.is_some_and(|d| now >= d) || budget.nodes.is_some_and(|b| used >= b) {
                    if first_round {
                        untried.extend_from_slice(&alive[k..]);
                    } else {
                        next.extend_from_slice(&alive[k..]);
                    }
                    break;
                }
                // What is left, spread over the candidates still to try in this round (a quarter
                // of it in the first round, which should leave most of the budget to the rest).
                let left = (count - k) as u32 * if first_round { 4 } else { 1 };
                let per = Budget {
                    time: deadline.map(|d| (d - now) / left),
                    nodes: budget.nodes.map(|b| per_try.min(b - used).max(1)),
                };
                let (refuted, aborted, nodes) = self.threat_after(p, me, per);
                used += nodes;
                if !refuted {
                    if aborted {
                        next.push(p);
                    } else {
                        safe.push(p);
                    }
                }
            }
            let spent = deadline.is_some_and(|d| Instant::now() >= d)
                || budget.nodes.is_some_and(|b| used >= b);
            // Without any limit every search ran to the solver's own cap: another round would
            // repeat it.
            let unlimited = deadline.is_none() && budget.nodes.is_none();
            alive = next;
            if alive.is_empty() || spent || unlimited || per_try > 1 << 24 {
                break;
            }
            per_try *= 4;
            first_round = false;
        }
        if safe.is_empty() {
            safe = alive;
        }
        if safe.is_empty() {
            safe = untried;
        }
        // A four that defends only for a move hands the opponent a forced stone of its choosing;
        // keep fours in reserve when a quiet defence exists.
        let fours = self.pos.threats(me).four;
        if safe.iter().any(|&p| !fours.contains(p)) {
            safe.retain(|&p| !fours.contains(p));
        }
        (safe, used)
    }

    /// Whether the opponent has a VCF or VCT after `me` plays `p` (when `p` makes a four, after the
    /// opponent's forced block: a four that only delays the threat does not stop it). Returns
    /// (refuted, a search stopped at a limit, nodes).
    fn threat_after(&mut self, p: Point, me: Color, budget: Budget) -> (bool, bool, u64) {
        let o = !me;
        self.pos.make(p, me);
        let fives = self.pos.threats(me).five;
        if fives.count() >= 2 {
            // Two five points: the opponent cannot stop both.
            self.pos.unmake();
            return (false, false, 0);
        }
        let forced = first(fives);
        if let Some(q) = forced {
            self.pos.make(q, o);
        }
        let (mut refuted, mut aborted, mut nodes) = (false, false, 0);
        {
            for m in [Mode::Vcf, Mode::Vct] {
                let out = tss::solve(self.pos.board(), o, m, &budget.tss_limits(m));
                nodes += out.nodes;
                aborted |= out.aborted;
                if out.proof.is_some() {
                    refuted = true;
                    break;
                }
            }
        }
        if forced.is_some() {
            self.pos.unmake();
        }
        self.pos.unmake();
        (refuted, aborted, nodes)
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
        if !self.pos.threats(s).five.is_empty() {
            return MATE - ply - 1;
        }
        let their_fives = self.pos.threats(o).five;
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
        if !self.pos.threats(s).open_four.is_empty() {
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
        let theirs = self.pos.threats(o);
        let restrict = if theirs.open_four.is_empty() {
            None
        } else {
            Some(theirs.open_four | theirs.four | self.pos.threats(s).four)
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
