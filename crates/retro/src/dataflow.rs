//! The distributed retrograde solver on timely dataflow.
//!
//! Worker `w` of `W` owns the states `s` with `s % W == w` (timely's exchange routes a record with
//! key `k` to worker `k % W`). Three dataflows run one after another on every worker:
//!
//! 1. **Edges.** Each worker generates the edges of its states once. It keeps, per state, one slot
//!    per edge holding the bounds last heard of that edge's target (an edge to the end of the game
//!    holds its score), and sends `(target, pred<<16 | slot)` to the target's owner, which builds
//!    the target's predecessor list.
//! 2. **Propagation.** A feedback loop whose timestamps are rounds. In round 0 each worker computes
//!    every state it owns from its slots; each state whose bounds changed sends `(pred, slot, lo,
//!    hi)` to the owner of each predecessor. In round `r` a worker applies the messages of round `r`
//!    to its slots, recomputes the states they touch, and sends on the changes, which arrive in
//!    round `r + 1`. `lo` only rises and `hi` only falls (chaotic iteration of a monotone operator
//!    from the bottom and from the top), so the loop reaches the least and greatest fixed points and
//!    then goes quiet; timely's progress tracking sees that no message is left and the dataflow ends.
//! 3. **Gather.** Every worker sends its bounds to worker 0, which returns the whole table.
//!
//! Checkpoints: each worker may write its bounds at a round boundary. Any mixture of per-worker
//! checkpoints is a set of true lower bounds for `lo` (upper for `hi`); resuming re-sends every
//! known state in round 0 and keeps bounds monotone, so the loop still ends at the same fixed
//! points (the least pre-fixed point is the least fixed point).
//!
//! Memory per worker: per owned state 4 bytes of bounds and 8 of edge offsets; per edge 4 bytes of
//! slot bounds at the source and 8 bytes of predecessor entry at the target (plus 16 bytes per
//! edge, transiently, while the predecessor lists are built).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Capability, ConnectLoop, Feedback, Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::{CommunicationConfig, WorkerConfig};

use crate::checkpoint::{self, Checkpoint};
use crate::graph::combine;
use crate::{Bounds, Edge, GameGraph};

/// How the workers are laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Workers {
    /// `n` worker threads in this process (no set-up).
    Threads(usize),
    /// One process of a cluster: `threads` workers here, this is process `process` of
    /// `addresses.len()`, and `addresses[i]` is `host:port` of process `i`.
    Cluster {
        threads: usize,
        process: usize,
        addresses: Vec<String>,
    },
}

