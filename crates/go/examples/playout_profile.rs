//! Times playouts and converts to cycles with a calibration loop run right before and after, so
//! the figure means something on a shared machine: `playout_profile [size] [count]`.
use std::hint::black_box;
use std::time::Instant;
use stonelab_go::playout::{Playout, PlayoutConfig};
use stonelab_go::{Geometry, Rng};

/// Effective clock in GHz: a dependent 3-cycle chain (shift, xor, add) per iteration.
fn effective_ghz() -> f64 {
    let t = Instant::now();
    let mut x: u64 = black_box(12345);
    for _ in 0..200_000_000u64 {
        x = (x ^ (x >> 1)).wrapping_add(0x9e37);
    }
    black_box(x);
    0.6 / t.elapsed().as_secs_f64()
}

/// Nanoseconds this thread has run on a CPU (Linux `/proc/thread-self/schedstat`), if readable.
fn cpu_ns() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn main() {
    let size: usize = std::env::args().nth(1).map_or(9, |s| s.parse().unwrap());
    let count: u64 = std::env::args()
        .nth(2)
        .map_or(100_000, |s| s.parse().unwrap());
    let mut playout = Playout::new(Geometry::new(size, size).unwrap(), PlayoutConfig::default());
    let mut rng = Rng::new(5);
    let before = effective_ghz();
    let cpu_start = cpu_ns();
    let start = Instant::now();
    let mut moves = 0u64;
    for _ in 0..count {
        moves += u64::from(playout.run(&mut rng).moves);
    }
    let t = start.elapsed().as_secs_f64();
    if let (Some(a), Some(b)) = (cpu_start, cpu_ns()) {
        println!(
            "{size}x{size}: {:.0} playouts per CPU-second (on-CPU {:.0}% of wall time)",
            count as f64 / ((b - a) / 1e9),
            (b - a) / 1e9 / t * 100.0
        );
    }
    let after = effective_ghz();
    let ghz = (before + after) / 2.0;
    let cycles = t / count as f64 * ghz * 1e9;
    println!(
        "{size}x{size}: {:.0} playouts/s wall, {:.1} moves/playout, effective {ghz:.2} GHz, {cycles:.0} cycles/playout = {:.0} playouts/s at 2.5 GHz",
        count as f64 / t,
        moves as f64 / count as f64,
        2.5e9 / cycles
    );
}
