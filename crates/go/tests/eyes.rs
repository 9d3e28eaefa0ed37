//! Whole-board rule-2/4 eyes (bitboards, seed 004) against the naive per-point reference:
//! every arrangement of stones on every board up to 4x4 plus 3x5 and 5x3, both colours, and over a
//! million random positions on 9x9, 13x13 and 19x19.

use stonelab_go::eyes::is_eye_naive;
use stonelab_go::rng::random_stones;
use stonelab_go::{eyes_naive, Bitboard, EyeMasks, Geometry, Point, Rng};

/// The eye computation of `g` by every path this CPU can run: the best one, the portable one and
/// AVX-512F without VBMI2 (where the CPU has both; else the same path as the best).
fn paths(g: Geometry) -> [EyeMasks; 3] {
    let masks = EyeMasks::new(g);
    [masks, masks.portable(), masks.without_vbmi2()]
}

/// The eyes of both colours (`empty` is the board's empty points), once every path has been
/// checked to give them, both colours at once and one colour at a time.
fn agreed_eyes(
    paths: &[EyeMasks; 3],
    black: Bitboard,
    white: Bitboard,
    empty: Bitboard,
) -> [Bitboard; 2] {
    let both = paths[0].eyes_both(black, white);
    for m in paths {
        let one_by_one = [m.eyes(black, empty), m.eyes(white, empty)];
        assert!(
            m.eyes_both(black, white) == both && one_by_one == both,
            "black {black:?} white {white:?}: paths disagree"
        );
    }
    both
}

/// Checks every one of the 3^(rows*cols) arrangements of a board, both colours.
///
/// The arrangements are visited in modular ternary Gray-code order, so one point changes per step;
/// the reference eye sets are then kept up to date by re-running [`is_eye_naive`] on the changed
/// point and its eight surrounding points (a point's answer depends on nothing else), and compared
/// with the bitboard answers after every step. Every 50,000th arrangement the reference is also
/// recomputed from scratch with [`eyes_naive`].
fn exhaustive(rows: usize, cols: usize) -> u64 {
    let g = Geometry::new(rows, cols).unwrap();
    let paths = paths(g);
    let points: Vec<Point> = g.points().collect();
    let n = points.len();
    // Base-3 counter (its trailing 2s say which Gray digit moves) and the Gray digits, which are
    // the point states: 0 empty, 1 black, 2 white.
    let mut counter = vec![0u8; n];
    let mut state = vec![0u8; n];
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    let update = |refs: &mut Bitboard, own: Bitboard, empty: Bitboard, p: Point| {
        if is_eye_naive(&g, own, empty, p) {
            refs.set(p);
        } else {
            refs.clear(p);
        }
    };
    // Start: the empty board.
    let mut ref_black = eyes_naive(&g, black, g.mask());
    let mut ref_white = eyes_naive(&g, white, g.mask());
    let mut checked = 0u64;
    loop {
        let empty = g.not(black | white);
        let [eb, ew] = agreed_eyes(&paths, black, white, empty);
        assert!(
            eb == ref_black && ew == ref_white,
            "{rows}x{cols} black {black:?} white {white:?}: bitboard {eb:?}/{ew:?}, naive {ref_black:?}/{ref_white:?}"
        );
        if checked.is_multiple_of(50_000) {
            assert_eq!(ref_black, eyes_naive(&g, black, empty));
            assert_eq!(ref_white, eyes_naive(&g, white, empty));
        }
        checked += 1;
        // Next Gray code: the digit to move is the number of trailing 2s of the counter.
        let Some(j) = counter.iter().position(|&d| d != 2) else {
            return checked;
        };
        for d in &mut counter[..j] {
            *d = 0;
        }
        counter[j] += 1;
        let p = points[j];
        state[j] = (state[j] + 1) % 3;
        match state[j] {
            0 => white.clear(p),
            1 => black.set(p),
            _ => {
                black.clear(p);
                white.set(p);
            }
        }
        let empty = g.not(black | white);
        let (r, c) = (p.row() as i64, p.col() as i64);
        for dr in -1..=1 {
            for dc in -1..=1 {
                let (qr, qc) = (r + dr, c + dc);
                if qr >= 0 && qc >= 0 && g.contains(qr as usize, qc as usize) {
                    let q = Point::new(qr as usize, qc as usize);
                    update(&mut ref_black, black, empty, q);
                    update(&mut ref_white, white, empty, q);
                }
            }
        }
    }
}

/// Which code paths the tests exercise on this CPU (printed with `--nocapture`).
#[test]
fn code_paths() {
    let masks = EyeMasks::new(Geometry::new(19, 19).unwrap());
    println!(
        "detected {}, without VBMI2 {}, portable {}",
        masks.isa_name(),
        masks.without_vbmi2().isa_name(),
        masks.portable().isa_name()
    );
    assert_eq!(masks.portable().isa_name(), "portable");
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        assert_eq!(masks.without_vbmi2().isa_name(), "avx512f");
        if std::arch::is_x86_feature_detected!("avx512vbmi2") {
            assert_eq!(masks.isa_name(), "avx512vbmi2");
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
        let paths = paths(g);
        for _ in 0..340_000 {
            let (empty_pct, black_pct) = (rng.below(100), rng.below(101));
            let [black, white] = random_stones(&mut rng, &g, empty_pct, black_pct);
            let empty = g.not(black | white);
            let [eb, ew] = agreed_eyes(&paths, black, white, empty);
            assert_eq!(eb, eyes_naive(&g, black, empty), "{size}x{size} black");
            assert_eq!(ew, eyes_naive(&g, white, empty), "{size}x{size} white");
            checked += 1;
        }
    }
    assert!(checked >= 1_000_000);
}
