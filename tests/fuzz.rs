//! The fuzz harness of issue 20, kept in CI: every parser and reader that takes input from the
//! outside world gets a fixed-seed stream of mutated and random inputs (stable Rust, no fuzzing
//! engine: seeds from the formats' own examples, mutated by byte flips, insertions of the
//! format's structural tokens, deletions, repetitions, truncations and splices).
//!
//! Each target asserts, for every input: no panic, an answer within a time limit (a watchdog
//! thread fails the test with the input when one case takes longer), and a clear refusal (a
//! one-line message, or the protocol's error answer). Targets: Gomoku board diagrams and move
//! lists; Go diagrams (setup and eyes), sizes, vertices and move lists; SGF; pbrain sessions; GTP
//! sessions (with `loadsgf` of fuzzed files); `gomoku match` and `go match` record files; the
//! Go solver's results databases, state tables and checkpoints; the command line of `stonelab`.
//!
//! The case counts are fixed (about a minute in all on two cores, release build); set
//! `STONELAB_FUZZ_SCALE=N` to run N times as many cases with other seeds, e.g. overnight.

mod common;

use std::panic::AssertUnwindSafe;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{temp_dir, STONELAB};
use stonelab_rand::Xorshift64Star as Rng;

/// How many times the fixed case counts are run (`STONELAB_FUZZ_SCALE`, default 1).
fn scale() -> usize {
    std::env::var("STONELAB_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// Runs `cases` cases of a target on a thread of their own: `case(rng, i)` builds an input,
/// stores a description of it in the shared slot, and checks the answer. A panic or a case that
/// takes over `limit` fails the test, naming the target, the case and its input.
fn fuzz<F>(name: &str, seed: u64, cases: usize, limit: Duration, case: F)
where
    F: Fn(&mut Rng, &Mutex<String>) + Send + 'static,
{
    let cases = cases * scale();
    let input = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = mpsc::channel::<Result<usize, String>>();
    let shared = Arc::clone(&input);
    let worker = std::thread::spawn(move || {
        let mut rng = Rng::new(seed ^ (scale() as u64).wrapping_mul(0x9e37_79b9));
        for i in 0..cases {
            let result = std::panic::catch_unwind(AssertUnwindSafe(|| case(&mut rng, &shared)));
            let sent = match result {
                Ok(()) => tx.send(Ok(i)),
                Err(e) => {
                    let why = e
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    tx.send(Err(why))
                }
            };
            if sent.is_err() {
                return;
            }
        }
    });
    let started = Instant::now();
    for i in 0..cases {
        match rx.recv_timeout(limit) {
            Ok(Ok(_)) => {}
            Ok(Err(why)) => panic!(
                "{name}: case {i} failed: {why}\ninput: {}",
                input.lock().unwrap_or_else(|e| e.into_inner())
            ),
            Err(_) => panic!(
                "{name}: case {i} took over {limit:?}\ninput: {}",
                input.lock().unwrap_or_else(|e| e.into_inner())
            ),
        }
    }
    worker.join().unwrap();
    eprintln!("{name}: {cases} cases in {:.1?}", started.elapsed());
}

/// Shows an input in a failure message: printable, and not megabytes long.
fn show(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out: String = text
        .chars()
        .take(2000)
        .collect::<String>()
        .escape_debug()
        .to_string();
    if text.chars().count() > 2000 {
        out.push_str(&format!("... ({} bytes in all)", bytes.len()));
    }
    out
}

/// A mutation of one of `seeds`, with `tokens` as the format's structural pieces; sometimes
/// plain random bytes.
fn mutate(rng: &mut Rng, seeds: &[&[u8]], tokens: &[&[u8]]) -> Vec<u8> {
    if rng.below(16) == 0 {
        let n = rng.below(64);
        return (0..n).map(|_| rng.next_u64() as u8).collect();
    }
    let mut v = seeds[rng.below(seeds.len())].to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(9) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] = rng.next_u64() as u8;
            }
            1 | 2 => {
                let t = tokens[rng.below(tokens.len())];
                v.splice(at..at, t.iter().copied());
            }
            3 if !v.is_empty() => {
                let end = (at + 1 + rng.below(8)).min(v.len());
                v.drain(at.min(end)..end);
            }
            4 => {
                // A repeated piece: long lines, deep nesting, many moves.
                let end = (at + 1 + rng.below(12)).min(v.len());
                let piece: Vec<u8> = v[at.min(end)..end].to_vec();
                let times = [2, 10, 1000, 20_000][rng.below(4)];
                let repeated: Vec<u8> = piece
                    .iter()
                    .copied()
                    .cycle()
                    .take(piece.len() * times)
                    .collect();
                v.splice(end..end, repeated);
            }
            5 => v.truncate(at),
            6 => {
                let other = seeds[rng.below(seeds.len())];
                let from = rng.below(other.len() + 1);
                v.splice(at..at, other[from..].iter().copied());
            }
            7 => {
                let n = 1 + rng.below(4);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
                v.splice(at..at, bytes);
            }
            _ => {
                let t = [
                    &b"\n"[..],
                    b"\r\n",
                    b" ",
                    b"\t",
                    b"\0",
                    b"\x1b[2J",
                    "é".as_bytes(),
                    b"\xff",
                ];
                let t = t[rng.below(t.len())];
                v.splice(at..at, t.iter().copied());
            }
        }
    }
    v
}

