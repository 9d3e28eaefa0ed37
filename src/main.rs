//! `stonelab`: command-line front end for the Gomoku and Go libraries.
//!
//! Every error that reaches `main` is printed as one `stonelab: error: ...` line on stderr and the
//! process exits with code 2 (bad input is by far the most common cause). Nothing here panics on
//! user input.

use clap::Parser;

fn main() {
    let cli = stonelab::Cli::parse();
    if let Err(err) = stonelab::run(cli) {
        eprintln!("stonelab: error: {err:#}");
        std::process::exit(2);
    }
}
