//! `stonelab go replay`: plays a move list or SGF file and prints the final position.

use crate::common::Format;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size as ROWSxCOLS, e.g. 9x9
    #[arg(long)]
    pub size: String,
    /// Komi added to White's area score
    #[arg(long, default_value_t = 0.0)]
    pub komi: f64,
    /// Moves as "B C3 W D4 B pass ..." (GTP vertices)
    #[arg(long, conflicts_with = "sgf")]
    pub moves: Option<String>,
    /// An SGF file to replay instead of --moves
    pub sgf: Option<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("go replay is not implemented yet")
}
