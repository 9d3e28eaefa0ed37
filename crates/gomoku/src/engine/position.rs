//! The engine's position: a [`Board`] plus, for every empty cell, its [`Class`] in each direction
//! for both colours, the cell's value to each colour, the sets of cells that make fives and fours,
//! and a Zobrist hash, all kept up to date on make/unmake by re-reading only the cells within the
//! rule's reach on the four lines through the move (about 36 table lookups).
//!
//! The evaluation is the sum of the cell values of the side to move minus the opponent's: a cell's
//! value is what a stone there would make, summed over its four directions, with a bonus when two
//! directions make threats at once.

use crate::engine::cells::{self, Cell, FIVE, FOUR, OPEN_FOUR, THREE};
use crate::engine::classes::{Class, ClassTable};
use crate::engine::net::{self, NetWeights, Sums, MAX_UNITS};
use crate::engine::threats;
use crate::engine::weights::Source;
use crate::tables::codes::PAD;
use crate::tables::geometry::Geometry;
use crate::tables::pattern::window_key;
use crate::tables::zobrist;
use crate::{Bitboard, Board, Color, Direction, Point, Rule};

/// Cells of one colour by what a stone there makes (each set holds empty cells only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassSets {
    /// A five.
    pub five: Bitboard,
    /// A straight four (two five points), no five.
    pub open_four: Bitboard,
    /// At least a four (one five point) in some direction, no five: fours and straight fours.
    pub four: Bitboard,
    /// An open three in some direction (a further stone makes a straight four).
    pub three: Bitboard,
}

impl ClassSets {
    /// Flips `q`'s membership of each set whose flag ([`FIVE`], [`OPEN_FOUR`], [`FOUR`],
    /// [`THREE`]) is in `changed`: the sets follow the cells' flags, so a flag that changed is a
    /// membership that changed.
    #[inline]
    fn flip(&mut self, q: Point, changed: u8) {
        let bit = 1 << q.x;
        let y = usize::from(q.y);
        for (bits, flag) in [
            (&mut self.five, FIVE),
            (&mut self.open_four, OPEN_FOUR),
            (&mut self.four, FOUR),
            (&mut self.three, THREE),
        ] {
            if changed & flag != 0 {
                bits.rows[y] ^= bit;
            }
        }
    }
}

/// A position for the search.
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    table: &'static ClassTable,
    geo: &'static Geometry,
    /// Per cell (`y * size + x`), per direction: white class | black class << 4 (0 when occupied).
    classes: Vec<[u8; 4]>,
    /// Per colour: the cell table its cells read ([`cells::table_of`]; the same table but under
    /// renju, where each colour has evaluation weights of its own).
    cells: [&'static [Cell; cells::ENTRIES]; 2],
    /// Per cell, per colour: the cell's [`cells::table`] index (0 when occupied).
    entries: Vec<[u16; 2]>,
    /// Per cell, per colour: the cell's entry of the table (`entries`' entry, kept here so that a
    /// refresh and the move order read no table; all 0 when occupied).
    values: Vec<[Cell; 2]>,
    /// Per colour: the sum of the values of all empty cells.
    totals: [i64; 2],
    /// Per colour: the sums of the cells' evaluation weights, [to move, waiting].
    weights: [[i64; 2]; 2],
    class_sets: [ClassSets; 2],
    /// Per colour: how many empty cells have each threat kind ([`threats::Kind`] less one).
    kinds: [[u16; threats::KINDS]; 2],
    /// Per side to move: the threat-mask weights ([`threats::table_for`]).
    threat_weights: [&'static [i32]; 2],
    /// The evaluation's style ([`Position::set_style`]): the colour whose cells weigh
    /// `100 + style` percent and whose opponent's weigh `100 - style`; 0 for none.
    style: (Color, i64),
    /// The evaluation's tempo ([`Position::set_tempo`]): the side to move's cells weigh
    /// `100 + tempo` percent and the waiting side's `100 - tempo`; 0 for none.
    tempo: i64,
    /// Whether the cell sums are averaged with those before the last quick move
    /// ([`Position::set_smooth`]).
    smooth: bool,
    hash: u64,
    /// The Zobrist hash of each colour's stones alone (their XOR is `hash`).
    colour_hash: [u64; 2],
    /// The moves played, in order.
    moves: Vec<(Point, Color)>,
    /// Moves on the board made by [`Position::make_quick`] (the board's threat set is that of
    /// the position before them).
    quick: u32,
    /// Per quick make: what it changed, for [`Position::unmake_quick`] to put back.
    undo: Vec<Undo>,
    /// The cells the quick makes changed, as they were before (each [`Undo`] owns those from its
    /// `cells_from` on).
    saved: Vec<SavedCell>,
    /// The evaluation's net ([`super::net`]), installed when the position was made (freestyle
    /// and exactly five only), and its sums: per colour, the sum of its cells' images as the
    /// side to move, then as the side waiting ([`NetWeights::add`]).
    net: Option<&'static NetWeights>,
    /// Whether the net has joint vectors ([`NetWeights::has_joint`]).
    joint: bool,
    sums: [Sums; 2],
    /// The sums before each quick make, while a net is installed: the parts in use (per
    /// colour, to move then waiting, `units` numbers each), one make after another.
    sums_undo: Vec<i32>,
}

/// A cell's threat levels for one colour ([`level`]).
pub const LEVELS: usize = 11;

/// The joint levels of a cell ([`Position::joint_levels`]).
pub const JOINT_LEVELS: usize = LEVELS * LEVELS;

/// A cell's joint levels from its entries for both colours: with Black to move (Black's level
/// times [`LEVELS`] plus White's), then with White to move.
#[inline]
fn joint_of(values: &[Cell; 2]) -> [usize; 2] {
    joint_pair(values.map(|v| level_of(v.combination)))
}

/// The joint levels of a cell whose levels are `[Black's, White's]`: with Black to move, then
/// with White to move.
#[inline]
fn joint_pair([b, w]: [u8; 2]) -> [usize; 2] {
    let (b, w) = (usize::from(b), usize::from(w));
    [b * LEVELS + w, w * LEVELS + b]
}

/// The [`level`] of a cell of combination `combination` (looked up: it depends on the
/// combination alone).
#[inline]
fn level_of(combination: u16) -> u8 {
    static TABLE: std::sync::OnceLock<[u8; cells::COMBINATIONS]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0; cells::COMBINATIONS];
        for (k, ks) in cells::combinations().iter().enumerate() {
            t[k] = level(&cells::reference_cell(*ks)) as u8;
        }
        t
    })[usize::from(combination)]
}

