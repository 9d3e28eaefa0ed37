//! The nonlinear term of the evaluation (since engine v2.24, session 60; freestyle and exactly
//! five): a small net, compiled in from `crates/gomoku/data/eval-net.txt`, replaced with
//! `pbrain-stonelab --eval-net FILE` or left out with `--eval-net none`.
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
    /// Evaluation units per logit.
    pub scale: f32,
    /// Per combination, `units` fixed-point numbers: what a cell of the side to move adds to
    /// the units' inputs (its vector through the first layer)...
    pub own: Vec<i32>,
    /// ...and what a cell of the waiting side adds.
    pub opp: Vec<i32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
}

impl NetWeights {
    /// The output in logits for the side to move's sums `own` (its cells' `own` images) and the
    /// opponent's `opp` (its cells' `opp` images).
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

    /// The evaluation units the net adds for those sums.
    #[inline]
    #[must_use]
    pub fn value(&self, own: &[i32], opp: &[i32]) -> i64 {
        (self.output(own, opp) * self.scale).round() as i64
    }

    /// Takes combination `old`'s images out of a colour's sums and puts `new`'s in (none: a cell
    /// not evaluated), in one pass.
    #[inline]
    pub fn replace(&self, sums: &mut [i32; 2 * MAX_UNITS], old: Option<usize>, new: Option<usize>) {
        let u = self.units;
        match (old, new) {
            (Some(o), Some(n)) => {
                let (to_move, waiting) = sums.split_at_mut(MAX_UNITS);
                let (own_o, own_n) = (&self.own[o * u..(o + 1) * u], &self.own[n * u..(n + 1) * u]);
                let (opp_o, opp_n) = (&self.opp[o * u..(o + 1) * u], &self.opp[n * u..(n + 1) * u]);
                for j in 0..u {
                    to_move[j] += own_n[j] - own_o[j];
                    waiting[j] += opp_n[j] - opp_o[j];
                }
            }
            (Some(o), None) => self.add(sums, o, -1),
            (None, Some(n)) => self.add(sums, n, 1),
            (None, None) => {}
        }
    }

    /// Adds `sign` times combination `combination`'s images to a colour's sums: `sums[..units]`
    /// as the side to move, `sums[MAX_UNITS..][..units]` as the side waiting.
    #[inline]
    pub fn add(&self, sums: &mut [i32; 2 * MAX_UNITS], combination: usize, sign: i32) {
        let u = self.units;
        let (own, opp) = (
            &self.own[combination * u..(combination + 1) * u],
            &self.opp[combination * u..(combination + 1) * u],
        );
        let (to_move, waiting) = sums.split_at_mut(MAX_UNITS);
        for j in 0..u {
            to_move[j] += sign * own[j];
            waiting[j] += sign * opp[j];
        }
    }

    /// Reads a net file: the header line `stonelab-gomoku-net hidden H units U scale S`, then comment lines (`#`), then every number in order: the
    /// side to move's vectors (`COMBINATIONS x H`), the waiting side's, the first layer
    /// (`U x 2H`), its biases (`U`), the output weights (`U`).
    ///
    /// # Errors
    /// A one-line description of what is wrong.
    pub fn parse(text: &str) -> Result<NetWeights, String> {
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
        let want = 2 * COMBINATIONS * h + u * 2 * h + 2 * u;
        if numbers.len() != want {
            return Err(format!(
                "{} numbers where hidden {h} and units {u} need {want}",
                numbers.len()
            ));
        }
        let mut at = 0;
        let mut take = |n: usize| {
            let s = &numbers[at..at + n];
            at += n;
            s
        };
        let own = take(COMBINATIONS * h).to_vec();
        let opp = take(COMBINATIONS * h).to_vec();
        let w1 = take(u * 2 * h).to_vec();
        let b1 = take(u).to_vec();
        let w2 = take(u).to_vec();
        // The first layer folded into the vectors: combination i's image, unit j.
        let image = |v: &[f32], half: usize| -> Result<Vec<i32>, String> {
            let mut out = Vec::with_capacity(COMBINATIONS * u);
            for i in 0..COMBINATIONS {
                for j in 0..u {
                    let row = &w1[j * 2 * h + half * h..j * 2 * h + half * h + h];
                    let x: f32 = row
                        .iter()
                        .zip(&v[i * h..(i + 1) * h])
                        .map(|(w, e)| w * e)
                        .sum();
                    let q = (x * ONE).round();
                    if q.abs() >= 1e7 {
                        return Err(format!("combination {i}: unit input {x} out of range"));
                    }
                    out.push(q as i32);
                }
            }
            Ok(out)
        };
        Ok(NetWeights {
            hidden: h,
            units: u,
            scale: scale as f32,
            own: image(&own, 0)?,
            opp: image(&opp, 1)?,
            b1,
            w2,
        })
    }
}

