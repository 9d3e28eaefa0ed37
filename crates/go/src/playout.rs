//! Random playouts: each side plays a uniformly random legal move that does not fill one of its own
//! rule-2/4 eyes (see [`mod@crate::eyes`]), and passes when no such move is left; two passes in a
//! row end the game, which is scored by area (komi from [`PlayoutConfig`]). Simple ko, suicide
//! illegal (the rules of [`Rules::STANDARD`]).
//!
//! A playout draws from a seeded [`Rng`], so the same seed replays the same game. A move cap guards
//! against endless games: simple ko does not stop every cycle (a 2x2 board always cycles; triple
//! kos and "sending two, returning one" occur on bigger boards, about 0.15% of 9x9 games). After
//! [`Playout::max_moves`] moves (passes included; default `3 * area + 64`, the `+ 64` so that games
//! on tiny boards are not cut short) the game stops and the position is scored as it stands, with
//! [`PlayoutResult::capped`] set. The tests check that capped games repeat a position (1xN boards
//! excepted, where long games without a repeat are real).
//!
//! The general [`crate::Board`] keeps an undo trail, a Zobrist hash and bitboard liberties per
//! block, which a playout never needs (140 to 430 ns a move there, see BENCHMARKS.md). Playouts run
//! on [`PlayoutBoard`], a mailbox board in the libego style: a one-point border, chains as circular
//! stone lists, *pseudo-liberties* with their sum and sum of squares (a chain is in atari exactly
//! when `count * sum_sq == sum^2`), neighbour counts by colour, and a list of empty points that the
//! move choice samples from without replacement (uniform over the acceptable points).
//!
//! The eye test in the playout is the per-point form of the seed's rule (all four neighbours own or
//! off-board, which is one load of the neighbour counts; own diagonals plus the virtual corner
//! stones at least two): a playout asks about one drawn point at a time, and the whole-board
//! bitboard ([`crate::EyeMasks`]) would add its 10 ns (AVX-512 VBMI2) to 45 ns (portable) to every
//! move. The tests check every move against both [`crate::eyes_naive`] and the bitboard answer.
//!
//! ```
//! use stonelab_go::playout::{Playout, PlayoutConfig};
//! use stonelab_go::{Geometry, Rng};
//! let mut playout = Playout::new(Geometry::new(9, 9).unwrap(), PlayoutConfig::default());
//! let a = playout.run(&mut Rng::new(1));
//! let b = playout.run(&mut Rng::new(1));
//! assert_eq!(a, b);
//! ```

use crate::bitboard::{Bitboard, Geometry, Point, MAX_SIZE};
use crate::board::Move;
#[cfg(doc)]
use crate::board::Rules;
use crate::color::Color;
use crate::rng::Rng;

/// What a playout is played under.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PlayoutConfig {
    /// Komi, subtracted from Black's area score.
    pub komi: f64,
    /// Moves (passes included) after which the game stops; `None` means three times the area.
    pub max_moves: Option<u32>,
}

impl Default for PlayoutConfig {
    fn default() -> PlayoutConfig {
        PlayoutConfig {
            komi: 7.5,
            max_moves: None,
        }
    }
}

/// How a playout ended.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PlayoutResult {
    /// Area score from Black's point of view, komi subtracted.
    pub score: f64,
    /// Moves played, passes included.
    pub moves: u32,
    /// Whether the move cap stopped the game (rather than two passes).
    pub capped: bool,
}

/// Mailbox slots: 19 rows plus two border rows, 20 columns (one shared border column), plus one,
/// rounded up to a power of two so that `s & SLOT_MASK` lets the compiler drop bounds checks.
const SLOTS: usize = ((MAX_SIZE + 2) * (MAX_SIZE + 1) + 1).next_power_of_two();
const SLOT_MASK: usize = SLOTS - 1;

const EMPTY: u8 = 0;
const OFF: u8 = 3;

