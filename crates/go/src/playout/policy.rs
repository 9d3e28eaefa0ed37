//! The playout move choice on [`PlayoutBoard`]: uniform random moves that spare own eyes, the
//! tactical replies to the last move (capture, save, no big self-atari), the MoGo 3x3 shapes
//! ([`crate::pattern3`]) and the move features that the tree search's priors read.

use super::board::{code, PlayoutBoard, EMPTY, OFF, SLOT_MASK};
use crate::bitboard::Point;
use crate::board::Move;
use crate::rng::Rng;

/// What [`PlayoutBoard::move_features`] reports about one candidate move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveFeatures {
    /// Opponent stones the move captures.
    pub captures: u32,
    /// The move gives an own chain in atari more liberties.
    pub saves: bool,
    /// The move makes a chain of two stones or more with one liberty and captures nothing.
    pub self_atari: bool,
    /// The 3x3 window around the move matches a MoGo shape.
    pub pattern: bool,
    /// The move saves an own chain in atari only by extending it into a ladder that catches it
    /// (then `saves` is false).
    pub ladder_escape: bool,
    /// Stones of the opponent's chains with two liberties that the move puts in atari and
    /// catches in a ladder ([`super::ladder`]).
    pub ladder_captures: u32,
    /// The move puts an opponent chain in atari (and is no self-atari).
    pub atari: bool,
}

/// Weights of the playouts' answers around the opponent's last stone, in place of MoGo's shapes
/// ([`PlayoutBoard::policy_move_weighted`]): per 3x3 window key seen with Black to move and with
/// White to move, a factor for the points orthogonal and diagonal to the last stone, and the
/// weight per empty point of a move elsewhere.
#[derive(Clone, Debug)]
pub struct PlayoutWeights {
    by_colour: [Vec<f32>; 2],
    orthogonal: f32,
    diagonal: f32,
    remote: f32,
}

impl PlayoutWeights {
    /// Weights from `window(key)`, the weight of a window key seen with Black to move (White's
    /// are the same windows with the colours swapped), the factors for an orthogonal and a
    /// diagonal neighbour of the last stone, and the weight `remote` of a move elsewhere per empty
    /// point.
    pub fn new(
        window: impl Fn(u16) -> f32,
        orthogonal: f32,
        diagonal: f32,
        remote: f32,
    ) -> PlayoutWeights {
        let black: Vec<f32> = (0..=u16::MAX).map(&window).collect();
        let white = (0..=u16::MAX)
            .map(|k| black[usize::from(crate::movemodel::swap_colours(k))])
            .collect();
        PlayoutWeights {
            by_colour: [black, white],
            orthogonal,
            diagonal,
            remote,
        }
    }
}

/// What [`PlayoutBoard::policy_move_with`] adds to the plain policy.
#[derive(Clone, Copy, Debug, Default)]
pub struct PolicyOptions<'a> {
    /// A move tried after the tactical replies (the last good reply).
    pub suggested: Option<Point>,
    /// Weights of the shapes around the last stone instead of MoGo's.
    pub weights: Option<&'a PlayoutWeights>,
    /// Fights of two liberties around the last stone ([`PlayoutBoard::two_liberty_reply`]).
    pub two_liberties: bool,
    /// The side to move's own stone before the opponent's last: the uniform shapes are drawn
    /// around it too (Pachi's second-last-move patterns), when it is still on the board.
    pub second_last: Option<Point>,
    /// The vital point of a small eye space that the opponent's last stone borders
    /// ([`PlayoutBoard::nakade_reply`]), tried before the shapes.
    pub nakade: bool,
    /// A ko point to retake or fill before anything else, when the side to move may play it
    /// (legal, no own eye, no big self-atari): the ko fights of [`crate::mcts`].
    pub ko_retake: Option<Point>,
    /// In this percentage of the moves (0 to 100) the policy goes from the capture and save
    /// replies straight to the random choice, as [`PlayoutBoard::tactical_move`] does, skipping
    /// the ko, the two-liberty fights, the suggested move, the nakade and the shapes: playouts
    /// that answer every stone locally keep fighting where the last stones fell, and judge the
    /// rest of the board worse (see [`crate::mcts::SearchConfig::local_rate`]).
    pub skip_local: u32,
    /// In this percentage of the moves (0 to 100) that reach the random choice, the side to move
    /// first captures an opponent chain in atari anywhere on the board, when there is one that it
    /// may take (not at the ko): [`PlayoutBoard::global_capture`], Fuego's and Pachi's capture
    /// rule. The replies above only see chains next to the last stone.
    pub global_capture: u32,
    /// The random choice may play a big self-atari that kills from inside
    /// ([`PlayoutBoard::killing_sacrifice`]), which it otherwise never plays.
    pub sacrifices: bool,
}

impl PlayoutBoard {
    /// A move for the side to move with two tactical replies to the opponent's last stone `last`
    /// before the random choice: capture the chain of `last` when it is in atari; else, for an own
    /// chain next to `last` left in atari, capture an opponent chain in atari touching it, or
    /// extend at its liberty when that gains liberties (the liberty has two empty neighbours, or
    /// joins another own chain not in atari) and is not an own eye. Otherwise (or when `last` is
    /// `None`, a pass, or not an opponent stone) a random move as [`PlayoutBoard::random_move`]
    /// draws it, but never a self-atari of two stones or more that captures nothing (so a group
    /// does not fill the last eye it needs, which the rule-2/4 test may not see, e.g. a corner
    /// point whose diagonal is another eye); the side passes when only such moves are left.
    /// Playouts with these rules capture lost invaders and keep living groups alive, which uniform
    /// ones leave to chance: they judge life and death at the end of a game better (see
    /// [`crate::ownership`]).
    pub fn tactical_move(&mut self, rng: &mut Rng, last: Option<Point>) -> Move {
        self.tactical_choice(rng, last, false)
    }

    /// [`PlayoutBoard::tactical_move`], whose random choice may also play a killing sacrifice
    /// when `sacrifices` ([`PolicyOptions::sacrifices`]).
    fn tactical_choice(&mut self, rng: &mut Rng, last: Option<Point>, sacrifices: bool) -> Move {
        if let Some(p) = last.filter(|&p| self.geometry.mask().contains(p)) {
            if let Some(s) = self.reply(self.slot(p)) {
                return Move::Play(self.point(s));
            }
        }
        self.random_choice(rng, sacrifices)
    }

    /// The random choice of the policies: an acceptable point drawn uniformly among those that
    /// are no big self-atari (but a killing sacrifice, with `sacrifices`), or a pass.
    #[inline]
    fn random_choice(&mut self, rng: &mut Rng, sacrifices: bool) -> Move {
        match self.pick_where(rng, |b, s, c| !b.avoided_self_atari(s, c, sacrifices)) {
            0 => Move::Pass,
            s => Move::Play(self.point(s)),
        }
    }

    /// The playout policy of the tree search: [`PlayoutBoard::tactical_move`]'s replies to the last
    /// move first; then, among the empty points around the last stone, one drawn uniformly from
    /// those that match a MoGo 3x3 shape ([`crate::pattern3`]), are legal, are not an own eye and
    /// are no big self-atari; then [`PlayoutBoard::tactical_move`]'s random choice.
    pub fn policy_move(&mut self, rng: &mut Rng, last: Option<Point>) -> Move {
        self.policy_move_with(rng, last, &PolicyOptions::default())
    }

    /// [`PlayoutBoard::policy_move`] with a suggested move tried after the tactical replies to
    /// the last stone and before the shapes around it (the last good reply, [`crate::mcts`]):
    /// played when it is an empty point the side to move may play (legal, not the ko, no own eye,
    /// no big self-atari).
    pub fn policy_move_suggested(
        &mut self,
        rng: &mut Rng,
        last: Option<Point>,
        suggested: Option<Point>,
    ) -> Move {
        self.policy_move_with(
            rng,
            last,
            &PolicyOptions {
                suggested,
                ..PolicyOptions::default()
            },
        )
    }

