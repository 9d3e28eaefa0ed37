//! Rule 2/4 eye points for the whole board at once (seed 004), and the naive per-point reference.
//!
//! A point is an *eye* of a colour when it is **eye-like** (empty, and every orthogonal neighbour is
//! an own stone or off the board) and passes **Rule 2/4**: with four *virtual* own stones placed on
//! the off-board diagonal corners `(-1,-1)`, `(-1,C)`, `(R,-1)` and `(R,C)`, at least two of its four
//! diagonals are own stones. A diagonal that is off the board and is not one of those four virtual
//! stones does not count. In one picture (3x3, Black `X`, the eye `e` at the corner needs its single
//! on-board diagonal, the virtual stone `v` gives the other):
//!
//! ```text
//!  v . . . v
//!  . e X . .
//!  . X X . .
//!  . . . . .
//!  v . . . v
//! ```
//!
//! [`EyeMasks::eyes`] computes it with shifts, ANDs and ORs over the whole board, branch-free, using
//! the seed's nine-operation form of "at least two of four":
//! `t = tl|tr; b = bl|br; rule24 = (t|bl) & (tl|b) & (tr|b) & (t|br)`. The corner points and
//! edge masks are built once per geometry in [`EyeMasks::new`]. On a CPU with AVX-512F (detected at
//! run time, once per [`EyeMasks`]) a whole bitboard sits in one register; elsewhere the same
//! steps run on plain 64-bit words ([`EyeMasks::portable`] forces that path; the tests check both).
//!
//! **Degenerate boards.** The virtual stones sit at those four coordinates whatever the size, so on
//! a 1xN board the two end points each see two virtual diagonals (`(-1,-1)` and `(1,-1)` on the left)
//! and pass, while interior points see none and fail; Nx1 is the same turned; on 1x1 the single
//! point sees all four. The bitboard form agrees because it ORs each virtual stone into the matching
//! diagonal plane at the matching corner point, and on a thin board two of those corner points are
//! the same point. [`eyes_naive`] follows the definition literally and the exhaustive tests compare.
//!
//! ```
//! use stonelab_go::{eyes::EyeMasks, Bitboard, Geometry, Point};
//! let g = Geometry::new(3, 3).unwrap();
//! let own: Bitboard = [(0, 1), (1, 0), (1, 1)].iter().map(|&(r, c)| Point::new(r, c)).collect();
//! let empty = g.not(own);
//! let eyes = EyeMasks::new(g).eyes(own, empty);
//! assert_eq!(eyes, Bitboard::from_point(Point::new(0, 0)));
//! ```

use crate::bitboard::{Bitboard, Geometry, Point, STRIDE, WORDS};

const S: u32 = STRIDE as u32;

/// Eight 64-bit lanes: a bitboard's six words padded to 512 bits, so that one AVX-512 register
/// (or two AVX2 ones) holds a whole board and every lane loop vectorizes cleanly.
type Lanes = [u64; 8];

#[inline(always)]
fn lanes(b: Bitboard) -> Lanes {
    let mut out = [0; 8];
    out[..WORDS].copy_from_slice(&b.0);
    out
}

#[inline(always)]
fn unlanes(l: Lanes) -> Bitboard {
    let mut out = [0; WORDS];
    out.copy_from_slice(&l[..WORDS]);
    Bitboard(out)
}

#[inline(always)]
fn or(a: Lanes, b: Lanes) -> Lanes {
    std::array::from_fn(|i| a[i] | b[i])
}

#[inline(always)]
fn and(a: Lanes, b: Lanes) -> Lanes {
    std::array::from_fn(|i| a[i] & b[i])
}

/// Towards higher bit indices by `N` (0 < N < 64), carrying between lanes.
#[inline(always)]
fn shl<const N: u32>(w: Lanes) -> Lanes {
    let prev: Lanes = [0, w[0], w[1], w[2], w[3], w[4], w[5], w[6]];
    std::array::from_fn(|i| (w[i] << N) | (prev[i] >> (64 - N)))
}

/// Towards lower bit indices by `N` (0 < N < 64), carrying between lanes.
#[inline(always)]
fn shr<const N: u32>(w: Lanes) -> Lanes {
    let next: Lanes = [w[1], w[2], w[3], w[4], w[5], w[6], w[7], 0];
    std::array::from_fn(|i| (w[i] >> N) | (next[i] << (64 - N)))
}

