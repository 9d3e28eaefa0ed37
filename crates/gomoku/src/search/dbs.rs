//! Dependency-based search in threat space (Allis, "Go-Moku and Threat-Space Search", ch. 3 and 5),
//! the first stage of [`super::solve`].
//!
//! **Threat space.** A node is a set of attacker threats played one after the other: each threat is
//! a gain square (the attacker's move, one line through it) and its cost squares (the defender's
//! answers on that line: the five point of a four; for a three, every square that leaves the line no
//! straight four). On the node's board the attacker holds every gain square and the defender holds
//! **every** cost square at once, so the defender's choice never has to be branched on.
//!
//! **Dependency stage.** Below a node, only threats that depend on it are added: threats on a line
//! through its gain square, within the rule's reach (the gain square is then a rest square of the
//! new threat). The stage runs depth first until no dependent threat is left.
//!
//! **Combination stage.** Two nodes from different branches (neither's gains hold the other's) that
//! are not in conflict (no gain square of one is a cost square of the other) and whose own gain
//! squares share a line are joined: the new node holds both sets of threats. The next dependency
//! stage adds below it only the threats that line up with own gains of **both** parents, that is the
//! threats neither tree could make alone. Stages alternate until nothing new appears.
//!
//! **Goal.** A node whose board gives the attacker a five point or a win move (a straight four or a
//! double four): a double threat the defender, even holding every cost square, cannot stop.
//!
//! **Refutation check.** Threat space ignores the defender's own threats. Each goal node's gain
//! squares are therefore a *candidate* sequence, verified on the real board by
//! [`super::tss`]'s search restricted to those squares (and the attacker's win moves and forced
//! blocks), where the defender may play any cost square and any counter-four or counter-five. A
//! refuted candidate is remembered and the search goes on. Only a verified proof tree is reported, so
//! a proof from here is exactly as sound as one from the full search; a failure here proves nothing
//! (the caller then runs the full search).

use std::collections::{HashSet, VecDeque};
use std::time::Instant;

use super::primitives::{
    five_points, influence_line, minus, stop_flag, stop_requested, win_moves, Limits, Mode, Proof,
};
use super::tss;
use crate::{Bitboard, Board, Color, Direction, Pattern, Point};

/// Knobs of the dependency-based search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Run the combination stage (off: dependency stage only, for comparison).
    pub combination: bool,
    /// The most threat-space nodes (threat and combination nodes).
    pub max_nodes: usize,
    /// The most candidate sequences verified on the real board.
    pub max_candidates: usize,
    /// The most real-board nodes of one verification.
    pub verify_nodes: u64,
    /// Let the verification add any four of the attacker to the candidate's squares.
    pub verify_fours: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            combination: true,
            max_nodes: 3_000,
            max_candidates: 2,
            verify_nodes: 5_000,
            verify_fours: true,
        }
    }
}

/// What the dependency-based search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbsOutcome {
    /// A real-board proof (checked like any proof of [`super::solve`]).
    pub proof: Option<Proof>,
    /// Work done: threat-space moves plus the verifier's real-board nodes.
    pub nodes: u64,
    /// Threat nodes added by the dependency stages.
    pub threat_nodes: usize,
    /// Nodes added by the combination stages.
    pub combination_nodes: usize,
    /// Candidate sequences (goal nodes) verified on the real board.
    pub candidates: usize,
    /// Candidates the verification refuted.
    pub refuted: usize,
    /// Whether the proof came from a goal node made by the combination stage (or below one).
    pub via_combination: bool,
}

/// One node of the threat-space tree.
#[derive(Clone, Debug)]
struct Node {
    /// The gain squares, in the order they were added.
    gains: Vec<Point>,
    gain_set: Bitboard,
    cost_set: Bitboard,
    /// A threat added below this node must line up (same line, within reach) with a square of each
    /// non-empty set: the gain square of a threat node; each parent's own gains of a combination.
    deps: [Bitboard; 2],
    /// Made by (or below) a combination.
    combined: bool,
}

