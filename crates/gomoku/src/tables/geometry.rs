//! The lines of a square board of side 5..=20: for every cell and direction, which line it is on, its
//! place `t` along that line, and the skew-ternary weight of that place. One shared, lazily built
//! geometry per size.
//!
//! Line numbering (`6n - 2` lines): rows `0..n` (t = x), columns `n..2n` (t = y), diagonals
//! `2n..4n-1` (x - y constant, t = min(x, y)), anti-diagonals `4n-1..6n-2` (x + y constant, t counted
//! from the cell with the smallest x). Each line's cells follow [`Direction::step`].

use std::sync::LazyLock;

use crate::core::bitboard::{MAX_SIZE, MIN_SIZE};
use crate::tables::skew::{digit_of_cell, LINE_CELLS, WEIGHTS};
use crate::{Direction, Point};

/// The most lines a board has (20x20: 118).
pub const MAX_LINES: usize = 6 * MAX_SIZE - 2;

/// Where a cell sits on one of its four lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineRef {
    /// The line's number.
    pub id: u8,
    /// The cell's place along the line.
    pub t: u8,
    /// The skew-ternary weight of that place (0 on lines longer than 15 cells, which have no code).
    pub weight: u32,
}

/// The lines of one board size.
#[derive(Debug)]
pub struct Geometry {
    pub size: usize,
    pub line_count: usize,
    /// Per cell (`y * size + x`), per direction.
    pub cell_lines: Vec<[LineRef; 4]>,
    pub line_len: [u8; MAX_LINES],
    pub line_dir: [Direction; MAX_LINES],
    /// For lines of at most 15 cells, `15 - len`: a table mask shifted right by it is along the line.
    pub line_shift: [u8; MAX_LINES],
    /// The points of each line, in order.
    pub line_points: Vec<[Point; MAX_SIZE]>,
    /// Lines of at least five cells (shorter ones never hold a threat).
    pub threat_lines: Vec<u8>,
    /// The same lines except the rows, as runs of consecutive line numbers.
    pub threat_ranges: Vec<std::ops::Range<usize>>,
}

static GEOMETRIES: LazyLock<Vec<Geometry>> =
    LazyLock::new(|| (MIN_SIZE..=MAX_SIZE).map(Geometry::new).collect());

impl Geometry {
    /// The shared geometry of a size in 5..=20 (panics otherwise).
    #[must_use]
    pub fn get(size: usize) -> &'static Geometry {
        &GEOMETRIES[size - MIN_SIZE]
    }

    fn new(n: usize) -> Geometry {
        let line_count = 6 * n - 2;
        let mut g = Geometry {
            size: n,
            line_count,
            cell_lines: vec![[LineRef::default(); 4]; n * n],
            line_len: [0; MAX_LINES],
            line_dir: [Direction::Horizontal; MAX_LINES],
            line_shift: [0; MAX_LINES],
            line_points: vec![[Point::new(0, 0); MAX_SIZE]; line_count],
            threat_lines: Vec::new(),
            threat_ranges: Vec::new(),
        };
        for y in 0..n {
            for x in 0..n {
                let refs = Direction::ALL.map(|d| {
                    let (id, t) = match d {
                        Direction::Horizontal => (y, x),
                        Direction::Vertical => (n + x, y),
                        Direction::Diagonal => (2 * n + x + n - 1 - y, x.min(y)),
                        Direction::AntiDiagonal => {
                            let s = x + y;
                            (4 * n - 1 + s, x - s.saturating_sub(n - 1))
                        }
                    };
                    (d, id, t)
                });
                for (d, id, t) in refs {
                    g.line_dir[id] = d;
                    g.line_len[id] = g.line_len[id].max(t as u8 + 1);
                    g.line_points[id][t] = Point::new(x as u8, y as u8);
                }
                g.cell_lines[y * n + x] = refs.map(|(_, id, t)| LineRef {
                    id: id as u8,
                    t: t as u8,
                    weight: 0,
                });
            }
        }
        for refs in &mut g.cell_lines {
            for r in refs.iter_mut() {
                let len = g.line_len[r.id as usize] as usize;
                if len <= LINE_CELLS {
                    r.weight = WEIGHTS[digit_of_cell(r.t as usize, len)];
                }
            }
        }
        for id in 0..line_count {
            g.line_shift[id] = LINE_CELLS.saturating_sub(g.line_len[id] as usize) as u8;
        }
        g.threat_lines = (0..line_count as u8)
            .filter(|&id| g.line_len[id as usize] >= 5)
            .collect();
        for &id in &g.threat_lines {
            let id = id as usize;
            if id < n {
                continue;
            }
            match g.threat_ranges.last_mut() {
                Some(r) if r.end == id => r.end += 1,
                _ => g.threat_ranges.push(id..id + 1),
            }
        }
        g
    }

    /// The line of `p` in direction `d`.
    #[inline]
    #[must_use]
    pub fn line_ref(&self, p: Point, d: Direction) -> LineRef {
        self.cell_lines[p.y as usize * self.size + p.x as usize][d.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_consistent() {
        for n in MIN_SIZE..=MAX_SIZE {
            let g = Geometry::get(n);
            let total: usize = g.line_len[..g.line_count].iter().map(|&l| l as usize).sum();
            assert_eq!(total, 4 * n * n);
            for id in 0..g.line_count {
                let (dx, dy) = g.line_dir[id].step();
                for t in 1..g.line_len[id] as usize {
                    let (a, b) = (g.line_points[id][t - 1], g.line_points[id][t]);
                    assert_eq!((b.x as i32 - a.x as i32, b.y as i32 - a.y as i32), (dx, dy));
                }
            }
        }
    }
}
