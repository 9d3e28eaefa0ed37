//! `stonelab gomoku solve`: threat-space search (VCF or VCT) for a win of one side.

use std::time::{Duration, Instant};

use anyhow::bail;
use serde::Serialize;
use stonelab_gomoku::{point_name, solve, Color, Limits, Mode, Point};

use super::RuleArg;
use crate::common::{print_json, Format};

/// The search mode as a command-line value.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ModeArg {
    /// Victory by continuous fours
    #[default]
    Vcf,
    /// Victory by continuous threats (fours and threes)
    Vct,
}

/// Who attacks.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AttackerArg {
    Black,
    White,
    /// The side to move (Black when the stone counts are equal)
    #[default]
    Tomove,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Input: as for `gomoku threats` (a .XO diagram, the seed's glyphs, a move list, or a .psq \
    or SGF game record).\n\
    The side to move follows from the stone counts: Black moves when they are equal, White when Black has\n\
    one more (other counts need --attacker). The attacker moves\n\
    first; when --attacker names the side not to move, the search is the threat that side faces if the\n\
    side to move passes.\n\n\
    Text output: 'win' or 'no win found'; the sequence in move notation (attacker move, the defender's\n\
    forced reply, ..., the attacker's five); the board with the sequence numbered; 'nodes N'; 'ms T'.\n\
    JSON: {\"result\":\"win\"|\"no_win_found\",\"attacker\":\"black\",\"sequence\":[[x,y],...],\"nodes\":N,\"ms\":T}\n\
    with (0,0) the top-left point. 'no win found' is not a proof that none exists: the search tries\n\
    only fours (and threes) within its limits."
)]
pub struct Args {
    /// Threats the attacker may play
    #[arg(long, value_enum, default_value_t = ModeArg::Vcf)]
    mode: ModeArg,
    /// Winning rule
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    rule: RuleArg,
    /// The side that attacks
    #[arg(long, value_enum, default_value_t = AttackerArg::Tomove)]
    attacker: AttackerArg,
    /// Most nodes to search
    #[arg(long, default_value_t = 1_000_000)]
    max_nodes: u64,
    /// Most milliseconds to search (no limit when not given; at most 1000000000)
    #[arg(long, value_parser = crate::common::parse_ms)]
    max_ms: Option<u64>,
    /// Board size of a move list (5..=20; default 15); for a diagram it must match the diagram
    #[arg(long)]
    size: Option<usize>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Input file, or '-' (or nothing) for standard input
    file: Option<String>,
}

#[derive(Serialize)]
struct Report {
    result: &'static str,
    attacker: &'static str,
    sequence: Vec<[u8; 2]>,
    nodes: u64,
    ms: u64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let rule = args.rule.into();
    let parsed = super::read_position(args.file.as_deref(), args.size, rule)?;
    let name = super::input_name(args.file.as_deref());
    let grid = &parsed.grid;
    let (black, white) = super::counts_without_five(grid, rule, name, "solve")?;
    let to_move = if black == white {
        Color::Black
    } else {
        Color::White
    };
    if args.attacker == AttackerArg::Tomove && black != white && black != white + 1 {
        bail!(
            "{name}: {black} black and {white} white stones cannot come from a game (Black moves \
             first, so Black has as many stones as White or one more): the side to move is \
             unknown; give --attacker black or --attacker white"
        );
    }
    let attacker = match args.attacker {
        AttackerArg::Black => Color::Black,
        AttackerArg::White => Color::White,
        AttackerArg::Tomove => to_move,
    };
    let mode = match args.mode {
        ModeArg::Vcf => Mode::Vcf,
        ModeArg::Vct => Mode::Vct,
    };
    let limits = Limits {
        nodes: args.max_nodes,
        time: args.max_ms.map(Duration::from_millis),
        ..Limits::for_mode(mode)
    };
    let board = stonelab_gomoku::Board::from_grid(grid, rule);
    let start = Instant::now();
    let outcome = solve(&board, attacker, mode, &limits);
    let ms = start.elapsed().as_millis() as u64;
    let sequence = outcome.proof.as_ref().map(|p| p.line()).unwrap_or_default();
    match args.format {
        Format::Json => print_json(&Report {
            result: if outcome.proof.is_some() {
                "win"
            } else {
                "no_win_found"
            },
            attacker: attacker.name(),
            sequence: sequence.iter().map(|p| [p.x, p.y]).collect(),
            nodes: outcome.nodes,
            ms,
        })?,
        Format::Text => {
            let n = grid.size();
            let mut out = String::new();
            if outcome.proof.is_some() {
                out.push_str("win\n");
                let moves: Vec<String> = sequence.iter().map(|&p| point_name(p, n)).collect();
                out.push_str(&moves.join(" "));
                out.push('\n');
            } else {
                out.push_str("no win found\n");
            }
            let width = if sequence.len() >= 10 { 3 } else { 2 };
            for y in 0..n {
                for x in 0..n {
                    let p = Point::new(x as u8, y as u8);
                    let cell = match sequence.iter().position(|&q| q == p) {
                        Some(i) => (i + 1).to_string(),
                        None => match grid.get(p) {
                            Some(Color::Black) => "X".into(),
                            Some(Color::White) => "O".into(),
                            None => ".".into(),
                        },
                    };
                    out.push_str(&format!("{cell:>width$}"));
                }
                out.push('\n');
            }
            out.push_str(&format!("nodes {}\nms {ms}\n", outcome.nodes));
            out!("{out}")?;
        }
    }
    Ok(())
}