struct Dbs<'a> {
    root: &'a Board,
    board: Board,
    attacker: Color,
    mode: Mode,
    limits: Limits,
    opts: Options,
    start: Instant,
    nodes: Vec<Node>,
    seen: HashSet<(Bitboard, Bitboard)>,
    refuted: HashSet<Bitboard>,
    /// The squares on the lines through each point within reach, filled on demand.
    lines: Vec<Option<Bitboard>>,
    max_gains: usize,
    work: u64,
    candidates: usize,
    refuted_count: usize,
    threat_nodes: usize,
    combination_nodes: usize,
    proof: Option<(Proof, bool)>,
    stop: bool,
    /// The stop flag of [`super::with_stop`], if the search runs under one.
    stop_flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// The dependency-based search for a win of `attacker`, who moves next. `limits` bound the whole
/// search (its depth: the most attacker moves of a candidate, the five included).
#[must_use]
pub fn search(
    board: &Board,
    attacker: Color,
    mode: Mode,
    limits: &Limits,
    opts: &Options,
) -> DbsOutcome {
    let mut b = board.clone();
    b.track_patterns();
    let mut out = DbsOutcome {
        proof: None,
        nodes: 0,
        threat_nodes: 0,
        combination_nodes: 0,
        candidates: 0,
        refuted: 0,
        via_combination: false,
    };
    if let Some(p) = five_points(&b, attacker).iter().next() {
        out.proof = Some(Proof::Five(p));
        return out;
    }
    // A five point of the defender must be blocked first: left to the full search.
    if !five_points(&b, !attacker).is_empty() || limits.depth < 2 {
        return out;
    }
    let n = b.size();
    let mut s = Dbs {
        root: board,
        board: b,
        attacker,
        mode,
        limits: *limits,
        opts: *opts,
        start: Instant::now(),
        nodes: Vec::new(),
        seen: HashSet::new(),
        refuted: HashSet::new(),
        lines: vec![None; n * n],
        max_gains: limits.depth.saturating_sub(2) as usize,
        work: 0,
        candidates: 0,
        refuted_count: 0,
        threat_nodes: 0,
        combination_nodes: 0,
        proof: None,
        stop: false,
        stop_flag: stop_flag(),
    };
    s.run();
    out.nodes = s.work;
    out.threat_nodes = s.threat_nodes;
    out.combination_nodes = s.combination_nodes;
    out.candidates = s.candidates;
    out.refuted = s.refuted_count;
    if let Some((p, combined)) = s.proof {
        out.proof = Some(p);
        out.via_combination = combined;
    }
    out
}

/// The direction of the line through `g` and `h` when `h` lies on it within `reach` of `g`.
fn aligned(g: Point, h: Point, reach: i32) -> Option<Direction> {
    let dx = i32::from(h.x) - i32::from(g.x);
    let dy = i32::from(h.y) - i32::from(g.y);
    if (dx, dy) == (0, 0) || dx.abs().max(dy.abs()) > reach {
        return None;
    }
    if dy == 0 {
        Some(Direction::Horizontal)
    } else if dx == 0 {
        Some(Direction::Vertical)
    } else if dx == dy {
        Some(Direction::Diagonal)
    } else if dx == -dy {
        Some(Direction::AntiDiagonal)
    } else {
        None
    }
}

