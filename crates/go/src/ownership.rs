//! Monte-Carlo ownership and dead stones at the end of a game, as Fuego and Pachi find them.
//!
//! From the position, [`Ownership::estimate`] plays eye-aware random playouts (those of
//! [`crate::playout`]: no side fills its own rule-2/4 eye) to two passes, and records for every
//! point who owns it by area at the end (a stone, or an empty region bordered by one colour only).
//! Half the playouts start with Black to move and half with White, so the estimate depends on the
//! stones only, not on who moved last, and the random generator is seeded from the stones (the
//! Zobrist hash), so the same position always gives the same answer.
//!
//! A block is dead when its stones end owned by the opponent in more than [`DEAD_THRESHOLD`] of
//! the playouts on average (a block lives or dies as one). [`evaluate`] removes the dead stones and
//! counts the area of what is left: stones plus empty regions bordered by one colour only, minus
//! komi.
//!
//! Seki is not told apart: in random playouts a seki falls to whichever side plays into the shared
//! liberties first, so both sides' stones end owned about half the time and stay alive, which is
//! what seki means for an area count (the shared liberties are neutral either way).
//!
//! ```
//! use stonelab_go::ownership::{evaluate, DEFAULT_PLAYOUTS};
//! use stonelab_go::{Board, Rules, Setup};
//! // A white stone (B6) inside Black's living corner: it is dead.
//! let setup: Setup = "..X.XO.\n.OXXXO.\n..XOOO.\nXXXO...\n.XOO...\nXXO....\n.XO....\n"
//!     .parse()
//!     .unwrap();
//! let board = Board::from_setup(setup, Rules::STANDARD).unwrap();
//! let e = evaluate(&board, 0.5, DEFAULT_PLAYOUTS);
//! assert_eq!(e.dead.count(), 1);
//! // Black: 22 points, B6 included; White: 27.
//! assert_eq!(e.score, 22.0 - 27.0 - 0.5);
//! ```

use crate::bitboard::{Bitboard, Geometry, Point, BITS};
use crate::board::{Board, Move};
use crate::color::Color;
use crate::mcts::playout_board;
use crate::playout::Progress;
use crate::rng::Rng;
use crate::{score, zobrist};

/// Playouts for an end-of-game estimate: 1,000 take a few milliseconds on 9x9 and about 0.1 s on
/// an empty 19x19 board (less on a finished one), and put the noise of a share near 0.5 at about
/// 1.6%.
pub const DEFAULT_PLAYOUTS: u32 = 1000;

/// A block whose stones end owned by the opponent in more than this share of the playouts (the
/// mean over its stones) is dead.
pub const DEAD_THRESHOLD: f64 = 2.0 / 3.0;

/// Mixed into the position hash to seed the playouts (any fixed constant would do).
const SEED_SALT: u64 = 0x6f77_6e65_7273_6869;

/// How often each point ended owned by each side, over a number of playouts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ownership {
    geometry: Geometry,
    playouts: u32,
    /// Per point index: playouts that ended with the point Black's, and White's.
    counts: [Vec<u32>; 2],
}

impl Ownership {
    /// Runs `playouts` eye-aware random playouts from the stones of `board` (half with Black
    /// first, half with White first; the ko ban is not carried over), seeded by `seed`.
    #[must_use]
    pub fn estimate_seeded(board: &Board, playouts: u32, seed: u64) -> Ownership {
        let g = *board.geometry();
        let mut out = Ownership {
            geometry: g,
            playouts,
            counts: [vec![0; BITS], vec![0; BITS]],
        };
        let start = playout_board(board);
        let mut pb = start.clone();
        let mut rng = Rng::new(seed);
        let cap = crate::playout::move_cap(g.area());
        for i in 0..playouts {
            pb.clone_from(&start);
            let first = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if pb.to_move() != first {
                pb.play(Move::Pass);
            }
            let mut game = Progress::default();
            while game.going(cap) {
                let mv = pb.tactical_move(&mut rng, game.last);
                pb.play(mv);
                game.played(mv);
            }
            let owners = score::owners(&g, pb.stones(Color::Black), pb.stones(Color::White));
            for (side, owned) in owners.iter().enumerate() {
                for p in owned.iter() {
                    out.counts[side][p.index()] += 1;
                }
            }
        }
        out
    }