/// The masks of one geometry, as lanes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct LaneMasks {
    board: Lanes,
    top: Lanes,
    bottom: Lanes,
    left: Lanes,
    right: Lanes,
    /// The corner points whose top-left / top-right / bottom-left / bottom-right diagonal is a
    /// virtual stone.
    top_left: Lanes,
    top_right: Lanes,
    bottom_left: Lanes,
    bottom_right: Lanes,
}

/// The seed's computation for one colour; see [`EyeMasks::eyes`] for why the shifts are raw.
#[inline(always)]
fn kernel(m: &LaneMasks, own: Lanes, empty: Lanes) -> Lanes {
    // Neighbour below / above / left / right is own, or off the board.
    let eyelike = and(
        and(empty, or(shr::<S>(own), m.bottom)),
        and(
            or(shl::<S>(own), m.top),
            and(or(shl::<1>(own), m.left), or(shr::<1>(own), m.right)),
        ),
    );
    // Diagonal planes: `tl` holds p when p's top-left diagonal is own (virtual stones included).
    let tl = or(shl::<{ S + 1 }>(own), m.top_left);
    let tr = or(shl::<{ S - 1 }>(own), m.top_right);
    let bl = or(shr::<{ S - 1 }>(own), m.bottom_left);
    let br = or(shr::<{ S + 1 }>(own), m.bottom_right);
    let t = or(tl, tr);
    let b = or(bl, br);
    let rule24 = and(and(or(t, bl), or(tl, b)), and(or(tr, b), or(t, br)));
    and(eyelike, rule24)
}

#[inline(always)]
fn kernel_both(m: &LaneMasks, black: Lanes, white: Lanes) -> [Lanes; 2] {
    let empty: Lanes = std::array::from_fn(|i| m.board[i] & !(black[i] | white[i]));
    [kernel(m, black, empty), kernel(m, white, empty)]
}

/// Which instruction set the kernel runs on, chosen once per [`EyeMasks`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Isa {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Isa {
    fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") {
            return Isa::Avx512;
        }
        Isa::Portable
    }
}

/// The kernel in AVX-512, a whole board per register. The baseline x86-64 target has only SSE2,
/// where the six-word shifts become chains of `shld` (one port) and both colours take about 100
/// ns; auto-vectorization of [`kernel`] under `target_feature` produced lane shuffles no faster.
/// Here each cross-word shift is one `valignq` plus two shifts and an OR, and LLVM fuses the ANDs
/// and ORs into `vpternlogq` (see BENCHMARKS.md for the figures).
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __m512i, _mm512_alignr_epi64, _mm512_and_si512, _mm512_andnot_si512,
        _mm512_mask_storeu_epi64, _mm512_maskz_loadu_epi64, _mm512_or_si512, _mm512_setzero_si512,
        _mm512_slli_epi64, _mm512_srli_epi64,
    };

    use super::LaneMasks;
    use crate::bitboard::{Bitboard, WORDS};

    /// The lanes that hold a bitboard's words.
    const WORD_LANES: u8 = (1 << WORDS) - 1;

    /// Towards higher bit indices by `$n` bits (`$m` = 64 - `$n`).
    macro_rules! shl {
        ($w:expr, $n:literal, $m:literal) => {{
            let prev = _mm512_alignr_epi64::<7>($w, _mm512_setzero_si512());
            _mm512_or_si512(_mm512_slli_epi64::<$n>($w), _mm512_srli_epi64::<$m>(prev))
        }};
    }

    /// Towards lower bit indices by `$n` bits (`$m` = 64 - `$n`).
    macro_rules! shr {
        ($w:expr, $n:literal, $m:literal) => {{
            let next = _mm512_alignr_epi64::<1>(_mm512_setzero_si512(), $w);
            _mm512_or_si512(_mm512_srli_epi64::<$n>($w), _mm512_slli_epi64::<$m>(next))
        }};
    }

    /// Loads the six words of a bitboard (or of a mask's lanes) into the low lanes, zeros above.
    #[target_feature(enable = "avx512f")]
    fn load(words: &[u64]) -> __m512i {
        assert!(words.len() >= WORDS);
        // Safety: the mask reads only the first WORDS (checked) u64s, unaligned.
        unsafe { _mm512_maskz_loadu_epi64(WORD_LANES, words.as_ptr().cast()) }
    }

    #[target_feature(enable = "avx512f")]
    fn store(v: __m512i) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        // Safety: the mask writes only the WORDS u64s of `out`, unaligned.
        unsafe { _mm512_mask_storeu_epi64(out.0.as_mut_ptr().cast(), WORD_LANES, v) };
        out
    }

    /// Same steps as [`super::kernel`].
    #[target_feature(enable = "avx512f")]
    fn kernel(m: &[__m512i; 8], own: __m512i, empty: __m512i) -> __m512i {
        let (or, and) = (_mm512_or_si512, _mm512_and_si512);
        let [bottom, top, left, right, tlc, trc, blc, brc] = *m;
        let eyelike = and(
            and(empty, or(shr!(own, 20, 44), bottom)),
            and(
                or(shl!(own, 20, 44), top),
                and(or(shl!(own, 1, 63), left), or(shr!(own, 1, 63), right)),
            ),
        );
        let tl = or(shl!(own, 21, 43), tlc);
        let tr = or(shl!(own, 19, 45), trc);
        let bl = or(shr!(own, 19, 45), blc);
        let br = or(shr!(own, 21, 43), brc);
        let t = or(tl, tr);
        let b = or(bl, br);
        let rule24 = and(and(or(t, bl), or(tl, b)), and(or(tr, b), or(t, br)));
        and(eyelike, rule24)
    }

    #[target_feature(enable = "avx512f")]
    fn masks(m: &LaneMasks) -> [__m512i; 8] {
        [
            load(&m.bottom),
            load(&m.top),
            load(&m.left),
            load(&m.right),
            load(&m.top_left),
            load(&m.top_right),
            load(&m.bottom_left),
            load(&m.bottom_right),
        ]
    }

    #[target_feature(enable = "avx512f")]
    pub(super) fn one(m: &LaneMasks, own: &Bitboard, empty: &Bitboard) -> Bitboard {
        store(kernel(&masks(m), load(&own.0), load(&empty.0)))
    }

    #[target_feature(enable = "avx512f")]
    pub(super) fn both(m: &LaneMasks, black: &Bitboard, white: &Bitboard) -> [Bitboard; 2] {
        let (black, white) = (load(&black.0), load(&white.0));
        let empty = _mm512_andnot_si512(_mm512_or_si512(black, white), load(&m.board));
        let k = masks(m);
        [
            store(kernel(&k, black, empty)),
            store(kernel(&k, white, empty)),
        ]
    }
}

