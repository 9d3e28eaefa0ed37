//! `stonelab go match`: games against GNU Go as a real GTP peer (and referee), perfect play from
//! the 3x3 and 4x4 databases against GNU Go and against our own engine, and forfeits for illegal
//! moves and for engines that do not answer in time.
//!
//! GNU Go is the Debian package `gnugo` (tests/apt-packages.txt; `scripts/test` installs it).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{stonelab, stonelab_json, temp_dir};
use serde_json::Value;

fn exe() -> &'static str {
    common::STONELAB
}

fn run_match(args: &[&str]) -> Value {
    let mut all = vec!["go", "match", "--format", "json"];
    all.extend_from_slice(args);
    stonelab_json(&all)
}

/// Checks that no game was lost by an illegal move or failed genmove of stonelab, and that every
/// game ended by two passes or a resignation.
fn check_clean(report: &Value, stonelab: &str) {
    for game in report["games"].as_array().unwrap() {
        let end = game["end"].as_str().unwrap();
        assert!(
            end == "two_passes" || end == "resignation",
            "game ended by {end}: {game}"
        );
    }
    for t in report["engines"].as_array().unwrap() {
        if t["engine"] == stonelab {
            assert_eq!(t["illegal_moves"], 0, "{report}");
        }
    }
}

#[test]
#[ignore = "needs gnugo"]
fn gnugo_peer_on_5x5_and_7x7() {
    let gnugo = format!("{} --mode gtp --level 1", common::gnugo());
    let ours = format!("{} go gtp --threads 1 --move-ms 150", exe());
    for (size, games) in [("5", "2"), ("7", "1")] {
        let r = run_match(&[
            "--black",
            &ours,
            "--white",
            &gnugo,
            "--size",
            size,
            "--komi",
            "0.5",
            "--games",
            games,
            "--move-ms",
            "1000",
        ]);
        check_clean(&r, "black");
        assert_eq!(r["referee"], "white", "GNU Go referees");
        assert_eq!(r["engines"][1]["name"], "GNU Go");
        let tally = &r["engines"][0];
        let played = tally["wins"].as_u64().unwrap()
            + tally["losses"].as_u64().unwrap()
            + tally["draws"].as_u64().unwrap();
        assert_eq!(played, games.parse::<u64>().unwrap());
        // Scored games carry GNU Go's score next to our area count.
        for game in r["games"].as_array().unwrap() {
            if game["end"] == "two_passes" {
                assert!(game["area_score"].is_number(), "{game}");
                assert_eq!(game["referee"], "white", "{game}");
            }
        }
    }
}

fn solve_3x3(dir: &Path) -> String {
    let db = dir.join("3x3.db").display().to_string();
    common::stonelab_ok(&["go", "solve", "3x3", "--out", &db]);
    db
}

/// Our engine with the database as Black (game 1 of a match) never ends below the solved value,
/// +9 minus komi, by our area count; a resignation by White is a win.
fn check_black_perfect(report: &Value, komi: f64) {
    if let Some(game) = scored_game_1(report) {
        let score = game["area_score"].as_f64().unwrap();
        assert!(score >= 9.0 - komi, "Black scored {score}: {game}");
    }
}

/// Game 1 of a match, our engine with the database as Black: `None` when White resigned, the game
/// when it ended by two passes (to check its scores); any other end fails.
fn scored_game_1(report: &Value) -> Option<&Value> {
    let game = &report["games"][0];
    assert_eq!(game["black"], "black");
    match game["end"].as_str().unwrap() {
        "resignation" => {
            assert_eq!(game["winner"], "B", "{game}");
            None
        }
        "two_passes" => Some(game),
        other => panic!("game ended by {other}: {game}"),
    }
}

