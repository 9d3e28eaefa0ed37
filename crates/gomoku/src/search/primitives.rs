//! The threat primitives shared by the real-board search ([`super::tss`]) and the dependency-based
//! search ([`super::dbs`]): modes, limits, proofs, outcomes, and the move sets read from a board's
//! per-colour class sets (five points, win moves, fours, threes) with the squares that influence them.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::{Bitboard, Board, Color, Direction, Pattern, Point, Rule};

thread_local! {
    /// The stop flag of the threat searches started on this thread ([`with_stop`]).
    static STOP: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `f` with `flag` as the stop flag of every threat search it starts on this thread: while
/// the flag is set, a search stops as at its limits (it reports no win, and `aborted`). The
/// engine's searches run under its abort flag, so that a front end's `YXSTOP` also ends the
/// threat-space phases of a move, not only its alpha-beta.
pub fn with_stop<R>(flag: Arc<AtomicBool>, f: impl FnOnce() -> R) -> R {
    /// Puts the previous flag back, also when `f` panics.
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let old = self.0.take();
            STOP.with(|s| *s.borrow_mut() = old);
        }
    }
    let _restore = Restore(STOP.with(|s| s.replace(Some(flag))));
    f()
}

/// The stop flag set by [`with_stop`] on this thread, if any.
pub(super) fn stop_flag() -> Option<Arc<AtomicBool>> {
    STOP.with(|s| s.borrow().clone())
}

/// Whether `flag` (from [`stop_flag`]) asks the search to stop.
#[inline]
pub(super) fn stop_requested(flag: Option<&Arc<AtomicBool>>) -> bool {
    flag.is_some_and(|f| f.load(Ordering::Relaxed))
}

/// Which threats the attacker may play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Victory by continuous fours: every attacker move makes a five point.
    Vcf,
    /// Victory by continuous threats: fours and threes.
    Vct,
}

impl Mode {
    /// The lower-case name used on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Vcf => "vcf",
            Mode::Vct => "vct",
        }
    }
}

/// Limits of one search. The search stops (and reports no win) when one is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most attacker moves in a winning line, the five included.
    pub depth: u32,
    /// The most nodes (attacker and defender moves tried).
    pub nodes: u64,
    /// The most wall-clock time.
    pub time: Option<Duration>,
}

impl Limits {
    /// Default limits of a mode: depth 40 for VCF (fours are forcing and few), 12 for VCT; a million
    /// nodes; no time limit.
    #[must_use]
    pub const fn for_mode(mode: Mode) -> Limits {
        Limits {
            depth: match mode {
                Mode::Vcf => 40,
                Mode::Vct => 12,
            },
            nodes: 1_000_000,
            time: None,
        }
    }
}

/// A winning strategy of the attacker, the attacker to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The attacker completes a five on this point.
    Five(Point),
    /// The attacker plays `attack`, a threat. `replies` lists the defender's answers that need an
    /// answer of their own, each with the attacker's winning continuation; every other defender move
    /// loses at once (it leaves a five point of the attacker open, or a win move of the attacker and no
    /// four of the defender's). The first reply is the principal one (the forced block, a cost square).
    Threat {
        attack: Point,
        replies: Vec<(Point, Proof)>,
    },
}

impl Proof {
    /// The principal line: attacker move, the defender's first listed reply, ..., the attacker's five
    /// (or, when the defender has no legal reply, the attacker's last threat).
    #[must_use]
    pub fn line(&self) -> Vec<Point> {
        let mut out = Vec::new();
        let mut node = self;
        loop {
            match node {
                Proof::Five(p) => {
                    out.push(*p);
                    return out;
                }
                Proof::Threat { attack, replies } => {
                    out.push(*attack);
                    // No listed reply: the defender has no legal answer (renju: Black may not
                    // block on a forbidden point), and the line ends here.
                    let Some((reply, next)) = replies.first() else {
                        return out;
                    };
                    out.push(*reply);
                    node = next;
                }
            }
        }
    }

