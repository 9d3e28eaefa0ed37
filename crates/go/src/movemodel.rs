//! A learned move model: how likely a strong player is to play each legal move, as a product of
//! one strength factor ("gamma") per feature of the move (Coulom, "Computing Elo Ratings of Move
//! Patterns in the Game of Go", 2007: generalized Bradley-Terry, fitted by minorization-
//! maximization). The probability of a move is its strength over the sum of the strengths of all
//! candidate moves.
//!
//! Features ([`GROUPS`]), each with one value or none per move (none weighs 1):
//! - `pat3`: the 3x3 window around the move, colours seen from the side to move, reduced under
//!   the 8 symmetries of the square (the smallest key of the 8);
//! - `capture`: captures one stone, or more;
//! - `save`: saves an own chain in atari, or extends one into a ladder that catches it;
//! - `self_atari`: leaves a chain of two stones or more in atari, capturing nothing;
//! - `atari`: puts an opponent chain in atari, or catches one in a ladder;
//! - `dist_last`, `dist_last2`: Coulom's distance `dx + dy + max(dx, dy)` to the last and the
//!   second-last stone played (2 to 16, and 17 for farther);
//! - `line`: distance to the nearest edge (first line 0 ... fifth line and beyond 4).
//!
//! The tree search turns the probabilities into prior knowledge ([`crate::mcts`]). The text
//! format ([`MoveModel::parse`], [`MoveModel::to_text`]) is one `group value gamma` line per
//! feature value (`pat3` values are the canonical window keys in hex), `#` comments first: where
//! the model came from.

use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::bitboard::Point;
use crate::color::Color;
use crate::pattern3::NEIGHBOUR_ORDER;
use crate::playout::{MoveFeatures, PlayoutBoard};

/// The text of the built-in model.
pub const BUILTIN: &str = include_str!("../data/model-9x9.txt");

/// The feature groups, in order.
pub const GROUPS: [&str; 8] = [
    "pat3",
    "capture",
    "save",
    "self_atari",
    "atari",
    "dist_last",
    "dist_last2",
    "line",
];

const PAT3: usize = 0;
const CAPTURE: usize = 1;
const SAVE: usize = 2;
const SELF_ATARI: usize = 3;
const ATARI: usize = 4;
const DIST_LAST: usize = 5;
const DIST_LAST2: usize = 6;
const LINE: usize = 7;

/// Distances `dx + dy + max(dx, dy)` from 2 up to this one have their own value; farther share it.
const FAR: usize = 17;

/// No value in a group.
pub const NONE: u16 = u16::MAX;

/// The features of one move: per group, the value's index within the group, or [`NONE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Features(pub [u16; 8]);

/// The 3x3 windows up to symmetry: the class of every key and the smallest key of each class.
struct Pat3Classes {
    class: Vec<u16>,
    key: Vec<u16>,
}

/// The 8 symmetries of the square as permutations of [`NEIGHBOUR_ORDER`]: entry `i` of `perm[t]`
/// is the neighbour that neighbour `i` moves to.
fn symmetries() -> [[usize; 8]; 8] {
    let mut perm = [[0usize; 8]; 8];
    for (t, row) in perm.iter_mut().enumerate() {
        for (i, &(r, c)) in NEIGHBOUR_ORDER.iter().enumerate() {
            let image = crate::pattern3::orient(t as u8, r, c);
            row[i] = NEIGHBOUR_ORDER
                .iter()
                .position(|&x| x == image)
                .expect("a neighbour");
        }
    }
    perm
}

/// The key of `key` moved by the permutation `perm`.
fn permute(key: u16, perm: &[usize; 8]) -> u16 {
    let mut out = 0u16;
    for (i, &j) in perm.iter().enumerate() {
        out |= ((key >> (2 * i)) & 3) << (2 * j);
    }
    out
}

/// The window `key` (codes 0 empty, 1 black, 2 white, 3 off) with the colours swapped.
#[must_use]
pub fn swap_colours(key: u16) -> u16 {
    let mut out = key;
    for i in 0..8 {
        let k = (key >> (2 * i)) & 3;
        if k == 1 || k == 2 {
            out ^= 3 << (2 * i);
        }
    }
    out
}

