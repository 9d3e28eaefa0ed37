//! Zobrist keys for Go positions, fixed at compile time.
//!
//! Seed `0xdeadbeef` (the seed of the SmallBoard project, seed 003) drives a splitmix64 stream. The
//! keys are drawn in this order: Black stone on bit index 0..BITS, White stone on 0..BITS, ko point on
//! 0..BITS, then one key for "White to move". A position's hash is the XOR of the keys of its stones,
//! of its ko point (if any) and, when White is to move, of the side key. Because the bitboard layout
//! is the same for every size, a point has the same key on every board size.

use crate::bitboard::{Bitboard, Point, BITS};
use crate::color::Color;
use stonelab_rand::splitmix64;

/// The seed of the key stream (from seed 003's `GoFunction::CreateZobristHash`).
pub const SEED: u64 = 0xdead_beef;

/// All Zobrist keys.
pub struct Keys {
    /// `stone[colour][bit index]`.
    pub stone: [[u64; BITS]; 2],
    /// `ko[bit index]`: the point the side to move may not play.
    pub ko: [u64; BITS],
    /// XORed in when White is to move.
    pub white_to_move: u64,
}

const fn make_keys() -> Keys {
    let mut state = SEED;
    let mut keys = Keys {
        stone: [[0; BITS]; 2],
        ko: [0; BITS],
        white_to_move: 0,
    };
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < BITS {
            keys.stone[c][i] = splitmix64(&mut state);
            i += 1;
        }
        c += 1;
    }
    let mut i = 0;
    while i < BITS {
        keys.ko[i] = splitmix64(&mut state);
        i += 1;
    }
    keys.white_to_move = splitmix64(&mut state);
    keys
}

/// The key table, computed by `const fn` at compile time.
pub static KEYS: Keys = make_keys();

/// Key of a stone of `color` on `p`.
#[must_use]
#[inline]
pub fn stone_key(color: Color, p: Point) -> u64 {
    KEYS.stone[color.index()][p.index()]
}

/// Key of a ko ban on `p`.
#[must_use]
#[inline]
pub fn ko_key(p: Point) -> u64 {
    KEYS.ko[p.index()]
}

/// Key of the side to move (zero for Black).
#[must_use]
#[inline]
pub fn side_key(color: Color) -> u64 {
    match color {
        Color::Black => 0,
        Color::White => KEYS.white_to_move,
    }
}

/// The hash of the stones of one colour, from scratch.
#[must_use]
pub fn stones_hash(color: Color, stones: Bitboard) -> u64 {
    stones.iter().fold(0, |h, p| h ^ stone_key(color, p))
}

/// The hash of a whole position, from scratch (see the module docs).
#[must_use]
pub fn position_hash(black: Bitboard, white: Bitboard, to_move: Color, ko: Option<Point>) -> u64 {
    stones_hash(Color::Black, black)
        ^ stones_hash(Color::White, white)
        ^ side_key(to_move)
        ^ ko.map_or(0, ko_key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // The table is the documented stream from 0xdeadbeef, whose first keys are fixed: every
        // hash (and the state files written with them) stays as it was.
        assert_eq!(KEYS.stone[0][0], 0x4adf_b90f_68c9_eb9b);
        assert_eq!(KEYS.stone[0][1], 0xde58_6a31_41a1_0922);
        let mut s = SEED;
        assert_eq!(KEYS.stone[0][0], splitmix64(&mut s));
        assert_eq!(KEYS.stone[0][1], splitmix64(&mut s));
    }

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = KEYS.stone.iter().flatten().copied().collect();
        all.extend_from_slice(&KEYS.ko);
        all.push(KEYS.white_to_move);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert!(all.iter().all(|&k| k != 0));
    }
}
