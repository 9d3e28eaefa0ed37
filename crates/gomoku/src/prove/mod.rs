//! Proving whole games: depth-first proof-number search (df-pn, Nagai 2002, with the 1+ε
//! thresholds of Pawlewicz & Lew) over the real board, with the threat-space solver at the leaves
//! (Allis, van den Herik & Huntjens 1994).
//!
//! - OR nodes (the attacker to move) are proved at once when the solver finds a VCF or VCT, and
//!   disproved at once by a defender's pairing strategy ([`pairing`], boards up to 11x11). Otherwise
//!   the attacker's moves are tried best-first, a few at a time: the next batch joins only when all
//!   tried so far are disproved, so a disproof still covers every move.
//! - AND nodes (the defender to move): when the attacker would win after a defender pass, only the
//!   moves that touch that threat sequence, and the defender's fours, are searched (Allis's
//!   restriction). Before such a node counts as proved, every other reply is checked: the solver must
//!   find the attacker's win after it, or the reply joins the searched ones.
//! - A transposition table keyed by the position up to the board's eight symmetries ([`keys`]).
//!
//! Proved and disproved positions can be saved and loaded ([`db`]); a proof becomes a certificate
//! that [`cert`] writes and checks without search beyond a short VCF.

pub mod cert;
pub mod db;
pub mod hint;
pub mod keys;
pub mod pairing;
pub mod table;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine::policy::Places;
use crate::search::defence::proof_squares;
use crate::{solve, Bitboard, Board, Color, Grid, Limits, Mode, Pattern, Point, Proof, Rule};
use keys::SymKeys;
use table::Table;

/// A proof or disproof number that stands for infinity.
pub const INF: u32 = 1 << 30;

/// What a proof search established.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The attacker wins against every defence.
    Win,
    /// Every attacker strategy is refuted (the defender wins or draws).
    NoWin,
    /// A limit stopped the search first.
    Unknown,
}

impl Verdict {
    /// The name used in output (`win`, `no_win`, `unknown`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::NoWin => "no_win",
            Verdict::Unknown => "unknown",
        }
    }
}

/// Settings of a proof search.
#[derive(Clone, Debug)]
pub struct Options {
    /// Stop after this many nodes.
    pub max_nodes: u64,
    /// Stop after this much time.
    pub max_time: Option<Duration>,
    /// Nodes of each threat-space search at a leaf (per mode: VCF, then VCT).
    pub leaf_nodes: u64,
    /// Nodes of each threat-space search at a new defender node, as if the defender passed (a
    /// win there restricts the replies searched); `None`: [`Options::leaf_nodes`].
    pub pass_nodes: Option<u64>,
    /// The most attacker moves of a VCT at a leaf.
    pub vct_depth: u32,
    /// How many attacker moves an OR node tries before it widens (by as many again).
    pub width: usize,
    /// Search steps of each pairing-strategy try (0: none tried).
    pub pairing_steps: u64,
    /// The most table entries kept: past it the unsolved entries are dropped (their numbers are
    /// found again when needed), then, if solved ones alone fill it, the disproved ones.
    pub max_entries: usize,
    /// Set from outside to stop the search (Ctrl-C); the result is then `Unknown`.
    pub abort: Option<Arc<AtomicBool>>,
    /// Search threads sharing the table. With more than one, each thread searches from the root
    /// and steers away from the positions other threads are searching (their numbers count as
    /// larger while they are busy there), so the node counts vary from run to run; one thread is
    /// repeatable.
    pub threads: usize,
    /// A proved certificate of a similar position ([`hint`]): its move is tried first at the
    /// attacker's nodes where it has one.
    pub hint: Option<Arc<hint::Hint>>,
    /// What an unhinted attacker move adds to its proof number beside a hinted one.
    pub hint_penalty: u32,
    /// How moves are ordered on boards above 11x11 (below, by the static score alone).
    pub order: MoveOrder,
    /// How a node's summed number (an OR node's disproof number, an AND node's proof number)
    /// is formed from its children's.
    pub sums: Sums,
}

/// Where the prover calls the threat solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// At a new attacker node: a win there proves it.
    Leaf = 0,
    /// At a new defender node, as if the defender passed: a win restricts the replies searched.
    Pass = 1,
    /// After a reply left out by that restriction, before its node counts as proved.
    Unchecked = 2,
}

impl Site {
    /// The name in output (`leaf`, `pass`, `unchecked`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Site::Leaf => "leaf",
            Site::Pass => "pass",
            Site::Unchecked => "unchecked",
        }
    }
}

/// The threat solver's work at one [`Site`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SiteCount {
    /// Calls.
    pub calls: u64,
    /// Calls that found a win.
    pub found: u64,
    /// Nodes of the calls that found a win.
    pub nodes_found: u64,
    /// Nodes of the calls that did not.
    pub nodes_missed: u64,
}

/// How the summed number of a node is formed: df-pn's sum, or weak proof-number search's
/// largest child plus one for each other unsolved child (Ueda, Hashimoto, Hashimoto and Iida,
/// "Weak proof-number search", CG 2008). In a graph with transpositions the sum counts a shared
/// position once per path, so numbers grow with the paths rather than with the work left; the
/// weak form does not, at the price of counting a node of many hard children as one hard child.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sums {
    /// The children's numbers added (df-pn).
    #[default]
    Full,
    /// The largest child's number plus the count of the other unsolved children (WPNS).
    Weak,
}

