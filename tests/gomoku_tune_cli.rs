//! `stonelab gomoku selfplay` and `stonelab gomoku tune` as programs: a small record is made,
//! resumed, and fitted; the fitted weights file is in the compiled-in file's format; bad records are
//! refused with one error line.

mod common;

use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stonelab-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn selfplay_resumes_and_tune_writes_weights() {
    let dir = temp("ok");
    let record = dir.join("games.jsonl");
    let record_s = record.to_str().unwrap();
    let play = |games: &str| {
        common::stonelab_with_input(
            &[
                "gomoku",
                "selfplay",
                "--size",
                "9",
                "--games",
                games,
                "--nodes",
                "1500",
                "--threads",
                "1",
                "--out",
                record_s,
            ],
            "",
        )
    };
    let o = play("3");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let first = std::fs::read_to_string(&record).unwrap();
    assert_eq!(first.lines().count(), 4);
    let o = play("5");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.lines().count(), 6);
    assert!(text.starts_with(&first), "a resumed record keeps its games");
    assert!(String::from_utf8_lossy(&o.stdout).contains("(2 played now)"));
    // Other settings on the same file are refused.
    let o = common::stonelab_with_input(
        &[
            "gomoku", "selfplay", "--size", "9", "--games", "5", "--nodes", "99", "--out", record_s,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));

    let weights = dir.join("w.txt");
    let threat = dir.join("t.txt");
    let o = common::stonelab_with_input(
        &[
            "gomoku",
            "tune",
            record_s,
            "--epochs",
            "5",
            "--holdout",
            "0",
            "--format",
            "json",
            "--out",
            weights.to_str().unwrap(),
            "--threat-out",
            threat.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["games"], 5);
    // The threat-mask weights: a valid file whose header names the fit.
    let t = std::fs::read_to_string(&threat).unwrap();
    assert!(t.contains("Provenance: `stonelab gomoku tune"), "{t}");
    assert_eq!(
        stonelab_gomoku::engine::threats::parse(&t).unwrap().len(),
        2048
    );
    // With --no-threats they stay the compiled-in ones.
    let o = common::stonelab_with_input(
        &[
            "gomoku",
            "tune",
            record_s,
            "--epochs",
            "5",
            "--no-threats",
            "--threat-out",
            threat.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let t = std::fs::read_to_string(&threat).unwrap();
    assert!(t.contains("--no-threats"), "{t}");
    assert_eq!(
        stonelab_gomoku::engine::threats::parse(&t).unwrap(),
        stonelab_gomoku::engine::threats::table()
    );
    assert!(report["train_samples"].as_u64().unwrap() > 10);
    assert!(
        report["train_loss_after"].as_f64().unwrap()
            <= report["train_loss_before"].as_f64().unwrap() + 1e-9
    );
    let w = std::fs::read_to_string(&weights).unwrap();
    assert_eq!(
        stonelab_gomoku::engine::weights::parse(&w).unwrap().len(),
        1820
    );
    // With the move choices of player a (Black in every self-play game): a report of them and a
    // header that names them.
    let o = common::stonelab_with_input(
        &[
            "gomoku",
            "tune",
            record_s,
            "--epochs",
            "5",
            "--holdout",
            "20",
            "--choices",
            record_s,
            "--choices-player",
            "a",
            "--format",
            "json",
            "--out",
            weights.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let c = &report["choices"];
    assert!(c["train_positions"].as_u64().unwrap() > 5, "{report}");
    assert!(c["holdout_positions"].as_u64().unwrap() >= 1, "{report}");
    assert_eq!(c["temperature"], report["scale"]);
    let w = std::fs::read_to_string(&weights).unwrap();
    assert!(w.contains("With the move choices of player a"), "{w}");
    let o = common::stonelab_with_input(
        &[
            "gomoku",
            "tune",
            record_s,
            "--choices",
            record_s,
            "--temperature",
            "-1",
        ],
        "",
    );
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tune_refuses_bad_records() {
    let dir = temp("bad");
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"size\":15,\"rule\":\"freestyle\"}\nnot json\n").unwrap();
    let o = common::stonelab_with_input(&["gomoku", "tune", bad.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 2"), "{err}");
    let o =
        common::stonelab_with_input(&["gomoku", "tune", dir.join("none").to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A labels file (`scripts/gomoku-label`'s format): soft results are fitted, the report counts the
/// positions, and a value outside 0..=1 or a repeated move is refused with the line named.
#[test]
fn tune_fits_labelled_positions_and_refuses_bad_ones() {
    let dir = temp("labels");
    let labels = dir.join("labels.jsonl");
    let head = r#"{"record":"stonelab gomoku labels","version":1,"size":15,"rule":"freestyle","brain":"x","turn_ms":100,"scale":200.0,"sources":[]}"#;
    // Black's three in a row with White scattered: good for whoever has the row.
    let mut text = format!("{head}\n");
    let rows = [
        (r#"[[7,7],[0,0],[8,7],[0,14]]"#, 0.9),
        (r#"[[7,7],[0,0],[8,7],[0,14],[9,7]]"#, 0.1),
        (r#"[[7,7],[0,0]]"#, 0.55),
        (r#"[[7,7],[0,0],[7,8]]"#, 0.3),
    ];
    for (moves, value) in rows {
        text.push_str(&format!(
            "{{\"moves\":{moves},\"score\":\"0\",\"value\":{value}}}\n"
        ));
    }
    std::fs::write(&labels, &text).unwrap();
    let o = common::stonelab_with_input(
        &[
            "gomoku",
            "tune",
            labels.to_str().unwrap(),
            "--epochs",
            "100",
            "--step",
            "1",
            "--holdout",
            "0",
            "--model",
            "table",
            "--format",
            "json",
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["games"], 4);
    assert_eq!(report["train_samples"], 4);
    assert!(
        report["train_loss_after"].as_f64().unwrap()
            < report["train_loss_before"].as_f64().unwrap()
    );
    for (line, why) in [
        (r#"{"moves":[[7,7]],"score":"0","value":1.5}"#, "value"),
        (
            r#"{"moves":[[7,7],[7,7]],"score":"0","value":0.5}"#,
            "repeated",
        ),
        (
            r#"{"moves":[[7,7],[15,2]],"score":"0","value":0.5}"#,
            "off the board",
        ),
    ] {
        std::fs::write(&labels, format!("{head}\n{line}\n")).unwrap();
        let o = common::stonelab_with_input(&["gomoku", "tune", labels.to_str().unwrap()], "");
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("line 2") && err.contains(why), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Labels of several board sizes fit together (a cell's patterns are the same on every board);
/// labels of another rule are refused.
#[test]
fn tune_mixes_board_sizes_but_not_rules() {
    let dir = temp("labels-sizes");
    let file = |name: &str, size: usize, rule: &str| {
        let path = dir.join(name);
        let c = size / 2;
        let mut text = format!(
            r#"{{"record":"stonelab gomoku labels","version":1,"size":{size},"rule":"{rule}","brain":"x","turn_ms":100,"scale":200.0,"sources":[]}}"#
        );
        text.push('\n');
        for (moves, value) in [
            (format!("[[{c},{c}],[0,0],[{},{c}],[0,1]]", c + 1), 0.9),
            (format!("[[{c},{c}],[0,0]]"), 0.55),
            (format!("[[{c},{c}],[0,0],[{c},{}]]", c + 1), 0.3),
        ] {
            text.push_str(&format!(
                "{{\"moves\":{moves},\"score\":\"0\",\"value\":{value}}}\n"
            ));
        }
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let (a, b) = (
        file("15.jsonl", 15, "freestyle"),
        file("20.jsonl", 20, "freestyle"),
    );
    let tune = |files: &[&str]| {
        let mut args = vec!["gomoku", "tune", "--epochs", "5", "--holdout", "0"];
        args.extend_from_slice(&["--model", "table", "--format", "json"]);
        args.extend_from_slice(files);
        common::stonelab_with_input(&args, "")
    };
    let o = tune(&[&a, &b]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["games"], 6, "{report}");
    assert_eq!(report["train_samples"], 6, "{report}");
    let c = file("standard.jsonl", 15, "standard");
    let o = tune(&[&a, &c]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("another rule"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `gomoku tune-order` fits the move order to one player's moves: a report before and after, an
/// order file in the compiled-in format; labelled positions and a missing `--player` are refused.
#[test]
fn tune_order_writes_an_order_file() {
    let dir = temp("order");
    let record = dir.join("games.jsonl");
    let record_s = record.to_str().unwrap();
    let o = common::stonelab_with_input(
        &[
            "gomoku",
            "selfplay",
            "--size",
            "9",
            "--games",
            "4",
            "--nodes",
            "1500",
            "--threads",
            "1",
            "--out",
            record_s,
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.join("order.txt");
    // `gomoku tune-order` on the record for player a, no games held out, a JSON report.
    let tune = |extra: &[&str]| {
        let mut args = vec!["gomoku", "tune-order", record_s, "--player", "a"];
        args.extend_from_slice(&["--holdout", "0", "--format", "json"]);
        args.extend_from_slice(extra);
        common::stonelab_with_input(&args, "")
    };
    let o = tune(&["--epochs", "20", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["games"], 4);
    assert!(report["train_samples"].as_u64().unwrap() > 10);
    let before = report["train_before"]["loss"].as_f64().unwrap();
    let after = report["train_after"]["loss"].as_f64().unwrap();
    assert!(after < before, "{before} -> {after}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("tune-order --player a"));
    let order = stonelab_gomoku::engine::weights::parse_order(&text).unwrap();
    assert_eq!(order.pairs.len(), 1820);
    // The place scores (relative to the last two stones) are fitted too, and written.
    let near: Vec<i64> = report["near"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(near, order.near.map(i64::from).to_vec());
    assert!(near.iter().any(|&v| v != 0), "{near:?}");
    // `--cells-only` keeps them where they start (zeros in the compiled-in file).
    let o = tune(&["--epochs", "20", "--cells-only"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cells_only: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(cells_only["near"]
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v.as_i64() == Some(0)));

    // `--start FILE`: the fit starts from that file's scores (the hand-set order here, where the
    // compiled-in one is fitted), so the loss before differs; a file that does not parse is one
    // error line.
    let handset = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/gomoku/data/order-weights-handset.txt"
    );
    let fit_from = |start: &str| tune(&["--epochs", "0", "--start", start]);
    let o = fit_from(handset);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let from_handset: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let handset_loss = from_handset["train_before"]["loss"].as_f64().unwrap();
    assert!(
        (handset_loss - before).abs() > 1e-6,
        "{handset_loss} {before}"
    );
    let bad = dir.join("bad-order.txt");
    std::fs::write(&bad, "Five Five Five Five 1\n").unwrap();
    let o = fit_from(bad.to_str().unwrap());
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad-order.txt") && err.trim().lines().count() == 1,
        "{err}"
    );

    let o = common::stonelab_with_input(&["gomoku", "tune-order", record_s], "");
    assert_eq!(o.status.code(), Some(2), "--player is required");
    let labels = dir.join("labels.jsonl");
    std::fs::write(
        &labels,
        "{\"record\": \"stonelab gomoku labels\", \"version\": 1, \"size\": 9, \"rule\": \"freestyle\"}\n",
    )
    .unwrap();
    let o = common::stonelab_with_input(
        &[
            "gomoku",
            "tune-order",
            labels.to_str().unwrap(),
            "--player",
            "a",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no moves to learn"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `scripts/gomoku-label --selfplay`: the brain plays itself from the openings, every position it
/// was sent is labelled with its score and game, each game follows from its opening, and a second
/// run with the same settings resumes (plays nothing more); records and --selfplay together are
/// refused with one error line.
#[test]
fn labeller_plays_games_against_itself_and_resumes() {
    let dir = temp("label-selfplay");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# two openings\nc3 d4 e3\n4,4 5,5 3,5\n").unwrap();
    let out = dir.join("labels.jsonl");
    let brain = format!("{} --nodes 3000", env!("CARGO_BIN_EXE_pbrain-stonelab"));
    let run = |extra: &[&str]| {
        let mut args = vec![
            "scripts/gomoku-label",
            "--brain",
            &brain,
            "--turn-ms",
            "5000",
            "--jobs",
            "2",
            "--selfplay",
            "3",
            "--size",
            "9",
            "--openings",
            openings.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        std::process::Command::new("python3")
            .args(&args)
            .output()
            .unwrap()
    };
    let o = run(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    let head: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(head["size"], 9);
    assert_eq!(head["rule"], "freestyle");
    let rows: Vec<serde_json::Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    let mut games = std::collections::BTreeMap::new();
    for r in &rows {
        let v = r["value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&v), "{r}");
        assert!(r["score"].is_string(), "{r}");
        let moves = r["moves"].as_array().unwrap().clone();
        games
            .entry(r["game"].as_u64().unwrap())
            .or_insert_with(Vec::new)
            .push(moves);
    }
    assert_eq!(games.keys().copied().collect::<Vec<_>>(), [0, 1, 2]);
    for (g, positions) in &games {
        // The openings in turn; c3 is column c (x 2), row 3 from the bottom (y 9 - 3 = 6).
        let first = if g % 2 == 0 { [2, 6] } else { [4, 4] };
        assert_eq!(positions[0][0], serde_json::json!(first), "game {g}");
        // Game 2 is past the first pass through the openings: random moves follow its opening.
        let stones = positions[0].len();
        assert_eq!(stones == 3, *g < 2, "game {g}: {stones} stones");
        // Each position is the one before with one more move.
        for w in positions.windows(2) {
            assert_eq!(w[1].len(), w[0].len() + 1, "game {g}");
            assert_eq!(w[1][..w[0].len()], w[0][..], "game {g}");
        }
    }
    let again = run(&[]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("0 to go"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let bad = run(&["tests/gomoku_tune_cli.rs"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `scripts/gomoku-label`'s score-to-value mapping: Rapfi's `+M7`/`-M7` and stonelab's mate scores
/// (about +-1,000,000, which overflowed the exponential and killed the labeller's worker) are 1 and
/// 0; an ordinary score is the sigmoid of score / scale.
#[test]
fn labeller_maps_every_mate_form_to_a_result() {
    let code = r#"
import importlib.machinery, sys
m = importlib.machinery.SourceFileLoader("label", "scripts/gomoku-label").load_module()
for s in ["+M7", "-M7", "999990", "-999993", "100", "-100", "0", "5000", "-5000"]:
    print(s, m.score_value(s, 200.0))
"#;
    let o = std::process::Command::new("python3")
        .args(["-c", code])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let values: Vec<f64> = text
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(values[..4], [1.0, 0.0, 1.0, 0.0], "{text}");
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x / 200.0).exp());
    for (v, s) in values[4..]
        .iter()
        .zip([100.0, -100.0, 0.0, 5000.0, -5000.0])
    {
        assert!((v - sigmoid(s)).abs() < 1e-12, "{s}: {v}");
    }
}

/// `scripts/gomoku-label` draws a position once: two records of the same game, and a third game
/// reaching the same stones in another order, give the positions of one game and no more; and
/// with `--exclude`, none that a label file holds (in any order of its moves).
#[test]
fn labeller_draws_each_position_once() {
    let dir = temp("label-draw");
    let head = r#"{"record":"stonelab gomoku match","version":1,"size":15,"rule":"freestyle"}"#;
    let game = r#"{"number":1,"opening_stones":1,"moves":[[7,7],[8,8],[6,6],[9,9],[5,5],[10,10],[4,4],[11,11]]}"#;
    // Black's first two moves swapped: from three stones on, the same stones as `game`.
    let swapped =
        r#"{"number":2,"opening_stones":1,"moves":[[6,6],[8,8],[7,7],[9,9],[5,5],[0,0],[1,1]]}"#;
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    std::fs::write(&a, format!("{head}\n{game}\n")).unwrap();
    std::fs::write(&b, format!("{head}\n{game}\n{swapped}\n")).unwrap();
    // A label file holding `game`'s 2-stone position and its 5-stone one with Black's moves
    // in another order.
    let labels = dir.join("labels.jsonl");
    std::fs::write(
        &labels,
        concat!(
            r#"{"record":"stonelab gomoku labels","version":1}"#,
            "\n",
            r#"{"moves":[[7,7],[8,8]],"score":"0","value":0.5}"#,
            "\n",
            r#"{"moves":[[5,5],[8,8],[6,6],[9,9],[7,7]],"score":"0","value":0.5}"#,
            "\n"
        ),
    )
    .unwrap();
    let code = format!(
        r#"
import importlib.machinery
m = importlib.machinery.SourceFileLoader("label", "scripts/gomoku-label").load_module()
board, out = m.read_positions(["{a}", "{b}"], 100, 0, 1, set())
print(len(out), sorted(len(p) for p in out))
board, out = m.read_positions(["{a}", "{b}"], 100, 0, 1, m.labelled_keys(["{labels}"]))
print(len(out), sorted(len(p) for p in out))
"#,
        a = a.display(),
        b = b.display(),
        labels = labels.display()
    );
    let o = std::process::Command::new("python3")
        .args(["-c", &code])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // `game` gives its positions of 1..=7 stones (never the last), once for both files;
    // `swapped` adds its 1-, 2- and 6-stone ones: at 3, 4 and 5 stones it has the game's stones.
    // With the label file, `game`'s 2- and 5-stone positions are left out (`swapped`'s 2-stone
    // one has other stones).
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        text.trim(),
        "10 [1, 1, 2, 2, 3, 4, 5, 6, 6, 7]\n8 [1, 1, 2, 3, 4, 6, 6, 7]",
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Under renju each colour has weights of its own: `--out` writes Black's and `--out-white`
/// White's (both in the compiled-in format, and only together), `--threat-out` and
/// `--threat-out-white` the threat weights by side to move; `--out-white` is refused elsewhere.
#[test]
fn tune_under_renju_writes_weights_per_colour() {
    let dir = temp("renju");
    let labels = dir.join("labels.jsonl");
    let head = |rule: &str| {
        format!(
            r#"{{"record":"stonelab gomoku labels","version":1,"size":15,"rule":"{rule}","brain":"x","turn_ms":100,"scale":200.0,"sources":[]}}"#
        )
    };
    let rows = [
        (r#"[[7,7],[0,0],[8,7],[0,14]]"#, 0.9),
        (r#"[[7,7],[0,0],[8,7],[0,14],[9,8]]"#, 0.2),
        (r#"[[7,7],[0,0],[7,8],[14,0],[6,6]]"#, 0.35),
        (r#"[[7,7],[0,0],[7,8]]"#, 0.3),
    ];
    let mut text = format!("{}\n", head("renju"));
    for (moves, value) in rows {
        text.push_str(&format!(
            "{{\"moves\":{moves},\"score\":\"0\",\"value\":{value}}}\n"
        ));
    }
    std::fs::write(&labels, &text).unwrap();
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let tune = |extra: &[&str]| {
        let mut args = vec![
            "gomoku".to_string(),
            "tune".into(),
            labels.to_str().unwrap().into(),
            "--epochs".into(),
            "50".into(),
            "--holdout".into(),
            "0".into(),
            "--model".into(),
            "table".into(),
        ];
        args.extend(extra.iter().map(|s| (*s).to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        common::stonelab_with_input(&args, "")
    };
    let (b, w, tb, tw) = (path("b.txt"), path("w.txt"), path("tb.txt"), path("tw.txt"));
    let o = tune(&[
        "--out",
        &b,
        "--out-white",
        &w,
        "--threat-out",
        &tb,
        "--threat-out-white",
        &tw,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (file, who) in [(&b, "Black's renju"), (&w, "White's renju")] {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(text.starts_with(&format!("# {who} weights")), "{text}");
        assert_eq!(
            stonelab_gomoku::engine::weights::parse(&text)
                .unwrap()
                .len(),
            1820
        );
    }
    // The colours were fitted apart: the files differ.
    assert_ne!(
        std::fs::read_to_string(&b)
            .unwrap()
            .lines()
            .skip(10)
            .collect::<Vec<_>>(),
        std::fs::read_to_string(&w)
            .unwrap()
            .lines()
            .skip(10)
            .collect::<Vec<_>>()
    );
    for file in [&tb, &tw] {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(text.contains("under renju"), "{text}");
        assert!(stonelab_gomoku::engine::threats::parse(&text).is_ok());
    }
    // One colour's file alone is refused, as is --out-white under another rule.
    let o = tune(&["--out", &b]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out-white"));
    let o = tune(&["--threat-out", &tb]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::write(&labels, text.replacen("renju", "freestyle", 1)).unwrap();
    let o = tune(&["--out", &b, "--out-white", &w]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("only under renju"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Labels for the net tests under `rule`: Black's row of one or two stones with White's stones
/// far away (a longer row would give Black, to move, a straight four to make: decided, not a
/// sample), better for Black the longer it is.
fn write_net_labels(path: &std::path::Path, rule: &str) {
    let head = format!(
        r#"{{"record":"stonelab gomoku labels","version":1,"size":15,"rule":"{rule}","brain":"x","turn_ms":100,"scale":200.0,"sources":[]}}"#
    );
    let mut text = format!("{head}\n");
    for n in 1..=2u8 {
        for shift in 0..6u8 {
            let mut moves = Vec::new();
            for k in 0..n {
                moves.push(format!("[{},{}]", 3 + shift + k, 7));
                moves.push(format!("[{},{}]", 2 * k, shift));
            }
            let value = 0.4 + 0.2 * f64::from(n);
            text.push_str(&format!(
                "{{\"moves\":[{}],\"score\":\"0\",\"value\":{value}}}\n",
                moves.join(",")
            ));
        }
    }
    std::fs::write(path, &text).unwrap();
}

/// `--net-start`: a renju fit starts from a freestyle net (written with `colours 2`); a
/// freestyle fit refuses a renju net, in one line.
#[test]
fn a_net_fit_starts_from_a_net_file() {
    let dir = temp("net-start");
    let fit = |rule: &str, start: Option<&std::path::Path>, out: &std::path::Path| {
        let labels = dir.join(format!("{rule}.jsonl"));
        write_net_labels(&labels, rule);
        let mut args = vec!["gomoku", "tune", labels.to_str().unwrap(), "--model", "net"];
        args.extend([
            "--hidden", "2", "--units", "3", "--epochs", "3", "--batch", "4",
        ]);
        args.extend(["--holdout", "0", "--net-out", out.to_str().unwrap()]);
        if let Some(start) = start {
            args.extend(["--net-start", start.to_str().unwrap()]);
        }
        common::stonelab_with_input(&args, "")
    };
    let (free, renju) = (dir.join("free.txt"), dir.join("renju.txt"));
    assert!(fit("freestyle", None, &free).status.success());
    let o = fit("renju", Some(&free), &renju);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let written = std::fs::read_to_string(&renju).unwrap();
    assert!(written.lines().next().unwrap().ends_with(" colours 2"));
    assert!(
        written.contains("--net-start"),
        "the provenance names the start"
    );
    let o = fit("freestyle", Some(&renju), &dir.join("back.txt"));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--net-start") && err.lines().count() == 1,
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--holdout-files`: every position of those files is held out and every one of the records is
/// fitted (`--holdout` no longer picks), for the linear fit and the net, whose provenance names
/// the held-out files.
#[test]
fn holdout_files_are_held_out_whole() {
    let dir = temp("holdout-files");
    let (labels, held) = (dir.join("labels.jsonl"), dir.join("held.jsonl"));
    write_net_labels(&labels, "freestyle");
    write_net_labels(&held, "freestyle");
    let with = |extra: &[&str]| {
        let mut args = vec!["gomoku", "tune", labels.to_str().unwrap()];
        args.extend(extra);
        args.extend(["--holdout", "50", "--holdout-files", held.to_str().unwrap()]);
        common::stonelab_with_input(&args, "")
    };
    let o = with(&["--model", "table", "--epochs", "5", "--format", "json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // write_net_labels writes 12 positions a file.
    assert_eq!(report["train_samples"], 12, "{report}");
    assert_eq!(report["holdout_samples"], 12, "{report}");
    let net = dir.join("net.txt");
    let o = with(&[
        "--model",
        "net",
        "--hidden",
        "2",
        "--units",
        "2",
        "--epochs",
        "2",
        "--batch",
        "4",
        "--net-out",
        net.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("12 positions fitted, 12 held out"), "{text}");
    let written = std::fs::read_to_string(&net).unwrap();
    assert!(
        written.contains(&format!("--holdout-files {}", held.display())),
        "the provenance names the held-out files"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `gomoku tune --model net` fits a net on labelled positions and writes a file that
/// `gomoku pbrain --eval-net` plays with; `--eval-net none` plays the linear evaluation; a file
/// that is no net is refused with a one-line error and a non-zero exit.
#[test]
fn tune_writes_a_net_that_the_brain_plays_with() {
    for rule in ["freestyle", "renju"] {
        fit_and_play_a_net(rule);
    }
}

/// `gomoku tune --model net` on labels of `rule`, then the brain with the net (under renju a net
/// of vectors per colour, `colours 2`, which the brain uses under renju).
fn fit_and_play_a_net(rule: &str) {
    let dir = temp(&format!("net-{rule}"));
    let labels = dir.join("labels.jsonl");
    let net = dir.join("net.txt");
    write_net_labels(&labels, rule);
    let o = common::stonelab_with_input(
        &[
            "gomoku",
            "tune",
            labels.to_str().unwrap(),
            "--model",
            "net",
            "--hidden",
            "2",
            "--units",
            "3",
            "--epochs",
            "5",
            "--batch",
            "4",
            "--holdout",
            "0",
            "--net-out",
            net.to_str().unwrap(),
            "--format",
            "json",
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["train_samples"], 12);
    assert_eq!(report["epochs"].as_array().unwrap().len(), 5);
    assert!(
        report["train_loss_net"].as_f64().unwrap() < report["train_loss_linear"].as_f64().unwrap()
    );
    let written = std::fs::read_to_string(&net).unwrap();
    assert!(written.starts_with("stonelab-gomoku-net hidden 2 units 3 scale "));
    let header = written.lines().next().unwrap();
    assert_eq!(header.ends_with(" colours 2"), rule == "renju", "{header}");
    let info = if rule == "renju" { "INFO rule 4\n" } else { "" };
    for flag in [net.to_str().unwrap(), "none"] {
        let o = common::stonelab_with_input(
            &["gomoku", "pbrain", "--eval-net", flag],
            &format!("START 15\n{info}BOARD\n7,7,2\n8,8,1\n6,8,2\nDONE\nEND\n"),
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.lines().any(|l| l.split(',').count() == 2
                && l.split(',').all(|v| v.trim().parse::<u8>().is_ok())),
            "{out}"
        );
    }
    std::fs::write(&net, "not a net\n").unwrap();
    let o = common::stonelab_with_input(
        &["gomoku", "pbrain", "--eval-net", net.to_str().unwrap()],
        "START 15\nEND\n",
    );
    assert_ne!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--eval-net") && err.lines().count() == 1,
        "{err}"
    );
    // Not with --smooth.
    let o = common::stonelab_with_input(
        &[
            "gomoku",
            "tune",
            labels.to_str().unwrap(),
            "--model",
            "net",
            "--smooth",
        ],
        "",
    );
    assert_ne!(o.status.code(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}
