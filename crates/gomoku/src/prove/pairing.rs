//! Pairing strategies: a disproof that needs no search. With the attacker to move, suppose the empty
//! cells hold disjoint pairs such that every window of five cells without a defender stone contains
//! both cells of some pair. Then the defender answers a stone on one cell of a pair with the other
//! cell (and anything else anywhere), so every such window gets a defender stone before the attacker
//! fills it: the attacker never makes five. (Hsu et al., "Solving 7x7 Gomoku", use the same idea.)
//!
//! Boards up to 11x11 (121 cells: one `u128` per set of cells).

use crate::{Bitboard, Board, Color, Point};

/// The largest board side the pairing search handles.
pub const MAX_PAIRING_SIZE: usize = 11;

/// The windows of five cells of a board of side `n`, as cell masks (cell `y * n + x`).
#[must_use]
pub fn windows(n: usize) -> Vec<u128> {
    assert!(n <= MAX_PAIRING_SIZE);
    let mut out = Vec::new();
    let steps: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    for y in 0..n as i32 {
        for x in 0..n as i32 {
            for (dx, dy) in steps {
                let (ex, ey) = (x + 4 * dx, y + 4 * dy);
                if !(0..n as i32).contains(&ex) || !(0..n as i32).contains(&ey) {
                    continue;
                }
                let mut m = 0u128;
                for k in 0..5 {
                    m |= 1u128 << ((y + k * dy) as usize * n + (x + k * dx) as usize);
                }
                out.push(m);
            }
        }
    }
    out
}

fn mask(b: Bitboard, n: usize) -> u128 {
    let mut m = 0u128;
    for y in 0..n {
        m |= u128::from(b.rows[y] & ((1u32 << n) - 1)) << (y * n);
    }
    m
}

/// The cells of one line of the board (a row, a column or a diagonal of at least five cells), in
/// order, as cell indices `y * n + x`.
fn lines(n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let steps: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let inside = |x: i32, y: i32| (0..n as i32).contains(&x) && (0..n as i32).contains(&y);
    for (dx, dy) in steps {
        for y in 0..n as i32 {
            for x in 0..n as i32 {
                // A line starts where the previous cell is off the board.
                if inside(x - dx, y - dy) {
                    continue;
                }
                let mut cells = Vec::new();
                let (mut cx, mut cy) = (x, y);
                while inside(cx, cy) {
                    cells.push(cy as usize * n + cx as usize);
                    cx += dx;
                    cy += dy;
                }
                if cells.len() >= 5 {
                    out.push(cells);
                }
            }
        }
    }
    out
}

/// The pairing search of one board size. A pair covers only windows of the line through both its
/// cells, so the search works line by line: for each line with open windows (no defender stone),
/// the inclusion-minimal sets of pairs on its free cells that cover them all; then one set per
/// line, the sets' cells disjoint (backtracking, the line with the fewest choices first). A line
/// with no set at all refutes at once.
#[derive(Clone, Debug)]
pub struct Pairing {
    n: usize,
    lines: Vec<Vec<usize>>,
}

/// One way to cover a line's open windows: the cells used, and the pairs.
struct Choice {
    cells: u128,
    pairs: Vec<(usize, usize)>,
}

impl Pairing {
    /// The tables of a board of side `n` (at most [`MAX_PAIRING_SIZE`]).
    #[must_use]
    pub fn new(n: usize) -> Pairing {
        assert!(n <= MAX_PAIRING_SIZE);
        Pairing { n, lines: lines(n) }
    }