/// The first `lines` lines of `input`: a protocol session's length is bounded (each `genmove`
/// is a search), each line's is not.
fn first_lines(mut input: Vec<u8>, lines: usize) -> Vec<u8> {
    if let Some((at, _)) = input
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(lines)
    {
        input.truncate(at + 1);
    }
    input
}

/// A refusal must be one line (no line feed) that says something.
fn clear(message: &str, input: &[u8]) {
    assert!(
        !message.trim().is_empty() && !message.contains('\n'),
        "unclear message {message:?} for {}",
        show(input)
    );
}

const GOMOKU_SEEDS: &[&[u8]] = &[
    b".....\n.X...\n..O..\n.....\n.....\n",
    b"h8 i9 h9 i10 h10",
    b"a1,b2 c3\nd4",
    "\u{250c}\u{252c}\u{252c}\u{252c}\u{2510}\n\u{251c}\u{25cf}\u{253c}\u{253c}\u{2524}\n\u{251c}\u{253c}\u{25cb}\u{253c}\u{2524}\n\u{251c}\u{253c}\u{253c}\u{253c}\u{2524}\n\u{2514}\u{2534}\u{2534}\u{2534}\u{2518}\n".as_bytes(),
    b"a8 a1 b8 b1 c8 c1 d8 d1 e8",
    b".......\n.......\n.......\n.XXX...\n.......\nO......\nOOO.X..\n",
    b"Piskvorky 15x15, 11:11, 0\n8,8,100\n9,9,120\n8,9,0\npbrain-a\npbrain-b\n-1\n",
    b"(;FF[4]GM[4]SZ[9]RU[renju]AB[ee]AW[dd];B[ff];W[gg](;B[hh])(;B[aa]))",
    b" 5 .....\n 4 ..X..\n 3 .O...\n 2 .....\n 1 .....\n   abcde\n",
];
const GOMOKU_TOKENS: &[&[u8]] = &[
    b"(",
    b")",
    b"[",
    b"]",
    b";B[",
    b"\\",
    b"Piskvorky ",
    b"15x15,",
    b" 12 ",
    b"X",
    b"O",
    b".",
    b"\n",
    b"h8",
    b"t20",
    b"a0",
    b"z99",
    b"h-1",
    b",",
    "\u{25cf}".as_bytes(),
    "\u{253c}".as_bytes(),
    b"\xef\xbb\xbf",
];