    /// [`Ownership::estimate_seeded`] with the seed taken from the stones of `board`.
    #[must_use]
    pub fn estimate(board: &Board, playouts: u32) -> Ownership {
        let seed = zobrist::position_hash(
            board.stones(Color::Black),
            board.stones(Color::White),
            Color::Black,
            None,
        ) ^ SEED_SALT;
        Ownership::estimate_seeded(board, playouts, seed)
    }

    /// The board's geometry.
    #[must_use]
    pub const fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Playouts run.
    #[must_use]
    pub const fn playouts(&self) -> u32 {
        self.playouts
    }

    /// The share of the playouts that ended with `p` owned by `color` (0 when none ran).
    #[must_use]
    pub fn share(&self, p: Point, color: Color) -> f64 {
        f64::from(self.counts[color.index()][p.index()]) / f64::from(self.playouts.max(1))
    }

    /// The mean share of `points` owned by `color` (0 for no points).
    #[must_use]
    pub fn mean_share(&self, points: Bitboard, color: Color) -> f64 {
        let n = points.count();
        if n == 0 {
            return 0.0;
        }
        points.iter().map(|p| self.share(p, color)).sum::<f64>() / f64::from(n)
    }

    /// The stones of `board` in blocks owned by the opponent in more than `threshold` of the
    /// playouts on average.
    #[must_use]
    pub fn dead_stones(&self, board: &Board, threshold: f64) -> Bitboard {
        let mut dead = Bitboard::EMPTY;
        for color in Color::ALL {
            board.for_each_block(color, |stones, _| {
                if self.mean_share(stones, color.opponent()) > threshold {
                    dead |= stones;
                }
            });
        }
        dead
    }
}

/// The end-of-game verdict: the dead stones and the score without them.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Stones of dead blocks (both colours).
    pub dead: Bitboard,
    /// Area score from Black's point of view with the dead stones removed, komi subtracted.
    pub score: f64,
}

/// Area score from Black's point of view of `board` with the stones of `dead` removed, minus komi.
#[must_use]
pub fn score_without(board: &Board, dead: Bitboard, komi: f64) -> f64 {
    let g = board.geometry();
    let black = board.stones(Color::Black).and_not(dead);
    let white = board.stones(Color::White).and_not(dead);
    let [b, w] = score::area(g, black, white);
    f64::from(b) - f64::from(w) - komi
}