    /// A pairing for the defender when `attacker` is to move on `board` (of this size), found
    /// within `budget` search steps: the pairs, or `None` (none exists, or the budget ran out).
    #[must_use]
    pub fn find(&self, board: &Board, attacker: Color, budget: u64) -> Option<Vec<(Point, Point)>> {
        let n = self.n;
        if board.size() != n {
            return None;
        }
        let defender = mask(board.stones(!attacker), n);
        let taken = defender | mask(board.stones(attacker), n);
        let mut per_line: Vec<Vec<Choice>> = Vec::new();
        for line in &self.lines {
            let choices = line_choices(line, defender, taken);
            match choices {
                None => {}
                Some(c) if c.is_empty() => return None,
                Some(c) => per_line.push(c),
            }
        }
        let mut search = Search {
            lines: &per_line,
            done: vec![false; per_line.len()],
            steps: budget,
            picked: Vec::new(),
        };
        if !search.run(0) {
            return None;
        }
        let point = |i: usize| Point::new((i % n) as u8, (i / n) as u8);
        let mut out = Vec::new();
        for &(l, c) in &search.picked {
            out.extend(
                per_line[l][c]
                    .pairs
                    .iter()
                    .map(|&(a, b)| (point(a), point(b))),
            );
        }
        Some(out)
    }
}

/// The inclusion-minimal sets of pairs covering the open windows of `line`; `None` when the line
/// has no open window (nothing to cover).
fn line_choices(line: &[usize], defender: u128, taken: u128) -> Option<Vec<Choice>> {
    let open: Vec<usize> = (0..=line.len() - 5)
        .filter(|&s| line[s..s + 5].iter().all(|&c| defender >> c & 1 == 0))
        .collect();
    if open.is_empty() {
        return None;
    }
    let free: Vec<bool> = line.iter().map(|&c| taken >> c & 1 == 0).collect();
    let mut found: Vec<(u16, Vec<(usize, usize)>)> = Vec::new();
    let mut pairs = Vec::new();
    cover_line(&open, &free, 0, 0, &mut pairs, &mut found);
    // Keep the sets whose cells hold no other set's cells (a superset only uses more cells).
    let mut out: Vec<Choice> = Vec::new();
    for (i, (m, p)) in found.iter().enumerate() {
        let dominated = found
            .iter()
            .enumerate()
            .any(|(j, (o, _))| j != i && o & m == *o && (o != m || j < i));
        if !dominated {
            out.push(Choice {
                cells: p
                    .iter()
                    .fold(0u128, |acc, &(a, b)| acc | 1 << line[a] | 1 << line[b]),
                pairs: p.iter().map(|&(a, b)| (line[a], line[b])).collect(),
            });
        }
    }
    Some(out)
}

/// Covers the open windows (start offsets on the line) from the `k`-th on: the first one not yet
/// holding a whole chosen pair gets each possible pair of its free, unused cells in turn.
fn cover_line(
    open: &[usize],
    free: &[bool],
    k: usize,
    used: u16,
    pairs: &mut Vec<(usize, usize)>,
    found: &mut Vec<(u16, Vec<(usize, usize)>)>,
) {
    let Some(pos) = (k..open.len()).find(|&i| {
        let s = open[i];
        !pairs.iter().any(|&(a, b)| a >= s && b < s + 5)
    }) else {
        found.push((used, pairs.clone()));
        return;
    };
    let s = open[pos];
    for a in s..s + 5 {
        if !free[a] || used >> a & 1 != 0 {
            continue;
        }
        for b in a + 1..s + 5 {
            if !free[b] || used >> b & 1 != 0 {
                continue;
            }
            pairs.push((a, b));
            cover_line(open, free, pos + 1, used | 1 << a | 1 << b, pairs, found);
            pairs.pop();
        }
    }
}

/// [`Pairing::find`] with tables built for this one call.
#[must_use]
pub fn find(board: &Board, attacker: Color, budget: u64) -> Option<Vec<(Point, Point)>> {
    if board.size() > MAX_PAIRING_SIZE {
        return None;
    }
    Pairing::new(board.size()).find(board, attacker, budget)
}

struct Search<'a> {
    lines: &'a [Vec<Choice>],
    done: Vec<bool>,
    steps: u64,
    /// (line, choice) picked so far.
    picked: Vec<(usize, usize)>,
}

