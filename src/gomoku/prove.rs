//! `stonelab gomoku prove`, `check-proof` and `proof-move`: whole-game proofs by proof-number
//! search over threat-space search, their database and their certificates.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use serde::Serialize;
use stonelab_gomoku::prove::cert::{self, Certificate};
use stonelab_gomoku::prove::db::Db;
use stonelab_gomoku::prove::hint::Hint;
use stonelab_gomoku::prove::{MoveOrder, Options, Prover, Sums, Verdict};
use stonelab_gomoku::{point_name, Color, Rule};

use crate::arena::write_atomically;
use crate::common::{check_output_path, print_json, Format};

/// The rules a proof may be about.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProveRule {
    /// Five or more in a row wins
    #[default]
    #[value(alias = "0")]
    Freestyle,
    /// Exactly five wins (also `1`)
    #[value(alias = "1")]
    Standard,
}

/// What orders the moves on boards above 11x11.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProveOrder {
    /// The engine's evaluation cell values for both colours (the default until December 2026)
    Values,
    /// The engine's fitted move order (the policy its search orders moves by)
    #[default]
    Policy,
}

impl From<ProveOrder> for MoveOrder {
    fn from(o: ProveOrder) -> MoveOrder {
        match o {
            ProveOrder::Values => MoveOrder::Values,
            ProveOrder::Policy => MoveOrder::Policy,
        }
    }
}

/// How a node's summed number is formed from its children's.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProveSums {
    /// The children's numbers added (df-pn)
    #[default]
    Full,
    /// The largest child's number plus one for each other unsolved child (weak proof-number
    /// search: a position reached by several paths is not counted once per path)
    Weak,
}

impl From<ProveSums> for Sums {
    fn from(s: ProveSums) -> Sums {
        match s {
            ProveSums::Full => Sums::Full,
            ProveSums::Weak => Sums::Weak,
        }
    }
}