    /// [`PlayoutBoard::policy_move`] with the shapes around the opponent's last stone weighed by
    /// `weights`: each empty point around it that the side to move may play (legal, no own eye,
    /// no big self-atari) is drawn with its window's weight times the orthogonal or diagonal
    /// factor, against `remote` times the number of empty points for the random choice.
    pub fn policy_move_weighted(
        &mut self,
        rng: &mut Rng,
        last: Option<Point>,
        weights: &PlayoutWeights,
    ) -> Move {
        self.policy_move_with(
            rng,
            last,
            &PolicyOptions {
                weights: Some(weights),
                ..PolicyOptions::default()
            },
        )
    }

    /// The policies above in one: the tactical replies, the two-liberty fights (with
    /// `options.two_liberties`, [`PlayoutBoard::two_liberty_reply`]), the suggested move, the
    /// shapes (uniform, or weighed), the random choice.
    #[inline]
    pub fn policy_move_with(
        &mut self,
        rng: &mut Rng,
        last: Option<Point>,
        options: &PolicyOptions<'_>,
    ) -> Move {
        if options.skip_local > 0 && rng.below(100) < options.skip_local {
            return self.tactical_choice(rng, last, options.sacrifices);
        }
        if let Some(mv) = self.playable_point(options.ko_retake) {
            return mv;
        }
        if let Some(p) = last.filter(|&p| self.geometry.mask().contains(p)) {
            let l = self.slot(p);
            if let Some(s) = self.reply(l) {
                return Move::Play(self.point(s));
            }
            if options.two_liberties {
                if let Some(s) = self.two_liberty_reply(rng, l) {
                    return Move::Play(self.point(s));
                }
            }
            if let Some(mv) = self.playable_point(options.suggested) {
                return mv;
            }
            if options.nakade {
                if let Some(s) = self
                    .nakade_reply(l)
                    .filter(|&s| self.playable(s, code(self.to_move)))
                {
                    return Move::Play(self.point(s));
                }
            }
            if let Some(l2) = options
                .second_last
                .filter(|&q| options.weights.is_none() && self.geometry.mask().contains(q))
            {
                // The opponent's last stone and the own one before it, where they still stand.
                let me = code(self.to_move);
                let (mut centres, mut k) = ([0; 2], 0);
                for (s, owner) in [(l, 3 - me), (self.slot(l2), me)] {
                    if self.colour[s] == owner {
                        centres[k] = s;
                        k += 1;
                    }
                }
                if let Some(s) = self.pattern_reply_near(rng, &centres[..k]) {
                    return Move::Play(self.point(s));
                }
            } else if self.colour[l] == 3 - code(self.to_move) {
                let shape = match options.weights {
                    Some(w) => self.weighted_reply(rng, l, w),
                    None => self.pattern_reply(rng, l),
                };
                if let Some(s) = shape {
                    return Move::Play(self.point(s));
                }
            }
        }
        if options.global_capture > 0 && rng.below(100) < options.global_capture {
            if let Some(s) = self.global_capture(rng) {
                return Move::Play(self.point(s));
            }
        }
        self.random_choice(rng, options.sacrifices)
    }

    /// A capture anywhere on the board: the liberty of an opponent chain in atari, drawn
    /// uniformly among the empty points that take one (the ko point left out), or `None`.
    /// Scans the empty points whose neighbours hold an opponent stone.
    pub fn global_capture(&self, rng: &mut Rng) -> Option<usize> {
        let opp = 3 - code(self.to_move);
        let ko = self.ko as usize;
        let (mut chosen, mut seen) = (None, 0u32);
        for i in 0..self.n_empty {
            let s = self.empties[i & SLOT_MASK] as usize & SLOT_MASK;
            if s == ko || (self.nbr[s] >> (4 * opp)) & 0xf == 0 {
                continue;
            }
            let takes = self
                .neighbours(s)
                .into_iter()
                .any(|q| self.colour[q] == opp && self.in_atari(self.root(q)));
            if takes {
                // Reservoir sampling: each capturing point kept with probability 1 / seen.
                seen += 1;
                if rng.below(seen) == 0 {
                    chosen = Some(s);
                }
            }
        }
        chosen
    }

    /// The fights of two liberties around the opponent's last stone on slot `l`, one move drawn
    /// uniformly among: an atari on the last stone's chain (two liberties) that catches it in a
    /// ladder ([`PlayoutBoard::atari_catches`]); and, for each own chain next to `l` left with two
    /// liberties that an opponent's atari would catch, the capture of an opponent chain in atari
    /// next to it, or a liberty whose play gives it three liberties or more. Every move is one
    /// the side may play (legal, not the ko, no own eye, no big self-atari).
    pub fn two_liberty_reply(&self, rng: &mut Rng, l: usize) -> Option<usize> {
        let me = code(self.to_move);
        let opp = 3 - me;
        let ko = self.ko as usize;
        if self.colour[l] != opp {
            return None;
        }
        let mut chosen = None;
        let mut seen = 0;
        let mut offer = |x: usize, rng: &mut Rng| {
            seen += 1;
            if rng.below(seen) == 0 {
                chosen = Some(x);
            }
        };
        let playable = |x: usize| self.playable(x, me);
        // Attack the last stone's chain.
        let (n, libs) = self.liberties3(self.root(l));
        if n == 2 {
            for x in libs {
                if playable(x) && self.atari_catches(l, x) {
                    offer(x, rng);
                }
            }
        }
        // Defend own chains next to it.
        let mut roots = [0usize; 4];
        for (i, q) in self.neighbours(l).into_iter().enumerate() {
            if self.colour[q] != me {
                continue;
            }
            let r = self.root(q);
            if roots[..i].contains(&r) {
                continue;
            }
            roots[i] = r;
            let (n, libs) = self.liberties3(r);
            if n != 2 || !self.in_danger(q, libs) {
                continue;
            }
            let mut t = r;
            loop {
                for x in self.neighbours(t) {
                    if self.colour[x] == opp {
                        if let Some(y) = self.atari_liberty(self.root(x)).filter(|&y| y != ko) {
                            offer(y, rng);
                        }
                    }
                }
                t = self.next[t] as usize & SLOT_MASK;
                if t == r {
                    break;
                }
            }
            for x in libs {
                if playable(x) && self.liberties_after(x, me) >= 3 {
                    offer(x, rng);
                }
            }
        }
        chosen
    }

    /// Whether the opponent of the side to move, playing one of `libs` (the two liberties of the
    /// side's chain through slot `q`), puts that chain in atari and catches it in a ladder.
    fn in_danger(&self, q: usize, libs: [usize; 2]) -> bool {
        // An atari at one liberty needs a read only when the opponent may play it and the
        // extension at the other would leave the chain two liberties or fewer (most chains in
        // the open run out to three, and a liberty that is an own eye cannot be played).
        let me = code(self.to_move);
        let opp = 3 - me;
        let needs_read = |x: usize, other: usize| {
            self.is_legal_empty(x, opp) && self.liberties_after_without(other, me, x) < 3
        };
        if !needs_read(libs[0], libs[1]) && !needs_read(libs[1], libs[0]) {
            return false;
        }
        super::ladder::after(self, 0, |b| {
            libs.into_iter()
                .any(|x| x != b.ko as usize && b.is_legal_empty(x, opp) && b.atari_catches(q, x))
        })
    }

    /// Liberties, up to three, of the chain that `c` makes playing the empty slot `s` (its empty
    /// neighbours and the liberties of the own chains it joins, `s` aside); a capture counts as
    /// three.
    pub(super) fn liberties_after(&self, s: usize, c: u8) -> usize {
        self.liberties_after_without(s, c, s)
    }

    /// [`PlayoutBoard::liberties_after`] with the empty slot `without` not counted as a liberty
    /// (as if the opponent held it).
    fn liberties_after_without(&self, s: usize, c: u8, without: usize) -> usize {
        let mut found = [0usize; 3];
        let mut n = 0;
        let mut add = |x: usize, n: &mut usize| {
            if x != s && x != without && !found[..*n].contains(&x) {
                found[*n] = x;
                *n += 1;
            }
            *n >= 3
        };
        let nbrs = self.neighbours(s);
        for &q in &nbrs {
            match self.colour[q] {
                EMPTY if add(q, &mut n) => return 3,
                k if k == 3 - c && self.in_atari(self.root(q)) => return 3,
                _ => {}
            }
        }
        let mut roots = [0usize; 4];
        for (i, &q) in nbrs.iter().enumerate() {
            if self.colour[q] != c {
                continue;
            }
            let r = self.root(q);
            if roots[..i].contains(&r) {
                continue;
            }
            roots[i] = r;
            let mut t = r;
            loop {
                for x in self.neighbours(t) {
                    if self.colour[x] == EMPTY && add(x, &mut n) {
                        return 3;
                    }
                }
                t = self.next[t] as usize & SLOT_MASK;
                if t == r {
                    break;
                }
            }
        }
        n
    }

