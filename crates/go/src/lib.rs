//! Small-board Go for stonelab: bitboards, the board core (blocks, captures, ko, Zobrist), eyes,
//! playouts and position enumeration.