impl Workers {
    fn config(&self) -> timely::Config {
        let communication = match self {
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
}

/// What a solve reports as it goes.
#[derive(Clone, Debug)]
pub enum Event {
    /// A worker started: with several processes, every process is connected to the others.
    Started { worker: usize },
    /// Worker 0 finished generating its edges.
    EdgesBuilt {
        states: u64,
        edges: u64,
        seconds: f64,
    },
    /// Worker 0 finished a round, in which this many of its states changed.
    Round {
        round: u32,
        changed: u64,
        seconds: f64,
    },
    /// A worker wrote its checkpoint after this round.
    Checkpoint { worker: usize, round: u32 },
}

/// Options of [`solve`].
#[derive(Clone)]
pub struct Options {
    /// Worker layout.
    pub workers: Workers,
    /// Where to write checkpoints (and read them from, to resume); none by default.
    pub checkpoint_dir: Option<PathBuf>,
    /// Least time between two checkpoints of a worker.
    pub checkpoint_every: Duration,
    /// A key that identifies the game (board, rules, komi), stored in checkpoints so that a resume
    /// never mixes the bounds of two different games.
    pub game_key: String,
    /// Called (from worker threads) with progress events.
    pub on_event: Option<Arc<dyn Fn(Event) + Send + Sync>>,
}

impl Options {
    /// `n` threads, no checkpoints, no progress.
    #[must_use]
    pub fn threads(n: usize) -> Options {
        Options {
            workers: Workers::Threads(n.max(1)),
            checkpoint_dir: None,
            checkpoint_every: Duration::from_secs(60),
            game_key: String::new(),
            on_event: None,
        }
    }
}

/// Why a solve failed.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error("timely dataflow could not start: {0}")]
    Timely(String),
    #[error("state {0} has no moves (every state needs at least one edge)")]
    NoEdges(u64),
    #[error("state {state} has {degree} moves; at most 65535 are supported")]
    TooManyEdges { state: u64, degree: usize },
    #[error("edge from state {from} leads to state {to}, beyond the {states} states")]
    BadEdge { from: u64, to: u64, states: u64 },
    #[error("checkpoint: {0}")]
    Checkpoint(#[from] checkpoint::CheckpointError),
    #[error("a worker failed: {0}")]
    Worker(String),
}

/// The result of a solve.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Bounds of every state, on the process that hosts worker 0; `None` on other processes.
    pub values: Option<Vec<Bounds>>,
    /// Propagation rounds (the last round in which a message was processed, plus one).
    pub rounds: u32,
    /// Edges generated (all workers of this process).
    pub edges: u64,
    /// The round this process's workers resumed from, if they found checkpoints.
    pub resumed_round: Option<u32>,
}

/// Per-worker tables, shared by the three dataflows of one worker thread.
#[derive(Default)]
struct Local {
    /// `offsets[l]..offsets[l+1]` are the slots of local state `l` (global `l * peers + index`).
    offsets: Vec<u64>,
    /// Bounds last heard of each edge's target.
    slots: Vec<Bounds>,
    /// Current bounds of each local state.
    values: Vec<Bounds>,
    /// `pred_offsets[l]..pred_offsets[l+1]` index `preds`: entries `pred << 16 | slot`.
    pred_offsets: Vec<u64>,
    preds: Vec<u64>,
    /// Received `(target, pred << 16 | slot)` pairs, before sorting.
    incoming: Vec<(u64, u64)>,
    /// Set when a worker-local error stops the solve.
    error: Option<String>,
    rounds: u32,
}

const CHUNK: u64 = 1 << 14;

/// Solves every state of `game` on timely dataflow.
pub fn solve<G: GameGraph>(game: Arc<G>, options: Options) -> Result<Outcome, SolveError> {
    // Resume data is checked before any work starts.
    if let Some(dir) = &options.checkpoint_dir {
        std::fs::create_dir_all(dir).map_err(|e| {
            checkpoint::CheckpointError::Io(format!("cannot create {}: {e}", dir.display()))
        })?;
    }
    let config = options.workers.config();
    let opts = options.clone();
    let guards = timely::execute(config, move |worker| {
        if let Some(f) = &opts.on_event {
            f(Event::Started {
                worker: worker.index(),
            });
        }
        run_worker(worker, game.clone(), &opts).map_err(|e| e.to_string())
    })
    .map_err(SolveError::Timely)?;
    let mut outcome = Outcome {
        values: None,
        rounds: 0,
        edges: 0,
        resumed_round: None,
    };
    for result in guards.join() {
        let worker = result
            .map_err(SolveError::Worker)?
            .map_err(SolveError::Worker)?;
        outcome.rounds = outcome.rounds.max(worker.rounds);
        outcome.edges += worker.edges;
        if let Some(r) = worker.resumed_round {
            outcome.resumed_round = Some(outcome.resumed_round.map_or(r, |o: u32| o.min(r)));
        }
        if worker.values.is_some() {
            outcome.values = worker.values;
        }
    }
    Ok(outcome)
}

struct WorkerOutcome {
    values: Option<Vec<Bounds>>,
    rounds: u32,
    edges: u64,
    resumed_round: Option<u32>,
}

type Msg = (u64, u32, i16, i16);
type Timed<T> = timely::container::CapacityContainerBuilder<Vec<T>>;

/// Moves `old` towards `new` monotonically: `lo` never falls, `hi` never rises.
#[inline]
fn tighten(old: Bounds, new: Bounds) -> Bounds {
    Bounds {
        lo: old.lo.max(new.lo),
        hi: old.hi.min(new.hi),
    }
}

impl Local {
    /// Recomputes local state `l` from its slots; returns the new bounds if they changed.
    #[inline]
    fn recompute<G: GameGraph>(&mut self, game: &G, l: usize, s: u64) -> Option<Bounds> {
        let range = self.offsets[l] as usize..self.offsets[l + 1] as usize;
        let computed = combine(game.side(s), self.slots[range].iter().copied());
        let old = self.values[l];
        let new = tighten(old, computed);
        (new != old).then(|| {
            self.values[l] = new;
            new
        })
    }

