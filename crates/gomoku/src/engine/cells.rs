//! What an empty cell is worth to one colour, looked up from its four directions' classes at once.
//!
//! A cell's four [`Class`]es (one per direction, 13 classes each) index a table of 13^4 = 28,561
//! entries (391 KiB) built once: the cell's threat value (which makes a move "important" to the
//! search), its threat flags (five, straight four, four, open three), its two move-order scores
//! (a move there by this colour, and by the other colour taking the cell from it) and its two
//! evaluation weights, as the side to move and as the side not to move. [`reference_cell`]
//! computes the same entry from the four classes by plain code, and a test compares every entry.
//!
//! The weights and order scores depend only on the multiset of the four classes (the directions
//! are interchangeable): 1,820 combinations, listed by [`combinations`] and numbered by
//! [`combination_index`]; the numbers come from [`super::weights`].

use std::sync::OnceLock;

use super::classes::{Class, CLASSES};
use super::weights::{self, Source};

/// Value of one direction's class to the colour that would play there (move ordering).
pub const CLASS_VALUE: [i32; CLASSES] = [0, 1, 1, 4, 10, 10, 10, 12, 40, 40, 45, 300, 2000];

/// Ordering bonus for a cell where a stone makes threats on two lines at once (a double three, a
/// four-three, a double four).
pub const DOUBLE_THREAT: i32 = 250;

/// A stone there makes a five.
pub const FIVE: u8 = 1;
/// A stone there makes a straight four or two fours (and no five).
pub const OPEN_FOUR: u8 = 2;
/// A stone there makes at least one four (and no five).
pub const FOUR: u8 = 4;
/// A stone there makes an open three in some direction.
pub const THREE: u8 = 8;

/// One cell's entry for one colour (14 bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// Threat value: the sum of the classes' [`CLASS_VALUE`]s, plus [`DOUBLE_THREAT`].
    pub value: i16,
    /// Move-order score of a move here for this colour, from its own lines, in hundredths of a
    /// logit ([`super::weights::ORDER_FILE`]).
    pub attack: i16,
    /// Move-order score of a move here for the other colour, from this colour's lines (taking the
    /// cell from this colour), in hundredths of a logit.
    pub defend: i16,
    /// Evaluation weight when this colour is to move.
    pub to_move: i16,
    /// Evaluation weight when the other colour is to move.
    pub waiting: i16,
    /// [`FIVE`], [`OPEN_FOUR`], [`FOUR`], [`THREE`].
    pub flags: u8,
    /// The combination's number ([`combination_index`]).
    pub combination: u16,
    /// The cell's threat kind ([`super::threats::Kind`] as a number).
    pub kind: u8,
}

/// The number of class combinations (multisets of four of the thirteen classes).
pub const COMBINATIONS: usize = 1820;

/// The number of table entries (four classes in order).
pub const ENTRIES: usize = CLASSES * CLASSES * CLASSES * CLASSES;

/// The table index of four classes.
#[inline]
#[must_use]
pub fn index(ks: [u8; 4]) -> usize {
    const N: usize = CLASSES;
    ((usize::from(ks[0]) * N + usize::from(ks[1])) * N + usize::from(ks[2])) * N
        + usize::from(ks[3])
}

/// The table: one entry per four classes ([`index`]), with the shared evaluation weights.
#[must_use]
pub fn table() -> &'static [Cell; ENTRIES] {
    table_of(Source::Shared)
}

/// The table with the evaluation weights of `source` (the other fields are the same in every
/// table): under renju each colour's cells read their own table.
#[must_use]
pub fn table_of(source: Source) -> &'static [Cell; ENTRIES] {
    static TABLES: [OnceLock<Box<[Cell; ENTRIES]>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    TABLES[source as usize].get_or_init(|| {
        let mut t = Box::new([Cell::default(); ENTRIES]);
        for (i, cell) in t.iter_mut().enumerate() {
            *cell = reference_cell_of(source, classes_of(i));
        }
        t
    })
}

fn classes_of(i: usize) -> [Class; 4] {
    let mut ks = [Class::Dead; 4];
    let mut r = i;
    for k in ks.iter_mut().rev() {
        *k = Class::ALL[r % CLASSES];
        r /= CLASSES;
    }
    ks
}

/// Every combination of four classes, strongest class first within each, in a fixed order.
#[must_use]
pub fn combinations() -> &'static [[Class; 4]] {
    static LIST: OnceLock<Vec<[Class; 4]>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list = Vec::with_capacity(COMBINATIONS);
        for a in 0..CLASSES {
            for b in 0..=a {
                for c in 0..=b {
                    for d in 0..=c {
                        list.push([Class::ALL[a], Class::ALL[b], Class::ALL[c], Class::ALL[d]]);
                    }
                }
            }
        }
        list
    })
}

