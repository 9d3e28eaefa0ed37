//! The engine's tuning numbers, named: how one move's budget is split between the threat searches,
//! the defences and alpha-beta, the search's shape, and the Gomocup clock's margins ([`super::time`]).
//! Changing any of these changes the engine's moves and the bench signature.

/// The fewest nodes a threat search gets under a node budget.
pub const TSS_FLOOR: u64 = 20_000;
/// Alpha-beta's best moves checked for an opponent threat sequence afterwards. None since v2.6:
/// the checks and the threat searches below cost most of a turn in tactical positions and the
/// tree, three plies deeper without them, finds more (BENCHMARKS.md, issue 17).
pub const SAFETY_CHECKS: usize = 0;
/// Whether the root searches for its own VCT (after its own VCF, which it always looks for).
pub const ROOT_OWN_VCT: bool = false;
/// Whether the root searches for the opponent's VCF and VCT as if it were to move, and keeps only
/// the moves after which the opponent has none (the defences).
pub const ROOT_OPPONENT_THREAT: bool = false;

/// The budget shares are in hundredths of the move's budget.
pub const PERCENT: u32 = 100;
/// Share of the move's budget for the engine's own VCF.
pub const OWN_VCF_SHARE: u32 = 10;
/// Share of the move's budget for the engine's own VCT.
pub const OWN_VCT_SHARE: u32 = 15;
/// Share of the move's budget for each search of the opponent's threat (VCF, then VCT).
pub const OPPONENT_THREAT_SHARE: u32 = 10;
/// Share of the move's budget for finding the defences against the opponent's threat.
pub const DEFENCE_SHARE: u32 = 35;
/// The fewest nodes the defences get under a node budget.
pub const DEFENCE_FLOOR: u64 = 5 * TSS_FLOOR;
/// Nodes of each try in the defences' first round (later rounds grow it).
pub const DEFENCE_FIRST_TRY: u64 = TSS_FLOOR / 16;
/// Share of the time left that alpha-beta gets; the rest is the reserve for the safety checks.
pub const ALPHABETA_TIME_SHARE: u32 = if SAFETY_CHECKS == 0 { 100 } else { 85 };
/// The safety checks get the time left divided by this.
pub const SAFETY_CHECK_TIME_DIVISOR: u32 = 5;

/// Gomocup clock: time kept back from every move for process and pipe overhead, in milliseconds.
/// The search stops close to its deadline (with 30 kept back and 95% used, 90% of the 1 s answers
/// of a 100-game match took 916-924 ms, the slowest 975), so 20 kept back and 97% used answer in
/// about 950 ms, where Rapfi answers in about 970 (since v2.22; 30 and 95% before).
pub const MARGIN_MS: u64 = 20;
/// Gomocup clock: the turn time assumed when the manager sends `timeout_turn 0` ("as fast as
/// possible"), in milliseconds.
pub const FAST_TURN_MS: u64 = 100;
/// Gomocup clock: the turn time before the manager sends any, in milliseconds.
pub const DEFAULT_TURN_MS: u64 = 5000;
/// Gomocup clock: the fraction of a turn the engine plans to use (numerator, denominator).
pub const TURN_USE: (u64, u64) = (97, 100);
/// Gomocup clock: the moves still to play are guessed as the empty cells divided by this ...
pub const EMPTIES_PER_MOVE: u64 = 4;
/// ... and at least this many.
pub const MIN_MOVES_LEFT: u64 = 10;
/// Gomocup clock: when the match clock binds, a move may take this many of its shares at most
/// (its hard limit; the soft limit is one share) ...
pub const HARD_SHARES: u64 = 3;
/// ... and no more than the time left divided by this.
pub const SPARE_SHARE: u64 = 7;
/// Time management: the soft limit is multiplied by this (in hundredths) after an iteration that
/// changed the best move ...
pub const UNSTABLE_STRETCH: u64 = 150;
/// ... and divided by 1 + this (in hundredths) times the iterations the best move has stayed the
/// same (at most [`STABLE_ITERATIONS`] of them) ...
pub const STABLE_SHRINK: u64 = 20;
/// ... counted up to this many.
pub const STABLE_ITERATIONS: u64 = 5;
/// ... and multiplied by 1.3 after an iteration whose score fell by this much or more.
pub const SCORE_DROP: i32 = 40;
/// Gomocup clock: the shortest time a move gets, in milliseconds.
pub const MIN_MOVE_MS: u64 = 5;
/// Memory the brain needs besides its transposition table: the threat-mask table (41 MiB), the
/// class tables, the threat solver's tables and the process itself (measured: 45 MB resident
/// besides the table during 5 s searches on 15x15 and 20x20, session 43). Under a manager's
/// `max_memory` the table takes the rest.
pub const FIXED_MEMORY: u64 = 64 << 20;
/// Without a table size of the user's (`pbrain-stonelab --tt-mib`), the table is no larger than a
/// turn can use: this many bytes a second of `timeout_turn` (32 MiB for a 1 s turn, 128 MiB for
/// 5 s after the rounding down to a power of two slots). A search stores about one entry a
/// node at about 1,000 nodes a millisecond, so a 1 s search fills about half of 32 MiB, and its
/// pages are paid for when first touched, on the search's clock: on the 2-core VM of the
/// matches, up to 7 ms a MiB in a fresh process (the host backs the memory again), so that a
/// 256 MiB table cost a game's first search up to 1.8 s, most of its nodes (session 54).
pub const TABLE_BYTES_PER_TURN_SECOND: usize = 32 << 20;
/// The smallest table the turn's limit leaves ([`TABLE_BYTES_PER_TURN_SECOND`]).
pub const MIN_TURN_TABLE: usize = 16 << 20;
/// The largest transposition table a manager's `max_memory` gives (1 GiB): a 5 s search on 20x20
/// fills a few million slots of the 64 million this holds.
pub const LIMITED_TABLE: usize = 1 << 30;
