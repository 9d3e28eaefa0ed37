//! The solver that stores nothing per edge: retrograde analysis by threshold counting over a dense
//! value table, on timely dataflow.
//!
//! # What it computes
//!
//! The same bounds as [`crate::dataflow`] and [`crate::sweep`]: `lo(s)`, the best end score Black
//! can force, is the largest threshold `t` with `s` in `W_t`, the least set such that a Black
//! state is in it when one of its moves ends the game with a score `>= t` or leads into it, and a
//! White state when every move does (for a chain of values, thresholding commutes with max and
//! min, so the least fixed point of the minimax operator is the threshold decomposition of these
//! least fixed points). `W_t` only grows as `t` falls, so one pass from the highest score down
//! computes every `W_t` in turn with a counter per White state: the number of its distinct
//! successors (the end of the game counts as one) not yet in `W`. A state entering `W` at
//! threshold `t` gets `lo = t` and, by un-move generation ([`crate::space::Space::predecessors`]),
//! tells each predecessor: a Black one enters at once, a White one counts down and enters at zero.
//! `hi` is the mirror image (White attacks, thresholds rising). Each state enters each pass at most
//! once, so each state's predecessors are generated at most twice over the whole solve, and each
//! state's successors once (to count them).
//!
//! # Memory
//!
//! Per state: `lo`, `hi` (one `i8` each: scores lie within the board's points) and the two
//! counters (one `u8` each): 4 bytes, each bound next to its counter so that a notice touches one
//! cache line. Per position: its score (1 byte). Two frontier bitsets (2
//! bits per state). The state table is memory-mapped.
//!
//! # Distribution
//!
//! The states are cut into stripes of [`STRIPE`] states; worker `w` of `W` owns the stripes
//! `w, w + W, w + 2W, ...` (so that each worker gets its share of every kind of state: the
//! frontier of a round lies in a few regions of the numbering, and contiguous halves left one
//! worker idle for much of a round). Rounds are
//! bulk-synchronous: each worker generates the predecessors of its frontier and sends each to its
//! owner (a worker's own are applied in place); timely's progress tracking ends the round when
//! every message is applied everywhere, and a small control message from every worker to every
//! worker carries the frontier sizes, so that all workers decide together that a threshold is done.
//! The order in which a round's messages are applied does not matter: a state enters `W_t` exactly
//! when its counter reaches zero (or, for the attacker, at the first message), whatever the order.
//! So a run on any number of threads and processes computes the same table and writes the same
//! file.
//!
//! # Checkpoints
//!
//! At a round boundary chosen by worker 0 (every `checkpoint_every`, and never more often than
//! ten times the last checkpoint's cost; a zero `checkpoint_every` means after every round, with
//! no cost rule, so that a test's checkpoints fall on fixed rounds), every worker writes its
//! arrays, frontier and position in the solve to `w{i}of{n}.g{gen}.cnt` in the checkpoint folder
//! (temporary name, sync, rename; CRC-32 of the body; the run's identity: game key, states,
//! layout). A worker keeps its last two generations; a resume takes, over all workers, the newest
//! generation that every worker has (agreed by a control round before any work), so a kill at any
//! moment, even in the middle of writing, resumes from a consistent cut.

use std::cell::RefCell;
use std::io::{BufWriter, Read, Write};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use stonelab_go::prefetch;
use stonelab_go::statefile::SelectCursor;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

use crate::dataflow::Workers;
use crate::db;
use crate::space::{Space, SpaceError, Succ};
use crate::{Bounds, NO_HI, NO_LO};

/// `lo` not (yet) forced.
const NONE_LO: i8 = i8::MIN;
/// `hi` not (yet) forced.
const NONE_HI: i8 = i8::MAX;

/// Which bound a pass computes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Counting every state's distinct successors.
    Degrees,
    /// `lo`: Black attacks, thresholds from the highest score down.
    Lo,
    /// `hi`: White attacks, thresholds from the lowest score up.
    Hi,
    /// Writing the table.
    Done,
}

impl Stage {
    fn code(self) -> u8 {
        match self {
            Stage::Degrees => 0,
            Stage::Lo => 1,
            Stage::Hi => 2,
            Stage::Done => 3,
        }
    }

    fn from_code(c: u8) -> Option<Stage> {
        Some(match c {
            0 => Stage::Degrees,
            1 => Stage::Lo,
            2 => Stage::Hi,
            3 => Stage::Done,
            _ => return None,
        })
    }
}

/// What a solve reports as it goes (from worker 0).
#[derive(Clone, Debug)]
pub enum Event {
    /// A worker started: with several processes, every process is connected to the others.
    Started { worker: usize },
    /// Worker 0 counted the successors of this many of its states.
    Degrees { done: u64, owned: u64, seconds: f64 },
    /// A round ended.
    Round {
        stage: Stage,
        threshold: i16,
        round: u64,
        /// States whose predecessors were generated this round (all workers).
        frontier: u64,
        /// States with `lo` decided plus states with `hi` decided, of `2 * states`.
        decided: u64,
        states: u64,
        seconds: f64,
    },
    /// Every worker wrote checkpoint generation `generation`.
    Checkpoint { generation: u64, seconds: f64 },
}

/// Where the values go.
#[derive(Clone, Debug)]
pub enum Output {
    /// Returned in [`Outcome::values`] (on the process of worker 0).
    Memory,
    /// Written as a results database by worker 0 (metadata JSON given).
    File { path: PathBuf, meta: String },
    /// Both.
    Both { path: PathBuf, meta: String },
}

