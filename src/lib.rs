//! The `stonelab` library behind the command-line programs: one module per game (`gomoku`, `go`)
//! holding its subcommands and its protocol front end, the match-runner core they share (`arena`),
//! and small command-line helpers (`common`).
//!
//! The binaries `stonelab` and `pbrain-stonelab` are thin: they parse arguments and call into here,
//! so tests can drive the protocol loops in-process.

#[macro_use]
pub mod common;
pub mod arena;
pub mod go;
pub mod gomoku;

/// Runs a parsed `stonelab` command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.game {
        Game::Gomoku { command } => gomoku::run(command),
        Game::Go { command } => go::run(command),
    }
}

/// The `stonelab` command line.
#[derive(clap::Parser, Debug)]
#[command(
    name = "stonelab",
    version,
    about = "Gomoku and small-board Go: line tables, threat search, board core, enumeration, solvers",
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub game: Game,
}

/// The game a subcommand belongs to.
#[derive(clap::Subcommand, Debug)]
pub enum Game {
    /// Gomoku (five in a row): threats, line tables, benchmarks
    Gomoku {
        #[command(subcommand)]
        command: gomoku::Command,
    },
    /// Go: board core, perft, replay, enumeration, eyes
    Go {
        #[command(subcommand)]
        command: go::Command,
    },
}
