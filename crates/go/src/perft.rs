//! Perft: the number of move sequences of a given length (no passes) from a position.
//!
//! The last ply is counted by the bulk legality test (the population count of
//! [`Board::legal_moves`]), not by playing; [`perft_naive`] plays every leaf and is the slow reference.
//!
//! ```
//! use stonelab_go::{perft, Board, Geometry, Rules};
//! let mut b = Board::new(Geometry::new(5, 5).unwrap(), Rules::default());
//! assert_eq!(perft::perft(&mut b, 3), 13800);
//! ```

use rayon::prelude::*;

use crate::bitboard::Geometry;
use crate::board::{Board, Move, Rules};

/// Sequences of `depth` stone moves from `board` (which is left as it was).
#[must_use]
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(board.legal_moves().count()),
        _ => {
            let mut n = 0;
            for p in board.legal_moves().iter() {
                board.play_unchecked(Move::Play(p));
                n += perft(board, depth - 1);
                board.undo().expect("a move was just played");
            }
            n
        }
    }
}

/// [`perft`] with the root moves shared among rayon's threads.
#[must_use]
pub fn perft_parallel(board: &Board, depth: u32) -> u64 {
    par_root(board, depth, perft, &|_, _| {})
}

/// [`perft_naive`] with the root moves shared among rayon's threads.
#[must_use]
pub fn perft_naive_parallel(board: &Board, depth: u32) -> u64 {
    par_root(board, depth, perft_naive, &|_, _| {})
}

/// [`perft_parallel`] (or with `naive` [`perft_naive_parallel`]), calling `progress(done,
/// total)` as root moves are counted.
#[must_use]
pub fn perft_parallel_with_progress(
    board: &Board,
    depth: u32,
    naive: bool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> u64 {
    let count = if naive { perft_naive } else { perft };
    par_root(board, depth, count, progress)
}

fn par_root(
    board: &Board,
    depth: u32,
    count: fn(&mut Board, u32) -> u64,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> u64 {
    if depth <= 1 {
        return count(&mut board.clone(), depth);
    }
    let moves: Vec<_> = board.legal_moves().iter().collect();
    let done = std::sync::atomic::AtomicUsize::new(0);
    progress(0, moves.len());
    moves
        .par_iter()
        .map_init(
            || board.clone(),
            |b, &p| {
                b.play_unchecked(Move::Play(p));
                let n = count(b, depth - 1);
                b.undo().expect("a move was just played");
                let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(d, moves.len());
                n
            },
        )
        .sum()
}

/// Slow reference: plays and undoes every move, the last ply included, testing each point with
/// [`Board::is_legal`].
#[must_use]
pub fn perft_naive(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let points: Vec<_> = board.geometry().points().collect();
    let mut n = 0;
    for p in points {
        if board.is_legal(p) {
            board.play_unchecked(Move::Play(p));
            n += perft_naive(board, depth - 1);
            board.undo().expect("a move was just played");
        }
    }
    n
}

/// Fixed pseudo-random games for benchmarks (criterion and `stonelab go bench`): `games` games of
/// up to `max_len` uniformly chosen legal moves from the empty board, from an xorshift64 stream
/// started at `seed` (the same input gives the same games).
#[must_use]
pub fn sample_games(
    geometry: Geometry,
    rules: Rules,
    games: usize,
    max_len: usize,
    seed: u64,
) -> Vec<Vec<Move>> {
    let mut state = seed | 1;
    (0..games)
        .map(|_| {
            let mut b = Board::new(geometry, rules);
            let mut moves = Vec::new();
            for _ in 0..max_len {
                let legal: Vec<_> = b.legal_moves().iter().collect();
                if legal.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let mv = Move::Play(legal[(state % legal.len() as u64) as usize]);
                b.play_unchecked(mv);
                moves.push(mv);
            }
            moves
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bulk_and_naive_agree_on_small_boards() {
        for (r, c, d) in [(1, 1, 3), (1, 3, 6), (2, 2, 7), (2, 3, 6), (3, 3, 4)] {
            for rules in [
                Rules::STANDARD,
                Rules {
                    suicide: true,
                    simple_ko: true,
                },
                Rules {
                    suicide: false,
                    simple_ko: false,
                },
            ] {
                let mut b = Board::new(Geometry::new(r, c).unwrap(), rules);
                let n = perft(&mut b, d);
                assert_eq!(n, perft_naive(&mut b, d), "{r}x{c} d{d} {rules:?}");
                assert_eq!(n, perft_parallel(&b, d));
                assert_eq!(n, perft_naive_parallel(&b, d));
            }
        }
    }
}
