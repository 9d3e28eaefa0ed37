//! The engine behind the GTP front end: the game (board, komi, clocks) and the move choice.
//!
//! Move choice, in order:
//! 1. A solved database for the board's size is loaded and knows the position: a move that keeps
//!    the side's bound (Black's `lo`, White's `hi`: what it can force the game to end with; komi
//!    only shifts every value, so the same moves keep it for any komi) *and makes progress*. With
//!    cycles (4x4: `[+1,+16]` from the start) keeping the bound is not enough: the first
//!    value-keeping move, passes preferred, lets Black repeat A1, A3, A2, pass for ever against
//!    White's first value-keeping moves. So the engine computes the attractor rank, the plies
//!    within which it can force an end at its bound, over the states reachable from the position
//!    ([`stonelab_retro::strategy`], at most [`FORCING_STATES`], or [`FORCING_STATES_IN_CYCLE`]
//!    once the position repeats) and plays to a successor of least rank, which ends the game
//!    within that many plies. When no forced end is found within the limit (early in the game),
//!    a value-keeping move: a pass if one keeps the value, else the first in point order; cycles
//!    need captures, which come later, and a repeated position raises the limit. Under
//!    `--cycles tie` (an endless game scores 0) a side whose bound is not the tie value keeps the
//!    tie value instead, a pass first: for it an endless game is as good as any end it can force.
//!    Under `--ko positional-superko` the exact value of the position with the game's history
//!    comes from [`stonelab_retro::superko::Search`] (ordered by the database's tie values), and
//!    the engine plays a move that keeps it: every game ends, so keeping the value at each move
//!    ends the game at it. Past [`SUPERKO_NODES`] nodes, the simple-ko choice above.
//! 2. Monte-Carlo tree search ([`stonelab_go::mcts`]). It resigns when the best move wins less than
//!    [`RESIGN_WIN_RATE`] of at least [`RESIGN_MIN_PLAYOUTS`] playouts (by the games' results
//!    alone, [`mcts::MoveStats::outright`]: not the margin term of `--score-weight`). With a time
//!    limit it stops early once the most visited move cannot be overtaken. It passes only when both the area
//!    count as the board stands and the count with the dead stones removed
//!    ([`stonelab_go::ownership::evaluate`], the estimate our `final_score` gives, which agrees
//!    with GNU Go's on 39 of 40 finished 9x9 games) win for us, and the search agrees (best win rate at least [`PASS_WIN_RATE`]): then at once after the
//!    opponent's pass, else when the search likes the pass best. Otherwise it plays the most
//!    visited other move that can change the count (not inside an empty region that only our
//!    stones border) and that the search rates within [`PLAY_ON_MARGIN`] of the pass; it passes
//!    when there is none such. On a settled board with a drawn count, playing on would otherwise
//!    fill its own eye space.

use std::path::Path;
use std::time::Instant;

use stonelab_go::mcts::{self, SearchConfig};
use stonelab_go::ownership;
use stonelab_go::{Board, Color, Geometry, Move, Point, Rules};
use stonelab_retro::db::Database;
use stonelab_retro::go::{best_moves, GoGame};
use stonelab_retro::strategy::Forcing;

use super::clock::{self, Clock, TimeSettings};

