//! [`PlayoutBoard`]: the mailbox board of playouts (chains as circular lists, pseudo-liberties,
//! neighbour counts by colour, the list of empty points), with play, legality, the per-point eye
//! test and the area count; no undo, no hash (see [`super`]).

use crate::bitboard::{Bitboard, Geometry, Point, MAX_SIZE};
use crate::board::Move;
use crate::color::Color;

/// Mailbox slots: 19 rows plus two border rows, 20 columns (one shared border column), plus one,
/// rounded up to a power of two so that `s & SLOT_MASK` lets the compiler drop bounds checks.
pub(super) const SLOTS: usize = ((MAX_SIZE + 2) * (MAX_SIZE + 1) + 1).next_power_of_two();
pub(super) const SLOT_MASK: usize = SLOTS - 1;

pub(super) const EMPTY: u8 = 0;
pub(super) const OFF: u8 = 3;

/// One pseudo-liberty at slot `lib`, packed: count 1 in bits 0..12, `lib` in the sum (bits 12..32),
/// `lib^2` in the sum of squares (bits 32..64). On 19x19 a chain has at most 4 * 361 = 1444
/// pseudo-liberties at slots below 441, so the fields never overflow into each other (count
/// < 2^12, sum < 2^20, sum of squares < 2^28).
#[inline]
pub(super) const fn lib_key(lib: usize) -> u64 {
    1 | (lib as u64) << 12 | ((lib * lib) as u64) << 32
}

/// The mailbox colour code of a colour (1 black, 2 white).
#[inline]
pub(super) const fn code(c: Color) -> u8 {
    c.index() as u8 + 1
}

/// A Go board made for playouts: fast play and legality, no undo, no hash (see the module docs).
#[derive(Clone, Debug)]
pub struct PlayoutBoard {
    pub(super) geometry: Geometry,
    /// Mailbox row stride: columns plus one shared border column.
    pub(super) w: usize,
    pub(super) colour: [u8; SLOTS],
    /// Chain root of each stone.
    pub(super) chain: [u16; SLOTS],
    /// Next stone of the same chain (circular list).
    pub(super) next: [u16; SLOTS],
    /// Per chain root: number of stones.
    pub(super) size: [u16; SLOTS],
    /// Per chain root: pseudo-liberties packed as `count | sum << 12 | sum_sq << 32` (see
    /// [`lib_key`]), so adding or removing one is a single add or subtract.
    pub(super) libs: [u64; SLOTS],
    /// Empty points, in no particular order, and each empty point's index in that list.
    pub(super) empties: [u16; SLOTS],
    pub(super) empty_at: [u16; SLOTS],
    pub(super) n_empty: usize,
    /// Virtual corner stones among each point's diagonals (rule 2/4).
    pub(super) virtual_diagonals: [u8; SLOTS],
    /// Neighbour counts by colour code, four bits each: empty, black, white, off-board (libego's
    /// trick: the usual "has an empty neighbour" and "eye-like" questions are one load).
    pub(super) nbr: [u16; SLOTS],
    /// The point of each mailbox slot (meaningful for on-board slots only).
    pub(super) to_point: [Point; SLOTS],
    pub(super) to_move: Color,
    /// Slot banned by simple ko for the side to move, 0 if none.
    pub(super) ko: u16,
}

