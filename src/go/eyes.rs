//! `stonelab go eyes`: marks the rule-2/4 eye points of a board diagram.
//!
//! The diagram is strict: one line per row, top first, `X` black, `O` white, `.` empty, every row the
//! same length, 1..=19 rows and columns (a trailing `\r` and blank lines at the very end are
//! allowed). Text output is the diagram with every eye point (of the colours asked for) as `e`.
//! JSON output is `{"rows":R,"cols":C,"black":[[x,y],...],"white":[[x,y],...]}` with x the
//! column and y the row, 0-based from the top left, sorted by y then x; a colour not asked for
//! (`--colour black` or `--colour white`) has an empty list.

use std::time::Instant;

use anyhow::bail;
use stonelab_go::playout::{Playout, PlayoutConfig};
use stonelab_go::{eyes_naive, Bitboard, Color, EyeMasks, Geometry, Point, Rng, MAX_SIZE};

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
    /// Whose eyes to mark (in JSON, the list of a colour not asked for is empty)
    #[arg(long, value_enum, default_value_t = Colour::Both)]
    pub colour: Colour,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Board diagram file (one line per row, top first, X black, O white, . empty), or - for stdin
    pub file: String,
}

/// A parsed diagram.
pub struct Diagram {
    pub geometry: Geometry,
    pub stones: [Bitboard; 2],
}

/// Reads a strict diagram (see the module docs); errors name the line and column (1-based).
pub fn parse_diagram(text: &str) -> anyhow::Result<Diagram> {
    let mut lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    if lines.is_empty() {
        bail!("empty diagram: expected one line per row of X, O and .");
    }
    let cols = lines[0].chars().count();
    if lines.len() > MAX_SIZE || cols > MAX_SIZE {
        bail!(
            "diagram is {}x{cols} (rows x columns); at most {MAX_SIZE}x{MAX_SIZE} is supported",
            lines.len()
        );
    }
    let mut stones = [Bitboard::EMPTY; 2];
    for (r, line) in lines.iter().enumerate() {
        let len = line.chars().count();
        if len != cols {
            bail!(
                "ragged diagram: line {} has {len} columns, line 1 has {cols}",
                r + 1
            );
        }
        for (c, ch) in line.chars().enumerate() {
            let colour = match ch {
                'X' => Some(Color::Black),
                'O' => Some(Color::White),
                '.' => None,
                _ => bail!(
                    "unknown character {ch:?} at line {}, column {} (use X, O and .)",
                    r + 1,
                    c + 1
                ),
            };
            if let Some(colour) = colour {
                stones[colour.index()].set(Point::new(r, c));
            }
        }
    }
    let geometry = Geometry::new(lines.len(), cols)?;
    Ok(Diagram { geometry, stones })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let text = crate::common::read_input(Some(&args.file))?;
    let d = parse_diagram(&text)?;
    let g = d.geometry;
    let mut eyes = EyeMasks::new(g).eyes_both(d.stones[0], d.stones[1]);
    match args.colour {
        Colour::Black => eyes[1] = Bitboard::EMPTY,
        Colour::White => eyes[0] = Bitboard::EMPTY,
        Colour::Both => {}
    }
    match args.format {
        Format::Text => {
            let mut out = String::with_capacity(g.rows() * (g.cols() + 1));
            for r in 0..g.rows() {
                for c in 0..g.cols() {
                    let p = Point::new(r, c);
                    out.push(if (eyes[0] | eyes[1]).contains(p) {
                        'e'
                    } else if d.stones[0].contains(p) {
                        'X'
                    } else if d.stones[1].contains(p) {
                        'O'
                    } else {
                        '.'
                    });
                }
                out.push('\n');
            }
            out!("{out}")?;
        }
        Format::Json => {
            // Bitboard order is row by row, then column: already sorted by y then x.
            let list =
                |b: Bitboard| -> Vec<[usize; 2]> { b.iter().map(|p| [p.col(), p.row()]).collect() };
            crate::common::print_json(&EyesJson {
                rows: g.rows(),
                cols: g.cols(),
                black: list(eyes[0]),
                white: list(eyes[1]),
            })?;
        }
    }
    Ok(())
}