    /// The weighted draw of [`PlayoutBoard::policy_move_weighted`] around slot `l`; `None` when
    /// the draw falls on a move elsewhere.
    pub(super) fn weighted_reply(
        &self,
        rng: &mut Rng,
        l: usize,
        weights: &PlayoutWeights,
    ) -> Option<usize> {
        let c = code(self.to_move);
        let table = &weights.by_colour[usize::from(c - 1)];
        let mut candidates = [(0usize, 0f32); 8];
        let mut n = 0;
        let mut total = 0f32;
        for (i, s) in self.around(l).into_iter().enumerate() {
            if self.colour[s] != EMPTY || s == self.ko as usize {
                continue;
            }
            if !self.acceptable(s, c) || self.self_atari(s, c) {
                continue;
            }
            // Neighbours 1, 3, 4 and 6 of NEIGHBOUR_ORDER are the orthogonal ones.
            let factor = if matches!(i, 1 | 3 | 4 | 6) {
                weights.orthogonal
            } else {
                weights.diagonal
            };
            let w = table[usize::from(self.window(s))] * factor;
            if w > 0.0 {
                candidates[n] = (s, w);
                n += 1;
                total += w;
            }
        }
        if n == 0 {
            return None;
        }
        let all = total + weights.remote * self.n_empty as f32;
        let mut x = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * all;
        for &(s, w) in &candidates[..n] {
            if x < w {
                return Some(s);
            }
            x -= w;
        }
        None
    }

    /// The move at `q` when it is an empty point of the board that the side to move may play
    /// (legal, not the ko, no own eye, no big self-atari): the suggested move and the ko retake.
    fn playable_point(&self, q: Option<Point>) -> Option<Move> {
        let q = q.filter(|&q| self.geometry.mask().contains(q))?;
        let s = self.slot(q);
        (self.colour[s] == EMPTY && self.playable(s, code(self.to_move))).then_some(Move::Play(q))
    }

    /// Whether `c` may play the empty slot `s` in a playout: not the ko, legal, no own eye, no
    /// big self-atari.
    #[inline]
    fn playable(&self, s: usize, c: u8) -> bool {
        s != self.ko as usize && self.acceptable(s, c) && !self.self_atari(s, c)
    }

    /// A uniformly drawn empty point around slot `l` that matches a 3x3 shape and that the side to
    /// move may play (legal, no own eye, no big self-atari).
    pub(super) fn pattern_reply(&self, rng: &mut Rng, l: usize) -> Option<usize> {
        self.pattern_reply_near(rng, &[l])
    }

    /// [`PlayoutBoard::pattern_reply`] around each of the slots `centres` (a point around two
    /// of them is offered twice).
    pub(super) fn pattern_reply_near(&self, rng: &mut Rng, centres: &[usize]) -> Option<usize> {
        let table = crate::pattern3::Pattern3Table::get();
        let c = code(self.to_move);
        let mut chosen = None;
        let mut seen = 0;
        for &l in centres {
            for s in self.around(l) {
                if self.colour[s] != EMPTY || s == self.ko as usize {
                    continue;
                }
                if !table.matches(self.window(s)) || !self.acceptable(s, c) || self.self_atari(s, c)
                {
                    continue;
                }
                seen += 1;
                if rng.below(seen) == 0 {
                    chosen = Some(s);
                }
            }
        }
        chosen
    }

    /// The vital point of the eye space next to the opponent's last stone on slot `l`: its
    /// empty neighbours must lie in one 3x3 window, and the empty area they belong to must have
    /// at most six points and touch no stone of the side to move (so it is bounded by the
    /// opponent's stones and the edge). Shapes with a vital point, by the number of area
    /// neighbours of each point: three points (the middle one), the T-shaped four (the point
    /// with three), the bulky five (the point with three, when one point has one), the cross
    /// five (the point with four), the rabbity six (the point with four, when three have two).
    /// Others (a line, an L, a square, ...) have none. The caller checks the point may be
    /// played.
    pub fn nakade_reply(&self, l: usize) -> Option<usize> {
        let me = code(self.to_move);
        if self.colour[l] != 3 - me {
            return None;
        }
        let mut first: Option<usize> = None;
        for q in self.neighbours(l) {
            if self.colour[q] != EMPTY {
                continue;
            }
            match first {
                None => first = Some(q),
                Some(e) => {
                    let (rq, cq) = (q / self.w, q % self.w);
                    let (re, ce) = (e / self.w, e % self.w);
                    if rq.abs_diff(re) > 1 || cq.abs_diff(ce) > 1 {
                        return None;
                    }
                }
            }
        }
        let mut area = [first?; 6];
        let mut n = 1;
        let mut i = 0;
        while i < n {
            for q in self.neighbours(area[i]) {
                match self.colour[q] {
                    EMPTY if !area[..n].contains(&q) => {
                        if n == area.len() {
                            return None;
                        }
                        area[n] = q;
                        n += 1;
                    }
                    c if c == me => return None,
                    _ => {}
                }
            }
            i += 1;
        }
        self.vital_point(&area[..n])
    }

    /// The shape of an area of up to six points, by the number of area neighbours of each point
    /// (`area` must be connected): `Some(Some(vital))` for a shape that two eyes cannot be made
    /// of once the vital point is taken (three points, the T-shaped four, the bulky and cross
    /// fives, the rabbity six), `Some(None)` for one with no vital point that is dead anyway (one
    /// or two points, the square four), `None` for a shape that can live (a line or an L of
    /// four, the rectangular six, ...).
    fn eye_shape(&self, area: &[usize]) -> Option<Option<usize>> {
        // Each point's neighbours in the area, and how many points have each count.
        let mut degree = [0usize; 6];
        let mut with = [0usize; 5];
        for (k, &a) in area.iter().enumerate() {
            degree[k] = self
                .neighbours(a)
                .into_iter()
                .filter(|q| area.contains(q))
                .count();
            with[degree[k]] += 1;
        }
        let having = |d: usize| {
            area.iter()
                .zip(degree)
                .find(|&(_, k)| k == d)
                .map(|(&a, _)| a)
        };
        match area.len() {
            1 | 2 => Some(None),
            3 => Some(having(2)),
            4 if with[2] == 4 => Some(None),
            4 if with[3] == 1 => Some(having(3)),
            5 if with[3] == 1 && with[1] == 1 => Some(having(3)),
            5 if with[4] == 1 => Some(having(4)),
            6 if with[4] == 1 && with[2] == 3 => Some(having(4)),
            _ => None,
        }
    }

    /// The vital point of `area` ([`PlayoutBoard::eye_shape`]), if it has one.
    fn vital_point(&self, area: &[usize]) -> Option<usize> {
        self.eye_shape(area).flatten()
    }

    /// The eight slots around `s`, in [`crate::pattern3::NEIGHBOUR_ORDER`].
    #[inline]
    pub(super) fn around(&self, s: usize) -> [usize; 8] {
        let w = self.w;
        [
            (s - w - 1) & SLOT_MASK,
            (s - w) & SLOT_MASK,
            (s - w + 1) & SLOT_MASK,
            (s - 1) & SLOT_MASK,
            (s + 1) & SLOT_MASK,
            (s + w - 1) & SLOT_MASK,
            (s + w) & SLOT_MASK,
            (s + w + 1) & SLOT_MASK,
        ]
    }

    /// The 3x3 window key of slot `s` (see [`crate::pattern3`]).
    #[inline]
    pub(super) fn window(&self, s: usize) -> u16 {
        let mut key = 0u16;
        for (i, q) in self.around(s).into_iter().enumerate() {
            key |= u16::from(self.colour[q]) << (2 * i);
        }
        key
    }

