//! Random playouts checked move by move against the general board core (an independent
//! implementation) and the naive rule-2/4 reference: every move legal, no move fills an own eye, a
//! pass only when no legal non-eye move is left, the two boards agree on stones and ko, every game
//! ends, the area scores agree, and the same seed replays the same game.

use stonelab_go::playout::{Playout, PlayoutConfig};
use stonelab_go::{eyes_naive, Board, Color, EyeMasks, Geometry, Move, Rng, Rules};

/// Plays `games` playouts on a `rows` x `cols` board with checks; returns the games stopped by the
/// move cap.
fn check(rows: usize, cols: usize, games: u64) -> u32 {
    let g = Geometry::new(rows, cols).unwrap();
    let mut playout = Playout::new(g, PlayoutConfig::default());
    let masks = EyeMasks::new(g);
    let mut capped = 0;
    for seed in 0..games {
        let mut board = Board::new(g, Rules::STANDARD);
        let mut moves = Vec::new();
        let mut hashes = Vec::new();
        let result = playout.run_observed(&mut Rng::new(seed), |pb, mv| {
            let me = board.to_move();
            assert_eq!(pb.to_move(), me);
            for c in Color::ALL {
                assert_eq!(pb.stones(c), board.stones(c), "{rows}x{cols} seed {seed}");
            }
            assert_eq!(pb.ko(), board.ko(), "{rows}x{cols} seed {seed} ko");
            let own_eyes = eyes_naive(&g, board.stones(me), board.empty());
            assert_eq!(masks.eyes(board.stones(me), board.empty()), own_eyes);
            match mv {
                Move::Play(p) => {
                    assert!(board.is_legal(p), "{rows}x{cols} seed {seed}: illegal {p}");
                    assert!(
                        !own_eyes.contains(p),
                        "{rows}x{cols} seed {seed}: fills eye {p}"
                    );
                }
                Move::Pass => assert!(
                    board.legal_moves().and_not(own_eyes).is_empty(),
                    "{rows}x{cols} seed {seed}: passes with a move left"
                ),
            }
            board.play(mv);
            moves.push(mv);
            hashes.push(board.hash());
        });
        assert_eq!(result.moves as usize, moves.len());
        assert!(result.moves <= playout.max_moves());
        if result.capped {
            // Simple ko cannot stop every cycle (2x2 always cycles; triple ko, sending two returning
            // one): a game that hits the cap has repeated a position (the hash includes the side
            // to move and the ko point).
            capped += 1;
            let mut seen = hashes.clone();
            seen.sort_unstable();
            seen.dedup();
            // On a 1xN board long games without a repeat happen (captures and refills of the
            // line); everywhere else the cap is met only by cycles.
            assert!(
                seen.len() < hashes.len() || rows == 1 || cols == 1,
                "{rows}x{cols} seed {seed}: capped, no repetition"
            );
        } else {
            let n = moves.len();
            assert!(n >= 2 && moves[n - 1] == Move::Pass && moves[n - 2] == Move::Pass);
        }
        assert_eq!(
            result.score,
            board.area_score(7.5),
            "{rows}x{cols} seed {seed}"
        );
        // Replay: the same seed gives the same game, move for move.
        let mut again = Vec::new();
        let replay = playout.run_observed(&mut Rng::new(seed), |_, mv| again.push(mv));
        assert_eq!(again, moves);
        assert_eq!(replay, result);
    }
    capped
}

#[test]
fn playouts_small_and_thin_boards() {
    for (rows, cols) in [
        (1, 1),
        (1, 2),
        (1, 7),
        (2, 1),
        (2, 2),
        (3, 3),
        (2, 5),
        (4, 4),
        (5, 5),
    ] {
        check(rows, cols, 1000);
    }
}

#[test]
fn playouts_rectangles() {
    for (rows, cols) in [(3, 7), (7, 3), (5, 9), (9, 6), (19, 5)] {
        check(rows, cols, 400);
    }
}

#[test]
fn playouts_9x9_13x13_19x19() {
    let capped = check(9, 9, 2000) + check(13, 13, 200) + check(19, 19, 60);
    // The cap (three times the area) is a guard against cycles, not the usual ending.
    assert!(capped <= 45, "{capped} of 2260 games hit the move cap");
}

#[test]
fn different_seeds_differ() {
    let g = Geometry::new(9, 9).unwrap();
    let mut playout = Playout::new(g, PlayoutConfig::default());
    let mut first = Vec::new();
    playout.run_observed(&mut Rng::new(1), |_, mv| first.push(mv));
    let mut second = Vec::new();
    playout.run_observed(&mut Rng::new(2), |_, mv| second.push(mv));
    assert_ne!(first, second);
}
