//! Gomoku for stonelab: the seed's skew-ternary line tables, exact threat detection on top of
//! them, per-colour Rapfi-style classes, threat-space search and the engine. Modules by layer, each
//! using only the ones above it:
//!
//! - core (re-exported here): [`Point`], [`Direction`], [`Color`], [`Rule`], [`Bitboard`],
//!   [`Grid`], and the text notation ([`parse_position`], [`render`]).
//! - [`tables`]: skew-ternary codes, geometry, the bit-parallel line analysis, the seed-compatible
//!   [`ThreatMaskTable`] (21,523,359 masks) and the per-cell window tables ([`PatternTable`], the
//!   engine's class table) from one builder, the Zobrist keys, and the slow [`tables::reference`].
//!   One table per rule, built on first use (no init call).
//! - board (re-exported): [`Board`] (any side 5..=20, freestyle or standard): `make`/`unmake` keep the line
//!   codes ([`LineCodes`]) and the seed-compatible threat points ([`Board::threat_points`]) up to
//!   date; per-colour classes ([`Pattern`]: five, open four, four, open three) by cell
//!   ([`Board::pattern`]) and as bitboards ([`Board::pattern_sets`]).
//! - [`search`]: threat-space search ([`solve`]: dependency-based, then real-board), the
//!   defender's view, the independent referee, and the per-line threat listing ([`line_threats`]).
//! - [`engine`]: the incrementally evaluated position, alpha-beta behind the threat searches, its
//!   named parameters, the Gomocup clock and the baseline players.
//! - [`games`]: seeded plausible games for tests and benchmarks.
//! ```
//! use stonelab_gomoku::{Board, Color, Direction, Pattern, Point, Rule};
//!
//! let mut board = Board::new(15, Rule::Freestyle).unwrap();
//! for x in 5..8 {
//!     board.make(Point::new(x, 7), Color::Black); // . . X X X . .
//! }
//! assert!(board.threat_points().contains(Point::new(4, 7))); // the two open-four points
//! assert!(board.threat_points().contains(Point::new(8, 7)));
//! assert_eq!(board.threat_points().count(), 2);
//! let p = Point::new(8, 7);
//! assert_eq!(board.pattern(p, Direction::Horizontal, Color::Black), Pattern::OpenFour);
//! board.unmake(Point::new(7, 7));
//! assert!(board.threat_points().is_empty());
//! ```

mod board;
mod core;
pub mod engine;
pub mod games;
pub mod prove;
pub mod renju;
pub mod search;
pub mod tables;

pub use crate::core::bitboard::{Bitboard, MAX_SIZE, MIN_SIZE};
pub use crate::core::color::Color;
pub use crate::core::grid::{BadSize, Grid};
pub use crate::core::notation::{
    parse_game, parse_point, parse_position, point_name, render, NotationError, Parsed, Style,
};
pub use crate::core::point::{Direction, Point};
pub use crate::core::records;
pub use crate::core::rule::{Rule, UnknownRule};
pub use board::{Board, PatternSets};
pub use search::line_threats::{line_threats, Threat, ThreatKind};
pub use search::{solve, Budget, Limits, Mode, Outcome, Proof};
pub use tables::codes::LineCodes;
pub use tables::pattern::{Pattern, PatternTable};
pub use tables::threat_masks::ThreatMaskTable;
