//! A small nonlinear evaluation fitted on top of the linear one (an experiment, session 60).
//!
//! The linear evaluation ([`super::tune`]) values a position as a sum over cells, each cell
//! weighed by its class combination alone, plus one weight for the threat mask: what one cell
//! is worth cannot depend on what the others are. Here every combination also has a vector of
//! `hidden` numbers, one table for the side to move's cells and one for the opponent's; the
//! position's two sums of those vectors (an "accumulator" per side, as NNUE nets keep one, and
//! as cheap to keep up to date on a move as the linear sums) go through one layer of rectified
//! units, whose weighted sum is added, in logits, to the linear evaluation. With the output
//! weights at zero the model is the linear evaluation exactly, so a fit can only add to it.
//!
//! Fitted by Adam over mini-batches of [`Samples`] (the linear weights stay as given),
//! cross-entropy against the samples' results as in [`super::tune`]. Under renju, whose linear
//! weights are per colour, the net's vectors are per colour too (`colours` 2: Black's
//! combinations, then White's).

use super::cells::COMBINATIONS;
use super::position::JOINT_LEVELS;
use super::tune::{sigmoid, Samples};

/// The net's parameters.
#[derive(Clone, Debug)]
pub struct Net {
    /// Accumulator width.
    pub hidden: usize,
    /// Rectified units.
    pub units: usize,
    /// 1, or 2 under renju (vectors per colour).
    pub colours: usize,
    /// `colours x COMBINATIONS x hidden`: the side to move's vectors, then the opponent's.
    pub own: Vec<f32>,
    pub opp: Vec<f32>,
    /// `units x 2 hidden`, row by row.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// `units`: the output, in logits.
    pub w2: Vec<f32>,
    /// Empty, or `JOINT_LEVELS x hidden`: vectors of the cells' joint levels
    /// ([`super::position::Position::joint_levels`]), added to the side to move's sum (an
    /// experiment, session 64; [`Net::with_joint`]).
    pub joint: Vec<f32>,
}

/// Training settings.
#[derive(Clone, Copy, Debug)]
pub struct NetFit {
    /// Evaluation units per logit of the linear part.
    pub scale: f64,
    pub epochs: usize,
    pub batch: usize,
    pub step: f32,
    /// L2 on every net parameter.
    pub l2: f32,
    pub seed: u64,
}

impl Net {
    /// Small random vectors (per colour when `colours` is 2: under renju) and first layer, zero
    /// output: the linear evaluation.
    #[must_use]
    pub fn new(hidden: usize, units: usize, colours: usize, seed: u64) -> Net {
        let mut rng = stonelab_rand::Xorshift64Star::new(seed.max(1));
        let mut normal = |sd: f32| {
            // Sum of four uniforms, centred: close enough to a normal for a start.
            let u: f32 = (0..4)
                .map(|_| (rng.below(1 << 24) as f32) / (1u32 << 24) as f32)
                .sum::<f32>()
                - 2.0;
            u * sd * 1.73
        };
        let rows = colours * COMBINATIONS * hidden;
        let own = (0..rows).map(|_| normal(0.05)).collect();
        let opp = (0..rows).map(|_| normal(0.05)).collect();
        let fan = (2 * hidden) as f32;
        let w1 = (0..units * 2 * hidden)
            .map(|_| normal(1.0 / fan.sqrt()))
            .collect();
        Net {
            hidden,
            units,
            colours,
            own,
            opp,
            w1,
            b1: vec![0.0; units],
            w2: vec![0.0; units],
            joint: Vec::new(),
        }
    }

    /// The net with joint-level vectors ([`Net::joint`]), all zero: the same output until fitted.
    #[must_use]
    pub fn with_joint(mut self) -> Net {
        self.joint = vec![0.0; JOINT_LEVELS * self.hidden];
        self
    }

