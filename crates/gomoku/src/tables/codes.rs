//! Incremental line codes in the four directions, updated on make/unmake as the seed does: for every
//! line, its skew-ternary code (lines of at most 15 cells; the seed's `sk3board_*`), its white and black
//! stone masks, and its string of 2-bit cell codes (for the per-cell pattern windows).

use crate::tables::geometry::{Geometry, MAX_LINES};
use crate::tables::line::LineStones;
use crate::tables::skew::{empty_line_code, LINE_CELLS};
use crate::{Color, Grid, Point};

/// Edge cells (code 3) kept on each side of a line's 2-bit string, enough for any pattern window.
pub const PAD: u32 = 5;

/// The line codes of one board.
#[derive(Clone, Debug)]
pub struct LineCodes {
    geo: &'static Geometry,
    codes: [u32; MAX_LINES],
    stones: [LineStones; MAX_LINES],
    strings: [u64; MAX_LINES],
}

impl PartialEq for LineCodes {
    fn eq(&self, other: &LineCodes) -> bool {
        self.geo.size == other.geo.size
            && self.codes == other.codes
            && self.stones == other.stones
            && self.strings == other.strings
    }
}

impl Eq for LineCodes {}

impl LineCodes {
    /// The codes of an empty board of side `size` (5..=20; panics otherwise).
    #[must_use]
    pub fn empty(size: usize) -> LineCodes {
        let geo = Geometry::get(size);
        let mut c = LineCodes {
            geo,
            codes: [0; MAX_LINES],
            stones: [LineStones::default(); MAX_LINES],
            strings: [u64::MAX; MAX_LINES],
        };
        for id in 0..geo.line_count {
            let len = geo.line_len[id] as usize;
            if len <= LINE_CELLS {
                c.codes[id] = empty_line_code(len);
            }
            c.stones[id].cells = (1 << len) - 1;
            c.strings[id] &= !(((1u64 << (2 * len)) - 1) << (2 * PAD));
        }
        c
    }

    /// The codes of a grid, computed from scratch.
    #[must_use]
    pub fn from_grid(grid: &Grid) -> LineCodes {
        let mut c = LineCodes::empty(grid.size());
        for p in grid.points() {
            if let Some(color) = grid.get(p) {
                c.make(p, color);
            }
        }
        c
    }

    #[inline]
    #[must_use]
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// Puts a `c` stone on the empty point `p`.
    #[inline]
    pub fn make(&mut self, p: Point, c: Color) {
        let digit = c.digit();
        for r in &self.geo.cell_lines[p.y as usize * self.geo.size + p.x as usize] {
            let id = r.id as usize;
            self.codes[id] += r.weight * digit;
            let bit = 1 << r.t;
            match c {
                Color::White => self.stones[id].white |= bit,
                Color::Black => self.stones[id].black |= bit,
            }
            self.strings[id] |= (digit as u64) << (2 * (r.t as u32 + PAD));
        }
    }

    /// Takes the `c` stone off `p`.
    #[inline]
    pub fn unmake(&mut self, p: Point, c: Color) {
        let digit = c.digit();
        for r in &self.geo.cell_lines[p.y as usize * self.geo.size + p.x as usize] {
            let id = r.id as usize;
            self.codes[id] -= r.weight * digit;
            let bit = !(1 << r.t);
            self.stones[id].white &= bit;
            self.stones[id].black &= bit;
            self.strings[id] &= !(3u64 << (2 * (r.t as u32 + PAD)));
        }
    }

    /// The skew-ternary code of line `id` (meaningful for lines of at most 15 cells).
    #[inline]
    #[must_use]
    pub fn code(&self, id: usize) -> u32 {
        self.codes[id]
    }

    /// The skew-ternary codes of all lines, by line number.
    #[inline]
    #[must_use]
    pub fn codes(&self) -> &[u32; MAX_LINES] {
        &self.codes
    }

    /// The stones of line `id`.
    #[inline]
    #[must_use]
    pub fn stones(&self, id: usize) -> LineStones {
        self.stones[id]
    }

    /// The 2-bit cell string of line `id` (cell `t` at bits `2 * (t + PAD)`, edges coded 3).
    #[inline]
    #[must_use]
    pub fn string(&self, id: usize) -> u64 {
        self.strings[id]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::skew::WEIGHTS;

    /// The seed's `init`/`make` on 15x15 (with the `basesk3[-1]` slip fixed: the full-length main
    /// diagonal and anti-diagonal get no edge digit), replayed literally.
    fn seed_codes(stones: &[(Point, Color)]) -> ([u32; 15], [u32; 15], [u32; 29], [u32; 29]) {
        let (mut h, mut v, mut d, mut a) = ([0u32; 15], [0u32; 15], [0u32; 29], [0u32; 29]);
        for i in 0..14 {
            d[i] = WEIGHTS[13 - i] * 3;
            a[i] = WEIGHTS[13 - i] * 3;
        }
        for i in 15..29 {
            d[i] = WEIGHTS[i - 15] * 3;
            a[i] = WEIGHTS[i - 15] * 3;
        }
        for &(p, c) in stones {
            let (x, y) = (p.x as usize, p.y as usize);
            let color = c.index();
            h[y] += WEIGHTS[x] << color;
            v[x] += WEIGHTS[y] << color;
            d[14 - x + y] += WEIGHTS[if x < y { y } else { x }] << color;
            a[x + y] += WEIGHTS[if x + y < 15 { 14 - y } else { x }] << color;
        }
        (h, v, d, a)
    }

    #[test]
    fn codes_match_the_seed_formulas() {
        let mut rng = stonelab_rand::Xorshift64Star::new(7);
        let mut stones = Vec::new();
        let mut grid = Grid::new(15).unwrap();
        for _ in 0..120 {
            let p = Point::new(rng.below(15) as u8, rng.below(15) as u8);
            if grid.get(p).is_none() {
                let c = if rng.below(2) == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                grid.set(p, Some(c));
                stones.push((p, c));
            }
            let (h, v, d, a) = seed_codes(&stones);
            let codes = LineCodes::from_grid(&grid);
            let n = 15;
            for i in 0..15 {
                assert_eq!(codes.code(i), h[i]);
                assert_eq!(codes.code(n + i), v[i]);
            }
            // Our diagonal k = x - y + 14 is the seed's 14 - x + y = 28 - k; anti-diagonals agree.
            for k in 0..29 {
                assert_eq!(codes.code(2 * n + k), d[28 - k], "diagonal {k}");
                assert_eq!(codes.code(4 * n - 1 + k), a[k], "anti-diagonal {k}");
            }
        }
    }
}