/// A cell's threat level for one colour, 0..11: a straight four or two fours (or a five) 10,
/// a four and an open three 9, a four 8, two open threes 7, an open three 6, else by its threat
/// value (the sum of its directions' [`cells::CLASS_VALUE`]s): 0, 1-3, 4-9, 10-19, 20-39 and 40
/// or more.
#[inline]
fn level(cell: &cells::Cell) -> usize {
    let f = cell.flags;
    if f & (cells::FIVE | cells::OPEN_FOUR) != 0 {
        10
    } else if f & cells::FOUR != 0 {
        if f & cells::THREE != 0 {
            9
        } else {
            8
        }
    } else if f & cells::THREE != 0 {
        if i32::from(cell.value) >= cells::DOUBLE_THREAT {
            7
        } else {
            6
        }
    } else {
        match cell.value {
            i16::MIN..=0 => 0,
            1..=3 => 1,
            4..=9 => 2,
            10..=19 => 3,
            20..=39 => 4,
            _ => 5,
        }
    }
}

/// The sums a quick make changes, as they were before it, and where its saved cells start (the
/// class sets are put back cell by cell, from the flags of the saved values).
#[derive(Clone, Copy, Debug)]
struct Undo {
    totals: [i64; 2],
    weights: [[i64; 2]; 2],
    kinds: [[u16; threats::KINDS]; 2],
    cells_from: usize,
}

/// Renju: what Black's forbidden cells add to the evaluation's sums, which leaves them out.
#[derive(Clone, Copy, Debug, Default)]
struct FoulSummary {
    /// The sums of their to-move and waiting weights.
    to_move: i64,
    waiting: i64,
    /// How many of them have each threat kind ([`threats::Kind`] less one).
    kinds: [u16; threats::KINDS],
}

/// One cell's state before a quick make changed it.
#[derive(Clone, Copy, Debug)]
struct SavedCell {
    point: Point,
    index: u32,
    classes: [u8; 4],
    entries: [u16; 2],
    values: [Cell; 2],
}

impl std::fmt::Debug for ClassTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ClassTable({})", self.rule())
    }
}

impl Position {
    /// An empty position of side `size` (5..=20; panics otherwise: sizes are checked by callers).
    #[must_use]
    pub fn new(size: usize, rule: Rule) -> Position {
        let board = Board::new(size, rule).expect("a size in 5..=20");
        let mut pos = Position {
            table: ClassTable::get(rule),
            geo: board.geometry(),
            board,
            classes: vec![[0; 4]; size * size],
            cells: Color::ALL.map(|c| cells::table_of(Source::of(rule, c))),
            entries: vec![[0; 2]; size * size],
            values: vec![[Cell::default(); 2]; size * size],
            totals: [0; 2],
            weights: [[0; 2]; 2],
            class_sets: [ClassSets::default(); 2],
            kinds: [[0; threats::KINDS]; 2],
            threat_weights: Color::ALL.map(|c| threats::table_for(rule, c)),
            style: (Color::Black, 0),
            tempo: 0,
            smooth: false,
            hash: 0,
            colour_hash: [0; 2],
            moves: Vec::new(),
            quick: 0,
            undo: Vec::new(),
            saved: Vec::new(),
            net: net::installed(rule),
            joint: net::installed(rule).is_some_and(NetWeights::has_joint),
            sums: [[0; 2 * MAX_UNITS]; 2],
            sums_undo: Vec::new(),
        };
        pos.rescan();
        pos
    }

    /// Recomputes every cell's classes from scratch.
    fn rescan(&mut self) {
        let n = self.size();
        for y in 0..n as u8 {
            for x in 0..n as u8 {
                let p = Point::new(x, y);
                let i = self.index(p);
                for d in Direction::ALL {
                    self.classes[i][d.index()] = self.read_class(p, d);
                }
                self.refresh(p);
            }
        }
    }

    #[inline]
    fn index(&self, p: Point) -> usize {
        p.y as usize * self.geo.size + p.x as usize
    }

    /// The side of the board.
    #[inline]
    #[must_use]
    pub fn size(&self) -> usize {
        self.geo.size
    }

