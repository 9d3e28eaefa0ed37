//! Small-board Go as a [`GameGraph`]: the states the retrograde solver works on.
//!
//! # Rules
//!
//! Area scoring (stones plus empty regions bordered by one colour only), suicide illegal, simple
//! ko, a pass clears the ko ban, two consecutive passes end the game, Black moves first. Scores
//! are from Black's point of view with komi 0: komi shifts every end score by the same amount,
//! and max/min commute with that shift, so the bounds for komi `k` are the stored bounds minus `k`
//! and one database serves every komi.
//!
//! # States
//!
//! A state is (position, side to move, ko-banned point or none, whether the last move was a
//! pass), reduced under the board's symmetries (which carry the ko point along). Positions are the
//! reduced legal positions of the state table ([`StateTable`], dense index `pos`). With `P`
//! positions:
//!
//! - `4 * pos + 2 * side + pass` (side 0 = Black to move) for the states without a ko point;
//! - `4 * P + k` for the `k`-th ko state, in the order of the key `(pos, side, point)`. A ko state
//!   never has the pass flag (a pass clears the ban). Its point is one of the position's ko
//!   points for the side to move (the seed's definition: an empty point whose neighbours are all
//!   of the other colour, next to a single stone of the other colour whose only liberty it is).
//!
//! Reduction: the canonical form of a (position, ko) pair is the smallest serial over the board's
//! symmetries and, among the symmetries that reach it, the smallest image of the ko point.

use std::path::Path;

use stonelab_go::enumerate::{self, Shape, Symmetry};
use stonelab_go::statefile::StateTable;
use stonelab_go::{Bitboard, Board, Color, Geometry, Move, Point, Rules, Setup};

use crate::{Edge, GameGraph, Side};

/// Why the Go game could not be built or a position not be mapped to a state.
#[derive(Debug, thiserror::Error)]
pub enum GoGameError {
    #[error("board {rows}x{cols} has no Go geometry (1..=19 rows and columns)")]
    Geometry { rows: usize, cols: usize },
    #[error("board {rows}x{cols}: rows wider than 10 points are not supported by the solver (try {cols}x{rows})")]
    TooWide { rows: usize, cols: usize },
    #[error(
        "the position is not in the state table (serial {0}); the table is for another board?"
    )]
    UnknownPosition(u64),
    #[error("ko point {point} of serial {serial} is not a ko point of the state table")]
    UnknownKo { serial: u64, point: usize },
}

/// The Go game over the reduced positions of one board.
pub struct GoGame {
    shape: Shape,
    geometry: Geometry,
    table: StateTable,
    positions: u64,
    /// Sorted keys `pos << 8 | side << 7 | point` of the ko states.
    ko_keys: KoKeys,
    /// `points[id]` is the bitboard point of serial digit `id`.
    points: Vec<Point>,
    canon: enumerate::Canonicalizer,
}

/// The sorted ko keys of a game: in memory, or little-endian `u64`s in a mapped file (the query
/// index, [`crate::qindex`]).
pub enum KoKeys {
    Owned(Vec<u64>),
    Mapped {
        map: memmap2::Mmap,
        offset: usize,
        len: usize,
    },
}

impl KoKeys {
    /// Number of keys.
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            KoKeys::Owned(v) => v.len(),
            KoKeys::Mapped { len, .. } => *len,
        }
    }

    /// Whether there is no key.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Key `i` (below `len`).
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> u64 {
        match self {
            KoKeys::Owned(v) => v[i],
            KoKeys::Mapped { map, offset, len } => {
                assert!(i < *len, "ko key {i} of {len}");
                let at = offset + 8 * i;
                u64::from_le_bytes(map[at..at + 8].try_into().expect("8 bytes"))
            }
        }
    }

    /// Where `key` is, as [`slice::binary_search`].
    pub fn binary_search(&self, key: u64) -> Result<usize, usize> {
        match self {
            KoKeys::Owned(v) => v.binary_search(&key),
            KoKeys::Mapped { len, .. } => {
                let (mut lo, mut hi) = (0usize, *len);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    match self.get(mid).cmp(&key) {
                        std::cmp::Ordering::Less => lo = mid + 1,
                        std::cmp::Ordering::Greater => hi = mid,
                        std::cmp::Ordering::Equal => return Ok(mid),
                    }
                }
                Err(lo)
            }
        }
    }
}

