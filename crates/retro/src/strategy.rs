//! Playing a solved game so that the game ends: value-keeping moves that make progress.
//!
//! The bounds of a state say what its side can *force the game to end with*: `lo` for Black, `hi`
//! for White (least fixed points, see the crate docs). Keeping the bound move after move is not
//! enough when the game has cycles: a move that keeps `lo` may lead back, by the opponent's reply,
//! to where it started, and a player that always picks such a move never ends the game (on 4x4 Go
//! the first value-keeping move, passes preferred, repeats "Black A1, White A3, Black A2, White
//! pass" for ever from move 16 of the principal variation). A winning strategy for a least fixed
//! point needs a progress measure: the number of plies within which the side can force an end at
//! its bound, its *attractor rank*. The results database stores only the bounds, so [`Forcing`]
//! computes the rank from the current state over the part of the game graph reachable from it
//! (the side's moves restricted to those that keep its bound, all the opponent's moves), by a
//! retrograde pass over that part, up to a limit of states. Within the limit the rank is exact; a
//! state whose forced end needs states beyond the limit gets none (an under-approximation: a rank
//! given is always a real forced end). Moving to a successor of least rank (an ending move when
//! one keeps the bound) lowers the rank every ply, so the game ends within that many plies.

use std::collections::HashMap;

use crate::graph::{Edge, GameGraph, Side};
use crate::{Bounds, NO_HI, NO_LO};

/// Attractor ranks towards an end at the bound of one side, from one state.
#[derive(Clone, Debug)]
pub struct Forcing {
    side: Side,
    target: i16,
    /// Plies to a forced end, per state reached (absent: no forced end within the explored part).
    rank: HashMap<u64, u32>,
    explored: usize,
    complete: bool,
}

/// Marks an edge to an end at the target in a node's successor list.
const GOOD_END: u32 = u32::MAX;
/// Marks an edge to an end that misses the target.
const BAD_END: u32 = u32::MAX - 1;

/// The part of the game explored from a root: states in discovery order and, for each expanded
/// one, its successor list (node ids, or [`GOOD_END`] / [`BAD_END`]).
struct Explored {
    states: Vec<u64>,
    succ: Vec<Vec<u32>>,
    /// Whether every reachable state was expanded within the limit.
    complete: bool,
}

/// Whether an end scored `score` reaches `side`'s `target`.
fn reaches(side: Side, target: i16, score: i16) -> bool {
    match side {
        Side::Black => score >= target,
        Side::White => score <= target,
    }
}

/// Whether bounds `b` still let `side` force `target`.
fn keeps(side: Side, target: i16, b: Bounds) -> bool {
    match side {
        Side::Black => b.lo >= target,
        Side::White => b.hi <= target,
    }
}

/// Breadth-first exploration from `root` of at most `limit` states: every move of the opponent,
/// and the moves of `side` that keep its bound.
fn explore<G: GameGraph + ?Sized>(
    game: &G,
    value: &impl Fn(u64) -> Bounds,
    root: u64,
    limit: usize,
    side: Side,
    target: i16,
) -> Explored {
    let mut id: HashMap<u64, u32> = HashMap::new();
    let mut states: Vec<u64> = vec![root];
    let mut succ: Vec<Vec<u32>> = Vec::new();
    id.insert(root, 0);
    let mut edges = Vec::new();
    let mut complete = true;
    while succ.len() < states.len() {
        let n = succ.len();
        if n >= limit {
            complete = false;
            break;
        }
        let s = states[n];
        edges.clear();
        game.edges(s, &mut edges);
        let mover = game.side(s) == side;
        let mut list = Vec::with_capacity(edges.len());
        for &e in &edges {
            match e {
                Edge::End(score) if reaches(side, target, score) => list.push(GOOD_END),
                Edge::End(_) => list.push(BAD_END),
                Edge::State(t) => {
                    if mover && !keeps(side, target, value(t)) {
                        continue;
                    }
                    let next = states.len() as u32;
                    let k = *id.entry(t).or_insert(next);
                    if k == next {
                        states.push(t);
                    }
                    list.push(k);
                }
            }
        }
        succ.push(list);
    }
    Explored {
        states,
        succ,
        complete,
    }
}

/// Retrograde over the expanded nodes: the rank (moves to a good end) of every node `side` can
/// force to one, `u32::MAX` elsewhere. The side's nodes need one ranked successor (or a good
/// end), the opponent's need all (an unexpanded node is never ranked).
fn ranks<G: GameGraph + ?Sized>(game: &G, side: Side, explored: &Explored) -> Vec<u32> {
    let Explored { states, succ, .. } = explored;
    let expanded = succ.len();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); states.len()];
    let mut pending: Vec<u32> = vec![0; expanded];
    let mut rank: Vec<u32> = vec![u32::MAX; states.len()];
    let mut queue: Vec<u32> = Vec::new();
    for n in 0..expanded {
        let mover = game.side(states[n]) == side;
        let list = &succ[n];
        for &k in list {
            if k < BAD_END {
                preds[k as usize].push(n as u32);
                pending[n] += 1;
            }
        }
        let has_good = list.contains(&GOOD_END);
        let has_bad = list.contains(&BAD_END);
        if mover {
            if has_good {
                rank[n] = 1;
                queue.push(n as u32);
            }
        } else if has_bad {
            // The opponent can end the game short of the target here: never forced.
            pending[n] = u32::MAX;
        } else if pending[n] == 0 {
            rank[n] = 1;
            queue.push(n as u32);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head] as usize;
        head += 1;
        let r = rank[u];
        for i in 0..preds[u].len() {
            let p = preds[u][i] as usize;
            if rank[p] != u32::MAX {
                continue;
            }
            if game.side(states[p]) == side {
                rank[p] = r + 1;
                queue.push(p as u32);
            } else if pending[p] != u32::MAX {
                pending[p] -= 1;
                if pending[p] == 0 {
                    rank[p] = r + 1;
                    queue.push(p as u32);
                }
            }
        }
    }
    rank
}

