//! The winning rule: freestyle (five or more in a row wins), standard (exactly five wins; an overline
//! neither wins nor counts as a five point) or renju (Black wins by exactly five, White by five or more;
//! Black's forbidden points, double-three, double-four and overline, are in [`crate::renju`]).

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// Which rows of stones win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// Five or more stones in a row win.
    Freestyle,
    /// Exactly five stones in a row win; six or more (an overline) do not.
    Standard,
    /// Renju (RIF rules as Gomocup plays them): Black wins by exactly five and may not play a
    /// double-three, a double-four or an overline; White wins by five or more.
    Renju,
}

impl Rule {
    /// Every rule, in a fixed order (the order of [`Rule::index`]).
    pub const ALL: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

    /// The rule's place in [`Rule::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case name used on the command line and in JSON.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }

    /// Whether a run of `len` stones of colour `c` wins under this rule.
    #[must_use]
    pub const fn is_win(self, len: usize, c: Color) -> bool {
        if self.exact_five(c) {
            len == 5
        } else {
            len >= 5
        }
    }

    /// Whether colour `c` wins only by exactly five (an overline is no five for it).
    #[must_use]
    pub const fn exact_five(self, c: Color) -> bool {
        match self {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => matches!(c, Color::Black),
        }
    }

    /// The number of the rule in Gomocup's `INFO rule` bit field: 0 freestyle, 1 standard (exactly
    /// five), 4 renju.
    #[must_use]
    pub const fn gomocup_bits(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
        }
    }

    /// How many cells on each side of a cell decide its per-direction pattern: 4 for freestyle, 5 for
    /// standard and renju (the exactly-five check must see the cell just past the five).
    #[must_use]
    pub const fn reach(self) -> usize {
        match self {
            Rule::Freestyle => 4,
            Rule::Standard | Rule::Renju => 5,
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
#[error("unknown rule '{0}' (expected freestyle, standard or renju)")]
pub struct UnknownRule(pub String);

impl FromStr for Rule {
    type Err = UnknownRule;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "freestyle" => Ok(Rule::Freestyle),
            "standard" => Ok(Rule::Standard),
            "renju" => Ok(Rule::Renju),
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
        assert!("caro".parse::<Rule>().is_err());
    }

    #[test]
    fn overline_wins_only_in_freestyle_and_for_white_in_renju() {
        for c in Color::ALL {
            assert!(Rule::Freestyle.is_win(6, c));
            assert!(!Rule::Standard.is_win(6, c));
            assert!(Rule::Standard.is_win(5, c));
            assert!(!Rule::Freestyle.is_win(4, c));
            assert!(Rule::Renju.is_win(5, c));
        }
        assert!(Rule::Renju.is_win(6, Color::White));
        assert!(!Rule::Renju.is_win(6, Color::Black));
    }
}
