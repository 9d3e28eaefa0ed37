//! Per-position times of the committed solver suite: `cargo run --release -p stonelab-gomoku
//! --example suite_times`. One line per position: index, mode, rule, result, nodes, ms.
//! `DBS=1`: also the first stage's figures (threat nodes, combinations, candidates, refuted).
//! `ONLY=i,j,...`: only those positions (for profiling).
//! `SWEEP=1` with `COMB`, `MAXN`, `MAXC`, `VN`, `VF`: solve with those `dbs::Options` instead of the
//! defaults (first stage, then the full search), to tune them.

use std::time::Instant;

use stonelab_gomoku::search::dbs;
use stonelab_gomoku::search::suite::parse_suite;
use stonelab_gomoku::search::tss::search;
use stonelab_gomoku::search::{solve, Limits};
use stonelab_gomoku::Board;

const SUITE: &str = include_str!("../../../tests/data/gomoku/tss_suite.txt");

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
}

fn main() {
    let d = dbs::Options::default();
    let opts = dbs::Options {
        combination: env("COMB", u64::from(d.combination)) != 0,
        max_nodes: env("MAXN", d.max_nodes as u64) as usize,
        max_candidates: env("MAXC", d.max_candidates as u64) as usize,
        verify_nodes: env("VN", d.verify_nodes),
        verify_fours: env("VF", u64::from(d.verify_fours)) != 0,
    };
    let sweep = std::env::var_os("SWEEP").is_some();
    let mut total = 0.0;
    let mut max = 0.0f64;
    let mut nodes = 0;
    for (i, e) in parse_suite(SUITE).into_iter().enumerate() {
        if std::env::var("ONLY").is_ok_and(|o| o.split(',').all(|o| o != i.to_string())) {
            continue;
        }
        let (mode, rule, c) = (e.mode, e.rule, e.to_move);
        let board = Board::from_grid(&e.grid, rule);
        if std::env::var_os("DBS").is_some() {
            let t = Instant::now();
            let d = dbs::search(&board, c, mode, &Limits::for_mode(mode), &opts);
            println!(
                "   dbs: win {} threats {} combos {} candidates {} refuted {} nodes {} ms {:.2}",
                d.proof.is_some(),
                d.threat_nodes,
                d.combination_nodes,
                d.candidates,
                d.refuted,
                d.nodes,
                t.elapsed().as_secs_f64() * 1e3
            );
        }
        let start = Instant::now();
        let out = if sweep {
            let lim = Limits::for_mode(mode);
            let first = dbs::search(&board, c, mode, &lim, &opts);
            if first.proof.is_some() {
                stonelab_gomoku::Outcome {
                    proof: first.proof,
                    nodes: first.nodes,
                    aborted: false,
                }
            } else {
                let mut o = search(&board, c, mode, &lim);
                o.nodes += first.nodes;
                o
            }
        } else {
            solve(&board, c, mode, &Limits::for_mode(mode))
        };
        let ms = start.elapsed().as_secs_f64() * 1e3;
        total += ms;
        max = max.max(ms);
        nodes += out.nodes;
        let line = out.proof.as_ref().map_or(0, |p| p.line().len());
        println!(
            "{i:2} {} {rule:9} {:5} {:3} expected {:5} nodes {:8} ms {ms:8.2}",
            mode.name(),
            out.proof.is_some(),
            line,
            e.win,
            out.nodes
        );
    }
    println!("total {total:.1} ms, max {max:.1} ms, nodes {nodes}");
}
