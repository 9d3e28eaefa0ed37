//! Threat-space search on a board: the shared threat primitives, the real-board search and its
//! verifier ([`tss`]), the dependency-based search ([`dbs`]), the defender's view ([`defence`]), the
//! independent [`referee`] that checks proofs, the per-line threat listing ([`line_threats`]), and
//! the format of the committed solver [`suite`].
//!
//! Layers, no cycle: `primitives` <- `tss` <- `dbs` <- [`solve`] (here), which runs both stages.

pub mod budget;
pub mod dbs;
pub mod defence;
pub mod line_threats;
mod primitives;
pub mod referee;
pub mod suite;
pub mod tss;

use std::time::Instant;

pub use budget::Budget;
pub use primitives::{
    five_points, four_moves, influence, three_moves, win_moves, with_stop, Limits, Mode, Outcome,
    Proof,
};

use crate::{Board, Color};

/// Searches for a win of `attacker`, who moves next (whatever the stone counts say: when the other
/// side is to move, this is the threat it faces if it passes). The board must hold no five.
///
/// Two stages: first the dependency-based search of [`dbs`] (threat space, with its
/// combination stage; every candidate it finds is verified on the real board by [`tss`]'s
/// search restricted to the candidate's squares), then, when it proves nothing, the full real-board
/// search of [`tss`] with what is left of the limits. A proof is always a real-board proof tree.
#[must_use]
pub fn solve(board: &Board, attacker: Color, mode: Mode, limits: &Limits) -> Outcome {
    let start = Instant::now();
    let first = dbs::search(board, attacker, mode, limits, &dbs::Options::default());
    if first.proof.is_some() {
        return Outcome {
            proof: first.proof,
            nodes: first.nodes,
            aborted: false,
        };
    }
    let rest = Limits {
        nodes: limits.nodes.saturating_sub(first.nodes),
        time: limits.time.map(|t| t.saturating_sub(start.elapsed())),
        ..*limits
    };
    let mut out = tss::search(board, attacker, mode, &rest);
    out.nodes += first.nodes;
    out
}