/// The number of the combination of `ks` (in any order) in [`combinations`].
#[must_use]
pub fn combination_index(mut ks: [Class; 4]) -> usize {
    static NUMBERS: OnceLock<Vec<u16>> = OnceLock::new();
    let numbers = NUMBERS.get_or_init(|| {
        let mut n = vec![u16::MAX; ENTRIES];
        for (i, c) in combinations().iter().enumerate() {
            n[index(c.map(|k| k as u8))] = i as u16;
        }
        n
    });
    ks.sort_unstable_by(|a, b| b.cmp(a));
    usize::from(numbers[index(ks.map(|k| k as u8))])
}

/// The entry of four classes, computed directly (shared evaluation weights).
#[must_use]
pub fn reference_cell(ks: [Class; 4]) -> Cell {
    reference_cell_of(Source::Shared, ks)
}

/// The entry of four classes with the evaluation weights of `source`, computed directly.
#[must_use]
pub fn reference_cell_of(source: Source, ks: [Class; 4]) -> Cell {
    let value: i32 = ks.iter().map(|&k| CLASS_VALUE[k as usize]).sum();
    let threats = ks.iter().filter(|&&k| k >= Class::F3).count();
    let fours = ks.iter().filter(|&&k| k >= Class::B4).count();
    let best = ks.into_iter().max().unwrap_or_default();
    let bonus = if threats >= 2 { DOUBLE_THREAT } else { 0 };
    let five = best == Class::Five;
    let mut flags = 0;
    if five {
        flags |= FIVE;
    } else {
        if best == Class::F4 || fours >= 2 {
            flags |= OPEN_FOUR;
        }
        if fours >= 1 {
            flags |= FOUR;
        }
    }
    if ks.iter().any(|k| k.is_three()) {
        flags |= THREE;
    }
    let combination = combination_index(ks);
    let (to_move, waiting) = weights::weight_of(source, combination);
    let (attack, defend) = weights::order_of(source, combination);
    Cell {
        value: (value + bonus) as i16,
        attack,
        defend,
        to_move,
        waiting,
        flags,
        combination: combination as u16,
        kind: super::threats::kind(ks) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_are_the_1820_multisets() {
        let list = combinations();
        assert_eq!(list.len(), COMBINATIONS);
        let mut sorted = list.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), COMBINATIONS);
        for c in list {
            assert!(c.windows(2).all(|w| w[0] >= w[1]));
        }
    }

    /// Every table entry equals the directly computed one, and the entries of the same multiset in
    /// any order are equal.
    #[test]
    fn table_equals_reference_and_ignores_direction_order() {
        let t = table();
        for (i, cell) in t.iter().enumerate() {
            let ks = classes_of(i);
            assert_eq!(*cell, reference_cell(ks));
            assert_eq!(index(ks.map(|k| k as u8)), i);
            let mut rev = ks;
            rev.reverse();
            assert_eq!(t[index(rev.map(|k| k as u8))], *cell);
        }
        assert_eq!(t[0].value, 0);
        assert_eq!(t[0].flags, 0);
        // The table's memory: 14 bytes an entry, 391 KiB in all.
        assert_eq!(std::mem::size_of::<Cell>(), 14);
        assert_eq!(std::mem::size_of_val(t), 399_854);
    }

    /// The renju tables equal their direct computation, and differ from the shared table only in
    /// the evaluation weights and the move order, which are those of their files.
    #[test]
    fn renju_tables_carry_their_colours_weights() {
        for source in [Source::RenjuBlack, Source::RenjuWhite] {
            let t = table_of(source);
            for (i, cell) in t.iter().enumerate() {
                let ks = classes_of(i);
                assert_eq!(*cell, reference_cell_of(source, ks));
                let shared = table()[i];
                let combination = usize::from(cell.combination);
                let (to_move, waiting) = weights::weight_of(source, combination);
                assert_eq!((cell.to_move, cell.waiting), (to_move, waiting));
                let (attack, defend) = weights::order_of(source, combination);
                assert_eq!((cell.attack, cell.defend), (attack, defend));
                let same = Cell {
                    to_move: shared.to_move,
                    waiting: shared.waiting,
                    attack: shared.attack,
                    defend: shared.defend,
                    ..*cell
                };
                assert_eq!(same, shared);
            }
        }
    }
}
