//! Ladder reading on [`PlayoutBoard`]: whether a chain in atari can run, and whether an atari on a
//! chain with two liberties catches it.
//!
//! The reading is the usual narrow one (as in Michi and Pachi's playouts): the defender, to move
//! with a chain in atari, may capture an attacking chain in atari next to it or extend at its
//! liberty; three liberties or more after that is an escape, one is death, and two lets the
//! attacker try an atari at each of the two liberties in turn. A read that passes
//! [`LADDER_DEPTH`] plies or [`LADDER_BUDGET`] positions counts as an escape, so a failed read
//! never makes a playout give up a chain. Each position of the read is a copy of the board (no
//! undo on the playout board) into a per-thread scratch board, of the slots the board uses only
//! ([`PlayoutBoard::copy_from`]); most ataris in the open need no read at all (three empty
//! points around the chain's other liberty let it run).
//!
//! `tests` compare every answer with the same reading on [`crate::Board`] (play and undo, bitboard
//! liberties) along random playouts.

use std::cell::RefCell;

use super::board::{code, PlayoutBoard, EMPTY, OFF, SLOT_MASK};

thread_local! {
    /// Boards the reads of this thread copy positions into (one per ply in use), kept between
    /// reads so that a read allocates nothing.
    static SCRATCH: RefCell<Vec<Box<PlayoutBoard>>> = const { RefCell::new(Vec::new()) };
}

/// A scratch copy of `board` with the slot `x` played, handed to `f`.
pub(super) fn after<T>(board: &PlayoutBoard, x: usize, f: impl FnOnce(&PlayoutBoard) -> T) -> T {
    let mut b = SCRATCH
        .with(|s| s.borrow_mut().pop())
        .unwrap_or_else(|| Box::new(board.clone()));
    b.copy_from(board);
    b.play_slot(x);
    let out = f(&b);
    SCRATCH.with(|s| s.borrow_mut().push(b));
    out
}

/// Plies a ladder read may go down before it gives up (counting the chain as escaped).
pub const LADDER_DEPTH: u32 = 80;
/// Board positions a ladder read may look at before it gives up (counting the chain as escaped).
pub const LADDER_BUDGET: u32 = 200;

impl PlayoutBoard {
    /// Distinct liberties of the chain with root `r`, up to three: how many (0 to 3; 3 means three
    /// or more) and the first two found.
    pub(super) fn liberties3(&self, r: usize) -> (usize, [usize; 2]) {
        let mut found = [0usize; 3];
        let mut n = 0;
        let mut t = r;
        loop {
            for q in self.neighbours(t) {
                if self.colour[q] == EMPTY && !found[..n].contains(&q) {
                    found[n] = q;
                    n += 1;
                    if n == 3 {
                        return (3, [found[0], found[1]]);
                    }
                }
            }
            t = self.next[t] as usize & SLOT_MASK;
            if t == r {
                break;
            }
        }
        (n, [found[0], found[1]])
    }

    /// Whether the side to move, playing the liberty of its chain through `s` (in atari), runs
    /// into a ladder: after the extension the chain has at most one liberty, or two and an atari
    /// catches it. False when the chain is not in atari or the liberty cannot be played.
    #[must_use]
    pub(super) fn extension_caught(&self, s: usize) -> bool {
        let r = self.root(s);
        let Some(lib) = self.atari_liberty(r) else {
            return false;
        };
        let c = code(self.to_move);
        if lib == self.ko as usize || !self.is_legal_empty(lib, c) {
            return false;
        }
        let mut budget = LADDER_BUDGET;
        !self.escapes_after(s, lib, LADDER_DEPTH, &mut budget)
    }

    /// Whether the side to move, playing the empty slot `x` next to the opponent's chain through
    /// `s` (two liberties), puts it in atari and catches it in a ladder.
    #[must_use]
    pub(super) fn atari_catches(&self, s: usize, x: usize) -> bool {
        // The chain's other liberty: with three empty neighbours besides `x` the chain extends
        // there to three liberties at least, so no read is needed (most ataris in the open).
        let (n, libs) = self.liberties3(self.root(s));
        if n != 2 || !libs.contains(&x) {
            return false;
        }
        let other = if libs[0] == x { libs[1] } else { libs[0] };
        let empties = self
            .neighbours(other)
            .iter()
            .filter(|&&q| q != x && self.colour[q] == EMPTY)
            .count();
        if empties >= 3 {
            return false;
        }
        let mut budget = LADDER_BUDGET - 1;
        after(self, x, |b| {
            b.colour[s] != EMPTY
                && b.in_atari(b.root(s))
                && b.caught(s, LADDER_DEPTH - 1, &mut budget)
        })
    }

