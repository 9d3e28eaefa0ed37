//! The engine's part of `stonelab gomoku bench`: a fixed node budget on fixed positions, so that
//! nodes per second is measured and a change that alters the search shows in the signature.

use std::time::Instant;

use stonelab_gomoku::engine::{Budget, Engine};
use stonelab_gomoku::games::bench_positions;
use stonelab_gomoku::search::referee::Referee;
use stonelab_gomoku::{Color, Point, Rule};

/// Positions searched (every 61st of the fixed set, none with a five on the board).
pub const ENGINE_POSITIONS: usize = 16;
/// Nodes a position.
pub const ENGINE_NODES: u64 = 100_000;

/// Milliseconds a position in the timed (threaded) figures.
pub const TIMED_MS: u64 = 250;

pub struct EngineFigures {
    pub positions: usize,
    /// Search nodes per second (alpha-beta and threat-space nodes together).
    pub nodes_per_s: f64,
    /// The total node count: the same code and positions always give the same number.
    pub signature: u64,
    /// A hash of every position's decision (move, score, depth): it changes when the search
    /// decides differently within the same node budget, which the node count alone need not show.
    pub decisions: u64,
    /// Threads of the timed figures.
    pub threads: usize,
    /// Nodes per second with one thread, [`TIMED_MS`] a position.
    pub timed_nodes_per_s_1: f64,
    /// Nodes per second with `threads` threads (Lazy SMP, every thread's nodes), the same time.
    pub timed_nodes_per_s_n: f64,
}

/// The fixed positions' moves (each with the side to move), none with a five on the board.
fn positions(rule: Rule) -> Vec<(Vec<Point>, Color)> {
    let mut out = Vec::new();
    for moves in bench_positions(1000, rule).iter().step_by(61) {
        if out.len() == ENGINE_POSITIONS {
            break;
        }
        let engine = engine_at(moves, rule);
        let referee = Referee::new(&engine.position().board().to_grid(), rule);
        if Color::ALL.iter().any(|&k| referee.has_five(k)) {
            continue;
        }
        let to_move = if moves.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        out.push((moves.clone(), to_move));
    }
    out
}

/// A fresh engine (empty table) with `moves` played, Black first.
fn engine_at(moves: &[Point], rule: Rule) -> Engine {
    let mut engine = Engine::new(15, rule, 16 << 20);
    let mut c = Color::Black;
    for &p in moves {
        engine.make(p, c);
        c = !c;
    }
    engine
}

/// Folds `words` into the FNV-1a hash `h`.
fn fold(mut h: u64, words: &[i64]) -> u64 {
    for w in words {
        for b in w.to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// Positions, total nodes, milliseconds and the decisions' hash of `think` on every position
/// with `budget` and `threads`, each from an empty table.
fn run(rule: Rule, budget: Budget, threads: usize) -> (usize, u64, f64, u64) {
    let (mut nodes, mut ms) = (0u64, 0.0f64);
    let mut decisions = 0xcbf2_9ce4_8422_2325_u64;
    let all = positions(rule);
    for (moves, to_move) in &all {
        let mut engine = engine_at(moves, rule);
        engine.set_threads(threads);
        let start = Instant::now();
        let d = engine.think(*to_move, budget);
        ms += start.elapsed().as_secs_f64() * 1e3;
        nodes += d.nodes;
        let score = d.score.map_or(i64::MIN, i64::from);
        decisions = fold(
            decisions,
            &[
                i64::from(d.best.x),
                i64::from(d.best.y),
                score,
                i64::from(d.depth),
            ],
        );
    }
    (all.len(), nodes, ms, decisions)
}

pub fn engine_figures(rule: Rule, threads: usize) -> EngineFigures {
    let (positions, nodes, ms, decisions) = run(rule, Budget::nodes(ENGINE_NODES), 1);
    let timed = Budget::time(std::time::Duration::from_millis(TIMED_MS));
    let (_, nodes_1, ms_1, _) = run(rule, timed, 1);
    let (_, nodes_n, ms_n, _) = run(rule, timed, threads);
    EngineFigures {
        positions,
        nodes_per_s: nodes as f64 / (ms / 1e3),
        signature: nodes,
        decisions,
        threads,
        timed_nodes_per_s_1: nodes_1 as f64 / (ms_1 / 1e3),
        timed_nodes_per_s_n: nodes_n as f64 / (ms_n / 1e3),
    }
}