/// Options of [`solve`].
#[derive(Clone)]
pub struct Options {
    pub workers: Workers,
    pub checkpoint_dir: Option<PathBuf>,
    pub checkpoint_every: Duration,
    /// Identifies the game (board, rules, counts); stored in and checked against checkpoints.
    pub game_key: String,
    pub on_event: Option<Arc<dyn Fn(Event) + Send + Sync>>,
    pub output: Output,
}

impl Options {
    /// `n` threads, values in memory, no checkpoints.
    #[must_use]
    pub fn threads(n: usize) -> Options {
        Options {
            workers: Workers::Threads(n.max(1)),
            checkpoint_dir: None,
            checkpoint_every: Duration::from_secs(600),
            game_key: String::new(),
            on_event: None,
            output: Output::Memory,
        }
    }
}

/// Why a solve failed.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error("timely dataflow could not start: {0}")]
    Timely(String),
    #[error("{0}")]
    Space(#[from] SpaceError),
    #[error("checkpoint {path}: {why}")]
    Checkpoint { path: PathBuf, why: String },
    #[error("database: {0}")]
    Db(#[from] db::DbError),
    #[error("a worker failed: {0}")]
    Worker(String),
}

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Bounds of every state (process of worker 0, [`Output::Memory`] or `Both`).
    pub values: Option<Vec<Bounds>>,
    /// Rounds (bulk-synchronous steps) over the whole solve, resumed runs included.
    pub rounds: u64,
    /// The checkpoint generation resumed from.
    pub resumed: Option<u64>,
    /// Whether this process wrote the database.
    pub wrote: bool,
    /// Moves out of all states (with repeats), all workers.
    pub moves: u64,
    /// Predecessor notices between and within workers.
    pub traffic: Traffic,
}

/// Bytes the solver needs on one machine running all workers, for a board with `positions`
/// reduced positions and `ko_states` ko states, the state table's file size `table_bytes` and
/// `memory` when the values are also gathered in memory: 4 per state (bounds and counters),
/// 1/4 per state of frontier bits, 1 per position (scores), 8 per ko state (the ko index), the
/// mapped table, and 4 more per state in memory mode (the gathered `Bounds`). Tested against
/// measured peaks in `tests/go_solve.rs`.
#[must_use]
pub fn estimated_bytes(positions: u64, ko_states: u64, table_bytes: u64, memory: bool) -> u64 {
    let states = 4 * positions + ko_states;
    let mut b = states * 4 + states / 4 + positions + 8 * ko_states + table_bytes;
    if memory {
        b += 4 * states;
    }
    // Buffers, thread stacks, the allocator's slack and the program itself.
    b + b / 20 + (24 << 20)
}

/// States per stripe of the layout: a multiple of 64 (a frontier word never spans two stripes)
/// and of 4 (a position's four states share one).
pub const STRIPE: u64 = 1 << 12;

/// The stripes of worker `index` of `peers` over `states` states, and where each state lives.
#[derive(Clone, Copy, Debug)]
struct Layout {
    index: usize,
    peers: usize,
    states: u64,
    owned: u64,
}

impl Layout {
    fn new(index: usize, peers: usize, states: u64) -> Layout {
        let mut at = Layout {
            index,
            peers,
            states,
            owned: 0,
        };
        at.owned = at.owned_below(states);
        at
    }

    /// Owned states below `n`.
    fn owned_below(&self, n: u64) -> u64 {
        let (full, rest) = (n / STRIPE, n % STRIPE);
        let (w, i) = (self.peers as u64, self.index as u64);
        let stripes = if full > i { (full - i - 1) / w + 1 } else { 0 };
        stripes * STRIPE + if full % w == i { rest } else { 0 }
    }

    fn owned(&self) -> usize {
        self.owned as usize
    }

    /// The worker that owns state `s`.
    #[inline]
    fn owner(&self, s: u64) -> u64 {
        (s / STRIPE) % self.peers as u64
    }

    #[inline]
    fn owns(&self, s: u64) -> bool {
        self.owner(s) == self.index as u64
    }

    /// The owned state `s`'s place in this worker's arrays.
    #[inline]
    fn local(&self, s: u64) -> usize {
        ((s / STRIPE / self.peers as u64) * STRIPE + s % STRIPE) as usize
    }

    /// The state at place `l` of this worker's arrays.
    #[inline]
    fn global(&self, l: usize) -> u64 {
        let l = l as u64;
        ((l / STRIPE) * self.peers as u64 + self.index as u64) * STRIPE + l % STRIPE
    }
}

/// One bound of a state and its counter: the state's successors not yet known to be in `W_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
struct Slot {
    val: i8,
    cnt: u8,
}

/// Per-worker tables.
struct Local {
    at: Layout,
    lo: Vec<Slot>,
    hi: Vec<Slot>,
    /// Scores of the owned positions (by their place: the place of their first state / 4), for
    /// the end-of-game seeds.
    pscore: Vec<i8>,
    cur: Vec<u64>,
    next: Vec<u64>,
    stage: Stage,
    t: i16,
    round: u64,
    /// States of this worker decided in the stage so far (lo and hi together).
    decided: u64,
    /// Control messages received this round.
    inbox: Vec<Report>,
    /// Moves (with repeats) out of the owned states, counted with the degrees.
    moves: u64,
    /// The round's timestamp: messages stamped later come from workers already in the next
    /// round and wait here until this worker gets there.
    epoch: u64,
    early_hits: Vec<u64>,
    early_ctl: Vec<Report>,
    early_pieces: Vec<Piece>,
    /// Pieces of the gathered table (worker 0).
    writer: Option<db::Writer>,
    gathered: Option<Vec<Bounds>>,
    space: Arc<Space>,
    error: Option<String>,
}