#[test]
fn fuzz_gomoku_notation() {
    use stonelab_gomoku::{parse_game, parse_position, render, Bitboard, Board, Rule};
    fuzz(
        "gomoku notation",
        1,
        30000,
        Duration::from_secs(5),
        |rng, slot| {
            let input = mutate(rng, GOMOKU_SEEDS, GOMOKU_TOKENS);
            *slot.lock().unwrap() = show(&input);
            let text = String::from_utf8_lossy(&input);
            let size = [
                None,
                Some(5),
                Some(15),
                Some(20),
                Some(0),
                Some(4),
                Some(21),
            ][rng.below(7)];
            let rule = Rule::ALL[rng.below(2)];
            let parsed = if rng.below(2) == 0 {
                parse_position(&text, size)
            } else {
                parse_game(&text, size, rule)
            };
            match parsed {
                Ok(p) => {
                    let drawn = render(&p, &Bitboard::EMPTY);
                    // Positions read from moves or records are drawn with a line of column
                    // letters under the rows; and a drawing reads back as the same position.
                    let labels = usize::from(p.style == stonelab_gomoku::Style::Moves);
                    assert_eq!(drawn.lines().count(), p.grid.size() + labels);
                    assert_eq!(parse_position(&drawn, None).unwrap().grid, p.grid);
                    let board = Board::from_grid(&p.grid, rule);
                    let _ = board.threat_points();
                }
                Err(e) => clear(&e.to_string(), &input),
            }
        },
    );
}

const GO_DIAGRAM_SEEDS: &[&[u8]] = &[
    b"X.O\n.XO\nOO.\n",
    b".....\n.XXX.\n.X.X.\n.XXX.\n.....\n",
    b"XO\nO.\n",
    b"...\r\n...\r\n",
];

#[test]
fn fuzz_go_diagrams_and_vertices() {
    use stonelab_go::vertex::{parse_move_list, parse_size, parse_vertex};
    use stonelab_go::{Board, Rules, Setup};
    let tokens: &[&[u8]] = &[b"X", b"O", b".", b"+", b"\n", b"x", b"B", b"w", b"?"];
    fuzz(
        "go diagrams",
        2,
        30000,
        Duration::from_secs(5),
        move |rng, slot| {
            let input = mutate(rng, GO_DIAGRAM_SEEDS, tokens);
            *slot.lock().unwrap() = show(&input);
            let text = String::from_utf8_lossy(&input);
            match text.parse::<Setup>() {
                Ok(setup) => {
                    if let Err(e) = Board::from_setup(setup, Rules::default()) {
                        clear(&e.to_string(), &input);
                    }
                }
                Err(e) => clear(&e.to_string(), &input),
            }
            match stonelab::go::eyes::parse_diagram(&text) {
                Ok(d) => {
                    let empty = d.geometry.not(d.stones[0] | d.stones[1]);
                    let _ = stonelab_go::eyes_naive(&d.geometry, d.stones[0], empty);
                }
                Err(e) => clear(&format!("{e:#}"), &input),
            }
            let words = text.split_whitespace().take(3).collect::<Vec<_>>();
            for w in &words {
                match parse_size(w) {
                    Ok(g) => {
                        let _ = parse_vertex(w, &g);
                    }
                    Err(e) => clear(&e.to_string(), &input),
                }
            }
            if let Err(e) = parse_move_list(&text) {
                clear(&e.to_string(), &input);
            }
        },
    );
}

