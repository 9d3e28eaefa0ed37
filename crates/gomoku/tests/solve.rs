//! Soundness of the threat-space solver, checked by the independent referee: every claimed win on
//! thousands of plausible random positions (7x7..11x11, both rules) is replayed against every defence;
//! recall of the solver's VCF against the referee's exhaustive VCF; the small-board truths of Hsu et
//! al. (no forced win on empty 5x5..8x8, nor after any first move); and a few hand-made rule cases.

use stonelab_gomoku::games::{random_position, GamePosition as Position, Rng};
use stonelab_gomoku::search::dbs;
use stonelab_gomoku::search::referee::{self, Referee};
use stonelab_gomoku::search::{solve, Limits, Mode};
use stonelab_gomoku::{parse_position, Board, Color, Grid, Point, Rule};

/// `count` positions from plausible games on 7x7..11x11, cut at a random move; no fives on them.
fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut i = 0u64;
    while out.len() < count {
        i += 1;
        out.extend(random_position(&mut rng, 7..12, seed * 100_000 + i, 4));
    }
    out
}

fn limits(mode: Mode, nodes: u64) -> Limits {
    Limits {
        nodes,
        ..Limits::for_mode(mode)
    }
}

/// Every win the solver claims must pass the referee; returns (positions, wins).
fn check_mode(mode: Mode, count: usize, seed: u64, nodes: u64) -> (usize, usize) {
    let mut wins = 0;
    let positions = random_positions(count, seed);
    for (i, pos) in positions.iter().enumerate() {
        let board = Board::from_grid(&pos.grid, pos.rule);
        let out = solve(&board, pos.to_move, mode, &limits(mode, nodes));
        if let Some(proof) = out.proof {
            wins += 1;
            if let Err(r) = referee::check_proof(&pos.grid, pos.rule, pos.to_move, &proof) {
                panic!(
                    "false {} win #{i} ({:?}, {} to move): {r}\n{}",
                    mode.name(),
                    pos.rule,
                    pos.to_move.name(),
                    stonelab_gomoku::render(
                        &stonelab_gomoku::Parsed {
                            grid: pos.grid.clone(),
                            style: stonelab_gomoku::Style::Ascii
                        },
                        &stonelab_gomoku::Bitboard::EMPTY
                    )
                );
            }
            // The principal line alternates attacker and defender and ends on the attacker's five.
            let line = proof.line();
            assert_eq!(line.len() % 2, 1);
        }
    }
    (positions.len(), wins)
}

#[test]
fn vcf_claims_pass_the_referee() {
    let (n, wins) = check_mode(Mode::Vcf, 3000, 1, 200_000);
    eprintln!("vcf: {wins} wins in {n} positions, all confirmed by the referee");
    assert!(wins > n / 10, "too few wins to test anything: {wins}");
}

#[test]
fn vct_claims_pass_the_referee() {
    let (n, wins) = check_mode(Mode::Vct, 1000, 2, 20_000);
    eprintln!("vct: {wins} wins in {n} positions, all confirmed by the referee");
    assert!(wins > n / 10, "too few wins to test anything: {wins}");
}

/// The dependency-based stage alone (combination stage on, with a larger budget than inside `solve`
/// so that more of its candidates are verified): every win it claims passes the referee.
fn check_dbs(mode: Mode, count: usize, seed: u64) -> (usize, usize, usize) {
    let (mut wins, mut combined) = (0, 0);
    let positions = random_positions(count, seed);
    let opts = dbs::Options {
        max_nodes: 20_000,
        max_candidates: 64,
        ..dbs::Options::default()
    };
    for (i, pos) in positions.iter().enumerate() {
        let board = Board::from_grid(&pos.grid, pos.rule);
        let out = dbs::search(&board, pos.to_move, mode, &limits(mode, 200_000), &opts);
        if let Some(proof) = out.proof {
            wins += 1;
            combined += usize::from(out.via_combination);
            if let Err(r) = referee::check_proof(&pos.grid, pos.rule, pos.to_move, &proof) {
                panic!("false dbs {} win #{i} ({:?}): {r}", mode.name(), pos.rule);
            }
        }
    }
    (positions.len(), wins, combined)
}

#[test]
fn dbs_claims_pass_the_referee() {
    for (mode, count, seed) in [(Mode::Vcf, 2000, 11), (Mode::Vct, 1000, 12)] {
        let (n, wins, combined) = check_dbs(mode, count, seed);
        eprintln!(
            "dbs {}: {wins} wins ({combined} through the combination stage) in {n} positions, all \
             confirmed by the referee",
            mode.name()
        );
        assert!(wins > n / 10, "too few wins to test anything: {wins}");
        assert!(combined > 0, "no win through the combination stage");
    }
}

