//! `stonelab go count` through the binary: output shapes, and clear errors (exit 2) for sizes
//! a method cannot do.

mod common;

use std::process::{Command, Output};

fn stonelab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stonelab"))
        .args(args)
        .output()
        .expect("runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = stonelab(args);
    common::assert_success(&out);
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn json_shape_for_enumeration() {
    let v = json(&["go", "count", "3x3", "--format", "json", "--threads", "2"]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        [
            "board",
            "ko_points",
            "legal",
            "max_ko_points",
            "reduced",
            "seconds"
        ]
    );
    assert_eq!(v["board"], "3x3");
    assert_eq!(v["legal"], 12675);
    assert_eq!(v["reduced"], 1824);
    assert_eq!(v["ko_points"], 70);
    assert_eq!(v["max_ko_points"], 2);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    // Key order as the contract prints it.
    let text =
        String::from_utf8(stonelab(&["go", "count", "2x2", "--format", "json"]).stdout).unwrap();
    assert!(text.starts_with(
        r#"{"board":"2x2","legal":57,"reduced":13,"ko_points":0,"max_ko_points":0,"seconds":"#
    ));
}

#[test]
fn text_lines() {
    let out = stonelab(&["go", "count", "2x2"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(
        names,
        [
            "board",
            "legal",
            "reduced",
            "ko_points",
            "max_ko_points",
            "seconds"
        ]
    );
    assert!(text.contains("legal 57\n"));
}

#[test]
fn dp_json_numbers_and_strings() {
    let v = json(&["go", "count", "4x4", "--method", "dp", "--format", "json"]);
    assert_eq!(v["legal"], 24318165);
    assert_eq!(v["method"], "dp");
    // Beyond u64 the count is a string of digits.
    let v = json(&["go", "count", "7x7", "--method", "dp", "--format", "json"]);
    assert_eq!(v["legal"], "83677847847984287628595");
    let v = json(&["go", "count", "3x4", "--legal-only", "--format", "json"]);
    assert_eq!(v["legal"], 321689);
    assert_eq!(v["method"], "enumerate");
}

#[test]
fn bad_sizes_exit_2_with_one_error_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["go", "count", "4"], "malformed"),
        (&["go", "count", "4x"], "malformed"),
        (&["go", "count", "axb"], "malformed"),
        (&["go", "count", "0x4"], "zero"),
        (&["go", "count", "6x6"], "estimated"),
        (&["go", "count", "9x9"], "out of reach"),
        (&["go", "count", "6x6", "--legal-only"], "estimated"),
        (&["go", "count", "19x19", "--method", "dp"], "GiB"),
        (
            &["go", "enumerate", "5x5", "--out", "/nonexistent/x"],
            "GiB",
        ),
    ];
    for (args, word) in cases {
        let out = stonelab(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("stonelab: error: "), "{err}");
        assert!(err.contains(word), "{args:?}: {err}");
    }
}
