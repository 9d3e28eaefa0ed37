//! Retrograde analysis for two-player games with scores and cycles (Go under simple ko), on timely
//! dataflow.
//!
//! A game is a [`GameGraph`]: states `0..n`, each with Black or White to move and a list of edges,
//! either to another state or to the end of the game with a score (from Black's point of view).
//! Because cycles are possible, a state has two values ([`Bounds`]):
//!
//! - `lo`: the best score Black can force the game to *end* with (the least fixed point of
//!   "Black can force an end with score >= t", for every threshold t);
//! - `hi`: the best score White can force (likewise, "score <= t").
//!
//! `lo <= hi` always; the value is exact when they meet. Otherwise the result depends on what a
//! cycle means (superko, or no result), and the interval is reported as it is.
//!
//! Two independent solvers compute the same bounds: [`sweep::solve`], plain value sweeps over the
//! whole graph until nothing changes (the obviously-correct reference), and [`dataflow::solve`], a
//! distributed retrograde propagation on timely dataflow where each worker owns the states
//! `s % workers == index` and value changes flow backwards along predecessor edges, round by round,
//! until timely's progress tracking sees that no message is left.

pub mod benson;
pub mod checkpoint;
pub mod count;
pub mod dataflow;
pub mod db;
pub mod go;
pub mod graph;
pub mod qindex;
pub mod space;
pub mod strategy;
pub mod superko;
pub mod sweep;
pub mod tie;
pub mod value;

pub use graph::{Edge, GameGraph, Side};
pub use value::{Bounds, Cycles, NO_HI, NO_LO};