/// The referee's VCF search skips cells and scans that cannot change its answer; its plain
/// version tries every cell and scans the board at every level. Both give the same line (or none)
/// on random positions of 7x7..15x15, under each rule, for each side, within 1..=4 fours.
#[test]
fn the_referees_vcf_answers_as_its_plain_search() {
    let mut rng = Rng::new(47);
    let (mut compared, mut deep_wins) = (0, 0);
    let mut i = 0u64;
    while compared < 1200 {
        i += 1;
        let Some(pos) = random_position(&mut rng, 7..16, 4_700_000 + i, 4) else {
            continue;
        };
        let rule = Rule::ALL[(i % 3) as usize];
        for side in [Color::Black, Color::White] {
            for depth in 1..=4 {
                let fast = referee::vcf(&pos.grid, rule, side, depth);
                let plain = referee::vcf_plain(&pos.grid, rule, side, depth);
                assert_eq!(
                    fast, plain,
                    "{rule:?}, {side:?} to move, {depth} fours, position #{i}"
                );
                if depth == 4 && fast.as_ref().is_some_and(|l| l.len() >= 5) {
                    deep_wins += 1;
                }
                compared += 1;
            }
        }
    }
    assert!(
        deep_wins >= 50,
        "too few VCFs of two or more fours: {deep_wins}"
    );
}

/// `has_vcf` (the last line found tried first) answers as `vcf` on every child of random
/// positions (the defender's replies, asked one after another as a certificate's checker asks
/// them), and every line `vcf` finds passes `vcf_line_wins` while a line cut short does not.
#[test]
fn has_vcf_answers_as_the_search_on_the_replies_of_a_position() {
    let mut rng = Rng::new(4747);
    let (mut asked, mut wins, mut lines) = (0, 0, 0);
    let mut i = 0u64;
    while asked < 20_000 {
        i += 1;
        let Some(pos) = random_position(&mut rng, 9..16, 4_800_000 + i, 6) else {
            continue;
        };
        let rule = Rule::ALL[(i % 3) as usize];
        let a = pos.to_move;
        let empties: Vec<Point> = pos
            .grid
            .points()
            .filter(|&q| pos.grid.get(q).is_none())
            .collect();
        for &x in &empties {
            let mut g = pos.grid.clone();
            g.set(x, Some(!a));
            let found = referee::vcf(&g, rule, a, 3);
            assert_eq!(
                referee::has_vcf(&g, rule, a, 3),
                found.is_some(),
                "{rule:?}, position #{i}, reply {x:?}"
            );
            asked += 1;
            if let Some(line) = found {
                wins += 1;
                let mut r = Referee::new(&g, rule);
                // A line of two fours or more ending in a double four (attacker, block, ...,
                // four, its two five points): without its last four it stops after a block.
                if line.len() >= 5 && line.len() % 2 == 1 && lines < 2000 {
                    lines += 1;
                    assert!(referee::vcf_line_wins(&mut r, a, 3, &line), "{line:?}");
                    assert_eq!(r.grid(), &g, "the board is left as it was");
                    assert!(!referee::vcf_line_wins(
                        &mut r,
                        a,
                        3,
                        &line[..line.len() - 3]
                    ));
                    assert!(!referee::vcf_line_wins(&mut r, a, 1, &line));
                    assert_eq!(r.grid(), &g, "the board is left as it was");
                }
            }
        }
    }
    assert!(
        wins > 2000 && lines > 300,
        "too few VCFs to test anything: {wins}, {lines}"
    );
}

/// Recall: every VCF the referee's exhaustive search proves within 4 fours, the solver finds (its
/// VCF is complete within its depth); and every solver VCF within that depth the referee finds too.
#[test]
fn vcf_recall_against_the_exhaustive_referee() {
    const FOURS: u32 = 4;
    let positions = random_positions(1500, 3);
    let (mut proven, mut found, mut solver_only) = (0, 0, 0);
    for pos in &positions {
        let board = Board::from_grid(&pos.grid, pos.rule);
        let by_referee = referee::vcf(&pos.grid, pos.rule, pos.to_move, FOURS);
        let lim = Limits {
            depth: FOURS + 1,
            ..Limits::for_mode(Mode::Vcf)
        };
        let by_solver = solve(&board, pos.to_move, Mode::Vcf, &lim).proof;
        match (by_referee, by_solver) {
            (Some(_), Some(_)) => {
                proven += 1;
                found += 1;
            }
            (Some(line), None) => {
                proven += 1;
                eprintln!("missed VCF {line:?}");
            }
            (None, Some(_)) => solver_only += 1,
            (None, None) => {}
        }
    }
    eprintln!("vcf recall: {found}/{proven} referee-proven wins found; {solver_only} solver-only");
    assert!(proven > 100);
    assert_eq!(found, proven, "the solver missed referee-proven VCFs");
    assert_eq!(
        solver_only, 0,
        "the solver found VCFs the exhaustive search did not"
    );
}

