//! The GTP clock as pure arithmetic: from `time_settings` and the last `time_left` of a colour,
//! how long one move may think ([`Clock::slice`]), and how that combines with `--playouts` and
//! `--move-ms` ([`move_budget`]). Nothing here reads the time of day.

use std::time::Duration;

use stonelab_go::Color;

/// Time per move when neither `--playouts`, `--move-ms` nor GTP time settings say otherwise.
pub const DEFAULT_MOVE_MS: u64 = 1000;
/// Share of the computed time slice actually used, and a fixed reserve per move for the answer
/// to travel (the safety margin of the clock).
pub const TIME_SHARE: f64 = 0.8;
pub const TIME_RESERVE: Duration = Duration::from_millis(100);
/// Moves still to come, for sharing out main time: at least this many...
pub const MIN_MOVES_LEFT: f64 = 20.0;
/// The least time a move gets by the clock, however little is left.
pub const MIN_SLICE: Duration = Duration::from_millis(10);

/// The longest time a move may get from the clock.
pub const LONGEST_SLICE: Duration = Duration::from_secs(86_400);

/// GTP `time_settings` (Canadian byo-yomi): main time and byo-yomi time in seconds, byo-yomi
/// stones. With `periods` (KGS's `kgs-time_settings byoyomi`, Japanese byo-yomi) `stones` counts
/// periods of `byo_yomi` seconds, one move each, and `time_left` gives the current period's time
/// and the periods left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeSettings {
    pub main: f64,
    pub byo_yomi: f64,
    pub stones: u32,
    pub periods: bool,
}

impl TimeSettings {
    /// GTP's `time_settings MAIN BYO STONES`.
    #[must_use]
    pub fn canadian(main: f64, byo_yomi: f64, stones: u32) -> Self {
        TimeSettings {
            main,
            byo_yomi,
            stones,
            periods: false,
        }
    }
}

/// GTP clocks: the settings, and the last `time_left` (seconds, stones) per colour.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clock {
    settings: Option<TimeSettings>,
    left: [Option<(f64, u32)>; 2],
}

impl Clock {
    /// `time_settings`: new settings; what `time_left` said before is forgotten.
    pub fn set(&mut self, settings: TimeSettings) {
        self.settings = Some(settings);
        self.forget_time_left();
    }

    /// `time_left`: `time` seconds left to `color`, `stones` stones to play in them (0 in main
    /// time).
    pub fn time_left(&mut self, color: Color, time: f64, stones: u32) {
        self.left[color.index()] = Some((time, stones));
    }

    /// A new game: the settings stay, the times left go.
    pub fn forget_time_left(&mut self) {
        self.left = [None; 2];
    }

    /// The time one move of `color` may take by the clock on a board with `empty_points` empty
    /// points, `None` when there is no limit. Main time is shared over the moves to come (a third
    /// of the empty points, at least [`MIN_MOVES_LEFT`]), byo-yomi over its stones; of that,
    /// [`TIME_SHARE`] less [`TIME_RESERVE`] is used, never less than [`MIN_SLICE`].
    #[must_use]
    pub fn slice(&self, color: Color, empty_points: u32) -> Option<Duration> {
        let TimeSettings {
            main,
            byo_yomi: byo,
            stones,
            periods,
        } = self.settings?;
        // GTP: byo-yomi time without stones means no limit; no time at all is read the same.
        if (byo > 0.0 && stones == 0) || (main == 0.0 && byo == 0.0) {
            return None;
        }
        let moves_left = (f64::from(empty_points) / 3.0).max(MIN_MOVES_LEFT);
        let seconds = match self.left[color.index()] {
            // In Japanese byo-yomi: `t` seconds left of the current period, for one move.
            Some((t, s)) if s > 0 && periods => t,
            // In byo-yomi: `t` seconds for `s` stones.
            Some((t, s)) if s > 0 => t / f64::from(s),
            // In main time (or absolute time): share what is left over the moves to come.
            Some((t, _)) => t / moves_left,
            None if main > 0.0 => main / moves_left,
            None if periods => byo,
            None => byo / f64::from(stones.max(1)),
        };
        // Times are finite but may be huge (`time_settings 1e300 0 0`): a slice is at most a day.
        let usable = Duration::try_from_secs_f64((seconds * TIME_SHARE).max(0.0))
            .unwrap_or(LONGEST_SLICE)
            .min(LONGEST_SLICE);
        Some(usable.saturating_sub(TIME_RESERVE).max(MIN_SLICE))
    }
}

