//! `stonelab go solve` and `stonelab go query` from the outside: values against the solved-board
//! data file, two OS processes on localhost against one, and bad input.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn stonelab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_stonelab"))
}

fn run(args: &[&str]) -> Output {
    stonelab().args(args).output().expect("stonelab runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// One row of tests/data/go/solved.csv.
struct Solved {
    board: String,
    states: u64,
    lo: Option<f64>,
    hi: Option<f64>,
    best: Vec<String>,
}

fn solved_table() -> Vec<Solved> {
    include_str!("data/go/solved.csv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let bound = |t: &str| {
                if t == "inf" || t == "-inf" {
                    None
                } else {
                    Some(t.parse().unwrap())
                }
            };
            Solved {
                board: f[0].to_string(),
                states: f[1].parse().unwrap(),
                lo: bound(f[2]),
                hi: bound(f[3]),
                best: f[4]
                    .split(' ')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect(),
            }
        })
        .collect()
}

#[test]
fn solved_values_match_the_data_file() {
    check_solved(|points| points <= 16);
}

/// The 4x5 row: about an hour on two cores and 10.5 GiB (`cargo test -- --ignored slow_`).
#[test]
#[ignore = "slow: solves 4x5 (about an hour, 10.5 GiB)"]
fn slow_solved_4x5_matches_the_data_file() {
    check_solved(|points| points > 16);
}

/// Solves every board of the data file whose point count `pick` accepts and compares.
fn check_solved(pick: impl Fn(usize) -> bool) {
    for row in solved_table() {
        let points: usize = row
            .board
            .split('x')
            .map(|n| n.parse::<usize>().unwrap())
            .product();
        if !pick(points) {
            continue;
        }
        let mut args = vec![
            "go",
            "solve",
            row.board.as_str(),
            "--format",
            "json",
            "--workers",
            "2",
        ];
        if points <= 9 || row.board.starts_with("1x") && points <= 7 {
            args.push("--verify");
        }
        let v = json(&run(&args));
        assert_eq!(v["states"], row.states, "{}", row.board);
        assert_eq!(v["value"]["lo"].as_f64(), row.lo, "{} lo", row.board);
        assert_eq!(v["value"]["hi"].as_f64(), row.hi, "{} hi", row.board);
        let best: Vec<String> = v["best"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        assert_eq!(best, row.best, "{} best", row.board);
        assert_eq!(v["rules"]["ko"], "simple");
    }
}

/// tests/data/go/tie.csv: (board, value when an endless game scores 0, slow).
fn tie_table() -> Vec<(String, i64, bool)> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/go/tie.csv"),
    )
    .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("board,"))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), f[1].parse().unwrap(), f[2] == "1")
        })
        .collect()
}

fn check_tie(slow: bool) {
    let rows: Vec<_> = tie_table().into_iter().filter(|r| r.2 == slow).collect();
    assert!(!rows.is_empty());
    for (board, want, _) in rows {
        let v = json(&run(&[
            "go",
            "solve",
            &board,
            "--workers",
            "2",
            "--cycles",
            "tie",
            "--format",
            "json",
        ]));
        assert_eq!(v["exact"], true, "{board}");
        assert_eq!(v["value"]["lo"].as_i64(), Some(want), "{board}");
        assert_eq!(v["value"]["hi"].as_i64(), Some(want), "{board}");
        assert_eq!(
            v["rules"]["cycles"],
            "tie: an endless game scores 0 before komi"
        );
        // The interval stays the default, and it holds the tie value.
        let i = json(&run(&["go", "solve", &board, "--format", "json"]));
        let (lo, hi) = (i["value"]["lo"].as_i64(), i["value"]["hi"].as_i64());
        assert!(
            lo.is_none_or(|lo| lo <= want) && hi.is_none_or(|hi| want <= hi),
            "{board}"
        );
    }
}

#[test]
fn tie_values_match_the_published_ones() {
    check_tie(false);
}

#[test]
#[ignore = "solves 4x4 (about a minute)"]
fn slow_tie_value_of_4x4_matches_the_published_one() {
    check_tie(true);
}

/// tests/data/go/superko.csv: (board, value under positional superko).
fn superko_table() -> Vec<(String, i64)> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/go/superko.csv"),
    )
    .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("board,"))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), f[1].parse().unwrap())
        })
        .collect()
}

