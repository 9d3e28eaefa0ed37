//! The nonlinear term of the evaluation (since engine v2.24, session 60, refitted for v2.25;
//! freestyle and exactly five): a small net, compiled in from `crates/gomoku/data/eval-net.txt`,
//! replaced with `pbrain-stonelab --eval-net FILE` or left out with `--eval-net none`. Under
//! renju (since session 62) a net has vectors per colour (`colours 2` in its file's header:
//! Black's cells and White's are not alike there), and Black's forbidden cells are left out of
//! Black's sums when the position is evaluated, as the linear evaluation leaves them out.
//!
//! Each class combination has two vectors of `hidden` numbers: one that a cell of the side to
//! move adds to that side's sum, one that a cell of the waiting side adds to its sum. The side to
//! move's sum and the opponent's go through one linear layer into rectified units; their weighted
//! sum, in logits, times the net's scale (evaluation units a logit), is added to the linear
//! evaluation. Fitted by `stonelab gomoku tune --model net --net-out FILE`
//! ([`super::tune_net`]).
//!
//! The first layer is linear in sums that are linear in the cells, so the engine folds it into
//! the vectors when it reads the file: each combination's vector becomes its image in the units'
//! space, and the position ([`super::position::Position`]) keeps, per colour, the sums of those
//! images (as the side to move and as the side waiting) up to date as it keeps its weight sums,
//! in fixed point so that a make and its unmake restore them exactly. An evaluation then adds
//! two sums and takes `units` rectified products.

use std::sync::OnceLock;

use super::cells::COMBINATIONS;
use super::position::JOINT_LEVELS;
use crate::{Color, Rule};

/// The widest sums a net may have.
pub const MAX_HIDDEN: usize = 32;

/// The most rectified units a net may have (the position keeps sums this wide).
pub const MAX_UNITS: usize = 32;

/// Fixed-point units of one in the sums.
pub const ONE: f32 = 4096.0;

/// The first word of a net file.
pub const RECORD: &str = "stonelab-gomoku-net";

/// A net, ready for the evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct NetWeights {
    pub hidden: usize,
    pub units: usize,
    /// 1: one set of vectors for both colours (freestyle, exactly five); 2: Black's, then
    /// White's (renju).
    pub colours: usize,
    /// Evaluation units per logit.
    pub scale: f32,
    /// Per colour (one or two), per combination, `2 * units` fixed-point numbers: what a cell
    /// of the side to move adds to the units' inputs (its vector through the first layer), then
    /// what a cell of the waiting side adds. One more block of zeros after each colour's,
    /// [`NetWeights::none`], stands for a cell that is not evaluated.
    pub images: Vec<i32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    /// Empty, or per joint level ([`super::position::Position::joint_levels`]) `units`
    /// fixed-point numbers: what a cell of that joint level adds to the side to move's unit
    /// inputs (level 0's are zeros). The position keeps them in each colour's sums as the side
    /// to move (`[..units]`), seen from that colour.
    pub joint: Vec<i32>,
}

/// A colour's sums of its cells' images: `[..units]` as the side to move, `[units..2 * units]`
/// as the side waiting.
pub type Sums = [i32; 2 * MAX_UNITS];

impl NetWeights {
    /// The output in logits for the side to move's sums `own` (its cells' images as the side to
    /// move) and the opponent's `opp` (its cells' as the side waiting).
    #[inline]
    #[must_use]
    pub fn output(&self, own: &[i32], opp: &[i32]) -> f32 {
        let mut out = 0.0;
        for j in 0..self.units {
            let a = self.b1[j] + (own[j] + opp[j]) as f32 / ONE;
            out += self.w2[j] * a.max(0.0);
        }
        out
    }

    /// The evaluation units the net adds when `mover`'s sums are the side to move's and
    /// `waiter`'s the other side's.
    #[inline]
    #[must_use]
    pub fn value(&self, mover: &Sums, waiter: &Sums) -> i64 {
        let u = self.units;
        (self.output(&mover[..u], &waiter[u..2 * u]) * self.scale).round() as i64
    }

    /// The index standing for a cell that is not evaluated (its image is zero).
    #[inline]
    #[must_use]
    pub const fn none() -> usize {
        COMBINATIONS
    }

