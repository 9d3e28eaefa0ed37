//! Bit-parallel analysis of one line of up to 26 cells: cell `t` is bit `t` of a mask. Both colours are
//! worked out at once: white in bits 0..32 of a `u64`, black in bits 32..64 (shifts by at most 5 never
//! carry a lane's cells into the other lane's cells).
//!
//! Definitions (for colour `c`, an empty cell `p`; "a five containing p" is five cells in a row that
//! hold `p`, all of colour `c`, and under the standard rule neither neighbour of the five is `c`):
//! - five: a stone at `p` makes a five (freestyle: five or more);
//! - partner `q` of `p`: an empty cell such that stones at `p` and `q` make a five containing both;
//! - open four: not five, and `p` has two partners (after the move, two five points);
//! - four: not five, and exactly one partner;
//! - open three: none of the above, and some empty `q` makes `p` an open four (a move after which an
//!   open four is possible).
//!
//! A five containing `p` and its partner is a 5-cell window holding 3 stones and the 2 empty cells, so a
//! cell has at most one partner on each side; "two partners" is "a partner on each side".

use crate::{Pattern, Rule};

const LANE: u32 = 32;
const LOW_LANE: u64 = 0xFFFF_FFFF;

/// Per-colour classes of every empty cell of a line, as masks along the line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LineClasses {
    pub five: u32,
    pub open_four: u32,
    pub four: u32,
    pub open_three: u32,
}

/// One line: which cells hold white, which black, which exist (bit `t` for cell `t`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LineStones {
    pub white: u32,
    pub black: u32,
    /// The cells on the board.
    pub cells: u32,
}

impl LineStones {
    /// Empty cells of the line.
    #[must_use]
    pub const fn empty(self) -> u32 {
        self.cells & !self.white & !self.black
    }

    /// `(own, free)` with white in the low lane and black in the high lane.
    #[inline]
    const fn packed(self) -> (u64, u64) {
        let e = self.empty() as u64;
        (
            self.white as u64 | (self.black as u64) << LANE,
            e | e << LANE,
        )
    }
}

#[inline]
const fn split(x: u64) -> [u32; 2] {
    [(x & LOW_LANE) as u32, (x >> LANE) as u32]
}

/// Windows of five cells (bit `s` for cells `s ..= s+4`) with no blocked cell (and, for the standard
/// rule, no own stone just outside), holding exactly one and exactly two empty cells.
#[inline]
const fn windows(own: u64, free: u64, rule: Rule) -> (u64, u64) {
    let q = own | free;
    let mut all = q & (q >> 1) & (q >> 2) & (q >> 3) & (q >> 4);
    // Exactly five: no own stone just outside the window (Renju: Black only, the high lane).
    let exact = match rule {
        Rule::Freestyle => 0,
        Rule::Standard => u64::MAX,
        Rule::Renju => !LOW_LANE,
    };
    all &= !(own << 1 & exact) & !(own >> 5 & exact);
    let (mut ones, mut twos, mut threes) = (0u64, 0u64, 0u64);
    let mut i = 0;
    while i < 5 {
        let f = free >> i;
        threes |= twos & f;
        twos |= ones & f;
        ones |= f;
        i += 1;
    }
    (all & ones & !twos, all & twos & !threes)
}

/// Five points, and cells with a partner on the left and on the right (all packed).
#[inline]
const fn fives_and_partners(own: u64, free: u64, rule: Rule) -> (u64, u64, u64) {
    let (one, two) = windows(own, free, rule);
    let five = (one | one << 1 | one << 2 | one << 3 | one << 4) & free;
    // span[j]: some two-empty window starts within j cells to the left of (or at) the cell.
    let s0 = two;
    let s1 = s0 | two << 1;
    let s2 = s1 | two << 2;
    let s3 = s2 | two << 3;
    let right = (free & (free >> 1) & s3)
        | (free & (free >> 2) & s2)
        | (free & (free >> 3) & s1)
        | (free & (free >> 4) & s0);
    let left = (free & (free << 1) & (s3 << 1))
        | (free & (free << 2) & (s2 << 2))
        | (free & (free << 3) & (s1 << 3))
        | (free & (free << 4) & (s0 << 4));
    (five, left, right)
}

/// Packed open-four cells (not five, a partner on each side).
#[inline]
const fn open_fours(own: u64, free: u64, rule: Rule) -> u64 {
    let (five, left, right) = fives_and_partners(own, free, rule);
    left & right & !five
}

/// Per colour (white, black): the cells where a stone makes a five.
#[must_use]
pub const fn five_points(line: LineStones, rule: Rule) -> [u32; 2] {
    let (own, free) = line.packed();
    let (one, _) = windows(own, free, rule);
    split((one | one << 1 | one << 2 | one << 3 | one << 4) & free)
}

