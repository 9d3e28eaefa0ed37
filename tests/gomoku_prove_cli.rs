//! `stonelab gomoku prove`, `check-proof` and `proof-move` run as programs: small boards, a win with
//! its certificate, the database across runs, and bad input (exit 2, one line).

mod common;

use common::{stonelab, stonelab_err, stonelab_json, stonelab_ok, stonelab_with_input, temp_dir};

/// Black to move on 9x9 with two twos (c5 d5, e3 e4) that e5 makes a double three; White far
/// away. A VCT win with no VCF: the certificate needs the root move.
const DOUBLE_TWO: &str = "c5 a1 d5 a9 e3 i1 e4 i9";

#[test]
fn small_empty_boards_are_no_win_for_both_sides() {
    for size in ["5", "6", "7"] {
        for attacker in ["black", "white"] {
            let v = stonelab_json(&[
                "gomoku",
                "prove",
                "--size",
                size,
                "--attacker",
                attacker,
                "--format",
                "json",
                "/dev/null",
            ]);
            assert_eq!(v["result"], "no_win", "{size} {attacker}: {v}");
            assert_eq!(v["attacker"], attacker);
            assert_eq!(v["to_move"], "black");
            assert!(v["proof_tree"].is_null());
            for key in [
                "nodes",
                "solver_nodes",
                "seconds",
                "cpu_seconds",
                "entries",
                "peak_memory_bytes",
            ] {
                assert!(v[key].is_number(), "{key}: {v}");
            }
        }
    }
}

#[test]
fn two_threads_prove_the_7x7_draw() {
    let v = stonelab_json(&[
        "gomoku",
        "prove",
        "--size",
        "7",
        "--threads",
        "2",
        "--format",
        "json",
        "/dev/null",
    ]);
    assert_eq!(v["result"], "no_win", "{v}");
    assert!(v["nodes"].as_u64().unwrap() > 1000, "{v}");
}

#[test]
fn weak_sums_prove_the_7x7_draw_and_the_solver_sites_add_up() {
    for sums in ["full", "weak"] {
        let v = stonelab_json(&[
            "gomoku",
            "prove",
            "--size",
            "7",
            "--sums",
            sums,
            "--format",
            "json",
            "/dev/null",
        ]);
        assert_eq!(v["result"], "no_win", "{sums}: {v}");
        let sites = v["solver_sites"].as_array().unwrap();
        let names: Vec<&str> = sites.iter().map(|c| c["site"].as_str().unwrap()).collect();
        assert_eq!(names, ["leaf", "pass", "unchecked"], "{v}");
        let total: u64 = sites
            .iter()
            .map(|c| c["nodes_found"].as_u64().unwrap() + c["nodes_missed"].as_u64().unwrap())
            .sum();
        assert_eq!(total, v["solver_nodes"].as_u64().unwrap(), "{v}");
        for c in sites {
            assert!(c["found"].as_u64() <= c["calls"].as_u64(), "{v}");
        }
        assert!(sites[0]["calls"].as_u64().unwrap() > 100, "{v}");
    }
    stonelab_err(&["gomoku", "prove", "--sums", "half", "/dev/null"], "half");
}

