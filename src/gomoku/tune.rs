//! `stonelab gomoku selfplay` (games for the tuner) and `stonelab gomoku tune` (fit the
//! evaluation's weights to game results). The data and the method: docs/gomoku-engine.md.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use stonelab_gomoku::engine::cells::COMBINATIONS;
use stonelab_gomoku::engine::selfplay::{self, Outcome, Settings};
use stonelab_gomoku::engine::tune::{self, Fit, Samples};
use stonelab_gomoku::engine::Class;
use stonelab_gomoku::engine::{threats, weights};
use stonelab_gomoku::{Color, Point, Rule};

use super::RuleArg;
use crate::arena::write_atomically;
use crate::common::Format;

#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// Board side
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u8).range(5..=20))]
    size: u8,
    /// Winning rule
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    rule: RuleArg,
    /// Games to have in the record (a resumed run plays only the missing ones)
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Nodes per move (threat-space and alpha-beta together)
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Moves played at random (next to a stone) after the opening
    #[arg(long, default_value_t = 4)]
    random_plies: usize,
    /// Openings file (as `gomoku match --openings`), used in turn; default: the centre stone
    #[arg(long)]
    openings: Option<String>,
    /// Seed of the random moves
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Alpha-beta alone, without the threat-space searches before it (many times faster)
    #[arg(long)]
    no_threat_search: bool,
    /// Games played at once (default: the machine's cores)
    #[arg(long)]
    threads: Option<usize>,
    /// The record (JSON Lines, `gomoku match`'s game lines); an existing one is resumed
    #[arg(long)]
    out: PathBuf,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct Header {
    record: String,
    version: u32,
    size: usize,
    rule: String,
    nodes: u64,
    random_plies: usize,
    openings: Option<String>,
    seed: u64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    no_threat_search: bool,
}

/// A game line, in the shape `gomoku match` writes (engine "a" plays both colours).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct GameLine {
    number: u32,
    opening: usize,
    black: String,
    winner: Option<String>,
    end: String,
    moves: Vec<[u8; 2]>,
    opening_stones: usize,
    #[serde(default)]
    note: Option<String>,
}

/// The `record` of a labels file (`scripts/gomoku-label`): positions with a stronger engine's
/// value for the side to move.
const LABELS_RECORD: &str = "stonelab gomoku labels";

/// A labelled position: the moves from Black's first, and the expected result for the side to
/// move (0..=1).
#[derive(Clone, Debug, Deserialize)]
struct LabelLine {
    moves: Vec<[u8; 2]>,
    value: f32,
}

/// Games are saved every this many.
const SAVE_EVERY: usize = 20;

