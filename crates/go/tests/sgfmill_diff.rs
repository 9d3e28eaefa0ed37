//! Differential test against PyPI's `sgfmill` (an independent implementation): 10,000 random games on
//! square boards 2x2..19x19, half under the default rules (suicide illegal) and half with suicide
//! allowed, all with simple ko. Move choice is biased toward captures, ko retakes, suicide attempts
//! and contact moves.
//!
//! Both boards start empty and receive the same stones, so the boards are identical after every move
//! exactly when both remove the same stones on every move: that set, and the simple-ko point, are
//! compared after every move; the full board and sgfmill's area score are compared every 16 moves and
//! at the end of each game. A move our board rejects as suicide is played on a copy of sgfmill's
//! board, which must remove the stone (with its own neighbouring blocks); a ko retake we reject must be
//! on the point sgfmill's `play` returned as the simple-ko point. sgfmill's row 0 is the bottom row and
//! ours the top; the test uses the same indices on both, a reflection, which the rules do not see.
//!
//! Python: `STONELAB_PYTHON`, else `<repo>/.venv/bin/python`, with `sgfmill` installed; `./scripts/test`
//! sets that up from `tests/python-requirements.txt`.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::XorShift as Rng;
use stonelab_go::{Bitboard, Board, Color, Geometry, IllegalMove, Move, Point, Rules};

const GAMES: usize = 10_000;