/// How long a move may search: with `--playouts` (`playouts` set) only the clock's `slice` limits
/// it; otherwise also `--move-ms` (`move_ms`, default [`DEFAULT_MOVE_MS`]), the shorter of the
/// two. `None`: no time limit.
#[must_use]
pub fn move_budget(
    slice: Option<Duration>,
    playouts: Option<u64>,
    move_ms: Option<u64>,
) -> Option<Duration> {
    if playouts.is_some() {
        return slice;
    }
    let fixed = Duration::from_millis(move_ms.unwrap_or(DEFAULT_MOVE_MS));
    Some(slice.map_or(fixed, |d| d.min(fixed)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(main: f64, byo_yomi: f64, stones: u32) -> Option<TimeSettings> {
        Some(TimeSettings::canadian(main, byo_yomi, stones))
    }

    /// Black's slice on an empty 9x9 board.
    fn slice(settings: Option<TimeSettings>, left: Option<(f64, u32)>) -> Option<Duration> {
        let clock = Clock {
            settings,
            left: [left, None],
        };
        clock.slice(Color::Black, 81)
    }

    #[test]
    fn clock_slices() {
        assert_eq!(slice(None, None), None);
        assert_eq!(slice(settings(0.0, 5.0, 0), None), None);
        assert_eq!(slice(settings(0.0, 0.0, 0), None), None);
        for (set, left, ms) in [
            // One second of byo-yomi per stone: 80% of it less the 100 ms reserve.
            (settings(0.0, 1.0, 1), None, 700),
            (settings(60.0, 10.0, 5), Some((10.0, 5)), 1500),
            // Main time: 81 empty points, 27 moves to come (at least 20).
            (settings(27.0, 0.0, 0), None, 700),
            // Almost out of time: never below 10 ms.
            (settings(0.0, 1.0, 1), Some((0.05, 1)), 10),
        ] {
            let expect = Some(Duration::from_millis(ms));
            assert_eq!(slice(set, left), expect, "{set:?} {left:?}");
        }
    }

    #[test]
    fn main_time_is_shared_over_at_least_twenty_moves() {
        // 12 empty points would be 4 moves to come: 20 are assumed, 1 s each of 20 s.
        let clock = Clock {
            settings: settings(20.0, 0.0, 0),
            left: [None; 2],
        };
        assert_eq!(
            clock.slice(Color::White, 12),
            Some(Duration::from_millis(700))
        );
    }

    #[test]
    fn settings_and_time_left() {
        let mut clock = Clock::default();
        clock.set(TimeSettings::canadian(0.0, 10.0, 5));
        assert_eq!(
            clock.slice(Color::White, 81),
            Some(Duration::from_millis(1500))
        );
        clock.time_left(Color::White, 2.0, 1);
        assert_eq!(
            clock.slice(Color::White, 81),
            Some(Duration::from_millis(1500))
        );
        clock.time_left(Color::White, 1.0, 2);
        assert_eq!(
            clock.slice(Color::White, 81),
            Some(Duration::from_millis(300))
        );
        // Black's clock is its own; a new game forgets both.
        assert_eq!(
            clock.slice(Color::Black, 81),
            Some(Duration::from_millis(1500))
        );
        clock.forget_time_left();
        assert_eq!(
            clock.slice(Color::White, 81),
            Some(Duration::from_millis(1500))
        );
    }

    #[test]
    fn budgets() {
        let ms = Duration::from_millis;
        // --playouts: only the clock limits the search.
        assert_eq!(move_budget(None, Some(300), None), None);
        assert_eq!(move_budget(Some(ms(700)), Some(300), None), Some(ms(700)));
        // Timed search: --move-ms (default 1000), shortened by the clock, never lengthened.
        assert_eq!(move_budget(None, None, None), Some(ms(DEFAULT_MOVE_MS)));
        assert_eq!(move_budget(None, None, Some(250)), Some(ms(250)));
        assert_eq!(move_budget(Some(ms(700)), None, None), Some(ms(700)));
        assert_eq!(move_budget(Some(ms(700)), None, Some(5000)), Some(ms(700)));
        assert_eq!(move_budget(Some(ms(700)), None, Some(300)), Some(ms(300)));
    }

    #[test]
    fn japanese_byo_yomi_gives_each_move_a_period() {
        let mut clock = Clock::default();
        // 5 periods of 10 s: each move may use a whole period, not a fifth of one.
        clock.set(TimeSettings {
            main: 0.0,
            byo_yomi: 10.0,
            stones: 5,
            periods: true,
        });
        assert_eq!(
            clock.slice(Color::Black, 81),
            Some(Duration::from_millis(7900))
        );
        // KGS's time_left in byo-yomi: the current period's time, then the periods left.
        clock.time_left(Color::Black, 4.0, 3);
        assert_eq!(
            clock.slice(Color::Black, 81),
            Some(Duration::from_millis(3100))
        );
        // Main time still running: shared over the moves to come as before.
        clock.time_left(Color::Black, 270.0, 0);
        assert_eq!(
            clock.slice(Color::Black, 81),
            Some(Duration::from_millis(7900))
        );
    }
}