pub fn selfplay(args: SelfplayArgs) -> anyhow::Result<()> {
    let size = usize::from(args.size);
    let rule: Rule = args.rule.into();
    let openings = match &args.openings {
        Some(path) => super::matches::read_openings(path, size, rule)?,
        None => vec![vec![Point::new((size / 2) as u8, (size / 2) as u8)]],
    };
    let header = Header {
        record: "stonelab gomoku selfplay".into(),
        version: 1,
        size,
        rule: rule.to_string(),
        nodes: args.nodes,
        random_plies: args.random_plies,
        openings: args.openings.clone(),
        seed: args.seed,
        no_threat_search: args.no_threat_search,
    };
    let lines = read_record(&args.out, &header)?;
    let done: std::collections::BTreeSet<u32> = lines.iter().map(|g| g.number).collect();
    let todo: Vec<u32> = (1..=args.games).filter(|n| !done.contains(n)).collect();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let threads = args.threads.unwrap_or(cores).clamp(1, cores);
    let bar = crate::arena::progress_bar(todo.len() as u64);
    let next = AtomicU32::new(0);
    // The games so far, games finished since the last save, games played by this run.
    let state = Mutex::new((lines, 0usize, 0usize));
    let failed = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed) as usize;
                let Some(&number) = todo.get(k) else { break };
                let o = (number as usize - 1) % openings.len();
                let settings = Settings {
                    size,
                    rule,
                    nodes: args.nodes,
                    random_plies: args.random_plies,
                    seed: args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(number),
                    table_bytes: 16 << 20,
                    threat_search: !args.no_threat_search,
                };
                let game = selfplay::play(&settings, &openings[o]);
                let line = game_line(number, o, openings[o].len(), &game);
                let mut st = state.lock().expect("no panic while holding the lock");
                st.0.push(line);
                st.1 += 1;
                st.2 += 1;
                if let Some(bar) = &bar {
                    bar.inc(1);
                }
                if st.1 >= SAVE_EVERY {
                    st.1 = 0;
                    st.0.sort_by_key(|g| g.number);
                    if let Err(e) = save_record(&args.out, &header, &st.0) {
                        *failed.lock().expect("no panic") = Some(e);
                        next.store(u32::MAX, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().expect("threads joined") {
        return Err(e);
    }
    let (mut lines, _, played) = state.into_inner().expect("threads joined");
    lines.sort_by_key(|g| g.number);
    save_record(&args.out, &header, &lines)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let (b, w, d) = lines.iter().fold((0, 0, 0), |(b, w, d), g| match g.winner {
        Some(_) if g.moves.len() % 2 == 1 => (b + 1, w, d),
        Some(_) => (b, w + 1, d),
        None => (b, w, d + 1),
    });
    println!(
        "{}: {} games ({played} played now): Black won {b}, White {w}, {d} drawn",
        args.out.display(),
        lines.len()
    );
    Ok(())
}

fn game_line(
    number: u32,
    opening: usize,
    opening_stones: usize,
    game: &selfplay::Game,
) -> GameLine {
    let (winner, end) = match game.outcome {
        Outcome::Five(_) => (Some("a".to_string()), "five"),
        Outcome::Draw => (None, "board_full"),
    };
    GameLine {
        number,
        opening,
        black: "a".into(),
        winner,
        end: end.into(),
        moves: game.moves.iter().map(|p| [p.x, p.y]).collect(),
        opening_stones,
        note: None,
    }
}

/// The games of an existing self-play record (after checking its header), or none.
fn read_record(path: &Path, header: &Header) -> anyhow::Result<Vec<GameLine>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read '{}'", path.display())),
    };
    let mut lines = text.lines();
    let first: Header = lines
        .next()
        .and_then(|l| serde_json::from_str(l).ok())
        .with_context(|| format!("'{}' line 1: not a self-play record header", path.display()))?;
    if &first != header {
        bail!(
            "'{}' was made with other settings ({}); give another --out",
            path.display(),
            serde_json::to_string(&first)?
        );
    }
    lines
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l)
                .with_context(|| format!("'{}' line {}: not a game", path.display(), i + 2))
        })
        .collect()
}

fn save_record(path: &Path, header: &Header, lines: &[GameLine]) -> anyhow::Result<()> {
    let mut text = serde_json::to_string(header)?;
    text.push('\n');
    for g in lines {
        text.push_str(&serde_json::to_string(g)?);
        text.push('\n');
    }
    write_atomically(path, text.as_bytes())
        .with_context(|| format!("cannot write '{}'", path.display()))
}

