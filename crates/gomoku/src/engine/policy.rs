//! Fitting the tree's move order to a stronger engine's moves (softmax regression, as a policy
//! is distilled).
//!
//! Every move of the chosen player in a game record becomes a sample: the candidate cells of the
//! position (empty cells with a stone within two, [`Position::candidates`]), each described by
//! two class combinations ([`super::cells::combinations`]): the mover's own at the cell and the
//! opponent's at the same cell, and by its places relative to the opponent's last stone and the
//! mover's ([`near_bucket`]). The model gives candidate `p` the logit
//! `attack[own(p)] + defend[opponent(p)] + near_opponent[place] + near_own[place]` and the move
//! played the probability
//! `softmax(logits)[played]`; [`fit`] minimises the mean negative log-likelihood plus an L2 pull
//! towards the starting scores, by Adam over full batches. Positions with a five to make or to
//! block are left out (the search plays those before any ordering), and so are moves off the
//! candidates (rare: a move far from every stone).
//!
//! The scores are in logits here and in hundredths of a logit in the order file
//! ([`super::weights::ORDER_FILE`]).

use rayon::prelude::*;

use super::cells::{combination_index, COMBINATIONS};
use super::position::Position;
use super::weights::Order;
use crate::{Color, Direction, Point, Rule};

/// The number of cell scores: attack scores first, then defend scores.
pub const CELL_SCORES: usize = 2 * COMBINATIONS;

/// The number of places of a cell relative to one stone ([`near_bucket`]).
pub const NEAR: usize = 8;

/// The number of scores: the cell scores, then the scores of a cell's place relative to the
/// opponent's last stone, then relative to the mover's own last stone.
pub const SCORES: usize = CELL_SCORES + 2 * NEAR;

/// The place of `p` relative to the stone `q`: 0 when there is none; 1 to 4 on a line through
/// `q` at that distance; 5 a knight's move away; 6 off the lines within four; 7 farther.
#[must_use]
pub fn near_bucket(p: Point, q: Option<Point>) -> usize {
    let Some(q) = q else { return 0 };
    let dx = (i32::from(p.x) - i32::from(q.x)).abs();
    let dy = (i32::from(p.y) - i32::from(q.y)).abs();
    let d = dx.max(dy);
    if d > 4 {
        7
    } else if dx == 0 || dy == 0 || dx == dy {
        d as usize
    } else if d == 2 {
        5
    } else {
        6
    }
}

/// The place scores of a node's moves: by where each lies relative to the last two stones.
#[derive(Clone, Copy, Debug)]
pub struct Places {
    near: &'static [i32; super::weights::NEAR_SCORES],
    theirs: Option<Point>,
    mine: Option<Point>,
}

impl Places {
    /// The places of the moves of `s`, the side to move in `pos`.
    #[must_use]
    pub fn of(pos: &Position, s: Color) -> Places {
        let (theirs, mine) = last_stones(pos);
        Places {
            near: super::weights::near_of(super::weights::Source::of(pos.rule(), s)),
            theirs,
            mine,
        }
    }

    /// The place score of a move at `p`, in hundredths of a logit.
    #[inline]
    #[must_use]
    pub fn score(&self, p: Point) -> i32 {
        self.near[near_bucket(p, self.theirs)] + self.near[NEAR + near_bucket(p, self.mine)]
    }
}

/// The opponent's last stone and the mover's last stone in `pos`, for [`near_bucket`].
#[must_use]
pub fn last_stones(pos: &Position) -> (Option<Point>, Option<Point>) {
    let m = pos.moves();
    let back = |k: usize| m.len().checked_sub(k).map(|i| m[i].0);
    (back(1), back(2))
}

/// Samples in a flat store: sample `i`'s candidates are `cands[starts[i]..starts[i + 1]]`, each
/// its own and the opponent's combination number; `played[i]` is the place of the move played
/// among them.
#[derive(Clone, Debug, Default)]
pub struct MoveSamples {
    starts: Vec<u32>,
    cands: Vec<(u16, u16)>,
    /// Per candidate: its place relative to the opponent's last stone times [`NEAR`] plus its
    /// place relative to the mover's.
    near: Vec<u8>,
    played: Vec<u32>,
}

/// Fitting settings.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// L2 pull towards the starting scores, per score, in loss units per squared logit.
    pub l2: f64,
    pub epochs: usize,
    /// Adam's step size, in logits.
    pub step: f64,
}

impl MoveSamples {
    /// No samples.
    #[must_use]
    pub fn new() -> MoveSamples {
        MoveSamples {
            starts: vec![0],
            ..MoveSamples::default()
        }
    }

