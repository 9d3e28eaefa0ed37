//! The evaluation's threat term: one weight for each combination of threats the two sides hold at
//! once, which the sum over cells ([`super::weights`]) cannot express (a four-making cell is worth
//! more when its owner also has a three elsewhere, and far more when it is the side to move).
//!
//! Each empty cell has, per colour, a threat [`Kind`] from its four direction classes. The position
//! keeps how many cells of each kind each colour has; the threat mask of the side to move
//! ([`mask`]) has one bit per fact below, and [`THREAT_FILE`] gives each mask's weight (fitted by
//! `stonelab gomoku tune`, with the cell weights, on labelled positions).
//!
//! | bit | name              | meaning                                                        |
//! |-----|-------------------|----------------------------------------------------------------|
//! | 0   | `opp-five`        | the opponent has a cell that makes five                        |
//! | 1   | `own-open-four`   | the side to move has a cell that makes a straight four         |
//! | 2   | `opp-open-four`   | the opponent has one (an open three on the board)              |
//! | 3   | `own-four-plus`   | a cell of the side to move's makes a four and a two or three   |
//! | 4   | `own-four`        | a cell of the side to move's makes a four alone                |
//! | 5   | `own-three-plus`  | a cell makes an open three and another two or three            |
//! | 6   | `own-three`       | a cell makes an open three alone                               |
//! | 7-10| `opp-...`         | bits 3-6 for the opponent                                      |
//!
//! The file's format: `#` comments, then lines `NAMES WEIGHT`, `NAMES` the mask's bit names joined
//! by `+` (`none` for no bit), each mask at most once; masks not listed weigh 0.

use std::sync::OnceLock;

use super::classes::Class;

/// The number of masks.
pub const THREAT_MASKS: usize = 1 << 11;

/// The compiled-in threat weights.
pub const THREAT_FILE: &str = include_str!("../../data/threat-weights.txt");

/// The bits' names, bit 0 first.
pub const BIT_NAMES: [&str; 11] = [
    "opp-five",
    "own-open-four",
    "opp-open-four",
    "own-four-plus",
    "own-four",
    "own-three-plus",
    "own-three",
    "opp-four-plus",
    "opp-four",
    "opp-three-plus",
    "opp-three",
];

/// What a stone of one colour on an empty cell makes, for the threat mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// No four and no open three.
    None = 0,
    /// One four (blocked), and a two, a blocked three or an open three in another direction.
    FourPlus = 1,
    /// One four (blocked) and nothing of weight besides.
    Four = 2,
    /// An open three, and a two or another three in another direction (no four).
    ThreePlus = 3,
    /// One open three and nothing of weight besides.
    Three = 4,
    /// A five.
    Five = 5,
    /// A straight four or two fours (no five).
    OpenFour = 6,
}

/// The number of kinds besides [`Kind::None`]; a position counts each side's cells of each kind
/// (at `Kind as usize - 1`).
pub const KINDS: usize = 6;

/// The kind of a cell with direction classes `ks` (any order).
#[must_use]
pub fn kind(ks: [Class; 4]) -> Kind {
    let mut sorted = ks;
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let [a, b, ..] = sorted;
    let support = b >= Class::F2;
    if a == Class::Five {
        Kind::Five
    } else if a == Class::F4 || b >= Class::B4 {
        Kind::OpenFour
    } else if a == Class::B4 {
        if support {
            Kind::FourPlus
        } else {
            Kind::Four
        }
    } else if a.is_three() {
        if support {
            Kind::ThreePlus
        } else {
            Kind::Three
        }
    } else {
        Kind::None
    }
}

/// The mask for the side to move, from each side's count of cells of each kind (at
/// `Kind as usize - 1`).
#[inline]
#[must_use]
pub fn mask(own: &[u16; KINDS], opp: &[u16; KINDS]) -> usize {
    const FIVE: usize = Kind::Five as usize - 1;
    const OPEN_FOUR: usize = Kind::OpenFour as usize - 1;
    let mut m = usize::from(opp[FIVE] != 0)
        | usize::from(own[OPEN_FOUR] != 0) << 1
        | usize::from(opp[OPEN_FOUR] != 0) << 2;
    for k in 0..4 {
        m |= usize::from(own[k] != 0) << (3 + k);
        m |= usize::from(opp[k] != 0) << (7 + k);
    }
    m
}

/// The compiled-in threat weights under renju with Black to move (the masks leave out Black's
/// forbidden cells; masks not listed weigh 0).
pub const THREAT_RENJU_BLACK_FILE: &str = include_str!("../../data/threat-weights-renju-black.txt");

/// The compiled-in threat weights under renju with White to move.
pub const THREAT_RENJU_WHITE_FILE: &str = include_str!("../../data/threat-weights-renju-white.txt");

static WEIGHTS: OnceLock<Vec<i32>> = OnceLock::new();
static RENJU_BLACK: OnceLock<Vec<i32>> = OnceLock::new();
static RENJU_WHITE: OnceLock<Vec<i32>> = OnceLock::new();

