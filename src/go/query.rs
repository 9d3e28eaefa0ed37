//! `stonelab go query`: the value of a position from a solved database, and every move that keeps it.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use stonelab_go::vertex::{format_move, parse_move_list, parse_size, parse_vertex};
use stonelab_go::{Board, Geometry, Move, Rules};
use stonelab_retro::db::Database;
use stonelab_retro::go::{self as gogame};
use stonelab_retro::qindex;
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
    /// Read the positions from this state table (default: FILE.states next to the database,
    /// enumerated once by the first query)
    #[arg(long)]
    pub states: Option<PathBuf>,
    /// Neither use nor write the query index (FILE.index) or FILE.states: check the database
    /// in full and enumerate the positions again on every query. With them, the first query
    /// checks both files in full (4x5: about half a minute) and later ones start in milliseconds
    #[arg(long)]
    pub no_index: bool,
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
    let (meta, g) = check_meta(path, &db)?;
    let points = (g.rows() * g.cols()) as i16;
    if let Err((s, b)) = db.check_values(points) {
        bail!(
            "{}: state {s} holds {b}, not a value of a {}x{} game (lo > hi, or beyond \
             ±{points}): the file is not a solver's output",
            path.display(),
            g.rows(),
            g.cols()
        );
    }
    Ok((db, meta, g))
}

/// A solved board ready for queries.
pub struct Solved {
    pub db: Database,
    pub meta: serde_json::Value,
    pub geometry: Geometry,
    pub game: gogame::GoGame,
}

/// `PATH.ext`, next to `path`.
fn beside(path: &Path, ext: &str) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Opens database `path` and its game for queries. The positions come from `states` when given,
/// else from `PATH.states` (with `index`: enumerated there once, by temporary name and rename).
/// With `index`, the query index `PATH.index` ([`stonelab_retro::qindex`]) names the database
/// and state table as they were when checked in full; when both are still those files, they are
/// opened without reading them whole and the ko keys are mapped from the index. Otherwise both are
/// checked in full ([`open_checked`], every position of the table) and the index is written anew.
pub fn open_solved(path: &Path, states: Option<&Path>, index: bool) -> anyhow::Result<Solved> {
    let index_path = beside(path, "index");
    let table_path = states.map_or_else(|| beside(path, "states"), Path::to_path_buf);
    if index && table_path.is_file() {
        match qindex::open(&index_path, path, &table_path) {
            Ok(Some(keys)) => return open_indexed(path, &table_path, keys),
            Ok(None) => {}
            Err(e) => eprintln!("note: {e}; checking the database in full for a new index"),
        }
    }
    let db_began = if index {
        qindex::Began::now(path).ok()
    } else {
        None
    };
    let (db, meta, g) = open_checked(path)?;
    let mut table = states.map(Path::to_path_buf);
    if index && table.is_none() {
        match enumerate_beside(&table_path, g, false) {
            Ok(()) => table = Some(table_path.clone()),
            Err(e) => eprintln!("note: no state table kept next to the database: {e:#}"),
        }
    }
    let table_began = match (&table, db_began) {
        (Some(t), Some(_)) => qindex::Began::now(t).ok(),
        _ => None,
    };
    let (space, game, table_began) =
        match super::solve::build_space(g.rows(), g.cols(), table.as_deref(), 2) {
            Ok((space, game)) => (space, game, table_began),
            // The kept table is a cache: a damaged one is made again (a table named by --states
            // is the user's, and its error stands).
            Err(e) if states.is_none() && table.is_some() => {
                eprintln!("note: {e:#}; enumerating the positions again");
                enumerate_beside(&table_path, g, true)?;
                let began = qindex::Began::now(&table_path).ok();
                let (space, game) =
                    super::solve::build_space(g.rows(), g.cols(), table.as_deref(), 2)?;
                (space, game, began)
            }
            Err(e) => return Err(e),
        };
    check_counts(path, &db, &meta, &game)?;
    if let (Some(a), Some(b), Some(t)) = (db_began, table_began, &table) {
        // Quietly: an error later in the query stays the only line on stderr.
        if let Err(e) = qindex::write(&index_path, (path, a), (t, b), space.ko_keys()) {
            eprintln!("note: no query index written: {e}");
        }
    }
    Ok(Solved {
        db,
        meta,
        geometry: g,
        game,
    })
}

/// [`open_solved`] through a valid index: header checks only.
fn open_indexed(path: &Path, table: &Path, keys: gogame::KoKeys) -> anyhow::Result<Solved> {
    let db = Database::open_checked_before(path)?;
    let (meta, g) = check_meta(path, &db)?;
    let t = stonelab_go::statefile::StateTable::open_checked_before(table)
        .with_context(|| format!("cannot use state table {}", table.display()))?;
    let shape = t.shape();
    if (shape.rows, shape.cols) != (g.rows(), g.cols()) {
        bail!(
            "state table {} is for {}x{}, not {}x{}",
            table.display(),
            shape.rows,
            shape.cols,
            g.rows(),
            g.cols()
        );
    }
    let game = gogame::GoGame::with_keys(t, keys)?;
    check_counts(path, &db, &meta, &game)?;
    Ok(Solved {
        db,
        meta,
        geometry: g,
        game,
    })
}

/// Enumerates the board's positions into a state table at `path` (temporary name, rename), unless
/// a regular file is there already and not `again`; never replaces anything but a regular file.
fn enumerate_beside(path: &Path, g: Geometry, again: bool) -> anyhow::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() && !again => return Ok(()),
        Ok(m) if m.file_type().is_file() => {}
        Ok(_) => bail!("{} exists and is not a regular file", path.display()),
        Err(_) => {}
    }
    let shape = stonelab_go::enumerate::Shape::new(g.rows(), g.cols())
        .ok_or_else(|| anyhow::anyhow!("bad board {}x{}", g.rows(), g.cols()))?;
    let set = stonelab_go::enumerate::Enumerator::new(shape)?.reduced_set(Some(2), &|_, _| {})?;
    let tmp = beside(path, &format!("tmp{}", std::process::id()));
    let written = stonelab_go::statefile::write(&tmp, &set)
        .map_err(anyhow::Error::from)
        .and_then(|()| std::fs::rename(&tmp, path).map_err(anyhow::Error::from));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The database has one value for every state of the game.
fn check_counts(
    path: &Path,
    db: &Database,
    meta: &serde_json::Value,
    game: &gogame::GoGame,
) -> anyhow::Result<()> {
    if db.len() != game.num_states() || meta["states"].as_u64() != Some(game.num_states()) {
        bail!(
            "{}: {} states in the database, {} in the {} game: the file does not match",
            path.display(),
            db.len(),
            game.num_states(),
            meta["board"].as_str().unwrap_or_default()
        );
    }
    Ok(())
}

/// The metadata of a Go results database: its format, board and rules.
fn check_meta(path: &Path, db: &Database) -> anyhow::Result<(serde_json::Value, Geometry)> {
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
    Ok((meta, g))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let Solved {
        db,
        meta,
        geometry: g,
        game,
    } = open_solved(&args.file, args.states.as_deref(), !args.no_index)?;
    let board_text = meta["board"].as_str().unwrap_or_default().to_string();
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
        if superko && mv != Move::Pass && history.iter().any(|h| h.same_stones(&board)) {
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