impl Sums {
    /// The name on the command line (`full`, `weak`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Sums::Full => "full",
            Sums::Weak => "weak",
        }
    }
}

/// The score that orders a node's moves on boards above 11x11, where the engine's view of the
/// position is kept beside the board; the static line score ([`move_score`]) breaks ties.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MoveOrder {
    /// The engine's evaluation cell values, six parts the mover's and five the opponent's (the
    /// default until session 72).
    Values,
    /// The engine's fitted move order (its tree's: the cell's class combinations for both
    /// colours and its places relative to the last two stones, in hundredths of a logit of a
    /// softmax fitted to a stronger engine's moves). The root comes as a grid without the order
    /// of its stones, so until two moves are played the "last stones" are the root's last two in
    /// the grid's order. The default since session 72: with it `h8 a5` and `h8 a6` were proved,
    /// where the values' order had not come near.
    #[default]
    Policy,
}

impl MoveOrder {
    /// The name on the command line (`values`, `policy`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MoveOrder::Values => "values",
            MoveOrder::Policy => "policy",
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_nodes: u64::MAX,
            max_time: None,
            leaf_nodes: 20_000,
            pass_nodes: None,
            vct_depth: 10,
            width: 8,
            pairing_steps: 20_000,
            max_entries: usize::MAX,
            abort: None,
            threads: 1,
            hint: None,
            hint_penalty: hint::HINT_PENALTY,
            order: MoveOrder::Policy,
            sums: Sums::Full,
        }
    }
}

/// A table entry: proof and disproof numbers, and for a proved OR node the attacker's move (as a
/// point index `y * 20 + x` in the canonical frame of the key, with [`INNER`] set when the proof
/// search proved it through its children).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub pn: u32,
    pub dn: u32,
    pub best: u16,
}

/// No move stored.
pub const NO_MOVE: u16 = u16::MAX;

/// Marks the move of a proved attacker-to-move entry that the proof search proved through its
/// children (not the threat solver at a leaf, nor a five point): the certificate's writer takes
/// that move as it is, with no threat search there (which failed during the proof, at the cost
/// of its whole node budget). Databases written before it have no such marks and are read as
/// before.
pub const INNER: u16 = 0x8000;

/// Where a search stands, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub pn: u32,
    pub dn: u32,
    pub nodes: u64,
    pub entries: usize,
}

/// What the search knows about a node it expanded, kept while the node is unsolved.
#[derive(Clone, Debug)]
struct Expanded {
    /// Moves to search, best first, as canonical point indices.
    moves: Vec<u16>,
    /// OR nodes: how many of `moves` are tried so far.
    width: usize,
    /// AND nodes: replies left out by the threat restriction, not yet checked.
    unchecked: Vec<u16>,
    /// OR nodes: the first move is a hint's ([`Options::hint`]); the others count as dearer by
    /// [`Options::hint_penalty`].
    hinted: bool,
}

impl Expanded {
    /// A node with one move: a block of the opponent's five point.
    fn forced(m: u16) -> Expanded {
        Expanded {
            moves: vec![m],
            width: 1,
            unchecked: Vec::new(),
            hinted: false,
        }
    }
}

enum Expansion {
    Solved(Entry),
    Inner(Expanded),
}

/// A progress callback: the prover, and the root's numbers.
type ProgressFn = Box<dyn FnMut(&Prover, Progress) + Send>;

/// What the search threads share.
struct Shared {
    table: Table,
    nodes: AtomicU64,
    solver_nodes: AtomicU64,
    /// Per [`Site`]: calls, calls that found a win, nodes of those, nodes of the others.
    sites: [[AtomicU64; 4]; 3],
    /// Set when a thread hits a limit or the root is solved: every thread stops.
    stop: AtomicBool,
    /// How many times the table was thinned out; a thread that sees it grow empties its store of
    /// expanded nodes.
    collections: AtomicU64,
    /// A thread is thinning the table out now.
    collecting: AtomicBool,
}

/// A df-pn prover for one attacker on one board.
pub struct Prover {
    board: Board,
    /// The engine's view of the same stones on boards above 11x11: its cell values order the
    /// moves there (on smaller boards, where pairing strategies settle most positions, keeping it
    /// costs more than its ordering saves: 7x7 takes 1.8 s with it, 1.4 s without).
    pos: Option<crate::engine::Position>,
    attacker: Color,
    keys: SymKeys,
    /// Whose turn at the root: the attacker's or not.
    root_attacker: bool,
    shared: Arc<Shared>,
    expanded: HashMap<u128, Expanded>,
    pairing: Option<pairing::Pairing>,
    options: Options,
    start: Instant,
    /// Nodes this thread searched.
    nodes: u64,
    /// The table collections this thread has seen.
    seen_collections: u64,
    stopped: bool,
    /// Called now and then with the root's numbers.
    progress: Option<ProgressFn>,
    last_report: Instant,
    root_key: u128,
    /// The root position, for [`Prover::principal_path`].
    root_grid: Grid,
    root_keys: SymKeys,
}

/// The most expanded nodes kept (beyond it the store is emptied; they are expanded again).
const MAX_EXPANDED: usize = 1 << 21;

