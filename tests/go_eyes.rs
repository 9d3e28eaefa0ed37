//! Whole-board rule-2/4 eyes (bitboards, seed 004) against the naive per-point reference:
//! every arrangement of stones on every board up to 4x4 plus 3x5 and 5x3, both colours, and over a
//! million random positions on 9x9, 13x13 and 19x19.

use stonelab_go::{eyes_naive, Bitboard, EyeMasks, Geometry, Point, Rng};

/// Checks every one of the 3^(rows*cols) arrangements of a board, both colours.
fn exhaustive(rows: usize, cols: usize) -> u64 {
    let g = Geometry::new(rows, cols).unwrap();
    let masks = EyeMasks::new(g);
    let points: Vec<Point> = g.points().collect();
    let n = points.len();
    // Base-3 counter over the points: 0 empty, 1 black, 2 white.
    let mut digits = vec![0u8; n];
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    let mut checked = 0;
    loop {
        let empty = g.not(black | white);
        let [eb, ew] = masks.eyes_both(black, white);
        let (nb, nw) = (eyes_naive(&g, black, empty), eyes_naive(&g, white, empty));
        assert!(
            eb == nb && ew == nw,
            "{rows}x{cols} black {black:?} white {white:?}: bitboard {eb:?}/{ew:?}, naive {nb:?}/{nw:?}"
        );
        checked += 1;
        // Increment the counter, updating the two bitboards digit by digit.
        let mut i = 0;
        loop {
            if i == n {
                return checked;
            }
            let p = points[i];
            match digits[i] {
                0 => {
                    digits[i] = 1;
                    black.set(p);
                    break;
                }
                1 => {
                    digits[i] = 2;
                    black.clear(p);
                    white.set(p);
                    break;
                }
                _ => {
                    digits[i] = 0;
                    white.clear(p);
                    i += 1;
                }
            }
        }
    }
}

#[test]
fn exhaustive_small_boards() {
    // All r x c with r, c <= 4 except 4x4 (its own test, so the two can run side by side).
    let mut total = 0;
    for rows in 1..=4 {
        for cols in 1..=4 {
            if (rows, cols) != (4, 4) {
                let n = exhaustive(rows, cols);
                assert_eq!(n, 3u64.pow((rows * cols) as u32));
                total += n;
            }
        }
    }
    assert!(total > 1_000_000);
}

#[test]
fn exhaustive_4x4() {
    assert_eq!(exhaustive(4, 4), 3u64.pow(16));
}

#[test]
fn exhaustive_3x5() {
    assert_eq!(exhaustive(3, 5), 3u64.pow(15));
}

#[test]
fn exhaustive_5x3() {
    assert_eq!(exhaustive(5, 3), 3u64.pow(15));
}

/// Random positions: each position draws its own stone density so sparse, dense and eye-rich
/// boards all occur.
#[test]
fn random_positions_9_13_19() {
    let mut rng = Rng::new(0x5eed_0004);
    let mut checked = 0u64;
    for size in [9, 13, 19] {
        let g = Geometry::new(size, size).unwrap();
        let masks = EyeMasks::new(g);
        for _ in 0..340_000 {
            let empty_pct = rng.below(100);
            let black_share = rng.below(101);
            let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
            for p in g.points() {
                if rng.below(100) >= empty_pct {
                    if rng.below(100) < black_share {
                        black.set(p);
                    } else {
                        white.set(p);
                    }
                }
            }
            let empty = g.not(black | white);
            let [eb, ew] = masks.eyes_both(black, white);
            assert_eq!(eb, eyes_naive(&g, black, empty), "{size}x{size} black");
            assert_eq!(ew, eyes_naive(&g, white, empty), "{size}x{size} white");
            checked += 1;
        }
    }
    assert!(checked >= 1_000_000);
}
