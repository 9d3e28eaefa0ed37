//! Criterion benches of the hot functions, on positions from the fixed plausible games of
//! `stonelab gomoku bench`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use stonelab_gomoku::games::bench_positions;
use stonelab_gomoku::search::referee;
use stonelab_gomoku::tables::line::{threat_mask, LineStones};
use stonelab_gomoku::tables::reference;
use stonelab_gomoku::{Board, Color, Point, Rule, ThreatMaskTable};

fn boards(count: usize) -> Vec<Board> {
    bench_positions(count, Rule::Freestyle)
        .iter()
        .map(|moves| {
            let mut b = Board::new(15, Rule::Freestyle).unwrap();
            let mut c = Color::Black;
            for &p in moves {
                b.make(p, c);
                c = !c;
            }
            b
        })
        .collect()
}

fn empty_point(b: &Board) -> Point {
    (0..15u8)
        .flat_map(|y| (0..15u8).map(move |x| Point::new(x, y)))
        .find(|&p| b.stone(p).is_none() && (6..9).contains(&p.x) && (6..9).contains(&p.y))
        .or_else(|| {
            (0..15u8)
                .flat_map(|y| (0..15u8).map(move |x| Point::new(x, y)))
                .find(|&p| b.stone(p).is_none())
        })
        .unwrap()
}

fn lines(c: &mut Criterion) {
    let _ = ThreatMaskTable::get(Rule::Freestyle);
    let boards = boards(64);
    let moves: Vec<Point> = boards.iter().map(empty_point).collect();

    c.bench_function("threats_full_15x15 (64 positions)", |bench| {
        bench.iter(|| {
            for b in &boards {
                black_box(black_box(b).threat_points_full());
            }
        })
    });
    c.bench_function("make_unmake_codes (64 positions)", |bench| {
        let mut codes: Vec<_> = boards.iter().map(|b| b.codes().clone()).collect();
        bench.iter(|| {
            for (cd, &p) in codes.iter_mut().zip(&moves) {
                cd.make(black_box(p), Color::Black);
                cd.unmake(black_box(p), Color::Black);
            }
        })
    });
    c.bench_function("make_unmake_with_threats (64 positions)", |bench| {
        let mut bs = boards.clone();
        bench.iter(|| {
            for (b, &p) in bs.iter_mut().zip(&moves) {
                b.make(black_box(p), Color::Black);
                black_box(b.threat_points());
                b.unmake(black_box(p));
            }
        })
    });
    c.bench_function("pattern_sets_15x15 (64 positions)", |bench| {
        bench.iter(|| {
            for b in &boards {
                black_box(black_box(b).pattern_sets(Color::Black));
            }
        })
    });
    c.bench_function("seed_mask_one_line", |bench| {
        let line = LineStones {
            white: 0b0001_0110_0000_0100,
            black: 0b0100_0000_1011_0000,
            cells: 0x7FFF,
        };
        bench.iter(|| black_box(threat_mask(black_box(line), Rule::Freestyle)))
    });
    let grids: Vec<_> = boards.iter().take(8).map(Board::to_grid).collect();
    c.bench_function("reference_threats_15x15 (8 positions)", |bench| {
        bench.iter(|| {
            for g in &grids {
                black_box(reference::threats(black_box(g), Rule::Freestyle));
            }
        })
    });
    // The certificate checker's leaf test: a VCF of at most three fours, for each side to move.
    let grids: Vec<_> = boards.iter().map(Board::to_grid).collect();
    for (name, vcf) in [
        (
            "referee_vcf3 (64 positions, both sides)",
            referee::vcf as Vcf,
        ),
        (
            "referee_vcf3_plain (64 positions, both sides)",
            referee::vcf_plain,
        ),
    ] {
        c.bench_function(name, |bench| {
            bench.iter(|| {
                for g in &grids {
                    for side in [Color::Black, Color::White] {
                        black_box(vcf(black_box(g), Rule::Freestyle, side, 3));
                    }
                }
            })
        });
    }
}

type Vcf = fn(&stonelab_gomoku::Grid, Rule, Color, u32) -> Option<Vec<Point>>;

criterion_group!(benches, lines);
criterion_main!(benches);
