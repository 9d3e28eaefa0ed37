//! Fine per-cell, per-direction classes for the engine's move ordering and evaluation: what a stone
//! of one colour on an empty cell makes on one line, from a dead cell to a five, after Rapfi's
//! pattern classes (B = blocked, one way to a five; F = free, two ways).
//!
//! The table is keyed like [`crate::PatternTable`] (the `reach` cells on each side, 2 bits each, see
//! [`crate::tables::pattern::window_key`]) and built lazily. The classes come from a definition applied to
//! every window with memoisation over the window's base-3 contents (empty, own, blocked):
//! 3^11 = 177,147 states for standard, 3^9 for freestyle. [`reference_class`] is the same definition
//! written as plain recursion, used by the tests.

use std::ops::Deref;

use crate::tables::windows::WindowTable;
use crate::tables::PerRule;
use crate::{Color, Rule};

/// What a stone on a cell makes in one direction, weakest first. Only fives through the cell count.
/// A class is named by what the stone's best one-stone extension makes; where several
/// extensions reach that best class the class is split by their number (after Rapfi's F3S and
/// F2A/F2B; B = blocked, F = free).
///
/// ```text
/// Five  X X X X _ . . . .   a five (standard: exactly five)
/// F4    . X X X _ . . . .   two five points afterwards (straight four)
/// B4    O X X X _ . . . .   one five point afterwards
/// F3S   . . X X _ . . . .   afterwards two or more extensions make an F4
/// F3    O . X X _ . . . .   afterwards exactly one extension makes an F4
/// B3    . O X X _ . . . .   afterwards one more stone can make a B4
/// F2B   . . . X _ . . . .   afterwards four or more extensions make an F3 or F3S
/// F2A   . . X . _ . . . .   afterwards three extensions make an F3 or F3S
/// F2    . X . . _ . . . .   afterwards one or two extensions make an F3 or F3S
/// B2    . . . O _ X . . .   afterwards one more stone can make a B3
/// F1    . . . . _ . . . .   afterwards one more stone can make an F2, F2A or F2B
/// B1    . . . O _ . . . .   some five through the cell is still possible
/// Dead  O . . . _ O . . .   no five through the cell is possible
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Class {
    #[default]
    Dead = 0,
    B1 = 1,
    F1 = 2,
    B2 = 3,
    F2 = 4,
    F2A = 5,
    F2B = 6,
    B3 = 7,
    F3 = 8,
    F3S = 9,
    B4 = 10,
    F4 = 11,
    Five = 12,
}

/// The number of classes.
pub const CLASSES: usize = 13;

impl Class {
    /// All classes, weakest first.
    pub const ALL: [Class; CLASSES] = [
        Class::Dead,
        Class::B1,
        Class::F1,
        Class::B2,
        Class::F2,
        Class::F2A,
        Class::F2B,
        Class::B3,
        Class::F3,
        Class::F3S,
        Class::B4,
        Class::F4,
        Class::Five,
    ];

    /// The class stored as `bits` (its place in [`Class::ALL`]); `Dead` past the strongest.
    #[inline]
    #[must_use]
    pub const fn from_bits(bits: u8) -> Class {
        if (bits as usize) < Class::ALL.len() {
            Class::ALL[bits as usize]
        } else {
            Class::Dead
        }
    }

    /// The class with the counts of extensions forgotten: `B1` for `F1`, `F2` for `F2A` and
    /// `F2B`, `F3` for `F3S`, the class itself otherwise. Nine levels, ordered as the classes.
    #[inline]
    #[must_use]
    pub const fn coarse(self) -> Class {
        match self {
            Class::F1 => Class::B1,
            Class::F2A | Class::F2B => Class::F2,
            Class::F3S => Class::F3,
            k => k,
        }
    }

    /// Whether a stone makes an open three (F3 or F3S): one more stone can make a straight four.
    #[inline]
    #[must_use]
    pub const fn is_three(self) -> bool {
        matches!(self, Class::F3 | Class::F3S)
    }
}

/// A window cell as the definition sees it, for one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Empty = 0,
    Own = 1,
    Blocked = 2,
}

/// The class table of one rule: per key, the white class in the low nibble, black in the high one.
/// Its [`WindowTable`] gives the rule, both classes of a key ([`WindowTable::lookup`]) and the size.
pub struct ClassTable(WindowTable);

static TABLES: PerRule<ClassTable> = PerRule::new();

