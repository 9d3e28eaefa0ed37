//! Board points and the four line directions.

/// A point of the board: `x` is the column from the left, `y` the row from the top (Gomocup's
/// convention), both 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    #[must_use]
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }
}

/// The four line directions through a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Rows: `x` grows.
    Horizontal = 0,
    /// Columns: `y` grows.
    Vertical = 1,
    /// `x` and `y` grow together (top left to bottom right).
    Diagonal = 2,
    /// `x` grows while `y` shrinks (bottom left to top right).
    AntiDiagonal = 3,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Horizontal,
        Direction::Vertical,
        Direction::Diagonal,
        Direction::AntiDiagonal,
    ];

    /// The step `(dx, dy)` from one cell of a line to the next.
    #[must_use]
    pub const fn step(self) -> (i32, i32) {
        match self {
            Direction::Horizontal => (1, 0),
            Direction::Vertical => (0, 1),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (1, -1),
        }
    }

    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}
