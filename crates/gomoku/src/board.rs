//! The board: stones, incremental line codes, and the seed-compatible threat set kept up to date on
//! every make/unmake (only the four lines through the move are looked up again; each line's last mask
//! is kept, and the changed cells are patched into per-direction bitboards).
//!
//! Lines of at most 15 cells (every line of a 5x5..15x15 board, and the shorter diagonals of larger
//! ones) read their mask from the seed table. Lines of 16..20 cells are beyond the seed's codes. Two
//! overlapping 15-cell windows cannot be read from the seed table exactly: its entry merges both
//! colours and applies "five points, else open-four points" to the whole window, so a five point of one
//! colour at one end decides what the other end shows, however far from the cut. Those lines instead
//! evaluate the very function the table is built from ([`line::threat_mask`]) on their 20-bit stone
//! masks, which is exact by construction and costs a few dozen bit operations.
//!
//! Per-colour classes come from the per-cell window table ([`PatternTable`]): a cell's class in one
//! direction is one lookup of the `reach` cells on each side, cut from the line's 2-bit string.

use crate::core::grid::BadSize;
use crate::tables::codes::{LineCodes, PAD};
use crate::tables::geometry::{Geometry, MAX_LINES};
use crate::tables::line;
use crate::tables::pattern::window_key;
use crate::tables::skew::LINE_CELLS;
use crate::{
    Bitboard, Color, Direction, Grid, Pattern, PatternTable, Point, Rule, ThreatMaskTable,
};

/// Adds the cells of a line mask (bit `t` for cell `t` of line `id`) to a bitboard.
#[inline]
fn scatter(geo: &Geometry, id: usize, mut mask: u32, out: &mut Bitboard) {
    while mask != 0 {
        let q = geo.line_points[id][mask.trailing_zeros() as usize];
        mask &= mask - 1;
        out.rows[q.y as usize] |= 1 << q.x;
    }
}

/// Cells of one colour by class: a cell is in a set when at least one of its four directions has
/// that class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatternSets {
    pub five: Bitboard,
    pub open_four: Bitboard,
    pub four: Bitboard,
    pub open_three: Bitboard,
}

impl PatternSets {
    /// The set of one class (`Pattern::None` gives the empty set).
    #[must_use]
    pub fn get(&self, pattern: Pattern) -> Bitboard {
        match pattern {
            Pattern::None => Bitboard::EMPTY,
            Pattern::OpenThree => self.open_three,
            Pattern::Four => self.four,
            Pattern::OpenFour => self.open_four,
            Pattern::Five => self.five,
        }
    }

    fn get_mut(&mut self, pattern: Pattern) -> Option<&mut Bitboard> {
        match pattern {
            Pattern::None => None,
            Pattern::OpenThree => Some(&mut self.open_three),
            Pattern::Four => Some(&mut self.four),
            Pattern::OpenFour => Some(&mut self.open_four),
            Pattern::Five => Some(&mut self.five),
        }
    }
}

/// A Gomoku board of side 5..=20 under one rule.
#[derive(Clone, Debug)]
pub struct Board {
    rule: Rule,
    codes: LineCodes,
    seed: &'static ThreatMaskTable,
    patterns: &'static PatternTable,
    stones: [Bitboard; 2],
    line_threats: [u32; MAX_LINES],
    dir_threats: [Bitboard; 4],
    threats: Bitboard,
    tracker: Option<Box<Tracker>>,
}

/// Per-colour class sets kept up to date on make/unmake (opt-in: [`Board::track_patterns`]).
#[derive(Debug)]
struct Tracker {
    /// Per cell (`y * size + x`), per direction: white class | black class << 4 (0 when occupied).
    cells: Vec<[u8; 4]>,
    sets: [PatternSets; 2],
    /// One frame per move made since tracking began, the last on top, so that taking back the
    /// last move restores what it changed instead of reading the classes again. Emptied by a take
    /// back of any other move (the frames above it no longer describe the board) and when it
    /// reaches [`MAX_FRAMES`].
    frames: Vec<Frame>,
    /// The cell entries the frames' moves changed: (cell index, direction, entry before).
    changes: Vec<(u16, u8, u8)>,
}

/// What a move changed in the class sets, for [`Board::unmake`] of that move.
#[derive(Clone, Copy, Debug)]
struct Frame {
    p: Point,
    /// The sets before the move.
    sets: [PatternSets; 2],
    /// Where the move's changes start in [`Tracker::changes`].
    changes: u32,
}

/// The most moves [`Tracker::frames`] remembers (a board only ever played forward, such as one
/// replaying a game, does not grow it without end).
const MAX_FRAMES: usize = 256;

