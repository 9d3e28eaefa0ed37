//! Small-board Go for stonelab: bitboards, the board core (blocks, captures, ko, Zobrist), eyes,
//! playouts, Monte-Carlo search and ownership, position enumeration, and the SGF main line.
//!
//! One concept per file, re-exported flat from here.

pub mod bitboard;
pub mod board;
pub mod color;
pub mod dp;
pub mod enumerate;
pub mod eyes;
pub mod mcts;
pub mod movemodel;
pub mod ownership;
pub mod pattern3;
pub mod perft;
pub mod playout;
pub mod rng;
pub mod score;
pub mod setup;
/// The SGF reader (the `stonelab-sgf` crate, shared with Gomoku).
pub use stonelab_sgf as sgf;

/// Asks the processor to bring `x`'s cache line in (a hint: nothing is read or written).
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and writes nothing; any address is allowed, and this one
    // is a valid reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            std::ptr::from_ref(x).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
pub mod statefile;
pub mod timing;
pub mod vertex;
pub mod zobrist;

pub use bitboard::{Bitboard, Geometry, Point, SizeError, MAX_SIZE};
pub use board::{Board, IllegalMove, Move, NothingToUndo, Rules};
pub use color::Color;
pub use enumerate::Enumerator;
pub use eyes::{eyes, eyes_naive, EyeMasks};
pub use perft::{perft, perft_parallel};
pub use rng::Rng;
pub use score::format_score;
pub use setup::{DiagramError, Setup, SetupError, SetupProblem};
pub use statefile::StateTable;
