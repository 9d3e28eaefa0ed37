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
//! run time, once per [`EyeMasks`]) a whole bitboard sits in one register, and with AVX-512 VBMI2
//! each shift across 64-bit lanes is one funnel shift; elsewhere the same steps run on plain
//! 64-bit words ([`EyeMasks::portable`] and [`EyeMasks::without_vbmi2`] force the other paths;
//! the tests check every path against the reference).
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

/// The masks of one geometry, as lanes. Aligned to 64 bytes so that every field (64 bytes) is one
/// aligned AVX-512 load.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
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
    /// `top_left | top_right` and `bottom_left | bottom_right` (for the AVX-512 kernel).
    top_corners: Lanes,
    bottom_corners: Lanes,
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

/// Both colours on plain 64-bit words. Kept out of line so that the dispatch in
/// [`EyeMasks::eyes_both`] stays small enough to inline into callers.
#[inline(never)]
fn portable_both(m: &LaneMasks, black: &Bitboard, white: &Bitboard) -> [Bitboard; 2] {
    let (black, white) = (lanes(*black), lanes(*white));
    let empty: Lanes = std::array::from_fn(|i| m.board[i] & !(black[i] | white[i]));
    [
        unlanes(kernel(m, black, empty)),
        unlanes(kernel(m, white, empty)),
    ]
}

/// One colour on plain 64-bit words (out of line, as [`portable_both`]).
#[inline(never)]
fn portable_one(m: &LaneMasks, own: &Bitboard, empty: &Bitboard) -> Bitboard {
    unlanes(kernel(m, lanes(*own), lanes(*empty)))
}

/// Which instruction set the kernel runs on, chosen once per [`EyeMasks`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Isa {
    Portable,
    /// AVX-512F: each cross-word shift is two lane shifts and an OR.
    #[cfg(target_arch = "x86_64")]
    Avx512,
    /// AVX-512F plus VBMI2: each cross-word shift is one funnel shift (`vpshldq`/`vpshrdq`).
    #[cfg(target_arch = "x86_64")]
    Avx512Vbmi2,
}

impl Isa {
    fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") {
            if std::arch::is_x86_feature_detected!("avx512vbmi2") {
                return Isa::Avx512Vbmi2;
            }
            return Isa::Avx512;
        }
        Isa::Portable
    }
}