impl Pat3Classes {
    fn get() -> &'static Pat3Classes {
        static CLASSES: OnceLock<Pat3Classes> = OnceLock::new();
        CLASSES.get_or_init(|| {
            let perms = symmetries();
            let mut class = vec![NONE; 1 << 16];
            let mut keys = Vec::new();
            for key in 0..=u16::MAX {
                let canon = perms.iter().map(|p| permute(key, p)).min().unwrap();
                if canon == key {
                    keys.push(key);
                }
            }
            for key in 0..=u16::MAX {
                let canon = perms.iter().map(|p| permute(key, p)).min().unwrap();
                class[usize::from(key)] = keys.binary_search(&canon).unwrap() as u16;
            }
            Pat3Classes { class, key: keys }
        })
    }
}

/// The canonical key (smallest under the 8 symmetries) of a window seen from the side to move.
#[must_use]
pub fn canonical_pat3(key: u16) -> u16 {
    let c = Pat3Classes::get();
    c.key[usize::from(c.class[usize::from(key)])]
}

/// How many values each group has.
#[must_use]
pub fn group_sizes() -> [usize; 8] {
    [
        Pat3Classes::get().key.len(),
        2,
        2,
        1,
        2,
        FAR - 1,
        FAR - 1,
        5,
    ]
}

/// Coulom's distance between two points.
fn distance(a: Point, b: Point) -> usize {
    let dr = a.row().abs_diff(b.row());
    let dc = a.col().abs_diff(b.col());
    dr + dc + dr.max(dc)
}

/// The features of the side to move of `board` playing the empty point `p` (a legal move that
/// fills no own eye), with the last two stones played (`last` by the opponent, `last2` by the
/// side to move), when those moves were stones.
#[must_use]
pub fn features(
    board: &PlayoutBoard,
    p: Point,
    last: Option<Point>,
    last2: Option<Point>,
) -> Features {
    features_from(board, p, &board.move_features(p), last, last2)
}

/// [`features`] with the move's tactical features `f` (`board.move_features(p)`) already read,
/// as the tree's priors have them.
#[must_use]
pub fn features_from(
    board: &PlayoutBoard,
    p: Point,
    f: &MoveFeatures,
    last: Option<Point>,
    last2: Option<Point>,
) -> Features {
    let mut v = [NONE; 8];
    let mut key = board.window_of(p);
    if board.to_move() == Color::White {
        key = swap_colours(key);
    }
    v[PAT3] = Pat3Classes::get().class[usize::from(key)];
    if f.captures > 0 {
        v[CAPTURE] = u16::from(f.captures > 1);
    }
    if f.saves {
        v[SAVE] = 0;
    } else if f.ladder_escape {
        v[SAVE] = 1;
    }
    if f.self_atari {
        v[SELF_ATARI] = 0;
    }
    if f.ladder_captures > 0 {
        v[ATARI] = 1;
    } else if f.atari {
        v[ATARI] = 0;
    }
    // (The point of a captured stone is distance 0: it counts as the nearest value.)
    if let Some(l) = last {
        v[DIST_LAST] = (distance(p, l).clamp(2, FAR) - 2) as u16;
    }
    if let Some(l) = last2 {
        v[DIST_LAST2] = (distance(p, l).clamp(2, FAR) - 2) as u16;
    }
    v[LINE] = board.geometry().edge_distance(p).min(4) as u16;
    Features(v)
}

/// Gammas per group and value (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveModel {
    /// `gammas[g][v]`: the strength factor of value `v` of group `g`.
    pub gammas: Vec<Vec<f64>>,
    /// The `#` comment lines of the file (without the `#`), saying where the model came from.
    pub provenance: Vec<String>,
}

/// What is wrong with a model file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError(pub String);

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ModelError {}

impl MoveModel {
    /// Every gamma 1: every move equally likely.
    #[must_use]
    pub fn uniform() -> MoveModel {
        MoveModel {
            gammas: group_sizes().iter().map(|&n| vec![1.0; n]).collect(),
            provenance: Vec::new(),
        }
    }

