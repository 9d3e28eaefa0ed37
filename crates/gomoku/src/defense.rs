//! The defender's view of threat-space search: for the side to move, the moves that stop every
//! winning threat sequence the opponent has (the engine plays only those when there is a threat).
//!
//! Guarantees (for the mode and limits given):
//! - a move left out of [`Defense::moves`] loses: after it the solver proves a win for the opponent
//!   (a proof tree the [`crate::referee`] accepts);
//! - a move in the set leaves the opponent no win the solver finds within the limits; in VCF mode,
//!   with a search that ran to its depth, that means no VCF of that depth at all (the VCF search is
//!   complete); a VCT or a win beyond the threat classes may remain;
//! - an empty set with a threat means every move loses to a proven sequence.

use crate::tss::{five_points, solve, Limits, Mode, Proof};
use crate::{Bitboard, Board, Color, Point};

/// What the side to move must do about the opponent's threats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defense {
    /// The opponent's win if the side to move passed (`None`: no threat found, any move will do).
    pub threat: Option<Proof>,
    /// The moves that stop every win of the opponent the solver finds (every empty point when there
    /// is no threat; the own five points when the side to move can win at once).
    pub moves: Bitboard,
    /// Nodes searched in all.
    pub nodes: u64,
}

/// The defender's view for `defender`, who moves next. `limits` apply to each search (one for the
/// threat, then one per empty point when there is a threat).
#[must_use]
pub fn defenses(board: &Board, defender: Color, mode: Mode, limits: &Limits) -> Defense {
    let own = five_points(board, defender);
    if !own.is_empty() {
        return Defense {
            threat: None,
            moves: own,
            nodes: 0,
        };
    }
    let first = solve(board, !defender, mode, limits);
    let mut nodes = first.nodes;
    let n = board.size() as u8;
    let empties = (0..n)
        .flat_map(|y| (0..n).map(move |x| Point::new(x, y)))
        .filter(|&p| board.stone(p).is_none());
    let Some(threat) = first.proof else {
        return Defense {
            threat: None,
            moves: empties.collect(),
            nodes,
        };
    };
    let mut moves = Bitboard::EMPTY;
    let mut b = board.clone();
    for x in empties.collect::<Vec<_>>() {
        b.make(x, defender);
        let out = solve(&b, !defender, mode, limits);
        b.unmake(x);
        nodes += out.nodes;
        if out.proof.is_none() {
            moves.insert(x);
        }
    }
    Defense {
        threat: Some(threat),
        moves,
        nodes,
    }
}
