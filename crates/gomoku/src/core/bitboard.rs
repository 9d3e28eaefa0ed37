//! A set of points of a board up to 20x20: one `u32` per row, bit `x` of row `y`.

use crate::Point;

/// The largest board side.
pub const MAX_SIZE: usize = 20;
/// The smallest board side.
pub const MIN_SIZE: usize = 5;

/// A set of points, one `u32` per row (bit `x` of `rows[y]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard {
    pub rows: [u32; MAX_SIZE],
}

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard {
        rows: [0; MAX_SIZE],
    };

    #[inline]
    #[must_use]
    pub const fn contains(&self, p: Point) -> bool {
        self.rows[p.y as usize] >> p.x & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, p: Point) {
        self.rows[p.y as usize] |= 1 << p.x;
    }

    #[inline]
    pub fn remove(&mut self, p: Point) {
        self.rows[p.y as usize] &= !(1 << p.x);
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    #[must_use]
    pub fn count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }

    /// The points, sorted by `y` then `x`.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.rows.iter().enumerate().flat_map(|(y, &row)| {
            let mut bits = row;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let x = bits.trailing_zeros();
                bits &= bits - 1;
                Some(Point::new(x as u8, y as u8))
            })
        })
    }
}

impl std::ops::BitOr for Bitboard {
    type Output = Bitboard;

    #[inline]
    fn bitor(mut self, rhs: Bitboard) -> Bitboard {
        self |= rhs;
        self
    }
}

impl std::ops::BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        for (a, b) in self.rows.iter_mut().zip(rhs.rows) {
            *a |= b;
        }
    }
}

impl std::ops::BitAnd for Bitboard {
    type Output = Bitboard;

    #[inline]
    fn bitand(mut self, rhs: Bitboard) -> Bitboard {
        for (a, b) in self.rows.iter_mut().zip(rhs.rows) {
            *a &= b;
        }
        self
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for p in iter {
            b.insert(p);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_sorted_by_y_then_x() {
        let b: Bitboard = [Point::new(3, 2), Point::new(1, 2), Point::new(19, 0)]
            .into_iter()
            .collect();
        let v: Vec<Point> = b.iter().collect();
        assert_eq!(
            v,
            vec![Point::new(19, 0), Point::new(1, 2), Point::new(3, 2)]
        );
        assert_eq!(b.count(), 3);
        assert!(b.contains(Point::new(1, 2)));
    }
}