    /// The messages that tell the predecessors of local state `l` its bounds.
    #[inline]
    fn messages(&self, l: usize, v: Bounds) -> impl Iterator<Item = Msg> + '_ {
        let range = self.pred_offsets[l] as usize..self.pred_offsets[l + 1] as usize;
        self.preds[range]
            .iter()
            .map(move |&e| (e >> 16, (e & 0xFFFF) as u32, v.lo, v.hi))
    }
}

/// Where a worker stands: worker `index` of `peers` owns the `owned` states `s` of the `states` with
/// `s % peers == index`; its local state `l` is the global state `l * peers + index`.
#[derive(Clone, Copy)]
struct Layout {
    index: usize,
    peers: u64,
    states: u64,
    owned: u64,
}

impl Layout {
    fn of(worker: &timely::worker::Worker, states: u64) -> Layout {
        let index = worker.index();
        let peers = worker.peers() as u64;
        let owned = if (index as u64) < states {
            (states - index as u64).div_ceil(peers)
        } else {
            0
        };
        Layout {
            index,
            peers,
            states,
            owned,
        }
    }

    #[inline]
    fn global(self, l: u64) -> u64 {
        l * self.peers + self.index as u64
    }

    #[inline]
    fn local(self, s: u64) -> u64 {
        s / self.peers
    }
}

/// Hands progress events to [`Options::on_event`]; worker 0 speaks for all.
#[derive(Clone)]
struct Progress {
    on_event: Option<Arc<dyn Fn(Event) + Send + Sync>>,
    started: Instant,
    index: usize,
}

impl Progress {
    fn emit(&self, e: Event) {
        if let Some(f) = &self.on_event {
            f(e);
        }
    }

    fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Worker 0 reports a finished round.
    fn round(&self, round: u32, changed: u64) {
        if self.index == 0 {
            self.emit(Event::Round {
                round,
                changed,
                seconds: self.seconds(),
            });
        }
    }
}

/// Writes a worker's checkpoint after a round when the last one is old enough.
struct Checkpointer {
    dir: Option<PathBuf>,
    every: Duration,
    game_key: String,
    last: Instant,
}

impl Checkpointer {
    fn after_round(&mut self, t: &mut Local, at: Layout, time: u32, progress: &Progress) {
        let Some(dir) = &self.dir else {
            return;
        };
        if self.last.elapsed() < self.every {
            return;
        }
        let ck = Checkpoint {
            game_key: self.game_key.clone(),
            states: at.states,
            worker: at.index,
            peers: at.peers as usize,
            round: t.rounds,
            values: t.values.clone(),
        };
        match checkpoint::save(dir, &ck) {
            Ok(()) => progress.emit(Event::Checkpoint {
                worker: at.index,
                round: time,
            }),
            Err(e) => t.error = Some(e.to_string()),
        }
        self.last = Instant::now();
    }
}

