//! Small-board Go states on bit masks: successors generated on the fly and predecessors by
//! un-move generation, with nothing stored per edge.
//!
//! The states and their numbering are exactly those of [`crate::go::GoGame`] (the reference):
//! `4 * pos + 2 * side + pass` for the states without a ko point, `4 * P + k` for the `k`-th
//! ko state in the order of the key `(pos, side, point)`. A database written from either is the
//! same file. What differs is the speed: a position is a pair of `u32` point masks (bit `id` =
//! row · cols + col), blocks are found by flood fill on the masks, and canonical forms by per-row
//! tables.
//!
//! # Un-move generation
//!
//! The predecessors of a state `t` (position `P`, side `S` to move, ko point, pass flag):
//!
//! - after a pass (pass flag set): `P` with the other side `M` to move, without a ko point or
//!   with any of its ko points (a pass is legal whatever the ban). Never a state with the pass
//!   flag: a second pass ends the game.
//! - otherwise `M` has just played a stone `q` of `P`. Un-playing it empties `q` and may restore
//!   stones that `q` captured: a captured block of `S` was, once taken, an empty region next to
//!   `q` bordered only by `M`'s stones (its neighbours were all `M`'s when it lost its last
//!   liberty, and nothing has been played since). Every subset of the empty regions next to `q`
//!   bordered only by `M` is tried: filled with `S`, each such region is one block whose only
//!   liberty is `q`, so playing `q` captures exactly the chosen regions, and no other block of
//!   `S` next to `q` (a region bordered only by `M` touches no block of `S`, so those keep their
//!   liberties of `P`). The un-played position `Q` must be legal. The move's ko point (a lone
//!   stone that took a lone stone and has that point as its only liberty) must be the ko point
//!   of `t` after reduction under the symmetries that fix `P`. The predecessors are then `Q` with
//!   `M` to move, with or without the pass flag, and with each ko point of `Q` other than `q`.
//!
//! Predecessors are listed once each (sorted, no repeats), and successors likewise by
//! [`Space::successor_states`]: the counting solver counts distinct successor states. The tests
//! check, on every state of the small boards, that the two relations are each other's transpose
//! and that the successors are the reference's edges.

use std::path::Path;

use stonelab_go::enumerate::{Shape, Symmetry};
use stonelab_go::statefile::{SelectCursor, StateTable};

/// Why a state space could not be built, or a state table turned out to be inconsistent.
#[derive(Debug, thiserror::Error)]
pub enum SpaceError {
    #[error(
        "board {0} is too big for the solver's point masks (at most 30 points, rows of at most 10)"
    )]
    TooBig(Shape),
    #[error("state table: {0}")]
    BadTable(String),
    #[error("{0}")]
    Other(String),
}

/// A successor: a state, or the end of the game with Black's area score minus White's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Succ {
    State(u64),
    End(i16),
}

/// A decoded state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub pos: u64,
    /// 0: Black to move, 1: White.
    pub side: u8,
    pub pass: bool,
    pub ko: Option<u8>,
}

/// A position with the side to move: `own` are the mover's stones.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Pos {
    black: u32,
    white: u32,
}

/// The Go game of one board over the reduced positions of a state table, on point masks.
pub struct Space {
    shape: Shape,
    rows: usize,
    cols: usize,
    full: u32,
    not_first: u32,
    not_last: u32,
    /// On-board neighbours of each point.
    nbr1: Vec<u32>,
    table: StateTable,
    positions: u64,
    /// Sorted keys `pos << 8 | side << 7 | point` of the ko states (as in [`crate::go::GoGame`]).
    ko_keys: Vec<u64>,
    /// `tern[b << cols | w]`: the ternary value of a row with black bits `b`, white bits `w`.
    tern: Vec<u32>,
    /// `row_b[p]`, `row_w[p]`: the black and white bits of row pattern `p`.
    row_b: Vec<u32>,
    row_w: Vec<u32>,
    npat: u64,
    /// `3^(cols * r)`.
    row_pow: Vec<u64>,
    /// `img[(r * npat + p) * 8 + k]`: what pattern `p` on row `r` adds to the image serial under
    /// the `k+1`-th symmetry; lanes past the last symmetry hold [`NO_IMAGE`]. Eight lanes a row
    /// so that the sum over the rows is one vector add per row.
    img: Vec<[u64; 8]>,
    /// `sym_point[k][id]`: the image of point `id` under the `k`-th symmetry (identity first).
    sym_point: Vec<Vec<u8>>,
}