/// Most states [`Forcing`] explores for a database move (about 0.15 s on 4x4)...
pub const FORCING_STATES: usize = 20_000;
/// ...and when the position has occurred before in the game, so that a cycle has begun (about
/// 7 s and 150 MB on 4x4, once per cycle at most: the move it finds ends the game).
pub const FORCING_STATES_IN_CYCLE: usize = 1_000_000;
/// Most nodes of the superko search for one database move (4x4 from the empty board takes
/// about 21 M, 25 s; later positions far fewer).
pub const SUPERKO_NODES: u64 = 40_000_000;
/// Resign below this win rate of the best move...
pub const RESIGN_WIN_RATE: f64 = 0.05;
/// ...when the search ran at least this many playouts.
pub const RESIGN_MIN_PLAYOUTS: u64 = 3000;
/// Least win rate of the best move for passing after the opponent's pass (see the module docs).
pub const PASS_WIN_RATE: f64 = 0.6;
/// When the search likes the pass best but passing is not allowed (see the module docs), the most
/// visited other move is played only if its win rate is at most this much below the pass's.
pub const PLAY_ON_MARGIN: f64 = 0.02;
/// How hard to search.
#[derive(Clone, Debug)]
pub struct SearchLimits {
    pub threads: usize,
    /// One tree for all threads ([`mcts::SearchConfig::shared_tree`]).
    pub shared_tree: bool,
    /// Fixed playouts per move (deterministic).
    pub playouts: Option<u64>,
    /// Fixed time per move.
    pub move_ms: Option<u64>,
    /// The learned move model of the priors, if any...
    pub model: Option<std::sync::Arc<stonelab_go::movemodel::MoveModel>>,
    /// ...and the weight of its prior ([`mcts::PRIOR_MODEL`] by default).
    pub model_weight: f64,
    /// The playouts' weighted replies ([`mcts::SearchConfig::playout_remote`]).
    pub playout_remote: Option<f32>,
    /// Start each move's search from the subtree the previous one grew ([`mcts::search_reusing`]).
    pub tree_reuse: bool,
    /// Fresh randomness for every search even with fixed playouts (games between fixed-playout
    /// engines then differ).
    pub fresh_seed: bool,
    /// Last good reply in the playouts ([`mcts::SearchConfig::last_good_reply`]).
    pub last_good_reply: bool,
    /// Two-liberty fights in the playouts ([`mcts::SearchConfig::two_liberties`]).
    pub two_liberties: bool,
    /// The hand-set priors besides the model's ([`mcts::SearchConfig::hand_priors`]).
    pub hand_priors: bool,
    /// The selection rule ([`mcts::SearchConfig::tree_policy`]).
    pub tree_policy: mcts::TreePolicy,
    /// Shapes around the own previous stone too ([`mcts::SearchConfig::second_last_shapes`]).
    pub second_last_shapes: bool,
    /// The playouts' nakade reply ([`mcts::SearchConfig::nakade`]).
    pub nakade: bool,
    /// Ko fights in the playouts ([`mcts::SearchConfig::ko_fights`]).
    pub ko_fights: bool,
    /// The share of playout moves that try the local answers ([`mcts::SearchConfig::local_rate`]).
    pub local_rate: u32,
    /// The margin's share of a playout's result ([`mcts::SearchConfig::score_weight`]).
    pub score_weight: f32,
    /// Global captures in the playouts ([`mcts::SearchConfig::global_capture`]).
    pub global_capture: u32,
    /// Killing sacrifices in the playouts ([`mcts::SearchConfig::sacrifices`]).
    pub sacrifices: bool,
    /// Its scale in points ([`mcts::SearchConfig::score_scale`]); `None`: the square root of the
    /// board's points.
    pub score_scale: Option<f32>,
    /// Dynamic komi when winning ([`DynamicKomi`]).
    pub dynamic_komi: bool,
    /// The margin term centred at the previous search's mean lead in the same game
    /// ([`mcts::SearchConfig::score_centre`]); false: at an even game.
    pub score_centre: bool,
}

/// Above this win rate (ours, by the last search) the dynamic komi asks a point more of us.
pub const KOMI_GREEN: f64 = 0.85;
/// Below this win rate the dynamic komi gives back [`KOMI_DROP`] points (not below 0).
pub const KOMI_ORANGE: f64 = 0.8;
/// Points given back at once below [`KOMI_ORANGE`].
pub const KOMI_DROP: f64 = 4.0;

/// Dynamic komi when winning (after Pachi's adaptive phase of its linear dynamic komi): a search
/// whose every playout is won cannot tell a solid move from a slack one, so while the last search
/// saw a win rate above [`KOMI_GREEN`] the next one counts with a point more of komi against us,
/// each time, and [`KOMI_DROP`] points less when it fell below [`KOMI_ORANGE`]. A point taken
/// back caps how far it may climb again (the ratchet), and a fall below one half once a point
/// was taken back ends it for the game. It starts after the opening ([`DynamicKomi::start`]),
/// never asks less than the real komi (a losing side plays with the real one), and a search after
/// the opponent's pass, which may end the game, counts with the real komi.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DynamicKomi {
    /// Points of komi added against us (0 or more).
    pub extra: f64,
    /// The most `extra` may reach again (infinite until a drop).
    pub ratchet: f64,
    /// The game length (moves and passes) at the last search, to see a new game.
    pub moves: usize,
}

impl Default for DynamicKomi {
    fn default() -> DynamicKomi {
        DynamicKomi {
            extra: 0.0,
            ratchet: f64::INFINITY,
            moves: 0,
        }
    }
}

impl DynamicKomi {
    /// The first move (by the game's length) whose search may count with extra komi: a fifth of
    /// the board's points (16 on 9x9, 33 on 13x13, 72 on 19x19).
    #[must_use]
    pub fn start(points: usize) -> usize {
        points / 5
    }

