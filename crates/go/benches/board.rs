//! Criterion benches for the board core: play + undo over fixed random 9x9 games, bulk legal moves
//! against the per-point legality test, and perft with the bulk last ply against the naive perft
//! that plays every leaf (the slow reference).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use stonelab_go::{perft, Board, Geometry, Rules};

fn bench(c: &mut Criterion) {
    let g = Geometry::new(9, 9).unwrap();
    let games = perft::sample_games(g, Rules::default(), 32, 120, 0x2545_f491_4f6c_dd1d);
    let total: usize = games.iter().map(Vec::len).sum();
    c.bench_function(&format!("play_undo_9x9_{total}_moves"), |bch| {
        let mut b = Board::new(g, Rules::default());
        bch.iter(|| {
            for moves in &games {
                for &mv in moves {
                    b.play_unchecked(mv);
                }
                for _ in moves {
                    b.undo().unwrap();
                }
            }
        })
    });

    // Positions after 40 moves of each game.
    let positions: Vec<Board> = games
        .iter()
        .map(|moves| {
            let mut b = Board::new(g, Rules::default());
            for &mv in moves.iter().take(40) {
                b.play_unchecked(mv);
            }
            b
        })
        .collect();
    c.bench_function("legal_moves_bulk_9x9_32_positions", |bch| {
        bch.iter(|| {
            positions
                .iter()
                .map(|b| black_box(b.legal_moves()).count())
                .sum::<u32>()
        })
    });
    c.bench_function("legal_moves_per_point_9x9_32_positions", |bch| {
        bch.iter(|| {
            positions
                .iter()
                .map(|b| g.points().filter(|&p| black_box(b).is_legal(p)).count())
                .sum::<usize>()
        })
    });

    let mut group = c.benchmark_group("perft_5x5_depth4");
    group.sample_size(20);
    group.bench_function("bulk_last_ply", |bch| {
        let mut b = Board::new(Geometry::new(5, 5).unwrap(), Rules::default());
        bch.iter(|| perft::perft(&mut b, 4))
    });
    group.bench_function("naive_plays_leaves", |bch| {
        let mut b = Board::new(Geometry::new(5, 5).unwrap(), Rules::default());
        bch.iter(|| perft::perft_naive(&mut b, 4))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