/// Dead stones by [`Ownership::estimate`] with `playouts` playouts and [`DEAD_THRESHOLD`], and the
/// area score without them.
#[must_use]
pub fn evaluate(board: &Board, komi: f64, playouts: u32) -> Evaluation {
    let ownership = Ownership::estimate(board, playouts);
    let dead = ownership.dead_stones(board, DEAD_THRESHOLD);
    Evaluation {
        dead,
        score: score_without(board, dead, komi),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Geometry, Rules, Setup};

    fn board(diagram: &str) -> Board {
        let setup: Setup = diagram.parse().unwrap();
        Board::from_setup(setup, Rules::STANDARD).unwrap()
    }

    fn stones(diagram: &str, at: &[(usize, usize)]) -> Bitboard {
        let g = *board(diagram).geometry();
        let mut b = Bitboard::EMPTY;
        for &(r, c) in at {
            b.set(g.point(r, c).unwrap());
        }
        b
    }

    /// Black's corner group (eyes at D7, A3, A1 and the corner area) holds a white stone at B6;
    /// White's group owns the right side.
    const CORNER: &str = "\
        ..X.XO.\n\
        .OXXXO.\n\
        ..XOOO.\n\
        XXXO...\n\
        .XOO...\n\
        XXO....\n\
        .XO....\n";

    #[test]
    fn a_lone_stone_in_sealed_territory_is_dead() {
        let b = board(CORNER);
        let e = evaluate(&b, 0.5, DEFAULT_PLAYOUTS);
        assert_eq!(e.dead, stones(CORNER, &[(1, 1)]));
        // Black 22 points (B6 included), White 27.
        assert_eq!(e.score, 22.0 - 27.0 - 0.5);
        // As the board stands, the white stone counts for White and spoils Black's corner area
        // (A5, B5, A6, A7, B7): Black 16, White 28.
        assert_eq!(b.area_score(0.5), 16.0 - 28.0 - 0.5);
        let own = Ownership::estimate(&b, DEFAULT_PLAYOUTS);
        assert!(own.share(Point::new(1, 1), Color::Black) > 0.9);
        assert!(own.mean_share(b.stones(Color::Black), Color::Black) > 0.9);
    }

    #[test]
    fn a_two_eyed_group_lives() {
        // White's corner group has two eyes (A7, C7) inside Black's area: it lives, and so does
        // Black. White 8 points (6 stones, 2 eyes), Black the other 41.
        let d = "\
            .O.OX..\n\
            OOOOX..\n\
            XXXXX..\n\
            .......\n\
            .......\n\
            .......\n\
            .......\n";
        let b = board(d);
        let e = evaluate(&b, 0.5, DEFAULT_PLAYOUTS);
        assert_eq!(e.dead, Bitboard::EMPTY);
        assert_eq!(e.score, 41.0 - 8.0 - 0.5);
        let own = Ownership::estimate(&b, DEFAULT_PLAYOUTS);
        assert_eq!(own.share(Point::new(0, 0), Color::White), 1.0);
    }

    /// 7x7 after two passes in GNU Go self-play: White's two-stone block B6-B5 is dead.
    const GAME7: &str = "\
        .X.XO..\n\
        .OXXOO.\n\
        .OX.XXO\n\
        XXXX.XO\n\
        XOOXXO.\n\
        XXOOO.O\n\
        OOO....\n";

    #[test]
    fn finished_gnugo_games() {
        // Positions after two passes in GNU Go self-play (level 1, komi 0.5, Chinese rules); the
        // estimate gives GNU Go's final_score and final_status_list dead.
        let b = board(GAME7);
        let e = evaluate(&b, 0.5, DEFAULT_PLAYOUTS);
        // The block dies as one.
        assert_eq!(e.dead, stones(GAME7, &[(1, 1), (2, 1)]));
        assert_eq!(e.score, 0.5);
        // 9x9: black A8, white F1 and J1 are dead; B+16.5.
        let d9 = "\
            ..OXX....\n\
            XOOX.....\n\
            ..OOXX...\n\
            O..OOX...\n\
            ....OXX..\n\
            ...OOOX..\n\
            OOOOXX...\n\
            OXOX.X...\n\
            XXXX.OXXO\n";
        let b = board(d9);
        let e = evaluate(&b, 0.5, DEFAULT_PLAYOUTS);
        assert_eq!(e.dead, stones(d9, &[(1, 0), (8, 5), (8, 8)]));
        assert_eq!(e.score, 16.5);
    }

    #[test]
    fn empty_board_scores_minus_komi() {
        for n in [2, 5, 9, 19] {
            let b = Board::new(Geometry::new(n, n).unwrap(), Rules::STANDARD);
            let e = evaluate(&b, 6.5, 200);
            assert_eq!(e.dead, Bitboard::EMPTY);
            assert_eq!(e.score, -6.5);
        }
    }

    #[test]
    fn deterministic_and_independent_of_the_side_to_move() {
        let b = board(GAME7);
        let a = Ownership::estimate(&b, 300);
        assert_eq!(a, Ownership::estimate(&b, 300));
        let mut setup = b.to_setup();
        setup.to_move = Color::White;
        let w = Board::from_setup(setup, Rules::STANDARD).unwrap();
        assert_eq!(a, Ownership::estimate(&w, 300));
        // Another seed gives other counts (the estimate really is random).
        assert_ne!(a, Ownership::estimate_seeded(&b, 300, 12345));
        assert_eq!(a.playouts(), 300);
    }
}