    /// The model built into the program (`crates/go/data/model-9x9.txt`, fitted by `stonelab go
    /// fit-model` on the project's own self-play games: its comments say how).
    ///
    /// # Panics
    /// Never: a test parses the file.
    #[must_use]
    pub fn builtin() -> MoveModel {
        MoveModel::parse(BUILTIN).expect("the built-in model parses")
    }

    /// The strength of a move with features `f`: the product of its values' gammas.
    #[must_use]
    pub fn strength(&self, f: &Features) -> f64 {
        let mut s = 1.0;
        for (g, &v) in f.0.iter().enumerate() {
            if v != NONE {
                s *= self.gammas[g][usize::from(v)];
            }
        }
        s
    }

    /// Reads the text format (see the module docs). Values the file leaves out weigh 1.
    ///
    /// # Errors
    /// A line that is not `group value gamma` with a known group, a value in range and a
    /// positive finite gamma.
    pub fn parse(text: &str) -> Result<MoveModel, ModelError> {
        let mut model = MoveModel::uniform();
        let classes = Pat3Classes::get();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if let Some(comment) = line.strip_prefix('#') {
                model.provenance.push(comment.trim().to_owned());
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let bad = |why: &str| ModelError(format!("line {}: {why}: '{line}'", n + 1));
            let parts: Vec<&str> = line.split_whitespace().collect();
            let [group, value, gamma] = parts[..] else {
                return Err(bad("expected 'group value gamma'"));
            };
            let g = GROUPS
                .iter()
                .position(|&x| x == group)
                .ok_or_else(|| bad("unknown group"))?;
            let v = if g == PAT3 {
                let key = u16::from_str_radix(value.trim_start_matches("0x"), 16)
                    .map_err(|_| bad("pat3 value is not a 16-bit hex key"))?;
                let class = classes.class[usize::from(key)];
                if classes.key[usize::from(class)] != key {
                    return Err(bad("pat3 key is not canonical"));
                }
                usize::from(class)
            } else {
                value
                    .parse::<usize>()
                    .ok()
                    .filter(|&v| v < model.gammas[g].len())
                    .ok_or_else(|| bad("value out of range"))?
            };
            let gamma: f64 = gamma.parse().map_err(|_| bad("gamma is not a number"))?;
            if !(gamma.is_finite() && gamma > 0.0) {
                return Err(bad("gamma must be positive and finite"));
            }
            model.gammas[g][v] = gamma;
        }
        Ok(model)
    }

    /// The text format: the provenance as comments, then every value whose gamma is not 1.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for line in &self.provenance {
            let _ = writeln!(out, "# {line}");
        }
        let classes = Pat3Classes::get();
        for (g, values) in self.gammas.iter().enumerate() {
            for (v, &gamma) in values.iter().enumerate() {
                if gamma == 1.0 {
                    continue;
                }
                if g == PAT3 {
                    let _ = writeln!(out, "pat3 {:04x} {gamma:.6}", classes.key[v]);
                } else {
                    let _ = writeln!(out, "{} {v} {gamma:.6}", GROUPS[g]);
                }
            }
        }
        out
    }
}

/// One training position: the features of every candidate move and which one was played.
#[derive(Clone, Debug)]
pub struct TrainingPosition {
    pub candidates: Vec<Features>,
    pub played: usize,
}

