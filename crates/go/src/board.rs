//! The validated Go board: stones merged into blocks by union-find, liberties as bitboards, captures,
//! suicide (illegal by default), simple ko, passes, full undo and an incremental Zobrist hash.
//!
//! Three layers are kept apart, as in KataGo: [`Rules`] (suicide, ko), [`Board`] (stones, blocks, ko,
//! hash, history) and the plain [`Setup`] that a board is built from and can be turned back into.
//!
//! Blocks are allocated statically per board, as in seed 003: every point owns one block slot and the
//! union-find root of a block (a point) names its slot. Unions are by size and without path
//! compression, so a tree is at most log2(361) deep and every write to the tables can be logged on a
//! trail and rolled back exactly by [`Board::undo`]. Per colour the board also keeps the stones of
//! blocks in atari, which makes [`Board::legal_moves`] and [`Board::is_legal`] a few bitboard
//! operations.
//!
//! The API in brief (stable for playouts, the retrograde solver and GTP):
//! - position: [`Board::new`], [`Board::from_setup`], [`Board::to_setup`], [`Board::geometry`],
//!   [`Board::to_move`], [`Board::stones`], [`Board::empty`], [`Board::ko`], [`Board::hash`],
//!   [`Board::captures`], [`Board::passes`], [`Board::block`], [`Board::liberties`],
//!   [`Board::in_atari`];
//! - moves: [`Board::is_legal`], [`Board::legal_moves`] (bulk), [`Board::try_play`] (typed
//!   [`IllegalMove`]), [`Board::try_play_as`] (either colour, as GTP `play`), [`Board::play`]
//!   (panics if illegal), [`Board::play_unchecked`], [`Board::pass`], [`Board::undo`];
//! - playouts: [`Board::set_keep_history`] (off: no undo records), [`Board::copy_position_from`];
//! - scoring and checks: [`Board::area_score`], [`Board::check_consistency`].
//!
//! ```
//! use stonelab_go::{Board, Color, Geometry, Move, Point, Rules};
//! let mut b = Board::new(Geometry::new(3, 3).unwrap(), Rules::default());
//! // Black takes the corner, White answers on both sides of it and captures it.
//! for (row, col) in [(0, 0), (0, 1), (2, 2), (1, 0)] {
//!     b.try_play(Move::Play(Point::new(row, col))).unwrap();
//! }
//! assert_eq!(b.to_string(), ".O.\nO..\n..X\n");
//! assert_eq!(b.captures(Color::White), 1);
//! // Black may not refill the corner: it would be suicide.
//! assert!(!b.is_legal(Point::new(0, 0)));
//! b.undo().unwrap();
//! assert_eq!(b.to_string(), "XO.\n...\n..X\n");
//! assert_eq!(b.captures(Color::White), 0);
//! ```

use std::fmt;

use crate::bitboard::{Bitboard, Geometry, Point, STRIDE};
use crate::color::Color;
use crate::setup::{Setup, SetupError};
use crate::zobrist;

/// The rule switches that change which moves are legal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Whether suicide is allowed. A suicide removes the suicidal block (its stones count as captured
    /// by the opponent); a single-stone suicide is then a legal move that only hands over the turn.
    /// (That is the rule that reproduces the published 9x9 depth-4 suicide perft count, 39929768.)
    pub suicide: bool,
    /// Whether the simple-ko rule applies: a single stone that captured a single stone and is left in
    /// atari may not be recaptured at once. A pass (or any other move) lifts the ban.
    pub simple_ko: bool,
}

impl Rules {
    /// Suicide illegal, simple ko: the default, and the rules of the published perft counts.
    pub const STANDARD: Rules = Rules {
        suicide: false,
        simple_ko: true,
    };
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::STANDARD
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(Point),
    Pass,
}

/// Why a move is illegal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum IllegalMove {
    #[error("off board")]
    OffBoard(Point),
    #[error("occupied")]
    Occupied(Point),
    #[error("suicide")]
    Suicide(Point),
    #[error("ko")]
    Ko(Point),
}