/// A state, decoded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StateKey {
    pub pos: u64,
    pub side: Color,
    pub pass: bool,
    pub ko: Option<usize>,
}

impl GoGame {
    /// Builds the game over a state table (from `stonelab go enumerate`, or made in memory).
    pub fn new(table: StateTable) -> Result<GoGame, GoGameError> {
        let shape = table.shape();
        let (rows, cols) = (shape.rows, shape.cols);
        let geometry =
            Geometry::new(rows, cols).map_err(|_| GoGameError::Geometry { rows, cols })?;
        let points = (0..rows * cols)
            .map(|id| Point::new(id / cols, id % cols))
            .collect();
        let positions = table.len();
        let mut ko_keys = Vec::new();
        for (pos, serial) in table.iter().enumerate() {
            let pos = pos as u64;
            let (black, white) = enumerate::decode(shape, serial);
            for (side, mask) in [
                (0u64, enumerate::ko_mask(shape, black, white)),
                (1u64, enumerate::ko_mask(shape, white, black)),
            ] {
                let mut m = mask;
                while m != 0 {
                    let point = m.trailing_zeros() as u64;
                    m &= m - 1;
                    ko_keys.push(pos << 8 | side << 7 | point);
                }
            }
        }
        let canon =
            enumerate::Canonicalizer::new(shape).ok_or(GoGameError::TooWide { rows, cols })?;
        Ok(GoGame {
            shape,
            geometry,
            table,
            positions,
            ko_keys: KoKeys::Owned(ko_keys),
            points,
            canon,
        })
    }

    /// Builds the game over a state table whose ko keys (`pos << 8 | side << 7 | point`, sorted)
    /// are already known, e.g. from [`crate::space::Space::ko_keys`] (no second pass over the
    /// table).
    pub fn with_ko_keys(table: StateTable, ko_keys: Vec<u64>) -> Result<GoGame, GoGameError> {
        GoGame::with_keys(table, KoKeys::Owned(ko_keys))
    }

    /// [`GoGame::with_ko_keys`] for keys in memory or mapped from a file.
    pub fn with_keys(table: StateTable, ko_keys: KoKeys) -> Result<GoGame, GoGameError> {
        let shape = table.shape();
        let (rows, cols) = (shape.rows, shape.cols);
        let geometry =
            Geometry::new(rows, cols).map_err(|_| GoGameError::Geometry { rows, cols })?;
        let points = (0..rows * cols)
            .map(|id| Point::new(id / cols, id % cols))
            .collect();
        let canon =
            enumerate::Canonicalizer::new(shape).ok_or(GoGameError::TooWide { rows, cols })?;
        Ok(GoGame {
            shape,
            geometry,
            positions: table.len(),
            table,
            ko_keys,
            points,
            canon,
        })
    }

    /// Enumerates the board's reduced positions into a state table at `path` and builds the game.
    pub fn enumerate(
        rows: usize,
        cols: usize,
        path: &Path,
        threads: Option<usize>,
    ) -> Result<GoGame, Box<dyn std::error::Error + Send + Sync>> {
        let shape = Shape::new(rows, cols).ok_or(GoGameError::Geometry { rows, cols })?;
        let set = enumerate::Enumerator::new(shape)?.reduced_set(threads, &|_, _| {})?;
        stonelab_go::statefile::write(path, &set)?;
        Ok(GoGame::new(StateTable::open(path)?)?)
    }

    /// The board's geometry.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Number of reduced positions.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// Number of ko states.
    #[must_use]
    pub fn ko_states(&self) -> u64 {
        self.ko_keys.len() as u64
    }

    /// Decodes state `s`.
    #[must_use]
    pub fn key(&self, s: u64) -> StateKey {
        let base = 4 * self.positions;
        if s < base {
            StateKey {
                pos: s / 4,
                side: if s / 2 % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                pass: s % 2 == 1,
                ko: None,
            }
        } else {
            let k = self.ko_keys.get((s - base) as usize);
            StateKey {
                pos: k >> 8,
                side: if k >> 7 & 1 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                pass: false,
                ko: Some((k & 0x7F) as usize),
            }
        }
    }