impl Local {
    /// Generates the edges of state `s`: one slot each, and the reverse edge sent to the owner of
    /// each target.
    fn add_edges<G: GameGraph>(
        &mut self,
        game: &G,
        s: u64,
        edges: &mut Vec<Edge>,
        input: &mut InputHandle<u32, Timed<(u64, u64)>>,
    ) -> Result<(), SolveError> {
        let n = game.num_states();
        edges.clear();
        game.edges(s, edges);
        if edges.is_empty() {
            return Err(SolveError::NoEdges(s));
        }
        if edges.len() > 0xFFFF {
            return Err(SolveError::TooManyEdges {
                state: s,
                degree: edges.len(),
            });
        }
        for (slot, e) in edges.iter().enumerate() {
            match *e {
                Edge::End(score) => self.slots.push(Bounds::end(score)),
                Edge::State(target) => {
                    if target >= n {
                        return Err(SolveError::BadEdge {
                            from: s,
                            to: target,
                            states: n,
                        });
                    }
                    self.slots.push(Bounds::UNKNOWN);
                    input.send((target, (s << 16) | slot as u64));
                }
            }
        }
        let len = self.slots.len() as u64;
        self.offsets.push(len);
        Ok(())
    }

    /// Sorts the received reverse edges into the predecessor lists of the owned states.
    fn build_preds(&mut self, at: Layout) {
        let mut incoming = std::mem::take(&mut self.incoming);
        incoming.sort_unstable();
        let mut pred_offsets = Vec::with_capacity(at.owned as usize + 1);
        let mut preds = Vec::with_capacity(incoming.len());
        pred_offsets.push(0);
        let mut next = 0;
        for (target, entry) in incoming {
            let lt = at.local(target);
            while next < lt {
                pred_offsets.push(preds.len() as u64);
                next += 1;
            }
            preds.push(entry);
        }
        while (pred_offsets.len() as u64) < at.owned + 1 {
            pred_offsets.push(preds.len() as u64);
        }
        self.pred_offsets = pred_offsets;
        self.preds = preds;
    }

    /// Round 0: every state from its end-of-game edges (and, after a resume, every known state is
    /// announced again). Calls `send` for each state to announce; returns how many there were.
    #[inline]
    fn first_round<G: GameGraph>(
        &mut self,
        game: &G,
        at: Layout,
        resumed: bool,
        mut send: impl FnMut(&Local, usize, Bounds),
    ) -> u64 {
        let mut changed = 0u64;
        for l in 0..self.values.len() {
            let s = at.global(l as u64);
            let update = self.recompute(game, l, s);
            let v = self.values[l];
            if update.is_some() || (resumed && v != Bounds::UNKNOWN) {
                changed += 1;
                send(self, l, v);
            }
        }
        changed
    }

    /// A later round: applies the messages to the slots, recomputes the states they touch and
    /// calls `send` for each that changed; returns how many did.
    #[inline]
    fn next_round<G: GameGraph>(
        &mut self,
        game: &G,
        at: Layout,
        msgs: Vec<Msg>,
        touched: &mut Vec<u32>,
        mut send: impl FnMut(&Local, usize, Bounds),
    ) -> u64 {
        touched.clear();
        for (pred, slot, lo, hi) in msgs {
            let l = at.local(pred) as usize;
            let i = self.offsets[l] as usize + slot as usize;
            self.slots[i] = tighten(self.slots[i], Bounds { lo, hi });
            touched.push(l as u32);
        }
        touched.sort_unstable();
        touched.dedup();
        let mut changed = 0u64;
        for &l in touched.iter() {
            let l = l as usize;
            if let Some(v) = self.recompute(game, l, at.global(l as u64)) {
                changed += 1;
                send(self, l, v);
            }
        }
        changed
    }
}