/// Who tries to win.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Black,
    White,
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Input: a position as `gomoku solve` reads it (a diagram, a move list, a .psq or \
    SGF record); nothing, or '-', reads standard input, and an empty input is the empty board. The \
    side to move follows from the stone counts (Black when they are equal).\n\n\
    The search: df-pn over the real board; at each attacker-to-move node the threat-space solver \
    (VCF, then VCT) is tried first; the defender's replies are cut to those that touch the threat \
    the attacker has after a defender pass, and the defender's fours (every other reply is checked \
    to lose to a threat sequence before a node counts as proved); the attacker's moves are tried \
    best first, a few at a time, all of them before a 'no_win'. Boards up to 11x11 also use pairing \
    strategies to disprove.\n\n\
    Results: 'win' (proved), 'no_win' (every attacker strategy is refuted: a draw or a loss), \
    'unknown' (a limit stopped the search; with --db the work so far is kept and the next run goes \
    on from it). Ctrl-C stops the search and saves the database.\n\n\
    JSON: {\"result\",\"attacker\",\"to_move\",\"size\",\"rule\",\"nodes\",\"solver_nodes\",\"solver_sites\",\"seconds\",\
    \"cpu_seconds\",\"proof_tree\",\"certificate_seconds\",\"certificate\",\"entries\",\"peak_memory_bytes\",\"root_pn\",\"root_dn\"}; \
    proof_tree is the number of attacker moves in the certificate (null without a win, or with \
    --no-certificate); solver_sites is [{\"site\",\"calls\",\"found\",\"nodes_found\",\"nodes_missed\"}] \
    for the threat solver's three uses: 'leaf' (a new attacker node), 'pass' (a new defender node, \
    as if it passed: a win restricts the replies) and 'unchecked' (a reply left out by that \
    restriction)."
)]
pub struct ProveArgs {
    /// Board size of a move list or of an empty input (5..=20; default 15)
    #[arg(long)]
    size: Option<usize>,
    /// Winning rule
    #[arg(long, value_enum, default_value_t = ProveRule::Freestyle)]
    rule: ProveRule,
    /// The side that tries to win (default: the side to move)
    #[arg(long, value_enum)]
    attacker: Option<Side>,
    /// The side to move, whatever the stone counts (default: from the counts, which must then come
    /// from a game). For cover proofs: a win with extra defender stones is a win with any subset
    /// of them under freestyle (docs/gomoku-proof.md, "Covers")
    #[arg(long, value_enum)]
    to_move: Option<Side>,
    /// Stop after this many proof-search nodes (default: no limit)
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Stop after this many seconds (default: no limit)
    #[arg(long)]
    max_seconds: Option<f64>,
    /// Search threads sharing one table (1: repeatable node counts; more: faster, counts vary)
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Nodes of each threat-space search at a leaf (default: 200 on boards up to 11x11, where
    /// pairing strategies settle most positions, 150000 above: on 15x15 the df-pn search cannot make
    /// up for wins that a larger leaf search finds)
    #[arg(long)]
    leaf_nodes: Option<u64>,
    /// Nodes of each threat-space search at a new defender node as if the defender passed (a win
    /// found there restricts the replies searched to those that touch it; default: as
    /// --leaf-nodes up to 11x11, at most 20000 above, where most of these searches find nothing
    /// and those cost the most: `h8 a7` was proved in 731 s with 20000 against 1342 s with the
    /// leaf budget of 150000, the default until session 73)
    #[arg(long)]
    pass_nodes: Option<u64>,
    /// Search steps of each pairing-strategy try (boards up to 11x11; 0: never tried)
    #[arg(long, default_value_t = 20_000)]
    pairing_steps: u64,
    /// Attacker moves an OR node tries before widening
    #[arg(long, default_value_t = 8)]
    width: usize,
    /// What orders the moves on boards above 11x11 (and so picks an OR node's first moves):
    /// the engine's fitted move order, or its evaluation cell values
    #[arg(long, value_enum, default_value_t = ProveOrder::Policy)]
    order: ProveOrder,
    /// How an OR node's disproof number and an AND node's proof number are formed from their
    /// children's: summed as df-pn does, or weak (the largest plus one for each other unsolved
    /// child), which does not count a position once for every path to it
    #[arg(long, value_enum, default_value_t = ProveSums::Full)]
    sums: ProveSums,
    /// Memory for the table in MiB (about 100 bytes a position with the search's other stores);
    /// past it the unsolved positions are dropped and found again when needed
    #[arg(long, default_value_t = 8192)]
    max_memory_mib: usize,
    /// Proved and disproved positions: loaded at the start, saved every minute and at the end
    #[arg(long)]
    db: Option<PathBuf>,
    /// Write the certificate of a win here (compressed with gzip when the name ends in `.gz`)
    #[arg(long)]
    out: Option<PathBuf>,
    /// After a win, do not build the certificate (on 15x15 that takes longer than the proof);
    /// proof_tree is then null. With --db the proof is kept, and a later run with the same --db
    /// and --out writes the certificate without searching again
    #[arg(long, conflicts_with = "out")]
    no_certificate: bool,
    /// A certificate of a similar proved position (the same attacker stones, up to a symmetry;
    /// the defender stones may differ), for example `h8 a1`'s for `h8 a3`: at each attacker node
    /// its move, found by swapping the differing defender stones back, is tried first. It only
    /// orders moves: the proof is searched and checked as without it. Repeat it for several
    /// certificates: at each node the first that has a move gives it
    #[arg(long, value_name = "CERT")]
    hint: Vec<String>,
    /// What a move other than the hint's adds to its proof number (the larger, the longer the
    /// search stays with the hint before it tries others)
    #[arg(long, default_value_t = stonelab_gomoku::prove::hint::HINT_PENALTY, requires = "hint")]
    hint_penalty: u32,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Show a progress line every 10 s even when standard error is not a terminal, with the line
    /// the search works on (each move with its proof/disproof numbers)
    #[arg(long)]
    progress: bool,
    /// Input file, or '-' (or nothing) for standard input
    file: Option<String>,
}

/// The threat solver's work at one call site of the prover.
#[derive(Serialize)]
struct SiteReport {
    site: &'static str,
    calls: u64,
    found: u64,
    nodes_found: u64,
    nodes_missed: u64,
}

#[derive(Serialize)]
struct Report {
    result: &'static str,
    attacker: &'static str,
    to_move: &'static str,
    size: usize,
    rule: &'static str,
    nodes: u64,
    solver_nodes: u64,
    /// The threat solver's calls and nodes by where the prover called it.
    solver_sites: Vec<SiteReport>,
    seconds: f64,
    cpu_seconds: f64,
    proof_tree: Option<usize>,
    /// Wall seconds spent writing out the certificate after the proof (not in `seconds`).
    certificate_seconds: Option<f64>,
    certificate: Option<String>,
    entries: usize,
    peak_memory_bytes: usize,
    root_pn: u32,
    root_dn: u32,
}

/// CPU time of this process (user + system), from /proc; 0 where unknown.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which ends with ')'): utime is the 12th, stime the 13th.
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 2..]) else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