impl ClassTable {
    /// The shared table of a rule, built on first use (64 KiB freestyle, 1 MiB standard).
    #[must_use]
    pub fn get(rule: Rule) -> &'static ClassTable {
        TABLES.get_or_build(rule, ClassTable::build)
    }

    /// Builds the table of `rule` from the definition.
    #[must_use]
    pub fn build(rule: Rule) -> ClassTable {
        let reach = rule.reach();
        let memo = Color::ALL.map(|c| Memo::build(reach, rule.exact_five(c)));
        ClassTable(WindowTable::build(rule, |key| {
            let w = memo[0].class(&window_cells(key, reach, Color::White));
            let b = memo[1].class(&window_cells(key, reach, Color::Black));
            w as u8 | (b as u8) << 4
        }))
    }

    /// The class of colour `c` of a window key.
    #[inline]
    #[must_use]
    pub fn class(&self, key: u32, c: Color) -> Class {
        Class::from_bits(self.0.nibble(key, c))
    }
}

impl Deref for ClassTable {
    type Target = WindowTable;

    fn deref(&self) -> &WindowTable {
        &self.0
    }
}

/// The `2 * reach + 1` cells of a window key as colour `c` sees them (centre empty, at `reach`).
fn window_cells(key: u32, reach: usize, c: Color) -> Vec<Cell> {
    let mut cells = Vec::with_capacity(2 * reach + 1);
    for j in 0..2 * reach {
        if j == reach {
            cells.push(Cell::Empty);
        }
        let code = key >> (2 * j) & 3;
        cells.push(if code == 0 {
            Cell::Empty
        } else if code == c.digit() {
            Cell::Own
        } else {
            Cell::Blocked
        });
    }
    cells
}

/// Whether the run of own cells through the centre (which must be own) is a five (with `exact`,
/// exactly five).
fn five_through_centre(cells: &[Cell], exact: bool) -> bool {
    let c = cells.len() / 2;
    let mut lo = c;
    while lo > 0 && cells[lo - 1] == Cell::Own {
        lo -= 1;
    }
    let mut hi = c;
    while hi + 1 < cells.len() && cells[hi + 1] == Cell::Own {
        hi += 1;
    }
    let len = hi - lo + 1;
    len == 5 || (len > 5 && !exact)
}

/// Whether some five of cells through the centre holds no blocked cell.
fn open_through_centre(cells: &[Cell]) -> bool {
    let c = cells.len() / 2;
    (c.saturating_sub(4)..=c)
        .filter(|&s| s + 5 <= cells.len())
        .any(|s| cells[s..s + 5].iter().all(|&x| x != Cell::Blocked))
}

/// The class of a placed configuration (centre own) from the classes of its one-stone extensions.
fn classify(cells: &[Cell], exact: bool, mut next: impl FnMut(usize) -> Class) -> Class {
    if five_through_centre(cells, exact) {
        return Class::Five;
    }
    let empties = (0..cells.len()).filter(|&e| cells[e] == Cell::Empty);
    // The best extension (coarse) and how many extensions reach it.
    let mut best = Class::Dead;
    let mut count = 0;
    for e in empties {
        let k = next(e).coarse();
        if k > best {
            best = k;
            count = 1;
        } else if k == best {
            count += 1;
        }
    }
    match (best, count) {
        (Class::Five, 1) => Class::B4,
        (Class::Five, _) => Class::F4,
        (Class::F4, 1) => Class::F3,
        (Class::F4, _) => Class::F3S,
        (Class::B4, _) => Class::B3,
        (Class::F3, 0..=2) => Class::F2,
        (Class::F3, 3) => Class::F2A,
        (Class::F3, _) => Class::F2B,
        (Class::B3, _) => Class::B2,
        (Class::F2, _) => Class::F1,
        _ if open_through_centre(cells) => Class::B1,
        _ => Class::Dead,
    }
}

/// The definition as plain recursion: the class of the empty centre of `cells` for their owner.
/// Exponential; for tests.
#[must_use]
pub fn reference_class(key: u32, rule: Rule, c: Color) -> Class {
    fn placed(cells: &mut Vec<Cell>, exact: bool) -> Class {
        let snapshot = cells.clone();
        classify(&snapshot, exact, |e| {
            cells[e] = Cell::Own;
            let k = placed(cells, exact);
            cells[e] = Cell::Empty;
            k
        })
    }
    let reach = rule.reach();
    let mut cells = window_cells(key, reach, c);
    cells[reach] = Cell::Own;
    placed(&mut cells, rule.exact_five(c))
}

/// Classes of every placed configuration of one window length, by base-3 index (digit `i` is cell
/// `i`: 0 empty, 1 own, 2 blocked); only indices with an own centre are filled.
struct Memo {
    len: usize,
    classes: Vec<u8>,
}

