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
