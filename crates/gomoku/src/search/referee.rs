//! An independent referee for the threat-space solver: its own plain board (a [`Grid`]) and its own
//! five test (walk the line both ways and count), none of the line tables or pattern classes.
//!
//! - [`check_proof`] replays a claimed winning tree and lets the defender play **every** empty cell at
//!   every turn. A reply the tree does not list must lose at once: the defender makes no five, and the
//!   attacker then has a five point, or a move that makes two five points while the defender has none.
//!   Anything else is a [`Refutation`].
//! - [`vcf_plain`] is a plain exhaustive victory-by-continuous-fours search (every cell that makes a
//!   five point is tried; the defender's only replies that do not lose at once are the block and a
//!   five), used to measure the solver's recall. [`vcf`] gives the same answers about ten times
//!   faster (it skips cells that cannot make a four, and scans that cannot find anything), and is
//!   tested against it; the proof certificates' checker asks [`has_vcf`] at every leaf, which tries
//!   the last line it found first and searches only when that line does not win.
//!
//! Under renju neither side's Black may play a forbidden point (judged by the cell-walking
//! [`crate::renju::reference`], not the tables): the attacker's moves must be allowed, the defender's
//! forbidden points are no replies, and a four whose only block is forbidden to Black wins.

use crate::{Color, Direction, Grid, Point, Rule};

/// Why a claimed win is not one: the moves from the position to the point where it fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refutation {
    pub line: Vec<Point>,
    pub reason: String,
}

impl std::fmt::Display for Refutation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} after", self.reason)?;
        for p in &self.line {
            write!(f, " ({},{})", p.x, p.y)?;
        }
        Ok(())
    }
}

/// The referee's board.
#[derive(Clone, Debug)]
pub struct Referee {
    grid: Grid,
    rule: Rule,
}

impl Referee {
    #[must_use]
    pub fn new(grid: &Grid, rule: Rule) -> Referee {
        Referee {
            grid: grid.clone(),
            rule,
        }
    }

    fn n(&self) -> i32 {
        self.grid.size() as i32
    }

    fn at(&self, x: i32, y: i32) -> Option<Option<Color>> {
        let n = self.n();
        ((0..n).contains(&x) && (0..n).contains(&y))
            .then(|| self.grid.get(Point::new(x as u8, y as u8)))
    }

    /// The run of `c` through `p` in direction `d`, counting `p` as `c`.
    fn run(&self, p: Point, d: Direction, c: Color) -> usize {
        let (dx, dy) = d.step();
        let mut len = 1;
        for sign in [1, -1] {
            let (mut x, mut y) = (i32::from(p.x), i32::from(p.y));
            loop {
                x += sign * dx;
                y += sign * dy;
                if self.at(x, y) == Some(Some(c)) {
                    len += 1;
                } else {
                    break;
                }
            }
        }
        len
    }

    /// The stones.
    #[must_use]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Whether a stone of `c` on the empty point `p` completes a five (standard: exactly five).
    #[must_use]
    pub fn makes_five(&self, p: Point, c: Color) -> bool {
        self.grid.get(p).is_none()
            && Direction::ALL
                .iter()
                .any(|&d| self.rule.is_win(self.run(p, d, c), c))
    }

    /// Whether `c` has a five on the board.
    #[must_use]
    pub fn has_five(&self, c: Color) -> bool {
        self.grid.points().any(|p| {
            self.grid.get(p) == Some(c)
                && Direction::ALL.iter().any(|&d| {
                    let (dx, dy) = d.step();
                    // Count only from the start of a run, so each run is measured once.
                    let before = self.at(i32::from(p.x) - dx, i32::from(p.y) - dy);
                    before != Some(Some(c)) && self.rule.is_win(self.run_from(p, d, c), c)
                })
        })
    }

    fn run_from(&self, p: Point, d: Direction, c: Color) -> usize {
        let (dx, dy) = d.step();
        let (mut x, mut y, mut len) = (i32::from(p.x), i32::from(p.y), 0);
        while self.at(x, y) == Some(Some(c)) {
            len += 1;
            x += dx;
            y += dy;
        }
        len
    }

    /// Every five point of `c`, in row order. Only the cells with three stones of `c` within four
    /// of them on a line are tried (a five point has four).
    #[must_use]
    pub fn five_points(&self, c: Color) -> Vec<Point> {
        let out: Vec<Point> = self
            .may_four_cells(c)
            .into_iter()
            .filter(|&p| self.makes_five(p, c))
            .collect();
        debug_assert!(out
            .iter()
            .copied()
            .eq(self.empties().filter(|&p| self.makes_five(p, c))));
        out
    }