impl Prover {
    /// A prover of `attacker`'s win on `grid` under `rule`, with `to_move` to play. The grid must
    /// hold no five.
    #[must_use]
    pub fn new(
        grid: &Grid,
        rule: Rule,
        attacker: Color,
        to_move: Color,
        options: Options,
    ) -> Prover {
        let mut board = Board::from_grid(grid, rule);
        board.track_patterns();
        let n = grid.size();
        let mut keys = SymKeys::new(n);
        for p in grid.points() {
            if let Some(c) = grid.get(p) {
                keys.toggle(p, c);
            }
        }
        let root_attacker = to_move == attacker;
        let root_key = keys.canonical(!root_attacker).0;
        let pos = (n > pairing::MAX_PAIRING_SIZE).then(|| {
            let mut pos = crate::engine::Position::new(n, rule);
            // The prover reads the cells' order values, never the evaluation: no net to keep.
            pos.set_net(None);
            for p in grid.points() {
                if let Some(c) = grid.get(p) {
                    pos.make(p, c);
                }
            }
            pos
        });
        Prover {
            board,
            pos,
            attacker,
            keys,
            root_attacker,
            shared: Arc::new(Shared {
                table: Table::new(),
                nodes: AtomicU64::new(0),
                solver_nodes: AtomicU64::new(0),
                sites: Default::default(),
                stop: AtomicBool::new(false),
                collections: AtomicU64::new(0),
                collecting: AtomicBool::new(false),
            }),
            expanded: HashMap::new(),
            pairing: (n <= pairing::MAX_PAIRING_SIZE).then(|| pairing::Pairing::new(n)),
            options,
            start: Instant::now(),
            nodes: 0,
            seen_collections: 0,
            stopped: false,
            progress: None,
            last_report: Instant::now(),
            root_key,
            root_grid: grid.clone(),
            root_keys: keys,
        }
    }

    /// Another search thread over the same table, at the same position.
    fn worker(&self) -> Prover {
        Prover {
            board: self.board.clone(),
            pos: self.pos.clone(),
            attacker: self.attacker,
            keys: self.keys,
            root_attacker: self.root_attacker,
            shared: self.shared.clone(),
            expanded: HashMap::new(),
            pairing: self.pairing.clone(),
            options: self.options.clone(),
            start: self.start,
            nodes: 0,
            seen_collections: self.shared.collections.load(Ordering::Relaxed),
            stopped: false,
            progress: None,
            last_report: Instant::now(),
            root_key: self.root_key,
            root_grid: self.root_grid.clone(),
            root_keys: self.root_keys,
        }
    }

    /// Calls `f` about five times a second with the root's numbers while the search runs.
    pub fn on_progress(&mut self, f: impl FnMut(&Prover, Progress) + Send + 'static) {
        self.progress = Some(Box::new(f));
    }