impl Local {
    /// A predecessor `p` (owned here) learns that one of its successors entered `W_t`.
    #[inline]
    fn hit(&mut self, p: u64) {
        let l = self.at.local(p);
        let (slots, none, attacker) = match self.stage {
            Stage::Lo => (&mut self.lo, NONE_LO, 0),
            Stage::Hi => (&mut self.hi, NONE_HI, 1),
            // A faster worker is already in the first round while this one still counts its
            // successors: keep the message for the first round (dropping it lost the update, a
            // race seen as a wrong `lo` on 1x6 and 1x7 with two workers).
            Stage::Degrees => {
                self.early_hits.push(p);
                return;
            }
            Stage::Done => return,
        };
        let slot = &mut slots[l];
        if slot.val != none {
            return;
        }
        if self.space.side(p) != attacker {
            if slot.cnt == 0 {
                self.error = Some(format!(
                    "state {p}: counter below zero (inconsistent moves)"
                ));
                return;
            }
            slot.cnt -= 1;
            if slot.cnt != 0 {
                return;
            }
        }
        slot.val = self.t as i8;
        self.next[l / 64] |= 1 << (l % 64);
        self.decided += 1;
    }

    /// Asks for the cache line of `p`'s slot in the stage's bound (a hint).
    #[inline]
    fn prefetch_slot(&self, p: u64) {
        let slots = if self.stage == Stage::Hi {
            &self.hi
        } else {
            &self.lo
        };
        prefetch(&slots[self.at.local(p)]);
    }

    /// [`Local::hit`] for each of `ps` (all owned here), their slots fetched ahead: the slots are
    /// scattered over the whole table, and a notice waiting on memory is most of a notice's cost.
    fn hit_all(&mut self, ps: &[u64]) {
        const AHEAD: usize = 16;
        for &p in ps.iter().take(AHEAD) {
            self.prefetch_slot(p);
        }
        for (i, &p) in ps.iter().enumerate() {
            if let Some(&q) = ps.get(i + AHEAD) {
                self.prefetch_slot(q);
            }
            self.hit(p);
        }
    }

    /// The end of the game at score `t` reaches every state after a pass on a position scored `t`.
    fn seeds(&mut self) {
        let at = self.at;
        let t = self.t as i8;
        for i in 0..self.pscore.len() {
            if self.pscore[i] != t {
                continue;
            }
            let pos = at.global(4 * i) / 4;
            for side in 0..2 {
                self.hit(4 * pos + 2 * side + 1);
            }
        }
    }

    /// The first threshold of a stage and the step to the next, and the last.
    fn thresholds(&self, stage: Stage) -> (i16, i16, i16) {
        let n = self.space.max_score();
        match stage {
            Stage::Lo => (n, -1, -n),
            _ => (-n, 1, n),
        }
    }
}

type Timed<T> = timely::container::CapacityContainerBuilder<Vec<T>>;
/// What a worker tells every worker at the end of a round.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
struct Report {
    source: u64,
    /// States whose predecessors the worker generated this round.
    frontier: u64,
    /// States of the worker decided in the stage so far.
    decided: u64,
    /// What the barrier asks: a checkpoint, the agreed generation, a written database.
    flag: u64,
    /// Moves (with repeats) out of the worker's states.
    moves: u64,
    /// Predecessor notices this round sent to other workers, and applied by the worker itself.
    sent: u64,
    kept: u64,
}
/// (destination worker, report)
type Ctl = (u64, Report);

impl Report {
    fn flag(flag: u64) -> Report {
        Report {
            flag,
            ..Report::default()
        }
    }
}

/// The predecessor notices of a solve, summed over all workers (rounds of this run only: a
/// resumed run counts from its checkpoint). Each notice is one `u64` state number.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Notices sent to another worker's states (over the network when that worker is in
    /// another process).
    pub sent: u64,
    /// Notices a worker applied to its own states.
    pub kept: u64,
    /// The most notices sent to other workers in one round.
    pub max_round_sent: u64,
    /// Rounds counted.
    pub rounds: u64,
    /// Frontier states (whose predecessors were generated) of each worker over those rounds: the
    /// balance of the rounds' work.
    pub frontier_by_worker: Vec<u64>,
    /// The largest frontier of a worker in each round, summed over the rounds: the rounds' work
    /// on the critical path (every worker waits for the slowest at each round's end).
    pub slowest_frontier: u64,
}

impl Traffic {
    fn add(&mut self, inbox: &[Report]) {
        let sent: u64 = inbox.iter().map(|m| m.sent).sum();
        self.sent += sent;
        self.kept += inbox.iter().map(|m| m.kept).sum::<u64>();
        self.max_round_sent = self.max_round_sent.max(sent);
        self.rounds += 1;
        self.slowest_frontier += inbox.iter().map(|m| m.frontier).max().unwrap_or(0);
        for m in inbox {
            let w = m.source as usize;
            if self.frontier_by_worker.len() <= w {
                self.frontier_by_worker.resize(w + 1, 0);
            }
            self.frontier_by_worker[w] += m.frontier;
        }
    }
}
/// (first state, bytes: lo, hi as little-endian i16 per state)
type Piece = (u64, Vec<u8>);

const CHUNK: usize = 1 << 12;
const PIECE: u64 = STRIPE;

