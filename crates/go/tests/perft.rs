//! Perft counts from `tests/data/go/perft.csv` (source named in the file). Rows up to the node limit
//! (200 million, or `STONELAB_PERFT_NODE_LIMIT`) run in the normal suite: 9x9 to depth 4, 5x5 to
//! depth 6, 9x9 depth 4 with suicide. `cargo test --release -p stonelab-go --test perft --
//! --ignored` runs the rest (9x9 depth 5 and the three 5x5 depth-7 counts: about 80 s of CPU
//! together on the 2-core dev machine, see BENCHMARKS.md).

mod common;

use common::data_rows;
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
    data_rows("perft.csv")
        .into_iter()
        .map(|f| {
            assert_eq!(f.len(), 5, "bad row {f:?}");
            Row {
                size: f[0].clone(),
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