fn check_superko(boards: &[&str]) {
    let table = superko_table();
    for &board in boards {
        let want = table
            .iter()
            .find(|r| r.0 == board)
            .expect("a published value")
            .1;
        let v = json(&run(&[
            "go",
            "solve",
            board,
            "--workers",
            "2",
            "--ko",
            "positional-superko",
            "--format",
            "json",
        ]));
        assert_eq!(v["exact"], true, "{board}");
        assert_eq!(v["value"]["lo"].as_i64(), Some(want), "{board}");
        assert_eq!(v["value"]["hi"].as_i64(), Some(want), "{board}");
        assert_eq!(v["rules"]["ko"], "positional-superko", "{board}");
        assert!(v["nodes"].as_u64().unwrap() > 0, "{board}");
    }
}

#[test]
fn superko_values_match_the_published_ones() {
    check_superko(&["2x2", "3x3", "3x4"]);
}

#[test]
#[ignore = "solves 4x4 under simple ko, then searches under superko"]
fn slow_superko_value_of_4x4_matches_the_published_one() {
    check_superko(&["4x4"]);
}

#[test]
fn superko_refuses_what_it_cannot_do() {
    for extra in [
        &["--cycles", "tie"][..],
        &["--solver", "edges"],
        &["--verify"],
    ] {
        let mut a = vec!["go", "solve", "2x2", "--ko", "positional-superko"];
        a.extend_from_slice(extra);
        let out = Command::new(env!("CARGO_BIN_EXE_stonelab"))
            .args(&a)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("positional-superko"), "{extra:?}: {err}");
    }
}

