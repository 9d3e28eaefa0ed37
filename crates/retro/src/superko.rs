//! Exact values under positional superko, by a history-aware alpha-beta search.
//!
//! # Rules
//!
//! Area scoring, suicide illegal, two consecutive passes end the game, Black first, and
//! **positional superko**: no stone may be played that recreates a board position (the stones
//! alone, whoever is to move) that occurred earlier in the game. A pass recreates nothing and is
//! always legal. Every game ends (a position can occur only once between passes), so the value of
//! a position with its history is well defined; it is Black's area score minus White's, komi 0.
//!
//! # Transpositions, soundly
//!
//! The value of a position depends on the game's history, so a stored result may not simply be
//! reused (the graph-history-interaction problem). With null windows every result is one-sided,
//! and rests on a proof: a lower bound on a Black strategy, an upper bound on a White one. The
//! proof stands under another history if the boards that refused the opponent's moves in it are
//! again in the history, and no board that the prover's chosen moves create is. Each stored bound
//! keeps that condition: the refusing boards (at most eight), and two
//! over-approximations of the prover's boards: the points captured along the proof's lines (a
//! board `Q` can be one of them only if every stone of the node's board that `Q` lacks, or holds
//! in the other colour, lies on such a point) and a Bloom filter. A bound is reused only when its
//! refusing boards are earlier in the game and every other earlier board fails one of the two
//! tests (the node's own board is exempt: a pass repeats it, and it refuses the same moves either
//! way). See docs/go-solver.md.
//!
//! # Bounds and depth
//!
//! A node whose score bounds from unconditional life ([`crate::benson`]) decide the test returns
//! at once; those bounds hold under any history. Each null-window test is searched to a depth
//! limit that grows until the test is decided ([`FIRST_DEPTH`], [`DEPTH_STEP`]): a line cut at the
//! limit leaves its node undecided unless another move decides it, and undecided results are
//! never stored, so every stored or returned result is still a proof. Depth-first without a
//! limit, the search follows capture cycles thousands of plies long.
//!
//! The tests' references are [`minimax`] (the whole game tree, written from the rules alone) and
//! [`alpha_beta`] (this search without its table, its bounds and its depth limit).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A fast hasher for the boards' masks (the keys are not chosen by an adversary).
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        (self.0 ^ self.0 >> 29).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ self.0 >> 32
    }
}

type Map<K, V> = HashMap<K, V, BuildHasherDefault<Mix>>;

use stonelab_go::{Board, Color, Geometry, Move, Rules};

use crate::benson::Masks;

/// The rules text of these values.
pub const RULES_TEXT: &str = "area scoring, suicide illegal, positional superko (no stone may \
recreate an earlier position of the game; a pass is always legal), two consecutive passes end \
the game, Black first";

/// Superko rules for the board: no simple-ko ban (the history check replaces it), no suicide.
pub const RULES: Rules = Rules {
    suicide: false,
    simple_ko: false,
};

/// A board as two masks over the points `row * cols + col` (Black, White).
type Key = (u64, u64);

/// Words of the per-result filter of the boards its search generated.
const FILTER_WORDS: usize = 16;

/// A Bloom filter (three bits a board) of the boards a search generated.
type Filter = [u64; FILTER_WORDS];

