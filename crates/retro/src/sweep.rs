//! The reference solver: plain value sweeps.
//!
//! Every state starts at [`Bounds::UNKNOWN`]; each sweep recomputes every state from its edges'
//! current bounds, until a sweep changes nothing. `lo` only rises and `hi` only falls, so this is
//! Kleene iteration from the bottom (for `lo`) and from the top (for `hi`) of the same monotone
//! operator, and it stops at its least and greatest fixed points. Slow and memory-light; written
//! to be obviously right.

use crate::graph::combine;
use crate::{Bounds, Edge, GameGraph};

/// Solves every state. Returns the bounds and the number of sweeps made.
pub fn solve<G: GameGraph + ?Sized>(game: &G) -> (Vec<Bounds>, usize) {
    let n = game.num_states() as usize;
    let mut values = vec![Bounds::UNKNOWN; n];
    let mut edges = Vec::new();
    let mut sweeps = 0;
    loop {
        sweeps += 1;
        let mut changed = false;
        for s in 0..n {
            edges.clear();
            game.edges(s as u64, &mut edges);
            let next = combine(
                game.side(s as u64),
                edges.iter().map(|e| match *e {
                    Edge::End(score) => Bounds::end(score),
                    Edge::State(t) => values[t as usize],
                }),
            );
            if next != values[s] {
                values[s] = next;
                changed = true;
            }
        }
        if !changed {
            return (values, sweeps);
        }
    }
}
