//! Fitting the evaluation's weights to game results (logistic regression, "Texel tuning").
//!
//! Every position of a game (after the opening and before its last move, leaving out positions
//! where a five is on the board to make or to block, or the side to move can make a straight four:
//! the search scores those at once) becomes a sample: the counts of each class
//! combination ([`super::cells::combinations`]) among the side to move's empty cells and among the
//! opponent's, and the game's result for the side to move (1, 1/2, 0). The model is the engine's
//! evaluation `e = sum(count * to_move weight) - sum(count * waiting weight)`, and the predicted
//! result `sigmoid(e / scale)`. [`best_scale`] fits the scale to the current weights once, so the
//! evaluation keeps its units (the search's margins are in them); [`fit`] then minimises the
//! cross-entropy plus an L2 pull towards the starting weights, by Adam over full batches.

use super::cells::COMBINATIONS;
use super::classes::Class;
use super::position::Position;
use super::threats::THREAT_MASKS;
use crate::{Color, Point, Rule};

/// The number of weights: to-move weights first, then waiting weights, then the threat masks'
/// ([`super::threats`]).
pub const WEIGHTS: usize = 2 * COMBINATIONS + THREAT_MASKS;

/// The number of the first threat-mask weight.
pub const THREAT_BASE: usize = 2 * COMBINATIONS;

/// The number of weights under renju, where each colour has its own ([`super::weights::Source`]):
/// Black's to-move and waiting weights, then White's, then the threat masks' with Black to move,
/// then with White to move ([`super::threats::table_for`]).
pub const RENJU_WEIGHTS: usize = 4 * COMBINATIONS + 2 * THREAT_MASKS;

/// The number of the first threat-mask weight under renju.
pub const RENJU_THREAT_BASE: usize = 4 * COMBINATIONS;

/// The number of weights of samples under `rule` ([`WEIGHTS`] or [`RENJU_WEIGHTS`]).
#[must_use]
pub fn weights_len(rule: Rule) -> usize {
    if rule == Rule::Renju {
        RENJU_WEIGHTS
    } else {
        WEIGHTS
    }
}

/// The number of the first threat-mask weight under `rule`.
#[must_use]
pub fn threat_base(rule: Rule) -> usize {
    if rule == Rule::Renju {
        RENJU_THREAT_BASE
    } else {
        THREAT_BASE
    }
}

/// The number of the weight of threat mask `m` with `s` to move under `rule`.
#[must_use]
pub fn threat_number(rule: Rule, s: Color, m: usize) -> usize {
    match (rule, s) {
        (Rule::Renju, Color::White) => RENJU_THREAT_BASE + THREAT_MASKS + m,
        _ => threat_base(rule) + m,
    }
}

/// The weight number of colour `c`'s combination `i` as the side to move (or waiting) under
/// `rule`.
#[must_use]
pub fn weight_number(rule: Rule, c: Color, i: usize, to_move: bool) -> usize {
    let side = if to_move { 0 } else { COMBINATIONS };
    let colour = match (rule, c) {
        (Rule::Renju, Color::White) => 2 * COMBINATIONS,
        _ => 0,
    };
    colour + side + i
}

/// Whether `p` is on `pos`'s board and empty.
fn is_free(pos: &Position, p: Point) -> bool {
    let size = pos.size();
    usize::from(p.x) < size && usize::from(p.y) < size && pos.stone(p).is_none()
}

/// The position after `moves` (from Black's first) and the side to move, or `Err(k)` when move
/// `k` is off the board or on a stone.
fn replay(size: usize, rule: Rule, moves: &[Point]) -> Result<(Position, Color), usize> {
    let mut pos = Position::new(size, rule);
    // Features only: the net's sums are not needed.
    pos.set_net(None);
    let mut c = Color::Black;
    for (k, &p) in moves.iter().enumerate() {
        if !is_free(&pos, p) {
            return Err(k);
        }
        pos.make(p, c);
        c = !c;
    }
    Ok((pos, c))
}

/// Samples in a flat store: sample `i`'s features are `features[starts[i]..starts[i + 1]]`, each a
/// weight number and a signed count (negative for the waiting side's combinations).
#[derive(Clone, Debug, Default)]
pub struct Samples {
    starts: Vec<u32>,
    features: Vec<(u16, i16)>,
    results: Vec<f32>,
    /// The smoothed model ([`Samples::smoothed`]): features are twice the evaluation's.
    smooth: bool,
    /// Sample `i`'s joint cells are `joint[joint_starts[i]..joint_starts[i + 1]]`: each a joint
    /// level ([`super::position::Position::joint_levels`]) and the number of cells at it (the
    /// net's inputs, not the linear model's).
    joint_starts: Vec<u32>,
    joint: Vec<(u8, u8)>,
}

impl Samples {
    /// No samples.
    #[must_use]
    pub fn new() -> Samples {
        Samples {
            starts: vec![0],
            joint_starts: vec![0],
            ..Samples::default()
        }
    }

    /// No samples, for the smoothed evaluation
    /// ([`super::position::Position::set_smooth`]): each sample's cell sums are averaged with
    /// those of the position before its last move, seen from the same side (the side to move
    /// waited there), and its threat term is its own. Positions without a last move are left out.
    #[must_use]
    pub fn smoothed() -> Samples {
        Samples {
            smooth: true,
            ..Samples::new()
        }
    }