const SGF_SEEDS: &[&[u8]] = &[
    b"(;GM[1]FF[4]SZ[7:5]AB[ba]AW[aa];W[];B[ab];W[gd];B[tt](;W[fe])(;W[ee]))",
    b"(;GM[1]SZ[5]KM[0.5]AB[aa];W[cc];B[dd];W[ee])",
    b"(;SZ[9]KM[6.5]PL[W]AB[aa:cc]AE[bb];W[ii]C[a \\] comment];B[hh])",
    b"(;SZ[19];B[pd];W[dp];B[pp];W[dd](;B[fc])(;B[cf]))",
    b"(;SZ[3];B[bb];W[];B[])",
];
const SGF_TOKENS: &[&[u8]] = &[
    b"(",
    b")",
    b";",
    b"[",
    b"]",
    b"\\",
    b"B[aa]",
    b"W[]",
    b"AB[cc]",
    b"AW[cc]",
    b"SZ[25]",
    b"SZ[2]",
    b"KM[nan]",
    b"KM[1e400]",
    b"PL[B]",
    b"B[tt]",
    b"B[Aa]",
    b"(;B[aa]",
    b";W[bb])",
];

/// Checks one SGF text as `go replay` reads it.
fn check_sgf(input: &[u8]) {
    use stonelab::go::replay::SgfGame;
    use stonelab_go::{Board, Rules};
    let text = String::from_utf8_lossy(input);
    if let Err(e) = stonelab_go::sgf::main_line(&text) {
        clear(&e.to_string(), input);
    }
    let game = match SgfGame::read(&text) {
        Ok(g) => g,
        Err(e) => return clear(&stonelab::common::message(&e), input),
    };
    let geometry = match game.geometry() {
        Ok(g) => g,
        Err(e) => return clear(&stonelab::common::message(&e), input),
    };
    let mut board = Board::new(geometry, Rules::default());
    if let Err(e) = game.replay(&mut board) {
        clear(&stonelab::common::message(&e), input);
    }
}

#[test]
fn fuzz_sgf() {
    fuzz("sgf", 3, 30000, Duration::from_secs(5), |rng, slot| {
        let input = mutate(rng, SGF_SEEDS, SGF_TOKENS);
        *slot.lock().unwrap() = show(&input);
        check_sgf(&input);
    });
}

const PBRAIN_SEEDS: &[&[u8]] = &[
    b"ABOUT\nSTART 15\nINFO timeout_turn 1000\nBEGIN\nTURN 0,0\nTAKEBACK 0,0\nRESTART\nEND\n",
    b"START 10\nBOARD\n3,5,1\n4,5,1\n5,5,2\n6,6,2\nDONE\nTURN 1,1\n",
    b"START 5\nINFO rule 1\nINFO max_memory 1000000\nINFO thread_num 2\nPLAY 2,2\nTURN 3,3\n",
    b"RECTSTART 20,15\nSTART 20\nINFO time_left 100\nTURN 19,19\n",
];
const PBRAIN_TOKENS: &[&[u8]] = &[
    b"\nTURN 7,7\n",
    b"\nBOARD\n",
    b"\nDONE\n",
    b"\n1,1,1\n",
    b"\nSTART 5\n",
    b"\nINFO rule 5\n",
    b"\nTAKEBACK 1,1\n",
    b"\nBEGIN\n",
    b"\nRESTART\n",
    b"\nINFO max_memory 0\n",
    b"255",
    b"-1",
    b"\r\n",
    b"\nPLAY 0,0\n",
    b"\nINFO thread_num 0\n",
    b"18446744073709551616",
];

#[test]
fn fuzz_pbrain_sessions() {
    use stonelab::gomoku::pbrain::brain::{Brain, Options};
    fuzz("pbrain", 4, 3000, Duration::from_secs(20), |rng, slot| {
        let input = first_lines(mutate(rng, PBRAIN_SEEDS, PBRAIN_TOKENS), 200);
        *slot.lock().unwrap() = show(&input);
        let options = Options {
            nodes: Some(300),
            messages: rng.below(2) == 0,
            table_bytes: 1 << 20,
            ..Options::default()
        };
        let mut out = Vec::new();
        Brain::new(&mut out, options)
            .run(std::io::Cursor::new(input.clone()))
            .unwrap();
        let text = String::from_utf8(out).expect("answers are UTF-8");
        for line in text.lines() {
            let word = line.split([' ', ',']).next().unwrap_or("");
            let known = [
                "OK",
                "ERROR",
                "UNKNOWN",
                "MESSAGE",
                "FORBID",
                "SWAP",
                "name=\"stonelab\"",
            ]
            .contains(&word)
                || word.parse::<u8>().is_ok();
            assert!(
                known && line.len() <= 300,
                "answer {line:?} to {}",
                show(&input)
            );
            assert!(!line.chars().any(char::is_control), "answer {line:?}");
        }
    });
}

