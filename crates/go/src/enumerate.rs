//! Enumerates every legal position of a small board, row by row, as the SmallBoard project
//! (seed 003, phases 1 and 2) defines it: legal positions, reduced positions (serial minimal
//! among its symmetric images) and ko points with Black to move.
//!
//! Rows are placed from the last board row (the most significant serial digits) to the first,
//! so each task visits its serials in increasing order. A precomputed row transition table
//! (module `rows`) answers "is this row legal below that frontier" for a whole row at once,
//! and the last row is taken in bulk from the list of patterns that end the board legally.
//! The symmetric images of a serial are sums of per-row table entries, updated row by row.

pub mod reference;
mod rows;
mod shape;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;

pub use shape::{
    canonical, decode, encode, image, Canonicalizer, Shape, ShapeError, Symmetry, MAX_POINTS,
    MAX_SIDE,
};

use rows::{RowTable, DEAD, MAX_COLS};
use shape::POW3;

/// The counts the seed publishes for a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Positions in which every block has a liberty.
    pub legal: u64,
    /// Legal positions whose serial is minimal among their symmetric images.
    pub reduced: u64,
    /// Ko points (Black to move) summed over the reduced positions.
    pub ko_points: u64,
    /// The most ko points in one position.
    pub max_ko_points: u32,
}

impl Counts {
    fn merge(mut self, o: Counts) -> Counts {
        self.legal += o.legal;
        self.reduced += o.reduced;
        self.ko_points += o.ko_points;
        self.max_ko_points = self.max_ko_points.max(o.max_ko_points);
        self
    }
}

/// Why an enumeration cannot run.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EnumerateError {
    #[error("board {0} has {1} points; enumeration needs serials of at most {MAX_POINTS} points")]
    TooManyPoints(Shape, usize),
    #[error(
        "board {0} is too wide for the row table (at most {MAX_COLS} columns on the shorter side)"
    )]
    TooWide(Shape),
    #[error("cannot start {0} worker threads: {1}")]
    Threads(usize, String),
}

/// Progress callback: (tasks done, tasks in all). Called from worker threads.
pub type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Ko points with Black to move: empty points whose every on-board neighbour is white and
/// next to which a single white stone has that point as its only liberty.
#[must_use]
pub fn ko_mask(shape: Shape, black: u64, white: u64) -> u64 {
    Masks::new(shape).ko(black, white)
}

/// Neighbour shifts on a `rows × cols` point mask (bit id = row·cols + col).
#[derive(Clone, Copy, Debug)]
struct Masks {
    cols: u32,
    full: u64,
    /// Points not in the first column / not in the last column.
    not_first: u64,
    not_last: u64,
}

impl Masks {
    fn new(shape: Shape) -> Self {
        let full = shape.full_mask();
        let mut first = 0u64;
        for r in 0..shape.rows {
            first |= 1 << (r * shape.cols);
        }
        let last = first << (shape.cols - 1);
        Masks {
            cols: shape.cols as u32,
            full,
            not_first: full & !first,
            not_last: full & !last,
        }
    }

    /// For each direction, the points whose neighbour that way is in `x`.
    #[inline(always)]
    fn dirs(&self, x: u64) -> [u64; 4] {
        [
            (x << 1) & self.not_first,
            (x >> 1) & self.not_last,
            (x << self.cols) & self.full,
            x >> self.cols,
        ]
    }

    #[inline(always)]
    fn nbr(&self, x: u64) -> u64 {
        let [a, b, c, d] = self.dirs(x);
        a | b | c | d
    }

    #[inline(always)]
    fn ko(&self, black: u64, white: u64) -> u64 {
        let empty = self.full & !(black | white);
        // Empty points with only white neighbours.
        let surrounded = empty & !self.nbr(empty | black);
        if surrounded == 0 {
            return 0;
        }
        // White stones with no white neighbour and exactly one empty neighbour.
        let [a, b, c, d] = self.dirs(empty);
        let one = a | b | c | d;
        let two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
        let single = white & !self.nbr(white) & one & !two;
        surrounded & self.nbr(single)
    }
}

/// Part `part` of `parts` of a search: every `parts`-th task, starting at task `part`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    pub part: usize,
    pub parts: usize,
}

impl Slice {
    /// The whole search.
    pub const WHOLE: Slice = Slice { part: 0, parts: 1 };
}

/// A node of the row-by-row search: the rows placed so far.
#[derive(Clone, Copy, Debug)]
struct Node {
    state: u32,
    serial: u64,
    /// Partial image serials under the non-identity symmetries.
    imgs: [u64; 7],
    black: u64,
    white: u64,
    /// Pattern of the first row placed (board row `rows - 1`, the top serial digits).
    top: usize,
}