    /// Whether the net has joint-level vectors ([`NetWeights::joint`]).
    #[inline]
    #[must_use]
    pub fn has_joint(&self) -> bool {
        !self.joint.is_empty()
    }

    /// Takes the image of joint level `old` out of the side to move's part of `sums` and puts
    /// `new`'s in.
    #[inline]
    pub fn replace_joint(&self, sums: &mut Sums, old: usize, new: usize) {
        match self.units {
            8 => Self::replace_in::<8>(&self.joint, sums, old, new),
            16 => Self::replace_in::<16>(&self.joint, sums, old, new),
            32 => Self::replace_in::<32>(&self.joint, sums, old, new),
            u => {
                let (o, n) = (&self.joint[old * u..][..u], &self.joint[new * u..][..u]);
                for j in 0..u {
                    sums[j] += n[j] - o[j];
                }
            }
        }
    }

    /// `sums[..W] += rows[new] - rows[old]` for rows of `W` numbers, through local copies: the
    /// compiler cannot tell that the sums and the rows never overlap, and without them it adds
    /// one number at a time.
    #[inline(always)]
    fn replace_in<const W: usize>(rows: &[i32], sums: &mut Sums, old: usize, new: usize) {
        let o: &[i32; W] = rows[old * W..][..W].try_into().expect("rows of W");
        let n: &[i32; W] = rows[new * W..][..W].try_into().expect("rows of W");
        let s: &mut [i32; W] = (&mut sums[..W]).try_into().expect("W <= 2 MAX_UNITS");
        let (o, n, mut acc) = (*o, *n, *s);
        for j in 0..W {
            acc[j] += n[j] - o[j];
        }
        *s = acc;
    }

    /// Whether the net is for `rule`: vectors per colour under renju, one set under the others.
    #[must_use]
    pub fn fits(&self, rule: Rule) -> bool {
        (self.colours == 2) == (rule == Rule::Renju)
    }

    /// Where colour `c`'s images start, in combinations.
    #[inline]
    fn base(&self, c: Color) -> usize {
        if self.colours == 2 && c == Color::White {
            COMBINATIONS + 1
        } else {
            0
        }
    }

    /// Takes colour `c`'s images of combination `old` out of its sums and puts `new`'s in
    /// ([`NetWeights::none`]: a cell not evaluated), in one pass; the common widths have loops
    /// of a fixed length, which the compiler turns into vector instructions.
    #[inline]
    pub fn replace(&self, sums: &mut Sums, c: Color, old: usize, new: usize) {
        let (old, new) = (self.base(c) + old, self.base(c) + new);
        match self.units {
            8 => Self::replace_in::<16>(&self.images, sums, old, new),
            16 => Self::replace_in::<32>(&self.images, sums, old, new),
            32 => Self::replace_in::<64>(&self.images, sums, old, new),
            u => {
                let w = 2 * u;
                let (o, n) = (&self.images[old * w..][..w], &self.images[new * w..][..w]);
                for j in 0..w {
                    sums[j] += n[j] - o[j];
                }
            }
        }
    }

    /// Adds `sign` times colour `c`'s images of combination `combination` to its sums.
    pub fn add(&self, sums: &mut Sums, c: Color, combination: usize, sign: i32) {
        let w = 2 * self.units;
        let at = (self.base(c) + combination) * w;
        for (s, x) in sums[..w].iter_mut().zip(&self.images[at..][..w]) {
            *s += sign * x;
        }
    }

