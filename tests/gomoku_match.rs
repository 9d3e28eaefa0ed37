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

/// A fake brain (`sh` script in `dir`, run by the returned command) that appends every line it is
/// told to `log`, answers `START` with `OK`, and answers each move request by running `before`
/// then playing `n,ROW` (n counting its moves from 0; ROW a shell expression).
fn fake_brain(dir: &Path, log: &Path, before: &str, row: &str) -> String {
    let script = dir.join("fake.sh");
    std::fs::write(
        &script,
        format!(
            "n=0\nwhile read -r line; do echo \"$line\" >> {log}\n\
             case \"$line\" in\n\
             START*) echo OK;;\n\
             BEGIN*|TURN*|DONE*) {before}echo \"$n,{row}\"; n=$((n+1));;\n\
             END*) exit 0;;\n\
             esac; done\n",
            log = log.display()
        ),
    )
    .unwrap();
    format!("sh {}", script.display())
}

#[test]
fn threads_are_sent_as_info_thread_num() {
    let dir = temp_dir("gomoku-threads");
    // A fake brain that logs what it is told and plays the first empty cell of the top rows.
    let log = dir.join("log");
    let fake = fake_brain(&dir, &log, "", "$(( $$ % 2 ))");
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

#[test]
fn a_match_clock_is_sent_and_running_out_of_it_loses() {
    let dir = temp_dir("gomoku-match-clock");
    // A slow brain: logs what it is told and takes 0.4 s a move (the first empty cells of row 0).
    let log = dir.join("log");
    let slow = fake_brain(&dir, &log, "sleep 0.4; ", "0");
    let (a, _) = players();
    // 500 ms for the game and a second of grace: the fourth move (1.6 s in all) is too late.
    let r = stonelab_json(&match_args(
        &a,
        &slow,
        &[
            "--games",
            "2",
            "--turn-ms",
            "2000",
            "--match-ms",
            "500",
            "--format",
            "json",
        ],
    ));
    assert_eq!(r["wins"], 2, "{r}");
    for g in r["games"].as_array().unwrap() {
        assert_eq!(g["end"], "timeout", "{g}");
        // Three or four moves on a quiet machine; two when a loaded one makes `sleep 0.4` and
        // the process round trips take 0.75 s (seen with a judge running beside the tests).
        let slow_moves = g["ms"].as_array().unwrap().len() / 2;
        assert!((2..=4).contains(&slow_moves), "{g}");
    }
    let told = std::fs::read_to_string(&log).unwrap();
    assert!(told.contains("INFO timeout_match 500"), "{told}");
    assert!(told.contains("INFO time_left 500"), "{told}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An engine's first answer of a game may take 5 s more than the move time (it handles the
/// unanswered `INFO` keys on that clock); a later answer as slow loses on time.
#[test]
fn only_the_first_answer_has_the_setup_grace() {
    let (a, _) = players();
    let slow_at = |n: usize| {
        let dir = temp_dir(&format!("gomoku-setup-grace-{n}"));
        let log = dir.join("log");
        // 1.5 s for answer number n, at once otherwise; 100 ms a move gives 1.1 s to answer.
        let brain = fake_brain(&dir, &log, &format!("[ $n = {n} ] && sleep 1.5; "), "0");
        let r = stonelab_json(&match_args(
            &a,
            &brain,
            &["--games", "2", "--turn-ms", "100", "--format", "json"],
        ));
        std::fs::remove_dir_all(&dir).unwrap();
        r
    };
    let first = slow_at(0);
    assert_eq!(first["timeouts"], 0, "{first}");
    assert_eq!(first["games"].as_array().unwrap().len(), 2, "{first}");
    let second = slow_at(1);
    assert_eq!(second["timeouts"], 2, "{second}");
    assert_eq!(second["wins"], 2, "{second}");
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

/// `--rule renju`: the engines are told `INFO rule 4`, and Black's forbidden move (a double three,
/// played by a fake brain) ends the game as a loss for Black.
#[test]
fn renju_forbidden_move_loses() {
    let dir = temp_dir("gomoku-renju");
    let log = dir.join("log");
    let fake = dir.join("fake.sh");
    std::fs::write(
        &fake,
        format!(
            "while read -r line; do echo \"$line\" >> {log}\n\
             case \"$line\" in\n\
             START*) echo OK;;\n\
             BEGIN*|TURN*|DONE*) echo 7,7;;\n\
             END*) exit 0;;\n\
             esac; done\n",
            log = log.display()
        ),
    )
    .unwrap();
    // Black (to move) has a double three at (7,7): (5,7) (6,7) across, (7,5) (7,6) down.
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "5,7 0,0 6,7 14,0 7,5 0,14 7,6 14,14\n").unwrap();
    let fake = format!("sh {}", fake.display());
    let (_, b) = players();
    let openings = openings.display().to_string();
    let report = stonelab_json(&[
        "gomoku",
        "match",
        "--a",
        &fake,
        "--b",
        &b,
        "--size",
        "15",
        "--rule",
        "renju",
        "--games",
        "1",
        "--turn-ms",
        "200",
        "--openings",
        &openings,
        "--format",
        "json",
    ]);
    let game = &report["games"][0];
    assert_eq!(game["black"], "a", "{report}");
    assert_eq!(game["end"], "forbidden", "{report}");
    assert_eq!(game["winner"], "b", "{report}");
    assert!(
        game["note"].as_str().unwrap().contains("double three"),
        "{report}"
    );
    assert_eq!(report["rule"], "renju");
    let told = std::fs::read_to_string(&log).unwrap();
    assert!(told.contains("INFO rule 4"), "{told}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--psq-dir` and `--sgf-dir`: every game played is written in both formats, the moves match the
/// JSON report, and the position readers take the files back.
#[test]
fn games_are_written_as_psq_and_sgf() {
    let dir = temp_dir("gomoku-records");
    let (a, b) = players();
    let psq = dir.join("psq");
    let sgf = dir.join("sgf");
    let (psq_s, sgf_s) = (psq.display().to_string(), sgf.display().to_string());
    let report = stonelab_json(&match_args(
        &a,
        &b,
        &[
            "--games",
            "2",
            "--turn-ms",
            "200",
            "--format",
            "json",
            "--psq-dir",
            &psq_s,
            "--sgf-dir",
            &sgf_s,
        ],
    ));
    for (i, game) in report["games"].as_array().unwrap().iter().enumerate() {
        let moves: Vec<stonelab_gomoku::Point> = game["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                stonelab_gomoku::Point::new(
                    m[0].as_u64().unwrap() as u8,
                    m[1].as_u64().unwrap() as u8,
                )
            })
            .collect();
        let name = format!("game-{:04}", i + 1);
        let text = std::fs::read_to_string(psq.join(format!("{name}.psq"))).unwrap();
        let record = stonelab_gomoku::records::parse_psq(&text).unwrap();
        assert_eq!(record.size, 9);
        let read: Vec<_> = record.moves.iter().map(|m| m.0).collect();
        assert_eq!(read, moves, "{text}");
        let text = std::fs::read_to_string(sgf.join(format!("{name}.sgf"))).unwrap();
        assert!(
            text.starts_with("(;FF[4]GM[4]") && text.contains("SZ[9]RU[freestyle]"),
            "{text}"
        );
        let record = stonelab_gomoku::records::parse_sgf(&text).unwrap();
        let read: Vec<_> = record.moves.iter().map(|m| m.0).collect();
        assert_eq!(read, moves, "{text}");
        let winner = game["winner"].as_str();
        let black = game["black"].as_str();
        if winner.is_some() {
            let colour = if winner == black { "RE[B+" } else { "RE[W+" };
            assert!(text.contains(colour), "{text}");
        }
        // The readers take both files as positions.
        for ext in ["psq", "sgf"] {
            let path = dir.join(ext).join(format!("{name}.{ext}"));
            common::stonelab_ok(&["gomoku", "threats", &path.display().to_string()]);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--opening-rule swap2`: the openings are made through SWAP2BOARD; each game's record says who
/// placed what and who took which colour, its first stones are the swap2 stones, and the header
/// names the rule (a record of a plain match is refused for it).
#[test]
fn swap2_openings_are_negotiated() {
    let dir = temp_dir("gomoku-swap2");
    let record = dir.join("m.jsonl");
    let engine = format!("{PBRAIN} --nodes 3000 --quiet");
    // A small table: the match's default (256 MiB) is mapped with huge pages, and on a machine
    // whose memory is fragmented the first search's page faults alone took 1.8 s, past the 1.2 s
    // a 200 ms swap2 answer may take.
    let report = play(
        &engine,
        &engine,
        &record,
        &[
            "--games",
            "2",
            "--opening-rule",
            "swap2",
            "--max-memory",
            "16777216",
        ],
    );
    for game in report["games"].as_array().unwrap() {
        let note = game["swap2"].as_str().unwrap_or_else(|| panic!("{game}"));
        let stones = game["opening_stones"].as_u64().unwrap();
        assert!((3..=6).contains(&stones), "{game}");
        assert!(note.contains("placed 3"), "{note}");
        assert!(game["moves"].as_array().unwrap().len() as u64 >= stones);
        assert_ne!(game["end"], "illegal_move", "{game}");
    }
    let header = std::fs::read_to_string(&record).unwrap();
    assert!(header
        .lines()
        .next()
        .unwrap()
        .contains("\"opening_rule\":\"swap2\""));
    let path = record.display().to_string();
    let args = match_args(&engine, &engine, &["--turn-ms", "200", "--record", &path]);
    common::stonelab_err(&args, "line 1");
    // Openings of another length are refused.
    let openings = dir.join("o.txt");
    std::fs::write(&openings, "7,7 8,8\n").unwrap();
    let o = openings.display().to_string();
    let args = match_args(
        &engine,
        &engine,
        &["--opening-rule", "swap2", "--openings", &o],
    );
    common::stonelab_err(&args, "three stones");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A brain that answers `SUGGEST x,y` (`--suggest`) is told `PLAY x,y` and plays it: the games are
/// the same move for move as without it.
#[test]
fn a_suggested_move_is_accepted_with_play() {
    let dir = temp_dir("gomoku-suggest");
    let (a, b) = players();
    let suggesting = format!("{a} --suggest");
    let plain = play(&a, &b, &dir.join("plain.jsonl"), &["--games", "2"]);
    let suggested = play(
        &suggesting,
        &b,
        &dir.join("suggest.jsonl"),
        &["--games", "2"],
    );
    for (x, y) in plain["games"]
        .as_array()
        .unwrap()
        .iter()
        .zip(suggested["games"].as_array().unwrap())
    {
        assert_eq!(x["moves"], y["moves"], "{plain} {suggested}");
        assert_eq!(x["end"], y["end"]);
    }
    assert_eq!(suggested["timeouts"], 0, "{suggested}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `scripts/gomoku-paired`: slot by slot (opening, A's colour), the new record's score less the
/// baselines' mean on the shared slots, with the standard error over slots; records of another
/// time control are refused with one error line.
#[test]
fn paired_comparison_of_match_records() {
    let dir = temp_dir("gomoku-paired");
    let head = |turn: u32| {
        format!(
            r#"{{"record":"stonelab gomoku match","version":1,"a":"x","b":"y","size":15,"rule":"freestyle","turn_ms":{turn},"openings":"o.txt","max_memory":0,"threads":1}}"#
        )
    };
    let game = |n: u32, opening: u32, black: &str, winner: &str| {
        format!(
            r#"{{"number":{n},"opening":{opening},"black":"{black}","winner":"{winner}","end":"five","moves":[],"opening_stones":3,"note":null,"ms":[]}}"#
        )
    };
    let write = |name: &str, turn: u32, games: &[(u32, &str, &str)]| {
        let mut text = head(turn) + "\n";
        for (i, (o, black, winner)) in games.iter().enumerate() {
            text += &(game(i as u32 + 1, *o, black, winner) + "\n");
        }
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write a record");
        path.display().to_string()
    };
    // Slots: (0, a) 1 vs baselines 1 and 0 (+0.5); (0, b) 0 vs 0 and 0 (0); (1, a) draw vs 1 and
    // 1 (-0.5); (1, b) 1 vs 0 and 0 (+1). Mean +0.25; deviations 0.25, -0.25, -0.75, 0.75: sample
    // variance 1.25 / 3, se sqrt(1.25 / 3 / 4).
    let new = write(
        "new.jsonl",
        1000,
        &[
            (0, "a", "a"),
            (0, "b", "b"),
            (1, "a", "draw"),
            (1, "b", "a"),
            (2, "a", "a"),
        ],
    );
    let b1 = write(
        "b1.jsonl",
        1000,
        &[(0, "a", "a"), (0, "b", "b"), (1, "a", "a"), (1, "b", "b")],
    );
    let b2 = write(
        "b2.jsonl",
        1000,
        &[(0, "a", "b"), (0, "b", "b"), (1, "a", "a"), (1, "b", "b")],
    );
    let out = std::process::Command::new("scripts/gomoku-paired")
        .args(["--format", "json", &new, &b1, &b2])
        .output()
        .expect("run scripts/gomoku-paired");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["slots"], 4);
    assert!((v["diff"].as_f64().unwrap() - 0.25).abs() < 1e-9, "{v}");
    let se = (1.25f64 / 3.0 / 4.0).sqrt();
    assert!((v["se"].as_f64().unwrap() - se).abs() < 1e-9, "{v}");
    assert_eq!(
        (v["better"].as_u64(), v["worse"].as_u64()),
        (Some(2), Some(1))
    );
    let other = write("other.jsonl", 300, &[(0, "a", "a")]);
    let out = std::process::Command::new("scripts/gomoku-paired")
        .args([&new, &other])
        .output()
        .expect("run scripts/gomoku-paired");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("turn_ms") && err.lines().count() == 1, "{err}");
}

/// `scripts/gomoku-turns`: each move's cost by the judge's scores before and after it, for the
/// player who made it; a mate against the mover after a position without one is a blunder; a
/// file that is not a labels file is refused with one error line.
#[test]
fn turns_of_a_record_by_a_judges_labels() {
    let dir = temp_dir("gomoku-turns");
    let record = dir.join("record.jsonl");
    std::fs::write(
        &record,
        concat!(
            r#"{"record":"stonelab gomoku match","version":1,"a":"x","b":"y","size":15,"rule":"freestyle","turn_ms":1000,"openings":"o.txt","max_memory":0,"threads":1}"#,
            "\n",
            r#"{"number":1,"opening":0,"black":"a","winner":"b","end":"five","moves":[[7,7],[8,8],[6,6],[9,9],[5,5]],"opening_stones":1,"note":null,"ms":[]}"#,
            "\n"
        ),
    )
    .expect("write a record");
    // Scores for the side to move after 1, 2, 3 and 4 stones: White (B), Black (A), White, Black.
    let labels = dir.join("labels.jsonl");
    let line = |n: usize, score: &str| {
        let moves = [[7, 7], [8, 8], [6, 6], [9, 9]];
        format!(
            "{{\"moves\":{},\"score\":\"{score}\",\"value\":0}}\n",
            serde_json::to_string(&moves[..n]).unwrap()
        )
    };
    let text = String::from(
        r#"{"record":"stonelab gomoku labels","version":1,"size":15,"rule":"freestyle","brain":"j","turn_ms":500,"scale":200,"sources":[]}"#,
    ) + "\n"
        + &line(1, "50")
        + &line(2, "-30")
        + &line(3, "+M9")
        + &line(4, "20");
    std::fs::write(&labels, text).expect("write labels");
    let out = std::process::Command::new("scripts/gomoku-turns")
        .args(["--format", "json", "--games"])
        .arg(&record)
        .arg(&labels)
        .output()
        .expect("run scripts/gomoku-turns");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let sig = |x: f64| 1.0 / (1.0 + (-x / 200.0).exp());
    let (a, b) = (&v["players"]["a"], &v["players"]["b"]);
    // B's first move: 50 for B before it, -30 for A (so 30 for B) after it: 20 points lost.
    assert_eq!(b["moves"], 2, "{v}");
    assert_eq!(b["moves_in_points"], 1, "{v}");
    assert!(
        (b["mean_cost_points"].as_f64().unwrap() - 20.0).abs() < 1e-9,
        "{v}"
    );
    // A's one move walks into a mate: a blunder, no points, its whole value lost.
    assert_eq!(
        (a["moves"].as_u64(), a["blunders"].as_u64()),
        (Some(1), Some(1)),
        "{v}"
    );
    assert!(a["mean_cost_points"].is_null(), "{v}");
    assert!(
        (a["mean_cost_value"].as_f64().unwrap() - sig(-30.0)).abs() < 1e-9,
        "{v}"
    );
    let b_value = ((sig(50.0) - (1.0 - sig(-30.0))) + sig(20.0)) / 2.0;
    assert!(
        (b["mean_cost_value"].as_f64().unwrap() - b_value).abs() < 1e-9,
        "{v}"
    );
    assert_eq!(v["games"][0]["a_first_blunder"]["ply"], 2, "{v}");
    let out = std::process::Command::new("scripts/gomoku-turns")
        .arg(&record)
        .arg(&record)
        .output()
        .expect("run scripts/gomoku-turns");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("gomoku-label") && err.lines().count() == 1,
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `scripts/gomoku-spsa` against a stand-in `stonelab` whose every match A wins 2-0: each
/// iteration plays theta + c*D against theta - c*D and moves every knob by lr * c * D; a second
/// run continues the first from its state file; a failing engine stops it with one error line.
#[test]
fn spsa_steps_each_knob_by_its_sign_and_resumes() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("gomoku-spsa");
    let fake = dir.join("stonelab");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho \"$4\" >> \"$(dirname \"$0\")/a.txt\"\necho '{\"wins\":2,\"losses\":0,\
         \"illegal_moves\":0,\"timeouts\":0,\"games\":[{\"number\":1,\"end\":\"five\",\"note\":null}]}'\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let spec = dir.join("spec.txt");
    std::fs::write(
        &spec,
        "# test\nfutility 90 10 20 300 int\nlmr-divisor 1.0 0.25 0.4 3.0\n",
    )
    .unwrap();
    let state = dir.join("state.json");
    let run = |iterations: &str, stonelab: &Path| {
        std::process::Command::new("scripts/gomoku-spsa")
            .args(["--state", &state.display().to_string()])
            .args(["--spec", &spec.display().to_string()])
            .args(["--stonelab", &stonelab.display().to_string()])
            .args(["--engine", "ENGINE", "--iterations", iterations])
            .output()
            .expect("run scripts/gomoku-spsa")
    };
    for n in ["2", "3"] {
        let out = run(n, &fake);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let log = std::fs::read_to_string(dir.join("state.jsonl")).unwrap();
    let lines: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    let sent = std::fs::read_to_string(dir.join("a.txt")).unwrap();
    let (mut futility, mut divisor) = (90.0f64, 1.0f64);
    for (k, (line, a)) in lines.iter().zip(sent.lines()).enumerate() {
        assert_eq!(line["iteration"], k);
        let d: Vec<f64> = line["signs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_f64().unwrap())
            .collect();
        let plus = format!(
            "futility={},lmr-divisor={}",
            (futility + 10.0 * d[0]).round(),
            format_g4(divisor + 0.25 * d[1])
        );
        assert_eq!(line["plus"], plus.as_str(), "{line}");
        assert_eq!(a, format!("ENGINE --knobs {plus}"));
        futility += 0.1 * 10.0 * d[0];
        divisor += 0.1 * 0.25 * d[1];
        let theta = line["theta"].as_array().unwrap();
        assert!(
            (theta[0].as_f64().unwrap() - futility).abs() < 1e-3,
            "{line}"
        );
        assert!(
            (theta[1].as_f64().unwrap() - divisor).abs() < 1e-3,
            "{line}"
        );
    }
    let state_v: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(state_v["iteration"], 3);
    let out = run("4", Path::new("/bin/false"));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("gomoku-spsa: iteration 3:") && err.lines().count() == 1,
        "{err}"
    );
}

/// Python's `{:.4g}` for the values the SPSA test meets (0.4..3.0).
fn format_g4(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// Every knob of `scripts/gomoku-spsa`'s default specification is one the engine knows, at
/// both ends of its range and as the script sends it (rounded when marked `int`, else with
/// decimals): a knob sent as `76.5` to an integer parameter made every game a forfeit.
#[test]
fn spsa_default_knobs_parse_at_their_range_ends() {
    use stonelab_gomoku::engine::tree::knob;
    let script = std::fs::read_to_string("scripts/gomoku-spsa").unwrap();
    let spec = script
        .split("DEFAULT_SPEC = \"\"\"")
        .nth(1)
        .and_then(|s| s.split("\"\"\"").next())
        .expect("DEFAULT_SPEC in the script");
    let mut knobs = 0;
    for line in spec.lines() {
        let words: Vec<&str> = line.split('#').next().unwrap().split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        knobs += 1;
        let int = words.get(5) == Some(&"int");
        for v in [words[3], words[4], words[1]] {
            let v: f64 = v.parse().unwrap();
            let value = if int {
                format!("{}", v.round())
            } else {
                format!("{}", v + 0.05)
            };
            let list = format!("{}={value}", words[0]);
            assert!(
                knob::parse(&list).is_ok(),
                "{list}: {:?}",
                knob::parse(&list)
            );
        }
    }
    assert!(knobs >= 5, "{spec}");
}

/// `scripts/gomoku-mates blunders` and `defended`, with a fake judge whose verdicts depend only on
/// the stones: a position is a mate for the side to move exactly when it has 15 stones and the
/// last is the loser's move as played. Of the loser's last two moves before the winner's instant
/// run, only that one is a blunder; a brain that repeats it defends nothing, one that plays
/// elsewhere defends the position.
#[test]
fn blunder_positions_and_their_defences_by_a_fake_judge() {
    let dir = temp_dir("gomoku-mates");
    // 24 moves down the board's rows; A (Black) moves at even indices. B's moves from index 17 on
    // take 100 ms, before it 1000 ms: B's instant run starts at its move 15, so the loser's moves
    // looked at are 14 and 12.
    let moves: Vec<[u32; 2]> = (0..24).map(|i| [i % 15, i / 15 * 2]).collect();
    let ms: Vec<u32> = (3..24).map(|i| if i >= 17 { 100 } else { 1000 }).collect();
    let record = dir.join("record.jsonl");
    std::fs::write(
        &record,
        format!(
            "{}\n{{\"number\":1,\"opening\":0,\"black\":\"a\",\"winner\":\"b\",\"end\":\"five\",\"moves\":{},\"opening_stones\":3,\"note\":null,\"ms\":{}}}\n",
            r#"{"record":"stonelab gomoku match","version":1,"a":"x","b":"y","size":15,"rule":"freestyle","turn_ms":1000,"openings":"o.txt","max_memory":0,"threads":1}"#,
            serde_json::to_string(&moves).unwrap(),
            serde_json::to_string(&ms).unwrap()
        ),
    )
    .expect("write a record");
    let blunder = moves[14];
    let fake = |name: &str, reply: &str| {
        let path = dir.join(name);
        std::fs::write(
            &path,
            format!(
                r#"import sys
stones, board = [], False
for line in sys.stdin:
    line = line.strip()
    if line == "BOARD":
        board = True
    elif line == "DONE":
        board = False
        mate = len(stones) == 15 and stones[-1] == ({}, {})
        print("MESSAGE Eval " + ("+M9" if mate else "0"))
        print("{reply}", flush=True)
    elif board:
        x, y, _ = line.split(",")
        stones.append((int(x), int(y)))
    elif line == "END":
        break
"#,
                blunder[0], blunder[1]
            ),
        )
        .expect("write a fake brain");
        format!("python3 {}", path.display())
    };
    let judge = fake("judge.py", "14,14");
    let repeat = fake("repeat.py", &format!("{},{}", blunder[0], blunder[1]));
    let set = dir.join("set.jsonl");
    let run = |args: &[&str]| {
        let out = std::process::Command::new("scripts/gomoku-mates")
            .args(args)
            .output()
            .expect("run scripts/gomoku-mates");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).expect("JSON")
    };
    let v = run(&[
        "blunders",
        "--judge",
        &judge,
        "--turn-ms",
        "1",
        "--format",
        "json",
        "--out",
        set.to_str().unwrap(),
        record.to_str().unwrap(),
    ]);
    assert_eq!(
        (v["mates"].as_u64(), v["positions"].as_u64()),
        (Some(1), Some(2))
    );
    let text = std::fs::read_to_string(&set).expect("the set");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["record"], "stonelab gomoku blunders");
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["moves"].as_array().unwrap().len(), 14);
    assert_eq!(lines[1]["played"], serde_json::json!(blunder));
    for (brain, defended) in [(&repeat, 0), (&judge, 1)] {
        let v = run(&[
            "defended",
            "--brain",
            brain,
            "--judge",
            &judge,
            "--turn-ms",
            "1",
            "--judge-ms",
            "1",
            "--format",
            "json",
            set.to_str().unwrap(),
        ]);
        assert_eq!(v["mates"].as_u64(), Some(defended), "{brain}");
    }
}

/// `scripts/gomoku-mates line`: the judge's principal variation (Rapfi's `Bestline`, column
/// letter and row from 1 at the top) is read as points, and a brain is asked after each prefix of
/// it; a fake brain that sees the mate at ply 0, the loss at ply 1 and nothing at ply 2 is
/// counted so, ply by ply.
#[test]
fn a_brains_view_along_the_judges_line() {
    let dir = temp_dir("gomoku-mates-line");
    let moves: Vec<[u32; 2]> = (0..10).map(|i| [i, 7]).collect();
    let set = dir.join("set.jsonl");
    std::fs::write(
        &set,
        format!(
            "{}\n{{\"src\":\"r.jsonl\",\"game\":1,\"plies_before\":0,\"moves\":{}}}\n",
            r#"{"record":"stonelab gomoku mates","version":1,"size":15,"rule":"freestyle","judge":"j","turn_ms":1,"sources":["r.jsonl"]}"#,
            serde_json::to_string(&moves).unwrap()
        ),
    )
    .expect("write a set");
    let fake = |name: &str, body: &str| {
        let path = dir.join(name);
        std::fs::write(
            &path,
            format!(
                r#"import sys
stones, board = [], False
for line in sys.stdin:
    line = line.strip()
    if line == "BOARD":
        board = True
    elif line == "DONE":
        board = False
{body}
        print("0,0", flush=True)
    elif board:
        x, y, _ = line.split(",")
        stones.append((int(x), int(y)))
    elif line == "END":
        break
"#
            ),
        )
        .expect("write a fake brain");
        format!("python3 {}", path.display())
    };
    let judge = fake(
        "judge.py",
        r#"        print("MESSAGE Eval +M9")
        print("MESSAGE Bestline A1 B1 C3 D1")"#,
    );
    let brain = fake(
        "brain.py",
        r#"        print("MESSAGE Eval " + {10: "+M5", 11: "-M4"}.get(len(stones), "0"))"#,
    );
    let out = std::process::Command::new("scripts/gomoku-mates")
        .args([
            "line",
            "--brain",
            &brain,
            "--judge",
            &judge,
            "--plies",
            "2",
            "--turn-ms",
            "1",
            "--judge-ms",
            "1",
            "--jobs",
            "1",
            "--format",
            "json",
        ])
        .arg(&set)
        .output()
        .expect("run scripts/gomoku-mates");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let seen: Vec<u64> = v["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["seen"].as_u64().unwrap())
        .collect();
    assert_eq!(seen, [1, 1, 0]);
    assert_eq!(
        v["positions"][0]["pv"],
        serde_json::json!([[0, 0], [1, 0], [2, 2], [3, 0]])
    );
    assert_eq!(v["positions"][0]["seen"], serde_json::json!([1, -1, 0]));
}
