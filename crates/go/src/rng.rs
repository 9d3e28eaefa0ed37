//! The seeded random generator of playouts and searches ([`Rng`], stonelab-rand's wyrand, so that a
//! playout replays exactly from its seed), and random stone positions for tests and benchmarks.
//! Not for cryptography.

use crate::bitboard::{Bitboard, Geometry};

/// The generator of playouts, searches and test positions: wyrand (Wang Yi) from stonelab-rand.
pub use stonelab_rand::Wyrand as Rng;

/// Random stones (not necessarily a legal position): each point is empty with probability
/// `empty_pct`/100, otherwise black with probability `black_pct`/100 and else white.
/// Returns Black's and White's stones.
pub fn random_stones(rng: &mut Rng, g: &Geometry, empty_pct: u32, black_pct: u32) -> [Bitboard; 2] {
    let mut stones = [Bitboard::EMPTY; 2];
    for p in g.points() {
        if rng.below(100) >= empty_pct {
            let c = usize::from(rng.below(100) >= black_pct);
            stones[c].set(p);
        }
    }
    stones
}

/// `count` random positions of `g` drawn from `Rng::new(seed)`, each with its own stone density
/// (empty share `0..100`%, black share `0..=100`%), so that sparse, dense and eye-rich boards all
/// occur: the inputs of the eye benchmarks (`stonelab go bench`, the criterion bench and the
/// `eyes_timing` example).
#[must_use]
pub fn varied_positions(g: &Geometry, count: usize, seed: u64) -> Vec<[Bitboard; 2]> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let (empty_pct, black_pct) = (rng.below(100), rng.below(101));
            random_stones(&mut rng, g, empty_pct, black_pct)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_playout_stream_is_unchanged() {
        // The first outputs of wyrand from seed 1, as go's own generator gave them before
        // stonelab-rand took its place: playouts, searches and tests replay the same games.
        let mut rng = Rng::new(1);
        assert_eq!(rng.next_u64(), 0xcdef_1695_e1f8_ed2c);
        assert_eq!(rng.next_u64(), 0x61d6_d24b_1c9a_ad40);
        assert_eq!(rng.next_u64(), 0x8cf8_80c2_2eeb_fadf);
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn random_stones_follow_the_densities() {
        let g = Geometry::new(9, 9).unwrap();
        let mut rng = Rng::new(3);
        assert_eq!(random_stones(&mut rng, &g, 100, 50), [Bitboard::EMPTY; 2]);
        let [black, white] = random_stones(&mut rng, &g, 0, 100);
        assert_eq!((black.count(), white.count()), (81, 0));
        let positions = varied_positions(&g, 8, 19);
        assert_eq!(positions, varied_positions(&g, 8, 19));
        assert!(positions.iter().all(|[b, w]| (*b & *w).is_empty()));
    }
}
