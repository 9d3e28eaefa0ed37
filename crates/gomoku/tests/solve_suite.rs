//! The committed solver suite (`tests/data/gomoku/tss_suite.txt`): 15x15 positions under both rules,
//! each with its expected VCF or VCT result, solved and (for wins) checked by the referee; and the
//! defender's view checked against the solver and the referee. `generate_suite` (ignored) rebuilds
//! the suite's lines from seeded random play.

use std::time::Instant;

use stonelab_gomoku::games::{plausible_game, Rng};
use stonelab_gomoku::search::defence::{defences, Playable};
use stonelab_gomoku::search::referee;
use stonelab_gomoku::search::suite::parse_suite;
use stonelab_gomoku::search::{five_points, solve, with_stop, Limits, Mode};
use stonelab_gomoku::{Board, Budget, Color, Grid, Point, Rule};

const SUITE: &str = include_str!("../../../tests/data/gomoku/tss_suite.txt");

#[test]
fn suite_results_match() {
    let entries = parse_suite(SUITE);
    for mode in [Mode::Vcf, Mode::Vct] {
        // Renju threat search (forbidden points in the sequences) is not in the suite yet.
        for rule in [Rule::Freestyle, Rule::Standard] {
            let n = entries
                .iter()
                .filter(|e| e.mode == mode && e.rule == rule)
                .count();
            assert!(n >= 15, "{} {rule}: only {n} positions", mode.name());
        }
    }
    let mut slowest = 0.0f64;
    for (i, e) in entries.iter().enumerate() {
        let (grid, c) = (&e.grid, e.to_move);
        let board = Board::from_grid(grid, e.rule);
        let start = Instant::now();
        let out = solve(&board, c, e.mode, &Limits::for_mode(e.mode));
        let ms = start.elapsed().as_secs_f64() * 1e3;
        slowest = slowest.max(ms);
        if ms > 100.0 || out.proof.is_some() != e.win {
            eprintln!(
                "suite line {i}: {ms:.0} ms, {} nodes, win {}",
                out.nodes,
                out.proof.is_some()
            );
        }
        assert_eq!(out.proof.is_some(), e.win, "suite line {i}: {}", e.moves);
        if let Some(p) = out.proof {
            referee::check_proof(grid, e.rule, c, &p).unwrap();
        }
    }
    eprintln!(
        "suite: {} positions, slowest {slowest:.1} ms",
        entries.len()
    );
}

#[test]
fn a_raised_stop_flag_ends_the_threat_searches() {
    // Under a raised stop flag (a front end's YXSTOP) every suite win that takes the search more
    // than a few hundred nodes is not found, and the search says it was cut short; the flag is
    // the thread's only inside `with_stop`, so the same search afterwards finds the win again.
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let entries = parse_suite(SUITE);
    let flag = Arc::new(AtomicBool::new(true));
    let mut stopped = 0;
    for e in entries.iter().filter(|e| e.win) {
        let board = Board::from_grid(&e.grid, e.rule);
        let limits = Limits::for_mode(e.mode);
        let free = solve(&board, e.to_move, e.mode, &limits);
        if free.nodes <= 300 {
            continue;
        }
        let out = with_stop(Arc::clone(&flag), || {
            solve(&board, e.to_move, e.mode, &limits)
        });
        assert!(out.proof.is_none() && out.aborted, "{}", e.moves);
        assert!(out.nodes < free.nodes, "{}", e.moves);
        assert!(solve(&board, e.to_move, e.mode, &limits).proof.is_some());
        stopped += 1;
    }
    assert!(
        stopped >= 10,
        "only {stopped} suite wins take over 300 nodes"
    );
}

