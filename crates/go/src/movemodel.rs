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
//! - `line`: distance to the nearest edge (first line 0 ... fifth line and beyond 4);
//! - `diamond`: the 12 points within Manhattan distance 2 (the 3x3 window and the four points
//!   two away on the lines), seen from the side to move and reduced under the 8 symmetries. There
//!   are millions of them, so a model holds gammas only for those its training data saw often
//!   enough (`fit`'s `diamond_min`); any other weighs 1;
//! - `spatial`: the 24 points within Manhattan distance 3, likewise (`fit`'s `spatial_min`). A
//!   move whose spatial pattern the model knows takes its gamma instead of the diamond's (the
//!   largest pattern that matches, as in Pachi's spatial dictionary).
//!
//! The tree search turns the probabilities into prior knowledge ([`crate::mcts`]). The text
//! format ([`MoveModel::parse`], [`MoveModel::to_text`]) is one `group value gamma` line per
//! feature value (`pat3` and `diamond` values are the canonical keys in hex), `#` comments first:
//! where the model came from.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::bitboard::Point;
use crate::color::Color;
use crate::pattern3::NEIGHBOUR_ORDER;
use crate::playout::{MoveFeatures, PlayoutBoard, PlayoutWeights};

/// The text of the built-in model.
pub const BUILTIN: &str = include_str!("../data/model-9x9.txt");

/// The feature groups, in order.
pub const GROUPS: [&str; 9] = [
    "pat3",
    "capture",
    "save",
    "self_atari",
    "atari",
    "dist_last",
    "dist_last2",
    "line",
    "owner",
];

const PAT3: usize = 0;
const CAPTURE: usize = 1;
const SAVE: usize = 2;
const SELF_ATARI: usize = 3;
const ATARI: usize = 4;
const DIST_LAST: usize = 5;
const DIST_LAST2: usize = 6;
const OWNER: usize = 8;
/// Values of the `owner` group: the share of playouts in which the side to move owns the point
/// at the end, in this many equal steps.
pub const OWNER_BUCKETS: usize = 8;
/// Playouts of the ownership estimate ([`OwnerMap::estimate`]) that the tree search and
/// `fit-model` make for the `owner` feature.
pub const OWNER_PLAYOUTS: u32 = 128;
const LINE: usize = 7;

/// Distances `dx + dy + max(dx, dy)` from 2 up to this one have their own value; farther share it.
const FAR: usize = 17;

/// No value in a group.
pub const NONE: u16 = u16::MAX;

/// The features of one move: per group, the value's index within the group, or [`NONE`]; then
/// the canonical diamond key ([`canonical_diamond`]) and the canonical spatial key
/// ([`canonical_spatial`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Features(pub [u16; 9], pub u32, pub u64);

/// The `owner` feature's values at every point for each side to move, from a Monte-Carlo
/// ownership estimate of the position ([`crate::ownership`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnerMap {
    /// Per colour index and point index: the bucket (0 to [`OWNER_BUCKETS`] - 1).
    buckets: [Vec<u8>; 2],
}

impl OwnerMap {
    /// The buckets of an ownership estimate.
    #[must_use]
    pub fn from_ownership(o: &crate::ownership::Ownership) -> OwnerMap {
        let g = *o.geometry();
        let mut buckets = [
            vec![0u8; crate::bitboard::BITS],
            vec![0u8; crate::bitboard::BITS],
        ];
        for p in g.points() {
            for c in [Color::Black, Color::White] {
                let share = o.share(p, c);
                buckets[c.index()][p.index()] =
                    ((share * OWNER_BUCKETS as f64) as usize).min(OWNER_BUCKETS - 1) as u8;
            }
        }
        OwnerMap { buckets }
    }

    /// The buckets of [`crate::ownership::Ownership::estimate`] with `playouts` playouts from
    /// the stones of `board`.
    #[must_use]
    pub fn estimate(board: &crate::Board, playouts: u32) -> OwnerMap {
        OwnerMap::from_ownership(&crate::ownership::Ownership::estimate(board, playouts))
    }

    /// The bucket of point `p` for side `c`.
    #[must_use]
    pub fn bucket(&self, p: Point, c: Color) -> u8 {
        self.buckets[c.index()][p.index()]
    }
}

