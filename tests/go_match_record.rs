//! `stonelab go match --record FILE`: a match resumed from its record, and records that do not
//! fit (another komi, a damaged game line) refused.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::temp_dir;
use serde_json::Value;

fn exe() -> &'static str {
    common::STONELAB
}

/// A fake engine that always passes and counts its starts in `dir/starts`, and our engine with
/// few playouts: games of a few moves.
fn engines(dir: &Path) -> (String, String) {
    let fake = dir.join("pass.sh");
    std::fs::write(
        &fake,
        format!(
            "echo start >> {}/starts\n\
             while read -r line; do case \"$line\" in\n\
             name*) printf '= passer\\n\\n';;\n\
             genmove*) printf '= pass\\n\\n';;\n\
             known_command*) printf '= false\\n\\n';;\n\
             quit*) printf '= \\n\\n'; exit 0;;\n\
             *) printf '= \\n\\n';;\n\
             esac; done\n",
            dir.display()
        ),
    )
    .unwrap();
    let fake = format!("sh {}", fake.display());
    let ours = format!("{} go gtp --threads 1 --playouts 30", exe());
    (fake, ours)
}

fn go_match(black: &str, white: &str, record: &Path, extra: &[&str]) -> Output {
    Command::new(exe())
        .args([
            "go", "match", "--black", black, "--white", white, "--size", "5",
        ])
        .arg("--record")
        .arg(record)
        .args(extra)
        .output()
        .unwrap()
}

/// A match of `games` games by `go_match`, with its JSON report (the match must succeed).
fn json_match(black: &str, white: &str, record: &Path, games: &str) -> Value {
    json(&go_match(
        black,
        white,
        record,
        &["--games", games, "--format", "json"],
    ))
}

fn json(out: &Output) -> Value {
    common::assert_success(out);
    serde_json::from_slice(&out.stdout).unwrap()
}

fn starts(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("starts")).map_or(0, |s| s.lines().count())
}

fn tallies(report: &Value) -> Vec<[u64; 5]> {
    report["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            ["wins", "losses", "draws", "illegal_moves", "timeouts"].map(|k| t[k].as_u64().unwrap())
        })
        .collect()
}

/// Each game line of the record `text` (after its header) is the game of the JSON report.
fn assert_game_lines(text: &str, report: &Value) {
    for (line, game) in text
        .lines()
        .skip(1)
        .zip(report["games"].as_array().unwrap())
    {
        assert_eq!(&serde_json::from_str::<Value>(line).unwrap(), game);
    }
}