    /// Reads a net file: the header line `stonelab-gomoku-net hidden H units U scale S`
    /// (and `colours 2` for a renju net), then comment lines (`#`), then every number in order:
    /// the side to move's vectors (`COMBINATIONS x H`; a renju net's Black's, then White's), the
    /// waiting side's (the same), the first layer (`U x 2H`), its biases (`U`), the output
    /// weights (`U`).
    ///
    /// # Errors
    /// A one-line description of what is wrong.
    pub fn parse(text: &str) -> Result<NetWeights, String> {
        let file = NetFile::parse(text)?;
        let (h, u, colours) = (file.hidden, file.units, file.colours);
        let (own, opp, w1) = (&file.own[..], &file.opp[..], &file.w1);
        let (b1, w2) = (file.b1.clone(), file.w2.clone());
        // The first layer folded into the vectors: colour c's combination i's image, unit j, as
        // the side to move (half 0) and as the side waiting (half 1).
        let mut images = Vec::with_capacity(colours * (COMBINATIONS + 1) * 2 * u);
        for c in 0..colours {
            for i in 0..COMBINATIONS {
                let at = (c * COMBINATIONS + i) * h;
                for (half, v) in [own, opp].iter().enumerate() {
                    for j in 0..u {
                        let row = &w1[j * 2 * h + half * h..j * 2 * h + half * h + h];
                        let x: f32 = row.iter().zip(&v[at..at + h]).map(|(w, e)| w * e).sum();
                        let q = (x * ONE).round();
                        if q.abs() >= 1e7 {
                            return Err(format!("combination {i}: unit input {x} out of range"));
                        }
                        images.push(q as i32);
                    }
                }
            }
            images.extend(std::iter::repeat_n(0, 2 * u));
        }
        // The joint vectors through the first layer's side-to-move half; level 0 stays zero.
        let mut joint = Vec::with_capacity(file.joint.len() / h.max(1) * u);
        for (l, v) in file.joint.chunks(h).enumerate() {
            for j in 0..u {
                let row = &w1[j * 2 * h..j * 2 * h + h];
                let x: f32 = row.iter().zip(v).map(|(w, e)| w * e).sum();
                let q = if l == 0 { 0.0 } else { (x * ONE).round() };
                if q.abs() >= 1e7 {
                    return Err(format!("joint level {l}: unit input {x} out of range"));
                }
                joint.push(q as i32);
            }
        }
        Ok(NetWeights {
            hidden: h,
            units: u,
            colours,
            scale: file.scale as f32,
            images,
            b1,
            w2,
            joint,
        })
    }
}

/// A net file's numbers as written, before the engine folds them ([`NetWeights::parse`]):
/// what the tuner starts a fit from (`stonelab gomoku tune --net-start`).
#[derive(Clone, Debug, PartialEq)]
pub struct NetFile {
    pub hidden: usize,
    pub units: usize,
    pub colours: usize,
    pub scale: f64,
    /// `colours x COMBINATIONS x hidden` each.
    pub own: Vec<f32>,
    pub opp: Vec<f32>,
    /// `units x 2 hidden`.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    /// Empty, or `JOINT_LEVELS x hidden` (header `joint` with the number of levels; not with
    /// `colours 2`).
    pub joint: Vec<f32>,
}

impl NetFile {
    /// Reads a net file ([`NetWeights::parse`]'s format).
    ///
    /// # Errors
    /// A one-line description of what is wrong.
    pub fn parse(text: &str) -> Result<NetFile, String> {
        let mut lines = text.lines();
        let words: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
        let field = |name: &str| -> Result<f64, String> {
            words
                .iter()
                .position(|w| *w == name)
                .and_then(|k| words.get(k + 1))
                .and_then(|w| w.parse::<f64>().ok())
                .ok_or(format!("line 1: no {name}"))
        };
        if words.first() != Some(&RECORD) {
            return Err(format!("line 1: not a '{RECORD}' file"));
        }
        let (hidden, units, scale) = (field("hidden")?, field("units")?, field("scale")?);
        if !(1.0..=MAX_HIDDEN as f64).contains(&hidden) || hidden.fract() != 0.0 {
            return Err(format!("line 1: hidden not in 1..={MAX_HIDDEN}"));
        }
        if !(1.0..=MAX_UNITS as f64).contains(&units) || units.fract() != 0.0 {
            return Err(format!("line 1: units not in 1..={MAX_UNITS}"));
        }
        if !(scale > 0.0 && scale < 1e6) {
            return Err("line 1: scale not a positive number".into());
        }
        let colours = match words.iter().position(|w| *w == "colours") {
            None => 1,
            Some(_) => match field("colours")? {
                1.0 => 1,
                2.0 => 2,
                _ => return Err("line 1: colours not 1 or 2".into()),
            },
        };
        let joint_rows = match words.iter().position(|w| *w == "joint") {
            None => 0,
            Some(_) => {
                let n = field("joint")?;
                if n != JOINT_LEVELS as f64 {
                    return Err(format!("line 1: joint not {JOINT_LEVELS}"));
                }
                if colours != 1 {
                    return Err("line 1: joint vectors only with colours 1".into());
                }
                JOINT_LEVELS
            }
        };
        let (h, u) = (hidden as usize, units as usize);
        let mut numbers = Vec::new();
        for (n, line) in lines.enumerate() {
            if line.trim_start().starts_with('#') {
                continue;
            }
            for word in line.split_whitespace() {
                let v: f32 = word
                    .parse()
                    .map_err(|_| format!("line {}: '{word}' is not a number", n + 2))?;
                if !v.is_finite() {
                    return Err(format!("line {}: '{word}' is not finite", n + 2));
                }
                numbers.push(v);
            }
        }
        let want = 2 * colours * COMBINATIONS * h + u * 2 * h + 2 * u + joint_rows * h;
        if numbers.len() != want {
            return Err(format!(
                "{} numbers where hidden {h}, units {u}, colours {colours} and joint {joint_rows} need {want}",
                numbers.len()
            ));
        }
        let mut rest = numbers.into_iter();
        let mut take = |n: usize| rest.by_ref().take(n).collect::<Vec<f32>>();
        Ok(NetFile {
            hidden: h,
            units: u,
            colours,
            scale,
            own: take(colours * COMBINATIONS * h),
            opp: take(colours * COMBINATIONS * h),
            w1: take(u * 2 * h),
            b1: take(u),
            w2: take(u),
            joint: take(joint_rows * h),
        })
    }
}