    /// What the stored features are divided by to give the evaluation: 2 when smoothed (the
    /// two positions' counts summed, the threat term doubled), else 1.
    fn divisor(&self) -> f64 {
        if self.smooth {
            2.0
        } else {
            1.0
        }
    }

    /// The number of samples.
    #[must_use]
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Adds the samples of one game: `moves` from Black's first, `winner` (`None`: a draw), the
    /// first `skip` positions left out.
    pub fn add_game(
        &mut self,
        size: usize,
        rule: Rule,
        moves: &[Point],
        winner: Option<Color>,
        skip: usize,
    ) {
        let mut pos = Position::new(size, rule);
        let mut before: Option<Position> = None;
        let mut c = Color::Black;
        for (k, &p) in moves.iter().enumerate() {
            if k >= skip {
                let result = match winner {
                    None => 0.5,
                    Some(w) if w == c => 1.0,
                    Some(_) => 0.0,
                };
                self.push(&pos, before.as_ref(), c, result);
            }
            if pos.stone(p).is_some() {
                return;
            }
            if self.smooth {
                before = Some(pos.clone());
            }
            pos.make(p, c);
            c = !c;
        }
    }

    /// Adds the position after `moves` (from Black's first; the side to move follows from their
    /// number) with `value`, the expected result for the side to move in 0..=1 (a soft label, e.g.
    /// a stronger engine's score through a sigmoid). Returns whether it was added (not when the
    /// position is decided, as in [`Samples::add_game`]), or `Err(k)` when move `k` is off the
    /// board or on a stone.
    pub fn add_position(
        &mut self,
        size: usize,
        rule: Rule,
        moves: &[Point],
        value: f32,
    ) -> Result<bool, usize> {
        let (pos, c) = replay(size, rule, moves)?;
        let before = match moves.split_last() {
            Some((_, earlier)) if self.smooth => Some(replay(size, rule, earlier)?.0),
            _ => None,
        };
        Ok(self.push(&pos, before.as_ref(), c, value.clamp(0.0, 1.0)))
    }

    /// One sample of `pos` with `s` to move, unless the search scores it at once (a five to make
    /// or to block, a straight four to make) and so never evaluates it; when smoothed, `before`
    /// is the position before the last move (none: no sample).
    fn push(&mut self, pos: &Position, before: Option<&Position>, s: Color, result: f32) -> bool {
        let decided = !pos.class_sets(s).five.is_empty()
            || !pos.class_sets(!s).five.is_empty()
            || !pos.class_sets(s).open_four.is_empty();
        if decided || (self.smooth && before.is_none()) {
            return false;
        }
        let rule = pos.rule();
        let mut counts = vec![0i16; weights_len(rule)];
        for i in pos.evaluated_combinations(s) {
            counts[weight_number(rule, s, i, true)] += 1;
        }
        for i in pos.evaluated_combinations(!s) {
            counts[weight_number(rule, !s, i, false)] -= 1;
        }
        let mut threat = 1;
        if let (true, Some(b)) = (self.smooth, before) {
            // `s` waited before the last move and the opponent was to move.
            for i in b.evaluated_combinations(s) {
                counts[weight_number(rule, s, i, false)] += 1;
            }
            for i in b.evaluated_combinations(!s) {
                counts[weight_number(rule, !s, i, true)] -= 1;
            }
            threat = 2;
        }
        counts[threat_number(rule, s, pos.threat_mask(s))] += threat;
        for (i, n) in counts.iter().enumerate() {
            if *n != 0 {
                self.features.push((i as u16, *n));
            }
        }
        self.starts.push(self.features.len() as u32);
        self.results.push(result);
        let mut joint = [0u8; super::position::JOINT_LEVELS];
        for j in pos.joint_levels(s) {
            joint[j] = joint[j].saturating_add(1);
        }
        for (j, &n) in joint.iter().enumerate() {
            if n != 0 {
                self.joint.push((j as u8, n));
            }
        }
        self.joint_starts.push(self.joint.len() as u32);
        true
    }

    /// Sample `i`'s joint cells: joint levels and how many cells have each (none for samples
    /// made without them).
    #[must_use]
    pub fn sample_joint(&self, i: usize) -> &[(u8, u8)] {
        match (self.joint_starts.get(i), self.joint_starts.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.joint[a as usize..b as usize],
            _ => &[],
        }
    }