/// The enumerator of one board: row table plus per-row image tables.
pub struct Enumerator {
    shape: Shape,
    table: RowTable,
    /// Non-identity symmetries.
    nsym: usize,
    /// `img[(k * rows + r) * npat + p]`: serial contribution of pattern `p` on row `r` to
    /// the image under symmetry `k + 1`.
    img: Vec<u64>,
    /// `img0[p * 8 + k]`: the row-0 slice of `img`, pattern-major so the leaf loop reads one
    /// cache line per pattern.
    img0: Vec<u64>,
    /// Each pattern with its columns in reverse order.
    rev_pat: Vec<usize>,
    /// Per state: the number of legal last rows below it (0 for states never above one).
    nfinal: Vec<u64>,
    /// Point mask (row 0) of the black / white stones of each pattern.
    pat_black: Vec<u64>,
    pat_white: Vec<u64>,
    masks: Masks,
}

/// What a visit of the reduced positions produced: counts, and per task its output.
struct TaskOut<T> {
    counts: Counts,
    out: T,
}

impl Enumerator {
    /// Builds the tables for `shape` (milliseconds for boards up to 5 wide).
    pub fn new(shape: Shape) -> Result<Self, EnumerateError> {
        if !shape.has_serials() {
            return Err(EnumerateError::TooManyPoints(shape, shape.points()));
        }
        if shape.cols > MAX_COLS {
            return Err(EnumerateError::TooWide(shape));
        }
        let table = RowTable::new(shape.rows, shape.cols);
        let npat = table.npat;
        let syms = &shape.symmetries()[1..];
        let img = shape::row_images(shape);
        let mut img0 = vec![0u64; npat * 8];
        for k in 0..syms.len() {
            for p in 0..npat {
                img0[p * 8 + k] = img[k * shape.rows * npat + p];
            }
        }
        let (mut pat_black, mut pat_white) = (vec![0; npat], vec![0; npat]);
        for p in 0..npat {
            let mut x = p;
            for c in 0..shape.cols {
                match x % 3 {
                    1 => pat_black[p] |= 1 << c,
                    2 => pat_white[p] |= 1 << c,
                    _ => {}
                }
                x /= 3;
            }
        }
        let rev_pat = (0..npat)
            .map(|p| {
                let (mut x, mut r) = (p, 0);
                for _ in 0..shape.cols {
                    r = r * 3 + x % 3;
                    x /= 3;
                }
                r
            })
            .collect();
        let nfinal = (0..table.accepting.len() as u32)
            .map(|s| {
                if table.expandable(s) {
                    table.finals(s).len() as u64
                } else {
                    0
                }
            })
            .collect();
        Ok(Enumerator {
            shape,
            rev_pat,
            nfinal,
            table,
            nsym: syms.len(),
            img,
            img0,
            pat_black,
            pat_white,
            masks: Masks::new(shape),
        })
    }

    /// The board.
    #[must_use]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Places pattern `p` on the row at search depth `depth` (board row `rows - 1 - depth`).
    #[inline(always)]
    fn child(&self, n: &Node, depth: usize, p: usize, state: u32) -> Node {
        let r = self.shape.rows - 1 - depth;
        let npat = self.table.npat;
        let mut imgs = n.imgs;
        for k in 0..self.nsym {
            imgs[k] += self.img[(k * self.shape.rows + r) * npat + p];
        }
        let shift = r * self.shape.cols;
        Node {
            state,
            serial: n.serial + p as u64 * POW3[shift],
            imgs,
            black: n.black | self.pat_black[p] << shift,
            white: n.white | self.pat_white[p] << shift,
            top: if depth == 0 { p } else { n.top },
        }
    }

    /// The task roots: every live node after the first `depth` rows, in serial order.
    fn roots(&self, depth: usize) -> Vec<Node> {
        let mut level = vec![Node {
            state: self.table.start,
            serial: 0,
            imgs: [0; 7],
            black: 0,
            white: 0,
            top: 0,
        }];
        for d in 0..depth {
            let mut next = Vec::new();
            for n in &level {
                for (p, &t) in self.table.row(n.state).iter().enumerate() {
                    if t != DEAD {
                        next.push(self.child(n, d, p, t));
                    }
                }
            }
            level = next;
        }
        level
    }

    /// How many rows the task roots take: enough for a few hundred tasks, never the last row.
    fn root_depth(&self) -> usize {
        let mut d = 0;
        let mut tasks = 1usize;
        while d + 1 < self.shape.rows && tasks < 256 {
            tasks = tasks.saturating_mul(self.table.npat);
            d += 1;
        }
        d
    }

