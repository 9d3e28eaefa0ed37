//! `stonelab go playout-error`: the playouts' values against a judge's on positions whose
//! values are plain, repeatable figures, the playout flags, and input errors (one line, exit 2).

mod common;

/// A 5x5 board cut in two by a black wall down the middle column: Black's area is at least the
/// wall and one side, so the playouts give Black nearly every game (komi 0.5).
const WALL: &str = "B C1,W pass,B C2,W pass,B C3,W pass,B C4,W pass,B C5";

fn judged(dir: &std::path::Path, lines: &[String]) -> String {
    let path = dir.join("set.judge.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn playouts_agree_with_plain_values() {
    let dir = common::temp_dir("go_playout_error");
    // White to move after the wall: White's value is near 0; Black to move after a white pass:
    // near 1. A duplicate key counts once.
    let lines = [
        format!(r#"{{"key": "5/0.5/{WALL}", "value": 0.02, "best": "pass"}}"#),
        format!(r#"{{"key": "5/0.5/{WALL},W pass", "value": 0.98, "best": "A1"}}"#),
        format!(r#"{{"key": "5/0.5/{WALL}", "value": 0.02, "best": "pass"}}"#),
    ];
    let path = judged(&dir, &lines);
    let args = [
        "go",
        "playout-error",
        &path,
        "--playouts",
        "200",
        "--format",
        "json",
    ];
    let report = common::stonelab_json(&args);
    assert_eq!(report["positions"], 2);
    assert!(report["mse"].as_f64().unwrap() < 0.02, "{report}");
    assert!(report["correlation"].as_f64().unwrap() > 0.99, "{report}");
    // Repeatable, on any number of worker threads; the playout flags are accepted.
    assert_eq!(
        common::stonelab_json(&[&args[..], &["--threads", "1"]].concat()),
        report
    );
    let flags = [
        "--local-rate",
        "50",
        "--second-last-shapes",
        "true",
        "--ko-fights",
        "true",
        "--nakade",
        "true",
        "--two-liberties",
        "true",
    ];
    let flagged = common::stonelab_json(&[&args[..], &flags].concat());
    assert_eq!(flagged["positions"], 2);
    let text = common::stonelab_ok(&args[..5]);
    assert!(
        text.starts_with("positions 2, 200 playouts each:"),
        "{text}"
    );
}

#[test]
fn bad_input_is_one_line() {
    let dir = common::temp_dir("go_playout_error_bad");
    let good = format!(r#"{{"key": "5/0.5/{WALL}", "value": 0.02}}"#);
    let path = judged(&dir, &[good.clone(), "{not json".into()]);
    common::stonelab_err(&["go", "playout-error", &path], "line 2");
    let path = judged(
        &dir,
        &[r#"{"key": "5/0.5/B C1,B C1", "value": 0.5}"#.into()],
    );
    common::stonelab_err(&["go", "playout-error", &path], "illegal move");
    let path = judged(&dir, &[r#"{"key": "5/0.5/B C1", "value": 1.5}"#.into()]);
    common::stonelab_err(&["go", "playout-error", &path], "not a win rate");
    let path = judged(&dir, &[String::new()]);
    common::stonelab_err(&["go", "playout-error", &path], "no judged positions");
    let path = judged(&dir, &[good]);
    common::stonelab_err(
        &["go", "playout-error", &path, "--local-rate", "101"],
        "101",
    );
    common::stonelab_err(
        &["go", "playout-error", "/nonexistent/x.jsonl"],
        "cannot read",
    );
}