#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Game records: `gomoku selfplay` or `gomoku match` JSON Lines files, or labelled positions
    /// (`scripts/gomoku-label`: a stronger engine's value as a soft result); one rule, any board
    /// sizes (the fitted features are a cell's line patterns, the same on every board)
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// Positions left out at the start of every game, besides its opening
    #[arg(long, default_value_t = 4)]
    skip: usize,
    /// Full passes of Adam over the samples
    #[arg(long, default_value_t = 300)]
    epochs: usize,
    /// Adam's step, in evaluation units
    #[arg(long, default_value_t = 4.0)]
    step: f64,
    /// L2 pull towards the compiled-in weights (loss units per squared logit)
    #[arg(long, default_value_t = 1e-5)]
    l2: f64,
    /// What is fitted: `classes` (a value per class and four pair bonuses per side, 30 numbers),
    /// `table` (every combination's weight), or `both` (classes, then the table pulled towards them)
    #[arg(long, value_enum, default_value_t = Model::Both)]
    model: Model,
    /// Percent of the games held out to measure the fit (every k-th game)
    #[arg(long, default_value_t = 10)]
    holdout: u32,
    /// Records or labels held out whole, to measure the fit on positions no fit has seen: with
    /// them, every position of RECORDS is fitted (--holdout then applies to --choices alone)
    #[arg(long, value_name = "FILE", num_args = 1..)]
    holdout_files: Vec<PathBuf>,
    /// Write the fitted weights here (the format of crates/gomoku/data/eval-weights.txt); under
    /// renju Black's weights (crates/gomoku/data/eval-weights-renju-black.txt)
    #[arg(long)]
    out: Option<PathBuf>,
    /// Under renju: write White's fitted weights here (the format of
    /// crates/gomoku/data/eval-weights-renju-white.txt); required with --out under renju
    #[arg(long, value_name = "FILE")]
    out_white: Option<PathBuf>,
    /// Keep the threat-mask weights as compiled in (by default `table` and `both` fit them with
    /// the cell weights)
    #[arg(long)]
    no_threats: bool,
    /// Write the fitted threat-mask weights here (the format of
    /// crates/gomoku/data/threat-weights.txt); under renju those with Black to move
    /// (crates/gomoku/data/threat-weights-renju-black.txt)
    #[arg(long)]
    threat_out: Option<PathBuf>,
    /// Under renju: write the fitted threat-mask weights with White to move here
    /// (crates/gomoku/data/threat-weights-renju-white.txt); required with --threat-out under renju
    #[arg(long, value_name = "FILE")]
    threat_out_white: Option<PathBuf>,
    /// Match records whose moves by one player (--choices-player) the evaluation is also fitted
    /// to rank first among the quiet candidates, one ply deep (comparison training; see
    /// docs/gomoku-engine.md, "Tuning the evaluation")
    #[arg(long, value_name = "RECORD", num_args = 1..)]
    choices: Vec<PathBuf>,
    /// Whose moves --choices fits: the record's engine `a` or `b`
    #[arg(long, default_value = "b", value_parser = ["a", "b"])]
    choices_player: String,
    /// The most positions --choices takes (the first of each record's games, in file order)
    #[arg(long, default_value_t = 30_000)]
    choices_max: usize,
    /// The move-choice loss's weight beside the value loss
    #[arg(long, default_value_t = 1.0)]
    choices_weight: f64,
    /// The move-choice softmax's temperature in evaluation units (default: the fitted scale)
    #[arg(long)]
    temperature: Option<f64>,
    /// Fit the smoothed evaluation (`pbrain-stonelab --knobs smooth=1`): each position's cell
    /// sums averaged with those before its last move, seen from the same side; not with --choices
    #[arg(long)]
    smooth: bool,
    /// With --model net: the width of each side's sum of combination vectors
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=256))]
    hidden: u16,
    /// With --model net: the rectified units
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=256))]
    units: u16,
    /// With --model net: positions per Adam step
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// With --model net: Adam's step size
    #[arg(long, default_value_t = 1e-3)]
    net_step: f32,
    /// With --model net: write the net (the epoch with the best held-out loss) here, for
    /// `pbrain-stonelab --eval-net`
    #[arg(long, value_name = "FILE")]
    net_out: Option<PathBuf>,
    /// With --model net: start from this net file instead of small random numbers (its sizes
    /// replace --hidden and --units; a renju fit may start from a freestyle net, each colour
    /// from a copy of its vectors)
    #[arg(long, value_name = "FILE")]
    net_start: Option<PathBuf>,
    /// With --model net: L2 on the net's parameters
    #[arg(long, default_value_t = 1e-6)]
    net_l2: f32,
    /// With --model net: also fit vectors of each cell's joint threat level (its level for the
    /// side to move and for the other side together), added to the side to move's sum (not
    /// under renju; a --net-start net with them fits them anyway)
    #[arg(long)]
    joint: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Model {
    Classes,
    Table,
    Both,
    /// The linear weights as compiled in, plus a small net on per-side sums of combination
    /// vectors (per colour too under renju); reports the held-out fit, writes --net-out
    Net,
}

