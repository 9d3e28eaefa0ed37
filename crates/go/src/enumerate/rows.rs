//! Row transitions: the frontier state after some rows (stones of the last row, which of them
//! are connected through the rows already placed, and which of those blocks already have a
//! liberty), and the table "state × next row pattern → next state, or dead".
//!
//! A block that leaves the frontier without a liberty makes every completion illegal, so the
//! table answers legality for whole rows at once and the enumeration never tests a position.

use std::collections::HashMap;

/// Marks a transition that buries a block without a liberty.
pub(crate) const DEAD: u32 = u32::MAX;

/// Colour codes of a frontier cell; `EDGE` is the virtual row above the first one.
const EMPTY: u8 = 0;
const EDGE: u8 = 3;

/// A frontier: per column its colour and block label (labels numbered by first appearance),
/// and one liberty bit per label.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Frontier {
    colors: [u8; MAX_COLS],
    labels: [u8; MAX_COLS],
    libs: u16,
}

/// Widest row the table handles (3^10 patterns).
pub(crate) const MAX_COLS: usize = 10;

impl Frontier {
    fn edge() -> Self {
        Frontier {
            colors: [EDGE; MAX_COLS],
            labels: [0; MAX_COLS],
            libs: 0,
        }
    }

    fn accepting(&self, cols: usize) -> bool {
        let nlabels = (0..cols)
            .filter(|&c| self.colors[c] == 1 || self.colors[c] == 2)
            .map(|c| self.labels[c] + 1)
            .max()
            .unwrap_or(0);
        let need = (1u32 << nlabels) - 1;
        u32::from(self.libs) & need == need
    }
}

fn find(parent: &mut [u8], mut x: usize) -> usize {
    while parent[x] as usize != x {
        let p = parent[x] as usize;
        parent[x] = parent[p];
        x = parent[x] as usize;
    }
    x
}

fn union(parent: &mut [u8], lib: &mut [bool], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[rb] = ra as u8;
        lib[ra] |= lib[rb];
    }
}

/// Places row `pattern` (digit c = colour of column c) below frontier `f`.
fn step(f: &Frontier, cols: usize, pattern: usize) -> Option<Frontier> {
    let mut nc = [EMPTY; MAX_COLS];
    let mut p = pattern;
    for c in 0..cols {
        nc[c] = (p % 3) as u8;
        p /= 3;
    }
    // Nodes 0..MAX_COLS: old labels; MAX_COLS..: new cells.
    const N: usize = 2 * MAX_COLS;
    let mut parent = [0u8; N];
    for (i, x) in parent.iter_mut().enumerate() {
        *x = i as u8;
    }
    let mut lib = [false; N];
    let mut old_used = [false; MAX_COLS];
    for c in 0..cols {
        if f.colors[c] == 1 || f.colors[c] == 2 {
            let l = f.labels[c] as usize;
            old_used[l] = true;
            lib[l] = f.libs >> l & 1 == 1;
        }
    }
    for c in 0..cols {
        let v = nc[c];
        let above = f.colors[c];
        if v == EMPTY {
            if above == 1 || above == 2 {
                let l = f.labels[c] as usize;
                let r = find(&mut parent, l);
                lib[r] = true;
            }
            continue;
        }
        let me = MAX_COLS + c;
        if (c > 0 && nc[c - 1] == EMPTY) || (c + 1 < cols && nc[c + 1] == EMPTY) || above == EMPTY {
            let r = find(&mut parent, me);
            lib[r] = true;
        }
        if c > 0 && nc[c - 1] == v {
            union(&mut parent, &mut lib, me - 1, me);
        }
        if above == v {
            union(&mut parent, &mut lib, f.labels[c] as usize, me);
        }
    }
    // Old blocks that touch no new cell are finished: they need a liberty.
    let mut live_root = [false; N];
    for c in 0..cols {
        if nc[c] != EMPTY {
            let r = find(&mut parent, MAX_COLS + c);
            live_root[r] = true;
        }
    }
    for l in 0..MAX_COLS {
        if old_used[l] {
            let r = find(&mut parent, l);
            if !live_root[r] && !lib[r] {
                return None;
            }
        }
    }
    let mut out = Frontier {
        colors: [EMPTY; MAX_COLS],
        labels: [0; MAX_COLS],
        libs: 0,
    };
    let mut label_of_root = [u8::MAX; N];
    let mut next_label = 0u8;
    for c in 0..cols {
        out.colors[c] = nc[c];
        if nc[c] != EMPTY {
            let r = find(&mut parent, MAX_COLS + c);
            if label_of_root[r] == u8::MAX {
                label_of_root[r] = next_label;
                if lib[r] {
                    out.libs |= 1 << next_label;
                }
                next_label += 1;
            }
            out.labels[c] = label_of_root[r];
        }
    }
    Some(out)
}