pub fn prove(args: ProveArgs) -> anyhow::Result<()> {
    crate::common::check_threads("--threads", args.threads)?;
    if let Some(s) = args.max_seconds {
        if !(s.is_finite() && s > 0.0) {
            bail!("--max-seconds must be a positive number");
        }
    }
    if args.width == 0 {
        bail!("--width must be at least 1");
    }
    let rule: Rule = match args.rule {
        ProveRule::Freestyle => Rule::Freestyle,
        ProveRule::Standard => Rule::Standard,
    };
    let text = crate::common::read_input(args.file.as_deref())?;
    let name = super::input_name(args.file.as_deref());
    let grid = if text.trim().is_empty() {
        let n = args.size.unwrap_or(15);
        stonelab_gomoku::Grid::new(n).map_err(|e| anyhow::anyhow!("--size: {e}"))?
    } else {
        super::parse_position(&text, name, args.size, rule)?.grid
    };
    let n = grid.size();
    let (black, white) = super::counts_without_five(&grid, rule, name, "prove")?;
    let to_move = if let Some(side) = args.to_move {
        Color::from(side)
    } else if let Some(c) = game_to_move(black, white) {
        c
    } else {
        bail!(
            "{name}: {black} black and {white} white stones cannot come from a game (Black moves \
             first, so Black has as many stones as White or one more; --to-move overrides)"
        );
    };
    if black + white == n * n {
        bail!("{name}: the board is full");
    }
    let attacker = args.attacker.map_or(to_move, Color::from);
    if let Some(out) = &args.out {
        check_output_path(out, "--out")?;
    }
    if let Some(db) = &args.db {
        check_output_path(db, "--db")?;
    }
    let mut hint: Option<Hint> = None;
    for path in &args.hint {
        let c = read_cert(path)?;
        let h = Hint::new(&c, &grid, rule, attacker, to_move)
            .map_err(|e| anyhow::anyhow!("--hint {path}: {e}"))?;
        hint = Some(match hint {
            Some(first) => first.then(h),
            None => h,
        });
    }
    let hint = hint.map(Arc::new);
    let abort = Arc::new(AtomicBool::new(false));
    let small = n <= stonelab_gomoku::prove::pairing::MAX_PAIRING_SIZE;
    let leaf_nodes = args.leaf_nodes.unwrap_or(if small { 200 } else { 150_000 });
    let options = Options {
        hint,
        hint_penalty: args.hint_penalty,
        max_nodes: args.max_nodes.unwrap_or(u64::MAX),
        max_time: args.max_seconds.map(Duration::from_secs_f64),
        leaf_nodes,
        pass_nodes: Some(args.pass_nodes.unwrap_or(if small {
            leaf_nodes
        } else {
            leaf_nodes.min(20_000)
        })),
        width: args.width,
        order: args.order.into(),
        sums: args.sums.into(),
        pairing_steps: args.pairing_steps,
        max_entries: (args.max_memory_mib.max(1) << 20) / 100,
        abort: Some(abort.clone()),
        threads: args.threads,
        ..Options::default()
    };
    let mut prover = Prover::new(&grid, rule, attacker, to_move, options);
    let mut loaded = 0;
    if let Some(path) = &args.db {
        if let Some(db) = Db::load(path).map_err(|e| anyhow::anyhow!(e))? {
            if db.size != n || db.rule != rule || db.attacker != attacker {
                bail!(
                    "{}: the database is for {}x{} {} with {} attacking, not {n}x{n} {} with {} \
                     attacking",
                    path.display(),
                    db.size,
                    db.size,
                    db.rule.name(),
                    db.attacker.name(),
                    rule.name(),
                    attacker.name()
                );
            }
            loaded = db.entries.len();
            prover.seed(db.entries);
        }
    }
    let save = move |prover: &Prover, path: &PathBuf| -> anyhow::Result<()> {
        let db = Db {
            size: n,
            rule,
            attacker,
            entries: prover.solved().collect(),
        };
        write_atomically(path, &db.to_bytes()).with_context(|| format!("--db {}", path.display()))
    };
    let bar = crate::common::Spinner::new(format!(
        "proving {n}x{n} {} for {}",
        rule.name(),
        attacker.name()
    ));
    let lines = args.progress;
    let started = Instant::now();
    let cpu_start = cpu_seconds();
    let mut last_save = Instant::now();
    let mut last_line = Instant::now();
    let db_path = args.db.clone();
    let peak = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let peak_in = peak.clone();
    let bar_in = bar.clone();
    prover.on_progress(move |p, prog| {
        peak_in.fetch_max(p.memory_bytes(), std::sync::atomic::Ordering::Relaxed);
        let msg = format!(
            "root pn {} dn {}, {} nodes, {} positions, {:.0} s",
            show(prog.pn),
            show(prog.dn),
            prog.nodes,
            prog.entries,
            started.elapsed().as_secs_f64()
        );
        bar_in.set(msg.clone());
        if lines && last_line.elapsed() >= Duration::from_secs(10) {
            last_line = Instant::now();
            let path: Vec<String> = p
                .principal_path(40)
                .iter()
                .map(|&(q, pn, dn)| format!("{}({}/{})", point_name(q, n), show(pn), show(dn)))
                .collect();
            eprintln!("{msg}; line {}", path.join(" "));
        }
        if let Some(path) = &db_path {
            if last_save.elapsed() >= Duration::from_secs(60) {
                last_save = Instant::now();
                if let Err(e) = save(p, path) {
                    eprintln!("warning: {e:#}");
                }
            }
        }
    });
    let abort_on_signal = abort.clone();
    // Ctrl-C stops the search at the next node; the database is saved below.
    let _ = ctrlc::set_handler(move || {
        abort_on_signal.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let verdict = prover.run();
    bar.finish();
    let seconds = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_start;
    peak.fetch_max(prover.memory_bytes(), std::sync::atomic::Ordering::Relaxed);
    if let Some(path) = &args.db {
        save(&prover, path)?;
    }
    let mut proof_tree = None;
    let mut cert_seconds = None;
    let mut cert_path = None;
    if verdict == Verdict::Win && !args.no_certificate {
        let cert_started = Instant::now();
        let cert = counting("certificate entries", lines, |count| {
            prover.certificate_with(&grid, to_move, args.threads, count)
        })
        .map_err(|e| anyhow::anyhow!("building the certificate: {e}"))?;
        cert_seconds = Some(cert_started.elapsed().as_secs_f64());
        proof_tree = Some(cert.entries.len());
        if let Some(out) = &args.out {
            let text = cert.to_text();
            let bytes = if out.extension().is_some_and(|e| e == "gz") {
                gzip(text.as_bytes())
            } else {
                text.into_bytes()
            };
            write_atomically(out, &bytes).with_context(|| format!("--out {}", out.display()))?;
            cert_path = Some(out.display().to_string());
        }
    } else if args.out.is_some() && args.format == Format::Text {
        eprintln!("no certificate written: the result is {}", verdict.name());
    }
    let (root_pn, root_dn) = prover.root_numbers();
    let report = Report {
        result: verdict.name(),
        attacker: attacker.name(),
        to_move: to_move.name(),
        size: n,
        rule: rule.name(),
        nodes: prover.nodes(),
        solver_nodes: prover.solver_nodes(),
        solver_sites: prover
            .solver_sites()
            .into_iter()
            .map(|(site, c)| SiteReport {
                site: site.name(),
                calls: c.calls,
                found: c.found,
                nodes_found: c.nodes_found,
                nodes_missed: c.nodes_missed,
            })
            .collect(),
        seconds,
        cpu_seconds: cpu,
        proof_tree,
        certificate_seconds: cert_seconds,
        certificate: cert_path,
        entries: prover.table().len(),
        peak_memory_bytes: peak.load(std::sync::atomic::Ordering::Relaxed),
        root_pn,
        root_dn,
    };
    if args.format == Format::Json {
        return print_json(&report);
    }
    println!("{}", report.result);
    println!(
        "attacker {} ({} to move), {n}x{n} {}",
        report.attacker, report.to_move, report.rule
    );
    println!(
        "nodes {} (threat solver {}), {:.2} s wall, {:.2} s CPU, {} table entries{}",
        report.nodes,
        report.solver_nodes,
        seconds,
        cpu,
        report.entries,
        if loaded > 0 {
            format!(" ({loaded} loaded)")
        } else {
            String::new()
        }
    );
    let sites: Vec<String> = report
        .solver_sites
        .iter()
        .map(|c| {
            format!(
                "{} {} calls ({} found; nodes {} found, {} missed)",
                c.site, c.calls, c.found, c.nodes_found, c.nodes_missed
            )
        })
        .collect();
    println!("threat solver by site: {}", sites.join("; "));
    if verdict == Verdict::Unknown {
        println!(
            "root proof number {} disproof number {}",
            show(root_pn),
            show(root_dn)
        );
    }
    if let (Some(t), Some(c)) = (proof_tree, cert_seconds) {
        println!("proof tree: {t} attacker moves in the certificate ({c:.2} s to build)");
    }
    if let Some(c) = &report.certificate {
        println!("certificate written to {c}");
    }
    println!(
        "peak memory about {} MiB",
        report.peak_memory_bytes.div_ceil(1 << 20)
    );
    Ok(())
}

/// Runs `work` with a counter it advances, shown on a spinner as `what` (and, with `lines`, a
/// line every ten seconds: a large certificate takes minutes to write or check).
fn counting<T>(what: &str, lines: bool, work: impl FnOnce(&AtomicU64) -> T) -> T {
    use std::sync::atomic::Ordering::Relaxed;
    let count = AtomicU64::new(0);
    let bar = crate::common::Spinner::new(what.to_string());
    let started = Instant::now();
    let done = AtomicBool::new(false);
    let out = std::thread::scope(|s| {
        s.spawn(|| {
            let mut last_line = Instant::now();
            while !done.load(Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                let msg = format!(
                    "{what}: {}, {:.0} s",
                    count.load(Relaxed),
                    started.elapsed().as_secs_f64()
                );
                bar.set(msg.clone());
                if lines && last_line.elapsed() >= Duration::from_secs(10) {
                    last_line = Instant::now();
                    eprintln!("{msg}");
                }
            }
        });
        let out = work(&count);
        done.store(true, Relaxed);
        out
    });
    bar.finish();
    out
}

fn show(x: u32) -> String {
    if x >= stonelab_gomoku::prove::INF {
        "inf".into()
    } else {
        x.to_string()
    }
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Checks every position the certificate's strategy reaches: the attacker plays \
    the listed move, and every legal reply of the defender must lead to a listed position or to one \
    where the attacker has a five point or a VCF of at most the certificate's bound of fours (found \
    by the plain referee search). Exit status 0 when it holds; 1, with the line of moves that fails, when it \
    does not; 2 for a file that is not a certificate or is corrupt (checksum).\n\
    JSON: {\"valid\":true,\"attacker\":\"black\",\"to_move\":\"black\",\"size\":N,\"rule\":\"freestyle\",\"black\":[points],\"white\":[points], \
    \"positions\":N,\"replies\":N,\"leaves\":N,\"entries\":N,\"seconds\":S} (the claim: the attacker, \
    with the side to move and the root's stones, wins) or \
    {\"valid\":false,\"error\":\"...\"}. With --covers the report adds \"covers\": [{\"position\",\"covered\",\"symmetry\" or \"why\"}] (text: one line each)."
)]
pub struct CheckArgs {
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Threads (1: the plain one-threaded walk; more share out the defender's replies near the
    /// root and give the same counts for a valid certificate)
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// After a valid check, also say whether the proved win covers this position (repeatable):
    /// moves from the empty board, as `prove` reads them (e.g. "h8 a2"). Covered: under freestyle,
    /// the same attacker stones and side to move as the root, and a subset of the root's defender
    /// stones, up to a symmetry of the board (docs/gomoku-proof.md, "Covers"). Exit status 1 when
    /// one is not covered
    #[arg(long, value_name = "POSITION")]
    covers: Vec<String>,
    /// The certificate (plain text, or gzip-compressed whatever its name)
    cert: String,
}

/// What `--covers` says of one position: the symmetry that maps it into the root, or why not.
fn cover(c: &Certificate, text: &str) -> anyhow::Result<Result<u8, String>> {
    let n = c.root.size();
    let grid = super::parse_position(text, "--covers", Some(n), c.rule)?.grid;
    let (black, white) = super::counts_without_five(&grid, c.rule, "--covers", "cover")?;
    let Some(to_move) = game_to_move(black, white) else {
        bail!("--covers '{text}': {black} black and {white} white stones cannot come from a game");
    };
    Ok(c.covers(&grid, to_move))
}

/// The side to move in a game with these stone counts (Black moves first); `None` when no game
/// has them.
fn game_to_move(black: usize, white: usize) -> Option<Color> {
    if black == white {
        Some(Color::Black)
    } else if black == white + 1 {
        Some(Color::White)
    } else {
        None
    }
}

/// `bytes` compressed with gzip (a certificate named `*.gz`: its lines share long prefixes, and a
/// 15x15 one runs to millions of lines).
fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    z.write_all(bytes).expect("gzip into memory");
    z.finish().expect("gzip into memory")
}

fn read_cert(path: &str) -> anyhow::Result<Certificate> {
    let mut text = std::fs::read(path).with_context(|| format!("cannot read '{path}'"))?;
    // A gzip stream (magic 1f 8b), whatever the file's name.
    if text.starts_with(&[0x1f, 0x8b]) {
        use std::io::Read;
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(&text[..])
            .read_to_end(&mut plain)
            .map_err(|e| anyhow::anyhow!("{path}: not a whole gzip stream ({e})"))?;
        text = plain;
    }
    let text = String::from_utf8(text)
        .map_err(|_| anyhow::anyhow!("{path}: not a stonelab proof certificate (not text)"))?;
    Certificate::parse(&text).map_err(|e| anyhow::anyhow!("{path}: {e}"))
}

pub fn check_proof(args: CheckArgs) -> anyhow::Result<()> {
    crate::common::check_threads("--threads", args.threads)?;
    let c = read_cert(&args.cert)?;
    // The positions to cover are read before the check, so a bad one fails at once.
    let covers = args
        .covers
        .iter()
        .map(|t| Ok((t.clone(), cover(&c, t)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let uncovered = covers.iter().any(|(_, r)| r.is_err());
    let started = Instant::now();
    let res = counting("positions checked", false, |count| {
        cert::check_with(&c, args.threads, count)
    });
    let seconds = started.elapsed().as_secs_f64();
    match (res, args.format) {
        (Ok(r), Format::Json) => {
            let n = c.root.size();
            let stones = |colour| {
                let points = c.root_stones(colour);
                points.map(|p| point_name(p, n)).collect::<Vec<_>>()
            };
            let mut report = serde_json::json!({
                "valid": true, "attacker": c.attacker.name(), "to_move": c.to_move.name(),
                "size": n, "rule": c.rule.name(), "black": stones(Color::Black),
                "white": stones(Color::White), "positions": r.positions, "replies": r.replies,
                "leaves": r.leaves, "entries": c.entries.len(), "seconds": seconds });
            if !covers.is_empty() {
                report["covers"] = covers
                    .iter()
                    .map(|(text, r)| match r {
                        Ok(t) => {
                            serde_json::json!({"position": text, "covered": true, "symmetry": t})
                        }
                        Err(why) => {
                            serde_json::json!({"position": text, "covered": false, "why": why})
                        }
                    })
                    .collect();
            }
            print_json(&report)?;
            if uncovered {
                std::process::exit(1);
            }
            Ok(())
        }
        (Ok(r), Format::Text) => {
            println!(
                "valid: {} wins ({}x{} {}); {} positions checked, {} defender replies, {} closed by a five point or a VCF of at most {} fours; {:.2} s",
                c.attacker.name(),
                c.root.size(),
                c.root.size(),
                c.rule.name(),
                r.positions,
                r.replies,
                r.leaves,
                c.vcf_bound,
                seconds
            );
            for (text, r) in &covers {
                match r {
                    Ok(t) => println!("covers '{text}' (symmetry {t})"),
                    Err(why) => println!("does not cover '{text}': {why}"),
                }
            }
            if uncovered {
                std::process::exit(1);
            }
            Ok(())
        }
        (Err(e), Format::Json) => {
            print_json(&serde_json::json!({ "valid": false, "error": e }))?;
            std::process::exit(1);
        }
        (Err(e), Format::Text) => {
            println!("invalid: {e}");
            std::process::exit(1);
        }
    }
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Moves are in move notation (column letter from a, row number from 1 at the \
    bottom: h8 is the centre of 15x15), from the certificate's root, both sides alternating. Prints \
    the certificate's attacker move there: its entry, else a five point, else the first move of a \
    VCF within the certificate's bound; 'none' when the defender is to move or the strategy has no \
    move there."
)]
pub struct MoveArgs {
    /// The moves from the root, e.g. "h8 i9"
    #[arg(long, default_value = "")]
    moves: String,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The certificate (plain text, or gzip-compressed whatever its name)
    cert: String,
}

pub fn proof_move(args: MoveArgs) -> anyhow::Result<()> {
    let c = read_cert(&args.cert)?;
    let n = c.root.size();
    let moves = cert::parse_points(&args.moves.replace(',', " "), n)
        .map_err(|e| anyhow::anyhow!("--moves: {e}"))?;
    let m = cert::lookup(&c, &moves).map_err(|e| anyhow::anyhow!("--moves: {e}"))?;
    let name = m.map_or_else(|| "none".to_string(), |p| point_name(p, n));
    match args.format {
        Format::Json => print_json(&serde_json::json!({ "move": m.map(|p| point_name(p, n)) })),
        Format::Text => {
            println!("{name}");
            Ok(())
        }
    }
}