fn run_worker<G: GameGraph>(
    worker: &mut timely::worker::Worker,
    game: Arc<G>,
    opts: &Options,
) -> Result<WorkerOutcome, SolveError> {
    let at = Layout::of(worker, game.num_states());
    let progress = Progress {
        on_event: opts.on_event.clone(),
        started: Instant::now(),
        index: at.index,
    };
    let shared = Rc::new(RefCell::new(Local::default()));
    build_edges(worker, &*game, at, &shared, &progress)?;
    let resumed_round = resume(opts, at, &shared)?;
    propagate(
        worker,
        game,
        at,
        &shared,
        resumed_round.is_some(),
        opts,
        &progress,
    );
    if let Some(e) = shared.borrow_mut().error.take() {
        return Err(SolveError::Worker(e));
    }
    let values = gather(worker, at, &shared);
    let t = shared.borrow();
    Ok(WorkerOutcome {
        values,
        rounds: t.rounds,
        edges: t.slots.len() as u64,
        resumed_round,
    })
}

/// Dataflow 1: the edges of the owned states, and their predecessor lists.
fn build_edges<G: GameGraph>(
    worker: &mut timely::worker::Worker,
    game: &G,
    at: Layout,
    shared: &Rc<RefCell<Local>>,
    progress: &Progress,
) -> Result<(), SolveError> {
    let mut input = InputHandle::<u32, Timed<(u64, u64)>>::new();
    let probe = ProbeHandle::new();
    let sink = shared.clone();
    worker.dataflow::<u32, _, _>(|scope| {
        scope
            .input_from(&mut input)
            .unary::<Timed<()>, _, _, _>(
                Exchange::new(|e: &(u64, u64)| e.0),
                "ReverseEdges",
                move |_cap, _info| {
                    move |input, _output| {
                        let mut t = sink.borrow_mut();
                        input.for_each(|_cap, data| t.incoming.append(data));
                    }
                },
            )
            .probe_with(&probe);
    });

    let mut edges = Vec::new();
    shared.borrow_mut().offsets.reserve(at.owned as usize + 1);
    shared.borrow_mut().offsets.push(0);
    let mut l = 0;
    while l < at.owned {
        let end = (l + CHUNK).min(at.owned);
        {
            let mut t = shared.borrow_mut();
            for ll in l..end {
                t.add_edges(game, at.global(ll), &mut edges, &mut input)?;
            }
        }
        l = end;
        worker.step();
    }
    drop(input);
    worker.step_while(|| !probe.done());

    let mut t = shared.borrow_mut();
    t.build_preds(at);
    t.values = vec![Bounds::UNKNOWN; at.owned as usize];
    if at.index == 0 {
        progress.emit(Event::EdgesBuilt {
            states: at.states,
            edges: t.slots.len() as u64,
            seconds: progress.seconds(),
        });
    }
    Ok(())
}

/// Resumes from this worker's checkpoint, if one matches; returns its round.
fn resume(
    opts: &Options,
    at: Layout,
    shared: &Rc<RefCell<Local>>,
) -> Result<Option<u32>, SolveError> {
    let Some(dir) = &opts.checkpoint_dir else {
        return Ok(None);
    };
    let Some(ck) = checkpoint::load(dir, &opts.game_key, at.states, at.index, at.peers as usize)?
    else {
        return Ok(None);
    };
    let mut t = shared.borrow_mut();
    if ck.values.len() != t.values.len() {
        return Ok(None);
    }
    t.values = ck.values;
    t.rounds = ck.round;
    Ok(Some(ck.round))
}