/// The diamond's points as (row, column) offsets: the 3x3 window's in [`NEIGHBOUR_ORDER`], then
/// the four two away. A diamond key has two bits a point in this order (the low 16 bits are the
/// 3x3 window key).
pub const DIAMOND: [(i32, i32); 12] = [
    NEIGHBOUR_ORDER[0],
    NEIGHBOUR_ORDER[1],
    NEIGHBOUR_ORDER[2],
    NEIGHBOUR_ORDER[3],
    NEIGHBOUR_ORDER[4],
    NEIGHBOUR_ORDER[5],
    NEIGHBOUR_ORDER[6],
    NEIGHBOUR_ORDER[7],
    (-2, 0),
    (0, -2),
    (0, 2),
    (2, 0),
];

/// The 8 symmetries as permutations of [`DIAMOND`] (entry `i` of `perm[t]` is the point that
/// point `i` moves to).
fn diamond_symmetries() -> &'static [[u8; 12]; 8] {
    static PERMS: OnceLock<[[u8; 12]; 8]> = OnceLock::new();
    PERMS.get_or_init(|| point_symmetries(&DIAMOND))
}

/// The 8 symmetries of the square as permutations of `points` (a set closed under them): entry
/// `i` of `perm[t]` is the index of the point that point `i` moves to.
fn point_symmetries<const N: usize>(points: &[(i32, i32); N]) -> [[u8; N]; 8] {
    let mut perm = [[0u8; N]; 8];
    for (t, row) in perm.iter_mut().enumerate() {
        for (i, &(r, c)) in points.iter().enumerate() {
            let image = crate::pattern3::orient(t as u8, r, c);
            row[i] = points.iter().position(|&x| x == image).expect("a point") as u8;
        }
    }
    perm
}

/// The smallest of the 8 images of a key of two bits a point under `perms`.
fn smallest_image<const N: usize>(key: u64, perms: &[[u8; N]; 8]) -> u64 {
    perms
        .iter()
        .map(|perm| {
            let mut out = 0u64;
            for (i, &j) in perm.iter().enumerate() {
                out |= ((key >> (2 * i)) & 3) << (2 * j);
            }
            out
        })
        .min()
        .expect("eight symmetries")
}

/// The diamond key of the empty point `p` with the colours as they stand (codes as in the 3x3
/// window: 0 empty, 1 black, 2 white, 3 off the board).
#[must_use]
pub fn diamond_key(board: &PlayoutBoard, p: Point) -> u32 {
    let mut key = u32::from(board.window_of(p));
    for (i, &(dr, dc)) in DIAMOND.iter().enumerate().skip(8) {
        key |= u32::from(board.code_at(p, dr, dc)) << (2 * i);
    }
    key
}

/// The smallest key among the 8 images of a diamond key.
#[must_use]
pub fn canonical_diamond(key: u32) -> u32 {
    smallest_image(u64::from(key), diamond_symmetries()) as u32
}

/// A diamond key with the colours swapped.
#[must_use]
pub fn swap_diamond_colours(key: u32) -> u32 {
    swap_key_colours(u64::from(key), 12) as u32
}

/// A key of `n` points (two bits each) with the colours swapped.
fn swap_key_colours(key: u64, n: usize) -> u64 {
    let mut out = key;
    for i in 0..n {
        let k = (key >> (2 * i)) & 3;
        if k == 1 || k == 2 {
            out ^= 3 << (2 * i);
        }
    }
    out
}

/// The spatial pattern's points as (row, column) offsets: the diamond's ([`DIAMOND`]), then the
/// twelve at Manhattan distance 3. A spatial key has two bits a point in this order (the low 24
/// bits are the diamond key).
pub const SPATIAL: [(i32, i32); 24] = [
    DIAMOND[0],
    DIAMOND[1],
    DIAMOND[2],
    DIAMOND[3],
    DIAMOND[4],
    DIAMOND[5],
    DIAMOND[6],
    DIAMOND[7],
    DIAMOND[8],
    DIAMOND[9],
    DIAMOND[10],
    DIAMOND[11],
    (-3, 0),
    (0, -3),
    (0, 3),
    (3, 0),
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];

/// The 8 symmetries as permutations of [`SPATIAL`] (entry `i` of `perm[t]` is the point that
/// point `i` moves to).
fn spatial_symmetries() -> &'static [[u8; 24]; 8] {
    static PERMS: OnceLock<[[u8; 24]; 8]> = OnceLock::new();
    PERMS.get_or_init(|| point_symmetries(&SPATIAL))
}