/// Transition table for boards `cols` wide, built for the states reachable within `rows - 1`
/// rows (the states that can still take a row).
pub(crate) struct RowTable {
    /// 3^cols.
    pub npat: usize,
    /// The state before the first row.
    pub start: u32,
    /// `next[slot[s] * npat + p]`: the state after placing pattern `p` below state `s`.
    next: Vec<u32>,
    slot: Vec<u32>,
    /// Per state: whether every block on the frontier has a liberty (a legal end).
    pub accepting: Vec<bool>,
    /// Per expanded state, the patterns that end the board legally (ascending).
    finals: Vec<Vec<u16>>,
}

impl RowTable {
    pub fn new(rows: usize, cols: usize) -> Self {
        assert!((1..=MAX_COLS).contains(&cols) && rows >= 1);
        let npat = 3usize.pow(cols as u32);
        let mut ids: HashMap<Frontier, u32> = HashMap::new();
        let mut states = vec![Frontier::edge()];
        ids.insert(Frontier::edge(), 0);
        let mut slot = vec![u32::MAX];
        let mut next = Vec::new();
        let mut layer = vec![0u32];
        // States at depth d < rows take a row; those at depth `rows` only need `accepting`.
        for _depth in 0..rows {
            let mut new_layer = Vec::new();
            for &s in &layer {
                slot[s as usize] = (next.len() / npat) as u32;
                let f = states[s as usize];
                for p in 0..npat {
                    let t = match step(&f, cols, p) {
                        None => DEAD,
                        Some(g) => *ids.entry(g).or_insert_with(|| {
                            states.push(g);
                            slot.push(u32::MAX);
                            new_layer.push((states.len() - 1) as u32);
                            (states.len() - 1) as u32
                        }),
                    };
                    next.push(t);
                }
            }
            // Breadth first: a state is expanded at its smallest depth, which is < rows
            // whenever it can be met before the last row.
            layer = new_layer;
        }
        let accepting: Vec<bool> = states.iter().map(|f| f.accepting(cols)).collect();
        let mut finals = vec![Vec::new(); next.len() / npat];
        for (k, fin) in finals.iter_mut().enumerate() {
            for p in 0..npat {
                let t = next[k * npat + p];
                if t != DEAD && accepting[t as usize] {
                    fin.push(p as u16);
                }
            }
        }
        RowTable {
            npat,
            start: 0,
            next,
            slot,
            accepting,
            finals,
        }
    }

    /// Whether state `s` can take a row (it was met before the last row).
    #[inline]
    pub fn expandable(&self, s: u32) -> bool {
        self.slot[s as usize] != u32::MAX
    }

    /// The transitions out of state `s` (indexed by pattern); `s` must be expandable.
    #[inline]
    pub fn row(&self, s: u32) -> &[u32] {
        let k = self.slot[s as usize] as usize;
        &self.next[k * self.npat..(k + 1) * self.npat]
    }

    /// Patterns that end the board legally below state `s`.
    #[inline]
    pub fn finals(&self, s: u32) -> &[u16] {
        &self.finals[self.slot[s as usize] as usize]
    }
}