/// The JSON report, fields in the contract's order.
#[derive(serde::Serialize)]
struct EyesJson {
    rows: usize,
    cols: usize,
    black: Vec<[usize; 2]>,
    white: Vec<[usize; 2]>,
}

/// Median nanoseconds per call of `f` over timed batches.
///
/// Keep each batch well under the scheduler's 4 ms tick: on a shared machine another task takes
/// the core for a whole tick at a time, and with batches of about a tick (as before: 200,000
/// eye calls, 2.2 ms) half of them included such a gap, so the median jumped between 11 and 31
/// ns from run to run. Short batches put each gap in one batch, which the median discards.
fn median_ns(batches: usize, per_batch: u32, f: impl FnMut()) -> f64 {
    let times = stonelab_go::timing::batch_ns(batches, per_batch, f);
    times[times.len() / 2]
}

/// Playouts per second from the empty board, one thread, fixed seed: the median over batches of
/// about `seconds / 15` each (the median resists other load on a shared machine).
fn playouts_per_s(size: usize, seconds: f64) -> f64 {
    let g = Geometry::new(size, size).expect("valid size");
    let mut playout = Playout::new(g, PlayoutConfig::default());
    let mut rng = Rng::new(5);
    let per_batch = if size <= 9 { 400 } else { 40 };
    let start = Instant::now();
    let mut rates = Vec::new();
    while rates.len() < 5 || start.elapsed().as_secs_f64() < seconds {
        let t = Instant::now();
        for _ in 0..per_batch {
            std::hint::black_box(playout.run(&mut rng));
        }
        rates.push(f64::from(per_batch) / t.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

/// Figures for `stonelab go bench`: `eyes_ns`, `eyes_naive_ns`, `playouts_per_s_9x9`, `playouts_per_s_19x19`.
pub fn bench_figures() -> anyhow::Result<Vec<(String, serde_json::Value)>> {
    use std::hint::black_box;
    let g = Geometry::new(19, 19)?;
    let masks = EyeMasks::new(g);
    // 256 random positions, each with its own stone density (sparse, dense and eye-rich boards all
    // occur), cycled through so that no call sees the position of the call before: the compiler
    // cannot hoist the work, and the inputs come from memory as they would in real use (a copy of
    // one fixed position, as before, made every call pay a store-to-load forwarding stall).
    // `black_box` hides the positions and swallows each result; one call is one whole-board eye
    // computation of both colours.
    const POSITIONS: usize = 256;
    let positions = stonelab_go::rng::varied_positions(&g, POSITIONS, 19);
    let mut next = 0;
    let eyes_ns = median_ns(201, 20_000, || {
        let [black, white] = black_box(&positions)[next % POSITIONS];
        next += 1;
        black_box(masks.eyes_both(black, white));
    });
    // The naive reference over the same positions.
    let mut next = 0;
    let eyes_naive_ns = median_ns(101, 32, || {
        let [black, white] = black_box(&positions)[next % POSITIONS];
        next += 1;
        let empty = g.not(black | white);
        black_box([eyes_naive(&g, black, empty), eyes_naive(&g, white, empty)]);
    });
    let round = |x: f64| (x * 10.0).round() / 10.0;
    Ok(vec![
        ("eyes_ns".into(), round(eyes_ns).into()),
        ("eyes_naive_ns".into(), round(eyes_naive_ns).into()),
        (
            "playouts_per_s_9x9".into(),
            playouts_per_s(9, 1.0).round().into(),
        ),
        (
            "playouts_per_s_19x19".into(),
            playouts_per_s(19, 1.0).round().into(),
        ),
    ])
}
