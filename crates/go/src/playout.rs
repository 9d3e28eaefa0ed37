//! Random playouts: each side plays a uniformly random legal move that does not fill one of its own
//! rule-2/4 eyes (see [`mod@crate::eyes`]), and passes when no such move is left; two passes in a
//! row end the game, which is scored by area (komi from [`PlayoutConfig`]). Simple ko, suicide
//! illegal (the rules of [`Rules::STANDARD`]).
//!
//! A playout draws from a seeded [`Rng`], so the same seed replays the same game. A move cap guards
//! against endless games: simple ko does not stop every cycle (a 2x2 board always cycles; triple
//! kos and "sending two, returning one" occur on bigger boards, about 0.15% of 9x9 games). After
//! [`Playout::max_moves`] moves (passes included; default [`move_cap`], `3 * area + 64`, the `+ 64`
//! so that games on tiny boards are not cut short) the game stops and the position is scored as it stands, with
//! [`PlayoutResult::capped`] set. The tests check that capped games repeat a position (1xN boards
//! excepted, where long games without a repeat are real).
//!
//! The board lives in `playout/board.rs` ([`PlayoutBoard`]: play and legality), the move choice in
//! `playout/policy.rs` (uniform, tactical and 3x3-shape moves); this file runs whole games.
//!
//! The general [`crate::Board`] keeps an undo trail, a Zobrist hash and bitboard liberties per
//! block, which a playout never needs (140 to 430 ns a move there, see BENCHMARKS.md). Playouts run
//! on [`PlayoutBoard`], a mailbox board in the libego style: a one-point border, chains as circular
//! stone lists, *pseudo-liberties* with their sum and sum of squares (a chain is in atari exactly
//! when `count * sum_sq == sum^2`), neighbour counts by colour, and a list of empty points that the
//! move choice samples from without replacement (uniform over the acceptable points).
//!
//! The eye test in the playout is the per-point form of the seed's rule (all four neighbours own or
//! off-board, which is one load of the neighbour counts; own diagonals plus the virtual corner
//! stones at least two): a playout asks about one drawn point at a time, and the whole-board
//! bitboard ([`crate::EyeMasks`]) would add its 10 ns (AVX-512 VBMI2) to 45 ns (portable) to every
//! move. The tests check every move against both [`crate::eyes_naive`] and the bitboard answer.
//!
//! ```
//! use stonelab_go::playout::{Playout, PlayoutConfig};
//! use stonelab_go::{Geometry, Rng};
//! let mut playout = Playout::new(Geometry::new(9, 9).unwrap(), PlayoutConfig::default());
//! let a = playout.run(&mut Rng::new(1));
//! let b = playout.run(&mut Rng::new(1));
//! assert_eq!(a, b);
//! ```

mod board;
mod ladder;
mod policy;

use crate::bitboard::{Geometry, Point};
use crate::board::Move;
#[cfg(doc)]
use crate::board::Rules;
use crate::rng::Rng;

pub use board::PlayoutBoard;
pub use policy::{MoveFeatures, PlayoutWeights, PolicyOptions};

/// What a playout is played under.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PlayoutConfig {
    /// Komi, subtracted from Black's area score.
    pub komi: f64,
    /// Moves (passes included) after which the game stops; `None` means three times the area.
    pub max_moves: Option<u32>,
}

impl Default for PlayoutConfig {
    fn default() -> PlayoutConfig {
        PlayoutConfig {
            komi: 7.5,
            max_moves: None,
        }
    }
}

/// How a playout ended.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PlayoutResult {
    /// Area score from Black's point of view, komi subtracted.
    pub score: f64,
    /// Moves played, passes included.
    pub moves: u32,
    /// Whether the move cap stopped the game (rather than two passes).
    pub capped: bool,
}

/// The move cap of a game on a board of `area` points, passes included: `3 * area + 64` (see the
/// module docs). Playouts, the tree search and the ownership estimate all stop their games here.
#[must_use]
pub const fn move_cap(area: usize) -> usize {
    3 * area + 64
}

/// Where a game played move by move stands: passes in a row, moves played (passes included) and
/// the point of the last move (`None` after a pass), the `last` of the move policies.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Progress {
    pub passes: u32,
    pub moves: usize,
    pub last: Option<Point>,
}

impl Progress {
    /// Whether the game goes on: fewer than two passes in a row and fewer than `cap` moves.
    #[inline]
    pub fn going(&self, cap: usize) -> bool {
        self.passes < 2 && self.moves < cap
    }

    /// Counts the move `mv`, just played.
    #[inline]
    pub fn played(&mut self, mv: Move) {
        (self.passes, self.last) = match mv {
            Move::Pass => (self.passes + 1, None),
            Move::Play(p) => (0, Some(p)),
        };
        self.moves += 1;
    }
}

/// A reusable playout runner for one geometry, from the empty board.
#[derive(Clone, Debug)]
pub struct Playout {
    config: PlayoutConfig,
    start: PlayoutBoard,
    board: PlayoutBoard,
}

impl Playout {
    /// A runner for playouts from the empty board of `geometry`.
    #[must_use]
    pub fn new(geometry: Geometry, config: PlayoutConfig) -> Playout {
        let start = PlayoutBoard::new(geometry);
        Playout {
            config,
            board: start.clone(),
            start,
        }
    }

    /// The move cap in force.
    #[must_use]
    pub fn max_moves(&self) -> u32 {
        self.config
            .max_moves
            .unwrap_or(move_cap(self.start.geometry().area()) as u32)
    }

    /// Plays one game to the end.
    pub fn run(&mut self, rng: &mut Rng) -> PlayoutResult {
        self.run_observed(rng, |_, _| {})
    }

    /// Plays one game to the end, calling `observe(board, move)` before every move (pass included)
    /// with the board the move is about to be played on.
    pub fn run_observed(
        &mut self,
        rng: &mut Rng,
        mut observe: impl FnMut(&PlayoutBoard, Move),
    ) -> PlayoutResult {
        self.board.reset_from(&self.start);
        let cap = self.max_moves();
        let mut moves = 0;
        let mut passes = 0;
        while passes < 2 && moves < cap {
            let s = self.board.pick(rng);
            let mv = match s {
                0 => Move::Pass,
                s => Move::Play(self.board.point(s)),
            };
            observe(&self.board, mv);
            passes = if s == 0 { passes + 1 } else { 0 };
            self.board.play_slot(s);
            moves += 1;
        }
        PlayoutResult {
            score: self.board.area_score(self.config.komi),
            moves,
            capped: passes < 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_end_and_replay() {
        for (rows, cols) in [(1, 1), (1, 5), (2, 2), (5, 5), (9, 9), (4, 7)] {
            let g = Geometry::new(rows, cols).unwrap();
            let mut playout = Playout::new(g, PlayoutConfig::default());
            for seed in 0..20 {
                let a = playout.run(&mut Rng::new(seed));
                assert_eq!(a, playout.run(&mut Rng::new(seed)));
                assert!(a.moves <= playout.max_moves());
            }
        }
    }
}
