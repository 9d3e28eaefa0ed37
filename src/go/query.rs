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
    /// The ko rule: `simple` (the database's) or `positional-superko` (no stone may recreate an
    /// earlier board of the game: the moves are replayed under that rule and the position's exact
    /// value is searched with its history, ordered by the database)
    #[arg(long, value_enum, default_value_t = super::solve::KoArg::Simple)]
    pub ko: super::solve::KoArg,
    /// With --ko positional-superko: give up after this many search nodes
    #[arg(long, default_value_t = 2_000_000_000, value_name = "NODES")]
    pub node_limit: u64,
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
    if args.ko == super::solve::KoArg::PositionalSuperko {
        if args.cycles != super::CyclesArg::Interval {
            bail!("--ko positional-superko has no endless games: leave out --cycles");
        }
        let tie = |b: &Board, pass: bool| {
            game.state_of(b, pass)
                .ok()
                .and_then(|s| db.get(s))
                .map(Bounds::tie_value)
        };
        return query_superko(&args, g, &board_text, &tie);
    }

    let (mut board, _, passes) = replay(g, Rules::STANDARD, &args.moves, false)?;

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

/// `go query --ko positional-superko`: the moves replayed under positional superko, then the
/// position's exact value with its history by [`stonelab_retro::superko::Search`], ordered by the
/// database's tie values (`tie`).
fn query_superko(
    args: &Args,
    g: Geometry,
    board_text: &str,
    tie: stonelab_retro::superko::Hint<'_>,
) -> anyhow::Result<()> {
    use stonelab_retro::superko;
    let (board, history, passes) = replay(g, superko::RULES, &args.moves, true)?;
    let started = std::time::Instant::now();
    let (value, best, stats) = if passes >= 2 {
        let [b, w] = stonelab_go::score::area(
            &g,
            board.stones(stonelab_go::Color::Black),
            board.stones(stonelab_go::Color::White),
        );
        (b as i16 - w as i16, None, superko::Stats::default())
    } else {
        let mut search = superko::Search::new(g)
            .with_hint(tie)
            .with_node_limit(args.node_limit);
        let guess = tie(&board, passes == 1).unwrap_or(0);
        let (v, best) = search
            .value(&board, passes == 1, &history, guess)
            .map_err(|e| anyhow::anyhow!("{e}; raise --node-limit (the value stays unknown)"))?;
        (v, best, search.stats)
    };
    let seconds = started.elapsed().as_secs_f64();
    let best: Vec<String> = best.map(|m| format_move(m, &g)).into_iter().collect();
    match args.format {
        Format::Json => {
            crate::common::print_json(&serde_json::json!({
                "board": board_text,
                "rules": super::solve::superko_rules_json(args.komi),
                "to_move": board.to_move().to_string(),
                "game_over": passes >= 2,
                "value": {
                    "lo": gogame::bound_json(value, args.komi),
                    "hi": gogame::bound_json(value, args.komi),
                },
                "exact": true,
                "best": best,
                "nodes": stats.nodes,
                "seconds": seconds,
            }))?;
        }
        Format::Text => {
            print!("{board}");
            println!("rules {}, komi {}", superko::RULES_TEXT, args.komi);
            println!("to_move {}", board.to_move());
            if passes >= 2 {
                println!("game over");
            }
            println!(
                "value {}",
                gogame::format_bounds(Bounds::end(value), args.komi)
            );
            println!("best {}", best.join(" "));
            println!("nodes {}", stats.nodes);
            println!("seconds {seconds:.3}");
        }
    }
    Ok(())
}

/// Plays `moves` from the empty board by `rules` (and, with `superko`, refusing a stone that
/// recreates an earlier board): the board, the boards before it, and the passes at the end.
fn replay(
    g: Geometry,
    rules: Rules,
    moves: &str,
    superko: bool,
) -> anyhow::Result<(Board, Vec<Board>, u32)> {
    let same = |a: &Board, b: &Board| {
        a.stones(stonelab_go::Color::Black) == b.stones(stonelab_go::Color::Black)
            && a.stones(stonelab_go::Color::White) == b.stones(stonelab_go::Color::White)
    };
    let mut board = Board::new(g, rules);
    let mut history: Vec<Board> = Vec::new();
    let mut passes = 0;
    for (i, m) in parse_move_list(moves)?.iter().enumerate() {
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
        let before = board.clone();
        board.try_play(mv).map_err(|e| {
            anyhow::anyhow!("move {number} ({} {}): {e}", m.color.letter(), m.vertex)
        })?;
        if superko && mv != Move::Pass && history.iter().any(|h| same(h, &board)) {
            bail!(
                "move {number} ({} {}): recreates an earlier position (positional superko)",
                m.color.letter(),
                m.vertex
            );
        }
        history.push(before);
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
    }
    Ok((board, history, passes))
}
