//! The Gomoku engine: fine per-cell classes ([`classes`]), an incrementally evaluated position
//! ([`position`]), and the move search ([`search`]): threat-space wins and defences at the root,
//! principal-variation alpha-beta with a transposition table elsewhere.

pub mod classes;

pub use classes::{Class, ClassTable};
pub mod position;

pub use position::{Position, Threats};
pub mod search;

pub use search::{Budget, Decision, Engine, Reason, MATE};