    fn run_tasks<T: Send>(
        &self,
        threads: Option<usize>,
        progress: Progress<'_>,
        slice: Slice,
        task: impl Fn(&Node, usize) -> TaskOut<T> + Sync,
    ) -> Result<(Counts, Vec<T>), EnumerateError> {
        let depth = self.root_depth();
        let mut roots = self.roots(depth);
        if slice.parts > 1 {
            roots = roots
                .into_iter()
                .enumerate()
                .filter(|(i, _)| i % slice.parts == slice.part)
                .map(|(_, n)| n)
                .collect();
        }
        let done = AtomicUsize::new(0);
        let total = roots.len();
        let body = || {
            let outs: Vec<TaskOut<T>> = roots
                .par_iter()
                .with_max_len(1)
                .map(|n| {
                    let o = task(n, depth);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                    o
                })
                .collect();
            let mut counts = Counts::default();
            let mut items = Vec::with_capacity(outs.len());
            for o in outs {
                counts = counts.merge(o.counts);
                items.push(o.out);
            }
            (counts, items)
        };
        match threads {
            None => Ok(body()),
            Some(n) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| EnumerateError::Threads(n, e.to_string()))?;
                Ok(pool.install(body))
            }
        }
    }

    /// Visits the subtree of `n` (at search depth `depth`), calling `leaf(serial, ko_mask)`
    /// for every reduced legal position in increasing serial order. Returns the counts.
    fn visit<F: FnMut(u64, u64)>(&self, n: &Node, depth: usize, leaf: &mut F) -> Counts {
        // Mirrored left-right, the image's top row is the top row reversed: when that is
        // smaller, nothing below is reduced, and only the legal count is wanted.
        if depth >= 1 && self.shape.rows > 1 && self.rev_pat[n.top] < n.top {
            return Counts {
                legal: self.count_prefixes(n.state, depth, &self.nfinal),
                ..Counts::default()
            };
        }
        if depth + 1 < self.shape.rows {
            let mut counts = Counts::default();
            for (p, &t) in self.table.row(n.state).iter().enumerate() {
                if t != DEAD {
                    let c = self.child(n, depth, p, t);
                    counts = counts.merge(self.visit(&c, depth + 1, leaf));
                }
            }
            return counts;
        }
        // Last search row = board row 0: the least significant digits, taken in bulk.
        let finals = self.table.finals(n.state);
        let mut counts = Counts {
            legal: finals.len() as u64,
            ..Counts::default()
        };
        // Mirrored top to bottom, the image's top row is row 0: a pattern below the top row's
        // makes a smaller image. (With one row, the top row is row 0 itself.)
        let from = if self.shape.rows > 1 {
            finals.partition_point(|&p| (p as usize) < n.top)
        } else {
            0
        };
        'pattern: for &p in &finals[from..] {
            let p = p as usize;
            let serial = n.serial + p as u64;
            let img0 = &self.img0[p * 8..p * 8 + 8];
            for k in 0..self.nsym {
                if n.imgs[k] + img0[k] < serial {
                    continue 'pattern;
                }
            }
            let ko = self
                .masks
                .ko(n.black | self.pat_black[p], n.white | self.pat_white[p]);
            let k = ko.count_ones();
            counts.reduced += 1;
            counts.ko_points += u64::from(k);
            counts.max_ko_points = counts.max_ko_points.max(k);
            leaf(serial, ko);
        }
        counts
    }

    /// The work of a run, exactly, by a dynamic program over the row table (milliseconds):
    /// `(nodes, legal)` where `nodes` is the number of live positions of all rows but the last
    /// (what [`Enumerator::count_legal`] visits) and `legal` the number of legal positions
    /// (what [`Enumerator::count`] visits).
    #[must_use]
    pub fn work(&self) -> (u128, u128) {
        let n = self.table.accepting.len();
        let mut cur = vec![0u128; n];
        cur[self.table.start as usize] = 1;
        for _ in 0..self.shape.rows - 1 {
            let mut next = vec![0u128; n];
            for (s, &k) in cur.iter().enumerate() {
                if k != 0 {
                    for &t in self.table.row(s as u32) {
                        if t != DEAD {
                            next[t as usize] += k;
                        }
                    }
                }
            }
            cur = next;
        }
        let nodes = cur.iter().sum();
        let legal = cur
            .iter()
            .enumerate()
            .filter(|&(_, &k)| k != 0)
            .map(|(s, &k)| k * self.table.finals(s as u32).len() as u128)
            .sum();
        (nodes, legal)
    }

    /// Counts legal, reduced and ko points by visiting every legal position.
    pub fn count(
        &self,
        threads: Option<usize>,
        progress: Progress<'_>,
    ) -> Result<Counts, EnumerateError> {
        self.count_slice(threads, progress, Slice::WHOLE)
    }

    /// [`Enumerator::count`] over one slice of the search: the counts of all the slices of a
    /// board add up to the whole (the maxima combine by `max`). Used to measure the rate of a
    /// board too big to count in one go, and to split such a count over several runs.
    pub fn count_slice(
        &self,
        threads: Option<usize>,
        progress: Progress<'_>,
        slice: Slice,
    ) -> Result<Counts, EnumerateError> {
        let (counts, _) = self.run_tasks(threads, progress, slice, |n, d| TaskOut {
            counts: self.visit(n, d, &mut |_, _| {}),
            out: (),
        })?;
        Ok(counts)
    }

    /// Counts the legal positions only: every position but its last row is visited, the last
    /// row is counted in bulk from the state of the row above.
    pub fn count_legal(
        &self,
        threads: Option<usize>,
        progress: Progress<'_>,
    ) -> Result<u64, EnumerateError> {
        let nfinal = &self.nfinal;
        let (counts, _) = self.run_tasks(threads, progress, Slice::WHOLE, |n, d| TaskOut {
            counts: Counts {
                legal: self.count_prefixes(n.state, d, nfinal),
                ..Counts::default()
            },
            out: (),
        })?;
        Ok(counts.legal)
    }

    fn count_prefixes(&self, state: u32, depth: usize, nfinal: &[u64]) -> u64 {
        if depth + 1 == self.shape.rows {
            return nfinal[state as usize];
        }
        let row = self.table.row(state);
        if depth + 2 == self.shape.rows {
            // The innermost enumerated row: one table read per live pattern.
            return row
                .iter()
                .filter(|&&t| t != DEAD)
                .map(|&t| nfinal[t as usize])
                .sum();
        }
        row.iter()
            .filter(|&&t| t != DEAD)
            .map(|&t| self.count_prefixes(t, depth + 1, nfinal))
            .sum()
    }

    /// Every reduced legal serial as a bitset over serials (bit `s` of word `s / 64`), and the
    /// (serial, ko mask) of every reduced position that has a ko point, in serial order.
    pub fn reduced_set(
        &self,
        threads: Option<usize>,
        progress: Progress<'_>,
    ) -> Result<ReducedSet, EnumerateError> {
        let words = self.shape.serial_count().div_ceil(64) as usize;
        let bits: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(0)).collect();
        let (counts, kos) = self.run_tasks(threads, progress, Slice::WHOLE, |n, d| {
            let mut ko = Vec::new();
            let counts = self.visit(n, d, &mut |s, m| {
                bits[(s / 64) as usize].fetch_or(1 << (s % 64), Ordering::Relaxed);
                if m != 0 {
                    ko.push((s, m));
                }
            });
            TaskOut { counts, out: ko }
        })?;
        Ok(ReducedSet {
            shape: self.shape,
            counts,
            bits: bits.into_iter().map(AtomicU64::into_inner).collect(),
            ko: kos.into_iter().flatten().collect(),
        })
    }
}

