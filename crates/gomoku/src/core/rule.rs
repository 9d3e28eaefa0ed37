//! The winning rule: freestyle (five or more in a row wins) or standard (exactly five wins; an overline
//! neither wins nor counts as a five point).

use std::fmt;
use std::str::FromStr;

/// Which rows of stones win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// Five or more stones in a row win.
    Freestyle,
    /// Exactly five stones in a row win; six or more (an overline) do not.
    Standard,
}

impl Rule {
    /// Both rules, in a fixed order.
    pub const ALL: [Rule; 2] = [Rule::Freestyle, Rule::Standard];

    /// The lower-case name used on the command line and in JSON.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
        }
    }

    /// Whether a run of `len` stones of one colour wins under this rule.
    #[must_use]
    pub const fn is_win(self, len: usize) -> bool {
        match self {
            Rule::Freestyle => len >= 5,
            Rule::Standard => len == 5,
        }
    }

    /// How many cells on each side of a cell decide its per-direction pattern: 4 for freestyle, 5 for
    /// standard (the exactly-five check must see the cell just past the five).
    #[must_use]
    pub const fn reach(self) -> usize {
        match self {
            Rule::Freestyle => 4,
            Rule::Standard => 5,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a rule name that is neither `freestyle` nor `standard`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule '{0}' (expected freestyle or standard)")]
pub struct UnknownRule(pub String);

impl FromStr for Rule {
    type Err = UnknownRule;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "freestyle" => Ok(Rule::Freestyle),
            "standard" => Ok(Rule::Standard),
            _ => Err(UnknownRule(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for rule in Rule::ALL {
            assert_eq!(rule.name().parse::<Rule>(), Ok(rule));
        }
        assert!("renju".parse::<Rule>().is_err());
    }

    #[test]
    fn overline_wins_only_in_freestyle() {
        assert!(Rule::Freestyle.is_win(6));
        assert!(!Rule::Standard.is_win(6));
        assert!(Rule::Standard.is_win(5));
        assert!(!Rule::Freestyle.is_win(4));
    }
}
