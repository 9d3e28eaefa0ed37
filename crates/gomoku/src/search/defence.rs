//! The defender's view of threat-space search: for the side to move that faces a winning threat
//! sequence of the opponent, the moves after which the solver finds no VCF or VCT for it. The one
//! routine the engine plays its defences from, and the tests check against the referee.

use std::time::Instant;

use super::{solve, Budget, Mode, Proof};
use crate::{Bitboard, Board, Color, Point};

/// The most nodes a single try may get before the rounds stop growing it.
const MAX_NODES_PER_TRY: u64 = 1 << 24;
/// How much each round multiplies the nodes per try.
const ROUND_GROWTH: u64 = 4;
/// The first round spreads its time over this many times the candidates left, keeping most of the
/// budget for the survivors.
const FIRST_ROUND_SPREAD: u32 = 4;

/// A position the defender's view can play on: a board with make and take-back, and the cells
/// where a stone makes a five or a four.
pub trait Playable {
    /// The stones, for the solver.
    fn board(&self) -> &Board;
    /// The empty cells where a stone of `c` completes a five.
    fn fives(&self, c: Color) -> Bitboard;
    /// The empty cells where a stone of `c` makes at least a four (no five).
    fn fours(&self, c: Color) -> Bitboard;
    /// Plays `c` on the empty cell `p`.
    fn play(&mut self, p: Point, c: Color);
    /// Takes back the stone on `p`, the last one played.
    fn take_back(&mut self, p: Point);
}

impl Playable for Board {
    fn board(&self) -> &Board {
        self
    }

    fn fives(&self, c: Color) -> Bitboard {
        self.pattern_sets(c).five
    }

    fn fours(&self, c: Color) -> Bitboard {
        let sets = self.pattern_sets(c);
        super::primitives::minus(sets.four | sets.open_four, sets.five)
    }

    fn play(&mut self, p: Point, c: Color) {
        self.make(p, c);
    }

    fn take_back(&mut self, p: Point) {
        self.unmake(p);
    }
}

/// The squares an opponent's threat `proof` uses: every attack's influence (the cells that can change
/// its class) and every listed reply. A defence outside them cannot touch the proof's threats.
#[must_use]
pub fn proof_squares(board: &Board, proof: &Proof) -> Bitboard {
    let mut relevant = Bitboard::EMPTY;
    let mut stack = vec![proof];
    while let Some(node) = stack.pop() {
        match node {
            Proof::Five(p) => relevant |= super::influence(board, *p),
            Proof::Threat { attack, replies } => {
                relevant |= super::influence(board, *attack);
                for (reply, next) in replies {
                    relevant.insert(*reply);
                    stack.push(next);
                }
            }
        }
    }
    relevant
}

/// What the solver found for the opponent after one candidate defence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The opponent has a VCF or VCT: the move does not defend.
    pub refuted: bool,
    /// A search stopped at a limit (a "not refuted" is then unproven).
    pub aborted: bool,
    /// Nodes searched.
    pub nodes: u64,
}

/// Whether the opponent has a VCF or VCT after `me` plays `p` (when `p` makes a four, after the
/// opponent's forced block: a four that only delays the threat does not stop it).
pub fn threat_after(pos: &mut impl Playable, p: Point, me: Color, budget: Budget) -> Verdict {
    let o = !me;
    pos.play(p, me);
    let fives = pos.fives(me);
    if fives.count() >= 2 {
        // Two five points: the opponent cannot stop both.
        pos.take_back(p);
        return Verdict {
            refuted: false,
            aborted: false,
            nodes: 0,
        };
    }
    let forced = fives.iter().next();
    if let Some(q) = forced {
        pos.play(q, o);
    }
    let mut verdict = Verdict {
        refuted: false,
        aborted: false,
        nodes: 0,
    };
    for m in [Mode::Vcf, Mode::Vct] {
        let out = solve(pos.board(), o, m, &budget.tss_limits(m));
        verdict.nodes += out.nodes;
        verdict.aborted |= out.aborted;
        if out.proof.is_some() {
            verdict.refuted = true;
            break;
        }
    }
    if let Some(q) = forced {
        pos.take_back(q);
    }
    pos.take_back(p);
    verdict
}

/// The moves among `tries` after which the threat solver finds no VCF or VCT of the opponent
/// ([`threat_after`]): those proven safe if any, else those whose searches hit a limit, else those
/// never tried for lack of budget (an empty answer: every candidate loses to a proven sequence).
/// Fours are dropped when a quiet defence is left. `first_try_nodes`: the nodes of each try in the
/// first round. Returns the moves and the nodes searched.
pub fn defences(
    pos: &mut impl Playable,
    me: Color,
    tries: Vec<Point>,
    budget: Budget,
    first_try_nodes: u64,
) -> (Vec<Point>, u64) {
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
    let mut per_try = first_try_nodes;
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
            let left = (count - k) as u32 * if first_round { FIRST_ROUND_SPREAD } else { 1 };
            let per = Budget {
                time: deadline.map(|d| (d - now) / left),
                nodes: budget.nodes.map(|b| per_try.min(b - used).max(1)),
            };
            let verdict = threat_after(pos, p, me, per);
            used += verdict.nodes;
            if !verdict.refuted {
                if verdict.aborted {
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
        if alive.is_empty() || spent || unlimited || per_try > MAX_NODES_PER_TRY {
            break;
        }
        per_try *= ROUND_GROWTH;
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
    let fours = pos.fours(me);
    if safe.iter().any(|&p| !fours.contains(p)) {
        safe.retain(|&p| !fours.contains(p));
    }
    (safe, used)
}
