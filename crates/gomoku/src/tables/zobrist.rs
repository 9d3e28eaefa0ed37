//! The one Zobrist key table of the crate: a key per colour and point of a 20x20 board, filled by
//! SplitMix64 (stonelab-rand) from a fixed seed at compile time. The engine's position hash and the
//! threat solver's table of failed positions both use it.

use stonelab_rand::SplitMix64;

use crate::{Color, Point};

/// The seed of the key stream (the engine's keys since its first version; changing it changes the
/// transposition-table collisions and so the search's node counts).
const SEED: u64 = 0x5EED_0007;

/// Per colour ([`Color::index`]), per point (`y * 20 + x`): the key of that stone.
pub static KEYS: [[u64; 400]; 2] = SplitMix64::new(SEED).table::<2, 400>();

/// The key of a stone of `c` on `p`.
#[inline]
#[must_use]
pub fn key(p: Point, c: Color) -> u64 {
    KEYS[c.index()][p.y as usize * 20 + p.x as usize]
}
