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

/// What an endless game (play that never ends, as a cycle can) is worth: the convention that turns
/// a state's bounds into its value.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Cycles {
    /// No convention: the value is the interval `[lo, hi]` as solved.
    #[default]
    Interval,
    /// An endless game scores 0 before komi (van der Werf's convention for basic ko).
    Tie,
}

impl Bounds {
    /// The value when an endless game scores 0: `lo` when `lo > 0`, `hi` when `hi < 0`, else 0.
    ///
    /// Why: for a threshold `t > 0`, an endless game (0) falls short, so Black reaches `t` only by
    /// forcing an end worth `t` or more, which he can exactly when `t <= lo`; for `t <= 0` an
    /// endless game reaches `t`, so White keeps Black below `t` only by forcing an end below `t`,
    /// which she can exactly when `hi < t`. The value is the largest `t` Black reaches: `lo` if
    /// `lo > 0`; otherwise every `t <= 0` is reached unless `hi < 0`, when the largest is `hi`.
    /// (docs/go-solver.md; checked against threshold attractors in [`crate::tie`].)
    #[must_use]
    pub const fn tie_value(self) -> i16 {
        if self.lo > 0 {
            self.lo
        } else if self.hi < 0 {
            self.hi
        } else {
            0
        }
    }

    /// The bounds under a cycle convention: unchanged for [`Cycles::Interval`], the exact
    /// [`Bounds::tie_value`] for [`Cycles::Tie`].
    #[must_use]
    pub const fn under(self, cycles: Cycles) -> Bounds {
        match cycles {
            Cycles::Interval => self,
            Cycles::Tie => Bounds::end(self.tie_value()),
        }
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

    #[test]
    fn tie_values() {
        let b = |lo, hi| Bounds { lo, hi };
        assert_eq!(b(1, 16).tie_value(), 1);
        assert_eq!(b(-4, 4).tie_value(), 0);
        assert_eq!(b(-7, -2).tie_value(), -2);
        assert_eq!(b(0, 3).tie_value(), 0);
        assert_eq!(b(-3, 0).tie_value(), 0);
        assert_eq!(Bounds::end(9).tie_value(), 9);
        assert_eq!(Bounds::end(-9).tie_value(), -9);
        assert_eq!(Bounds::UNKNOWN.tie_value(), 0);
        assert_eq!(b(NO_LO, -3).tie_value(), -3);
        assert_eq!(b(5, NO_HI).tie_value(), 5);
        assert_eq!(b(1, 16).under(Cycles::Tie), Bounds::end(1));
        assert_eq!(b(1, 16).under(Cycles::Interval), b(1, 16));
    }
}
