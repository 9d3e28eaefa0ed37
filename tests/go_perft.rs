//! Perft counts from `tests/data/go/perft.csv` (source named in the file). Rows up to the node limit
//! (200 million, or `STONELAB_PERFT_NODE_LIMIT`) run in the normal suite: 9x9 to depth 4, 5x5 to
//! depth 6, 9x9 depth 4 with suicide. `cargo test --release --test go_perft -- --ignored` runs the
//! rest (9x9 depth 5 and the three 5x5 depth-7 counts: about 80 s of CPU together on the 2-core dev
//! machine, see BENCHMARKS.md).

use std::process::Command;

use stonelab_go::vertex::parse_size;
use stonelab_go::{perft, Board, Rules};

fn node_limit() -> u64 {
    std::env::var("STONELAB_PERFT_NODE_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000_000)
}

struct Row {
    size: String,
    depth: u32,
    rules: Rules,
    nodes: u64,
}

fn rows() -> Vec<Row> {
    include_str!("data/go/perft.csv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("size") && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 5, "bad row {l}");
            Row {
                size: f[0].to_string(),
                depth: f[1].parse().unwrap(),
                rules: Rules {
                    suicide: f[2] == "yes",
                    simple_ko: f[3] == "simple",
                },
                nodes: f[4].parse().unwrap(),
            }
        })
        .collect()
}

fn check(over: bool) {
    let limit = node_limit();
    let mut ran = 0;
    for row in rows() {
        if (row.nodes <= limit) == over {
            continue;
        }
        let board = Board::new(parse_size(&row.size).unwrap(), row.rules);
        let n = perft::perft_parallel(&board, row.depth);
        assert_eq!(
            n, row.nodes,
            "{} depth {} {:?}",
            row.size, row.depth, row.rules
        );
        ran += 1;
    }
    assert!(ran > 0 || over);
}

#[test]
fn perft_counts_within_node_limit() {
    check(false);
}

#[test]
#[ignore = "minutes: 9x9 depth 5 and 5x5 depth 7"]
fn perft_counts_over_node_limit() {
    check(true);
}

#[test]
fn cli_perft_text_and_json() {
    let bin = env!("CARGO_BIN_EXE_stonelab");
    let out = Command::new(bin)
        .args(["go", "perft", "--size", "5x5", "--depth", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().last(), Some("13800"));

    let out = Command::new(bin)
        .args([
            "go", "perft", "--size", "9x9", "--depth", "2", "--format", "json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["size"], "9x9");
    assert_eq!(v["depth"], 2);
    assert_eq!(v["nodes"], 6480);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);

    let out = Command::new(bin)
        .args([
            "go",
            "perft",
            "--size",
            "2x2",
            "--depth",
            "9",
            "--suicide",
            "--no-ko",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());

    let out = Command::new(bin)
        .args(["go", "perft", "--size", "20x3", "--depth", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad board size"));
}