    fn features(&self, i: usize) -> &[(u16, i16)] {
        &self.features[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Sample `i`'s features: weight numbers and signed counts (as [`Samples::eval`] reads them).
    #[must_use]
    pub fn sample_features(&self, i: usize) -> &[(u16, i16)] {
        self.features(i)
    }

    /// Sample `i`'s result for the side to move (0..=1).
    #[must_use]
    pub fn result(&self, i: usize) -> f32 {
        self.results[i]
    }

    /// The evaluation of sample `i` under `weights`.
    #[must_use]
    pub fn eval(&self, i: usize, weights: &[f64]) -> f64 {
        self.features(i)
            .iter()
            .map(|&(w, n)| f64::from(n) * weights[usize::from(w)])
            .sum::<f64>()
            / self.divisor()
    }

    /// The mean cross-entropy of the predictions `sigmoid(eval / scale)`.
    #[must_use]
    pub fn loss(&self, weights: &[f64], scale: f64) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let total: f64 = (0..self.len())
            .map(|i| {
                let p = sigmoid(self.eval(i, weights) / scale).clamp(1e-9, 1.0 - 1e-9);
                let r = f64::from(self.results[i]);
                -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
            })
            .sum();
        total / self.len() as f64
    }
}

/// The features of `pos` with `s` to move into `counts` (dense, zero outside `touched`), noting
/// each weight number set in `touched`.
fn dense_features(pos: &Position, s: Color, counts: &mut [i32], touched: &mut Vec<u16>) {
    let rule = pos.rule();
    let mut add = |k: usize, n: i32| {
        if counts[k] == 0 {
            touched.push(k as u16);
        }
        counts[k] += n;
    };
    for i in pos.evaluated_combinations(s) {
        add(weight_number(rule, s, i, true), 1);
    }
    for i in pos.evaluated_combinations(!s) {
        add(weight_number(rule, !s, i, false), -1);
    }
    add(threat_number(rule, s, pos.threat_mask(s)), 1);
}

/// Move choices of a stronger player: for each position, the features of every quiet candidate
/// move's result, so that the evaluation can be fitted to rank the player's move first (the
/// comparison training of Tesauro and of Hoki's Bonanza, at one ply). A candidate's evaluation
/// is the opponent's after the move, so the mover values it at minus that; the model's
/// probability of each candidate is the softmax of those values over a temperature, and the loss
/// is the mean negative log-probability of the move played.
///
/// Positions where the choice is tactics rather than shape are left out: a five to make or to
/// block, an open three of the opponent's to answer, or a played move that makes a four or more;
/// and candidates that make a four or more are not candidates (the search, not the evaluation,
/// scores those). Since every candidate's features share the position's own with the opponent to
/// move, only each candidate's difference from them is kept (the softmax does not see a shared
/// term): a few dozen numbers a candidate.
#[derive(Clone, Debug, Default)]
pub struct Choices {
    /// Position `g`'s candidates are `groups[g]..groups[g + 1]`; the first is the move played.
    groups: Vec<u32>,
    /// Candidate `j`'s features are `features[starts[j]..starts[j + 1]]`.
    starts: Vec<u32>,
    features: Vec<(u16, i16)>,
}

impl Choices {
    /// None.
    #[must_use]
    pub fn new() -> Choices {
        Choices {
            groups: vec![0],
            starts: vec![0],
            features: Vec::new(),
        }
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.groups.len() - 1
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds the position after `moves` (from Black's first) with `played`, the move chosen there.
    /// Returns whether it was added (not when the choice is tactics, above, or the played move is
    /// the only candidate), or `Err(k)` when move `k` (`moves.len()`: `played`) is off the board
    /// or on a stone.
    pub fn add(
        &mut self,
        size: usize,
        rule: Rule,
        moves: &[Point],
        played: Point,
    ) -> Result<bool, usize> {
        let (mut pos, c) = replay(size, rule, moves)?;
        if !is_free(&pos, played) {
            return Err(moves.len());
        }
        let (own, theirs) = (pos.class_sets(c), pos.class_sets(!c));
        let tactical = own.five | own.four;
        if !own.five.is_empty()
            || !theirs.five.is_empty()
            || !theirs.open_four.is_empty()
            || tactical.contains(played)
        {
            return Ok(false);
        }
        let others: Vec<Point> = pos
            .candidates()
            .iter()
            .filter(|&p| {
                p != played && !tactical.contains(p) && !(rule == Rule::Renju && pos.is_foul(p, c))
            })
            .collect();
        if others.is_empty() || (rule == Rule::Renju && pos.is_foul(played, c)) {
            return Ok(false);
        }
        let mut counts = vec![0i32; weights_len(rule)];
        let mut touched = Vec::new();
        // The shared part, negated: the position itself with the opponent to move.
        dense_features(&pos, !c, &mut counts, &mut touched);
        for k in &touched {
            counts[usize::from(*k)] = -counts[usize::from(*k)];
        }
        let shared: Vec<(u16, i32)> = touched
            .iter()
            .map(|&k| (k, counts[usize::from(k)]))
            .collect();
        for p in std::iter::once(played).chain(others) {
            for &(k, n) in &shared {
                counts[usize::from(k)] = n;
            }
            touched.clear();
            touched.extend(shared.iter().map(|&(k, _)| k));
            pos.make_quick(p, c);
            dense_features(&pos, !c, &mut counts, &mut touched);
            pos.unmake_quick();
            for &k in &touched {
                let n = std::mem::take(&mut counts[usize::from(k)]);
                if n != 0 {
                    self.features.push((k, n as i16));
                }
            }
            self.starts.push(self.features.len() as u32);
        }
        self.groups.push((self.starts.len() - 1) as u32);
        Ok(true)
    }

    fn candidate(&self, j: usize) -> &[(u16, i16)] {
        &self.features[self.starts[j] as usize..self.starts[j + 1] as usize]
    }

    /// Position `g`'s candidates' probabilities under `weights` and `temperature` (the played
    /// move's first).
    fn probabilities(&self, g: usize, weights: &[f64], temperature: f64) -> Vec<f64> {
        let range = self.groups[g] as usize..self.groups[g + 1] as usize;
        let values: Vec<f64> = range
            .map(|j| {
                let e: f64 = self
                    .candidate(j)
                    .iter()
                    .map(|&(k, n)| f64::from(n) * weights[usize::from(k)])
                    .sum();
                -e / temperature
            })
            .collect();
        let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exps: Vec<f64> = values.iter().map(|v| (v - top).exp()).collect();
        let total: f64 = exps.iter().sum();
        exps.into_iter().map(|e| e / total).collect()
    }

    /// The mean negative log-probability of the moves played, and how often the played move has
    /// the best value (top-1).
    #[must_use]
    pub fn loss(&self, weights: &[f64], temperature: f64) -> (f64, f64) {
        if self.is_empty() {
            return (0.0, 0.0);
        }
        let (mut nll, mut top) = (0.0, 0usize);
        for g in 0..self.len() {
            let p = self.probabilities(g, weights, temperature);
            nll -= p[0].max(1e-300).ln();
            if p.iter().skip(1).all(|&q| q < p[0]) {
                top += 1;
            }
        }
        let n = self.len() as f64;
        (nll / n, top as f64 / n)
    }

    /// Adds to `grad_w` the gradient of `factor` times the mean loss.
    fn gradient(&self, weights: &[f64], temperature: f64, factor: f64, grad_w: &mut [f64]) {
        let n = self.len().max(1) as f64;
        for g in 0..self.len() {
            let p = self.probabilities(g, weights, temperature);
            let first = self.groups[g] as usize;
            for (i, q) in p.into_iter().enumerate() {
                // d loss / d value = q - [played]; value = -e / temperature.
                let y = if i == 0 { 1.0 } else { 0.0 };
                let d = -(q - y) / temperature * factor / n;
                for &(k, c) in self.candidate(first + i) {
                    grad_w[usize::from(k)] += d * f64::from(c);
                }
            }
        }
    }
}

/// The move-choice term of a fit: the choices, their temperature and their weight beside the
/// value loss.
#[derive(Clone, Copy, Debug)]
pub struct ChoiceTerm<'a> {
    pub choices: &'a Choices,
    pub temperature: f64,
    pub weight: f64,
}

/// The compiled-in weights as one vector: to-move weights, then waiting weights, then the threat
/// masks'.
#[must_use]
pub fn current_weights() -> Vec<f64> {
    let mut w = weights_of(super::weights::WEIGHTS_FILE);
    for (m, &t) in super::threats::table().iter().enumerate() {
        w[THREAT_BASE + m] = f64::from(t);
    }
    w
}

/// The compiled-in weights under `rule` as one vector ([`current_weights`], or under renju
/// Black's to-move and waiting weights, White's, then the threat masks').
#[must_use]
pub fn current_weights_for(rule: Rule) -> Vec<f64> {
    if rule != Rule::Renju {
        return current_weights();
    }
    let black = weights_of(super::weights::RENJU_BLACK_FILE);
    let white = weights_of(super::weights::RENJU_WHITE_FILE);
    let mut w = Vec::with_capacity(RENJU_WEIGHTS);
    w.extend_from_slice(&black[..THREAT_BASE]);
    w.extend_from_slice(&white[..THREAT_BASE]);
    for s in [Color::Black, Color::White] {
        let table = super::threats::table_for(Rule::Renju, s);
        w.extend(table.iter().map(|&t| f64::from(t)));
    }
    w
}

/// A weights file's pairs as one vector: to-move weights, then waiting weights (threat masks 0).
///
/// # Panics
/// If `text` is not a valid weights file (it is compiled in).
fn weights_of(text: &str) -> Vec<f64> {
    let pairs = super::weights::parse(text).expect("valid weights");
    let mut w = vec![0.0; WEIGHTS];
    for (i, (a, b)) in pairs.into_iter().enumerate() {
        w[i] = f64::from(a);
        w[COMBINATIONS + i] = f64::from(b);
    }
    w
}

/// The logistic function.
#[must_use]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The scale (in evaluation units per logit) that fits `weights` best, searched on a log grid
/// then refined by golden section.
#[must_use]
pub fn best_scale(samples: &Samples, weights: &[f64]) -> f64 {
    let f = |ln_s: f64| samples.loss(weights, ln_s.exp());
    let (mut lo, mut hi) = (1.0f64.ln(), 100_000.0f64.ln());
    let phi = (5.0f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if f(a) < f(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Fitting settings.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    pub scale: f64,
    /// L2 pull towards the starting weights, per weight, in loss units per squared logit of
    /// difference (the difference is divided by `scale`).
    pub l2: f64,
    pub epochs: usize,
    /// Adam's step size, in evaluation units.
    pub step: f64,
}

/// How the weights follow from the fitted parameters: weight `k` is `base[k]` plus the sum of
/// `coefficient * parameter` over `terms[k]`.
#[derive(Clone, Debug)]
pub struct Design {
    pub base: Vec<f64>,
    pub terms: Vec<Vec<(usize, f64)>>,
    pub params: usize,
}

/// The parameters of [`Design::classes`] for one side (to move, waiting): one per class from
/// `B1` to `F4`, then the bonuses for two fours, a four and an open three, two open threes, and
/// two lines of at least `F2` with no stronger pair.
pub const CLASS_PARAMS: usize = 15;

impl Design {
    /// Every weight its own parameter, except the `frozen` ones, which keep `start`. Returns the
    /// design and the starting parameters.
    #[must_use]
    pub fn table(start: &[f64], frozen: &[bool]) -> (Design, Vec<f64>) {
        let mut base = vec![0.0; start.len()];
        let mut terms = vec![Vec::new(); start.len()];
        let mut theta = Vec::new();
        for k in 0..start.len() {
            if frozen[k] {
                base[k] = start[k];
            } else {
                terms[k].push((theta.len(), 1.0));
                theta.push(start[k]);
            }
        }
        let params = theta.len();
        (
            Design {
                base,
                terms,
                params,
            },
            theta,
        )
    }

    /// A weight is the sum of its four classes' values plus a bonus for the strongest pair of
    /// lines ([`CLASS_PARAMS`] per side); the `frozen` weights keep `start`. Starts from the
    /// hand-set values (the move-ordering values, 9/10 of them when waiting).
    #[must_use]
    pub fn classes(start: &[f64], frozen: &[bool]) -> (Design, Vec<f64>) {
        let combos = super::cells::combinations();
        let n = start.len();
        let threat_base = if n == RENJU_WEIGHTS {
            RENJU_THREAT_BASE
        } else {
            THREAT_BASE
        };
        let mut base = vec![0.0; n];
        let mut terms = vec![Vec::new(); n];
        for k in 0..n {
            if frozen[k] || k >= threat_base {
                base[k] = start[k];
                continue;
            }
            let side = (k / COMBINATIONS) * CLASS_PARAMS;
            let ks = combos[k % COMBINATIONS];
            for c in ks {
                if (Class::B1..=Class::F4).contains(&c) {
                    terms[k].push((side + c as usize - 1, 1.0));
                }
            }
            let (a, b) = (ks[0], ks[1]);
            let bonus = if a >= Class::B4 && b >= Class::B4 {
                Some(11)
            } else if a >= Class::B4 && b.is_three() {
                Some(12)
            } else if a.is_three() && b.is_three() {
                Some(13)
            } else if b >= Class::F2 && b < Class::F3 {
                Some(14)
            } else {
                None
            };
            if let Some(j) = bonus {
                terms[k].push((side + j, 1.0));
            }
        }
        let own: [f64; CLASS_PARAMS] = [
            1.0, 1.0, 4.0, 10.0, 10.0, 10.0, 12.0, 40.0, 40.0, 45.0, 300.0, 250.0, 250.0, 250.0,
            0.0,
        ];
        // A side per block of combinations: to move and waiting, and under renju per colour.
        let sides = threat_base / COMBINATIONS;
        let mut theta: Vec<f64> = Vec::with_capacity(sides * CLASS_PARAMS);
        for _ in 0..sides / 2 {
            theta.extend_from_slice(&own);
            theta.extend(own.iter().map(|v| v * 0.9));
        }
        (
            Design {
                base,
                terms,
                params: sides * CLASS_PARAMS,
            },
            theta,
        )
    }

    /// The weights of parameters `theta`.
    #[must_use]
    pub fn weights(&self, theta: &[f64]) -> Vec<f64> {
        self.base
            .iter()
            .zip(&self.terms)
            .map(|(b, t)| b + t.iter().map(|&(j, c)| c * theta[j]).sum::<f64>())
            .collect()
    }
}

/// Minimises the loss over `weights` from `start`; `frozen` weights keep their start value.
#[must_use]
pub fn fit(samples: &Samples, start: &[f64], frozen: &[bool], settings: Fit) -> Vec<f64> {
    let (design, theta) = Design::table(start, frozen);
    design.weights(&fit_design(samples, &design, &theta, settings))
}

/// Minimises the loss over the parameters of `design` from `start`, with the L2 pull towards
/// `start`; returns the parameters.
#[must_use]
pub fn fit_design(samples: &Samples, design: &Design, start: &[f64], settings: Fit) -> Vec<f64> {
    fit_design_with(samples, None, design, start, settings)
}

/// [`fit_design`] with a move-choice term added to the loss ([`Choices`]).
#[must_use]
pub fn fit_design_with(
    samples: &Samples,
    choices: Option<ChoiceTerm>,
    design: &Design,
    start: &[f64],
    settings: Fit,
) -> Vec<f64> {
    let mut theta = start.to_vec();
    let (mut m, mut v) = (vec![0.0; theta.len()], vec![0.0; theta.len()]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let n = samples.len().max(1) as f64;
    let s = settings.scale;
    for epoch in 1..=settings.epochs {
        let w = design.weights(&theta);
        let mut grad_w = vec![0.0; w.len()];
        for i in 0..samples.len() {
            let p = sigmoid(samples.eval(i, &w) / s);
            let g = (p - f64::from(samples.results[i])) / s / n / samples.divisor();
            for &(k, c) in samples.features(i) {
                grad_w[usize::from(k)] += g * f64::from(c);
            }
        }
        if let Some(t) = choices {
            t.choices.gradient(&w, t.temperature, t.weight, &mut grad_w);
        }
        let mut grad = vec![0.0; theta.len()];
        for (k, t) in design.terms.iter().enumerate() {
            for &(j, c) in t {
                grad[j] += c * grad_w[k];
            }
        }
        for j in 0..theta.len() {
            let d = (theta[j] - start[j]) / s;
            let g = grad[j] + 2.0 * settings.l2 * d / s;
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let mh = m[j] / (1.0 - b1.powi(epoch as i32));
            let vh = v[j] / (1.0 - b2.powi(epoch as i32));
            theta[j] -= settings.step * mh / (vh.sqrt() + eps);
        }
    }
    theta
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On games made up so that one combination decides the result, the fit moves that
    /// combination's weight the right way and lowers the loss.
    #[test]
    fn fit_lowers_the_loss_and_learns_the_telling_feature() {
        let mut samples = Samples::new();
        let mut rng = stonelab_rand::Xorshift64Star::new(5);
        // Synthetic samples: weight 3 present (positive count) means a win, else a loss.
        for _ in 0..400 {
            let telling = rng.below(2) == 0;
            let other = 10 + rng.below(20) as u16;
            samples.features.push((other, 1));
            if telling {
                samples.features.push((3, 1));
            }
            samples.starts.push(samples.features.len() as u32);
            samples.results.push(if telling { 1.0 } else { 0.0 });
        }
        let start = vec![0.0; WEIGHTS];
        let frozen = vec![false; WEIGHTS];
        let settings = Fit {
            scale: 100.0,
            l2: 0.0,
            epochs: 200,
            step: 10.0,
        };
        let w = fit(&samples, &start, &frozen, settings);
        assert!(w[3] > 100.0, "{}", w[3]);
        assert!(samples.loss(&w, 100.0) < samples.loss(&start, 100.0) / 2.0);
        let mut frozen = frozen;
        frozen[3] = true;
        assert_eq!(fit(&samples, &start, &frozen, settings)[3], 0.0);
    }

    /// The class design's starting parameters give the hand-set weights
    /// (`data/eval-weights-handset.txt`, the engine's before any fit; waiting ones within the file's
    /// rounding down).
    #[test]
    fn class_design_starts_at_the_hand_set_weights() {
        let start = weights_of(include_str!("../../data/eval-weights-handset.txt"));
        let frozen: Vec<bool> = (0..WEIGHTS)
            .map(|k| super::super::cells::combinations()[k % COMBINATIONS][0] == Class::Five)
            .collect();
        let (design, theta) = Design::classes(&start, &frozen);
        let w = design.weights(&theta);
        for k in 0..WEIGHTS {
            assert!(
                w[k] - start[k] >= -1e-9 && w[k] - start[k] < 1.0,
                "{k}: {} {}",
                w[k],
                start[k]
            );
        }
    }

    /// A labelled position is one sample with its value, scored like a game's position; decided
    /// positions and bad move lists are not added.
    #[test]
    fn labelled_positions() {
        let pts = |v: &[(u8, u8)]| v.iter().map(|&(x, y)| Point::new(x, y)).collect::<Vec<_>>();
        let mut samples = Samples::new();
        let moves = pts(&[(7, 7), (0, 0), (8, 7), (0, 2)]);
        assert_eq!(
            samples.add_position(15, Rule::Freestyle, &moves, 0.75),
            Ok(true)
        );
        assert_eq!(samples.results, vec![0.75]);
        let mut pos = Position::new(15, Rule::Freestyle);
        let mut c = Color::Black;
        for &p in &moves {
            pos.make(p, c);
            c = !c;
        }
        let w = current_weights();
        assert_eq!(
            samples.eval(0, &w),
            f64::from(pos.evaluate_linear(Color::Black))
        );
        // Black to move with a straight four to make: decided, not a sample.
        let four = pts(&[(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4)]);
        assert_eq!(
            samples.add_position(15, Rule::Freestyle, &four, 0.5),
            Ok(false)
        );
        let twice = pts(&[(7, 7), (7, 7)]);
        assert_eq!(
            samples.add_position(15, Rule::Freestyle, &twice, 0.5),
            Err(1)
        );
        assert_eq!(
            samples.add_position(9, Rule::Freestyle, &pts(&[(9, 1)]), 0.5),
            Err(0)
        );
        assert_eq!(samples.len(), 1);
    }

    /// Under renju each colour has weights of its own and Black's forbidden cells are left out, as
    /// the engine's evaluation does: a sample's evaluation under the compiled-in renju weights is
    /// the engine's, with either side to move, in a position where Black has a double three.
    #[test]
    fn renju_samples_evaluate_as_the_engine_with_weights_per_colour() {
        let pts = |v: &[(u8, u8)]| v.iter().map(|&(x, y)| Point::new(x, y)).collect::<Vec<_>>();
        // Black's (6,4) makes two threes: forbidden.
        let black_to_move = pts(&[
            (6, 2),
            (0, 0),
            (6, 3),
            (14, 0),
            (4, 4),
            (0, 14),
            (5, 4),
            (14, 14),
        ]);
        let mut white_to_move = black_to_move.clone();
        white_to_move.push(Point::new(11, 11));
        let w = current_weights_for(Rule::Renju);
        assert_eq!(w.len(), RENJU_WEIGHTS);
        for (moves, s) in [
            (&black_to_move, Color::Black),
            (&white_to_move, Color::White),
        ] {
            let mut samples = Samples::new();
            assert_eq!(samples.add_position(15, Rule::Renju, moves, 0.5), Ok(true));
            let mut pos = Position::new(15, Rule::Renju);
            let mut c = Color::Black;
            for &p in moves {
                pos.make(p, c);
                c = !c;
            }
            assert!(pos.is_foul(Point::new(6, 4), Color::Black));
            assert_eq!(samples.eval(0, &w), f64::from(pos.evaluate_linear(s)));
            // The threat mask is a feature of the side to move's own table.
            let t = threat_number(Rule::Renju, s, pos.threat_mask(s));
            assert!(samples.features(0).contains(&(t as u16, 1)));
            let own_table = if s == Color::Black {
                RENJU_THREAT_BASE..RENJU_THREAT_BASE + THREAT_MASKS
            } else {
                RENJU_THREAT_BASE + THREAT_MASKS..RENJU_WEIGHTS
            };
            assert!(own_table.contains(&t));
            // Only Black's to-move weights set: Black's evaluated cells when Black is to move
            // (its empty cells with any class but the forbidden one), nothing when White is.
            let mut only = vec![0.0; RENJU_WEIGHTS];
            for i in 0..COMBINATIONS {
                only[weight_number(Rule::Renju, Color::Black, i, true)] = 1.0;
            }
            let sets = pos.class_sets(Color::Black);
            let fouls = (sets.four | sets.three)
                .iter()
                .filter(|&p| pos.is_foul(p, Color::Black))
                .count();
            assert!(fouls >= 1);
            let black_cells = pos.combinations(Color::Black).count();
            let expected = if s == Color::Black {
                black_cells - fouls
            } else {
                0
            };
            assert_eq!(samples.eval(0, &only), expected as f64);
        }
    }

    /// A choice's candidates, scored by their kept features, differ as the engine's evaluations
    /// of the positions after them do (the shared part cancels); the played move comes first and
    /// candidates that make a four are left out.
    #[test]
    fn choice_features_are_evaluation_differences() {
        let pts = |v: &[(u8, u8)]| v.iter().map(|&(x, y)| Point::new(x, y)).collect::<Vec<_>>();
        // Black to move; Black's (6,7) or (10,7) would make a four on row 7.
        let moves = pts(&[(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (6, 9)]);
        let played = Point::new(9, 9);
        let mut choices = Choices::new();
        assert_eq!(choices.add(15, Rule::Freestyle, &moves, played), Ok(true));
        let mut pos = Position::new(15, Rule::Freestyle);
        let mut c = Color::Black;
        for &p in &moves {
            pos.make(p, c);
            c = !c;
        }
        let w = current_weights();
        let base = f64::from(pos.evaluate_linear(!c));
        let candidates: Vec<Point> = std::iter::once(played)
            .chain(
                pos.candidates()
                    .iter()
                    .filter(|&p| p != played && !pos.class_sets(c).four.contains(p)),
            )
            .collect();
        assert!(
            !candidates.contains(&Point::new(6, 7)) && !candidates.contains(&Point::new(10, 7))
        );
        assert_eq!(choices.groups, vec![0, candidates.len() as u32]);
        for (j, &p) in candidates.iter().enumerate() {
            pos.make(p, c);
            let e = f64::from(pos.evaluate_linear(!c)) - base;
            pos.unmake();
            let kept: f64 = choices
                .candidate(j)
                .iter()
                .map(|&(k, n)| f64::from(n) * w[usize::from(k)])
                .sum();
            assert_eq!(kept, e, "candidate {j} at {p:?}");
        }
    }

    /// Choices that are tactics are not samples: an open three of the opponent's to answer, a
    /// played move that makes a four; a move on a stone is an error naming it.
    #[test]
    fn tactical_choices_are_left_out() {
        let pts = |v: &[(u8, u8)]| v.iter().map(|&(x, y)| Point::new(x, y)).collect::<Vec<_>>();
        let mut choices = Choices::new();
        // White to move facing Black's open three on row 7.
        let three = pts(&[(7, 7), (0, 0), (8, 7), (0, 2), (9, 7)]);
        assert_eq!(
            choices.add(15, Rule::Freestyle, &three, Point::new(10, 7)),
            Ok(false)
        );
        // Black to move, the played move makes a four.
        let four = pts(&[(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (10, 7)]);
        assert_eq!(
            choices.add(15, Rule::Freestyle, &four, Point::new(6, 7)),
            Ok(false)
        );
        assert_eq!(
            choices.add(15, Rule::Freestyle, &four, Point::new(7, 7)),
            Err(6)
        );
        assert_eq!(
            choices.add(
                15,
                Rule::Freestyle,
                &pts(&[(7, 7), (7, 7)]),
                Point::new(1, 1)
            ),
            Err(1)
        );
        assert!(choices.is_empty());
    }

    /// Fitted to choices alone where the played move is the one the compiled-in weights like
    /// least, the loss falls and the played move climbs.
    #[test]
    fn fitting_choices_ranks_the_played_moves_higher() {
        let mut rng = stonelab_rand::Xorshift64Star::new(11);
        let w = current_weights();
        let mut choices = Choices::new();
        while choices.len() < 40 {
            let mut pos = Position::new(15, Rule::Freestyle);
            let mut moves = vec![Point::new(7, 7)];
            pos.make(moves[0], Color::Black);
            let mut c = Color::White;
            for _ in 0..(4 + rng.below(8)) {
                let near: Vec<Point> = pos.candidates().iter().collect();
                let p = near[rng.below(near.len())];
                pos.make(p, c);
                moves.push(p);
                c = !c;
            }
            // The candidate after which the opponent's evaluation is highest: our worst.
            let quiet: Vec<Point> = pos
                .candidates()
                .iter()
                .filter(|&p| !pos.class_sets(c).four.contains(p))
                .collect();
            let worst = *quiet
                .iter()
                .max_by_key(|&&p| {
                    pos.make(p, c);
                    let e = pos.evaluate_linear(!c);
                    pos.unmake();
                    e
                })
                .unwrap();
            let _ = choices.add(15, Rule::Freestyle, &moves, worst);
        }
        let (before, top_before) = choices.loss(&w, 300.0);
        let frozen = vec![false; WEIGHTS];
        let (design, theta) = Design::table(&w, &frozen);
        let term = ChoiceTerm {
            choices: &choices,
            temperature: 300.0,
            weight: 1.0,
        };
        let settings = Fit {
            scale: 300.0,
            l2: 0.0,
            epochs: 100,
            step: 10.0,
        };
        let fitted = design.weights(&fit_design_with(
            &Samples::new(),
            Some(term),
            &design,
            &theta,
            settings,
        ));
        let (after, top_after) = choices.loss(&fitted, 300.0);
        assert!(after < before - 0.5, "{before} -> {after}");
        assert!(top_after > top_before, "{top_before} -> {top_after}");
    }

    /// A real game's samples: one per position after the skipped ones, none where a five is on
    /// the board, and results from the mover's side.
    #[test]
    fn samples_of_a_game() {
        let moves: Vec<Point> = [
            (7, 7),
            (0, 0),
            (8, 7),
            (0, 2),
            (9, 7),
            (0, 4),
            (10, 7),
            (0, 6),
            (11, 7),
        ]
        .iter()
        .map(|&(x, y)| Point::new(x, y))
        .collect();
        let mut samples = Samples::new();
        samples.add_game(15, Rule::Freestyle, &moves, Some(Color::Black), 2);
        // Positions 2..=8; at 6 Black can make a straight four, at 7 and 8 a five.
        assert_eq!(samples.len(), 4);
        assert_eq!(samples.results, vec![1.0, 0.0, 1.0, 0.0]);
        // The model's evaluation is the engine's.
        let w = current_weights();
        let mut pos = Position::new(15, Rule::Freestyle);
        let mut c = Color::Black;
        for (k, &p) in moves.iter().enumerate().take(6) {
            if k >= 2 {
                assert_eq!(
                    samples.eval(k - 2, &w),
                    f64::from(pos.evaluate_linear(c)),
                    "{k}"
                );
            }
            pos.make(p, c);
            c = !c;
        }
    }

    /// The smoothed model's evaluation is the engine's smoothed one (up to the engine's rounding
    /// of the halved sums), and a smoothed sample needs a last move.
    #[test]
    fn smoothed_samples_are_the_smoothed_evaluation() {
        let w = current_weights();
        let mut rng = stonelab_rand::Xorshift64Star::new(11);
        let (mut checked, mut differ) = (0, 0);
        let mut empty = Samples::smoothed();
        assert_eq!(empty.add_position(15, Rule::Freestyle, &[], 0.5), Ok(false));
        while checked < 100 {
            let mut pos = Position::new(15, Rule::Freestyle);
            let mut moves = vec![Point::new(7, 7)];
            pos.make(moves[0], Color::Black);
            let mut c = Color::White;
            for _ in 0..(2 + rng.below(12)) {
                let near: Vec<Point> = pos.candidates().iter().collect();
                let p = near[rng.below(near.len())];
                pos.make(p, c);
                moves.push(p);
                c = !c;
            }
            let near: Vec<Point> = pos.candidates().iter().collect();
            let p = near[rng.below(near.len())];
            pos.make_quick(p, c);
            moves.push(p);
            let mut samples = Samples::smoothed();
            if samples.add_position(15, Rule::Freestyle, &moves, 1.0) != Ok(true) {
                continue;
            }
            pos.set_smooth(true);
            let engine = f64::from(pos.evaluate_linear(!c));
            let model = samples.eval(0, &w);
            assert!((engine - model).abs() <= 0.5, "{moves:?}: {engine} {model}");
            pos.set_smooth(false);
            checked += 1;
            differ += usize::from((f64::from(pos.evaluate_linear(!c)) - model).abs() > 1.0);
        }
        assert!(differ >= 50, "{differ}");
    }
}