    /// The extra komi after a search that saw win rate `value` (ours, under the extra komi then).
    pub fn adapt(&mut self, value: f64) {
        if value < 0.5 && self.ratchet > 0.0 && self.ratchet.is_finite() {
            self.extra = 0.0;
            self.ratchet = 0.0;
        } else if value < KOMI_ORANGE && self.extra > 0.0 {
            self.extra = (self.extra - KOMI_DROP).max(0.0);
            self.ratchet = self.extra;
        } else if value > KOMI_GREEN && self.extra + 1.0 <= self.ratchet {
            self.extra += 1.0;
        }
    }

    /// The komi a search by `color` counts with: the real one moved by `extra` against it.
    #[must_use]
    pub fn komi_for(&self, komi: f64, color: Color) -> f64 {
        match color {
            Color::Black => komi + self.extra,
            Color::White => komi - self.extra,
        }
    }
}

/// A loaded, checked results database and the game it belongs to.
struct Solved {
    geometry: Geometry,
    game: GoGame,
    db: Database,
}

/// What `genmove` decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Move),
    Resign,
}

/// The game state and the engine's settings.
pub struct Engine {
    board: Board,
    komi: f64,
    clock: Clock,
    limits: SearchLimits,
    solved: Vec<Solved>,
    /// What an endless game is worth when playing from a database.
    cycles: stonelab_retro::Cycles,
    /// Positional superko: no stone may recreate an earlier board of the game.
    superko: bool,
    /// The trees of the last move's search, to start the next from (`SearchLimits::tree_reuse`).
    reuse: std::sync::Mutex<Option<mcts::Reuse>>,
    /// The dynamic komi's state (`SearchLimits::dynamic_komi`).
    dynamic: std::sync::Mutex<DynamicKomi>,
    /// The last search's history length and Black's mean lead less komi over its playouts
    /// (`SearchLimits::score_centre`).
    last_score: std::sync::Mutex<Option<(usize, f64)>>,
}

impl Engine {
    /// An engine on the empty 19x19 board (GTP's default), komi 0.
    #[must_use]
    pub fn new(limits: SearchLimits) -> Engine {
        Engine {
            board: new_board(Geometry::new(19, 19).expect("19x19")),
            komi: 0.0,
            clock: Clock::default(),
            limits,
            solved: Vec::new(),
            cycles: stonelab_retro::Cycles::Interval,
            superko: false,
            reuse: std::sync::Mutex::new(None),
            dynamic: std::sync::Mutex::new(DynamicKomi::default()),
            last_score: std::sync::Mutex::new(None),
        }
    }

    /// Plays under positional superko: `play` refuses a stone that recreates an earlier board of
    /// the game, the engine never plays one, and database moves keep the superko value.
    pub fn set_superko(&mut self, on: bool) {
        self.superko = on;
    }

