//! Unconditional life (Benson, 1976) on boards of at most 63 points, as bit masks over the points
//! `row * cols + col`, and the score bounds it gives.
//!
//! A set of chains of one colour is *pass-alive* when no sequence of the opponent's moves alone can
//! capture any of them. Benson's algorithm finds the largest such set: a region (a maximal
//! connected set of points not of the colour) is *vital* to a chain when every empty point of the
//! region is a liberty of the chain; repeatedly drop every chain with fewer than two vital regions
//! among the regions left, and every region that borders a dropped chain. What stays is alive.
//!
//! The *permanent* points of a colour are its pass-alive stones and the empty regions of one point
//! whose neighbours all belong to pass-alive chains: the opponent can never play there (it would
//! capture nothing, since each neighbouring chain keeps a liberty in another vital region, and
//! suicide is illegal). If the colour passes for the rest of the game, its permanent points stay
//! its own whatever the opponent does, under any rule that only removes moves (superko). So with
//! area scoring the value lies in `[2 pb - n, n - 2 pw]`, `pb` and `pw` the two colours'
//! permanent points and `n` the board's points. The tests check the permanent points against
//! every position the opponent can reach by its moves alone, on every position of small boards.

/// Neighbour masks of a rectangular board.
#[derive(Clone, Debug)]
pub struct Masks {
    neighbours: Vec<u64>,
    all: u64,
}