    /// The 3x3 window key of the point `p` (see [`crate::pattern3`]: two bits a neighbour, 0
    /// empty, 1 black, 2 white, 3 off the board).
    #[must_use]
    pub fn window_of(&self, p: Point) -> u16 {
        self.window(self.slot(p))
    }

    /// The colour code of the point at `p` moved by (`dr`, `dc`): 0 empty, 1 black, 2 white, 3
    /// off the board.
    #[must_use]
    pub fn code_at(&self, p: Point, dr: i32, dc: i32) -> u8 {
        let r = p.row() as i32 + dr;
        let c = p.col() as i32 + dc;
        let g = &self.geometry;
        if r < 0 || c < 0 || r >= g.rows() as i32 || c >= g.cols() as i32 {
            OFF
        } else {
            self.colour[self.slot(Point::new(r as usize, c as usize))]
        }
    }

    /// What the tree's priors need to know about the side to move playing the empty point `p`:
    /// stones it captures, whether it saves an own chain in atari (and is not a self-atari),
    /// whether it is a big self-atari, and whether its window matches a 3x3 shape.
    #[must_use]
    pub fn move_features(&self, p: Point) -> MoveFeatures {
        let s = self.slot(p);
        let c = code(self.to_move);
        let mut captures = 0u32;
        let mut roots = [0usize; 4];
        let mut own_in_atari = None;
        let mut two_liberties = [0usize; 4];
        let mut n_two = 0;
        for (i, q) in self.neighbours(s).into_iter().enumerate() {
            let k = self.colour[q];
            if k == EMPTY || k == OFF {
                continue;
            }
            let r = self.root(q);
            if roots[..i].contains(&r) {
                continue;
            }
            roots[i] = r;
            if self.in_atari(r) {
                if k == c {
                    own_in_atari = Some(q);
                } else {
                    captures += u32::from(self.size[r]);
                }
            } else if k != c && self.liberties3(r).0 == 2 {
                two_liberties[n_two] = q;
                n_two += 1;
            }
        }
        let self_atari = self.self_atari(s, c);
        let mut saves =
            own_in_atari.is_some() && !self_atari && (captures > 0 || self.gains_liberties(s, c));
        let mut ladder_escape = false;
        if let Some(q) = own_in_atari.filter(|_| saves && captures == 0) {
            if !self.saved_by(q, s) {
                saves = false;
                ladder_escape = true;
            }
        }
        let mut ladder_captures = 0;
        if !self_atari && s != self.ko as usize && self.is_legal_empty(s, c) {
            for &q in &two_liberties[..n_two] {
                if self.atari_catches(q, s) {
                    ladder_captures += u32::from(self.size[self.root(q)]);
                }
            }
        }
        MoveFeatures {
            captures,
            saves,
            self_atari,
            pattern: crate::pattern3::Pattern3Table::get().matches(self.window(s)),
            ladder_escape,
            ladder_captures,
            atari: n_two > 0 && !self_atari,
        }
    }

