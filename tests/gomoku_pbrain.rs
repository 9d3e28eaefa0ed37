//! The Gomocup brain `pbrain-stonelab` through its process: the protocol, tactics (fives, blocks,
//! VCFs from the solver suite, checked by the referee), and strength through `stonelab gomoku
//! match` against the project's random and greedy players and against itself on 8x8 (a proven
//! draw: no colour loses more than chance allows, and no VCF is ever missed).

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use stonelab_gomoku::search::referee;
use stonelab_gomoku::search::suite::parse_suite;
use stonelab_gomoku::search::{five_points, solve, Limits, Mode};
use stonelab_gomoku::{parse_position, Board, Color, Grid, Point, Rule};

const BRAIN: &str = env!("CARGO_BIN_EXE_pbrain-stonelab");
const STONELAB: &str = env!("CARGO_BIN_EXE_stonelab");
const SUITE: &str = include_str!("data/gomoku/tss_suite.txt");

/// Runs a brain on `lines` (sent with CR LF) and returns its answers, MESSAGE lines left out.
fn session(program: &[&str], lines: &[&str]) -> Vec<String> {
    raw_session(program, lines)
        .lines()
        .filter(|l| !l.starts_with("MESSAGE"))
        .map(str::to_string)
        .collect()
}

/// Runs a brain on `lines` (sent with CR LF) and returns everything it printed; it must exit 0.
fn raw_session(program: &[&str], lines: &[&str]) -> String {
    let mut child = Command::new(program[0])
        .args(&program[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the brain");
    {
        let stdin = child.stdin.as_mut().unwrap();
        for l in lines {
            write!(stdin, "{l}\r\n").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn point(line: &str) -> Point {
    let (x, y) = line
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {line}"));
    Point::new(x.trim().parse().unwrap(), y.trim().parse().unwrap())
}

#[test]
fn protocol_through_both_programs() {
    for program in [
        vec![BRAIN, "--nodes", "3000"],
        vec![STONELAB, "gomoku", "pbrain", "--nodes", "3000"],
    ] {
        let out = session(
            &program,
            &[
                "INFO max_memory 367001600",
                "INFO timeout_turn 500",
                "INFO timeout_match 0",
                "INFO rule 1",
                "START 20",
                "ABOUT",
                "BEGIN",
                "TURN 0,0",
                "TAKEBACK 0,0",
                "TURN 19,19",
                "TURN 19,19",
                "TURN 20,0",
                "RESTART",
                "BOARD",
                "5,5,1",
                "6,6,2",
                "DONE",
                "RECTSTART 20,20",
                "PLAY 3,3",
                "FOO",
                "INFO rule 8",
                "INFO unknown_key 5",
                "END",
                "ABOUT",
            ],
        );
        assert_eq!(out[0], "OK", "{out:?}");
        assert!(out[1].starts_with("name=\"stonelab\""), "{out:?}");
        assert_eq!(out[2], "10,10");
        let reply = point(&out[3]);
        assert!(
            reply.x < 20
                && reply.y < 20
                && reply != Point::new(0, 0)
                && reply != Point::new(10, 10)
        );
        assert_eq!(out[4], "OK");
        let reply = point(&out[5]);
        assert!(reply != Point::new(19, 19) && reply != Point::new(10, 10));
        assert!(
            out[6].starts_with("ERROR") && out[6].contains("occupied"),
            "{out:?}"
        );
        assert!(
            out[7].starts_with("ERROR") && out[7].contains("off the"),
            "{out:?}"
        );
        assert_eq!(out[8], "OK");
        let reply = point(&out[9]);
        assert!(reply != Point::new(5, 5) && reply != Point::new(6, 6));
        assert_eq!(out[10], "OK");
        assert_eq!(out[11], "3,3");
        assert!(out[12].starts_with("UNKNOWN"), "{out:?}");
        assert!(out[13].starts_with("ERROR") && out[13].contains("caro"));
        assert_eq!(out.len(), 14, "nothing after END: {out:?}");
    }
}

/// A BOARD block from a grid, own = `me`; the brain answers one move.
fn brain_move(grid: &Grid, me: Color, rule: Rule) -> Point {
    let n = grid.size();
    let mut lines = vec![
        format!("INFO rule {}", rule.gomocup_bits()),
        format!("START {n}"),
        "BOARD".to_string(),
    ];
    for p in grid.points() {
        if let Some(c) = grid.get(p) {
            lines.push(format!("{},{},{}", p.x, p.y, if c == me { 1 } else { 2 }));
        }
    }
    lines.push("DONE".into());
    lines.push("END".into());
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = session(&[BRAIN, "--nodes", "20000"], &refs);
    assert_eq!(out[0], "OK");
    point(&out[1])
}

#[test]
fn plays_a_five_and_blocks_a_four() {
    // Black (to move, 4 stones each) has four in a row on row 7: it must complete the five,
    // although White has a four too.
    let text = "h8 h9 i8 i9 j8 j9 k8 k9";
    let grid = parse_position(text, Some(15)).unwrap().grid;
    let m = brain_move(&grid, Color::Black, Rule::Freestyle);
    assert!(m == Point::new(6, 7) || m == Point::new(11, 7), "{m:?}");
    // White to move, Black threatens a five at one point only: White blocks it.
    let text = "h8 a1 i8 a2 j8 a3 k8 g8";
    let grid = parse_position(text, Some(15)).unwrap().grid;
    let m = brain_move(&grid, Color::White, Rule::Freestyle);
    assert_eq!(m, Point::new(11, 7), "must block the four");
    // Standard: an overline is no five, so the brain blocks rather than plays the six.
    let text = "c8 a1 d8 a3 e8 a5 f8 a7 h8 o1 i8";
    let grid = parse_position(text, Some(15)).unwrap().grid;
    let m = brain_move(&grid, Color::White, Rule::Standard);
    // Black's five points: j8 (h8 i8 j8 + ... ) - whatever they are, White must take one of them.
    let board = Board::from_grid(&grid, Rule::Standard);
    let fives = five_points(&board, Color::Black);
    assert!(
        fives.contains(m),
        "{m:?} does not block {:?}",
        fives.iter().collect::<Vec<_>>()
    );
}

/// Renju (`INFO rule 4`): Black's four-four at (6,7) wins in freestyle and is forbidden in renju.
/// The brain as Black does not play it, `YXSHOWFORBID` lists it (`FORBID 0607.` before the move),
/// and the brain as White takes a four whose only block is forbidden to Black.
#[test]
fn renju_forbidden_points_in_the_brain() {
    let black = [(3, 7), (4, 7), (5, 7), (6, 4), (6, 5), (6, 6)];
    let white = [(2, 7), (6, 3), (0, 0), (0, 2), (14, 14), (14, 12)];
    let mut lines = vec!["INFO rule 4".to_string(), "START 15".into(), "BOARD".into()];
    for (b, w) in black.iter().zip(&white) {
        lines.push(format!("{},{},1", b.0, b.1));
        lines.push(format!("{},{},2", w.0, w.1));
    }
    lines.push("DONE".into());
    let mut before = lines.clone();
    before.truncate(before.len() - 1);
    for l in ["YXSHOWFORBID", "END"] {
        lines.push(l.into());
    }
    let program = [BRAIN, "--nodes", "20000"];
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = session(&program, &refs);
    assert_eq!(out[0], "OK");
    assert_ne!(
        point(&out[1]),
        Point::new(6, 7),
        "played the forbidden four-four"
    );
    assert!(
        out[2].starts_with("FORBID ") && out[2].ends_with('.'),
        "{out:?}"
    );
    // The same board under freestyle: the four-four is played at once.
    let mut free = refs.clone();
    free[0] = "INFO rule 0";
    let out = session(&program, &free[..free.len() - 2]);
    assert_eq!(point(&out[1]), Point::new(6, 7));
    // The forbidden points before Black's move, in Yixin's format (YXBOARD: no move is made).
    let mut show: Vec<&str> = before.iter().map(String::as_str).collect();
    show[2] = "YXBOARD";
    show.extend(["DONE", "YXSHOWFORBID", "END"]);
    let out = session(&program, &show);
    assert_eq!(out[1..], ["FORBID 0607."], "{out:?}");

    // White to move: White (0,7) makes a four whose five point (4,7) is an overline for Black.
    let black = [(4, 4), (4, 5), (4, 6), (4, 8), (4, 9), (5, 7), (13, 13)];
    let white = [(1, 7), (2, 7), (3, 7), (0, 14), (14, 0), (10, 14)];
    let mut lines = vec!["INFO rule 4".to_string(), "START 15".into(), "BOARD".into()];
    for &(x, y) in &white {
        lines.push(format!("{x},{y},1"));
    }
    for &(x, y) in &black {
        lines.push(format!("{x},{y},2"));
    }
    lines.extend(["DONE".into(), "END".into()]);
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = session(&program, &refs);
    assert_eq!(point(&out[1]), Point::new(0, 7), "{out:?}");
}

/// A BOARD the brain cannot be to move in (it has more stones than the opponent) is an `ERROR`.
#[test]
fn impossible_board_is_an_error() {
    let out = session(
        &[BRAIN, "--nodes", "1000"],
        &[
            "START 15", "BOARD", "7,7,1", "8,8,1", "7,8,2", "DONE", "END",
        ],
    );
    assert!(
        out[1].starts_with("ERROR") && out[1].contains("impossible"),
        "{out:?}"
    );
}

/// Whether `m` starts a VCF for `me` on `grid`: `m` is a five, or it makes a four (a straight or
/// double four wins at once) and after the defender's forced block the referee finds a VCF.
fn starts_a_vcf(grid: &Grid, rule: Rule, me: Color, m: Point) -> bool {
    let mut g = grid.clone();
    let before = referee::Referee::new(&g, rule);
    if before.makes_five(m, me) {
        return true;
    }
    g.set(m, Some(me));
    let after = referee::Referee::new(&g, rule);
    let fives = after.five_points(me);
    if !after.five_points(!me).is_empty() {
        return false; // the defender completes a five first
    }
    match fives.len() {
        0 => false,
        1 => {
            g.set(fives[0], Some(!me));
            referee::vcf(&g, rule, me, 12).is_some()
        }
        _ => true,
    }
}

#[test]
fn finds_the_vcf_of_every_suite_position() {
    let mut checked = 0;
    for e in parse_suite(SUITE) {
        if e.mode != Mode::Vcf || !e.win {
            continue;
        }
        let (grid, rule, me) = (&e.grid, e.rule, e.to_move);
        let board = Board::from_grid(grid, rule);
        assert!(solve(&board, me, Mode::Vcf, &Limits::for_mode(Mode::Vcf))
            .proof
            .is_some());
        let m = brain_move(grid, me, rule);
        assert!(
            starts_a_vcf(grid, rule, me, m),
            "{}: the brain played {m:?}, which starts no VCF",
            e.line
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} VCF positions");
}

/// The JSON report of `stonelab gomoku match` of `a` against `b`: `games` games on `size` x `size`,
/// with `extra` arguments.
fn match_json(a: &str, b: &str, games: u64, size: u32, extra: &[&str]) -> serde_json::Value {
    let (games, size) = (games.to_string(), size.to_string());
    // The engines here search a fixed number of nodes; a long turn keeps the manager's answer
    // limit (twice the turn) from deciding games when the test machine is loaded.
    let mut all = vec!["gomoku", "match", "--format", "json", "--a", a, "--b", b];
    all.extend_from_slice(&["--games", &games, "--size", &size, "--turn-ms", "10000"]);
    all.extend_from_slice(extra);
    common::stonelab_json(&all)
}

#[test]
fn beats_the_random_and_greedy_players() {
    let engine = format!("{BRAIN} --nodes 3000 --quiet");
    for (opponent, games) in [("random", 100), ("greedy", 100)] {
        let other = format!("{BRAIN} --player {opponent} --seed {{game}}");
        let m = match_json(&engine, &other, games, 15, &["--jobs", "2"]);
        let wins = m["wins"].as_u64().unwrap();
        assert_eq!(m["illegal_moves"], 0);
        assert_eq!(m["timeouts"], 0);
        assert!(
            wins * 100 >= 99 * games,
            "only {wins}/{games} wins against the {opponent} player"
        );
    }
}

/// Openings for 8x8: two random stones each near the centre, from a fixed seed.
fn openings_8x8(count: usize) -> String {
    let mut state = 0x8888_1234_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut text = String::new();
    let mut seen = std::collections::HashSet::new();
    while seen.len() < count {
        let mut stones: Vec<(u64, u64)> = Vec::new();
        while stones.len() < 4 {
            let p = (2 + next() % 4, 2 + next() % 4);
            if !stones.contains(&p) {
                stones.push(p);
            }
        }
        if seen.insert(stones.clone()) {
            let line: Vec<String> = stones.iter().map(|(x, y)| format!("{x},{y}")).collect();
            text.push_str(&line.join(" "));
            text.push('\n');
        }
    }
    text
}

#[test]
fn self_play_on_8x8_is_balanced_and_never_misses_a_vcf() {
    let dir = std::env::temp_dir().join(format!("stonelab-8x8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, openings_8x8(20)).unwrap();
    let engine = format!("{BRAIN} --nodes 20000 --quiet");
    let m = match_json(
        &engine,
        &engine,
        40,
        8,
        &["--openings", openings.to_str().unwrap(), "--jobs", "2"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let games = m["games"].as_array().unwrap();
    let (mut black_wins, mut white_wins) = (0u32, 0u32);
    let mut vcf_positions = 0;
    for g in games {
        assert_ne!(g["end"], "illegal_move");
        assert_ne!(g["end"], "timeout");
        let black = g["black"].as_str().unwrap();
        let winner_colour = match g["winner"].as_str() {
            Some(w) if w == black => {
                black_wins += 1;
                Some(Color::Black)
            }
            Some(_) => {
                white_wins += 1;
                Some(Color::White)
            }
            None => None,
        };
        // Replay: wherever the side to move (after the opening) has a VCF, it must go on to win.
        let moves: Vec<Point> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| Point::new(m[0].as_u64().unwrap() as u8, m[1].as_u64().unwrap() as u8))
            .collect();
        let opening = g["opening_stones"].as_u64().unwrap() as usize;
        let mut board = Board::new(8, Rule::Freestyle).unwrap();
        let mut c = Color::Black;
        for (i, &p) in moves.iter().enumerate() {
            if i >= opening && five_points(&board, !c).is_empty() {
                let has_vcf = solve(&board, c, Mode::Vcf, &Limits::for_mode(Mode::Vcf))
                    .proof
                    .is_some();
                if has_vcf {
                    vcf_positions += 1;
                    assert_eq!(
                        winner_colour,
                        Some(c),
                        "game {}: {c:?} had a VCF before move {i} and did not win",
                        g["number"]
                    );
                }
            }
            board.make(p, c);
            c = !c;
        }
    }
    // 8x8 is a draw: the same engine on both sides should lose as often with either colour. Two-
    // sided sign test at 1%: with d decisive games, neither colour may win more than the binomial
    // quantile allows.
    let d = black_wins + white_wins;
    let worst = black_wins.max(white_wins);
    let limit = binomial_upper(d, 0.005);
    assert!(
        worst <= limit,
        "black {black_wins} white {white_wins} wins of {} games: more than chance allows",
        games.len()
    );
    eprintln!(
        "8x8 self-play: {} games, black {black_wins}, white {white_wins}, draws {}, {vcf_positions} VCF positions checked",
        games.len(),
        games.len() as u32 - d
    );
}

/// The smallest k with P(X > k) <= alpha for X ~ Binomial(n, 1/2).
fn binomial_upper(n: u32, alpha: f64) -> u32 {
    let mut tail = 1.0f64; // P(X >= k)
    let mut pk = 0.5f64.powi(n as i32); // P(X = k)
    for k in 0..=n {
        tail -= pk;
        if tail <= alpha {
            return k;
        }
        pk = pk * f64::from(n - k) / f64::from(k + 1);
    }
    n
}

#[test]
fn match_takes_gomocup_rule_numbers_and_rejects_others() {
    let engine = format!("{BRAIN} --nodes 2000 --quiet");
    let random = format!("{BRAIN} --player random --seed {{game}}");
    let m = match_json(&engine, &random, 2, 9, &["--rule", "1"]);
    assert_eq!(m["rule"], "standard");
    assert_eq!(m["games"].as_array().unwrap().len(), 2);
    let m = match_json(&engine, &random, 2, 9, &["--rule", "4"]);
    assert_eq!(m["rule"], "renju");
    assert_eq!(m["games"].as_array().unwrap().len(), 2);
    let out = common::stonelab(&[
        "gomoku", "match", "--a", &engine, "--b", &random, "--rule", "8",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = common::stonelab(&[
        "gomoku", "match", "--a", &engine, "--b", &random, "--size", "21",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unsupported size 21"));
}

/// `--suggest`: the brain answers `SUGGEST x,y`, plays where `PLAY` says (even elsewhere), and its
/// board follows the manager's moves, not its own suggestions.
#[test]
fn suggest_then_play_what_the_manager_sends() {
    let out = session(
        &[BRAIN, "--suggest", "--nodes", "3000"],
        &[
            "START 15",
            "BOARD",
            "0,0,1",
            "0,5,2",
            "1,0,1",
            "1,5,2",
            "2,0,1",
            "2,5,2",
            "3,0,1",
            "3,5,2",
            "DONE",
            "PLAY 10,10",
            "TURN 4,0",
            "END",
        ],
    );
    // Its five at (4,0) is suggested; the manager overrules it; the opponent blocks there; the
    // brain now must block the opponent's five at (4,5).
    assert_eq!(out, ["OK", "SUGGEST 4,0", "10,10", "SUGGEST 4,5"]);
}

/// The move, and the search's `score` word with its principal variation, of one move request from
/// a middle-game BOARD, with `extra` flags (a fixed node budget, so the search is deterministic).
fn move_and_score(extra: &[&str]) -> (String, String) {
    move_and_score_under(extra, "INFO rule 0")
}

/// [`move_and_score`] under the rule that `rule_line` (`INFO rule N`) sets.
fn move_and_score_under(extra: &[&str], rule_line: &str) -> (String, String) {
    let mut program = vec![BRAIN, "--nodes", "30000"];
    program.extend_from_slice(extra);
    let lines = [
        "START 15", rule_line, "BOARD", "7,7,2", "8,8,1", "6,8,2", "9,6,1", "DONE", "END",
    ];
    let text = raw_session(&program, &lines);
    let message = text
        .lines()
        .find(|l| l.starts_with("MESSAGE search"))
        .unwrap_or_else(|| panic!("no search MESSAGE in {text}"));
    let words: Vec<&str> = message.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score").expect("a score") + 1;
    let pv = words
        .iter()
        .position(|&w| w == "pv")
        .map_or(words.len(), |k| k + 1);
    let mv = text.lines().last().expect("a move").to_string();
    (mv, format!("{} pv {}", words[at], words[pv..].join(" ")))
}

/// `--order-weights`, `--eval-weights`, `--threat-weights` and `--eval-net` replace the compiled-in
/// tables: the compiled-in order's, threat weights' and net's numbers given as files change
/// nothing; the hand-set order or evaluation, no threat term at all, or no net, changes the search
/// (its score or principal variation).
#[test]
fn weight_files_replace_the_compiled_in_tables() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/gomoku/data/");
    let base = move_and_score(&[]);
    let same_order = format!("{data}order-weights.txt");
    assert_eq!(move_and_score(&["--order-weights", &same_order]), base);
    let other_order = format!("{data}order-weights-handset.txt");
    let (_, score) = move_and_score(&["--order-weights", &other_order]);
    assert_ne!(score, base.1);
    let same_threats = format!("{data}threat-weights.txt");
    assert_eq!(move_and_score(&["--threat-weights", &same_threats]), base);
    let other_eval = format!("{data}eval-weights-handset.txt");
    let (_, score) = move_and_score(&["--eval-weights", &other_eval]);
    assert_ne!(score, base.1);
    // A file of comments only: every mask weighs 0.
    let folder = common::temp_dir("no-threats");
    let none = folder.join("threats.txt");
    std::fs::write(&none, "# no threat term\n").unwrap();
    let (_, score) = move_and_score(&["--threat-weights", none.to_str().unwrap()]);
    assert_ne!(score, base.1);
    // The evaluation's net: the compiled-in file given as a file changes nothing, none changes
    // the search.
    let same_net = format!("{data}eval-net.txt");
    assert_eq!(move_and_score(&["--eval-net", &same_net]), base);
    let (_, score) = move_and_score(&["--eval-net", "none"]);
    assert_ne!(score, base.1);
}

/// Under renju each colour reads its own evaluation and threat weights, and renju its own move
/// order and net: the compiled-in renju files given as files change nothing, another table for
/// either colour (or no net) changes the score, and the freestyle tables change nothing under
/// renju.
#[test]
fn renju_weight_files_replace_each_colours_table() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/gomoku/data/");
    let renju = "INFO rule 4";
    let base = move_and_score_under(&[], renju);
    let file = |name: &str| format!("{data}{name}");
    let same = [
        (
            "--renju-black-weights",
            file("eval-weights-renju-black.txt"),
        ),
        (
            "--renju-white-weights",
            file("eval-weights-renju-white.txt"),
        ),
        (
            "--renju-black-threat-weights",
            file("threat-weights-renju-black.txt"),
        ),
        (
            "--renju-white-threat-weights",
            file("threat-weights-renju-white.txt"),
        ),
        ("--renju-order-weights", file("order-weights-handset.txt")),
    ];
    for (flag, path) in &same {
        assert_eq!(move_and_score_under(&[flag, path], renju), base, "{flag}");
    }
    let other = file("eval-weights-handset.txt");
    for flag in ["--renju-black-weights", "--renju-white-weights"] {
        let (_, score) = move_and_score_under(&[flag, &other], renju);
        assert_ne!(score, base.1, "{flag}");
    }
    // The freestyle tables do not touch renju.
    assert_eq!(
        move_and_score_under(&["--eval-weights", &other], renju),
        base
    );
    let freestyle_order = file("order-weights-handset.txt");
    assert_eq!(
        move_and_score_under(&["--order-weights", &freestyle_order], renju),
        base
    );
    // Renju's order is its own: the freestyle order given as renju's changes the score.
    let (_, score) = move_and_score_under(
        &["--renju-order-weights", &file("order-weights.txt")],
        renju,
    );
    assert_ne!(score, base.1);
    // Renju's net (`colours 2`): the compiled-in file given as a file changes nothing, none
    // changes the score, and the freestyle net given does not touch renju.
    let same_net = file("eval-net-renju.txt");
    assert_eq!(
        move_and_score_under(&["--eval-net", &same_net], renju),
        base
    );
    let (_, score) = move_and_score_under(&["--eval-net", "none"], renju);
    assert_ne!(score, base.1);
    assert_eq!(
        move_and_score_under(&["--eval-net", &file("eval-net.txt")], renju),
        base
    );
}

/// `--knobs own-vct=N` gives the root's own VCT a share of the move before alpha-beta: in a
/// position of a session-48 game against Rapfi (Black to move, 22 stones) where the threat
/// solver finds a VCT in about a thousand nodes, the brain then answers with the VCT's first
/// move and says so (`MESSAGE vct`); without the knob no VCT search runs.
#[test]
fn the_own_vct_knob_plays_a_vct_before_alpha_beta() {
    let lines = [
        "START 15",
        "INFO rule 0",
        "BOARD",
        "7,7,1",
        "7,5,2",
        "5,5,1",
        "6,6,2",
        "5,7,1",
        "5,6,2",
        "4,6,1",
        "4,7,2",
        "6,8,1",
        "7,9,2",
        "3,8,1",
        "3,7,2",
        "5,8,1",
        "7,8,2",
        "4,9,1",
        "5,9,2",
        "2,7,1",
        "5,10,2",
        "2,6,1",
        "2,5,2",
        "1,6,1",
        "0,5,2",
        "DONE",
        "END",
    ];
    let with = raw_session(
        &[BRAIN, "--nodes", "100000", "--knobs", "own-vct=100"],
        &lines,
    );
    assert!(with.lines().any(|l| l.starts_with("MESSAGE vct")), "{with}");
    assert_eq!(with.lines().last(), Some("3,5"), "{with}");
    let without = raw_session(&[BRAIN, "--nodes", "100000"], &lines);
    assert!(
        !without.lines().any(|l| l.starts_with("MESSAGE vct")),
        "{without}"
    );
}
