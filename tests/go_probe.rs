//! `scripts/go-probe`: positions drawn from SGF records, and an engine's moves judged by a
//! KataGo-speaking judge, with fake GTP engines (Python) standing in for both.

mod common;

use common::temp_dir;
use serde_json::Value;

/// A fake GTP engine: keeps the moves played, answers `genmove` and `kata-search_analyze` with
/// `body` (Python lines that set `answer` from `moves`), and logs each analysis to `log`.
fn fake_gtp(dir: &std::path::Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    let log = dir.join(format!("{name}.log"));
    std::fs::write(
        &path,
        format!(
            r#"import sys
moves = []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd, answer = words[0], ""
    if cmd == "clear_board":
        moves = []
    elif cmd == "play":
        moves.append(words[1].upper() + " " + words[2].upper())
    elif cmd in ("genmove", "kata-search_analyze"):
        if cmd == "kata-search_analyze":
            open({log:?}, "a").write(",".join(moves) + "\n")
{body}
    elif cmd == "quit":
        print("= \n", flush=True)
        break
    print("= " + answer + "\n", flush=True)
"#,
            log = log.display().to_string()
        ),
    )
    .expect("write a fake engine");
    format!("python3 {}", path.display())
}

/// Two positions of one game; the engine plays the judge's move in the first and another in
/// the second, where the judge values the position after its own move 0.3 for the side to move
/// (the opponent) and after the engine's 0.5: a loss of 0.2. A second run asks the judge nothing
/// new (its answers are cached).
#[test]
fn an_engines_moves_are_judged_against_the_judges_own() {
    let dir = temp_dir("go-probe");
    let sgf = dir.join("game.sgf");
    std::fs::write(
        &sgf,
        "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[gg];W[gc];B[cg])",
    )
    .expect("write an SGF");
    let set = dir.join("set.jsonl");
    let out = std::process::Command::new("scripts/go-probe")
        .args([
            "positions",
            "--every",
            "2",
            "--first",
            "2",
            "--last",
            "5",
            "--out",
        ])
        .arg(&set)
        .arg(&sgf)
        .output()
        .expect("run scripts/go-probe");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = std::fs::read_to_string(&set)
        .expect("the set")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 3, "a header and two positions");
    assert_eq!(lines[1]["moves"], serde_json::json!(["B E5"]));
    assert_eq!(lines[1]["to_move"], "W");
    assert_eq!(
        lines[2]["moves"],
        serde_json::json!(["B E5", "W C7", "B G3"])
    );
    assert_eq!(lines[2]["komi"], 7.0);

    let engine = fake_gtp(
        &dir,
        "engine.py",
        r#"        answer = "D4" if len(moves) == 1 else "C3""#,
    );
    let judge = fake_gtp(
        &dir,
        "judge.py",
        r#"        last = moves[-1] if moves else ""
        v = 0.3 if last.endswith(" D4") else 0.5 if last.endswith(" C3") else 0.6
        answer = "\ninfo move D4 visits 9 winrate 0.6 order 0 pv D4 rootInfo visits 9 winrate %s\nplay D4" % v"#,
    );
    let probe = || {
        std::process::Command::new("scripts/go-probe")
            .args([
                "probe", "--engine", &engine, "--judge", &judge, "--format", "json",
            ])
            .arg(&set)
            .output()
            .expect("run scripts/go-probe")
    };
    let out = probe();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let losses: Vec<f64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["loss"].as_f64().unwrap())
        .collect();
    assert_eq!(losses, [0.0, 0.2]);
    assert_eq!(v["agree"], 1);
    assert_eq!(v["blunders"], 1);
    assert!((v["mean_loss"].as_f64().unwrap() - 0.1).abs() < 1e-9);
    let asked = || {
        std::fs::read_to_string(dir.join("judge.py.log"))
            .expect("the judge's log")
            .lines()
            .count()
    };
    // Each position, after the judge's move, and after the engine's other move.
    assert_eq!(asked(), 5);
    let again = probe();
    assert!(again.status.success());
    assert_eq!(asked(), 5, "the cache answers the second run");
}

/// Bad input is one line on stderr and exit code 2, not a traceback.
#[test]
fn the_probe_refuses_what_is_not_a_positions_file() {
    let dir = temp_dir("go-probe-bad");
    let bogus = dir.join("bogus.jsonl");
    std::fs::write(&bogus, "{\"record\": \"something else\"}\n").expect("write");
    let out = std::process::Command::new("scripts/go-probe")
        .args(["probe", "--engine", "true", "--judge", "true"])
        .arg(&bogus)
        .output()
        .expect("run scripts/go-probe");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a go-probe positions file"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = std::process::Command::new("scripts/go-probe")
        .args(["positions", "--out"])
        .arg(dir.join("set.jsonl"))
        .arg(dir.join("missing.sgf"))
        .output()
        .expect("run scripts/go-probe");
    assert_eq!(out.status.code(), Some(2));
}