    /// Nodes searched so far (all threads).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed)
    }

    /// Nodes the threat-space solver searched at the leaves so far (all threads).
    #[must_use]
    pub fn solver_nodes(&self) -> u64 {
        self.shared.solver_nodes.load(Ordering::Relaxed)
    }

    /// Where the threat solver's calls and nodes went, per [`Site`] (all threads).
    #[must_use]
    pub fn solver_sites(&self) -> [(Site, SiteCount); 3] {
        [Site::Leaf, Site::Pass, Site::Unchecked].map(|site| {
            let c = &self.shared.sites[site as usize];
            let get = |i: usize| c[i].load(Ordering::Relaxed);
            (
                site,
                SiteCount {
                    calls: get(0),
                    found: get(1),
                    nodes_found: get(2),
                    nodes_missed: get(3),
                },
            )
        })
    }

    /// The root's proof and disproof numbers ([`INF`] for infinity).
    #[must_use]
    pub fn root_numbers(&self) -> (u32, u32) {
        self.numbers_of_root()
    }

    /// The line the search works on, as far as the table knows it: from the root, the child
    /// with the least proof number where the attacker moves and the least disproof number
    /// where the defender does, each with its numbers, until a solved position or one whose
    /// children are not in the table (at most `max_len` moves).
    #[must_use]
    pub fn principal_path(&self, max_len: usize) -> Vec<(Point, u32, u32)> {
        let mut grid = self.root_grid.clone();
        let mut keys = self.root_keys;
        let mut attacker_node = self.root_attacker;
        let mut out = Vec::new();
        while out.len() < max_len {
            let mover = self.color_to_move(attacker_node);
            let hinted = if attacker_node {
                self.options.hint.as_ref().and_then(|h| h.move_at(&grid))
            } else {
                None
            };
            // As in the search: the hint counts while it is not disproved.
            let hinted = hinted.filter(|&h| {
                let (k, _) = keys.with(h, mover).canonical(attacker_node);
                self.table().get(k).is_none_or(|e| e.pn < INF)
            });
            let mut best: Option<(u32, Point, u32, u32)> = None;
            for p in grid.points() {
                if grid.get(p).is_some() {
                    continue;
                }
                let (k, _) = keys.with(p, mover).canonical(attacker_node);
                if let Some(e) = self.table().get(k) {
                    let v = if !attacker_node {
                        e.dn
                    } else if hinted.is_some_and(|h| h != p) {
                        self.unhinted(e.pn)
                    } else {
                        e.pn
                    };
                    if best.is_none_or(|b| v < b.0) {
                        best = Some((v, p, e.pn, e.dn));
                    }
                }
            }
            let Some((_, p, pn, dn)) = best else {
                break;
            };
            out.push((p, pn, dn));
            if pn == 0 || dn == 0 {
                break;
            }
            grid.set(p, Some(mover));
            keys.toggle(p, mover);
            attacker_node = !attacker_node;
        }
        out
    }

    /// The table (solved and unsolved entries).
    #[must_use]
    pub fn table(&self) -> &Table {
        &self.shared.table
    }

    /// Bytes the table and this thread's store of expanded nodes take, roughly (each further
    /// thread keeps a store of its own, bounded as this one is).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let table = self.table().memory_bytes();
        let expanded: usize = self
            .expanded
            .values()
            .map(|e| 64 + 2 * (e.moves.capacity() + e.unchecked.capacity()))
            .sum();
        table + expanded + self.expanded.capacity() * 17
    }

    /// Loads solved entries (from a database), kept over whatever the search finds.
    pub fn seed(&mut self, entries: impl IntoIterator<Item = (u128, Entry)>) {
        for (k, e) in entries {
            if e.pn == 0 || e.dn == 0 {
                self.table().store(k, e);
            }
        }
    }

    /// The solved entries (proved or disproved positions).
    pub fn solved(&self) -> impl Iterator<Item = (u128, Entry)> {
        self.table().solved().into_iter()
    }

    /// Runs the search until the root is solved or a limit stops it, on
    /// [`Options::threads`] threads.
    pub fn run(&mut self) -> Verdict {
        self.start = Instant::now();
        self.stopped = false;
        self.shared.stop.store(false, Ordering::Relaxed);
        let threads = self.options.threads.max(1);
        if threads == 1 {
            return self.run_thread();
        }
        std::thread::scope(|s| {
            for _ in 1..threads {
                let mut w = self.worker();
                s.spawn(move || {
                    w.run_thread();
                });
            }
            let verdict = self.run_thread();
            // The others stop at their next node.
            self.shared.stop.store(true, Ordering::Relaxed);
            verdict
        })
    }

    /// One thread's search from the root.
    fn run_thread(&mut self) -> Verdict {
        loop {
            let (pn, dn) = self.numbers_of_root();
            if pn == 0 {
                return Verdict::Win;
            }
            if dn == 0 {
                return Verdict::NoWin;
            }
            if self.stopped {
                return Verdict::Unknown;
            }
            let node_attacker = self.root_attacker;
            if self.mid(node_attacker, INF - 1, INF - 1) {
                // Every line from the root is being searched by other threads: wait for them
                // rather than spin.
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }

    fn numbers_of_root(&self) -> (u32, u32) {
        let (pn, dn, _) = self.table().numbers(self.root_key);
        (pn, dn)
    }

    /// The attacker's proved move in the current position of `board` (attacker to move), if the
    /// table (`lookup` by canonical key) has one: for certificates and for the engine.
    #[must_use]
    pub fn proved_move(lookup: impl Fn(u128) -> Option<Entry>, board: &Board) -> Option<Point> {
        Prover::proved_entry(lookup, board).map(|(m, _)| m)
    }

    /// [`Prover::proved_move`], and whether the proof search proved it through its children
    /// ([`INNER`]).
    #[must_use]
    pub fn proved_entry(
        lookup: impl Fn(u128) -> Option<Entry>,
        board: &Board,
    ) -> Option<(Point, bool)> {
        let keys = keys_of(board);
        let (key, t) = keys.canonical(false);
        let e = lookup(key)?;
        (e.pn == 0 && e.best != NO_MOVE).then(|| {
            let m = keys::invert(t, index_point(e.best & !INNER), board.size());
            (m, e.best & INNER != 0)
        })
    }

    fn limit_reached(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.stop_asked() || self.nodes() >= self.options.max_nodes {
            return self.stop();
        }
        let collections = self.shared.collections.load(Ordering::Relaxed);
        if collections != self.seen_collections {
            self.seen_collections = collections;
            self.expanded.clear();
        }
        if self.nodes & 255 == 0 {
            if self.table().len() > self.options.max_entries {
                self.collect_garbage();
            }
            let now = Instant::now();
            if self.time_up() {
                return self.stop();
            }
            if self.options.threads > 1 {
                // Another thread may have solved the root.
                let (pn, dn) = self.numbers_of_root();
                if pn == 0 || dn == 0 {
                    return self.stop();
                }
            }
            if now.duration_since(self.last_report) >= Duration::from_millis(200) {
                self.last_report = now;
                if let Some(mut f) = self.progress.take() {
                    let (pn, dn) = self.numbers_of_root();
                    let p = Progress {
                        pn,
                        dn,
                        nodes: self.nodes,
                        entries: self.table().len(),
                    };
                    f(self, p);
                    self.progress = Some(f);
                }
            }
        }
        false
    }

    /// Whether a limit stops the search now, checked in full (time included) at any moment; stops
    /// the threads if so.
    fn must_stop(&mut self) -> bool {
        if self.stopped || self.stop_asked() || self.time_up() {
            return self.stop();
        }
        false
    }

    /// Another thread stopped, or the caller asked to stop (Ctrl-C).
    fn stop_asked(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
            || self
                .options
                .abort
                .as_ref()
                .is_some_and(|a| a.load(Ordering::Relaxed))
    }

    /// The time limit has passed.
    fn time_up(&self) -> bool {
        self.options
            .max_time
            .is_some_and(|t| self.start.elapsed() >= t)
    }

    /// Stops this thread and the others.
    fn stop(&mut self) -> bool {
        self.stopped = true;
        self.shared.stop.store(true, Ordering::Relaxed);
        true
    }

    /// Makes room in the table: drops the unsolved entries, and the disproved ones too when the
    /// solved ones alone take more than three quarters of it. One thread at a time; the others
    /// empty their stores of expanded nodes when they see the count grow.
    fn collect_garbage(&mut self) {
        if self.shared.collecting.swap(true, Ordering::AcqRel) {
            return;
        }
        let table = self.table();
        table.retain(|e| e.pn == 0 || e.dn == 0);
        if table.len() > self.options.max_entries / 4 * 3 {
            table.retain(|e| e.pn == 0);
        }
        self.shared.collections.fetch_add(1, Ordering::Relaxed);
        self.shared.collecting.store(false, Ordering::Release);
    }

    /// How many times the table was thinned out ([`Options::max_entries`]).
    #[must_use]
    pub fn collections(&self) -> u64 {
        self.shared.collections.load(Ordering::Relaxed)
    }

    fn color_to_move(&self, attacker_node: bool) -> Color {
        if attacker_node {
            self.attacker
        } else {
            !self.attacker
        }
    }

    /// The multiple-iterative-deepening step of df-pn at the current position. Returns whether
    /// it *bounced*: left at once, its own numbers below the thresholds, because every child
    /// it could search is busy in other threads (their virtual numbers pass the thresholds).
    /// The caller then searches another child, or bounces in its turn; without this a thread
    /// would enter and leave the same position again and again while another thread works
    /// below it (never with one thread).
    fn mid(&mut self, attacker_node: bool, th_pn: u32, th_dn: u32) -> bool {
        self.nodes += 1;
        self.shared.nodes.fetch_add(1, Ordering::Relaxed);
        let (key, t) = self.keys.canonical(!attacker_node);
        if let Some(e) = self.table().get(key) {
            if e.pn == 0 || e.dn == 0 {
                return false;
            }
        }
        if self.options.threads > 1 {
            self.table().enter(key);
            let bounced = self.mid_at(key, t, attacker_node, th_pn, th_dn);
            self.table().leave(key);
            bounced
        } else {
            self.mid_at(key, t, attacker_node, th_pn, th_dn)
        }
    }

    /// [`Prover::mid`] at the position of `key` (seen in frame `t`); returns whether it bounced.
    fn mid_at(&mut self, key: u128, t: u8, attacker_node: bool, th_pn: u32, th_dn: u32) -> bool {
        let mut node = match self.expanded.remove(&key) {
            Some(x) => x,
            None => match self.expand(attacker_node, t) {
                Expansion::Solved(e) => {
                    self.table().store(key, e);
                    return false;
                }
                Expansion::Inner(x) => x,
            },
        };
        let n = self.board.size();
        let mover = self.color_to_move(attacker_node);
        // The children that bounced in this call (not picked again in it), and whether any
        // child searched in it did work.
        let mut bounced_children: Vec<usize> = Vec::new();
        let mut worked = false;
        let bounced = loop {
            let (pn, dn, best, second, steer) =
                self.summarize(&mut node, attacker_node, t, &bounced_children);
            let best_move = if attacker_node && pn == 0 {
                node.moves[best] | INNER
            } else {
                NO_MOVE
            };
            self.table().store(
                key,
                Entry {
                    pn,
                    dn,
                    best: best_move,
                },
            );
            if pn == 0 || dn == 0 {
                return false;
            }
            // The minimised number as this thread sees it (larger where other threads are
            // busy, so that it leaves for other work rather than wait; the same number with one
            // thread).
            let (pn_seen, dn_seen) = if attacker_node {
                (steer, dn)
            } else {
                (pn, steer)
            };
            if pn_seen >= th_pn || dn_seen >= th_dn || self.limit_reached() {
                break !worked && pn < th_pn && dn < th_dn && !self.stopped;
            }
            let child = keys::invert(t, index_point(node.moves[best]), n);
            let (cpn, cdn, _) = self.child_numbers(child, mover, attacker_node);
            let (cth_pn, cth_dn) = if attacker_node {
                (
                    th_pn.min(epsilon_threshold(second)),
                    sat_sub_add(th_dn, dn, cdn),
                )
            } else {
                (
                    sat_sub_add(th_pn, pn, cpn),
                    th_dn.min(epsilon_threshold(second)),
                )
            };
            self.play(child, mover);
            if self.mid(!attacker_node, cth_pn, cth_dn) {
                bounced_children.push(best);
            } else {
                worked = true;
            }
            self.take_back(child, mover);
        };
        if self.expanded.len() >= MAX_EXPANDED {
            self.expanded.clear();
        }
        self.expanded.insert(key, node);
        bounced
    }

    fn play(&mut self, p: Point, c: Color) {
        self.board.make(p, c);
        if let Some(pos) = &mut self.pos {
            pos.make(p, c);
        }
        self.keys.toggle(p, c);
    }

    fn take_back(&mut self, p: Point, c: Color) {
        self.board.unmake(p);
        if let Some(pos) = &mut self.pos {
            pos.unmake();
        }
        self.keys.toggle(p, c);
    }

    /// The proof number `pn` of an attacker move beside a hinted one, raised by
    /// [`Options::hint_penalty`]; solved numbers (0, and INF - 1 and up) stay as they are.
    fn unhinted(&self, pn: u32) -> u32 {
        if pn == 0 || pn >= INF - 1 {
            pn
        } else {
            pn.saturating_add(self.options.hint_penalty).min(INF - 2)
        }
    }

    /// A child's numbers, and how many threads search it now.
    fn child_numbers(&self, p: Point, mover: Color, attacker_node: bool) -> (u32, u32, u16) {
        let (k, _) = self.keys.with(p, mover).canonical(attacker_node);
        self.table().numbers(k)
    }

    /// The node's numbers from its children's, widening an OR node whose tried moves all failed
    /// and checking an AND node's left-out replies when the searched ones are all proved. Returns
    /// (pn, dn, index of the child to search, the second-best child's number, the best child's
    /// number), the last two as virtual numbers ([`virtual_number`]). The children in `skip`
    /// (indices into the node's moves) count in the numbers but are not picked, nor the second
    /// best; with every child skipped the best child's number is `u32::MAX`.
    fn summarize(
        &mut self,
        node: &mut Expanded,
        attacker_node: bool,
        t: u8,
        skip: &[usize],
    ) -> (u32, u32, usize, u32, u32) {
        let n = self.board.size();
        let mover = self.color_to_move(attacker_node);
        loop {
            let count = if attacker_node {
                node.width.min(node.moves.len())
            } else {
                node.moves.len()
            };
            // The other moves count as dearer while the hinted one is not disproved (once it is,
            // the node is an ordinary one: a penalty there would be passed up to every ancestor).
            let hint_alive = attacker_node && node.hinted && {
                let p = keys::invert(t, index_point(node.moves[0]), n);
                self.child_numbers(p, mover, attacker_node).0 < INF
            };
            // OR: pn = min, dn = sum; AND: pn = sum, dn = min. `best` has the least of the
            // minimised number.
            let mut best = 0usize;
            let mut least = u32::MAX;
            let mut least_steer = u32::MAX;
            let mut second = u32::MAX;
            let mut sum: u64 = 0;
            // For weak sums: the largest summed number and how many children have one above 0.
            let mut largest: u64 = 0;
            let mut unsolved: u64 = 0;
            for i in 0..count {
                let p = keys::invert(t, index_point(node.moves[i]), n);
                let (cpn, cdn, busy) = self.child_numbers(p, mover, attacker_node);
                let (minimised, summed) = if attacker_node {
                    (cpn, cdn)
                } else {
                    (cdn, cpn)
                };
                // The child to search next is picked by its number as if it were larger while
                // other threads search it (a virtual proof number): the threads spread out.
                // With one thread nothing is busy and this is the number itself.
                let minimised = if hint_alive && i > 0 {
                    self.unhinted(minimised)
                } else {
                    minimised
                };
                let steer = virtual_number(minimised, busy);
                if skip.contains(&i) {
                    // Not picked again in this call.
                } else if steer < least_steer {
                    second = least_steer;
                    least_steer = steer;
                    best = i;
                } else if steer < second {
                    second = steer;
                }
                least = least.min(minimised);
                sum = if summed >= INF {
                    u64::from(INF)
                } else {
                    (sum + u64::from(summed)).min(u64::from(INF))
                };
                if summed > 0 {
                    unsolved += 1;
                    largest = largest.max(u64::from(summed));
                }
            }
            if self.options.sums == Sums::Weak && sum < u64::from(INF) && unsolved > 0 {
                sum = largest + unsolved - 1;
            }
            if attacker_node {
                let left = node.moves.len() - count;
                if least == INF && left > 0 {
                    // Every move tried is disproved: try the next batch.
                    node.width += self.options.width.max(1);
                    continue;
                }
                let dn = if least == 0 {
                    INF
                } else {
                    (sum + left as u64).min(u64::from(INF - 1)) as u32
                };
                let pn = least;
                return (
                    pn,
                    if pn == INF { 0 } else { dn.max(1) },
                    best,
                    second,
                    least_steer,
                );
            }
            let pn = if sum >= u64::from(INF) && least != 0 {
                INF
            } else {
                sum.min(u64::from(INF - 1)) as u32
            };
            let dn = least;
            if dn == 0 {
                return (INF, 0, best, second, least_steer);
            }
            if pn == 0 && !node.unchecked.is_empty() {
                // The searched replies are proved; every left-out reply must lose to a threat
                // sequence too, or be searched.
                let unchecked = std::mem::take(&mut node.unchecked);
                let before = node.moves.len();
                for (i, &m) in unchecked.iter().enumerate() {
                    // Up to a few hundred threat searches: a limit is honoured between them, and
                    // the replies not checked yet stay for later (the node stays unproved).
                    if self.must_stop() {
                        let left = unchecked[i..].to_vec();
                        let pn = (left.len() as u32).min(INF - 1);
                        node.unchecked = left;
                        return (pn, dn, best, second, least_steer);
                    }
                    let p = keys::invert(t, index_point(m), n);
                    if !self.attacker_wins_after(p) {
                        node.moves.push(m);
                    }
                }
                if node.moves.len() > before {
                    continue;
                }
            }
            if pn == 0 {
                return (0, INF, best, second, least_steer);
            }
            return (pn, dn, best, second, least_steer);
        }
    }

    /// Whether the threat solver finds the attacker's win after the defender's reply `p`
    /// (recording the position as proved).
    fn attacker_wins_after(&mut self, p: Point) -> bool {
        let d = !self.attacker;
        self.play(p, d);
        let (key, _) = self.keys.canonical(false);
        let known = self.table().get(key).map(|e| e.pn == 0);
        let won = match known {
            Some(w) => w,
            None => {
                let w = five_points(&self.board, d).is_empty()
                    && (!five_points(&self.board, self.attacker).is_empty()
                        || self.threat_win(self.attacker, Site::Unchecked).is_some());
                if w {
                    self.table().store(
                        key,
                        Entry {
                            pn: 0,
                            dn: INF,
                            best: NO_MOVE,
                        },
                    );
                }
                w
            }
        };
        self.take_back(p, d);
        won
    }

    /// A VCF, else a VCT, of `c` (to move) within the leaf limits, counted for `site`.
    fn threat_win(&mut self, c: Color, site: Site) -> Option<Proof> {
        let mut nodes = 0;
        let budget = match (site, self.options.pass_nodes) {
            (Site::Pass, Some(b)) => b,
            _ => self.options.leaf_nodes,
        };
        let proof = threat_win_within(&self.board, c, &self.options, budget, &mut nodes);
        self.shared.solver_nodes.fetch_add(nodes, Ordering::Relaxed);
        let counts = &self.shared.sites[site as usize];
        counts[0].fetch_add(1, Ordering::Relaxed);
        if proof.is_some() {
            counts[1].fetch_add(1, Ordering::Relaxed);
            counts[2].fetch_add(nodes, Ordering::Relaxed);
        } else {
            counts[3].fetch_add(nodes, Ordering::Relaxed);
        }
        proof
    }

    /// Expands the current position: a solved entry when a rule or the threat solver decides it,
    /// else the moves to search.
    fn expand(&mut self, attacker_node: bool, t: u8) -> Expansion {
        let a = self.attacker;
        let d = !a;
        let n = self.board.size();
        let proved = Expansion::Solved(Entry {
            pn: 0,
            dn: INF,
            best: NO_MOVE,
        });
        let disproved = Expansion::Solved(Entry {
            pn: INF,
            dn: 0,
            best: NO_MOVE,
        });
        let canon = |p: Point| point_index(keys::apply(t, p, n));
        let empties = empty_cells(&self.board);
        if attacker_node {
            if !five_points(&self.board, a).is_empty() {
                let f = five_points(&self.board, a)
                    .iter()
                    .next()
                    .expect("a five point");
                return Expansion::Solved(Entry {
                    pn: 0,
                    dn: INF,
                    best: canon(f),
                });
            }
            let theirs = five_points(&self.board, d);
            if theirs.count() >= 2 || empties.is_empty() {
                return disproved;
            }
            if let Some(f) = theirs.iter().next() {
                // The attacker must block.
                return Expansion::Inner(Expanded::forced(canon(f)));
            }
            if let Some(proof) = self.threat_win(a, Site::Leaf) {
                let first = match proof {
                    Proof::Five(p) | Proof::Threat { attack: p, .. } => p,
                };
                return Expansion::Solved(Entry {
                    pn: 0,
                    dn: INF,
                    best: canon(first),
                });
            }
            if self.options.pairing_steps > 0
                && self
                    .pairing
                    .as_ref()
                    .is_some_and(|t| t.find(&self.board, a, self.options.pairing_steps).is_some())
            {
                return disproved;
            }
            let first = self
                .options
                .hint
                .as_ref()
                .and_then(|h| h.move_at(&self.board.to_grid()));
            let moves = self.ordered(&empties, a, t, first);
            let width = self.options.width.max(1);
            return Expansion::Inner(Expanded {
                moves,
                width,
                unchecked: Vec::new(),
                hinted: first.is_some(),
            });
        }
        if !five_points(&self.board, d).is_empty() || empties.is_empty() {
            return disproved;
        }
        let ours = five_points(&self.board, a);
        if ours.count() >= 2 {
            return proved;
        }
        if let Some(f) = ours.iter().next() {
            // The defender must block.
            return Expansion::Inner(Expanded::forced(canon(f)));
        }
        let mut moves = self.ordered(&empties, d, t, None);
        let mut unchecked = Vec::new();
        if let Some(proof) = self.threat_win(a, Site::Pass) {
            // Allis's restriction: the replies that touch the threat sequence, and the
            // defender's fours.
            let sets = self.board.pattern_sets(d);
            let relevant = proof_squares(&self.board, &proof) | sets.four | sets.open_four;
            let (kept, left): (Vec<u16>, Vec<u16>) = moves
                .iter()
                .partition(|&&m| relevant.contains(keys::invert(t, index_point(m), n)));
            moves = kept;
            unchecked = left;
            if moves.is_empty() {
                // Nothing touches it: every reply is checked against the solver.
                moves = std::mem::take(&mut unchecked);
            }
        }
        Expansion::Inner(Expanded {
            moves,
            width: usize::MAX,
            unchecked,
            hinted: false,
        })
    }

    /// `cells` ordered best first for `c` to play, as canonical indices, one move per class of
    /// moves equivalent under the position's own symmetries; `first`, if given, comes first.
    fn ordered(&self, cells: &[Point], c: Color, t: u8, first: Option<Point>) -> Vec<u16> {
        let n = self.board.size();
        let order = self.options.order;
        let places = self
            .pos
            .as_ref()
            .filter(|_| order == MoveOrder::Policy)
            .map(|pos| Places::of(pos, c));
        let mut scored: Vec<(i32, Point)> = cells
            .iter()
            .map(|&p| {
                let engine = self.pos.as_ref().map_or(0, |pos| match (order, &places) {
                    (MoveOrder::Policy, Some(places)) => pos.order(p, c) + places.score(p),
                    _ => 6 * pos.value(p, c) + 5 * pos.value(p, !c),
                });
                (engine * 64 + move_score(&self.board, p, c), p)
            })
            .collect();
        scored.sort_by_key(|&(s, p)| (Some(p) != first, -s, p.y, p.x));
        let attacker_node = c == self.attacker;
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::with_capacity(scored.len());
        for (_, p) in scored {
            let (k, _) = self.keys.with(p, c).canonical(attacker_node);
            if seen.insert(k) {
                out.push(point_index(keys::apply(t, p, n)));
            }
        }
        out
    }
}

/// A VCF, else a VCT, of `c` (to move) on `board` within the leaf limits of `options`; adds the
/// nodes searched to `nodes`.
pub(crate) fn threat_win(
    board: &Board,
    c: Color,
    options: &Options,
    nodes: &mut u64,
) -> Option<Proof> {
    threat_win_within(board, c, options, options.leaf_nodes, nodes)
}

/// [`threat_win`] within `budget` nodes per mode.
fn threat_win_within(
    board: &Board,
    c: Color,
    options: &Options,
    budget: u64,
    nodes: &mut u64,
) -> Option<Proof> {
    for mode in [Mode::Vcf, Mode::Vct] {
        let mut limits = Limits::for_mode(mode);
        limits.nodes = budget;
        if mode == Mode::Vct {
            limits.depth = options.vct_depth;
        }
        let out = solve(board, c, mode, &limits);
        *nodes += out.nodes;
        if out.proof.is_some() {
            return out.proof;
        }
    }
    None
}

/// The empty cells where a stone of `c` makes five.
#[must_use]
pub fn five_points(board: &Board, c: Color) -> Bitboard {
    board.pattern_sets(c).five
}

fn empty_cells(board: &Board) -> Vec<Point> {
    let n = board.size() as u8;
    let mut out = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let p = Point::new(x, y);
            if board.stone(p).is_none() {
                out.push(p);
            }
        }
    }
    out
}

