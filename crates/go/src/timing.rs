//! Timing of short calls in batches, for the benchmarks (`stonelab go bench`, the `eyes_timing`
//! example).

use std::time::Instant;

/// Nanoseconds per call of `f` in each of `batches` timed batches of `per_batch` calls, fastest
/// first (take the median, or the fastest, to resist other load on a shared machine).
pub fn batch_ns(batches: usize, per_batch: u32, mut f: impl FnMut()) -> Vec<f64> {
    let mut times: Vec<f64> = (0..batches)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_batch {
                f();
            }
            start.elapsed().as_secs_f64() * 1e9 / f64::from(per_batch)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times
}