    /// The rule.
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.board.rule()
    }

    /// The underlying board (line codes, stones).
    #[must_use]
    pub fn board(&self) -> &Board {
        debug_assert_eq!(self.quick, 0, "the board read while quick moves are on it");
        &self.board
    }

    /// The stone on `p`.
    #[inline]
    #[must_use]
    pub fn stone(&self, p: Point) -> Option<Color> {
        self.board.stone(p)
    }

    /// The Zobrist hash of the stones.
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash of `c`'s stones alone (the keys of [`Position::hash`]).
    #[inline]
    #[must_use]
    pub fn colour_hash(&self, c: Color) -> u64 {
        self.colour_hash[c.index()]
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[(Point, Color)] {
        &self.moves
    }

    /// The number of stones on the board.
    #[must_use]
    pub fn stone_count(&self) -> usize {
        self.moves.len()
    }

    /// The colour whose turn it is by the stone counts (Black when they are equal).
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        let black = self.board.stones(Color::Black).count();
        let white = self.board.stones(Color::White).count();
        if black <= white {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The cells of colour `c` by what a stone there makes.
    #[inline]
    #[must_use]
    pub fn class_sets(&self, c: Color) -> &ClassSets {
        &self.class_sets[c.index()]
    }

    /// The class of `p` for `c` in direction `d` (`Dead` when occupied).
    #[inline]
    #[must_use]
    pub fn class(&self, p: Point, d: Direction, c: Color) -> Class {
        Class::from_bits(self.classes[self.index(p)][d.index()] >> (4 * c.index()) & 0xF)
    }

    /// The value of the empty cell `p` to colour `c` (0 when occupied).
    #[inline]
    #[must_use]
    pub fn value(&self, p: Point, c: Color) -> i32 {
        i32::from(self.values[self.index(p)][c.index()].value)
    }

    /// The move-order score of the empty cell `p` for colour `c` ([`super::weights::ORDER_FILE`]):
    /// what its own lines say plus what the opponent's say, in hundredths of a logit.
    #[inline]
    #[must_use]
    pub fn order(&self, p: Point, c: Color) -> i32 {
        let e = &self.values[self.index(p)];
        i32::from(e[c.index()].attack) + i32::from(e[(!c).index()].defend)
    }

    /// Whether some stone lies within two cells of `p`.
    #[inline]
    #[must_use]
    pub fn is_near(&self, p: Point) -> bool {
        self.stone(p).is_some() || self.candidates().contains(p)
    }

    /// The empty cells with some stone within two cells.
    #[inline]
    #[must_use]
    pub fn candidates(&self) -> Bitboard {
        // Computed when asked (at the nodes that pick moves) rather than counted on every move
        // (most moves are made at leaves): every row's stones spread two columns each way, then
        // each row takes the spread of the rows within two.
        let (black, white) = (
            self.board.stones(Color::Black),
            self.board.stones(Color::White),
        );
        let n = self.size();
        let full = (1u32 << n) - 1;
        let mut spread = [0u32; crate::MAX_SIZE + 4];
        for y in 0..n {
            let r = black.rows[y] | white.rows[y];
            spread[y + 2] = (r | r << 1 | r << 2 | r >> 1 | r >> 2) & full;
        }
        let mut out = Bitboard::EMPTY;
        for y in 0..n {
            let near = spread[y] | spread[y + 1] | spread[y + 2] | spread[y + 3] | spread[y + 4];
            out.rows[y] = near & !(black.rows[y] | white.rows[y]);
        }
        out
    }

    /// The static evaluation for the side to move `s`: the weights of its cells as the side to
    /// move minus those of the opponent's cells as the side waiting ([`super::weights`]).
    #[inline]
    #[must_use]
    pub fn evaluate(&self, s: Color) -> i32 {
        let (mine, theirs) = (self.weights[s.index()][0], self.weights[(!s).index()][1]);
        // Smoothing (off but for experiments) reads the sums before the last move, from `s`'s
        // side: `s` was waiting there.
        let plain = self.style.1 == 0 && self.tempo == 0;
        let before = if self.smooth && plain {
            self.undo
                .last()
                .map(|u| u.weights[s.index()][1] - u.weights[(!s).index()][0])
        } else {
            None
        };
        let mut v = if let Some(before) = before {
            (mine - theirs + before) / 2
        } else if plain {
            mine - theirs
        } else {
            let c = self.tempo
                + if s == self.style.0 {
                    self.style.1
                } else {
                    -self.style.1
                };
            (mine * (100 + c) - theirs * (100 - c)) / 100
        };
        let (mask, net_term) = if self.has_fouls(Color::Black) {
            // Renju: Black's forbidden cells are no threats of Black's, and weigh nothing.
            let mut black = self.net.map(|_| self.sums[Color::Black.index()]);
            let fouls = self.black_fouls_summary(black.as_mut());
            v -= if s == Color::Black {
                fouls.to_move
            } else {
                -fouls.waiting
            };
            let net_term = match (self.net, black) {
                (Some(net), Some(black)) => self.net_value_with(net, s, &black),
                _ => 0,
            };
            (self.mask_without(s, &fouls.kinds), net_term)
        } else {
            (self.threat_mask_counted(s), self.net_value(s))
        };
        v += i64::from(self.threat_weights[s.index()][mask]);
        (v + net_term) as i32
    }

    /// [`Position::evaluate`] without the net's term: the linear evaluation, the tuner's model.
    #[must_use]
    pub fn evaluate_linear(&self, s: Color) -> i32 {
        (i64::from(self.evaluate(s)) - self.net_value(s)) as i32
    }

    /// What the net ([`super::net`]) adds to the evaluation for the side to move `s` (0 without
    /// one): [`Position::evaluate`] less this is the linear evaluation, the tuner's model. Under
    /// renju Black's forbidden cells are left out of Black's sums, as the tuner leaves them out.
    #[inline]
    #[must_use]
    pub fn net_value(&self, s: Color) -> i64 {
        match self.net {
            Some(net) if self.has_fouls(Color::Black) => {
                let mut black = self.sums[Color::Black.index()];
                self.black_fouls_summary(Some(&mut black));
                self.net_value_with(net, s, &black)
            }
            Some(net) => net.value(&self.sums[s.index()], &self.sums[(!s).index()]),
            None => 0,
        }
    }

    /// The net's term for the side to move `s` with `black` for Black's sums.
    #[inline]
    fn net_value_with(&self, net: &NetWeights, s: Color, black: &Sums) -> i64 {
        let white = &self.sums[Color::White.index()];
        if s == Color::Black {
            net.value(black, white)
        } else {
            net.value(white, black)
        }
    }

    /// Averages the cell sums of the evaluation with their values before the last quick move
    /// (for experiments; `pbrain-stonelab --knobs smooth=1`), as Rapfi averages its pattern
    /// value over the last two plies: the side to move's edge of a tempo is halved. The threat
    /// term stays the position's own; without a quick move on the board, or with a style, the
    /// evaluation is the plain one.
    pub fn set_smooth(&mut self, on: bool) {
        self.smooth = on;
    }

    /// Sets the evaluation's style (for experiments; `pbrain-stonelab --knobs style=N`): the
    /// cells of `colour` (the searching side) weigh `100 + percent` percent of their weights and
    /// the opponent's `100 - percent`, whichever side is to move; a positive percent plays for
    /// its own shapes more than against the opponent's. 0 (the default) is the plain evaluation.
    pub fn set_style(&mut self, colour: Color, percent: i32) {
        self.style = (colour, i64::from(percent));
    }

    /// Sets the evaluation's tempo (for experiments; `pbrain-stonelab --knobs tempo=N`): the
    /// side to move's cells weigh `100 + percent` percent of their weights and the waiting side's
    /// `100 - percent` (added to a style's percent); a positive percent values the move in hand
    /// more. 0 (the default) is the plain evaluation.
    pub fn set_tempo(&mut self, percent: i32) {
        self.tempo = i64::from(percent);
    }

    /// The threat mask for the side to move `s` ([`threats::mask`]) that the evaluation weighs:
    /// under renju Black's forbidden cells count for no threat.
    #[must_use]
    pub fn threat_mask(&self, s: Color) -> usize {
        if self.has_fouls(Color::Black) {
            self.mask_without(s, &self.black_fouls_summary(None).kinds)
        } else {
            self.threat_mask_counted(s)
        }
    }

    /// The threat mask of every empty cell's kind.
    #[inline]
    fn threat_mask_counted(&self, s: Color) -> usize {
        threats::mask(&self.kinds[s.index()], &self.kinds[(!s).index()])
    }

    /// The threat mask with Black's cells of `fouls` kinds (counts) left out.
    fn mask_without(&self, s: Color, fouls: &[u16; threats::KINDS]) -> usize {
        let mut black = self.kinds[Color::Black.index()];
        for (k, n) in black.iter_mut().zip(fouls) {
            *k -= n;
        }
        let white = &self.kinds[Color::White.index()];
        match s {
            Color::Black => threats::mask(&black, white),
            Color::White => threats::mask(white, &black),
        }
    }

    /// Renju: the evaluation weights and threat kinds of Black's forbidden cells, among the cells
    /// where Black makes a four or a three (a forbidden cell makes two of them, or an overline,
    /// whose cells carry no threat weight); with `black`, their images are taken out of those
    /// sums of the net's.
    fn black_fouls_summary(&self, mut black: Option<&mut Sums>) -> FoulSummary {
        let mut out = FoulSummary::default();
        self.for_each_black_foul(|p| {
            let cell = self.values[self.index(p)][Color::Black.index()];
            if let (Some(net), Some(sums)) = (self.net, black.as_deref_mut()) {
                net.add(sums, Color::Black, usize::from(cell.combination), -1);
            }
            out.to_move += i64::from(cell.to_move);
            out.waiting += i64::from(cell.waiting);
            if cell.kind != 0 {
                out.kinds[usize::from(cell.kind) - 1] += 1;
            }
        });
        out
    }

    /// Renju: calls `f` on each of Black's forbidden cells that [`Position::evaluate`] leaves
    /// out, those where Black makes a four or a three and no five.
    fn for_each_black_foul(&self, mut f: impl FnMut(Point)) {
        let sets = &self.class_sets[Color::Black.index()];
        for p in (sets.four | sets.three).iter() {
            if !sets.five.contains(p) && crate::renju::foul(&self.board, p).is_some() {
                f(p);
            }
        }
    }

    /// [`Position::for_each_black_foul`]'s cells as indices when `c` has forbidden cells, else
    /// none.
    fn foul_cells(&self, c: Color) -> Vec<usize> {
        let mut out = Vec::new();
        if self.has_fouls(c) {
            self.for_each_black_foul(|p| out.push(self.index(p)));
        }
        out
    }

    /// The class combinations of colour `c`'s cells that [`Position::evaluate`] adds up: every
    /// empty cell's ([`cells::combinations`]) but, under renju, Black's forbidden cells (the
    /// tuner's features).
    pub fn evaluated_combinations(&self, c: Color) -> impl Iterator<Item = usize> + '_ {
        let fouls = self.foul_cells(c);
        self.entries
            .iter()
            .zip(&self.values)
            .enumerate()
            .filter(move |(i, (e, _))| e[c.index()] != 0 && !fouls.contains(i))
            .map(move |(_, (_, v))| usize::from(v[c.index()].combination))
    }

    /// Each empty cell's joint level with `s` to move ([`JOINT_LEVELS`]): its threat level for
    /// `s` times [`LEVELS`] plus its level for the other side, for the cells where either level
    /// is not 0 (the net's joint inputs, since session 64: where both sides' threats share a
    /// cell).
    pub fn joint_levels(&self, s: Color) -> impl Iterator<Item = usize> + '_ {
        self.values.iter().filter_map(move |v| {
            let j = joint_of(v)[s.index()];
            (j != 0).then_some(j)
        })
    }

    /// Each cell's class combination for colour `c` ([`cells::combinations`]), for empty cells
    /// only: what the evaluation adds up (the tuner's features).
    pub fn combinations(&self, c: Color) -> impl Iterator<Item = usize> + '_ {
        self.entries
            .iter()
            .zip(&self.values)
            .filter(move |(e, _)| e[c.index()] != 0)
            .map(move |(_, v)| usize::from(v[c.index()].combination))
    }

    /// Whether `c` may not play the empty cell `p`: under renju, Black's double-three, double-four
    /// and overline ([`crate::renju`]); never under the other rules.
    #[inline]
    #[must_use]
    pub fn is_foul(&self, p: Point, c: Color) -> bool {
        self.board.rule() == Rule::Renju
            && c == Color::Black
            && crate::renju::foul(&self.board, p).is_some()
    }

    /// Whether `c` has forbidden points at all (renju, Black).
    #[inline]
    #[must_use]
    pub fn has_fouls(&self, c: Color) -> bool {
        self.board.rule() == Rule::Renju && c == Color::Black
    }

    /// Whether a stone of `c` on the empty cell `p` completes a five.
    #[inline]
    #[must_use]
    pub fn makes_five(&self, p: Point, c: Color) -> bool {
        self.class_sets[c.index()].five.contains(p)
    }

    /// Plays `c` on the empty on-board point `p`.
    pub fn make(&mut self, p: Point, c: Color) {
        debug_assert!(self.stone(p).is_none());
        debug_assert_eq!(self.quick, 0, "a full make over quick ones");
        self.board.make(p, c);
        self.moves.push((p, c));
        self.hash ^= zobrist::key(p, c);
        self.colour_hash[c.index()] ^= zobrist::key(p, c);
        self.update_around(p, false);
    }

    /// [`Position::make`] for the search tree: everything the engine reads is kept, but not the
    /// board's threat set (for the threat-space solver, which never runs inside the tree: its
    /// update reads the 41 MiB line table, a cache miss a direction). Take the move back with
    /// [`Position::unmake_quick`] before the board is read ([`Position::board`] checks this in
    /// debug builds).
    #[inline]
    pub fn make_quick(&mut self, p: Point, c: Color) {
        debug_assert!(self.stone(p).is_none());
        self.board.probe_make(p, c);
        self.quick += 1;
        self.moves.push((p, c));
        self.hash ^= zobrist::key(p, c);
        self.colour_hash[c.index()] ^= zobrist::key(p, c);
        self.undo.push(Undo {
            totals: self.totals,
            weights: self.weights,
            kinds: self.kinds,
            cells_from: self.saved.len(),
        });
        if let Some(net) = self.net {
            let w = 2 * net.units;
            for sums in &self.sums {
                self.sums_undo.extend_from_slice(&sums[..w]);
            }
        }
        self.update_around(p, true);
    }

    /// Takes back a [`Position::make_quick`]: the cells and sums it changed are put back as they
    /// were (no table is read).
    #[inline]
    pub fn unmake_quick(&mut self) {
        let (p, c) = self.moves.pop().expect("unmake with no move played");
        debug_assert!(self.quick > 0, "unmake_quick of a full make");
        self.quick -= 1;
        self.board.probe_unmake(p, c);
        self.hash ^= zobrist::key(p, c);
        self.colour_hash[c.index()] ^= zobrist::key(p, c);
        let undo = self.undo.pop().expect("a quick make's undo");
        // Newest first (each cell is saved once a make, so the order is only for safety).
        for saved in self.saved.drain(undo.cells_from..).rev() {
            let i = saved.index as usize;
            for c in Color::ALL {
                let now = self.values[i][c.index()].flags;
                let changed = now ^ saved.values[c.index()].flags;
                if changed != 0 {
                    self.class_sets[c.index()].flip(saved.point, changed);
                }
            }
            self.classes[i] = saved.classes;
            self.entries[i] = saved.entries;
            self.values[i] = saved.values;
        }
        self.totals = undo.totals;
        self.weights = undo.weights;
        self.kinds = undo.kinds;
        if let Some(net) = self.net {
            let w = 2 * net.units;
            let from = self
                .sums_undo
                .len()
                .checked_sub(2 * w)
                .expect("the net's sums before a quick make");
            for (k, sums) in self.sums.iter_mut().enumerate() {
                sums[..w].copy_from_slice(&self.sums_undo[from + w * k..][..w]);
            }
            self.sums_undo.truncate(from);
        }
    }

    /// Takes back the last move.
    pub fn unmake(&mut self) {
        debug_assert_eq!(self.quick, 0, "unmake of a quick make");
        let (p, c) = self.moves.pop().expect("unmake with no move played");
        self.board.unmake(p);
        self.hash ^= zobrist::key(p, c);
        self.colour_hash[c.index()] ^= zobrist::key(p, c);
        self.update_around(p, false);
    }

    /// The class byte of `p` in direction `d`, read from the line string (0 when occupied).
    #[inline]
    fn read_class(&self, p: Point, d: Direction) -> u8 {
        if self.stone(p).is_some() {
            return 0;
        }
        let r = self.geo.line_ref(p, d);
        let string = self.board.codes().string(r.id as usize);
        self.table
            .lookup(window_key(string, u32::from(r.t), PAD, self.rule()))
    }

    /// Re-reads the cells within reach of `p` on its four lines; `save` keeps each changed cell's
    /// state first (a quick make's).
    fn update_around(&mut self, p: Point, save: bool) {
        let rule = self.rule();
        let reach = rule.reach();
        let (geo, table) = (self.geo, self.table);
        // A stone placed on `p`: its cell's classes are all 0, set once here (a stone taken off
        // `p` has its classes read on each line below).
        let placed = self.stone(p).is_some();
        if placed {
            let i = self.index(p);
            if save {
                self.save_cell(p, i);
            }
            self.classes[i] = [0; 4];
            self.refresh_with(p, 0);
        }
        for d in Direction::ALL {
            let r = geo.line_ref(p, d);
            let id = r.id as usize;
            let t = r.t as usize;
            // Every cell re-read lies on this line: its class comes from the one line string
            // ([`Position::read_class`] without finding the line again).
            let string = self.board.codes().string(id);
            let last = (t + reach).min(geo.line_len[id] as usize - 1);
            for u in t.saturating_sub(reach)..=last {
                if placed && u == t {
                    continue;
                }
                let q = geo.line_points[id][u];
                let at = u as u32;
                let new = if string >> (2 * (at + PAD)) & 3 != 0 {
                    0
                } else {
                    table.lookup(window_key(string, at, PAD, rule))
                };
                let i = self.index(q);
                // The four bytes are changed as one word in a register and passed on: a byte
                // store read back at once as a wider word stalls the load (no forwarding), and
                // that stall was a third of a move's update.
                let word = u32::from_le_bytes(self.classes[i]);
                let shift = 8 * d.index() as u32;
                // A cell emptied by the move (on `p` itself) is re-read on each line. Only a
                // quick make saves, and it places a stone: `p` was saved above.
                if (word >> shift) as u8 != new || q == p {
                    if save {
                        self.save_cell(q, i);
                    }
                    let word = (word & !(0xFF << shift)) | u32::from(new) << shift;
                    self.classes[i] = word.to_le_bytes();
                    self.refresh_with(q, word);
                }
            }
        }
    }

    /// Keeps the state of cell `q` (index `i`) for [`Position::unmake_quick`].
    #[inline]
    fn save_cell(&mut self, q: Point, i: usize) {
        self.saved.push(SavedCell {
            point: q,
            index: i as u32,
            classes: self.classes[i],
            entries: self.entries[i],
            values: self.values[i],
        });
    }

    /// Recomputes the value, weights and set memberships of one cell from its class bytes (all 0,
    /// so entry 0, worth nothing, when the cell is occupied).
    #[inline]
    fn refresh(&mut self, q: Point) {
        let word = u32::from_le_bytes(self.classes[self.index(q)]);
        self.refresh_with(q, word);
    }

    /// [`Position::refresh`] with the cell's class bytes given as one little-endian word (equal to
    /// those stored).
    #[inline]
    fn refresh_with(&mut self, q: Point, word: u32) {
        if self.joint {
            self.refresh_cell::<true>(q, word);
        } else {
            self.refresh_cell::<false>(q, word);
        }
    }

    /// [`Position::refresh_with`], keeping the net's joint vectors in the sums when `JOINT` (a
    /// copy of the code each way: the plain one, the common case, pays nothing for them).
    #[inline(always)]
    fn refresh_cell<const JOINT: bool>(&mut self, q: Point, word: u32) {
        let i = self.index(q);
        // The cell's levels for the net's joint vectors, before and after, when it has them.
        let mut levels = [[0u8; 2]; 2];
        if JOINT {
            levels[0] = self.values[i].map(|v| level_of(v.combination));
            levels[1] = levels[0];
        }
        for c in Color::ALL {
            let shift = 4 * c.index() as u32;
            let ks = [0, 1, 2, 3].map(|d| (word >> (8 * d + shift)) as u8 & 0xF);
            let e = cells::index(ks);
            let old = std::mem::replace(&mut self.entries[i][c.index()], e as u16);
            if usize::from(old) == e {
                continue;
            }
            // The entry it had is kept beside the cell: only the new one is read from the table.
            let now = self.cells[c.index()][e];
            let was = std::mem::replace(&mut self.values[i][c.index()], now);
            if JOINT {
                levels[1][c.index()] = level_of(now.combination);
            }
            self.totals[c.index()] += i64::from(now.value) - i64::from(was.value);
            let w = &mut self.weights[c.index()];
            w[0] += i64::from(now.to_move) - i64::from(was.to_move);
            w[1] += i64::from(now.waiting) - i64::from(was.waiting);
            if let Some(net) = self.net {
                let none = NetWeights::none();
                let o = if old != 0 {
                    usize::from(was.combination)
                } else {
                    none
                };
                let n = if e != 0 {
                    usize::from(now.combination)
                } else {
                    none
                };
                if o != n {
                    net.replace(&mut self.sums[c.index()], c, o, n);
                }
            }
            if was.kind != now.kind {
                let k = &mut self.kinds[c.index()];
                if was.kind != 0 {
                    k[usize::from(was.kind) - 1] -= 1;
                }
                if now.kind != 0 {
                    k[usize::from(now.kind) - 1] += 1;
                }
            }
            let changed = was.flags ^ now.flags;
            if changed != 0 {
                self.class_sets[c.index()].flip(q, changed);
            }
        }
        if let (Some(net), true) = (self.net, JOINT && levels[0] != levels[1]) {
            let [before, after] = levels.map(joint_pair);
            for (k, sums) in self.sums.iter_mut().enumerate() {
                net.replace_joint(sums, before[k], after[k]);
            }
        }
    }

    /// Uses `net` in the evaluation instead of the installed one ([`super::net::installed`],
    /// which [`Position::new`] takes), or none if it does not fit the rule
    /// ([`NetWeights::fits`]): its sums are made anew.
    pub fn set_net(&mut self, net: Option<&'static NetWeights>) {
        let rule = self.rule();
        self.net = net.filter(|n| n.fits(rule));
        self.joint = self.net.is_some_and(NetWeights::has_joint);
        self.sums = [[0; 2 * MAX_UNITS]; 2];
        self.sums_undo.clear();
        if let Some(net) = self.net {
            for i in 0..self.entries.len() {
                for c in Color::ALL {
                    let (e, v) = (self.entries[i][c.index()], self.values[i][c.index()]);
                    self.add_vectors(net, c, e, v.combination, 1);
                }
                if self.joint {
                    let joint = joint_of(&self.values[i]);
                    for (k, sums) in self.sums.iter_mut().enumerate() {
                        net.replace_joint(sums, 0, joint[k]);
                    }
                }
            }
        }
    }

    /// Adds `sign` times the net's images of combination `combination` to colour `c`'s sums,
    /// unless `entry` is 0 (an occupied cell, or one with no line at all: not evaluated).
    #[inline]
    fn add_vectors(&mut self, net: &NetWeights, c: Color, entry: u16, combination: u16, sign: i32) {
        if entry != 0 {
            net.add(&mut self.sums[c.index()], c, usize::from(combination), sign);
        }
    }

    /// Checks the incremental state against one rebuilt from scratch (for tests).
    #[must_use]
    pub fn is_consistent(&self) -> bool {
        let mut fresh = Position::new(self.size(), self.rule());
        fresh.set_net(self.net);
        for &(p, c) in &self.moves {
            fresh.board.make(p, c);
            fresh.hash ^= zobrist::key(p, c);
            fresh.colour_hash[c.index()] ^= zobrist::key(p, c);
        }
        fresh.moves = self.moves.clone();
        fresh.rescan();
        fresh.classes == self.classes
            && fresh.entries == self.entries
            && fresh.values == self.values
            && fresh.totals == self.totals
            && fresh.kinds == self.kinds
            && fresh.weights == self.weights
            && fresh.sums == self.sums
            && fresh.class_sets == self.class_sets
            && fresh.hash == self.hash
            && fresh.colour_hash == self.colour_hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renju: a cell where Black would make a double three carries no weight for Black in the
    /// evaluation; the same stones under standard rules keep it.
    #[test]
    fn renju_evaluation_leaves_out_blacks_forbidden_cells() {
        let black = [(6, 2), (6, 3), (4, 4), (5, 4)];
        let white = [(0, 0), (14, 0), (0, 14), (14, 14)];
        let mut pos = Position::new(15, Rule::Renju);
        for (b, w) in black.iter().zip(&white) {
            pos.make(Point::new(b.0, b.1), Color::Black);
            pos.make(Point::new(w.0, w.1), Color::White);
        }
        let p = Point::new(6, 4);
        assert!(pos.is_foul(p, Color::Black));
        let FoulSummary {
            to_move,
            waiting,
            kinds,
        } = pos.black_fouls_summary(None);
        assert!(kinds.iter().sum::<u16>() >= 1);
        assert!(to_move != 0 && waiting != 0, "{to_move} {waiting}");
        // The linear part (the renju net's term leaves the cell out too: a test in
        // `tune_net` compares it with the fitted model's).
        let raw = |s: Color| pos.weights[s.index()][0] - pos.weights[(!s).index()][1];
        assert_eq!(
            i64::from(pos.evaluate_linear(Color::Black)),
            raw(Color::Black) - to_move
        );
        assert_eq!(
            i64::from(pos.evaluate_linear(Color::White)),
            raw(Color::White) + waiting
        );
    }

    /// A 15x15 freestyle position of seven stones, Black's and White's alternating.
    fn seven_stones() -> Position {
        let mut pos = Position::new(15, Rule::Freestyle);
        let mut c = Color::Black;
        for (x, y) in [(7, 7), (8, 8), (7, 8), (6, 6), (7, 6), (9, 9), (5, 7)] {
            pos.make(Point::new(x, y), c);
            c = !c;
        }
        pos
    }

    /// The evaluation's style: the styled colour's cells weigh `100 + c` percent and the
    /// opponent's `100 - c`, whichever side is to move; the threat term is unchanged; style 0 is
    /// the plain evaluation.
    #[test]
    fn style_weighs_one_colours_cells_more() {
        let mut pos = seven_stones();
        let plain = Color::ALL.map(|s| pos.evaluate(s));
        let raw = |s: Color| pos.weights[s.index()][0] - pos.weights[(!s).index()][1];
        let threat = Color::ALL.map(|s| i64::from(plain[s.index()]) - raw(s));
        assert!(raw(Color::Black) != 0 && raw(Color::White) != 0);
        for c in [-30, 20, 50] {
            pos.set_style(Color::Black, c);
            let c = i64::from(c);
            let (b, w) = (
                pos.weights[Color::Black.index()],
                pos.weights[Color::White.index()],
            );
            assert_eq!(
                i64::from(pos.evaluate(Color::Black)),
                (b[0] * (100 + c) - w[1] * (100 - c)) / 100 + threat[Color::Black.index()]
            );
            assert_eq!(
                i64::from(pos.evaluate(Color::White)),
                (w[0] * (100 - c) - b[1] * (100 + c)) / 100 + threat[Color::White.index()]
            );
        }
        pos.set_style(Color::White, 0);
        assert_eq!(Color::ALL.map(|s| pos.evaluate(s)), plain);
    }

    /// The evaluation's tempo: the side to move's cells weigh `100 + t` percent and the waiting
    /// side's `100 - t`, for either side to move; the threat term is unchanged; tempo 0 is the
    /// plain evaluation.
    #[test]
    fn tempo_weighs_the_side_to_move_more() {
        let mut pos = seven_stones();
        let plain = Color::ALL.map(|s| pos.evaluate(s));
        let raw = |s: Color| pos.weights[s.index()][0] - pos.weights[(!s).index()][1];
        let threat = Color::ALL.map(|s| i64::from(plain[s.index()]) - raw(s));
        for t in [-20, 15, 40] {
            pos.set_tempo(t);
            let t = i64::from(t);
            for s in Color::ALL {
                let (me, them) = (pos.weights[s.index()], pos.weights[(!s).index()]);
                assert_eq!(
                    i64::from(pos.evaluate(s)),
                    (me[0] * (100 + t) - them[1] * (100 - t)) / 100 + threat[s.index()]
                );
            }
        }
        pos.set_tempo(0);
        assert_eq!(Color::ALL.map(|s| pos.evaluate(s)), plain);
    }

    /// The smoothed evaluation: after a quick move, the cell sums are the mean of the position's
    /// and those before the move (from the same side, then waiting), the threat term the
    /// position's own; without a quick move, or off, the plain evaluation.
    #[test]
    fn smooth_averages_the_cell_sums_over_the_last_move() {
        let mut pos = Position::new(15, Rule::Freestyle);
        let stones = [
            (7, 7),
            (8, 8),
            (7, 8),
            (6, 6),
            (7, 6),
            (9, 9),
            (5, 7),
            (8, 6),
        ];
        let mut c = Color::Black;
        for (x, y) in stones {
            pos.make(Point::new(x, y), c);
            c = !c;
        }
        let plain = Color::ALL.map(|s| pos.evaluate(s));
        pos.set_smooth(true);
        assert_eq!(Color::ALL.map(|s| pos.evaluate(s)), plain);
        pos.set_smooth(false);
        let raw =
            |pos: &Position, s: Color| pos.weights[s.index()][0] - pos.weights[(!s).index()][1];
        let mut checked = 0;
        for (x, y) in [(7, 5), (6, 8), (4, 7), (10, 10), (6, 7)] {
            let p = Point::new(x, y);
            let before = raw(&pos, c);
            pos.make_quick(p, c);
            let s = !c;
            let now = raw(&pos, s);
            let threat = i64::from(pos.evaluate(s)) - now;
            pos.set_smooth(true);
            let smooth = i64::from(pos.evaluate(s));
            pos.set_smooth(false);
            assert_eq!(smooth, (now - before) / 2 + threat, "after {p:?}");
            if now != -before {
                checked += 1;
            }
            c = s;
        }
        assert!(checked >= 3, "{checked}");
    }

    /// Random games on several sizes and both rules: the incremental state equals a rebuild after
    /// every make and unmake, and the five set equals the board's own five points.
    /// The threat mask kept on make/unmake equals one counted cell by cell from the classes, and
    /// its five bit agrees with the board's five points.
    #[test]
    fn threat_mask_equals_the_cells_counted() {
        let mut rng = stonelab_rand::Xorshift64Star::new(0x7412_5A5A_0101_9999);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for _ in 0..40 {
                let mut pos = Position::new(15, rule);
                let mut c = Color::Black;
                for _ in 0..rng.below(60) {
                    let near: Vec<Point> = pos.candidates().iter().collect();
                    let p = if near.is_empty() {
                        Point::new(7, 7)
                    } else {
                        near[rng.below(near.len())]
                    };
                    pos.make(p, c);
                    c = !c;
                    for s in Color::ALL {
                        let mut counts = [[0u16; threats::KINDS]; 2];
                        for y in 0..15 {
                            for x in 0..15 {
                                let p = Point::new(x, y);
                                if pos.stone(p).is_some() {
                                    continue;
                                }
                                for (side, col) in [s, !s].into_iter().enumerate() {
                                    let ks = Direction::ALL.map(|d| pos.class(p, d, col));
                                    let k = threats::kind(ks) as usize;
                                    // Renju: Black's forbidden cells count for no threat (a
                                    // five is never forbidden).
                                    if pos.is_foul(p, col) && k != threats::Kind::Five as usize {
                                        continue;
                                    }
                                    if k != 0 {
                                        counts[side][k - 1] += 1;
                                    }
                                }
                            }
                        }
                        let m = pos.threat_mask(s);
                        assert_eq!(m, threats::mask(&counts[0], &counts[1]));
                        let opp_five = !crate::search::five_points(pos.board(), !s).is_empty();
                        assert_eq!(m & 1 != 0, opp_five);
                    }
                }
            }
        }
    }

    /// The candidates are exactly the empty cells with a stone within two cells (Chebyshev), by
    /// a plain double loop, on random positions of every size.
    #[test]
    fn candidates_are_the_empty_cells_within_two_of_a_stone() {
        let mut rng = stonelab_rand::Xorshift64Star::new(0x0DD5_EED5_0000_0001);
        for size in 5..=20usize {
            for _ in 0..20 {
                let mut pos = Position::new(size, Rule::Freestyle);
                let mut c = Color::Black;
                for _ in 0..rng.below(size * size / 3 + 1) {
                    let p = Point::new(rng.below(size) as u8, rng.below(size) as u8);
                    if pos.stone(p).is_none() {
                        pos.make(p, c);
                        c = !c;
                    }
                }
                let n = size as i32;
                let mut want = Bitboard::EMPTY;
                for y in 0..n {
                    for x in 0..n {
                        let p = Point::new(x as u8, y as u8);
                        let near = (-2..=2).any(|dy: i32| {
                            (-2..=2).any(|dx: i32| {
                                let (qx, qy) = (x + dx, y + dy);
                                (0..n).contains(&qx)
                                    && (0..n).contains(&qy)
                                    && pos.stone(Point::new(qx as u8, qy as u8)).is_some()
                            })
                        });
                        if near && pos.stone(p).is_none() {
                            want.insert(p);
                        }
                    }
                }
                assert_eq!(pos.candidates(), want, "size {size}");
            }
        }
    }

    /// Quick makes and their unmakes (which put back saved state instead of re-reading the
    /// lines) leave every cell, sum and set as a rebuild from scratch has them, on random walks
    /// of random depth from random positions, under every rule.
    #[test]
    fn quick_unmake_puts_back_what_a_rebuild_has() {
        let mut rng = stonelab_rand::Xorshift64Star::new(0x5EED_0F0D_00CA_5E00);
        for size in [6, 15, 20] {
            for rule in Rule::ALL {
                for _ in 0..4 {
                    let mut pos = Position::new(size, rule);
                    let empties = |pos: &Position| -> Vec<Point> {
                        (0..size as u8)
                            .flat_map(|y| (0..size as u8).map(move |x| Point::new(x, y)))
                            .filter(|&p| pos.stone(p).is_none())
                            .collect()
                    };
                    let mut c = Color::Black;
                    for _ in 0..rng.below(size * size / 2) {
                        let free = empties(&pos);
                        pos.make(free[rng.below(free.len())], c);
                        c = !c;
                    }
                    let (hash, eval) = (pos.hash(), pos.evaluate(c));
                    let mut depth = 0;
                    for _ in 0..60 {
                        let free = empties(&pos);
                        if depth > 0 && (free.is_empty() || rng.below(3) == 0) {
                            pos.unmake_quick();
                            depth -= 1;
                            c = !c;
                        } else if !free.is_empty() {
                            pos.make_quick(free[rng.below(free.len())], c);
                            depth += 1;
                            c = !c;
                        }
                        assert!(pos.is_consistent(), "{size} {rule} at quick depth {depth}");
                    }
                    while depth > 0 {
                        pos.unmake_quick();
                        depth -= 1;
                        c = !c;
                    }
                    assert!(pos.is_consistent(), "{size} {rule} back at the root");
                    assert_eq!((pos.hash(), pos.evaluate(c)), (hash, eval));
                }
            }
        }
    }

    #[test]
    fn incremental_equals_rebuilt() {
        let mut rng = stonelab_rand::Xorshift64Star::new(0xC0FF_EE00_1234_5678);
        for size in [5, 8, 15, 16, 20] {
            for rule in Rule::ALL {
                for _ in 0..3 {
                    let mut pos = Position::new(size, rule);
                    let mut c = Color::Black;
                    let plies = rng.below(size * size);
                    for _ in 0..plies {
                        let empties: Vec<Point> = (0..size as u8)
                            .flat_map(|y| (0..size as u8).map(move |x| Point::new(x, y)))
                            .filter(|&p| pos.stone(p).is_none())
                            .collect();
                        let p = empties[rng.below(empties.len())];
                        pos.make(p, c);
                        c = !c;
                        assert!(pos.is_consistent(), "{size} {rule} after make");
                        for col in Color::ALL {
                            assert_eq!(
                                pos.class_sets(col).five,
                                crate::search::five_points(pos.board(), col)
                            );
                        }
                    }
                    for _ in 0..plies.min(10) {
                        pos.unmake();
                        assert!(pos.is_consistent(), "{size} {rule} after unmake");
                    }
                }
            }
        }
    }
}
