//! The game's plain vocabulary, with no tables behind it: points and directions, colours, rules,
//! bitboards of points, the unvalidated grid, and the text notation that reads and draws positions.
//! Everything here is re-exported from the crate root.

pub(crate) mod bitboard;
pub(crate) mod color;
pub(crate) mod grid;
pub(crate) mod notation;
pub(crate) mod point;
pub mod records;
pub(crate) mod rule;