fn filter_bits(k: Key) -> [usize; 3] {
    let h = (k.0.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ k.1.wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
        .rotate_left(29)
        .wrapping_mul(0x1656_67b1_9e37_79f9);
    let n = FILTER_WORDS * 64;
    [
        (h as usize) % n,
        ((h >> 21) as usize) % n,
        ((h >> 42) as usize) % n,
    ]
}

fn filter_add(f: &mut Filter, k: Key) {
    for b in filter_bits(k) {
        f[b / 64] |= 1 << (b % 64);
    }
}

fn filter_may_hold(f: &Filter, k: Key) -> bool {
    filter_bits(k)
        .iter()
        .all(|&b| f[b / 64] >> (b % 64) & 1 != 0)
}

/// The depth of the first search of each test (docs/go-solver.md: 24 measured best of 8-60).
pub const FIRST_DEPTH: u32 = 24;
/// The step from one depth limit of a test to the next.
pub const DEPTH_STEP: u32 = 8;

/// Earlier positions a result depends on, at most this many (else it is not stored).
const MAX_DEPENDS: usize = 8;

/// What a one-sided result needs of the history to hold (module docs): the path indices of the
/// boards that refused the opponent's moves in its proof (`overflow`: the smallest index beyond
/// the kept ones), and two over-approximations of the boards the prover's chosen moves create in
/// it: the points captured along its lines and a Bloom filter of those boards.
#[derive(Clone, Debug)]
struct Cond {
    refused_by: Vec<usize>,
    overflow: usize,
    captured: u64,
    generated: Filter,
}

impl Cond {
    fn none() -> Cond {
        Cond {
            refused_by: Vec::new(),
            overflow: usize::MAX,
            captured: 0,
            generated: [0; FILTER_WORDS],
        }
    }

    /// Adds another condition, dropping references at or after `ply` (inside the node).
    fn absorb(&mut self, other: &Cond, ply: usize) {
        for &i in &other.refused_by {
            self.refer(i, ply);
        }
        if other.overflow < ply {
            self.overflow = self.overflow.min(other.overflow);
        }
        self.captured |= other.captured;
        for (a, b) in self.generated.iter_mut().zip(other.generated.iter()) {
            *a |= b;
        }
    }

    fn refer(&mut self, i: usize, ply: usize) {
        if i >= ply || self.refused_by.contains(&i) {
            return;
        }
        if self.refused_by.len() < MAX_DEPENDS {
            self.refused_by.push(i);
        } else {
            self.overflow = self.overflow.min(i);
        }
    }
}

/// A condition as stored: the refusing boards themselves.
#[derive(Clone, Debug)]
struct Stored {
    captured: u64,
    generated: Filter,
    depends: Box<[Key]>,
}

/// A stored result: a lower and an upper bound on the value, each with the condition under which
/// it holds, and the best move.
#[derive(Clone, Debug)]
struct Entry {
    lower: i16,
    lower_cond: Stored,
    upper: i16,
    upper_cond: Stored,
    best: u8,
}

/// What a search of one node returns: the value (a bound, or exact, by the window) and the
/// condition under which it holds.
#[derive(Clone, Debug)]
struct Found {
    value: i16,
    cond: Cond,
    /// False when the search met its depth limit before it could decide: `value` and `cond`
    /// mean nothing then.
    known: bool,
}

impl Found {
    fn leaf(value: i16) -> Found {
        Found {
            value,
            cond: Cond::none(),
            known: true,
        }
    }

    fn unknown() -> Found {
        Found {
            value: 0,
            cond: Cond::none(),
            known: false,
        }
    }
}

/// Counters of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes entered (table hits included).
    pub nodes: u64,
    /// Results taken from the table.
    pub table_hits: u64,
    /// Table entries found but refused because the history might meet their search.
    pub table_refused: u64,
    /// Entries in the table at the end.
    pub entries: u64,
    /// Null-window tests run by [`Search::value`].
    pub tests: u32,
    /// Depth-limited searches that left a test undecided (each followed by a deeper one).
    pub iterations: u32,
}

/// A move-order hint: an estimate of the value (Black's view) of a position with its side to
/// move and pass flag, e.g. from the simple-ko database; higher is better for Black.
pub type Hint<'a> = &'a dyn Fn(&Board, bool) -> Option<i16>;

/// The search over one board.
pub struct Search<'a> {
    geometry: Geometry,
    cols: usize,
    points: i16,
    /// Score bounds from unconditional life (none when `use_bounds` is off).
    masks: Masks,
    use_bounds: bool,
    /// The depth of each test's first search and the step to the next.
    depths: (u32, u32),
    /// Cutoffs each move caused (by colour, then point, the pass last): the order among moves
    /// equal by hint and bounds.
    cutoffs: Vec<u32>,
    /// The boards of the game so far, the current one last.
    path: Vec<Key>,
    /// For each board on the path, its latest index there.
    latest: Map<Key, usize>,
    table: Map<(Key, u8), Entry>,
    /// Entries kept at most (the table stops growing there).
    capacity: usize,
    use_table: bool,
    hint: Option<Hint<'a>>,
    node_limit: u64,
    pub stats: Stats,
}

/// The search gave up at its node limit.
#[derive(Debug, thiserror::Error)]
#[error("positional-superko search stopped at its limit of {0} nodes")]
pub struct NodeLimit(pub u64);