    /// The board of state `s` (with its side to move and ko ban), and its pass flag.
    #[must_use]
    pub fn board(&self, s: u64) -> (Board, bool) {
        let key = self.key(s);
        let serial = self.table.select(key.pos).expect("position of a state");
        let (black, white) = enumerate::decode(self.shape, serial);
        let mut setup = Setup::empty(self.geometry);
        setup.black = self.bitboard(black);
        setup.white = self.bitboard(white);
        setup.to_move = key.side;
        setup.ko = key.ko.map(|id| self.points[id]);
        let board = Board::from_setup(setup, Rules::STANDARD)
            .expect("every state of the table is a legal position");
        (board, key.pass)
    }

    fn bitboard(&self, mask: u64) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        let mut m = mask;
        while m != 0 {
            b.set(self.points[m.trailing_zeros() as usize]);
            m &= m - 1;
        }
        b
    }

    fn mask(&self, b: Bitboard) -> u64 {
        b.iter()
            .map(|p| 1u64 << (p.row() * self.shape.cols + p.col()))
            .fold(0, |a, m| a | m)
    }

    /// The state of a board (any orientation) with the given pass flag.
    pub fn state_of(&self, board: &Board, pass: bool) -> Result<u64, GoGameError> {
        let black = self.mask(board.stones(Color::Black));
        let white = self.mask(board.stones(Color::White));
        let ko = board.ko().map(|p| p.row() * self.shape.cols + p.col());
        // The pass flag clears the ko ban by the rules; a board after a pass has none.
        let ko = if pass { None } else { ko };
        let serial = enumerate::encode(self.shape, black, white);
        let (best, sym) = self.canon.canonical(serial);
        // Among the symmetries that reach the canonical serial (several only for a symmetric
        // position), the smallest image of the ko point.
        let ko = ko.map(|id| {
            self.shape
                .symmetries()
                .iter()
                .filter(|&&t| t == sym || enumerate::image(self.shape, t, serial) == best)
                .map(|&t| t.map_point(self.shape, id))
                .min()
                .expect("sym itself qualifies")
        });
        let pos = self
            .table
            .rank(best)
            .ok_or(GoGameError::UnknownPosition(best))?;
        let side = board.to_move().index() as u64;
        match ko {
            None => Ok(4 * pos + 2 * side + u64::from(pass)),
            Some(point) => {
                let key = pos << 8 | side << 7 | point as u64;
                let k = self
                    .ko_keys
                    .binary_search(key)
                    .map_err(|_| GoGameError::UnknownKo {
                        serial: best,
                        point,
                    })?;
                Ok(4 * self.positions + k as u64)
            }
        }
    }

    /// Black's area score minus White's (komi 0) of a board.
    #[must_use]
    pub fn score(&self, board: &Board) -> i16 {
        let [b, w] = stonelab_go::score::area(
            &self.geometry,
            board.stones(Color::Black),
            board.stones(Color::White),
        );
        b as i16 - w as i16
    }

    /// Every move of a board whose pass flag is `pass`, with where it leads. The board is left as
    /// it was.
    pub fn moves(&self, board: &mut Board, pass: bool) -> Result<Vec<(Move, Edge)>, GoGameError> {
        let mut out = Vec::new();
        for p in board.legal_moves().iter() {
            board.play_unchecked(Move::Play(p));
            let next = self.state_of(board, false);
            board.undo().expect("a move was just played");
            out.push((Move::Play(p), Edge::State(next?)));
        }
        if pass {
            out.push((Move::Pass, Edge::End(self.score(board))));
        } else {
            board.play_unchecked(Move::Pass);
            let next = self.state_of(board, true);
            board.undo().expect("a pass was just played");
            out.push((Move::Pass, Edge::State(next?)));
        }
        Ok(out)
    }

    /// The state of the empty board with Black to move.
    #[must_use]
    pub fn start(&self) -> u64 {
        0
    }

    /// The symmetry group used for reduction (for documentation and tests).
    #[must_use]
    pub fn symmetries(&self) -> &'static [Symmetry] {
        self.shape.symmetries()
    }
}