    /// The number of samples.
    #[must_use]
    pub fn len(&self) -> usize {
        self.played.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.played.is_empty()
    }

    /// Adds the samples of one game: `moves` from Black's first; the moves of `player` from move
    /// `skip` on (the first `skip` are the opening). Returns how many were added, or `Err(k)`
    /// when move `k` is off the board or on a stone.
    pub fn add_game(
        &mut self,
        size: usize,
        rule: Rule,
        moves: &[Point],
        player: Color,
        skip: usize,
    ) -> Result<usize, usize> {
        let mut pos = Position::new(size, rule);
        let mut c = Color::Black;
        let mut added = 0;
        for (k, &p) in moves.iter().enumerate() {
            if usize::from(p.x) >= size || usize::from(p.y) >= size || pos.stone(p).is_some() {
                return Err(k);
            }
            if k >= skip && c == player && self.push(&pos, c, p) {
                added += 1;
            }
            pos.make(p, c);
            c = !c;
        }
        Ok(added)
    }

    /// One sample: `played`, chosen by `s` in `pos`, unless a five is on the board for either
    /// side or `played` is not a candidate.
    fn push(&mut self, pos: &Position, s: Color, played: Point) -> bool {
        if !pos.class_sets(s).five.is_empty() || !pos.class_sets(!s).five.is_empty() {
            return false;
        }
        let fouls = pos.has_fouls(s);
        let start = self.cands.len();
        let (theirs, mine) = last_stones(pos);
        let mut at = None;
        for p in pos.candidates().iter() {
            if fouls && pos.is_foul(p, s) {
                continue;
            }
            if p == played {
                at = Some(self.cands.len() - start);
            }
            self.cands
                .push((combination(pos, p, s), combination(pos, p, !s)));
            self.near
                .push((near_bucket(p, theirs) * NEAR + near_bucket(p, mine)) as u8);
        }
        match at {
            Some(k) => {
                self.played.push(k as u32);
                self.starts.push(self.cands.len() as u32);
                true
            }
            None => {
                self.cands.truncate(start);
                self.near.truncate(start);
                false
            }
        }
    }

    /// Sample `i`'s candidates: for each, the indices of its scores.
    fn candidates(&self, i: usize) -> impl Iterator<Item = [usize; 4]> + '_ {
        let range = self.starts[i] as usize..self.starts[i + 1] as usize;
        self.cands[range.clone()]
            .iter()
            .zip(&self.near[range])
            .map(|(&(a, d), &n)| {
                let n = usize::from(n);
                [
                    usize::from(a),
                    COMBINATIONS + usize::from(d),
                    CELL_SCORES + n / NEAR,
                    CELL_SCORES + NEAR + n % NEAR,
                ]
            })
    }

    /// The logits of sample `i`'s candidates under `scores`.
    fn logits(&self, i: usize, scores: &[f64]) -> Vec<f64> {
        self.candidates(i)
            .map(|ks| ks.iter().map(|&k| scores[k]).sum())
            .collect()
    }

    /// The mean negative log-likelihood of the moves played.
    #[must_use]
    pub fn loss(&self, scores: &[f64]) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let total: f64 = (0..self.len())
            .into_par_iter()
            .map(|i| {
                let l = self.logits(i, scores);
                log_sum_exp(&l) - l[self.played[i] as usize]
            })
            .sum();
        total / self.len() as f64
    }

    /// The share of samples whose move played is among the `k` best-scored candidates (ties
    /// counted against it).
    #[must_use]
    pub fn top(&self, scores: &[f64], k: usize) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let hits = (0..self.len())
            .into_par_iter()
            .filter(|&i| {
                let l = self.logits(i, scores);
                let me = l[self.played[i] as usize];
                l.iter().filter(|&&v| v >= me).count() <= k
            })
            .count();
        hits as f64 / self.len() as f64
    }

    /// The gradient of the mean loss over the scores.
    fn gradient(&self, scores: &[f64]) -> Vec<f64> {
        let n = self.len() as f64;
        (0..self.len())
            .into_par_iter()
            .fold(
                || vec![0.0; SCORES],
                |mut g, i| {
                    let l = self.logits(i, scores);
                    let z = log_sum_exp(&l);
                    for (k, ks) in self.candidates(i).enumerate() {
                        let p =
                            (l[k] - z).exp() - f64::from(u8::from(k == self.played[i] as usize));
                        for j in ks {
                            g[j] += p / n;
                        }
                    }
                    g
                },
            )
            .reduce(
                || vec![0.0; SCORES],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                    a
                },
            )
    }
}

/// The combination number of the cell `p` for colour `c`.
fn combination(pos: &Position, p: Point, c: Color) -> u16 {
    combination_index(Direction::ALL.map(|d| pos.class(p, d, c))) as u16
}

