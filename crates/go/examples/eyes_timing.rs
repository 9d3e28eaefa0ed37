//! Minimum-of-batches timing of whole-board eyes (robust on a shared machine).
use std::hint::black_box;
use std::time::Instant;
use stonelab_go::{eyes_naive, Bitboard, EyeMasks, Geometry, Rng};

fn min_ns(mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..200 {
        let t = Instant::now();
        for _ in 0..10_000 {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / 10_000.0);
    }
    best
}

fn main() {
    let g = Geometry::new(19, 19).unwrap();
    let mut rng = Rng::new(19);
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for p in g.points() {
        match rng.below(5) {
            0 | 1 => black.set(p),
            2 | 3 => white.set(p),
            _ => {}
        }
    }
    let m = EyeMasks::new(g);
    let p = m.portable();
    println!(
        "both (detected isa): {:.1} ns",
        min_ns(|| {
            black_box(m.eyes_both(black_box(black), black_box(white)));
        })
    );
    println!(
        "both (portable):     {:.1} ns",
        min_ns(|| {
            black_box(p.eyes_both(black_box(black), black_box(white)));
        })
    );
    let empty = g.not(black | white);
    println!(
        "one (detected isa):  {:.1} ns",
        min_ns(|| {
            black_box(m.eyes(black_box(black), black_box(empty)));
        })
    );
    let t = Instant::now();
    for _ in 0..2000 {
        black_box([
            eyes_naive(&g, black_box(black), empty),
            eyes_naive(&g, white, empty),
        ]);
    }
    println!(
        "naive both:          {:.1} ns",
        t.elapsed().as_secs_f64() * 1e9 / 2000.0
    );
}