#[derive(Serialize)]
struct TuneReport {
    games: usize,
    train_samples: usize,
    holdout_samples: usize,
    scale: f64,
    train_loss_before: f64,
    train_loss_after: f64,
    holdout_loss_before: f64,
    holdout_loss_after: f64,
    /// With --choices: the positions fitted and held out, the temperature, and the held-out
    /// mean negative log-probability and top-1 rate of the moves played, before and after.
    #[serde(skip_serializing_if = "Option::is_none")]
    choices: Option<ChoiceReport>,
    /// The class design's parameters (to move, then waiting): B1..F4, then the bonuses for two
    /// fours, four-three, two threes, two lines of F2 or B3.
    class_params: Option<Vec<f64>>,
    out: Option<String>,
    threat_out: Option<String>,
}

#[derive(Serialize)]
struct ChoiceReport {
    train_positions: usize,
    holdout_positions: usize,
    temperature: f64,
    holdout_nll_before: f64,
    holdout_nll_after: f64,
    holdout_top1_before: f64,
    holdout_top1_after: f64,
}

/// The move choices of `player` in match records, every `every`-th game held out.
fn read_choices(
    paths: &[PathBuf],
    player: &str,
    skip: usize,
    max: usize,
    every: usize,
    board: &mut Option<Rule>,
) -> anyhow::Result<(tune::Choices, tune::Choices)> {
    let (mut train, mut held) = (tune::Choices::new(), tune::Choices::new());
    let mut games = 0;
    for path in paths {
        let text = read_text(path)?;
        let mut lines = text.lines();
        let (_, size, rule) = record_header(path, lines.next(), board, &Rule::ALL)?;
        for (i, line) in lines.enumerate() {
            if train.len() + held.len() >= max {
                return Ok((train, held));
            }
            let g: GameLine = serde_json::from_str(line)
                .with_context(|| format!("'{}' line {}: not a game", path.display(), i + 2))?;
            let moves: Vec<Point> = g.moves.iter().map(|m| Point::new(m[0], m[1])).collect();
            games += 1;
            let into = if games % every == 0 {
                &mut held
            } else {
                &mut train
            };
            // The player's colour: moves from Black's first alternate.
            let parity = usize::from(g.black != player);
            for k in (g.opening_stones + skip)..moves.len() {
                if k % 2 != parity {
                    continue;
                }
                if let Err(j) = into.add(size, rule, &moves[..k], moves[k]) {
                    bail!(
                        "'{}' line {}: move {} is off the board or repeated",
                        path.display(),
                        i + 2,
                        j + 1
                    );
                }
            }
        }
    }
    Ok((train, held))
}

/// The files a fit read, for its provenance: the records, then `--holdout-files` and theirs.
fn fitted_files(args: &TuneArgs) -> String {
    let mut names: Vec<String> = args
        .records
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    if !args.holdout_files.is_empty() {
        names.push("--holdout-files".into());
        names.extend(args.holdout_files.iter().map(|p| p.display().to_string()));
    }
    names.join(" ")
}

/// Every how many games one is held out, for `percent` held out (0: none).
pub(super) fn holdout_every(percent: u32) -> usize {
    if percent == 0 {
        usize::MAX
    } else {
        (100 / percent.min(100)) as usize
    }
}

/// A record's text, or an error naming the file.
pub(super) fn read_text(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read '{}'", path.display()))
}

/// The header of a record or labels file read by the tuners (its first line, `first`): the JSON
/// object, the board size and the rule, the rule checked against the files before (`board`, set
/// by the first) and against the `rules` the tuner takes. Board sizes may differ from file to file.
pub(super) fn record_header(
    path: &Path,
    first: Option<&str>,
    board: &mut Option<Rule>,
    rules: &[Rule],
) -> anyhow::Result<(Value, usize, Rule)> {
    let head: Value = first
        .and_then(|l| serde_json::from_str(l).ok())
        .with_context(|| format!("'{}' line 1: not a record header", path.display()))?;
    let size = head["size"].as_u64().unwrap_or(0) as usize;
    let rule = match head["rule"].as_str().map(str::parse::<Rule>) {
        Some(Ok(rule)) if rules.contains(&rule) => rule,
        _ => {
            let names: Vec<String> = rules.iter().map(ToString::to_string).collect();
            bail!(
                "'{}' line 1: no rule {}",
                path.display(),
                names.join(" or ")
            )
        }
    };
    if !(5..=20).contains(&size) {
        bail!("'{}' line 1: no board size in 5..=20", path.display());
    }
    if board.is_some_and(|b| b != rule) {
        bail!("'{}': another rule than the first record", path.display());
    }
    *board = Some(rule);
    Ok((head, size, rule))
}

