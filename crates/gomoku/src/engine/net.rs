//! An optional nonlinear term of the evaluation (an experiment, session 60; off unless a net is
//! installed, `pbrain-stonelab --eval-net FILE`).
//!
//! Each class combination has two vectors of `hidden` numbers: one that a cell of the side to
//! move adds to that side's sum, one that a cell of the waiting side adds to its sum. The
//! position keeps both sums for both colours up to date as it keeps its weight sums
//! ([`super::position::Position`]), in fixed point so that a make and its unmake restore them
//! exactly. The side to move's sum and the opponent's go through one layer of rectified units;
//! their weighted sum, in logits, times the net's scale (evaluation units a logit), is added to
//! the linear evaluation. Fitted by `stonelab gomoku tune --model net --net-out FILE`
//! ([`super::tune_net`]).

use std::sync::OnceLock;

use super::cells::COMBINATIONS;

/// The widest sums a net may have.
pub const MAX_HIDDEN: usize = 32;

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
    /// Per combination, `hidden` fixed-point numbers: a cell of the side to move.
    pub own: Vec<i32>,
    /// The same for a cell of the waiting side.
    pub opp: Vec<i32>,
    /// `units x 2 hidden`, row by row (the side to move's sum first).
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
}

impl NetWeights {
    /// The output in logits for the side to move's sum `own` and the opponent's `opp`.
    #[inline]
    #[must_use]
    pub fn output(&self, own: &[i32], opp: &[i32]) -> f32 {
        let h = self.hidden;
        let mut x = [0.0f32; 2 * MAX_HIDDEN];
        for k in 0..h {
            x[k] = own[k] as f32 / ONE;
            x[h + k] = opp[k] as f32 / ONE;
        }
        let x = &x[..2 * h];
        let mut out = 0.0;
        for j in 0..self.units {
            let row = &self.w1[j * 2 * h..(j + 1) * 2 * h];
            let a = self.b1[j] + row.iter().zip(x).map(|(w, v)| w * v).sum::<f32>();
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
        if !(1.0..=256.0).contains(&units) || units.fract() != 0.0 {
            return Err("line 1: units not in 1..=256".into());
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
        let fixed = |v: &[f32]| -> Result<Vec<i32>, String> {
            v.iter()
                .map(|x| {
                    let q = (x * ONE).round();
                    if q.abs() < 1e7 {
                        Ok(q as i32)
                    } else {
                        Err(format!("vector entry {x} out of range"))
                    }
                })
                .collect()
        };
        let mut at = 0;
        let mut take = |n: usize| {
            let s = &numbers[at..at + n];
            at += n;
            s
        };
        let own = fixed(take(COMBINATIONS * h))?;
        let opp = fixed(take(COMBINATIONS * h))?;
        let w1 = take(u * 2 * h).to_vec();
        let b1 = take(u).to_vec();
        let w2 = take(u).to_vec();
        Ok(NetWeights {
            hidden: h,
            units: u,
            scale: scale as f32,
            own,
            opp,
            w1,
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

static NET: OnceLock<NetWeights> = OnceLock::new();

/// Installs the net of `text` for every position made from now on (freestyle and exactly five).
///
/// # Errors
/// The text does not parse, or a net is installed already.
pub fn install(text: &str) -> Result<(), String> {
    let net = NetWeights::parse(text)?;
    NET.set(net)
        .map_err(|_| "a net is installed already".to_string())
}

/// The installed net, if any.
#[inline]
#[must_use]
pub fn installed() -> Option<&'static NetWeights> {
    NET.get()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A net written by [`format`] reads back with the same numbers,
    /// and bad files are refused with a reason.
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
        assert_eq!(net.own[3], (own[3] * ONE).round() as i32);
        assert_eq!(net.w1, w1);
        // Output by hand: x = (0.5, -0.25 | 0.0, 1.0).
        let x = [0.5f32, -0.25, 0.0, 1.0];
        let want: f32 = (0..u)
            .map(|j| {
                let a = b1[j] + (0..4).map(|k| w1[j * 4 + k] * x[k]).sum::<f32>();
                w2[j] * a.max(0.0)
            })
            .sum();
        let got = net.output(&[2048, -1024], &[0, 4096]);
        assert!((got - want).abs() < 1e-5, "{got} {want}");
        assert!(NetWeights::parse(&text.replace("units 3", "units 4")).is_err());
        assert!(NetWeights::parse("{}").is_err());
        assert!(NetWeights::parse(&format!("{text}x\n")).is_err());
        assert!(NetWeights::parse(&format!("{text}0\n")).is_err());
    }
}
