//! The slow, obviously-correct reference: every definition written straight out, walking cells one by
//! one, with no tables, no bit tricks and no locality assumptions. Tests compare the fast code to it.

use crate::{Bitboard, Color, Direction, Grid, Pattern, Point, Rule};

/// A line of cells, in order; off-board cells are simply not in it.
pub type Line = [Option<Color>];

/// A line copied onto the stack, so that trying a stone is a write and an undo, not an allocation.
#[derive(Clone, Copy)]
struct Buf {
    cells: [Option<Color>; 32],
    len: usize,
}

impl Buf {
    fn new(line: &Line) -> Buf {
        assert!(line.len() <= 32, "reference lines hold at most 32 cells");
        let mut cells = [None; 32];
        cells[..line.len()].copy_from_slice(line);
        Buf {
            cells,
            len: line.len(),
        }
    }

    fn with(mut self, p: usize, c: Color) -> Buf {
        self.cells[p] = Some(c);
        self
    }

    /// The length of the run of `c` stones through `p` (0 when `p` does not hold `c`), and its ends.
    fn run(&self, p: usize, c: Color) -> (usize, usize, usize) {
        if self.cells[p] != Some(c) {
            return (0, p, p);
        }
        let mut lo = p;
        while lo > 0 && self.cells[lo - 1] == Some(c) {
            lo -= 1;
        }
        let mut hi = p;
        while hi + 1 < self.len && self.cells[hi + 1] == Some(c) {
            hi += 1;
        }
        (hi - lo + 1, lo, hi)
    }

    fn makes_five(&self, p: usize, c: Color, rule: Rule) -> bool {
        if self.cells[p].is_some() {
            return false;
        }
        // The run a stone on `p` would make: `p` and the `c` stones next to it on both sides.
        let left = (0..p)
            .rev()
            .take_while(|&q| self.cells[q] == Some(c))
            .count();
        let right = (p + 1..self.len)
            .take_while(|&q| self.cells[q] == Some(c))
            .count();
        rule.is_win(left + 1 + right, c)
    }

    fn five_points(&self, c: Color, rule: Rule) -> u32 {
        (0..self.len)
            .filter(|&p| self.makes_five(p, c, rule))
            .fold(0, |m, p| m | 1 << p)
    }

    fn seed_open_fours(&self, c: Color, rule: Rule) -> u32 {
        let fives = self.five_points(c, rule);
        (0..self.len)
            .filter(|&p| {
                self.cells[p].is_none()
                    && fives >> p & 1 == 0
                    && self.with(p, c).five_points(c, rule).count_ones() >= 2
            })
            .fold(0, |m, p| m | 1 << p)
    }

    /// How many empty cells `q` complete, after a `c` stone on `p`, a winning row that holds `p`.
    fn partners(&self, p: usize, c: Color, rule: Rule) -> usize {
        let after = self.with(p, c);
        (0..self.len)
            .filter(|&q| {
                if after.cells[q].is_some() {
                    return false;
                }
                let (len, lo, hi) = after.with(q, c).run(q, c);
                rule.is_win(len, c) && lo <= p && p <= hi
            })
            .count()
    }

    /// Five, open four or four for `c` on the empty cell `p`, or `None`.
    fn four_class(&self, p: usize, c: Color, rule: Rule) -> Pattern {
        if self.makes_five(p, c, rule) {
            return Pattern::Five;
        }
        match self.partners(p, c, rule) {
            0 => Pattern::None,
            1 => Pattern::Four,
            _ => Pattern::OpenFour,
        }
    }

    fn pattern(&self, p: usize, c: Color, rule: Rule) -> Pattern {
        if self.cells[p].is_some() {
            return Pattern::None;
        }
        let class = self.four_class(p, c, rule);
        if class != Pattern::None {
            return class;
        }
        // An open four after one more move needs two more stones of `c` in a five with `p`, so a line
        // with fewer than two can hold no open three.
        if self.cells[..self.len]
            .iter()
            .filter(|&&s| s == Some(c))
            .count()
            < 2
        {
            return Pattern::None;
        }
        let three = (0..self.len).any(|q| {
            q != p
                && self.cells[q].is_none()
                && self.with(q, c).four_class(p, c, rule) == Pattern::OpenFour
        });
        if three {
            Pattern::OpenThree
        } else {
            Pattern::None
        }
    }
}

/// Whether a `c` stone on the empty cell `p` makes a winning row.
#[must_use]
pub fn makes_five(line: &Line, p: usize, c: Color, rule: Rule) -> bool {
    Buf::new(line).makes_five(p, c, rule)
}

/// The five points of `c` as a mask (bit `t` for cell `t`).
#[must_use]
pub fn five_points(line: &Line, c: Color, rule: Rule) -> u32 {
    Buf::new(line).five_points(c, rule)
}

/// The seed's open-four points of `c`: empty, not a five point, and afterwards the line holds at least
/// two five points of `c`.
#[must_use]
pub fn seed_open_fours(line: &Line, c: Color, rule: Rule) -> u32 {
    Buf::new(line).seed_open_fours(c, rule)
}