/// `--model net`: the net on top of the compiled-in weights, its held-out fit reported each epoch.
fn fit_net(
    args: &TuneArgs,
    train: &Samples,
    held: &Samples,
    start: &[f64],
    scale: f64,
) -> anyhow::Result<()> {
    use stonelab_gomoku::engine::tune_net::{Net, NetFit};
    if args.smooth || !args.choices.is_empty() {
        bail!("--model net: not with --smooth or --choices");
    }
    // Renju's linear weights are per colour, and so are its net's vectors.
    let colours = if start.len() == tune::WEIGHTS { 1 } else { 2 };
    let mut net = match &args.net_start {
        None => Net::new(
            usize::from(args.hidden),
            usize::from(args.units),
            colours,
            60,
        ),
        Some(path) => {
            let text = read_text(path)?;
            stonelab_gomoku::engine::net::NetFile::parse(&text)
                .and_then(|file| Net::from_file(&file, colours))
                .map_err(|e| anyhow::anyhow!("--net-start {}: {e}", path.display()))?
        }
    };
    if args.joint && net.joint.is_empty() {
        if colours != 1 {
            bail!("--joint: not under renju");
        }
        net = net.with_joint();
    }
    let (hidden, units) = (net.hidden, net.units);
    let start_note = args
        .net_start
        .as_ref()
        .map_or(String::new(), |p| format!(" --net-start {}", p.display()))
        + if args.joint { " --joint" } else { "" };
    let settings = NetFit {
        scale,
        epochs: args.epochs,
        batch: args.batch,
        step: args.net_step,
        l2: args.net_l2,
        seed: 60,
    };
    let before = (train.loss(start, scale), held.loss(start, scale));
    let text = args.format == Format::Text;
    if text {
        println!(
            "{} positions fitted, {} held out; scale {scale:.1}; linear cross-entropy {:.5} / {:.5} held out",
            train.len(),
            held.len(),
            before.0,
            before.1
        );
    }
    // The epoch with the best held-out loss is kept (early stopping; the training loss when
    // nothing is held out).
    let mut best: Option<(f64, usize, Net)> = None;
    let mut epochs = Vec::new();
    net.fit(train, start, settings, |epoch, loss, net| {
        let h = net.loss(held, start, scale);
        if text {
            println!("epoch {epoch}: training {loss:.5}, held out {h:.5}");
        }
        epochs.push(serde_json::json!({"epoch": epoch, "train_loss": loss, "holdout_loss": h}));
        let judged = if held.is_empty() { loss } else { h };
        if best.as_ref().is_none_or(|b| judged < b.0) {
            best = Some((judged, epoch, net.clone()));
        }
    });
    let Some((_, epoch, net)) = best else {
        bail!("--model net: no epochs");
    };
    let h = net.loss(held, start, scale);
    let t = net.loss(train, start, scale);
    if text {
        println!("net (epoch {epoch}): training {t:.5}, held out {h:.5}");
    } else {
        crate::common::print_json(&serde_json::json!({
            "train_samples": train.len(),
            "holdout_samples": held.len(),
            "scale": scale,
            "hidden": net.hidden,
            "units": net.units,
            "train_loss_linear": before.0,
            "holdout_loss_linear": before.1,
            "epochs": epochs,
            "kept_epoch": epoch,
            "train_loss_net": t,
            "holdout_loss_net": h,
            "net_out": args.net_out.as_ref().map(|p| p.display().to_string()),
        }))?;
    }
    if let Some(out) = &args.net_out {
        let comments = vec![
            format!(
                "Provenance: `stonelab gomoku tune --model net --hidden {} --units {}{} --batch {} --net-step {} --net-l2 {} --epochs {} --skip {} --holdout {}` on",
                hidden, units, start_note, args.batch, args.net_step, args.net_l2, args.epochs, args.skip, args.holdout
            ),
            fitted_files(args),
            format!(
                "{} positions fitted, {} held out, on top of the compiled-in weights (scale {scale:.1});",
                train.len(),
                held.len()
            ),
            format!(
                "kept epoch {epoch}; held-out cross-entropy {:.5} linear, {h:.5} with the net.",
                held.loss(start, scale)
            ),
        ];
        let text = net.to_text(scale, &comments);
        write_atomically(out, text.as_bytes())
            .with_context(|| format!("cannot write '{}'", out.display()))?;
    }
    Ok(())
}

