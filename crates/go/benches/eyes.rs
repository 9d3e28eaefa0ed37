//! Whole-board rule-2/4 eyes (bitboards) against the naive per-point reference, and random playouts.
//!
//! `cargo bench -p stonelab-go --bench eyes`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use stonelab_go::playout::{Playout, PlayoutConfig};
use stonelab_go::{eyes_naive, EyeMasks, Geometry, Rng};

fn eyes(c: &mut Criterion) {
    const POSITIONS: usize = 256;
    let g = Geometry::new(19, 19).unwrap();
    let masks = EyeMasks::new(g);
    // 256 random positions, each with its own density (as `stonelab go bench`), cycled through.
    let positions = stonelab_go::rng::varied_positions(&g, POSITIONS, 19);
    let mut next = 0;
    let mut take = move || {
        let [black, white] = black_box(&positions)[next % POSITIONS];
        next += 1;
        (black, white)
    };
    for (name, m) in [
        ("eyes_19x19_both", masks),
        ("eyes_19x19_both_no_vbmi2", masks.without_vbmi2()),
        ("eyes_19x19_both_portable", masks.portable()),
    ] {
        c.bench_function(name, |b| {
            b.iter(|| {
                let (black, white) = take();
                m.eyes_both(black, white)
            })
        });
    }
    c.bench_function("eyes_19x19_one", |b| {
        b.iter(|| {
            let (black, white) = take();
            masks.eyes(black, g.not(black | white))
        })
    });
    c.bench_function("eyes_naive_19x19_both", |b| {
        b.iter(|| {
            let (black, white) = take();
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