fn tmp_of(record: &Path) -> PathBuf {
    let mut tmp = record.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

#[test]
fn a_recorded_match_resumes() {
    let dir = temp_dir("resume");
    let (fake, ours) = engines(&dir);
    let record = dir.join("match.jsonl");
    let r = json_match(&fake, &ours, &record, "2");
    assert_eq!(r["games"].as_array().unwrap().len(), 2);
    assert_eq!(starts(&dir), 1);
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(header["record"], "stonelab go match");
    assert_eq!(header["version"], 1);
    assert_eq!(header["black"], fake.as_str());
    assert_eq!(header["white"], ours.as_str());
    assert_eq!(header["size"], 5);
    assert_eq!(header["komi"], 7.0);
    assert_eq!(header["move_ms"], Value::Null);
    assert_game_lines(&text, &r);

    // Resumed to 4 games: games 3 and 4 are played, the report covers all 4.
    let r = json_match(&fake, &ours, &record, "4");
    assert_eq!(starts(&dir), 2);
    let games = r["games"].as_array().unwrap();
    assert_eq!(games.len(), 4, "{r}");
    for (i, g) in games.iter().enumerate() {
        let number = g["number"].as_u64().unwrap();
        assert_eq!(number, i as u64 + 1, "{g}");
        let odd = number % 2 == 1;
        assert_eq!(g["black"], if odd { "black" } else { "white" }, "{g}");
    }
    let t = tallies(&r);
    for tally in &t {
        assert_eq!(tally[0] + tally[1] + tally[2], 4, "{r}");
    }
    assert_eq!(t[0][0], t[1][1]);
    assert_eq!(t[0][1], t[1][0]);
    assert_eq!(r["engines"][0]["name"], "passer");
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    assert_game_lines(&text, &r);

    // Again with --games 4: nothing is played (no engine started), the same report.
    let again = json_match(&fake, &ours, &record, "4");
    assert_eq!(starts(&dir), 2);
    assert_eq!(tallies(&again), t);
    assert_eq!(again["games"], r["games"]);
    assert_eq!(again["elo"], r["elo"]);
    assert_eq!(again["disagreements"], r["disagreements"]);
    assert_eq!(std::fs::read_to_string(&record).unwrap(), text);

    // The text report says it resumed and lists the recorded games.
    let out = go_match(&fake, &ours, &record, &["--games", "4"]);
    assert!(out.status.success());
    let shown = String::from_utf8_lossy(&out.stdout);
    let first = shown.lines().next().unwrap();
    assert_eq!(
        first,
        format!("resuming {}: 4 games recorded", record.display())
    );
    for n in 1..=4 {
        assert!(shown.contains(&format!("game {n}: ")), "{shown}");
    }
    assert!(
        shown.contains("elo (black engine minus white engine)"),
        "{shown}"
    );
    assert_eq!(starts(&dir), 2);

    // A file with the header only (a match stopped in game 1) resumes from game 1.
    let header_only = dir.join("header.jsonl");
    std::fs::write(&header_only, format!("{}\n", text.lines().next().unwrap())).unwrap();
    let r = json_match(&fake, &ours, &header_only, "1");
    assert_eq!(r["games"].as_array().unwrap().len(), 1);
    assert_eq!(starts(&dir), 3);

    assert!(!tmp_of(&record).exists());
    assert!(!tmp_of(&header_only).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn records_that_do_not_fit_are_errors() {
    let dir = temp_dir("bad");
    let (fake, ours) = engines(&dir);
    let record = dir.join("match.jsonl");
    json_match(&fake, &ours, &record, "2");
    let good = std::fs::read_to_string(&record).unwrap();
    assert_eq!(starts(&dir), 1);
    let name = record.display().to_string();

    // Another komi than the header's.
    let out = go_match(&fake, &ours, &record, &["--games", "4", "--komi", "6.5"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&name) && err.contains("line 1") && err.contains("komi"),
        "{err}"
    );

    // A damaged game line.
    let lines: Vec<&str> = good.lines().collect();
    let damaged = format!(
        "{}\n{}\n{}\n",
        lines[0],
        lines[1],
        &lines[2][..lines[2].len() / 2]
    );
    std::fs::write(&record, &damaged).unwrap();
    let out = go_match(&fake, &ours, &record, &["--games", "4"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&name) && err.contains("line 3") && err.contains("not a game"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&record).unwrap(),
        damaged,
        "left as it was"
    );

    // A header that is not one, and an empty file.
    std::fs::write(&record, format!("{{\"size\":5}}\n{}\n", lines[1])).unwrap();
    let out = go_match(&fake, &ours, &record, &["--games", "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
    std::fs::write(&record, "").unwrap();
    let out = go_match(&fake, &ours, &record, &["--games", "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no header"));

    // Games out of order.
    std::fs::write(&record, format!("{}\n{}\n", lines[0], lines[2])).unwrap();
    let out = go_match(&fake, &ours, &record, &["--games", "4"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2") && err.contains("expected 1"),
        "{err}"
    );

    // No engine was started for any of these.
    assert_eq!(starts(&dir), 1);
    assert!(!tmp_of(&record).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sgf_dir_gets_one_file_a_game_with_every_move() {
    let dir = temp_dir("sgfdir");
    let (fake, ours) = engines(&dir);
    let record = dir.join("match.jsonl");
    let sgf = dir.join("sgf");
    let r = json(&go_match(
        &ours,
        &fake,
        &record,
        &[
            "--games",
            "2",
            "--format",
            "json",
            "--sgf-dir",
            sgf.to_str().unwrap(),
        ],
    ));
    let games = r["games"].as_array().unwrap();
    for g in games {
        let n = g["number"].as_u64().unwrap();
        let text = std::fs::read_to_string(sgf.join(format!("game-{n:04}.sgf"))).unwrap();
        assert!(text.starts_with("(;GM[1]FF[4]"), "{text}");
        for prop in ["SZ[5]", "KM[7]", "RU[Chinese]", "PB[", "PW[", "RE["] {
            assert!(text.contains(prop), "{prop}: {text}");
        }
        let nodes = text.matches("\n;B[").count() + text.matches("\n;W[").count();
        assert_eq!(nodes as u64, g["moves"].as_u64().unwrap(), "{text}");
        assert!(
            text.contains(&format!("RE[{}]", g["result"].as_str().unwrap())),
            "{text}"
        );
        // Our own SGF reader takes it back (the GTP engine's loadsgf).
        let out = Command::new(exe())
            .args(["go", "gtp", "--threads", "1", "--playouts", "10"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                let mut stdin = child.stdin.take().unwrap();
                writeln!(
                    stdin,
                    "loadsgf {}\nquit",
                    sgf.join(format!("game-{n:04}.sgf")).display()
                )?;
                drop(stdin);
                child.wait_with_output()
            })
            .unwrap();
        let answers = String::from_utf8_lossy(&out.stdout);
        assert!(answers.starts_with("= \n\n"), "{answers}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
