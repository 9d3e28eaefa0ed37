//! Small Go boards: the timely solver equals the value sweeps on every state.

use std::sync::Arc;

use stonelab_retro::dataflow::{self, Options};
use stonelab_retro::go::GoGame;
use stonelab_retro::{sweep, GameGraph};

/// Each call gets its own folder: the tests run in parallel threads of one process, and two of them
/// enumerating the same board into one path would race on its file.
fn game(rows: usize, cols: usize) -> GoGame {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("stonelab-go-small-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{rows}x{cols}.states"));
    let game = GoGame::enumerate(rows, cols, &path, Some(1)).unwrap();
    // The state table is memory-mapped: its file can go now, and nothing is left behind.
    let _ = std::fs::remove_dir_all(&dir);
    game
}

#[test]
fn dataflow_equals_sweeps_on_small_boards() {
    for (r, c) in [
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
        (1, 5),
        (2, 2),
        (2, 3),
        (3, 2),
        (1, 6),
        (1, 7),
        (3, 3),
    ] {
        let g = Arc::new(game(r, c));
        let (want, sweeps) = sweep::solve(&*g);
        let got = dataflow::solve(g.clone(), Options::threads(2)).unwrap();
        assert_eq!(got.values.as_deref(), Some(&want[..]), "{r}x{c}");
        let v = want[g.start() as usize];
        eprintln!(
            "{r}x{c}: states {} sweeps {sweeps} rounds {} value {v}",
            g.num_states(),
            got.rounds
        );
    }
}

/// An endless game scoring 0: the values from the bounds equal the threshold attractors on every
/// state, and the empty boards are worth what van der Werf publishes for basic ko (2x2 0, 2x3 0,
/// 3x3 +9; tests/data/go/solved.csv in the main crate names the sources).
#[test]
fn tie_values_on_small_boards() {
    for (r, c, want) in [
        (1, 3, None),
        (2, 2, Some(0)),
        (2, 3, Some(0)),
        (3, 2, Some(0)),
        (1, 5, None),
        (3, 3, Some(9)),
    ] {
        let g = game(r, c);
        let (bounds, _) = sweep::solve(&g);
        let direct = stonelab_retro::tie::solve(&g);
        for (s, (b, d)) in bounds.iter().zip(&direct).enumerate() {
            assert_eq!(b.tie_value(), *d, "{r}x{c} state {s} bounds {b}");
        }
        if let Some(v) = want {
            assert_eq!(direct[g.start() as usize], v, "{r}x{c}");
        }
    }
}
