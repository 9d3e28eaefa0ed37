//! `stonelab gomoku solve` run as a program: the JSON shape, the text layout, the attacker choice, and
//! bad input (exit 2, one line).

mod common;

use std::process::Output;

fn run(args: &[&str], stdin: &str) -> Output {
    common::stonelab_with_input(args, stdin)
}

/// Black to move (4 stones each) with an open three on row 3: b3..d3 plus a four to come.
const OPEN_THREE: &str = "\
.......
.......
.......
.XXX...
.......
O......
OOO.X..
";

#[test]
fn json_win_sequence_ends_on_five() {
    let o = run(&["gomoku", "solve", "--format", "json", "-"], OPEN_THREE);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(keys.len(), 5, "{v}");
    assert_eq!(v["result"], "win");
    assert_eq!(v["attacker"], "black");
    let seq = v["sequence"].as_array().unwrap();
    assert_eq!(seq.len() % 2, 1);
    assert_eq!(seq.len(), 3);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["ms"].is_u64());
}

#[test]
fn text_layout() {
    let o = run(&["gomoku", "solve", "-"], OPEN_THREE);
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "win");
    assert_eq!(lines[1].split(' ').count(), 3, "{out}");
    assert_eq!(lines.len(), 2 + 7 + 2);
    assert!(lines[2..9].iter().any(|l| l.contains('1')));
    assert!(lines[9].starts_with("nodes "));
    assert!(lines[10].starts_with("ms "));
}

#[test]
fn white_attacker_finds_nothing_and_says_so() {
    let o = run(
        &[
            "gomoku",
            "solve",
            "--attacker",
            "white",
            "--format",
            "json",
            "-",
        ],
        OPEN_THREE,
    );
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["attacker"], "white");
    assert_eq!(v["result"], "no_win_found");
    assert_eq!(v["sequence"].as_array().unwrap().len(), 0);
    let o = run(&["gomoku", "solve", "--attacker", "white", "-"], OPEN_THREE);
    assert!(String::from_utf8(o.stdout)
        .unwrap()
        .starts_with("no win found\n"));
}

#[test]
fn vct_mode_and_move_list_input() {
    // h8 i9 i8 j9 j8: Black to move? No: 3 black, 2 white, so White moves; ask for Black anyway.
    let o = run(
        &[
            "gomoku",
            "solve",
            "--mode",
            "vct",
            "--attacker",
            "black",
            "--rule",
            "standard",
            "--format",
            "json",
            "-",
        ],
        "h8 h9 i8 i9 j8 j9",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["result"], "win");
}

#[test]
fn bad_input_is_one_line_exit_2() {
    for (args, input) in [
        (
            vec!["gomoku", "solve", "-"],
            ".....\n..Q..\n.....\n.....\n.....\n",
        ),
        (vec!["gomoku", "solve", "-"], ""),
        (vec!["gomoku", "solve", "--size", "30", "-"], "a1"),
        (vec!["gomoku", "solve", "--mode", "vcx", "-"], "a1"),
        (
            vec!["gomoku", "solve", "-"],
            "XXXXX\n.....\nOOOO.\n.....\n.....\n",
        ),
        (vec!["gomoku", "solve", "/nonexistent/file"], ""),
    ] {
        let o = run(&args, input);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(o.stdout.is_empty());
        if !args.contains(&"vcx") {
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.starts_with("stonelab: error: "), "{err}");
        }
    }
}
