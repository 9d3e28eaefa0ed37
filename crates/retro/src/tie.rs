//! The reference for the tie convention (an endless game scores 0): each state's value solved
//! directly, one threshold at a time, by attractors over the whole graph, without `lo` or `hi`.
//!
//! For a threshold `t`, Black "reaches `t`" when he can make the outcome at least `t`, an endless
//! game counting 0. For `t > 0` that is a reachability game: the states from which Black can force
//! an end worth `t` or more (Black's attractor of those ends). For `t <= 0` it is a safety game:
//! every state outside White's attractor of the ends worth less than `t`. A state's value is the
//! largest threshold it reaches among the end scores and 0. Each attractor is grown by sweeps
//! until a sweep adds nothing: slow, and written to be obviously right; [`crate::Bounds::tie_value`]
//! of the solvers' bounds must give the same values.

use crate::{Edge, GameGraph, Side};

/// Every state's value when an endless game scores 0.
pub fn solve<G: GameGraph + ?Sized>(game: &G) -> Vec<i16> {
    let n = game.num_states() as usize;
    let mut edges = Vec::new();
    let mut thresholds = vec![0i16];
    for s in 0..n {
        edges.clear();
        game.edges(s as u64, &mut edges);
        thresholds.extend(edges.iter().filter_map(|e| match *e {
            Edge::End(v) => Some(v),
            Edge::State(_) => None,
        }));
    }
    thresholds.sort_unstable();
    thresholds.dedup();
    // Every outcome is one of the thresholds, so every state reaches the lowest.
    let mut value = vec![thresholds[0]; n];
    for &t in &thresholds[1..] {
        let reached = if t > 0 {
            attractor(game, Side::Black, |v| v >= t)
        } else {
            let lost = attractor(game, Side::White, |v| v < t);
            lost.iter().map(|&l| !l).collect()
        };
        for (v, r) in value.iter_mut().zip(reached) {
            if r {
                *v = t;
            }
        }
    }
    value
}

/// The states from which `side` can force an end whose score satisfies `goal`.
fn attractor<G: GameGraph + ?Sized>(game: &G, side: Side, goal: impl Fn(i16) -> bool) -> Vec<bool> {
    let n = game.num_states() as usize;
    let mut inside = vec![false; n];
    let mut edges = Vec::new();
    loop {
        let mut grew = false;
        for s in 0..n {
            if inside[s] {
                continue;
            }
            edges.clear();
            game.edges(s as u64, &mut edges);
            let good = |e: &Edge| match *e {
                Edge::End(v) => goal(v),
                Edge::State(t) => inside[t as usize],
            };
            let forced = if game.side(s as u64) == side {
                edges.iter().any(good)
            } else {
                edges.iter().all(good)
            };
            if forced {
                inside[s] = true;
                grew = true;
            }
        }
        if !grew {
            return inside;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-state cycle where Black may also end at +3 and White at -2.
    struct Loop;

    impl GameGraph for Loop {
        fn num_states(&self) -> u64 {
            2
        }
        fn side(&self, s: u64) -> Side {
            if s == 0 {
                Side::Black
            } else {
                Side::White
            }
        }
        fn edges(&self, s: u64, out: &mut Vec<Edge>) {
            if s == 0 {
                out.extend([Edge::State(1), Edge::End(-5)]);
            } else {
                out.extend([Edge::State(0), Edge::End(3)]);
            }
        }
    }

    #[test]
    fn endless_play_scores_zero() {
        // Black cycles (0) rather than end at -5; White cycles rather than end at +3.
        assert_eq!(solve(&Loop), vec![0, 0]);
        let (bounds, _) = crate::sweep::solve(&Loop);
        assert_eq!(
            bounds.iter().map(|b| b.tie_value()).collect::<Vec<_>>(),
            vec![0, 0]
        );
    }
}
