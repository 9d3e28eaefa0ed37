//! The slow, obviously-correct reference: decode a serial into a grid, flood-fill every block,
//! build each symmetric image point by point. Used only by tests to check the fast path.

use super::shape::Shape;

/// Per-serial facts the fast enumeration must agree with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub legal: bool,
    pub reduced: bool,
    /// Ko points with Black to move (bit `id`); only meaningful for legal positions.
    pub ko_mask: u64,
}

fn grid(shape: Shape, serial: u64) -> Vec<u8> {
    let mut s = serial;
    (0..shape.points())
        .map(|_| {
            let v = (s % 3) as u8;
            s /= 3;
            v
        })
        .collect()
}

fn neighbours(shape: Shape, id: usize) -> Vec<usize> {
    let (r, c) = (id / shape.cols, id % shape.cols);
    let mut out = Vec::new();
    if r > 0 {
        out.push(id - shape.cols);
    }
    if r + 1 < shape.rows {
        out.push(id + shape.cols);
    }
    if c > 0 {
        out.push(id - 1);
    }
    if c + 1 < shape.cols {
        out.push(id + 1);
    }
    out
}

/// The block containing `id` and its liberties, by an explicit-stack flood fill.
fn block(shape: Shape, g: &[u8], id: usize) -> (Vec<usize>, Vec<usize>) {
    let colour = g[id];
    let mut seen = vec![false; g.len()];
    let mut stones = Vec::new();
    let mut libs = Vec::new();
    let mut stack = vec![id];
    seen[id] = true;
    while let Some(x) = stack.pop() {
        stones.push(x);
        for n in neighbours(shape, x) {
            if seen[n] {
                continue;
            }
            if g[n] == colour {
                seen[n] = true;
                stack.push(n);
            } else if g[n] == 0 {
                seen[n] = true;
                libs.push(n);
            }
        }
    }
    (stones, libs)
}

/// Computes the facts of one serial the slow way.
#[must_use]
pub fn facts(shape: Shape, serial: u64) -> Facts {
    let g = grid(shape, serial);
    let legal = (0..g.len()).all(|id| g[id] == 0 || !block(shape, &g, id).1.is_empty());
    let reduced = shape.symmetries().iter().all(|&sym| {
        let mut img = vec![0u8; g.len()];
        for r in 0..shape.rows {
            for c in 0..shape.cols {
                let (ir, ic) = sym.map(shape, r, c);
                img[ir * shape.cols + ic] = g[r * shape.cols + c];
            }
        }
        let img_serial = img
            .iter()
            .rev()
            .fold(0u64, |acc, &v| acc * 3 + u64::from(v));
        img_serial >= serial
    });
    let mut ko_mask = 0;
    for p in 0..g.len() {
        if g[p] != 0 {
            continue;
        }
        let ns = neighbours(shape, p);
        if !ns.iter().all(|&n| g[n] == 2) {
            continue;
        }
        let capturable_single = ns.iter().any(|&n| {
            let (stones, libs) = block(shape, &g, n);
            stones.len() == 1 && libs == [p]
        });
        if capturable_single {
            ko_mask |= 1 << p;
        }
    }
    Facts {
        legal,
        reduced,
        ko_mask,
    }
}
