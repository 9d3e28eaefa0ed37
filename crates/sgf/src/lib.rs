//! SGF (FF\[4\]) as far as replaying a Go or Gomoku game needs: the main line of the first game tree (its
//! first variation at every branch), node by node, each property with its values unescaped; and
//! the Go value types (points, moves, sizes, reals).
//!
//! The reader makes one pass over the text with a loop and a depth counter, never a recursion,
//! and builds no tree: variations off the main line are checked for well-formedness and skipped.
//! So no input, however long or deeply nested, can exhaust the stack, and the time is linear in
//! the text.
//!
//! ```
//! use stonelab_sgf as sgf;
//! let nodes = sgf::main_line("(;SZ[5]KM[0.5];B[cc](;W[dd])(;W[bb]))").unwrap();
//! assert_eq!(nodes.len(), 3);
//! assert_eq!(nodes[0].value("KM"), Some("0.5"));
//! assert_eq!(nodes[2].value("W"), Some("dd"));
//! assert_eq!(sgf::point("dd"), Some((3, 3)));
//! ```

use std::fmt;

/// One property of a node: its identifier (upper-case letters) and its values, unescaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub id: String,
    pub values: Vec<String>,
}

/// One node of the main line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    pub properties: Vec<Property>,
}

impl Node {
    /// The first value of property `id`, if the node has it.
    #[must_use]
    pub fn value(&self, id: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|p| p.id == id)
            .and_then(|p| p.values.first())
            .map(String::as_str)
    }
}

/// Why a text is not SGF, with the 1-based line where the reader stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed SGF: {what} (line {line})")]
pub struct SgfError {
    pub what: SgfProblem,
    pub line: usize,
}

/// What is wrong with a text that is not SGF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfProblem {
    /// No game tree: the text does not start with `(`.
    NoGameTree,
    /// A character that cannot start anything where it stands.
    Unexpected(char),
    /// A game tree with no node (`()`).
    EmptyTree,
    /// A node after a variation (`(;A[](;B[]);C[])`).
    NodeAfterVariation,
    /// A property identifier without a value.
    NoValue(String),
    /// A value whose `]` never comes.
    UnclosedValue,
    /// The text ends inside a game tree.
    Unclosed,
}

impl fmt::Display for SgfProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfProblem::NoGameTree => {
                f.write_str("no game tree (the text does not start with '(')")
            }
            SgfProblem::Unexpected(c) => write!(f, "unexpected character '{}'", c.escape_default()),
            SgfProblem::EmptyTree => f.write_str("a game tree without a node"),
            SgfProblem::NodeAfterVariation => f.write_str("a node after a variation"),
            SgfProblem::NoValue(id) => write!(f, "property {id} has no value"),
            SgfProblem::UnclosedValue => f.write_str("a property value is not closed with ']'"),
            SgfProblem::Unclosed => f.write_str("the game tree is not closed with ')'"),
        }
    }
}

/// What the reader expects next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// After `(`: a node.
    Node,
    /// After a node: a node, a variation or the end of the tree.
    Any,
    /// After `)`: another variation or the end of the enclosing tree.
    TreeOrEnd,
}