/// One pseudo-liberty at slot `lib`, packed: count 1 in bits 0..12, `lib` in the sum (bits 12..32),
/// `lib^2` in the sum of squares (bits 32..64). On 19x19 a chain has at most 4 * 361 = 1444
/// pseudo-liberties at slots below 441, so the fields never overflow into each other (count
/// < 2^12, sum < 2^20, sum of squares < 2^28).
#[inline]
const fn lib_key(lib: usize) -> u64 {
    1 | (lib as u64) << 12 | ((lib * lib) as u64) << 32
}

/// The mailbox colour code of a colour (1 black, 2 white).
#[inline]
const fn code(c: Color) -> u8 {
    c.index() as u8 + 1
}

/// What [`PlayoutBoard::move_features`] reports about one candidate move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveFeatures {
    /// Opponent stones the move captures.
    pub captures: u32,
    /// The move gives an own chain in atari more liberties.
    pub saves: bool,
    /// The move makes a chain of two stones or more with one liberty and captures nothing.
    pub self_atari: bool,
    /// The 3x3 window around the move matches a MoGo shape.
    pub pattern: bool,
}

/// A Go board made for playouts: fast play and legality, no undo, no hash (see the module docs).
#[derive(Clone, Debug)]
pub struct PlayoutBoard {
    geometry: Geometry,
    /// Mailbox row stride: columns plus one shared border column.
    w: usize,
    colour: [u8; SLOTS],
    /// Chain root of each stone.
    chain: [u16; SLOTS],
    /// Next stone of the same chain (circular list).
    next: [u16; SLOTS],
    /// Per chain root: number of stones.
    size: [u16; SLOTS],
    /// Per chain root: pseudo-liberties packed as `count | sum << 12 | sum_sq << 32` (see
    /// [`lib_key`]), so adding or removing one is a single add or subtract.
    libs: [u64; SLOTS],
    /// Empty points, in no particular order, and each empty point's index in that list.
    empties: [u16; SLOTS],
    empty_at: [u16; SLOTS],
    n_empty: usize,
    /// Virtual corner stones among each point's diagonals (rule 2/4).
    virtual_diagonals: [u8; SLOTS],
    /// Neighbour counts by colour code, four bits each: empty, black, white, off-board (libego's
    /// trick: the usual "has an empty neighbour" and "eye-like" questions are one load).
    nbr: [u16; SLOTS],
    /// The point of each mailbox slot (meaningful for on-board slots only).
    to_point: [Point; SLOTS],
    to_move: Color,
    /// Slot banned by simple ko for the side to move, 0 if none.
    ko: u16,
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
    fn recolour(&mut self, s: usize, from: u8, to: u8) {
        self.colour[s] = to;
        let delta = (1u16 << (4 * to)).wrapping_sub(1 << (4 * from));
        for q in self.neighbours(s) {
            self.nbr[q] = self.nbr[q].wrapping_add(delta);
        }
    }

    /// Mailbox slot of a point.
    #[inline]
    fn slot(&self, p: Point) -> usize {
        (p.row() + 1) * self.w + p.col() + 1
    }