impl<'a> Search<'a> {
    /// A search for boards of this geometry (at most 63 points).
    #[must_use]
    pub fn new(geometry: Geometry) -> Search<'a> {
        let cols = geometry.cols();
        let points = geometry.points().count();
        assert!(points < 64, "superko search: at most 63 points");
        Search {
            points: points as i16,
            masks: Masks::new(geometry.rows(), cols),
            use_bounds: true,
            depths: (FIRST_DEPTH, DEPTH_STEP),
            cutoffs: vec![0; 128],
            geometry,
            cols,
            path: Vec::new(),
            latest: Map::default(),
            table: Map::default(),
            capacity: 1 << 24,
            use_table: true,
            hint: None,
            node_limit: u64::MAX,
            stats: Stats::default(),
        }
    }

    /// Without the table: the plain search, the tests' reference.
    #[must_use]
    pub fn without_table(mut self) -> Search<'a> {
        self.use_table = false;
        self
    }

    /// Each test by one search without a depth limit (the plain depth-first search).
    #[must_use]
    pub fn without_depth_limit(mut self) -> Search<'a> {
        self.depths = (u32::MAX, 0);
        self
    }

    /// Without the score bounds from unconditional life (the module docs).
    #[must_use]
    pub fn without_bounds(mut self) -> Search<'a> {
        self.use_bounds = false;
        self
    }

    /// Orders moves by `hint` (best for the mover first).
    #[must_use]
    pub fn with_hint(mut self, hint: Hint<'a>) -> Search<'a> {
        self.hint = Some(hint);
        self
    }

    /// Stops with [`NodeLimit`] after this many nodes.
    #[must_use]
    pub fn with_node_limit(mut self, nodes: u64) -> Search<'a> {
        self.node_limit = nodes;
        self
    }

    /// Keeps at most this many table entries.
    #[must_use]
    pub fn with_capacity(mut self, entries: usize) -> Search<'a> {
        self.capacity = entries;
        self
    }

    /// The board's geometry.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    fn key(&self, board: &Board) -> Key {
        let mask = |c: Color| {
            board
                .stones(c)
                .iter()
                .map(|p| 1u64 << (p.row() * self.cols + p.col()))
                .fold(0, |a, m| a | m)
        };
        (mask(Color::Black), mask(Color::White))
    }

    /// The exact value of `board` (its side to move; `pass`: the last move was a pass) after the
    /// game `history` (the boards before it, oldest first; the board itself need not be in it),
    /// by null-window tests starting from `guess` (e.g. the simple-ko database's value).
    pub fn value(
        &mut self,
        board: &Board,
        pass: bool,
        history: &[Board],
        guess: i16,
    ) -> Result<(i16, Option<Move>), NodeLimit> {
        let mut board = board.clone();
        board.set_keep_history(true);
        self.path.clear();
        self.latest.clear();
        for b in history {
            let k = self.key(b);
            self.push(k);
        }
        let k = self.key(&board);
        self.push(k);
        let (mut lo, mut hi) = (-self.points, self.points);
        let mut g = guess.clamp(lo, hi);
        // MTD(f): each test asks whether the value is at least `g`.
        while lo < hi {
            let beta = g.max(lo + 1);
            self.stats.tests += 1;
            let f = self.test(&mut board, pass, beta - 1, beta)?;
            if f.value >= beta {
                lo = f.value;
                g = f.value + 1;
            } else {
                hi = f.value;
                g = f.value;
            }
            g = g.clamp(lo, hi);
        }
        self.stats.entries = self.table.len() as u64;
        let best = self.best_move(&mut board, pass, lo)?;
        Ok((lo, best))
    }

    /// A move that keeps the value `v` at the root (searched again with the table warm).
    fn best_move(
        &mut self,
        board: &mut Board,
        pass: bool,
        v: i16,
    ) -> Result<Option<Move>, NodeLimit> {
        let black = board.to_move() == Color::Black;
        for (mv, _, _) in self.children(board) {
            let refused = match mv {
                Move::Play(_) => {
                    board.play_unchecked(mv);
                    let k = self.key(board);
                    board.undo().expect("just played");
                    self.latest.contains_key(&k)
                }
                Move::Pass => false,
            };
            if refused {
                continue;
            }
            let value = if mv == Move::Pass && pass {
                self.score(board)
            } else {
                board.play_unchecked(mv);
                let k = self.key(board);
                let saved = self.push(k);
                // A null-window test: whether the move keeps at least (Black) or at most
                // (White) the root's value; no child can do better than the root.
                let (a, b) = if black { (v - 1, v) } else { (v, v + 1) };
                let f = self.test(board, mv == Move::Pass, a, b);
                self.pop(k, saved);
                board.undo().expect("just played");
                f?.value
            };
            if (black && value >= v) || (!black && value <= v) {
                return Ok(Some(mv));
            }
        }
        Ok(None)
    }

    fn push(&mut self, k: Key) -> Option<usize> {
        self.path.push(k);
        self.latest.insert(k, self.path.len() - 1)
    }

    fn pop(&mut self, k: Key, saved: Option<usize>) {
        self.path.pop();
        match saved {
            Some(i) => {
                self.latest.insert(k, i);
            }
            None => {
                self.latest.remove(&k);
            }
        }
    }

    fn score(&self, board: &Board) -> i16 {
        let [b, w] = stonelab_go::score::area(
            &self.geometry,
            board.stones(Color::Black),
            board.stones(Color::White),
        );
        b as i16 - w as i16
    }

    /// The moves of `board` (plays by the board's rules, then the pass) with their order score
    /// (higher first for the mover) and the bounds of the board each makes (from unconditional
    /// life; the whole range without them).
    fn children(&self, board: &mut Board) -> Vec<(Move, i32, (i16, i16))> {
        let black = board.to_move() == Color::Black;
        let whole = (-self.points, self.points);
        let mut out: Vec<(Move, i32, (i16, i16))> = board
            .legal_moves()
            .iter()
            .map(|p| (Move::Play(p), 0, whole))
            .chain(std::iter::once((Move::Pass, -1000, whole)))
            .collect();
        let sign = if black { 1 } else { -1 };
        for m in &mut out {
            board.play_unchecked(m.0);
            if let Some(hint) = self.hint {
                if let Some(v) = hint(board, m.0 == Move::Pass) {
                    m.1 = sign * i32::from(v) * 4096;
                    if m.0 == Move::Pass {
                        m.1 += 2048;
                    }
                }
            }
            if self.use_bounds {
                // Among moves of equal hint, those that make more points permanent first.
                let k = self.key(board);
                let (lo, hi) = self.masks.bounds(k.0, k.1);
                m.1 += sign * i32::from(lo + hi) * 8;
                m.2 = (lo, hi);
            }
            board.undo().expect("just played");
        }
        let side = if black { 0 } else { 64 };
        out.sort_by_key(|m| std::cmp::Reverse((m.1, self.cutoffs[side + self.slot(m.0)])));
        out
    }

    /// The move's index among a colour's cutoff counters.
    fn slot(&self, mv: Move) -> usize {
        match mv {
            Move::Play(p) => p.row() * self.cols + p.col(),
            Move::Pass => 63,
        }
    }

    /// Whether a stored condition holds for the node on top of the path in this game: the boards
    /// it depends on are earlier in the game, and no other earlier board can be one its proof's
    /// chosen moves create.
    fn holds(&self, here: Key, c: &Stored) -> bool {
        let n = self.path.len() - 1;
        c.depends
            .iter()
            .all(|k| self.latest.get(k).is_some_and(|&i| i < n))
            && self.path[..n].iter().all(|&(b, w)| {
                if (b, w) == here || c.depends.contains(&(b, w)) {
                    return true;
                }
                let lost = (here.0 & !b) | (here.1 & !w);
                lost & !c.captured != 0 || !filter_may_hold(&c.generated, (b, w))
            })
    }

    /// The condition of a stored bound, with its boards as path indices.
    fn recall(&self, c: &Stored) -> Cond {
        Cond {
            refused_by: c.depends.iter().map(|k| self.latest[k]).collect(),
            overflow: usize::MAX,
            captured: c.captured,
            generated: c.generated,
        }
    }

    /// Alpha-beta (Black maximises) on the board on top of the path.
    /// A null-window test of the board on top of the path, by depth-limited searches of growing
    /// depth until one decides it (every game ends, so one does).
    fn test(
        &mut self,
        board: &mut Board,
        pass: bool,
        alpha: i16,
        beta: i16,
    ) -> Result<Found, NodeLimit> {
        let mut depth = self.depths.0;
        loop {
            let f = self.search(board, pass, alpha, beta, depth, None)?;
            if f.known {
                return Ok(f);
            }
            self.stats.iterations += 1;
            depth = depth.saturating_add(self.depths.1);
        }
    }

    /// Alpha-beta (Black maximises) on the board on top of the path, `depth` plies at most:
    /// a line longer than that leaves the result unknown unless other moves decide it.
    fn search(
        &mut self,
        board: &mut Board,
        pass: bool,
        mut alpha: i16,
        mut beta: i16,
        depth: u32,
        bounds: Option<(i16, i16)>,
    ) -> Result<Found, NodeLimit> {
        self.stats.nodes += 1;
        if self.stats.nodes > self.node_limit {
            return Err(NodeLimit(self.node_limit));
        }
        let ply = self.path.len() - 1;
        let here = self.path[ply];
        if self.use_bounds {
            // Each colour's permanent points stay its own whatever the history: the bounds hold
            // under any history, with no condition.
            let (lo, hi) = bounds.unwrap_or_else(|| self.masks.bounds(here.0, here.1));
            if lo >= beta || lo == hi {
                return Ok(Found::leaf(lo));
            }
            if hi <= alpha {
                return Ok(Found::leaf(hi));
            }
        }
        let black = board.to_move() == Color::Black;
        let tkey = (here, u8::from(black) << 1 | u8::from(pass));
        let mut hint_move = u8::MAX;
        if self.use_table {
            if let Some(e) = self.table.get(&tkey) {
                hint_move = e.best;
                let lower_ok = e.lower > -self.points && self.holds(here, &e.lower_cond);
                let upper_ok = e.upper < self.points && self.holds(here, &e.upper_cond);
                if lower_ok && e.lower >= beta {
                    self.stats.table_hits += 1;
                    return Ok(Found {
                        value: e.lower,
                        cond: self.recall(&e.lower_cond),
                        known: true,
                    });
                }
                if upper_ok && e.upper <= alpha {
                    self.stats.table_hits += 1;
                    return Ok(Found {
                        value: e.upper,
                        cond: self.recall(&e.upper_cond),
                        known: true,
                    });
                }
                if lower_ok || upper_ok {
                    // Narrowing the window would make this node's result depend on the entry's
                    // condition too; it is left as it is.
                } else {
                    self.stats.table_refused += 1;
                }
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        if depth == 0 {
            // At the horizon only a pass that ends the game in the mover's favour decides.
            if pass {
                let v = self.score(board);
                if (black && v >= beta) || (!black && v <= alpha) {
                    return Ok(Found::leaf(v));
                }
            }
            return Ok(Found::unknown());
        }
        let mut moves = self.children(board);
        if hint_move != u8::MAX {
            if let Some(i) = moves.iter().position(|m| self.code(m.0) == hint_move) {
                let m = moves.remove(i);
                moves.insert(0, m);
            }
        }
        let mut best = if black { i16::MIN } else { i16::MAX };
        let mut best_move = u8::MAX;
        // The mover's proof: its best move's line. The opponent's: every move of the mover.
        let mut own = Cond::none();
        let mut theirs = Cond::none();
        // The first move whose line the depth limit cut short.
        let mut unknown = u8::MAX;
        for (mv, _, bounds) in moves {
            let (f, made, caps) = if let Move::Play(_) = mv {
                let opponent = board.to_move().opponent();
                board.play_unchecked(mv);
                let k = self.key(board);
                let of = |k: Key| if opponent == Color::Black { k.0 } else { k.1 };
                let caps = of(here) & !of(k);
                if let Some(&i) = self.latest.get(&k) {
                    board.undo().expect("just played");
                    // Were the move legal, the mover might do better: the opponent's proof needs
                    // the refusing board.
                    theirs.refer(i, ply);
                    theirs.captured |= caps;
                    continue;
                }
                let saved = self.push(k);
                let f = self.search(board, false, alpha, beta, depth - 1, Some(bounds));
                self.pop(k, saved);
                board.undo().expect("just played");
                (f?, Some(k), caps)
            } else if pass {
                (Found::leaf(self.score(board)), None, 0)
            } else {
                board.play_unchecked(mv);
                let saved = self.push(here);
                let f = self.search(board, true, alpha, beta, depth - 1, Some(bounds));
                self.pop(here, saved);
                board.undo().expect("just played");
                (f?, None, 0)
            };
            if !f.known {
                if unknown == u8::MAX {
                    unknown = self.code(mv);
                }
                continue;
            }
            theirs.absorb(&f.cond, ply);
            theirs.captured |= caps;
            let better = if black {
                f.value > best
            } else {
                f.value < best
            };
            if better {
                best = f.value;
                best_move = self.code(mv);
                own = Cond::none();
                own.absorb(&f.cond, ply);
                own.captured |= caps;
                if let Some(k) = made {
                    filter_add(&mut own.generated, k);
                }
            }
            if black {
                alpha = alpha.max(best);
            } else {
                beta = beta.min(best);
            }
            if alpha >= beta {
                let i = if black { 0 } else { 64 } + self.slot(mv);
                self.cutoffs[i] = self.cutoffs[i].saturating_add(depth.min(64));
                break;
            }
        }
        if alpha < beta && unknown != u8::MAX {
            // No move decided, and some line was cut short: undecided at this depth. The cut
            // line goes first next time.
            if self.use_table {
                self.remember(tkey, unknown);
            }
            return Ok(Found::unknown());
        }
        // Which proof the result needs: a lower bound is Black's, an upper bound White's.
        let (lower, upper) = (best >= beta0, best <= alpha0);
        let cond = match (lower || upper, (lower == black) || (upper && !black)) {
            (true, true) => own,
            (true, false) => theirs,
            (false, _) => {
                let mut both = own;
                both.absorb(&theirs, ply);
                both
            }
        };
        let out = Found {
            value: best,
            cond,
            known: true,
        };
        if self.use_table && out.cond.overflow == usize::MAX {
            self.store(tkey, &out, best_move, alpha0, beta0);
        }
        Ok(out)
    }

    /// The node's entry with `best` as its first move to try, made without bounds if it is new
    /// (None when the table is full).
    fn entry_mut(&mut self, tkey: (Key, u8), best: u8) -> Option<&mut Entry> {
        let room = self.table.len() < self.capacity;
        let points = self.points;
        let e = match self.table.entry(tkey) {
            std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                if !room {
                    return None;
                }
                let none = || Stored {
                    captured: 0,
                    generated: [0; FILTER_WORDS],
                    depends: Box::new([]),
                };
                v.insert(Entry {
                    lower: -points,
                    lower_cond: none(),
                    upper: points,
                    upper_cond: none(),
                    best,
                })
            }
        };
        e.best = best;
        Some(e)
    }

    /// Keeps `best` as the node's first move to try (no bound).
    fn remember(&mut self, tkey: (Key, u8), best: u8) {
        self.entry_mut(tkey, best);
    }

    /// Stores a node's result (its window was `alpha0`, `beta0`).
    fn store(&mut self, tkey: (Key, u8), f: &Found, best: u8, alpha0: i16, beta0: i16) {
        let mut depends: Vec<Key> = f.cond.refused_by.iter().map(|&i| self.path[i]).collect();
        depends.sort_unstable();
        let stored = Stored {
            captured: f.cond.captured,
            generated: f.cond.generated,
            depends: depends.into_boxed_slice(),
        };
        let (is_lower, is_upper) = (f.value > alpha0, f.value < beta0);
        let Some(e) = self.entry_mut(tkey, best) else {
            return;
        };
        if is_lower {
            e.lower = f.value;
            e.lower_cond = stored.clone();
        }
        if is_upper {
            e.upper = f.value;
            e.upper_cond = stored;
        }
    }

    fn code(&self, mv: Move) -> u8 {
        match mv {
            Move::Play(p) => (p.row() * self.cols + p.col()) as u8,
            Move::Pass => 255 - 1,
        }
    }
}

