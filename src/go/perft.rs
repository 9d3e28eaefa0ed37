//! `stonelab go perft`: counts move sequences (no passes) from the empty board.

use crate::common::Format;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size as ROWSxCOLS, e.g. 9x9 (1x1 up to 19x19)
    #[arg(long)]
    pub size: String,
    /// Number of plies
    #[arg(long)]
    pub depth: u32,
    /// Allow suicide (a multi-stone suicide removes the group)
    #[arg(long)]
    pub suicide: bool,
    /// Disable the simple-ko rule
    #[arg(long)]
    pub no_ko: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("go perft is not implemented yet")
}

/// Figures for `stonelab go bench`: `perft_nodes_per_s`, `play_undo_ns`.
pub fn bench_figures() -> anyhow::Result<Vec<(String, serde_json::Value)>> {
    Ok(Vec::new())
}
