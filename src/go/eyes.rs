//! `stonelab go eyes`: marks the rule-2/4 eye points of a board diagram.

use crate::common::Format;

#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Colour {
    Black,
    White,
    #[default]
    Both,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Whose eyes to mark
    #[arg(long, value_enum, default_value_t = Colour::Both)]
    pub colour: Colour,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Board diagram file (one line per row, top first, X black, O white, . empty), or - for stdin
    pub file: String,
}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("go eyes is not implemented yet")
}

/// Figures for `stonelab go bench`: `eyes_ns`, `eyes_naive_ns`, `playouts_per_s_9x9`, `playouts_per_s_19x19`.
pub fn bench_figures() -> anyhow::Result<Vec<(String, serde_json::Value)>> {
    Ok(Vec::new())
}
