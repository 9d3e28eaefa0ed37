//! Helpers shared by the command-line integration tests (`mod common;` in each).
//!
//! Tests that need a program this machine may not have (GNU Go, the Python clients) are marked
//! `#[ignore = "needs ..."]`: plain `cargo test` skips them and `scripts/test` runs them with
//! `--include-ignored` after installing what they need.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `stonelab` program built for these tests.
pub const STONELAB: &str = env!("CARGO_BIN_EXE_stonelab");

/// Runs `stonelab ARGS...` and returns its output, whatever its exit status.
pub fn stonelab(args: &[&str]) -> Output {
    Command::new(STONELAB)
        .args(args)
        .output()
        .expect("cannot start stonelab")
}

/// Requires a zero exit status, showing the program's standard error when it failed.
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `stonelab ARGS...`, requires a zero exit and returns its standard output as text.
pub fn stonelab_ok(args: &[&str]) -> String {
    let out = stonelab(args);
    assert!(
        out.status.success(),
        "stonelab {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Runs `stonelab ARGS...`, requires a zero exit and parses its standard output as one JSON value.
pub fn stonelab_json(args: &[&str]) -> serde_json::Value {
    let text = stonelab_ok(args);
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("stonelab {args:?}: bad JSON ({e}): {text}"))
}

/// Runs `stonelab ARGS...` and requires the one-line error of bad input: exit code 2, a
/// `stonelab: error:` line on stderr that contains `needle`. Returns stderr.
pub fn stonelab_err(args: &[&str], needle: &str) -> String {
    let out = stonelab(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "stonelab {args:?}: {err}");
    assert!(
        err.starts_with("stonelab: error:"),
        "stonelab {args:?}: {err}"
    );
    assert!(err.contains(needle), "stonelab {args:?}: {err}");
    err
}

/// A fresh, empty temporary folder named after the test and this process, removed when the
/// returned guard is dropped (kept, and its path printed, when the test is failing, to look at).
pub fn temp_dir(tag: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("stonelab-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

/// A temporary folder that removes itself ([`temp_dir`]).
pub struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("test files kept in {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// GNU Go's path: on PATH, or where Debian puts it (/usr/games is not on every PATH). Tests that
/// call this are `#[ignore = "needs gnugo"]`.
pub fn gnugo() -> String {
    for dir in std::env::var("PATH").unwrap_or_default().split(':') {
        let p = Path::new(dir).join("gnugo");
        if p.is_file() {
            return p.display().to_string();
        }
    }
    let debian = "/usr/games/gnugo";
    assert!(
        Path::new(debian).is_file(),
        "GNU Go not found: install the Debian package gnugo (scripts/test does)"
    );
    debian.to_string()
}

/// Runs `stonelab ARGS...` with `stdin` as its standard input and returns its output, whatever its
/// exit status. A command that fails on its arguments exits before it reads its input: the write's
/// broken pipe is then expected, not a failure.
pub fn stonelab_with_input(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;

    let mut child = Command::new(STONELAB)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start stonelab");
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

// ---- Go-side helpers (the go_* tests) ----

/// Starts `program ARGS...` with its standard input and output piped and standard error as
/// given: for a test that writes the input itself (bytes that need not be UTF-8) or holds a
/// conversation with the program.
pub fn spawn_piped(
    program: &str,
    args: &[&str],
    stderr: std::process::Stdio,
) -> std::process::Child {
    use std::process::Stdio;

    Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"))
}