/// `go query --ko positional-superko` on a 2x2 database: the empty board's value is the published
/// one, and at every position of a few plies (history included) the value is the best of its
/// children's values for the side to move (a pass after a pass ends the game), with the best move
/// among the children that keep it.
#[test]
fn query_under_superko_is_consistent_with_its_children() {
    let dir = common::temp_dir("solve-cli-query_under_superko_is_consistent_with_i");
    let db = dir.join("superko-2x2.db");
    solve_to("2x2", &db);
    let q = |moves: &str| {
        let out = run(&[
            "go",
            "query",
            db.to_str().unwrap(),
            "--ko",
            "positional-superko",
            "--moves",
            moves,
            "--format",
            "json",
        ]);
        let ok = out.status.success();
        (
            ok,
            if ok {
                json(&out)
            } else {
                serde_json::Value::Null
            },
        )
    };
    let want = superko_table()
        .into_iter()
        .find(|r| r.0 == "2x2")
        .unwrap()
        .1;
    let (_, root) = q("");
    assert_eq!(root["value"]["lo"].as_i64(), Some(want));
    let mut checked = 0;
    let mut todo = vec![String::new()];
    while let Some(moves) = todo.pop() {
        let (_, here) = q(&moves);
        if here["game_over"] == true {
            continue;
        }
        let v = here["value"]["lo"].as_i64().unwrap();
        let colour = if here["to_move"] == "black" { "B" } else { "W" };
        let mut values = Vec::new();
        for vertex in ["A1", "A2", "B1", "B2", "pass"] {
            let next = format!("{moves} {colour} {vertex}").trim().to_string();
            let (ok, child) = q(&next);
            if !ok {
                continue; // occupied, suicide or a repeated board
            }
            let cv = child["value"]["lo"].as_i64().unwrap();
            values.push((vertex, cv));
            if next.split_whitespace().count() < 8 {
                todo.push(next);
            }
        }
        let best = if colour == "B" {
            values.iter().map(|x| x.1).max()
        } else {
            values.iter().map(|x| x.1).min()
        };
        assert_eq!(best, Some(v), "after '{moves}': {values:?}");
        let b = here["best"][0].as_str().unwrap();
        assert!(
            values.contains(&(b, v)),
            "after '{moves}': best {b}, {values:?}"
        );
        checked += 1;
    }
    assert!(checked > 20, "{checked}");

    // On 1x3, Black's retake of A1 recreates the board after move 1: legal under simple ko (a pass
    // and a capture came between), refused under positional superko.
    let db3 = dir.join("superko-1x3.db");
    solve_to("1x3", &db3);
    let moves = "B A1 W C1 B pass W B1 B A1";
    let q3 = |extra: &[&str]| {
        let mut a = vec!["go", "query", db3.to_str().unwrap(), "--moves", moves];
        a.extend_from_slice(extra);
        run(&a)
    };
    common::assert_success(&q3(&[]));
    let out = q3(&["--ko", "positional-superko"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("move 5 (B A1): recreates an earlier position"),
        "{err}"
    );
}

#[test]
fn query_answers_under_the_tie_rule() {
    let dir = common::temp_dir("solve-cli-query_answers_under_the_tie_rule");
    let db = dir.join("tie-2x3.db");
    solve_to("2x3", &db);
    let q = |extra: &[&str]| {
        let mut a = vec!["go", "query", db.to_str().unwrap(), "--format", "json"];
        a.extend_from_slice(extra);
        json(&run(&a))
    };
    let interval = q(&[]);
    assert_eq!(interval["exact"], false);
    let tie = q(&["--cycles", "tie"]);
    assert_eq!(tie["exact"], true);
    assert_eq!(tie["value"]["lo"].as_i64(), Some(0));
    // Every move's value is exact too, and the best moves keep the value.
    for m in tie["moves"].as_array().unwrap() {
        assert_eq!(m["lo"], m["hi"], "{m}");
    }
    for b in tie["best"].as_array().unwrap() {
        let m = tie["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == *b)
            .unwrap();
        assert_eq!(m["lo"].as_i64(), Some(0), "{b}");
    }
    let _ = std::fs::remove_file(&db);
}

#[test]
fn published_values_agree_where_the_rules_agree() {
    // REFERENCE.md: 3x3 = +9 (van der Werf), area scoring, komi 0. Exact under our rules too.
    let v = json(&run(&["go", "solve", "3x3", "--format", "json"]));
    assert_eq!(
        (v["value"]["lo"].as_f64(), v["value"]["hi"].as_f64()),
        (Some(9.0), Some(9.0))
    );
    assert_eq!(v["best"], serde_json::json!(["B2"]));
    assert_eq!(v["pv"], serde_json::json!(["B2", "pass", "pass"]));
    // Komi shifts the value.
    let v = json(&run(&[
        "go", "solve", "3x3", "--format", "json", "--komi", "7.5",
    ]));
    assert_eq!(v["value"]["lo"].as_f64(), Some(1.5));
}

fn free_port_base() -> u16 {
    // Two ports from a range unlikely to be in use; the process id spreads parallel runs.
    20000 + (std::process::id() % 20000) as u16
}

#[test]
fn two_processes_write_the_same_database_as_one() {
    let dir = common::temp_dir("solve-cli-two_processes_write_the_same_database_as");
    let one = dir.join("one.db");
    let two = dir.join("two.db");
    let out = run(&["go", "solve", "3x3", "--out", one.to_str().unwrap()]);
    common::assert_success(&out);

    let base = free_port_base();
    let hostfile = dir.join("hosts.txt");
    std::fs::write(
        &hostfile,
        format!("127.0.0.1:{}\n127.0.0.1:{}\n", base, base + 1),
    )
    .unwrap();
    let spawn = |p: &str| {
        stonelab()
            .args(["go", "solve", "3x3", "--processes", "2", "--process", p])
            .args([
                "--hostfile",
                hostfile.to_str().unwrap(),
                "--out",
                two.to_str().unwrap(),
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn")
    };
    let p1 = spawn("1");
    let p0 = spawn("0");
    let (o0, o1) = (
        p0.wait_with_output().unwrap(),
        p1.wait_with_output().unwrap(),
    );
    assert!(
        o0.status.success(),
        "process 0: {}",
        String::from_utf8_lossy(&o0.stderr)
    );
    assert!(
        o1.status.success(),
        "process 1: {}",
        String::from_utf8_lossy(&o1.stderr)
    );
    assert!(String::from_utf8_lossy(&o0.stdout).contains("value +9"));
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
}

fn solve_to(board: &str, path: &Path) {
    let out = run(&["go", "solve", board, "--out", path.to_str().unwrap()]);
    common::assert_success(&out);
}

#[test]
fn query_follows_moves_and_refuses_bad_input() {
    let dir = common::temp_dir("solve-cli-query_follows_moves_and_refuses_bad_inpu");
    let db = dir.join("q3x3.db");
    solve_to("3x3", &db);
    let d = db.to_str().unwrap();
    let v = json(&run(&["go", "query", d, "--format", "json"]));
    assert_eq!(v["value"]["lo"].as_f64(), Some(9.0));
    assert_eq!(v["best"], serde_json::json!(["B2"]));
    // After Black's centre and White's pass, every move keeps +9.
    let v = json(&run(&[
        "go",
        "query",
        d,
        "--moves",
        "B B2 W pass",
        "--format",
        "json",
    ]));
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["value"]["lo"].as_f64(), Some(9.0));
    assert_eq!(v["moves"].as_array().unwrap().len(), 9);
    // Two passes end the game: the value is the score.
    let v = json(&run(&[
        "go",
        "query",
        d,
        "--moves",
        "B B2 W pass B pass",
        "--format",
        "json",
    ]));
    assert_eq!(v["game_over"], true);
    assert_eq!(v["value"]["hi"].as_f64(), Some(9.0));

    // Illegal move, malformed list, off-board vertex: exit 2 with the move number.
    for moves in ["B B2 W B2", "B B2 X", "B Z9", "W B2"] {
        let out = run(&["go", "query", d, "--moves", moves]);
        assert_eq!(out.status.code(), Some(2), "{moves}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("move"),
            "{moves}"
        );
    }
    // A damaged or truncated database is refused.
    let bytes = std::fs::read(&db).unwrap();
    let bad = dir.join("bad.db");
    std::fs::write(&bad, &bytes[..bytes.len() - 1]).unwrap();
    let out = run(&["go", "query", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("truncated"));
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x40;
    std::fs::write(&bad, &flipped).unwrap();
    let out = run(&["go", "query", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("checksum"));
}

/// `go query` keeps FILE.states and the query index FILE.index next to the database; a later
/// query opens both without reading them whole and answers as a query without them does. A
/// database or table changed since is checked in full again.
#[test]
fn later_queries_go_through_the_index_and_answer_alike() {
    let dir = common::temp_dir("solve-cli-later_queries_go_through_the_index_and_a");
    let db = dir.join("idx3x3.db");
    solve_to("3x3", &db);
    let d = db.to_str().unwrap();
    let (index, table) = (dir.join("idx3x3.db.index"), dir.join("idx3x3.db.states"));
    let query = |moves: &str, extra: &[&str]| {
        let mut args = vec!["go", "query", d, "--moves", moves, "--format", "json"];
        args.extend_from_slice(extra);
        let out = run(&args);
        common::assert_success(&out);
        (json(&out), String::from_utf8_lossy(&out.stderr).to_string())
    };
    let (first, err) = query("", &[]);
    assert!(err.is_empty(), "{err}");
    assert!(index.is_file() && table.is_file());
    let indexed = std::fs::read(&index).unwrap();
    for moves in [
        "",
        "B B2",
        "B B2 W A1",
        "B A1 W pass",
        "B B2 W pass B pass",
        "B A1 W A2 B B1",
    ] {
        let (fast, err) = query(moves, &[]);
        assert!(err.is_empty(), "{moves}: {err}");
        assert_eq!(
            std::fs::read(&index).unwrap(),
            indexed,
            "{moves}: the index is kept"
        );
        let (slow, _) = query(moves, &["--no-index"]);
        assert_eq!(fast, slow, "{moves}");
        if moves.is_empty() {
            assert_eq!(fast, first);
        }
    }
    // The database doctored in place (same file, same size, valid checksums): checked in full,
    // refused; restored: accepted, and indexed again.
    let good = std::fs::read(&db).unwrap();
    let meta_len = u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    let mut b = good.clone();
    let at = 32 + meta_len + 4 * 5;
    b[at..at + 2].copy_from_slice(&3i16.to_le_bytes());
    b[at + 2..at + 4].copy_from_slice(&(-3i16).to_le_bytes());
    reseal_db(&mut b);
    std::fs::write(&db, &b).unwrap();
    let out = run(&["go", "query", d]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a value"));
    std::fs::write(&db, &good).unwrap();
    let (again, _) = query("", &[]);
    assert_eq!(again, first);
    assert_ne!(std::fs::read(&index).unwrap(), indexed, "a new index");
    // A damaged kept table is made again; a damaged index is rebuilt.
    std::fs::write(&table, b"not a state table").unwrap();
    let (again, err) = query("B B2", &[]);
    assert!(err.contains("enumerating the positions again"), "{err}");
    assert_eq!(again, query("B B2", &["--no-index"]).0);
    let mut ix = std::fs::read(&index).unwrap();
    ix[20] ^= 1;
    std::fs::write(&index, &ix).unwrap();
    let (again, err) = query("B B2", &[]);
    assert!(err.contains("checksum"), "{err}");
    assert_eq!(again, query("B B2", &["--no-index"]).0);
    // Where the index would go is a folder: left alone, the answer the same.
    std::fs::remove_file(&index).unwrap();
    std::fs::create_dir(&index).unwrap();
    let (again, err) = query("", &[]);
    assert_eq!(again, first);
    assert!(err.contains("not a regular file"), "{err}");
    assert!(index.is_dir());
    // --no-index leaves nothing behind.
    let other = dir.join("noidx3x3.db");
    std::fs::copy(&db, &other).unwrap();
    let out = run(&["go", "query", other.to_str().unwrap(), "--no-index"]);
    common::assert_success(&out);
    assert!(!dir.join("noidx3x3.db.index").exists() && !dir.join("noidx3x3.db.states").exists());
}

#[test]
fn sizes_beyond_the_solver_are_refused_before_work() {
    for board in ["5x5", "4x6", "0x3", "20x1", "axb"] {
        let out = run(&["go", "solve", board]);
        assert_eq!(out.status.code(), Some(2), "{board}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{board}: {err}");
    }
    // The edge-storing reference refuses 4x5 (hundreds of GiB of moves) before any work.
    let out = run(&["go", "solve", "4x5", "--solver", "edges"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("GiB"));
    let out = run(&["go", "solve", "5x5"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("GiB")
            || String::from_utf8_lossy(&out.stderr).contains("TB")
    );
}

#[test]
fn a_killed_solve_resumes_from_its_checkpoints() {
    let dir = common::temp_dir("solve-cli-a_killed_solve_resumes_from_its_checkpoi");
    // The 3x4 solve into `out`, by two workers.
    fn solve_3x4(out: &str) -> [&str; 7] {
        ["go", "solve", "3x4", "--workers", "2", "--out", out]
    }
    let fresh = dir.join("fresh3x4.db");
    common::assert_success(&run(&solve_3x4(fresh.to_str().unwrap())));

    let resumed = dir.join("resumed3x4.db");
    let r = resumed.to_str().unwrap();
    let args = [&solve_3x4(r)[..], &["--checkpoint-secs", "0"]].concat();
    // The first run dies right after a checkpoint of round 20 (as if killed there).
    let killed = stonelab()
        .args(&args)
        .args(["--abort-after-round", "20"])
        .output()
        .unwrap();
    assert_eq!(
        killed.status.code(),
        Some(137),
        "{}",
        String::from_utf8_lossy(&killed.stderr)
    );
    assert!(!resumed.exists(), "no database from a killed run");
    let ckpt = PathBuf::from(format!("{r}.ckpt"));
    assert!(
        std::fs::read_dir(&ckpt).unwrap().count() >= 1,
        "checkpoints left behind"
    );
    // The same command again resumes, finishes, and writes the same database as a fresh run.
    let again = stonelab().args(&args).output().unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(String::from_utf8_lossy(&again.stderr).contains("resumed from checkpoints"));
    assert_eq!(
        std::fs::read(&fresh).unwrap(),
        std::fs::read(&resumed).unwrap()
    );
    assert!(
        !ckpt.exists(),
        "checkpoints are removed once the database is written"
    );
}

#[test]
fn a_solve_killed_at_random_moments_resumes_to_the_same_database() {
    let dir = common::temp_dir("solve-cli-a_solve_killed_at_random_moments_resumes");
    // Issue 18: kill -9 at random points (in the degree count, in a round, while a checkpoint is
    // being written), several times, then the same command finishes; the database equals a fresh
    // run's.
    let fresh = dir.join("fresh-random3x4.db");
    common::assert_success(&run(&[
        "go",
        "solve",
        "3x4",
        "--workers",
        "2",
        "--out",
        fresh.to_str().unwrap(),
    ]));
    let out = dir.join("killed-random3x4.db");
    let o = out.to_str().unwrap();
    let args = [
        "go",
        "solve",
        "3x4",
        "--workers",
        "2",
        "--out",
        o,
        "--checkpoint-secs",
        "0",
    ];
    let mut x = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64
        | 1;
    for _ in 0..4 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let ms = 300 + x % 2500;
        let mut child = stonelab()
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(ms));
        let _ = child.kill();
        let _ = child.wait();
        if out.exists() {
            // It finished before the kill: start over.
            std::fs::remove_file(&out).unwrap();
        }
    }
    let again = stonelab().args(args).output().unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(std::fs::read(&fresh).unwrap(), std::fs::read(&out).unwrap());
    assert!(!PathBuf::from(format!("{o}.ckpt")).exists());
}

/// Recomputes a database's two CRCs after its bytes were changed (layout: docs of `db.rs`).
fn reseal_db(bytes: &mut [u8]) {
    let meta_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let body = crc32fast_hash(&bytes[32 + meta_len..]);
    bytes[24..28].copy_from_slice(&body.to_le_bytes());
    let meta = crc32fast_hash(&bytes[32..32 + meta_len]);
    bytes[28..32].copy_from_slice(&meta.to_le_bytes());
}

/// CRC-32 (IEEE), bit by bit: the tests need no extra crate.
fn crc32fast_hash(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn sealed_but_wrong_databases_and_state_tables_are_refused() {
    let dir = common::temp_dir("solve-cli-sealed_but_wrong_databases_and_state_tab");
    // Issue 20 items 3 and 11: valid checksums, invalid contents.
    let db = dir.join("sealed3x3.db");
    solve_to("3x3", &db);
    let good = std::fs::read(&db).unwrap();
    let meta_len = u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    let bad = dir.join("sealed-bad.db");
    let refused = |bytes: &[u8], words: &str| {
        std::fs::write(&bad, bytes).unwrap();
        // `go query`, and the GTP engine loading it with --db, refuse it alike.
        for args in [
            vec!["go", "query", bad.to_str().unwrap()],
            vec!["go", "gtp", "--db", bad.to_str().unwrap()],
        ] {
            let out = run(&args);
            assert_eq!(out.status.code(), Some(2), "{words} {args:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(words), "{words}: {err}");
            assert!(!err.contains("panicked"), "{err}");
        }
    };
    // lo > hi in state 5.
    let mut b = good.clone();
    let at = 32 + meta_len + 4 * 5;
    b[at..at + 2].copy_from_slice(&3i16.to_le_bytes());
    b[at + 2..at + 4].copy_from_slice(&(-3i16).to_le_bytes());
    reseal_db(&mut b);
    refused(&b, "not a value");
    // A sentinel left in state 7.
    let mut b = good.clone();
    let at = 32 + meta_len + 4 * 7;
    b[at..at + 2].copy_from_slice(&i16::MIN.to_le_bytes());
    reseal_db(&mut b);
    refused(&b, "not a value");
    // Other rules.
    let text = String::from_utf8(good[32..32 + meta_len].to_vec()).unwrap();
    let other = text.replace("\"simple\"", "\"SIMPLE\"");
    assert_ne!(text, other);
    let mut b = good.clone();
    b[32..32 + meta_len].copy_from_slice(other.as_bytes());
    reseal_db(&mut b);
    refused(&b, "other rules");

    // A state table whose checksums are right but one position moved to another serial.
    let st = dir.join("sealed3x3.st");
    common::assert_success(&run(&[
        "go",
        "enumerate",
        "3x3",
        "--out",
        st.to_str().unwrap(),
    ]));
    let good = std::fs::read(&st).unwrap();
    let mut b = good.clone();
    // In the first word of the bitset with a set and a clear bit, move the set bit.
    let body = 128;
    let (w, from, to) = (0..)
        .map(|w: usize| {
            let x = u64::from_le_bytes(b[body + 8 * w..body + 8 * w + 8].try_into().unwrap());
            (w, x)
        })
        .find_map(|(w, x)| {
            let from = (0..64).find(|i| x >> i & 1 == 1)?;
            let to = (from + 1..64).find(|i| x >> i & 1 == 0)?;
            Some((w, from, to))
        })
        .unwrap();
    let mut x = u64::from_le_bytes(b[body + 8 * w..body + 8 * w + 8].try_into().unwrap());
    x &= !(1 << from);
    x |= 1 << to;
    b[body + 8 * w..body + 8 * w + 8].copy_from_slice(&x.to_le_bytes());
    let crc = crc32fast_hash(&b[128..]);
    b[64..68].copy_from_slice(&crc.to_le_bytes());
    let hc = crc32fast_hash(&b[0..68]);
    b[68..72].copy_from_slice(&hc.to_le_bytes());
    let bad_st = dir.join("sealed-bad.st");
    std::fs::write(&bad_st, &b).unwrap();
    let s = bad_st.to_str().unwrap();
    for args in [
        vec!["go", "solve", "3x3", "--states", s],
        vec!["go", "query", db.to_str().unwrap(), "--states", s],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("serial"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn the_memory_estimate_covers_the_measured_peak() {
    let dir = common::temp_dir("solve-cli-the_memory_estimate_covers_the_measured_");
    // Issue 20 item 9: one estimator (count::estimated_bytes via go solve), against the peak
    // resident memory the same run measures (VmHWM). Small boards are dominated by the fixed
    // allowance; docs/go-solver.md and BENCHMARKS.md have the 4x4 figures.
    for (board, out) in [("3x3", false), ("3x4", true)] {
        let path = dir.join(format!("mem{board}.db"));
        let mut args = vec!["go", "solve", board, "--workers", "2", "--format", "json"];
        if out {
            args.extend(["--out", path.to_str().unwrap()]);
        }
        let v = json(&run(&args));
        let est = v["estimated_bytes"].as_u64().unwrap();
        let peak = v["peak_rss_bytes"].as_u64().unwrap();
        assert!(peak <= est, "{board}: peak {peak} above the estimate {est}");
        assert!(
            est <= peak + (100 << 20),
            "{board}: estimate {est} far above peak {peak}"
        );
        assert_eq!(v["solver"], "counting");
    }
}

/// Issue 20 item 14: a principal variation of a cyclic value stops where the line comes back to a
/// state it was in and says so; one of an exact value ends with two passes and no marker.
#[test]
fn a_cyclic_principal_variation_is_marked() {
    for board in ["2x2", "1x5"] {
        let v = json(&run(&["go", "solve", board, "--format", "json"]));
        assert_eq!(v["exact"], false, "{board}");
        let pv = v["pv"].as_array().unwrap();
        let from = v["pv_repeats_from"].as_u64().expect("a cycle start") as usize;
        assert!(from < pv.len(), "{board}");
        let text = String::from_utf8(run(&["go", "solve", board]).stdout).unwrap();
        assert!(
            text.contains(&format!("pv_repeats_from {}", from + 1)),
            "{text}"
        );
    }
    let v = json(&run(&["go", "solve", "3x3", "--format", "json"]));
    assert!(v["pv_repeats_from"].is_null());
    let pv = v["pv"].as_array().unwrap();
    assert_eq!(&pv[pv.len() - 2..], &["pass", "pass"]);
}

/// Issue 20 item 10: a process of a multi-process solve whose peers never come gives up with one
/// error line after --connect-timeout.
#[test]
fn a_solve_whose_peers_never_connect_gives_up() {
    let dir = common::temp_dir("solve-cli-a_solve_whose_peers_never_connect_gives_");
    let hostfile = dir.join("lonely-hosts.txt");
    std::fs::write(&hostfile, "127.0.0.1:2931\n127.0.0.1:2932\n").unwrap();
    for solver in ["counting", "edges"] {
        let started = std::time::Instant::now();
        let out = run(&[
            "go",
            "solve",
            "2x2",
            "--solver",
            solver,
            "--processes",
            "2",
            "--process",
            "0",
            "--hostfile",
            hostfile.to_str().unwrap(),
            "--connect-timeout",
            "1",
        ]);
        assert_eq!(out.status.code(), Some(2), "{solver}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(
                "stonelab: error: process 0: the other processes did not all connect within 1 s"
            ),
            "{solver}: {err}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(30));
    }
}
