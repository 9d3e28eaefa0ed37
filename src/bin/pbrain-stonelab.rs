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
    let program = "pbrain-stonelab";
    stonelab::common::catch_output_panics(program);
    let cli: Cli = stonelab::common::parse_args(program);
    let result = stonelab::gomoku::pbrain::run(&cli.args).map_err(anyhow::Error::from);
    stonelab::common::exit_with(program, result);
}
