//! Threat-space search (after Allis, "Go-Moku and Threat-Space Search"): the attacker plays only
//! threats, so the defender's answers are few, and a win is a proof tree small enough to check.
//!
//! The search works on the real board (the per-colour class sets of [`Board::track_patterns`]):
//! - a **four** (gain square = the move, one five point afterwards) leaves the defender one cost
//!   square, the five point; a **straight four** or a **double four** leaves two five points: a win;
//! - a **three** (afterwards the attacker has a move that makes a straight four or a double four, a
//!   "win move") leaves the defender every move that takes all the attacker's win moves away (the cost
//!   squares, found by trying each square within reach of a win move) and, as Allis' refutation check
//!   demands, every counter-four and counter-five. Each of those replies is searched on the real
//!   board; a counter-four is answered by the attacker's forced block, which must itself be a threat.
//!
//! Because the defender's replies at every node are all the moves that do not lose at once (a move
//! that leaves a win move of the attacker open and makes no four loses to that win move), a proof is a
//! win against every defence; the independent [`super::referee`] checks this on every claim in the
//! tests. Modes: VCF (fours only) and VCT (fours and threes). Iterative deepening on the number of
//! attacker moves (1, 2, 3, then steps of three), a table of positions already failed at a depth (or
//! at every depth, when no depth cut-off touched the failure; the deepening then stops), and limits
//! on nodes and time. Move order: the attacker's threats strongest first (by the classes the move
//! makes and takes away), the defender's reply that last refuted a threat at the same depth first
//! (a killer move).

use std::collections::HashMap;
use std::time::Instant;

use super::primitives::{
    five_points, four_moves, influence_line, is_foul, is_win_move, key, minus, spoilers, stop_flag,
    stop_requested, three_moves, win_moves, Limits, Mode, Outcome, Proof,
};
use crate::{Bitboard, Board, Color, Point};

/// The searcher: one board, the attacker, the mode, the limits and the counters.
struct Search {
    board: Board,
    attacker: Color,
    mode: Mode,
    limits: Limits,
    start: Instant,
    nodes: u64,
    aborted: bool,
    /// The stop flag of [`super::with_stop`], if the search runs under one.
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    hash: u64,
    /// Positions (attacker to move) with no win within the stored number of attacker moves
    /// (`u32::MAX`: no win at any depth, the failure did not depend on the depth limit).
    failed: HashMap<u64, u32>,
    /// Whether the current subtree's result depended on the depth limit (a line cut off by it).
    limited: bool,
    /// The attacker's moves on the current line (the gain squares so far).
    gains: Vec<Point>,
    /// When set (the verifier of [`super::dbs`]), the attacker's threats are only these squares, in
    /// this order (win moves and forced blocks are always tried).
    allowed: Option<Vec<Point>>,
    /// With `allowed`: also every four of the attacker (after the allowed squares).
    fours_anywhere: bool,
    /// Per number of attacker moves left: the defender's reply that last held (refuted the
    /// attacker's threat). Tried first among the replies at the same depth, as a killer move.
    killers: Vec<Option<Point>>,
}

/// The depths of the iterative deepening: 1, 2, 3, then three attacker moves more each time, up
/// to `max`. Steps of one made every iteration redo the last one's tree for a single move more;
/// on the committed suite steps of three search about 30% fewer nodes (146,000 against 203,000)
/// and halve the slowest position, while a failure that does not depend on the depth still ends
/// the deepening at once.
fn deepening(max: u32) -> impl Iterator<Item = u32> {
    (1..=max.min(3))
        .chain((6..max).step_by(3))
        .chain((max > 3).then_some(max))
}

/// The full real-board search alone (no dependency-based first stage): the same contract as
/// [`solve`].
#[must_use]
pub fn search(board: &Board, attacker: Color, mode: Mode, limits: &Limits) -> Outcome {
    let mut s = Search::new(board, attacker, mode, limits, None);
    s.deepen(deepening(limits.depth))
}

/// The real-board search restricted to a candidate sequence: the attacker's threats are the squares
/// of `order` (tried in that order), its win moves, the forced blocks of the defender's fours and,
/// with `fours_anywhere`, every four (so that a counter-four can be met by a four with tempo);
/// the defender's replies are all of them, as in [`solve`] (cost squares, counter-fours and
/// counter-fives). Iterative deepening up to `depth` attacker moves. A proof is a real win.
pub(crate) fn verify(
    board: &Board,
    attacker: Color,
    mode: Mode,
    order: Vec<Point>,
    fours_anywhere: bool,
    depth: u32,
    limits: &Limits,
) -> Outcome {
    let mut s = Search::new(board, attacker, mode, limits, Some(order));
    s.fours_anywhere = fours_anywhere;
    s.deepen(1..=depth)
}

impl Search {
    /// Iterative deepening over `depths` (numbers of attacker moves), until a proof, a limit, or a
    /// failure that no depth cut-off touched (a deeper search would fail the same way).
    fn deepen(&mut self, depths: impl Iterator<Item = u32>) -> Outcome {
        let mut proof = None;
        for depth in depths {
            self.limited = false;
            proof = self.attack(depth);
            if proof.is_some() || self.aborted || !self.limited {
                break;
            }
        }
        Outcome {
            proof,
            nodes: self.nodes,
            aborted: self.aborted,
        }
    }