/// The threat weights with side to move `c` under `rule`: the shared table but under renju, where
/// each side to move has one of its own.
#[must_use]
pub fn table_for(rule: crate::Rule, c: crate::Color) -> &'static [i32] {
    if rule != crate::Rule::Renju {
        return table();
    }
    let (lock, file, name) = renju_table(c);
    lock.get_or_init(|| parse(file).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// [`replace`] for the renju table of side to move `c`.
///
/// # Errors
/// The text does not parse, or the table has been read already.
pub fn replace_renju(c: crate::Color, text: &str) -> Result<(), String> {
    renju_table(c)
        .0
        .set(parse(text)?)
        .map_err(|_| "the weights were read before they could be replaced".to_string())
}

/// The renju table of side to move `c`: its cell, compiled-in text and file name.
fn renju_table(c: crate::Color) -> (&'static OnceLock<Vec<i32>>, &'static str, &'static str) {
    match c {
        crate::Color::Black => (
            &RENJU_BLACK,
            THREAT_RENJU_BLACK_FILE,
            "threat-weights-renju-black.txt",
        ),
        crate::Color::White => (
            &RENJU_WHITE,
            THREAT_RENJU_WHITE_FILE,
            "threat-weights-renju-white.txt",
        ),
    }
}

/// The weights, one per mask: the compiled-in file's, or those given to [`replace`].
#[must_use]
pub fn table() -> &'static [i32] {
    WEIGHTS.get_or_init(|| parse(THREAT_FILE).unwrap_or_else(|e| panic!("threat-weights.txt: {e}")))
}

/// Uses the weights in `text` (the file's format) instead of the compiled-in file
/// (`pbrain-stonelab --threat-weights`); must come before anything reads them.
///
/// # Errors
/// The text does not parse ([`parse`]), or the weights have been read already.
pub fn replace(text: &str) -> Result<(), String> {
    WEIGHTS
        .set(parse(text)?)
        .map_err(|_| "the weights were read before they could be replaced".to_string())
}

/// The name of `mask` in the file's format.
#[must_use]
pub fn name(mask: usize) -> String {
    let names: Vec<&str> = (0..BIT_NAMES.len())
        .filter(|b| mask >> b & 1 != 0)
        .map(|b| BIT_NAMES[b])
        .collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join("+")
    }
}

/// The mask named `name`, if it is one.
#[must_use]
pub fn mask_named(name: &str) -> Option<usize> {
    if name == "none" {
        return Some(0);
    }
    let mut m = 0;
    for word in name.split('+') {
        let b = BIT_NAMES.iter().position(|n| *n == word)?;
        if m >> b & 1 != 0 {
            return None;
        }
        m |= 1 << b;
    }
    Some(m)
}

/// Reads a threat-weights file: one weight per mask (0 where not listed).
///
/// # Errors
/// A line that does not parse, a weight outside -32767..=32767, or a mask given twice.
pub fn parse(text: &str) -> Result<Vec<i32>, String> {
    let mut out: Vec<Option<i32>> = vec![None; THREAT_MASKS];
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [names, value] = words[..] else {
            return Err(format!("line {}: expected `NAMES WEIGHT`", n + 1));
        };
        let m = mask_named(names)
            .ok_or_else(|| format!("line {}: `{names}` is not a threat mask", n + 1))?;
        let v = match value.parse::<i16>() {
            Ok(v) if v != i16::MIN => i32::from(v),
            _ => {
                return Err(format!(
                    "line {}: `{value}` is not an integer in -32767..=32767",
                    n + 1
                ))
            }
        };
        if out[m].replace(v).is_some() {
            return Err(format!("line {}: mask `{names}` given twice", n + 1));
        }
    }
    Ok(out.into_iter().map(Option::unwrap_or_default).collect())
}

/// Writes `weights` (one per mask) in the file's format after the `header` comment lines, leaving
/// out the masks of weight 0.
#[must_use]
pub fn format(header: &[String], weights: &[i32]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    for h in header {
        let _ = writeln!(s, "# {h}");
    }
    for (m, w) in weights.iter().enumerate() {
        if *w != 0 {
            let _ = writeln!(s, "{} {w}", name(m));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use Class::*;

    #[test]
    fn kinds_of_examples() {
        assert_eq!(kind([B4, Dead, Dead, Dead]), Kind::Four);
        assert_eq!(kind([B1, B4, B2, Dead]), Kind::Four);
        assert_eq!(kind([F2, B4, Dead, Dead]), Kind::FourPlus);
        assert_eq!(kind([F3, Dead, B4, Dead]), Kind::FourPlus);
        assert_eq!(kind([B4, B4, Dead, Dead]), Kind::OpenFour);
        assert_eq!(kind([F4, Dead, Dead, Dead]), Kind::OpenFour);
        assert_eq!(kind([Five, F3, Dead, Dead]), Kind::Five);
        assert_eq!(kind([F3, Dead, Dead, B2]), Kind::Three);
        assert_eq!(kind([F3S, Dead, Dead, F1]), Kind::Three);
        assert_eq!(kind([F3, B3, Dead, Dead]), Kind::ThreePlus);
        assert_eq!(kind([F3, F3S, Dead, Dead]), Kind::ThreePlus);
        assert_eq!(kind([B3, F2, F2, Dead]), Kind::None);
    }

    #[test]
    fn names_round_trip() {
        for m in 0..THREAT_MASKS {
            assert_eq!(mask_named(&name(m)), Some(m));
        }
        assert_eq!(mask_named("own-four+own-four"), None);
        assert_eq!(mask_named("own-fours"), None);
        let (own, opp) = ([0, 2, 0, 0, 0, 0], [0, 0, 0, 1, 0, 3]);
        assert_eq!(name(mask(&own, &opp)), "opp-open-four+own-four+opp-three");
        assert_eq!(name(mask(&opp, &own)), "own-open-four+own-three+opp-four");
    }

    #[test]
    fn the_compiled_in_file_parses_and_round_trips() {
        let w = parse(THREAT_FILE).expect("valid");
        assert_eq!(parse(&format(&[], &w)), Ok(w));
    }

    #[test]
    fn bad_files_are_refused() {
        assert!(parse("own-four 1\nown-four 2\n").is_err());
        assert!(parse("own-fours 1\n").is_err());
        assert!(parse("own-four\n").is_err());
        assert!(parse("own-four 40000\n").is_err());
        assert_eq!(parse("# c\n\nnone 3\n").map(|w| w[0]), Ok(3));
    }
}