/// Hsu et al. 2020: five in a row on 5x5..8x8 is a draw, so no forced win exists on the empty board,
/// nor for White after any first move of Black.
#[test]
fn small_boards_have_no_win() {
    for size in 5..=8 {
        for rule in Rule::ALL {
            let empty = Board::new(size, rule).unwrap();
            for mode in [Mode::Vcf, Mode::Vct] {
                let out = solve(&empty, Color::Black, mode, &Limits::for_mode(mode));
                assert!(out.proof.is_none(), "win on empty {size}x{size}");
                for y in 0..size as u8 {
                    for x in 0..size as u8 {
                        let mut b = empty.clone();
                        b.make(Point::new(x, y), Color::Black);
                        for attacker in [Color::White, Color::Black] {
                            let out = solve(&b, attacker, mode, &Limits::for_mode(mode));
                            assert!(out.proof.is_none(), "win after ({x},{y}) on {size}x{size}");
                        }
                    }
                }
            }
        }
    }
}

fn board(text: &str, rule: Rule) -> (Grid, Board) {
    let grid = parse_position(text, None).unwrap().grid;
    let b = Board::from_grid(&grid, rule);
    (grid, b)
}

/// `XXX.XX`: a five point in freestyle, an overline (no five) in standard.
#[test]
fn overline_is_no_five_in_standard() {
    let text = "XXX.XX.\n.......\n.......\nOOO.O..\n.......\n.......\n.......\n";
    let (grid, free) = board(text, Rule::Freestyle);
    let out = solve(&free, Color::Black, Mode::Vcf, &Limits::for_mode(Mode::Vcf));
    assert_eq!(out.proof.unwrap().line(), vec![Point::new(3, 0)]);
    let (_, std) = board(text, Rule::Standard);
    let out = solve(&std, Color::Black, Mode::Vct, &Limits::for_mode(Mode::Vct));
    if let Some(p) = out.proof {
        assert!(!p.line().contains(&Point::new(3, 0)));
        referee::check_proof(&grid, Rule::Standard, Color::Black, &p).unwrap();
    }
}

fn grid_of(black: &[(u8, u8)], white: &[(u8, u8)]) -> Grid {
    let mut g = Grid::new(15).unwrap();
    for &(x, y) in black {
        g.set(Point::new(x, y), Some(Color::Black));
    }
    for &(x, y) in white {
        g.set(Point::new(x, y), Some(Color::White));
    }
    g
}

/// Black (to move) has a double three at (7,7) and no four. With White's stones scattered, it wins
/// (under renju the double three is forbidden, and a win, if found, must start elsewhere); with White
/// holding a double four at (3,13) in reserve, every Black three is refuted by that counter-four, so
/// no VCT may be claimed.
#[test]
fn counter_four_refutes_a_three() {
    let black = [(5, 7), (6, 7), (7, 5), (7, 6), (12, 0), (14, 2)];
    let scattered = [(0, 0), (14, 0), (0, 6), (14, 6), (6, 14), (14, 10)];
    let double_four = [(0, 13), (1, 13), (2, 13), (3, 10), (3, 11), (3, 12)];
    let lim = Limits::for_mode(Mode::Vct);
    for rule in Rule::ALL {
        let grid = grid_of(&black, &scattered);
        let b = Board::from_grid(&grid, rule);
        let proof = solve(&b, Color::Black, Mode::Vct, &lim).proof;
        if rule == Rule::Renju {
            // The double three is forbidden to Black: any win found starts elsewhere.
            if let Some(proof) = &proof {
                assert_ne!(proof.line()[0], Point::new(7, 7));
                referee::check_proof(&grid, rule, Color::Black, proof).unwrap();
            }
        } else {
            let proof = proof.expect("the double three wins");
            assert_eq!(proof.line()[0], Point::new(7, 7));
            referee::check_proof(&grid, rule, Color::Black, &proof).unwrap();
        }
        let grid = grid_of(&black, &double_four);
        let b = Board::from_grid(&grid, rule);
        // (The search may run into its node limit here: many threes, none of them good.)
        let out = solve(
            &b,
            Color::Black,
            Mode::Vct,
            &Limits {
                nodes: 200_000,
                ..lim
            },
        );
        assert!(
            out.proof.is_none(),
            "White's counter-four refutes every three"
        );
    }
}

/// The referee catches a false claim: a lone four answered by its block is no win.
#[test]
fn referee_refutes_a_false_claim() {
    use stonelab_gomoku::Proof;
    let text = ".......\n.......\n.XXX...\nO......\n.......\n.......\nOOO....\n";
    let grid = parse_position(text, None).unwrap().grid;
    // Black plays e5 (4,2) making an open four... claim instead a win by a move that makes nothing.
    let claim = Proof::Threat {
        attack: Point::new(6, 6),
        replies: vec![(Point::new(3, 6), Proof::Five(Point::new(4, 2)))],
    };
    let r = referee::check_proof(&grid, Rule::Freestyle, Color::Black, &claim);
    assert!(r.is_err());
    let r = Referee::new(&grid, Rule::Freestyle);
    assert!(!r.has_five(Color::Black));
}