/// Solves every state of `space`.
pub fn solve(space: Arc<Space>, options: Options) -> Result<Outcome, SolveError> {
    if let Some(dir) = &options.checkpoint_dir {
        std::fs::create_dir_all(dir).map_err(|e| SolveError::Checkpoint {
            path: dir.clone(),
            why: e.to_string(),
        })?;
    }
    let config = workers_config(&options.workers);
    let opts = options.clone();
    let guards = timely::execute(config, move |worker| {
        if let Some(f) = &opts.on_event {
            f(Event::Started {
                worker: worker.index(),
            });
        }
        run_worker(worker, space.clone(), &opts).map_err(|e| e.to_string())
    })
    .map_err(SolveError::Timely)?;
    let mut outcome = Outcome {
        values: None,
        rounds: 0,
        resumed: None,
        wrote: false,
        moves: 0,
        traffic: Traffic::default(),
    };
    for result in guards.join() {
        let w = result
            .map_err(SolveError::Worker)?
            .map_err(SolveError::Worker)?;
        outcome.rounds = outcome.rounds.max(w.rounds);
        outcome.resumed = outcome.resumed.or(w.resumed);
        outcome.wrote |= w.wrote;
        outcome.moves = outcome.moves.max(w.moves);
        // Every worker sums the same reports.
        outcome.traffic = w.traffic;
        if w.values.is_some() {
            outcome.values = w.values;
        }
    }
    Ok(outcome)
}

fn workers_config(w: &Workers) -> timely::Config {
    use timely::{CommunicationConfig, WorkerConfig};
    let communication = match w {
        Workers::Threads(1) => CommunicationConfig::Thread,
        Workers::Threads(n) => CommunicationConfig::Process(*n),
        Workers::Cluster {
            threads,
            process,
            addresses,
        } => CommunicationConfig::Cluster {
            threads: *threads,
            process: *process,
            addresses: addresses.clone(),
            report: false,
            zerocopy: false,
        },
    };
    timely::Config {
        communication,
        worker: WorkerConfig::default(),
    }
}

struct WorkerOutcome {
    moves: u64,
    traffic: Traffic,
    values: Option<Vec<Bounds>>,
    rounds: u64,
    resumed: Option<u64>,
    wrote: bool,
}

/// The channels of one worker: inputs, and the probe that ends a round.
struct Net {
    hits: InputHandle<u64, Timed<u64>>,
    ctl: InputHandle<u64, Timed<Ctl>>,
    pieces: InputHandle<u64, Timed<Piece>>,
    probe: ProbeHandle<u64>,
    epoch: u64,
}

impl Net {
    /// Ends the round: every message sent so far is applied everywhere when this returns, and the
    /// control messages of every worker are in `local.inbox`.
    fn barrier(
        &mut self,
        worker: &mut timely::worker::Worker,
        local: &Rc<RefCell<Local>>,
        report: Report,
    ) -> Vec<Report> {
        let (at, moves) = {
            let l = local.borrow();
            (l.at, l.moves)
        };
        let report = Report {
            source: at.index as u64,
            moves,
            ..report
        };
        for dest in 0..at.peers as u64 {
            self.ctl.send((dest, report));
        }
        self.epoch += 1;
        self.hits.advance_to(self.epoch);
        self.ctl.advance_to(self.epoch);
        self.pieces.advance_to(self.epoch);
        let probe = self.probe.clone();
        let e = self.epoch;
        worker.step_while(|| probe.less_than(&e));
        let mut l = local.borrow_mut();
        l.epoch = e;
        let mut inbox = std::mem::take(&mut l.inbox);
        inbox.sort_unstable();
        inbox
    }
}