/// The kernel in AVX-512, a whole board (380 bits of the stride-20 layout) per register, lanes 6
/// and 7 zero. The baseline x86-64 target has only SSE2, where the six-word shifts become chains
/// of `shld` (one port) and both colours take about 100 ns.
///
/// Every cross-word shift needs the neighbouring lane: `prev` (lanes moved up by one, `valignq`)
/// for shifts towards higher bits, `next` for shifts towards lower bits; each is computed once per
/// colour and shared by its four shifts. With VBMI2 a shift is then one `vpshldq`/`vpshrdq`
/// (funnel shift of a lane with its neighbour); with AVX-512F alone it is two lane shifts and an
/// OR that LLVM fuses into the `vpternlogq`s. The masks are aligned loads that fold into the
/// logic instructions, the bitboards are read with one masked load each, and the answers are
/// written with plain 32- and 16-byte stores (a masked store cannot forward to a later load).
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __m128i, __m256i, __m512i, _mm256_storeu_si256, _mm512_alignr_epi64, _mm512_and_si512,
        _mm512_andnot_si512, _mm512_castsi512_si256, _mm512_extracti32x4_epi32, _mm512_inserti32x4,
        _mm512_load_si512, _mm512_or_si512, _mm512_setzero_si512, _mm512_shldi_epi64,
        _mm512_shrdi_epi64, _mm512_slli_epi64, _mm512_srli_epi64, _mm512_ternarylogic_epi64,
        _mm512_zextsi128_si512, _mm_storeu_si128,
    };

    use super::{LaneMasks, Lanes};
    use crate::bitboard::Bitboard;

    /// Towards higher bit indices by `$n` bits, `$prev` the lanes moved up by one (AVX-512F).
    macro_rules! shl_f {
        ($w:expr, $prev:expr, $n:literal) => {
            _mm512_or_si512(
                _mm512_slli_epi64::<$n>($w),
                _mm512_srli_epi64::<{ 64 - $n }>($prev),
            )
        };
    }

    /// Towards lower bit indices by `$n` bits, `$next` the lanes moved down by one (AVX-512F).
    macro_rules! shr_f {
        ($w:expr, $next:expr, $n:literal) => {
            _mm512_or_si512(
                _mm512_srli_epi64::<$n>($w),
                _mm512_slli_epi64::<{ 64 - $n }>($next),
            )
        };
    }

    /// Towards higher bit indices by `$n` bits: the upper half of `$w:$prev` shifted left.
    macro_rules! shl_vbmi2 {
        ($w:expr, $prev:expr, $n:literal) => {
            _mm512_shldi_epi64::<$n>($w, $prev)
        };
    }

    /// Towards lower bit indices by `$n` bits: the lower half of `$next:$w` shifted right.
    macro_rules! shr_vbmi2 {
        ($w:expr, $next:expr, $n:literal) => {
            _mm512_shrdi_epi64::<$n>($w, $next)
        };
    }

    /// The masks as registers.
    #[derive(Copy, Clone)]
    struct Masks {
        board: __m512i,
        top: __m512i,
        bottom: __m512i,
        left: __m512i,
        right: __m512i,
        top_left: __m512i,
        top_right: __m512i,
        bottom_left: __m512i,
        bottom_right: __m512i,
        top_corners: __m512i,
        bottom_corners: __m512i,
    }

    /// One aligned 64-byte load of a mask's eight lanes.
    #[target_feature(enable = "avx512f")]
    fn load_lanes(l: &Lanes) -> __m512i {
        // Safety: `l` is 64 bytes inside a `LaneMasks`, which is `repr(C, align(64))` with every
        // field 64 bytes long, so the pointer is 64-byte aligned and the load stays inside `l`.
        unsafe { _mm512_load_si512(l.as_ptr().cast()) }
    }

    #[target_feature(enable = "avx512f")]
    fn masks(m: &LaneMasks) -> Masks {
        Masks {
            board: load_lanes(&m.board),
            top: load_lanes(&m.top),
            bottom: load_lanes(&m.bottom),
            left: load_lanes(&m.left),
            right: load_lanes(&m.right),
            top_left: load_lanes(&m.top_left),
            top_right: load_lanes(&m.top_right),
            bottom_left: load_lanes(&m.bottom_left),
            bottom_right: load_lanes(&m.bottom_right),
            top_corners: load_lanes(&m.top_corners),
            bottom_corners: load_lanes(&m.bottom_corners),
        }
    }

    /// The six words of a bitboard in the low lanes, zeros above, read as three 16-byte loads.
    ///
    /// One masked 64-byte load would be fewer instructions, but a caller that passes a bitboard
    /// by value has usually just copied it to the stack with 16-byte stores, and a load that
    /// spans several stores cannot take its data from the store buffer: it waits for the stores
    /// to reach the cache (in `stonelab go bench`, that stall took both colours from 11.5 ns to 22 ns). A 16-byte load
    /// that matches one such store (or lies inside a wider one) is forwarded.
    #[target_feature(enable = "avx512f")]
    fn load(b: &Bitboard) -> __m512i {
        /// 16 bytes with alignment 1, so that a volatile read of it is an unaligned load.
        #[derive(Copy, Clone)]
        #[repr(C, packed)]
        struct Unaligned(__m128i);
        let words = b.0.as_ptr().cast::<Unaligned>();
        // Safety: `b` holds WORDS = 6 u64s (48 bytes); the three 16-byte reads cover words 0..2,
        // 2..4 and 4..6, all inside `b`, and `Unaligned` needs no alignment. They are volatile
        // only so that LLVM keeps them as three 16-byte loads instead of merging the first two
        // into one 32-byte load.
        let [w01, w23, w45] = unsafe {
            [
                std::ptr::read_volatile(words).0,
                std::ptr::read_volatile(words.add(1)).0,
                std::ptr::read_volatile(words.add(2)).0,
            ]
        };
        let v = _mm512_inserti32x4::<1>(_mm512_zextsi128_si512(w01), w23);
        _mm512_inserti32x4::<2>(v, w45)
    }

    /// Writes the six low lanes to `out` with a 32-byte and a 16-byte store.
    #[target_feature(enable = "avx512f")]
    fn store(v: __m512i, out: &mut Bitboard) {
        let words = out.0.as_mut_ptr();
        // Safety: `out` holds WORDS = 6 u64s (48 bytes): words 0..4 take the 32-byte store and
        // words 4..6 the 16-byte store, both unaligned stores inside `out`.
        unsafe {
            _mm256_storeu_si256(words.cast::<__m256i>(), _mm512_castsi512_si256(v));
            _mm_storeu_si128(
                words.add(4).cast::<__m128i>(),
                _mm512_extracti32x4_epi32::<2>(v),
            );
        }
    }

    /// `vpternlogq` truth tables (operands a, b, c are 0xF0, 0xCC, 0xAA): a & (b | c),
    /// a | b | c, a & b & c.
    const AND_OR: i32 = 0xF0 & (0xCC | 0xAA);
    const OR3: i32 = 0xF0 | 0xCC | 0xAA;
    const AND3: i32 = 0xF0 & 0xCC & 0xAA;

    /// One three-input logic instruction with truth table `$imm`.
    macro_rules! tern {
        ($imm:ident, $a:expr, $b:expr, $c:expr) => {
            _mm512_ternarylogic_epi64::<$imm>($a, $b, $c)
        };
    }

    /// The kernel for one colour with AVX-512F alone: the seed's steps as in [`super::kernel`].
    /// Written with plain ORs and ANDs, LLVM fuses each shift's OR with the mask OR after it
    /// into one `vpternlogq` (explicit three-input logic as in [`kernel_vbmi2`] measured slower
    /// here: 16.4 ns against 14.6 ns for both colours).
    #[target_feature(enable = "avx512f")]
    fn kernel_f(m: &Masks, own: __m512i, empty: __m512i) -> __m512i {
        let (or, and) = (_mm512_or_si512, _mm512_and_si512);
        let zero = _mm512_setzero_si512();
        // prev = [0, w0, .., w6], next = [w1, .., w7, 0].
        let prev = _mm512_alignr_epi64::<7>(own, zero);
        let next = _mm512_alignr_epi64::<1>(zero, own);
        let eyelike = and(
            and(empty, or(shr_f!(own, next, 20), m.bottom)),
            and(
                or(shl_f!(own, prev, 20), m.top),
                and(
                    or(shl_f!(own, prev, 1), m.left),
                    or(shr_f!(own, next, 1), m.right),
                ),
            ),
        );
        let tl = or(shl_f!(own, prev, 21), m.top_left);
        let tr = or(shl_f!(own, prev, 19), m.top_right);
        let bl = or(shr_f!(own, next, 19), m.bottom_left);
        let br = or(shr_f!(own, next, 21), m.bottom_right);
        let t = or(tl, tr);
        let b = or(bl, br);
        let rule24 = and(and(or(t, bl), or(tl, b)), and(or(tr, b), or(t, br)));
        and(eyelike, rule24)
    }

    /// The kernel for one colour with AVX-512F and VBMI2: 8 funnel shifts and 12 three-input
    /// logic instructions. The seed's terms `t|bl`, `tl|b`, `tr|b`, `t|br` with
    /// `tl = x | top_left` (and so on) are written out as ORs of three, so that each is one
    /// `vpternlogq`, and the four are ANDed with eye-like in two more.
    #[target_feature(enable = "avx512f,avx512vbmi2")]
    fn kernel_vbmi2(m: &Masks, own: __m512i, empty: __m512i) -> __m512i {
        let zero = _mm512_setzero_si512();
        // prev = [0, w0, .., w6], next = [w1, .., w7, 0].
        let prev = _mm512_alignr_epi64::<7>(own, zero);
        let next = _mm512_alignr_epi64::<1>(zero, own);
        // Eye-like: empty, and each neighbour own or off the board (one op per side).
        let e = tern!(AND_OR, empty, shr_vbmi2!(own, next, 20), m.bottom);
        let e = tern!(AND_OR, e, shl_vbmi2!(own, prev, 20), m.top);
        let e = tern!(AND_OR, e, shl_vbmi2!(own, prev, 1), m.left);
        let e = tern!(AND_OR, e, shr_vbmi2!(own, next, 1), m.right);
        // Raw diagonal planes (x: top-left diagonal own, y: top-right, z: bottom-left,
        // w: bottom-right); the virtual stones join through the corner masks.
        let x = shl_vbmi2!(own, prev, 21);
        let y = shl_vbmi2!(own, prev, 19);
        let z = shr_vbmi2!(own, next, 19);
        let w = shr_vbmi2!(own, next, 21);
        let t = tern!(OR3, x, y, m.top_corners); // tl | tr
        let b = tern!(OR3, z, w, m.bottom_corners); // bl | br
        let t_bl = tern!(OR3, t, z, m.bottom_left);
        let tl_b = tern!(OR3, x, m.top_left, b);
        let tr_b = tern!(OR3, y, m.top_right, b);
        let t_br = tern!(OR3, t, w, m.bottom_right);
        tern!(AND3, tern!(AND3, e, t_bl, tl_b), tr_b, t_br)
    }

    /// Defines the entry points for one colour (`$one`) and both (`$both`), compiled for
    /// `$features`, around `$kernel`.
    macro_rules! entry_points {
        ($features:literal, $kernel:ident, $one:ident, $both:ident) => {
            #[target_feature(enable = $features)]
            pub(super) fn $one(m: &LaneMasks, own: &Bitboard, empty: &Bitboard) -> Bitboard {
                let mut out = Bitboard::EMPTY;
                store($kernel(&masks(m), load(own), load(empty)), &mut out);
                out
            }

            #[target_feature(enable = $features)]
            pub(super) fn $both(
                m: &LaneMasks,
                black: &Bitboard,
                white: &Bitboard,
            ) -> [Bitboard; 2] {
                let k = masks(m);
                let (black, white) = (load(black), load(white));
                let empty = _mm512_andnot_si512(_mm512_or_si512(black, white), k.board);
                let mut out = [Bitboard::EMPTY; 2];
                store($kernel(&k, black, empty), &mut out[0]);
                store($kernel(&k, white, empty), &mut out[1]);
                out
            }
        };
    }

    entry_points!("avx512f", kernel_f, one_f, both_f);
    entry_points!("avx512f,avx512vbmi2", kernel_vbmi2, one_vbmi2, both_vbmi2);
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
                top_corners: or(corner(0, 0), corner(0, last_col)),
                bottom_corners: or(corner(last_row, 0), corner(last_row, last_col)),
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

    /// The same masks, not using AVX-512 VBMI2 even where the CPU has it (AVX-512F alone if the
    /// CPU has that, else portable): for comparisons and for the tests, which check every path.
    #[must_use]
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    pub fn without_vbmi2(mut self) -> EyeMasks {
        #[cfg(target_arch = "x86_64")]
        if self.isa == Isa::Avx512Vbmi2 {
            self.isa = Isa::Avx512;
        }
        self
    }

    /// The code path the masks compute with: `"portable"`, `"avx512f"` or `"avx512vbmi2"`.
    #[must_use]
    pub const fn isa_name(&self) -> &'static str {
        match self.isa {
            Isa::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => "avx512f",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Vbmi2 => "avx512vbmi2",
        }
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
            Isa::Portable => portable_one(&self.masks, &own, &empty),
            // Safety: `isa` is Avx512 only when `Isa::detect` saw AVX-512F on this CPU.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { avx512::one_f(&self.masks, &own, &empty) },
            // Safety: `isa` is Avx512Vbmi2 only when `Isa::detect` saw AVX-512F and AVX-512 VBMI2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Vbmi2 => unsafe { avx512::one_vbmi2(&self.masks, &own, &empty) },
        }
    }

    /// The eye points of Black and of White (indexed by [`crate::Color::index`]).
    #[must_use]
    #[inline]
    pub fn eyes_both(&self, black: Bitboard, white: Bitboard) -> [Bitboard; 2] {
        match self.isa {
            Isa::Portable => portable_both(&self.masks, &black, &white),
            // Safety: `isa` is Avx512 only when `Isa::detect` saw AVX-512F on this CPU.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => unsafe { avx512::both_f(&self.masks, &black, &white) },
            // Safety: `isa` is Avx512Vbmi2 only when `Isa::detect` saw AVX-512F and AVX-512 VBMI2.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512Vbmi2 => unsafe { avx512::both_vbmi2(&self.masks, &black, &white) },
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