    /// Whether no stone lies within Manhattan distance `dist` of `p`.
    #[must_use]
    pub fn empty_area(&self, p: Point, dist: i32) -> bool {
        let (rows, cols) = (self.geometry.rows() as i32, self.geometry.cols() as i32);
        let (r0, c0) = (p.row() as i32, p.col() as i32);
        for dr in -dist..=dist {
            let span = dist - dr.abs();
            for dc in -span..=span {
                let (r, c) = (r0 + dr, c0 + dc);
                if r < 0 || c < 0 || r >= rows || c >= cols {
                    continue;
                }
                let s = self.slot(Point::new(r as usize, c as usize));
                if self.colour[s] != EMPTY {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the side to move, extending its chain through `q` (in atari) at its liberty `lib`,
    /// gets three liberties or more, or two and no ladder (see [`super::ladder`]). Three empty
    /// neighbours of `lib` settle it without a read.
    pub(super) fn extension_escapes(&self, q: usize, lib: usize) -> bool {
        let empties = self
            .neighbours(lib)
            .iter()
            .filter(|&&n| self.colour[n] == EMPTY)
            .count();
        empties >= 3 || (self.is_legal_empty(lib, code(self.to_move)) && !self.extension_caught(q))
    }

    /// Whether `c` on the empty slot `s` makes a chain with two liberties or more (captures
    /// aside).
    pub(super) fn gains_liberties(&self, s: usize, c: u8) -> bool {
        let mut first = None;
        let mut more = |x: usize| {
            if x == s || first == Some(x) {
                return false;
            }
            if first.is_none() {
                first = Some(x);
                return false;
            }
            true
        };
        for q in self.neighbours(s) {
            if self.colour[q] == EMPTY && more(q) {
                return true;
            }
        }
        for q in self.neighbours(s) {
            if self.colour[q] != c {
                continue;
            }
            let r = self.root(q);
            let mut t = r;
            loop {
                for x in self.neighbours(t) {
                    if self.colour[x] == EMPTY && more(x) {
                        return true;
                    }
                }
                t = self.next[t] as usize & SLOT_MASK;
                if t == r {
                    break;
                }
            }
        }
        false
    }

    /// Whether `c` playing the empty slot `s` makes a chain of two stones or more with one liberty
    /// that captures nothing (a lone stone may: throw-ins kill).
    pub(super) fn self_atari(&self, s: usize, c: u8) -> bool {
        let nbrs = self.neighbours(s);
        let mut libs = [0usize; 2];
        let mut n = 0;
        let mut add = |x: usize, n: &mut usize| {
            if x != s && !libs[..(*n).min(2)].contains(&x) {
                if *n < 2 {
                    libs[*n] = x;
                }
                *n += 1;
            }
        };
        for &q in &nbrs {
            match self.colour[q] {
                EMPTY => add(q, &mut n),
                k if k == 3 - c && self.in_atari(self.root(q)) => return false,
                _ => {}
            }
        }
        if n >= 2 {
            return false;
        }
        let mut roots = [0usize; 4];
        let mut size = 1;
        for (i, &q) in nbrs.iter().enumerate() {
            if self.colour[q] != c {
                continue;
            }
            let r = self.root(q);
            if roots[..i].contains(&r) {
                continue;
            }
            roots[i] = r;
            size += usize::from(self.size[r]);
            let mut t = r;
            loop {
                for x in self.neighbours(t) {
                    if self.colour[x] == EMPTY {
                        add(x, &mut n);
                        if n >= 2 {
                            return false;
                        }
                    }
                }
                t = self.next[t] as usize & SLOT_MASK;
                if t == r {
                    break;
                }
            }
        }
        size >= 2
    }

    /// The stones of the chain with root `r`, along its circular list.
    fn chain_stones(&self, r: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = Some(r);
        std::iter::from_fn(move || {
            let t = at?;
            let next = self.next[t] as usize & SLOT_MASK;
            at = (next != r).then_some(next);
            Some(t)
        })
    }

    /// Whether the playouts keep `c` from playing the empty slot `s` as a big self-atari
    /// ([`PlayoutBoard::self_atari`]): always, or with `sacrifices` unless the self-atari kills
    /// from inside ([`PlayoutBoard::killing_sacrifice`]).
    #[inline]
    pub(super) fn avoided_self_atari(&self, s: usize, c: u8, sacrifices: bool) -> bool {
        self.self_atari(s, c) && !(sacrifices && self.killing_sacrifice(s, c))
    }

    /// Whether `c` playing the empty slot `s`, a big self-atari, is a sacrifice that kills from
    /// inside (a nakade): the chain it makes has at most six stones and one liberty `L`; `L`
    /// has no other empty neighbour nor an own chain in atari next to it, and every opponent
    /// chain next to the chain or to `L` is left with `L` as its only liberty (so the opponent
    /// must take the stones at `L`, and its chain's only space is then theirs); and the stones'
    /// shape is
    /// one that cannot make two eyes ([`PlayoutBoard::eye_shape`]: up to three points, the square
    /// and T-shaped fours, the bulky and cross fives, the rabbity six). Without it the playouts
    /// never play such a move, and an opponent group with the sacrifice's stones inside and
    /// only shared liberties looks alive to them (a seki) where it is dead.
    pub(super) fn killing_sacrifice(&self, s: usize, c: u8) -> bool {
        let opp = 3 - c;
        // The chain's stones, the move's first.
        let mut area = [s; 6];
        let mut n = 1;
        for q in self.neighbours(s) {
            if self.colour[q] != c || area[..n].contains(&q) {
                continue;
            }
            for t in self.chain_stones(self.root(q)) {
                if n == area.len() {
                    return false;
                }
                area[n] = t;
                n += 1;
            }
        }
        let area = &area[..n];
        // Its one liberty.
        let mut lib = None;
        for &a in area {
            for x in self.neighbours(a) {
                if self.colour[x] == EMPTY && x != s {
                    match lib {
                        None => lib = Some(x),
                        Some(l) if l != x => return false,
                        Some(_) => {}
                    }
                }
            }
        }
        let Some(lib) = lib else {
            return false;
        };
        // No other empty point next to `lib`, and no own chain there that its capture takes too.
        if self.neighbours(lib).into_iter().any(|x| {
            !area.contains(&x)
                && (self.colour[x] == EMPTY || self.colour[x] == c && self.in_atari(self.root(x)))
        }) {
            return false;
        }
        // Every opponent chain around it or around `lib`: no liberty but `s` and `lib`.
        for &a in area.iter().chain(std::iter::once(&lib)) {
            for q in self.neighbours(a) {
                if self.colour[q] != opp {
                    continue;
                }
                let outside = |t: usize| {
                    self.neighbours(t)
                        .into_iter()
                        .any(|x| self.colour[x] == EMPTY && x != s && x != lib)
                };
                if self.chain_stones(self.root(q)).any(outside) {
                    return false;
                }
            }
        }
        self.eye_shape(area).is_some()
    }

    /// The tactical reply of [`PlayoutBoard::tactical_move`] to the stone on slot `l`, if any.
    pub(super) fn reply(&self, l: usize) -> Option<usize> {
        let me = code(self.to_move);
        let opp = 3 - me;
        let ko = self.ko as usize;
        if self.colour[l] != opp {
            return None;
        }
        if let Some(lib) = self.atari_liberty(self.root(l)).filter(|&x| x != ko) {
            return Some(lib);
        }
        for q in self.neighbours(l) {
            if self.colour[q] != me {
                continue;
            }
            let r = self.root(q);
            let Some(lib) = self.atari_liberty(r) else {
                continue;
            };
            // Capture an opponent chain in atari that touches the chain in danger.
            let mut t = r;
            loop {
                for n in self.neighbours(t) {
                    if self.colour[n] == opp {
                        if let Some(x) = self.atari_liberty(self.root(n)).filter(|&x| x != ko) {
                            return Some(x);
                        }
                    }
                }
                t = self.next[t] as usize & SLOT_MASK;
                if t == r {
                    break;
                }
            }
            // Extend, when that gives two liberties or more and no ladder catches the chain. An
            // own eye is a liberty like any other here: the chain's own eye cannot be filled (it
            // is its last liberty), but a false eye that rule 2/4 counts (two own and two
            // opposing diagonals) joins it to the chain on the other side.
            if lib == ko {
                continue;
            }
            if self.extension_escapes(q, lib) {
                return Some(lib);
            }
        }
        None
    }

    /// A uniformly random legal move for the side to move that does not fill its own eye, or a
    /// pass. Samples the empty list without replacement: a rejected point (own eye, ko, suicide)
    /// is swapped behind the part still to be drawn, so every acceptable point is equally likely.
    pub fn random_move(&mut self, rng: &mut Rng) -> Move {
        match self.pick(rng) {
            0 => Move::Pass,
            s => Move::Play(self.point(s)),
        }
    }

    /// [`PlayoutBoard::random_move`] as a slot, 0 for a pass.
    #[inline]
    pub(super) fn pick(&mut self, rng: &mut Rng) -> usize {
        self.pick_where(rng, |_, _, _| true)
    }

    /// [`PlayoutBoard::pick`] among the acceptable slots `s` that `keep(self, s, colour code)` also
    /// accepts (with a constant `true` it compiles to `pick` itself).
    #[inline]
    pub(super) fn pick_where(
        &mut self,
        rng: &mut Rng,
        keep: impl Fn(&Self, usize, u8) -> bool,
    ) -> usize {
        let c = code(self.to_move);
        let mut k = self.n_empty;
        while k > 0 {
            let i = rng.below(k as u32) as usize;
            let s = self.empties[i & SLOT_MASK] as usize & SLOT_MASK;
            if s != self.ko as usize && self.acceptable(s, c) && keep(self, s, c) {
                return s;
            }
            k -= 1;
            let last = self.empties[k & SLOT_MASK] as usize & SLOT_MASK;
            self.empties[k & SLOT_MASK] = s as u16;
            self.empties[i & SLOT_MASK] = last as u16;
            self.empty_at[s] = k as u16;
            self.empty_at[last] = i as u16;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Geometry;
    use crate::color::Color;
    use crate::playout::Progress;

    fn from_diagram(diagram: &str, to_move: Color) -> PlayoutBoard {
        let mut setup: crate::Setup = diagram.parse().unwrap();
        setup.to_move = to_move;
        let board = crate::Board::from_setup(setup, crate::Rules::STANDARD).unwrap();
        crate::mcts::playout_board(&board)
    }

    #[test]
    fn tactical_replies() {
        // White's last stone C3 is in atari: Black takes it at D3.
        let mut b = from_diagram(".....\n..X..\n.XO..\n..X..\n.....\n", Color::Black);
        let mv = b.tactical_move(&mut Rng::new(1), Some(Point::new(2, 2)));
        assert_eq!(mv, Move::Play(Point::new(2, 3)));
        // White's last stone B2 left Black's A1-A2 with one liberty, A3, and no white chain next
        // to them is in atari: Black extends at A3, where B4 lets it out of the ladder.
        let mut b = from_diagram(".....\n.X...\n.....\nXO...\nXO...\n", Color::Black);
        let mv = b.tactical_move(&mut Rng::new(1), Some(Point::new(3, 1)));
        assert_eq!(mv, Move::Play(Point::new(2, 0)));
        // Without B4 the ladder along the edge catches it: no tactical reply (a random move).
        let b = from_diagram(".....\n.....\n.....\nXO...\nXO...\n", Color::Black);
        assert_eq!(b.reply(b.slot(Point::new(3, 1))), None);
    }

    /// Two White chains meet at D4 (row 3, column 3), whose diagonals are two White stones and
    /// two Black ones: rule 2/4 counts it as White's eye, but the lower chain is in atari there
    /// and filling it joins the two. The playouts' save reply plays it, and the tree keeps it
    /// among its moves (in a lost 9x9 game against Pachi the engine counted such a chain dead).
    #[test]
    fn a_false_eye_that_joins_a_chain_in_atari_is_filled() {
        let diagram = ".......\n.......\n..XOO..\n.XO.O..\n.XOOX..\n..XX...\n.......\n";
        let b = from_diagram(diagram, Color::White);
        let eye = Point::new(3, 3);
        assert!(b.is_eye_of(eye, Color::White), "rule 2/4 sees an eye");
        assert!(
            !b.is_eye_to_keep(eye, Color::White),
            "the chain in atari needs it"
        );
        // Black's last stone D2 (row 5, column 3): White saves the chain in atari by the join.
        assert_eq!(b.reply(b.slot(Point::new(5, 3))), Some(b.slot(eye)));
        // Without the atari (a liberty at B3, row 4, column 1) the eye is one to keep.
        let freed = ".......\n.......\n..XOO..\n.XO.O..\n..OOX..\n..XX...\n.......\n";
        let b = from_diagram(freed, Color::White);
        assert!(b.is_eye_to_keep(eye, Color::White));
        assert_eq!(b.reply(b.slot(Point::new(5, 3))), None);
        // A chain's own eye is never filled to save it: the point is its last liberty.
        let own = "XXXXX.\nXOOOX.\nXO.OX.\nXOOOX.\nXXXXX.\n......\n";
        let b = from_diagram(own, Color::White);
        assert!(b.is_eye_of(Point::new(2, 2), Color::White));
        assert!(!b.is_eye_to_keep(Point::new(2, 2), Color::White));
        assert!(!b.is_legal(Point::new(2, 2)));
        assert_eq!(b.reply(b.slot(Point::new(4, 2))), None);
    }

    #[test]
    fn a_ko_is_retaken_when_the_ban_is_lifted() {
        // White's B2 (row 1, column 1) takes the black stone C2 (row 1, column 2): a ko.
        let mut b = from_diagram(".XO..\nX.XO.\n.XO..\n.....\n.....\n", Color::White);
        let (take, retake) = (Point::new(1, 1), Point::new(1, 2));
        b.play(Move::Play(take));
        assert_eq!(b.ko(), Some(retake));
        let options = PolicyOptions {
            ko_retake: Some(retake),
            ..PolicyOptions::default()
        };
        // Black may not retake at once: the ko point is never drawn then.
        for seed in 0..50 {
            let mut tried = b.clone();
            let mv = tried.policy_move_with(&mut Rng::new(seed), Some(take), &options);
            assert_ne!(mv, Move::Play(retake));
        }
        // After a black move and a white one elsewhere the ban is lifted: Black retakes.
        b.play(Move::Play(Point::new(4, 4)));
        b.play(Move::Play(Point::new(4, 0)));
        assert_eq!(b.ko(), None);
        let mv = b.policy_move_with(&mut Rng::new(1), Some(Point::new(4, 0)), &options);
        assert_eq!(mv, Move::Play(retake));
        // Without the option the policy does not play it every time.
        let plain = (0..50)
            .filter(|&seed| {
                b.clone().policy_move_with(
                    &mut Rng::new(seed),
                    Some(Point::new(4, 0)),
                    &PolicyOptions::default(),
                ) == Move::Play(retake)
            })
            .count();
        assert!(plain < 50);
    }

    #[test]
    fn nakade_vital_points() {
        // White fills a 7x7 board but for the eye space `shape` (offsets from C3); White's last
        // stone is one next to the space; Black to move.
        let cases: [(&str, &[(usize, usize)], Option<(usize, usize)>); 12] = [
            ("straight three", &[(0, 0), (0, 1), (0, 2)], Some((0, 1))),
            ("bent three", &[(0, 0), (0, 1), (1, 1)], Some((0, 1))),
            ("square four", &[(0, 0), (0, 1), (1, 0), (1, 1)], None),
            ("straight four", &[(0, 0), (0, 1), (0, 2), (0, 3)], None),
            ("T four", &[(0, 0), (0, 1), (0, 2), (1, 1)], Some((0, 1))),
            ("L four", &[(0, 0), (1, 0), (2, 0), (2, 1)], None),
            (
                "bulky five",
                &[(0, 0), (0, 1), (1, 0), (1, 1), (0, 2)],
                Some((0, 1)),
            ),
            (
                "cross five",
                &[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],
                Some((1, 1)),
            ),
            (
                "rabbity six",
                &[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (0, 0)],
                Some((1, 1)),
            ),
            (
                "rectangle six",
                &[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)],
                None,
            ),
            ("two points", &[(0, 0), (0, 1)], None),
            (
                "seven points",
                &[(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2)],
                None,
            ),
        ];
        let diagram = |empty: &[(usize, usize)], black: Option<(usize, usize)>| {
            let mut d = String::new();
            for r in 0..7 {
                for c in 0..7 {
                    d.push(if empty.contains(&(r, c)) {
                        '.'
                    } else if black == Some((r, c)) {
                        'X'
                    } else {
                        'O'
                    });
                }
                d.push('\n');
            }
            d
        };
        for (name, shape, vital) in cases {
            let empty: Vec<(usize, usize)> = shape.iter().map(|&(r, c)| (r + 2, c + 2)).collect();
            // A wall stone with exactly one empty neighbour.
            let b = from_diagram(&diagram(&empty, None), Color::Black);
            let last = (0..7)
                .flat_map(|r| (0..7).map(move |c| (r, c)))
                .find(|&(r, c)| {
                    !empty.contains(&(r, c))
                        && empty
                            .iter()
                            .filter(|&&(er, ec)| er.abs_diff(r) + ec.abs_diff(c) == 1)
                            .count()
                            == 1
                })
                .unwrap();
            let l = b.slot(Point::new(last.0, last.1));
            let expected = vital.map(|(r, c)| b.slot(Point::new(r + 2, c + 2)));
            assert_eq!(b.nakade_reply(l), expected, "{name}");
            // Not the opponent's move: nothing.
            let w = from_diagram(&diagram(&empty, None), Color::White);
            assert_eq!(w.nakade_reply(l), None, "{name}");
            // A black stone touching the space: no eye space of White's.
            let far = (0..7)
                .flat_map(|r| (0..7).map(move |c| (r, c)))
                .find(|&(r, c)| {
                    (r, c) != last
                        && !empty.contains(&(r, c))
                        && empty
                            .iter()
                            .any(|&(er, ec)| er.abs_diff(r) + ec.abs_diff(c) == 1)
                })
                .unwrap();
            let touched = from_diagram(&diagram(&empty, Some(far)), Color::Black);
            assert_eq!(touched.colour[l], code(Color::White));
            assert_eq!(touched.nakade_reply(l), None, "{name} touched");
        }
        // The last stone's empty neighbours in two separate areas: no nakade.
        let b = from_diagram(
            "OOOOOOO\nO.OOOOO\nO.O.OOO\nOOO.OOO\nOOOOOOO\nOOOOOOO\nOOOOOOO\n",
            Color::Black,
        );
        assert_eq!(b.nakade_reply(b.slot(Point::new(2, 2))), None);
    }

    #[test]
    fn two_liberty_fights() {
        // Black's C7-D7 (two liberties, E7 and D6) inside White's stones on 9x9.
        let before = ".........\n..OO.....\n.OXX.....\n..O......\n.........\n.........\n\
                      .........\n.........\n.........\n";
        let breaker = |d: &str| {
            let mut rows: Vec<String> = d.lines().map(str::to_owned).collect();
            rows[6] = "......X..".to_owned();
            rows.join("\n") + "\n"
        };
        let d7 = Point::new(2, 3);
        let c6 = Point::new(3, 2);
        // White answers D7 with the atari at E7, which drives the chain into the ladder (the one
        // at D6 lets it out); a black stone on G3 breaks the ladder and leaves nothing to fight.
        let b = from_diagram(before, Color::White);
        for seed in 0..8 {
            let x = b.two_liberty_reply(&mut Rng::new(seed), b.slot(d7));
            assert_eq!(x, Some(b.slot(Point::new(2, 4))));
        }
        let b = from_diagram(&breaker(before), Color::White);
        assert_eq!(b.two_liberty_reply(&mut Rng::new(1), b.slot(d7)), None);
        // Black, after White's C6, defends the chain at E7 or D6 (three liberties or more each);
        // with the breaker no atari catches it and Black need not answer.
        let b = from_diagram(before, Color::Black);
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..32 {
            let x = b.two_liberty_reply(&mut Rng::new(seed), b.slot(c6));
            seen.insert(x.map(|s| b.point(s)));
        }
        let expected: std::collections::BTreeSet<_> =
            [Some(Point::new(2, 4)), Some(Point::new(3, 3))].into();
        assert_eq!(seen, expected);
        let b = from_diagram(&breaker(before), Color::Black);
        assert_eq!(b.two_liberty_reply(&mut Rng::new(1), b.slot(c6)), None);
    }

    #[test]
    fn liberties_after_matches_playing_the_move() {
        // Along random playouts on 9x9 and 7x5, for every point the side to move may play:
        // `liberties_after` is 3 when the move captures, else the liberties (up to three) of the
        // chain the move makes, read after playing it on a copy.
        for (rows, cols) in [(9, 9), (7, 5)] {
            let g = Geometry::new(rows, cols).unwrap();
            let mut rng = Rng::new(5);
            let mut checked = 0;
            for _ in 0..20 {
                let mut b = PlayoutBoard::new(g);
                let mut game = Progress::default();
                while game.going(3 * g.area()) {
                    let c = code(b.to_move);
                    for i in 0..b.n_empty {
                        let s = b.empties[i] as usize;
                        if s == b.ko as usize || !b.is_legal_empty(s, c) {
                            continue;
                        }
                        let mut after = b.clone();
                        after.play_slot(s);
                        let captured = after.n_empty + 1 > b.n_empty;
                        let expected = if captured {
                            3
                        } else {
                            after.liberties3(after.root(s)).0
                        };
                        assert_eq!(b.liberties_after(s, c), expected);
                        checked += 1;
                    }
                    let mv = b.policy_move(&mut rng, game.last);
                    b.play(mv);
                    game.played(mv);
                }
            }
            assert!(checked > 10_000, "{checked}");
        }
    }

    /// The 3x3 window of `p` read from the stone bitboards (the slow reference of `window`).
    fn window_naive(b: &PlayoutBoard, p: Point) -> u16 {
        let g = *b.geometry();
        let stones = [b.stones(Color::Black), b.stones(Color::White)];
        let mut key = 0u16;
        for (i, &(dr, dc)) in crate::pattern3::NEIGHBOUR_ORDER.iter().enumerate() {
            let (r, c) = (p.row() as i32 + dr, p.col() as i32 + dc);
            let code = if r < 0 || c < 0 || r >= g.rows() as i32 || c >= g.cols() as i32 {
                3
            } else {
                let q = Point::new(r as usize, c as usize);
                if stones[0].contains(q) {
                    1
                } else if stones[1].contains(q) {
                    2
                } else {
                    0
                }
            };
            key |= code << (2 * i);
        }
        key
    }

    #[test]
    fn global_captures_match_playing_every_point() {
        // Along random games on 9x9 and 7x5 (uniform moves, so that chains stay in atari): the
        // points that take an opponent chain, by playing every legal empty point on a copy and
        // counting the opponent's stones. The global capture answers one of them, and every one
        // of them over enough draws; none when there is none.
        for (rows, cols) in [(9, 9), (7, 5)] {
            let g = Geometry::new(rows, cols).unwrap();
            let mut rng = Rng::new(23);
            let (mut checked, mut with_captures) = (0, 0);
            for _ in 0..30 {
                let mut b = PlayoutBoard::new(g);
                let mut game = Progress::default();
                while game.going(3 * g.area()) {
                    let opp = b.to_move.opponent();
                    let before = b.stones(opp).count();
                    let takes: Vec<usize> = g
                        .points()
                        .map(|p| b.slot(p))
                        .filter(|&s| b.colour[s] == EMPTY && s != b.ko as usize)
                        .filter(|&s| b.is_legal(b.point(s)))
                        .filter(|&s| {
                            let mut after = b.clone();
                            after.play(Move::Play(b.point(s)));
                            after.stones(opp).count() < before
                        })
                        .collect();
                    let mut seen = std::collections::HashSet::new();
                    for k in 0..(40 * takes.len() as u64 + 1) {
                        let answer = b.global_capture(&mut Rng::new(k + 1));
                        assert_eq!(answer.is_some(), !takes.is_empty());
                        if let Some(s) = answer {
                            assert!(takes.contains(&s), "{} is no capture", b.point(s));
                            seen.insert(s);
                        }
                    }
                    if takes.len() <= 4 {
                        assert_eq!(seen.len(), takes.len(), "every capture is drawn");
                    }
                    checked += 1;
                    with_captures += usize::from(!takes.is_empty());
                    let mv = b.random_move(&mut rng);
                    b.play(mv);
                    game.played(mv);
                }
            }
            assert!(
                checked > 1000 && with_captures > 200,
                "{checked} {with_captures}"
            );
        }
    }

    /// The board as a diagram (the [`crate::Setup`] of its stones).
    fn diagram_of(b: &PlayoutBoard) -> String {
        crate::Setup {
            geometry: b.geometry,
            black: b.stones(Color::Black),
            white: b.stones(Color::White),
            to_move: b.to_move,
            ko: None,
            captures: [0, 0],
        }
        .to_string()
    }

    /// The stones of the chain on slot `q` and the chain's liberties, by walking it.
    fn chain_and_liberties(b: &PlayoutBoard, q: usize) -> (Vec<usize>, Vec<usize>) {
        let (mut stones, mut libs) = (vec![q], Vec::new());
        let mut i = 0;
        while i < stones.len() {
            for x in b.neighbours(stones[i]) {
                if b.colour[x] == b.colour[q] && !stones.contains(&x) {
                    stones.push(x);
                } else if b.colour[x] == EMPTY && !libs.contains(&x) {
                    libs.push(x);
                }
            }
            i += 1;
        }
        (stones, libs)
    }

    /// Whether the points `area` (slots) form one of the shapes that cannot make two eyes, by
    /// their cells up to the eight symmetries, against the list of the shapes themselves.
    fn dead_shape_by_list(b: &PlayoutBoard, area: &[usize]) -> bool {
        const DEAD: [&[(i32, i32)]; 5] = [
            &[(0, 0), (0, 1), (1, 0), (1, 1)],                 // square four
            &[(0, 0), (0, 1), (0, 2), (1, 1)],                 // T four
            &[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)],         // bulky five
            &[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],         // cross five
            &[(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (2, 1)], // rabbity six
        ];
        if area.len() <= 3 {
            return true;
        }
        let cells: Vec<(i32, i32)> = area
            .iter()
            .map(|&s| {
                let p = b.point(s);
                (p.row() as i32, p.col() as i32)
            })
            .collect();
        let normal = |cells: Vec<(i32, i32)>| {
            let r0 = cells.iter().map(|c| c.0).min().unwrap();
            let c0 = cells.iter().map(|c| c.1).min().unwrap();
            let mut v: Vec<(i32, i32)> = cells.iter().map(|&(r, c)| (r - r0, c - c0)).collect();
            v.sort_unstable();
            v
        };
        let images: Vec<Vec<(i32, i32)>> = (0..8)
            .map(|k| {
                normal(
                    cells
                        .iter()
                        .map(|&(r, c)| {
                            let (r, c) = if k & 4 != 0 { (c, r) } else { (r, c) };
                            (
                                if k & 1 != 0 { -r } else { r },
                                if k & 2 != 0 { -c } else { c },
                            )
                        })
                        .collect(),
                )
            })
            .collect();
        DEAD.iter()
            .any(|shape| images.contains(&normal(shape.to_vec())))
    }

    #[test]
    fn killing_sacrifices_match_playing_them_out() {
        // Along random games on 9x9 and 7x5: every big self-atari is a killing sacrifice exactly
        // when, played on a copy, its chain has at most six stones and one liberty L, every
        // opponent chain next to it has L alone, the opponent's stone at L takes the chain and
        // is left with liberties inside the taken points only, and those points make a shape
        // from the list of dead ones.
        let mut found = [0usize; 2];
        for (rows, cols) in [(9, 9), (7, 5)] {
            let g = Geometry::new(rows, cols).unwrap();
            let mut rng = Rng::new(31);
            for _ in 0..1000 {
                let mut b = PlayoutBoard::new(g);
                let mut game = Progress::default();
                while game.going(3 * g.area()) {
                    let c = code(b.to_move);
                    for p in g.points() {
                        let s = b.slot(p);
                        if b.colour[s] != EMPTY || !b.is_legal(p) || !b.self_atari(s, c) {
                            continue;
                        }
                        let mut after = b.clone();
                        after.play(Move::Play(p));
                        let (stones, libs) = chain_and_liberties(&after, s);
                        let slow = stones.len() <= 6
                            && libs.len() == 1
                            && stones.iter().all(|&t| {
                                after.neighbours(t).into_iter().all(|q| {
                                    after.colour[q] != 3 - c
                                        || chain_and_liberties(&after, q).1 == libs
                                })
                            })
                            && {
                                let mut taken = after.clone();
                                taken.play(Move::Play(after.point(libs[0])));
                                stones.iter().all(|&t| taken.colour[t] == EMPTY)
                                    && chain_and_liberties(&taken, libs[0])
                                        .1
                                        .iter()
                                        .all(|x| stones.contains(x))
                            }
                            && dead_shape_by_list(&b, &stones);
                        assert_eq!(
                            b.killing_sacrifice(s, c),
                            slow,
                            "{p} for {} on\n{}",
                            c,
                            diagram_of(&b)
                        );
                        found[usize::from(slow)] += 1;
                    }
                    let mv = b.random_move(&mut rng);
                    b.play(mv);
                    game.played(mv);
                }
            }
        }
        assert!(found[0] > 10_000 && found[1] > 100, "{found:?}");
    }

    #[test]
    fn the_random_choice_sacrifices_only_when_asked() {
        // White's ten stones in the corner share A1 and C1 with Black's B1-B2 (session 67's
        // game 32 of the two-thread screen): Black's A1 or C1 is a self-atari of three stones
        // that leaves White in atari and, taken, a bent three; White has no other space.
        let b = from_diagram(
            "XXO......\n.XOO.OOOO\nXXXXOXXXX\n.XOOOXOXX\nXXO.OOOOX\nOXXOOXOXX\n\
             OOOXXXX.X\nOXOOX.XX.\n.X.OOX.XO\n",
            Color::Black,
        );
        let (a1, c1) = (b.slot(Point::new(8, 0)), b.slot(Point::new(8, 2)));
        let black = code(Color::Black);
        for s in [a1, c1] {
            assert!(b.self_atari(s, black) && b.killing_sacrifice(s, black));
        }
        let counts = |sacrifices: bool| {
            let mut n = 0;
            for k in 0..4000 {
                let mut c = b.clone();
                if let Move::Play(p) = c.random_choice(&mut Rng::new(k), sacrifices) {
                    n += usize::from(p == Point::new(8, 0) || p == Point::new(8, 2));
                }
            }
            n
        };
        assert_eq!(counts(false), 0);
        assert!(counts(true) > 100);
        // With another liberty for White's group (D4 empty instead of White), no kill.
        let open = from_diagram(
            "XXO......\n.XOO.OOOO\nXXXXOXXXX\n.XOOOXOXX\nXXO.OOOOX\n.XX.OXOXX\n\
             OOOXXXX.X\nOXOOX.XX.\n.X.OOX.XO\n",
            Color::Black,
        );
        assert!(!open.killing_sacrifice(a1, black));
    }

    #[test]
    fn pattern_replies_match_the_reference() {
        // Along random policy playouts on 9x9 and 7x5: every window equals the slow one, and the
        // pattern reply to the last stone is one of the points around it that the naive matcher
        // accepts and the side may play; there is one whenever such a point exists. The same
        // around the last two stones together.
        for (rows, cols) in [(9, 9), (7, 5)] {
            let g = Geometry::new(rows, cols).unwrap();
            let mut rng = Rng::new(11);
            let (mut replies, mut checked, mut both) = (0, 0, 0);
            for _ in 0..40 {
                let mut b = PlayoutBoard::new(g);
                let mut game = Progress::default();
                let mut before: Option<Point> = None;
                while game.going(3 * g.area()) {
                    if let Some(l) = game.last {
                        let ls = b.slot(l);
                        let c = code(b.to_move);
                        let allowed_near = |centre: usize| -> Vec<usize> {
                            b.around(centre)
                                .into_iter()
                                .filter(|&s| {
                                    b.colour[s] == EMPTY
                                        && s != b.ko as usize
                                        && crate::pattern3::matches_naive(window_naive(
                                            &b,
                                            b.point(s),
                                        ))
                                        && b.acceptable(s, c)
                                        && !b.self_atari(s, c)
                                })
                                .collect()
                        };
                        let allowed = allowed_near(ls);
                        if let Some(l2) = before {
                            let l2s = b.slot(l2);
                            let mut union = allowed.clone();
                            union.extend(allowed_near(l2s));
                            let reply =
                                b.pattern_reply_near(&mut Rng::new(game.moves as u64), &[ls, l2s]);
                            assert_eq!(reply.is_some(), !union.is_empty());
                            if let Some(s) = reply {
                                assert!(union.contains(&s));
                                both += usize::from(!allowed.contains(&s));
                            }
                        }
                        for s in b.around(ls) {
                            if b.colour[s] == EMPTY {
                                assert_eq!(b.window(s), window_naive(&b, b.point(s)));
                            }
                        }
                        let reply = b.pattern_reply(&mut Rng::new(game.moves as u64), ls);
                        assert_eq!(reply.is_some(), !allowed.is_empty());
                        if let Some(s) = reply {
                            assert!(allowed.contains(&s));
                            replies += 1;
                        }
                        checked += 1;
                    }
                    let mv = b.policy_move(&mut rng, game.last);
                    b.play(mv);
                    before = game.last;
                    game.played(mv);
                }
            }
            assert!(checked > 1000 && replies > 100, "{checked} {replies}");
            assert!(
                both > 10,
                "{both} replies around the second-last stone alone"
            );
        }
    }

    #[test]
    fn move_features_on_diagrams() {
        let at = |diagram: &str, r, c| {
            from_diagram(diagram, Color::Black).move_features(Point::new(r, c))
        };
        // White C3 is in atari: D3 takes it.
        let f = at(".....\n..X..\n.XO..\n..X..\n.....\n", 2, 3);
        assert_eq!(f.captures, 1);
        assert!(!f.self_atari && !f.saves);
        // Black A1-A2 is in atari: A3 saves it (two liberties after, and B4 breaks the ladder).
        let f = at(".....\n.X...\n.....\nXO...\nXO...\n", 2, 0);
        assert!(f.saves && !f.self_atari && !f.ladder_escape);
        assert_eq!(f.captures, 0);
        // Without B4, A3 only runs along the edge into a ladder.
        let f = at(".....\n.....\n.....\nXO...\nXO...\n", 2, 0);
        assert!(!f.saves && f.ladder_escape);
        // White's C3 has two liberties, D3 and C2: the atari at D3 lets it run out at C2 (three
        // liberties), an atari but no ladder capture.
        let f = at(".....\n..X..\n.XO..\n.....\n.....\n", 2, 3);
        assert!(f.atari && f.ladder_captures == 0);
        // B1 joins A1 into a two-stone chain with one liberty, B2, capturing nothing.
        let f = at(".....\n.....\n.....\nO....\nX.O..\n", 4, 1);
        assert!(f.self_atari && !f.saves);
        // An enclosing hane shape at C3, and nothing at all far away.
        let d = ".....\n.XOX.\n.....\n.....\n.....\n";
        assert!(at(d, 2, 2).pattern);
        assert_eq!(at(d, 4, 4), MoveFeatures::default());
    }

    #[test]
    fn tactical_playouts_keep_a_two_eyed_group() {
        // White's group on the upper right has eyes at H8 and J9. J9 is not a rule-2/4 eye (its
        // diagonal H8 is empty), so uniform playouts let White fill it and Black then capture the
        // whole group at H8; tactical ones refuse that self-atari.
        let start = from_diagram(
            "..XX.XOO.\n..X..XO.O\n...XXOOOO\nXXXOXXXXO\nXOOOX..XX\n\
             O.OXX..OX\n.OOOX..O.\n.OXXX.X.O\n.OOOX...X\n",
            Color::Black,
        );
        let group = Point::new(2, 6);
        let mut rng = Rng::new(3);
        let (mut uniform_lost, mut tactical_lost) = (0, 0);
        for i in 0..200 {
            for tactical in [false, true] {
                let mut b = start.clone();
                if i % 2 == 1 {
                    b.play(Move::Pass);
                }
                let mut game = Progress::default();
                while game.going(400) {
                    let mv = if tactical {
                        b.tactical_move(&mut rng, game.last)
                    } else {
                        b.random_move(&mut rng)
                    };
                    b.play(mv);
                    game.played(mv);
                }
                if !b.stones(Color::White).contains(group) {
                    if tactical {
                        tactical_lost += 1;
                    } else {
                        uniform_lost += 1;
                    }
                }
            }
        }
        assert_eq!(tactical_lost, 0);
        assert!(uniform_lost > 20, "{uniform_lost}");
    }
}
