//! The prover on the committed solver suite (`tests/data/gomoku/tss_suite.txt`, 15x15): wherever the
//! threat solver finds a win, `prove` (with the solver's own limits at its leaves) proves one too,
//! and its certificate passes the referee-based checker.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use stonelab_gomoku::prove::cert::{check, check_with};
use stonelab_gomoku::prove::{Options, Prover, Verdict};
use stonelab_gomoku::search::suite::parse_suite;
use stonelab_gomoku::search::{solve, Limits};
use stonelab_gomoku::{Board, Mode};

const SUITE: &str = include_str!("../../../tests/data/gomoku/tss_suite.txt");

#[test]
fn prove_agrees_with_solve_on_the_suite_and_every_certificate_checks() {
    let mut wins = 0;
    for (i, e) in parse_suite(SUITE).iter().enumerate() {
        let board = Board::from_grid(&e.grid, e.rule);
        let solved = solve(&board, e.to_move, e.mode, &Limits::for_mode(e.mode));
        if solved.proof.is_none() {
            continue;
        }
        let start = Instant::now();
        let options = Options {
            leaf_nodes: Limits::for_mode(Mode::Vct).nodes,
            vct_depth: Limits::for_mode(Mode::Vct).depth,
            max_nodes: 10_000,
            ..Options::default()
        };
        let mut p = Prover::new(&e.grid, e.rule, e.to_move, e.to_move, options);
        assert_eq!(p.run(), Verdict::Win, "suite line {i}: {}", e.moves);
        // Every other certificate is built on two threads.
        let built = AtomicU64::new(0);
        let cert = p
            .certificate_with(&e.grid, e.to_move, 1 + i % 2, &built)
            .unwrap_or_else(|err| panic!("suite line {i} ({}): {err}", e.moves));
        assert_eq!(built.load(Ordering::Relaxed), cert.entries.len() as u64);
        let report = check(&cert).unwrap_or_else(|err| panic!("suite line {i}: {err}"));
        assert_eq!(
            check_with(&cert, 2, &AtomicU64::new(0)),
            Ok(report),
            "suite line {i}: two threads"
        );
        eprintln!(
            "suite line {i}: {} entries, {} positions checked, {:.2} s",
            cert.entries.len(),
            report.positions,
            start.elapsed().as_secs_f64()
        );
        wins += 1;
    }
    assert!(wins >= 30, "only {wins} wins in the suite");
}

/// Positions from seeded plausible games (15x15, both rules, both attackers): wherever the threat
/// solver finds a VCT win, `prove` proves one, and the certificate checks.
#[test]
fn prove_agrees_with_solve_on_random_game_positions() {
    use stonelab_gomoku::games::plausible_game;
    use stonelab_gomoku::{Color, Grid, Rule};
    let mut wins = 0;
    let mut seed = 0;
    while wins < 12 && seed < 400 {
        seed += 1;
        let rule = if seed % 2 == 0 {
            Rule::Freestyle
        } else {
            Rule::Standard
        };
        let game = plausible_game(15, rule, 9_000 + seed, 40);
        if game.len() < 14 {
            continue;
        }
        let k = 8 + (seed as usize * 7) % (game.len() - 8);
        let mut grid = Grid::new(15).unwrap();
        let mut c = Color::Black;
        for &p in &game[..k] {
            grid.set(p, Some(c));
            c = !c;
        }
        // The side to move attacks; a five point of the other side would force its block first.
        let board = Board::from_grid(&grid, rule);
        if !stonelab_gomoku::search::five_points(&board, !c).is_empty() {
            continue;
        }
        let limits = Limits::for_mode(Mode::Vct);
        if solve(&board, c, Mode::Vct, &limits).proof.is_none() {
            continue;
        }
        let options = Options {
            leaf_nodes: limits.nodes,
            vct_depth: limits.depth,
            max_nodes: 10_000,
            // Every other win with two threads sharing the table.
            threads: 1 + wins % 2,
            ..Options::default()
        };
        let mut p = Prover::new(&grid, rule, c, c, options);
        assert_eq!(p.run(), Verdict::Win, "seed {seed}");
        let cert = p
            .certificate_with(&grid, c, 1 + (wins + 1) % 2, &AtomicU64::new(0))
            .unwrap();
        check(&cert).unwrap_or_else(|err| panic!("seed {seed}: {err}"));
        wins += 1;
    }
    assert!(wins >= 12, "only {wins} wins found");
}