/// Dataflow 2: the propagation rounds, until no message is left.
fn propagate<G: GameGraph>(
    worker: &mut timely::worker::Worker,
    game: Arc<G>,
    at: Layout,
    shared: &Rc<RefCell<Local>>,
    resumed: bool,
    opts: &Options,
    progress: &Progress,
) {
    let probe = ProbeHandle::new();
    let state = shared.clone();
    let progress = progress.clone();
    let ckpt_dir = opts.checkpoint_dir.clone();
    let ckpt_every = opts.checkpoint_every;
    let game_key = opts.game_key.clone();
    worker.dataflow::<u32, _, _>(|scope| {
        let (handle, cycle) = scope.feedback::<Vec<Msg>>(1);
        cycle
            .unary_frontier::<Timed<Msg>, _, _, _>(
                Exchange::new(|m: &Msg| m.0),
                "Retrograde",
                move |cap, _info| {
                    let mut start = Some(cap);
                    let mut stash: BTreeMap<u32, (Capability<u32>, Vec<Msg>)> = BTreeMap::new();
                    let mut checkpoints = Checkpointer {
                        dir: ckpt_dir,
                        every: ckpt_every,
                        game_key,
                        last: Instant::now(),
                    };
                    let mut touched: Vec<u32> = Vec::new();
                    move |(input, frontier), output| {
                        let mut guard = state.borrow_mut();
                        let t = &mut *guard;
                        if let Some(cap) = start.take() {
                            let mut session = output.session(&cap);
                            let changed = t.first_round(&*game, at, resumed, |t, l, v| {
                                session.give_iterator(t.messages(l, v));
                            });
                            progress.round(0, changed);
                        }
                        input.for_each_stamp(|cap, data| {
                            let Some(cap) = cap.retain_least(output.output_index()) else {
                                return;
                            };
                            let entry = stash
                                .entry(*cap.time())
                                .or_insert_with(|| (cap, Vec::new()));
                            for batch in data {
                                entry.1.append(batch);
                            }
                        });
                        while let Some(&time) = stash.keys().next() {
                            if frontier.less_equal(&time) {
                                break;
                            }
                            let (cap, msgs) = stash.remove(&time).expect("key just seen");
                            let mut session = output.session(&cap);
                            let changed =
                                t.next_round(&*game, at, msgs, &mut touched, |t, l, v| {
                                    session.give_iterator(t.messages(l, v));
                                });
                            t.rounds = t.rounds.max(time + 1);
                            progress.round(time, changed);
                            checkpoints.after_round(t, at, time, &progress);
                        }
                    }
                },
            )
            .probe_with(&probe)
            .connect_loop(handle);
    });
    worker.step_while(|| !probe.done());
}

/// Dataflow 3: every bound sent to worker 0, which returns the whole table (other workers `None`).
fn gather(
    worker: &mut timely::worker::Worker,
    at: Layout,
    shared: &Rc<RefCell<Local>>,
) -> Option<Vec<Bounds>> {
    let gathered: Rc<RefCell<Option<Vec<Bounds>>>> = Rc::new(RefCell::new(None));
    let mut input = InputHandle::<u32, Timed<(u64, i16, i16)>>::new();
    let probe = ProbeHandle::new();
    let sink = gathered.clone();
    if at.index == 0 {
        *gathered.borrow_mut() = Some(vec![Bounds::UNKNOWN; at.states as usize]);
    }
    worker.dataflow::<u32, _, _>(|scope| {
        scope
            .input_from(&mut input)
            .unary::<Timed<()>, _, _, _>(
                Exchange::new(|_: &(u64, i16, i16)| 0),
                "Gather",
                move |_cap, _info| {
                    move |input, _output| {
                        let mut all = sink.borrow_mut();
                        input.for_each(|_cap, data| {
                            if let Some(all) = all.as_mut() {
                                for (s, lo, hi) in data.drain(..) {
                                    all[s as usize] = Bounds { lo, hi };
                                }
                            }
                        });
                    }
                },
            )
            .probe_with(&probe);
    });
    let values = std::mem::take(&mut shared.borrow_mut().values);
    for (l, v) in values.iter().enumerate() {
        input.send((at.global(l as u64), v.lo, v.hi));
        if l % (CHUNK as usize) == 0 {
            worker.step();
        }
    }
    drop(input);
    worker.step_while(|| !probe.done());
    let values = gathered.borrow_mut().take();
    values
}