/// The seed's threat mask of a line: per colour its five points if it has any, else its open-four
/// points; the union over both colours. (With no five point, every five point a move creates holds the
/// move, so the local open four equals the seed's "two five points after the move".)
#[inline]
#[must_use]
pub const fn threat_mask(line: LineStones, rule: Rule) -> u32 {
    let (own, free) = line.packed();
    let (five, left, right) = fives_and_partners(own, free, rule);
    let open = left & right & !five;
    let [fw, fb] = split(five);
    let [ow, ob] = split(open);
    // Branch-free "five points if any, else open-four points": the choice is data-dependent and
    // unpredictable while the table is built.
    let keep_w = ((fw != 0) as u32).wrapping_neg();
    let keep_b = ((fb != 0) as u32).wrapping_neg();
    (fw | ow & !keep_w) | (fb | ob & !keep_b)
}

/// Per colour (white, black): the seed's unfiltered lists: five points, and open-four points in the
/// seed's literal sense (empty, not a five point, and afterwards the line has at least two five points
/// of that colour, wherever they are).
#[must_use]
pub fn threat_lists(line: LineStones, rule: Rule) -> [(u32, u32); 2] {
    let fives = five_points(line, rule);
    let mut out = [(fives[0], 0), (fives[1], 0)];
    let empty = line.empty();
    let mut cand = empty;
    while cand != 0 {
        let p = cand & cand.wrapping_neg();
        cand &= cand - 1;
        for (c, slot) in out.iter_mut().enumerate() {
            if fives[c] & p != 0 {
                continue;
            }
            let mut after = line;
            if c == 0 {
                after.white |= p;
            } else {
                after.black |= p;
            }
            if five_points(after, rule)[c].count_ones() >= 2 {
                slot.1 |= p;
            }
        }
    }
    out
}

/// Per colour (white, black): the class of every empty cell (see the module docs).
#[must_use]
pub fn classes(line: LineStones, rule: Rule) -> [LineClasses; 2] {
    let (own, free) = line.packed();
    let (five, left, right) = fives_and_partners(own, free, rule);
    let open_four = left & right & !five;
    let four = (left | right) & !open_four & !five;
    let mut three = 0u64;
    let mut cand = free;
    while cand != 0 {
        let q = cand & cand.wrapping_neg();
        cand &= cand - 1;
        let lane = if q & LOW_LANE != 0 {
            LOW_LANE
        } else {
            !LOW_LANE
        };
        three |= open_fours(own | q, free & !q, rule) & lane & !q;
    }
    let three = three & free & !five & !open_four & !four;
    let [five, open_four, four, three] = [split(five), split(open_four), split(four), split(three)];
    [0, 1].map(|c| LineClasses {
        five: five[c],
        open_four: open_four[c],
        four: four[c],
        open_three: three[c],
    })
}

/// Per colour (white, black): the class of the single empty cell `t`. Same definitions as
/// [`classes`], but only the open-three search of that cell is done.
#[must_use]
pub fn classes_at(line: LineStones, t: u32, rule: Rule) -> [Pattern; 2] {
    let (own, free) = line.packed();
    let (five, left, right) = fives_and_partners(own, free, rule);
    [0, 1].map(|c| {
        let shift = LANE * c;
        let bit = 1u64 << (t + shift);
        if free & bit == 0 {
            Pattern::None
        } else if five & bit != 0 {
            Pattern::Five
        } else if left & right & bit != 0 {
            Pattern::OpenFour
        } else if (left | right) & bit != 0 {
            Pattern::Four
        } else {
            let lane = LOW_LANE << shift;
            let mut cand = free & lane & !bit;
            while cand != 0 {
                let q = cand & cand.wrapping_neg();
                cand &= cand - 1;
                if open_fours(own | q, free & !q, rule) & bit != 0 {
                    return Pattern::OpenThree;
                }
            }
            Pattern::None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> LineStones {
        let mut l = LineStones::default();
        for (t, ch) in s.chars().enumerate() {
            l.cells |= 1 << t;
            match ch {
                'O' => l.white |= 1 << t,
                'X' => l.black |= 1 << t,
                _ => {}
            }
        }
        l
    }

    #[test]
    fn straight_four_points() {
        // ..XXX.. : two open-four points for black, none for white.
        let l = line("..XXX..");
        assert_eq!(threat_mask(l, Rule::Freestyle), 0b0100010);
        let c = classes(l, Rule::Freestyle);
        assert_eq!(c[1].open_four, 0b0100010);
        assert_eq!(c[1].four, 0b1000001);
        assert_eq!(c[0], LineClasses::default());
    }

    #[test]
    fn overline_is_no_five_under_standard() {
        let l = line("XXXX.X");
        assert_eq!(five_points(l, Rule::Freestyle)[1], 0b10000);
        assert_eq!(five_points(l, Rule::Standard)[1], 0);
    }

    #[test]
    fn open_three_cells() {
        // .X.X.. : a stone between makes ..XXX. style threes; the middle cell gives an open three.
        let c = classes(line("..X.X..."), Rule::Freestyle);
        assert_ne!(c[1].open_three & 0b1000, 0);
    }
}