    /// Whether the side to move, playing the legal slot `x` next to its chain through `s` (in
    /// atari), gets it out of the ladder (as [`PlayoutBoard::extension_caught`] reads it).
    #[must_use]
    pub(super) fn saved_by(&self, s: usize, x: usize) -> bool {
        let mut budget = LADDER_BUDGET;
        self.escapes_after(s, x, LADDER_DEPTH, &mut budget)
    }

    /// Whether the side to move, whose chain through the stone on slot `s` is in atari, loses it
    /// to a ladder within `depth` plies and `budget` positions: no capture of an attacker next to
    /// it and no extension gets it out (see the module docs). False when the chain is not in
    /// atari.
    fn caught(&self, s: usize, depth: u32, budget: &mut u32) -> bool {
        let me = code(self.to_move);
        let opp = 3 - me;
        let r = self.root(s);
        let Some(lib) = self.atari_liberty(r) else {
            return false;
        };
        let ko = self.ko as usize;
        // Capture an attacking chain in atari next to the chain (each point tried once).
        let mut tried = [0usize; 8];
        let mut n_tried = 0;
        let mut t = r;
        loop {
            for q in self.neighbours(t) {
                if self.colour[q] != opp {
                    continue;
                }
                if let Some(x) = self.atari_liberty(self.root(q)).filter(|&x| x != ko) {
                    if tried[..n_tried].contains(&x) {
                        continue;
                    }
                    if n_tried < tried.len() {
                        tried[n_tried] = x;
                        n_tried += 1;
                    }
                    if self.escapes_after(s, x, depth, budget) {
                        return false;
                    }
                }
            }
            t = self.next[t] as usize & SLOT_MASK;
            if t == r {
                break;
            }
        }
        // Extend (unless that was a capture just tried).
        !(lib != ko
            && !tried[..n_tried].contains(&lib)
            && self.is_legal_empty(lib, me)
            && self.escapes_after(s, lib, depth, budget))
    }

    /// Whether the side to move, playing the legal slot `x`, leaves its chain through `s` safe from
    /// a ladder: three liberties or more, or two and no atari catches it (out of depth or budget
    /// counts as safe).
    fn escapes_after(&self, s: usize, x: usize, depth: u32, budget: &mut u32) -> bool {
        if depth == 0 || *budget == 0 {
            return true;
        }
        *budget -= 1;
        after(self, x, |b| match b.liberties3(b.root(s)).0 {
            0 | 1 => false,
            2 => b.attack(s, depth - 1, budget).is_none(),
            _ => true,
        })
    }