/// [`Board::undo`] was called with no move to take back.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("cannot undo: no move played")]
pub struct NothingToUndo;

/// One block (chain) of stones and its liberties.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Block {
    stones: Bitboard,
    libs: Bitboard,
}

/// The neighbours of a point about to be played, and the distinct roots of the blocks next to it:
/// `own[..n_own]` of the mover's colour, `opp[..n_opp]` of the opponent's.
struct Adjacent {
    points: Bitboard,
    own: [usize; 4],
    n_own: usize,
    opp: [usize; 4],
    n_opp: usize,
}

/// What [`Board::undo`] needs besides the trails.
#[derive(Copy, Clone, Debug)]
struct Record {
    mv: Move,
    stones: [Bitboard; 2],
    atari: [Bitboard; 2],
    to_move: Color,
    ko: Option<Point>,
    hash: u64,
    captures: [u32; 2],
    passes: u32,
    block_trail: u32,
    parent_trail: u32,
}

/// A legal Go position with its history (see the module docs).
#[derive(Debug)]
pub struct Board {
    geometry: Geometry,
    rules: Rules,
    stones: [Bitboard; 2],
    /// Per colour, the stones of blocks with exactly one liberty (kept with the blocks, so that
    /// legality is a few bitboard operations).
    atari: [Bitboard; 2],
    /// Union-find parent of each stone's point (bit index); a root is its own parent.
    parent: Vec<u16>,
    /// Block slot per point; only the slots of roots are meaningful.
    blocks: Vec<Block>,
    to_move: Color,
    ko: Option<Point>,
    hash: u64,
    captures: [u32; 2],
    passes: u32,
    /// Whether moves are recorded for undo (see [`Board::set_keep_history`]).
    keep_history: bool,
    history: Vec<Record>,
    block_trail: Vec<(u16, Block)>,
    parent_trail: Vec<(u16, u16)>,
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            geometry: self.geometry,
            rules: self.rules,
            stones: self.stones,
            atari: self.atari,
            parent: self.parent.clone(),
            blocks: self.blocks.clone(),
            to_move: self.to_move,
            ko: self.ko,
            hash: self.hash,
            captures: self.captures,
            passes: self.passes,
            keep_history: self.keep_history,
            history: self.history.clone(),
            block_trail: self.block_trail.clone(),
            parent_trail: self.parent_trail.clone(),
        }
    }

    /// Reuses `self`'s allocations (cheap board copies in playout loops).
    fn clone_from(&mut self, source: &Board) {
        self.copy_state_from(source);
        self.keep_history = source.keep_history;
        self.history.clone_from(&source.history);
        self.block_trail.clone_from(&source.block_trail);
        self.parent_trail.clone_from(&source.parent_trail);
    }
}

/// Whether `b` holds exactly one point.
#[inline]
fn single(b: Bitboard) -> bool {
    let mut seen = false;
    for w in b.0 {
        if w != 0 {
            if seen || w & (w - 1) != 0 {
                return false;
            }
            seen = true;
        }
    }
    seen
}

/// Number of table slots a geometry needs: the highest bit index on the board, plus one.
fn slots(g: &Geometry) -> usize {
    (g.rows() - 1) * STRIDE + g.cols()
}

impl Board {
    /// The empty board, Black to move.
    #[must_use]
    pub fn new(geometry: Geometry, rules: Rules) -> Board {
        let n = slots(&geometry);
        Board {
            geometry,
            rules,
            stones: [Bitboard::EMPTY; 2],
            atari: [Bitboard::EMPTY; 2],
            parent: (0..n as u16).collect(),
            blocks: vec![Block::default(); n],
            to_move: Color::Black,
            ko: None,
            hash: 0,
            captures: [0; 2],
            passes: 0,
            keep_history: true,
            history: Vec::new(),
            block_trail: Vec::new(),
            parent_trail: Vec::new(),
        }
    }