    /// Whether `mv` by `color` is legal on the game's board under the engine's rules; plays it
    /// when it is.
    pub fn try_play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        let mut board = self.board.clone();
        board
            .try_play_as(color, mv)
            .map_err(|_| "illegal move".to_string())?;
        if self.superko && mv != Move::Pass && recreates(&board) {
            return Err(
                "illegal move: it recreates an earlier position (positional superko)".into(),
            );
        }
        self.board = board;
        Ok(())
    }

    /// Plays from databases by the rule `cycles`: under [`stonelab_retro::Cycles::Tie`] a side
    /// whose own bound is not the tie value (Black with `lo <= 0`, White with `hi >= 0`) keeps the
    /// tie value instead (an endless game is as good to it as any end it could force).
    pub fn set_cycles(&mut self, cycles: stonelab_retro::Cycles) {
        self.cycles = cycles;
    }

    /// Loads a database written by `stonelab go solve --out` and checks it (rules, values: as
    /// `go query` does) and against its game, through the query index as `go query` does.
    pub fn load_database(&mut self, path: &Path) -> anyhow::Result<()> {
        let s = crate::go::query::open_solved(path, None, true)?;
        self.solved.push(Solved {
            geometry: s.geometry,
            game: s.game,
            db: s.db,
        });
        Ok(())
    }

    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[must_use]
    pub fn komi(&self) -> f64 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
    }

    /// A new empty board of this geometry (history and clocks' `time_left` go too).
    pub fn reset(&mut self, geometry: Geometry) {
        self.board = new_board(geometry);
        self.clock.forget_time_left();
    }

    pub fn set_board(&mut self, board: Board) {
        self.board = board;
    }

    /// The time of one move when no clock says otherwise (`--move-ms`, default 1000).
    #[must_use]
    pub fn move_ms(&self) -> u64 {
        self.limits.move_ms.unwrap_or(1000)
    }

    pub fn time_settings(&mut self, settings: TimeSettings) {
        self.clock.set(settings);
    }

    pub fn time_left(&mut self, color: Color, time: f64, stones: u32) {
        self.clock.time_left(color, time, stones);
    }

    /// Chooses a move for `color` and plays it (unless it resigns).
    pub fn genmove(&mut self, color: Color) -> Decision {
        let decision = self.choose_move(color, false);
        if let Decision::Play(mv) = decision {
            self.try_play(color, mv)
                .expect("the engine chose a legal move");
        }
        decision
    }

    /// Chooses a move for `color` without playing it. `cleanup` (KGS's `kgs-genmove_cleanup`):
    /// never resign, and never pass while the opponent has stones the ownership estimate finds
    /// dead (play on to capture them, as a server's cleanup phase asks).
    pub fn choose_move(&mut self, color: Color, cleanup: bool) -> Decision {
        let start = Instant::now();
        let (mut board, passes) = self.position_for(color);
        let decision = if cleanup {
            self.cleanup_move(&board, passes, color, start)
        } else {
            self.superko_move(&board, passes)
                .or_else(|| self.solved_move(&mut board, passes))
                .map(Decision::Play)
                .unwrap_or_else(|| self.search_move(&board, passes, color, start))
        };
        match decision {
            // A stone the search or the simple-ko database chose that superko forbids: a pass
            // (always legal).
            Decision::Play(mv @ Move::Play(_)) if self.superko => {
                let mut after = self.board.clone();
                let recreated = after.try_play_as(color, mv).is_ok() && recreates(&after);
                if recreated {
                    eprintln!(
                        "stonelab: {} would recreate an earlier position: passing",
                        stonelab_go::vertex::format_move(mv, self.board.geometry())
                    );
                    Decision::Play(Move::Pass)
                } else {
                    decision
                }
            }
            d => d,
        }
    }

    /// Under positional superko with a database for this board: a move that keeps the exact value
    /// of the position with the game's history. `None` without superko or a database, when
    /// `board` is not the game's board (GTP's move out of turn), or past [`SUPERKO_NODES`].
    fn superko_move(&self, board: &Board, passes: u32) -> Option<Move> {
        use stonelab_retro::superko;
        if !self.superko || board.to_move() != self.board.to_move() {
            return None;
        }
        let solved = self.solved_for(board)?;
        let tie = |b: &Board, pass: bool| {
            solved
                .game
                .state_of(b, pass)
                .ok()
                .and_then(|s| solved.db.get(s))
                .map(stonelab_retro::Bounds::tie_value)
        };
        let mut setup = board.to_setup();
        setup.ko = None;
        let here = Board::from_setup(setup, superko::RULES).ok()?;
        let history = earlier_boards(&self.board);
        let start = Instant::now();
        let mut search = superko::Search::new(*board.geometry())
            .with_hint(&tie)
            .with_node_limit(SUPERKO_NODES);
        let guess = tie(&here, passes > 0).unwrap_or(0);
        match search.value(&here, passes > 0, &history, guess) {
            Ok((v, best)) => {
                eprintln!(
                    "stonelab: positional superko value {v:+} ({} nodes, {:.3} s)",
                    search.stats.nodes,
                    start.elapsed().as_secs_f64()
                );
                Some(best.unwrap_or(Move::Pass))
            }
            Err(e) => {
                eprintln!("stonelab: superko search: {e}; the simple-ko database decides");
                None
            }
        }
    }

    /// The loaded database for this board's size.
    fn solved_for(&self, board: &Board) -> Option<&Solved> {
        self.solved.iter().find(|s| {
            (s.geometry.rows(), s.geometry.cols())
                == (board.geometry().rows(), board.geometry().cols())
        })
    }

    /// The position to search with `color` to move (GTP lets a side move twice: then the stones
    /// as they stand, `color` to move, no ko ban) and the passes before it.
    /// The scale of the playouts' margin term on `board` ([`SearchLimits::score_scale`]).
    fn score_scale(&self, board: &Board) -> f32 {
        self.limits
            .score_scale
            .unwrap_or_else(|| mcts::default_score_scale(board.geometry().area()))
    }

    fn position_for(&self, color: Color) -> (Board, u32) {
        if self.board.to_move() == color {
            return (self.board.clone(), self.board.passes());
        }
        let mut setup = self.board.to_setup();
        setup.to_move = color;
        setup.ko = None;
        (
            Board::from_setup(setup, Rules::STANDARD).expect("a legal position"),
            0,
        )
    }

    /// A search of the position with `color` to move for `time` (or the fixed playouts, when
    /// set), for live analysis: the root moves' statistics. `round` varies the playouts' seed.
    pub fn analyze(
        &self,
        color: Color,
        time: std::time::Duration,
        round: u64,
    ) -> mcts::SearchResult {
        let (board, passes) = self.position_for(color);
        let config = SearchConfig {
            komi: self.komi,
            threads: self.limits.threads,
            shared_tree: self.limits.shared_tree,
            playouts: self.limits.playouts,
            deadline: Some(crate::common::deadline(time)),
            seed: board.hash() ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            early_stop: false,
            model: self.limits.model.clone(),
            model_weight: self.limits.model_weight,
            playout_remote: self.limits.playout_remote,
            last_good_reply: self.limits.last_good_reply,
            two_liberties: self.limits.two_liberties,
            tree_policy: self.limits.tree_policy,
            second_last_shapes: self.limits.second_last_shapes,
            nakade: self.limits.nakade,
            ko_fights: self.limits.ko_fights,
            local_rate: self.limits.local_rate,
            score_weight: self.limits.score_weight,
            global_capture: self.limits.global_capture,
            sacrifices: self.limits.sacrifices,
            score_scale: self.score_scale(&board),
            score_centre: 0.0,
            hand_priors: self.limits.hand_priors,
        };
        mcts::search(&board, passes, &config)
    }

    /// The cleanup phase's move: the search's move, except that a pass (or a resignation) is
    /// replaced by the most visited move that can change the count while the opponent has dead
    /// stones left; a pass when it has none or no such move exists.
    fn cleanup_move(&self, board: &Board, passes: u32, color: Color, start: Instant) -> Decision {
        let g = *board.geometry();
        let them = board.stones(color.opponent());
        let dead = ownership::evaluate(board, self.komi, ownership::DEFAULT_PLAYOUTS).dead & them;
        let chosen = self.search_move(board, passes, color, start);
        if dead.is_empty() {
            return match chosen {
                Decision::Resign => Decision::Play(Move::Pass),
                d => d,
            };
        }
        if let Decision::Play(Move::Play(p)) = chosen {
            return Decision::Play(Move::Play(p));
        }
        // A legal move next to a dead stone, else one in an empty region that borders them.
        let mut fallback: Option<Point> = None;
        for p in board.empty().iter() {
            let region = g.flood(stonelab_go::Bitboard::from_point(p), board.empty());
            if (g.neighbours(region) & dead).is_empty() {
                continue;
            }
            let mut trial = board.clone();
            if trial.try_play_as(color, Move::Play(p)).is_err() {
                continue;
            }
            if !(g.neighbours(stonelab_go::Bitboard::from_point(p)) & dead).is_empty() {
                return Decision::Play(Move::Play(p));
            }
            fallback.get_or_insert(p);
        }
        let best = fallback;
        Decision::Play(best.map_or(Move::Pass, Move::Play))
    }

    /// A value-keeping move from a loaded database, if one covers this position: the move towards
    /// the nearest forced end at the side's bound when [`Forcing`] finds one within
    /// [`FORCING_STATES`] ([`FORCING_STATES_IN_CYCLE`] in a repeated position), else as
    /// [`best_moves`] says (a pass first).
    fn solved_move(&self, board: &mut Board, passes: u32) -> Option<Move> {
        let solved = self.solved_for(board)?;
        let pass = passes > 0;
        let root = solved.game.state_of(board, pass).ok()?;
        let here = solved.db.get(root)?;
        let value = |s: u64| solved.db.get(s).expect("state below len");
        let own_bound = match board.to_move() {
            Color::Black => here.lo,
            Color::White => here.hi,
        };
        if self.cycles == stonelab_retro::Cycles::Tie && own_bound != here.tie_value() {
            // Under the tie rule this side only has to keep the value (a safety game: no
            // progress needed), a pass first.
            let tie = |s: u64| value(s).under(self.cycles);
            let moves = crate::go::solve::move_bounds(&solved.game, board, pass, tie).ok()?;
            let best = best_moves(board.to_move(), here.under(self.cycles), &moves);
            eprintln!(
                "stonelab: database {here}, tie value {}: keeping it",
                here.tie_value()
            );
            return best
                .iter()
                .find(|&&m| m == Move::Pass)
                .or(best.first())
                .copied();
        }
        let edges = solved.game.moves(board, pass).ok()?;
        let start = Instant::now();
        let limit = if repeats(board) {
            FORCING_STATES_IN_CYCLE
        } else {
            FORCING_STATES
        };
        if let Some(forcing) = Forcing::compute(&solved.game, value, root, limit) {
            if let Some(plies) = forcing.plies(root) {
                // The least rank; among equals a pass, then the first in point order.
                let choice = edges
                    .iter()
                    .filter_map(|&(m, e)| forcing.edge_plies(e).map(|p| (p, m != Move::Pass, m)))
                    .min_by_key(|&(p, not_pass, _)| (p, not_pass));
                if let Some((_, _, mv)) = choice {
                    eprintln!(
                        "stonelab: database {here}: forced end within {plies} plies ({} states, \
                         {:.3} s)",
                        forcing.explored(),
                        start.elapsed().as_secs_f64()
                    );
                    return Some(mv);
                }
            }
        }
        let moves = crate::go::solve::move_bounds(&solved.game, board, pass, value).ok()?;
        let best = best_moves(board.to_move(), here, &moves);
        eprintln!("stonelab: database {here}: no forced end found within {limit} states");
        if best.contains(&Move::Pass) {
            return Some(Move::Pass);
        }
        best.first().copied()
    }

    /// The centre of the playouts' margin term for a search at history length `len`
    /// ([`SearchLimits::score_centre`]): the last search's mean lead when it was one to four
    /// moves earlier in the same game (a shorter history is a new game or an undo), else 0.
    fn score_centre(&self, len: usize) -> f32 {
        if !self.limits.score_centre {
            return 0.0;
        }
        match *self
            .last_score
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            Some((at, mean)) if at < len && len <= at + 4 => mean as f32,
            _ => 0.0,
        }
    }

    fn search_move(&self, board: &Board, passes: u32, color: Color, start: Instant) -> Decision {
        let ours = |score: f64| match color {
            Color::Black => score,
            Color::White => -score,
        };
        let slice = self.clock.slice(color, board.empty().count());
        let deadline = clock::move_budget(slice, self.limits.playouts, self.limits.move_ms)
            .map(|d| crate::common::deadline_from(start, d));
        // The dynamic komi: none in a new game (a shorter history than at the last search) or
        // before its start, and none after the opponent's pass (the game may end: the pass is
        // judged by the real komi); the win rate it adapts to is the last search's.
        let len = board.history_len();
        let dynamic = self.limits.dynamic_komi
            && passes == 0
            && len >= DynamicKomi::start(board.geometry().rows() * board.geometry().cols());
        let extra = {
            let mut d = self
                .dynamic
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if len < d.moves {
                *d = DynamicKomi::default();
            }
            d.moves = len;
            if dynamic {
                *d
            } else {
                DynamicKomi::default()
            }
        };
        let config = SearchConfig {
            komi: extra.komi_for(self.komi, color),
            threads: self.limits.threads,
            shared_tree: self.limits.shared_tree,
            playouts: self.limits.playouts,
            deadline,
            // Fixed playouts replay exactly; a timed search is not reproducible anyway, and fresh
            // randomness keeps games against a deterministic opponent (GNU Go) from repeating.
            seed: board.hash()
                ^ u64::from(board.history_len() as u32)
                ^ if self.limits.playouts.is_none() || self.limits.fresh_seed {
                    fresh_seed()
                } else {
                    0
                },
            early_stop: true,
            model: self.limits.model.clone(),
            model_weight: self.limits.model_weight,
            playout_remote: self.limits.playout_remote,
            last_good_reply: self.limits.last_good_reply,
            two_liberties: self.limits.two_liberties,
            tree_policy: self.limits.tree_policy,
            second_last_shapes: self.limits.second_last_shapes,
            nakade: self.limits.nakade,
            ko_fights: self.limits.ko_fights,
            local_rate: self.limits.local_rate,
            score_weight: self.limits.score_weight,
            global_capture: self.limits.global_capture,
            sacrifices: self.limits.sacrifices,
            score_scale: self.score_scale(board),
            score_centre: self.score_centre(len),
            hand_priors: self.limits.hand_priors,
        };
        let result = if self.limits.tree_reuse {
            let mut kept = self
                .reuse
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let (result, reuse) = mcts::search_reusing(board, passes, &config, kept.take());
            *kept = Some(reuse);
            result
        } else {
            mcts::search(board, passes, &config)
        };
        if let Some(mean) = result.mean_score {
            *self
                .last_score
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some((len, mean));
        }
        let best = result.best_stats();
        if dynamic {
            let mut d = self
                .dynamic
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            d.adapt(best.win_rate());
        }
        // A log line on stderr (GTP controllers show or drop it): what the search saw.
        let seconds = start.elapsed().as_secs_f64();
        eprintln!(
            "stonelab: {color} {}: {} playouts in {seconds:.3} s ({:.0}/s), win rate {:.3}{}{}",
            stonelab_go::vertex::format_move(result.best, board.geometry()),
            result.playouts,
            result.playouts as f64 / seconds.max(1e-9),
            best.win_rate(),
            result
                .mean_score
                .map_or(String::new(), |m| format!(", mean lead {:+.1}", ours(m))),
            if extra.extra > 0.0 {
                format!(" with {} points of extra komi", extra.extra)
            } else {
                String::new()
            }
        );
        // A win rate under extra komi is no reason to resign: only the real komi's.
        if extra.extra == 0.0
            && result.playouts >= RESIGN_MIN_PLAYOUTS
            && best.outright.unwrap_or_else(|| best.win_rate()) < RESIGN_WIN_RATE
        {
            return Decision::Resign;
        }
        // Pass only when the search agrees and both counts win: the area count as the board
        // stands (what a referee that removes nothing sees, e.g. `go match` between engines
        // without an independent `final_score`) and the count with the dead stones removed (as
        // the Monte-Carlo ownership estimate finds them, as GNU Go's `final_score` removes them).
        // Under area scoring, capturing dead stones instead costs nothing. The estimate is made
        // only when a pass is in question.
        let pass_in_question = passes > 0 || result.best == Move::Pass;
        let can_pass = pass_in_question
            && best.win_rate() >= PASS_WIN_RATE
            && ours(board.area_score(self.komi)) > 0.0
            && ours(ownership::evaluate(board, self.komi, ownership::DEFAULT_PLAYOUTS).score) > 0.0;
        // Only a move that can change the count may replace a pass the search likes: not one
        // inside an empty region that only our stones border (our area already, and no capture
        // from there). Such a move gains nothing under area scoring and may fill the eye space a
        // group lives by.
        let them = board.stones(color.opponent());
        let g = *board.geometry();
        let useful = |mv: Move| match mv {
            Move::Pass => false,
            Move::Play(p) => {
                let region = g.flood(stonelab_go::Bitboard::from_point(p), board.empty());
                !(g.neighbours(region) & them).is_empty()
            }
        };
        Decision::Play(choose(&result, passes, can_pass, useful))
    }
}