/// The value by alpha-beta with no table, no bounds from unconditional life and no depth limit
/// (the plain search).
pub fn alpha_beta(board: &Board, pass: bool, history: &[Board]) -> Result<i16, NodeLimit> {
    let mut s = Search::new(*board.geometry())
        .without_table()
        .without_bounds()
        .without_depth_limit();
    s.value(board, pass, history, 0).map(|(v, _)| v)
}

/// The value by plain minimax over the whole game tree, written from the rules alone: no
/// pruning, no table (the tests' reference; tiny boards only). `seen` holds the boards of the
/// game so far, the current one included.
pub fn minimax(board: &mut Board, pass: bool, seen: &mut Vec<Board>, nodes: &mut u64) -> i16 {
    *nodes += 1;
    let black = board.to_move() == Color::Black;
    let mut values = Vec::new();
    for p in board.geometry().points().collect::<Vec<_>>() {
        if board.try_play(Move::Play(p)).is_err() {
            continue;
        }
        if seen.iter().any(|b| b.same_stones(board)) {
            board.undo().expect("just played");
            continue;
        }
        seen.push(board.clone());
        values.push(minimax(board, false, seen, nodes));
        seen.pop();
        board.undo().expect("just played");
    }
    if pass {
        let [b, w] = stonelab_go::score::area(
            board.geometry(),
            board.stones(Color::Black),
            board.stones(Color::White),
        );
        values.push(b as i16 - w as i16);
    } else {
        board.pass();
        values.push(minimax(board, true, seen, nodes));
        board.undo().expect("just passed");
    }
    let best = if black {
        values.iter().max()
    } else {
        values.iter().min()
    };
    *best.expect("a pass is always legal")
}

