//! `stonelab go replay` through the binary: text and JSON reports, SGF input, illegal moves (exit 2,
//! message with the move number and reason) and malformed input (a clear error, never a panic).

mod common;

use std::process::{Command, Output};

fn replay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stonelab"))
        .args(["go", "replay"])
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit code 2, a `stonelab: error:` line naming all of `words`, and no panic.
fn fails_with(o: &Output, words: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.starts_with("stonelab: error:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for w in words {
        assert!(err.contains(w), "'{w}' not in: {err}");
    }
}

/// A ko on the top edge of 5x5: Black C4 takes B4.
const KO_GAME: &str = "B B5 W C5 B A4 W D4 B B3 W C3 B E1 W B4 B C4";

#[test]
fn text_report() {
    let o = replay(&["--size", "5x5", "--komi", "0.5", "--moves", KO_GAME]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        text,
        ".XO..\nX.XO.\n.XO..\n.....\n....X\n\
         captures black 1\ncaptures white 0\nko B4\nscore B+3.5\n"
    );
}

#[test]
fn json_report() {
    let o = replay(&["--size", "5x5", "--moves", KO_GAME, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["board"][0], ".XO..");
    assert_eq!(v["board"].as_array().unwrap().len(), 5);
    assert_eq!(v["captures_black"], 1);
    assert_eq!(v["captures_white"], 0);
    assert_eq!(v["ko"], "B4");
    assert_eq!(v["score"], "B+4");
    assert_eq!(v["moves"], 9);
    // White passes: the ko ban is lifted, and W+ scores print with their sign.
    let o = replay(&[
        "--size",
        "3x4",
        "--komi",
        "7",
        "--moves",
        "W pass B pass",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["ko"], serde_json::Value::Null);
    assert_eq!(v["score"], "W+7");
    assert_eq!(v["size"], "3x4");
}

#[test]
fn illegal_moves_exit_2_with_number_and_reason() {
    let ko = format!("{KO_GAME} W B4");
    fails_with(
        &replay(&["--size", "5x5", "--moves", &ko]),
        &["move 10", "ko"],
    );
    fails_with(
        &replay(&["--size", "5x5", "--moves", "B C3 W C3"]),
        &["move 2", "occupied"],
    );
    fails_with(
        &replay(&["--size", "3x3", "--moves", "B A2 W C3 B B1 W A1"]),
        &["move 4", "suicide"],
    );
    fails_with(
        &replay(&["--size", "9x9", "--moves", "B C3 W K5"]),
        &["move 2", "off board"],
    );
}

#[test]
fn malformed_input_is_a_clear_error() {
    fails_with(
        &replay(&["--size", "5x5", "--moves", "B C3 W"]),
        &["move 2"],
    );
    fails_with(&replay(&["--size", "5x5", "--moves", "Q C3"]), &["colour"]);
    fails_with(&replay(&["--size", "5x5", "--moves", "B 3C"]), &["vertex"]);
    fails_with(&replay(&["--size", "0x5", "--moves", "B A1"]), &["size"]);
    fails_with(&replay(&["--size", "5x5"]), &["--moves"]);
    let dir = common::temp_dir("replay");
    for (name, sgf, words) in [
        ("cut.sgf", "(;SZ[5];B[aa", &["malformed SGF"][..]),
        ("bad.sgf", "(;SZ[5];B[a])", &["malformed SGF", "B[a]"][..]),
        ("size.sgf", "(;SZ[9];B[aa])", &["size"][..]),
        ("off.sgf", "(;SZ[5];B[ag])", &["move 1", "off board"][..]),
        ("dead.sgf", "(;SZ[5]AB[aa]AW[ab][ba])", &["no liberty"][..]),
        ("junk.sgf", "hello", &["SGF"][..]),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, sgf).unwrap();
        fails_with(&replay(&["--size", "5x5", path.to_str().unwrap()]), words);
    }
}

#[test]
fn sgf_input() {
    let dir = common::temp_dir("replay-sgf");
    // Setup stones, a pass as W[] and as B[tt], a capture, and a 5-row, 7-column rectangle.
    let path = dir.join("game.sgf");
    std::fs::write(
        &path,
        "(;GM[1]FF[4]SZ[7:5]AB[ba]AW[aa];W[];B[ab];W[gd];B[tt](;W[fe])(;W[ee]))",
    )
    .unwrap();
    let o = replay(&["--size", "5x7", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        &lines[..5],
        [".X.....", "X......", ".......", "......O", ".....O."]
    );
    assert_eq!(lines[5], "captures black 1");
    assert_eq!(lines[7], "ko none");
}
