//! The lookup tables and the line analysis they are built from: skew-ternary line codes
//! ([`skew`], [`codes`]), board geometry, the bit-parallel line evaluation ([`line`]), the
//! seed-compatible threat-mask table ([`threat_masks`]), the per-cell window tables ([`pattern`],
//! built by one window builder), the Zobrist keys, and the slow [`reference`] the tests trust.

pub mod codes;
pub mod geometry;
pub mod line;
pub mod pattern;
pub mod reference;
pub mod skew;
pub mod threat_masks;
pub(crate) mod windows;
pub mod zobrist;
