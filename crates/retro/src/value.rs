//! State values: the pair of bounds `lo` (what Black can force) and `hi` (what White can force).

use serde::{Deserialize, Serialize};

/// `lo` of a state from which Black cannot force the game to end at all.
pub const NO_LO: i16 = i16::MIN;
/// `hi` of a state from which White cannot force the game to end at all.
pub const NO_HI: i16 = i16::MAX;

/// The two values of a state, scores from Black's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bounds {
    /// The best score Black can force the game to end with ([`NO_LO`] if none).
    pub lo: i16,
    /// The best score White can force the game to end with ([`NO_HI`] if none).
    pub hi: i16,
}

impl Bounds {
    /// Where every state starts: nothing is forced yet.
    pub const UNKNOWN: Bounds = Bounds {
        lo: NO_LO,
        hi: NO_HI,
    };

    /// The bounds of the end of the game with `score`.
    #[must_use]
    pub const fn end(score: i16) -> Bounds {
        Bounds {
            lo: score,
            hi: score,
        }
    }

    /// Whether the value is exact (`lo == hi`).
    #[must_use]
    pub const fn is_exact(&self) -> bool {
        self.lo == self.hi
    }
}

impl std::fmt::Display for Bounds {
    /// `+9`, `0`, `-3` when exact; `[lo,hi]` otherwise, with `-inf`/`+inf` for unforced ends.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn one(v: i16) -> String {
            match v {
                NO_LO => "-inf".to_string(),
                NO_HI => "+inf".to_string(),
                v if v > 0 => format!("+{v}"),
                v => v.to_string(),
            }
        }
        if self.is_exact() {
            f.write_str(&one(self.lo))
        } else {
            write!(f, "[{},{}]", one(self.lo), one(self.hi))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display() {
        assert_eq!(Bounds::end(9).to_string(), "+9");
        assert_eq!(Bounds::end(0).to_string(), "0");
        assert_eq!(Bounds { lo: -1, hi: 2 }.to_string(), "[-1,+2]");
        assert_eq!(Bounds::UNKNOWN.to_string(), "[-inf,+inf]");
    }
}