impl Memo {
    fn build(reach: usize, exact: bool) -> Memo {
        let len = 2 * reach + 1;
        let total = 3usize.pow(len as u32);
        let pow: Vec<usize> = (0..len).map(|i| 3usize.pow(i as u32)).collect();
        let centre = len / 2;
        let mut classes = vec![0u8; total];
        // Adding an own stone raises the index, so every extension is filled before it is read.
        let mut cells = vec![Cell::Empty; len];
        for index in (0..total).rev() {
            let mut rest = index;
            for cell in cells.iter_mut() {
                *cell = match rest % 3 {
                    0 => Cell::Empty,
                    1 => Cell::Own,
                    _ => Cell::Blocked,
                };
                rest /= 3;
            }
            if cells[centre] != Cell::Own {
                continue;
            }
            let k = classify(&cells, exact, |e| Class::from_bits(classes[index + pow[e]]));
            classes[index] = k as u8;
        }
        Memo { len, classes }
    }

    /// The class of the empty centre of `cells` (placed there).
    fn class(&self, cells: &[Cell]) -> Class {
        debug_assert_eq!(cells.len(), self.len);
        let centre = self.len / 2;
        let mut index = 0;
        for (i, &cell) in cells.iter().enumerate().rev() {
            let digit = if i == centre { 1 } else { cell as usize };
            index = index * 3 + digit;
        }
        Class::from_bits(self.classes[index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::pattern::is_board_window;

    /// A window key from a picture of the `2 * reach` cells around the centre (`_` is the centre,
    /// `X` black, `O` white, `.` empty, `#` edge).
    fn key(picture: &str) -> u32 {
        let mut key = 0;
        let mut j = 0;
        for ch in picture.chars().filter(|c| !c.is_whitespace()) {
            let code = match ch {
                '_' => continue,
                '.' => 0,
                'O' => 1,
                'X' => 2,
                '#' => 3,
                _ => panic!("bad picture"),
            };
            key |= code << (2 * j);
            j += 1;
        }
        key
    }

    #[test]
    fn examples_of_every_class() {
        let t = ClassTable::get(Rule::Freestyle);
        let black = |p| t.class(key(p), Color::Black);
        assert_eq!(black("XXXX _ ...."), Class::Five);
        assert_eq!(black(".XXX _ X..."), Class::Five);
        assert_eq!(black("..XX _ X..."), Class::F4);
        assert_eq!(black("OXXX _ ...."), Class::B4);
        assert_eq!(black(".XX. _ XO.."), Class::B4);
        assert_eq!(black(".XXX _ .O.."), Class::F4);
        assert_eq!(black("...X _ X..."), Class::F3S);
        assert_eq!(black("..XX _ ...."), Class::F3S);
        assert_eq!(black("O.XX _ ...."), Class::F3);
        assert_eq!(black("..X. _ X.O."), Class::F3);
        assert_eq!(black(".OXX _ ...."), Class::B3);
        assert_eq!(black("...X _ ...."), Class::F2B);
        assert_eq!(black("..X. _ ...."), Class::F2A);
        assert_eq!(black("O..X _ ...."), Class::F2A);
        assert_eq!(black(".X.. _ ...."), Class::F2);
        assert_eq!(black("...X _ .O.."), Class::F2);
        assert_eq!(black("..OX _ ...."), Class::B2);
        assert_eq!(black("...O _ X..."), Class::B2);
        assert_eq!(black(".... _ ...."), Class::F1);
        assert_eq!(black("...O _ ...."), Class::B1);
        assert_eq!(black("O... _ O..."), Class::Dead);
        assert_eq!(black("...O _ ...O"), Class::Dead);
        assert_eq!(black("#### _ ...O"), Class::Dead);
        assert_eq!(black("##.. _ ...O"), Class::F1);
        assert_eq!(black("###. _ ...O"), Class::B1);
        // The white view of the same windows.
        assert_eq!(t.class(key("OOOO _ ...."), Color::White), Class::Five);
        assert_eq!(t.class(key("OOOO _ ...."), Color::Black), Class::B1);
    }

    /// Each class counts its extensions: the number of empty cells of the window where a second
    /// stone reaches the next class up is what separates F3S from F3, F2B and F2A from F2, F1
    /// from B1.
    #[test]
    fn the_splits_count_extensions() {
        let rule = Rule::Freestyle;
        let t = ClassTable::get(rule);
        let memo = Memo::build(rule.reach(), false);
        let mut seen = [false; CLASSES];
        for key in 0..1u32 << (4 * rule.reach()) {
            if !is_board_window(key, rule) {
                continue;
            }
            let k = t.class(key, Color::Black);
            seen[k as usize] = true;
            // The extensions of the placed stone: put it on the centre as an own stone and look
            // at every empty cell of the window.
            let mut cells = window_cells(key, rule.reach(), Color::Black);
            cells[rule.reach()] = Cell::Own;
            let ext: Vec<Class> = (0..cells.len())
                .filter(|&e| cells[e] == Cell::Empty)
                .map(|e| {
                    let mut c = cells.clone();
                    c[e] = Cell::Own;
                    memo.class(&c)
                })
                .collect();
            let n = |pred: fn(Class) -> bool| ext.iter().filter(|&&x| pred(x)).count();
            match k {
                Class::F3S => assert!(n(|x| x == Class::F4) >= 2, "{key:#x}"),
                Class::F3 => assert_eq!(n(|x| x == Class::F4), 1, "{key:#x}"),
                Class::F2B => assert!(n(Class::is_three) >= 4, "{key:#x}"),
                Class::F2A => assert_eq!(n(Class::is_three), 3, "{key:#x}"),
                Class::F2 => assert!((1..=2).contains(&n(Class::is_three)), "{key:#x}"),
                Class::F1 => assert!(n(|x| x.coarse() == Class::F2) >= 1, "{key:#x}"),
                Class::B1 => assert_eq!(n(|x| x.coarse() >= Class::F2), 0, "{key:#x}"),
                _ => {}
            }
        }
        assert!(seen.iter().all(|&s| s), "every class occurs: {seen:?}");
    }

    #[test]
    fn standard_overline_is_not_a_five() {
        let s = ClassTable::get(Rule::Standard);
        let f = ClassTable::get(Rule::Freestyle);
        // Five cells each side under standard: X X X X X _ . . . . .
        // A stone there makes six: no five through the cell under standard (the definition calls
        // the cell open, not dead, since no opponent stone blocks it).
        let k = key("XXXXX _ .....");
        assert!(s.class(k, Color::Black) <= Class::B1);
        assert_eq!(f.class(key("XXXX _ ...."), Color::Black), Class::Five);
        let k = key(".XXXX _ .....");
        assert_eq!(s.class(k, Color::Black), Class::Five);
        assert_eq!(f.class(key("XXXX _ X..."), Color::Black), Class::Five);
        assert!(s.class(key(".XXXX _ X...."), Color::Black) <= Class::B1);
    }

    /// The memoised table equals the plain recursion on a deterministic sample of board windows of
    /// both rules (every key would take minutes in the recursion).
    #[test]
    fn table_matches_the_reference() {
        for rule in Rule::ALL {
            let t = ClassTable::get(rule);
            let keys = 1u64 << (4 * rule.reach());
            let mut state = 0x1234_5678_9ABC_DEF0_u64;
            let mut checked = 0;
            while checked < 3000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let key = (state % keys) as u32;
                if !is_board_window(key, rule) {
                    continue;
                }
                for c in Color::ALL {
                    assert_eq!(
                        t.class(key, c),
                        reference_class(key, rule, c),
                        "{rule} key {key:#x} {c:?}"
                    );
                }
                checked += 1;
            }
        }
    }

    /// The coarse classes of [`crate::PatternTable`] agree where they overlap: five, open four (F4),
    /// four (B4), open three (F3) on every freestyle board window.
    #[test]
    fn agrees_with_the_pattern_table() {
        use crate::{Pattern, PatternTable};
        for rule in Rule::ALL {
            let fine = ClassTable::get(rule);
            let coarse = PatternTable::get(rule);
            for key in
                (0..1u32 << (4 * rule.reach())).step_by(if rule == Rule::Standard { 7 } else { 1 })
            {
                if !is_board_window(key, rule) {
                    continue;
                }
                for c in Color::ALL {
                    let expect = match coarse.pattern(key, c) {
                        Pattern::Five => Some(Class::Five),
                        Pattern::OpenFour => Some(Class::F4),
                        Pattern::Four => Some(Class::B4),
                        Pattern::OpenThree => Some(Class::F3),
                        Pattern::None => None,
                    };
                    let got = fine.class(key, c).coarse();
                    match expect {
                        Some(k) => assert_eq!(got, k, "{rule} {key:#x} {c:?}"),
                        None => assert!(got <= Class::B3, "{rule} {key:#x} {c:?} {got:?}"),
                    }
                }
            }
        }
    }
}