const GTP_SEEDS: &[&[u8]] = &[
    b"1 name\n2 boardsize 5\n3 play b c3\nplay w c3\n4 frobnicate\n5 list_stones black\n6 genmove w\n7 quit\n",
    b"boardsize 3\nkomi 6.5\nplay b b2\nundo\nshowboard\nfinal_score\nfinal_status_list dead\n",
    b"clear_board\ntime_settings 10 5 1\ntime_left b 3 1\ngenmove b\nknown_command play\nlist_commands\n",
];
const GTP_TOKENS: &[&[u8]] = &[
    b"\ngenmove b\n",
    b"\nplay w pass\n",
    b"\nboardsize 19\n",
    b"\nboardsize 2\n",
    b"\nundo\n",
    b"\nkomi inf\n",
    b"\ntime_settings 1e300 0 0\n",
    b"#",
    b"\n999999999999999999999 name\n",
    b"T19",
    b"\nfinal_score\n",
    b"\nloadsgf FUZZ.sgf\n",
    b"\nloadsgf FUZZ.sgf 2\n",
    b"\t",
    b"\x07",
];

#[test]
fn fuzz_gtp_sessions() {
    use stonelab::go::gtp::{Engine, Gtp, SearchLimits};
    let folder = temp_dir("fuzz-gtp");
    let dir = folder.to_path_buf();
    let sgf = dir.join("FUZZ.sgf");
    let sgf_path = sgf.display().to_string();
    fuzz("gtp", 5, 1500, Duration::from_secs(30), move |rng, slot| {
        let sgf_text = mutate(rng, SGF_SEEDS, SGF_TOKENS);
        std::fs::write(&sgf, &sgf_text).unwrap();
        let input = first_lines(mutate(rng, GTP_SEEDS, GTP_TOKENS), 200);
        let input = String::from_utf8_lossy(&input).replace("FUZZ.sgf", &sgf_path);
        *slot.lock().unwrap() =
            format!("{}\nFUZZ.sgf: {}", show(input.as_bytes()), show(&sgf_text));
        let mut gtp = Gtp::new(Engine::new(SearchLimits {
            threads: 1,
            shared_tree: false,
            playouts: Some(10),
            move_ms: None,
            model: Some(std::sync::Arc::new(
                stonelab_go::movemodel::MoveModel::builtin(),
            )),
            model_weight: stonelab_go::mcts::PRIOR_MODEL,
            playout_remote: None,
            tree_reuse: true,
            fresh_seed: false,
            last_good_reply: true,
            two_liberties: true,
            hand_priors: false,
            tree_policy: stonelab_go::mcts::TreePolicy::default(),
            second_last_shapes: false,
            nakade: false,
            ko_fights: true,
            local_rate: 50,
            score_weight: 0.2,
            score_scale: None,
            global_capture: 50,
            sacrifices: true,
            dynamic_komi: true,
            score_centre: true,
        }));
        let mut out = Vec::new();
        gtp.serve(std::io::Cursor::new(input.as_bytes().to_vec()), &mut out)
            .unwrap();
        let text = String::from_utf8(out).expect("answers are UTF-8");
        assert!(text.is_empty() || text.ends_with("\n\n"), "{text:?}");
        for answer in text.split_terminator("\n\n") {
            assert!(
                answer.starts_with('=') || answer.starts_with('?'),
                "answer {answer:?} to {}",
                show(input.as_bytes())
            );
            if answer.starts_with('?') {
                clear(answer, input.as_bytes());
                assert!(answer.len() <= 300, "answer {answer:?}");
            }
        }
    });
}

