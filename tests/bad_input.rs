//! Regression tests of issue 20 ("bad input, files and resources"), through the binary: every
//! refusal is one `stonelab: error: ...` line with exit code 2, never a panic, a hang or a file
//! replaced that should not be.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::{stonelab, stonelab_err, temp_dir, STONELAB};

/// A closed standard output ends the program quietly (exit 0, nothing on stderr).
#[test]
fn a_closed_pipe_ends_quietly() {
    let indices: Vec<String> = (0..20_000).map(|i| i.to_string()).collect();
    let mut child = Command::new(STONELAB)
        .args(["gomoku", "lut"])
        .args(&indices)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("0 "), "{first}");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

/// A full standard output is an error: exit 2 and one line.
#[test]
fn a_full_output_is_an_error() {
    for args in [
        &["go", "count", "3x3"][..],
        &["go", "perft", "--size", "3", "--depth", "2"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(STONELAB)
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(
            err.trim_end(),
            "stonelab: error: cannot write standard output: No space left on device (os error 28)"
        );
    }
}

/// Argument errors are one `stonelab: error:` line (with clap's tip), then the usage hint.
#[test]
fn argument_errors_are_one_line_then_the_usage() {
    let out = stonelab(&["go", "count", "3x3", "--foo"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0],
        "stonelab: error: unexpected argument '--foo' found; tip: to pass '--foo' as a value, \
         use '-- --foo'"
    );
    assert!(lines[1].starts_with("Usage: stonelab go count"), "{err}");
    assert!(!err.contains("\nerror:"), "{err}");
    let err = stonelab_err(&["go", "perft", "--size", "3"], "--depth <DEPTH>");
    assert!(
        err.starts_with("stonelab: error: the following required arguments were not provided: "),
        "{err}"
    );
    // Control characters in an argument are not echoed.
    let err = stonelab_err(
        &["go", "perft", "--size", "3", "--depth", "x\x01y"],
        "invalid",
    );
    assert!(!err.contains('\x01'), "{err:?}");
    assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
}

/// An OS error is printed once, not once per layer that wraps it.
#[test]
fn os_errors_are_printed_once() {
    let dir = temp_dir("os-errors");
    let missing = dir.join("missing.db");
    let missing = missing.to_str().unwrap();
    for args in [
        &["go", "query", missing][..],
        &["go", "gtp", "--db", missing],
        &["go", "solve", "2x2", "--states", missing],
        &["gomoku", "threats", missing],
    ] {
        let err = stonelab_err(args, "No such file or directory (os error 2)");
        assert_eq!(err.matches("os error 2").count(), 1, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--out` and `--record` never replace what is not a regular file (a FIFO, a folder, a symbolic
/// link), and a missing folder is an error, not created.
#[test]
fn outputs_replace_only_regular_files() {
    let dir = temp_dir("outputs");
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let link = dir.join("link");
    std::os::unix::fs::symlink(dir.join("target"), &link).unwrap();
    for path in [fifo.as_path(), &dir, link.as_path()] {
        let p = path.to_str().unwrap();
        for args in [
            &["go", "enumerate", "2x2", "--out", p][..],
            &["go", "solve", "2x2", "--out", p],
            &[
                "go", "match", "--black", "true", "--white", "true", "--record", p,
            ],
            &[
                "gomoku", "match", "--a", "true", "--b", "true", "--record", p,
            ],
        ] {
            stonelab_err(args, "is not a regular file; it is not replaced");
        }
    }
    assert!(fifo.exists() && !dir.join("target").exists());
    let missing = dir.join("no/such/x.db");
    let p = missing.to_str().unwrap();
    for args in [
        &["go", "enumerate", "2x2", "--out", p][..],
        &["go", "solve", "2x2", "--out", p],
        &[
            "gomoku", "match", "--a", "true", "--b", "true", "--record", p,
        ],
    ] {
        stonelab_err(args, "does not exist");
    }
    assert!(!dir.join("no").exists(), "no folder is created");
    // A regular file is replaced as before.
    let db = dir.join("x.db");
    std::fs::write(&db, "old").unwrap();
    let out = stonelab(&["go", "enumerate", "2x2", "--out", db.to_str().unwrap()]);
    assert!(out.status.success());
    assert_ne!(std::fs::read(&db).unwrap(), b"old");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Thread, worker and job counts have a stated limit.
#[test]
fn thread_counts_are_bounded() {
    for (args, needle) in [
        (
            &["go", "solve", "2x2", "--workers", "1000"][..],
            "--workers 1000 is over the limit of 256",
        ),
        (
            &["go", "solve", "2x2", "--workers", "0"],
            "--workers must be at least 1",
        ),
        (
            &["go", "count", "3x3", "--threads", "10000"],
            "--threads 10000 is over the limit of 256",
        ),
        (
            &["go", "enumerate", "2x2", "--out", "x", "--threads", "300"],
            "over the limit of 256",
        ),
        (
            &["go", "gtp", "--threads", "10000"],
            "over the limit of 256",
        ),
        (
            &[
                "gomoku", "match", "--a", "true", "--b", "true", "--jobs", "5000",
            ],
            "--jobs 5000 is over",
        ),
    ] {
        stonelab_err(args, needle);
    }
    let out = Command::new(common::STONELAB.replace("stonelab", "pbrain-stonelab"))
        .args(["--tt-mib", "1000000"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("pbrain-stonelab: error: invalid value '1000000'"),
        "{err}"
    );
    // An unknown search switch: one error line naming it and the known ones, before any
    // protocol starts.
    let out = Command::new(common::STONELAB.replace("stonelab", "pbrain-stonelab"))
        .args(["--switches", "delay-fours,bogus"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("pbrain-stonelab: error: invalid value 'delay-fours,bogus'")
            && err.contains("unknown search switch 'bogus'")
            && err.contains("alpha-cut"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    // An unknown or out-of-range search knob: one error line, before any protocol starts.
    for (list, says) in [
        ("lmr-divisor=1.2,bogus=3", "unknown search knob 'bogus'"),
        ("policy-gap=-5", "policy-gap: -5 is not in"),
        ("cut-reduction", "is not NAME=VALUE"),
    ] {
        let out = Command::new(common::STONELAB.replace("stonelab", "pbrain-stonelab"))
            .args(["--knobs", list])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.starts_with(&format!("pbrain-stonelab: error: invalid value '{list}'"))
                && err.contains(says),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
    // A weights file that is missing or does not parse: one error line naming the flag.
    let bad = std::env::temp_dir().join(format!("stonelab-bad-weights-{}.txt", std::process::id()));
    std::fs::write(&bad, "Five Five Five Five 1\n").unwrap();
    for (flag, file, says) in [
        ("--eval-weights", bad.to_str().unwrap(), "expected `A B C D"),
        ("--order-weights", "/nonexistent/order.txt", "No such file"),
        (
            "--threat-weights",
            bad.to_str().unwrap(),
            "expected `NAMES WEIGHT`",
        ),
        (
            "--renju-white-weights",
            bad.to_str().unwrap(),
            "expected `A B C D",
        ),
        (
            "--renju-black-threat-weights",
            bad.to_str().unwrap(),
            "expected `NAMES WEIGHT`",
        ),
    ] {
        let out = Command::new(common::STONELAB.replace("stonelab", "pbrain-stonelab"))
            .args([flag, file])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.starts_with(&format!("pbrain-stonelab: error: {flag} {file}: "))
                && err.contains(says)
                && err.lines().count() == 1,
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
    let _ = std::fs::remove_file(&bad);
}

/// Komi must be finite everywhere; time flags have a limit (no overflow of a deadline).
#[test]
fn komi_and_times_are_checked() {
    for args in [
        &["go", "query", "x.db", "--komi", "NaN"][..],
        &["go", "query", "x.db", "--komi", "inf"],
        &[
            "go", "replay", "--size", "3", "--moves", "B A1", "--komi", "nan",
        ],
        &[
            "go",
            "replay",
            "--size",
            "3",
            "--moves",
            "B A1",
            "--komi=-inf",
        ],
        &[
            "go", "match", "--black", "x", "--white", "y", "--komi", "infinity",
        ],
    ] {
        stonelab_err(args, "komi must be a finite number");
    }
    for args in [
        &["gomoku", "solve", "--max-ms", "18446744073709551615", "-"][..],
        &[
            "gomoku",
            "match",
            "--a",
            "x",
            "--b",
            "y",
            "--turn-ms",
            "18446744073709551615",
        ],
        &[
            "go",
            "match",
            "--black",
            "x",
            "--white",
            "y",
            "--timeout-ms",
            "99999999999",
        ],
        &["go", "gtp", "--move-ms", "18446744073709551615"],
    ] {
        stonelab_err(args, "over the limit of 1000000000 ms");
    }
    // A huge GTP clock is a long think, not an overflow.
    let mut gtp = common::spawn_piped(
        STONELAB,
        &["go", "gtp", "--threads", "1", "--playouts", "50"],
        Stdio::piped(),
    );
    use std::io::Write;
    gtp.stdin
        .take()
        .unwrap()
        .write_all(
            b"boardsize 5\ntime_settings 1e300 0 0\ngenmove b\ntime_left w 1e300 0\ngenmove w\n",
        )
        .unwrap();
    let out = gtp.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.matches("= ").count(), 5, "{text}");
}

/// Writes `text` to a file of a fresh folder; returns the folder (removed when dropped) and the
/// file's path.
fn sgf_file(tag: &str, text: &str) -> (common::TempDir, std::path::PathBuf) {
    let dir = temp_dir(tag);
    let path = dir.join("game.sgf");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// Runs `stonelab go gtp` on `input` and returns its answers (without the empty lines).
fn gtp_session(input: &str) -> Vec<String> {
    use std::io::Write;
    let mut gtp = common::spawn_piped(
        STONELAB,
        &["go", "gtp", "--threads", "1", "--playouts", "50"],
        Stdio::piped(),
    );
    gtp.stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = gtp.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .split_terminator("\n\n")
        .map(str::to_string)
        .collect()
}

/// Long and deeply nested SGF is read without recursion: a clear answer, not a stack overflow.
#[test]
fn long_and_deep_sgf_do_not_overflow_the_stack() {
    let long = format!("(;SZ[19]{})", ";B[]".repeat(150_000));
    let deep = format!(
        "(;SZ[19]{}{})",
        "(;B[aa]".repeat(150_000),
        ")".repeat(150_000)
    );
    for (tag, text, needle) in [
        (
            "sgf-long",
            &long,
            "move 3 (B pass): the game ended after two passes",
        ),
        ("sgf-deep", &deep, "move 2 (B A19): illegal move"),
    ] {
        let (_dir, path) = sgf_file(tag, text);
        stonelab_err(&["go", "replay", path.to_str().unwrap()], needle);
        let answers = gtp_session(&format!("loadsgf {}\nname\n", path.display()));
        assert!(
            answers[0].starts_with("? cannot load file: "),
            "{answers:?}"
        );
        assert!(answers[0].contains(needle), "{answers:?}");
        assert_eq!(answers[1], "= stonelab");
    }
    let (_dir, path) = sgf_file("sgf-ok", "(;SZ[19];B[aa];W[])");
    assert!(stonelab(&["go", "replay", path.to_str().unwrap()])
        .status
        .success());
}

/// `go replay` takes the board from SZ when --size is not given, and komi from KM unless
/// --komi is given; GTP `loadsgf` takes KM too.
#[test]
fn sgf_size_and_komi_are_honoured() {
    let (_dir, path) = sgf_file("sgf-km", "(;GM[1]SZ[5]KM[6.5];B[cc])");
    let p = path.to_str().unwrap();
    let v = common::stonelab_json(&["go", "replay", p, "--format", "json"]);
    assert_eq!(v["size"], "5x5");
    assert_eq!(v["score"], "B+18.5");
    let v = common::stonelab_json(&["go", "replay", p, "--komi", "0.5", "--format", "json"]);
    assert_eq!(v["score"], "B+24.5");
    let v = common::stonelab_json(&["go", "replay", p, "--size", "5", "--format", "json"]);
    assert_eq!(v["score"], "B+18.5");
    stonelab_err(
        &["go", "replay", p, "--size", "7"],
        "differs from --size 7x7",
    );
    // No SZ: 19x19.
    let (_dir, path) = sgf_file("sgf-19", "(;B[aa])");
    let v = common::stonelab_json(&["go", "replay", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(v["size"], "19x19");
    let answers = gtp_session(&format!("komi 3\nloadsgf {p}\nfinal_score\nshowboard\n"));
    assert_eq!(answers[2], "= B+18.5", "{answers:?}");
    assert!(answers[3].ends_with("komi 6.5"), "{answers:?}");
    // --moves still needs --size.
    stonelab_err(&["go", "replay", "--moves", "B A1"], "--moves needs --size");
}

/// Bad SGF values are refused with what the file says; impossible setups and moves after the
/// game ended are refused too.
#[test]
fn sgf_values_setups_and_ended_games_are_checked() {
    for (sgf, needle) in [
        ("(;SZ[5];B[Aa])", "move 1 (B Aa): illegal move: off board"),
        (
            "(;SZ[5]KM[nan];B[aa])",
            "invalid property KM[nan] (komi must be a finite number)",
        ),
        ("(;SZ[5]KM[inf])", "invalid property KM[inf]"),
        (
            "(;SZ[5]AB[cc]AW[cc])",
            "SGF setup point 'cc' (C3) is set up twice in one node",
        ),
        ("(;SZ[5]AB[aa:cc]AE[bb])", "set up twice"),
        (
            "(;SZ[5];B[aa];W[];B[];W[bb])",
            "move 4 (W B4): the game ended after two passes",
        ),
        (
            "(;SZ[5];B[aa];W[tt];B[tt];W[bb])",
            "the game ended after two passes",
        ),
        ("(;SZ[60])", "invalid property SZ[60]"),
        ("(;SZ[25])", "SGF board size 25x25 is not supported"),
        ("(;SZ[5];B[a\u{1b}])", "invalid property B[a\\u{1b}]"),
        (
            "(;SZ[5];B[aa](;W[bb]);B[cc])",
            "malformed SGF: a node after a variation (line 1)",
        ),
    ] {
        let (_dir, path) = sgf_file("sgf-values", sgf);
        let err = stonelab_err(&["go", "replay", path.to_str().unwrap()], needle);
        assert!(!err.contains('\u{1b}'), "{err:?}");
    }
    stonelab_err(
        &[
            "go",
            "replay",
            "--size",
            "5",
            "--moves",
            "B pass W pass B A1",
        ],
        "move 3 (B A1): the game ended after two passes",
    );
}

/// Impossible Gomoku positions: a stone after a five, a side to move that the counts cannot
/// give, a malformed move reported as a move, an opening that is already won.
#[test]
fn impossible_gomoku_positions_are_refused() {
    let run = |args: &[&str], input: &str| common::stonelab_with_input(args, input);
    let fails = |args: &[&str], input: &str, needle: &str| {
        let out = run(args, input);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("stonelab: error: ") && err.contains(needle),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    };
    let five_then_more = "a8 a1 b8 b1 c8 c1 d8 d1 e8 o15";
    fails(
        &["gomoku", "threats", "-"],
        five_then_more,
        "move o15 comes after the five made by e8",
    );
    fails(
        &["gomoku", "solve", "-"],
        five_then_more,
        "the game was over",
    );
    fails(&["gomoku", "threats", "-"], "h8 h-1", "'h-1' is not a move");
    let four_black =
        "...............\n".repeat(10) + ".XXXX..........\n" + &"...............\n".repeat(4);
    fails(
        &["gomoku", "solve", "-"],
        &four_black,
        "4 black and 0 white stones cannot come from a game",
    );
    let out = run(
        &["gomoku", "solve", "--attacker", "black", "-"],
        &four_black,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("win"));

    let dir = temp_dir("five-opening");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "h8 h9\n7,0 0,0 8,0 0,1 9,0 0,2 10,0 0,3 11,0\n").unwrap();
    stonelab_err(
        &[
            "gomoku",
            "match",
            "--a",
            "true",
            "--b",
            "true",
            "--openings",
            openings.to_str().unwrap(),
        ],
        "openings.txt:2: the opening already holds a five of black",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The processes whose command line is `sleep SECONDS`.
fn sleepers(seconds: &str) -> Vec<String> {
    let want = format!("sleep\0{seconds}\0");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| std::fs::read(e.path().join("cmdline")).is_ok_and(|c| c == want.as_bytes()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// A `gomoku match` engine that hangs is killed with its process group: it does not outlive
/// the match.
#[test]
fn a_hung_gomoku_engine_does_not_outlive_its_match() {
    let seconds = format!("317.{}", std::process::id());
    let hung = format!("read l; echo OK; exec sleep {seconds}");
    let pbrain = STONELAB.replace("stonelab", "pbrain-stonelab");
    let random = format!("{pbrain} --player random");
    let out = stonelab(&[
        "gomoku",
        "match",
        "--a",
        &hung,
        "--b",
        &random,
        "--games",
        "1",
        "--turn-ms",
        "100",
        "--format",
        "json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"][0]["end"], "timeout", "{v}");
    assert!(
        sleepers(&seconds).is_empty(),
        "the hung engine outlived the match"
    );
}

/// `go match` names the engines in its game lines, and a record whose winner is not B, W or
/// draw is refused (it used to count as a draw).
#[test]
fn go_match_names_engines_and_checks_record_winners() {
    let dir = temp_dir("go-match-names");
    let passer = dir.join("pass.sh");
    std::fs::write(
        &passer,
        "while read -r line; do case \"$line\" in\n\
         name*) printf '= passer\\n\\n';;\n\
         genmove*) printf '= pass\\n\\n';;\n\
         known_command*) printf '= false\\n\\n';;\n\
         quit*) printf '= \\n\\n'; exit 0;;\n\
         *) printf '= \\n\\n';;\n\
         esac; done\n",
    )
    .unwrap();
    let passer = format!("sh {}", passer.display());
    let record = dir.join("m.jsonl");
    let r = record.to_str().unwrap();
    let args = |games: &'static str| {
        vec![
            "go", "match", "--black", &passer, "--white", &passer, "--size", "5", "--games", games,
            "--record", r,
        ]
    };
    let text = common::stonelab_ok(&args("1"));
    assert!(
        text.starts_with("game 1: black=black (passer) white=white (passer) W+7 after 2 moves"),
        "{text}"
    );
    let good = std::fs::read_to_string(&record).unwrap();
    std::fs::write(
        &record,
        good.replace("\"winner\":\"W\"", "\"winner\":\"Q\""),
    )
    .unwrap();
    stonelab_err(
        &args("2"),
        "line 2: game 1 has winner 'Q', expected B, W or draw",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--progress` draws a bar on stderr even when it is not a terminal (for go count, go count
/// --method dp, go perft and go enumerate); without it a pipe gets nothing.
#[test]
fn progress_bars_on_request() {
    let dir = temp_dir("progress");
    let out = dir.join("x.states");
    let out = out.to_str().unwrap();
    for (args, unit) in [
        (&["go", "count", "4x4", "--progress"][..], "tasks"),
        (
            &["go", "count", "6x6", "--method", "dp", "--progress"],
            "cells",
        ),
        (
            &["go", "perft", "--size", "9x9", "--depth", "3", "--progress"],
            "root moves",
        ),
        (
            &["go", "enumerate", "3x3", "--out", out, "--progress"],
            "tasks",
        ),
    ] {
        let o = stonelab(args);
        assert!(o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(unit) && err.contains("eta"),
            "{args:?}: {err:?}"
        );
        let quiet = stonelab(&args[..args.len() - 1]);
        assert!(
            quiet.status.success() && quiet.stderr.is_empty(),
            "{args:?}"
        );
        assert_eq!(o.stdout.lines().count(), quiet.stdout.lines().count());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