impl Forcing {
    /// The ranks towards an end at the bound of the side to move in `root` (Black's `lo`, White's
    /// `hi`), exploring at most `limit` states. `None` when that side can force no end at all.
    pub fn compute<G: GameGraph + ?Sized>(
        game: &G,
        value: impl Fn(u64) -> Bounds,
        root: u64,
        limit: usize,
    ) -> Option<Forcing> {
        let side = game.side(root);
        let here = value(root);
        let target = match side {
            Side::Black => here.lo,
            Side::White => here.hi,
        };
        if target == NO_LO || target == NO_HI {
            return None;
        }
        let explored = explore(game, &value, root, limit, side, target);
        let rank = ranks(game, side, &explored);
        let Explored {
            states,
            succ,
            complete,
        } = explored;
        let expanded = succ.len();
        let rank = states
            .iter()
            .zip(&rank)
            .filter(|&(_, &r)| r != u32::MAX)
            .map(|(&s, &r)| (s, r))
            .collect();
        Some(Forcing {
            side,
            target,
            rank,
            explored: expanded,
            complete,
        })
    }

    /// The side the ranks are for.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// Its bound: the end score it forces (at least this for Black, at most for White).
    #[must_use]
    pub fn target(&self) -> i16 {
        self.target
    }

    /// States expanded (at most the limit).
    #[must_use]
    pub fn explored(&self) -> usize {
        self.explored
    }

    /// Whether every state reachable under the restriction was expanded (then a state without a
    /// rank has no forced end at all, which the bounds rule out for the root).
    #[must_use]
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// Plies within which the side forces an end at its bound from state `s`, if known.
    #[must_use]
    pub fn plies(&self, s: u64) -> Option<u32> {
        self.rank.get(&s).copied()
    }

    /// The same after taking edge `e`: 0 for an end at the bound, `None` for an end short of it.
    #[must_use]
    pub fn edge_plies(&self, e: Edge) -> Option<u32> {
        match e {
            Edge::End(score) => {
                let good = match self.side {
                    Side::Black => score >= self.target,
                    Side::White => score <= self.target,
                };
                good.then_some(0)
            }
            Edge::State(t) => self.plies(t),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small cyclic game given by its edge lists; states alternate sides as listed.
    struct Toy(Vec<(Side, Vec<Edge>)>);

    impl GameGraph for Toy {
        fn num_states(&self) -> u64 {
            self.0.len() as u64
        }
        fn side(&self, s: u64) -> Side {
            self.0[s as usize].0
        }
        fn edges(&self, s: u64, out: &mut Vec<Edge>) {
            out.extend_from_slice(&self.0[s as usize].1);
        }
    }

    /// Black in 0 can go to 1, where White can only return to 0 (a cycle that keeps every bound),
    /// or to 2, where White ends the game at 5 or lets Black end it at 5 from 3.
    fn toy() -> Toy {
        use Edge::{End, State};
        Toy(vec![
            (Side::Black, vec![State(1), State(2)]),
            (Side::White, vec![State(0)]),
            (Side::White, vec![End(5), State(3)]),
            (Side::Black, vec![End(5), End(-3)]),
        ])
    }

    #[test]
    fn the_forcing_move_leaves_the_cycle() {
        let game = toy();
        let (values, _) = crate::sweep::solve(&game);
        assert_eq!(values[0].lo, 5);
        // Both of Black's moves keep lo = 5: the first one cycles.
        assert_eq!(values[1].lo, 5);
        assert_eq!(values[2].lo, 5);
        let f = Forcing::compute(&game, |s| values[s as usize], 0, 100).unwrap();
        assert_eq!(f.target(), 5);
        assert!(f.complete());
        assert_eq!(f.plies(3), Some(1));
        assert_eq!(f.plies(2), Some(2));
        assert_eq!(f.plies(0), Some(3));
        // State 1 is ranked too: White's only move leads to a ranked state.
        assert_eq!(f.plies(1), Some(4));
        assert_eq!(f.edge_plies(Edge::State(2)), Some(2));
        assert_eq!(f.edge_plies(Edge::End(5)), Some(0));
        assert_eq!(f.edge_plies(Edge::End(4)), None);
    }

    #[test]
    fn a_limit_gives_no_rank_rather_than_a_wrong_one() {
        let game = toy();
        let (values, _) = crate::sweep::solve(&game);
        let f = Forcing::compute(&game, |s| values[s as usize], 0, 2).unwrap();
        assert!(!f.complete());
        assert_eq!(f.explored(), 2);
        // States 0 and 1 were expanded, 2 was not: nothing is forced within what was seen.
        assert_eq!(f.plies(0), None);
    }

    #[test]
    fn white_forces_its_bound_too() {
        use Edge::{End, State};
        // White in 0 can pass the turn to 1 (Black must return) or end at -2.
        let game = Toy(vec![
            (Side::White, vec![State(1), End(-2)]),
            (Side::Black, vec![State(0)]),
        ]);
        let (values, _) = crate::sweep::solve(&game);
        assert_eq!(values[0].hi, -2);
        let f = Forcing::compute(&game, |s| values[s as usize], 0, 10).unwrap();
        assert_eq!(f.side(), Side::White);
        assert_eq!(f.plies(0), Some(1));
        assert_eq!(f.edge_plies(End(-2)), Some(0));
        assert_eq!(f.edge_plies(End(0)), None);
    }
}