/// Writes a net file ([`NetWeights::parse`]'s format) from float parameters: `own` and `opp`
/// (`COMBINATIONS x hidden` each, or twice that for a renju net, which the header then says),
/// `w1`, `b1`, `w2`, `joint` (empty, or `JOINT_LEVELS x hidden`, which the header then says),
/// with `comments` as `#` lines.
#[must_use]
#[allow(clippy::too_many_arguments)]
pub fn format(
    hidden: usize,
    units: usize,
    scale: f64,
    own: &[f32],
    opp: &[f32],
    w1: &[f32],
    b1: &[f32],
    w2: &[f32],
    joint: &[f32],
    comments: &[String],
) -> String {
    let mut out = format!("{RECORD} hidden {hidden} units {units} scale {scale:.3}");
    if own.len() == 2 * COMBINATIONS * hidden {
        out.push_str(" colours 2");
    }
    if !joint.is_empty() {
        out.push_str(&format!(" joint {JOINT_LEVELS}"));
    }
    out.push('\n');
    for c in comments {
        out.push_str(&format!("# {c}\n"));
    }
    for (name, v, row) in [
        ("own", own, hidden),
        ("opp", opp, hidden),
        ("w1", w1, 2 * hidden),
        ("b1", b1, units),
        ("w2", w2, units),
        ("joint", joint, hidden),
    ] {
        if v.is_empty() {
            continue;
        }
        out.push_str(&format!("# {name}\n"));
        for chunk in v.chunks(row.max(1)) {
            let words: Vec<String> = chunk.iter().map(|x| format!("{x}")).collect();
            out.push_str(&words.join(" "));
            out.push('\n');
        }
    }
    out
}

/// The compiled-in net (`crates/gomoku/data/eval-net.txt`), for freestyle and exactly five.
pub const NET_FILE: &str = include_str!("../../data/eval-net.txt");

/// The compiled-in renju net (`crates/gomoku/data/eval-net-renju.txt`, `colours 2`; since
/// session 62).
pub const RENJU_NET_FILE: Option<&str> = Some(include_str!("../../data/eval-net-renju.txt"));

static NET: OnceLock<Option<NetWeights>> = OnceLock::new();
static RENJU_NET: OnceLock<Option<NetWeights>> = OnceLock::new();

/// Installs the net of `text` instead of the compiled-in one for the rules it fits (a renju net,
/// `colours 2`, for renju; any other for freestyle and exactly five), or none under any rule
/// for `None`, for every position made from now on. Must come before the first position.
///
/// # Errors
/// The text does not parse, or the net was read already.
pub fn install(text: Option<&str>) -> Result<(), String> {
    let read_already = |_| "the net was read before it could be replaced".to_string();
    match text.map(NetWeights::parse).transpose()? {
        None => {
            NET.set(None).map_err(read_already)?;
            RENJU_NET.set(None).map_err(read_already)
        }
        Some(net) if net.colours == 2 => RENJU_NET.set(Some(net)).map_err(read_already),
        Some(net) => NET.set(Some(net)).map_err(read_already),
    }
}

