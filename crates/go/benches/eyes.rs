//! Whole-board rule-2/4 eyes (bitboards) against the naive per-point reference, and random playouts.
//!
//! `cargo bench -p stonelab-go --bench eyes`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use stonelab_go::playout::{Playout, PlayoutConfig};
use stonelab_go::{eyes_naive, EyeMasks, Geometry, Rng};

fn eyes(c: &mut Criterion) {
    let g = Geometry::new(19, 19).unwrap();
    let masks = EyeMasks::new(g);
    // About 40% black, 40% white, fixed seed.
    let [black, white] = Rng::new(19).position(&g, 20, 50);
    let empty = g.not(black | white);
    c.bench_function("eyes_19x19_both", |b| {
        b.iter(|| masks.eyes_both(black_box(black), black_box(white)))
    });
    let portable = masks.portable();
    c.bench_function("eyes_19x19_both_portable", |b| {
        b.iter(|| portable.eyes_both(black_box(black), black_box(white)))
    });
    c.bench_function("eyes_19x19_one", |b| {
        b.iter(|| masks.eyes(black_box(black), black_box(empty)))
    });
    c.bench_function("eyes_naive_19x19_both", |b| {
        b.iter(|| {
            let (black, white) = (black_box(black), black_box(white));
            let empty = g.not(black | white);
            [eyes_naive(&g, black, empty), eyes_naive(&g, white, empty)]
        })
    });
}

fn playouts(c: &mut Criterion) {
    for size in [9, 19] {
        let mut playout =
            Playout::new(Geometry::new(size, size).unwrap(), PlayoutConfig::default());
        let mut rng = Rng::new(5);
        c.bench_function(&format!("playout_{size}x{size}"), |b| {
            b.iter(|| playout.run(&mut rng))
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
        .sample_size(30);
    targets = eyes, playouts
}
criterion_main!(benches);
