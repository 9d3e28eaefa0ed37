//! Elo differences from match results.

/// Elo difference and its 95% interval; `None` for an infinite bound.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Elo {
    /// The score fraction `(W + D/2) / N`.
    pub score: f64,
    pub difference: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl Elo {
    /// From wins, draws and losses: `-400 log10(1/p - 1)` with a 95% interval from the Wilson score
    /// interval of `p`.
    pub fn of(wins: u32, draws: u32, losses: u32) -> Elo {
        let n = f64::from(wins + losses + draws);
        let p = (f64::from(wins) + f64::from(draws) / 2.0) / n;
        let z = 1.96f64;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        Elo {
            score: p,
            difference: elo(p),
            low: elo(centre - half),
            high: elo(centre + half),
        }
    }

    /// `+D [L, H]` with `+inf`/`-inf` for unbounded figures.
    pub fn interval_text(&self) -> String {
        format!(
            "{} [{}, {}]",
            fmt_elo(
                self.difference,
                if self.score > 0.5 { "+inf" } else { "-inf" }
            ),
            fmt_elo(self.low, "-inf"),
            fmt_elo(self.high, "+inf")
        )
    }
}

fn elo(p: f64) -> Option<f64> {
    (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10())
}

/// An Elo figure with a sign, or `infinite` for an unbounded one.
pub fn fmt_elo(e: Option<f64>, infinite: &str) -> String {
    e.map_or(infinite.to_string(), |v| format!("{v:+.0}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_scores_are_zero_with_a_symmetric_interval() {
        let e = Elo::of(5, 0, 5);
        assert_eq!(e.difference, Some(0.0));
        let (low, high) = (e.low.unwrap(), e.high.unwrap());
        assert!(low < -100.0 && high > 100.0);
        assert!((low + high).abs() < 1e-9);
        assert_eq!(Elo::of(3, 4, 3).difference, Some(0.0));
    }

    #[test]
    fn a_clean_sweep_has_no_upper_bound() {
        let e = Elo::of(4, 0, 0);
        assert_eq!(e.difference, None);
        assert!(e.low.unwrap() > 0.0 && e.high.is_none());
        assert_eq!(e.interval_text().split(' ').next(), Some("+inf"));
    }

    #[test]
    fn three_to_one_is_about_plus_191() {
        // p = 0.75: -400 log10(1/3) = 190.85.
        let e = Elo::of(3, 0, 1);
        assert!((e.difference.unwrap() - 190.85).abs() < 0.01);
    }
}