/// The move to play from a search `result`, `passes` consecutive passes before it: a pass after
/// the opponent's pass when `can_pass`; when the search likes the pass best but passing is not
/// allowed, the most visited `useful` move whose win rate is within [`PLAY_ON_MARGIN`] of the
/// pass's (when every move loses against passing, playing on only fills one's own eye space),
/// and a pass when there is none; otherwise the search's best move.
fn choose(
    result: &mcts::SearchResult,
    passes: u32,
    can_pass: bool,
    useful: impl Fn(Move) -> bool,
) -> Move {
    if passes > 0 && can_pass {
        return Move::Pass;
    }
    if result.best == Move::Pass && !can_pass {
        let pass = result.best_stats();
        let mut other: Option<mcts::MoveStats> = None;
        for m in result
            .moves
            .iter()
            .filter(|m| m.mv != Move::Pass && useful(m.mv))
        {
            if other.is_none_or(|o| m.visits > o.visits) {
                other = Some(*m);
            }
        }
        if let Some(o) = other.filter(|o| o.win_rate() >= pass.win_rate() - PLAY_ON_MARGIN) {
            return o.mv;
        }
    }
    result.best
}

/// A random seed from the standard library's per-process hash keys and the clock.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// Whether the stones of `board` stood so on an earlier board of its game.
fn recreates(board: &Board) -> bool {
    let mut past = board.clone();
    while past.undo().is_ok() {
        if past.same_stones(board) {
            return true;
        }
    }
    false
}