    /// The board for a setup, or the setup back with every reason it is not a legal position
    /// (stones off the board or on both colours, blocks without liberties, a ko point that no
    /// single-stone capture could have left). The history starts empty.
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<Board, SetupError> {
        let problems = setup.problems();
        if !problems.is_empty() {
            return Err(SetupError {
                setup: Box::new(setup),
                problems,
            });
        }
        let mut board = Board::new(setup.geometry, rules);
        board.stones = [setup.black, setup.white];
        let (parent, blocks, atari) = board.rebuild_tables();
        board.parent = parent;
        board.blocks = blocks;
        board.atari = atari;
        board.to_move = setup.to_move;
        board.ko = if rules.simple_ko { setup.ko } else { None };
        board.captures = setup.captures;
        board.hash = zobrist::position_hash(setup.black, setup.white, setup.to_move, board.ko);
        Ok(board)
    }

    /// The position as a plain setup (history, rules and pass count are not part of it).
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            geometry: self.geometry,
            black: self.stones[0],
            white: self.stones[1],
            to_move: self.to_move,
            ko: self.ko,
            captures: self.captures,
        }
    }

    /// Union-find tables built from scratch from the stones: every block is a flat tree rooted at
    /// its lowest point.
    fn rebuild_tables(&self) -> (Vec<u16>, Vec<Block>, [Bitboard; 2]) {
        let n = slots(&self.geometry);
        let mut parent: Vec<u16> = (0..n as u16).collect();
        let mut blocks = vec![Block::default(); n];
        let empty = self.empty();
        let mut atari = [Bitboard::EMPTY; 2];
        for color in Color::ALL {
            let mut rest = self.stones[color.index()];
            while let Some(p) = rest.first() {
                let stones = self
                    .geometry
                    .flood(Bitboard::from_point(p), self.stones[color.index()]);
                let libs = self.geometry.neighbours(stones) & empty;
                for q in stones.iter() {
                    parent[q.index()] = p.index() as u16;
                }
                blocks[p.index()] = Block { stones, libs };
                if libs.count() == 1 {
                    atari[color.index()] |= stones;
                }
                rest = rest.and_not(stones);
            }
        }
        (parent, blocks, atari)
    }

    /// The board's size and masks.
    #[must_use]
    #[inline]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The rules in force.
    #[must_use]
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The side to move.
    #[must_use]
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The stones of one colour.
    #[must_use]
    #[inline]
    pub fn stones(&self, color: Color) -> Bitboard {
        self.stones[color.index()]
    }

    /// Whether `other` has the same stones on the board (the side to move, ko and history aside):
    /// what positional superko compares.
    #[must_use]
    pub fn same_stones(&self, other: &Board) -> bool {
        self.stones(Color::Black) == other.stones(Color::Black)
            && self.stones(Color::White) == other.stones(Color::White)
    }

    /// Every stone on the board.
    #[must_use]
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.stones[0] | self.stones[1]
    }

    /// The empty points of the board.
    #[must_use]
    #[inline]
    pub fn empty(&self) -> Bitboard {
        self.geometry.not(self.occupied())
    }

    /// The colour of the stone on `p`, if any.
    #[must_use]
    #[inline]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        if self.stones[0].contains(p) {
            Some(Color::Black)
        } else if self.stones[1].contains(p) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The point the side to move may not play because of simple ko, if any.
    #[must_use]
    #[inline]
    pub fn ko(&self) -> Option<Point> {
        self.ko
    }

    /// The Zobrist hash of the position: stones, side to move and ko point (see [`crate::zobrist`]).
    #[must_use]
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Number of stones `color` has captured (stones removed by a suicide count for the opponent).
    #[must_use]
    #[inline]
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    /// Number of consecutive passes that ended the history (0 after a stone is played).
    #[must_use]
    #[inline]
    pub fn passes(&self) -> u32 {
        self.passes
    }

    /// Number of moves (passes included) that [`Board::undo`] can take back.
    #[must_use]
    #[inline]
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The moves played since the board was created, oldest first.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|r| r.mv)
    }

    /// Forgets the history (undo is then impossible past this point). Playouts that never undo can
    /// call it to keep the history small; it keeps the allocations.
    pub fn clear_history(&mut self) {
        self.history.clear();
        self.block_trail.clear();
        self.parent_trail.clear();
    }

    /// Turns the recording of moves for [`Board::undo`] on (the default) or off. Off, play skips the
    /// history and the trails (playouts that never undo run faster) and the history is cleared.
    pub fn set_keep_history(&mut self, keep: bool) {
        self.keep_history = keep;
        if !keep {
            self.clear_history();
        }
    }

    /// Copies `source`'s position (stones, blocks, side to move, ko, captures, passes, rules) into
    /// `self`, reusing `self`'s allocations, without its history: `self`'s history is cleared and its
    /// [`Board::set_keep_history`] setting is kept. For starting playouts from a root position.
    pub fn copy_position_from(&mut self, source: &Board) {
        self.copy_state_from(source);
        self.clear_history();
    }

    /// Copies everything of `source` but its history and history setting, reusing allocations.
    #[inline]
    fn copy_state_from(&mut self, source: &Board) {
        self.geometry = source.geometry;
        self.rules = source.rules;
        self.stones = source.stones;
        self.atari = source.atari;
        self.parent.clone_from(&source.parent);
        self.blocks.clone_from(&source.blocks);
        self.to_move = source.to_move;
        self.ko = source.ko;
        self.hash = source.hash;
        self.captures = source.captures;
        self.passes = source.passes;
    }

    /// Union-find root (bit index) of the block holding the stone on `p`.
    #[inline]
    fn find(&self, p: Point) -> usize {
        self.find_index(p.index())
    }

    /// Union-find root of the stone with bit index `i`.
    #[inline]
    fn find_index(&self, mut i: usize) -> usize {
        loop {
            let q = self.parent[i] as usize;
            if q == i {
                return i;
            }
            i = q;
        }
    }

    /// The block on `p`, `None` if `p` holds no stone.
    fn block_on(&self, p: Point) -> Option<&Block> {
        self.occupied()
            .contains(p)
            .then(|| &self.blocks[self.find(p)])
    }

    /// The stones of the block on `p` (empty if `p` holds no stone).
    #[must_use]
    pub fn block(&self, p: Point) -> Bitboard {
        self.block_on(p).map_or(Bitboard::EMPTY, |b| b.stones)
    }

    /// The liberties of the block on `p` (empty if `p` holds no stone).
    #[must_use]
    pub fn liberties(&self, p: Point) -> Bitboard {
        self.block_on(p).map_or(Bitboard::EMPTY, |b| b.libs)
    }

    /// Calls `f(stones, liberties)` for every block of `color`.
    #[inline]
    pub fn for_each_block(&self, color: Color, mut f: impl FnMut(Bitboard, Bitboard)) {
        let mut rest = self.stones[color.index()];
        while let Some(p) = rest.first() {
            let b = &self.blocks[self.find(p)];
            f(b.stones, b.libs);
            rest = rest.and_not(b.stones);
        }
    }

    /// The stones of `color` whose block has exactly one liberty.
    #[must_use]
    #[inline]
    pub fn in_atari(&self, color: Color) -> Bitboard {
        self.atari[color.index()]
    }

    /// Writes a block slot (logged on the trail) and keeps the atari set of `color` in step.
    #[inline]
    fn set_block(&mut self, i: usize, block: Block, color: Color) {
        if self.keep_history {
            self.block_trail.push((i as u16, self.blocks[i]));
        }
        self.blocks[i] = block;
        let a = &mut self.atari[color.index()];
        *a = if single(block.libs) {
            *a | block.stones
        } else {
            a.and_not(block.stones)
        };
    }

    #[inline]
    fn set_parent(&mut self, i: usize, root: usize) {
        if self.keep_history {
            self.parent_trail.push((i as u16, self.parent[i]));
        }
        self.parent[i] = root as u16;
    }

    /// Why `color` may not play `p` now, if it may not. The ko ban binds only the side to move.
    pub fn check_as(&self, color: Color, p: Point) -> Result<(), IllegalMove> {
        if !self.geometry.mask().contains(p) {
            return Err(IllegalMove::OffBoard(p));
        }
        if self.occupied().contains(p) {
            return Err(IllegalMove::Occupied(p));
        }
        if color == self.to_move && self.ko == Some(p) {
            return Err(IllegalMove::Ko(p));
        }
        if self.rules.suicide || !self.is_suicide(color, p) {
            Ok(())
        } else {
            Err(IllegalMove::Suicide(p))
        }
    }

    /// Whether a stone of `color` on the empty point `p` would capture nothing and have no liberty.
    #[inline]
    fn is_suicide(&self, color: Color, p: Point) -> bool {
        // Safe when some neighbour is empty, an own stone of a block with two or more liberties, or
        // an opponent stone in atari (whose last liberty, being next to it, is `p`).
        let c = color.index();
        let o = color.opponent().index();
        let safe = self.empty() | self.stones[c].and_not(self.atari[c]) | self.atari[o];
        (self.geometry.neighbours(Bitboard::from_point(p)) & safe).is_empty()
    }

    /// Whether the side to move may play on `p` (on the board, empty, not a ko retake, not suicide
    /// unless the rules allow it).
    #[must_use]
    #[inline]
    pub fn is_legal(&self, p: Point) -> bool {
        self.check_as(self.to_move, p).is_ok()
    }

    /// Every point the side to move may play, computed in bulk: an empty point is legal when it has an
    /// empty neighbour, touches an own block with two or more liberties, or touches an opponent block
    /// in atari (it is then that block's last liberty); minus the ko point.
    #[must_use]
    #[inline]
    pub fn legal_moves(&self) -> Bitboard {
        let empty = self.empty();
        let mut ok = if self.rules.suicide {
            empty
        } else {
            let c = self.to_move.index();
            let o = 1 - c;
            let safe = empty | self.stones[c].and_not(self.atari[c]) | self.atari[o];
            self.geometry.neighbours(safe) & empty
        };
        if let Some(k) = self.ko {
            ok.clear(k);
        }
        ok
    }

    /// Plays a move for the side to move, or says why it is illegal (the board is then unchanged).
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.try_play_as(self.to_move, mv)
    }

    /// Plays a move for `color`, whoever is to move (as GTP `play` does); the other side moves next.
    /// The ko ban binds only the side to move, so it does not stop the side that just played.
    pub fn try_play_as(&mut self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        if let Move::Play(p) = mv {
            self.check_as(color, p)?;
        }
        self.play_as_unchecked(color, mv);
        Ok(())
    }

    /// Plays a move for the side to move.
    ///
    /// # Panics
    /// If the move is illegal.
    pub fn play(&mut self, mv: Move) {
        if let Err(e) = self.try_play(mv) {
            panic!("illegal move {mv:?}: {e}");
        }
    }

    /// Plays a move for the side to move without checking it; the caller guarantees legality
    /// (e.g. the move comes from [`Board::legal_moves`]). An illegal move corrupts the board.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        self.play_as_unchecked(self.to_move, mv);
    }

    /// Passes for the side to move: lifts the ko ban and hands over the turn.
    pub fn pass(&mut self) {
        self.play_as_unchecked(self.to_move, Move::Pass);
    }

    fn play_as_unchecked(&mut self, color: Color, mv: Move) {
        if self.keep_history {
            self.history.push(Record {
                mv,
                stones: self.stones,
                atari: self.atari,
                to_move: self.to_move,
                ko: self.ko,
                hash: self.hash,
                captures: self.captures,
                passes: self.passes,
                block_trail: self.block_trail.len() as u32,
                parent_trail: self.parent_trail.len() as u32,
            });
        }
        let new_ko = match mv {
            Move::Pass => {
                self.passes += 1;
                None
            }
            Move::Play(p) => {
                self.passes = 0;
                self.place(color, p)
            }
        };
        let next = color.opponent();
        self.hash ^= zobrist::side_key(self.to_move)
            ^ zobrist::side_key(next)
            ^ self.ko.map_or(0, zobrist::ko_key)
            ^ new_ko.map_or(0, zobrist::ko_key);
        self.to_move = next;
        self.ko = new_ko;
    }

    /// Puts a stone of `color` on the empty point `p`: merges, captures, suicide. Returns the new ko
    /// point.
    fn place(&mut self, color: Color, p: Point) -> Option<Point> {
        debug_assert!(self.geometry.mask().contains(p) && !self.occupied().contains(p));
        let c = color.index();
        let pb = Bitboard::from_point(p);
        let empty = self.empty();
        let adjacent = self.adjacent(color, p);

        self.stones[c] |= pb;
        self.hash ^= zobrist::stone_key(color, p);
        let (root, mut merged) = self.merge_own(p, &adjacent, adjacent.points & empty);
        let captured = self.take_liberty(color.opponent(), p, &adjacent);

        if captured.any() {
            self.remove_stones(color.opponent(), captured);
            merged.libs |= self.geometry.neighbours(merged.stones) & captured;
            self.set_block(root, merged, color);
            // Other own blocks next to the captured stones gain liberties.
            let touched =
                (self.geometry.neighbours(captured) & self.stones[c]).and_not(merged.stones);
            self.add_liberties(touched, captured, color);
            if self.rules.simple_ko && merged.stones == pb && captured.count() == 1 {
                // A lone stone that took a lone stone and has that point as its only liberty.
                if merged.libs == captured {
                    return captured.first();
                }
            }
            return None;
        }

        self.set_block(root, merged, color);
        if merged.libs.is_empty() {
            // Suicide (only reached when the rules allow it): the block leaves the board.
            debug_assert!(self.rules.suicide);
            self.remove_stones(color, merged.stones);
            let touched =
                self.geometry.neighbours(merged.stones) & self.stones[color.opponent().index()];
            self.add_liberties(touched, merged.stones, color.opponent());
        }
        None
    }

    /// The on-board neighbours of `p`, found by index arithmetic (cheaper than iterating a
    /// bitboard), and the distinct roots of the blocks of each colour among them.
    #[inline(always)]
    fn adjacent(&self, color: Color, p: Point) -> Adjacent {
        let (c, o) = (color.index(), color.opponent().index());
        let g = &self.geometry;
        let i = p.index();
        let (row, col) = (p.row(), p.col());
        let mut nbr_idx = [0usize; 4];
        let mut n_nbr = 0;
        for (ok, q) in [
            (row > 0, i.wrapping_sub(STRIDE)),
            (col > 0, i.wrapping_sub(1)),
            (col + 1 < g.cols(), i + 1),
            (row + 1 < g.rows(), i + STRIDE),
        ] {
            if ok {
                nbr_idx[n_nbr] = q;
                n_nbr += 1;
            }
        }
        let mut adjacent = Adjacent {
            points: Bitboard::EMPTY,
            own: [0; 4],
            n_own: 0,
            opp: [0; 4],
            n_opp: 0,
        };
        for &q in &nbr_idx[..n_nbr] {
            let (w, bit) = (q / 64, 1u64 << (q % 64));
            adjacent.points.0[w] |= bit;
            if self.stones[c].0[w] & bit != 0 {
                let r = self.find_index(q);
                if !adjacent.own[..adjacent.n_own].contains(&r) {
                    adjacent.own[adjacent.n_own] = r;
                    adjacent.n_own += 1;
                }
            } else if self.stones[o].0[w] & bit != 0 {
                let r = self.find_index(q);
                if !adjacent.opp[..adjacent.n_opp].contains(&r) {
                    adjacent.opp[adjacent.n_opp] = r;
                    adjacent.n_opp += 1;
                }
            }
        }
        adjacent
    }

    /// Merges the new stone at `p` (with liberties `libs`) and its own neighbouring blocks under
    /// the largest of them (union by size). Returns the root and the merged block, not yet stored.
    #[inline(always)]
    fn merge_own(&mut self, p: Point, adjacent: &Adjacent, libs: Bitboard) -> (usize, Block) {
        let own = &adjacent.own[..adjacent.n_own];
        let mut merged = Block {
            stones: Bitboard::from_point(p),
            libs,
        };
        let mut root = if own.is_empty() { p.index() } else { own[0] };
        let mut root_size = 0;
        for &r in own {
            let b = self.blocks[r];
            merged.stones |= b.stones;
            merged.libs |= b.libs;
            if own.len() > 1 {
                let size = b.stones.count();
                if size > root_size {
                    root = r;
                    root_size = size;
                }
            }
        }
        merged.libs.clear(p);
        for &r in own {
            if r != root {
                self.set_parent(r, root);
            }
        }
        self.set_parent(p.index(), root);
        (root, merged)
    }

    /// The neighbouring blocks of `color` lose the liberty `p`; returns the stones of those left
    /// without one (still on the board).
    #[inline(always)]
    fn take_liberty(&mut self, color: Color, p: Point, adjacent: &Adjacent) -> Bitboard {
        let mut captured = Bitboard::EMPTY;
        for &r in &adjacent.opp[..adjacent.n_opp] {
            let mut b = self.blocks[r];
            b.libs.clear(p);
            if b.libs.is_empty() {
                captured |= b.stones;
            } else {
                self.set_block(r, b, color);
            }
        }
        captured
    }

    /// Takes `stones` of `color` off the board; they count as captures for the opponent.
    #[inline(always)]
    fn remove_stones(&mut self, color: Color, stones: Bitboard) {
        let c = color.index();
        self.stones[c] ^= stones;
        self.atari[c] = self.atari[c].and_not(stones);
        self.hash ^= zobrist::stones_hash(color, stones);
        self.captures[color.opponent().index()] += stones.count();
    }

    /// The blocks of `color` that hold stones of `touched` gain the points of `freed` next to them.
    #[inline(always)]
    fn add_liberties(&mut self, mut touched: Bitboard, freed: Bitboard, color: Color) {
        while let Some(q) = touched.first() {
            let r = self.find(q);
            let mut b = self.blocks[r];
            b.libs |= self.geometry.neighbours(b.stones) & freed;
            touched = touched.and_not(b.stones);
            self.set_block(r, b, color);
        }
    }

    /// Takes back the last move (pass included) and returns it.
    pub fn undo(&mut self) -> Result<Move, NothingToUndo> {
        let r = self.history.pop().ok_or(NothingToUndo)?;
        while self.block_trail.len() > r.block_trail as usize {
            let (i, b) = self.block_trail.pop().expect("trail longer than mark");
            self.blocks[i as usize] = b;
        }
        while self.parent_trail.len() > r.parent_trail as usize {
            let (i, v) = self.parent_trail.pop().expect("trail longer than mark");
            self.parent[i as usize] = v;
        }
        self.stones = r.stones;
        self.atari = r.atari;
        self.to_move = r.to_move;
        self.ko = r.ko;
        self.hash = r.hash;
        self.captures = r.captures;
        self.passes = r.passes;
        Ok(r.mv)
    }

    /// Area score from Black's point of view: Black's stones and territory minus White's, minus
    /// `komi` (see [`crate::score`]).
    #[must_use]
    pub fn area_score(&self, komi: f64) -> f64 {
        let [b, w] = crate::score::area(&self.geometry, self.stones[0], self.stones[1]);
        f64::from(b) - f64::from(w) - komi
    }

    /// Debug check (KataGo's `checkConsistency`): the blocks, liberties, union-find trees, ko point
    /// and hash agree with a rebuild from the stones alone. Returns the first disagreement found.
    pub fn check_consistency(&self) -> Result<(), String> {
        let g = &self.geometry;
        let [black, white] = self.stones;
        if (black & white).any() {
            return Err(format!("points with both colours: {:?}", black & white));
        }
        if self.occupied().and_not(g.mask()).any() {
            return Err("stones off the board".into());
        }
        let (_, fresh, atari) = self.rebuild_tables();
        if atari != self.atari {
            return Err(format!(
                "atari sets {:?} differ from rebuilt {atari:?}",
                self.atari
            ));
        }
        for color in Color::ALL {
            let mine = self.stones[color.index()];
            let mut rest = mine;
            while let Some(p) = rest.first() {
                let want = fresh[p.index()];
                for q in want.stones.iter() {
                    let r = self.find(q);
                    let have = self.blocks[r];
                    if have != want {
                        return Err(format!(
                            "{color} block at {q} (root {r}): have {have:?}, rebuilt {want:?}"
                        ));
                    }
                    if !mine.contains(Point::from_index(r).ok_or("bad root")?) {
                        return Err(format!("root {r} of {q} holds no {color} stone"));
                    }
                }
                if want.libs.is_empty() {
                    return Err(format!("{color} block at {p} has no liberty"));
                }
                rest = rest.and_not(want.stones);
            }
        }
        if let Some(k) = self.ko {
            if !self.rules.simple_ko {
                return Err("ko point set without the ko rule".into());
            }
            let problems = self.to_setup().problems();
            if !problems.is_empty() {
                return Err(format!("bad ko point {k}: {problems:?}"));
            }
        }
        let want = zobrist::position_hash(black, white, self.to_move, self.ko);
        if self.hash != want {
            return Err(format!(
                "hash {:#x} differs from scratch {want:#x}",
                self.hash
            ));
        }
        Ok(())
    }
}