/// Fits gammas to the positions by minorization-maximization (Coulom 2007), one group at a time,
/// `rounds` times over all groups, with a prior of one virtual win and one virtual loss against a
/// gamma-1 opponent for every value (so values never seen stay near 1). Returns the model and the
/// mean log-likelihood of the played moves after each round.
#[must_use]
pub fn fit(positions: &[TrainingPosition], rounds: usize) -> (MoveModel, Vec<f64>) {
    let mut model = MoveModel::uniform();
    let sizes = group_sizes();
    // Wins: how often each value is a feature of the played move.
    let mut wins: Vec<Vec<f64>> = sizes.iter().map(|&n| vec![0.0; n]).collect();
    for pos in positions {
        for (g, &v) in pos.candidates[pos.played].0.iter().enumerate() {
            if v != NONE {
                wins[g][usize::from(v)] += 1.0;
            }
        }
    }
    let mut history = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        for g in 0..GROUPS.len() {
            // Denominator: sum over positions of (sum over candidates with value v of the
            // strength without group g) / (total strength of the position).
            let mut den = vec![0.0f64; sizes[g]];
            for pos in positions {
                let total: f64 = pos.candidates.iter().map(|f| model.strength(f)).sum();
                for f in &pos.candidates {
                    let v = f.0[g];
                    if v != NONE {
                        let s = model.strength(f) / model.gammas[g][usize::from(v)];
                        den[usize::from(v)] += s / total;
                    }
                }
            }
            for v in 0..sizes[g] {
                let gamma = model.gammas[g][v];
                // Prior: one win and one loss against a gamma-1 opponent.
                let num = wins[g][v] + 1.0;
                let d = den[v] + 2.0 / (gamma + 1.0);
                model.gammas[g][v] = num / d;
            }
        }
        history.push(log_likelihood(&model, positions));
    }
    (model, history)
}

