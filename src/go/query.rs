//! `stonelab go query`: the value of a position from a solved database, and every move that keeps it.

use std::path::PathBuf;

use anyhow::{bail, Context};
use stonelab_go::vertex::{format_move, parse_move_list, parse_size, parse_vertex};
use stonelab_go::{Board, Geometry, Move, Rules};
use stonelab_retro::db::Database;
use stonelab_retro::go::{self as gogame};
use stonelab_retro::{Bounds, GameGraph};

use crate::common::Format;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Results database written by `stonelab go solve --out`
    pub file: PathBuf,
    /// Moves from the empty board, e.g. "B B2 W pass" (GTP vertices)
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Komi, subtracted from Black's area score
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true, value_parser = crate::common::parse_komi)]
    pub komi: f64,
    /// Read the positions from this state table instead of enumerating them again
    #[arg(long)]
    pub states: Option<PathBuf>,
    /// What an endless game is worth in the value and best moves (`tie`: 0 before komi)
    #[arg(long, value_enum, default_value_t = super::CyclesArg::Interval)]
    pub cycles: super::CyclesArg,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Opens a database written by `stonelab go solve --out` and checks what its checksums cannot:
/// that it is a Go results database of a board this program knows, solved under its rules, with
/// every value a value of that board's game. Returns it with its metadata and board.
pub fn open_checked(
    path: &std::path::Path,
) -> anyhow::Result<(Database, serde_json::Value, Geometry)> {
    let db = Database::open(path)?;
    let meta: serde_json::Value = serde_json::from_str(db.meta())
        .with_context(|| format!("{}: metadata is not JSON", path.display()))?;
    if meta["format"] != "stonelab go solve" {
        bail!("{}: not a Go results database", path.display());
    }
    let board_text = meta["board"].as_str().unwrap_or_default().to_string();
    let g = parse_size(&board_text)?;
    if meta["rules"] != gogame::rules_json(0.0) {
        bail!(
            "{}: solved under other rules ({}); this program plays {}",
            path.display(),
            meta["rules"],
            gogame::RULES_TEXT
        );
    }
    let points = (g.rows() * g.cols()) as i16;
    if let Err((s, b)) = db.check_values(points) {
        bail!(
            "{}: state {s} holds {b}, not a value of a {board_text} game (lo > hi, or beyond \
             ±{points}): the file is not a solver's output",
            path.display()
        );
    }
    Ok((db, meta, g))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (db, meta, g) = open_checked(&args.file)?;
    let board_text = meta["board"].as_str().unwrap_or_default().to_string();
    let (_, game) = super::solve::build_space(g.rows(), g.cols(), args.states.as_deref(), 2)?;
    if db.len() != game.num_states() || meta["states"].as_u64() != Some(game.num_states()) {
        bail!(
            "{}: {} states in the database, {} in the {board_text} game: the file does not match",
            args.file.display(),
            db.len(),
            game.num_states()
        );
    }
    let cycles = stonelab_retro::Cycles::from(args.cycles);
    let value = |s: u64| db.get(s).expect("state below len").under(cycles);

    let mut board = Board::new(g, Rules::STANDARD);
    let mut passes = 0;
    for (i, m) in parse_move_list(&args.moves)?.iter().enumerate() {
        let number = i + 1;
        if passes >= 2 {
            bail!("move {number}: the game ended after two passes");
        }
        let mv = parse_vertex(&m.vertex, &g).map_err(|e| anyhow::anyhow!("move {number}: {e}"))?;
        if m.color != board.to_move() {
            bail!(
                "move {number}: {} is not to move (moves alternate, Black first)",
                m.color
            );
        }
        board.try_play(mv).map_err(|e| {
            anyhow::anyhow!("move {number} ({} {}): {e}", m.color.letter(), m.vertex)
        })?;
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
    }

    let (here, moves) = if passes >= 2 {
        (Bounds::end(game.score(&board)), Vec::new())
    } else {
        let s = game.state_of(&board, passes == 1)?;
        let moves = super::solve::move_bounds(&game, &mut board, passes == 1, value)?;
        (value(s), moves)
    };
    let best = gogame::best_moves(board.to_move(), here, &moves);
    let fmt = |m: Move| format_move(m, &g);
    match args.format {
        Format::Json => crate::common::print_json(&serde_json::json!({
            "board": board_text,
            "rules": gogame::rules_json_under(args.komi, cycles),
            "to_move": board.to_move().to_string(),
            "game_over": passes >= 2,
            "value": {
                "lo": gogame::bound_json(here.lo, args.komi),
                "hi": gogame::bound_json(here.hi, args.komi),
            },
            "exact": here.is_exact(),
            "best": best.iter().map(|&m| fmt(m)).collect::<Vec<_>>(),
            "moves": moves.iter().map(|&(m, b)| serde_json::json!({
                "move": fmt(m),
                "lo": gogame::bound_json(b.lo, args.komi),
                "hi": gogame::bound_json(b.hi, args.komi),
            })).collect::<Vec<_>>(),
        }))?,
        Format::Text => {
            print!("{board}");
            println!("rules {}, komi {}", gogame::rules_text(cycles), args.komi);
            println!("to_move {}", board.to_move());
            if passes >= 2 {
                println!("game over");
            }
            println!("value {}", gogame::format_bounds(here, args.komi));
            println!(
                "best {}",
                best.iter().map(|&m| fmt(m)).collect::<Vec<_>>().join(" ")
            );
            for (m, b) in &moves {
                println!("move {} {}", fmt(*m), gogame::format_bounds(*b, args.komi));
            }
        }
    }
    Ok(())
}