fn log_sum_exp(l: &[f64]) -> f64 {
    let max = l.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    max + l.iter().map(|v| (v - max).exp()).sum::<f64>().ln()
}

/// The compiled-in order scores of freestyle and exactly five in logits: attack scores, then
/// defend scores.
#[must_use]
pub fn current_scores() -> Vec<f64> {
    current_scores_for(Rule::Freestyle)
}

/// The compiled-in order scores of `rule` in logits ([`current_scores`]; renju has its own).
#[must_use]
pub fn current_scores_for(rule: Rule) -> Vec<f64> {
    let source = super::weights::Source::of(rule, Color::Black);
    let pairs: Vec<(i32, i32)> = (0..COMBINATIONS)
        .map(|i| {
            let (a, d) = super::weights::order_of(source, i);
            (i32::from(a), i32::from(d))
        })
        .collect();
    scores_of(&Order {
        pairs,
        near: *super::weights::near_of(source),
    })
}

/// An order file ([`super::weights::parse_order`], hundredths of a logit) as scores in logits:
/// attack scores, defend scores, then the place scores.
#[must_use]
pub fn scores_of(order: &Order) -> Vec<f64> {
    let mut s = vec![0.0; SCORES];
    for (i, &(a, d)) in order.pairs.iter().enumerate().take(COMBINATIONS) {
        s[i] = f64::from(a) / 100.0;
        s[COMBINATIONS + i] = f64::from(d) / 100.0;
    }
    for (k, &v) in order.near.iter().enumerate() {
        s[CELL_SCORES + k] = f64::from(v) / 100.0;
    }
    s
}

/// Scores in logits as an order file's integers (hundredths of a logit), rounded and clamped to
/// what the file holds.
#[must_use]
pub fn order_of_scores(scores: &[f64]) -> Order {
    let int = |w: f64| (w * 100.0).round().clamp(-32767.0, 32767.0) as i32;
    Order {
        pairs: (0..COMBINATIONS)
            .map(|i| (int(scores[i]), int(scores[COMBINATIONS + i])))
            .collect(),
        near: std::array::from_fn(|k| int(scores[CELL_SCORES + k])),
    }
}