    /// The empty points, row by row from the top.
    pub fn empties(&self) -> impl Iterator<Item = Point> + '_ {
        self.grid.points().filter(|&p| self.grid.get(p).is_none())
    }

    /// The five points of `c` on the lines through `m`, within six cells of it.
    fn five_points_near(&self, m: Point, c: Color) -> Vec<Point> {
        let mut out = Vec::new();
        for d in Direction::ALL {
            let (dx, dy) = d.step();
            for k in -6..=6 {
                let (x, y) = (i32::from(m.x) + k * dx, i32::from(m.y) + k * dy);
                if self.at(x, y) == Some(None) {
                    let q = Point::new(x as u8, y as u8);
                    if !out.contains(&q) && self.makes_five(q, c) {
                        out.push(q);
                    }
                }
            }
        }
        out
    }

    /// The five points that the stone of `c` on `m` made, when `c` had none before it: such a
    /// point's five runs through `m`, so only the line through both is walked (a quarter of
    /// [`Referee::five_points_near`]'s work, with the same answer under that condition).
    fn new_five_points(&self, m: Point, c: Color) -> Vec<Point> {
        let mut out = Vec::new();
        for d in Direction::ALL {
            let (dx, dy) = d.step();
            // Such a five holds `m`, `q` and three more stones of `c`, all within four cells of
            // `m` on this line: fewer there, and the line has no new five point.
            let near = (-4..=4)
                .filter(|&k| {
                    self.at(i32::from(m.x) + k * dx, i32::from(m.y) + k * dy) == Some(Some(c))
                })
                .count();
            if near < 4 {
                continue;
            }
            for k in -6..=6 {
                let (x, y) = (i32::from(m.x) + k * dx, i32::from(m.y) + k * dy);
                if self.at(x, y) == Some(None) {
                    let q = Point::new(x as u8, y as u8);
                    if !out.contains(&q) && self.rule.is_win(self.run(q, d, c), c) {
                        out.push(q);
                    }
                }
            }
        }
        out
    }

    /// Puts a stone of `c` on the empty point `p`.
    pub fn play(&mut self, p: Point, c: Color) {
        self.grid.set(p, Some(c));
    }

    /// Whether `c` may not play the empty point `p` (renju: Black's forbidden points).
    #[must_use]
    pub fn is_foul(&self, p: Point, c: Color) -> bool {
        self.rule == Rule::Renju
            && c == Color::Black
            && crate::renju::reference::foul(&self.grid, p).is_some()
    }

    /// Takes the stone off `p`.
    pub fn clear(&mut self, p: Point) {
        self.grid.set(p, None);
    }

    /// With `c` having no five point, the moves of `c` that make at least two five points.
    fn double_makers(&mut self, c: Color) -> Vec<Point> {
        let cells: Vec<Point> = self.empties().collect();
        let mut out = Vec::new();
        for m in cells {
            if self.is_foul(m, c) {
                continue;
            }
            self.play(m, c);
            if self.five_points_near(m, c).len() >= 2 {
                out.push(m);
            }
            self.clear(m);
        }
        out
    }
}

/// Checks a claimed win of `attacker`, who moves first, against every defence. `Ok` with the number
/// of defender moves examined, or the first refutation found.
pub fn check_proof(
    grid: &Grid,
    rule: Rule,
    attacker: Color,
    proof: &crate::search::Proof,
) -> Result<u64, Refutation> {
    let mut r = Referee::new(grid, rule);
    let mut line = Vec::new();
    let mut count = 0;
    check_attack(&mut r, attacker, proof, &mut line, &mut count)?;
    Ok(count)
}

fn refute(line: &[Point], reason: impl Into<String>) -> Refutation {
    Refutation {
        line: line.to_vec(),
        reason: reason.into(),
    }
}

fn check_attack(
    r: &mut Referee,
    a: Color,
    proof: &crate::search::Proof,
    line: &mut Vec<Point>,
    count: &mut u64,
) -> Result<(), Refutation> {
    use crate::search::Proof;
    match proof {
        Proof::Five(p) => {
            if !r.grid.contains(*p) || !r.makes_five(*p, a) {
                return Err(refute(line, format!("({},{}) is not a five", p.x, p.y)));
            }
            Ok(())
        }
        Proof::Threat { attack, replies } => {
            if !r.grid.contains(*attack) || r.grid.get(*attack).is_some() {
                return Err(refute(line, "the attacker's move is not on an empty point"));
            }
            if r.is_foul(*attack, a) {
                line.push(*attack);
                return Err(refute(line, "the attacker's move is forbidden (renju)"));
            }
            r.play(*attack, a);
            line.push(*attack);
            let res = check_defence(r, a, replies, line, count);
            line.pop();
            r.clear(*attack);
            res
        }
    }
}