impl PlayoutBoard {
    /// The empty board, Black to move.
    #[must_use]
    pub fn new(geometry: Geometry) -> PlayoutBoard {
        let (rows, cols) = (geometry.rows(), geometry.cols());
        let w = cols + 1;
        let mut b = PlayoutBoard {
            geometry,
            w,
            colour: [OFF; SLOTS],
            chain: [0; SLOTS],
            next: [0; SLOTS],
            size: [0; SLOTS],
            libs: [0; SLOTS],
            empties: [0; SLOTS],
            empty_at: [0; SLOTS],
            n_empty: 0,
            virtual_diagonals: [0; SLOTS],
            nbr: [0; SLOTS],
            to_point: [Point::new(0, 0); SLOTS],
            to_move: Color::Black,
            ko: 0,
        };
        let (ri, ci) = (rows as i32, cols as i32);
        let corners = [(-1, -1), (-1, ci), (ri, -1), (ri, ci)];
        for p in geometry.points() {
            let s = b.slot(p);
            b.colour[s] = EMPTY;
            b.to_point[s] = p;
            b.empty_at[s] = b.n_empty as u16;
            b.empties[b.n_empty] = s as u16;
            b.n_empty += 1;
            let (r, c) = (p.row() as i32, p.col() as i32);
            b.virtual_diagonals[s] = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
                .iter()
                .filter(|&&(dr, dc)| corners.contains(&(r + dr, c + dc)))
                .count() as u8;
        }
        for p in geometry.points() {
            let s = b.slot(p);
            for q in b.neighbours(s) {
                b.nbr[s] += 1 << (4 * b.colour[q]);
            }
        }
        b
    }

    /// Sets the colour of slot `s` and keeps its neighbours' counts.
    #[inline]
    pub(super) fn recolour(&mut self, s: usize, from: u8, to: u8) {
        self.colour[s] = to;
        let delta = (1u16 << (4 * to)).wrapping_sub(1 << (4 * from));
        for q in self.neighbours(s) {
            self.nbr[q] = self.nbr[q].wrapping_add(delta);
        }
    }

    /// Mailbox slot of a point.
    #[inline]
    pub(super) fn slot(&self, p: Point) -> usize {
        (p.row() + 1) * self.w + p.col() + 1
    }

    /// The point of an on-board slot.
    #[inline]
    pub(super) fn point(&self, s: usize) -> Point {
        self.to_point[s & SLOT_MASK]
    }