impl Search<'_> {
    fn run(&mut self, used: u128) -> bool {
        if self.steps == 0 {
            return false;
        }
        self.steps -= 1;
        // The line left with the fewest choices whose cells are still free.
        let mut pick: Option<(usize, usize)> = None;
        for (l, choices) in self.lines.iter().enumerate() {
            if self.done[l] {
                continue;
            }
            let fit = choices.iter().filter(|c| c.cells & used == 0).count();
            if fit == 0 {
                return false;
            }
            if pick.is_none_or(|(_, f)| fit < f) {
                pick = Some((l, fit));
            }
        }
        let Some((l, _)) = pick else {
            return true;
        };
        self.done[l] = true;
        for (c, choice) in self.lines[l].iter().enumerate() {
            if choice.cells & used != 0 {
                continue;
            }
            self.picked.push((l, c));
            if self.run(used | choice.cells) {
                return true;
            }
            self.picked.pop();
            if self.steps == 0 {
                break;
            }
        }
        self.done[l] = false;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(mut m: u128) -> Vec<usize> {
        let mut out = Vec::new();
        while m != 0 {
            out.push(m.trailing_zeros() as usize);
            m &= m - 1;
        }
        out
    }
    use crate::Rule;

    /// The definition, checked directly: disjoint pairs of empty cells, every window without a
    /// defender stone holding a whole pair.
    fn valid(board: &Board, attacker: Color, pairs: &[(Point, Point)]) -> bool {
        let n = board.size();
        let mut used = std::collections::HashSet::new();
        for &(a, b) in pairs {
            if board.stone(a).is_some() || board.stone(b).is_some() {
                return false;
            }
            if !used.insert(a) || !used.insert(b) {
                return false;
            }
        }
        let at = |i: usize| Point::new((i % n) as u8, (i / n) as u8);
        windows(n).iter().all(|&w| {
            let cells: Vec<Point> = bits(w).into_iter().map(at).collect();
            cells.iter().any(|&p| board.stone(p) == Some(!attacker))
                || pairs
                    .iter()
                    .any(|(a, b)| cells.contains(a) && cells.contains(b))
        })
    }

    /// The plain reference: window by window, every pair of free cells of the first uncovered
    /// window (fewest free cells first), exhaustively.
    fn reference(board: &Board, attacker: Color) -> bool {
        let n = board.size();
        let defender = mask(board.stones(!attacker), n);
        let taken = defender | mask(board.stones(attacker), n);
        let live: Vec<u128> = windows(n)
            .into_iter()
            .filter(|w| w & defender == 0)
            .collect();
        fn go(live: &[u128], covered: &mut Vec<bool>, empty: u128) -> bool {
            let mut pick: Option<(usize, u32)> = None;
            for (i, &w) in live.iter().enumerate() {
                if covered[i] {
                    continue;
                }
                let free = (w & empty).count_ones();
                if free < 2 {
                    return false;
                }
                if pick.is_none_or(|(_, f)| free < f) {
                    pick = Some((i, free));
                }
            }
            let Some((i, _)) = pick else {
                return true;
            };
            let cells = bits(live[i] & empty);
            for (k, &a) in cells.iter().enumerate() {
                for &b in &cells[k + 1..] {
                    let pair = 1u128 << a | 1u128 << b;
                    let before = covered.clone();
                    for (j, &w) in live.iter().enumerate() {
                        if w & pair == pair {
                            covered[j] = true;
                        }
                    }
                    if go(live, covered, empty & !pair) {
                        return true;
                    }
                    *covered = before;
                }
            }
            false
        }
        let mut covered = vec![false; live.len()];
        go(&live, &mut covered, !taken & ((1u128 << (n * n)) - 1))
    }

    #[test]
    fn the_line_by_line_search_agrees_with_the_window_by_window_reference() {
        let mut rng = stonelab_rand::SplitMix64::new(11);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..400 {
            let n = 5 + (rng.next_u64() % 2) as usize;
            let stones = 2 + rng.next_u64() % 10;
            let b = random_board(&mut rng, n, stones);
            let fast = find(&b, Color::Black, u64::MAX);
            assert_eq!(
                fast.is_some(),
                reference(&b, Color::Black),
                "{:?}",
                b.to_grid()
            );
            if let Some(p) = fast {
                assert!(valid(&b, Color::Black, &p));
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(yes > 50 && no > 50, "{yes} with a pairing, {no} without");
    }

    /// A board of side `n` with up to `stones` stones on random points, colours alternating.
    fn random_board(rng: &mut stonelab_rand::SplitMix64, n: usize, stones: u64) -> Board {
        let mut b = Board::new(n, Rule::Freestyle).unwrap();
        for k in 0..stones {
            let p = Point::new(
                (rng.next_u64() % n as u64) as u8,
                (rng.next_u64() % n as u64) as u8,
            );
            if b.stone(p).is_none() {
                b.make(
                    p,
                    if k % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                );
            }
        }
        b
    }

    #[test]
    fn window_counts_match_the_board_geometry() {
        // Per direction: rows n*(n-4); diagonals (n-4)^2 each way.
        for n in 5..=MAX_PAIRING_SIZE {
            assert_eq!(windows(n).len(), 2 * n * (n - 4) + 2 * (n - 4) * (n - 4));
        }
    }

    #[test]
    fn boards_with_few_live_windows_have_pairings_and_they_are_valid() {
        // White on the main diagonal of 5x5 holds a stone of every line (the centre is on the
        // other diagonal): no pair is needed.
        let mut b = Board::new(5, Rule::Freestyle).unwrap();
        for i in 0..5 {
            b.make(Point::new(i, i), Color::White);
        }
        let pairs = find(&b, Color::Black, 1 << 20).expect("a pairing");
        assert!(pairs.is_empty());
        // Without the centre, the other diagonal is live and takes one pair.
        b.unmake(Point::new(2, 2));
        b.make(Point::new(2, 3), Color::White);
        let pairs = find(&b, Color::Black, 1 << 20).expect("a pairing");
        assert!(valid(&b, Color::Black, &pairs));
        b.unmake(Point::new(2, 3));
        let pairs = find(&b, Color::Black, 1 << 20).expect("a pairing");
        assert!(valid(&b, Color::Black, &pairs));
        // The empty board has one too: its 12 lines take 12 of the 25 cells' pairs.
        let empty = Board::new(5, Rule::Freestyle).unwrap();
        let pairs = find(&empty, Color::Black, 1 << 20).expect("a pairing");
        assert_eq!(pairs.len(), 12);
        assert!(valid(&empty, Color::Black, &pairs));
    }

    #[test]
    fn four_in_a_row_with_one_gap_has_no_pairing() {
        let mut b = Board::new(7, Rule::Freestyle).unwrap();
        for x in 0..4 {
            b.make(Point::new(x, 3), Color::Black);
        }
        assert!(find(&b, Color::Black, 1 << 20).is_none());
        // With the gap blocked (and the far side too), one exists again only if the rest pairs up;
        // whatever is found must be valid.
        b.make(Point::new(4, 3), Color::White);
        if let Some(p) = find(&b, Color::Black, 1 << 20) {
            assert!(valid(&b, Color::Black, &p));
        }
    }

    #[test]
    fn random_positions_give_only_valid_pairings() {
        let mut rng = stonelab_rand::SplitMix64::new(7);
        let mut found = 0;
        for _ in 0..300 {
            let n = 5 + (rng.next_u64() % 3) as usize;
            let stones = rng.next_u64() % 12;
            let b = random_board(&mut rng, n, stones);
            if let Some(p) = find(&b, Color::Black, 1 << 16) {
                assert!(valid(&b, Color::Black, &p));
                found += 1;
            }
        }
        assert!(found > 30, "only {found} pairings found");
    }
}
