//! `stonelab`: command-line front end for the Gomoku and Go libraries.
//!
//! Every error that reaches `main` is printed as one `stonelab: error: ...` line on stderr and the
//! process exits with code 2 (bad input is by far the most common cause). Nothing here panics on
//! user input.

use clap::{Parser, Subcommand};

mod common;
mod go;
mod gomoku;

#[derive(Parser, Debug)]
#[command(
    name = "stonelab",
    version,
    about = "Gomoku and small-board Go: line tables, threat search, board core, enumeration, solvers",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    game: Game,
}

#[derive(Subcommand, Debug)]
enum Game {
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

fn main() {
    let cli = Cli::parse();
    let result = match cli.game {
        Game::Gomoku { command } => gomoku::run(command),
        Game::Go { command } => go::run(command),
    };
    if let Err(err) = result {
        eprintln!("stonelab: error: {err:#}");
        std::process::exit(2);
    }
}
