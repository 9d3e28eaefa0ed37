//! Timing of whole-board eyes (19x19, both colours) on every code path this CPU has: the fastest
//! and the median of 101 batches (the fastest is robust on a shared machine).
//!
//! Each call takes the next of 256 random positions (each with its own stone density), read
//! through `black_box`, and its answer goes to `black_box`, as in `stonelab go bench`.
//!
//! `cargo run --release -p stonelab-go --example eyes_timing`
use std::hint::black_box;
use stonelab_go::{eyes_naive, EyeMasks, Geometry};

const POSITIONS: usize = 256;

/// Fastest and median nanoseconds per call over 101 batches of `per_batch` calls.
fn ns(per_batch: u32, f: impl FnMut()) -> (f64, f64) {
    let times = stonelab_go::timing::batch_ns(101, per_batch, f);
    (times[0], times[times.len() / 2])
}

fn main() {
    let g = Geometry::new(19, 19).unwrap();
    let positions = stonelab_go::rng::varied_positions(&g, POSITIONS, 19);
    let m = EyeMasks::new(g);
    let mut seen = Vec::new();
    for masks in [m, m.without_vbmi2(), m.portable()] {
        if seen.contains(&masks.isa_name()) {
            continue;
        }
        seen.push(masks.isa_name());
        let mut next = 0;
        let (min, median) = ns(20_000, || {
            let [black, white] = black_box(&positions)[next % POSITIONS];
            next += 1;
            black_box(masks.eyes_both(black, white));
        });
        println!(
            "both ({:>11}): fastest {min:.1} ns, median {median:.1} ns",
            masks.isa_name()
        );
    }
    let mut next = 0;
    let (min, median) = ns(200, || {
        let [black, white] = black_box(&positions)[next % POSITIONS];
        next += 1;
        let empty = g.not(black | white);
        black_box([eyes_naive(&g, black, empty), eyes_naive(&g, white, empty)]);
    });
    println!("both (      naive): fastest {min:.1} ns, median {median:.1} ns");
}