    /// The board's geometry.
    #[must_use]
    pub const fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The stones of a colour (built from the mailbox: the playout itself never needs them).
    #[must_use]
    pub fn stones(&self, c: Color) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for r in 0..self.geometry.rows() {
            let row = (r + 1) * self.w + 1;
            for col in 0..self.geometry.cols() {
                if self.colour[(row + col) & SLOT_MASK] == code(c) {
                    b.set(Point::new(r, col));
                }
            }
        }
        b
    }

    /// Makes `self` a copy of `other`. On the same geometry only the slots the board uses are
    /// copied (on 9x9 about a fifth of the arrays, which are sized for 19x19), and the tables
    /// that depend on the geometry alone are kept; otherwise the whole board.
    pub fn copy_from(&mut self, other: &PlayoutBoard) {
        let same = (self.geometry.rows(), self.geometry.cols())
            == (other.geometry.rows(), other.geometry.cols());
        if !same {
            self.clone_from(other);
            return;
        }
        let used = (self.geometry.rows() + 2) * self.w + 1;
        self.colour[..used].copy_from_slice(&other.colour[..used]);
        self.chain[..used].copy_from_slice(&other.chain[..used]);
        self.next[..used].copy_from_slice(&other.next[..used]);
        self.size[..used].copy_from_slice(&other.size[..used]);
        self.libs[..used].copy_from_slice(&other.libs[..used]);
        self.nbr[..used].copy_from_slice(&other.nbr[..used]);
        self.empty_at[..used].copy_from_slice(&other.empty_at[..used]);
        self.n_empty = other.n_empty;
        self.empties[..self.n_empty].copy_from_slice(&other.empties[..self.n_empty]);
        self.to_move = other.to_move;
        self.ko = other.ko;
    }

    /// Resets `self` to `start`, a board of the same geometry, copying only what play reads before
    /// writing (chain tables are written when a stone is placed).
    pub(super) fn reset_from(&mut self, start: &PlayoutBoard) {
        let used = (self.geometry.rows() + 2) * self.w + 1;
        self.colour[..used].copy_from_slice(&start.colour[..used]);
        // Empty slots must have chain 0 (see `place`); a previous game left stale roots.
        self.chain[..used].copy_from_slice(&start.chain[..used]);
        self.nbr[..used].copy_from_slice(&start.nbr[..used]);
        self.empty_at[..used].copy_from_slice(&start.empty_at[..used]);
        self.n_empty = start.n_empty;
        self.empties[..self.n_empty].copy_from_slice(&start.empties[..self.n_empty]);
        self.to_move = start.to_move;
        self.ko = start.ko;
    }

    /// The side to move.
    #[must_use]
    pub const fn to_move(&self) -> Color {
        self.to_move
    }

    /// The point the side to move may not play because of simple ko.
    #[must_use]
    pub fn ko(&self) -> Option<Point> {
        (self.ko != 0).then(|| self.point(self.ko as usize))
    }

    #[inline]
    pub(super) fn neighbours(&self, s: usize) -> [usize; 4] {
        let w = self.w;
        [
            (s - w) & SLOT_MASK,
            (s - 1) & SLOT_MASK,
            (s + 1) & SLOT_MASK,
            (s + w) & SLOT_MASK,
        ]
    }

    /// Chain root of the stone on `q`.
    #[inline]
    pub(super) fn root(&self, q: usize) -> usize {
        self.chain[q & SLOT_MASK] as usize & SLOT_MASK
    }

    #[inline]
    pub(super) fn in_atari(&self, root: usize) -> bool {
        let x = self.libs[root];
        let (count, sum, sum_sq) = (x & 0xfff, (x >> 12) & 0xf_ffff, x >> 32);
        count * sum_sq == sum * sum
    }

    /// Whether the empty slot `s` is an eye of `c` by rule 2/4 (virtual corner stones included).
    #[inline]
    pub(super) fn is_eye(&self, s: usize, c: u8) -> bool {
        let nbrs = self.neighbours(s);
        for i in 0..4 {
            let q = nbrs[i];
            let k = self.colour[q];
            if k != c && k != OFF {
                return false;
            }
        }
        self.own_diagonals_pass(s, c)
    }

    /// Whether `c` may play the empty, non-ko slot `s`: it has an empty neighbour, joins an own chain
    /// with another liberty, or takes the last liberty of an opponent chain.
    #[inline]
    pub(super) fn is_legal_empty(&self, s: usize, c: u8) -> bool {
        let nbrs = self.neighbours(s);
        for i in 0..4 {
            let q = nbrs[i];
            let k = self.colour[q];
            if k == EMPTY {
                return true;
            }
            if k != OFF {
                let own = k == c;
                if own != self.in_atari(self.root(q)) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the side to move may play `p` (on the board, empty, not the ko point, no suicide).
    #[must_use]
    pub fn is_legal(&self, p: Point) -> bool {
        if !self.geometry.mask().contains(p) {
            return false;
        }
        let s = self.slot(p);
        self.colour[s] == EMPTY
            && s != self.ko as usize
            && self.is_legal_empty(s, code(self.to_move))
    }

    /// Whether `p` is an eye of `c` (rule 2/4), on the board's mailbox.
    #[must_use]
    pub fn is_eye_of(&self, p: Point, c: Color) -> bool {
        let s = self.slot(p);
        self.colour[s] == EMPTY && self.is_eye(s, code(c))
    }

    /// Whether `p` is an eye of `c` ([`PlayoutBoard::is_eye_of`]) that `c` never needs to fill:
    /// no chain of `c` next to it is in atari. Rule 2/4 counts a point with two own and two
    /// opposing diagonals as an eye, yet when its own neighbours are two chains, filling it is
    /// what joins a chain in atari to the other (the eye is false); the tree keeps that move.
    pub fn is_eye_to_keep(&self, p: Point, c: Color) -> bool {
        let s = self.slot(p);
        self.is_eye_of(p, c)
            && self
                .neighbours(s)
                .iter()
                .all(|&q| self.colour[q] != code(c) || !self.in_atari(self.root(q)))
    }

    #[inline]
    pub(super) fn take_empty(&mut self, s: usize) {
        let i = self.empty_at[s] as usize;
        self.n_empty -= 1;
        let last = self.empties[self.n_empty];
        self.empties[i] = last;
        self.empty_at[last as usize] = i as u16;
    }

    #[inline]
    pub(super) fn put_empty(&mut self, s: usize) {
        self.empties[self.n_empty] = s as u16;
        self.empty_at[s] = self.n_empty as u16;
        self.n_empty += 1;
    }

    /// Plays a legal move for the side to move (legality is the caller's promise: see
    /// [`PlayoutBoard::is_legal`]).
    pub fn play(&mut self, mv: Move) {
        match mv {
            Move::Pass => self.ko = 0,
            Move::Play(p) => {
                assert!(self.is_legal(p), "illegal playout move {p}");
                let s = self.slot(p);
                self.place(s);
            }
        }
        self.to_move = self.to_move.opponent();
    }

    pub(super) fn place(&mut self, s: usize) {
        let me = self.to_move;
        let c = code(me);
        self.take_empty(s);
        self.recolour(s, EMPTY, c);
        self.chain[s] = s as u16;
        self.next[s] = s as u16;
        self.size[s] = 1;
        self.libs[s] = 0;
        // The neighbour loops avoid branching on colours, which are random in a playout: the new
        // stone takes every empty neighbour as a liberty, and every neighbouring slot's chain
        // loses `s` (empty and off-board slots have chain 0, a dummy slot whose counters are
        // never read).
        let nbrs = self.neighbours(s);
        let opp = 3 - c;
        let (mut own_nbrs, mut opp_nbrs, mut libs) = (0u32, 0u32, 0u64);
        for i in 0..4 {
            let (q, k) = (nbrs[i], self.colour[nbrs[i]]);
            libs += lib_key(q) & 0u64.wrapping_sub(u64::from(k == EMPTY));
            own_nbrs |= u32::from(k == c) << i;
            opp_nbrs |= u32::from(k == opp) << i;
            let r = self.root(q);
            self.libs[r] = self.libs[r].wrapping_sub(lib_key(s));
        }
        self.libs[s] = libs;
        while own_nbrs != 0 {
            let q = nbrs[own_nbrs.trailing_zeros() as usize];
            own_nbrs &= own_nbrs - 1;
            let (a, r) = (self.root(s), self.root(q));
            if a != r {
                self.merge(a, r);
            }
        }
        // Opponent neighbours left without a liberty (rare: one predictable branch when none).
        let mut dead = 0u32;
        for i in 0..4 {
            let r = self.root(nbrs[i]);
            dead |= (opp_nbrs >> i & 1 & u32::from(self.libs[r] & 0xfff == 0)) << i;
        }
        let mut captured = 0;
        let mut captured_at = 0;
        while dead != 0 {
            let q = nbrs[dead.trailing_zeros() as usize];
            dead &= dead - 1;
            // Not already taken with a chain captured a moment ago.
            if self.colour[q] == opp {
                let r = self.root(q);
                captured += self.size[r];
                captured_at = r;
                self.capture(r);
            }
        }
        let root = self.root(s);
        self.ko = if captured == 1 && self.size[root] == 1 && self.libs[root] & 0xfff == 1 {
            captured_at as u16
        } else {
            0
        };
    }

    /// Merges the chains with roots `a` and `b`, relabelling the smaller one.
    #[inline]
    pub(super) fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.size[a] >= self.size[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut t = small;
        loop {
            self.chain[t] = big as u16;
            t = self.next[t] as usize & SLOT_MASK;
            if t == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.size[big] += self.size[small];
        self.libs[big] += self.libs[small];
    }

    /// Removes the chain with root `r`; its neighbours gain the liberties.
    pub(super) fn capture(&mut self, r: usize) {
        let mut t = r;
        loop {
            // Every neighbouring chain gains the liberty: the capturer's chains, and harmlessly
            // the dying chain itself and the dummy chain 0 of empty and off-board slots.
            let nbrs = self.neighbours(t);
            for i in 0..4 {
                let q = self.root(nbrs[i]);
                self.libs[q] = self.libs[q].wrapping_add(lib_key(t));
            }
            self.recolour(t, self.colour[t], EMPTY);
            self.chain[t] = 0;
            self.put_empty(t);
            t = self.next[t] as usize & SLOT_MASK;
            if t == r {
                break;
            }
        }
    }

    /// The single liberty of the chain with root `r` when it is in atari (`r` must hold a stone).
    #[inline]
    pub(super) fn atari_liberty(&self, r: usize) -> Option<usize> {
        let x = self.libs[r];
        let count = x & 0xfff;
        (count > 0 && self.in_atari(r)).then(|| (((x >> 12) & 0xf_ffff) / count) as usize)
    }

    /// Whether `c` may play the empty, non-ko slot `s` and it is not an own eye. Most points have
    /// an empty neighbour, which settles both questions at once.
    #[inline]
    pub(super) fn acceptable(&self, s: usize, c: u8) -> bool {
        let n = u32::from(self.nbr[s]);
        if n & 0xf != 0 {
            return true;
        }
        let eyelike = ((n >> (4 * c)) & 0xf) + (n >> 12) == 4;
        if eyelike && self.own_diagonals_pass(s, c) {
            return false;
        }
        self.is_legal_empty(s, c)
    }

    /// Rule 2/4's diagonal half: own diagonals plus virtual corner stones at least two.
    #[inline]
    pub(super) fn own_diagonals_pass(&self, s: usize, c: u8) -> bool {
        let w = self.w;
        let own = [s - w - 1, s - w + 1, s + w - 1, s + w + 1]
            .iter()
            .filter(|&&q| self.colour[q & SLOT_MASK] == c)
            .count();
        own + self.virtual_diagonals[s] as usize >= 2
    }

    /// Plays the legal slot `s` (0 for a pass) for the side to move.
    #[inline]
    pub(super) fn play_slot(&mut self, s: usize) {
        if s == 0 {
            self.ko = 0;
        } else {
            self.place(s);
        }
        self.to_move = self.to_move.opponent();
    }

    /// Area score (stones plus empty regions bordered by one colour only) on the mailbox, as
    /// Black's points and White's.
    pub(super) fn area(&self) -> [u32; 2] {
        let mut out = [0u32; 2];
        let mut seen = [false; SLOTS];
        let mut stack = [0u16; SLOTS];
        for r in 0..self.geometry.rows() {
            let row = (r + 1) * self.w + 1;
            for col in 0..self.geometry.cols() {
                let s = (row + col) & SLOT_MASK;
                match self.colour[s] {
                    1 => out[0] += 1,
                    2 => out[1] += 1,
                    _ if !seen[s] => {
                        // Flood the empty region; `border` collects the colour codes around it.
                        let (mut size, mut border) = (0, 0u8);
                        seen[s] = true;
                        stack[0] = s as u16;
                        let mut top = 1;
                        while top > 0 {
                            top -= 1;
                            let t = stack[top & SLOT_MASK] as usize & SLOT_MASK;
                            size += 1;
                            for q in self.neighbours(t) {
                                match self.colour[q] {
                                    EMPTY if !seen[q] => {
                                        seen[q] = true;
                                        stack[top & SLOT_MASK] = q as u16;
                                        top += 1;
                                    }
                                    EMPTY | OFF => {}
                                    k => border |= k,
                                }
                            }
                        }
                        if border == 1 || border == 2 {
                            out[border as usize - 1] += size;
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// Area score from Black's point of view, komi subtracted.
    #[must_use]
    pub fn area_score(&self, komi: f64) -> f64 {
        let [b, w] = self.area();
        f64::from(b) - f64::from(w) - komi
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_diagonals_on_thin_boards() {
        let b = PlayoutBoard::new(Geometry::new(1, 1).unwrap());
        assert!(b.is_eye_of(Point::new(0, 0), Color::Black));
        let b = PlayoutBoard::new(Geometry::new(1, 3).unwrap());
        assert_eq!(b.virtual_diagonals[b.slot(Point::new(0, 0))], 2);
        assert_eq!(b.virtual_diagonals[b.slot(Point::new(0, 1))], 0);
    }
}