impl Clone for Tracker {
    /// A copy of the class sets, without the frames: the copy's take-backs of moves made before
    /// it read the classes again.
    fn clone(&self) -> Tracker {
        Tracker {
            cells: self.cells.clone(),
            sets: self.sets,
            frames: Vec::new(),
            changes: Vec::new(),
        }
    }
}

impl std::fmt::Debug for ThreatMaskTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ThreatMaskTable({})", self.rule())
    }
}

impl std::fmt::Debug for PatternTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PatternTable({})", self.rule())
    }
}

/// The classes present at a cell over its four directions: bit `class` for Black, bit
/// `8 + class` for White (an entry holds Black's class in its low nibble, White's in the high one).
#[inline]
fn presence(cell: &[u8; 4]) -> u16 {
    cell.iter()
        .fold(0u16, |acc, &e| acc | 1 << (e & 0xF) | 1 << (8 + (e >> 4)))
}

impl Board {
    /// An empty board. The rule's tables are built on first use.
    pub fn new(size: usize, rule: Rule) -> Result<Board, BadSize> {
        Grid::new(size)?;
        Ok(Board {
            rule,
            codes: LineCodes::empty(size),
            seed: ThreatMaskTable::get(rule),
            patterns: PatternTable::get(rule),
            stones: [Bitboard::EMPTY; 2],
            line_threats: [0; MAX_LINES],
            dir_threats: [Bitboard::EMPTY; 4],
            threats: Bitboard::EMPTY,
            tracker: None,
        })
    }

    /// The board of a grid.
    #[must_use]
    pub fn from_grid(grid: &Grid, rule: Rule) -> Board {
        let mut b = Board::new(grid.size(), rule).expect("a grid has a valid size");
        for p in grid.points() {
            if let Some(c) = grid.get(p) {
                b.make(p, c);
            }
        }
        b
    }

    /// The stones as a plain grid.
    #[must_use]
    pub fn to_grid(&self) -> Grid {
        let mut g = Grid::new(self.size()).expect("valid size");
        for c in Color::ALL {
            for p in self.stones[c.index()].iter() {
                g.set(p, Some(c));
            }
        }
        g
    }

    #[inline]
    #[must_use]
    pub fn size(&self) -> usize {
        self.codes.geometry().size
    }

    #[inline]
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The incremental line codes.
    #[inline]
    #[must_use]
    pub fn codes(&self) -> &LineCodes {
        &self.codes
    }

