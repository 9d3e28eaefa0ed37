//! The game graph a solver works on.

/// Who moves in a state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Black moves: he maximises the score.
    Black,
    /// White moves: she minimises the score.
    White,
}

/// One move out of a state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Edge {
    /// The move leads to another state.
    State(u64),
    /// The move ends the game with this score (Black's point of view).
    End(i16),
}

/// A finite game: states `0..num_states()`, each with a side to move and at least one edge.
///
/// Implementations must be deterministic: the same state always gives the same edges in the same
/// order (solvers on different workers and processes rely on it).
pub trait GameGraph: Send + Sync + 'static {
    /// Number of states.
    fn num_states(&self) -> u64;
    /// Who moves in state `s`.
    fn side(&self, s: u64) -> Side;
    /// Appends the edges out of state `s` to `out` (which the caller has cleared).
    fn edges(&self, s: u64, out: &mut Vec<Edge>);
}

/// Combines the bounds of a state's edges: Black takes the maximum of each bound, White the minimum.
#[must_use]
#[inline]
pub fn combine(side: Side, edges: impl Iterator<Item = crate::Bounds>) -> crate::Bounds {
    let mut acc = match side {
        Side::Black => crate::Bounds {
            lo: crate::NO_LO,
            hi: crate::NO_LO,
        },
        Side::White => crate::Bounds {
            lo: crate::NO_HI,
            hi: crate::NO_HI,
        },
    };
    for b in edges {
        match side {
            Side::Black => {
                acc.lo = acc.lo.max(b.lo);
                acc.hi = acc.hi.max(b.hi);
            }
            Side::White => {
                acc.lo = acc.lo.min(b.lo);
                acc.hi = acc.hi.min(b.hi);
            }
        }
    }
    acc
}
