//! Small Go boards: the timely solver equals the value sweeps on every state.

use std::sync::Arc;

use stonelab_retro::dataflow::{self, Options};
use stonelab_retro::go::GoGame;
use stonelab_retro::{sweep, GameGraph};

fn game(rows: usize, cols: usize) -> GoGame {
    let dir = std::env::temp_dir().join(format!("stonelab-go-small-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{rows}x{cols}.states"));
    GoGame::enumerate(rows, cols, &path, Some(1)).unwrap()
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
