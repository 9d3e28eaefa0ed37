//! The timely solver against the value-sweep reference on random cyclic game graphs.

use std::sync::Arc;

use stonelab_retro::dataflow::{self, Options};
use stonelab_retro::{sweep, Bounds, Edge, GameGraph, Side};

/// A random game: states with 1..=4 edges to random states or to ends with small scores.
struct Random {
    edges: Vec<Vec<Edge>>,
    sides: Vec<Side>,
}

impl Random {
    fn new(n: usize, seed: u64, end_rate: u64) -> Random {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut edges = Vec::with_capacity(n);
        let mut sides = Vec::with_capacity(n);
        for _ in 0..n {
            let k = 1 + next() % 4;
            let list = (0..k)
                .map(|_| {
                    if next() % 100 < end_rate {
                        Edge::End((next() % 9) as i16 - 4)
                    } else {
                        Edge::State(next() % n as u64)
                    }
                })
                .collect();
            edges.push(list);
            sides.push(if next() % 2 == 0 {
                Side::Black
            } else {
                Side::White
            });
        }
        Random { edges, sides }
    }
}

impl GameGraph for Random {
    fn num_states(&self) -> u64 {
        self.edges.len() as u64
    }
    fn side(&self, s: u64) -> Side {
        self.sides[s as usize]
    }
    fn edges(&self, s: u64, out: &mut Vec<Edge>) {
        out.extend_from_slice(&self.edges[s as usize]);
    }
}

#[test]
fn dataflow_equals_sweeps_on_random_graphs() {
    let mut inexact = 0;
    for seed in 0..40u64 {
        let n = 1 + (seed as usize * 37) % 500;
        let game = Arc::new(Random::new(n, seed, 10 + seed % 30));
        let (want, _) = sweep::solve(&*game);
        inexact += want.iter().filter(|b| !b.is_exact()).count();
        for threads in [1, 2, 3] {
            let got = dataflow::solve(game.clone(), Options::threads(threads)).unwrap();
            assert_eq!(
                got.values.as_deref(),
                Some(&want[..]),
                "seed {seed}, {threads} threads"
            );
        }
    }
    // The graphs must exercise cycles that neither side can force out of.
    assert!(inexact > 0);
}

#[test]
fn small_hand_made_cycle() {
    // 0 (Black) -> 1 or end +1; 1 (White) -> 0 or end +3.
    // Black can end at +1 now; White at 1 prefers to loop back (min(lo of 0, 3)).
    struct G;
    impl GameGraph for G {
        fn num_states(&self) -> u64 {
            2
        }
        fn side(&self, s: u64) -> Side {
            if s == 0 {
                Side::Black
            } else {
                Side::White
            }
        }
        fn edges(&self, s: u64, out: &mut Vec<Edge>) {
            match s {
                0 => out.extend([Edge::State(1), Edge::End(1)]),
                _ => out.extend([Edge::State(0), Edge::End(3)]),
            }
        }
    }
    let (values, _) = sweep::solve(&G);
    // lo(0): Black forces >= 1 by ending now; lo(1) = min(lo(0), 3) = 1.
    // hi(0) = max(hi(1), 1); hi(1) = min(hi(0), 3): greatest fixed point gives hi(1) = 3, hi(0) = 3.
    assert_eq!(
        values,
        vec![Bounds { lo: 1, hi: 3 }, Bounds { lo: 1, hi: 3 }]
    );
    let got = dataflow::solve(Arc::new(G), Options::threads(2)).unwrap();
    assert_eq!(got.values.unwrap(), values);
}

#[test]
fn resume_from_checkpoints_gives_the_same_values() {
    let game = Arc::new(Random::new(3000, 7, 5));
    let (want, _) = sweep::solve(&*game);
    let dir = std::env::temp_dir().join(format!("stonelab-ckpt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut opts = Options::threads(2);
    opts.checkpoint_dir = Some(dir.clone());
    opts.checkpoint_every = std::time::Duration::ZERO;
    opts.game_key = "random-7".into();
    // First run writes a checkpoint after every round; the second resumes from the last ones.
    let first = dataflow::solve(game.clone(), opts.clone()).unwrap();
    assert_eq!(first.values.as_deref(), Some(&want[..]));
    assert!(std::fs::read_dir(&dir).unwrap().count() >= 1);
    let second = dataflow::solve(game.clone(), opts.clone()).unwrap();
    assert_eq!(second.values.as_deref(), Some(&want[..]));
    assert!(
        second.resumed_round.is_some(),
        "the second run resumes from the first one's checkpoints"
    );
    // A checkpoint of another game is ignored, not trusted.
    opts.game_key = "another".into();
    let third = dataflow::solve(game, opts).unwrap();
    assert_eq!(third.values.as_deref(), Some(&want[..]));
    assert_eq!(third.resumed_round, None);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tie_values_of_the_bounds_equal_threshold_attractors_on_random_graphs() {
    let (mut nonzero, mut inexact) = (0, 0);
    for seed in 0..60u64 {
        let n = 1 + (seed as usize * 53) % 400;
        let game = Random::new(n, 1000 + seed, 5 + seed % 40);
        let (bounds, _) = sweep::solve(&game);
        let want = stonelab_retro::tie::solve(&game);
        for (s, (b, w)) in bounds.iter().zip(&want).enumerate() {
            assert_eq!(b.tie_value(), *w, "seed {seed}, state {s}, bounds {b}");
            nonzero += usize::from(*w != 0);
            inexact += usize::from(!b.is_exact());
        }
    }
    // Both cases must be exercised: cycles decided by the convention, and forced ends.
    assert!(
        nonzero > 0 && inexact > 0,
        "{nonzero} nonzero, {inexact} inexact"
    );
}
