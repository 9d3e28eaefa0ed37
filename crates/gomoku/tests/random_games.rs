//! Random games on every size 5..=20 under both rules. After every make and every unmake:
//! - the incremental line codes equal codes rebuilt from scratch;
//! - the incremental threat set equals the full lookup and the naive reference scanner;
//! - the class sets the board keeps up to date equal a scan of every cell.
//!
//! On every 8th position also: the per-colour classes of every point in every direction, the class
//! sets and the unfiltered five / open-four lists equal the reference's.

use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use stonelab_gomoku::games::{nearby_move, Rng};
use stonelab_gomoku::tables::reference;
use stonelab_gomoku::{Board, Color, Direction, Grid, LineCodes, Point, Rule};

const GAMES_PER_CONFIG: usize = 18;
const CLASS_EVERY: usize = 8;

fn check(board: &Board, grid: &Grid, rule: Rule, deep: bool, what: &str) {
    assert_eq!(
        *board.codes(),
        LineCodes::from_grid(grid),
        "codes after {what}"
    );
    let want = reference::threats(grid, rule);
    assert_eq!(
        board.threat_points(),
        want,
        "incremental threats after {what}"
    );
    assert_eq!(
        board.threat_points_full(),
        want,
        "full threats after {what}"
    );
    assert!(board.tracks_patterns());
    for c in Color::ALL {
        let scanned = board.pattern_sets_scanned(c);
        assert_eq!(
            board.pattern_sets(c),
            scanned,
            "tracked {c:?} class sets after {what}"
        );
    }
    if !deep {
        return;
    }
    let lists = reference::threat_lists(grid, rule);
    assert_eq!(
        board.threat_lists(),
        lists,
        "five/open-four lists after {what}"
    );
    let patterns = reference::patterns(grid, rule);
    let n = grid.size();
    for c in Color::ALL {
        for p in grid.points() {
            for d in Direction::ALL {
                let want = patterns[c.index()][d.index()][p.y as usize * n + p.x as usize];
                assert_eq!(
                    board.pattern(p, d, c),
                    want,
                    "{c:?} class at {p:?} {d:?} after {what}"
                );
            }
        }
        let sets = board.pattern_sets(c);
        for p in grid.points() {
            let classes: Vec<_> = Direction::ALL
                .iter()
                .map(|d| patterns[c.index()][d.index()][p.y as usize * n + p.x as usize])
                .collect();
            for (set, pat) in [
                (sets.five, stonelab_gomoku::Pattern::Five),
                (sets.open_four, stonelab_gomoku::Pattern::OpenFour),
                (sets.four, stonelab_gomoku::Pattern::Four),
                (sets.open_three, stonelab_gomoku::Pattern::OpenThree),
            ] {
                assert_eq!(
                    set.contains(p),
                    classes.contains(&pat),
                    "{c:?} {pat:?} set at {p:?}"
                );
            }
        }
    }
}

#[test]
fn incremental_state_equals_scratch_and_reference() {
    let positions = AtomicUsize::new(0);
    let configs: Vec<(usize, Rule)> = (5..=20).flat_map(|n| Rule::ALL.map(|r| (n, r))).collect();
    configs.par_iter().for_each(|&(n, rule)| {
        let mut seen = 0usize;
        for game in 0..GAMES_PER_CONFIG {
            let mut rng = Rng::new((n * 1000 + game * 10 + rule as usize) as u64);
            let mut board = Board::new(n, rule).unwrap();
            board.track_patterns();
            let mut grid = Grid::new(n).unwrap();
            let mut played: Vec<Point> = Vec::new();
            let fill = n * n * (3 + rng.below(5)) / 10;
            let mut color = if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            while played.len() < fill {
                let Some(p) = nearby_move(&board, &mut rng) else {
                    break;
                };
                board.make(p, color);
                grid.set(p, Some(color));
                played.push(p);
                seen += 1;
                let what = format!("make {p:?} ({n}x{n} {rule}, game {game})");
                check(&board, &grid, rule, seen % CLASS_EVERY == 0, &what);
                color = !color;
            }
            while let Some(p) = played.pop() {
                board.unmake(p);
                grid.set(p, None);
                seen += 1;
                let what = format!("unmake {p:?} ({n}x{n} {rule}, game {game})");
                check(&board, &grid, rule, seen % CLASS_EVERY == 0, &what);
            }
        }
        positions.fetch_add(seen, Ordering::Relaxed);
    });
    let total = positions.into_inner();
    eprintln!("checked {total} positions");
    assert!(total >= 100_000, "only {total} positions");
}

/// Makes and take-backs in any order, and copies of the board half-way: the tracked class sets
/// (restored from the move's frame when the last move is taken back, read again otherwise) stay
/// equal to a scan, as do the codes and the threat set.
#[test]
fn take_backs_in_any_order_and_copies_keep_the_tracked_sets_exact() {
    let mut checked = 0usize;
    for (n, rule) in [
        (7usize, Rule::Freestyle),
        (15, Rule::Freestyle),
        (15, Rule::Standard),
        (15, Rule::Renju),
        (20, Rule::Freestyle),
    ] {
        for walk in 0..6u64 {
            let mut rng = Rng::new(77 + walk * 31 + n as u64);
            let mut board = Board::new(n, rule).unwrap();
            board.track_patterns();
            let mut grid = Grid::new(n).unwrap();
            let mut played: Vec<(Point, Color)> = Vec::new();
            for step in 0..600 {
                let r = rng.below(100);
                let what;
                if r < 55 || played.is_empty() {
                    let Some(p) = nearby_move(&board, &mut rng) else {
                        break;
                    };
                    let c = if rng.below(2) == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    board.make(p, c);
                    grid.set(p, Some(c));
                    played.push((p, c));
                    what = format!("make {p:?}");
                } else if r < 85 {
                    let (p, _) = played.pop().unwrap();
                    board.unmake(p);
                    grid.set(p, None);
                    what = format!("unmake of the last move {p:?}");
                } else if r < 97 {
                    let i = rng.below(played.len());
                    let (p, _) = played.remove(i);
                    board.unmake(p);
                    grid.set(p, None);
                    what = format!("unmake of move {i} of {} {p:?}", played.len() + 1);
                } else {
                    board = board.clone();
                    what = "a copy".to_string();
                }
                let what = format!("{what} ({n}x{n} {rule}, walk {walk}, step {step})");
                check(&board, &grid, rule, false, &what);
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "only {checked} steps");
}