#[test]
#[ignore = "needs gnugo"]
fn perfect_play_on_3x3_against_gnugo() {
    let dir = temp_dir("gnugo3");
    let db = solve_3x3(&dir);
    let ours = format!("{} go gtp --threads 1 --db {db}", exe());
    for level in ["1", "10"] {
        let gnugo = format!("{} --mode gtp --level {level}", common::gnugo());
        let r = run_match(&[
            "--black", &ours, "--white", &gnugo, "--size", "3", "--komi", "0", "--games", "1",
        ]);
        check_black_perfect(&r, 0.0);
        check_clean(&r, "black");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn perfect_play_on_3x3_against_our_search() {
    let dir = temp_dir("self3");
    let db = solve_3x3(&dir);
    let ours = format!("{} go gtp --threads 1 --db {db}", exe());
    let search = format!("{} go gtp --threads 1 --playouts 3000", exe());
    for komi in [0.0, 7.5] {
        let k = komi.to_string();
        let r = run_match(&[
            "--black", &ours, "--white", &search, "--size", "3", "--komi", &k, "--games", "2",
        ]);
        check_black_perfect(&r, komi);
        check_clean(&r, "black");
        check_clean(&r, "white");
        // No referee other than stonelab: our count decides and nobody disagrees with it.
        assert_eq!(r["referee"], Value::Null);
        assert_eq!(r["disagreements"], 0);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_illegal_move_loses_the_game() {
    let dir = temp_dir("illegal");
    // A fake engine that always answers A1 to genmove: its second A1 is on an occupied point.
    let fake = dir.join("fake.sh");
    std::fs::write(
        &fake,
        "while read -r line; do case \"$line\" in\n\
         name*) printf '= fake\\n\\n';;\n\
         genmove*) printf '= A1\\n\\n';;\n\
         known_command*) printf '= false\\n\\n';;\n\
         quit*) printf '= \\n\\n'; exit 0;;\n\
         *) printf '= \\n\\n';;\n\
         esac; done\n",
    )
    .unwrap();
    let fake = format!("sh {}", fake.display());
    let ours = format!("{} go gtp --threads 1 --playouts 200", exe());
    let r = run_match(&[
        "--black", &fake, "--white", &ours, "--size", "5", "--games", "1",
    ]);
    let game = &r["games"][0];
    assert_eq!(game["end"], "illegal_move", "{game}");
    assert_eq!(game["winner"], "W");
    assert_eq!(game["result"], "W+Forfeit");
    assert_eq!(r["engines"][0]["illegal_moves"], 1);
    assert_eq!(r["engines"][0]["losses"], 1);
    assert_eq!(r["engines"][1]["wins"], 1);
    // Text output names the illegal move.
    let out = Command::new(exe())
        .args([
            "go", "match", "--black", &fake, "--white", &ours, "--size", "5",
        ])
        .args(["--games", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("black played illegal B A1"), "{text}");
    assert!(
        text.contains("elo (black engine minus white engine)"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_hung_engine_loses_by_timeout_and_is_restarted() {
    let dir = temp_dir("timeout");
    // A fake engine that answers everything but genmove, where it waits for a sleep that would
    // outlast the test; it notes its shell's and the sleep's process ids, to check they were
    // killed, and counts its starts.
    let fake = dir.join("hang.sh");
    let d = dir.display();
    std::fs::write(
        &fake,
        format!(
            "echo start >> {d}/starts\n\
             while read -r line; do case \"$line\" in\n\
             name*) printf '= hang\\n\\n';;\n\
             genmove*) echo $$ >> {d}/pids; sleep 300 & echo $! >> {d}/pids; wait;;\n\
             known_command*) printf '= false\\n\\n';;\n\
             quit*) printf '= \\n\\n'; exit 0;;\n\
             *) printf '= \\n\\n';;\n\
             esac; done\n"
        ),
    )
    .unwrap();
    let fake = format!("sh {}", fake.display());
    let ours = format!("{} go gtp --threads 1 --playouts 200", exe());
    let start = std::time::Instant::now();
    let r = run_match(&[
        "--black",
        &fake,
        "--white",
        &ours,
        "--size",
        "5",
        "--games",
        "2",
        "--timeout-ms",
        "400",
    ]);
    let seconds = start.elapsed().as_secs_f64();
    // Two genmoves of 0.4 s, a restart, a few fast moves of ours: far below the sleep.
    assert!(seconds < 30.0, "the match took {seconds} s");
    assert_eq!(r["timeout_ms"], 400);
    let games = r["games"].as_array().unwrap();
    // Game 1: the fake plays Black and hangs on its first genmove.
    assert_eq!(games[0]["end"], "timeout", "{}", games[0]);
    assert_eq!(games[0]["winner"], "W");
    assert_eq!(games[0]["result"], "W+Time");
    assert_eq!(games[0]["moves"], 0);
    let note = games[0]["note"].as_str().unwrap();
    assert!(
        note.contains("black") && note.contains("no answer in 400 ms"),
        "{note}"
    );
    // Game 2, after a restart: the fake plays White; we move first, then it hangs.
    assert_eq!(games[1]["end"], "timeout", "{}", games[1]);
    assert_eq!(games[1]["winner"], "B");
    assert_eq!(games[1]["moves"], 1);
    let fake_tally = &r["engines"][0];
    assert_eq!(fake_tally["timeouts"], 2);
    assert_eq!(fake_tally["losses"], 2);
    assert_eq!(fake_tally["illegal_moves"], 0);
    assert_eq!(fake_tally["restarts"], 1);
    assert_eq!(r["engines"][1]["wins"], 2);
    assert_eq!(r["engines"][1]["timeouts"], 0);
    let starts = std::fs::read_to_string(dir.join("starts")).unwrap();
    assert_eq!(starts.lines().count(), 2);
    // Every hung shell and its sleep are gone (reaped, or at worst a zombie awaiting init).
    let pids = std::fs::read_to_string(dir.join("pids")).unwrap();
    assert_eq!(pids.lines().count(), 4, "{pids}");
    for pid in pids.lines() {
        let stat = format!("/proc/{pid}/stat");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        loop {
            let state = std::fs::read_to_string(&stat).ok().and_then(|s| {
                s.rsplit_once(") ")
                    .and_then(|(_, rest)| rest.chars().next())
            });
            match state {
                None | Some('Z') => break,
                Some(_) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(50))
                }
                Some(s) => panic!("process {pid} still runs (state {s})"),
            }
        }
    }
    // An engine that never answers `name` is an error at start-up, not a hang.
    let start = std::time::Instant::now();
    let out = Command::new(exe())
        .args(["go", "match", "--black", "sleep 300", "--white", &ours])
        .args(["--timeout-ms", "300"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no answer in 300 ms"), "{err}");
    assert!(start.elapsed().as_secs_f64() < 10.0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_match_arguments_are_errors() {
    for args in [
        vec!["--size", "1"],
        vec!["--size", "20"],
        vec!["--games", "0"],
        vec!["--timeout-ms", "0"],
        vec!["--timeout-ms", "soon"],
    ] {
        let mut all = vec!["go", "match", "--black", "true", "--white", "true"];
        all.extend_from_slice(&args);
        assert_eq!(stonelab(&all).status.code(), Some(2), "{args:?}");
    }
    // An engine that is not there.
    let engine = [
        "go",
        "match",
        "--black",
        "/nonexistent/engine",
        "--white",
        "true",
    ];
    common::stonelab_err(&engine, "");
}

/// The 4x4 database, solved once for the tests of this file that need it (about 4 CPU-minutes),
/// and Black's solved lower bound `lo` (area points, komi 0) from tests/data/go/solved.csv. It is
/// kept in Cargo's temporary folder for integration tests (under target/), which the next run
/// overwrites.
struct Solved4 {
    db: String,
    lo: f64,
}

fn solved_4x4() -> &'static Solved4 {
    static SOLVED: OnceLock<Solved4> = OnceLock::new();
    SOLVED.get_or_init(|| {
        let csv = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/go/solved.csv");
        let text = std::fs::read_to_string(csv).unwrap();
        let row: Vec<&str> = text
            .lines()
            .find(|l| l.starts_with("4x4,"))
            .expect("a 4x4 row in solved.csv")
            .split(',')
            .collect();
        let lo: f64 = row[2].parse().unwrap();
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let db = dir.join(format!("go-match-4x4-{}.db", std::process::id()));
        let out = Command::new(exe())
            .args([
                "go",
                "solve",
                "4x4",
                "--workers",
                "2",
                "--format",
                "json",
                "--out",
            ])
            .arg(&db)
            .output()
            .unwrap();
        common::assert_success(&out);
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["value"]["lo"].as_f64(), Some(lo), "{report}");
        Solved4 {
            db: db.display().to_string(),
            lo,
        }
    })
}

/// `B+3.5` -> 3.5, `W+2` -> -2, `0` -> 0 (GNU Go may write `B+16.0`).
fn score_of(text: &str) -> f64 {
    let t = text.trim();
    if t == "0" {
        return 0.0;
    }
    let (side, v) = t.split_once('+').unwrap_or_else(|| panic!("score '{t}'"));
    let v: f64 = v.parse().unwrap();
    if side.eq_ignore_ascii_case("B") {
        v
    } else {
        -v
    }
}

/// Game 1 of a komi-0 match in which our engine with the database plays Black: it ends (two
/// passes, or White resigns), and every score of it — our area count, our engine's
/// `final_score` and the referee's — is at least Black's solved lower bound `lo`.
fn check_black_keeps_lo(report: &Value, lo: f64) {
    if let Some(game) = scored_game_1(report) {
        let area = game["area_score"].as_f64().unwrap();
        assert!(area >= lo, "area count {area} below lo {lo}: {game}");
        let scores = game["engine_scores"].as_array().unwrap();
        assert!(!scores.is_empty(), "{game}");
        for s in scores {
            let v = score_of(s[1].as_str().unwrap());
            assert!(v >= lo, "{} final_score {v} below lo {lo}: {game}", s[0]);
        }
        let decided = score_of(game["result"].as_str().unwrap());
        assert!(decided >= lo, "result {decided} below lo {lo}: {game}");
    }
    assert_eq!(report["engines"][0]["illegal_moves"], 0, "{report}");
    assert_eq!(report["engines"][0]["timeouts"], 0, "{report}");
}

/// GNU Go (Chinese rules: area scoring like ours; never resigning, so that games are scored)
/// against our engine with the 4x4 database as Black, komi 0: the score never falls below the
/// solved `lo`, by GNU Go's count (the referee) or ours.
#[test]
#[ignore = "needs gnugo"]
fn perfect_play_on_4x4_against_gnugo() {
    let solved = solved_4x4();
    let ours = format!("{} go gtp --threads 1 --db {}", exe(), solved.db);
    for level in ["1", "10"] {
        let gnugo = format!(
            "{} --mode gtp --level {level} --chinese-rules --never-resign",
            common::gnugo()
        );
        let r = run_match(&[
            "--black", &ours, "--white", &gnugo, "--size", "4", "--komi", "0", "--games", "1",
        ]);
        assert_eq!(r["referee"], "white", "GNU Go referees");
        check_black_keeps_lo(&r, solved.lo);
    }
}

/// The same against our own engine: by search without the database, and with the database as
/// White too. The latter is the hard case: with lo < hi (+1 and +16 on 4x4) the position has
/// cycles, and when Black only kept lo (a value-keeping pass first, else the first value-keeping
/// move) both sides repeated A1, A3, A2, pass until the move cap, scored W+4 as the board stood.
/// The engine now plays towards the nearest forced end (stonelab_retro::strategy) and the game
/// ends at lo exactly.
#[test]
fn perfect_play_on_4x4_against_our_engine() {
    let solved = solved_4x4();
    let lo = solved.lo;
    let ours = format!("{} go gtp --threads 1 --db {}", exe(), solved.db);
    for white in [
        format!("{} go gtp --threads 1 --playouts 3000", exe()),
        format!("{} go gtp --threads 1 --playouts 20000", exe()),
    ] {
        let r = run_match(&[
            "--black", &ours, "--white", &white, "--size", "4", "--komi", "0", "--games", "1",
        ]);
        check_black_keeps_lo(&r, lo);
        assert_eq!(r["referee"], Value::Null);
    }
    // Database against database: both force the end, Black at its lo exactly.
    let r = run_match(&[
        "--black", &ours, "--white", &ours, "--size", "4", "--komi", "0", "--games", "1",
    ]);
    check_black_keeps_lo(&r, lo);
    let game = &r["games"][0];
    assert_eq!(game["end"], "two_passes", "{game}");
    assert_eq!(game["area_score"].as_f64(), Some(lo), "{game}");
    // Under the tie rule (tests/data/go/tie.csv: 4x4 is +1, Black's lo) White keeps the tie value
    // rather than her bound +16, and Black still forces his +1: the game ends at +1 exactly.
    let tie = format!("{ours} --cycles tie");
    for black in [&ours, &tie] {
        let r = run_match(&[
            "--black", black, "--white", &tie, "--size", "4", "--komi", "0", "--games", "1",
        ]);
        check_black_keeps_lo(&r, lo);
        let game = &r["games"][0];
        assert_eq!(game["end"], "two_passes", "{game}");
        assert_eq!(game["area_score"].as_f64(), Some(lo), "{game}");
    }
}

/// Under positional superko (tests/data/go/superko.csv: 2x2 +1, 3x3 +9) the engine with the
/// database plays the superko value: against itself the game ends at it exactly; as Black against
/// our search (also under superko) it ends at least there, as White at most there.
#[test]
fn superko_play_ends_at_the_superko_value() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    for (board, value) in [("2x2", 1.0), ("3x3", 9.0)] {
        let db = dir.join(format!(
            "go-match-superko-{board}-{}.db",
            std::process::id()
        ));
        let out = Command::new(exe())
            .args(["go", "solve", board, "--out"])
            .arg(&db)
            .output()
            .unwrap();
        common::assert_success(&out);
        let size = &board[..1];
        let ours = format!(
            "{} go gtp --threads 1 --ko positional-superko --db {}",
            exe(),
            db.display()
        );
        let r = run_match(&[
            "--black", &ours, "--white", &ours, "--size", size, "--komi", "0", "--games", "1",
        ]);
        let game = &r["games"][0];
        assert_eq!(game["end"], "two_passes", "{game}");
        assert_eq!(game["area_score"].as_f64(), Some(value), "{board}: {game}");
        let search = format!(
            "{} go gtp --threads 1 --playouts 2000 --ko positional-superko",
            exe()
        );
        let r = run_match(&[
            "--black", &ours, "--white", &search, "--size", size, "--komi", "0", "--games", "2",
        ]);
        for (i, game) in r["games"].as_array().unwrap().iter().enumerate() {
            let area = game["area_score"].as_f64().unwrap();
            // Game 1: ours is Black; game 2: colours swap.
            if i == 0 {
                assert!(area >= value, "{board}: {game}");
            } else {
                assert!(area <= value, "{board}: {game}");
            }
        }
        assert_eq!(r["engines"][0]["illegal_moves"], 0, "{r}");
        for ext in ["", ".index", ".states"] {
            let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
        }
    }
}

/// 4x4 under positional superko is worth +2 (van der Werf; tests/data/go/superko.csv): the engine
/// with the database against itself ends the game at +2 exactly, and as Black against GNU Go
/// (itself under positional superko) at +2 or more. The first move's search takes about 25 s.
#[test]
#[ignore = "needs gnugo; minutes"]
fn superko_play_on_4x4_keeps_plus_two() {
    let solved = solved_4x4();
    let ours = format!(
        "{} go gtp --threads 1 --ko positional-superko --db {}",
        exe(),
        solved.db
    );
    let long = ["--timeout-ms", "600000"];
    let r = run_match(
        &[
            &[
                "--black", &ours, "--white", &ours, "--size", "4", "--komi", "0", "--games", "1",
            ][..],
            &long,
        ]
        .concat(),
    );
    let game = &r["games"][0];
    assert_eq!(game["end"], "two_passes", "{game}");
    assert_eq!(game["area_score"].as_f64(), Some(2.0), "{game}");
    let gnugo = format!(
        "{} --mode gtp --level 10 --chinese-rules --positional-superko --never-resign",
        common::gnugo()
    );
    let r = run_match(
        &[
            &[
                "--black", &ours, "--white", &gnugo, "--size", "4", "--komi", "0", "--games", "1",
            ][..],
            &long,
        ]
        .concat(),
    );
    check_black_keeps_lo(&r, 2.0);
}

/// 2x2 under the tie rule is worth 0 (tests/data/go/tie.csv) though neither side can force an end
/// better than its bound (-4 for Black, +4 for White): with `--cycles tie` both keep the tie value,
/// and the game between two such engines ends by two passes at 0.
#[test]
fn the_tie_rule_keeps_2x2_at_zero() {
    let db = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("go-match-2x2-{}.db", std::process::id()));
    let out = Command::new(exe())
        .args(["go", "solve", "2x2", "--out"])
        .arg(&db)
        .output()
        .unwrap();
    common::assert_success(&out);
    let tie = format!(
        "{} go gtp --threads 1 --cycles tie --db {}",
        exe(),
        db.display()
    );
    let r = run_match(&[
        "--black", &tie, "--white", &tie, "--size", "2", "--komi", "0", "--games", "2",
    ]);
    for game in r["games"].as_array().unwrap() {
        assert_eq!(game["end"], "two_passes", "{game}");
        assert_eq!(game["area_score"].as_f64(), Some(0.0), "{game}");
    }
    let _ = std::fs::remove_file(&db);
}
