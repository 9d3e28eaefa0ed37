//! Time control for the Gomocup protocol: what the manager said about time and memory
//! ([`Clock`]), and from it the milliseconds for one move and the transposition-table size. Pure
//! functions, no clock read here.

use super::params::{
    DEFAULT_TURN_MS, EMPTIES_PER_MOVE, FAST_TURN_MS, FIXED_MEMORY, HARD_SHARES, LIMITED_TABLE,
    MARGIN_MS, MIN_MOVES_LEFT, MIN_MOVE_MS, MIN_TURN_TABLE, SPARE_SHARE,
    TABLE_BYTES_PER_TURN_SECOND, TURN_USE,
};

/// The time one move gets, in milliseconds: the search aims at `soft_ms` (it starts no new
/// iteration once that has passed, stretched when the best move keeps changing and shrunk while
/// it stays the same) and never passes `hard_ms`. They are equal when the turn time binds: then
/// the whole turn is used, as the opponent uses its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub soft_ms: u64,
    pub hard_ms: u64,
}

/// The manager's limits (`INFO timeout_turn`, `timeout_match`, `time_left`, `max_memory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Milliseconds for one move (0: as fast as possible).
    pub timeout_turn: u64,
    /// Milliseconds for the whole match (0: no limit).
    pub timeout_match: u64,
    /// Milliseconds left in the match, once the manager has said.
    pub time_left: Option<u64>,
    /// Bytes of memory the brain may use (0: no limit).
    pub max_memory: u64,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock {
            timeout_turn: DEFAULT_TURN_MS,
            timeout_match: 0,
            time_left: None,
            max_memory: 0,
        }
    }
}

impl Clock {
    /// The time for the next move, in milliseconds, with `empties` empty cells on the board: the
    /// hard limit of [`Clock::plan`].
    #[must_use]
    pub fn move_ms(&self, empties: usize) -> u64 {
        self.plan(empties).hard_ms
    }

    /// The time plan of the next move with `empties` empty cells on the board. With the turn time
    /// alone (or a match clock with room for a full turn on every move still to come): the turn,
    /// less a margin, as both limits. When the match clock binds: its share (what is left spread
    /// over the moves the game may still take) as the soft limit, and at most [`HARD_SHARES`]
    /// shares, the turn time, or `1 / SPARE_SHARE` of what is left as the hard one.
    #[must_use]
    pub fn plan(&self, empties: usize) -> Plan {
        let turn = if self.timeout_turn == 0 {
            FAST_TURN_MS
        } else {
            self.timeout_turn
        };
        let usable = |ms: u64| {
            (ms * TURN_USE.0 / TURN_USE.1)
                .saturating_sub(MARGIN_MS)
                .max(MIN_MOVE_MS)
        };
        if self.timeout_match > 0 {
            if let Some(left) = self.time_left {
                let moves_left = (empties as u64 / EMPTIES_PER_MOVE).max(MIN_MOVES_LEFT);
                let share = left / moves_left;
                if share < turn {
                    let hard = turn.min(share * HARD_SHARES).min(left / SPARE_SHARE);
                    return Plan {
                        soft_ms: usable(share),
                        hard_ms: usable(hard.max(share)),
                    };
                }
            }
        }
        let ms = usable(turn);
        Plan {
            soft_ms: ms,
            hard_ms: ms,
        }
    }

    /// The transposition-table bytes: `preferred` with no memory limit; else what the limit leaves
    /// besides [`FIXED_MEMORY`], at least 1 MiB and at most `cap` and [`LIMITED_TABLE`] (the table
    /// rounds it down to a power of two slots). With no `cap` of the user's (`usize::MAX`), also
    /// no more than the turn can use ([`Clock::turn_table_bytes`]).
    #[must_use]
    pub fn table_bytes(&self, preferred: usize, cap: usize) -> usize {
        let bytes = if self.max_memory == 0 {
            preferred
        } else {
            let spare = self.max_memory.saturating_sub(FIXED_MEMORY);
            let most = cap.clamp(1 << 20, LIMITED_TABLE);
            usize::try_from(spare)
                .unwrap_or(usize::MAX)
                .clamp(1 << 20, most)
        };
        if cap == usize::MAX {
            bytes.min(self.turn_table_bytes())
        } else {
            bytes
        }
    }

