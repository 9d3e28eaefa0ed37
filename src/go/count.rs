//! `stonelab go count`: counts legal positions (and reduced positions and ko points) of a board.
//!
//! JSON output: `{"board","legal","reduced","ko_points","max_ko_points","seconds"}` for
//! enumeration; `{"board","legal","method","seconds"}` for `--method dp` and for
//! `--legal-only`. `legal` is a JSON number when it fits a `u64` and a string of decimal
//! digits otherwise (9x9 and up), so no reader loses digits to floating point.

use std::time::Instant;

use anyhow::Context;
use indicatif::ProgressBar;
use stonelab_go::dp;
use stonelab_go::enumerate::{Counts, Enumerator, Shape, Slice};

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
    /// Enumeration only: count legal positions alone (every row but the last is visited, the
    /// last is counted in bulk), skipping the reduced and ko counts
    #[arg(long)]
    pub legal_only: bool,
    /// Run even when the estimated time is over the limit (one hour)
    #[arg(long)]
    pub force: bool,
    /// Enumeration only: count one slice K/N of the search (every N-th task from task K);
    /// the counts of slices 0/N .. N-1/N add up to the board's (maxima by max)
    #[arg(long, value_name = "K/N")]
    pub slice: Option<String>,
    /// Show a progress bar on stderr even when it is not a terminal (on a terminal, long runs
    /// show one anyway)
    #[arg(long)]
    pub progress: bool,
}