/// Mean log-likelihood of the played moves under `model`.
#[must_use]
pub fn log_likelihood(model: &MoveModel, positions: &[TrainingPosition]) -> f64 {
    if positions.is_empty() {
        return 0.0;
    }
    let mut sum = 0.0;
    for pos in positions {
        let total: f64 = pos.candidates.iter().map(|f| model.strength(f)).sum();
        sum += (model.strength(&pos.candidates[pos.played]) / total).ln();
    }
    sum / positions.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn pat3_classes_are_the_orbits_of_the_symmetries() {
        // Every key's class holds exactly the keys its 8 images reach, and the class key is the
        // smallest of them.
        let perms = symmetries();
        let classes = Pat3Classes::get();
        let mut rng = Rng::new(3);
        for _ in 0..20_000 {
            let key = rng.below(1 << 16) as u16;
            let images: Vec<u16> = perms.iter().map(|p| permute(key, p)).collect();
            let class = classes.class[usize::from(key)];
            for &k in &images {
                assert_eq!(classes.class[usize::from(k)], class);
            }
            assert_eq!(
                classes.key[usize::from(class)],
                *images.iter().min().unwrap()
            );
        }
        // The permutations are the 8 distinct symmetries, and each is a bijection.
        for p in &perms {
            let mut seen = *p;
            seen.sort_unstable();
            assert_eq!(seen, [0, 1, 2, 3, 4, 5, 6, 7]);
        }
        let distinct: std::collections::HashSet<_> = perms.iter().collect();
        assert_eq!(distinct.len(), 8);
        // Burnside: (4^8 + 2 * 4^2 + 4^4 + 2 * 4^5 + 2 * 4^4) / 8 classes... checked directly:
        // the number of orbits equals the average number of keys each symmetry fixes.
        let fixed: usize = perms
            .iter()
            .map(|p| (0..=u16::MAX).filter(|&k| permute(k, p) == k).count())
            .sum();
        assert_eq!(classes.key.len(), fixed / 8);
    }

    fn playout_board(diagram: &str, to_move: Color) -> PlayoutBoard {
        let mut setup: crate::Setup = diagram.parse().unwrap();
        setup.to_move = to_move;
        crate::mcts::playout_board(
            &crate::Board::from_setup(setup, crate::Rules::STANDARD).unwrap(),
        )
    }

    #[test]
    fn features_on_diagrams() {
        // White C3 (row 2, col 2) is in atari: D3 captures it, one stone, on the third line.
        let d = ".....\n..X..\n.XO..\n..X..\n.....\n";
        let b = playout_board(d, Color::Black);
        let f = features(&b, Point::new(2, 3), Some(Point::new(2, 2)), None);
        assert_eq!(f.0[CAPTURE], 0);
        assert_eq!(f.0[SAVE], NONE);
        assert_eq!(f.0[LINE], 1);
        // Coulom's distance from C3 to D3 is 1 + 0 + 1 = 2, the first value.
        assert_eq!(f.0[DIST_LAST], 0);
        assert_eq!(f.0[DIST_LAST2], NONE);
        // The point of a stone no longer on the board counts as the nearest distance.
        let f = features(&b, Point::new(0, 0), None, Some(Point::new(0, 0)));
        assert_eq!(f.0[DIST_LAST2], 0);
        assert_eq!(f.0[LINE], 0);
        // Far away: the last value.
        let big = playout_board(&".........\n".repeat(9), Color::Black);
        let f = features(&big, Point::new(0, 0), Some(Point::new(8, 8)), None);
        assert_eq!(f.0[DIST_LAST], (FAR - 2) as u16);
        // The window is seen from the side to move: the same shape with the colours swapped and
        // the other side to move is the same class, and so is every rotation of it.
        let swapped = playout_board(
            &d.replace('X', "x").replace('O', "X").replace('x', "O"),
            Color::White,
        );
        let g = features(&swapped, Point::new(2, 3), None, None);
        assert_eq!(
            g.0[PAT3],
            features(&b, Point::new(2, 3), None, None).0[PAT3]
        );
        let turned = ".....\n..X..\n..OX.\n..X..\n.....\n";
        let t = playout_board(turned, Color::Black);
        assert_eq!(
            features(&t, Point::new(2, 1), None, None).0[PAT3],
            g.0[PAT3]
        );
    }

    #[test]
    fn text_round_trip_and_errors() {
        let mut model = MoveModel::uniform();
        model.gammas[PAT3][5] = 2.5;
        model.gammas[CAPTURE][1] = 30.0;
        model.gammas[LINE][0] = 0.25;
        model.provenance = vec!["test model".to_owned()];
        let text = model.to_text();
        let back = MoveModel::parse(&text).unwrap();
        assert_eq!(back.provenance, model.provenance);
        for (a, b) in back
            .gammas
            .iter()
            .flatten()
            .zip(model.gammas.iter().flatten())
        {
            assert!((a - b).abs() < 1e-6);
        }
        for bad in [
            "pat3 zz 1.0",
            "pat3 0010 1.0",
            "capture 2 1.0",
            "nothing 0 1.0",
            "line 0 -1",
            "line 0",
            "line 0 inf",
        ] {
            assert!(MoveModel::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn fit_recovers_planted_gammas() {
        // Positions drawn from a known model (capture 8, self-atari 0.1, one window 4): the fit
        // finds gammas close to them and raises the likelihood round by round.
        let mut truth = MoveModel::uniform();
        truth.gammas[CAPTURE][0] = 8.0;
        truth.gammas[SELF_ATARI][0] = 0.1;
        truth.gammas[PAT3][3] = 4.0;
        let mut rng = Rng::new(9);
        let mut positions = Vec::new();
        for _ in 0..4000 {
            let candidates: Vec<Features> = (0..20)
                .map(|_| {
                    let mut v = [NONE; 8];
                    v[PAT3] = [3, 7, 11][rng.below(3) as usize];
                    if rng.below(5) == 0 {
                        v[CAPTURE] = 0;
                    }
                    if rng.below(4) == 0 {
                        v[SELF_ATARI] = 0;
                    }
                    Features(v)
                })
                .collect();
            let total: f64 = candidates.iter().map(|f| truth.strength(f)).sum();
            let mut x = f64::from(rng.below(1 << 30)) / f64::from(1u32 << 30) * total;
            let mut played = candidates.len() - 1;
            for (i, f) in candidates.iter().enumerate() {
                x -= truth.strength(f);
                if x < 0.0 {
                    played = i;
                    break;
                }
            }
            positions.push(TrainingPosition { candidates, played });
        }
        let (model, history) = fit(&positions, 30);
        assert!(
            history.windows(2).all(|w| w[1] >= w[0] - 1e-9),
            "{history:?}"
        );
        let ratio = |g: usize, v: usize, w: usize| model.gammas[g][v] / model.gammas[g][w];
        assert!((ratio(PAT3, 3, 7) / 4.0 - 1.0).abs() < 0.15, "{model:?}");
        assert!((model.gammas[CAPTURE][0] / 8.0 - 1.0).abs() < 0.15);
        assert!((model.gammas[SELF_ATARI][0] / 0.1 - 1.0).abs() < 0.2);
    }
}
