//! `stonelab go bench`: runs each Go benchmark section and prints one set of figures.

use crate::common::Format;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut figures = serde_json::Map::new();
    for section in [super::perft::bench_figures, super::eyes::bench_figures] {
        for (name, value) in section()? {
            figures.insert(name, value);
        }
    }
    match args.format {
        Format::Json => crate::common::print_json(&figures)?,
        Format::Text => {
            for (name, value) in &figures {
                outln!("{name} {value}")?;
            }
        }
    }
    Ok(())
}