impl GameGraph for GoGame {
    fn num_states(&self) -> u64 {
        4 * self.positions + self.ko_keys.len() as u64
    }

    fn side(&self, s: u64) -> Side {
        match self.key(s).side {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }

    fn edges(&self, s: u64, out: &mut Vec<Edge>) {
        let (mut board, pass) = self.board(s);
        let moves = self
            .moves(&mut board, pass)
            .expect("successors of a table state are in the table");
        out.extend(moves.into_iter().map(|(_, e)| e));
    }
}

/// The rules every Go result is computed under, in words.
pub const RULES_TEXT: &str = "area scoring, suicide illegal, simple ko (a pass clears the ban), \
                              two consecutive passes end the game, Black moves first, cycles reported as intervals";

/// The rules as text under a cycle convention: [`RULES_TEXT`] for intervals, else with the
/// convention named in place of the intervals.
#[must_use]
pub fn rules_text(cycles: crate::Cycles) -> String {
    match cycles {
        crate::Cycles::Interval => RULES_TEXT.to_string(),
        crate::Cycles::Tie => RULES_TEXT.replace(
            "cycles reported as intervals",
            "an endless game scores 0 before komi (cycles tie)",
        ),
    }
}

/// The rules as JSON fields under a cycle convention (komi added by the caller).
#[must_use]
pub fn rules_json_under(komi: f64, cycles: crate::Cycles) -> serde_json::Value {
    let mut j = rules_json(komi);
    if cycles == crate::Cycles::Tie {
        j["cycles"] = serde_json::json!("tie: an endless game scores 0 before komi");
    }
    j
}

/// The rules as JSON fields (komi added by the caller).
#[must_use]
pub fn rules_json(komi: f64) -> serde_json::Value {
    serde_json::json!({
        "scoring": "area",
        "komi": komi,
        "suicide": false,
        "ko": "simple",
        "pass_clears_ko": true,
        "end": "two consecutive passes",
        "first": "black",
        "cycles": "interval [lo,hi]: lo = best end score Black can force, hi = best White can force",
    })
}

/// One bound with komi applied, as JSON: a whole number when it is one (`9`, not `9.0`), a
/// fraction otherwise (`1.5`), and `null` for an end the side cannot force.
#[must_use]
pub fn bound_json(v: i16, komi: f64) -> serde_json::Value {
    match bound_with_komi(v, komi) {
        None => serde_json::Value::Null,
        Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => serde_json::json!(x as i64),
        Some(x) => serde_json::json!(x),
    }
}

/// One bound with komi applied: `None` for an end the side cannot force.
#[must_use]
pub fn bound_with_komi(v: i16, komi: f64) -> Option<f64> {
    (v != crate::NO_LO && v != crate::NO_HI).then(|| f64::from(v) - komi)
}

/// `+9`, `-2.5`, `0`, or `[lo,hi]` (with `-inf`/`+inf`), komi applied.
#[must_use]
pub fn format_bounds(b: crate::Bounds, komi: f64) -> String {
    let one = |v: i16, inf: &str| match bound_with_komi(v, komi) {
        None => inf.to_string(),
        Some(x) if x > 0.0 => format!("+{x}"),
        Some(x) => format!("{x}"),
    };
    if b.is_exact() {
        one(b.lo, "")
    } else {
        format!("[{},{}]", one(b.lo, "-inf"), one(b.hi, "+inf"))
    }
}

/// Whether a move's bounds keep the state's value for the side to move: the same bounds, or, when
/// no move gives both, the side's own guarantee (`lo` for Black, `hi` for White).
#[must_use]
pub fn best_moves(side: Color, state: crate::Bounds, moves: &[(Move, crate::Bounds)]) -> Vec<Move> {
    let exact: Vec<Move> = moves
        .iter()
        .filter(|(_, b)| *b == state)
        .map(|(m, _)| *m)
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    moves
        .iter()
        .filter(|(_, b)| match side {
            Color::Black => b.lo == state.lo,
            Color::White => b.hi == state.hi,
        })
        .map(|(m, _)| *m)
        .collect()
}