/// A predecessor position found by un-move generation, before its rank is taken.
#[derive(Clone, Copy, Default)]
struct Cand {
    /// Canonical serial, and the symmetries that reach it.
    best: u64,
    set: u32,
    /// The mover's and the other side's stones, and the point un-played.
    m2: u32,
    s2: u32,
    qb: u32,
}

/// The image lanes of absent symmetries: above every serial (3^30 < 2^48) even summed over 10 rows.
const NO_IMAGE: u64 = 1 << 58;

/// Scores fit an `i8` with room for the two sentinels.
pub const MAX_POINTS: usize = 30;

impl Space {
    /// Builds the space over a state table, checking every position of it: legal, reduced
    /// (minimal among its images) and with the ko points the table records. Uses `threads`
    /// threads for the pass over the table.
    pub fn new(table: StateTable, threads: usize) -> Result<Space, SpaceError> {
        let shape = table.shape();
        let (rows, cols) = (shape.rows, shape.cols);
        if shape.points() > MAX_POINTS || cols > 10 {
            return Err(SpaceError::TooBig(shape));
        }
        let full = ((1u64 << shape.points()) - 1) as u32;
        let mut first = 0u32;
        for r in 0..rows {
            first |= 1 << (r * cols);
        }
        let last = first << (cols - 1);
        let npat = 3u64.pow(cols as u32);
        let mut tern = vec![0u32; 1 << (2 * cols)];
        let (mut row_b, mut row_w) = (vec![0u32; npat as usize], vec![0u32; npat as usize]);
        for p in 0..npat as usize {
            let (mut x, mut b, mut w) = (p, 0u32, 0u32);
            for c in 0..cols {
                match x % 3 {
                    1 => b |= 1 << c,
                    2 => w |= 1 << c,
                    _ => {}
                }
                x /= 3;
            }
            row_b[p] = b;
            row_w[p] = w;
            tern[(b as usize) << cols | w as usize] = p as u32;
        }
        let syms = shape.symmetries();
        let sym_point: Vec<Vec<u8>> = syms
            .iter()
            .map(|&t| {
                (0..shape.points())
                    .map(|id| t.map_point(shape, id) as u8)
                    .collect()
            })
            .collect();
        let pow3 = |e: usize| 3u64.pow(e as u32);
        let mut img = vec![[NO_IMAGE; 8]; rows * npat as usize];
        for k in 0..syms.len() - 1 {
            for r in 0..rows {
                for p in 0..npat as usize {
                    let mut x = p;
                    let mut v = 0;
                    for c in 0..cols {
                        v += (x % 3) as u64 * pow3(sym_point[k + 1][r * cols + c] as usize);
                        x /= 3;
                    }
                    img[r * npat as usize + p][k] = v;
                }
            }
        }
        let nbr1 = (0..shape.points())
            .map(|id| {
                let (r, c) = (id / cols, id % cols);
                let mut m = 0u32;
                if r > 0 {
                    m |= 1 << (id - cols);
                }
                if r + 1 < rows {
                    m |= 1 << (id + cols);
                }
                if c > 0 {
                    m |= 1 << (id - 1);
                }
                if c + 1 < cols {
                    m |= 1 << (id + 1);
                }
                m
            })
            .collect();
        let mut space = Space {
            shape,
            rows,
            cols,
            full,
            not_first: full & !first,
            not_last: full & !last,
            nbr1,
            positions: table.len(),
            table,
            ko_keys: Vec::new(),
            tern,
            row_b,
            row_w,
            npat,
            row_pow: (0..rows).map(|r| pow3(r * cols)).collect(),
            img,
            sym_point,
        };
        space.ko_keys = space.scan_table(threads.max(1))?;
        Ok(space)
    }