/// The defender's view ([`defences`], the engine's routine) on the suite's VCF wins, seen from the
/// loser (the winner "passes"), every empty cell a candidate and no budget limit: every move it
/// keeps leaves no VCF the referee's exhaustive search finds within 3 fours; every move it drops,
/// fours aside, loses to a VCF or VCT the referee accepts, or is unproven (a search hit its limit)
/// while proven-safe moves are kept. A four is followed by its forced block.
#[test]
fn defender_view_is_consistent() {
    let unlimited = Budget {
        time: None,
        nodes: None,
    };
    let mut checked = 0;
    for e in parse_suite(SUITE)
        .iter()
        .filter(|e| e.mode == Mode::Vcf && e.win)
        .take(8)
    {
        let grid = &e.grid;
        let board = Board::from_grid(grid, e.rule);
        let attacker = e.to_move;
        let defender = !attacker;
        if !five_points(&board, defender).is_empty() || !five_points(&board, attacker).is_empty() {
            continue;
        }
        if solve(&board, attacker, Mode::Vcf, &Limits::for_mode(Mode::Vcf))
            .proof
            .is_none()
        {
            continue;
        }
        checked += 1;
        let empties: Vec<Point> = grid.points().filter(|&p| grid.get(p).is_none()).collect();
        let mut work = board.clone();
        work.track_patterns();
        let fours = work.fours(defender);
        let (kept, _) = defences(&mut work, defender, empties.clone(), unlimited, 1);
        for p in empties {
            let mut g = grid.clone();
            g.set(p, Some(defender));
            let mut after = board.clone();
            after.make(p, defender);
            let fives = five_points(&after, defender);
            if fives.count() == 1 {
                let q = fives.iter().next().unwrap();
                g.set(q, Some(attacker));
                after.make(q, attacker);
            }
            if kept.contains(&p) {
                assert!(
                    referee::vcf(&g, e.rule, attacker, 3).is_none(),
                    "{p:?} kept"
                );
            } else if !fours.contains(p) {
                // Dropped: refuted, or unproven (a search hit its limit) beside proven-safe moves.
                let mut aborted = false;
                let proof = [Mode::Vcf, Mode::Vct].into_iter().find_map(|m| {
                    let out = solve(&after, attacker, m, &Limits::for_mode(m));
                    aborted |= out.aborted;
                    out.proof
                });
                match proof {
                    Some(proof) => {
                        referee::check_proof(&g, e.rule, attacker, &proof).unwrap();
                    }
                    None => assert!(aborted && !kept.is_empty(), "{p:?} dropped, not refuted"),
                }
            }
        }
    }
    assert!(checked >= 3, "only {checked} positions checked");
}

fn notation(moves: &[Point]) -> String {
    moves
        .iter()
        .map(|p| format!("{}{}", char::from(b'a' + p.x), 15 - p.y))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Rebuilds the suite: `cargo test --test gomoku_solve_suite -- --ignored --nocapture generate`,
/// the `SUITE` lines go to the data file.
#[test]
#[ignore]
fn generate_suite() {
    let mut rng = Rng::new(2002);
    for rule in [Rule::Freestyle, Rule::Standard] {
        let (mut vcf_win, mut vcf_no, mut vct_win, mut vct_no) = (0, 0, 0, 0);
        let mut seed = 0;
        while vcf_win < 13 || vcf_no < 5 || vct_win < 13 || vct_no < 5 {
            seed += 1;
            let game = plausible_game(15, rule, 6_000 + seed, 90);
            if game.len() < 12 {
                continue;
            }
            let k = 10 + rng.below(game.len() - 10);
            let moves = &game[..k];
            let mut grid = Grid::new(15).unwrap();
            let mut c = Color::Black;
            for &p in moves {
                grid.set(p, Some(c));
                c = !c;
            }
            let board = Board::from_grid(&grid, rule);
            if !five_points(&board, c).is_empty() {
                continue;
            }
            let vcf = solve(&board, c, Mode::Vcf, &Limits::for_mode(Mode::Vcf));
            let text = notation(moves);
            match &vcf.proof {
                Some(p) if vcf_win < 13 && p.line().len() >= 5 => {
                    referee::check_proof(&grid, rule, c, p).unwrap();
                    vcf_win += 1;
                    println!("SUITE vcf {rule} win referee {text}");
                    continue;
                }
                None if vcf_no < 5
                    && !stonelab_gomoku::search::four_moves(&board, c).is_empty()
                    && referee::vcf(&grid, rule, c, 6).is_none() =>
                {
                    vcf_no += 1;
                    println!("SUITE vcf {rule} no_win_found referee-vcf6 {text}");
                    continue;
                }
                _ => {}
            }
            if vcf.proof.is_some() {
                continue;
            }
            let vct = solve(&board, c, Mode::Vct, &Limits::for_mode(Mode::Vct));
            match &vct.proof {
                Some(p) if vct_win < 13 => {
                    referee::check_proof(&grid, rule, c, p).unwrap();
                    vct_win += 1;
                    println!("SUITE vct {rule} win referee {text}");
                }
                None if vct_no < 5
                    && !vct.aborted
                    && !stonelab_gomoku::search::three_moves(&board, c).is_empty() =>
                {
                    vct_no += 1;
                    println!("SUITE vct {rule} no_win_found solver {text}");
                }
                _ => {}
            }
        }
    }
}
