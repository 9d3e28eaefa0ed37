//! Gomoku primitives for stonelab: the seed's skew-ternary line lookup tables, exact threat detection
//! on top of them, and (later) threat-space search.