/// The main line of the first game tree of `text`: its nodes from the root, following the first
/// variation at every branch. The whole first tree must be well-formed; text after it is ignored.
pub fn main_line(text: &str) -> Result<Vec<Node>, SgfError> {
    let bytes = text.as_bytes();
    let fail = |what: SgfProblem, at: usize| SgfError {
        what,
        line: 1 + bytes[..at.min(bytes.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count(),
    };
    let mut i = skip_space(bytes, 0);
    if text[i..].starts_with('\u{feff}') {
        i = skip_space(bytes, i + '\u{feff}'.len_utf8());
    }
    if bytes.get(i) != Some(&b'(') {
        return Err(fail(SgfProblem::NoGameTree, i));
    }
    let mut nodes = Vec::new();
    let mut depth = 0usize;
    let mut on_main = true;
    let mut expect = Expect::Node;
    loop {
        i = skip_space(bytes, i);
        let Some(&b) = bytes.get(i) else {
            return Err(fail(SgfProblem::Unclosed, i));
        };
        match b {
            b'(' => {
                if expect == Expect::Node {
                    // `((`: only the collection's first `(` may open without a node before it.
                    if depth > 0 {
                        return Err(fail(SgfProblem::EmptyTree, i));
                    }
                }
                depth += 1;
                expect = Expect::Node;
                i += 1;
            }
            b')' => {
                if expect == Expect::Node {
                    return Err(fail(SgfProblem::EmptyTree, i));
                }
                // The main line ends where its innermost first variation closes.
                on_main = false;
                depth -= 1;
                expect = Expect::TreeOrEnd;
                i += 1;
                if depth == 0 {
                    return Ok(nodes);
                }
            }
            b';' => {
                if expect == Expect::TreeOrEnd {
                    return Err(fail(SgfProblem::NodeAfterVariation, i));
                }
                let (node, next) = read_node(text, i + 1).map_err(|(what, at)| fail(what, at))?;
                if on_main {
                    nodes.push(node);
                }
                expect = Expect::Any;
                i = next;
            }
            _ => {
                let c = text[i..].chars().next().unwrap_or('?');
                return Err(fail(SgfProblem::Unexpected(c), i));
            }
        }
    }
}

/// Index of the first byte at or after `i` that is not white space.
fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// Reads the properties of a node starting at byte `i` (after its `;`); returns the node and
/// the index of the first byte after it.
fn read_node(text: &str, mut i: usize) -> Result<(Node, usize), (SgfProblem, usize)> {
    let bytes = text.as_bytes();
    let mut node = Node::default();
    loop {
        i = skip_space(bytes, i);
        let start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
            i += 1;
        }
        if i == start {
            return Ok((node, i));
        }
        // FF[3] allowed lower-case letters in identifiers, to be ignored.
        let id: String = text[start..i]
            .chars()
            .filter(char::is_ascii_uppercase)
            .collect();
        let mut values = Vec::new();
        loop {
            let j = skip_space(bytes, i);
            if bytes.get(j) != Some(&b'[') {
                break;
            }
            let (value, next) = read_value(text, j + 1).ok_or((SgfProblem::UnclosedValue, j))?;
            values.push(value);
            i = next;
        }
        if values.is_empty() {
            return Err((SgfProblem::NoValue(text[start..i].to_string()), start));
        }
        if id.is_empty() {
            return Err((
                SgfProblem::Unexpected(text[start..].chars().next().unwrap_or('?')),
                start,
            ));
        }
        node.properties.push(Property { id, values });
    }
}

/// Reads a value starting at byte `i` (after its `[`) up to its unescaped `]`; returns it
/// unescaped (`\]` is `]`, `\\` is `\`, an escaped line break is dropped) and the index after the
/// `]`. `None` when the text ends first.
fn read_value(text: &str, i: usize) -> Option<(String, usize)> {
    let mut out = String::new();
    let mut chars = text[i..].char_indices().peekable();
    while let Some((k, c)) = chars.next() {
        match c {
            ']' => return Some((out, i + k + 1)),
            '\\' => match chars.next()? {
                (_, '\r') => {
                    chars.next_if(|&(_, c)| c == '\n');
                }
                (_, '\n') => {
                    chars.next_if(|&(_, c)| c == '\r');
                }
                (_, escaped) => out.push(escaped),
            },
            c => out.push(c),
        }
    }
    None
}

/// An SGF point: (column, row) from the top left, 0-based, `a`..`z` for 0..25 and `A`..`Z` for
/// 26..51. `None` when the value is not two such letters.
#[must_use]
pub fn point(value: &str) -> Option<(usize, usize)> {
    let letter = |b: u8| match b {
        b'a'..=b'z' => Some(usize::from(b - b'a')),
        b'A'..=b'Z' => Some(usize::from(b - b'A') + 26),
        _ => None,
    };
    match value.as_bytes() {
        &[x, y] => Some((letter(x)?, letter(y)?)),
        _ => None,
    }
}

/// The points of a point-list value: one point, or a rectangle `aa:cc` (two corners) as every
/// point in it. `None` when malformed.
#[must_use]
pub fn points(value: &str) -> Option<Vec<(usize, usize)>> {
    match value.split_once(':') {
        None => point(value).map(|p| vec![p]),
        Some((a, b)) => {
            let (a, b) = (point(a)?, point(b)?);
            let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
            let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
            Some(
                (y0..=y1)
                    .flat_map(|y| (x0..=x1).map(move |x| (x, y)))
                    .collect(),
            )
        }
    }
}

/// A move as SGF writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SgfMove {
    /// An empty value. (`tt` is a pass too on boards up to 19x19: that depends on the board, so
    /// it is left to the caller.)
    Pass,
    /// A point, as [`point`] reads it.
    At(usize, usize),
}

/// A move value; `None` when malformed.
#[must_use]
pub fn move_value(value: &str) -> Option<SgfMove> {
    if value.trim().is_empty() {
        return Some(SgfMove::Pass);
    }
    point(value).map(|(x, y)| SgfMove::At(x, y))
}

/// A size value, `N` or `C:R`, as (columns, rows), each 1..=52.
#[must_use]
pub fn size(value: &str) -> Option<(usize, usize)> {
    let number = |t: &str| {
        let t = t.trim();
        if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse::<usize>().ok().filter(|n| (1..=52).contains(n))
    };
    match value.split_once(':') {
        None => number(value).map(|n| (n, n)),
        Some((c, r)) => Some((number(c)?, number(r)?)),
    }
}