/// Writes a net file ([`NetWeights::parse`]'s format) from float parameters: `own` and `opp`
/// (`COMBINATIONS x hidden` each), `w1`, `b1`, `w2`, with `comments` as `#` lines.
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
    comments: &[String],
) -> String {
    let mut out = format!("{RECORD} hidden {hidden} units {units} scale {scale:.3}\n");
    for c in comments {
        out.push_str(&format!("# {c}\n"));
    }
    for (name, v, row) in [
        ("own", own, hidden),
        ("opp", opp, hidden),
        ("w1", w1, 2 * hidden),
        ("b1", b1, units),
        ("w2", w2, units),
    ] {
        out.push_str(&format!("# {name}\n"));
        for chunk in v.chunks(row.max(1)) {
            let words: Vec<String> = chunk.iter().map(|x| format!("{x}")).collect();
            out.push_str(&words.join(" "));
            out.push('\n');
        }
    }
    out
}

/// The compiled-in net (`crates/gomoku/data/eval-net.txt`).
pub const NET_FILE: &str = include_str!("../../data/eval-net.txt");

static NET: OnceLock<Option<NetWeights>> = OnceLock::new();

/// Installs the net of `text` (or none, for `None`) instead of the compiled-in one, for every
/// position made from now on (freestyle and exactly five). Must come before the first position.
///
/// # Errors
/// The text does not parse, or the net was read already.
pub fn install(text: Option<&str>) -> Result<(), String> {
    let net = text.map(NetWeights::parse).transpose()?;
    NET.set(net)
        .map_err(|_| "the net was read before it could be replaced".to_string())
}

/// The net in use: the compiled-in one unless [`install`] gave another or none.
///
/// # Panics
/// If the compiled-in file does not parse (a test reads it).
#[inline]
#[must_use]
pub fn installed() -> Option<&'static NetWeights> {
    NET.get_or_init(|| Some(NetWeights::parse(NET_FILE).expect("data/eval-net.txt")))
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A net written by [`format`] reads back, and its output from sums of folded images is the
    /// unfolded net's (computed here by hand in floats); bad files are refused with a reason.
    #[test]
    fn a_net_file_round_trips_and_bad_ones_are_refused() {
        let (h, u) = (2, 3);
        let own: Vec<f32> = (0..COMBINATIONS * h)
            .map(|i| (i % 7) as f32 * 0.01)
            .collect();
        let opp: Vec<f32> = (0..COMBINATIONS * h)
            .map(|i| -((i % 5) as f32) * 0.02)
            .collect();
        let w1: Vec<f32> = (0..u * 2 * h).map(|i| i as f32 * 0.1 - 0.5).collect();
        let (b1, w2) = (vec![0.1, -0.2, 0.3], vec![1.0, -1.0, 0.5]);
        let text = format(h, u, 300.0, &own, &opp, &w1, &b1, &w2, &["test".into()]);
        let net = NetWeights::parse(&text).unwrap();
        assert_eq!((net.hidden, net.units, net.scale), (h, u, 300.0));
        // The side to move has cells of combinations 5, 5 and 9; the opponent one of 3.
        let mut x = [0.0f32; 4];
        for (i, side) in [(5, 0), (5, 0), (9, 0), (3, 1)] {
            let v = if side == 0 { &own } else { &opp };
            for k in 0..h {
                x[side * h + k] += v[i * h + k];
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
            net.add(&mut mover, i, 1);
        }
        net.add(&mut waiter, 3, 1);
        net.add(&mut waiter, 7, 1);
        net.add(&mut waiter, 7, -1);
        let got = net.output(&mover[..MAX_UNITS], &waiter[MAX_UNITS..]);
        assert!((got - want).abs() < 1e-3, "{got} {want}");
        assert!(NetWeights::parse(&text.replace("units 3", "units 4")).is_err());
        assert!(NetWeights::parse(&text.replace("units 3", "units 33")).is_err());
        assert!(NetWeights::parse("{}").is_err());
        assert!(NetWeights::parse(&format!("{text}x\n")).is_err());
        assert!(NetWeights::parse(&format!("{text}0\n")).is_err());
    }

    /// The compiled-in net parses, with the sizes its header names.
    #[test]
    fn the_compiled_in_net_parses() {
        let net = NetWeights::parse(NET_FILE).unwrap();
        assert_eq!((net.hidden, net.units), (8, 8));
        assert_eq!(net.own.len(), COMBINATIONS * net.units);
    }
}
