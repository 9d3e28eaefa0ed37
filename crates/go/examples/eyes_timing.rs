//! Minimum-of-batches timing of whole-board eyes (robust on a shared machine).
use std::hint::black_box;
use std::time::Instant;
use stonelab_go::{eyes_naive, Bitboard, EyeMasks, Geometry, Rng};

fn min_ns(mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..100 {
        let t = Instant::now();
        for _ in 0..2_000 {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / 2_000.0);
    }
    best
}

fn main() {
    let g = Geometry::new(19, 19).unwrap();
    let mut rng = Rng::new(19);
    let [black, white] = rng.position(&g, 20, 50);
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
    // 64 different positions, each call independent: throughput rather than one value's latency.
    let boards: Vec<[Bitboard; 2]> = (0..64).map(|_| rng.position(&g, 20, 50)).collect();
    let mut out = vec![[Bitboard::EMPTY; 2]; 64];
    for (name, masks) in [("detected isa", m), ("portable", p)] {
        let per = min_ns(|| {
            for (o, [b, w]) in out.iter_mut().zip(black_box(&boards)) {
                *o = masks.eyes_both(*b, *w);
            }
            black_box(&out);
        }) / 64.0;
        println!("both, 64 positions ({name}): {per:.1} ns per position");
    }
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
