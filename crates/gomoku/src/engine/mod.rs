//! The Gomoku engine: fine per-cell classes ([`classes`]), an incrementally evaluated position
//! ([`position`]), the move search ([`search`]: threat-space wins and defences at the root,
//! principal-variation alpha-beta elsewhere), its named tuning numbers ([`params`]), the Gomocup
//! clock ([`time`]) and the baseline players ([`players`]).

pub mod cells;
pub mod classes;
pub mod net;
pub mod params;
pub mod players;
pub mod policy;
pub mod position;
pub mod search;
pub mod selfplay;
pub mod threats;
pub mod time;
pub mod tree;
pub mod tune;
pub mod tune_net;
pub mod weights;

pub use crate::search::Budget;
pub use classes::{Class, ClassTable};
pub use position::{ClassSets, Position};
pub use search::{Decision, Engine, Line, Reason, MATE};
