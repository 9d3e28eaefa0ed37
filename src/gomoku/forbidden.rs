//! `stonelab gomoku forbidden`: Black's forbidden points of a position under renju.

use serde::Serialize;
use stonelab_gomoku::renju::{fouls, Foul};
use stonelab_gomoku::{point_name, render, Bitboard, Board, Rule};

use crate::common::{print_json, Format};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Input: a diagram ('.' empty, 'X' black, 'O' white, top row first), the seed's \
    glyphs, a move list such as 'h8 i9 h9' (column letter from a, row 1 at the bottom, Black first), or a \
    .psq or SGF game record.\n\n\
    Renju (RIF rules, as Gomocup plays them): Black may not make a double-three, a double-four or an \
    overline, unless the move makes exactly five. A three counts only if a move that is not itself \
    forbidden turns it into a straight four.\n\n\
    Text output draws the board with every forbidden point shown as 'x', then lists them by kind. \
    JSON output: {\"size\",\"rule\":\"renju\",\"forbidden\":[[x,y],...],\"double_three\":[...],\
    \"double_four\":[...],\"overline\":[...]} with x from the left and y from the top, 0-based, sorted by \
    y then x."
)]
pub struct Args {
    /// The rule (only renju has forbidden points)
    #[arg(long, value_parser = ["renju"], default_value = "renju")]
    rule: String,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Board size of a move list (5..=20; default 15); for a diagram it must match the diagram
    #[arg(long)]
    size: Option<usize>,
    /// Input file, or '-' (or nothing) for standard input
    file: Option<String>,
}

#[derive(Serialize)]
struct Report {
    size: usize,
    rule: &'static str,
    forbidden: Vec<[u8; 2]>,
    double_three: Vec<[u8; 2]>,
    double_four: Vec<[u8; 2]>,
    overline: Vec<[u8; 2]>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let rule = Rule::Renju;
    let parsed = super::read_position(args.file.as_deref(), args.size, rule)?;
    let board = Board::from_grid(&parsed.grid, rule);
    let found = fouls(&board);
    let of = |kind: Option<Foul>| -> Vec<[u8; 2]> {
        found
            .iter()
            .filter(|(_, f)| kind.is_none_or(|k| k == *f))
            .map(|(p, _)| [p.x, p.y])
            .collect()
    };
    match args.format {
        Format::Text => {
            let mut marks = Bitboard::EMPTY;
            for (p, _) in &found {
                marks.insert(*p);
            }
            out!("{}", render(&parsed, &marks))?;
            if found.is_empty() {
                outln!("no forbidden point for Black")?;
            }
            for kind in Foul::ALL {
                let names: Vec<String> = found
                    .iter()
                    .filter(|(_, f)| *f == kind)
                    .map(|(p, _)| point_name(*p, board.size()))
                    .collect();
                if !names.is_empty() {
                    outln!("{}: {}", kind.name().replace('_', " "), names.join(" "))?;
                }
            }
        }
        Format::Json => print_json(&Report {
            size: board.size(),
            rule: rule.name(),
            forbidden: of(None),
            double_three: of(Some(Foul::DoubleThree)),
            double_four: of(Some(Foul::DoubleFour)),
            overline: of(Some(Foul::Overline)),
        })?,
    }
    Ok(())
}
