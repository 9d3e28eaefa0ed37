//! The baseline players the engine is measured against: a uniformly random empty cell, and a
//! one-ply greedy player (a five, else a block, else the best static evaluation). Both are seeded,
//! so a game replays move for move.

pub use stonelab_rand::Xorshift64Star;
use stonelab_rand::GOLDEN_GAMMA;

use super::Position;
use crate::{Color, Point};

/// The generator of a baseline player with seed `seed` (xorshift64* started from
/// `seed ^ GOLDEN_GAMMA`, the players' sequence since their first version).
#[must_use]
pub const fn player_rng(seed: u64) -> Xorshift64Star {
    Xorshift64Star::from_state(seed ^ GOLDEN_GAMMA)
}

/// One of `n` choices (`n > 0`), drawn from `rng`.
fn pick(rng: &mut Xorshift64Star, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

fn empties(pos: &Position) -> Vec<Point> {
    let n = pos.size() as u8;
    (0..n)
        .flat_map(|y| (0..n).map(move |x| Point::new(x, y)))
        .filter(|&p| pos.stone(p).is_none())
        .collect()
}

/// A uniformly random empty cell (the position must have one).
#[must_use]
pub fn random_move(pos: &Position, rng: &mut Xorshift64Star) -> Point {
    let cells = empties(pos);
    cells[pick(rng, cells.len())]
}

/// The one-ply greedy move of `me`: a five, else a block of the opponent's five, else the empty
/// cell near the stones with the best static evaluation after the move (ties at random).
#[must_use]
pub fn greedy_move(pos: &Position, me: Color, rng: &mut Xorshift64Star) -> Point {
    if let Some(p) = pos.class_sets(me).five.iter().next() {
        return p;
    }
    if let Some(p) = pos.class_sets(!me).five.iter().next() {
        return p;
    }
    let near = pos.candidates();
    let mut cells: Vec<Point> = empties(pos)
        .into_iter()
        .filter(|&p| near.contains(p))
        .collect();
    if cells.is_empty() {
        cells = empties(pos);
    }
    let mut work = pos.clone();
    let mut best = Vec::new();
    let mut best_score = i32::MIN;
    for p in cells {
        work.make(p, me);
        let score = -work.evaluate(!me);
        work.unmake();
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(p);
        }
    }
    best[pick(rng, best.len())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_rng_is_the_players_old_stream() {
        // The generator the players had before stonelab-rand: xorshift64* on `seed ^ gamma`.
        for seed in [0, 1, 7, u64::MAX] {
            let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
            let mut rng = player_rng(seed);
            for _ in 0..100 {
                state ^= state >> 12;
                state ^= state << 25;
                state ^= state >> 27;
                assert_eq!(rng.next_u64(), state.wrapping_mul(0x2545_F491_4F6C_DD1D));
            }
        }
    }

    #[test]
    fn players_play_empty_cells() {
        let mut pos = Position::new(15, crate::Rule::Freestyle);
        let mut rng = player_rng(7);
        let first = random_move(&pos, &mut rng);
        pos.make(first, Color::Black);
        let reply = greedy_move(&pos, Color::White, &mut rng);
        assert!(pos.stone(reply).is_none() && pos.is_near(reply));
    }
}