fn parse_slice(text: &str) -> anyhow::Result<Slice> {
    let bad = || anyhow::anyhow!("malformed slice '{text}': expected K/N with 0 <= K < N");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (part, parts): (usize, usize) =
        (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if part >= parts {
        return Err(bad());
    }
    Ok(Slice { part, parts })
}

/// Longest estimated enumeration accepted without `--force`.
const TIME_LIMIT_S: f64 = 3600.0;
/// Largest estimated dynamic-program memory accepted.
const DP_MEMORY_LIMIT: f64 = 16.0 * (1u64 << 30) as f64;

/// Measured enumeration speeds on one core (see BENCHMARKS.md, "Go enumeration"): legal
/// positions per second when everything is counted, and positions of all rows but the last
/// per second when only the legal count is wanted.
const FULL_RATE: f64 = 2.5e8;
const LEGAL_ONLY_RATE: f64 = 5.0e8;

#[derive(serde::Serialize)]
struct Full {
    board: String,
    #[serde(flatten)]
    counts: Counts,
    seconds: f64,
    /// Present only with `--slice`: these counts are that part's.
    #[serde(skip_serializing_if = "Option::is_none")]
    slice: Option<String>,
}

#[derive(serde::Serialize)]
struct LegalOnly {
    board: String,
    legal: serde_json::Value,
    method: &'static str,
    seconds: f64,
}

/// The shape the enumeration runs on: the counts do not change when the board is turned, and
/// wide rows (up to 6) make the last-row bulk step count for more.
fn enumeration_shape(shape: Shape) -> Shape {
    let (lo, hi) = (shape.rows.min(shape.cols), shape.rows.max(shape.cols));
    let cols = if hi <= 6 { hi } else { lo };
    Shape::new(shape.rows * shape.cols / cols, cols).expect("sides are positive")
}

fn threads_used(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(rayon::current_num_threads).max(1)
}

/// Moves `bar` to `done` of `total` (a progress callback's body).
pub(super) fn advance(bar: Option<&ProgressBar>, done: usize, total: usize) {
    if let Some(b) = bar {
        b.set_length(total as u64);
        b.set_position(done as u64);
    }
}

/// The count lines of the text output (shared with `go enumerate`).
pub(super) fn print_counts(c: &Counts) -> Result<(), crate::common::OutputError> {
    outln!("legal {}", c.legal)?;
    outln!("reduced {}", c.reduced)?;
    outln!("ko_points {}", c.ko_points)?;
    outln!("max_ko_points {}", c.max_ko_points)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let shape: Shape = args.board.parse()?;
    if let Some(n) = args.threads {
        crate::common::check_threads("--threads", n)?;
    }
    let slice = match &args.slice {
        None => Slice::WHOLE,
        Some(_) if args.method == Method::Dp || args.legal_only => {
            anyhow::bail!("--slice applies to the full enumeration only")
        }
        Some(text) => parse_slice(text)?,
    };
    let start = Instant::now();
    match args.method {
        Method::Dp => count_dp(&args, shape, start),
        Method::Enumerate => count_enumerate(&args, shape, slice, start),
    }
}

/// `--method dp`: the legal count by Tromp's dynamic program.
fn count_dp(args: &Args, shape: Shape, start: Instant) -> anyhow::Result<()> {
    let bytes = dp::estimated_bytes(shape);
    if bytes > DP_MEMORY_LIMIT {
        anyhow::bail!(
            "board {shape} is out of reach of the dynamic program: estimated {:.0} GiB of \
             memory (limit {:.0} GiB)",
            bytes / (1u64 << 30) as f64,
            DP_MEMORY_LIMIT / (1u64 << 30) as f64
        );
    }
    // Seconds from 7 columns (1e5 border states) on: a bar of cells placed.
    let long = dp::estimated_states(shape.rows.min(shape.cols)) >= 1e5;
    let bar = crate::common::progress_bar("cells", long, args.progress);
    let legal = dp::count_legal_with_progress(shape, &|done, total| {
        advance(bar.as_ref(), done, total);
    })?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    print_legal(args, shape, &legal, "dp", start)
}

/// `--method enumerate`: every count (or with `--legal-only` the legal one) by enumeration,
/// refused up front when it would take too long.
fn count_enumerate(args: &Args, shape: Shape, slice: Slice, start: Instant) -> anyhow::Result<()> {
    let eshape = enumeration_shape(shape);
    if !shape.has_serials() {
        // More than 1% of all serials are legal on every board up to 19x19.
        let floor = 0.01 * 3f64.powi(shape.points() as i32)
            / (FULL_RATE * threads_used(args.threads) as f64);
        anyhow::bail!(
            "board {shape} is out of reach of enumeration: 3^{} serials do not fit 64 \
             bits, and even 1% of them would take an estimated {} (--method dp for the \
             legal count)",
            shape.points(),
            human_time(floor)
        );
    }
    // The exact number of legal positions (from the dynamic program, milliseconds for
    // these sizes) bounds the running time before any table is built.
    let legal = dp::count_legal(eshape)?;
    let legal = u64::try_from(&legal).context("legal count exceeds 64 bits")? as f64;
    let threads = threads_used(args.threads) as f64;
    let refuse = |estimate: f64, what: String| {
        anyhow::bail!(
            "board {shape} is out of reach of enumeration: {what}, estimated {} on {} \
             thread(s) (limit {}; --force to run anyway{})",
            human_time(estimate),
            threads,
            human_time(TIME_LIMIT_S),
            if args.legal_only {
                ""
            } else {
                ", --legal-only or --method dp for the legal count"
            }
        )
    };
    let full_estimate = legal / (FULL_RATE * threads * slice.parts as f64);
    if !args.legal_only && full_estimate > TIME_LIMIT_S && !args.force {
        return refuse(full_estimate, format!("{legal:.3e} legal positions"));
    }
    // The bulk last row cuts the work by at least the number of row patterns.
    let floor = legal / (LEGAL_ONLY_RATE * threads * 3f64.powi(eshape.cols as i32));
    if args.legal_only && floor > TIME_LIMIT_S && !args.force {
        return refuse(floor, format!("{legal:.3e} legal positions"));
    }
    let enumerator = Enumerator::new(eshape)?;
    let estimate = if args.legal_only {
        let (nodes, _) = enumerator.work();
        let estimate = nodes as f64 / (LEGAL_ONLY_RATE * threads);
        if estimate > TIME_LIMIT_S && !args.force {
            return refuse(
                estimate,
                format!("{nodes:.3e} positions of all rows but the last"),
            );
        }
        estimate
    } else {
        full_estimate
    };
    let bar = crate::common::progress_bar("tasks", estimate >= 2.0, args.progress);
    let progress = |done: usize, total: usize| advance(bar.as_ref(), done, total);
    if args.legal_only {
        let legal = enumerator.count_legal(args.threads, &progress)?;
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        return print_legal(args, shape, &dp::BigUint::from(legal), "enumerate", start);
    }
    let c = enumerator.count_slice(args.threads, &progress, slice)?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let out = Full {
        board: shape.to_string(),
        counts: c,
        seconds: start.elapsed().as_secs_f64(),
        slice: (slice.parts > 1).then(|| format!("{}/{}", slice.part, slice.parts)),
    };
    print_full(args.format, &out)
}

fn print_full(format: Format, out: &Full) -> anyhow::Result<()> {
    match format {
        Format::Json => crate::common::print_json(out),
        Format::Text => {
            outln!("board {}", out.board)?;
            print_counts(&out.counts)?;
            outln!("seconds {:.3}", out.seconds)?;
            if let Some(slice) = &out.slice {
                outln!("slice {slice}")?;
            }
            Ok(())
        }
    }
}

fn print_legal(
    args: &Args,
    shape: Shape,
    legal: &dp::BigUint,
    method: &'static str,
    start: Instant,
) -> anyhow::Result<()> {
    let seconds = start.elapsed().as_secs_f64();
    match args.format {
        Format::Json => {
            let legal = match u64::try_from(legal) {
                Ok(n) => serde_json::Value::from(n),
                Err(_) => serde_json::Value::from(legal.to_string()),
            };
            crate::common::print_json(&LegalOnly {
                board: shape.to_string(),
                legal,
                method,
                seconds,
            })
        }
        Format::Text => {
            outln!("board {shape}")?;
            outln!("legal {legal}")?;
            outln!("method {method}")?;
            outln!("seconds {seconds:.3}")?;
            Ok(())
        }
    }
}

fn human_time(s: f64) -> String {
    if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 2.0 * 86400.0 {
        format!("{:.1} h", s / 3600.0)
    } else if s < 1000.0 * 86400.0 {
        format!("{:.0} days", s / 86400.0)
    } else if s < 1e4 * 365.25 * 86400.0 {
        format!("{:.1} years", s / (365.25 * 86400.0))
    } else {
        format!("{:.1e} years", s / (365.25 * 86400.0))
    }
}