fn check_defence(
    r: &mut Referee,
    a: Color,
    replies: &[(Point, crate::search::Proof)],
    line: &mut Vec<Point>,
    count: &mut u64,
) -> Result<(), Refutation> {
    let d = !a;
    let fives = r.five_points(a);
    let mut doubles: Option<Vec<Point>> = None;
    let cells: Vec<Point> = r.empties().collect();
    for &(x, _) in replies {
        if !cells.contains(&x) {
            return Err(refute(line, "a listed reply is not an empty point"));
        }
    }
    for x in cells {
        *count += 1;
        if r.makes_five(x, d) {
            line.push(x);
            return Err(refute(line, "the defender makes five"));
        }
        if r.is_foul(x, d) {
            if replies.iter().any(|(y, _)| *y == x) {
                line.push(x);
                return Err(refute(line, "a listed reply is forbidden (renju)"));
            }
            continue;
        }
        if let Some((_, next)) = replies.iter().find(|(y, _)| *y == x) {
            r.play(x, d);
            line.push(x);
            let res = check_attack(r, a, next, line, count);
            line.pop();
            r.clear(x);
            res?;
            continue;
        }
        if fives.iter().any(|&f| f != x) {
            continue;
        }
        // The defender's stone must leave a move that makes two five points, and no five point of
        // the defender's (the defender had none: no reply made five).
        r.play(x, d);
        let ok = r.five_points_near(x, d).is_empty() && {
            let doubles = doubles.get_or_insert_with(|| {
                r.clear(x);
                let v = r.double_makers(a);
                r.play(x, d);
                v
            });
            let mut found = false;
            for &m in doubles.iter() {
                if m == x {
                    continue;
                }
                r.play(m, a);
                found = r.five_points_near(m, a).len() >= 2;
                r.clear(m);
                if found {
                    break;
                }
            }
            found || {
                let fresh = r.double_makers(a);
                !fresh.is_empty()
            }
        };
        r.clear(x);
        if !ok {
            line.push(x);
            return Err(refute(line, "the defender's reply is not answered"));
        }
    }
    Ok(())
}