impl Masks {
    /// The masks of a `rows` x `cols` board (at most 63 points).
    #[must_use]
    pub fn new(rows: usize, cols: usize) -> Masks {
        let n = rows * cols;
        assert!(n < 64, "Benson masks: at most 63 points");
        let neighbours = (0..n)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                let mut m = 0u64;
                if r > 0 {
                    m |= 1 << (i - cols);
                }
                if r + 1 < rows {
                    m |= 1 << (i + cols);
                }
                if c > 0 {
                    m |= 1 << (i - 1);
                }
                if c + 1 < cols {
                    m |= 1 << (i + 1);
                }
                m
            })
            .collect();
        Masks {
            neighbours,
            all: if n == 64 { u64::MAX } else { (1 << n) - 1 },
        }
    }

    /// The points of the board.
    #[must_use]
    pub fn all(&self) -> u64 {
        self.all
    }

    /// The points next to some point of `m` (not `m` itself unless adjacent).
    #[must_use]
    pub fn grow(&self, mut m: u64) -> u64 {
        let mut out = 0;
        while m != 0 {
            out |= self.neighbours[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        out
    }

    /// The connected parts of `m`.
    #[must_use]
    pub fn components(&self, m: u64) -> Vec<u64> {
        let mut out = [0u64; 64];
        let n = self.components_into(m, &mut out);
        out[..n].to_vec()
    }

    /// The connected parts of `m` into `out`; how many.
    fn components_into(&self, mut m: u64, out: &mut [u64; 64]) -> usize {
        let mut n = 0;
        while m != 0 {
            let mut part = m & m.wrapping_neg();
            loop {
                let next = (part | self.grow(part)) & m;
                if next == part {
                    break;
                }
                part = next;
            }
            m &= !part;
            out[n] = part;
            n += 1;
        }
        n
    }

    /// The pass-alive stones of the colour whose stones are `own`, the opponent's being `theirs`.
    #[must_use]
    pub fn pass_alive(&self, own: u64, theirs: u64) -> u64 {
        let mut regions = [0u64; 64];
        let nr = self.components_into(self.all & !own, &mut regions);
        if nr < 2 || own == 0 {
            // Every live chain needs two vital regions.
            return 0;
        }
        let empty = self.all & !own & !theirs;
        let mut chains = [0u64; 64];
        let nc = self.components_into(own, &mut chains);
        let mut borders = [0u64; 64];
        let mut libs = [0u64; 64];
        for x in 0..nc {
            borders[x] = self.grow(chains[x]);
            libs[x] = borders[x] & empty;
        }
        // Sets of chain and region indices.
        let mut alive: u64 = if nc == 64 { u64::MAX } else { (1 << nc) - 1 };
        let mut kept: u64 = if nr == 64 { u64::MAX } else { (1 << nr) - 1 };
        loop {
            let mut changed = false;
            for x in 0..nc {
                if alive >> x & 1 == 0 {
                    continue;
                }
                let mut vital = 0;
                for (r, &region) in regions[..nr].iter().enumerate() {
                    if kept >> r & 1 != 0
                        && region & borders[x] != 0
                        && region & empty & !libs[x] == 0
                    {
                        vital += 1;
                    }
                }
                if vital < 2 {
                    alive &= !(1 << x);
                    changed = true;
                }
            }
            let mut dead_border = 0u64;
            for (x, &b) in borders[..nc].iter().enumerate() {
                if alive >> x & 1 == 0 {
                    dead_border |= b;
                }
            }
            for (r, &region) in regions[..nr].iter().enumerate() {
                if kept >> r & 1 != 0 && region & dead_border != 0 {
                    kept &= !(1 << r);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        (0..nc)
            .filter(|&x| alive >> x & 1 != 0)
            .fold(0, |m, x| m | chains[x])
    }

    /// The permanent points (module docs) of the colour whose stones are `own`.
    #[must_use]
    pub fn permanent(&self, own: u64, theirs: u64) -> u64 {
        let alive = self.pass_alive(own, theirs);
        if alive == 0 {
            return 0;
        }
        let empty = self.all & !own & !theirs;
        let mut eyes = 0;
        let mut e = empty;
        while e != 0 {
            let p = e.trailing_zeros() as usize;
            e &= e - 1;
            let n = self.neighbours[p];
            if n & !alive == 0 {
                eyes |= 1 << p;
            }
        }
        alive | eyes
    }

    /// Bounds on the area score (Black minus White, komi 0) of the board `(black, white)` under
    /// any continuation: `(2 pb - n, n - 2 pw)`.
    #[must_use]
    pub fn bounds(&self, black: u64, white: u64) -> (i16, i16) {
        let n = self.all.count_ones() as i16;
        let pb = self.permanent(black, white).count_ones() as i16;
        let pw = self.permanent(white, black).count_ones() as i16;
        (2 * pb - n, n - 2 * pw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Plays `p` for the colour of `own` against `theirs` by the rules (captures, no suicide):
    /// the new masks, or None when illegal.
    fn play(m: &Masks, own: u64, theirs: u64, p: usize) -> Option<(u64, u64)> {
        let bit = 1u64 << p;
        if (own | theirs) & bit != 0 {
            return None;
        }
        let own = own | bit;
        let empty = m.all() & !own & !theirs;
        let mut theirs_left = theirs;
        for c in m.components(theirs) {
            if m.grow(c) & bit != 0 && m.grow(c) & empty == 0 {
                theirs_left &= !c;
            }
        }
        let empty = m.all() & !own & !theirs_left;
        let mine = m
            .components(own)
            .into_iter()
            .find(|c| c & bit != 0)
            .expect("the stone's chain");
        if m.grow(mine) & empty == 0 {
            return None;
        }
        Some((own, theirs_left))
    }

    /// Every position `(own, theirs)` reachable by `theirs`' moves alone.
    fn reachable(m: &Masks, own: u64, theirs: u64) -> HashSet<(u64, u64)> {
        let mut seen = HashSet::from([(own, theirs)]);
        let mut todo = vec![(own, theirs)];
        while let Some((o, t)) = todo.pop() {
            for p in 0..m.all().count_ones() as usize {
                if let Some((t2, o2)) = play(m, t, o, p) {
                    if seen.insert((o2, t2)) {
                        todo.push((o2, t2));
                    }
                }
            }
        }
        seen
    }

    /// Every legal position of the board (no chain without a liberty), as (black, white).
    fn positions(m: &Masks) -> Vec<(u64, u64)> {
        let n = m.all().count_ones();
        let mut out = Vec::new();
        for code in 0..3u64.pow(n) {
            let (mut b, mut w, mut c) = (0u64, 0u64, code);
            for p in 0..n {
                match c % 3 {
                    1 => b |= 1 << p,
                    2 => w |= 1 << p,
                    _ => {}
                }
                c /= 3;
            }
            let empty = m.all() & !b & !w;
            let ok = m
                .components(b)
                .into_iter()
                .chain(m.components(w))
                .all(|c| m.grow(c) & empty != 0);
            if ok {
                out.push((b, w));
            }
        }
        out
    }

    /// On every legal position of boards up to 3x3 and 2x4, whatever the opponent plays alone, the
    /// permanent points of each colour stay that colour's (stones never captured, eyes never
    /// filled), and the pass-alive stones are exactly those no such sequence captures; some
    /// positions have permanent points, so the check is not empty.
    #[test]
    fn permanent_points_survive_every_opponent_sequence() {
        for (rows, cols) in [(1, 4), (2, 2), (2, 3), (3, 3), (2, 4), (1, 7)] {
            let m = Masks::new(rows, cols);
            let mut with_life = 0;
            for (b, w) in positions(&m) {
                for (own, theirs) in [(b, w), (w, b)] {
                    let perm = m.permanent(own, theirs);
                    with_life += usize::from(perm != 0);
                    let alive = m.pass_alive(own, theirs);
                    let mut never_captured = own;
                    for (o, t) in reachable(&m, own, theirs) {
                        assert_eq!(o & alive, alive, "{rows}x{cols} {own:b} {theirs:b}");
                        assert_eq!(t & perm, 0, "{rows}x{cols} {own:b} {theirs:b}");
                        never_captured &= o;
                    }
                    // Benson's set is exactly the chains no sequence captures.
                    assert_eq!(alive, never_captured, "{rows}x{cols} {own:b} {theirs:b}");
                }
            }
            assert!(with_life > 0, "{rows}x{cols}: no position with life");
        }
    }

    #[test]
    fn two_eyes_on_three_by_three() {
        // B at every point but a1 and c3 (rows of three, bit = row * 3 + col).
        let m = Masks::new(3, 3);
        let black = m.all() & !(1 << 0) & !(1 << 8);
        assert_eq!(m.pass_alive(black, 0), black);
        assert_eq!(m.permanent(black, 0), m.all());
        assert_eq!(m.bounds(black, 0), (9, 9));
        // One eye only: nothing is alive.
        let one = m.all() & !(1 << 0);
        assert_eq!(m.pass_alive(one, 0), 0);
        assert_eq!(m.bounds(one, 0), (-9, 9));
        // A two-point eye is vital, but the opponent may play in it: the stones live, the eye
        // points are not permanent.
        let big = m.all() & !(1 << 0) & !(1 << 1) & !(1 << 8);
        assert_eq!(m.pass_alive(big, 0), big);
        assert_eq!(m.permanent(big, 0), big | 1 << 8);
    }
}