pub fn tune(args: TuneArgs) -> anyhow::Result<()> {
    if args.smooth && !args.choices.is_empty() {
        bail!("--smooth: not with --choices (the move-choice term fits the plain evaluation)");
    }
    let (mut train, mut held) = if args.smooth {
        (Samples::smoothed(), Samples::smoothed())
    } else {
        (Samples::new(), Samples::new())
    };
    let mut games = 0;
    let mut board: Option<Rule> = None;
    let every = if args.holdout_files.is_empty() {
        holdout_every(args.holdout)
    } else {
        usize::MAX
    };
    let files = args.records.iter().map(|p| (p, false));
    for (path, held_whole) in files.chain(args.holdout_files.iter().map(|p| (p, true))) {
        let text = read_text(path)?;
        let mut lines = text.lines();
        let (head, size, rule) = record_header(path, lines.next(), &mut board, &Rule::ALL)?;
        if head["record"].as_str() == Some(LABELS_RECORD) {
            for (i, line) in lines.enumerate() {
                let l: LabelLine = serde_json::from_str(line).with_context(|| {
                    format!(
                        "'{}' line {}: not a labelled position",
                        path.display(),
                        i + 2
                    )
                })?;
                if !(0.0..=1.0).contains(&l.value) {
                    bail!(
                        "'{}' line {}: value {} not in 0..=1",
                        path.display(),
                        i + 2,
                        l.value
                    );
                }
                let moves: Vec<Point> = l.moves.iter().map(|m| Point::new(m[0], m[1])).collect();
                games += 1;
                let into = if held_whole || games % every == 0 {
                    &mut held
                } else {
                    &mut train
                };
                if let Err(k) = into.add_position(size, rule, &moves, l.value) {
                    bail!(
                        "'{}' line {}: move {} is off the board or repeated",
                        path.display(),
                        i + 2,
                        k + 1
                    );
                }
            }
            continue;
        }
        for (i, line) in lines.enumerate() {
            let g: GameLine = serde_json::from_str(line)
                .with_context(|| format!("'{}' line {}: not a game", path.display(), i + 2))?;
            let moves: Vec<Point> = g.moves.iter().map(|m| Point::new(m[0], m[1])).collect();
            if moves
                .iter()
                .any(|p| usize::from(p.x) >= size || usize::from(p.y) >= size)
            {
                bail!("'{}' line {}: a move off the board", path.display(), i + 2);
            }
            let winner = match (&g.winner, g.end.as_str()) {
                (None, _) => None,
                (Some(w), "five") => Some(if *w == g.black {
                    Color::Black
                } else {
                    Color::White
                }),
                // Games lost on time or by an illegal move say nothing about the position.
                (Some(_), _) => continue,
            };
            games += 1;
            let into = if held_whole || games % every == 0 {
                &mut held
            } else {
                &mut train
            };
            into.add_game(size, rule, &moves, winner, g.opening_stones + args.skip);
        }
    }
    if train.is_empty() {
        bail!("no positions to fit in the records");
    }
    let rule = board.unwrap_or(Rule::Freestyle);
    let renju = rule == Rule::Renju;
    if renju && args.threat_out.is_some() != args.threat_out_white.is_some() {
        bail!("under renju --threat-out (Black to move) and --threat-out-white go together");
    }
    if !renju && args.threat_out_white.is_some() {
        bail!("--threat-out-white: only under renju, where each side to move has threat weights of its own");
    }
    if renju && args.out.is_some() != args.out_white.is_some() {
        bail!("under renju --out (Black's weights) and --out-white (White's) go together");
    }
    if !renju && args.out_white.is_some() {
        bail!("--out-white: only under renju, where each colour has weights of its own");
    }
    let (threat_base, n_weights) = (tune::threat_base(rule), tune::weights_len(rule));
    let start = tune::current_weights_for(rule);
    let scale = tune::best_scale(&train, &start);
    let frozen: Vec<bool> = (0..n_weights)
        .map(|k| {
            if k >= threat_base {
                return args.no_threats;
            }
            let ks = stonelab_gomoku::engine::cells::combinations()[k % COMBINATIONS];
            ks[0] == Class::Five || ks.iter().all(|&c| c == Class::Dead)
        })
        .collect();
    let fit = Fit {
        scale,
        l2: args.l2,
        epochs: args.epochs,
        step: args.step,
    };
    if args.model == Model::Net {
        return fit_net(&args, &train, &held, &start, scale);
    }
    let (choices_train, choices_held) = read_choices(
        &args.choices,
        &args.choices_player,
        args.skip,
        args.choices_max,
        holdout_every(args.holdout),
        &mut board,
    )?;
    let temperature = args.temperature.unwrap_or(scale);
    if !(temperature > 0.0 && temperature.is_finite()) {
        bail!("--temperature: expected a positive number");
    }
    let term = (!choices_train.is_empty()).then_some(tune::ChoiceTerm {
        choices: &choices_train,
        temperature,
        weight: args.choices_weight,
    });
    let mut fitted = start.clone();
    let mut class_params = None;
    if args.model != Model::Table {
        let (design, theta) = tune::Design::classes(&start, &frozen);
        let theta = tune::fit_design_with(&train, term, &design, &theta, fit);
        fitted = design.weights(&theta);
        class_params = Some(theta.iter().map(|t| t.round()).collect::<Vec<f64>>());
    }
    if args.model != Model::Classes {
        let (design, theta) = tune::Design::table(&fitted, &frozen);
        fitted = design.weights(&tune::fit_design_with(&train, term, &design, &theta, fit));
    }
    let rounded: Vec<f64> = fitted.iter().map(|w| w.round()).collect();
    let report = TuneReport {
        games,
        train_samples: train.len(),
        holdout_samples: held.len(),
        scale,
        train_loss_before: train.loss(&start, scale),
        train_loss_after: train.loss(&rounded, scale),
        holdout_loss_before: held.loss(&start, scale),
        holdout_loss_after: held.loss(&rounded, scale),
        choices: term.map(|_| {
            let (nll_before, top1_before) = choices_held.loss(&start, temperature);
            let (nll_after, top1_after) = choices_held.loss(&rounded, temperature);
            ChoiceReport {
                train_positions: choices_train.len(),
                holdout_positions: choices_held.len(),
                temperature,
                holdout_nll_before: nll_before,
                holdout_nll_after: nll_after,
                holdout_top1_before: top1_before,
                holdout_top1_after: top1_after,
            }
        }),
        class_params,
        out: args.out.as_ref().map(|p| p.display().to_string()),
        threat_out: args.threat_out.as_ref().map(|p| p.display().to_string()),
    };
    let provenance = [
        format!(
            "Provenance: `stonelab gomoku tune --model {} --skip {} --epochs {} --step {} --l2 {} --holdout {}{}{}` on",
            format!("{:?}", args.model).to_lowercase(),
            args.skip,
            args.epochs,
            args.step,
            args.l2,
            args.holdout,
            if args.no_threats { " --no-threats" } else { "" },
            if args.smooth { " --smooth" } else { "" }
        ),
        format!("{} ({games} games,", fitted_files(&args)),
        format!(
            "{} positions fitted, {} held out), starting from the previous weights; scale {scale:.1};",
            report.train_samples, report.holdout_samples
        ),
        format!(
            "held-out cross-entropy {:.5} before, {:.5} after.",
            report.holdout_loss_before, report.holdout_loss_after
        ),
    ];
    let mut provenance = provenance.to_vec();
    if let Some(c) = &report.choices {
        let files: Vec<String> = args
            .choices
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        provenance.push(format!(
            "With the move choices of player {} in {} (--choices-max {}, --choices-weight {}, temperature {:.1}):",
            args.choices_player,
            files.join(" "),
            args.choices_max,
            args.choices_weight,
            c.temperature
        ));
        provenance.push(format!(
            "{} positions fitted, {} held out; held-out top-1 {:.3} before, {:.3} after.",
            c.train_positions, c.holdout_positions, c.holdout_top1_before, c.holdout_top1_after
        ));
    }
    let header_of = |intro: [&str; 3]| -> Vec<String> {
        intro
            .iter()
            .map(|l| (*l).to_string())
            .chain(provenance.iter().cloned())
            .collect()
    };
    let save = |out: &PathBuf, text: String| {
        write_atomically(out, text.as_bytes())
            .with_context(|| format!("cannot write '{}'", out.display()))
    };
    let threat_outs = [
        (
            Color::Black,
            &args.threat_out,
            if renju {
                " under renju, Black to move"
            } else {
                ""
            },
        ),
        (
            Color::White,
            &args.threat_out_white,
            " under renju, White to move",
        ),
    ];
    for (s, out, what) in threat_outs {
        if let Some(out) = out {
            let from = tune::threat_number(rule, s, 0);
            let threat: Vec<i32> = rounded[from..from + threats::THREAT_MASKS]
                .iter()
                .map(|&w| w as i32)
                .collect();
            let header = header_of([
                &format!("Threat-mask weights of stonelab's Gomoku engine{what} (crates/gomoku/src/engine/threats.rs): the"),
                "weight of each combination of threats the two sides hold, from the side to move's view;",
                "masks not listed weigh 0.",
            ]);
            save(out, threats::format(&header, &threat))?;
        }
    }
    let pairs = |colour: Color| -> Vec<(i32, i32)> {
        (0..COMBINATIONS)
            .map(|i| {
                let at = |to_move| rounded[tune::weight_number(rule, colour, i, to_move)] as i32;
                (at(true), at(false))
            })
            .collect()
    };
    let outs = [
        (
            Color::Black,
            &args.out,
            if renju { "Black's renju" } else { "Evaluation" },
        ),
        (Color::White, &args.out_white, "White's renju"),
    ];
    for (colour, out, what) in outs {
        if let Some(out) = out {
            let header = header_of([
                &format!("{what} weights of stonelab's Gomoku engine, one line per combination of a cell's four"),
                "direction classes (strongest first): the weight when the cell's colour is to move, and when it",
                "waits. Format: crates/gomoku/src/engine/weights.rs.",
            ]);
            save(out, weights::format(&header, &pairs(colour)))?;
        }
    }
    match args.format {
        Format::Json => crate::common::print_json(&report)?,
        Format::Text => println!(
            "{games} games, {} positions fitted, {} held out; scale {scale:.1}\ncross-entropy fitted {:.5} -> {:.5}, held out {:.5} -> {:.5}",
            report.train_samples,
            report.holdout_samples,
            report.train_loss_before,
            report.train_loss_after,
            report.holdout_loss_before,
            report.holdout_loss_after
        ),
    }
    if let (Format::Text, Some(c)) = (args.format, &report.choices) {
        println!(
            "move choices: {} positions fitted, {} held out; temperature {:.1}\nheld out: negative log-likelihood {:.4} -> {:.4}, top-1 {:.3} -> {:.3}",
            c.train_positions,
            c.holdout_positions,
            c.temperature,
            c.holdout_nll_before,
            c.holdout_nll_after,
            c.holdout_top1_before,
            c.holdout_top1_after
        );
    }
    if let (Format::Text, Some(t)) = (args.format, &report.class_params) {
        let names = [
            "B1", "F1", "B2", "F2", "F2A", "F2B", "B3", "F3", "F3S", "B4", "F4", "4+4", "4+3",
            "3+3", "2+2",
        ];
        let sides: &[&str] = if renju {
            &[
                "Black to move",
                "Black waiting",
                "White to move",
                "White waiting",
            ]
        } else {
            &["to move", "waiting"]
        };
        for (side, chunk) in sides.iter().zip(t.chunks(names.len())) {
            let cells: Vec<String> = names
                .iter()
                .zip(chunk)
                .map(|(n, v)| format!("{n} {v}"))
                .collect();
            println!("{side}: {}", cells.join(", "));
        }
    }
    Ok(())
}
