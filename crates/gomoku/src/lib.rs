//! Gomoku primitives for stonelab: the seed's skew-ternary line lookup tables, exact threat detection
//! on top of them, and per-colour Rapfi-style threat classes for the engines that follow.
//!
//! - [`Board`] (any side 5..=20, freestyle or standard): `make`/`unmake` keep the line codes
//!   ([`LineCodes`]) and the seed-compatible threat set ([`Board::threats`]) up to date;
//!   [`Board::threats_full`] recomputes it from every line (the seed's loop).
//! - Per-colour classes ([`Pattern`]: five, open four, four, open three): [`Board::pattern`] for one
//!   cell and direction (one table lookup), [`Board::pattern_sets`] for the bitboard of each class,
//!   kept up to date by make/unmake after [`Board::track_patterns`].
//! - Tables: [`SeedTable`] (the seed's 21,523,359 masks) and [`PatternTable`] (per-cell windows), one
//!   per rule, built on first use (no init call). [`line`] holds the bit-parallel line analysis they
//!   are built from; [`reference`] the slow, obviously-correct definitions the tests compare against.
//! - Text: [`parse_position`] and [`render`] (diagrams, the seed's glyphs, move lists).
//!
//! ```
//! use stonelab_gomoku::{Board, Color, Direction, Pattern, Point, Rule};
//!
//! let mut board = Board::new(15, Rule::Freestyle).unwrap();
//! for x in 5..8 {
//!     board.make(Point::new(x, 7), Color::Black); // . . X X X . .
//! }
//! assert!(board.threats().contains(Point::new(4, 7))); // the two open-four points
//! assert!(board.threats().contains(Point::new(8, 7)));
//! assert_eq!(board.threats().count(), 2);
//! let p = Point::new(8, 7);
//! assert_eq!(board.pattern(p, Direction::Horizontal, Color::Black), Pattern::OpenFour);
//! board.unmake(Point::new(7, 7));
//! assert!(board.threats().is_empty());
//! ```

mod bitboard;
mod board;
mod codes;
mod color;
pub mod dbs;
pub mod defense;
pub mod engine;
pub mod games;
pub mod geometry;
mod grid;
pub mod line;
mod notation;
pub mod pattern;
pub mod pbrain;
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