    /// A net to start a fit from: a net file's numbers ([`super::net::NetFile`]), for a fit of
    /// `colours` (a renju fit, 2, may start from a net of one set of vectors: each colour starts
    /// with a copy).
    ///
    /// # Errors
    /// A net of two colours for a fit of one.
    pub fn from_file(file: &super::net::NetFile, colours: usize) -> Result<Net, String> {
        let copies = match (file.colours, colours) {
            (a, b) if a == b => 1,
            (1, 2) => 2,
            _ => return Err("a renju net (colours 2) starts only a renju fit".into()),
        };
        Ok(Net {
            hidden: file.hidden,
            units: file.units,
            colours,
            own: file.own.repeat(copies),
            opp: file.opp.repeat(copies),
            w1: file.w1.clone(),
            b1: file.b1.clone(),
            w2: file.w2.clone(),
            joint: file.joint.clone(),
        })
    }

    /// The net as a net file ([`super::net::format`]) with `scale` and `comments`.
    #[must_use]
    pub fn to_text(&self, scale: f64, comments: &[String]) -> String {
        super::net::format(
            self.hidden,
            self.units,
            scale,
            &self.own,
            &self.opp,
            &self.w1,
            &self.b1,
            &self.w2,
            &self.joint,
            comments,
        )
    }

    fn len(&self) -> usize {
        self.own.len()
            + self.opp.len()
            + self.w1.len()
            + self.b1.len()
            + self.w2.len()
            + self.joint.len()
    }

    /// Where linear weight `w` (a feature's number, [`super::tune::weight_number`]) lies among
    /// the vectors: whether it is the side waiting's, and its row; none for a threat weight.
    fn row_of(&self, w: usize) -> Option<(bool, usize)> {
        // Per colour, the side to move's combinations, then the side waiting's.
        let block = w / COMBINATIONS;
        (block < 2 * self.colours).then(|| {
            (
                block % 2 == 1,
                (block / 2) * COMBINATIONS + w % COMBINATIONS,
            )
        })
    }

    /// The accumulators of a sample's features: the side to move's sum, then the opponent's.
    fn accumulate(&self, features: &[(u16, i16)], joint: &[(u8, u8)], x: &mut [f32]) {
        let h = self.hidden;
        x.iter_mut().for_each(|v| *v = 0.0);
        if !self.joint.is_empty() {
            for &(j, n) in joint {
                let row = &self.joint[usize::from(j) * h..][..h];
                for k in 0..h {
                    x[k] += f32::from(n) * row[k];
                }
            }
        }
        for &(w, n) in features {
            match self.row_of(usize::from(w)) {
                Some((false, r)) => {
                    let row = &self.own[r * h..(r + 1) * h];
                    for k in 0..h {
                        x[k] += f32::from(n) * row[k];
                    }
                }
                Some((true, r)) => {
                    // The opponent's cells are stored with negative counts.
                    let row = &self.opp[r * h..(r + 1) * h];
                    for k in 0..h {
                        x[h + k] -= f32::from(n) * row[k];
                    }
                }
                None => {}
            }
        }
    }

    /// The net's output in logits for accumulators `x`, the units' inputs left in `a`.
    fn forward(&self, x: &[f32], a: &mut [f32]) -> f32 {
        let mut out = 0.0;
        for j in 0..self.units {
            let row = &self.w1[j * 2 * self.hidden..(j + 1) * 2 * self.hidden];
            let s = self.b1[j] + row.iter().zip(x).map(|(w, v)| w * v).sum::<f32>();
            a[j] = s;
            out += self.w2[j] * s.max(0.0);
        }
        out
    }

    /// The net's output in logits for sample `i`.
    #[must_use]
    pub fn output(&self, samples: &Samples, i: usize) -> f32 {
        let mut x = vec![0.0; 2 * self.hidden];
        let mut a = vec![0.0; self.units];
        self.accumulate(samples.sample_features(i), samples.sample_joint(i), &mut x);
        self.forward(&x, &mut a)
    }