/// The boards before `board` in its game, oldest first.
fn earlier_boards(board: &Board) -> Vec<Board> {
    let mut past = board.clone();
    let mut out = Vec::new();
    while past.undo().is_ok() {
        out.push(past.clone());
    }
    out.reverse();
    out
}

/// Whether the position (stones, side to move, ko) occurred before in the board's history.
fn repeats(board: &Board) -> bool {
    let here = board.hash();
    let mut past = board.clone();
    while past.undo().is_ok() {
        if past.hash() == here {
            return true;
        }
    }
    false
}

fn new_board(geometry: Geometry) -> Board {
    Board::new(geometry, Rules::STANDARD)
}

#[cfg(test)]
mod tests {
    use super::*;
    use stonelab_go::Point;

    fn stats(mv: Move, visits: u64, rate: f64) -> mcts::MoveStats {
        mcts::MoveStats {
            mv,
            visits,
            wins: rate * visits as f64,
            outright: Some(rate),
        }
    }

    #[test]
    fn play_on_rule() {
        let (a, b, c) = (
            Move::Play(Point::new(0, 0)),
            Move::Play(Point::new(0, 1)),
            Move::Play(Point::new(0, 2)),
        );
        let result = |moves: Vec<mcts::MoveStats>| mcts::SearchResult {
            best: moves.iter().max_by_key(|m| m.visits).map(|m| m.mv).unwrap(),
            playouts: moves.iter().map(|m| m.visits).sum(),
            moves,
            mean_score: None,
        };
        let everything = |_: Move| true;
        let not_a = |m: Move| m != a;
        // The search likes the pass, passing is not allowed: the most visited useful move close
        // enough to the pass is played.
        let r = result(vec![
            stats(a, 300, 0.50),
            stats(b, 200, 0.49),
            stats(c, 100, 0.50),
            stats(Move::Pass, 400, 0.50),
        ]);
        assert_eq!(choose(&r, 0, false, everything), a);
        assert_eq!(choose(&r, 0, false, not_a), b);
        assert_eq!(choose(&r, 1, false, |_| false), Move::Pass);
        // A useful move far worse than the pass: pass rather than play it.
        let r = result(vec![
            stats(a, 300, 0.50),
            stats(b, 200, 0.40),
            stats(Move::Pass, 400, 0.50),
        ]);
        assert_eq!(choose(&r, 1, false, not_a), Move::Pass);
        // Passing allowed: after the opponent's pass, pass whatever the search likes.
        let r = result(vec![stats(a, 500, 0.9), stats(Move::Pass, 400, 0.9)]);
        assert_eq!(choose(&r, 1, true, everything), Move::Pass);
        assert_eq!(choose(&r, 0, true, everything), a);
        assert_eq!(choose(&r, 0, false, everything), a);
    }