    /// The point of an on-board slot.
    #[inline]
    fn point(&self, s: usize) -> Point {
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

    /// Resets `self` to `start`, a board of the same geometry, copying only what play reads before
    /// writing (chain tables are written when a stone is placed).
    fn reset_from(&mut self, start: &PlayoutBoard) {
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
    fn neighbours(&self, s: usize) -> [usize; 4] {
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
    fn root(&self, q: usize) -> usize {
        self.chain[q & SLOT_MASK] as usize & SLOT_MASK
    }

    #[inline]
    fn in_atari(&self, root: usize) -> bool {
        let x = self.libs[root];
        let (count, sum, sum_sq) = (x & 0xfff, (x >> 12) & 0xf_ffff, x >> 32);
        count * sum_sq == sum * sum
    }

    /// Whether the empty slot `s` is an eye of `c` by rule 2/4 (virtual corner stones included).
    #[inline]
    fn is_eye(&self, s: usize, c: u8) -> bool {
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
    fn is_legal_empty(&self, s: usize, c: u8) -> bool {
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

    #[inline]
    fn take_empty(&mut self, s: usize) {
        let i = self.empty_at[s] as usize;
        self.n_empty -= 1;
        let last = self.empties[self.n_empty];
        self.empties[i] = last;
        self.empty_at[last as usize] = i as u16;
    }

    #[inline]
    fn put_empty(&mut self, s: usize) {
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

    fn place(&mut self, s: usize) {
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
    fn merge(&mut self, a: usize, b: usize) {
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
    fn capture(&mut self, r: usize) {
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
    fn atari_liberty(&self, r: usize) -> Option<usize> {
        let x = self.libs[r];
        let count = x & 0xfff;
        (count > 0 && self.in_atari(r)).then(|| (((x >> 12) & 0xf_ffff) / count) as usize)
    }

    /// A move for the side to move with two tactical replies to the opponent's last stone `last`
    /// before the random choice: capture the chain of `last` when it is in atari; else, for an own
    /// chain next to `last` left in atari, capture an opponent chain in atari touching it, or
    /// extend at its liberty when that gains liberties (the liberty has two empty neighbours, or
    /// joins another own chain not in atari) and is not an own eye. Otherwise (or when `last` is
    /// `None`, a pass, or not an opponent stone) a random move as [`PlayoutBoard::random_move`]
    /// draws it, but never a self-atari of two stones or more that captures nothing (so a group
    /// does not fill the last eye it needs, which the rule-2/4 test may not see, e.g. a corner
    /// point whose diagonal is another eye); the side passes when only such moves are left.
    /// Playouts with these rules capture lost invaders and keep living groups alive, which uniform
    /// ones leave to chance: they judge life and death at the end of a game better (see
    /// [`crate::ownership`]).
    pub fn tactical_move(&mut self, rng: &mut Rng, last: Option<Point>) -> Move {
        if let Some(p) = last.filter(|&p| self.geometry.mask().contains(p)) {
            if let Some(s) = self.reply(self.slot(p)) {
                return Move::Play(self.point(s));
            }
        }
        match self.pick_where(rng, |b, s, c| !b.self_atari(s, c)) {
            0 => Move::Pass,
            s => Move::Play(self.point(s)),
        }
    }

    /// The playout policy of the tree search: [`PlayoutBoard::tactical_move`]'s replies to the last
    /// move first; then, among the empty points around the last stone, one drawn uniformly from
    /// those that match a MoGo 3x3 shape ([`crate::pattern3`]), are legal, are not an own eye and
    /// are no big self-atari; then [`PlayoutBoard::tactical_move`]'s random choice.
    pub fn policy_move(&mut self, rng: &mut Rng, last: Option<Point>) -> Move {
        if let Some(p) = last.filter(|&p| self.geometry.mask().contains(p)) {
            let l = self.slot(p);
            if let Some(s) = self.reply(l) {
                return Move::Play(self.point(s));
            }
            if self.colour[l] == 3 - code(self.to_move) {
                if let Some(s) = self.pattern_reply(rng, l) {
                    return Move::Play(self.point(s));
                }
            }
        }
        match self.pick_where(rng, |b, s, c| !b.self_atari(s, c)) {
            0 => Move::Pass,
            s => Move::Play(self.point(s)),
        }
    }

    /// A uniformly drawn empty point around slot `l` that matches a 3x3 shape and that the side to
    /// move may play (legal, no own eye, no big self-atari).
    fn pattern_reply(&self, rng: &mut Rng, l: usize) -> Option<usize> {
        let table = crate::pattern3::Pattern3Table::get();
        let c = code(self.to_move);
        let mut chosen = None;
        let mut seen = 0;
        for s in self.around(l) {
            if self.colour[s] != EMPTY || s == self.ko as usize {
                continue;
            }
            if !table.matches(self.window(s)) || !self.acceptable(s, c) || self.self_atari(s, c) {
                continue;
            }
            seen += 1;
            if rng.below(seen) == 0 {
                chosen = Some(s);
            }
        }
        chosen
    }

    /// The eight slots around `s`, in [`crate::pattern3::NEIGHBOUR_ORDER`].
    #[inline]
    fn around(&self, s: usize) -> [usize; 8] {
        let w = self.w;
        [
            (s - w - 1) & SLOT_MASK,
            (s - w) & SLOT_MASK,
            (s - w + 1) & SLOT_MASK,
            (s - 1) & SLOT_MASK,
            (s + 1) & SLOT_MASK,
            (s + w - 1) & SLOT_MASK,
            (s + w) & SLOT_MASK,
            (s + w + 1) & SLOT_MASK,
        ]
    }

    /// The 3x3 window key of slot `s` (see [`crate::pattern3`]).
    #[inline]
    fn window(&self, s: usize) -> u16 {
        let mut key = 0u16;
        for (i, q) in self.around(s).into_iter().enumerate() {
            key |= u16::from(self.colour[q]) << (2 * i);
        }
        key
    }

    /// What the tree's priors need to know about the side to move playing the empty point `p`:
    /// stones it captures, whether it saves an own chain in atari (and is not a self-atari),
    /// whether it is a big self-atari, and whether its window matches a 3x3 shape.
    #[must_use]
    pub fn move_features(&self, p: Point) -> MoveFeatures {
        let s = self.slot(p);
        let c = code(self.to_move);
        let mut captures = 0u32;
        let mut roots = [0usize; 4];
        let mut own_in_atari = false;
        for (i, q) in self.neighbours(s).into_iter().enumerate() {
            let k = self.colour[q];
            if k == EMPTY || k == OFF {
                continue;
            }
            let r = self.root(q);
            if roots[..i].contains(&r) {
                continue;
            }
            roots[i] = r;
            if self.in_atari(r) {
                if k == c {
                    own_in_atari = true;
                } else {
                    captures += u32::from(self.size[r]);
                }
            }
        }
        let self_atari = self.self_atari(s, c);
        MoveFeatures {
            captures,
            saves: own_in_atari && !self_atari && (captures > 0 || self.gains_liberties(s, c)),
            self_atari,
            pattern: crate::pattern3::Pattern3Table::get().matches(self.window(s)),
        }
    }

    /// Whether no stone lies within Manhattan distance `dist` of `p`.
    #[must_use]
    pub fn empty_area(&self, p: Point, dist: i32) -> bool {
        let (rows, cols) = (self.geometry.rows() as i32, self.geometry.cols() as i32);
        let (r0, c0) = (p.row() as i32, p.col() as i32);
        for dr in -dist..=dist {
            let span = dist - dr.abs();
            for dc in -span..=span {
                let (r, c) = (r0 + dr, c0 + dc);
                if r < 0 || c < 0 || r >= rows || c >= cols {
                    continue;
                }
                let s = self.slot(Point::new(r as usize, c as usize));
                if self.colour[s] != EMPTY {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `c` on the empty slot `s` makes a chain with two liberties or more (captures
    /// aside).
    fn gains_liberties(&self, s: usize, c: u8) -> bool {
        let mut first = None;
        let mut more = |x: usize| {
            if x == s || first == Some(x) {
                return false;
            }
            if first.is_none() {
                first = Some(x);
                return false;
            }
            true
        };
        for q in self.neighbours(s) {
            if self.colour[q] == EMPTY && more(q) {
                return true;
            }
        }
        for q in self.neighbours(s) {
            if self.colour[q] != c {
                continue;
            }
            let r = self.root(q);
            let mut t = r;
            loop {
                for x in self.neighbours(t) {
                    if self.colour[x] == EMPTY && more(x) {
                        return true;
                    }
                }
                t = self.next[t] as usize & SLOT_MASK;
                if t == r {
                    break;
                }
            }
        }
        false
    }

    /// Whether `c` playing the empty slot `s` makes a chain of two stones or more with one liberty
    /// that captures nothing (a lone stone may: throw-ins kill).
    fn self_atari(&self, s: usize, c: u8) -> bool {
        let nbrs = self.neighbours(s);
        let mut libs = [0usize; 2];
        let mut n = 0;
        let mut add = |x: usize, n: &mut usize| {
            if x != s && !libs[..(*n).min(2)].contains(&x) {
                if *n < 2 {
                    libs[*n] = x;
                }
                *n += 1;
            }
        };
        for &q in &nbrs {
            match self.colour[q] {
                EMPTY => add(q, &mut n),
                k if k == 3 - c && self.in_atari(self.root(q)) => return false,
                _ => {}
            }
        }
        if n >= 2 {
            return false;
        }
        let mut roots = [0usize; 4];
        let mut size = 1;
        for (i, &q) in nbrs.iter().enumerate() {
            if self.colour[q] != c {
                continue;
            }
            let r = self.root(q);
            if roots[..i].contains(&r) {
                continue;
            }
            roots[i] = r;
            size += usize::from(self.size[r]);
            let mut t = r;
            loop {
                for x in self.neighbours(t) {
                    if self.colour[x] == EMPTY {
                        add(x, &mut n);
                        if n >= 2 {
                            return false;
                        }
                    }
                }
                t = self.next[t] as usize & SLOT_MASK;
                if t == r {
                    break;
                }
            }
        }
        size >= 2
    }

    /// The tactical reply of [`PlayoutBoard::tactical_move`] to the stone on slot `l`, if any.
    fn reply(&self, l: usize) -> Option<usize> {
        let me = code(self.to_move);
        let opp = 3 - me;
        let ko = self.ko as usize;
        if self.colour[l] != opp {
            return None;
        }
        if let Some(lib) = self.atari_liberty(self.root(l)).filter(|&x| x != ko) {
            return Some(lib);
        }
        for q in self.neighbours(l) {
            if self.colour[q] != me {
                continue;
            }
            let r = self.root(q);
            let Some(lib) = self.atari_liberty(r) else {
                continue;
            };
            // Capture an opponent chain in atari that touches the chain in danger.
            let mut t = r;
            loop {
                for n in self.neighbours(t) {
                    if self.colour[n] == opp {
                        if let Some(x) = self.atari_liberty(self.root(n)).filter(|&x| x != ko) {
                            return Some(x);
                        }
                    }
                }
                t = self.next[t] as usize & SLOT_MASK;
                if t == r {
                    break;
                }
            }
            // Extend, when that gains liberties (then the move is legal too).
            if lib == ko || self.is_eye(lib, me) {
                continue;
            }
            let nbrs = self.neighbours(lib);
            let empties = nbrs.iter().filter(|&&n| self.colour[n] == EMPTY).count();
            let joins = nbrs.iter().any(|&n| {
                self.colour[n] == me && self.root(n) != r && !self.in_atari(self.root(n))
            });
            if empties >= 2 || joins {
                return Some(lib);
            }
        }
        None
    }

    /// A uniformly random legal move for the side to move that does not fill its own eye, or a
    /// pass. Samples the empty list without replacement: a rejected point (own eye, ko, suicide)
    /// is swapped behind the part still to be drawn, so every acceptable point is equally likely.
    pub fn random_move(&mut self, rng: &mut Rng) -> Move {
        match self.pick(rng) {
            0 => Move::Pass,
            s => Move::Play(self.point(s)),
        }
    }

    /// [`PlayoutBoard::random_move`] as a slot, 0 for a pass.
    #[inline]
    fn pick(&mut self, rng: &mut Rng) -> usize {
        self.pick_where(rng, |_, _, _| true)
    }

    /// [`PlayoutBoard::pick`] among the acceptable slots `s` that `keep(self, s, colour code)` also
    /// accepts (with a constant `true` it compiles to `pick` itself).
    #[inline]
    fn pick_where(&mut self, rng: &mut Rng, keep: impl Fn(&Self, usize, u8) -> bool) -> usize {
        let c = code(self.to_move);
        let mut k = self.n_empty;
        while k > 0 {
            let i = rng.below(k as u32) as usize;
            let s = self.empties[i & SLOT_MASK] as usize & SLOT_MASK;
            if s != self.ko as usize && self.acceptable(s, c) && keep(self, s, c) {
                return s;
            }
            k -= 1;
            let last = self.empties[k & SLOT_MASK] as usize & SLOT_MASK;
            self.empties[k & SLOT_MASK] = s as u16;
            self.empties[i & SLOT_MASK] = last as u16;
            self.empty_at[s] = k as u16;
            self.empty_at[last] = i as u16;
        }
        0
    }

    /// Whether `c` may play the empty, non-ko slot `s` and it is not an own eye. Most points have
    /// an empty neighbour, which settles both questions at once.
    #[inline]
    fn acceptable(&self, s: usize, c: u8) -> bool {
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
    fn own_diagonals_pass(&self, s: usize, c: u8) -> bool {
        let w = self.w;
        let own = [s - w - 1, s - w + 1, s + w - 1, s + w + 1]
            .iter()
            .filter(|&&q| self.colour[q & SLOT_MASK] == c)
            .count();
        own + self.virtual_diagonals[s] as usize >= 2
    }

    /// Plays the legal slot `s` (0 for a pass) for the side to move.
    #[inline]
    fn play_slot(&mut self, s: usize) {
        if s == 0 {
            self.ko = 0;
        } else {
            self.place(s);
        }
        self.to_move = self.to_move.opponent();
    }

    /// Area score (stones plus empty regions bordered by one colour only) on the mailbox, as
    /// Black's points and White's.
    fn area(&self) -> [u32; 2] {
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

/// A reusable playout runner for one geometry, from the empty board.
#[derive(Clone, Debug)]
pub struct Playout {
    config: PlayoutConfig,
    start: PlayoutBoard,
    board: PlayoutBoard,
}

impl Playout {
    /// A runner for playouts from the empty board of `geometry`.
    #[must_use]
    pub fn new(geometry: Geometry, config: PlayoutConfig) -> Playout {
        let start = PlayoutBoard::new(geometry);
        Playout {
            config,
            board: start.clone(),
            start,
        }
    }

    /// The move cap in force.
    #[must_use]
    pub fn max_moves(&self) -> u32 {
        self.config
            .max_moves
            .unwrap_or(3 * self.start.geometry.area() as u32 + 64)
    }

    /// Plays one game to the end.
    pub fn run(&mut self, rng: &mut Rng) -> PlayoutResult {
        self.run_observed(rng, |_, _| {})
    }

    /// Plays one game to the end, calling `observe(board, move)` before every move (pass included)
    /// with the board the move is about to be played on.
    pub fn run_observed(
        &mut self,
        rng: &mut Rng,
        mut observe: impl FnMut(&PlayoutBoard, Move),
    ) -> PlayoutResult {
        self.board.reset_from(&self.start);
        let cap = self.max_moves();
        let mut moves = 0;
        let mut passes = 0;
        while passes < 2 && moves < cap {
            let s = self.board.pick(rng);
            let mv = match s {
                0 => Move::Pass,
                s => Move::Play(self.board.point(s)),
            };
            observe(&self.board, mv);
            passes = if s == 0 { passes + 1 } else { 0 };
            self.board.play_slot(s);
            moves += 1;
        }
        PlayoutResult {
            score: self.board.area_score(self.config.komi),
            moves,
            capped: passes < 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_end_and_replay() {
        for (rows, cols) in [(1, 1), (1, 5), (2, 2), (5, 5), (9, 9), (4, 7)] {
            let g = Geometry::new(rows, cols).unwrap();
            let mut playout = Playout::new(g, PlayoutConfig::default());
            for seed in 0..20 {
                let a = playout.run(&mut Rng::new(seed));
                assert_eq!(a, playout.run(&mut Rng::new(seed)));
                assert!(a.moves <= playout.max_moves());
            }
        }
    }

    fn from_diagram(diagram: &str, to_move: Color) -> PlayoutBoard {
        let mut setup: crate::Setup = diagram.parse().unwrap();
        setup.to_move = to_move;
        let board = crate::Board::from_setup(setup, crate::Rules::STANDARD).unwrap();
        crate::mcts::playout_board(&board)
    }

    #[test]
    fn tactical_replies() {
        // White's last stone C3 is in atari: Black takes it at D3.
        let mut b = from_diagram(".....\n..X..\n.XO..\n..X..\n.....\n", Color::Black);
        let mv = b.tactical_move(&mut Rng::new(1), Some(Point::new(2, 2)));
        assert_eq!(mv, Move::Play(Point::new(2, 3)));
        // White's last stone B2 left Black's A1-A2 with one liberty, A3, and no white chain next
        // to them is in atari: Black extends at A3, which has two empty neighbours.
        let mut b = from_diagram(".....\n.....\n.....\nXO...\nXO...\n", Color::Black);
        let mv = b.tactical_move(&mut Rng::new(1), Some(Point::new(3, 1)));
        assert_eq!(mv, Move::Play(Point::new(2, 0)));
    }

    /// The 3x3 window of `p` read from the stone bitboards (the slow reference of `window`).
    fn window_naive(b: &PlayoutBoard, p: Point) -> u16 {
        let g = *b.geometry();
        let stones = [b.stones(Color::Black), b.stones(Color::White)];
        let mut key = 0u16;
        for (i, &(dr, dc)) in crate::pattern3::NEIGHBOUR_ORDER.iter().enumerate() {
            let (r, c) = (p.row() as i32 + dr, p.col() as i32 + dc);
            let code = if r < 0 || c < 0 || r >= g.rows() as i32 || c >= g.cols() as i32 {
                3
            } else {
                let q = Point::new(r as usize, c as usize);
                if stones[0].contains(q) {
                    1
                } else if stones[1].contains(q) {
                    2
                } else {
                    0
                }
            };
            key |= code << (2 * i);
        }
        key
    }

    #[test]
    fn pattern_replies_match_the_reference() {
        // Along random policy playouts on 9x9 and 7x5: every window equals the slow one, and the
        // pattern reply to the last stone is one of the points around it that the naive matcher
        // accepts and the side may play; there is one whenever such a point exists.
        for (rows, cols) in [(9, 9), (7, 5)] {
            let g = Geometry::new(rows, cols).unwrap();
            let mut rng = Rng::new(11);
            let (mut replies, mut checked) = (0, 0);
            for _ in 0..40 {
                let mut b = PlayoutBoard::new(g);
                let (mut passes, mut moves, mut last) = (0, 0, None::<Point>);
                while passes < 2 && moves < 3 * g.area() {
                    if let Some(l) = last {
                        let ls = b.slot(l);
                        let c = code(b.to_move);
                        let allowed: Vec<usize> = b
                            .around(ls)
                            .into_iter()
                            .filter(|&s| {
                                b.colour[s] == EMPTY
                                    && s != b.ko as usize
                                    && crate::pattern3::matches_naive(window_naive(&b, b.point(s)))
                                    && b.acceptable(s, c)
                                    && !b.self_atari(s, c)
                            })
                            .collect();
                        for s in b.around(ls) {
                            if b.colour[s] == EMPTY {
                                assert_eq!(b.window(s), window_naive(&b, b.point(s)));
                            }
                        }
                        let reply = b.pattern_reply(&mut Rng::new(moves as u64), ls);
                        assert_eq!(reply.is_some(), !allowed.is_empty());
                        if let Some(s) = reply {
                            assert!(allowed.contains(&s));
                            replies += 1;
                        }
                        checked += 1;
                    }
                    let mv = b.policy_move(&mut rng, last);
                    b.play(mv);
                    (passes, last) = match mv {
                        Move::Pass => (passes + 1, None),
                        Move::Play(p) => (0, Some(p)),
                    };
                    moves += 1;
                }
            }
            assert!(checked > 1000 && replies > 100, "{checked} {replies}");
        }
    }

    #[test]
    fn move_features_on_diagrams() {
        let at = |diagram: &str, r, c| {
            from_diagram(diagram, Color::Black).move_features(Point::new(r, c))
        };
        // White C3 is in atari: D3 takes it.
        let f = at(".....\n..X..\n.XO..\n..X..\n.....\n", 2, 3);
        assert_eq!(f.captures, 1);
        assert!(!f.self_atari && !f.saves);
        // Black A1-A2 is in atari: A3 saves it (two liberties after).
        let f = at(".....\n.....\n.....\nXO...\nXO...\n", 2, 0);
        assert!(f.saves && !f.self_atari);
        assert_eq!(f.captures, 0);
        // B1 joins A1 into a two-stone chain with one liberty, B2, capturing nothing.
        let f = at(".....\n.....\n.....\nO....\nX.O..\n", 4, 1);
        assert!(f.self_atari && !f.saves);
        // An enclosing hane shape at C3, and nothing at all far away.
        let d = ".....\n.XOX.\n.....\n.....\n.....\n";
        assert!(at(d, 2, 2).pattern);
        assert_eq!(at(d, 4, 4), MoveFeatures::default());
    }

    #[test]
    fn tactical_playouts_keep_a_two_eyed_group() {
        // White's group on the upper right has eyes at H8 and J9. J9 is not a rule-2/4 eye (its
        // diagonal H8 is empty), so uniform playouts let White fill it and Black then capture the
        // whole group at H8; tactical ones refuse that self-atari.
        let start = from_diagram(
            "..XX.XOO.\n..X..XO.O\n...XXOOOO\nXXXOXXXXO\nXOOOX..XX\n\
             O.OXX..OX\n.OOOX..O.\n.OXXX.X.O\n.OOOX...X\n",
            Color::Black,
        );
        let group = Point::new(2, 6);
        let mut rng = Rng::new(3);
        let (mut uniform_lost, mut tactical_lost) = (0, 0);
        for i in 0..200 {
            for tactical in [false, true] {
                let mut b = start.clone();
                if i % 2 == 1 {
                    b.play(Move::Pass);
                }
                let (mut passes, mut moves, mut last) = (0, 0, None);
                while passes < 2 && moves < 400 {
                    let mv = if tactical {
                        b.tactical_move(&mut rng, last)
                    } else {
                        b.random_move(&mut rng)
                    };
                    b.play(mv);
                    (passes, last) = match mv {
                        Move::Pass => (passes + 1, None),
                        Move::Play(p) => (0, Some(p)),
                    };
                    moves += 1;
                }
                if !b.stones(Color::White).contains(group) {
                    if tactical {
                        tactical_lost += 1;
                    } else {
                        uniform_lost += 1;
                    }
                }
            }
        }
        assert_eq!(tactical_lost, 0);
        assert!(uniform_lost > 20, "{uniform_lost}");
    }

    #[test]
    fn virtual_diagonals_on_thin_boards() {
        let b = PlayoutBoard::new(Geometry::new(1, 1).unwrap());
        assert!(b.is_eye_of(Point::new(0, 0), Color::Black));
        let b = PlayoutBoard::new(Geometry::new(1, 3).unwrap());
        assert_eq!(b.virtual_diagonals[b.slot(Point::new(0, 0))], 2);
        assert_eq!(b.virtual_diagonals[b.slot(Point::new(0, 1))], 0);
    }
}