/// The per-geometry masks the whole-board eye computation needs, built once.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EyeMasks {
    geometry: Geometry,
    masks: LaneMasks,
    isa: Isa,
}

impl EyeMasks {
    /// The masks of a geometry (and the widest vector instructions this CPU has).
    #[must_use]
    pub fn new(geometry: Geometry) -> EyeMasks {
        let (last_row, last_col) = (geometry.rows() - 1, geometry.cols() - 1);
        let corner = |r, c| lanes(Bitboard::from_point(Point::new(r, c)));
        let g = &geometry;
        EyeMasks {
            geometry,
            masks: LaneMasks {
                board: lanes(g.mask()),
                top: lanes(g.top_edge()),
                bottom: lanes(g.bottom_edge()),
                left: lanes(g.left_edge()),
                right: lanes(g.right_edge()),
                top_left: corner(0, 0),
                top_right: corner(0, last_col),
                bottom_left: corner(last_row, 0),
                bottom_right: corner(last_row, last_col),
            },
            isa: Isa::detect(),
        }
    }

    /// The same masks, computing with plain 64-bit words whatever the CPU (for comparisons and
    /// for the tests, which check both paths).
    #[must_use]
    pub fn portable(mut self) -> EyeMasks {
        self.isa = Isa::Portable;
        self
    }