#[test]
fn a_win_writes_a_certificate_that_checks_and_answers_moves() {
    let dir = temp_dir("prove-cert");
    let pos = dir.join("pos.txt");
    std::fs::write(&pos, DOUBLE_TWO).unwrap();
    let prove_to = |out: &std::path::Path| {
        let v = stonelab_json(&[
            "gomoku",
            "prove",
            "--size",
            "9",
            "--out",
            out.to_str().unwrap(),
            "--format",
            "json",
            pos.to_str().unwrap(),
        ]);
        assert_eq!(v["result"], "win", "{v}");
        v
    };
    let cert = dir.join("p.cert");
    let v = prove_to(&cert);
    assert!(v["proof_tree"].as_u64().unwrap() >= 1);
    let text = std::fs::read_to_string(&cert).unwrap();
    assert!(
        text.starts_with("stonelab-gomoku-proof 2\nsize 9\n"),
        "{text}"
    );
    let ok = stonelab_json(&[
        "gomoku",
        "check-proof",
        "--format",
        "json",
        cert.to_str().unwrap(),
    ]);
    assert_eq!(ok["valid"], true, "{ok}");
    assert_eq!(ok["attacker"], "black", "{ok}");
    assert_eq!(ok["size"], 9, "{ok}");
    assert_eq!(ok["black"].as_array().unwrap().len(), 4, "{ok}");
    assert!(ok["positions"].as_u64().unwrap() >= 1);
    assert!(v["certificate_seconds"].as_f64().unwrap() >= 0.0, "{v}");
    // Two threads examine the same positions, replies and leaves.
    let two = stonelab_json(&[
        "gomoku",
        "check-proof",
        "--threads",
        "2",
        "--format",
        "json",
        cert.to_str().unwrap(),
    ]);
    for k in ["valid", "positions", "replies", "leaves", "entries"] {
        assert_eq!(two[k], ok[k], "{k}: {two} against {ok}");
    }
    let first = stonelab_ok(&["gomoku", "proof-move", cert.to_str().unwrap()]);
    let first = first.trim();
    assert_eq!(first, "e5");
    // After the attacker's move it is the defender's turn: no attacker move.
    assert_eq!(
        stonelab_ok(&[
            "gomoku",
            "proof-move",
            "--moves",
            first,
            cert.to_str().unwrap()
        ])
        .trim(),
        "none"
    );
    // Named *.gz, the certificate is written compressed and read back as it was.
    let gz = dir.join("p.cert.gz");
    prove_to(&gz);
    let packed = std::fs::read(&gz).unwrap();
    assert_eq!(packed[..2], [0x1f, 0x8b]);
    let ok_gz = stonelab_json(&[
        "gomoku",
        "check-proof",
        "--format",
        "json",
        gz.to_str().unwrap(),
    ]);
    for k in ["valid", "positions", "replies", "leaves", "entries"] {
        assert_eq!(ok_gz[k], ok[k], "{k}: {ok_gz} against {ok}");
    }
    assert_eq!(
        stonelab_ok(&["gomoku", "proof-move", gz.to_str().unwrap()]).trim(),
        first
    );
    let cut = dir.join("cut.cert.gz");
    std::fs::write(&cut, &packed[..packed.len() / 2]).unwrap();
    stonelab_err(
        &["gomoku", "check-proof", cut.to_str().unwrap()],
        "not a whole gzip stream",
    );
    // A certificate whose root move is changed to a corner no longer holds (exit 1).
    let changed = text.replacen(&format!(": {first}\n"), ": a5\n", 1);
    let body = &changed[..changed.rfind("checksum ").unwrap()];
    let sum = fnv1a(body.as_bytes());
    let bad = dir.join("bad.cert");
    std::fs::write(&bad, format!("{body}checksum {sum:016x}\n")).unwrap();
    let out = stonelab(&["gomoku", "check-proof", bad.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("invalid: "));
    // A corrupted byte fails the checksum: bad input.
    let corrupt = dir.join("corrupt.cert");
    std::fs::write(&corrupt, text.replacen("size 9", "size 8", 1)).unwrap();
    stonelab_err(
        &["gomoku", "check-proof", corrupt.to_str().unwrap()],
        "checksum mismatch",
    );
    stonelab_err(
        &["gomoku", "check-proof", pos.to_str().unwrap()],
        "not a stonelab proof certificate",
    );
    stonelab_err(
        &[
            "gomoku",
            "proof-move",
            "--moves",
            "z99",
            cert.to_str().unwrap(),
        ],
        "--moves",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[test]
fn the_database_carries_a_proof_across_runs_and_refuses_foreign_or_corrupt_files() {
    let dir = temp_dir("prove-db");
    let db = dir.join("7.db");
    let db_s = db.to_str().unwrap();
    let prove7 = |extra: &[&str]| {
        let mut args = vec![
            "gomoku", "prove", "--size", "7", "--db", db_s, "--format", "json",
        ];
        args.extend_from_slice(extra);
        args.push("/dev/null");
        stonelab_json(&args)
    };
    let first = prove7(&["--max-nodes", "2000"]);
    assert_eq!(first["result"], "unknown", "{first}");
    assert!(db.is_file());
    let second = prove7(&[]);
    assert_eq!(second["result"], "no_win", "{second}");
    let third = prove7(&[]);
    assert_eq!(third["result"], "no_win");
    assert!(
        third["nodes"].as_u64().unwrap() <= 1,
        "a solved root is read from the database: {third}"
    );
    stonelab_err(
        &["gomoku", "prove", "--size", "6", "--db", db_s, "/dev/null"],
        "the database is for 7x7",
    );
    stonelab_err(
        &[
            "gomoku",
            "prove",
            "--size",
            "7",
            "--attacker",
            "white",
            "--db",
            db_s,
            "/dev/null",
        ],
        "black attacking",
    );
    let mut bytes = std::fs::read(&db).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&db, &bytes).unwrap();
    stonelab_err(
        &["gomoku", "prove", "--size", "7", "--db", db_s, "/dev/null"],
        "corrupt",
    );
    std::fs::write(&db, "not a database").unwrap();
    stonelab_err(
        &["gomoku", "prove", "--size", "7", "--db", db_s, "/dev/null"],
        "not a stonelab proof database",
    );
    stonelab_err(
        &[
            "gomoku",
            "prove",
            "--size",
            "7",
            "--db",
            dir.to_str().unwrap(),
            "/dev/null",
        ],
        "not a regular file",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_positions_are_refused_in_one_line() {
    let five = stonelab_with_input(
        &["gomoku", "prove", "--size", "9", "-"],
        "a1 b9 a2 c9 a3 d9 a4 e9 a5",
    );
    assert_eq!(five.status.code(), Some(2));
    let err = String::from_utf8_lossy(&five.stderr);
    assert!(err.contains("five"), "{err}");
    let counts = stonelab_with_input(
        &["gomoku", "prove", "-"],
        ".....\n.XXX.\n.....\n.....\n.....\n",
    );
    assert_eq!(counts.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&counts.stderr).contains("cannot come from a game"));
    stonelab_err(
        &[
            "gomoku",
            "prove",
            "--size",
            "7",
            "--threads",
            "0",
            "/dev/null",
        ],
        "--threads",
    );
    stonelab_err(
        &[
            "gomoku",
            "prove",
            "--size",
            "7",
            "--max-seconds=-1",
            "/dev/null",
        ],
        "--max-seconds",
    );
    stonelab_err(&["gomoku", "prove", "--size", "30", "/dev/null"], "--size");
    stonelab_err(
        &["gomoku", "check-proof", "/nonexistent/cert"],
        "cannot read",
    );
}

#[test]
fn the_certificate_shown_in_the_docs_checks() {
    let doc = include_str!("../docs/gomoku-proof.md");
    let start = doc
        .find("```text\nstonelab-gomoku-proof 1")
        .expect("the example")
        + "```text\n".len();
    let end = start + doc[start..].find("```").unwrap();
    let dir = temp_dir("prove-doc");
    let cert = dir.join("doc.cert");
    std::fs::write(&cert, &doc[start..end]).unwrap();
    let v = stonelab_json(&[
        "gomoku",
        "check-proof",
        "--format",
        "json",
        cert.to_str().unwrap(),
    ]);
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(
        stonelab_ok(&["gomoku", "proof-move", cert.to_str().unwrap()]).trim(),
        "e5"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A committed certificate of `h8 X` (`proofs/README.md`): Black wins with `first`, and the
/// checker, which trusts nothing the prover did, agrees.
fn check_reply(file: &str, white: &str, entries: u64, first: &str) {
    let cert = format!("{}/proofs/{file}", env!("CARGO_MANIFEST_DIR"));
    let v = stonelab_json(&[
        "gomoku",
        "check-proof",
        "--threads",
        "2",
        "--format",
        "json",
        &cert,
    ]);
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["attacker"], "black", "{v}");
    assert_eq!(v["to_move"], "black", "{v}");
    assert_eq!(v["size"], 15, "{v}");
    assert_eq!(v["rule"], "freestyle", "{v}");
    assert_eq!(v["black"], serde_json::json!(["h8"]), "{v}");
    assert_eq!(v["white"], serde_json::json!([white]), "{v}");
    assert_eq!(v["entries"], entries, "{v}");
    assert_eq!(stonelab_ok(&["gomoku", "proof-move", &cert]).trim(), first);
}

/// After `h8 a1` Black wins (class a1). About 7 minutes on two cores
/// (`cargo test --release -- --ignored slow_`).
#[test]
#[ignore = "slow: checks the 15x15 h8 a1 certificate (about 7 minutes on two cores)"]
fn slow_the_15x15_h8_a1_certificate_checks() {
    check_reply("15x15-freestyle-h8-a1.cert.gz", "a1", 513_373, "g7");
}

/// After `h8 a6` Black wins (class a6; proved with `--order policy` in session 71). About 10
/// minutes on two cores.
#[test]
#[ignore = "slow: checks the 15x15 h8 a6 certificate (about 10 minutes on two cores)"]
fn slow_the_15x15_h8_a6_certificate_checks() {
    check_reply("15x15-freestyle-h8-a6.cert.gz", "a6", 801_174, "i9");
}

/// After `h8 a5` Black wins (class a5; proved with `--order policy` in session 72). About 8
/// minutes on two cores.
#[test]
#[ignore = "slow: checks the 15x15 h8 a5 certificate (about 8 minutes on two cores)"]
fn slow_the_15x15_h8_a5_certificate_checks() {
    check_reply("15x15-freestyle-h8-a5.cert.gz", "a5", 837_874, "i9");
}

/// After `h8 a8` Black wins (class a8; proved with `--order policy` in session 72; its root is
/// symmetric, and its certificate needed the writer's turned retry). About 4 minutes on two cores.
#[test]
#[ignore = "slow: checks the 15x15 h8 a8 certificate (about 4 minutes on two cores)"]
fn slow_the_15x15_h8_a8_certificate_checks() {
    check_reply("15x15-freestyle-h8-a8.cert.gz", "a8", 439_011, "g8");
}

/// After `h8 a7` Black wins (class a7; proved in session 73, once a second search thread no
/// longer spun where the first one worked). About 8 minutes on two cores.
#[test]
#[ignore = "slow: checks the 15x15 h8 a7 certificate (about 8 minutes on two cores)"]
fn slow_the_15x15_h8_a7_certificate_checks() {
    check_reply("15x15-freestyle-h8-a7.cert.gz", "a7", 835_065, "i9");
}

/// After `h8 b2` Black wins (class b2, the first of the second column; proved over sessions 73
/// and 74). About 6 minutes on two cores.
#[test]
#[ignore = "slow: checks the 15x15 h8 b2 certificate (about 6 minutes on two cores)"]
fn slow_the_15x15_h8_b2_certificate_checks() {
    check_reply("15x15-freestyle-h8-b2.cert.gz", "b2", 495_578, "i9");
}

/// After `h8 b3` Black wins (class b3; proved in session 74). About 7 minutes on two cores.
#[test]
#[ignore = "slow: checks the 15x15 h8 b3 certificate (about 7 minutes on two cores)"]
fn slow_the_15x15_h8_b3_certificate_checks() {
    check_reply("15x15-freestyle-h8-b3.cert.gz", "b3", 686_597, "g9");
}

/// A committed cover certificate (`proofs/README.md`) checks and covers `h8 a1` and `h8 X`.
fn check_cover(file: &str, x: &str, entries: u64) {
    let cert = format!("{}/proofs/{file}", env!("CARGO_MANIFEST_DIR"));
    let other = format!("h8 {x}");
    let v = stonelab_json(&[
        "gomoku",
        "check-proof",
        "--threads",
        "2",
        "--covers",
        "h8 a1",
        "--covers",
        &other,
        "--format",
        "json",
        &cert,
    ]);
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["black"], serde_json::json!(["h8"]), "{v}");
    assert_eq!(v["entries"], entries, "{v}");
    let covers = v["covers"].as_array().unwrap();
    assert_eq!(covers.len(), 2, "{v}");
    for c in covers {
        assert_eq!(c["covered"], true, "{v}");
    }
}

/// The cover of White `a1 o12` (classes a1 and a4).
#[test]
#[ignore = "about 14 minutes on two cores"]
fn slow_the_15x15_a1_o12_cover_certificate_checks() {
    check_cover("15x15-freestyle-cover-a1-o12.cert.gz", "o12", 1_018_729);
}

/// The cover of White `a1 o14` (classes a1 and a2).
#[test]
#[ignore = "about 15 minutes on two cores"]
fn slow_the_15x15_a1_o14_cover_certificate_checks() {
    check_cover("15x15-freestyle-cover-a1-o14.cert.gz", "o14", 966_170);
}

/// The cover of White `a1 m1` (classes a1 and a3).
#[test]
#[ignore = "about 14 minutes on two cores"]
fn slow_the_15x15_a1_m1_cover_certificate_checks() {
    check_cover("15x15-freestyle-cover-a1-m1.cert.gz", "m1", 979_512);
}

/// `prove --to-move` takes a position with extra defender stones, and `check-proof --covers` says
/// which game positions its win covers (same attacker stones and side to move, a subset of the
/// defender's stones, up to a symmetry; freestyle only); a position it does not cover makes the
/// exit status 1, one that cannot come from a game is refused.
#[test]
fn a_win_with_extra_defender_stones_covers_the_positions_with_fewer() {
    let dir = temp_dir("prove-covers");
    // DOUBLE_TWO's stones plus two more of White's (b9, h1): 4 black, 6 white.
    let pos = dir.join("pos.txt");
    let mut diagram = String::new();
    for y in 0..9 {
        for x in 0..9 {
            let black = [(2, 4), (3, 4), (4, 6), (4, 5)].contains(&(x, y));
            let white = [(0, 8), (0, 0), (8, 8), (8, 0), (1, 0), (7, 8)].contains(&(x, y));
            diagram.push(if black {
                'X'
            } else if white {
                'O'
            } else {
                '.'
            });
        }
        diagram.push('\n');
    }
    std::fs::write(&pos, &diagram).unwrap();
    let refused = stonelab(&["gomoku", "prove", pos.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2));
    for (rule, name) in [("freestyle", "free.cert"), ("standard", "std.cert")] {
        let cert = dir.join(name);
        let v = stonelab_json(&[
            "gomoku",
            "prove",
            "--rule",
            rule,
            "--to-move",
            "black",
            "--out",
            cert.to_str().unwrap(),
            "--format",
            "json",
            pos.to_str().unwrap(),
        ]);
        assert_eq!(v["result"], "win", "{v}");
        assert_eq!(v["to_move"], "black", "{v}");
    }
    let free = dir.join("free.cert");
    let covered = [
        DOUBLE_TWO,
        // b9 and h1 for a9 and i9.
        "c5 a1 d5 b9 e3 i1 e4 h1",
        // DOUBLE_TWO mirrored left to right.
        "g5 a1 f5 a9 e3 i1 e4 i9",
    ];
    let mut args = vec!["gomoku", "check-proof", "--format", "json"];
    for c in covered {
        args.extend(["--covers", c]);
    }
    args.push(free.to_str().unwrap());
    let v = stonelab_json(&args);
    assert_eq!(v["valid"], true, "{v}");
    let covers = v["covers"].as_array().unwrap();
    assert_eq!(covers.len(), 3);
    assert!(covers.iter().all(|c| c["covered"] == true), "{v}");
    assert_eq!(covers[0]["symmetry"], 0, "{v}");
    assert_ne!(covers[2]["symmetry"], 0, "{v}");
    // Each covered position is a win in its own right.
    let own = stonelab_with_input(
        &["gomoku", "prove", "--size", "9", "--format", "json", "-"],
        covered[1],
    );
    assert!(own.status.success());
    let own: serde_json::Value = serde_json::from_slice(&own.stdout).unwrap();
    assert_eq!(own["result"], "win", "{own}");
    // h9 is no stone of the root's; three black stones are not the root's four.
    for (position, why) in [
        ("c5 a1 d5 a9 e3 i1 e4 h9", "no symmetry"),
        ("c5 a1 d5 a9 e3 i1", "no symmetry"),
        ("c5 a1 d5 a9 e3 i1 e4", "white is to move"),
    ] {
        let o = stonelab(&[
            "gomoku",
            "check-proof",
            "--covers",
            position,
            free.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(1), "{position}");
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.starts_with("valid: black wins"), "{out}");
        assert!(
            out.contains(&format!("does not cover '{position}'")) && out.contains(why),
            "{out}"
        );
    }
    let std_cert = dir.join("std.cert");
    let o = stonelab(&[
        "gomoku",
        "check-proof",
        "--covers",
        DOUBLE_TWO,
        std_cert.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("freestyle only"));
    // Not a game position: refused before the check.
    let three = format!("{}XXX......\n", ".........\n".repeat(8));
    stonelab_err(
        &[
            "gomoku",
            "check-proof",
            "--covers",
            DOUBLE_TWO,
            "--covers",
            &three,
            free.to_str().unwrap(),
        ],
        "cannot come from a game",
    );
}

#[test]
fn a_hint_from_a_similar_proof_gives_a_win_that_checks() {
    let dir = temp_dir("prove-hint");
    let (first, hinted) = (dir.join("first.txt"), dir.join("hinted.txt"));
    // DOUBLE_TWO, and the same Black stones against White stones moved (a9 i9 to b9 h1).
    std::fs::write(&first, DOUBLE_TWO).unwrap();
    std::fs::write(&hinted, "c5 a1 d5 b9 e3 i1 e4 h1").unwrap();
    let (cert, cert2) = (dir.join("first.cert"), dir.join("hinted.cert"));
    let prove = |input: &std::path::Path, out: &std::path::Path, hints: &[&str]| {
        let mut args = vec![
            "gomoku",
            "prove",
            "--size",
            "9",
            "--format",
            "json",
            "--out",
            out.to_str().unwrap(),
        ];
        for h in hints {
            args.extend(["--hint", h]);
        }
        args.push(input.to_str().unwrap());
        stonelab_json(&args)
    };
    let checks = |c: &std::path::Path| {
        let check = stonelab_json(&[
            "gomoku",
            "check-proof",
            "--format",
            "json",
            c.to_str().unwrap(),
        ]);
        assert_eq!(check["valid"], true, "{check}");
    };
    assert_eq!(prove(&first, &cert, &[])["result"], "win");
    let v = prove(&hinted, &cert2, &[cert.to_str().unwrap()]);
    assert_eq!(v["result"], "win", "{v}");
    checks(&cert2);
    // Two hints: the hinted proof's own certificate first, then the first one.
    let cert3 = dir.join("twice.cert");
    let v = prove(
        &hinted,
        &cert3,
        &[cert2.to_str().unwrap(), cert.to_str().unwrap()],
    );
    assert_eq!(v["result"], "win", "{v}");
    checks(&cert3);
    // Other Black stones, another attacker, a file that is no certificate, and a penalty
    // without a hint are refused in one line.
    let other = dir.join("other.txt");
    std::fs::write(&other, "c5 a1 d5 a9 e3 i1 e5 i9").unwrap();
    let c = cert.to_str().unwrap();
    let o = other.to_str().unwrap();
    stonelab_err(
        &["gomoku", "prove", "--size", "9", "--hint", c, o],
        "--hint",
    );
    let h = hinted.to_str().unwrap();
    stonelab_err(
        &[
            "gomoku",
            "prove",
            "--size",
            "9",
            "--attacker",
            "white",
            "--hint",
            c,
            h,
        ],
        "--hint",
    );
    stonelab_err(
        &["gomoku", "prove", "--size", "9", "--hint", h, h],
        "not a stonelab proof certificate",
    );
    let o = stonelab(&["gomoku", "prove", "--size", "9", "--hint-penalty", "5", h]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_win_proved_without_its_certificate_gets_one_later_from_the_database() {
    let dir = temp_dir("prove-no-cert");
    let (input, db, cert) = (dir.join("p.txt"), dir.join("p.db"), dir.join("p.cert"));
    std::fs::write(&input, DOUBLE_TWO).unwrap();
    let (i, d, c) = (
        input.to_str().unwrap(),
        db.to_str().unwrap(),
        cert.to_str().unwrap(),
    );
    let first = stonelab_json(&[
        "gomoku",
        "prove",
        "--size",
        "9",
        "--db",
        d,
        "--no-certificate",
        "--format",
        "json",
        i,
    ]);
    assert_eq!(first["result"], "win", "{first}");
    assert!(first["proof_tree"].is_null(), "{first}");
    assert!(first["certificate_seconds"].is_null(), "{first}");
    let second = stonelab_json(&[
        "gomoku", "prove", "--size", "9", "--db", d, "--out", c, "--format", "json", i,
    ]);
    assert_eq!(second["result"], "win", "{second}");
    assert!(second["nodes"].as_u64().unwrap() <= 1, "{second}");
    assert!(second["proof_tree"].as_u64().unwrap() >= 1, "{second}");
    let check = stonelab_json(&["gomoku", "check-proof", "--format", "json", c]);
    assert_eq!(check["valid"], true, "{check}");
    // --no-certificate and --out together are refused.
    let o = stonelab(&[
        "gomoku",
        "prove",
        "--size",
        "9",
        "--no-certificate",
        "--out",
        c,
        i,
    ]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `scripts/gomoku-prove-class`: a queue of positions proved, certified and checked, each step
/// once; a run cut short resumes from its database.
#[test]
fn the_prove_class_script_proves_certifies_checks_and_resumes() {
    let dir = temp_dir("prove-class");
    let win = dir.join("double-two.txt");
    std::fs::write(&win, format!("{DOUBLE_TWO}\n")).unwrap();
    let empty = dir.join("empty7.txt");
    std::fs::write(&empty, "").unwrap();
    let script = |extra: &[&str], size: &str, file: &std::path::Path| {
        let out = std::process::Command::new("scripts/gomoku-prove-class")
            .args(["--stonelab", common::STONELAB, "--work"])
            .arg(&dir)
            .args(["--size", size, "--threads", "1", "--format", "json"])
            .args(extra)
            .arg(file)
            .output()
            .expect("run scripts/gomoku-prove-class");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let row: serde_json::Value = serde_json::from_str(text.trim())
            .unwrap_or_else(|e| panic!("{e}: {text} {}", String::from_utf8_lossy(&out.stderr)));
        (out.status.code(), row)
    };
    let log_runs = |name: &str| {
        let log = std::fs::read_to_string(dir.join(format!("{name}.log"))).unwrap_or_default();
        log.lines().filter(|l| l.starts_with("# ")).count()
    };

    let (code, row) = script(&[], "9", &win);
    assert_eq!(code, Some(0), "{row}");
    assert_eq!(row["status"], "checked", "{row}");
    assert_eq!(row["move"], "e5", "{row}");
    assert_eq!(row["check"]["valid"], true, "{row}");
    assert!(
        row["check"]["run"]["peak_rss_kib"].as_u64() > Some(0),
        "{row}"
    );
    for ext in ["db", "prove.json", "cert.gz", "check.json"] {
        assert!(dir.join(format!("double-two.{ext}")).is_file(), "{ext}");
    }
    assert_eq!(log_runs("double-two"), 3, "prove, certificate, check");
    let (code, row) = script(&[], "9", &win);
    assert_eq!(
        (code, &row["status"]),
        (Some(0), &"checked".into()),
        "{row}"
    );
    assert_eq!(
        log_runs("double-two"),
        3,
        "a checked position runs nothing again"
    );

    let cut = ["--prove-arg=--max-nodes", "--prove-arg=50"];
    let (code, row) = script(&cut, "7", &empty);
    assert_eq!(
        (code, &row["status"]),
        (Some(0), &"unknown".into()),
        "{row}"
    );
    let (code, row) = script(&[], "7", &empty);
    assert_eq!((code, &row["status"]), (Some(0), &"no_win".into()), "{row}");
    assert!(row["check"].is_null(), "{row}");

    let out = std::process::Command::new("scripts/gomoku-prove-class")
        .args(["--stonelab", common::STONELAB, "no-such-position.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn the_prove_class_script_stops_the_queue_on_a_signal_and_keeps_the_database() {
    let dir = temp_dir("prove-class-signal");
    let empty = dir.join("empty15.txt");
    std::fs::write(&empty, "").unwrap();
    let win = dir.join("double-two.txt");
    std::fs::write(&win, format!("{DOUBLE_TWO}\n")).unwrap();
    let child = std::process::Command::new("scripts/gomoku-prove-class")
        .args(["--stonelab", common::STONELAB, "--work"])
        .arg(&dir)
        .args(["--threads", "1", "--max-seconds", "600", "--format", "json"])
        .arg(&empty)
        .arg(&win)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run scripts/gomoku-prove-class");
    // Wait until the proving run has started, then give it a moment to search.
    let log = dir.join("empty15.log");
    let started = std::time::Instant::now();
    while !log.is_file() {
        assert!(
            started.elapsed().as_secs() < 60,
            "the prove run never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(130), "{text}");
    let row: serde_json::Value = serde_json::from_str(text.trim())
        .unwrap_or_else(|e| panic!("{e}: {text} {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(row["status"], "interrupted", "{row}");
    assert_eq!(row["prove"]["result"], "unknown", "{row}");
    assert!(row["prove"]["nodes"].as_u64() > Some(0), "{row}");
    assert!(dir.join("empty15.db").is_file(), "the database is saved");
    assert!(
        dir.join("empty15.prove.json").is_file(),
        "the report is kept"
    );
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(
        !names.iter().any(|n| n.ends_with(".tmp")),
        "no temporary file left: {names:?}"
    );
    assert!(
        !dir.join("double-two.log").exists(),
        "the next position does not start"
    );
}