    #[inline]
    #[must_use]
    pub fn geometry(&self) -> &'static Geometry {
        self.codes.geometry()
    }

    /// Whether `p` lies on the board.
    #[inline]
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        (p.x as usize) < self.size() && (p.y as usize) < self.size()
    }

    /// The stone on `p` (which must be on the board).
    #[inline]
    #[must_use]
    pub fn stone(&self, p: Point) -> Option<Color> {
        if self.stones[0].contains(p) {
            Some(Color::White)
        } else if self.stones[1].contains(p) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The stones of one colour.
    #[inline]
    #[must_use]
    pub fn stones(&self, c: Color) -> Bitboard {
        self.stones[c.index()]
    }

    /// Plays `c` on the empty on-board point `p` and brings the threat set up to date.
    #[inline]
    pub fn make(&mut self, p: Point, c: Color) {
        self.probe_make(p, c);
        self.update_threats(p);
        if let Some(t) = self.tracker.as_deref_mut() {
            if t.frames.len() >= MAX_FRAMES {
                t.frames.clear();
                t.changes.clear();
            }
            t.frames.push(Frame {
                p,
                sets: t.sets,
                changes: t.changes.len() as u32,
            });
            self.update_patterns(p, true);
        }
    }

    /// Puts a stone of `c` on the empty point `p` for a quick look at the classes of a few cells
    /// ([`Board::pattern`] reads the line codes, which this keeps exact). The threat set and the
    /// class sets are **not** brought up to date: call [`Board::probe_unmake`] before anything else.
    #[inline]
    pub(crate) fn probe_make(&mut self, p: Point, c: Color) {
        debug_assert!(self.contains(p) && self.stone(p).is_none());
        self.stones[c.index()].insert(p);
        self.codes.make(p, c);
    }

    /// Takes back a [`Board::probe_make`] of `c` on `p`.
    #[inline]
    pub(crate) fn probe_unmake(&mut self, p: Point, c: Color) {
        self.stones[c.index()].remove(p);
        self.codes.unmake(p, c);
    }

    /// Takes the stone off `p` (which must hold one) and brings the threat set up to date.
    #[inline]
    pub fn unmake(&mut self, p: Point) {
        let c = self.stone(p).expect("unmake of an empty point");
        self.probe_unmake(p, c);
        self.update_threats(p);
        if let Some(t) = self.tracker.as_deref_mut() {
            match t.frames.last() {
                Some(f) if f.p == p => {
                    // The last move: put back what it changed.
                    let f = *f;
                    t.frames.pop();
                    for &(qi, d, before) in t.changes[f.changes as usize..].iter().rev() {
                        t.cells[qi as usize][d as usize] = before;
                    }
                    t.changes.truncate(f.changes as usize);
                    t.sets = f.sets;
                }
                _ => {
                    t.frames.clear();
                    t.changes.clear();
                    self.update_patterns(p, false);
                }
            }
        }
    }

    /// The seed mask of line `id`, along the line (bit `t` for cell `t`).
    #[inline]
    fn line_mask(&self, id: usize) -> u32 {
        let len = self.geometry().line_len[id] as usize;
        if len < 5 {
            0
        } else if len <= LINE_CELLS {
            u32::from(self.seed.lookup(self.codes.code(id))) >> (LINE_CELLS - len)
        } else {
            line::threat_mask(self.codes.stones(id), self.rule)
        }
    }

    #[inline]
    fn update_threats(&mut self, p: Point) {
        let geo = self.geometry();
        for d in Direction::ALL {
            let id = geo.line_ref(p, d).id as usize;
            let new = self.line_mask(id);
            let mut diff = new ^ self.line_threats[id];
            if diff == 0 {
                continue;
            }
            self.line_threats[id] = new;
            while diff != 0 {
                let t = diff.trailing_zeros();
                diff &= diff - 1;
                let q = geo.line_points[id][t as usize];
                let bit = 1u32 << q.x;
                let y = q.y as usize;
                self.dir_threats[d.index()].rows[y] ^= bit;
                let any = self.dir_threats.iter().fold(0, |a, b| a | b.rows[y]) & bit;
                self.threats.rows[y] = self.threats.rows[y] & !bit | any;
            }
        }
    }

    /// The seed-compatible threat set, kept up to date by make/unmake.
    #[inline]
    #[must_use]
    pub fn threat_points(&self) -> Bitboard {
        self.threats
    }

    /// The seed-compatible threat set computed from scratch: every line looked up (the seed's
    /// `find_threat`).
    #[must_use]
    pub fn threat_points_full(&self) -> Bitboard {
        let geo = self.geometry();
        let n = geo.size;
        let mut out = Bitboard::EMPTY;
        if n > LINE_CELLS {
            for y in 0..n {
                out.rows[y] = self.line_mask(y);
            }
            for &id in &geo.threat_lines {
                let id = id as usize;
                if id >= n {
                    scatter(geo, id, self.line_mask(id), &mut out);
                }
            }
            return out;
        }
        // Every line has a code: one table read and a shift per line, rows written directly.
        let table = self.seed.entries();
        let codes = self.codes.codes();
        for y in 0..n {
            out.rows[y] = u32::from(table[codes[y] as usize]) >> geo.line_shift[y];
        }
        for range in &geo.threat_ranges {
            let lines = codes[range.clone()]
                .iter()
                .zip(&geo.line_shift[range.clone()]);
            for (id, (&code, &shift)) in range.clone().zip(lines) {
                let m = u32::from(table[code as usize]) >> shift;
                if m != 0 {
                    scatter(geo, id, m, &mut out);
                }
            }
        }
        out
    }

    /// Per colour (white, black): the unfiltered union over all lines of the five points and of the
    /// seed's open-four points (empty, not a five point, afterwards two five points on that line).
    #[must_use]
    pub fn threat_lists(&self) -> [(Bitboard, Bitboard); 2] {
        let geo = self.geometry();
        let mut out = [(Bitboard::EMPTY, Bitboard::EMPTY); 2];
        for &id in &geo.threat_lines {
            let id = id as usize;
            let lists = line::threat_lists(self.codes.stones(id), self.rule);
            for (slot, (five, open)) in out.iter_mut().zip(lists) {
                for (t, &q) in geo.line_points[id][..geo.line_len[id] as usize]
                    .iter()
                    .enumerate()
                {
                    if five >> t & 1 != 0 {
                        slot.0.insert(q);
                    }
                    if open >> t & 1 != 0 {
                        slot.1.insert(q);
                    }
                }
            }
        }
        out
    }

    /// The class of the point `p` for colour `c` in direction `d` (`None` on an occupied point).
    #[inline]
    #[must_use]
    pub fn pattern(&self, p: Point, d: Direction, c: Color) -> Pattern {
        if self.stone(p).is_some() {
            return Pattern::None;
        }
        let r = self.geometry().line_ref(p, d);
        let key = window_key(self.codes.string(r.id as usize), r.t as u32, PAD, self.rule);
        self.patterns.pattern(key, c)
    }

    /// The classes of `p` for colour `c` in the four directions.
    #[inline]
    #[must_use]
    pub fn patterns(&self, p: Point, c: Color) -> [Pattern; 4] {
        Direction::ALL.map(|d| self.pattern(p, d, c))
    }

    /// From now on, keep the per-colour class sets up to date on every make/unmake, so that
    /// [`Board::pattern_sets`] is a copy instead of a scan. Each move then re-reads the classes of the
    /// cells within reach (4 or 5) of it on its four lines: about 40 table lookups.
    pub fn track_patterns(&mut self) {
        if self.tracker.is_some() {
            return;
        }
        let n = self.size();
        let mut tracker = Tracker {
            frames: Vec::new(),
            changes: Vec::new(),
            cells: vec![[0; 4]; n * n],
            sets: [
                self.pattern_sets_scanned(Color::White),
                self.pattern_sets_scanned(Color::Black),
            ],
        };
        for y in 0..n as u8 {
            for x in 0..n as u8 {
                let p = Point::new(x, y);
                tracker.cells[y as usize * n + x as usize] = Direction::ALL.map(|d| {
                    self.pattern(p, d, Color::White) as u8
                        | (self.pattern(p, d, Color::Black) as u8) << 4
                });
            }
        }
        self.tracker = Some(Box::new(tracker));
    }

    /// Whether [`Board::track_patterns`] is on.
    #[must_use]
    pub fn tracks_patterns(&self) -> bool {
        self.tracker.is_some()
    }

    /// Reads again the classes of the cells within reach of `p` on its four lines after a stone
    /// came to or left `p`, and brings the sets up to date; `record`: note each change in the top
    /// frame (a move, to be taken back).
    fn update_patterns(&mut self, p: Point, record: bool) {
        let geo = self.geometry();
        let n = geo.size;
        let reach = self.rule.reach();
        let occupied = self.stones[0] | self.stones[1];
        let Some(tracker) = self.tracker.as_deref_mut() else {
            return;
        };
        for d in Direction::ALL {
            let r = geo.line_ref(p, d);
            let id = r.id as usize;
            let t = r.t as usize;
            let string = self.codes.string(id);
            let last = (t + reach).min(geo.line_len[id] as usize - 1);
            for u in t.saturating_sub(reach)..=last {
                let q = geo.line_points[id][u];
                let qi = q.y as usize * n + q.x as usize;
                let new = if occupied.contains(q) {
                    0
                } else {
                    self.patterns
                        .lookup(window_key(string, u as u32, PAD, self.rule))
                };
                let cell = &mut tracker.cells[qi];
                if cell[d.index()] == new {
                    continue;
                }
                if record {
                    tracker
                        .changes
                        .push((qi as u16, d.index() as u8, cell[d.index()]));
                }
                let before = presence(cell);
                cell[d.index()] = new;
                // Only the classes whose presence at q changed (bit 8 * colour + class) are touched.
                let after = presence(cell);
                let mut diff = (before ^ after) & !(1 | 1 << 8);
                while diff != 0 {
                    let bit = diff.trailing_zeros();
                    diff &= diff - 1;
                    let pat = Pattern::from_bits((bit & 7) as u8);
                    let set = tracker.sets[(bit >> 3) as usize]
                        .get_mut(pat)
                        .expect("a real class");
                    if after >> bit & 1 != 0 {
                        set.insert(q);
                    } else {
                        set.remove(q);
                    }
                }
            }
        }
    }

    /// The cells of colour `c` by class (a cell is in a class's set when one of its directions has
    /// it): kept up to date when [`Board::track_patterns`] is on, otherwise a scan of the board.
    #[must_use]
    pub fn pattern_sets(&self, c: Color) -> PatternSets {
        match &self.tracker {
            Some(t) => t.sets[c.index()],
            None => self.pattern_sets_scanned(c),
        }
    }

    /// The cells of colour `c` by class, by looking every empty cell up in four directions.
    #[must_use]
    pub fn pattern_sets_scanned(&self, c: Color) -> PatternSets {
        let mut sets = PatternSets::default();
        let n = self.size();
        for y in 0..n as u8 {
            for x in 0..n as u8 {
                let p = Point::new(x, y);
                if self.stone(p).is_some() {
                    continue;
                }
                for pat in self.patterns(p, c) {
                    if let Some(set) = sets.get_mut(pat) {
                        set.insert(p);
                    }
                }
            }
        }
        sets
    }
}
