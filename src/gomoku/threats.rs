//! `stonelab gomoku threats`: read a position, print it with its threat points marked.

use serde::Serialize;
use stonelab_gomoku::{render, Bitboard, Board, Color, Rule};

use super::RuleArg;
use crate::common::{print_json, Format};

#[derive(clap::Args, Debug)]
#[command(after_help = "Input (detected from the text):\n  \
    a diagram of '.' empty, 'X' black, 'O' white, one line per row, top row first;\n  \
    the seed's glyphs: '●' black, '○' white, any of ┌┬┐├┼┤└┴┘ empty;\n  \
    a move list such as 'h8 i9 h9': column letter from a, row 1 at the bottom, Black first, ending at\n  \
    its first five at the latest;\n  \
    a game record: Piskvork .psq ('Piskvorky 15x15, ...' then x,y,ms lines) or SGF (FF[4] GM[4], SZ,\n  \
    AB/AW setup, B/W moves of the main line).\n\n\
    Text output draws the board in the input's style (a move list or a record as a .XO diagram with\n\
    coordinates: rows from 1 at the bottom, columns from a) with every threat\n\
    point shown as 'x'. JSON output: {\"size\",\"rule\",\"threats\":[[x,y],...],\"black\":{\"five\",\"open_four\"},\n\
    \"white\":{...}} with (0,0) the top-left point, lists sorted by y then x; the colour lists are unfiltered.")]
pub struct Args {
    /// Winning rule
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    rule: RuleArg,
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
struct ColorLists {
    five: Vec<[u8; 2]>,
    open_four: Vec<[u8; 2]>,
}

#[derive(Serialize)]
struct Report {
    size: usize,
    rule: &'static str,
    threats: Vec<[u8; 2]>,
    black: ColorLists,
    white: ColorLists,
}

fn points(b: &Bitboard) -> Vec<[u8; 2]> {
    b.iter().map(|p| [p.x, p.y]).collect()
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let rule = Rule::from(args.rule);
    let parsed = super::read_position(args.file.as_deref(), args.size, rule)?;
    let board = Board::from_grid(&parsed.grid, rule);
    let threats = board.threat_points();
    match args.format {
        Format::Text => out!("{}", render(&parsed, &threats))?,
        Format::Json => {
            let lists = board.threat_lists();
            let colour = |c: Color| ColorLists {
                five: points(&lists[c.index()].0),
                open_four: points(&lists[c.index()].1),
            };
            print_json(&Report {
                size: board.size(),
                rule: rule.name(),
                threats: points(&threats),
                black: colour(Color::Black),
                white: colour(Color::White),
            })?;
        }
    }
    Ok(())
}
