//! Renju's forbidden points (RIF rules, as Gomocup plays them): Black wins only by exactly five and may
//! not make a double-three, a double-four or an overline; a five wins even when the same move also makes
//! any of those. White wins by five or more and has no forbidden points.
//!
//! Definitions, for a black stone on the empty point `p` (only rows through `p` count):
//! - five: a row of exactly five black stones; overline: six or more;
//! - four: four black stones that one more move turns into a five; a straight four (`. X X X X .` with
//!   both ends making five) is one four, `X . X X X . X` with the stone in the middle is two;
//! - three: a row that one more move `q`, not itself forbidden, turns into a straight four holding `p`
//!   and `q` (the recursive rule: `q` is judged with `p` on the board);
//! - `p` is forbidden when it makes no five and an overline, or two fours, or two threes.
//!
//! The fast path reads Black's shape in each direction from a table keyed like the pattern tables (the
//! five cells on each side of `p`, 2 bits each: 2^20 entries of 2 bytes, 2 MiB, built on first use from
//! the bit-parallel line code). Only a point with two threes needs more: each three's completion points
//! are judged recursively, with `p` on the board. [`reference`] is the same rule walked cell by cell
//! from the rule text, for the tests.

use std::fmt;
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::tables::codes::{LineCodes, PAD};
use crate::tables::line::{five_points, LineStones};
use crate::tables::pattern::{is_board_window, window_key, window_line};
use crate::{Board, Color, Direction, Point, Rule};

/// Why a black move is forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Foul {
    /// Two or more threes (each able to become a straight four by a move that is not forbidden).
    DoubleThree,
    /// Two or more fours.
    DoubleFour,
    /// Six or more in a row, and no five.
    Overline,
}

impl Foul {
    /// All fouls, in a fixed order.
    pub const ALL: [Foul; 3] = [Foul::DoubleThree, Foul::DoubleFour, Foul::Overline];

    /// The lower-case name used in JSON (`double_three`, `double_four`, `overline`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Foul::DoubleThree => "double_three",
            Foul::DoubleFour => "double_four",
            Foul::Overline => "overline",
        }
    }
}

impl fmt::Display for Foul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Black's shape in one direction after a stone on the centre, before the recursive rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Shape {
    #[default]
    None = 0,
    /// A three: some completion point makes a straight four through the centre.
    Three = 1,
    /// One four (a straight four included).
    Four = 2,
    /// Two fours on the one line.
    DoubleFour = 3,
    /// Exactly five.
    Five = 4,
    /// Six or more.
    Overline = 5,
}

impl Shape {
    const ALL: [Shape; 6] = [
        Shape::None,
        Shape::Three,
        Shape::Four,
        Shape::DoubleFour,
        Shape::Five,
        Shape::Overline,
    ];

    /// How many fours the shape holds.
    #[must_use]
    pub const fn fours(self) -> u32 {
        match self {
            Shape::Four => 1,
            Shape::DoubleFour => 2,
            _ => 0,
        }
    }
}

/// Cells on each side of the centre that decide its shape (the renju window).
const REACH: u32 = 5;

/// Black's shape of every renju window key, with a three's completion points: bits 0..4 the shape,
/// bit `4 + (REACH + k - 1)` set when the cell at offset `k` (-4..=4) completes the straight four.
pub struct ShapeTable {
    entries: Box<[u16]>,
}

static SHAPES: OnceLock<ShapeTable> = OnceLock::new();

impl ShapeTable {
    /// The shared table, built on first use (2 MiB).
    #[must_use]
    pub fn get() -> &'static ShapeTable {
        SHAPES.get_or_init(ShapeTable::build)
    }

    /// Builds the table from the bit-parallel line code (keys no board can produce stay 0).
    #[must_use]
    pub fn build() -> ShapeTable {
        let mut entries = vec![0u16; 1 << (4 * REACH)].into_boxed_slice();
        entries
            .par_chunks_mut(1 << 12)
            .enumerate()
            .for_each(|(chunk, out)| {
                for (i, slot) in out.iter_mut().enumerate() {
                    let key = (chunk << 12 | i) as u32;
                    if is_board_window(key, Rule::Renju) {
                        let (shape, completions) = window_shape(window_line(key, Rule::Renju));
                        debug_assert_eq!(completions & !0x3FE, 0);
                        *slot = shape as u16 | ((completions >> 1) as u16) << 4;
                    }
                }
            });
        ShapeTable { entries }
    }

    /// The shape of a key and, for a three, its completion points: bit `REACH + k` for the cell at
    /// offset `k` from the centre.
    #[inline]
    #[must_use]
    pub fn lookup(&self, key: u32) -> (Shape, u16) {
        let e = self.entries[key as usize];
        (Shape::ALL[(e & 7) as usize], e >> 4 << 1)
    }

    /// The table's size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.entries.len() * 2
    }
}

