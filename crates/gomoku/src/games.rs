//! Deterministic pseudo-random games, for tests and benchmarks: a game player that keeps its moves
//! near the stones already down, as real games do, driven by a seeded xorshift64* ([`Rng`]).

use std::ops::Range;

use crate::{Board, Color, Grid, Point, Rule};

/// The seeded generator of these games: xorshift64* from stonelab-rand (the same sequence for the
/// same seed as ever).
pub use stonelab_rand::Xorshift64Star as Rng;

/// A random empty point within two cells of a stone (anywhere on an empty board), or any empty point
/// with probability 1/16. `None` when the board is full.
pub fn nearby_move(board: &Board, rng: &mut Rng) -> Option<Point> {
    let n = board.size() as i32;
    let stones = board.stones(Color::Black) | board.stones(Color::White);
    let mut near = Vec::new();
    let mut empty = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let p = Point::new(x as u8, y as u8);
            if stones.contains(p) {
                continue;
            }
            empty.push(p);
            let close = (-2..=2).any(|dy: i32| {
                (-2..=2).any(|dx: i32| {
                    let (qx, qy) = (x + dx, y + dy);
                    (0..n).contains(&qx)
                        && (0..n).contains(&qy)
                        && stones.contains(Point::new(qx as u8, qy as u8))
                })
            });
            if close {
                near.push(p);
            }
        }
    }
    let pool = if near.is_empty() || rng.below(16) == 0 {
        &empty
    } else {
        &near
    };
    (!pool.is_empty()).then(|| pool[rng.below(pool.len())])
}

/// A plausible game: Black first; a side that can make five stops the game (the five is not played),
/// a side facing a five point of the opponent blocks one, otherwise a nearby random move. At most
/// `max_moves` moves.
pub fn plausible_game(size: usize, rule: Rule, seed: u64, max_moves: usize) -> Vec<Point> {
    let mut rng = Rng::new(seed);
    let mut board = Board::new(size, rule).expect("valid size");
    let mut moves = Vec::new();
    let mut color = Color::Black;
    while moves.len() < max_moves {
        if !board.pattern_sets(color).five.is_empty() {
            break;
        }
        let threats = board.pattern_sets(!color).five;
        let p = match threats.iter().next() {
            Some(p) => p,
            None => match nearby_move(&board, &mut rng) {
                Some(p) => p,
                None => break,
            },
        };
        board.make(p, color);
        moves.push(p);
        color = !color;
    }
    moves
}

/// A position cut from a plausible game: its grid, rule and side to move.
pub struct GamePosition {
    pub grid: Grid,
    pub rule: Rule,
    pub to_move: Color,
}

/// A random position: a plausible game (seed `seed`, at most two thirds of the board) on a size
/// drawn from `sizes` under a rule drawn from [`Rule::ALL`], cut after a random move in its last two
/// thirds. `None` when the game has fewer than `min_moves` moves (the draws from `rng` are then the
/// size and the rule only).
pub fn random_position(
    rng: &mut Rng,
    sizes: Range<usize>,
    seed: u64,
    min_moves: usize,
) -> Option<GamePosition> {
    let size = sizes.start + rng.below(sizes.len());
    let rule = Rule::ALL[rng.below(2)];
    let game = plausible_game(size, rule, seed, size * size * 2 / 3);
    if game.len() < min_moves {
        return None;
    }
    let k = game.len() / 3 + rng.below(game.len() - game.len() / 3 + 1);
    let mut grid = Grid::new(size).expect("valid size");
    let mut c = Color::Black;
    for &p in &game[..k] {
        grid.set(p, Some(c));
        c = !c;
    }
    Some(GamePosition {
        grid,
        rule,
        to_move: c,
    })
}

/// The fixed benchmark set: positions after every move of plausible 15x15 games with fixed seeds,
/// at least `count` of them. Each position is the list of its moves (Black first).
#[must_use]
pub fn bench_positions(count: usize, rule: Rule) -> Vec<Vec<Point>> {
    let mut out = Vec::with_capacity(count);
    let mut seed = 1;
    while out.len() < count {
        let game = plausible_game(15, rule, seed, 80);
        for k in 1..=game.len() {
            out.push(game[..k].to_vec());
        }
        seed += 1;
    }
    out.truncate(count);
    out
}