/// Runs `stonelab ARGS` in `dir` (files it writes by relative names stay there) with no input
/// and a time limit; checks the exit code (0, or 2 with one
/// `stonelab: error:` line and at most clap's usage lines after it) and that nothing panicked.
fn run_checked(args: &[String], dir: &std::path::Path, limit: Duration, what: &str) {
    let mut child = Command::new(STONELAB)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("stonelab {args:?} ran over {limit:?} ({what})");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let mut err = String::new();
    use std::io::Read;
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(
        !err.contains("panicked"),
        "stonelab {args:?} ({what}): {err}"
    );
    match status.code() {
        Some(0) => {}
        Some(2) => {
            let mut lines = err.lines();
            let first = lines.next().unwrap_or("");
            assert!(
                first.starts_with("stonelab: error: "),
                "stonelab {args:?} ({what}): {err}"
            );
            for l in lines {
                assert!(
                    l.starts_with("Usage:")
                        || l.starts_with("For more information")
                        || l.starts_with("  "),
                    "stonelab {args:?} ({what}): {err}"
                );
            }
        }
        other => panic!("stonelab {args:?} ({what}) exited with {other:?}: {err}"),
    }
}

#[test]
fn fuzz_match_records() {
    let folder = temp_dir("fuzz-records");
    let dir = folder.to_path_buf();
    let passer = dir.join("pass.sh");
    std::fs::write(
        &passer,
        "while read -r line; do case \"$line\" in\n\
         name*) printf '= passer\\n\\n';;\n\
         genmove*) printf '= pass\\n\\n';;\n\
         known_command*) printf '= false\\n\\n';;\n\
         quit*) printf '= \\n\\n'; exit 0;;\n\
         *) printf '= \\n\\n';;\n\
         esac; done\n",
    )
    .unwrap();
    let passer = format!("sh {}", passer.display());
    let random = format!(
        "{} --player random --seed {{game}}",
        STONELAB.replace("stonelab", "pbrain-stonelab")
    );
    let record = dir.join("record.jsonl");
    let r = record.display().to_string();
    let go: Vec<String> = [
        "go", "match", "--black", &passer, "--white", &passer, "--size", "5",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(["--record".into(), r.clone()])
    .collect();
    let gomoku: Vec<String> = [
        "gomoku", "match", "--a", &random, "--b", &random, "--size", "5",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(["--record".into(), r.clone()])
    .collect();
    // Real records to start from: two games of each kind.
    let mut seeds = Vec::new();
    for args in [&go, &gomoku] {
        let _ = std::fs::remove_file(&record);
        let mut a = args.clone();
        a.extend(["--games".into(), "2".into()]);
        common::stonelab_ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
        seeds.push(std::fs::read(&record).unwrap());
    }
    let tokens: &[&[u8]] = &[
        b"\n",
        b"{",
        b"}",
        b"\"",
        b",",
        b"\"winner\":\"Q\"",
        b"\"number\":0",
        b"\"number\":4294967295",
        b"null",
        b"[",
        b"]",
        b"\"black\":\"white\"",
        b"-1",
        b"1e999",
        b"\"end\":\"five\"",
    ];
    fuzz(
        "match records",
        6,
        1500,
        Duration::from_secs(60),
        move |rng, slot| {
            let seeds: Vec<&[u8]> = seeds.iter().map(Vec::as_slice).collect();
            let input = mutate(rng, &seeds, tokens);
            std::fs::write(&record, &input).unwrap();
            let mut args = if rng.below(2) == 0 {
                go.clone()
            } else {
                gomoku.clone()
            };
            args.extend(["--games".into(), ["1", "2", "3"][rng.below(3)].into()]);
            *slot.lock().unwrap() = format!("{args:?}\n{}", show(&input));
            run_checked(&args, &dir, Duration::from_secs(50), "a fuzzed record");
        },
    );
}

/// Command lines to mutate: cheap commands only (no bench, no big board), every argument a
/// token that can be swapped, dropped or repeated.
const COMMAND_LINES: &[&str] = &[
    "gomoku threats --rule standard --format json --size 9 FILE",
    "gomoku lut 0 21523358 --rule freestyle",
    "gomoku solve --mode vct --attacker black --max-nodes 2000 --max-ms 200 FILE",
    "go perft --size 3x4 --depth 3 --suicide --format json",
    "go replay --size 5x5 --komi 0.5 --moves B_C3_W_D4 --format json",
    "go replay FILE --komi -2",
    "go count 3x3 --threads 2 --format json",
    "go count 4x4 --method dp",
    "go enumerate 2x3 --out OUT --threads 1",
    "go eyes --colour black FILE",
    "go solve 2x2 --komi 0.5 --out OUT --workers 2",
    "go query OUT --moves B_A1_W_pass --komi 1",
    "go gtp --threads 1 --playouts 10",
    "gomoku pbrain --player greedy --nodes 100 --tt-mib 1",
    "go match --black true --white true --games 1 --timeout-ms 100",
    "gomoku match --a true --b true --games 1 --turn-ms 10 --jobs 2",
];
const ARG_TOKENS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "3x3",
    "2x2",
    "1x1",
    "0x0",
    "20x20",
    "19x19",
    "NaN",
    "inf",
    "-inf",
    "18446744073709551616",
    "99999999999999999999",
    "",
    " ",
    "\u{1b}[2J",
    "é",
    "x",
    "--format",
    "json",
    "text",
    "--help",
    "--version",
    "--size",
    "--depth",
    "--threads",
    "--out",
    "--komi",
    "--moves",
    "B",
    "pass",
    "A1",
    "T19",
    "--rule",
    "renju",
    "--",
    "-",
    "FILE",
    "OUT",
    "/dev/null",
    "/",
    "/no/such/dir/x",
    "--method",
    "dp",
    "--slice",
    "1/0",
    "5/3",
    "--legal-only",
];

#[test]
fn fuzz_command_lines() {
    let folder = temp_dir("fuzz-cli");
    let dir = folder.to_path_buf();
    let file = dir.join("input.txt");
    std::fs::write(&file, "h8 i9 h9\n").unwrap();
    let out = dir.join("out.db");
    let (file, out) = (file.display().to_string(), out.display().to_string());
    fuzz(
        "command lines",
        7,
        3000,
        Duration::from_secs(60),
        move |rng, slot| {
            let line = COMMAND_LINES[rng.below(COMMAND_LINES.len())];
            let mut args: Vec<String> = line.split(' ').map(|w| w.replace('_', " ")).collect();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(args.len() + 1);
                let token = ARG_TOKENS[rng.below(ARG_TOKENS.len())].to_string();
                match rng.below(4) {
                    0 if at < args.len() => args[at] = token,
                    1 if at < args.len() && at > 1 => {
                        args.remove(at);
                    }
                    2 if at < args.len() => {
                        let t = args[at].clone();
                        args.insert(at, t);
                    }
                    _ => args.insert(at, token),
                }
            }
            for a in &mut args {
                *a = a.replace("FILE", &file).replace("OUT", &out);
            }
            *slot.lock().unwrap() = format!("{args:?}");
            run_checked(
                &args,
                &dir,
                Duration::from_secs(50),
                "a fuzzed command line",
            );
        },
    );
}