    /// The geometry the masks were built for.
    #[must_use]
    pub const fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The eye points of the player whose stones are `own`, with `empty` the empty points (both
    /// must lie on the board; `own` and `empty` disjoint).
    ///
    /// The shifts are raw bit shifts, not the masked [`Geometry`] ones: everything after the
    /// shifts is pointwise and the result is finally ANDed with `empty`, which lies on the board,
    /// so bits that a shift puts off the board (or on the padding column) never reach the answer,
    /// and the stride-20 layout never carries a bit onto a wrong on-board point.
    #[must_use]
    #[inline]
    pub fn eyes(&self, own: Bitboard, empty: Bitboard) -> Bitboard {
        match self.isa {
            Isa::Portable => unlanes(kernel(&self.masks, lanes(own), lanes(empty))),
            // Safety: `isa` is Avx512 only when `Isa::detect` saw AVX-512F on this CPU.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { avx512::one(&self.masks, &own, &empty) },
        }
    }

    /// The eye points of Black and of White (indexed by [`crate::Color::index`]).
    #[must_use]
    #[inline]
    pub fn eyes_both(&self, black: Bitboard, white: Bitboard) -> [Bitboard; 2] {
        match self.isa {
            Isa::Portable => kernel_both(&self.masks, lanes(black), lanes(white)).map(unlanes),
            // Safety: `isa` is Avx512 only when `Isa::detect` saw AVX-512F on this CPU.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { avx512::both(&self.masks, &black, &white) },
        }
    }
}

/// The eye points of `own` on a board of geometry `g` (builds the masks; prefer [`EyeMasks`] in
/// loops).
#[must_use]
pub fn eyes(g: &Geometry, own: Bitboard, empty: Bitboard) -> Bitboard {
    EyeMasks::new(*g).eyes(own, empty)
}

/// Whether `p` is an eye of `own`, written point by point from the definition: explicit
/// neighbours, explicit diagonals, explicit virtual corner stones. The reference for [`eyes`].
#[must_use]
pub fn is_eye_naive(g: &Geometry, own: Bitboard, empty: Bitboard, p: Point) -> bool {
    let (rows, cols) = (g.rows() as i32, g.cols() as i32);
    let (r, c) = (p.row() as i32, p.col() as i32);
    let on_board = |r: i32, c: i32| r >= 0 && c >= 0 && r < rows && c < cols;
    let is_own =
        |r: i32, c: i32| on_board(r, c) && own.contains(Point::new(r as usize, c as usize));
    if !on_board(r, c) || !empty.contains(p) {
        return false;
    }
    for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
        let (nr, nc) = (r + dr, c + dc);
        if on_board(nr, nc) && !is_own(nr, nc) {
            return false;
        }
    }
    let virtual_stones = [(-1, -1), (-1, cols), (rows, -1), (rows, cols)];
    let mut own_diagonals = 0;
    for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
        let (nr, nc) = (r + dr, c + dc);
        if is_own(nr, nc) || virtual_stones.contains(&(nr, nc)) {
            own_diagonals += 1;
        }
    }
    own_diagonals >= 2
}

/// [`is_eye_naive`] over every point of the board.
#[must_use]
pub fn eyes_naive(g: &Geometry, own: Bitboard, empty: Bitboard) -> Bitboard {
    g.points()
        .filter(|&p| is_eye_naive(g, own, empty, p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> (Geometry, Bitboard, Bitboard) {
        let g = Geometry::new(rows.len(), rows[0].len()).unwrap();
        let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for (r, line) in rows.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    'X' => black.set(Point::new(r, c)),
                    'O' => white.set(Point::new(r, c)),
                    _ => {}
                }
            }
        }
        (g, black, white)
    }

    #[test]
    fn corner_edge_and_centre() {
        let (g, black, white) = board(&[
            ".X.X.", //
            "XXXXX", //
            "X.X.X", //
            "XX.XX", //
            "X.XX.",
        ]);
        let [b, w] = EyeMasks::new(g).eyes_both(black, white);
        assert!(w.is_empty());
        // (0,0): corner, diagonal (1,1) own. (0,2): edge, both diagonals own. (0,4): corner.
        // (2,1): centre, diagonals (1,0),(1,2),(3,0),(3,2): three own -> eye. (2,3) likewise.
        // (3,2): eye-like, but one own diagonal of four. (4,1): eye-like edge point, diagonal (3,2)
        // empty -> not an eye. (4,4): corner, virtual stone plus (3,3).
        let want: Bitboard = [(0, 0), (0, 2), (0, 4), (2, 1), (2, 3), (4, 4)]
            .iter()
            .map(|&(r, c)| Point::new(r, c))
            .collect();
        assert_eq!(b, want);
        assert_eq!(b, eyes_naive(&g, black, g.not(black | white)));
    }

    #[test]
    fn degenerate_boards() {
        // 1x1: the lone empty point is an eye of both colours.
        let g = Geometry::new(1, 1).unwrap();
        let m = EyeMasks::new(g);
        assert_eq!(m.eyes_both(Bitboard::EMPTY, Bitboard::EMPTY), [g.mask(); 2]);
        // 1x3 `.X.`: both ends are eyes of Black (two virtual diagonals each).
        let (g, black, white) = board(&[".X."]);
        assert_eq!(EyeMasks::new(g).eyes_both(black, white)[0].count(), 2);
        // 1x5 `X.X.X`: interior points have no virtual diagonal, so no eye.
        let (g, black, white) = board(&["X.X.X"]);
        assert!(EyeMasks::new(g).eyes_both(black, white)[0].is_empty());
        // 3x1 column `.`/`X`/`.`: same as 1x3 turned.
        let (g, black, white) = board(&[".", "X", "."]);
        assert_eq!(EyeMasks::new(g).eyes_both(black, white)[0].count(), 2);
    }
}
