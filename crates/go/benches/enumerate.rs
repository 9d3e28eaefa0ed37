//! Criterion benches of the enumeration (issue 4): fast visit against the flood-fill reference
//! on the same board, the 4x4 complete count, the dynamic program, and the ko-point test.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use stonelab_go::dp;
use stonelab_go::enumerate::{decode, ko_mask, reference, Enumerator, Shape};

fn benches(c: &mut Criterion) {
    let s33 = Shape::new(3, 3).unwrap();
    let s34 = Shape::new(3, 4).unwrap();
    let s44 = Shape::new(4, 4).unwrap();
    let mut g = c.benchmark_group("enumerate");
    g.sample_size(10);
    // Same board, both ways: every serial through the reference vs the row-by-row visit.
    g.bench_function("reference_3x4_all_serials", |b| {
        b.iter(|| {
            (0..s34.serial_count())
                .filter(|&s| reference::facts(s34, s).legal)
                .count()
        })
    });
    let e34 = Enumerator::new(s34).unwrap();
    g.bench_function("fast_3x4_complete_1thread", |b| {
        b.iter(|| e34.count(Some(1), &|_, _| {}).unwrap())
    });
    let e44 = Enumerator::new(s44).unwrap();
    g.bench_function("fast_4x4_complete_1thread", |b| {
        b.iter(|| e44.count(Some(1), &|_, _| {}).unwrap())
    });
    g.bench_function("fast_4x4_table_build", |b| {
        b.iter(|| Enumerator::new(black_box(s44)).unwrap())
    });
    g.bench_function("dp_5x5", |b| {
        b.iter(|| dp::count_legal(black_box(Shape::new(5, 5).unwrap())).unwrap())
    });
    let boards: Vec<(u64, u64)> = (0..s33.serial_count()).map(|s| decode(s33, s)).collect();
    g.bench_function("ko_mask_3x3_all_serials", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|&(bl, wh)| ko_mask(s33, bl, wh).count_ones())
                .sum::<u32>()
        })
    });
    g.finish();
}

criterion_group!(group, benches);
criterion_main!(group);
