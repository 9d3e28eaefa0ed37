//! `stonelab go perft`: text and JSON output, the rule flags and a bad size (the counts themselves
//! are checked against tests/data/go/perft.csv in crates/go/tests/perft.rs).

use std::process::Command;

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