fn run_worker(
    worker: &mut timely::worker::Worker,
    space: Arc<Space>,
    opts: &Options,
) -> Result<WorkerOutcome, SolveError> {
    let started = Instant::now();
    let at = Layout::new(worker.index(), worker.peers(), space.num_states());
    let owned = at.owned();
    // The positions whose four states are owned here.
    let positions = at.owned_below(4 * space.positions()) / 4;
    let local = Rc::new(RefCell::new(Local {
        at,
        lo: vec![
            Slot {
                val: NONE_LO,
                cnt: 0
            };
            owned
        ],
        hi: vec![
            Slot {
                val: NONE_HI,
                cnt: 0
            };
            owned
        ],
        pscore: vec![0; positions as usize],
        cur: vec![0; owned.div_ceil(64)],
        next: vec![0; owned.div_ceil(64)],
        stage: Stage::Degrees,
        t: 0,
        round: 0,
        decided: 0,
        inbox: Vec::new(),
        moves: 0,
        epoch: 0,
        early_hits: Vec::new(),
        early_ctl: Vec::new(),
        early_pieces: Vec::new(),
        writer: None,
        gathered: None,
        space: space.clone(),
        error: None,
    }));
    let mut net = build(worker, &local, at);
    let emit = |e: Event| {
        if at.index == 0 {
            if let Some(f) = &opts.on_event {
                f(e);
            }
        }
    };

    // Resume: every worker names the newest checkpoint generation it has; all take the newest
    // that every worker has.
    let ckpt = opts.checkpoint_dir.as_ref().map(|d| Checkpoints {
        dir: d.clone(),
        key: opts.game_key.clone(),
        at,
    });
    let mine = match &ckpt {
        Some(c) => c.generations()?,
        None => Vec::new(),
    };
    let newest = mine.last().copied().unwrap_or(0);
    let inbox = net.barrier(worker, &local, Report::flag(newest));
    let agreed = inbox.iter().map(|m| m.flag).min().unwrap_or(0);
    let mut generation = inbox.iter().map(|m| m.flag).max().unwrap_or(0);
    let mut resumed = None;
    if agreed > 0 {
        let c = ckpt.as_ref().expect("generations come from a folder");
        c.load(agreed, &mut local.borrow_mut())?;
        // Newer generations than the agreed one are from a cut that not every worker finished.
        for g in mine.iter().filter(|&&g| g > agreed) {
            c.remove(*g);
        }
        generation = agreed;
        resumed = Some(agreed);
    } else {
        if let Some(c) = &ckpt {
            c.remove_all()?;
        }
        degrees(worker, &space, &local, &emit, started)?;
        let mut l = local.borrow_mut();
        let (first, _, _) = l.thresholds(Stage::Lo);
        l.stage = Stage::Lo;
        l.t = first;
        l.seeds();
    }

    let mut last_ckpt = Instant::now();
    let mut ckpt_cost = Duration::ZERO;
    let mut moves = 0u64;
    let mut traffic = Traffic::default();
    let mut preds = Vec::new();
    let mut mine: Vec<u64> = Vec::new();
    let mut cursor = SelectCursor::default();
    loop {
        // The frontier of this round is what the last one added.
        let frontier = {
            let mut l = local.borrow_mut();
            if l.stage == Stage::Done {
                break;
            }
            let l = &mut *l;
            std::mem::swap(&mut l.cur, &mut l.next);
            l.next.iter_mut().for_each(|w| *w = 0);
            l.catch_up();
            l.cur.iter().map(|w| u64::from(w.count_ones())).sum::<u64>()
        };
        // Generate the frontier's predecessors; apply the own, send the others.
        let words = local.borrow().cur.len();
        let (mut sent, mut kept) = (0u64, 0u64);
        // The channels are served (`worker.step`) every CHUNK frontier states, not every CHUNK
        // states scanned: a step with several workers costs microseconds, and most rounds' frontiers
        // are sparse (stepping by the scan cost 3 of 10 s on 4x4 with two workers).
        let mut since_step = 0usize;
        let mut w = 0;
        while w < words {
            let mut end = w;
            {
                let mut l = local.borrow_mut();
                while end < words && since_step < CHUNK {
                    let wi = end;
                    end += 1;
                    let mut word = l.cur[wi];
                    since_step += word.count_ones() as usize;
                    while word != 0 {
                        let s = at.global(wi * 64 + word.trailing_zeros() as usize);
                        word &= word - 1;
                        space.predecessors(s, &mut cursor, &mut preds)?;
                        for &p in &preds {
                            if at.owns(p) {
                                mine.push(p);
                            } else {
                                net.hits.send(p);
                                sent += 1;
                            }
                        }
                        if mine.len() >= 1024 {
                            kept += mine.len() as u64;
                            l.hit_all(&mine);
                            mine.clear();
                        }
                    }
                }
                kept += mine.len() as u64;
                l.hit_all(&mine);
                mine.clear();
            }
            w = end;
            if since_step >= CHUNK {
                since_step = 0;
                worker.step();
            }
        }
        if let Some(e) = local.borrow_mut().error.take() {
            return Err(SolveError::Worker(e));
        }
        // Zero: after every round, whatever a checkpoint costs (the rounds checkpointed do not
        // depend on the machine's speed).
        let every = if opts.checkpoint_every.is_zero() {
            Duration::ZERO
        } else {
            opts.checkpoint_every.max(ckpt_cost * 10)
        };
        let want_ckpt = ckpt.is_some() && at.index == 0 && last_ckpt.elapsed() >= every;
        let decided_local = local.borrow().decided;
        let inbox = net.barrier(
            worker,
            &local,
            Report {
                frontier,
                decided: decided_local,
                flag: u64::from(want_ckpt),
                sent,
                kept,
                ..Report::default()
            },
        );
        let global: u64 = inbox.iter().map(|m| m.frontier).sum();
        moves = inbox.iter().map(|m| m.moves).sum();
        let decided: u64 = inbox.iter().map(|m| m.decided).sum();
        let checkpoint_now = inbox.iter().any(|m| m.source == 0 && m.flag == 1);
        traffic.add(&inbox);
        {
            let mut l = local.borrow_mut();
            l.round += 1;
            emit(Event::Round {
                stage: l.stage,
                threshold: l.t,
                round: l.round,
                frontier: global,
                decided,
                states: at.states,
                seconds: started.elapsed().as_secs_f64(),
            });
            if global == 0 {
                // Nothing moved: W_t is complete. Next threshold (or stage), and its seeds.
                let (_, step, last) = l.thresholds(l.stage);
                if l.t == last {
                    l.stage = match l.stage {
                        Stage::Lo => Stage::Hi,
                        _ => Stage::Done,
                    };
                    if l.stage == Stage::Hi {
                        l.t = l.thresholds(Stage::Hi).0;
                    }
                } else {
                    l.t += step;
                }
                if l.stage != Stage::Done {
                    l.seeds();
                }
            }
        }
        if checkpoint_now {
            let c = ckpt.as_ref().expect("worker 0 asks only with a folder");
            let t0 = Instant::now();
            generation += 1;
            c.save(generation, &local.borrow())?;
            if generation > 2 {
                c.remove(generation - 2);
            }
            // Every worker has written before anyone goes on.
            net.barrier(worker, &local, Report::default());
            ckpt_cost = t0.elapsed();
            last_ckpt = Instant::now();
            emit(Event::Checkpoint {
                generation,
                seconds: ckpt_cost.as_secs_f64(),
            });
        }
    }

    // Gather: every worker sends its table in pieces to worker 0.
    if at.index == 0 {
        let mut l = local.borrow_mut();
        match &opts.output {
            Output::Memory => l.gathered = Some(vec![Bounds::UNKNOWN; at.states as usize]),
            Output::File { path, meta } => {
                l.writer = Some(db::Writer::create(path, meta, at.states)?);
            }
            Output::Both { path, meta } => {
                l.gathered = Some(vec![Bounds::UNKNOWN; at.states as usize]);
                l.writer = Some(db::Writer::create(path, meta, at.states)?);
            }
        }
    }
    // In steps of a bounded size, every worker the same number, so that no more than a step's
    // pieces wait in the channels. A piece is one stripe: contiguous in the state numbering.
    local.borrow_mut().catch_up();
    let per_step = 16 * PIECE;
    // Worker 0 owns the most states.
    let steps = Layout::new(0, at.peers, at.states).owned.div_ceil(per_step);
    for step in 0..steps {
        let mut first = step * per_step;
        let stop = ((step + 1) * per_step).min(owned as u64);
        while first < stop {
            let end = (first + PIECE).min(stop);
            let bytes = {
                let l = local.borrow();
                let mut b = Vec::with_capacity(4 * (end - first) as usize);
                for i in first as usize..end as usize {
                    let v = bounds(l.lo[i].val, l.hi[i].val);
                    b.extend_from_slice(&v.lo.to_le_bytes());
                    b.extend_from_slice(&v.hi.to_le_bytes());
                }
                b
            };
            net.pieces.send((at.global(first as usize), bytes));
            first = end;
            worker.step();
        }
        net.barrier(worker, &local, Report::default());
        local.borrow_mut().catch_up();
    }
    let (wrote, failed) = {
        let mut l = local.borrow_mut();
        let mut failed = l.error.take();
        let wrote = match l.writer.take() {
            Some(w) => match w.finish() {
                Ok(()) => true,
                Err(e) => {
                    failed = Some(e.to_string());
                    false
                }
            },
            None => false,
        };
        (wrote, failed)
    };
    // Everyone learns whether the database is safely written; only then do the checkpoints go.
    let inbox = net.barrier(worker, &local, Report::flag(u64::from(wrote)));
    if let Some(e) = failed {
        return Err(SolveError::Worker(e));
    }
    if inbox.iter().any(|m| m.source == 0 && m.flag == 1) {
        if let Some(c) = &ckpt {
            c.remove_all()?;
            // The folder goes with its last file (other workers may still be removing theirs).
            let _ = std::fs::remove_dir(&c.dir);
        }
    }
    let mut l = local.borrow_mut();
    Ok(WorkerOutcome {
        moves,
        traffic,
        values: l.gathered.take(),
        rounds: l.round,
        resumed,
        wrote,
    })
}

