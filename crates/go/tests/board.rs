//! Board core cross-checks: after every play and undo the incremental state (blocks, liberties,
//! hash) agrees with a rebuild (`check_consistency`), the bulk legal-move set equals the per-point
//! legality test, and undo restores the exact position.

mod common;

use common::XorShift as Rng;
use stonelab_go::{
    Bitboard, Board, Color, Geometry, IllegalMove, Move, Point, Rules, Setup, SetupProblem,
};

fn pt(b: &Board, s: &str) -> Point {
    match stonelab_go::vertex::parse_vertex(s, b.geometry()).unwrap() {
        Move::Play(p) => p,
        Move::Pass => panic!("pass"),
    }
}

/// Plays random games (mostly legal moves, some passes, some illegal attempts that must leave the
/// board unchanged), checking everything after every move and unwinding with undo at the end.
fn random_games(rows: usize, cols: usize, rules: Rules, games: usize, seed: u64) {
    let g = Geometry::new(rows, cols).unwrap();
    let mut rng = Rng(seed);
    for _ in 0..games {
        let mut b = Board::new(g, rules);
        let mut trail: Vec<(Setup, u64)> = Vec::new();
        let len = 3 * g.area() + 5;
        for _ in 0..len {
            let legal = b.legal_moves();
            for p in g.points() {
                assert_eq!(legal.contains(p), b.is_legal(p), "{p}\n{b}");
            }
            // An illegal attempt leaves the board unchanged.
            let p = Point::new(rng.below(rows), rng.below(cols));
            if !legal.contains(p) {
                let before = (b.to_setup(), b.hash());
                assert!(b.try_play(Move::Play(p)).is_err());
                assert_eq!((b.to_setup(), b.hash()), before);
            }
            trail.push((b.to_setup(), b.hash()));
            let pts: Vec<Point> = legal.iter().collect();
            if pts.is_empty() || rng.below(30) == 0 {
                b.pass();
            } else {
                b.try_play(Move::Play(pts[rng.below(pts.len())])).unwrap();
            }
            b.check_consistency().unwrap();
            // Undo and redo one move now and then, checking both ends.
            if rng.below(4) == 0 {
                let mv = b.undo().unwrap();
                b.check_consistency().unwrap();
                assert_eq!(&(b.to_setup(), b.hash()), trail.last().unwrap());
                b.try_play(mv).unwrap();
                b.check_consistency().unwrap();
            }
            if b.passes() >= 2 {
                break;
            }
        }
        while let Some(want) = trail.pop() {
            b.undo().unwrap();
            b.check_consistency().unwrap();
            assert_eq!((b.to_setup(), b.hash()), want);
        }
        assert!(b.undo().is_err());
    }
}

#[test]
fn random_games_are_consistent_standard_rules() {
    for (i, (r, c)) in [
        (1, 1),
        (1, 5),
        (2, 2),
        (2, 3),
        (3, 3),
        (4, 4),
        (5, 5),
        (3, 7),
        (9, 9),
    ]
    .into_iter()
    .enumerate()
    {
        random_games(r, c, Rules::STANDARD, 40, 0x1234 + i as u64);
    }
    random_games(19, 19, Rules::STANDARD, 3, 77);
    random_games(13, 19, Rules::STANDARD, 3, 78);
}

#[test]
fn random_games_are_consistent_suicide_and_no_ko() {
    let suicide = Rules {
        suicide: true,
        simple_ko: true,
    };
    let no_ko = Rules {
        suicide: false,
        simple_ko: false,
    };
    for (i, (r, c)) in [(1, 2), (2, 2), (3, 3), (4, 5), (9, 9)]
        .into_iter()
        .enumerate()
    {
        random_games(r, c, suicide, 30, 0x99 + i as u64);
        random_games(r, c, no_ko, 30, 0x77 + i as u64);
    }
}

#[test]
fn capture_and_ko() {
    let mut b = Board::new(Geometry::new(5, 5).unwrap(), Rules::default());
    // A ko in the middle of the top edge.
    for v in ["B5", "C5", "A4", "D4", "B3", "C3", "E1", "B4"] {
        b.try_play(Move::Play(pt(&b, v))).unwrap();
    }
    // Black C4 takes B4 and leaves a ko at B4.
    b.try_play(Move::Play(pt(&b, "C4"))).unwrap();
    assert_eq!(b.captures(Color::Black), 1);
    assert_eq!(b.ko(), Some(pt(&b, "B4")));
    assert_eq!(
        b.try_play(Move::Play(pt(&b, "B4"))),
        Err(IllegalMove::Ko(pt(&b, "B4")))
    );
    assert!(!b.legal_moves().contains(pt(&b, "B4")));
    // A pass lifts the ban (after Black answers, White may retake).
    b.pass();
    assert_eq!(b.ko(), None);
    b.pass();
    assert_eq!(b.passes(), 2);
    b.try_play(Move::Play(pt(&b, "B4"))).unwrap();
    assert_eq!(b.captures(Color::White), 1);
    assert_eq!(b.ko(), Some(pt(&b, "C4")));
    assert_eq!(b.passes(), 0);
    b.check_consistency().unwrap();
}