/// The seed's mask: per colour the five points if any, else the open-four points; union of both.
#[must_use]
pub fn threat_mask(line: &Line, rule: Rule) -> u32 {
    let buf = Buf::new(line);
    Color::ALL
        .into_iter()
        .map(|c| {
            let fives = buf.five_points(c, rule);
            if fives != 0 {
                fives
            } else {
                buf.seed_open_fours(c, rule)
            }
        })
        .fold(0, |a, b| a | b)
}

/// The class of the empty cell `p` for colour `c` on this line (see [`Pattern`]).
#[must_use]
pub fn pattern(line: &Line, p: usize, c: Color, rule: Rule) -> Pattern {
    Buf::new(line).pattern(p, c, rule)
}

/// Every full line of the grid in direction `d`, as the list of its points in order.
#[must_use]
pub fn lines(size: usize, d: Direction) -> Vec<Vec<Point>> {
    let (dx, dy) = d.step();
    let n = size as i32;
    let on = |x: i32, y: i32| (0..n).contains(&x) && (0..n).contains(&y);
    let mut out = Vec::new();
    for y in 0..n {
        for x in 0..n {
            // A line starts where the previous cell is off the board.
            if on(x - dx, y - dy) {
                continue;
            }
            let mut pts = Vec::new();
            let (mut cx, mut cy) = (x, y);
            while on(cx, cy) {
                pts.push(Point::new(cx as u8, cy as u8));
                cx += dx;
                cy += dy;
            }
            out.push(pts);
        }
    }
    out
}

/// The board-level scan: for every line, its cells, classified by `f`, mapped back to points.
fn scan(grid: &Grid, mut f: impl FnMut(Direction, &[Point], &Line)) {
    for d in Direction::ALL {
        for pts in lines(grid.size(), d) {
            let cells: Vec<Option<Color>> = pts.iter().map(|&p| grid.get(p)).collect();
            f(d, &pts, &cells);
        }
    }
}

fn mask_points(pts: &[Point], mask: u32, out: &mut Bitboard) {
    for (t, &p) in pts.iter().enumerate() {
        if mask >> t & 1 != 0 {
            out.insert(p);
        }
    }
}

/// The seed-compatible threat set of the grid: the union over all lines of the seed mask.
#[must_use]
pub fn threats(grid: &Grid, rule: Rule) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    scan(grid, |_, pts, cells| {
        mask_points(pts, threat_mask(cells, rule), &mut out)
    });
    out
}

/// Per colour (white, black): the union over all lines of the five points and of the seed's
/// (unfiltered) open-four points.
#[must_use]
pub fn threat_lists(grid: &Grid, rule: Rule) -> [(Bitboard, Bitboard); 2] {
    let mut out = [(Bitboard::EMPTY, Bitboard::EMPTY); 2];
    scan(grid, |_, pts, cells| {
        for c in Color::ALL {
            let slot = &mut out[c.index()];
            mask_points(pts, five_points(cells, c, rule), &mut slot.0);
            mask_points(pts, seed_open_fours(cells, c, rule), &mut slot.1);
        }
    });
    out
}

/// The class of every empty point, per colour and direction: `[colour][direction]` grids of
/// `size * size` entries, row by row.
#[must_use]
pub fn patterns(grid: &Grid, rule: Rule) -> [[Vec<Pattern>; 4]; 2] {
    let n = grid.size();
    let mut out: [[Vec<Pattern>; 4]; 2] =
        std::array::from_fn(|_| std::array::from_fn(|_| vec![Pattern::None; n * n]));
    scan(grid, |d, pts, cells| {
        for c in Color::ALL {
            for (t, &p) in pts.iter().enumerate() {
                out[c.index()][d.index()][p.y as usize * n + p.x as usize] =
                    pattern(cells, t, c, rule);
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> Vec<Option<Color>> {
        s.chars()
            .map(|ch| match ch {
                'O' => Some(Color::White),
                'X' => Some(Color::Black),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn seed_rows_by_hand() {
        // Seed row 174 drawn with position 0 first: ..OOO.......... -> points 1 and 5.
        assert_eq!(
            threat_mask(&line("..OOO.........."), Rule::Freestyle),
            0b100010
        );
        // Row 175: O.OOO -> the five point 1 only.
        assert_eq!(threat_mask(&line("O.OOO.........."), Rule::Freestyle), 0b10);
    }

    #[test]
    fn classes_by_hand() {
        let l = line("..XXX..");
        assert_eq!(
            pattern(&l, 1, Color::Black, Rule::Freestyle),
            Pattern::OpenFour
        );
        assert_eq!(pattern(&l, 0, Color::Black, Rule::Freestyle), Pattern::Four);
        let l = line(".X.X...");
        assert_eq!(
            pattern(&l, 2, Color::Black, Rule::Freestyle),
            Pattern::OpenThree
        );
        let l = line("XXXX.X");
        assert_eq!(pattern(&l, 4, Color::Black, Rule::Freestyle), Pattern::Five);
        assert_eq!(pattern(&l, 4, Color::Black, Rule::Standard), Pattern::None);
    }

    #[test]
    fn line_counts_on_15x15() {
        assert_eq!(lines(15, Direction::Horizontal).len(), 15);
        assert_eq!(lines(15, Direction::Diagonal).len(), 29);
        assert_eq!(lines(15, Direction::AntiDiagonal).len(), 29);
    }
}