/// The `Bounds` of a state from its `i8` pair.
#[inline]
fn bounds(lo: i8, hi: i8) -> Bounds {
    Bounds {
        lo: if lo == NONE_LO { NO_LO } else { i16::from(lo) },
        hi: if hi == NONE_HI { NO_HI } else { i16::from(hi) },
    }
}

/// The dataflow of one worker: hits to the owners, control messages to everyone, pieces to 0.
fn build(worker: &mut timely::worker::Worker, local: &Rc<RefCell<Local>>, at: Layout) -> Net {
    let mut hits = InputHandle::<u64, Timed<u64>>::new();
    let mut ctl = InputHandle::<u64, Timed<Ctl>>::new();
    let mut pieces = InputHandle::<u64, Timed<Piece>>::new();
    let probe = ProbeHandle::new();
    let (l1, l2, l3) = (local.clone(), local.clone(), local.clone());
    worker.dataflow::<u64, _, _>(|scope| {
        scope
            .input_from(&mut hits)
            .unary::<Timed<()>, _, _, _>(
                Exchange::new(move |p: &u64| at.owner(*p)),
                "Hits",
                move |_cap, _info| {
                    move |input, _output| {
                        let mut l = l1.borrow_mut();
                        input.for_each(|cap, data| {
                            if cap.least().is_some_and(|t| *t > l.epoch) {
                                l.early_hits.append(data);
                            } else {
                                l.hit_all(data);
                                data.clear();
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
        scope
            .input_from(&mut ctl)
            .unary::<Timed<()>, _, _, _>(
                Exchange::new(|c: &Ctl| c.0),
                "Control",
                move |_cap, _info| {
                    move |input, _output| {
                        let mut l = l2.borrow_mut();
                        input.for_each(|cap, data| {
                            let early = cap.least().is_some_and(|t| *t > l.epoch);
                            for (_, report) in data.drain(..) {
                                if early {
                                    l.early_ctl.push(report);
                                } else {
                                    l.inbox.push(report);
                                }
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
        scope
            .input_from(&mut pieces)
            .unary::<Timed<()>, _, _, _>(
                Exchange::new(|_: &Piece| 0),
                "Gather",
                move |_cap, _info| {
                    move |input, _output| {
                        let mut l = l3.borrow_mut();
                        input.for_each(|cap, data| {
                            if cap.least().is_some_and(|t| *t > l.epoch) {
                                l.early_pieces.append(data);
                                return;
                            }
                            for (first, bytes) in data.drain(..) {
                                l.piece(first, &bytes);
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
    });
    Net {
        hits,
        ctl,
        pieces,
        probe,
        epoch: 0,
    }
}

impl Local {
    /// Applies the messages that came early, now that this worker is in their round.
    fn catch_up(&mut self) {
        for p in std::mem::take(&mut self.early_hits) {
            self.hit(p);
        }
        let ctl = std::mem::take(&mut self.early_ctl);
        self.inbox.extend(ctl);
        for (first, bytes) in std::mem::take(&mut self.early_pieces) {
            self.piece(first, &bytes);
        }
    }

    /// A piece of the gathered table (worker 0).
    fn piece(&mut self, first: u64, bytes: &[u8]) {
        if let Some(all) = self.gathered.as_mut() {
            for (i, c) in bytes.chunks_exact(4).enumerate() {
                all[first as usize + i] = Bounds {
                    lo: i16::from_le_bytes([c[0], c[1]]),
                    hi: i16::from_le_bytes([c[2], c[3]]),
                };
            }
        }
        if let Some(w) = self.writer.as_mut() {
            if let Err(e) = w.write_piece(first, bytes) {
                self.error = Some(e.to_string());
            }
        }
    }
}

/// Counts the distinct successors of every owned state (both counters start there) and scores
/// the positions for the seeds.
fn degrees(
    worker: &mut timely::worker::Worker,
    space: &Space,
    local: &Rc<RefCell<Local>>,
    emit: &dyn Fn(Event),
    started: Instant,
) -> Result<(), SolveError> {
    let at = local.borrow().at;
    let mut cursor = SelectCursor::default();
    let mut out: Vec<Succ> = Vec::new();
    let mut last = Instant::now();
    let owned = at.owned();
    let plain = 4 * space.positions();
    let mut moves_before_pass = 0u64;
    let mut s = 0;
    while s < owned {
        let end = (s + CHUNK * 16).min(owned);
        {
            let mut l = local.borrow_mut();
            for i in s..end {
                let x = at.global(i);
                // After a pass the moves are those of the same position and side without the
                // pass flag, and the end of the game replaces the pass state: the same number
                // of distinct successors (the two states share a stripe: stripes hold whole
                // positions).
                if x < plain && x % 2 == 1 {
                    let d = l.lo[i - 1].cnt;
                    l.lo[i].cnt = d;
                    l.hi[i].cnt = d;
                    l.moves += moves_before_pass;
                    continue;
                }
                out.clear();
                space.successors(x, &mut cursor, &mut out)?;
                moves_before_pass = out.len() as u64;
                l.moves += moves_before_pass;
                out.sort_unstable();
                out.dedup();
                let d = u8::try_from(out.len()).map_err(|_| {
                    SolveError::Worker(format!("state {x} has {} successors", out.len()))
                })?;
                l.lo[i].cnt = d;
                l.hi[i].cnt = d;
            }
        }
        s = end;
        worker.step();
        if last.elapsed() > Duration::from_millis(500) {
            last = Instant::now();
            emit(Event::Degrees {
                done: s as u64,
                owned: at.owned() as u64,
                seconds: started.elapsed().as_secs_f64(),
            });
        }
    }
    let mut l = local.borrow_mut();
    for i in 0..l.pscore.len() {
        let serial = space.serial(at.global(4 * i) / 4, &mut cursor);
        l.pscore[i] = space.score_of_serial(serial) as i8;
    }
    Ok(())
}

/// One worker's checkpoint files.
struct Checkpoints {
    dir: PathBuf,
    key: String,
    at: Layout,
}

/// Version 2: striped layout, each bound next to its counter.
const CKPT_MAGIC: &[u8; 8] = b"STLBCNT2";

impl Checkpoints {
    fn path(&self, generation: u64) -> PathBuf {
        self.dir.join(format!(
            "w{}of{}.g{generation}.cnt",
            self.at.index, self.at.peers
        ))
    }

    /// Generations of this worker's files, oldest first.
    fn generations(&self) -> Result<Vec<u64>, SolveError> {
        let prefix = format!("w{}of{}.g", self.at.index, self.at.peers);
        let mut out = Vec::new();
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            // Another worker of this run removed the folder with its last file.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
            Err(e) => {
                return Err(SolveError::Checkpoint {
                    path: self.dir.clone(),
                    why: e.to_string(),
                })
            }
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(g) = name
                .strip_prefix(&prefix)
                .and_then(|r| r.strip_suffix(".cnt"))
                .and_then(|g| g.parse::<u64>().ok())
            {
                out.push(g);
            }
            // A checkpoint of another layout of workers cannot be resumed by this one.
            let other = name
                .strip_suffix(".cnt")
                .and_then(|r| r.split_once("of"))
                .and_then(|(_, r)| r.split_once(".g"))
                .and_then(|(p, _)| p.parse::<usize>().ok())
                .is_some_and(|p| p != self.at.peers);
            if other {
                return Err(SolveError::Checkpoint {
                    path: e.path(),
                    why: format!(
                        "written by a run with another number of workers than {}; start it \
                         with the same --workers/--processes, or delete {}",
                        self.at.peers,
                        self.dir.display()
                    ),
                });
            }
        }
        out.sort_unstable();
        Ok(out)
    }

    fn remove(&self, generation: u64) {
        let _ = std::fs::remove_file(self.path(generation));
    }

    fn remove_all(&self) -> Result<(), SolveError> {
        for g in self.generations()? {
            self.remove(g);
        }
        // Half-written files of a run killed while writing.
        let prefix = format!("w{}of{}.g", self.at.index, self.at.peers);
        if let Ok(entries) = std::fs::read_dir(&self.dir) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.starts_with(&prefix) && name.ends_with(".cnt.tmp") {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        Ok(())
    }

    fn header(&self, generation: u64, l: &Local, body_crc: u32, body_len: u64) -> Vec<u8> {
        let mut h = Vec::new();
        h.extend_from_slice(CKPT_MAGIC);
        h.extend_from_slice(&(self.key.len() as u64).to_le_bytes());
        h.extend_from_slice(self.key.as_bytes());
        for x in [
            self.at.states,
            self.at.index as u64,
            self.at.peers as u64,
            STRIPE,
            self.at.owned,
            generation,
            u64::from(l.stage.code()),
            l.t as u64,
            l.round,
            l.decided,
            l.moves,
            body_len,
            u64::from(body_crc),
        ] {
            h.extend_from_slice(&x.to_le_bytes());
        }
        let hc = crc32fast::hash(&h);
        h.extend_from_slice(&hc.to_le_bytes());
        h
    }

    fn save(&self, generation: u64, l: &Local) -> Result<(), SolveError> {
        let path = self.path(generation);
        let tmp = path.with_extension("cnt.tmp");
        let err = |e: std::io::Error| SolveError::Checkpoint {
            path: tmp.clone(),
            why: e.to_string(),
        };
        let words: Vec<u8> = l.next.iter().flat_map(|w| w.to_le_bytes()).collect();
        let parts: [&[u8]; 4] = [
            bytes_of_slots(&l.lo),
            bytes_of_slots(&l.hi),
            bytes_of_i8(&l.pscore),
            &words,
        ];
        let mut crc = crc32fast::Hasher::new();
        let mut len = 0u64;
        for p in parts {
            crc.update(p);
            len += p.len() as u64;
        }
        let header = self.header(generation, l, crc.finalize(), len);
        let f = std::fs::File::create(&tmp).map_err(err)?;
        let mut w = BufWriter::with_capacity(1 << 20, f);
        w.write_all(&header).map_err(err)?;
        for p in parts {
            w.write_all(p).map_err(err)?;
        }
        let f = w.into_inner().map_err(|e| err(e.into_error()))?;
        f.sync_all().map_err(err)?;
        std::fs::rename(&tmp, &path).map_err(err)
    }

    fn load(&self, generation: u64, l: &mut Local) -> Result<(), SolveError> {
        let path = self.path(generation);
        let bad = |why: String| SolveError::Checkpoint {
            path: path.clone(),
            why,
        };
        let mut f = std::fs::File::open(&path).map_err(|e| bad(e.to_string()))?;
        let mut read = |buf: &mut [u8]| f.read_exact(buf).map_err(|e| bad(e.to_string()));
        let mut head = [0u8; 16];
        read(&mut head)?;
        if &head[..8] != CKPT_MAGIC {
            return Err(bad("not a stonelab solver checkpoint (bad magic)".into()));
        }
        let key_len = u64::from_le_bytes(head[8..16].try_into().expect("8 bytes"));
        if key_len > 1 << 20 {
            return Err(bad("damaged header".into()));
        }
        let mut key = vec![0u8; key_len as usize];
        read(&mut key)?;
        let mut fields = [0u8; 13 * 8 + 4];
        read(&mut fields)?;
        let mut whole = Vec::new();
        whole.extend_from_slice(&head);
        whole.extend_from_slice(&key);
        whole.extend_from_slice(&fields[..104]);
        let hc = u32::from_le_bytes(fields[104..108].try_into().expect("4 bytes"));
        if crc32fast::hash(&whole) != hc {
            return Err(bad("header checksum mismatch: the file is damaged".into()));
        }
        if key != self.key.as_bytes() {
            return Err(bad(
                "written for another board, rule set or state table; delete it or give \
                 another --checkpoint-dir"
                    .into(),
            ));
        }
        let v: Vec<u64> = fields[..104]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        let want = [
            self.at.states,
            self.at.index as u64,
            self.at.peers as u64,
            STRIPE,
            self.at.owned,
            generation,
        ];
        if v[..6] != want {
            return Err(bad(
                "written by another run layout (states, workers or generation differ)".into(),
            ));
        }
        let stage = Stage::from_code(v[6] as u8)
            .filter(|s| *s != Stage::Degrees)
            .ok_or_else(|| bad("bad stage".into()))?;
        let n = l.space.max_score();
        let t = v[7] as i64 as i16;
        if !(-n..=n).contains(&t) {
            return Err(bad("bad threshold".into()));
        }
        let owned = self.at.owned();
        let expect_len = 4 * owned as u64 + l.pscore.len() as u64 + 8 * l.next.len() as u64;
        if v[11] != expect_len {
            return Err(bad("body length does not match the layout".into()));
        }
        let mut body = vec![0u8; expect_len as usize];
        read(&mut body)?;
        let mut rest = [0u8; 1];
        if f.read(&mut rest).map_err(|e| bad(e.to_string()))? != 0 {
            return Err(bad("longer than its header says".into()));
        }
        if u64::from(crc32fast::hash(&body)) != v[12] {
            return Err(bad("body checksum mismatch: the file is damaged".into()));
        }
        let mut at = 0usize;
        let mut take = |len: usize| {
            let s = &body[at..at + len];
            at += len;
            s.to_vec()
        };
        let slots = |b: Vec<u8>| -> Vec<Slot> {
            b.chunks_exact(2)
                .map(|c| Slot {
                    val: c[0] as i8,
                    cnt: c[1],
                })
                .collect()
        };
        l.lo = slots(take(2 * owned));
        l.hi = slots(take(2 * owned));
        l.pscore = take(l.pscore.len()).into_iter().map(|b| b as i8).collect();
        let words = take(8 * l.next.len());
        l.next = words
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        // Values and counters in range, or the file was doctored.
        let max = n as i8;
        let ok_lo =
            l.lo.iter()
                .all(|x| x.val == NONE_LO || (-max..=max).contains(&x.val));
        let ok_hi =
            l.hi.iter()
                .all(|x| x.val == NONE_HI || (-max..=max).contains(&x.val));
        let ok_cnt =
            l.lo.iter()
                .chain(&l.hi)
                .all(|x| usize::from(x.cnt) <= l.space.shape().points() + 1);
        if !(ok_lo && ok_hi && ok_cnt) {
            return Err(bad("values out of range".into()));
        }
        l.stage = stage;
        l.t = t;
        l.round = v[8];
        l.decided = v[9];
        l.moves = v[10];
        Ok(())
    }
}

fn bytes_of_slots(v: &[Slot]) -> &[u8] {
    // Safety: `Slot` is `repr(C)` of two one-byte fields (size 2, alignment 1, no padding), and
    // every bit pattern is a valid `u8`.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), 2 * v.len()) }
}

fn bytes_of_i8(v: &[i8]) -> &[u8] {
    // Safety: i8 and u8 have the same size and alignment, and every bit pattern is valid for both.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), v.len()) }
}