    fn new(
        board: &Board,
        attacker: Color,
        mode: Mode,
        limits: &Limits,
        allowed: Option<Vec<Point>>,
    ) -> Search {
        let mut b = board.clone();
        b.track_patterns();
        let mut hash = 0;
        for c in Color::ALL {
            for p in b.stones(c).iter() {
                hash ^= key(p, c);
            }
        }
        Search {
            board: b,
            attacker,
            mode,
            limits: *limits,
            start: Instant::now(),
            nodes: 0,
            aborted: false,
            stop: stop_flag(),
            hash,
            failed: HashMap::new(),
            limited: false,
            gains: Vec::new(),
            allowed,
            fours_anywhere: false,
            killers: vec![None; limits.depth as usize + 2],
        }
    }

    fn make(&mut self, p: Point, c: Color) {
        self.board.make(p, c);
        self.hash ^= key(p, c);
        self.nodes += 1;
    }

    fn unmake(&mut self, p: Point, c: Color) {
        self.board.unmake(p);
        self.hash ^= key(p, c);
    }

    fn out_of_budget(&mut self) -> bool {
        if !self.aborted
            && (self.nodes >= self.limits.nodes
                || (self.nodes & 255 == 0
                    && (self.limits.time.is_some_and(|t| self.start.elapsed() >= t)
                        || stop_requested(self.stop.as_ref()))))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Orders the attacker's threes, strongest first: by the classes the move makes for the
    /// attacker in its four directions (a three that is also a three or four on another line comes
    /// first), then by those it takes from the defender.
    fn order_threats(&self, moves: &mut [Point]) {
        const WEIGHT: [u32; 5] = [0, 4, 6, 16, 32];
        let a = self.attacker;
        let score = |p: Point| -> u32 {
            let own: u32 = self
                .board
                .patterns(p, a)
                .iter()
                .map(|&k| WEIGHT[k as usize])
                .sum();
            let theirs: u32 = self
                .board
                .patterns(p, !a)
                .iter()
                .map(|&k| WEIGHT[k as usize])
                .sum();
            2 * own + theirs
        };
        moves.sort_by_cached_key(|&p| std::cmp::Reverse(score(p)));
    }

    /// The attacker to move, with at most `depth` attacker moves left (the five included).
    fn attack(&mut self, depth: u32) -> Option<Proof> {
        let a = self.attacker;
        if let Some(p) = five_points(&self.board, a).iter().next() {
            return Some(Proof::Five(p));
        }
        if self.out_of_budget() {
            return None;
        }
        if depth <= 1 {
            self.limited = true;
            return None;
        }
        if let Some(&d) = self.failed.get(&self.hash) {
            if d >= depth {
                self.limited |= d != u32::MAX;
                return None;
            }
        }
        let outer = std::mem::replace(&mut self.limited, false);
        let proof = self.attack_moves(depth);
        let limited = self.limited;
        self.limited |= outer;
        if proof.is_none() && !self.aborted {
            let slot = self.failed.entry(self.hash).or_insert(0);
            *slot = if limited {
                (*slot).max(depth)
            } else {
                u32::MAX
            };
        }
        proof
    }

    /// [`Search::attack`] past its cut-offs: the attacker's threats, each with the defence.
    fn attack_moves(&mut self, depth: u32) -> Option<Proof> {
        let a = self.attacker;
        let theirs = five_points(&self.board, !a);
        let candidates: Vec<Point> = match theirs.count() {
            0 => {
                let wins = win_moves(&self.board, a);
                let fours = minus(four_moves(&self.board, a), wins);
                if let Some(order) = &self.allowed {
                    let mut threats = fours;
                    if self.mode == Mode::Vct && depth < 3 {
                        self.limited = true;
                    }
                    if self.mode == Mode::Vct && depth >= 3 {
                        threats |= three_moves(&self.board, a);
                    }
                    let mut v: Vec<Point> = wins
                        .iter()
                        .chain(order.iter().copied().filter(|&p| threats.contains(p)))
                        .collect();
                    if self.fours_anywhere {
                        v.extend(fours.iter().filter(|p| !order.contains(p)));
                    }
                    v
                } else {
                    let mut v: Vec<Point> = wins.iter().collect();
                    let mut fours: Vec<Point> = fours.iter().collect();
                    if self.mode == Mode::Vct {
                        self.order_threats(&mut fours);
                    }
                    v.extend(fours);
                    if self.mode == Mode::Vct && depth < 3 {
                        self.limited = true;
                    }
                    if self.mode == Mode::Vct && depth >= 3 {
                        // Dependency (Allis): after the first threat, a three must use a square within
                        // reach of an earlier gain square of the line; fours are always tried.
                        let mut threes = three_moves(&self.board, a);
                        if !self.gains.is_empty() {
                            let mut near = Bitboard::EMPTY;
                            for &g in &self.gains {
                                near |= influence_line(&self.board, g);
                            }
                            threes = threes & near;
                        }
                        let mut threes: Vec<Point> = threes.iter().collect();
                        self.order_threats(&mut threes);
                        v.extend(threes);
                    }
                    v
                }
            }
            // A five point of the defender must be blocked; the block must itself be a threat.
            1 => theirs
                .iter()
                .filter(|&p| !is_foul(&self.board, p, a))
                .collect(),
            _ => Vec::new(),
        };
        for m in candidates {
            self.make(m, a);
            self.gains.push(m);
            let replies = self.defend(depth - 1);
            self.gains.pop();
            self.unmake(m, a);
            if let Some(replies) = replies {
                return Some(Proof::Threat { attack: m, replies });
            }
            if self.aborted {
                return None;
            }
        }
        None
    }

    /// The defender to move after the attacker's threat; `depth` attacker moves left. The replies
    /// that need an answer, each answered, or `None` when one of them (or the lack of a threat) holds.
    fn defend(&mut self, depth: u32) -> Option<Vec<(Point, Proof)>> {
        let a = self.attacker;
        let d = !a;
        if !five_points(&self.board, d).is_empty() {
            return None;
        }
        let fives = five_points(&self.board, a);
        let mut it = fives.iter();
        match (it.next(), it.next()) {
            (Some(f1), Some(f2)) => {
                // Two five points: show a block of one answered by the other (under renju one
                // Black may play; none when both are forbidden to it).
                return Some(if !is_foul(&self.board, f1, d) {
                    vec![(f1, Proof::Five(f2))]
                } else if !is_foul(&self.board, f2, d) {
                    vec![(f2, Proof::Five(f1))]
                } else {
                    Vec::new()
                });
            }
            (Some(f), None) => {
                if is_foul(&self.board, f, d) {
                    // Renju: Black may not block there, and nothing else stops the five.
                    return Some(Vec::new());
                }
                self.make(f, d);
                let r = self.attack(depth);
                self.unmake(f, d);
                return r.map(|p| vec![(f, p)]);
            }
            _ => {}
        }
        if self.mode == Mode::Vcf {
            return None;
        }
        let wins = win_moves(&self.board, a);
        let first = wins.iter().next()?;
        // Cost squares: the moves that leave no win move, among those that could spoil every one
        // (a defender's stone lowers no class off the lines it sits on, and raises none).
        let mut near = spoilers(&self.board, first, a);
        for w in wins.iter().skip(1) {
            near = near & spoilers(&self.board, w, a);
        }
        // A defender's stone makes no new win move (it raises no class of the attacker's), so only
        // the win moves there are need a look after it, and only their own classes: a probe of the
        // line codes, not a full make.
        let mut replies: Vec<Point> = Vec::new();
        for x in near.iter() {
            if is_foul(&self.board, x, d) {
                continue;
            }
            self.board.probe_make(x, d);
            let stops = wins
                .iter()
                .all(|w| w == x || !is_win_move(&self.board, w, a));
            self.board.probe_unmake(x, d);
            if stops {
                replies.push(x);
            }
        }
        // Counter-fours (and straight fours) of the defender: the refutation check.
        for x in four_moves(&self.board, d).iter() {
            if !replies.contains(&x) {
                replies.push(x);
            }
        }
        if replies.is_empty() && !is_foul(&self.board, first, d) {
            // Nothing stops every win move: any reply loses; show one.
            replies.push(first);
        }
        // The reply that held last time at this depth first: in a failing subtree one holding reply
        // is enough, and the others need not be searched.
        if let Some(k) = self.killers[depth as usize] {
            if let Some(i) = replies.iter().position(|&x| x == k) {
                replies[..=i].rotate_right(1);
            }
        }
        let mut out = Vec::with_capacity(replies.len());
        for x in replies {
            self.make(x, d);
            let r = self.attack(depth);
            self.unmake(x, d);
            match r {
                Some(p) => out.push((x, p)),
                None => {
                    if !self.aborted {
                        self.killers[depth as usize] = Some(x);
                    }
                    return None;
                }
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::solve;
    use crate::{parse_position, Rule};

    fn board(text: &str, rule: Rule) -> Board {
        Board::from_grid(&parse_position(text, None).unwrap().grid, rule)
    }

    #[test]
    fn open_four_point_wins_in_two() {
        let b = board(
            ".......\n.......\n.XXX...\n.......\n.......\n.......\nOOO....\n",
            Rule::Freestyle,
        );
        let out = solve(&b, Color::Black, Mode::Vcf, &Limits::for_mode(Mode::Vcf));
        let proof = out.proof.expect("a win");
        assert_eq!(proof.line().len(), 3);
    }

    #[test]
    fn lone_stone_has_no_win() {
        let b = board(".....\n.....\n..X..\n.....\n.....\n", Rule::Freestyle);
        for mode in [Mode::Vcf, Mode::Vct] {
            assert!(solve(&b, Color::Black, mode, &Limits::for_mode(mode))
                .proof
                .is_none());
        }
    }
}