    /// The largest table a turn of `timeout_turn` can use: [`TABLE_BYTES_PER_TURN_SECOND`] a
    /// second, at least [`MIN_TURN_TABLE`].
    #[must_use]
    pub fn turn_table_bytes(&self) -> usize {
        let turn = if self.timeout_turn == 0 {
            FAST_TURN_MS
        } else {
            self.timeout_turn
        };
        let bytes = u128::from(turn) * TABLE_BYTES_PER_TURN_SECOND as u128 / 1000;
        usize::try_from(bytes)
            .unwrap_or(usize::MAX)
            .max(MIN_TURN_TABLE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The planned use of `ms`, written out: the turn share less the margin.
    fn use_of(ms: u64) -> u64 {
        ms * TURN_USE.0 / TURN_USE.1 - MARGIN_MS
    }

    #[test]
    fn turn_time_less_margin() {
        let clock = Clock::default();
        assert_eq!(clock.move_ms(200), use_of(5000));
        // Written out for the common 1 s turn: 97% of it less 20 ms.
        let second = Clock {
            timeout_turn: 1000,
            ..Clock::default()
        };
        assert_eq!(second.move_ms(200), 950);
        let fast = Clock {
            timeout_turn: 0,
            ..Clock::default()
        };
        assert_eq!(fast.move_ms(200), use_of(FAST_TURN_MS));
        let tiny = Clock {
            timeout_turn: 20,
            ..Clock::default()
        };
        assert_eq!(tiny.move_ms(200), 5);
    }

    #[test]
    fn match_time_is_spread_over_the_moves_left() {
        let clock = Clock {
            timeout_turn: 5000,
            timeout_match: 100_000,
            time_left: Some(10_000),
            max_memory: 0,
        };
        // 200 empties: 50 moves left, 200 ms each: the soft limit; three shares the hard one.
        assert_eq!(
            clock.plan(200),
            Plan {
                soft_ms: use_of(200),
                hard_ms: use_of(600)
            }
        );
        assert_eq!(clock.move_ms(200), use_of(600));
        // Few empties: at least 10 moves left; the hard limit is a seventh of what is left.
        assert_eq!(
            clock.plan(8),
            Plan {
                soft_ms: use_of(10_000 / 10),
                hard_ms: use_of(10_000 / 7)
            }
        );
        // The turn time caps the hard limit.
        let short = Clock {
            timeout_turn: 400,
            ..clock
        };
        assert_eq!(
            short.plan(200),
            Plan {
                soft_ms: use_of(200),
                hard_ms: use_of(400)
            }
        );
        // No time_left yet: the turn time, both limits.
        let unknown = Clock {
            time_left: None,
            ..clock
        };
        assert_eq!(
            unknown.plan(200),
            Plan {
                soft_ms: use_of(5000),
                hard_ms: use_of(5000)
            }
        );
        // Room for a full turn on every move left: the turn, both limits.
        let ample = Clock {
            timeout_turn: 1000,
            time_left: Some(90_000),
            ..clock
        };
        assert_eq!(
            ample.plan(200),
            Plan {
                soft_ms: 950,
                hard_ms: 950
            }
        );
    }

    #[test]
    fn table_fits_the_turn() {
        use crate::engine::tree::Table;
        // Under Gomocup's 350 MB: 32 MiB for a 1 s turn, 128 MiB for 5 s, the memory's 256 MiB
        // from 10 s.
        let mut clock = Clock {
            max_memory: 367_001_600,
            ..Clock::default()
        };
        for (turn, mib) in [(1000, 32), (5000, 128), (10_000, 256), (180_000, 256)] {
            clock.timeout_turn = turn;
            let bytes = clock.table_bytes(64 << 20, usize::MAX);
            assert_eq!(Table::new(bytes).bytes(), mib << 20, "turn {turn} ms");
        }
        // Short turns keep a table of 16 MiB; so does "as fast as possible".
        for turn in [0, 100, 300] {
            clock.timeout_turn = turn;
            assert_eq!(
                clock.table_bytes(64 << 20, usize::MAX),
                16 << 20,
                "turn {turn}"
            );
        }
        // The user's size is kept whatever the turn (within the memory limit).
        clock.timeout_turn = 1000;
        assert_eq!(clock.table_bytes(64 << 20, 128 << 20), 128 << 20);
        // With no memory limit, the default 64 MiB, less for a short turn.
        clock.max_memory = 0;
        assert_eq!(clock.table_bytes(64 << 20, usize::MAX), 32 << 20);
        clock.timeout_turn = 5000;
        assert_eq!(clock.table_bytes(64 << 20, usize::MAX), 64 << 20);
        assert_eq!(clock.table_bytes(512 << 20, 512 << 20), 512 << 20);
    }

    #[test]
    fn table_fits_the_memory_limit() {
        // A turn long enough not to bind.
        let mut clock = Clock {
            timeout_turn: 180_000,
            ..Clock::default()
        };
        assert_eq!(clock.table_bytes(64 << 20, usize::MAX), 64 << 20);
        // Gomocup's 350 MB: a 256 MiB table beside the fixed needs.
        clock.max_memory = 367_001_600;
        let bytes = clock.table_bytes(64 << 20, usize::MAX);
        assert_eq!(bytes, 367_001_600 - (64 << 20));
        assert_eq!(crate::engine::tree::Table::new(bytes).bytes(), 256 << 20);
        assert_eq!(clock.table_bytes(64 << 20, 32 << 20), 32 << 20);
        clock.max_memory = 160 << 20;
        assert_eq!(clock.table_bytes(64 << 20, usize::MAX), 96 << 20);
        clock.max_memory = 10 << 20;
        assert_eq!(clock.table_bytes(64 << 20, usize::MAX), 1 << 20);
        // A manager's limit far beyond what a search fills: the table stops at 1 GiB.
        clock.max_memory = u64::MAX;
        assert_eq!(clock.table_bytes(64 << 20, usize::MAX), LIMITED_TABLE);
        assert_eq!(clock.table_bytes(64 << 20, 128 << 20), 128 << 20);
        assert_eq!(clock.table_bytes(64 << 20, 0), 1 << 20);
    }
}