    /// The atari at one of the two liberties of the opponent's chain through slot `s` that
    /// catches it in a ladder within `depth` plies and `budget` positions, if one does (the side
    /// to move attacking).
    fn attack(&self, s: usize, depth: u32, budget: &mut u32) -> Option<usize> {
        let me = code(self.to_move);
        let r = self.root(s);
        let (n, libs) = self.liberties3(r);
        if n != 2 || self.colour[s] != 3 - me || depth == 0 {
            return None;
        }
        for x in libs {
            if x == self.ko as usize || !self.is_legal_empty(x, me) {
                continue;
            }
            if *budget == 0 {
                return None;
            }
            *budget -= 1;
            // The atari may capture something next to it and give the chain a liberty back.
            let hit = after(self, x, |b| {
                b.colour[s] != OFF
                    && b.colour[s] != EMPTY
                    && b.in_atari(b.root(s))
                    && b.caught(s, depth - 1, budget)
            });
            if hit {
                return Some(x);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{Bitboard, Geometry, Point};
    use crate::board::{Board, Move};
    use crate::color::Color;
    use crate::playout::Progress;
    use crate::rng::Rng;
    use crate::Rules;

    fn both(diagram: &str, to_move: Color) -> (PlayoutBoard, Board) {
        let mut setup: crate::Setup = diagram.parse().unwrap();
        setup.to_move = to_move;
        let board = Board::from_setup(setup, Rules::STANDARD).unwrap();
        (crate::mcts::playout_board(&board), board)
    }

    /// The reference: the same reading on [`Board`] with play and undo and bitboard liberties, no
    /// budget (the positions compared never reach the playout reader's limits: see the test).
    fn caught_naive(b: &mut Board, p: Point, depth: u32, nodes: &mut u32) -> bool {
        let me = b.to_move();
        let libs = b.liberties(p);
        if libs.count() != 1 || b.color_at(p) != Some(me) {
            return false;
        }
        let lib = libs.first().unwrap();
        let g = *b.geometry();
        let mut tries: Vec<Point> = Vec::new();
        let around = g.neighbours(b.block(p)) & b.stones(me.opponent());
        for q in around.iter() {
            let l = b.liberties(q);
            if l.count() == 1 && !tries.contains(&l.first().unwrap()) {
                tries.push(l.first().unwrap());
            }
        }
        if !tries.contains(&lib) {
            tries.push(lib);
        }
        for x in tries {
            if !b.is_legal(x) {
                continue;
            }
            if escapes_naive(b, p, x, depth, nodes) {
                return false;
            }
        }
        true
    }

    fn escapes_naive(b: &mut Board, p: Point, x: Point, depth: u32, nodes: &mut u32) -> bool {
        *nodes += 1;
        if depth == 0 {
            return true;
        }
        b.play(Move::Play(x));
        let n = b.liberties(p).count();
        let out = match n {
            0 | 1 => false,
            2 => attack_naive(b, p, depth - 1, nodes).is_none(),
            _ => true,
        };
        b.undo().unwrap();
        out
    }

    fn attack_naive(b: &mut Board, p: Point, depth: u32, nodes: &mut u32) -> Option<Point> {
        let libs: Vec<Point> = b.liberties(p).iter().collect();
        if libs.len() != 2 || b.color_at(p) != Some(b.to_move().opponent()) || depth == 0 {
            return None;
        }
        for x in libs {
            if !b.is_legal(x) {
                continue;
            }
            *nodes += 1;
            b.play(Move::Play(x));
            let hit = b.color_at(p).is_some()
                && b.liberties(p).count() == 1
                && caught_naive(b, p, depth - 1, nodes);
            b.undo().unwrap();
            if hit {
                return Some(x);
            }
        }
        None
    }

    fn caught(pb: &PlayoutBoard, s: usize) -> bool {
        pb.caught(s, LADDER_DEPTH, &mut LADDER_BUDGET.clone())
    }

    fn attack(pb: &PlayoutBoard, s: usize) -> Option<usize> {
        pb.attack(s, LADDER_DEPTH, &mut LADDER_BUDGET.clone())
    }

    fn at(rc: (usize, usize)) -> Point {
        Point::new(rc.0, rc.1)
    }

    /// Black's C7-D7 on 9x9 with White around it, before the atari (White to move) and after it
    /// at E7 (Black to move), with and without a black stone at G3 on the ladder's path.
    const BEFORE: &str = ".........\n..OO.....\n.OXX.....\n..O......\n.........\n.........\n\
                          .........\n.........\n.........\n";
    const AFTER: &str = ".........\n..OO.....\n.OXXO....\n..O......\n.........\n.........\n\
                         .........\n.........\n.........\n";

    fn with_breaker(d: &str) -> String {
        let mut rows: Vec<String> = d.lines().map(str::to_owned).collect();
        rows[6] = "......X..".to_owned();
        rows.join("\n") + "\n"
    }

    #[test]
    fn the_classic_ladder_and_its_breaker() {
        // C7-D7 has one liberty, D6, nothing to capture, and extending there gives two: the
        // ladder runs to the lower right edge and works.
        let (pb, mut b) = both(AFTER, Color::Black);
        let s = pb.slot(at((2, 2)));
        assert!(pb.in_atari(pb.root(s)));
        assert!(caught(&pb, s));
        assert!(pb.extension_caught(s));
        assert!(caught_naive(&mut b, at((2, 2)), LADDER_DEPTH, &mut 0));
        // G3 breaks it.
        let (pb, mut b) = both(&with_breaker(AFTER), Color::Black);
        let s = pb.slot(at((2, 2)));
        assert!(!caught(&pb, s));
        assert!(!pb.extension_caught(s));
        assert!(!caught_naive(&mut b, at((2, 2)), LADDER_DEPTH, &mut 0));
    }

    #[test]
    fn an_atari_that_starts_a_ladder() {
        // White to move: C7-D7 has two liberties, E7 and D6. The atari at E7 drives it into the
        // ladder; the one at D6 lets it out at E7 (three liberties).
        let (pb, _) = both(BEFORE, Color::White);
        let s = pb.slot(at((2, 2)));
        assert_eq!(attack(&pb, s), Some(pb.slot(at((2, 4)))));
        let (pb, _) = both(&with_breaker(BEFORE), Color::White);
        assert_eq!(attack(&pb, pb.slot(at((2, 2)))), None);
    }

    #[test]
    fn capturing_an_attacker_escapes() {
        // Black C7 is in atari (liberty C6), but White's D7 is in atari too (liberty D6): Black
        // takes it and is out.
        let d = ".........\n..OX.....\n.OXOX....\n.........\n.........\n.........\n\
                 .........\n.........\n.........\n";
        let (pb, mut b) = both(d, Color::Black);
        let s = pb.slot(at((2, 2)));
        assert!(pb.in_atari(pb.root(s)));
        assert!(!caught(&pb, s));
        assert!(!caught_naive(&mut b, at((2, 2)), LADDER_DEPTH, &mut 0));
        // Extending instead (C6), read on its own, as the reference reads it.
        assert_eq!(
            pb.extension_caught(s),
            !escapes_naive(&mut b, at((2, 2)), at((3, 2)), LADDER_DEPTH, &mut 0)
        );
    }

    #[test]
    fn ladder_reads_match_the_board_reference() {
        // Along random tactical playouts: every chain in atari of the side to move (is it caught?)
        // and every opponent chain with two liberties (is there an atari that catches it, and is
        // the one found such an atari?), read on the playout board and on Board with play and
        // undo. Both read without a position budget here (reads that would pass 100,000
        // positions are skipped).
        const HUGE: u32 = 100_000;
        let mut checked = [0u32; 2];
        let mut found = [0u32; 2];
        for (rows, cols) in [(9, 9), (13, 13), (7, 11)] {
            let g = Geometry::new(rows, cols).unwrap();
            let mut rng = Rng::new(5);
            for _ in 0..30 {
                let mut pb = PlayoutBoard::new(g);
                let mut board = Board::new(g, Rules::STANDARD);
                let mut game = Progress::default();
                while game.going(2 * g.area()) {
                    let me = pb.to_move();
                    let mut seen = Bitboard::default();
                    for p in (pb.stones(Color::Black) | pb.stones(Color::White)).iter() {
                        if seen.contains(p) {
                            continue;
                        }
                        seen |= board.block(p);
                        let s = pb.slot(p);
                        let (mut nodes, mut budget) = (0, HUGE);
                        let libs = board.liberties(p).count();
                        if board.color_at(p) == Some(me) && libs == 1 {
                            let naive = caught_naive(&mut board, p, LADDER_DEPTH, &mut nodes);
                            let fast = pb.caught(s, LADDER_DEPTH, &mut budget);
                            if nodes < HUGE && budget > 0 {
                                assert_eq!(fast, naive, "{p}");
                                checked[0] += 1;
                                found[0] += u32::from(naive);
                            }
                        } else if board.color_at(p) == Some(me.opponent()) && libs == 2 {
                            let working: Vec<Point> = board
                                .liberties(p)
                                .iter()
                                .filter(|&x| {
                                    // The reference's one-atari read, atari by atari.
                                    if !board.is_legal(x) {
                                        return false;
                                    }
                                    board.play(Move::Play(x));
                                    let hit = board.color_at(p).is_some()
                                        && board.liberties(p).count() == 1
                                        && caught_naive(
                                            &mut board,
                                            p,
                                            LADDER_DEPTH - 1,
                                            &mut nodes,
                                        );
                                    board.undo().unwrap();
                                    hit
                                })
                                .collect();
                            let fast = pb.attack(s, LADDER_DEPTH, &mut budget);
                            if nodes < HUGE && budget > 0 {
                                assert_eq!(fast.is_some(), !working.is_empty(), "{p}");
                                if let Some(x) = fast {
                                    assert!(working.contains(&pb.point(x)), "{p}");
                                }
                                if nodes < LADDER_BUDGET / 4 {
                                    for x in board.liberties(p).iter() {
                                        if board.is_legal(x) {
                                            let hit = pb.atari_catches(s, pb.slot(x));
                                            assert_eq!(
                                                hit,
                                                working.contains(&x),
                                                "{p} {x}\n{board}"
                                            );
                                        }
                                    }
                                }
                                checked[1] += 1;
                                found[1] += u32::from(fast.is_some());
                            }
                        }
                    }
                    let mv = pb.tactical_move(&mut rng, game.last);
                    pb.play(mv);
                    board.play(mv);
                    game.played(mv);
                }
            }
        }
        assert!(checked[0] > 1000 && found[0] > 100, "{checked:?} {found:?}");
        assert!(checked[1] > 1000 && found[1] > 100, "{checked:?} {found:?}");
    }
}
