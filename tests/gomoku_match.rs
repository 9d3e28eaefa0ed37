//! `stonelab gomoku match`: a match resumed from its `--record` file, records of another match
//! refused, `--threads` sent to both engines, and engines that hang killed with their process
//! group.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{stonelab_json, stonelab_ok, temp_dir};
use serde_json::Value;

const PBRAIN: &str = env!("CARGO_BIN_EXE_pbrain-stonelab");

fn players() -> (String, String) {
    (
        format!("{PBRAIN} --player greedy --seed {{game}}"),
        format!("{PBRAIN} --player random --seed {{game}}"),
    )
}

/// The arguments of `stonelab gomoku match` between `a` and `b` on 9x9, then `extra`.
fn match_args<'a>(a: &'a str, b: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["gomoku", "match", "--a", a, "--b", b, "--size", "9"];
    args.extend_from_slice(extra);
    args
}

fn play(a: &str, b: &str, record: &Path, extra: &[&str]) -> Value {
    let record = record.display().to_string();
    let mut args = match_args(a, b, &["--turn-ms", "200", "--format", "json"]);
    args.extend_from_slice(&["--record", &record]);
    args.extend_from_slice(extra);
    stonelab_json(&args)
}

#[test]
fn a_recorded_match_resumes_where_it_stopped() {
    let dir = temp_dir("gomoku-record");
    let record = dir.join("m.jsonl");
    let (a, b) = players();
    let first = play(&a, &b, &record, &["--games", "2"]);
    assert_eq!(first["games"].as_array().unwrap().len(), 2);
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(header["record"], "stonelab gomoku match");
    assert_eq!(header["size"], 9);
    assert_eq!(header["threads"], 1);

    // Two more: the first two are read back, not replayed, and the report covers all four.
    let all = play(&a, &b, &record, &["--games", "4", "--jobs", "2"]);
    let games = all["games"].as_array().unwrap();
    let numbers: Vec<u64> = games
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 3, 4]);
    assert_eq!(games[0], first["games"][0]);
    assert_eq!(games[1], first["games"][1]);
    let (w, d, l) = (&all["wins"], &all["draws"], &all["losses"]);
    assert_eq!(
        w.as_u64().unwrap() + d.as_u64().unwrap() + l.as_u64().unwrap(),
        4
    );
    assert_eq!(std::fs::read_to_string(&record).unwrap().lines().count(), 5);

    // Nothing left to play: the same report from the record alone.
    let again = play(&a, &b, &record, &["--games", "4"]);
    assert_eq!(again["games"], all["games"]);
    assert_eq!(again["elo"], all["elo"]);
    let again_text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(again_text.lines().count(), 5);

    // Another match's arguments are refused, naming the line and the difference.
    let path = record.display().to_string();
    let args = match_args(&a, &b, &["--turn-ms", "200"]);
    let mut other = args.clone();
    other.extend_from_slice(&["--threads", "2", "--record", &path]);
    let err = common::stonelab_err(&other, "line 1");
    assert!(err.contains("threads 1 (--threads 2)"), "{err}");
    let mut fewer = args;
    fewer.extend_from_slice(&["--games", "3", "--record", &path]);
    common::stonelab_err(&fewer, "more than --games 3");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn threads_are_sent_as_info_thread_num() {
    let dir = temp_dir("gomoku-threads");
    // A fake brain that logs what it is told and plays the first empty cell of the top rows.
    let log = dir.join("log");
    let fake = dir.join("fake.sh");
    std::fs::write(
        &fake,
        format!(
            "n=0\nwhile read -r line; do echo \"$line\" >> {log}\n\
             case \"$line\" in\n\
             START*) echo OK;;\n\
             BEGIN*|TURN*|DONE*) echo \"$n,$(( $$ % 2 ))\"; n=$((n+1));;\n\
             END*) exit 0;;\n\
             esac; done\n",
            log = log.display()
        ),
    )
    .unwrap();
    let fake = format!("sh {}", fake.display());
    let (a, _) = players();
    stonelab_ok(&match_args(
        &a,
        &fake,
        &["--games", "1", "--threads", "3", "--turn-ms", "200"],
    ));
    let told = std::fs::read_to_string(&log).unwrap();
    assert!(told.contains("INFO thread_num 3"), "{told}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Whether a process runs (and is not a zombie waiting for its parent).
fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
}

#[test]
fn a_hung_engine_loses_and_is_killed_with_its_group() {
    let dir = temp_dir("gomoku-hung");
    let pid_file = dir.join("pid");
    // Answers START, then starts a sleeper that outlives any polite END and never moves.
    let hung = format!(
        "read -r l; echo OK; sleep 300 & echo $! > {}; wait",
        pid_file.display()
    );
    let (a, _) = players();
    let start = Instant::now();
    let r = stonelab_json(&match_args(
        &a,
        &hung,
        &["--games", "2", "--turn-ms", "100", "--format", "json"],
    ));
    assert_eq!(r["wins"], 2, "{r}");
    assert_eq!(r["timeouts"], 2, "{r}");
    assert!(start.elapsed() < Duration::from_secs(30));
    let pid = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .to_string();
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(&pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !alive(&pid),
        "the hung engine's sleeper {pid} outlived the match"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