/// The spatial key of the empty point `p` with the colours as they stand (codes as in the 3x3
/// window), given its diamond key.
#[must_use]
pub fn spatial_key(board: &PlayoutBoard, p: Point, diamond: u32) -> u64 {
    let mut key = u64::from(diamond);
    for (i, &(dr, dc)) in SPATIAL.iter().enumerate().skip(12) {
        key |= u64::from(board.code_at(p, dr, dc)) << (2 * i);
    }
    key
}

/// The smallest key among the 8 images of a spatial key.
#[must_use]
pub fn canonical_spatial(key: u64) -> u64 {
    smallest_image(key, spatial_symmetries())
}

/// A spatial key with the colours swapped.
#[must_use]
pub fn swap_spatial_colours(key: u64) -> u64 {
    swap_key_colours(key, 24)
}

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
    // A window key is a diamond key whose four outer points are empty.
    swap_diamond_colours(u32::from(key)) as u16
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
pub fn group_sizes() -> [usize; 9] {
    [
        Pat3Classes::get().key.len(),
        2,
        2,
        1,
        2,
        FAR - 1,
        FAR - 1,
        5,
        OWNER_BUCKETS,
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
    features_from(board, p, &board.move_features(p), last, last2, None)
}

/// [`features`] with the move's tactical features `f` (`board.move_features(p)`) already read,
/// as the tree's priors have them, and the `owner` value from `owner` when given.
#[must_use]
pub fn features_from(
    board: &PlayoutBoard,
    p: Point,
    f: &MoveFeatures,
    last: Option<Point>,
    last2: Option<Point>,
    owner: Option<&OwnerMap>,
) -> Features {
    let mut v = [NONE; 9];
    if let Some(o) = owner {
        v[OWNER] = u16::from(o.bucket(p, board.to_move()));
    }
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
    let raw = diamond_key(board, p);
    let mut diamond = raw;
    let mut spatial = spatial_key(board, p, raw);
    if board.to_move() == Color::White {
        diamond = swap_diamond_colours(diamond);
        spatial = swap_spatial_colours(spatial);
    }
    Features(v, canonical_diamond(diamond), canonical_spatial(spatial))
}

/// Gammas per group and value (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveModel {
    /// `gammas[g][v]`: the strength factor of value `v` of group `g`.
    pub gammas: Vec<Vec<f64>>,
    /// The gammas of the diamonds the model knows, by canonical key (any other weighs 1).
    pub diamonds: HashMap<u32, f64>,
    /// The gammas of the spatial patterns the model knows, by canonical key; a known one stands
    /// in for the move's diamond.
    pub spatials: HashMap<u64, f64>,
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
            diamonds: HashMap::new(),
            spatials: HashMap::new(),
            provenance: Vec::new(),
        }
    }

    /// The model built into the program (`crates/go/data/model-9x9.txt`, fitted by `stonelab go
    /// fit-model` on games played here, labelled by a stronger engine's moves: its comments say
    /// how, `data/go/README.md` with which command).
    ///
    /// # Panics
    /// Never: a test parses the file.
    #[must_use]
    pub fn builtin() -> MoveModel {
        MoveModel::parse(BUILTIN).expect("the built-in model parses")
    }

    /// The playouts' weights of the replies around the last stone ([`PlayoutWeights`]): a
    /// window's 3x3 gamma, the gammas of the distances of an orthogonal and a diagonal neighbour
    /// to the last stone, and `remote` for a move elsewhere per empty point.
    #[must_use]
    pub fn playout_weights(&self, remote: f32) -> PlayoutWeights {
        let classes = Pat3Classes::get();
        let pat3 = &self.gammas[PAT3];
        PlayoutWeights::new(
            |key| pat3[usize::from(classes.class[usize::from(key)])] as f32,
            self.gammas[DIST_LAST][0] as f32,
            self.gammas[DIST_LAST][1] as f32,
            remote,
        )
    }

    /// Whether any `owner` gamma differs from 1 (the search then estimates the root's
    /// ownership for it).
    #[must_use]
    pub fn uses_owner(&self) -> bool {
        self.gammas[OWNER].iter().any(|&g| g != 1.0)
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
        if let Some(&d) = (!self.spatials.is_empty())
            .then(|| self.spatials.get(&f.2))
            .flatten()
        {
            s *= d;
        } else if !self.diamonds.is_empty() {
            if let Some(&d) = self.diamonds.get(&f.1) {
                s *= d;
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
            let positive = |gamma: &str| {
                gamma
                    .parse::<f64>()
                    .map_err(|_| bad("gamma is not a number"))
                    .and_then(|g| {
                        if g.is_finite() && g > 0.0 {
                            Ok(g)
                        } else {
                            Err(bad("gamma must be positive and finite"))
                        }
                    })
            };
            if group == "diamond" {
                let key = u32::from_str_radix(value.trim_start_matches("0x"), 16)
                    .ok()
                    .filter(|&k| k < 1 << 24)
                    .ok_or_else(|| bad("diamond value is not a 24-bit hex key"))?;
                if canonical_diamond(key) != key {
                    return Err(bad("diamond key is not canonical"));
                }
                model.diamonds.insert(key, positive(gamma)?);
                continue;
            }
            if group == "spatial" {
                let key = u64::from_str_radix(value.trim_start_matches("0x"), 16)
                    .ok()
                    .filter(|&k| k < 1 << 48)
                    .ok_or_else(|| bad("spatial value is not a 48-bit hex key"))?;
                if canonical_spatial(key) != key {
                    return Err(bad("spatial key is not canonical"));
                }
                model.spatials.insert(key, positive(gamma)?);
                continue;
            }
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
            model.gammas[g][v] = positive(gamma)?;
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
        let mut diamonds: Vec<(&u32, &f64)> = self.diamonds.iter().collect();
        diamonds.sort_unstable_by_key(|(k, _)| **k);
        for (key, gamma) in diamonds {
            let _ = writeln!(out, "diamond {key:06x} {gamma:.6}");
        }
        let mut spatials: Vec<(&u64, &f64)> = self.spatials.iter().collect();
        spatials.sort_unstable_by_key(|(k, _)| **k);
        for (key, gamma) in spatials {
            let _ = writeln!(out, "spatial {key:012x} {gamma:.6}");
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

/// A sparse pattern with a gamma of its own in [`fit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Sparse {
    Diamond(u32),
    Spatial(u64),
}

/// Fits gammas to the positions by minorization-maximization (Coulom 2007), one group at a time,
/// `rounds` times over all groups, with a prior of one virtual win and one virtual loss against a
/// gamma-1 opponent for every value (so values never seen stay near 1). Diamonds are a group of
/// their own when `diamond_min` > 0: those among at least `diamond_min` candidates of the
/// positions get a gamma. Spatial patterns likewise with `spatial_min`; a candidate whose
/// spatial pattern has a gamma is scored by it and not by its diamond (as
/// [`MoveModel::strength`] does). Returns the model and the mean log-likelihood of the played
/// moves after each round.
#[must_use]
pub fn fit(
    positions: &[TrainingPosition],
    rounds: usize,
    diamond_min: usize,
    spatial_min: usize,
) -> (MoveModel, Vec<f64>) {
    fit_reporting(positions, rounds, diamond_min, spatial_min, &mut |_, _| {})
}

/// [`fit`], calling `round_done(round, log_likelihood)` after each round (from 1) with the mean
/// log-likelihood of the played moves then: for a progress bar.
pub fn fit_reporting(
    positions: &[TrainingPosition],
    rounds: usize,
    diamond_min: usize,
    spatial_min: usize,
    round_done: &mut dyn FnMut(usize, f64),
) -> (MoveModel, Vec<f64>) {
    let mut model = MoveModel::uniform();
    let sizes = group_sizes();
    // The sparse patterns with a gamma, and each candidate's index among them (u32::MAX: none).
    let mut keys: Vec<Sparse> = Vec::new();
    let mut index: Vec<Vec<u32>> = Vec::new();
    if diamond_min > 0 || spatial_min > 0 {
        let mut diamonds: HashMap<u32, usize> = HashMap::new();
        let mut spatials: HashMap<u64, usize> = HashMap::new();
        for pos in positions {
            for f in &pos.candidates {
                if diamond_min > 0 {
                    *diamonds.entry(f.1).or_default() += 1;
                }
                if spatial_min > 0 {
                    *spatials.entry(f.2).or_default() += 1;
                }
            }
        }
        keys = diamonds
            .into_iter()
            .filter(|&(_, n)| n >= diamond_min)
            .map(|(k, _)| Sparse::Diamond(k))
            .chain(
                spatials
                    .into_iter()
                    .filter(|&(_, n)| n >= spatial_min)
                    .map(|(k, _)| Sparse::Spatial(k)),
            )
            .collect();
        keys.sort_unstable();
        let at: HashMap<Sparse, u32> = keys
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, i as u32))
            .collect();
        index = positions
            .iter()
            .map(|pos| {
                pos.candidates
                    .iter()
                    .map(|f| {
                        at.get(&Sparse::Spatial(f.2))
                            .or_else(|| at.get(&Sparse::Diamond(f.1)))
                            .copied()
                            .unwrap_or(u32::MAX)
                    })
                    .collect()
            })
            .collect();
    }
    let mut sparse = vec![1.0f64; keys.len()];
    // The strength of candidate `j` of position `i` with the current gammas.
    let strength = |model: &MoveModel, sparse: &[f64], i: usize, j: usize| {
        let s = model.strength(&positions[i].candidates[j]);
        match index.get(i).map(|v| v[j]) {
            Some(d) if d != u32::MAX => s * sparse[d as usize],
            _ => s,
        }
    };
    // Wins: how often each value is a feature of the played move.
    let mut wins: Vec<Vec<f64>> = sizes.iter().map(|&n| vec![0.0; n]).collect();
    let mut sparse_wins = vec![0.0f64; keys.len()];
    for (i, pos) in positions.iter().enumerate() {
        for (g, &v) in pos.candidates[pos.played].0.iter().enumerate() {
            if v != NONE {
                wins[g][usize::from(v)] += 1.0;
            }
        }
        if let Some(&d) = index.get(i).map(|v| &v[pos.played]) {
            if d != u32::MAX {
                sparse_wins[d as usize] += 1.0;
            }
        }
    }
    // One MM step: a value's new gamma from its wins and the sum over positions of (the
    // strength of its candidates without it) / (the position's total strength), with the prior.
    let step = |gammas: &mut [f64], wins: &[f64], den: &[f64]| {
        for (v, gamma) in gammas.iter_mut().enumerate() {
            *gamma = (wins[v] + 1.0) / (den[v] + 2.0 / (*gamma + 1.0));
        }
    };
    let install = |model: &mut MoveModel, sparse: &[f64]| {
        model.diamonds.clear();
        model.spatials.clear();
        for (&k, &gamma) in keys.iter().zip(sparse) {
            match k {
                Sparse::Diamond(d) => {
                    model.diamonds.insert(d, gamma);
                }
                Sparse::Spatial(x) => {
                    model.spatials.insert(x, gamma);
                }
            }
        }
    };
    let mut history = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        for g in 0..=GROUPS.len() {
            let is_sparse = g == GROUPS.len();
            if is_sparse && keys.is_empty() {
                continue;
            }
            let mut den = vec![0.0f64; if is_sparse { keys.len() } else { sizes[g] }];
            for (i, pos) in positions.iter().enumerate() {
                let total: f64 = (0..pos.candidates.len())
                    .map(|j| strength(&model, &sparse, i, j))
                    .sum();
                for (j, f) in pos.candidates.iter().enumerate() {
                    let (v, gamma) = if is_sparse {
                        match index[i][j] {
                            u32::MAX => continue,
                            d => (d as usize, sparse[d as usize]),
                        }
                    } else {
                        match f.0[g] {
                            NONE => continue,
                            v => (usize::from(v), model.gammas[g][usize::from(v)]),
                        }
                    };
                    den[v] += strength(&model, &sparse, i, j) / gamma / total;
                }
            }
            if is_sparse {
                step(&mut sparse, &sparse_wins, &den);
            } else {
                step(&mut model.gammas[g], &wins[g], &den);
            }
        }
        // (`model` itself has no sparse patterns while it is fitted: `strength` above adds
        // them.)
        let mut scored = model.clone();
        install(&mut scored, &sparse);
        let ll = log_likelihood(&scored, positions);
        history.push(ll);
        round_done(history.len(), ll);
    }
    install(&mut model, &sparse);
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
        let key = canonical_diamond(0x00_9a_41);
        model.diamonds.insert(key, 3.5);
        model.provenance = vec!["test model".to_owned()];
        let text = model.to_text();
        let back = MoveModel::parse(&text).unwrap();
        assert_eq!(back.provenance, model.provenance);
        assert_eq!(back.diamonds.len(), 1);
        assert!((back.diamonds[&key] - 3.5).abs() < 1e-6);
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
            "diamond zz 1.0",
            "diamond 1000000 1.0",
            "diamond 000040 1.0",
            "diamond 000000 0",
        ] {
            assert!(MoveModel::parse(bad).is_err(), "{bad}");
        }
    }

    /// `count` positions of `width` candidates each, made by `candidate(rng, position, index)`,
    /// with the played move drawn from `truth`'s probabilities.
    fn sample_positions(
        truth: &MoveModel,
        seed: u64,
        count: usize,
        width: usize,
        mut candidate: impl FnMut(&mut Rng, usize, usize) -> Features,
    ) -> Vec<TrainingPosition> {
        let mut rng = Rng::new(seed);
        (0..count)
            .map(|n| {
                let candidates: Vec<Features> =
                    (0..width).map(|j| candidate(&mut rng, n, j)).collect();
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
                TrainingPosition { candidates, played }
            })
            .collect()
    }

    #[test]
    fn fit_recovers_planted_gammas() {
        // Positions drawn from a known model (capture 8, self-atari 0.1, one window 4): the fit
        // finds gammas close to them and raises the likelihood round by round.
        let mut truth = MoveModel::uniform();
        truth.gammas[CAPTURE][0] = 8.0;
        truth.gammas[SELF_ATARI][0] = 0.1;
        truth.gammas[PAT3][3] = 4.0;
        let positions = sample_positions(&truth, 9, 4000, 20, |rng, _, _| {
            let mut v = [NONE; 9];
            v[PAT3] = [3, 7, 11][rng.below(3) as usize];
            if rng.below(5) == 0 {
                v[CAPTURE] = 0;
            }
            if rng.below(4) == 0 {
                v[SELF_ATARI] = 0;
            }
            Features(v, 0, 0)
        });
        let (model, history) = fit(&positions, 30, 0, 0);
        assert!(
            history.windows(2).all(|w| w[1] >= w[0] - 1e-9),
            "{history:?}"
        );
        let ratio = |g: usize, v: usize, w: usize| model.gammas[g][v] / model.gammas[g][w];
        assert!((ratio(PAT3, 3, 7) / 4.0 - 1.0).abs() < 0.15, "{model:?}");
        assert!((model.gammas[CAPTURE][0] / 8.0 - 1.0).abs() < 0.15);
        assert!((model.gammas[SELF_ATARI][0] / 0.1 - 1.0).abs() < 0.2);
    }

    #[test]
    fn fit_reports_every_round_with_its_likelihood() {
        // The reporting fit calls back once a round, in order, with the history's values, and
        // fits the same model as the plain one.
        let mut truth = MoveModel::uniform();
        truth.gammas[CAPTURE][0] = 5.0;
        let positions = sample_positions(&truth, 9, 300, 10, |rng, _, _| {
            let mut v = [NONE; 9];
            if rng.below(3) == 0 {
                v[CAPTURE] = 0;
            }
            Features(v, 0, 0)
        });
        let mut seen = Vec::new();
        let (model, history) =
            fit_reporting(&positions, 7, 0, 0, &mut |round, ll| seen.push((round, ll)));
        let expected: Vec<(usize, f64)> = history
            .iter()
            .copied()
            .enumerate()
            .map(|(i, ll)| (i + 1, ll))
            .collect();
        assert_eq!(seen, expected);
        assert_eq!(seen.len(), 7);
        let (plain, plain_history) = fit(&positions, 7, 0, 0);
        assert_eq!(plain_history, history);
        assert_eq!(plain.gammas, model.gammas);
    }

    #[test]
    fn diamond_keys_are_the_board_and_canonical_keys_the_orbits() {
        // Along random playouts on 9x9 and 7x11, every empty point's diamond key holds the colour
        // of each of its 12 points as the reference board reads it (3 off the board), and its
        // canonical key is the smallest of its 8 images, shared by all of them.
        // The image of a key under a permutation of its points (entry i: where point i goes).
        let image = |key: u64, perm: &[u8]| {
            let mut out = 0u64;
            for (i, &j) in perm.iter().enumerate() {
                out |= ((key >> (2 * i)) & 3) << (2 * j);
            }
            out
        };
        let mut rng = Rng::new(5);
        for (rows, cols) in [(9, 9), (7, 11)] {
            let g = crate::Geometry::new(rows, cols).unwrap();
            let mut board = crate::Board::new(g, crate::Rules::STANDARD);
            for _ in 0..60 {
                let pb = crate::mcts::playout_board(&board);
                // Every point of `points` around `p` holds the reference board's colour code.
                let check = |key: u64, p: Point, points: &[(i32, i32)]| {
                    for (i, &(dr, dc)) in points.iter().enumerate() {
                        let (r, c) = (p.row() as i32 + dr, p.col() as i32 + dc);
                        let want = if r < 0 || c < 0 || r >= rows as i32 || c >= cols as i32 {
                            3
                        } else {
                            match board.color_at(Point::new(r as usize, c as usize)) {
                                None => 0,
                                Some(Color::Black) => 1,
                                Some(Color::White) => 2,
                            }
                        };
                        assert_eq!((key >> (2 * i)) & 3, want, "{p:?} offset {dr},{dc}");
                    }
                };
                for p in g.points().filter(|&p| board.color_at(p).is_none()) {
                    let key = diamond_key(&pb, p);
                    check(u64::from(key), p, &DIAMOND);
                    let canon = canonical_diamond(key);
                    let images: Vec<u32> = diamond_symmetries()
                        .iter()
                        .map(|q| image(u64::from(key), q) as u32)
                        .collect();
                    assert_eq!(canon, *images.iter().min().unwrap());
                    for k in images {
                        assert_eq!(canonical_diamond(k), canon);
                    }
                    // The spatial key likewise, over its 24 points.
                    let wide = spatial_key(&pb, p, key);
                    check(wide, p, &SPATIAL);
                    let canon = canonical_spatial(wide);
                    let images: Vec<u64> = spatial_symmetries()
                        .iter()
                        .map(|q| image(wide, q))
                        .collect();
                    assert_eq!(canon, *images.iter().min().unwrap());
                    for k in images {
                        assert_eq!(canonical_spatial(k), canon);
                    }
                }
                let moves = board.legal_moves();
                let n = moves.iter().count();
                if n == 0 {
                    break;
                }
                let p = moves.iter().nth(rng.below(n as u32) as usize).unwrap();
                board.play(crate::Move::Play(p));
            }
        }
        // The 8 permutations are distinct bijections.
        let perms = diamond_symmetries();
        let distinct: std::collections::HashSet<_> = perms.iter().collect();
        assert_eq!(distinct.len(), 8);
        for p in perms {
            let mut seen = *p;
            seen.sort_unstable();
            assert_eq!(seen, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        }
    }

    #[test]
    fn diamonds_are_seen_from_the_side_to_move() {
        // The same shape with the colours swapped and the other side to move, or turned, is the
        // same diamond; a stone two points away makes another diamond with the same 3x3 window.
        let d = ".......\n...X...\n..XO...\n...X...\n.......\n.......\n.......\n";
        let swapped = d.replace('X', "x").replace('O', "X").replace('x', "O");
        let turned = ".......\n...X...\n...OX..\n...X...\n.......\n.......\n.......\n";
        let a = features(
            &playout_board(d, Color::Black),
            Point::new(2, 4),
            None,
            None,
        );
        let b = features(
            &playout_board(&swapped, Color::White),
            Point::new(2, 4),
            None,
            None,
        );
        let c = features(
            &playout_board(turned, Color::Black),
            Point::new(2, 2),
            None,
            None,
        );
        assert_eq!(a.1, b.1);
        assert_eq!(a.1, c.1);
        let further = ".......\n...X...\n..XO...\n...X...\n.......\n.......\n....O..\n";
        let e = features(
            &playout_board(further, Color::Black),
            Point::new(2, 4),
            None,
            None,
        );
        assert_eq!(e.1, a.1, "a stone three away is outside the diamond");
        let near = ".......\n...X...\n..XO..O\n...X...\n.......\n.......\n.......\n";
        let f = features(
            &playout_board(near, Color::Black),
            Point::new(2, 4),
            None,
            None,
        );
        assert_ne!(f.1, a.1);
        assert_eq!(f.0[PAT3], a.0[PAT3]);
    }

    #[test]
    fn fit_recovers_a_planted_diamond() {
        // Candidates carry one of three diamonds; the truth weighs one of them 5 times more and
        // capture 3 times. Diamonds seen fewer than `diamond_min` times get no gamma.
        let mut truth = MoveModel::uniform();
        truth.gammas[CAPTURE][0] = 3.0;
        truth.diamonds.insert(11, 5.0);
        let positions = sample_positions(&truth, 4, 3000, 15, |rng, n, j| {
            let mut v = [NONE; 9];
            if rng.below(4) == 0 {
                v[CAPTURE] = 0;
            }
            // Key 99 appears once in all the data.
            let key = if n == 0 && j == 0 {
                99
            } else {
                [11, 22, 33][rng.below(3) as usize]
            };
            Features(v, key, 0)
        });
        let (model, history) = fit(&positions, 20, 2, 0);
        assert!(
            history.windows(2).all(|w| w[1] >= w[0] - 1e-9),
            "{history:?}"
        );
        assert_eq!(model.diamonds.len(), 3, "{:?}", model.diamonds);
        let ratio = model.diamonds[&11] / model.diamonds[&22];
        assert!((ratio / 5.0 - 1.0).abs() < 0.15, "{ratio}");
        assert!((model.diamonds[&33] / model.diamonds[&22] - 1.0).abs() < 0.15);
        assert!((model.gammas[CAPTURE][0] / 3.0 - 1.0).abs() < 0.15);
        // The fitted model with its diamonds predicts better than without them.
        let mut plain = model.clone();
        plain.diamonds.clear();
        assert!(log_likelihood(&model, &positions) > log_likelihood(&plain, &positions) + 0.05);
    }

    #[test]
    fn fit_prefers_the_spatial_pattern_to_the_diamond() {
        // Two spatial patterns share one diamond; the truth weighs the first 6 times the second.
        // With spatial patterns the fit tells them apart (and the model's strength uses them
        // before the diamond); with diamonds alone it cannot.
        let [a, b, c] = [1u64 << 30 | 7, 2 << 30 | 7, 3 << 30 | 8].map(canonical_spatial);
        let mut truth = MoveModel::uniform();
        truth.spatials.insert(a, 6.0);
        truth.spatials.insert(b, 1.0);
        let positions = sample_positions(&truth, 9, 3000, 12, |rng, _, _| {
            let (wide, diamond) = [(a, 7), (b, 7), (c, 8)][rng.below(3) as usize];
            Features([NONE; 9], diamond, wide)
        });
        let (model, _) = fit(&positions, 20, 2, 2);
        assert_eq!(model.spatials.len(), 3, "{:?}", model.spatials);
        let ratio = model.spatials[&a] / model.spatials[&b];
        assert!((ratio / 6.0 - 1.0).abs() < 0.15, "{ratio}");
        let (diamonds_only, _) = fit(&positions, 20, 2, 0);
        assert!(diamonds_only.spatials.is_empty());
        assert!(
            log_likelihood(&model, &positions) > log_likelihood(&diamonds_only, &positions) + 0.05
        );
        // The text format keeps the spatial gammas.
        let back = MoveModel::parse(&model.to_text()).unwrap();
        for (k, g) in &model.spatials {
            assert!((back.spatials[k] / g - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn owner_buckets_follow_the_ownership_estimate() {
        // Black's living corner on 7x7 (the ownership module's example): its inside is Black's
        // in nearly every playout, the open right side is contested. The buckets are the shares
        // in eighths, for each side to move, and `features_from` reads the mover's.
        let setup: crate::Setup = "..X.XO.\n.OXXXO.\n..XOOO.\nXXXO...\n.XOO...\nXXO....\n.XO....\n"
            .parse()
            .unwrap();
        let board = crate::Board::from_setup(setup, crate::Rules::STANDARD).unwrap();
        let o = crate::ownership::Ownership::estimate(&board, 256);
        let map = OwnerMap::from_ownership(&o);
        let g = *board.geometry();
        for p in g.points() {
            for c in [Color::Black, Color::White] {
                let want = ((o.share(p, c) * 8.0) as usize).min(7) as u8;
                assert_eq!(map.bucket(p, c), want);
            }
        }
        let inside = Point::new(6, 0);
        assert_eq!(map.bucket(inside, Color::Black), 7);
        assert_eq!(map.bucket(inside, Color::White), 0);
        let pb = crate::mcts::playout_board(&board);
        let f = features_from(
            &pb,
            inside,
            &pb.move_features(inside),
            None,
            None,
            Some(&map),
        );
        assert_eq!(f.0[OWNER], u16::from(map.bucket(inside, pb.to_move())));
        assert_eq!(features(&pb, inside, None, None).0[OWNER], NONE);
        // A model with owner gammas says so, and keeps them through its text.
        let mut m = MoveModel::uniform();
        assert!(!m.uses_owner());
        m.gammas[OWNER][7] = 0.1;
        assert!(m.uses_owner());
        assert_eq!(
            MoveModel::parse(&m.to_text()).unwrap().gammas[OWNER][7],
            0.1
        );
    }
}
