//! The match-runner core shared by `stonelab gomoku match` and `stonelab go match`.
//!
//! - [`EngineProcess`]: an engine started by `sh -c CMD` in a process group of its own, its
//!   output lines read by a thread so that a read can wait with a deadline, and a shutdown that
//!   says goodbye, waits a grace period and then kills the whole group (the shell and whatever it
//!   started), so that no engine outlives its match.
//! - [`Elo`]: the score fraction, the Elo difference and its 95% interval.
//! - [`Record`]: a JSON Lines match record (a header naming the match's arguments, then one line
//!   per finished game), rewritten atomically after every game, checked and resumed on the next run.
//!
//! What a game is (its protocol, its adjudication, its report) stays in each game's module.

mod elo;
mod process;
mod record;

pub use elo::{fmt_elo, Elo};
pub use process::{EngineProcess, ReadError, SendError};
pub use record::{write_atomically, Numbered, Record};

/// A progress bar of `games` games on stderr, shown only when stderr is a terminal (so pipes and
/// CI logs stay clean).
pub fn progress_bar(games: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(games);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {elapsed} ({eta} left)",
        )
        .ok()?,
    );
    Some(bar)
}