/// Whether `attacker`, who moves first, has a VCF of at most `depth` fours: the same answer as
/// `vcf(..).is_some()`, found faster where the positions asked one after another share their
/// VCF (the defender's replies at one node of a proof, which mostly leave the attacker's line
/// alone). The last line found on this thread is tried first ([`vcf_line_wins`]); a line that
/// wins is a VCF, so the answer stands without a search; otherwise [`vcf`] searches, and its line
/// is kept for the next question.
#[must_use]
pub fn has_vcf(grid: &Grid, rule: Rule, attacker: Color, depth: u32) -> bool {
    thread_local! {
        static LAST: std::cell::RefCell<Vec<Point>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let mut r = Referee::new(grid, rule);
    let known =
        LAST.with_borrow(|line| !line.is_empty() && vcf_line_wins(&mut r, attacker, depth, line));
    if known {
        return true;
    }
    match vcf(grid, rule, attacker, depth) {
        Some(line) => {
            LAST.set(line);
            true
        }
        None => false,
    }
}

/// Whether `line` (as [`vcf`] writes it: attacker, block, ..., then the five point, the two five
/// points of a double four, or the five point Black may not block) is a VCF of at most `depth`
/// fours for `attacker` on `r`, who moves first. At each four, as in [`vcf`]: the defender has no
/// more than one five point and the four is played on it if it has one, the move is open (and
/// allowed, under renju), it makes exactly one five point, which the line blocks (or two, and
/// the attacker wins; or Black may not block it). The board is left as it was.
#[must_use]
pub fn vcf_line_wins(r: &mut Referee, attacker: Color, depth: u32, line: &[Point]) -> bool {
    let a = attacker;
    if !r.five_points(a).is_empty() {
        return true;
    }
    let mut theirs = r.five_points(!a);
    let mut played = Vec::with_capacity(line.len());
    let mut won = false;
    let mut left = depth;
    let mut rest = line;
    // The attacker has no five point here: none at the start, and after each block none (its
    // four made exactly one, now filled).
    while let [m, more @ ..] = rest {
        let m = *m;
        if left == 0
            || theirs.len() > 1
            || theirs.first().is_some_and(|&t| t != m)
            || !r.grid.contains(m)
            || r.grid.get(m).is_some()
            || r.is_foul(m, a)
        {
            break;
        }
        r.play(m, a);
        played.push(m);
        let fives = r.new_five_points(m, a);
        match fives.len() {
            0 => break,
            1 => {}
            _ => {
                won = true;
                break;
            }
        }
        let f = fives[0];
        if r.is_foul(f, !a) {
            won = true;
            break;
        }
        if more.first() != Some(&f) {
            break;
        }
        r.play(f, !a);
        played.push(f);
        // The defender had no five point left (a single one was where the four went), so its
        // new ones run through the block.
        theirs = r.new_five_points(f, !a);
        left -= 1;
        rest = &more[1..];
    }
    for &p in &played {
        r.clear(p);
    }
    won
}

/// An exhaustive victory-by-continuous-fours search for `attacker`, who moves first: at most
/// `depth` fours before the five. The winning line (attacker, forced block, ..., five), or `None`.
///
/// It answers exactly as [`vcf_plain`], line for line, and is tested against it; it only skips
/// work that cannot change the answer:
/// - a four needs three stones of the attacker within four cells of it on one line, so only such
///   cells are tried ([`Referee::may_four`]); below the root the set grows only along the lines
///   of the attacker's last four;
/// - below the root neither side's five points are scanned for: the attacker has none after the
///   block (the four made exactly one, now filled), and the defender's new ones run through the
///   block (the defender had none left: a single one was where the four was played);
/// - the last allowed four is not played out unless it makes two five points: after its block
///   the attacker has no five point and no four left to make.
#[must_use]
pub fn vcf(grid: &Grid, rule: Rule, attacker: Color, depth: u32) -> Option<Vec<Point>> {
    let mut r = Referee::new(grid, rule);
    // A five point is a cell where a four may be made, too: look only there.
    let near = r.may_four_cells(attacker);
    if let Some(&p) = near.iter().find(|&&q| r.makes_five(q, attacker)) {
        return Some(vec![p]);
    }
    if depth == 0 {
        return None;
    }
    let theirs = r.five_points(!attacker);
    if theirs.len() > 1 {
        return None;
    }
    let mut line = Vec::new();
    vcf_fours(
        &mut r,
        attacker,
        depth,
        theirs.first().copied(),
        &near,
        &mut line,
    )
    .then_some(line)
}

/// The attacker to move with no five point, `depth` >= 1 fours left; `theirs`: the defender's
/// single five point, if any; `near`: every empty cell where the attacker may make a four (a
/// superset, in row order).
fn vcf_fours(
    r: &mut Referee,
    a: Color,
    depth: u32,
    theirs: Option<Point>,
    near: &[Point],
    line: &mut Vec<Point>,
) -> bool {
    let only = theirs.map(|t| [t]);
    let candidates: &[Point] = match &only {
        Some(t) => t,
        None => near,
    };
    for &m in candidates {
        if r.is_foul(m, a) {
            continue;
        }
        r.play(m, a);
        let fives = r.new_five_points(m, a);
        debug_assert_eq!(fives, r.five_points_near(m, a));
        let won = match fives.len() {
            0 => false,
            1 => {
                let f = fives[0];
                if r.is_foul(f, !a) {
                    // Renju: Black may not block; the line ends with the unstoppable five point.
                    line.extend([m, f]);
                    r.clear(m);
                    return true;
                }
                if depth == 1 {
                    false
                } else {
                    r.play(f, !a);
                    let theirs = r.new_five_points(f, !a);
                    debug_assert!({
                        let mut t = theirs.clone();
                        t.sort_unstable_by_key(|q| (q.y, q.x));
                        t == r.five_points(!a)
                    });
                    let won = theirs.len() <= 1 && {
                        let near = r.near_after(near, m, a);
                        line.extend([m, f]);
                        let won = vcf_fours(r, a, depth - 1, theirs.first().copied(), &near, line);
                        if !won {
                            line.truncate(line.len() - 2);
                        }
                        won
                    };
                    r.clear(f);
                    won
                }
            }
            _ => {
                line.extend([m, fives[0], fives[1]]);
                true
            }
        };
        r.clear(m);
        if won {
            return true;
        }
    }
    false
}

impl Referee {
    /// Whether a stone of `c` on `q` could make a four: some line through `q` holds at least three
    /// stones of `c` within four cells of it (a five through `q` lies within those nine cells).
    fn may_four(&self, q: Point, c: Color) -> bool {
        Direction::ALL.iter().any(|&d| {
            let (dx, dy) = d.step();
            let (x, y) = (i32::from(q.x), i32::from(q.y));
            (-4..=4)
                .filter(|&k| k != 0 && self.at(x + k * dx, y + k * dy) == Some(Some(c)))
                .count()
                >= 3
        })
    }

    /// The empty cells where [`Referee::may_four`] admits `c`, in row order, counted from the
    /// stones of `c` (each adds one to the eight cells within four of it on each line) instead of
    /// walking out from every empty cell.
    fn may_four_cells(&self, c: Color) -> Vec<Point> {
        let n = self.n();
        let mut counts = vec![[0u8; 4]; self.grid.size() * self.grid.size()];
        for s in self.grid.points().filter(|&s| self.grid.get(s) == Some(c)) {
            for d in Direction::ALL {
                let (dx, dy) = d.step();
                for k in (-4..=4).filter(|&k| k != 0) {
                    let (x, y) = (i32::from(s.x) + k * dx, i32::from(s.y) + k * dy);
                    if (0..n).contains(&x) && (0..n).contains(&y) {
                        counts[(y * n + x) as usize][d.index()] += 1;
                    }
                }
            }
        }
        let out: Vec<Point> = self
            .empties()
            .filter(|q| {
                let i = usize::from(q.y) * self.grid.size() + usize::from(q.x);
                counts[i].iter().any(|&k| k >= 3)
            })
            .collect();
        debug_assert!(out
            .iter()
            .copied()
            .eq(self.empties().filter(|&q| self.may_four(q, c))));
        out
    }

    /// `near` (the cells where `c` may make a four, a superset, in row order) after `c` played
    /// `m` and a stone filled some cells: the empty ones of `near`, and the cells on the lines
    /// through `m`, within four of it, that [`Referee::may_four`] now admits (only those gained a
    /// stone of `c` within reach).
    fn near_after(&self, near: &[Point], m: Point, c: Color) -> Vec<Point> {
        let mut out: Vec<Point> = near
            .iter()
            .copied()
            .filter(|&q| self.grid.get(q).is_none())
            .collect();
        for d in Direction::ALL {
            let (dx, dy) = d.step();
            for k in (-4..=4).filter(|&k| k != 0) {
                let (x, y) = (i32::from(m.x) + k * dx, i32::from(m.y) + k * dy);
                if self.at(x, y) == Some(None) {
                    let q = Point::new(x as u8, y as u8);
                    if self.may_four(q, c) {
                        out.push(q);
                    }
                }
            }
        }
        out.sort_unstable_by_key(|q| (q.y, q.x));
        out.dedup();
        out
    }
}

/// A plain exhaustive VCF search for `attacker`, who moves first: at most `depth` fours before the
/// five. The winning line (attacker, forced block, ..., five), or `None`. Every empty cell is tried
/// at every level and both sides' five points are found by scanning the board: the reference
/// that [`vcf`] is tested against.
#[must_use]
pub fn vcf_plain(grid: &Grid, rule: Rule, attacker: Color, depth: u32) -> Option<Vec<Point>> {
    let mut r = Referee::new(grid, rule);
    let mut line = Vec::new();
    vcf_attack(&mut r, attacker, depth, &mut line).then_some(line)
}

fn vcf_attack(r: &mut Referee, a: Color, depth: u32, line: &mut Vec<Point>) -> bool {
    if let Some(&p) = r.five_points(a).first() {
        line.push(p);
        return true;
    }
    if depth == 0 {
        return false;
    }
    let theirs = r.five_points(!a);
    let candidates: Vec<Point> = match theirs.len() {
        0 => r.empties().collect(),
        1 => theirs,
        _ => return false,
    };
    for m in candidates {
        if r.is_foul(m, a) {
            continue;
        }
        r.play(m, a);
        // `a` had no five point (checked above), so every new one runs through `m`.
        let fives = r.new_five_points(m, a);
        debug_assert_eq!(fives, r.five_points_near(m, a));
        let won = match fives.len() {
            0 => false,
            1 => {
                // The block is forced (the defender has no five: it had none, and the attacker's
                // stone makes none); any other reply loses to the five.
                let f = fives[0];
                if r.is_foul(f, !a) {
                    // Renju: Black may not block; the line ends with the unstoppable five point.
                    line.extend([m, f]);
                    r.clear(m);
                    return true;
                }
                r.play(f, !a);
                line.extend([m, f]);
                let won = vcf_attack(r, a, depth - 1, line);
                if !won {
                    line.truncate(line.len() - 2);
                }
                r.clear(f);
                won
            }
            _ => {
                line.extend([m, fives[0], fives[1]]);
                true
            }
        };
        r.clear(m);
        if won {
            return true;
        }
    }
    false
}
