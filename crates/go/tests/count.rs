//! Go position counts against published figures (tests/data/go/*.csv), the dynamic program
//! against the enumeration, and the enumeration against the slow flood-fill reference.

mod common;

use common::data_rows;
use stonelab_go::dp;
use stonelab_go::enumerate::{canonical, reference, Counts, Enumerator, Shape};

fn legal_counts() -> Vec<(Shape, String)> {
    data_rows("legal_counts.csv")
        .into_iter()
        .map(|r| (r[0].parse().unwrap(), r[1].clone()))
        .collect()
}

fn no_progress(_: usize, _: usize) {}

#[test]
fn legal_counts_by_enumeration_up_to_21_points() {
    let mut checked = 0;
    for (shape, want) in legal_counts() {
        if shape.points() > 21 {
            continue;
        }
        // Rows are at most 10 wide; turn 1x10 and the like on their side.
        let eshape = if shape.cols > 6 {
            shape.transposed()
        } else {
            shape
        };
        let e = Enumerator::new(eshape).unwrap();
        let legal = if shape.points() <= 16 {
            // Full visit of every legal position.
            e.count(None, &no_progress).unwrap().legal
        } else {
            // 3x5 .. 3x7, 2x6, 4x5: the last row counted in bulk.
            e.count_legal(None, &no_progress).unwrap()
        };
        assert_eq!(legal.to_string(), want, "{shape}");
        checked += 1;
    }
    assert_eq!(checked, 25);
}

#[test]
fn smallboard_rows() {
    for r in data_rows("smallboard.csv") {
        let shape: Shape = r[0].parse().unwrap();
        if shape.points() > 16 {
            continue;
        }
        let want = Counts {
            legal: r[1].parse().unwrap(),
            reduced: r[2].parse().unwrap(),
            ko_points: r[3].parse().unwrap(),
            max_ko_points: r[4].parse().unwrap(),
        };
        let got = Enumerator::new(shape)
            .unwrap()
            .count(None, &no_progress)
            .unwrap();
        assert_eq!(got, want, "{shape}");
    }
}

#[test]
fn dp_reproduces_published_counts_up_to_7x7() {
    for (shape, want) in legal_counts() {
        if shape.rows.min(shape.cols) > 7 {
            continue; // 9x9 is a bench (about a minute); 19x19 is out of reach.
        }
        assert_eq!(dp::count_legal(shape).unwrap().to_string(), want, "{shape}");
    }
}

#[test]
fn dp_equals_enumeration_on_every_board_up_to_16_points() {
    for r in 1..=16 {
        for c in 1..=16 {
            if r * c > 16 {
                continue;
            }
            let shape = Shape::new(r, c).unwrap();
            let d = dp::count_legal(shape).unwrap().to_string();
            // Every orientation whose rows are at most 6 wide (wider row tables take seconds
            // to build), and single rows up to 10.
            if c <= 6 || (r == 1 && c <= 10) {
                let e = Enumerator::new(shape).unwrap();
                assert_eq!(
                    e.count_legal(None, &no_progress).unwrap().to_string(),
                    d,
                    "{shape}"
                );
                if r * c <= 12 {
                    assert_eq!(e.count(None, &no_progress).unwrap().legal.to_string(), d);
                }
            } else {
                // 2x7, 2x8, 1x11 .. 1x16: the transposed board (also checked as its own r, c).
                let e = Enumerator::new(shape.transposed()).unwrap();
                assert_eq!(
                    e.count_legal(None, &no_progress).unwrap().to_string(),
                    d,
                    "{shape}"
                );
            }
        }
    }
}

#[test]
#[ignore = "about 1 minute of one core; run with --ignored (bench figure in BENCHMARKS.md)"]
fn dp_reproduces_9x9() {
    let (shape, want) = legal_counts()
        .into_iter()
        .find(|(s, _)| s.rows == 9)
        .unwrap();
    assert_eq!(dp::count_legal(shape).unwrap().to_string(), want);
}

#[test]
#[ignore = "4x5 full visit takes ~10 s on 2 cores; 5x5 legal count by enumeration ~5 s"]
fn enumeration_4x5_full_and_5x5_legal() {
    let counts = legal_counts();
    let want = |b: &str| {
        counts
            .iter()
            .find(|(s, _)| s.to_string() == b)
            .unwrap()
            .1
            .clone()
    };
    let e = Enumerator::new("4x5".parse().unwrap()).unwrap();
    assert_eq!(
        e.count(None, &no_progress).unwrap().legal.to_string(),
        want("4x5")
    );
    let e = Enumerator::new("5x5".parse().unwrap()).unwrap();
    assert_eq!(
        e.count_legal(None, &no_progress).unwrap().to_string(),
        want("5x5")
    );
}

/// Every serial of every board up to 3x4 and 4x3 (and 1xn, nx1 up to 12 points): the fast
/// enumeration's legal/reduced flags and ko masks equal the flood-fill reference's.
#[test]
fn fast_enumeration_matches_flood_fill_reference_on_every_serial() {
    let mut boards = Vec::new();
    for r in 1..=12 {
        for c in 1..=12 {
            if r * c <= 12 && (r.min(c) == 1 || r.max(c) <= 4) && c <= 10 {
                boards.push(Shape::new(r, c).unwrap());
            }
        }
    }
    assert!(boards.contains(&Shape::new(3, 4).unwrap()));
    assert!(boards.contains(&Shape::new(4, 3).unwrap()));
    for shape in boards {
        let set = Enumerator::new(shape)
            .unwrap()
            .reduced_set(None, &no_progress)
            .unwrap();
        let mut ko = set.ko.iter().peekable();
        let (mut legal, mut reduced) = (0u64, 0u64);
        for s in 0..shape.serial_count() {
            let f = reference::facts(shape, s);
            legal += u64::from(f.legal);
            let fast = set.bits[(s / 64) as usize] >> (s % 64) & 1 == 1;
            assert_eq!(fast, f.legal && f.reduced, "{shape} serial {s}");
            assert_eq!(canonical(shape, s).0 == s, f.reduced, "{shape} serial {s}");
            if fast {
                reduced += 1;
                let mask = match ko.peek() {
                    Some(&&(t, m)) if t == s => {
                        ko.next();
                        m
                    }
                    _ => 0,
                };
                assert_eq!(mask, f.ko_mask, "{shape} serial {s}");
            }
        }
        assert!(ko.next().is_none());
        assert_eq!(
            (legal, reduced),
            (set.counts.legal, set.counts.reduced),
            "{shape}"
        );
    }
}