    /// The margin term's centre is the last search's mean lead for the next one to four moves
    /// of the same game, and 0 otherwise or without `--score-centre expected`.
    #[test]
    fn the_score_centre_is_the_last_search_of_the_same_game() {
        let policy = mcts::TreePolicy::default();
        let words = ["--playouts", "400", "--score-centre", "expected"];
        let args = crate::go::parse_args::<super::super::Args>("gtp", &words).unwrap();
        let mut engine = Engine::new(super::super::limits(&args, None, policy));
        engine.reset(Geometry::new(5, 5).unwrap());
        engine.set_komi(0.5);
        assert_eq!(engine.score_centre(0), 0.0, "nothing searched yet");
        engine
            .try_play(Color::Black, Move::Play(Point::new(2, 2)))
            .unwrap();
        let len = engine.board().history_len();
        assert!(matches!(engine.genmove(Color::White), Decision::Play(_)));
        let (at, mean) = engine
            .last_score
            .lock()
            .unwrap()
            .expect("a search's mean lead");
        assert_eq!(at, len);
        assert!(mean.is_finite() && mean.abs() <= 25.5, "{mean}");
        // One to four moves later in the same game the centre is that mean; not at the same
        // length or before it (another game, an undo) nor further on.
        for later in 1..=4 {
            assert_eq!(engine.score_centre(len + later), mean as f32);
        }
        for other in [len, len - 1, len + 5] {
            assert_eq!(engine.score_centre(other), 0.0, "{other}");
        }
        // Off by default: always 0.
        let plain = crate::go::parse_args::<super::super::Args>("gtp", &["--playouts", "400"]);
        let mut engine = Engine::new(super::super::limits(&plain.unwrap(), None, policy));
        engine.reset(Geometry::new(5, 5).unwrap());
        engine.genmove(Color::Black);
        let len = engine.board().history_len();
        assert_eq!(engine.score_centre(len + 1), 0.0);
    }

