//! `stonelab go count`: counts legal positions (and reduced positions and ko points) of a board.

use crate::common::Format;

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Enumerate every position row by row: legal, reduced and ko-point counts
    #[default]
    Enumerate,
    /// Tromp's border-state dynamic program: legal count only, exact big integers
    Dp,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size as ROWSxCOLS, e.g. 4x4
    pub board: String,
    /// Counting method
    #[arg(long, value_enum, default_value_t = Method::Enumerate)]
    pub method: Method,
    /// Worker threads (default: all cores)
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("go count is not implemented yet")
}