impl Dbs<'_> {
    fn out_of_budget(&mut self) -> bool {
        if !self.stop
            && (self.work >= self.limits.nodes
                || self.nodes.len() >= self.opts.max_nodes
                || self.candidates >= self.opts.max_candidates
                || self.limits.time.is_some_and(|t| self.start.elapsed() >= t)
                || stop_requested(self.stop_flag.as_ref()))
        {
            self.stop = true;
        }
        self.stop
    }

    fn line_set(&mut self, p: Point) -> Bitboard {
        let i = p.y as usize * self.board.size() + p.x as usize;
        if let Some(b) = self.lines[i] {
            return b;
        }
        let b = influence_line(&self.board, p);
        self.lines[i] = Some(b);
        b
    }

    fn lines_of(&mut self, set: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for p in set.iter() {
            out |= self.line_set(p);
        }
        out
    }

    fn run(&mut self) {
        let root = Node {
            gains: Vec::new(),
            gain_set: Bitboard::EMPTY,
            cost_set: Bitboard::EMPTY,
            deps: [Bitboard::EMPTY; 2],
            combined: false,
        };
        self.nodes.push(root);
        let mut pending = VecDeque::from([0]);
        let mut combined_upto = 0;
        loop {
            // Dependency stage, breadth first: shorter candidates are verified first, and every
            // branch gets its turn.
            while let Some(idx) = pending.pop_front() {
                self.expand(idx, &mut pending);
                if self.out_of_budget() {
                    return;
                }
            }
            if !self.opts.combination {
                return;
            }
            // Combination stage: every node new since the last one with every other node.
            let end = self.nodes.len();
            for i in combined_upto..end {
                for j in 0..i {
                    if let Some(idx) = self.combine(i, j) {
                        pending.push_back(idx);
                    }
                    if self.out_of_budget() {
                        return;
                    }
                }
            }
            combined_upto = end;
            if pending.is_empty() {
                return;
            }
        }
    }

    fn set_state(&mut self, idx: usize, on: bool) {
        let (gains, costs) = (self.nodes[idx].gain_set, self.nodes[idx].cost_set);
        let a = self.attacker;
        if on {
            for p in gains.iter() {
                self.board.make(p, a);
            }
            for p in costs.iter() {
                self.board.make(p, !a);
            }
            self.work += u64::from(gains.count() + costs.count());
        } else {
            for p in costs.iter().chain(gains.iter()) {
                self.board.unmake(p);
            }
        }
    }

    /// Sets the board to the node's state; a goal (the root or a combination node) is verified,
    /// otherwise the node's dependent threats become its children, queued in `pending`.
    fn expand(&mut self, idx: usize, pending: &mut VecDeque<usize>) {
        self.set_state(idx, true);
        // Threat nodes were checked for the goal when made; the root and combinations are here.
        let fresh = idx == 0 || !self.nodes[idx].deps[1].is_empty();
        if fresh && self.is_goal() {
            self.candidate(idx);
        } else {
            self.dependency(idx, pending);
        }
        self.set_state(idx, false);
    }

    fn is_goal(&self) -> bool {
        let a = self.attacker;
        !five_points(&self.board, a).is_empty() || !win_moves(&self.board, a).is_empty()
    }

    /// The threats of the attacker on the board (the node's state) that depend on the node: gain
    /// square, direction, class; fours first.
    fn dependent_threats(&mut self, deps: [Bitboard; 2]) -> Vec<(Point, Direction, Pattern)> {
        let a = self.attacker;
        let sets = self.board.pattern_sets(a);
        let mut cells = sets.four;
        if self.mode == Mode::Vct {
            cells |= sets.open_three;
        }
        for dep in deps {
            if !dep.is_empty() {
                cells = cells & self.lines_of(dep);
            }
        }
        let reach = self.board.rule().reach() as i32;
        let mut fours = Vec::new();
        let mut threes = Vec::new();
        for g in cells.iter() {
            for d in Direction::ALL {
                let pat = self.board.pattern(g, d, a);
                let wanted =
                    pat == Pattern::Four || (self.mode == Mode::Vct && pat == Pattern::OpenThree);
                if !wanted {
                    continue;
                }
                let lines_up = deps.iter().all(|dep| {
                    dep.is_empty() || dep.iter().any(|h| aligned(g, h, reach) == Some(d))
                });
                if !lines_up {
                    continue;
                }
                if pat == Pattern::Four {
                    fours.push((g, d, pat));
                } else {
                    threes.push((g, d, pat));
                }
            }
        }
        fours.extend(threes);
        fours
    }

    /// The empty squares on the line through `g` in direction `d` within reach.
    fn line_empties(&self, g: Point, d: Direction) -> Vec<Point> {
        let n = self.board.size() as i32;
        let reach = self.board.rule().reach() as i32;
        let (dx, dy) = d.step();
        (-reach..=reach)
            .filter_map(|k| {
                let (x, y) = (i32::from(g.x) + k * dx, i32::from(g.y) + k * dy);
                ((0..n).contains(&x) && (0..n).contains(&y))
                    .then(|| Point::new(x as u8, y as u8))
                    .filter(|&q| self.board.stone(q).is_none())
            })
            .collect()
    }

    /// The cost squares of the threat just made at `g` (on the board) in direction `d`.
    fn costs(&mut self, g: Point, d: Direction, pat: Pattern) -> Vec<Point> {
        let a = self.attacker;
        let empties = self.line_empties(g, d);
        if pat == Pattern::Four {
            return empties
                .into_iter()
                .filter(|&q| self.board.pattern(q, d, a) == Pattern::Five)
                .collect();
        }
        let mut out = Vec::new();
        for &q in &empties {
            self.board.make(q, !a);
            let open = empties
                .iter()
                .any(|&r| r != q && self.board.pattern(r, d, a) >= Pattern::OpenFour);
            self.board.unmake(q);
            if !open {
                out.push(q);
            }
        }
        self.work += empties.len() as u64;
        out
    }

    /// The dependent threats of the node `idx`, whose state is on the board: each becomes a child
    /// node; a goal child is verified at once, the others are queued.
    fn dependency(&mut self, idx: usize, pending: &mut VecDeque<usize>) {
        if self.nodes[idx].gains.len() >= self.max_gains {
            return;
        }
        let deps = self.nodes[idx].deps;
        for (g, d, pat) in self.dependent_threats(deps) {
            if self.out_of_budget() {
                return;
            }
            let a = self.attacker;
            self.board.make(g, a);
            let costs = self.costs(g, d, pat);
            let parent = &self.nodes[idx];
            let mut gain_set = parent.gain_set;
            gain_set.insert(g);
            let mut cost_set = parent.cost_set;
            for &q in &costs {
                cost_set.insert(q);
            }
            if costs.is_empty() || !self.seen.insert((gain_set, cost_set)) {
                self.board.unmake(g);
                continue;
            }
            let mut gains = parent.gains.clone();
            gains.push(g);
            let combined = parent.combined;
            for &q in &costs {
                self.board.make(q, !a);
            }
            self.work += 1 + costs.len() as u64;
            let mut dep = Bitboard::EMPTY;
            dep.insert(g);
            self.nodes.push(Node {
                gains,
                gain_set,
                cost_set,
                deps: [dep, Bitboard::EMPTY],
                combined,
            });
            self.threat_nodes += 1;
            let child = self.nodes.len() - 1;
            let goal = self.is_goal();
            for &q in &costs {
                self.board.unmake(q);
            }
            self.board.unmake(g);
            if goal {
                // The verifier works from the root position: the board is back to this node's.
                self.candidate(child);
                if self.stop {
                    return;
                }
            } else {
                pending.push_back(child);
            }
        }
    }

    /// The combination of nodes `i` and `j`, when they are from different branches, not in conflict,
    /// and their own gains share a line; the new node's index.
    fn combine(&mut self, i: usize, j: usize) -> Option<usize> {
        let (ai, bi) = (&self.nodes[i], &self.nodes[j]);
        let a_own = minus(ai.gain_set, bi.gain_set);
        let b_own = minus(bi.gain_set, ai.gain_set);
        if a_own.is_empty() || b_own.is_empty() {
            return None;
        }
        if !(ai.gain_set & bi.cost_set).is_empty() || !(ai.cost_set & bi.gain_set).is_empty() {
            return None;
        }
        let gain_set = ai.gain_set | bi.gain_set;
        if gain_set.count() as usize > self.max_gains {
            return None;
        }
        let cost_set = ai.cost_set | bi.cost_set;
        if self.seen.contains(&(gain_set, cost_set)) {
            return None;
        }
        if (self.lines_of(a_own) & b_own).is_empty() {
            return None;
        }
        self.seen.insert((gain_set, cost_set));
        // Allis: a combination is kept only when it gives something neither tree had: a goal, or a
        // threat that lines up with own gains of both.
        let a = self.attacker;
        for p in gain_set.iter() {
            self.board.make(p, a);
        }
        for p in cost_set.iter() {
            self.board.make(p, !a);
        }
        self.work += u64::from(gain_set.count() + cost_set.count());
        let useful = self.is_goal() || !self.dependent_threats([a_own, b_own]).is_empty();
        for p in cost_set.iter().chain(gain_set.iter()) {
            self.board.unmake(p);
        }
        if !useful {
            return None;
        }
        let (ai, bi) = (&self.nodes[i], &self.nodes[j]);
        let mut gains = ai.gains.clone();
        gains.extend(bi.gains.iter().filter(|&&p| !ai.gain_set.contains(p)));
        let node = Node {
            gains,
            gain_set,
            cost_set,
            deps: [a_own, b_own],
            combined: true,
        };
        self.nodes.push(node);
        self.combination_nodes += 1;
        self.work += 1;
        Some(self.nodes.len() - 1)
    }

    /// Verifies the goal node `idx` on the real board.
    fn candidate(&mut self, idx: usize) {
        let node = &self.nodes[idx];
        if !self.refuted.insert(node.gain_set) {
            return;
        }
        self.candidates += 1;
        let order = node.gains.clone();
        let combined = node.combined;
        let depth = self.limits.depth;
        let left = self.limits.nodes.saturating_sub(self.work);
        let lim = Limits {
            depth,
            nodes: left.min(self.opts.verify_nodes),
            time: self
                .limits
                .time
                .map(|t| t.saturating_sub(self.start.elapsed())),
        };
        let out = tss::verify(
            self.root,
            self.attacker,
            self.mode,
            order,
            self.opts.verify_fours,
            depth,
            &lim,
        );
        self.work += out.nodes;
        match out.proof {
            Some(p) => {
                self.proof = Some((p, combined));
                self.stop = true;
            }
            None => self.refuted_count += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::referee;
    use crate::{parse_position, Rule};

    /// A 10x10 standard-rule position (found by searching random games for one) where White's only
    /// threat-space win joins two independent threat trees: the dependency stage alone finds no
    /// candidate, the combination stage does, and the real-board proof passes the referee.
    #[test]
    fn combination_stage_joins_two_trees() {
        let text = ".O......O.\n\
                    .OX.O.XXO.\n\
                    ......O...\n\
                    .X.X.OO...\n\
                    ....O....O\n\
                    .X..O..XO.\n\
                    O.....XO..\n\
                    ..X.XXO..X\n\
                    .....XOX..\n\
                    ......XXX.\n";
        let grid = parse_position(text, None).unwrap().grid;
        let board = Board::from_grid(&grid, Rule::Standard);
        let lim = Limits::for_mode(Mode::Vcf);
        let big = Options {
            max_nodes: 100_000,
            max_candidates: 1_000,
            ..Options::default()
        };
        let with = search(&board, Color::White, Mode::Vcf, &lim, &big);
        assert!(with.combination_nodes > 0);
        assert!(
            with.via_combination,
            "the win comes from a combination node"
        );
        let proof = with.proof.expect("a win");
        referee::check_proof(&grid, Rule::Standard, Color::White, &proof).unwrap();
        let without = search(
            &board,
            Color::White,
            Mode::Vcf,
            &lim,
            &Options {
                combination: false,
                ..big
            },
        );
        assert!(without.proof.is_none(), "dependency stage alone finds it");
        assert_eq!(without.combination_nodes, 0);
        // The full solver finds a win too (the combination stage runs first inside it).
        let out = super::super::solve(&board, Color::White, Mode::Vcf, &lim);
        referee::check_proof(&grid, Rule::Standard, Color::White, &out.proof.unwrap()).unwrap();
    }

    #[test]
    fn empty_and_one_stone_boards_have_no_candidate_win() {
        for size in 5..=8 {
            for rule in Rule::ALL {
                let empty = Board::new(size, rule).unwrap();
                for mode in [Mode::Vcf, Mode::Vct] {
                    let lim = Limits::for_mode(mode);
                    let o = Options::default();
                    assert!(search(&empty, Color::Black, mode, &lim, &o).proof.is_none());
                    for y in 0..size as u8 {
                        for x in 0..size as u8 {
                            let mut b = empty.clone();
                            b.make(Point::new(x, y), Color::Black);
                            for c in Color::ALL {
                                assert!(search(&b, c, mode, &lim, &o).proof.is_none());
                            }
                        }
                    }
                }
            }
        }
    }
}