    /// The dynamic komi climbs a point a search while the win rate is above the green line,
    /// drops four below the orange one (and caps the climb there), ends below one half after a
    /// drop, and always counts against the searching side.
    #[test]
    fn the_dynamic_komi_follows_the_win_rate() {
        let mut d = DynamicKomi::default();
        d.adapt(0.7);
        assert_eq!(d.extra, 0.0, "no climb below the green line");
        for _ in 0..6 {
            d.adapt(0.9);
        }
        assert_eq!((d.extra, d.ratchet), (6.0, f64::INFINITY));
        d.adapt(0.82);
        assert_eq!(d.extra, 6.0, "between the lines it stays");
        d.adapt(0.75);
        assert_eq!((d.extra, d.ratchet), (2.0, 2.0));
        for _ in 0..3 {
            d.adapt(0.95);
        }
        assert_eq!(d.extra, 2.0, "the ratchet caps the climb");
        d.adapt(0.4);
        assert_eq!((d.extra, d.ratchet), (0.0, 0.0));
        d.adapt(0.99);
        assert_eq!(d.extra, 0.0, "ended for the game");
        let d = DynamicKomi {
            extra: 3.0,
            ..DynamicKomi::default()
        };
        assert_eq!(d.komi_for(7.0, Color::Black), 10.0);
        assert_eq!(d.komi_for(7.0, Color::White), 4.0);
        assert_eq!(DynamicKomi::start(81), 16);
    }
}
