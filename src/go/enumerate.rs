//! `stonelab go enumerate`: writes the state table read by the retrograde solver.

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size as ROWSxCOLS, e.g. 3x3
    pub board: String,
    /// Output file (written to a temporary name, then renamed)
    #[arg(long)]
    pub out: String,
    /// Worker threads (default: all cores)
    #[arg(long)]
    pub threads: Option<usize>,
}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("go enumerate is not implemented yet")
}