fn python() -> String {
    let py = std::env::var("STONELAB_PYTHON")
        .unwrap_or_else(|_| format!("{}/../../.venv/bin/python", env!("CARGO_MANIFEST_DIR")));
    let ok = Command::new(&py)
        .args(["-c", "import sgfmill.boards"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(
        ok,
        "sgfmill is not available to '{py}': run ./scripts/test (it creates .venv from \
         tests/python-requirements.txt and sets STONELAB_PYTHON), or set STONELAB_PYTHON to a \
         python with sgfmill installed"
    );
    py
}

/// What one command sent to sgfmill must answer.
enum Expect {
    Play {
        ko: Option<Point>,
        removed: Bitboard,
    },
    Try {
        removed: Bitboard,
    },
    Pass,
    Show {
        board: String,
        score: i64,
    },
}

fn fmt_points(b: Bitboard) -> String {
    if b.is_empty() {
        return "-".into();
    }
    b.iter()
        .map(|p| format!("{},{}", p.row(), p.col()))
        .collect::<Vec<_>>()
        .join(";")
}

fn show(b: &Board) -> (String, i64) {
    let g = b.geometry();
    let cells: String = g
        .points()
        .map(|p| b.color_at(p).map_or('.', Color::glyph))
        .collect();
    (cells, b.area_score(0.0) as i64)
}

/// Generates one game with our board: the commands for sgfmill and the answers expected.
fn game(rng: &mut Rng, n: usize, rules: Rules, cmds: &mut String, expects: &mut Vec<Expect>) {
    let g = Geometry::new(n, n).unwrap();
    let mut b = Board::new(g, rules);
    cmds.push_str(&format!("G {n}\n"));
    let len = (3 * n * n).min(56);
    for i in 0..len {
        let me = b.to_move();
        let letter = me.letter();
        let empty = b.empty();
        let legal = b.legal_moves();
        // Suicide attempts that the default rules reject: try them on a copy of sgfmill's board.
        let rejected = empty.and_not(legal);
        if !rules.suicide && rejected.any() && rng.below(3) == 0 {
            let p = rng.pick(rejected).unwrap();
            match b.try_play(Move::Play(p)) {
                Err(IllegalMove::Suicide(_)) => {
                    let own = g.neighbours(Bitboard::from_point(p)) & b.stones(me);
                    let mut removed = Bitboard::EMPTY;
                    for q in own.iter() {
                        removed |= b.block(q);
                    }
                    cmds.push_str(&format!("T {} {} {letter}\n", p.row(), p.col()));
                    expects.push(Expect::Try { removed });
                }
                Err(IllegalMove::Ko(k)) => assert_eq!(Some(k), b.ko()),
                other => panic!("rejected point {p} gave {other:?}"),
            }
        }
        // Choose a move: ko-capturing and capturing points, then suicides (when allowed), contact
        // moves, anything legal; a pass now and then.
        let opp = b.stones(me.opponent());
        let mut captures = Bitboard::EMPTY;
        b.for_each_block(me.opponent(), |_, libs| {
            if libs.count() == 1 {
                captures |= libs;
            }
        });
        captures &= legal;
        let contact = legal & g.neighbours(b.occupied());
        let suicides = if rules.suicide {
            let mut s = Bitboard::EMPTY;
            for p in legal.iter() {
                let nb = g.neighbours(Bitboard::from_point(p));
                if (nb & empty).is_empty() && (nb & opp).iter().all(|q| b.liberties(q).count() > 1)
                {
                    let own_libs = (nb & b.stones(me))
                        .iter()
                        .fold(Bitboard::EMPTY, |acc, q| acc | b.liberties(q));
                    if own_libs.and_not(Bitboard::from_point(p)).is_empty() {
                        s.set(p);
                    }
                }
            }
            s
        } else {
            Bitboard::EMPTY
        };
        let roll = rng.below(100);
        let choice = if roll < 2 || legal.is_empty() {
            None
        } else if roll < 40 && captures.any() {
            rng.pick(captures)
        } else if roll < 60 && suicides.any() {
            rng.pick(suicides)
        } else if roll < 85 && contact.any() {
            rng.pick(contact)
        } else {
            rng.pick(legal)
        };
        match choice {
            None => {
                b.pass();
                cmds.push_str("X\n");
                expects.push(Expect::Pass);
            }
            Some(p) => {
                let before = b.occupied();
                b.try_play(Move::Play(p)).unwrap();
                let removed = before.and_not(b.occupied());
                cmds.push_str(&format!("P {} {} {letter}\n", p.row(), p.col()));
                expects.push(Expect::Play {
                    ko: b.ko(),
                    removed,
                });
            }
        }
        if i % 16 == 15 || i + 1 == len {
            let (board, score) = show(&b);
            cmds.push_str("S\n");
            expects.push(Expect::Show { board, score });
        }
    }
}

#[test]
#[ignore = "needs python"]
fn boards_match_sgfmill_on_random_games() {
    let py = python();
    let script = format!(
        "{}/../../tests/python/sgfmill_board.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut rng = Rng(0x5eed_0f5f_3111);
    let mut cmds = String::new();
    let mut expects = Vec::new();
    let mut game_starts = Vec::new();
    for i in 0..GAMES {
        let n = 2 + i % 18;
        let rules = Rules {
            suicide: i % 2 == 1,
            simple_ko: true,
        };
        game_starts.push((expects.len(), n, rules));
        game(&mut rng, n, rules, &mut cmds, &mut expects);
    }

    let mut child = Command::new(&py)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cannot start python");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(cmds.as_bytes()).unwrap();
    });
    let reader = BufReader::new(child.stdout.take().unwrap());
    let mut lines = reader.lines();
    let mut game = 0;
    let (mut plays, mut tries, mut kos, mut captures) = (0, 0, 0, 0);
    for (k, want) in expects.iter().enumerate() {
        while game + 1 < game_starts.len() && game_starts[game + 1].0 <= k {
            game += 1;
        }
        let (_, n, rules) = game_starts[game];
        let ctx = format!("game {game} ({n}x{n}, {rules:?}), answer {k}");
        let line = lines
            .next()
            .unwrap_or_else(|| panic!("sgfmill stopped early at {ctx}"))
            .unwrap();
        let got: Vec<&str> = line.split(' ').collect();
        match want {
            Expect::Play { ko, removed } => {
                plays += 1;
                kos += usize::from(ko.is_some());
                captures += usize::from(removed.any());
                let ko = ko.map_or("-".to_string(), |p| format!("{},{}", p.row(), p.col()));
                assert_eq!(got, [ko.as_str(), &fmt_points(*removed)], "{ctx}");
            }
            Expect::Try { removed } => {
                tries += 1;
                assert_eq!(got, ["0", &fmt_points(*removed)], "suicide, {ctx}");
            }
            Expect::Pass => assert_eq!(got, ["-"], "{ctx}"),
            Expect::Show { board, score } => {
                assert_eq!(got, [board.as_str(), &score.to_string()], "{ctx}");
            }
        }
    }
    writer.join().unwrap();
    assert!(child.wait().unwrap().success());
    eprintln!(
        "{GAMES} games: {plays} moves, {captures} with captures, {kos} kos, {tries} suicide tries"
    );
    assert!(tries > 1000 && kos > 1000 && captures > 10_000);
}