/// A cheap static score of `c` playing `p`: its own line classes there, the opponent's (a block),
/// the stones around it, nearness to the centre.
fn move_score(board: &Board, p: Point, c: Color) -> i32 {
    const OWN: [i32; 5] = [0, 12, 16, 60, 5000];
    const THEIRS: [i32; 5] = [0, 9, 12, 45, 2500];
    let rank = |pat: Pattern| pat as usize;
    let mut s = 0;
    for pat in board.patterns(p, c) {
        s += OWN[rank(pat)];
    }
    for pat in board.patterns(p, !c) {
        s += THEIRS[rank(pat)];
    }
    let n = board.size() as i32;
    let (x, y) = (i32::from(p.x), i32::from(p.y));
    for dy in -2..=2 {
        for dx in -2..=2 {
            let (qx, qy) = (x + dx, y + dy);
            if (dx, dy) == (0, 0) || !(0..n).contains(&qx) || !(0..n).contains(&qy) {
                continue;
            }
            if board.stone(Point::new(qx as u8, qy as u8)).is_some() {
                s += if dx.abs() <= 1 && dy.abs() <= 1 { 3 } else { 1 };
            }
        }
    }
    let c2 = n - 1;
    s - ((2 * x - c2).abs() + (2 * y - c2).abs()) / 4
}