    /// The number of positions in the tree (attacker moves, defender replies).
    #[must_use]
    pub fn size(&self) -> usize {
        match self {
            Proof::Five(_) => 1,
            Proof::Threat { replies, .. } => {
                1 + replies.iter().map(|(_, p)| 1 + p.size()).sum::<usize>()
            }
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// A win, if one was found.
    pub proof: Option<Proof>,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether a limit of nodes or time stopped the search (a "no win" is then not the end of it).
    pub aborted: bool,
}

/// The attacker's five points (empty cells where a stone of `c` completes a five).
#[must_use]
pub fn five_points(board: &Board, c: Color) -> Bitboard {
    board.pattern_sets(c).five
}

/// Whether `c` may not play the empty point `p`: renju's forbidden points of Black (a five is never
/// forbidden).
#[inline]
pub(crate) fn is_foul(board: &Board, p: Point, c: Color) -> bool {
    board.rule() == Rule::Renju && c == Color::Black && crate::renju::foul(board, p).is_some()
}

/// `set` without the points `c` may not play (renju: Black's forbidden points).
pub(crate) fn playable(board: &Board, set: Bitboard, c: Color) -> Bitboard {
    if board.rule() != Rule::Renju || c != Color::Black {
        return set;
    }
    let mut out = set;
    for p in set.iter() {
        if crate::renju::foul(board, p).is_some() {
            out.remove(p);
        }
    }
    out
}

/// The moves of `c` that make at least two five points at once, or a five: a straight four (open
/// four) or a double four. With no five point of the opponent on the board, such a move wins.
/// Under renju Black's forbidden points are left out (a double four is one of them).
#[must_use]
pub fn win_moves(board: &Board, c: Color) -> Bitboard {
    let sets = board.pattern_sets(c);
    let mut out = sets.five | playable(board, sets.open_four, c);
    for p in sets.four.iter() {
        if out.contains(p) {
            continue;
        }
        let fours = board
            .patterns(p, c)
            .iter()
            .filter(|&&k| k >= Pattern::Four)
            .count();
        if fours >= 2 && !is_foul(board, p, c) {
            out.insert(p);
        }
    }
    out
}

/// Whether the empty point `w` is a win move of `c` (see [`win_moves`]), from its own classes.
pub(crate) fn is_win_move(board: &Board, w: Point, c: Color) -> bool {
    let k = board.patterns(w, c);
    if k.contains(&Pattern::Five) {
        return true;
    }
    (k.iter().any(|&k| k >= Pattern::OpenFour)
        || k.iter().filter(|&&k| k >= Pattern::Four).count() >= 2)
        && !is_foul(board, w, c)
}

/// The moves of `c` that make at least one five point (fours, straight fours, double fours), fives
/// left out; under renju, not Black's forbidden points.
#[must_use]
pub fn four_moves(board: &Board, c: Color) -> Bitboard {
    let sets = board.pattern_sets(c);
    playable(board, minus(sets.four | sets.open_four, sets.five), c)
}

/// The moves of `c` that make a three: afterwards `c` has a move that makes a straight four (under
/// renju, not Black's forbidden points; a three counts when a win move follows, see [`win_moves`]).
#[must_use]
pub fn three_moves(board: &Board, c: Color) -> Bitboard {
    let sets = board.pattern_sets(c);
    playable(
        board,
        minus(sets.open_three, sets.five | sets.open_four | sets.four),
        c,
    )
}

/// `a` without the points of `b`.
pub(crate) fn minus(a: Bitboard, b: Bitboard) -> Bitboard {
    let mut out = a;
    for (r, s) in out.rows.iter_mut().zip(b.rows) {
        *r &= !s;
    }
    out
}

/// The cells on the four lines through `w` within the rule's reach, `w` itself included: in every
/// direction `keep_direction` accepts, and only the empty ones when `empty_only`.
fn reach_cells(
    board: &Board,
    w: Point,
    empty_only: bool,
    keep_direction: impl Fn(Direction) -> bool,
) -> Bitboard {
    let n = board.size() as i32;
    let reach = board.rule().reach() as i32;
    let mut out = Bitboard::EMPTY;
    for d in Direction::ALL {
        if !keep_direction(d) {
            continue;
        }
        let (dx, dy) = d.step();
        for k in -reach..=reach {
            let (x, y) = (i32::from(w.x) + k * dx, i32::from(w.y) + k * dy);
            if (0..n).contains(&x) && (0..n).contains(&y) {
                let q = Point::new(x as u8, y as u8);
                if !empty_only || board.stone(q).is_none() {
                    out.insert(q);
                }
            }
        }
    }
    out
}

/// The empty cells whose stone could change the class of `w` in some direction: `w` itself and the
/// cells within the rule's reach of it on its four lines.
#[must_use]
pub fn influence(board: &Board, w: Point) -> Bitboard {
    let mut out = reach_cells(board, w, true, |_| true);
    out.insert(w);
    out
}

/// The empty squares where a stone could take the win move `w` away from `c`: `w` and the squares
/// within reach on the lines where `w` makes at least a four.
pub(crate) fn spoilers(board: &Board, w: Point, c: Color) -> Bitboard {
    let mut out = reach_cells(board, w, true, |d| board.pattern(w, d, c) >= Pattern::Four);
    out.insert(w);
    out
}

/// The squares on the four lines through `g` within the rule's reach (whatever they hold): a three
/// there shares a line with `g`, so it may depend on it.
pub(crate) fn influence_line(board: &Board, g: Point) -> Bitboard {
    reach_cells(board, g, false, |_| true)
}

/// The Zobrist key of a stone of `c` on `p` (the one key table of the crate).
#[inline]
pub(crate) fn key(p: Point, c: Color) -> u64 {
    crate::tables::zobrist::key(p, c)
}