    /// The mean cross-entropy of `sigmoid(linear / scale + net)`.
    #[must_use]
    pub fn loss(&self, samples: &Samples, linear: &[f64], scale: f64) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let total: f64 = (0..samples.len())
            .map(|i| {
                let z = samples.eval(i, linear) / scale + f64::from(self.output(samples, i));
                let p = sigmoid(z).clamp(1e-9, 1.0 - 1e-9);
                let r = f64::from(samples.result(i));
                -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
            })
            .sum();
        total / samples.len() as f64
    }

    /// Adam over mini-batches of `samples` in a shuffled order, each epoch reported to
    /// `progress` (epoch, training loss over the epoch's batches, the net).
    pub fn fit(
        &mut self,
        samples: &Samples,
        linear: &[f64],
        settings: NetFit,
        mut progress: impl FnMut(usize, f64, &Net),
    ) {
        let h = self.hidden;
        let u = self.units;
        let n = samples.len();
        if n == 0 {
            return;
        }
        let base: Vec<f32> = (0..n)
            .map(|i| (samples.eval(i, linear) / settings.scale) as f32)
            .collect();
        let params = self.len();
        let (mut m, mut v) = (vec![0.0f32; params], vec![0.0f32; params]);
        let mut grad = vec![0.0f32; params];
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let mut order: Vec<usize> = (0..n).collect();
        let mut rng = stonelab_rand::Xorshift64Star::new(settings.seed.max(1));
        let mut x = vec![0.0f32; 2 * h];
        let mut a = vec![0.0f32; u];
        let mut dx = vec![0.0f32; 2 * h];
        let mut t = 0i32;
        let (own_at, opp_at) = (0, self.own.len());
        let w1_at = opp_at + self.opp.len();
        let b1_at = w1_at + self.w1.len();
        let w2_at = b1_at + self.b1.len();
        let joint_at = w2_at + self.w2.len();
        for epoch in 1..=settings.epochs {
            for k in (1..n).rev() {
                order.swap(k, rng.below(k + 1));
            }
            let mut epoch_loss = 0.0f64;
            for batch in order.chunks(settings.batch.max(1)) {
                grad.iter_mut().for_each(|g| *g = 0.0);
                let scale = 1.0 / batch.len() as f32;
                for &i in batch {
                    let features = samples.sample_features(i);
                    let joint = samples.sample_joint(i);
                    self.accumulate(features, joint, &mut x);
                    let z = base[i] + self.forward(&x, &mut a);
                    let p = sigmoid(f64::from(z)) as f32;
                    let r = samples.result(i);
                    let pc = f64::from(p).clamp(1e-9, 1.0 - 1e-9);
                    epoch_loss -= f64::from(r) * pc.ln() + (1.0 - f64::from(r)) * (1.0 - pc).ln();
                    let g = (p - r) * scale;
                    dx.iter_mut().for_each(|d| *d = 0.0);
                    for j in 0..u {
                        let hj = a[j].max(0.0);
                        grad[w2_at + j] += g * hj;
                        if a[j] > 0.0 {
                            let da = g * self.w2[j];
                            grad[b1_at + j] += da;
                            let row = j * 2 * h;
                            for k in 0..2 * h {
                                grad[w1_at + row + k] += da * x[k];
                                dx[k] += da * self.w1[row + k];
                            }
                        }
                    }
                    for &(w, c) in features {
                        match self.row_of(usize::from(w)) {
                            Some((false, r)) => {
                                for k in 0..h {
                                    grad[own_at + r * h + k] += f32::from(c) * dx[k];
                                }
                            }
                            Some((true, r)) => {
                                for k in 0..h {
                                    grad[opp_at + r * h + k] -= f32::from(c) * dx[h + k];
                                }
                            }
                            None => {}
                        }
                    }
                    if !self.joint.is_empty() {
                        for &(j, c) in joint {
                            let at = joint_at + usize::from(j) * h;
                            for k in 0..h {
                                grad[at + k] += f32::from(c) * dx[k];
                            }
                        }
                    }
                }
                t += 1;
                let c1 = 1.0 - b1.powi(t);
                let c2 = 1.0 - b2.powi(t);
                let mut k = 0;
                for part in [
                    &mut self.own,
                    &mut self.opp,
                    &mut self.w1,
                    &mut self.b1,
                    &mut self.w2,
                    &mut self.joint,
                ] {
                    for p in part.iter_mut() {
                        let g = grad[k] + settings.l2 * *p;
                        m[k] = b1 * m[k] + (1.0 - b1) * g;
                        v[k] = b2 * v[k] + (1.0 - b2) * g * g;
                        *p -= settings.step * (m[k] / c1) / ((v[k] / c2).sqrt() + eps);
                        k += 1;
                    }
                }
            }
            progress(epoch, epoch_loss / n as f64, self);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::net::{self, NetWeights};
    use crate::engine::position::Position;
    use crate::{Color, Point, Rule};

    fn random_net(seed: u64, colours: usize) -> Net {
        let mut net = Net::new(8, 6, colours, seed);
        let mut rng = stonelab_rand::Xorshift64Star::new(seed + 1);
        for w in net.w2.iter_mut().chain(net.b1.iter_mut()) {
            *w = (rng.below(2001) as f32 - 1000.0) / 1000.0;
        }
        net
    }

    /// [`random_net`] with random joint vectors (level 0's stay zero: no cell has it).
    fn random_joint_net(seed: u64) -> Net {
        let mut net = random_net(seed, 1).with_joint();
        let mut rng = stonelab_rand::Xorshift64Star::new(seed + 2);
        let h = net.hidden;
        for w in &mut net.joint[h..] {
            *w = (rng.below(2001) as f32 - 1000.0) / 5000.0;
        }
        net
    }

    fn installed_copy(net: &Net, scale: f64) -> &'static NetWeights {
        let text = net.to_text(scale, &[]);
        Box::leak(Box::new(NetWeights::parse(&text).unwrap()))
    }

    /// The engine's evaluation with a net is the linear one plus the fitted model's net term
    /// (to the fixed point's rounding), on random positions; its sums survive quick makes and
    /// unmakes as a rebuild has them. Under renju the net has vectors per colour, and Black's
    /// forbidden cells, which the tuner's features leave out, are left out of the engine's sums
    /// (some of the positions have them).
    #[test]
    fn the_engine_adds_the_fitted_nets_term() {
        let scale = 300.0;
        let mut rng = stonelab_rand::Xorshift64Star::new(11);
        let mut with_fouls = 0;
        let mut joint_moved = 0;
        for (rule, joint) in [
            (Rule::Freestyle, false),
            (Rule::Standard, false),
            (Rule::Renju, false),
            (Rule::Freestyle, true),
            (Rule::Standard, true),
        ] {
            let renju = rule == Rule::Renju;
            let net = if joint {
                random_joint_net(3)
            } else {
                random_net(3, if renju { 2 } else { 1 })
            };
            // The same net without its joint vectors, to see that they count.
            let plain_net = Net {
                joint: Vec::new(),
                ..net.clone()
            };
            let weights = installed_copy(&net, scale);
            let other = installed_copy(&random_net(4, if renju { 1 } else { 2 }), scale);
            let linear = super::super::tune::current_weights_for(rule);
            for _ in 0..if renju { 200 } else { 20 } {
                let mut moves = Vec::new();
                let mut pos = Position::new(15, rule);
                let mut c = Color::Black;
                for _ in 0..4 + rng.below(30) {
                    let p = Point::new(3 + rng.below(9) as u8, 3 + rng.below(9) as u8);
                    if pos.stone(p).is_none() {
                        pos.make(p, c);
                        moves.push(p);
                        c = !c;
                    }
                }
                let mut samples = Samples::new();
                if !samples.add_position(15, rule, &moves, 0.5).unwrap() {
                    continue;
                }
                let plain = pos.evaluate_linear(c);
                // A net of the other kind is refused: the evaluation is the linear one.
                pos.set_net(Some(other));
                assert_eq!(pos.evaluate(c), plain);
                pos.set_net(Some(weights));
                let with = pos.evaluate(c);
                if renju
                    && pos.evaluated_combinations(Color::Black).count()
                        < pos.combinations(Color::Black).count()
                {
                    with_fouls += 1;
                }
                let want = f64::from(net.output(&samples, 0)) * scale;
                let got = f64::from(with - plain);
                if joint && (f64::from(plain_net.output(&samples, 0)) * scale - want).abs() > 20.0 {
                    joint_moved += 1;
                }
                // Each cell's image is rounded to 1/4096 (up to about 100 cells: a few units);
                // a cell left in or out by mistake moves the term by tens.
                assert!(
                    (got - want).abs() <= 4.0 + want.abs() * 1e-3,
                    "{rule}: {got} {want}"
                );
                assert!((samples.eval(0, &linear) - f64::from(plain)).abs() < 1.0);
                let mut depth = 0;
                for _ in 0..30 {
                    let p = Point::new(rng.below(15) as u8, rng.below(15) as u8);
                    if depth > 0 && rng.below(3) == 0 {
                        pos.unmake_quick();
                        depth -= 1;
                        c = !c;
                    } else if pos.stone(p).is_none() {
                        pos.make_quick(p, c);
                        depth += 1;
                        c = !c;
                    }
                    assert!(pos.is_consistent());
                }
                while depth > 0 {
                    pos.unmake_quick();
                    depth -= 1;
                    c = !c;
                }
                assert_eq!(pos.evaluate(c), with);
            }
        }
        assert!(
            with_fouls >= 5,
            "{with_fouls} renju positions with forbidden cells"
        );
        assert!(
            joint_moved >= 10,
            "{joint_moved} positions moved by the joint vectors"
        );
    }

    /// A net written and read back as a fit's start is the same net; a renju fit may start from
    /// a net of one colour, whose vectors then serve both colours, and not the other way round.
    #[test]
    fn a_fit_starts_from_a_written_net() {
        let net = random_net(5, 1);
        let text = net.to_text(300.0, &[]);
        let file = net::NetFile::parse(&text).unwrap();
        let same = Net::from_file(&file, 1).unwrap();
        assert_eq!((same.own == net.own, same.w2 == net.w2), (true, true));
        let both = Net::from_file(&file, 2).unwrap();
        let c = COMBINATIONS * net.hidden;
        assert_eq!(
            (&both.own[..c], &both.own[c..]),
            (&net.own[..], &net.own[..])
        );
        assert_eq!(
            (&both.opp[..c], &both.opp[c..]),
            (&net.opp[..], &net.opp[..])
        );
        let joint = random_joint_net(6);
        let file = net::NetFile::parse(&joint.to_text(300.0, &[])).unwrap();
        assert_eq!(Net::from_file(&file, 1).unwrap().joint, joint.joint);
        let renju = both.to_text(300.0, &[]);
        let file = net::NetFile::parse(&renju).unwrap();
        assert_eq!(file.colours, 2);
        assert!(Net::from_file(&file, 1).is_err());
        assert_eq!(Net::from_file(&file, 2).unwrap().own, both.own);
    }

    /// A fit lowers the loss of samples whose results follow a rule the linear weights do not
    /// know (here: the side to move wins when it has more than a few cells of one combination).
    #[test]
    fn a_fit_lowers_the_loss() {
        let mut samples = Samples::new();
        let mut rng = stonelab_rand::Xorshift64Star::new(7);
        let mut n = 0;
        while n < 300 {
            let mut moves = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for _ in 0..6 + rng.below(10) {
                let p = Point::new(2 + rng.below(11) as u8, 2 + rng.below(11) as u8);
                if seen.insert(p) {
                    moves.push(p);
                }
            }
            let value = if moves.len() % 2 == 0 { 0.9 } else { 0.1 };
            if samples
                .add_position(15, Rule::Freestyle, &moves, value)
                .unwrap()
            {
                n += 1;
            }
        }
        let linear = super::super::tune::current_weights();
        let scale = super::super::tune::best_scale(&samples, &linear);
        let mut net = Net::new(4, 4, 1, 5);
        let before = net.loss(&samples, &linear, scale);
        let settings = NetFit {
            scale,
            epochs: 60,
            batch: 32,
            step: 3e-3,
            l2: 0.0,
            seed: 1,
        };
        net.fit(&samples, &linear, settings, |_, _, _| {});
        let after = net.loss(&samples, &linear, scale);
        assert!(after < before - 0.05, "{before} -> {after}");
    }
}