impl fmt::Display for Board {
    /// The diagram: one line per row, top row first, `X` black, `O` white, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Plays the moves picked by `choices` (an index into the legal moves, or a pass when the index
    /// is a multiple of 17), returning the setups and hashes before each move.
    fn play_choices(b: &mut Board, choices: &[usize]) -> Vec<(Setup, u64, u32)> {
        let mut seen = Vec::new();
        for &c in choices {
            seen.push((b.to_setup(), b.hash(), b.passes()));
            let legal: Vec<Point> = b.legal_moves().iter().collect();
            if legal.is_empty() || c % 17 == 0 {
                b.pass();
            } else {
                b.play(Move::Play(legal[c % legal.len()]));
            }
        }
        seen
    }

    fn rules_from(i: u8) -> Rules {
        Rules {
            suicide: i & 1 != 0,
            simple_ko: i & 2 == 0,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Undoing every move returns to each earlier position exactly, hash included.
        #[test]
        fn play_undo_round_trip(
            rows in 1usize..=7,
            cols in 1usize..=7,
            rules in 0u8..4,
            choices in proptest::collection::vec(0usize..1000, 0..120),
        ) {
            let mut b = Board::new(Geometry::new(rows, cols).unwrap(), rules_from(rules));
            let seen = play_choices(&mut b, &choices);
            prop_assert!(b.check_consistency().is_ok(), "{:?}", b.check_consistency());
            for want in seen.into_iter().rev() {
                b.undo().unwrap();
                prop_assert_eq!((b.to_setup(), b.hash(), b.passes()), want);
            }
            prop_assert!(b.undo().is_err());
        }

        /// A board rebuilt from its setup agrees with the played one (blocks, hash, legal moves),
        /// and a clone keeps playing identically.
        #[test]
        fn setup_round_trip(
            n in 2usize..=9,
            rules in 0u8..4,
            choices in proptest::collection::vec(0usize..1000, 0..150),
        ) {
            let mut b = Board::new(Geometry::new(n, n).unwrap(), rules_from(rules));
            play_choices(&mut b, &choices);
            let c = Board::from_setup(b.to_setup(), b.rules()).unwrap();
            prop_assert!(c.check_consistency().is_ok());
            prop_assert_eq!(c.hash(), b.hash());
            prop_assert_eq!(c.legal_moves(), b.legal_moves());
            let mut d = Board::new(*b.geometry(), b.rules());
            d.clone_from(&b);
            for p in b.legal_moves().iter() {
                let mut x = b.clone();
                x.play(Move::Play(p));
                d.play(Move::Play(p));
                prop_assert_eq!(x.hash(), d.hash());
                prop_assert!(d.check_consistency().is_ok());
                d.undo().unwrap();
            }
        }
    }
}
