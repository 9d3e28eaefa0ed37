//! The engine's part of `stonelab gomoku bench`: a fixed node budget on fixed positions, so that
//! nodes per second is measured and a change that alters the search shows in the signature.

use std::time::Instant;

use stonelab_gomoku::engine::{Budget, Engine};
use stonelab_gomoku::games::bench_positions;
use stonelab_gomoku::search::referee::Referee;
use stonelab_gomoku::{Color, Rule};

/// Positions searched (every 61st of the fixed set, none with a five on the board).
pub const ENGINE_POSITIONS: usize = 16;
/// Nodes a position.
pub const ENGINE_NODES: u64 = 100_000;

pub struct EngineFigures {
    pub positions: usize,
    /// Search nodes per second (alpha-beta and threat-space nodes together).
    pub nodes_per_s: f64,
    /// The total node count: the same code and positions always give the same number.
    pub signature: u64,
}

pub fn engine_figures(rule: Rule) -> EngineFigures {
    let all = bench_positions(1000, rule);
    let mut engine = Engine::new(15, rule, 16 << 20);
    let (mut nodes, mut ms, mut positions) = (0u64, 0.0f64, 0usize);
    for moves in all.iter().step_by(61) {
        if positions == ENGINE_POSITIONS {
            break;
        }
        engine = Engine::new(15, rule, engine.table_bytes());
        let mut c = Color::Black;
        for &p in moves {
            engine.make(p, c);
            c = !c;
        }
        let referee = Referee::new(&engine.position().board().to_grid(), rule);
        if Color::ALL.iter().any(|&k| referee.has_five(k)) {
            continue;
        }
        let start = Instant::now();
        let d = engine.think(c, Budget::nodes(ENGINE_NODES));
        ms += start.elapsed().as_secs_f64() * 1e3;
        nodes += d.nodes;
        positions += 1;
    }
    EngineFigures {
        positions,
        nodes_per_s: nodes as f64 / (ms / 1e3),
        signature: nodes,
    }
}
