//! Skew-ternary line codes (seed 000): digit 0 empty, 1 white, 2 black, 3 board edge. Digit `i` weighs
//! `(3^(i+1) - 1) / 2` (OEIS A261547). A line of `k < 15` cells uses digits `14 ..= 15-k`; digit `14-k`
//! is the edge 3 and every lower digit is 0. Cell `t` (0-based along the line) of a line of length `k`
//! sits at digit `t + 15 - k`, so the cells always occupy the top digits.

/// The longest line one code describes.
pub const LINE_CELLS: usize = 15;

/// Number of codes: every line of length 1 ..= 15.
pub const CODE_COUNT: usize = 21_523_359;

/// The digit weights `w[i] = (3^(i+1) - 1) / 2`, and `w[15]` (one past the largest code).
pub const WEIGHTS: [u32; 16] = {
    let mut w = [0u32; 16];
    let mut i = 0;
    let mut p = 3u32;
    while i < 16 {
        w[i] = (p - 1) / 2;
        p *= 3;
        i += 1;
    }
    assert!(w[0] == 1 && w[1] == 4 && w[14] == 7_174_453);
    assert!(w[15] as usize == CODE_COUNT + 1);
    w
};

/// One cell of a line as a code digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Digit {
    Empty = 0,
    White = 1,
    Black = 2,
    /// The board edge; every lower digit is 0 and lies beyond the line.
    Edge = 3,
}

/// The code of an empty line of `len` cells (1 ..= 15): just its edge digit.
#[must_use]
pub const fn empty_line_code(len: usize) -> u32 {
    assert!(len >= 1 && len <= LINE_CELLS);
    if len == LINE_CELLS {
        0
    } else {
        3 * WEIGHTS[LINE_CELLS - 1 - len]
    }
}

/// The digit position of cell `t` of a line of `len` cells.
#[must_use]
pub const fn digit_of_cell(t: usize, len: usize) -> usize {
    t + LINE_CELLS - len
}

/// The 15 digits of a code, index 0 the least significant. `None` for an index out of range.
#[must_use]
pub fn decode(code: u32) -> Option<[u8; LINE_CELLS]> {
    if code as usize >= CODE_COUNT {
        return None;
    }
    let mut rest = code;
    let mut digits = [0u8; LINE_CELLS];
    for i in (0..LINE_CELLS).rev() {
        // Each remainder is below w[i+1] = 3 w[i] + 1, so the quotient is at most 3 and is 3 only when
        // the remainder is exactly 3 w[i], which leaves 0 for the lower digits.
        let d = rest / WEIGHTS[i];
        digits[i] = d as u8;
        rest -= d * WEIGHTS[i];
    }
    Some(digits)
}

/// The code of 15 digits (index 0 least significant); `None` unless they form a valid skew-ternary line
/// (at most one 3, zeros below it, and at least one cell).
#[must_use]
pub fn encode(digits: &[u8; LINE_CELLS]) -> Option<u32> {
    let edge = digits.iter().rposition(|&d| d == 3);
    if let Some(e) = edge {
        if e == LINE_CELLS - 1 || digits[..e].iter().any(|&d| d != 0) {
            return None;
        }
    }
    if digits.iter().any(|&d| d > 3) {
        return None;
    }
    Some(digits.iter().zip(WEIGHTS).map(|(&d, w)| d as u32 * w).sum())
}

/// The line length of a set of digits: 15, or the number of digits above the edge.
#[must_use]
pub fn line_len(digits: &[u8; LINE_CELLS]) -> usize {
    match digits.iter().rposition(|&d| d == 3) {
        Some(e) => LINE_CELLS - 1 - e,
        None => LINE_CELLS,
    }
}

/// The digits most significant first, as the seed prints them.
#[must_use]
pub fn digit_string(digits: &[u8; LINE_CELLS]) -> String {
    digits.iter().rev().map(|&d| char::from(b'0' + d)).collect()
}

/// The line drawn as the seed draws it, most significant digit first: `├`/`┤` for empty cells at the
/// line's two ends, `┼` inside, `○` white, `●` black, `▒` the edge and beyond.
#[must_use]
pub fn line_drawing(digits: &[u8; LINE_CELLS]) -> String {
    let lowest = LINE_CELLS - line_len(digits);
    (0..LINE_CELLS)
        .rev()
        .map(|i| match digits[i] {
            1 => '○',
            2 => '●',
            _ if i < lowest => '▒',
            _ if i == LINE_CELLS - 1 => '├',
            _ if i == lowest => '┤',
            _ => '┼',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_a261547() {
        assert_eq!(&WEIGHTS[..6], &[1, 4, 13, 40, 121, 364]);
        assert_eq!(WEIGHTS[15], 21_523_360);
    }

    #[test]
    fn decode_encode_round_trip_on_samples() {
        for code in (0..CODE_COUNT as u32)
            .step_by(9973)
            .chain([0, 1, 3, 177, 21_523_358])
        {
            let digits = decode(code).unwrap();
            assert_eq!(encode(&digits), Some(code), "code {code}");
        }
        assert!(decode(CODE_COUNT as u32).is_none());
    }

    #[test]
    fn empty_lines_have_their_edge() {
        assert_eq!(empty_line_code(15), 0);
        assert_eq!(empty_line_code(14), 3);
        assert_eq!(decode(empty_line_code(1)).map(|d| line_len(&d)), Some(1));
        for len in 1..=15 {
            assert_eq!(line_len(&decode(empty_line_code(len)).unwrap()), len);
        }
    }

    #[test]
    fn drawing_matches_seed_rows() {
        let d = decode(177).unwrap();
        assert_eq!(digit_string(&d), "000000000011103");
        assert_eq!(line_drawing(&d), "├┼┼┼┼┼┼┼┼┼○○○┤▒");
        assert_eq!(line_drawing(&decode(0).unwrap()), "├┼┼┼┼┼┼┼┼┼┼┼┼┼┤");
    }
}
