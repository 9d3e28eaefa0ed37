//! The lookup tables and the line analysis they are built from: skew-ternary line codes
//! ([`skew`], [`codes`]), board geometry, the bit-parallel line evaluation ([`line`]), the
//! seed-compatible threat-mask table ([`threat_masks`]), the per-cell window tables ([`pattern`],
//! built by one window builder), the Zobrist keys, and the slow [`reference`] the tests trust.

use std::sync::OnceLock;

use crate::Rule;

pub mod codes;
pub mod geometry;
pub mod line;
pub mod pattern;
pub mod reference;
pub mod skew;
pub mod threat_masks;
pub mod windows;
pub mod zobrist;

/// One value per rule, each built on first use: the shared tables behind the `get(rule)` of
/// [`ThreatMaskTable`](threat_masks::ThreatMaskTable), [`PatternTable`](pattern::PatternTable) and
/// the engine's [`ClassTable`](crate::engine::ClassTable).
pub(crate) struct PerRule<T>([OnceLock<T>; 3]);

impl<T: Send> PerRule<T> {
    pub(crate) const fn new() -> PerRule<T> {
        PerRule([OnceLock::new(), OnceLock::new(), OnceLock::new()])
    }

    /// The value of `rule`, made by `build(rule)` on the first call for that rule.
    ///
    /// The builders split their work with rayon. They run on a thread pool of their own, called
    /// from a plain thread of their own, because a rayon thread must not wait here in a way that
    /// lets it take other work: the global pool's threads may be the ones waiting for the value
    /// (a parallel loop whose items use the table while another thread builds it), so work queued
    /// on the global pool might never run, and a pool thread that waits for another pool runs
    /// queued jobs meanwhile, one of which may ask for this very value and wait for ever. A plain
    /// thread's `join` takes no work.
    pub(crate) fn get_or_build(&self, rule: Rule, build: fn(Rule) -> T) -> &T {
        self.0[rule.index()].get_or_init(|| {
            std::thread::scope(|s| {
                s.spawn(|| match rayon::ThreadPoolBuilder::new().build() {
                    Ok(pool) => pool.install(|| build(rule)),
                    Err(_) => build(rule),
                })
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
        })
    }
}