#[test]
fn suicide_rules() {
    let s: Setup = ".X...\nX....\n.....\n.....\n.....\n".parse().unwrap();
    let mut s = s;
    s.to_move = Color::White;
    let a1 = Point::new(0, 0);
    let mut b = Board::from_setup(s.clone(), Rules::default()).unwrap();
    assert_eq!(b.try_play(Move::Play(a1)), Err(IllegalMove::Suicide(a1)));
    assert!(!b.is_legal(a1));
    // With suicide allowed the stone is played and removed at once; the turn passes.
    let suicide = Rules {
        suicide: true,
        simple_ko: true,
    };
    let mut b = Board::from_setup(s, suicide).unwrap();
    let before = b.stones(Color::Black) | b.stones(Color::White);
    b.try_play(Move::Play(a1)).unwrap();
    assert_eq!(b.stones(Color::Black) | b.stones(Color::White), before);
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(b.captures(Color::Black), 1);
    // A multi-stone suicide removes the whole block and frees the opponent's liberties.
    let mut s: Setup = "OO.X.\nXXX..\n.....\n.....\n.....\n".parse().unwrap();
    s.to_move = Color::White;
    let mut b = Board::from_setup(s, suicide).unwrap();
    b.try_play(Move::Play(Point::new(0, 2))).unwrap();
    assert_eq!(b.stones(Color::White), Bitboard::EMPTY);
    assert_eq!(b.captures(Color::Black), 3);
    b.check_consistency().unwrap();
}

#[test]
fn setup_errors_hand_the_setup_back() {
    let s: Setup = "XO.\nO..\n...\n".parse().unwrap();
    let err = Board::from_setup(s.clone(), Rules::default()).unwrap_err();
    assert_eq!(*err.setup, s);
    assert_eq!(
        err.problems,
        vec![SetupProblem::NoLiberties(Color::Black, Point::new(0, 0))]
    );
    let mut s: Setup = "...\n...\n...\n".parse().unwrap();
    s.ko = Some(Point::new(1, 1));
    let err = Board::from_setup(s, Rules::default()).unwrap_err();
    assert_eq!(err.problems, vec![SetupProblem::BadKo(Point::new(1, 1))]);
    // Off-board point and occupied point.
    let mut b = Board::new(Geometry::new(3, 3).unwrap(), Rules::default());
    let off = Point::new(3, 0);
    assert_eq!(b.try_play(Move::Play(off)), Err(IllegalMove::OffBoard(off)));
    b.play(Move::Play(Point::new(0, 0)));
    assert_eq!(
        b.try_play(Move::Play(Point::new(0, 0))),
        Err(IllegalMove::Occupied(Point::new(0, 0)))
    );
}

#[test]
fn from_setup_matches_played_position() {
    let g = Geometry::new(7, 7).unwrap();
    let mut rng = Rng(5);
    let mut b = Board::new(g, Rules::default());
    for _ in 0..200 {
        let pts: Vec<Point> = b.legal_moves().iter().collect();
        if pts.is_empty() {
            break;
        }
        b.play_unchecked(Move::Play(pts[rng.below(pts.len())]));
        let c = Board::from_setup(b.to_setup(), Rules::default()).unwrap();
        c.check_consistency().unwrap();
        assert_eq!(c.hash(), b.hash());
        assert_eq!(c.legal_moves(), b.legal_moves());
        for p in g.points() {
            assert_eq!(c.liberties(p), b.liberties(p));
            assert_eq!(c.block(p), b.block(p));
        }
    }
}

#[test]
fn area_score_with_komi() {
    let s: Setup = ".X.O.\n.X.O.\n.XOO.\n".parse().unwrap();
    let b = Board::from_setup(s, Rules::default()).unwrap();
    // Black 3 + 3; White 4 + 3; column 2 above the white stone is bordered by both.
    assert_eq!(b.area_score(0.0), -1.0);
    assert_eq!(b.area_score(6.5), -7.5);
}

#[test]
fn play_as_other_colour() {
    let mut b = Board::new(Geometry::new(3, 3).unwrap(), Rules::default());
    b.try_play_as(Color::White, Move::Play(Point::new(1, 1)))
        .unwrap();
    assert_eq!(b.to_move(), Color::Black);
    assert_eq!(b.color_at(Point::new(1, 1)), Some(Color::White));
    b.check_consistency().unwrap();
}

#[test]
fn without_history_plays_the_same_positions() {
    for (n, rules) in [
        (5, Rules::STANDARD),
        (9, Rules::STANDARD),
        (
            4,
            Rules {
                suicide: true,
                simple_ko: true,
            },
        ),
    ] {
        let g = Geometry::new(n, n).unwrap();
        let mut rng = Rng(n as u64 * 31 + 7);
        let mut a = Board::new(g, rules);
        let mut b = Board::new(g, rules);
        b.set_keep_history(false);
        let mut c = Board::new(g, rules);
        for _ in 0..400 {
            let pts: Vec<Point> = a.legal_moves().iter().collect();
            let mv = if pts.is_empty() || rng.below(20) == 0 {
                Move::Pass
            } else {
                Move::Play(pts[rng.below(pts.len())])
            };
            a.try_play(mv).unwrap();
            b.try_play(mv).unwrap();
            b.check_consistency().unwrap();
            assert_eq!((a.to_setup(), a.hash()), (b.to_setup(), b.hash()));
            assert_eq!(a.legal_moves(), b.legal_moves());
            c.copy_position_from(&a);
            c.check_consistency().unwrap();
            assert_eq!(c.history_len(), 0);
            assert_eq!(
                (c.to_setup(), c.hash(), c.passes()),
                (a.to_setup(), a.hash(), a.passes())
            );
        }
        assert!(b.undo().is_err());
        assert_eq!(a.history_len(), 400);
    }
}
