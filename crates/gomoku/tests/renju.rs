//! Renju in the threat-space solver: Black's forbidden points are never in Black's threat
//! sequences, White wins with a four whose only block is forbidden to Black, and every proof found on
//! random renju positions passes the renju-aware referee (which judges forbidden points with the
//! cell-walking reference, not the tables).

use stonelab_gomoku::games::plausible_game;
use stonelab_gomoku::renju;
use stonelab_gomoku::search::referee;
use stonelab_gomoku::{solve, Board, Color, Grid, Limits, Mode, Point, Rule};

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

/// White's three on row 7 against the left edge: White (0,7) makes a four whose only five point is
/// (4,7), and a black stone there would make six in column 4: forbidden, so the four wins under
/// renju, and is blocked under the other rules.
#[test]
fn a_four_whose_block_is_forbidden_wins_for_white() {
    let black = [(4, 4), (4, 5), (4, 6), (4, 8), (4, 9), (5, 7)];
    let white = [(1, 7), (2, 7), (3, 7)];
    let grid = grid_of(&black, &white);
    let lim = Limits::for_mode(Mode::Vcf);
    let b = Board::from_grid(&grid, Rule::Renju);
    assert_eq!(
        renju::foul(&b, Point::new(4, 7)),
        Some(renju::Foul::Overline)
    );
    let proof = solve(&b, Color::White, Mode::Vcf, &lim)
        .proof
        .expect("the four wins under renju");
    assert_eq!(proof.line(), [Point::new(0, 7)]);
    let examined = referee::check_proof(&grid, Rule::Renju, Color::White, &proof).unwrap();
    assert!(examined > 0);
    assert!(referee::vcf(&grid, Rule::Renju, Color::White, 3).is_some());
    for rule in [Rule::Freestyle, Rule::Standard] {
        let b = Board::from_grid(&grid, rule);
        assert!(
            solve(&b, Color::White, Mode::Vcf, &lim).proof.is_none(),
            "{rule}"
        );
        assert!(
            referee::vcf(&grid, rule, Color::White, 3).is_none(),
            "{rule}"
        );
        // The renju proof is refuted by the block under the other rules.
        assert!(referee::check_proof(&grid, rule, Color::White, &proof).is_err());
    }
}

/// A black four-four is a win in freestyle and forbidden in renju: the referee refuses a renju claim
/// that starts with it.
#[test]
fn the_referee_refuses_a_forbidden_attack() {
    use stonelab_gomoku::Proof;
    let black = [(3, 7), (4, 7), (5, 7), (6, 4), (6, 5), (6, 6)];
    let white = [(2, 7), (6, 3)];
    let grid = grid_of(&black, &white);
    let claim = Proof::Threat {
        attack: Point::new(6, 7),
        replies: vec![(Point::new(7, 7), Proof::Five(Point::new(6, 8)))],
    };
    let err = referee::check_proof(&grid, Rule::Renju, Color::Black, &claim).unwrap_err();
    assert!(err.reason.contains("forbidden"), "{err}");
    let b = Board::from_grid(&grid, Rule::Freestyle);
    let proof = solve(&b, Color::Black, Mode::Vcf, &Limits::for_mode(Mode::Vcf)).proof;
    assert!(proof.is_some(), "freestyle: the four-four wins");
    let b = Board::from_grid(&grid, Rule::Renju);
    if let Some(p) = solve(&b, Color::Black, Mode::Vcf, &Limits::for_mode(Mode::Vcf)).proof {
        assert_ne!(p.line()[0], Point::new(6, 7));
        referee::check_proof(&grid, Rule::Renju, Color::Black, &p).unwrap();
    }
}

/// Positions from plausible renju games, both attackers, VCF and VCT: every proof passes the renju
/// referee and never puts Black on a forbidden point; where the referee's exhaustive VCF (at most 4
/// fours) finds a win, the solver's VCF finds one too.
#[test]
fn random_renju_positions_agree_with_the_referee() {
    let (mut proofs, mut vcfs) = (0, 0);
    for seed in 0..160 {
        let game = plausible_game(15, Rule::Renju, 50_000 + seed, 70);
        let cut = game.len() * (2 + (seed as usize % 3)) / 4;
        let mut grid = Grid::new(15).unwrap();
        for (i, &p) in game[..cut].iter().enumerate() {
            grid.set(
                p,
                Some(if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                }),
            );
        }
        let board = Board::from_grid(&grid, Rule::Renju);
        for attacker in Color::ALL {
            if !stonelab_gomoku::search::five_points(&board, !attacker).is_empty() {
                continue;
            }
            for mode in [Mode::Vcf, Mode::Vct] {
                let lim = Limits {
                    nodes: 20_000,
                    ..Limits::for_mode(mode)
                };
                let out = solve(&board, attacker, mode, &lim);
                if let Some(p) = &out.proof {
                    proofs += 1;
                    referee::check_proof(&grid, Rule::Renju, attacker, p)
                        .unwrap_or_else(|e| panic!("seed {seed} {attacker:?} {mode:?}: {e}"));
                }
                if mode == Mode::Vcf {
                    let exhaustive = referee::vcf(&grid, Rule::Renju, attacker, 4);
                    if exhaustive.is_some() {
                        vcfs += 1;
                        assert!(
                            out.proof.is_some() || out.aborted,
                            "seed {seed} {attacker:?}: the referee finds a VCF {exhaustive:?}"
                        );
                    }
                }
            }
        }
    }
    eprintln!("{proofs} proofs, {vcfs} exhaustive VCFs");
    assert!(proofs >= 20 && vcfs >= 10, "{proofs} proofs, {vcfs} VCFs");
}