/// Minimises the loss over the scores from `start`, the `frozen` ones kept.
#[must_use]
pub fn fit(samples: &MoveSamples, start: &[f64], frozen: &[bool], settings: Fit) -> Vec<f64> {
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; SCORES], vec![0.0; SCORES]);
    let (b1, b2) = (0.9f64, 0.999f64);
    for epoch in 0..settings.epochs {
        let g = samples.gradient(&w);
        let t = epoch as i32 + 1;
        for i in 0..SCORES {
            if frozen[i] {
                continue;
            }
            let gi = g[i] + 2.0 * settings.l2 * (w[i] - start[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(t));
            let vh = v[i] / (1.0 - b2.powi(t));
            w[i] -= settings.step * mh / (vh.sqrt() + 1e-8);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(v: &[(u8, u8)]) -> Vec<Point> {
        v.iter().map(|&(x, y)| Point::new(x, y)).collect()
    }

    /// The compiled-in files parse into scores that the tree reads back, each rule its own
    /// (renju's differ from the others').
    #[test]
    fn current_scores_round_trip_through_the_position() {
        assert_eq!(current_scores(), current_scores_for(Rule::Standard));
        assert_ne!(current_scores(), current_scores_for(Rule::Renju));
        for rule in [Rule::Freestyle, Rule::Renju] {
            let s = current_scores_for(rule);
            let mut pos = Position::new(15, rule);
            pos.make(Point::new(7, 7), Color::Black);
            pos.make(Point::new(8, 8), Color::White);
            let p = Point::new(6, 6);
            let own = usize::from(combination(&pos, p, Color::Black));
            let opp = usize::from(combination(&pos, p, Color::White));
            let want = s[own] + s[COMBINATIONS + opp];
            assert!((f64::from(pos.order(p, Color::Black)) / 100.0 - want).abs() < 1e-9);
            // Black to move: (6, 6) is two cells from White's last stone on a column, a
            // knight's move from Black's own.
            pos.make(Point::new(7, 8), Color::Black);
            pos.make(Point::new(6, 8), Color::White);
            let places = Places::of(&pos, Color::Black);
            let want = s[CELL_SCORES + 2] + s[CELL_SCORES + NEAR + 5];
            assert!((f64::from(places.score(p)) / 100.0 - want).abs() < 1e-9);
        }
    }

    /// Every place relative to a stone, against the definition written out.
    #[test]
    fn places_relative_to_a_stone() {
        let q = Point::new(7, 7);
        assert_eq!(near_bucket(q, None), 0);
        for x in 0..15u8 {
            for y in 0..15u8 {
                let p = Point::new(x, y);
                if p == q {
                    continue;
                }
                let (dx, dy) = (i32::from(x) - 7, i32::from(y) - 7);
                let d = dx.abs().max(dy.abs());
                let line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
                let want = match (line, d) {
                    (_, 5..) => 7,
                    (true, _) => d as usize,
                    (false, 2) => 5,
                    (false, _) => 6,
                };
                assert_eq!(near_bucket(p, Some(q)), want, "{p:?}");
            }
        }
    }

    /// The gradient of the loss, place scores included, against central differences.
    #[test]
    fn the_gradient_is_the_loss_slope() {
        let mut samples = MoveSamples::new();
        let game = pts(&[
            (7, 7),
            (8, 8),
            (6, 7),
            (8, 6),
            (8, 7),
            (5, 7),
            (9, 9),
            (9, 7),
        ]);
        for player in Color::ALL {
            samples
                .add_game(15, Rule::Freestyle, &game, player, 1)
                .expect("legal");
        }
        assert!(samples.len() >= 6);
        let scores: Vec<f64> = (0..SCORES)
            .map(|k| ((k * 7919) % 101) as f64 / 50.0 - 1.0)
            .collect();
        let g = samples.gradient(&scores);
        let used: Vec<usize> = (0..SCORES).filter(|&k| g[k] != 0.0).collect();
        assert!(used.iter().filter(|&&k| k >= CELL_SCORES).count() >= 6);
        for k in used {
            let h = 1e-5;
            let (mut up, mut down) = (scores.clone(), scores.clone());
            up[k] += h;
            down[k] -= h;
            let slope = (samples.loss(&up) - samples.loss(&down)) / (2.0 * h);
            assert!(
                (slope - g[k]).abs() < 1e-6,
                "score {k}: {slope} against {}",
                g[k]
            );
        }
    }

    /// Games in which the player always extends its own line: the fit raises the scores of the
    /// combinations played, lowers the loss and puts the moves played first more often.
    #[test]
    fn the_fit_learns_the_moves_played() {
        let mut samples = MoveSamples::new();
        for shift in 0..6u8 {
            // Black builds a row at y = 3 + shift; White answers far away on the left column.
            let mut moves = Vec::new();
            for k in 0..4u8 {
                moves.push((3 + k, 3 + shift));
                moves.push((0, 2 * k + shift.min(1)));
            }
            let added = samples
                .add_game(15, Rule::Freestyle, &pts(&moves), Color::Black, 1)
                .expect("legal");
            assert_eq!(added, 3);
        }
        let start = vec![0.0; SCORES];
        let frozen = vec![false; SCORES];
        let before = samples.loss(&start);
        let fitted = fit(
            &samples,
            &start,
            &frozen,
            Fit {
                l2: 0.0,
                epochs: 200,
                step: 0.05,
            },
        );
        assert!(samples.loss(&fitted) < before - 0.5, "{before}");
        // The model cannot tell directions apart: the move played ties with the same shape on
        // the other seven rays from the stones, and no more.
        assert_eq!(samples.top(&start, 8), 0.0);
        assert!(samples.top(&fitted, 8) > 0.9);
        // Frozen scores stay put.
        let frozen = vec![true; SCORES];
        let same = fit(
            &samples,
            &start,
            &frozen,
            Fit {
                l2: 0.0,
                epochs: 5,
                step: 0.05,
            },
        );
        assert_eq!(same, start);
    }

    /// Decided positions and moves off the candidates are not samples; bad moves are refused.
    #[test]
    fn what_is_left_out() {
        let mut samples = MoveSamples::new();
        // Black's four at (3..7, 7): White's block there faces a five for Black to make, so
        // it is no sample; White's three moves before it are.
        let moves = pts(&[
            (3, 7),
            (3, 8),
            (4, 7),
            (4, 8),
            (5, 7),
            (5, 8),
            (6, 7),
            (7, 7),
        ]);
        assert_eq!(
            samples.add_game(15, Rule::Freestyle, &moves, Color::White, 1),
            Ok(3)
        );
        // A move far from every stone is off the candidates.
        let far = pts(&[(3, 3), (12, 12)]);
        assert_eq!(
            samples.add_game(15, Rule::Freestyle, &far, Color::White, 0),
            Ok(0)
        );
        let bad = pts(&[(3, 3), (3, 3)]);
        assert_eq!(
            samples.add_game(15, Rule::Freestyle, &bad, Color::White, 0),
            Err(1)
        );
        assert_eq!(samples.len(), 3);
    }
}
