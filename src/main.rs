//! `stonelab`: command-line front end for the Gomoku and Go libraries.
//!
//! Every error that reaches `main` is printed as one `stonelab: error: ...` line on stderr and the
//! process exits with code 2 (bad input is by far the most common cause); argument errors too,
//! followed by clap's usage hint. A closed standard output (`stonelab ... | head -1`) ends the
//! program quietly. Nothing here panics on user input.

fn main() {
    stonelab::common::catch_output_panics("stonelab");
    let cli: stonelab::Cli = stonelab::common::parse_args("stonelab");
    stonelab::common::exit_with("stonelab", stonelab::run(cli));
}
