//! `pbrain-stonelab`: the stonelab Gomoku engine as a Gomocup (Piskvork) brain. It speaks the
//! manager protocol on standard input and output; the same as `stonelab gomoku pbrain`.

use clap::Parser;

/// The stonelab Gomoku engine for Gomocup managers (Piskvork protocol on stdin/stdout):
/// START, BEGIN, TURN, BOARD/DONE, INFO, END, ABOUT, RESTART, TAKEBACK, RECTSTART, PLAY
#[derive(Parser, Debug)]
#[command(name = "pbrain-stonelab", version)]
struct Cli {
    #[command(flatten)]
    args: stonelab::gomoku::pbrain::Args,
}

fn main() {
    let cli = Cli::parse();
    if let Err(err) = stonelab::gomoku::pbrain::run(&cli.args) {
        eprintln!("pbrain-stonelab: error: {err}");
        std::process::exit(2);
    }
}
