//! `stonelab go gtp`: the GTP version 2 front end, command by command, with malformed and
//! out-of-range input, SGF loading, clocks, determinism, dead stones in `final_score` and
//! `final_status_list` (with a cross-check against GNU Go) and perfect play from a 3x3 database.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

fn stonelab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_stonelab"))
}

/// Runs a GTP session with the given engine arguments and input; returns the answers (each
/// without its terminating empty line).
fn session(args: &[&str], input: &[u8]) -> Vec<String> {
    let args = [&["go", "gtp"], args].concat();
    let mut child = common::spawn_piped(common::STONELAB, &args, Stdio::piped());
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    common::assert_success(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.is_empty() || text.ends_with("\n\n"), "{text:?}");
    text.split("\n\n")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn one(args: &[&str], input: &str) -> Vec<String> {
    session(args, input.as_bytes())
}

const FAST: &[&str] = &["--playouts", "300", "--threads", "1"];

#[test]
fn every_command_answers() {
    let a = one(
        FAST,
        "1 protocol_version\n2 name\n3 version\n4 known_command genmove\n5 known_command fly\n\
         6 list_commands\n7 boardsize 5\n8 clear_board\n9 komi 6.5\n10 play b C3\n11 play W b2\n\
         12 list_stones black\n13 list_stones white\n14 showboard\n15 final_score\n\
         16 final_status_list alive\n17 final_status_list dead\n18 final_status_list seki\n\
         19 undo\n20 list_stones white\n21 time_settings 60 5 1\n22 time_left b 30 0\n\
         23 genmove w\n26 cputime\n24 quit\n25 name\n",
    );
    assert_eq!(a[0], "=1 2");
    assert_eq!(a[1], "=2 stonelab");
    assert_eq!(a[2], format!("=3 {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(a[3], "=4 true");
    assert_eq!(a[4], "=5 false");
    let listed: Vec<&str> = a[5].trim_start_matches("=6 ").lines().collect();
    // The written contract: the commands the engine knows, in `list_commands` order.
    let contract = "protocol_version name version known_command list_commands quit boardsize \
                    clear_board komi play genmove undo showboard final_score final_status_list \
                    loadsgf time_settings time_left kgs-time_settings list_stones reg_genmove \
                    kgs-genmove_cleanup \
                    fixed_handicap place_free_handicap set_free_handicap printsgf \
                    gogui-analyze_commands lz-analyze lz-genmove_analyze kata-analyze cputime";
    assert_eq!(listed, contract.split_whitespace().collect::<Vec<_>>());
    // The commands with an empty answer.
    for i in (6..11).chain(16..22) {
        assert_eq!(a[i], format!("={} ", i + 1));
    }
    assert_eq!(a[24], "=24 ");
    assert_eq!(a[11], "=12 C3");
    assert_eq!(a[12], "=13 B2");
    assert!(a[13].starts_with("=14 "), "{}", a[13]);
    assert!(a[13].contains(" 3  . . X . .  3"), "{}", a[13]);
    assert!(a[13].contains(" 2  . O . . .  2"), "{}", a[13]);
    // One stone each, no territory (both border the single empty region), komi 6.5.
    assert_eq!(a[14], "=15 W+6.5");
    assert_eq!(a[15], "=16 B2 C3");
    let mv = a[22].trim_start_matches("=23 ");
    assert!(a[22].starts_with("=23 ") && mv.len() >= 2, "{}", a[22]);
    // GoGui's cputime: seconds, after a genmove's search of 300 playouts.
    let cpu: f64 = a[23].trim_start_matches("=26 ").parse().unwrap();
    assert!(
        a[23].starts_with("=26 ") && (0.0..600.0).contains(&cpu),
        "{}",
        a[23]
    );
    // Nothing is answered after quit.
    assert_eq!(a.len(), 25);
}

#[test]
fn malformed_and_out_of_range_input() {
    let mut input = Vec::new();
    input.extend_from_slice(
        b"# a comment line\n\n   \n\
          1 boardsize 1\n2 boardsize 20\n3 boardsize 0\n4 boardsize -3\n5 boardsize nine\n\
          6 boardsize\n7 boardsize 3 3\n8 frobnicate\n9\n99999999999999999999999 name\n",
    );
    // A line with control characters and invalid UTF-8, then valid commands with tabs.
    input.extend_from_slice(b"\x01\xff\xfe garbage\n10\tboardsize\t3\n");
    input.extend_from_slice(
        b"11 komi lots\n12 komi inf\n13 play b D1\n14 play b A4\n15 play b I1\n16 play x A1\n\
          17 play b\n18 play b A1 A2\n19 genmove\n20 genmove purple\n21 undo\n\
          22 final_status_list zombie\n23 time_settings 1 2\n24 time_left b -5 0\n\
          25 time_left b 5 x\n26 list_stones\n27 list_stones green\n28 loadsgf\n\
          29 loadsgf /nonexistent/file.sgf\n30 known_command\n31 play b A2\n32 play w A2\n\
          33 play b B1\n34 play w A1\n35 play w B2\n36 list_stones white\n37 list_stones black\n\
          38 name extra\n39 protocol_version # trailing comment\n",
    );
    let a = session(FAST, &input);
    let expect = [
        "?1 unacceptable size",
        "?2 unacceptable size",
        "?3 unacceptable size",
        "?4 syntax error",
        "?5 syntax error",
        "?6 syntax error",
        "?7 syntax error",
        "?8 unknown command",
        "?9 syntax error",
        "? syntax error",
        "? unknown command",
        "=10 ",
        "?11 syntax error",
        "?12 syntax error",
        "?13 illegal move",
        "?14 illegal move",
        "?15 syntax error",
        "?16 syntax error",
        "?17 syntax error",
        "?18 syntax error",
        "?19 syntax error",
        "?20 syntax error",
        "?21 cannot undo",
        "?22 syntax error",
        "?23 syntax error",
        "?24 syntax error",
        "?25 syntax error",
        "?26 syntax error",
        "?27 syntax error",
        "?28 syntax error",
        "?29 cannot load file",
        "?30 syntax error",
        "=31 ",
        // Occupied.
        "?32 illegal move",
        "=33 ",
        // White A1 captures nothing and has no liberty: suicide.
        "?34 illegal move",
        "=35 ",
        "=36 B2",
        "=37 A2 B1",
        "?38 syntax error",
        "=39 2",
    ];
    assert_eq!(a.len(), expect.len(), "{a:#?}");
    for (got, want) in a.iter().zip(expect) {
        assert!(got.starts_with(want), "got {got:?}, want {want:?}");
    }
}

#[test]
fn ko_recapture_is_illegal_until_a_move_elsewhere() {
    // 4x4: White B3 sits in Black's mouth, Black C3 (in White's) takes it: a ko. White may not
    // retake at once; after a move elsewhere by each side it may.
    let b = one(
        FAST,
        "boardsize 4\nplay b B4\nplay w C4\nplay b A3\nplay w D3\nplay b B2\nplay w C2\n\
         play w B3\nplay b C3\nplay w B3\nplay w A1\nplay b D1\nplay w B3\nlist_stones black\n\
         list_stones white\n",
    );
    assert!(b[..9].iter().all(|s| s == "= "), "{b:#?}");
    assert_eq!(b[9], "? illegal move");
    assert_eq!(b[10], "= ");
    assert_eq!(b[11], "= ");
    assert_eq!(b[12], "= ");
    assert_eq!(b[13], "= A3 B2 B4 D1");
    assert_eq!(b[14], "= A1 B3 C2 C4 D3");
}

#[test]
fn loadsgf_sets_size_and_position() {
    let dir = common::temp_dir("gtp-sgf");
    let path = dir.join("game.sgf");
    std::fs::write(&path, "(;GM[1]SZ[5]KM[0.5]AB[aa];W[cc];B[dd];W[ee])").unwrap();
    let p = path.display();
    let a = one(
        FAST,
        &format!(
            "loadsgf {p}\nlist_stones black\nlist_stones white\nloadsgf {p} 3\nlist_stones white\n\
             showboard\nloadsgf {p} 1\nlist_stones white\nlist_stones black\n"
        ),
    );
    assert_eq!(a[0], "= ");
    assert_eq!(a[1], "= A5 D2");
    assert_eq!(a[2], "= C3 E1");
    assert_eq!(a[3], "= ");
    assert_eq!(a[4], "= C3");
    assert!(a[5].contains("A B C D E"), "{}", a[5]);
    assert_eq!(a[7], "= ");
    assert_eq!(a[8], "= A5");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn genmove_is_deterministic_for_fixed_playouts() {
    let input = "boardsize 7\nkomi 7\ngenmove b\ngenmove w\ngenmove b\n";
    let args = [
        "--playouts",
        "3000",
        "--threads",
        "2",
        "--shared-tree",
        "false",
    ];
    let a = one(&args, input);
    let b = one(&args, input);
    assert_eq!(a, b);
    assert_eq!(a.len(), 5);
}

#[test]
fn a_shared_tree_plays_a_game_with_tree_reuse() {
    // Two threads on one tree, the tree kept between moves; then a timed move. Every answer
    // is a move (the position is legal for play to accept), and the engine scores the game.
    let input = "boardsize 7\nkomi 7\ngenmove b\ngenmove w\ngenmove b\ngenmove w\nfinal_score\n";
    let a = one(
        &[
            "--playouts",
            "3000",
            "--threads",
            "2",
            "--shared-tree",
            "true",
        ],
        input,
    );
    assert_eq!(a.len(), 7, "{a:?}");
    assert!(
        a[2..6].iter().all(|l| l.starts_with("= ") && l.len() > 3),
        "{a:?}"
    );
    assert!(
        a[6].starts_with("= B+") || a[6].starts_with("= W+"),
        "{a:?}"
    );
    let t = one(
        &[
            "--move-ms",
            "200",
            "--threads",
            "2",
            "--shared-tree",
            "true",
        ],
        "boardsize 9\ngenmove b\n",
    );
    assert!(t[1].starts_with("= "), "{t:?}");
    let o = stonelab()
        .args(["go", "gtp", "--shared-tree", "maybe"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn genmove_keeps_to_its_time() {
    // --move-ms 300 on 9x9, then a GTP clock with 1 s left for 1 stone.
    let start = Instant::now();
    let a = one(&["--move-ms", "300"], "boardsize 9\ngenmove b\n");
    assert!(a[1].starts_with("= "));
    let t = start.elapsed().as_secs_f64();
    assert!(t < 1.5, "{t} s for a 300 ms move");
    let start = Instant::now();
    let a = one(
        &["--move-ms", "5000"],
        "boardsize 9\ntime_settings 0 1 1\ntime_left b 1 1\ngenmove b\n",
    );
    assert!(a[3].starts_with("= "));
    let t = start.elapsed().as_secs_f64();
    assert!(t < 1.5, "{t} s with 1 s on the clock");
    // KGS's Japanese byo-yomi: three periods of 1 s, each move must fit in one.
    let start = Instant::now();
    let a = one(
        &["--move-ms", "5000"],
        "boardsize 9
kgs-time_settings byoyomi 0 1 3
time_left b 1 3
genmove b
",
    );
    assert_eq!(a[1], "= ");
    assert!(a[3].starts_with("= "));
    let t = start.elapsed().as_secs_f64();
    assert!(t < 1.5, "{t} s with 1 s periods");
}

fn solve_3x3(dir: &Path) -> PathBuf {
    solve_board(dir, "3x3")
}

/// Solves `board` (e.g. "2x2") into `dir/BOARD.db`.
fn solve_board(dir: &Path, board: &str) -> PathBuf {
    let db = dir.join(format!("{board}.db"));
    let out = stonelab()
        .args(["go", "solve", board, "--out"])
        .arg(&db)
        .output()
        .unwrap();
    common::assert_success(&out);
    db
}

#[test]
fn database_moves_keep_the_value() {
    let dir = common::temp_dir("gtp-db");
    let db = solve_3x3(&dir);
    let db = db.to_str().unwrap();
    // The solver's best first move on 3x3 is the centre (stonelab go solve prints "best B2"); with
    // any komi. After White passes, Black passing keeps +9 (it ends the game with the board full of
    // Black's area), so the engine passes.
    for komi in ["0", "7.5", "-3"] {
        let a = one(
            &["--db", db, "--threads", "1"],
            &format!("boardsize 3\nkomi {komi}\ngenmove b\nplay w pass\ngenmove b\nfinal_score\n"),
        );
        assert_eq!(a[2], "= B2", "komi {komi}");
        assert_eq!(a[4], "= pass", "komi {komi}");
    }
    // A wrong file is an error at start-up, not a crash.
    let out = stonelab()
        .args(["go", "gtp", "--db", "/nonexistent.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("stonelab: error: "));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// 2x2 after B A2, W B1, B B2: White's pass gives Black an end in [+1,+4], capturing with A1 keeps
/// [-4,+4] (`go query`). By its bound (+4) White may pass; under the tie rule (an endless game
/// scores 0) the pass is worth +1 and the capture 0, so White captures.
#[test]
fn the_tie_rule_changes_the_database_move() {
    let dir = common::temp_dir("gtp-tie");
    let db = solve_board(&dir, "2x2");
    let db = db.to_str().unwrap();
    let input = "boardsize 2\nkomi 0\nplay B A2\nplay W B1\nplay B B2\ngenmove w\n";
    let interval = one(&["--db", db, "--threads", "1"], input);
    assert_eq!(interval[5], "= pass");
    let tie = one(&["--db", db, "--threads", "1", "--cycles", "tie"], input);
    assert_eq!(tie[5], "= A1");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// 2x2: B A1, W B2, B B1, W A2 (takes two), B A1, W B1 (takes one), and Black's A1 would take
/// three and leave the board of move 1 again. Simple ko allows it (no single stone retakes a
/// single stone); positional superko refuses it in `play`, and the engine never chooses it, by its
/// search (a pass instead) or by its superko database move.
#[test]
fn positional_superko_refuses_a_move_that_recreates_a_board() {
    let game = "boardsize 2\nplay b A1\nplay w B2\nplay b B1\nplay w A2\nplay b A1\nplay w B1\n";
    let input = format!("{game}play b A1\nlist_stones black\n");
    let simple = one(FAST, &input);
    assert!(simple[..8].iter().all(|s| s == "= "), "{simple:#?}");
    assert_eq!(simple[8], "= A1");
    let superko = [FAST, &["--ko", "positional-superko"]].concat();
    let a = one(&superko, &input);
    assert!(a[..7].iter().all(|s| s == "= "), "{a:#?}");
    assert!(
        a[7].starts_with("? illegal move") && a[7].contains("superko"),
        "{a:#?}"
    );
    assert_eq!(a[8], "= ");
    let dir = common::temp_dir("gtp-superko");
    let db = solve_board(&dir, "2x2");
    let with_db = [&superko[..], &["--db", db.to_str().unwrap()]].concat();
    for args in [&superko, &with_db] {
        let a = one(args, &format!("{game}genmove b\n"));
        assert_ne!(a[7], "= A1", "{args:?}");
    }
    // Superko and a convention for endless games do not mix.
    let out = stonelab()
        .args(["go", "gtp", "--ko", "positional-superko", "--cycles", "tie"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `play` commands that set up a diagram (`X` black, `O` white, `.` empty, top row first) on an
/// empty board of its size.
fn setup(diagram: &str) -> String {
    let rows: Vec<&str> = diagram.lines().filter(|l| !l.trim().is_empty()).collect();
    let n = rows.len();
    let mut out = format!("boardsize {n}\nclear_board\n");
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.trim().chars().enumerate() {
            let color = match ch {
                'X' => "b",
                'O' => "w",
                _ => continue,
            };
            let col = b"ABCDEFGHJKLMNOPQRST"[c] as char;
            out.push_str(&format!("play {color} {col}{}\n", n - r));
        }
    }
    out
}

/// Black's living corner holds a dead white stone at B6; White's group owns the right side.
const CORNER: &str = "\
..X.XO.
.OXXXO.
..XOOO.
XXXO...
.XOO...
XXO....
.XO....
";

#[test]
fn final_score_removes_dead_stones() {
    let mut input = setup(CORNER);
    input.push_str(
        "komi 0.5\nfinal_score\nfinal_status_list dead\nfinal_status_list alive\n\
         final_status_list seki\nkomi -5\nfinal_score\nkomi -5.5\nfinal_score\n",
    );
    let a = one(FAST, &input);
    let n = a.len();
    // Black 22 points with B6, White 27: without the dead stone White wins by 5 less komi
    // (counted as the board stands, B6 would be White's and Black's corner neutral: W+12.5).
    assert_eq!(a[n - 8], "= W+5.5");
    assert_eq!(a[n - 7], "= B6");
    let alive: Vec<&str> = a[n - 6].trim_start_matches("= ").split(' ').collect();
    assert_eq!(alive.len(), 23, "{alive:?}");
    assert!(!alive.contains(&"B6") && alive.contains(&"C7") && alive.contains(&"F7"));
    assert_eq!(a[n - 5], "= ");
    assert_eq!(a[n - 3], "= 0");
    assert_eq!(a[n - 1], "= B+0.5");
    // The answer does not depend on who is to move, and repeats.
    let mut again = setup(CORNER);
    again.push_str("play b pass\nkomi 0.5\nfinal_score\nfinal_status_list dead\n");
    let b = one(FAST, &again);
    assert_eq!(
        b[b.len() - 2..],
        ["= W+5.5".to_string(), "= B6".to_string()]
    );
}

#[test]
fn final_status_of_a_dead_block_and_a_living_group() {
    // 7x7 after two passes in GNU Go self-play: White's block B6-B5 is dead (GNU Go agrees:
    // B+0.5 with komi 0.5, dead B6 B5).
    let game = "\
.X.XO..
.OXXOO.
.OX.XXO
XXXX.XO
XOOXXO.
XXOOO.O
OOO....
";
    // White's two-eyed corner inside Black's area lives: nothing is dead.
    let two_eyes = "\
.O.OX..
OOOOX..
XXXXX..
.......
.......
.......
.......
";
    for (diagram, score, dead) in [(game, "= B+0.5", "= B5 B6"), (two_eyes, "= B+32.5", "= ")] {
        let mut input = setup(diagram);
        input.push_str("komi 0.5\nfinal_score\nfinal_status_list dead\n");
        let a = one(FAST, &input);
        assert_eq!(a[a.len() - 2..], [score, dead], "{diagram}");
    }
}

#[test]
fn final_score_is_cheap_on_19x19() {
    // The empty 19x19 board has the longest playouts: 1,000 of them well under a second (the
    // bound is loose for a loaded machine).
    let start = Instant::now();
    let a = one(
        FAST,
        "boardsize 19\nkomi 7.5\nfinal_score\nplay b D4\nfinal_score\n",
    );
    let t = start.elapsed().as_secs_f64();
    assert_eq!(a[2], "= W+7.5");
    assert!(a[4].starts_with("= "), "{}", a[4]);
    assert!(t < 3.0, "{t} s for two final_score on 19x19");
}

/// A GTP engine in a child process, for a conversation (rather than one batch of input).
struct Peer {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl Peer {
    fn spawn(program: &str, args: &[&str]) -> Peer {
        let mut child = common::spawn_piped(program, args, Stdio::null());
        let stdin = child.stdin.take().unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        Peer {
            child,
            stdin,
            stdout,
        }
    }

    /// The answer to one command, without `= `; panics on a `?` answer.
    fn ask(&mut self, line: &str) -> String {
        use std::io::BufRead;
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            assert!(self.stdout.read_line(&mut l).unwrap() > 0, "{line}: EOF");
            let l = l.trim_end().to_string();
            if l.is_empty() {
                if lines.is_empty() {
                    continue;
                }
                break;
            }
            lines.push(l);
        }
        let text = lines.join("\n");
        assert!(text.starts_with('='), "{line}: {text}");
        text[1..].trim().to_string()
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// `B+3.5` -> 3.5, `W+2` -> -2, `0` -> 0.
fn score_value(text: &str) -> f64 {
    if text == "0" {
        return 0.0;
    }
    let (side, v) = text.split_once('+').unwrap();
    let v: f64 = v.parse().unwrap();
    if side.eq_ignore_ascii_case("B") {
        v
    } else {
        -v
    }
}

/// GNU Go (level 1, Chinese rules: area scoring, as ours) plays itself from four random opening
/// moves until two passes (a game GNU Go resigns is left out); our `final_score` of every finished position is compared with GNU Go's.
/// Measured when written, on 40 9x9 and 15 7x7 games of the same kind (other random openings): the
/// winner agreed in 39 of 40 and 15 of 15, scores and dead stones in 39 and 15 (the one miss is a
/// 9x9 game GNU Go passed out unfinished, with open borders and a contested centre); counting every
/// stone alive, as `final_score` did before, the winner agreed in 21 of 40 and 9 of 15. Here 10 +
/// 6 games (14 end by two passes; all 14 agreed, scores too) and the winner must agree in at least
/// 80% of them: a clear majority, with room for an unfinished game.
#[test]
#[ignore = "needs gnugo"]
fn final_score_agrees_with_gnugo() {
    let gnugo = common::gnugo();
    let exe = env!("CARGO_BIN_EXE_stonelab");
    let mut ours = Peer::spawn(exe, &["go", "gtp", "--threads", "1"]);
    let (mut games, mut winners, mut scores) = (0, 0, 0);
    let mut report = Vec::new();
    for (size, seeds) in [(9, 1000..1010u64), (7, 2000..2006)] {
        for seed in seeds {
            let s = seed.to_string();
            let mut gg = Peer::spawn(
                &gnugo,
                &[
                    "--mode",
                    "gtp",
                    "--level",
                    "1",
                    "--chinese-rules",
                    "--seed",
                    &s,
                ],
            );
            let mut moves = Vec::new();
            gg.ask(&format!("boardsize {size}"));
            gg.ask("clear_board");
            gg.ask("komi 0.5");
            let mut rng = seed;
            let mut color = "b";
            for _ in 0..4 {
                let legal = gg.ask(&format!("all_legal {color}"));
                let legal: Vec<&str> = legal.split_whitespace().collect();
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mv = legal[(rng >> 33) as usize % legal.len()].to_string();
                gg.ask(&format!("play {color} {mv}"));
                moves.push(format!("{color} {mv}"));
                color = if color == "b" { "w" } else { "b" };
            }
            let mut passes = 0;
            while passes < 2 && moves.len() < 400 {
                let mv = gg.ask(&format!("genmove {color}"));
                if mv.eq_ignore_ascii_case("resign") {
                    break;
                }
                passes = if mv.eq_ignore_ascii_case("pass") {
                    passes + 1
                } else {
                    0
                };
                moves.push(format!("{color} {mv}"));
                color = if color == "b" { "w" } else { "b" };
            }
            if passes < 2 {
                report.push(format!("{size}x{size} seed {seed}: GNU Go resigned"));
                continue;
            }
            let theirs = gg.ask("final_score");
            ours.ask(&format!("boardsize {size}"));
            ours.ask("clear_board");
            ours.ask("komi 0.5");
            for m in &moves {
                ours.ask(&format!("play {m}"));
            }
            let mine = ours.ask("final_score");
            let (a, b) = (score_value(&mine), score_value(&theirs));
            games += 1;
            winners += u32::from((a > 0.0) == (b > 0.0));
            scores += u32::from(a == b);
            report.push(format!(
                "{size}x{size} seed {seed}: ours {mine}, GNU Go {theirs}"
            ));
        }
    }
    eprintln!("{}", report.join("\n"));
    eprintln!("{games} games: winner agrees in {winners}, score equal in {scores}");
    assert!(games >= 10, "only {games} games ended by two passes");
    assert!(
        winners * 5 >= games * 4,
        "winner agrees in {winners} of {games}:\n{}",
        report.join("\n")
    );
}

/// The JSON report of `scripts/gtp-regress` (with `extra` options) on the made-up suite.
fn regress_tiny(extra: &[&str]) -> serde_json::Value {
    let python = std::env::var("STONELAB_PYTHON").unwrap_or_else(|_| "python3".into());
    let engine = format!("{} go gtp --threads 1 --playouts 2000", common::STONELAB);
    let out = std::process::Command::new(python)
        .arg("scripts/gtp-regress")
        .args(extra)
        .args(["--format", "json", "--engine", &engine])
        .arg("tests/data/go/regress/tiny.tst")
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `scripts/gtp-regress` (GNU Go's regression format against any GTP engine) on a made-up suite:
/// a capture found, a negated expectation failed, a GNU Go-only command skipped; the same with
/// `--replay` (the script replays the SGF with play commands and asks genmove, for engines
/// without loadsgf and reg_genmove).
#[test]
fn the_regression_script_runs_a_suite_against_the_engine() {
    for extra in [&[][..], &["--replay"][..]] {
        let v = regress_tiny(extra);
        let suite = &v["suites"][0];
        assert_eq!(suite["file"], "tiny.tst");
        assert_eq!(
            (
                suite["passed"].as_u64(),
                suite["failed"].as_u64(),
                suite["skipped"].as_u64()
            ),
            (Some(1), Some(1), Some(1)),
            "{extra:?} {v}"
        );
        assert_eq!(suite["tests"][0]["answer"], "C4");
    }
    let bad = std::process::Command::new("python3")
        .args([
            "scripts/gtp-regress",
            "--engine",
            "true",
            "/nonexistent.tst",
        ])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// `scripts/gtp-timer`: GTP passes through unchanged (numbered ids too; a comment line gets no
/// reply and is not waited for), each move command's time is logged with its colour, `--summary`
/// counts them, and an unreadable log is one error line with exit code 2.
#[test]
fn the_timer_script_passes_gtp_through_and_logs_each_move() {
    use std::io::Write;
    let dir = common::temp_dir("gtp-timer");
    let log = dir.join("times.log");
    let mut child = std::process::Command::new("python3")
        .arg("scripts/gtp-timer")
        .arg(&log)
        .args(["--", common::STONELAB, "go", "gtp", "--threads", "1"])
        .args(["--playouts", "500"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"boardsize 9\n# a comment has no reply\nclear_board\ngenmove b\n7 genmove w\nplay b A1\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let replies: Vec<&str> = text.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 6, "{text}");
    assert!(
        replies[2].starts_with("= ") && replies[2].len() > 3,
        "{text}"
    );
    assert!(replies[3].starts_with("=7 "), "{text}");
    let logged = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<Vec<&str>> = logged.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(lines.len(), 2, "{logged}");
    assert_eq!((lines[0][0], lines[0][1]), ("genmove", "b"));
    assert_eq!((lines[1][0], lines[1][1]), ("genmove", "w"));
    assert!(lines.iter().all(|l| l[2].parse::<f64>().unwrap() >= 0.0));
    let summary = std::process::Command::new("python3")
        .args(["scripts/gtp-timer", "--summary"])
        .arg(&log)
        .output()
        .unwrap();
    assert!(summary.status.success());
    assert!(String::from_utf8_lossy(&summary.stdout).starts_with("2 moves, mean "));
    let bad = std::process::Command::new("python3")
        .args(["scripts/gtp-timer", "--summary", "/nonexistent/times.log"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&bad.stderr).lines().count(), 1);
}
