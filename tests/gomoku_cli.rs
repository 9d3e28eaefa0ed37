//! `stonelab gomoku ...` run as a program: the seed example's exact output, the JSON shape, the table
//! rows, and bad input (exit code 2, one error line naming line and column, never a panic).

mod common;

use std::process::Output;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/gomoku");

fn run(args: &[&str], stdin: &str) -> Output {
    common::stonelab_with_input(args, stdin)
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn seed_example_exact_output() {
    let input = format!("{DATA}/seed_example.txt");
    let want = std::fs::read_to_string(format!("{DATA}/seed_example.expected.txt")).unwrap();
    let o = run(&["gomoku", "threats", &input], "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(stdout(&o), want);
    // The same from standard input.
    let text = std::fs::read_to_string(&input).unwrap();
    let o = run(&["gomoku", "threats", "-"], &text);
    assert_eq!(stdout(&o), want);
}

#[test]
fn json_shape() {
    let input = format!("{DATA}/seed_example.txt");
    let o = run(&["gomoku", "threats", "--format", "json", &input], "");
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    for k in ["size", "rule", "threats", "black", "white"] {
        assert!(keys.iter().any(|x| *x == k), "missing {k}");
    }
    assert_eq!(v["size"], 15);
    assert_eq!(v["rule"], "freestyle");
    // The expected file marks the threat points; JSON must list exactly those, sorted by y then x.
    let want = std::fs::read_to_string(format!("{DATA}/seed_example.expected.txt")).unwrap();
    let marked: Vec<serde_json::Value> = want
        .lines()
        .enumerate()
        .flat_map(|(y, row)| {
            row.chars()
                .enumerate()
                .filter(|&(_, ch)| ch == 'x')
                .map(move |(x, _)| serde_json::json!([x, y]))
        })
        .collect();
    assert_eq!(v["threats"], serde_json::Value::Array(marked));
    for c in ["black", "white"] {
        assert!(v[c]["five"].is_array() && v[c]["open_four"].is_array());
    }
    let o = run(
        &[
            "gomoku", "threats", "--format", "json", "--rule", "standard",
        ],
        "h8 h9",
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["rule"], "standard");
    assert_eq!(v["threats"], serde_json::json!([]));
}

#[test]
fn move_list_is_drawn_as_a_diagram() {
    // Black h8 h9 h10 (column h = x 7, rows 8..10 from the bottom), White elsewhere.
    let o = run(&["gomoku", "threats", "--size", "15"], "h8 a1 h9 a3 h10 a5");
    assert!(o.status.success());
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().collect();
    // With coordinates: row numbers from 1 at the bottom, column letters below.
    assert_eq!(rows.len(), 16);
    assert_eq!(&rows[7][..3], " 8 ");
    assert_eq!(&rows[7][10..11], "X");
    assert_eq!(&rows[4][10..11], "x");
    assert_eq!(&rows[8][10..11], "x");
    assert_eq!(&rows[14][..4], " 1 O");
    assert_eq!(rows[15], "   abcdefghijklmno");
    // The drawing (marks aside) reads back as the same position.
    let again = run(&["gomoku", "threats", "-"], &out.replace('x', "."));
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(stdout(&again).replace('x', "."), out.replace('x', "."));
}

#[test]
fn lut_prints_seed_rows() {
    let rows = std::fs::read_to_string(format!("{DATA}/seed_table_rows.txt")).unwrap();
    let rows: Vec<&str> = rows.lines().filter(|l| !l.starts_with('#')).collect();
    let indices: Vec<&str> = rows.iter().map(|r| r.split(' ').next().unwrap()).collect();
    let mut args = vec!["gomoku", "lut"];
    args.extend(&indices);
    let o = run(&args, "");
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().collect::<Vec<_>>(), rows);
}

fn assert_bad(args: &[&str], stdin: &str, needle: &str) {
    let o = run(args, stdin);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(
        err.lines().count(),
        1,
        "{args:?}: one error line, got {err}"
    );
    assert!(err.starts_with("stonelab: error: "), "{err}");
    assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
    assert!(o.stdout.is_empty());
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let t = ["gomoku", "threats"];
    assert_bad(
        &t,
        ".....\n..Q..\n.....\n.....\n.....\n",
        "line 2, column 3",
    );
    assert_bad(
        &t,
        "┌┬┬┬┐\n├┼.┼┤\n├┼┼┼┤\n├┼┼┼┤\n└┴┴┴┘\n",
        "line 2, column 3",
    );
    assert_bad(&t, ".....\n....\n.....\n.....\n.....\n", "line 2, column 5");
    assert_bad(&t, "......\n......\n......\n......\n......\n", "not square");
    assert_bad(&t, "....\n....\n....\n....\n", "outside 5..=20");
    let big = format!("{}\n", ".".repeat(21)).repeat(21);
    assert_bad(&t, &big, "outside 5..=20");
    assert_bad(&t, "h8 i9 h8", "line 1, column 7");
    assert_bad(&t, "h8\ni9 p3", "line 2, column 4");
    assert_bad(&t, "h8 a16", "off the 15x15 board");
    assert_bad(
        &["gomoku", "threats", "--size", "21"],
        "h8",
        "outside 5..=20",
    );
    assert_bad(
        &["gomoku", "threats", "--size", "4"],
        "a1",
        "outside 5..=20",
    );
    assert_bad(
        &["gomoku", "threats", "/nonexistent/board.txt"],
        "",
        "cannot read file",
    );
    assert_bad(&t, "", "empty input");
    assert_bad(&["gomoku", "lut", "21523359"], "", "outside");
}

/// `stonelab gomoku forbidden`: the three kinds of forbidden point in one position, as a diagram
/// with the points marked and as JSON; bad input is one error line.
#[test]
fn forbidden_points_text_and_json() {
    // Row 2: X X X . X X (overline at (6,2)); column 11: three stones and a gap making a double
    // four with row 9's three (at (11,9)); (1,13)-(2,13) with (3,11)-(3,12): a double three at
    // (3,13).
    let rows = [
        "...............",
        "...............",
        "...XXX.XX......",
        "...............",
        "...............",
        "...............",
        "...............",
        "...........X...",
        "...........X...",
        "........XXX....",
        "...........X...",
        "...X...........",
        "...X...........",
        ".XX............",
        "...............",
    ];
    let text = rows.join("\n") + "\n";
    let o = run(&["gomoku", "forbidden", "--format", "json"], &text);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["size"], 15);
    assert_eq!(v["rule"], "renju");
    assert_eq!(v["overline"], serde_json::json!([[6, 2]]));
    assert_eq!(v["double_three"], serde_json::json!([[3, 13]]));
    assert_eq!(v["double_four"], serde_json::json!([[11, 9]]));
    assert_eq!(
        v["forbidden"],
        serde_json::json!([[6, 2], [11, 9], [3, 13]])
    );
    let o = run(&["gomoku", "forbidden"], &text);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[2], "...XXXxXX......");
    assert_eq!(lines[13], ".XXx...........");
    assert!(out.contains("double three: d2"), "{out}");
    assert!(out.contains("overline: g13"), "{out}");
    assert!(out.contains("double four: l6"), "{out}");
    let o = run(&["gomoku", "forbidden", "--rule", "freestyle"], &text);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("renju"));
    assert_bad(&["gomoku", "forbidden"], "h8 h8", "occupied");
    assert_bad(&["gomoku", "forbidden", "--size", "30"], "h8", "size");
}
