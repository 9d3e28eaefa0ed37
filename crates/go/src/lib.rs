//! Small-board Go for stonelab: bitboards, the board core (blocks, captures, ko, Zobrist), eyes,
//! playouts and position enumeration.
//!
//! One concept per file, re-exported flat from here.

pub mod bitboard;
pub mod board;
pub mod dp;
pub mod enumerate;
pub mod eyes;
pub mod perft;
pub mod playout;
pub mod score;
pub mod setup;
pub mod statefile;
pub mod vertex;
pub mod zobrist;

pub use enumerate::Enumerator;
pub use statefile::StateTable;
