//! Runs 9x9 playouts for a few seconds (for `perf record`).
use stonelab_go::playout::{Playout, PlayoutConfig};
use stonelab_go::{Geometry, Rng};

fn main() {
    let size: usize = std::env::args().nth(1).map_or(9, |s| s.parse().unwrap());
    let mut playout = Playout::new(Geometry::new(size, size).unwrap(), PlayoutConfig::default());
    let mut rng = Rng::new(5);
    let start = std::time::Instant::now();
    let mut n = 0u64;
    let mut moves = 0u64;
    let count: u64 = std::env::args()
        .nth(2)
        .map_or(100_000, |s| s.parse().unwrap());
    while n < count {
        for _ in 0..100 {
            moves += u64::from(playout.run(&mut rng).moves);
        }
        n += 100;
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "{:.0} playouts/s, {:.1} moves/playout",
        n as f64 / t,
        moves as f64 / n as f64
    );
}
