//! `stonelab go eyes`: text and JSON output, colour selection, stdin, and input errors (exit 2).

mod common;

use std::process::Output;

fn run(args: &[&str], stdin: &str) -> Output {
    common::stonelab_with_input(&[&["go", "eyes"], args].concat(), stdin)
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Black owns the left, White the right of a 4x6 rectangle: Black has a corner eye and a centre
/// eye, White an edge eye and a centre eye.
const DIAGRAM: &str = "\
.XXO.O
XXXOOO
X.XO.O
XXXOOO
";

#[test]
fn text_marks_both_colours() {
    let o = run(&["-"], DIAGRAM);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "eXXOeO\nXXXOOO\nXeXOeO\nXXXOOO\n");
}

#[test]
fn json_lists_sorted_by_row_then_column() {
    let o = run(&["--format", "json", "-"], DIAGRAM);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"rows\":4,\"cols\":6,\"black\":[[0,0],[1,2]],\"white\":[[4,0],[4,2]]}\n"
    );
}

#[test]
fn colour_selection_empties_the_other_list() {
    let o = run(&["--colour", "white", "--format", "json", "-"], DIAGRAM);
    assert_eq!(
        stdout(&o),
        "{\"rows\":4,\"cols\":6,\"black\":[],\"white\":[[4,0],[4,2]]}\n"
    );
    let o = run(&["--colour", "black", "-"], DIAGRAM);
    assert_eq!(stdout(&o), "eXXO.O\nXXXOOO\nXeXO.O\nXXXOOO\n");
}

#[test]
fn reads_a_file_and_crlf() {
    let path = std::env::temp_dir().join(format!("stonelab_eyes_{}.txt", std::process::id()));
    std::fs::write(&path, DIAGRAM.replace('\n', "\r\n")).unwrap();
    let o = run(&[path.to_str().unwrap()], "");
    std::fs::remove_file(&path).ok();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "eXXOeO\nXXXOOO\nXeXOeO\nXXXOOO\n");
}

#[test]
fn single_point_board_is_an_eye_of_both() {
    let o = run(&["--format", "json", "-"], ".\n");
    assert_eq!(
        stdout(&o),
        "{\"rows\":1,\"cols\":1,\"black\":[[0,0]],\"white\":[[0,0]]}\n"
    );
}

#[test]
fn bad_input_is_a_clear_error_with_exit_2() {
    let cases: [(&str, &str); 5] = [
        ("X.O\nXX\n", "line 2"),
        ("X.O\nX?O\n", "line 2, column 2"),
        (&format!("{}\n", ".".repeat(20)), "at most 19x19"),
        ("", "empty diagram"),
        ("\n\n", "empty diagram"),
    ];
    for (input, want) in cases {
        let o = run(&["-"], input);
        assert_eq!(o.status.code(), Some(2), "input {input:?}");
        let err = stderr(&o);
        assert!(err.starts_with("stonelab: error: "), "{err}");
        assert!(err.contains(want), "input {input:?}: {err}");
        assert!(stdout(&o).is_empty());
    }
    let tall = ".\n".repeat(20);
    let o = run(&["-"], &tall);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("20x1"));
    let o = run(&["/nonexistent/board.txt"], "");
    assert_eq!(o.status.code(), Some(2));
}