/// The net in use under `rule`: the compiled-in one unless [`install`] gave another or none.
///
/// # Panics
/// If a compiled-in file does not parse (a test reads them).
#[inline]
#[must_use]
pub fn installed(rule: Rule) -> Option<&'static NetWeights> {
    if rule == Rule::Renju {
        RENJU_NET
            .get_or_init(|| RENJU_NET_FILE.map(|t| NetWeights::parse(t).expect("renju net file")))
            .as_ref()
    } else {
        NET.get_or_init(|| Some(NetWeights::parse(NET_FILE).expect("data/eval-net.txt")))
            .as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A net written by [`format`] reads back, and its output from sums of folded images is the
    /// unfolded net's (computed here by hand in floats), a renju net's (`colours 2`) from each
    /// colour's own vectors; bad files are refused with a reason.
    #[test]
    fn a_net_file_round_trips_and_bad_ones_are_refused() {
        let (h, u) = (2, 3);
        for colours in [1, 2] {
            let own: Vec<f32> = (0..colours * COMBINATIONS * h)
                .map(|i| (i % 7) as f32 * 0.01 + (i / (COMBINATIONS * h)) as f32 * 0.03)
                .collect();
            let opp: Vec<f32> = (0..colours * COMBINATIONS * h)
                .map(|i| -((i % 5) as f32) * 0.02)
                .collect();
            let w1: Vec<f32> = (0..u * 2 * h).map(|i| i as f32 * 0.1 - 0.5).collect();
            let (b1, w2) = (vec![0.1, -0.2, 0.3], vec![1.0, -1.0, 0.5]);
            let text = format(
                h,
                u,
                300.0,
                &own,
                &opp,
                &w1,
                &b1,
                &w2,
                &[],
                &["test".into()],
            );
            let net = NetWeights::parse(&text).unwrap();
            assert_eq!((net.hidden, net.units, net.scale), (h, u, 300.0));
            assert_eq!(net.colours, colours);
            assert_eq!(net.fits(Rule::Renju), colours == 2);
            assert_eq!(net.fits(Rule::Freestyle), colours == 1);
            for (mover_colour, row) in [(Color::Black, 0), (Color::White, colours - 1)] {
                let waiter_colour = !mover_colour;
                let waiter_row = colours - 1 - row;
                // The side to move has cells of combinations 5, 5 and 9; the opponent one of 3.
                let mut x = [0.0f32; 4];
                for (i, side) in [(5, 0), (5, 0), (9, 0), (3, 1)] {
                    let (v, r) = if side == 0 {
                        (&own, row)
                    } else {
                        (&opp, waiter_row)
                    };
                    for k in 0..h {
                        x[side * h + k] += v[(r * COMBINATIONS + i) * h + k];
                    }
                }
                let want: f32 = (0..u)
                    .map(|j| {
                        let a = b1[j] + (0..4).map(|k| w1[j * 4 + k] * x[k]).sum::<f32>();
                        w2[j] * a.max(0.0)
                    })
                    .sum();
                let (mut mover, mut waiter) = ([0; 2 * MAX_UNITS], [0; 2 * MAX_UNITS]);
                for i in [5, 5, 9] {
                    net.add(&mut mover, mover_colour, i, 1);
                }
                net.add(&mut waiter, waiter_colour, 3, 1);
                net.replace(&mut waiter, waiter_colour, NetWeights::none(), 7);
                net.replace(&mut waiter, waiter_colour, 7, NetWeights::none());
                net.replace(&mut mover, mover_colour, NetWeights::none(), 4);
                net.replace(&mut mover, mover_colour, 4, 4);
                net.replace(&mut mover, mover_colour, 4, NetWeights::none());
                let got = net.value(&mover, &waiter) as f32 / 300.0;
                assert!((got - want).abs() < 1e-2, "{colours}: {got} {want}");
            }
            assert!(NetWeights::parse(&text.replace("units 3", "units 4")).is_err());
            assert!(NetWeights::parse(&text.replace("units 3", "units 33")).is_err());
            assert!(NetWeights::parse("{}").is_err());
            assert!(NetWeights::parse(&format!("{text}x\n")).is_err());
            assert!(NetWeights::parse(&format!("{text}0\n")).is_err());
            let other = if colours == 1 {
                text.replacen('\n', " colours 2\n", 1)
            } else {
                text.replace(" colours 2", "")
            };
            assert!(NetWeights::parse(&other).is_err(), "{colours}");
            let three = if colours == 1 {
                text.replacen('\n', " colours 3\n", 1)
            } else {
                text.replace(" colours 2", " colours 3")
            };
            assert!(NetWeights::parse(&three).is_err());
            // Joint vectors: only with colours 1, and as many as the header says.
            let joint: Vec<f32> = (0..JOINT_LEVELS * h)
                .map(|i| (i % 3) as f32 * 0.1)
                .collect();
            let with = format(h, u, 300.0, &own, &opp, &w1, &b1, &w2, &joint, &[]);
            let read = NetWeights::parse(&with);
            if colours == 1 {
                let read = read.unwrap();
                assert!(read.has_joint() && !net.has_joint());
                assert_eq!(read.joint.len(), JOINT_LEVELS * u);
                assert!(read.joint[..u].iter().all(|&x| x == 0));
                let mut sums = [0; 2 * MAX_UNITS];
                read.replace_joint(&mut sums, 0, 5);
                read.replace_joint(&mut sums, 5, 7);
                assert_eq!(&sums[..u], &read.joint[7 * u..8 * u]);
                assert!(sums[u..].iter().all(|&x| x == 0));
                assert!(NetWeights::parse(&format!("{with}0\n")).is_err());
                let fewer = with.replacen(&format!("joint {JOINT_LEVELS}"), "joint 3", 1);
                assert!(NetWeights::parse(&fewer).is_err());
            } else {
                assert!(read.is_err(), "joint vectors with colours 2");
            }
        }
    }

    /// For every width, [`NetWeights::replace`] (a fixed-length loop for 8, 16 and 32 units, a
    /// loop over the width otherwise) equals taking the old images out and putting the new in
    /// with [`NetWeights::add`], the none index included.
    #[test]
    fn replace_is_an_add_and_a_take_away_at_every_width() {
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % 2001) as f32 / 1000.0 - 1.0
        };
        for (h, u, colours) in [
            (2, 3, 1),
            (8, 8, 1),
            (4, 16, 1),
            (32, 32, 1),
            (5, 31, 1),
            (8, 8, 2),
        ] {
            let own: Vec<f32> = (0..colours * COMBINATIONS * h).map(|_| next()).collect();
            let opp: Vec<f32> = (0..colours * COMBINATIONS * h).map(|_| next()).collect();
            let w1: Vec<f32> = (0..u * 2 * h).map(|_| next()).collect();
            let (b1, w2): (Vec<f32>, Vec<f32>) = (
                (0..u).map(|_| next()).collect(),
                (0..u).map(|_| next()).collect(),
            );
            let net = NetWeights::parse(&format(h, u, 100.0, &own, &opp, &w1, &b1, &w2, &[], &[]))
                .unwrap();
            for c in Color::ALL {
                let (mut fast, mut slow) = ([0; 2 * MAX_UNITS], [0; 2 * MAX_UNITS]);
                let mut now = NetWeights::none();
                for k in 0..200 {
                    let new = if k % 7 == 3 {
                        NetWeights::none()
                    } else {
                        (k * 37 + 11) % COMBINATIONS
                    };
                    net.replace(&mut fast, c, now, new);
                    if now != NetWeights::none() {
                        net.add(&mut slow, c, now, -1);
                    }
                    if new != NetWeights::none() {
                        net.add(&mut slow, c, new, 1);
                    }
                    assert_eq!(fast, slow, "units {u}, step {k}");
                    now = new;
                }
                assert!(fast[..2 * u].iter().any(|&x| x != 0) || now == NetWeights::none());
                assert!(
                    fast[2 * u..].iter().all(|&x| x == 0),
                    "units {u}: past the width"
                );
            }
        }
    }

    /// The compiled-in net parses, with the sizes its header names.
    #[test]
    fn the_compiled_in_net_parses() {
        let net = NetWeights::parse(NET_FILE).unwrap();
        assert_eq!((net.hidden, net.units), (8, 8));
        assert_eq!(net.images.len(), (COMBINATIONS + 1) * 2 * net.units);
        if let Some(text) = RENJU_NET_FILE {
            let net = NetWeights::parse(text).unwrap();
            assert_eq!(net.colours, 2);
            assert_eq!(net.images.len(), 2 * (COMBINATIONS + 1) * 2 * net.units);
        }
    }
}
