//! The counting solver (nothing stored per edge) against the slow references, state by state.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use stonelab_go::enumerate::{Enumerator, Shape};
use stonelab_go::statefile::{self, StateTable};
use stonelab_retro::count::{self, Options};
use stonelab_retro::go::GoGame;
use stonelab_retro::space::Space;
use stonelab_retro::{dataflow, sweep, Bounds};

fn table_path(r: usize, c: usize, tag: &str) -> PathBuf {
    let shape = Shape::new(r, c).unwrap();
    let set = Enumerator::new(shape)
        .unwrap()
        .reduced_set(Some(1), &|_, _| {})
        .unwrap();
    let path = std::env::temp_dir().join(format!(
        "stonelab-count-{}-{r}x{c}-{tag}.st",
        std::process::id()
    ));
    statefile::write(&path, &set).unwrap();
    path
}

fn counted(path: &Path, workers: usize) -> Vec<Bounds> {
    let space = Arc::new(Space::open(path, 2).unwrap());
    count::solve(space, Options::threads(workers))
        .unwrap()
        .values
        .unwrap()
}

/// Every state of every board up to 3x3 and 1x7 against plain value sweeps.
#[test]
fn counting_equals_sweeps_on_small_boards() {
    for (r, c) in [
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
        (1, 5),
        (1, 6),
        (1, 7),
        (2, 1),
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (3, 3),
    ] {
        let path = table_path(r, c, "sweep");
        let game = GoGame::new(StateTable::open(&path).unwrap()).unwrap();
        let (want, _) = sweep::solve(&game);
        for workers in [1, 3] {
            let got = counted(&path, workers);
            assert_eq!(got.len(), want.len());
            for s in 0..want.len() {
                assert_eq!(got[s], want[s], "{r}x{c} state {s}, {workers} workers");
            }
        }
        std::fs::remove_file(&path).unwrap();
    }
}

/// The bigger boards of the issue (3x4, 2x6, 1x8, 1x9, and 2x5, 4x3) against the edge-storing
/// dataflow solver, itself checked against the sweeps above.
#[test]
fn counting_equals_the_edge_solver_up_to_3x4_2x6_1x9() {
    for (r, c) in [(1, 8), (1, 9), (2, 5), (2, 6), (3, 4), (4, 3)] {
        let path = table_path(r, c, "edges");
        let game = Arc::new(GoGame::new(StateTable::open(&path).unwrap()).unwrap());
        let want = dataflow::solve(game, dataflow::Options::threads(2))
            .unwrap()
            .values
            .unwrap();
        let got = counted(&path, 2);
        assert_eq!(got.len(), want.len());
        for s in 0..want.len() {
            assert_eq!(got[s], want[s], "{r}x{c} state {s}");
        }
        std::fs::remove_file(&path).unwrap();
    }
}

/// 4x4 (12.5 M states) against the edge-storing solver, state by state. Minutes and 2.5 GB for the
/// reference: `cargo test --release -p stonelab-retro --test count_solver -- --ignored`.
#[test]
#[ignore]
fn counting_equals_the_edge_solver_on_4x4() {
    let path = table_path(4, 4, "edges4x4");
    let game = Arc::new(GoGame::new(StateTable::open(&path).unwrap()).unwrap());
    let want = dataflow::solve(game, dataflow::Options::threads(2))
        .unwrap()
        .values
        .unwrap();
    let got = counted(&path, 2);
    assert_eq!(got.len(), want.len());
    let differ = (0..want.len()).filter(|&s| got[s] != want[s]).count();
    assert_eq!(differ, 0, "4x4: {differ} states differ");
    std::fs::remove_file(&path).unwrap();
}

/// Regression: a worker still counting its successors while a faster one had started the first
/// round dropped the messages it got (1x6 and 1x7 with two workers gave a wrong `lo` in about
/// half the runs). Many runs of two and three workers against the sweeps.
#[test]
fn counting_is_deterministic_when_workers_race() {
    for (r, c) in [(1, 6), (1, 7), (2, 3)] {
        let path = table_path(r, c, "race");
        let game = GoGame::new(StateTable::open(&path).unwrap()).unwrap();
        let (want, _) = sweep::solve(&game);
        for run in 0..20 {
            let workers = 2 + run % 2;
            let got = counted(&path, workers);
            assert_eq!(got, want, "{r}x{c}, run {run}, {workers} workers");
        }
        std::fs::remove_file(&path).unwrap();
    }
}