/// The reduced legal positions of a board, as [`Enumerator::reduced_set`] returns them.
#[derive(Clone, Debug)]
pub struct ReducedSet {
    pub shape: Shape,
    pub counts: Counts,
    /// Bitset over serials: bit `s % 64` of word `s / 64` is set when `s` is reduced and legal.
    pub bits: Vec<u64>,
    /// (serial, ko mask) of the reduced positions with at least one ko point, ascending.
    pub ko: Vec<(u64, u64)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
    }

    #[test]
    fn small_counts() {
        let e = Enumerator::new(shape(3, 3)).unwrap();
        let c = e.count(Some(1), &|_, _| {}).unwrap();
        assert_eq!(
            c,
            Counts {
                legal: 12675,
                reduced: 1824,
                ko_points: 70,
                max_ko_points: 2
            }
        );
        assert_eq!(e.count_legal(Some(1), &|_, _| {}).unwrap(), 12675);
    }

    #[test]
    fn fast_path_matches_reference_per_serial() {
        for (r, c) in [(1, 1), (1, 4), (2, 2), (2, 3), (3, 2), (3, 3)] {
            let sh = shape(r, c);
            let set = Enumerator::new(sh)
                .unwrap()
                .reduced_set(Some(2), &|_, _| {})
                .unwrap();
            let mut ko = set.ko.iter().peekable();
            for s in 0..sh.serial_count() {
                let f = reference::facts(sh, s);
                let bit = set.bits[(s / 64) as usize] >> (s % 64) & 1 == 1;
                assert_eq!(bit, f.legal && f.reduced, "{sh} serial {s}");
                if bit {
                    let m = match ko.peek() {
                        Some(&&(t, m)) if t == s => {
                            ko.next();
                            m
                        }
                        _ => 0,
                    };
                    assert_eq!(m, f.ko_mask, "{sh} serial {s}");
                }
            }
        }
    }
}