/// The exact value of the empty board of `geometry` under positional superko.
pub fn solve_empty(
    geometry: Geometry,
    hint: Option<Hint<'_>>,
    node_limit: Option<u64>,
) -> Result<(i16, Option<Move>, Stats), NodeLimit> {
    solve_empty_with(geometry, hint, node_limit, None)
}

/// [`solve_empty`] with the depths of the iterative deepening (first, step) when given.
pub fn solve_empty_with(
    geometry: Geometry,
    hint: Option<Hint<'_>>,
    node_limit: Option<u64>,
    depths: Option<(u32, u32)>,
) -> Result<(i16, Option<Move>, Stats), NodeLimit> {
    let board = Board::new(geometry, RULES);
    let mut s = Search::new(geometry);
    if let Some(d) = depths {
        s.depths = d;
    }
    if let Some(h) = hint {
        s = s.with_hint(h);
    }
    if let Some(n) = node_limit {
        s = s.with_node_limit(n);
    }
    // The first test asks for the hint's value of the start, when there is one.
    let guess = hint.and_then(|h| h(&board, false)).unwrap_or(0);
    let (v, best) = s.value(&board, false, &[], guess)?;
    Ok((v, best, s.stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty(rows: usize, cols: usize) -> Board {
        Board::new(Geometry::new(rows, cols).unwrap(), RULES)
    }

    /// A random game of at most `moves` moves (passes included) from the empty board, by the
    /// superko rule: the board, the boards before it, and whether the last move was a pass.
    pub(super) fn random_game(
        rows: usize,
        cols: usize,
        seed: &mut u64,
        moves: usize,
    ) -> (Board, Vec<Board>, bool) {
        let mut b = empty(rows, cols);
        let mut history: Vec<Board> = Vec::new();
        let mut pass = false;
        for _ in 0..moves {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            let legal: Vec<stonelab_go::Point> = b
                .legal_moves()
                .iter()
                .filter(|&p| {
                    let mut c = b.clone();
                    c.play(Move::Play(p));
                    !history
                        .iter()
                        .chain(std::iter::once(&b))
                        .any(|h| h.same_stones(&c))
                })
                .collect();
            let pick = (*seed % (legal.len() as u64 + 1)) as usize;
            if pick == legal.len() && pass {
                break;
            }
            history.push(b.clone());
            if pick == legal.len() {
                b.pass();
                pass = true;
            } else {
                b.play(Move::Play(legal[pick]));
                pass = false;
            }
        }
        (b, history, pass)
    }

    #[test]
    fn tiny_boards_agree_with_plain_minimax() {
        for (rows, cols) in [(1, 2), (1, 3)] {
            let mut b = empty(rows, cols);
            let mut nodes = 0;
            let mut seen = vec![b.clone()];
            let plain = minimax(&mut b, false, &mut seen, &mut nodes);
            let ab = alpha_beta(&b, false, &[]).unwrap();
            let (v, _, _) = solve_empty(*b.geometry(), None, None).unwrap();
            assert_eq!((ab, v), (plain, plain), "{rows}x{cols}");
        }
    }

    /// From positions after random games on 1x4 and 1x5 (their histories included), the table
    /// search agrees with the search without a table.
    #[test]
    fn table_agrees_with_plain_alpha_beta_after_random_games() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut checked = 0;
        for (rows, cols, games) in [(1, 4, 40), (1, 5, 10)] {
            for _ in 0..games {
                let (b, history, pass) = random_game(rows, cols, &mut seed, 6);
                let plain = Search::new(*b.geometry())
                    .without_table()
                    .without_bounds()
                    .without_depth_limit()
                    .with_node_limit(1_000_000)
                    .value(&b, pass, &history, 0);
                let Ok((plain, _)) = plain else { continue };
                let mut s = Search::new(*b.geometry());
                let (v, _) = s.value(&b, pass, &history, 0).unwrap();
                assert_eq!(v, plain, "{rows}x{cols} after {} moves", history.len());
                checked += 1;
            }
        }
        assert!(
            checked >= 30,
            "only {checked} positions were small enough to compare"
        );
    }
}

#[cfg(test)]
mod hinted {
    use super::*;
    use crate::go::GoGame;

    /// The simple-ko values (an endless game scoring 0) of every state of a small board.
    fn tie_hint(rows: usize, cols: usize) -> (GoGame, Vec<i16>) {
        // One folder a call: tests run in parallel threads of one process.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "superko-{}-{call}-{rows}x{cols}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let game = GoGame::enumerate(rows, cols, &dir.join("t.states"), Some(1)).unwrap();
        let values = crate::tie::solve(&game);
        // The table is mapped; where the system lets us unlink its file, the map stays readable.
        let _ = std::fs::remove_dir_all(&dir);
        (game, values)
    }

    /// 2x2 under positional superko: Black wins by 1 (Tromp; tests/data/go/superko.csv).
    #[test]
    fn two_by_two_is_plus_one() {
        let (game, values) = tie_hint(2, 2);
        let hint = |b: &Board, pass: bool| game.state_of(b, pass).ok().map(|s| values[s as usize]);
        let g = Geometry::new(2, 2).unwrap();
        let (v, best, stats) = solve_empty(g, Some(&hint), Some(10_000_000)).unwrap();
        let data = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/go/superko.csv"
        );
        let expected: i16 = std::fs::read_to_string(data)
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("2x2,"))
            .expect("2x2 row")
            .parse()
            .unwrap();
        assert_eq!(v, expected, "{stats:?}");
        assert!(matches!(best, Some(Move::Play(_))));
    }

    /// From positions after random games on 2x2 and 2x3 (histories included), with the simple-ko
    /// order, the table search agrees with the search without a table wherever that one ends.
    #[test]
    fn table_agrees_with_plain_alpha_beta_on_2x2_2x3_and_3x3() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        for (rows, cols, games) in [(2, 2, 40), (2, 3, 30), (3, 3, 20)] {
            let (game, values) = tie_hint(rows, cols);
            let hint =
                |b: &Board, pass: bool| game.state_of(b, pass).ok().map(|s| values[s as usize]);
            for _ in 0..games {
                let (b, history, pass) = super::tests::random_game(rows, cols, &mut seed, 8);
                let plain = Search::new(*b.geometry())
                    .without_table()
                    .without_bounds()
                    .without_depth_limit()
                    .with_hint(&hint)
                    .with_node_limit(300_000)
                    .value(&b, pass, &history, 0);
                let Ok((plain, _)) = plain else { continue };
                let mut s = Search::new(*b.geometry()).with_hint(&hint);
                let (v, _) = s.value(&b, pass, &history, 0).unwrap();
                assert_eq!(v, plain, "{rows}x{cols} after {} moves", history.len());
                checked += 1;
            }
        }
        eprintln!("positions compared: {checked}");
        assert!(
            checked >= 30,
            "only {checked} positions were small enough to compare"
        );
    }

    /// Progress report on bigger boards (not a check): `cargo test --release -p stonelab-retro
    /// superko::hinted::bigger -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn bigger() {
        for (rows, cols) in [(2, 2), (1, 5), (2, 3), (3, 3)] {
            let (game, values) = tie_hint(rows, cols);
            let hint =
                |b: &Board, pass: bool| game.state_of(b, pass).ok().map(|s| values[s as usize]);
            let t = std::time::Instant::now();
            let r = solve_empty(
                Geometry::new(rows, cols).unwrap(),
                Some(&hint),
                Some(20_000_000),
            );
            eprintln!("{rows}x{cols}: {r:?} in {:?}", t.elapsed());
        }
    }
}