/// Black's five points of `line` whose five holds cell `c` (which holds black).
fn fours_through(line: LineStones, c: u32) -> u32 {
    let mut through = 0;
    let mut fives = five_points(line, Rule::Renju)[1];
    while fives != 0 {
        let q = fives.trailing_zeros();
        fives &= fives - 1;
        // The five made at `q` is the run through `q`; it holds `c` when every cell between is black.
        let (lo, hi) = (q.min(c), q.max(c));
        let between = ((1u32 << hi) - 1) & !((1u32 << (lo + 1)) - 1);
        if line.black & between == between {
            through |= 1 << q;
        }
    }
    through
}

/// Whether the five points `fours` (at most two) are the two ends of one straight four.
fn is_straight(fours: u32) -> bool {
    fours.count_ones() == 2 && 31 - fours.leading_zeros() - fours.trailing_zeros() == 5
}

/// Black's shape at the centre of a renju window line (centre cell `REACH`, empty), and a three's
/// completion points as a mask of offsets (bit `REACH + k` for offset `k`).
fn window_shape(line: LineStones) -> (Shape, u32) {
    let c = REACH;
    let mut placed = line;
    placed.black |= 1 << c;
    let run = {
        let mut lo = c;
        while lo > 0 && placed.black >> (lo - 1) & 1 == 1 {
            lo -= 1;
        }
        let mut hi = c;
        while placed.black >> (hi + 1) & 1 == 1 {
            hi += 1;
        }
        hi - lo + 1
    };
    match run {
        5 => return (Shape::Five, 0),
        6.. => return (Shape::Overline, 0),
        _ => {}
    }
    let fours = fours_through(placed, c);
    match fours.count_ones() {
        0 => {}
        1 => return (Shape::Four, 0),
        _ if is_straight(fours) => return (Shape::Four, 0),
        _ => return (Shape::DoubleFour, 0),
    }
    let mut completions = 0;
    let mut cand = placed.empty();
    while cand != 0 {
        let q = cand.trailing_zeros();
        cand &= cand - 1;
        let mut after = placed;
        after.black |= 1 << q;
        let f = fours_through(after, c);
        // The straight four must hold `q` too: its five points lie on both sides of `q`.
        if is_straight(f) && f.trailing_zeros() < q && q < 31 - f.leading_zeros() {
            completions |= 1 << q;
        }
    }
    if completions == 0 {
        (Shape::None, 0)
    } else {
        (Shape::Three, completions)
    }
}

/// Why Black may not play the empty point `p` of `board`, or `None` when the move is allowed (a move
/// that makes a five always is). Reads the renju window table whatever the board's rule.
#[must_use]
pub fn foul(board: &Board, p: Point) -> Option<Foul> {
    if board.stone(p).is_some() {
        return None;
    }
    let shapes = shapes_at(board.codes(), p);
    let verdict = judge(&shapes);
    if verdict != Verdict::Threes {
        return verdict.foul();
    }
    let mut codes = board.codes().clone();
    double_three(&mut codes, p, &shapes)
}

/// Every point where Black may not play, with the reason, in row-major order.
#[must_use]
pub fn fouls(board: &Board) -> Vec<(Point, Foul)> {
    let mut codes: Option<LineCodes> = None;
    let mut out = Vec::new();
    let n = board.size() as u8;
    for y in 0..n {
        for x in 0..n {
            let p = Point::new(x, y);
            if board.stone(p).is_some() {
                continue;
            }
            let shapes = shapes_at(board.codes(), p);
            let why = match judge(&shapes) {
                Verdict::Threes => {
                    let codes = codes.get_or_insert_with(|| board.codes().clone());
                    double_three(codes, p, &shapes)
                }
                v => v.foul(),
            };
            if let Some(f) = why {
                out.push((p, f));
            }
        }
    }
    out
}

