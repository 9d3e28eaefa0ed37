//! Gomoku primitives for stonelab: the seed's skew-ternary line lookup tables, exact threat detection
//! on top of them, and per-colour Rapfi-style threat classes for the engines that follow.
//!
//! Start with [`Board`]: `make`/`unmake` keep the line codes and the seed-compatible threat set
//! ([`Board::threats`]) up to date; [`Board::pattern`] and [`Board::pattern_sets`] give the per-colour
//! classes ([`Pattern`]). Every table is built on first use; there is no init call.

mod bitboard;
mod board;
mod codes;
mod color;
pub mod defense;
pub mod games;
pub mod geometry;
mod grid;
pub mod line;
mod notation;
mod pattern;
mod point;
pub mod referee;
pub mod reference;
mod rule;
mod seed_table;
pub mod skew;
pub mod threat;
pub mod tss;

pub use bitboard::{Bitboard, MAX_SIZE, MIN_SIZE};
pub use board::{Board, MoveError, PatternSets};
pub use codes::LineCodes;
pub use color::Color;
pub use defense::{defenses, Defense};
pub use grid::{BadSize, Grid};
pub use notation::{parse_position, render, NotationError, Parsed, Style};
pub use pattern::{Pattern, PatternTable};
pub use point::{Direction, Point};
pub use rule::{Rule, UnknownRule};
pub use seed_table::SeedTable;
pub use threat::{threats, Threat, ThreatKind};
pub use tss::{solve, Limits, Mode, Outcome, Proof};