/// CRC-32 (IEEE), bit by bit, to reseal fuzzed databases so that their contents get read.
fn crc32(bytes: &[u8]) -> u32 {
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

/// Recomputes a results database's two CRCs (layout: `crates/retro/src/db.rs`), when the header
/// is still whole enough to say where they are.
fn reseal_db(bytes: &mut [u8]) {
    if bytes.len() < 32 {
        return;
    }
    let meta_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    if 32 + meta_len > bytes.len() {
        return;
    }
    let body = crc32(&bytes[32 + meta_len..]);
    bytes[24..28].copy_from_slice(&body.to_le_bytes());
    let meta = crc32(&bytes[32..32 + meta_len]);
    bytes[28..32].copy_from_slice(&meta.to_le_bytes());
}

/// The solver's binary files: results databases (half of them resealed, so that their values and
/// metadata are read), state tables and checkpoints, through `go query`, `go solve --states` and
/// a resumed `go solve`.
#[test]
fn fuzz_solver_files() {
    let folder = temp_dir("fuzz-solver-files");
    let dir = folder.to_path_buf();
    let at = |name: &str| dir.join(name).display().to_string();
    common::stonelab_ok(&["go", "enumerate", "2x2", "--out", &at("good.st")]);
    common::stonelab_ok(&["go", "solve", "2x2", "--out", &at("good.db")]);
    let killed = Command::new(STONELAB)
        .args([
            "go",
            "solve",
            "3x3",
            "--out",
            &at("ck.db"),
            "--checkpoint-secs",
            "0",
        ])
        .args(["--abort-after-round", "1"])
        .output()
        .unwrap();
    assert_eq!(killed.status.code(), Some(137));
    let checkpoint = std::fs::read_dir(dir.join("ck.db.ckpt"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "cnt"))
        .expect("a checkpoint file");
    let ck_name = checkpoint.file_name().unwrap().to_owned();
    let seeds = [
        std::fs::read(dir.join("good.db")).unwrap(),
        std::fs::read(dir.join("good.st")).unwrap(),
        std::fs::read(&checkpoint).unwrap(),
    ];
    let tokens: &[&[u8]] = &[
        &[0xff; 4],
        &[0; 4],
        &[0x00, 0x80],
        &[0xff, 0x7f],
        &[0x7f],
        &[0x80],
        &[1, 0, 0, 0],
        &[0xff; 8],
    ];
    let dir2 = dir.to_path_buf();
    fuzz(
        "solver files",
        7,
        300,
        Duration::from_secs(60),
        move |rng, slot| {
            let kind = rng.below(3);
            let mut input = mutate(rng, &[seeds[kind].as_slice()], tokens);
            let args: Vec<&str> = match kind {
                0 => {
                    if rng.below(2) == 0 {
                        reseal_db(&mut input);
                    }
                    std::fs::write(dir2.join("bad.db"), &input).unwrap();
                    if rng.below(2) == 0 {
                        vec!["go", "query", "bad.db"]
                    } else {
                        vec!["go", "query", "bad.db", "--moves", "A1 B2"]
                    }
                }
                1 => {
                    std::fs::write(dir2.join("bad.st"), &input).unwrap();
                    if rng.below(2) == 0 {
                        vec!["go", "solve", "2x2", "--states", "bad.st"]
                    } else {
                        vec!["go", "query", "good.db", "--states", "bad.st"]
                    }
                }
                _ => {
                    let _ = std::fs::remove_file(dir2.join("r.db"));
                    let ckpt = dir2.join("r.db.ckpt");
                    let _ = std::fs::remove_dir_all(&ckpt);
                    std::fs::create_dir_all(&ckpt).unwrap();
                    std::fs::write(ckpt.join(&ck_name), &input).unwrap();
                    vec!["go", "solve", "3x3", "--out", "r.db"]
                }
            };
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            *slot.lock().unwrap() = format!("{args:?}\n{}", show(&input));
            run_checked(
                &args,
                &dir2,
                Duration::from_secs(50),
                "a fuzzed solver file",
            );
        },
    );
}