/// A real value (`6.5`, `-7`, `+0.5`): digits with an optional sign and fraction; never NaN or
/// an infinity.
#[must_use]
pub fn real(value: &str) -> Option<f64> {
    let t = value.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0
        || whole.len() > 15
        || !all_digits(whole)
        || !all_digits(fraction)
    {
        return None;
    }
    t.parse::<f64>().ok().filter(|k| k.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(nodes: &[Node]) -> Vec<String> {
        nodes
            .iter()
            .map(|n| {
                n.properties
                    .iter()
                    .map(|p| format!("{}[{}]", p.id, p.values.join("][")))
                    .collect::<String>()
            })
            .collect()
    }

    #[test]
    fn the_main_line_follows_first_variations() {
        let nodes = main_line("(;GM[1]SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))").unwrap();
        assert_eq!(
            ids(&nodes),
            ["GM[1]SZ[9]", "B[aa]", "W[bb]", "B[cc]", "W[dd]"]
        );
        let nodes = main_line(" \u{feff}(;C[a \\] b\\\\ c\\\nd]AB[aa][bb]\n;W[])(;B[zz])").unwrap();
        assert_eq!(nodes[0].value("C"), Some("a ] b\\ cd"));
        assert_eq!(ids(&nodes)[1], "W[]");
        assert_eq!(nodes[0].properties[1].values, ["aa", "bb"]);
        // FF[3] identifiers with lower-case letters.
        let nodes = main_line("(;AddBlack[aa];White[bb])").unwrap();
        assert_eq!(ids(&nodes), ["AB[aa]", "W[bb]"]);
    }

    #[test]
    fn malformed_texts_are_refused_with_their_line() {
        for (text, what) in [
            ("", SgfProblem::NoGameTree),
            ("hello", SgfProblem::NoGameTree),
            ("(;B[aa]", SgfProblem::Unclosed),
            ("(;B[aa", SgfProblem::UnclosedValue),
            ("()", SgfProblem::EmptyTree),
            ("(;B[aa]())", SgfProblem::EmptyTree),
            ("(;B[aa](;W[bb]);B[cc])", SgfProblem::NodeAfterVariation),
            ("(;B)", SgfProblem::NoValue("B".into())),
            ("(;B[aa]x)", SgfProblem::NoValue("x".into())),
            ("(;B[aa] ? )", SgfProblem::Unexpected('?')),
            ("(;B[aa](;W[bb]", SgfProblem::Unclosed),
        ] {
            let e = main_line(text).unwrap_err();
            assert_eq!(e.what, what, "{text:?}");
        }
        assert_eq!(main_line("(;B[aa]\n\n;W[bb]?)").unwrap_err().line, 3);
    }

    #[test]
    fn deep_and_long_inputs_need_no_stack() {
        let long = format!("(;SZ[19]{})", ";B[]".repeat(200_000));
        assert_eq!(main_line(&long).unwrap().len(), 200_001);
        let deep = format!(
            "(;SZ[19]{}{})",
            "(;B[aa]".repeat(200_000),
            ")".repeat(200_000)
        );
        assert_eq!(main_line(&deep).unwrap().len(), 200_001);
        let unclosed = format!("(;SZ[19]{}", "(;B[aa]".repeat(200_000));
        assert_eq!(main_line(&unclosed).unwrap_err().what, SgfProblem::Unclosed);
    }

    #[test]
    fn go_values() {
        assert_eq!(point("aa"), Some((0, 0)));
        assert_eq!(point("sA"), Some((18, 26)));
        assert_eq!(point("a"), None);
        assert_eq!(point("a1"), None);
        assert_eq!(points("ab:bc"), Some(vec![(0, 1), (1, 1), (0, 2), (1, 2)]));
        assert_eq!(points("bc:ab").unwrap().len(), 4);
        assert_eq!(move_value(""), Some(SgfMove::Pass));
        assert_eq!(move_value("cd"), Some(SgfMove::At(2, 3)));
        assert_eq!(move_value("c"), None);
        assert_eq!(size("19"), Some((19, 19)));
        assert_eq!(size("7:5"), Some((7, 5)));
        assert_eq!(size("0"), None);
        assert_eq!(size("53"), None);
        assert_eq!(real("6.5"), Some(6.5));
        assert_eq!(real("-7"), Some(-7.0));
        assert_eq!(real(" 0.5 "), Some(0.5));
        for bad in ["", "nan", "inf", "1e400", "1e5", ".", "+", "x", "1.2.3"] {
            assert_eq!(real(bad), None, "{bad}");
        }
    }
}