/// The key table's view of `board`'s stones.
#[must_use]
pub fn keys_of(board: &Board) -> SymKeys {
    let mut k = SymKeys::new(board.size());
    for c in Color::ALL {
        for p in board.stones(c).iter() {
            k.toggle(p, c);
        }
    }
    k
}

/// A point as a table index `y * 20 + x`.
#[must_use]
pub fn point_index(p: Point) -> u16 {
    u16::from(p.y) * 20 + u16::from(p.x)
}

/// The point of a table index.
#[must_use]
pub fn index_point(i: u16) -> Point {
    Point::new((i % 20) as u8, (i / 20) as u8)
}

/// The number a child is picked by when `busy` other threads search it: a quarter larger per
/// thread, and at least one larger; solved children (0 or infinity) stay as they are.
fn virtual_number(n: u32, busy: u16) -> u32 {
    if busy == 0 || n == 0 || n >= INF - 1 {
        return n;
    }
    let add = u64::from(busy) * (u64::from(n) / 4 + 1);
    (u64::from(n) + add).min(u64::from(INF - 2)) as u32
}

/// `th - total + part`, saturating (infinite thresholds stay infinite).
fn sat_sub_add(th: u32, total: u32, part: u32) -> u32 {
    if th >= INF - 1 {
        return INF - 1;
    }
    (i64::from(th) - i64::from(total) + i64::from(part)).clamp(1, i64::from(INF - 1)) as u32
}

/// The 1+ε threshold for the best child: a quarter above the second-best child's number.
fn epsilon_threshold(second: u32) -> u32 {
    if second >= INF - 1 {
        return INF - 1;
    }
    (u64::from(second) + u64::from(second) / 4 + 1).min(u64::from(INF - 1)) as u32
}

#[cfg(test)]
mod tests;
