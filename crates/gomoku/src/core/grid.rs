//! A plain square grid of stones (the unvalidated "setup"): what parsers produce and what the naive
//! reference scans. The fast [`Board`](crate::Board) is built from one.

use crate::core::bitboard::{MAX_SIZE, MIN_SIZE};
use crate::{Color, Direction, Point, Rule};

/// A board size outside 5 ..= 20.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("board size {0} is outside {MIN_SIZE}..={MAX_SIZE}")]
pub struct BadSize(pub usize);

/// A square grid of cells, each empty or holding a stone.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    size: usize,
    cells: Vec<Option<Color>>,
}

impl Grid {
    /// An empty grid of `size` x `size` (5 ..= 20).
    pub fn new(size: usize) -> Result<Grid, BadSize> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BadSize(size));
        }
        Ok(Grid {
            size,
            cells: vec![None; size * size],
        })
    }

    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The stone at `p`, if `p` is on the grid and occupied.
    #[must_use]
    pub fn get(&self, p: Point) -> Option<Color> {
        self.index(p).and_then(|i| self.cells[i])
    }

    /// Puts `stone` (or nothing) at `p`. Panics when `p` is off the grid.
    pub fn set(&mut self, p: Point, stone: Option<Color>) {
        let i = self.index(p).expect("point off the grid");
        self.cells[i] = stone;
    }

    /// Whether `p` lies on the grid.
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        (p.x as usize) < self.size && (p.y as usize) < self.size
    }

    fn index(&self, p: Point) -> Option<usize> {
        self.contains(p)
            .then(|| p.y as usize * self.size + p.x as usize)
    }

    /// Every point, row by row from the top.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let n = self.size as u8;
        (0..n).flat_map(move |y| (0..n).map(move |x| Point::new(x, y)))
    }

    /// Whether the stone on `p` wins under `rule`: some run through it is a five (freestyle:
    /// five or more; standard: exactly five).
    #[must_use]
    pub fn wins_at(&self, p: Point, rule: Rule) -> bool {
        let Some(c) = self.get(p) else {
            return false;
        };
        Direction::ALL.iter().any(|d| {
            let (dx, dy) = d.step();
            let mut len = 1;
            for sign in [1, -1] {
                let (mut x, mut y) = (i32::from(p.x) + sign * dx, i32::from(p.y) + sign * dy);
                while (0..self.size as i32).contains(&x)
                    && (0..self.size as i32).contains(&y)
                    && self.get(Point::new(x as u8, y as u8)) == Some(c)
                {
                    len += 1;
                    x += sign * dx;
                    y += sign * dy;
                }
            }
            rule.is_win(len, c)
        })
    }
}