/// The shapes of the empty point `p` in the four directions.
#[inline]
fn shapes_at(codes: &LineCodes, p: Point) -> [(Shape, u16); 4] {
    let table = ShapeTable::get();
    let geo = codes.geometry();
    Direction::ALL.map(|d| {
        let r = geo.line_ref(p, d);
        table.lookup(window_key(
            codes.string(r.id as usize),
            r.t as u32,
            PAD,
            Rule::Renju,
        ))
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Allowed,
    Foul(Foul),
    /// Two or more threes and nothing else decides: the recursive rule must judge them.
    Threes,
}

impl Verdict {
    fn foul(self) -> Option<Foul> {
        match self {
            Verdict::Foul(f) => Some(f),
            _ => None,
        }
    }
}

fn judge(shapes: &[(Shape, u16); 4]) -> Verdict {
    if shapes.iter().any(|s| s.0 == Shape::Five) {
        return Verdict::Allowed;
    }
    if shapes.iter().any(|s| s.0 == Shape::Overline) {
        return Verdict::Foul(Foul::Overline);
    }
    if shapes.iter().map(|s| s.0.fours()).sum::<u32>() >= 2 {
        return Verdict::Foul(Foul::DoubleFour);
    }
    if shapes.iter().filter(|s| s.0 == Shape::Three).count() >= 2 {
        Verdict::Threes
    } else {
        Verdict::Allowed
    }
}

/// The recursive rule on a point with two or more threes: counts the threes that some completion
/// point, not itself forbidden with `p` on the board, turns into a straight four.
fn double_three(codes: &mut LineCodes, p: Point, shapes: &[(Shape, u16); 4]) -> Option<Foul> {
    let geo = codes.geometry();
    codes.make(p, Color::Black);
    let mut real = 0;
    for (d, &(shape, completions)) in Direction::ALL.iter().zip(shapes) {
        if shape != Shape::Three {
            continue;
        }
        let r = geo.line_ref(p, *d);
        let mut mask = completions as u32;
        while mask != 0 {
            let bit = mask.trailing_zeros();
            mask &= mask - 1;
            let t = r.t as i32 + bit as i32 - REACH as i32;
            let q = geo.line_points[r.id as usize][t as usize];
            let s = shapes_at(codes, q);
            let allowed = match judge(&s) {
                Verdict::Allowed => true,
                Verdict::Foul(_) => false,
                Verdict::Threes => double_three(codes, q, &s).is_none(),
            };
            if allowed {
                real += 1;
                break;
            }
        }
        if real >= 2 {
            break;
        }
    }
    codes.unmake(p, Color::Black);
    (real >= 2).then_some(Foul::DoubleThree)
}

/// The rule walked cell by cell from its text, on a plain grid: no tables, no windows, whole lines.
pub mod reference {
    use super::{Foul, Shape};
    use crate::{Color, Direction, Grid, Point};

    /// The cells of the whole line through `p` in direction `d`, and `p`'s place in it.
    fn line(grid: &Grid, p: Point, d: Direction) -> (Vec<Option<Color>>, usize) {
        let (dx, dy) = d.step();
        let n = grid.size() as i32;
        let on = |x: i32, y: i32| (0..n).contains(&x) && (0..n).contains(&y);
        let (mut x, mut y) = (i32::from(p.x), i32::from(p.y));
        while on(x - dx, y - dy) {
            x -= dx;
            y -= dy;
        }
        let mut cells = Vec::new();
        let mut at = 0;
        while on(x, y) {
            let q = Point::new(x as u8, y as u8);
            if q == p {
                at = cells.len();
            }
            cells.push(grid.get(q));
            x += dx;
            y += dy;
        }
        (cells, at)
    }

    /// The black run through `i`: its first and last cells.
    fn run(cells: &[Option<Color>], i: usize) -> (usize, usize) {
        let black = |j: usize| cells[j] == Some(Color::Black);
        let (mut lo, mut hi) = (i, i);
        while lo > 0 && black(lo - 1) {
            lo -= 1;
        }
        while hi + 1 < cells.len() && black(hi + 1) {
            hi += 1;
        }
        (lo, hi)
    }

    /// The fours through black stone `i`: for each, the four stones (as the other cells of the five)
    /// and the point that makes the five. A four is its stones, so the two ends of a straight four
    /// give one four.
    fn fours(cells: &[Option<Color>], i: usize) -> Vec<(Vec<usize>, usize)> {
        let mut out = Vec::new();
        for q in 0..cells.len() {
            if cells[q].is_some() {
                continue;
            }
            let mut after = cells.to_vec();
            after[q] = Some(Color::Black);
            let (lo, hi) = run(&after, q);
            if hi - lo + 1 == 5 && lo <= i && i <= hi {
                out.push(((lo..=hi).filter(|&j| j != q).collect(), q));
            }
        }
        out
    }

    fn distinct_fours(cells: &[Option<Color>], i: usize) -> usize {
        let mut sets: Vec<Vec<usize>> = fours(cells, i).into_iter().map(|f| f.0).collect();
        sets.sort();
        sets.dedup();
        sets.len()
    }

    /// Whether the line holds a straight four through `i` and `j`: four black stones, `i` and `j`
    /// among them, that two different points each turn into a five.
    fn straight_four(cells: &[Option<Color>], i: usize, j: usize) -> bool {
        let fours = fours(cells, i);
        fours.iter().any(|(stones, q)| {
            stones.contains(&j) && fours.iter().any(|(s, r)| s == stones && r != q)
        })
    }

    /// Black's shape after a stone on the empty cell `i` of a line, and for a three its completion
    /// points (before the recursive rule), walking the line from the definitions.
    #[must_use]
    pub fn line_shape(cells: &[Option<Color>], i: usize) -> (Shape, Vec<usize>) {
        let mut after = cells.to_vec();
        after[i] = Some(Color::Black);
        let (lo, hi) = run(&after, i);
        match hi - lo + 1 {
            5 => return (Shape::Five, Vec::new()),
            6.. => return (Shape::Overline, Vec::new()),
            _ => {}
        }
        match distinct_fours(&after, i) {
            0 => {}
            1 => return (Shape::Four, Vec::new()),
            _ => return (Shape::DoubleFour, Vec::new()),
        }
        let completions: Vec<usize> = (0..after.len())
            .filter(|&j| {
                after[j].is_none() && {
                    let mut more = after.clone();
                    more[j] = Some(Color::Black);
                    straight_four(&more, i, j)
                }
            })
            .collect();
        if completions.is_empty() {
            (Shape::None, completions)
        } else {
            (Shape::Three, completions)
        }
    }

    /// Why Black may not play the empty point `p`, or `None`.
    #[must_use]
    pub fn foul(grid: &Grid, p: Point) -> Option<Foul> {
        if grid.get(p).is_some() {
            return None;
        }
        let mut after = grid.clone();
        after.set(p, Some(Color::Black));
        let mut overline = false;
        let mut four_count = 0;
        let mut three_count = 0;
        for d in Direction::ALL {
            let (cells, i) = line(grid, p, d);
            let (shape, completions) = line_shape(&cells, i);
            match shape {
                Shape::Five => return None,
                Shape::Overline => overline = true,
                Shape::Four => four_count += 1,
                Shape::DoubleFour => four_count += 2,
                Shape::Three => {
                    let (dx, dy) = d.step();
                    let real = completions.iter().any(|&j| {
                        let k = j as i32 - i as i32;
                        let q = Point::new(
                            (i32::from(p.x) + k * dx) as u8,
                            (i32::from(p.y) + k * dy) as u8,
                        );
                        foul(&after, q).is_none()
                    });
                    three_count += usize::from(real);
                }
                Shape::None => {}
            }
        }
        if overline {
            Some(Foul::Overline)
        } else if four_count >= 2 {
            Some(Foul::DoubleFour)
        } else if three_count >= 2 {
            Some(Foul::DoubleThree)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Grid;

    /// A board from rows of `X` (black), `O` (white) and `.`, top row first.
    fn board(rows: &[&str]) -> Board {
        let mut grid = Grid::new(15).unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let stone = match ch {
                    'X' => Some(Color::Black),
                    'O' => Some(Color::White),
                    _ => None,
                };
                grid.set(Point::new(x as u8, y as u8), stone);
            }
        }
        Board::from_grid(&grid, Rule::Renju)
    }

    fn check(b: &Board, p: Point, want: Option<Foul>) {
        assert_eq!(foul(b, p), want, "fast, at {p:?}");
        assert_eq!(
            reference::foul(&b.to_grid(), p),
            want,
            "reference, at {p:?}"
        );
    }

    #[test]
    fn the_three_fouls_and_the_five_that_overrides_them() {
        // Overline: X X X . X X with the gap filled.
        let b = board(&["", "", "...XXX.XX"]);
        check(&b, Point::new(6, 2), Some(Foul::Overline));
        // Two fours on one line: . X . X X _ . X gives X . X X X . X.
        let b = board(&["", "", ".X.XX..X"]);
        check(&b, Point::new(5, 2), Some(Foul::DoubleFour));
        // A straight four and nothing else is one four.
        let b = board(&["", "", "..XXX...."]);
        check(&b, Point::new(5, 2), None);
        // Two fours on crossing lines.
        let b = board(&["", "", "..XXX....", "......", ".....X", ".....X", ".....X"]);
        check(&b, Point::new(5, 2), Some(Foul::DoubleFour));
        // A four and a three are allowed.
        let b = board(&["", "", "..XXX....", "......", ".....X", ".....X"]);
        check(&b, Point::new(5, 2), None);
        // Double three: a cross of two open twos.
        let b = board(&["", "", "......X", "......X", "....XX.", "", ""]);
        check(&b, Point::new(6, 4), Some(Foul::DoubleThree));
        // A five with an overline on another line wins.
        let b = board(&["....X", "....X", "..XX.XX", "....X", "....X", "....X"]);
        check(&b, Point::new(4, 2), None);
        // Without the five it is an overline.
        let b = board(&["....X", "....X", "..XX.X", "....X", "....X", "....X"]);
        check(&b, Point::new(4, 2), Some(Foul::Overline));
    }

    #[test]
    fn a_three_whose_completions_are_forbidden_is_no_three() {
        // Through (6, 8): a vertical three (6,6) (6,7) and a horizontal one (4,8) (5,8). The
        // horizontal one completes only at (3, 8) and (7, 8), and each of those is an overline on
        // its column, so only one three is real.
        let rows = [
            "", "", "", "", "", "...X...X", "...X..XX", "...X..XX", "....XX..", "...X...X",
            "...X...X",
        ];
        let b = board(&rows);
        check(&b, Point::new(3, 8), Some(Foul::Overline));
        check(&b, Point::new(6, 8), None);
        // Free one completion: the double three is back.
        let mut rows = rows;
        rows[10] = "...X....";
        let b = board(&rows);
        check(&b, Point::new(6, 8), Some(Foul::DoubleThree));
    }

    /// Every renju window key a board can produce: the table entry equals the reference's shape,
    /// computed by walking the window as a line.
    #[test]
    fn table_matches_the_reference_on_every_window() {
        let table = ShapeTable::get();
        let mut checked = 0;
        for key in 0..1u32 << (4 * REACH) {
            if !is_board_window(key, Rule::Renju) {
                continue;
            }
            let line = window_line(key, Rule::Renju);
            let (shape, completions) = table.lookup(key);
            let want = reference_window_shape(line);
            assert_eq!((shape, completions as u32), want, "key {key:#x}");
            checked += 1;
        }
        assert_eq!(checked, 364 * 364);
    }

    /// The shape of the window's centre from the reference's walk of the window as a line (edge
    /// cells cut off), completion points as offsets from the centre.
    fn reference_window_shape(line: LineStones) -> (Shape, u32) {
        let first = line.cells.trailing_zeros();
        let last = 31 - line.cells.leading_zeros();
        let cells: Vec<Option<Color>> = (first..=last)
            .map(|t| {
                if line.white >> t & 1 == 1 {
                    Some(Color::White)
                } else if line.black >> t & 1 == 1 {
                    Some(Color::Black)
                } else {
                    None
                }
            })
            .collect();
        let (shape, completions) = reference::line_shape(&cells, (REACH - first) as usize);
        let mask = completions
            .iter()
            .fold(0, |m, &j| m | 1 << (j as u32 + first));
        (shape, mask)
    }

    /// Whether the reference could call `p` forbidden at all: a foul needs an overline or two fours
    /// (some line with four black stones within five cells of `p`, or two lines with three) or two
    /// threes (two lines with two). Plainly necessary, and it spares the slow walk most points.
    fn may_be_foul(grid: &Grid, p: Point) -> bool {
        let n = grid.size() as i32;
        let near = Direction::ALL.map(|d| {
            let (dx, dy) = d.step();
            (-5..=5)
                .filter(|&k| {
                    let (x, y) = (i32::from(p.x) + k * dx, i32::from(p.y) + k * dy);
                    k != 0
                        && (0..n).contains(&x)
                        && (0..n).contains(&y)
                        && grid.get(Point::new(x as u8, y as u8)) == Some(Color::Black)
                })
                .count()
        });
        near.iter().any(|&k| k >= 4) || near.iter().filter(|&&k| k >= 2).count() >= 2
    }

    fn picture(grid: &Grid) -> String {
        let n = grid.size() as u8;
        (0..n)
            .map(|y| {
                (0..n)
                    .map(|x| match grid.get(Point::new(x, y)) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    })
                    .collect::<String>()
                    + "\n"
            })
            .collect()
    }

    /// A random position rich in black shapes: a cluster of stones, mostly black, in a small square,
    /// and a few stones anywhere.
    fn clustered_position(rng: &mut stonelab_rand::Xorshift64Star) -> Grid {
        let size = if rng.below(4) == 0 {
            5 + rng.below(16)
        } else {
            15
        };
        let mut grid = Grid::new(size).unwrap();
        let side = (5 + rng.below(5)).min(size);
        let (ox, oy) = (rng.below(size - side + 1), rng.below(size - side + 1));
        let stones = rng.below(side * side * 2 / 3);
        let black_share = 50 + rng.below(40);
        for _ in 0..stones {
            let p = Point::new((ox + rng.below(side)) as u8, (oy + rng.below(side)) as u8);
            let c = if rng.below(100) < black_share {
                Color::Black
            } else {
                Color::White
            };
            grid.set(p, Some(c));
        }
        for _ in 0..rng.below(8) {
            let p = Point::new(rng.below(size) as u8, rng.below(size) as u8);
            grid.set(
                p,
                Some(if rng.below(2) == 0 {
                    Color::Black
                } else {
                    Color::White
                }),
            );
        }
        grid
    }

    /// Fast against reference on `positions` random positions, at every empty point; returns how
    /// many fouls of each kind were seen, so the caller can see that the positions exercised all.
    fn compare_on_random_positions(positions: usize, seed: u64) -> [usize; 3] {
        let mut rng = stonelab_rand::Xorshift64Star::new(seed);
        let mut seen = [0; 3];
        for _ in 0..positions {
            let grid = clustered_position(&mut rng);
            let board = Board::from_grid(&grid, Rule::Renju);
            let fast = fouls(&board);
            let mut want = Vec::new();
            for p in grid.points() {
                if grid.get(p).is_none() && may_be_foul(&grid, p) {
                    if let Some(f) = reference::foul(&grid, p) {
                        want.push((p, f));
                    }
                }
            }
            assert_eq!(fast, want, "position:\n{}", picture(&grid));
            for (p, f) in fast {
                assert_eq!(foul(&board, p), Some(f));
                seen[f as usize] += 1;
            }
        }
        seen
    }

    #[test]
    fn fast_matches_the_reference_on_random_positions() {
        let seen = compare_on_random_positions(3_000, 1);
        assert!(seen.iter().all(|&k| k > 100), "fouls seen: {seen:?}");
    }

    /// Many more positions (`STONELAB_RENJU_POSITIONS`, default 200,000; run by `scripts/test`).
    #[test]
    #[ignore = "a minute or more; scripts/test runs it"]
    fn many_random_positions_match_the_reference() {
        let n = std::env::var("STONELAB_RENJU_POSITIONS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(200_000);
        let seen = compare_on_random_positions(n, 2);
        eprintln!("{n} positions: fouls seen (double three, double four, overline): {seen:?}");
    }
}
