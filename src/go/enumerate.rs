//! `stonelab go enumerate`: writes the state table read by the retrograde solver.

use std::path::Path;
use std::time::Instant;

use stonelab_go::enumerate::{Counts, Enumerator, Shape};
use stonelab_go::statefile::{self, StateTable};

use crate::common::Format;

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
    /// Output format of the summary
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Show a progress bar on stderr even when it is not a terminal (on a terminal, boards of 18
    /// points and more show one anyway)
    #[arg(long)]
    pub progress: bool,
}

#[derive(serde::Serialize)]
struct Summary {
    board: String,
    file: String,
    bytes: u64,
    #[serde(flatten)]
    counts: Counts,
    ko_states: u64,
    seconds: f64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let shape: Shape = args.board.parse()?;
    if let Some(n) = args.threads {
        crate::common::check_threads("--threads", n)?;
    }
    statefile::check_size(shape)?;
    crate::common::check_output_path(Path::new(&args.out), "--out")?;
    let start = Instant::now();
    // Boards of 18 points and more take seconds to minutes: show a bar on a terminal.
    let bar = crate::common::progress_bar("tasks", shape.points() >= 18, args.progress);
    let progress = |done: usize, total: usize| super::count::advance(bar.as_ref(), done, total);
    let set = Enumerator::new(shape)?.reduced_set(args.threads, &progress)?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let path = Path::new(&args.out);
    statefile::write(path, &set)?;
    // Read it back: the summary reports what a reader sees.
    let table = StateTable::open(path)?;
    let c = table.counts();
    let out = Summary {
        board: shape.to_string(),
        file: args.out.clone(),
        bytes: std::fs::metadata(path)?.len(),
        counts: c,
        ko_states: table.ko_states(),
        seconds: start.elapsed().as_secs_f64(),
    };
    match args.format {
        Format::Json => crate::common::print_json(&out),
        Format::Text => {
            outln!("board {}", out.board)?;
            outln!("file {}", out.file)?;
            outln!("bytes {}", out.bytes)?;
            super::count::print_counts(&out.counts)?;
            outln!("ko_states {}", out.ko_states)?;
            outln!("seconds {:.3}", out.seconds)?;
            Ok(())
        }
    }
}