    /// Opens a state table file and builds the space.
    pub fn open(path: &Path, threads: usize) -> Result<Space, SpaceError> {
        let table = StateTable::open(path).map_err(|e| SpaceError::BadTable(e.to_string()))?;
        Space::new(table, threads)
    }

    /// One pass over the table: checks every position and lists the ko keys in order.
    fn scan_table(&self, threads: usize) -> Result<Vec<u64>, SpaceError> {
        let words = self.table.bitset_words();
        let parts = (threads * 8).min(words.max(1));
        let chunk = words.div_ceil(parts).div_ceil(8) * 8;
        let results: Vec<Result<Vec<u64>, SpaceError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    scope.spawn(move || {
                        let mut out = Vec::new();
                        let mut mine = Vec::new();
                        let mut part = t;
                        while part * chunk < words {
                            let from = part * chunk;
                            let to = (from + chunk).min(words);
                            mine.push((part, self.scan_words(from, to)));
                            part += threads;
                        }
                        out.append(&mut mine);
                        out
                    })
                })
                .collect();
            let mut all: Vec<(usize, Result<Vec<u64>, SpaceError>)> = handles
                .into_iter()
                .flat_map(|h| h.join().expect("scan thread"))
                .collect();
            all.sort_by_key(|(p, _)| *p);
            all.into_iter().map(|(_, r)| r).collect()
        });
        let mut keys = Vec::new();
        for r in results {
            keys.extend(r?);
        }
        let black_ko: u64 = keys.iter().filter(|k| *k >> 7 & 1 == 0).count() as u64;
        if black_ko != self.table.counts().ko_points {
            return Err(SpaceError::BadTable(format!(
                "{black_ko} ko points with Black to move, the header says {}",
                self.table.counts().ko_points
            )));
        }
        Ok(keys)
    }

    fn scan_words(&self, from: usize, to: usize) -> Result<Vec<u64>, SpaceError> {
        let mut keys = Vec::new();
        let mut pos = self.table.rank_of_word(from);
        for w in from..to {
            let mut word = self.table.bitset_word(w);
            while word != 0 {
                let serial = w as u64 * 64 + u64::from(word.trailing_zeros());
                word &= word - 1;
                let p = self.decode(serial);
                let bad = |why: &str| {
                    Err(SpaceError::BadTable(format!(
                        "serial {serial} (state {pos}) is {why}"
                    )))
                };
                if !self.legal(p.black, p.white) {
                    return bad("not a legal position");
                }
                let (best, _) = self.canonical(p);
                if best != serial {
                    return bad("not reduced (a symmetric image is smaller)");
                }
                let kb = self.ko_mask(p.black, p.white);
                if kb != self.table.ko_mask(pos) {
                    return bad("recorded with the wrong ko points");
                }
                for (side, mut m) in [(0u64, kb), (1u64, self.ko_mask(p.white, p.black))] {
                    while m != 0 {
                        let point = u64::from(m.trailing_zeros());
                        m &= m - 1;
                        keys.push(pos << 8 | side << 7 | point);
                    }
                }
                pos += 1;
            }
        }
        Ok(keys)
    }

    /// The board.
    #[must_use]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The state table.
    #[must_use]
    pub fn table(&self) -> &StateTable {
        &self.table
    }

    /// Reduced positions.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The sorted ko keys `pos << 8 | side << 7 | point` (the numbering of the ko states).
    #[must_use]
    pub fn ko_keys(&self) -> &[u64] {
        &self.ko_keys
    }

    /// Ko states.
    #[must_use]
    pub fn ko_states(&self) -> u64 {
        self.ko_keys.len() as u64
    }

    /// All states.
    #[must_use]
    pub fn num_states(&self) -> u64 {
        4 * self.positions + self.ko_keys.len() as u64
    }

    /// Decodes state `s`.
    #[must_use]
    pub fn state(&self, s: u64) -> State {
        let base = 4 * self.positions;
        if s < base {
            State {
                pos: s / 4,
                side: (s / 2 % 2) as u8,
                pass: s % 2 == 1,
                ko: None,
            }
        } else {
            let k = self.ko_keys[(s - base) as usize];
            State {
                pos: k >> 8,
                side: (k >> 7 & 1) as u8,
                pass: false,
                ko: Some((k & 0x7F) as u8),
            }
        }
    }

    /// Who moves in state `s` (0: Black, 1: White).
    #[inline]
    #[must_use]
    pub fn side(&self, s: u64) -> u8 {
        let base = 4 * self.positions;
        if s < base {
            (s >> 1 & 1) as u8
        } else {
            (self.ko_keys[(s - base) as usize] >> 7 & 1) as u8
        }
    }

    /// The largest score magnitude (the number of points).
    #[must_use]
    pub fn max_score(&self) -> i16 {
        self.shape.points() as i16
    }

    /// The serial of position `pos` (with a cursor for increasing walks).
    #[must_use]
    pub fn serial(&self, pos: u64, cursor: &mut SelectCursor) -> u64 {
        self.table
            .select_with(cursor, pos)
            .expect("position index below the count")
    }

    fn decode(&self, serial: u64) -> Pos {
        let (mut black, mut white) = (0u32, 0u32);
        let mut s = serial;
        for r in 0..self.rows {
            let p = (s % self.npat) as usize;
            s /= self.npat;
            black |= self.row_b[p] << (r * self.cols);
            white |= self.row_w[p] << (r * self.cols);
        }
        Pos { black, white }
    }

    /// The black and white point masks of position `pos`'s serial.
    #[must_use]
    pub fn stones(&self, serial: u64) -> (u32, u32) {
        let p = self.decode(serial);
        (p.black, p.white)
    }

    /// The canonical serial of a position and the set of symmetries (bit `k`) that reach it.
    #[inline]
    fn canonical(&self, p: Pos) -> (u64, u32) {
        let rowmask = (1u32 << self.cols) - 1;
        let npat = self.npat as usize;
        let mut serial = 0u64;
        let mut imgs = [0u64; 8];
        for r in 0..self.rows {
            let sh = r * self.cols;
            let b = (p.black >> sh) & rowmask;
            let w = (p.white >> sh) & rowmask;
            let t = self.tern[(b as usize) << self.cols | w as usize] as usize;
            serial += t as u64 * self.row_pow[r];
            let row = &self.img[r * npat + t];
            for k in 0..8 {
                imgs[k] = imgs[k].wrapping_add(row[k]);
            }
        }
        let best = imgs.iter().fold(serial, |m, &v| m.min(v));
        let mut set = u32::from(serial == best);
        for (k, &v) in imgs.iter().enumerate() {
            set |= u32::from(v == best) << (k + 1);
        }
        (best, set)
    }

    /// The canonical image of ko point `id` among the symmetries in `set`.
    #[inline]
    fn canonical_point(&self, set: u32, id: u8) -> u8 {
        let mut best = u8::MAX;
        let mut m = set;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            best = best.min(self.sym_point[k][id as usize]);
        }
        best
    }

    #[inline(always)]
    fn nbr(&self, x: u32) -> u32 {
        ((x << 1) & self.not_first)
            | ((x >> 1) & self.not_last)
            | ((x << self.cols) & self.full)
            | (x >> self.cols)
    }

    #[inline(always)]
    fn flood(&self, seed: u32, within: u32) -> u32 {
        let mut x = seed & within;
        loop {
            let y = (x | self.nbr(x)) & within;
            if y == x {
                return x;
            }
            x = y;
        }
    }

    /// Whether every block of both colours has a liberty.
    #[inline]
    fn legal(&self, black: u32, white: u32) -> bool {
        let empty = self.full & !(black | white);
        let libs = self.nbr(empty);
        self.flood(libs & black, black) == black && self.flood(libs & white, white) == white
    }

    /// Ko points for the side whose stones are `own` (the seed's definition).
    #[inline]
    fn ko_mask(&self, own: u32, opp: u32) -> u32 {
        let empty = self.full & !(own | opp);
        let surrounded = empty & !self.nbr(empty | own);
        if surrounded == 0 {
            return 0;
        }
        let a = (empty << 1) & self.not_first;
        let b = (empty >> 1) & self.not_last;
        let c = (empty << self.cols) & self.full;
        let d = empty >> self.cols;
        let one = a | b | c | d;
        let two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
        let single = opp & !self.nbr(opp) & one & !two;
        surrounded & self.nbr(single)
    }

    /// Black's area minus White's.
    #[must_use]
    pub fn score(&self, black: u32, white: u32) -> i16 {
        let empty = self.full & !(black | white);
        let rb = self.flood(self.nbr(black) & empty, empty);
        let rw = self.flood(self.nbr(white) & empty, empty);
        let b = (black | (rb & !rw)).count_ones() as i16;
        let w = (white | (rw & !rb)).count_ones() as i16;
        b - w
    }

    /// Plays a stone of the side owning `own` at `p`: the new (own, opp) and the ko point, or
    /// `None` for suicide.
    #[inline]
    fn play(&self, own: u32, opp: u32, p: u32) -> Option<(u32, u32, Option<u8>)> {
        let pb = 1u32 << p;
        let own2 = own | pb;
        let empty2 = self.full & !(own2 | opp);
        let mut captured = 0u32;
        let mut rest = self.nbr1[p as usize] & opp;
        while rest != 0 {
            let chain = self.flood(rest & rest.wrapping_neg(), opp);
            rest &= !chain;
            if self.nbr(chain) & empty2 == 0 {
                captured |= chain;
            }
        }
        let opp2 = opp & !captured;
        let empty3 = empty2 | captured;
        let mine = self.flood(pb, own2);
        let libs = self.nbr(mine) & empty3;
        if libs == 0 {
            return None;
        }
        let ko = (mine == pb && captured.count_ones() == 1 && libs == captured)
            .then(|| captured.trailing_zeros() as u8);
        Some((own2, opp2, ko))
    }

    /// The state of a position given by masks (any orientation), side to move, ko point (none
    /// after a pass) and pass flag. `None` when the table does not have it.
    #[inline]
    fn index_of(&self, p: Pos, side: u8, ko: Option<u8>, pass: bool) -> Option<u64> {
        let (best, set) = self.canonical(p);
        let pos = self.table.rank(best)?;
        self.index_at(pos, set, side, ko, pass)
    }

    /// The ko state `(pos, side, point)` with the point as given (not reduced).
    #[inline]
    fn ko_index(&self, pos: u64, side: u8, point: u8) -> Option<u64> {
        let key = pos << 8 | u64::from(side) << 7 | u64::from(point);
        let k = self.ko_keys.binary_search(&key).ok()?;
        Some(4 * self.positions + k as u64)
    }

    #[inline]
    fn index_at(&self, pos: u64, set: u32, side: u8, ko: Option<u8>, pass: bool) -> Option<u64> {
        match ko {
            None => Some(4 * pos + 2 * u64::from(side) + u64::from(pass)),
            Some(id) => {
                let point = self.canonical_point(set, id);
                let key = pos << 8 | u64::from(side) << 7 | u64::from(point);
                let k = self.ko_keys.binary_search(&key).ok()?;
                Some(4 * self.positions + k as u64)
            }
        }
    }

    /// The state of a board position (any orientation) given by masks, `side` to move, with its
    /// ko point and pass flag (a pass clears the ko point).
    pub fn state_of(
        &self,
        black: u32,
        white: u32,
        side: u8,
        ko: Option<u8>,
        pass: bool,
    ) -> Option<u64> {
        self.index_of(
            Pos { black, white },
            side,
            if pass { None } else { ko },
            pass,
        )
    }

    /// Black and white masks and decoded fields of state `s`.
    #[must_use]
    pub fn board(&self, s: u64, cursor: &mut SelectCursor) -> (u32, u32, State) {
        let st = self.state(s);
        let p = self.decode(self.serial(st.pos, cursor));
        (p.black, p.white, st)
    }

    /// Appends every move's successor of state `s` (one per legal move, in point order, then the
    /// pass). Errors when a successor is not in the table (an inconsistent table).
    pub fn successors(
        &self,
        s: u64,
        cursor: &mut SelectCursor,
        out: &mut Vec<Succ>,
    ) -> Result<(), SpaceError> {
        let (black, white, st) = self.board(s, cursor);
        self.successors_of(black, white, st, out)
    }

    fn successors_of(
        &self,
        black: u32,
        white: u32,
        st: State,
        out: &mut Vec<Succ>,
    ) -> Result<(), SpaceError> {
        let (own, opp) = if st.side == 0 {
            (black, white)
        } else {
            (white, black)
        };
        let mut empty = self.full & !(black | white);
        if let Some(k) = st.ko {
            empty &= !(1 << k);
        }
        let next = st.side ^ 1;
        // Canonical forms first, their table reads started; then the ranks.
        let mut found = [(0u64, 0u32, None::<u8>); MAX_POINTS];
        let mut n = 0;
        while empty != 0 {
            let p = empty.trailing_zeros();
            empty &= empty - 1;
            if let Some((own2, opp2, ko)) = self.play(own, opp, p) {
                let q = if st.side == 0 {
                    Pos {
                        black: own2,
                        white: opp2,
                    }
                } else {
                    Pos {
                        black: opp2,
                        white: own2,
                    }
                };
                let (best, set) = self.canonical(q);
                self.table.prefetch_rank(best);
                found[n] = (best, set, ko);
                n += 1;
            }
        }
        for &(best, set, ko) in &found[..n] {
            let t = self
                .table
                .rank(best)
                .and_then(|pos| self.index_at(pos, set, next, ko, false))
                .ok_or_else(|| {
                    SpaceError::BadTable(format!(
                        "a successor of state {s} is missing from the table",
                        s = self.display_state(st)
                    ))
                })?;
            out.push(Succ::State(t));
        }
        if st.pass {
            out.push(Succ::End(self.score(black, white)));
        } else {
            out.push(Succ::State(
                4 * st.pos + 2 * u64::from(next) + 1, // same position, other side, pass flag
            ));
        }
        Ok(())
    }

    fn display_state(&self, st: State) -> String {
        format!(
            "(position {}, {} to move{}{})",
            st.pos,
            if st.side == 0 { "Black" } else { "White" },
            if st.pass { ", after a pass" } else { "" },
            st.ko.map(|k| format!(", ko {k}")).unwrap_or_default()
        )
    }

    /// The distinct successors of state `s`, sorted (states, then the end of the game).
    pub fn successor_states(
        &self,
        s: u64,
        cursor: &mut SelectCursor,
        out: &mut Vec<Succ>,
    ) -> Result<(), SpaceError> {
        out.clear();
        self.successors(s, cursor, out)?;
        out.sort_unstable();
        out.dedup();
        Ok(())
    }

    /// The distinct predecessor states of state `s`, sorted. `scratch` is working space.
    pub fn predecessors(
        &self,
        s: u64,
        cursor: &mut SelectCursor,
        out: &mut Vec<u64>,
    ) -> Result<(), SpaceError> {
        out.clear();
        let (black, white, st) = self.board(s, cursor);
        let mover = st.side ^ 1;
        if st.pass {
            // After a pass: the same position, the other side to move, any ko ban.
            out.push(4 * st.pos + 2 * u64::from(mover));
            let from = self
                .ko_keys
                .partition_point(|&k| k < (st.pos << 8 | u64::from(mover) << 7));
            let mut k = from;
            while k < self.ko_keys.len() && self.ko_keys[k] >> 7 == (st.pos << 1 | u64::from(mover))
            {
                out.push(4 * self.positions + k as u64);
                k += 1;
            }
            return Ok(());
        }
        let (m_stones, s_stones) = if mover == 0 {
            (black, white)
        } else {
            (white, black)
        };
        let empty = self.full & !(black | white);
        // The symmetries fixing P (P is canonical: the identity is among those reaching it),
        // found when a move's ko point needs them.
        let mut stab = None;
        // The predecessor positions found, ranked together so that their table reads overlap.
        let mut cands = [Cand::default(); 16];
        let mut n_cands = 0;
        let mut qs = m_stones;
        while qs != 0 {
            let q = qs.trailing_zeros();
            qs &= qs - 1;
            let qb = 1u32 << q;
            // Empty regions next to q bordered only by the mover (q included).
            let mut regions = [0u32; 4];
            let mut n = 0;
            let mut e = self.nbr1[q as usize] & empty;
            while e != 0 {
                let r = self.flood(e & e.wrapping_neg(), empty);
                e &= !r;
                if self.nbr(r) & s_stones == 0 {
                    regions[n] = r;
                    n += 1;
                }
            }
            let lone = self.nbr1[q as usize] & m_stones == 0;
            let libs_q = self.nbr1[q as usize] & empty;
            for subset in 0u32..(1 << n) {
                let mut restored = 0u32;
                let mut count = 0;
                for (i, &r) in regions[..n].iter().enumerate() {
                    if subset >> i & 1 == 1 {
                        restored |= r;
                        count += 1;
                    }
                }
                // The move's ko point, reduced under P's symmetries, must be the state's.
                let ko = (lone && count == 1 && restored.count_ones() == 1 && libs_q == restored)
                    .then(|| {
                        let stab =
                            *stab.get_or_insert_with(|| self.canonical(Pos { black, white }).1);
                        self.canonical_point(stab, restored.trailing_zeros() as u8)
                    });
                if ko != st.ko {
                    continue;
                }
                let m2 = m_stones & !qb;
                let s2 = s_stones | restored;
                let (b2, w2) = if mover == 0 { (m2, s2) } else { (s2, m2) };
                // Taking a stone off a legal position leaves it legal; restored chains take
                // liberties from the mover's chains, which may then have none.
                if restored != 0 && !self.legal(b2, w2) {
                    continue;
                }
                let (best, set) = self.canonical(Pos {
                    black: b2,
                    white: w2,
                });
                self.table.prefetch_rank(best);
                if n_cands == cands.len() {
                    self.rank_predecessors(s, mover, &cands, out)?;
                    n_cands = 0;
                }
                cands[n_cands] = Cand {
                    best,
                    set,
                    m2,
                    s2,
                    qb,
                };
                n_cands += 1;
            }
        }
        self.rank_predecessors(s, mover, &cands[..n_cands], out)?;
        out.sort_unstable();
        out.dedup();
        Ok(())
    }

    /// The states of predecessor positions `cands` (`mover` to move): both pass flags, and every
    /// ko state whose ban does not stop the move.
    fn rank_predecessors(
        &self,
        s: u64,
        mover: u8,
        cands: &[Cand],
        out: &mut Vec<u64>,
    ) -> Result<(), SpaceError> {
        for c in cands {
            let pos = self.table.rank(c.best).ok_or_else(|| {
                SpaceError::BadTable(format!(
                    "a predecessor of state {s} is missing from the table"
                ))
            })?;
            out.push(4 * pos + 2 * u64::from(mover));
            out.push(4 * pos + 2 * u64::from(mover) + 1);
            // Every ko state of Q's canonical form whose ban does not stop q: the table keeps
            // each ko point of the canonical position as a state of its own (also those that
            // a symmetry of the position maps onto a smaller one), so each symmetry taking Q
            // to its canonical form gives its own images of the ban and of q.
            let kos = self.ko_mask(c.m2, c.s2);
            if kos != 0 {
                let mut taus = c.set;
                while taus != 0 {
                    let tau = taus.trailing_zeros() as usize;
                    taus &= taus - 1;
                    let mut m = kos & !c.qb;
                    while m != 0 {
                        let k = m.trailing_zeros() as usize;
                        m &= m - 1;
                        let point = self.sym_point[tau][k];
                        let t = self.ko_index(pos, mover, point).ok_or_else(|| {
                            SpaceError::BadTable(format!(
                                "a ko predecessor of state {s} is missing from the table"
                            ))
                        })?;
                        out.push(t);
                    }
                }
            }
        }
        Ok(())
    }

    /// Scores of the positions, in position order (for the end-of-game seeds).
    #[must_use]
    pub fn score_of_serial(&self, serial: u64) -> i16 {
        let p = self.decode(serial);
        self.score(p.black, p.white)
    }

    /// Symmetries of the board (for documentation).
    #[must_use]
    pub fn symmetries(&self) -> &'static [Symmetry] {
        self.shape.symmetries()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::GoGame;
    use crate::{Edge, GameGraph};
    use stonelab_go::enumerate::Enumerator;
    use stonelab_go::statefile;

    fn table(r: usize, c: usize) -> StateTable {
        let shape = Shape::new(r, c).unwrap();
        let set = Enumerator::new(shape)
            .unwrap()
            .reduced_set(Some(1), &|_, _| {})
            .unwrap();
        let path = std::env::temp_dir().join(format!(
            "stonelab-space-{}-{r}x{c}-{}.st",
            std::process::id(),
            rand_suffix()
        ));
        statefile::write(&path, &set).unwrap();
        let t = StateTable::open(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        t
    }

    fn rand_suffix() -> u64 {
        use std::sync::atomic::{AtomicU64, Ordering};
        static N: AtomicU64 = AtomicU64::new(0);
        N.fetch_add(1, Ordering::Relaxed)
    }

    fn boards() -> Vec<(usize, usize)> {
        vec![
            (1, 1),
            (1, 2),
            (1, 3),
            (1, 5),
            (1, 7),
            (2, 1),
            (2, 2),
            (2, 3),
            (3, 2),
            (2, 4),
            (3, 3),
            (2, 5),
        ]
    }

    #[test]
    fn successors_are_the_reference_edges() {
        for (r, c) in boards() {
            let space = Space::new(table(r, c), 2).unwrap();
            let game = GoGame::new(table(r, c)).unwrap();
            assert_eq!(space.num_states(), game.num_states(), "{r}x{c}");
            let mut cur = SelectCursor::default();
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for s in 0..space.num_states() {
                a.clear();
                space.successors(s, &mut cur, &mut a).unwrap();
                b.clear();
                game.edges(s, &mut b);
                let b: Vec<Succ> = b
                    .iter()
                    .map(|e| match *e {
                        Edge::State(t) => Succ::State(t),
                        Edge::End(v) => Succ::End(v),
                    })
                    .collect();
                assert_eq!(a, b, "{r}x{c} state {s}");
            }
        }
    }

    #[test]
    fn predecessors_are_the_transpose_of_successors() {
        for (r, c) in boards() {
            let space = Space::new(table(r, c), 1).unwrap();
            let n = space.num_states() as usize;
            let mut want: Vec<Vec<u64>> = vec![Vec::new(); n];
            let mut cur = SelectCursor::default();
            let mut out = Vec::new();
            for s in 0..n as u64 {
                space.successor_states(s, &mut cur, &mut out).unwrap();
                for e in &out {
                    if let Succ::State(t) = *e {
                        want[t as usize].push(s);
                    }
                }
            }
            let mut preds = Vec::new();
            for t in 0..n {
                space.predecessors(t as u64, &mut cur, &mut preds).unwrap();
                assert_eq!(preds, want[t], "{r}x{c} state {t}");
            }
        }
    }
}
