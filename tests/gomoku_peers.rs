//! `pbrain-stonelab` against programs nobody here wrote:
//! - protocol conformance through PyPI `pygomo-lib` (`tests/python/pygomo_drive.py`): whole games on
//!   8x8, 15x15 and 20x20, both rules, every move checked;
//! - strength against every Gomoku AI on PyPI that can be driven headless (`gomoku` 0.1.0,
//!   `gomoku-terminal` 1.0.2, `gomokubench` 0.1.10, `pygomoku` 1.0.0), each behind a thin pbrain
//!   adapter in `tests/python/pbrain_adapters/`, through `stonelab gomoku match`.
//!
//! Python: `STONELAB_PYTHON`, else `<repo>/.venv/bin/python`, with `tests/python-requirements.txt`
//! installed; `gomoku` 0.1.0 clashes with `gomoku-terminal` (both install a top-level `gomoku`), so
//! it lives in `PBRAIN_GOMOKU_DIR`, else `<repo>/.venv/gomoku-0.1.0`. `./scripts/test` sets all of
//! this up. Our engine searches a fixed number of nodes and the adapters take the game number as
//! their seed, so every match here is deterministic. Both tests are `#[ignore = "needs python"]`:
//! plain `cargo test` skips them, `./scripts/test` runs them.

mod common;

use std::process::Command;

const BRAIN: &str = env!("CARGO_BIN_EXE_pbrain-stonelab");
const REPO: &str = env!("CARGO_MANIFEST_DIR");

fn python() -> String {
    let py =
        std::env::var("STONELAB_PYTHON").unwrap_or_else(|_| format!("{REPO}/.venv/bin/python"));
    let ok = Command::new(&py)
        .args([
            "-c",
            "import pygomo, importlib.util as u; \
             assert all(u.find_spec(m) for m in ('libs', 'pygomoku', 'gomoku'))",
        ])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(
        ok,
        "pygomo-lib and the Gomoku AIs are not available to '{py}': run ./scripts/test (it installs \
         tests/python-requirements.txt into .venv and sets STONELAB_PYTHON)"
    );
    py
}

fn gomoku_dir() -> String {
    let dir =
        std::env::var("PBRAIN_GOMOKU_DIR").unwrap_or_else(|_| format!("{REPO}/.venv/gomoku-0.1.0"));
    assert!(
        std::path::Path::new(&dir).join("gomoku").is_dir(),
        "gomoku 0.1.0 is not installed in '{dir}': run ./scripts/test, or \
         `pip install --no-deps --target {dir} gomoku==0.1.0`"
    );
    dir
}

#[test]
#[ignore = "needs python"]
fn pygomo_drives_whole_games() {
    let py = python();
    let engine = format!("{BRAIN} --nodes 5000");
    for (size, rule, games) in [
        ("8", "0", "4"),
        ("15", "0", "4"),
        ("15", "1", "4"),
        ("20", "0", "4"),
    ] {
        let out = Command::new(&py)
            .arg(format!("{REPO}/tests/python/pygomo_drive.py"))
            .args([
                "--engine", &engine, "--size", size, "--rule", rule, "--games", games,
            ])
            .args(["--turn-ms", "1000", "--seed", "7"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{size}x{size} rule {rule}: {text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let summary: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        assert_eq!(summary["games"].as_u64(), Some(games.parse().unwrap()));
        assert_eq!(summary["illegal"], 0);
        assert_eq!(summary["errors"].as_array().map(Vec::len), Some(0));
        assert!(summary["about"]
            .as_str()
            .unwrap()
            .contains("name=\"stonelab\""));
    }
}

/// Plays `games` games against `opponent` (an adapter command) on 15x15 and returns A's wins.
fn wins_against(opponent: &str, games: u32) -> (u64, serde_json::Value) {
    let engine = format!("{BRAIN} --nodes 150000 --quiet");
    // A generous clock: the adapters ignore time, and a slow move must not count as our win.
    let games = games.to_string();
    let m = common::stonelab_json(&[
        "gomoku",
        "match",
        "--format",
        "json",
        "--size",
        "15",
        "--turn-ms",
        "30000",
        "--jobs",
        "2",
        "--games",
        &games,
        "--a",
        &engine,
        "--b",
        opponent,
    ]);
    assert_eq!(m["timeouts"], 0, "{opponent}: {m}");
    for g in m["games"].as_array().unwrap() {
        assert!(
            g["end"] == "five" || g["end"] == "board_full",
            "{opponent}: game {} ended by {} ({})",
            g["number"],
            g["end"],
            g["note"]
        );
    }
    (m["wins"].as_u64().unwrap(), m)
}

fn adapter(py: &str, file: &str, args: &str) -> String {
    format!("{py} {REPO}/tests/python/pbrain_adapters/{file} --seed {{game}} {args}")
}

#[test]
#[ignore = "needs python"]
fn beats_every_pypi_gomoku_ai() {
    let py = python();
    let dir = gomoku_dir();
    let opponents = [
        (
            adapter(&py, "pbrain_gomoku.py", &format!("--pkg-dir {dir}")),
            40,
        ),
        (
            adapter(&py, "pbrain_gomoku_terminal.py", "--level hard"),
            20,
        ),
        (
            adapter(&py, "pbrain_gomokubench.py", "--level standard"),
            10,
        ),
        (adapter(&py, "pbrain_pygomoku.py", "--level heuristic"), 4),
    ];
    for (opponent, games) in opponents {
        let (wins, m) = wins_against(&opponent, games);
        eprintln!(
            "{opponent}: {wins}/{games} wins ({} as black)",
            m["wins_as_black"]
        );
        assert!(
            wins * 100 >= 95 * u64::from(games),
            "{opponent}: {wins}/{games} wins, below 95%"
        );
    }
}
