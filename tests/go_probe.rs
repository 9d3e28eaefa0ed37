//! `scripts/go-probe`: positions drawn from SGF records, and an engine's moves judged by a
//! KataGo-speaking judge, with fake GTP engines (Python) standing in for both.

mod common;

use common::temp_dir;
use serde_json::Value;
use std::path::PathBuf;

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

/// A fake KataGo judge (`judge.py` in `dir`, logging to `judge.py.log`) whose best move is
/// always D4 and whose value for the side to move is the Python expression `value` of `last`,
/// the last move played ("B E5").
fn fake_judge(dir: &std::path::Path, value: &str) -> String {
    fake_gtp(
        dir,
        "judge.py",
        &format!(
            r#"        last = moves[-1] if moves else ""
        v = {value}
        answer = "\ninfo move D4 visits 9 winrate 0.6 order 0 pv D4 rootInfo visits 9 winrate %s\nplay D4" % v"#
        ),
    )
}

/// A fresh folder named after `name` holding one SGF record (`game.sgf`), and where a positions
/// set drawn from it goes (`set.jsonl`).
fn one_game(name: &str, sgf: &str) -> (common::TempDir, PathBuf, PathBuf) {
    let dir = temp_dir(name);
    let path = dir.join("game.sgf");
    std::fs::write(&path, sgf).expect("write an SGF");
    let set = dir.join("set.jsonl");
    (dir, path, set)
}

/// The lines of the positions set at `set` that a successful `positions` run wrote.
fn set_lines(out: &std::process::Output, set: &std::path::Path) -> Vec<Value> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(set)
        .expect("the set")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

/// A successful `probe --format json` run's summary and its moves' losses, in order.
fn judged(out: &std::process::Output) -> (Value, Vec<f64>) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let losses = v["moves"]
        .as_array()
        .expect("the moves")
        .iter()
        .map(|m| m["loss"].as_f64().expect("a loss"))
        .collect();
    (v, losses)
}

/// Two positions of one game; the engine plays the judge's move in the first and another in
/// the second, where the judge values the position after its own move 0.3 for the side to move
/// (the opponent) and after the engine's 0.5: a loss of 0.2. A second run asks the judge nothing
/// new (its answers are cached).
#[test]
fn an_engines_moves_are_judged_against_the_judges_own() {
    let (dir, sgf, set) = one_game(
        "go-probe",
        "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[gg];W[gc];B[cg])",
    );
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
    let lines = set_lines(&out, &set);
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
    let judge = fake_judge(
        &dir,
        r#"0.3 if last.endswith(" D4") else 0.5 if last.endswith(" C3") else 0.6"#,
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
    let (v, losses) = judged(&probe());
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

/// `probe --played` judges the moves the record played, both players', and sums them by the
/// SGF's player names; a set without the played moves, or no engine and no --played, is refused.
#[test]
fn the_played_moves_are_judged_by_player() {
    let (dir, sgf, set) = one_game(
        "go-probe-played",
        "(;GM[1]FF[4]SZ[9]KM[7]PB[Alpha]PW[Beta]RU[Chinese];B[ee];W[cc];B[gg];W[gc])",
    );
    let run = |args: &[&str]| {
        std::process::Command::new("scripts/go-probe")
            .args(args)
            .output()
            .expect("run scripts/go-probe")
    };
    let set_s = set.to_str().unwrap();
    let out = run(&[
        "positions",
        "--every",
        "1",
        "--first",
        "1",
        "--last",
        "4",
        "--out",
        set_s,
        sgf.to_str().unwrap(),
    ]);
    let lines = set_lines(&out, &set);
    let played: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l["played"].as_str().unwrap())
        .collect();
    assert_eq!(played, ["E5", "C7", "G3", "G7"]);
    let players: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l["player"].as_str().unwrap())
        .collect();
    assert_eq!(players, ["Alpha", "Beta", "Alpha", "Beta"]);
    // The judge's best move is always D4, which the record never plays; after a played move
    // it values the position 0.6 for the side to move, after D4 0.4: each move loses 0.2, but
    // Beta's G7 (after which it says 0.5) loses 0.1.
    let judge = fake_judge(
        &dir,
        r#"0.4 if last.endswith(" D4") else 0.5 if last.endswith(" G7") else 0.6"#,
    );
    let (v, losses) = judged(&run(&[
        "probe", "--played", "--judge", &judge, "--format", "json", set_s,
    ]));
    assert_eq!(losses, [0.2, 0.2, 0.2, 0.1]);
    assert_eq!(v["players"]["Alpha"]["positions"], 2);
    assert!((v["players"]["Alpha"]["mean_loss"].as_f64().unwrap() - 0.2).abs() < 1e-9);
    assert!((v["players"]["Beta"]["mean_loss"].as_f64().unwrap() - 0.15).abs() < 1e-9);
    assert_eq!(v["moves"][1]["player"], "Beta");
    // Neither an engine nor --played: refused in one line.
    let out = run(&["probe", "--judge", &judge, set_s]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    // A set made before the played moves were recorded: refused, and told to remake it.
    let old = dir.join("old.jsonl");
    let text: String = std::fs::read_to_string(&set)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if let Some(o) = v.as_object_mut() {
                o.remove("played");
            }
            format!("{v}\n")
        })
        .collect();
    std::fs::write(&old, text).unwrap();
    let out = run(&[
        "probe",
        "--played",
        "--judge",
        &judge,
        old.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("make it again"), "{err}");
}
