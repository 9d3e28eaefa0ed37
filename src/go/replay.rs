//! `stonelab go replay`: plays a move list or SGF file and prints the final position.
//!
//! Moves are played for the colour given (as GTP `play` does), under the default rules (suicide
//! illegal, simple ko); a move after two passes in a row is refused (the game is over). SGF
//! input ([`stonelab_go::sgf`]): the first game tree's main line; the board is `--size`, else
//! the SGF's `SZ` (square or `SZ[c:r]`), else 19x19, and both must agree when both are given;
//! komi is `--komi`, else the SGF's `KM`, else 0. `AB`/`AW`/`AE` and `PL` set up stones and the
//! side to move in any node (a point set up twice in one node is refused); `B`/`W` play, an
//! empty value or `tt` is a pass.

use anyhow::{bail, Context};
use stonelab_go::sgf::{self, SgfMove};
use stonelab_go::vertex::{format_size, format_vertex, parse_move_list, parse_size, parse_vertex};
use stonelab_go::{format_score, Bitboard, Board, Color, Geometry, Move, Rules, Setup};

use crate::common::{clean, Format};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size as ROWSxCOLS, e.g. 9x9 [default: the SGF's SZ, else 19x19; needed with --moves]
    #[arg(long)]
    pub size: Option<String>,
    /// Komi added to White's area score [default: the SGF's KM, else 0]
    #[arg(long, allow_negative_numbers = true, value_parser = crate::common::parse_komi)]
    pub komi: Option<f64>,
    /// Moves as "B C3 W D4 B pass ..." (GTP vertices)
    #[arg(long, conflicts_with = "sgf")]
    pub moves: Option<String>,
    /// An SGF file to replay instead of --moves (- for stdin)
    pub sgf: Option<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// The final position as printed (JSON field names; the text form prints the same in lines).
#[derive(serde::Serialize)]
struct Report {
    size: String,
    board: Vec<String>,
    captures_black: u32,
    captures_white: u32,
    /// The ko point as a vertex, or null.
    ko: Option<String>,
    score: String,
    moves: usize,
    to_move: String,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let size = args.size.as_deref().map(parse_size).transpose()?;
    let (board, moves, komi) = match (&args.moves, &args.sgf) {
        (Some(list), _) => {
            let geometry = size.context("--moves needs --size (e.g. --size 9x9)")?;
            let mut board = Board::new(geometry, Rules::default());
            let moves = replay_list(&mut board, list)?;
            (board, moves, args.komi.unwrap_or(0.0))
        }
        (None, Some(path)) => {
            let text = crate::common::read_input(Some(path))?;
            let game = SgfGame::read(&text)?;
            let geometry = match (size, game.size) {
                (Some(g), Some((rows, cols))) if (rows, cols) != (g.rows(), g.cols()) => bail!(
                    "SGF board size {rows}x{cols} differs from --size {}",
                    format_size(&g)
                ),
                (Some(g), _) => g,
                (None, _) => game.geometry()?,
            };
            let mut board = Board::new(geometry, Rules::default());
            let moves = game.replay(&mut board)?;
            (board, moves, args.komi.or(game.komi).unwrap_or(0.0))
        }
        (None, None) => bail!("nothing to replay: give --moves \"B C3 W D4 ...\" or an SGF file"),
    };
    let geometry = *board.geometry();
    let diagram = board.to_string();
    let report = Report {
        size: format_size(&geometry),
        board: diagram.lines().map(str::to_string).collect(),
        captures_black: board.captures(Color::Black),
        captures_white: board.captures(Color::White),
        ko: board.ko().map(|p| format_vertex(p, &geometry)),
        score: format_score(board.area_score(komi)),
        moves,
        to_move: board.to_move().to_string(),
    };
    match args.format {
        Format::Json => crate::common::print_json(&report)?,
        Format::Text => {
            out!("{diagram}")?;
            outln!("captures black {}", report.captures_black)?;
            outln!("captures white {}", report.captures_white)?;
            outln!("ko {}", report.ko.as_deref().unwrap_or("none"))?;
            outln!("score {}", report.score)?;
        }
    }
    Ok(())
}

/// Plays one move, turning an illegal one (or one after the game ended) into an error naming
/// the move number and reason.
fn play(
    board: &mut Board,
    number: usize,
    color: Color,
    mv: Move,
    shown: &str,
) -> anyhow::Result<()> {
    let letter = color.letter();
    if board.passes() >= 2 {
        bail!("move {number} ({letter} {shown}): the game ended after two passes in a row");
    }
    board
        .try_play_as(color, mv)
        .map_err(|e| anyhow::anyhow!("move {number} ({letter} {shown}): illegal move: {e}"))
}

fn replay_list(board: &mut Board, list: &str) -> anyhow::Result<usize> {
    let moves = parse_move_list(list).context("malformed move list")?;
    let g = *board.geometry();
    for (i, m) in moves.iter().enumerate() {
        let number = i + 1;
        let mv = match parse_vertex(&m.vertex, &g) {
            Ok(mv) => mv,
            Err(stonelab_go::vertex::VertexError::OffBoard(_)) => bail!(
                "move {number} ({} {}): illegal move: off board",
                m.color.letter(),
                m.vertex
            ),
            Err(e) => bail!("malformed move list: move {number}: {e}"),
        };
        play(board, number, m.color, mv, &m.vertex)?;
    }
    Ok(moves.len())
}

/// The main line of an SGF game, with the root's size and komi.
pub struct SgfGame {
    /// `SZ` as (rows, columns).
    pub size: Option<(usize, usize)>,
    /// `KM`.
    pub komi: Option<f64>,
    nodes: Vec<sgf::Node>,
}

/// A property value as shown in an error: `ID[value]`, escaped and cut short.
fn shown(id: &str, value: &str) -> String {
    format!("{id}[{}]", clean(value, 20))
}

impl SgfGame {
    /// Reads the main line and the root's `SZ` and `KM` (a size over 19 or a komi that is not a
    /// finite number is refused).
    pub fn read(text: &str) -> anyhow::Result<SgfGame> {
        let nodes = sgf::main_line(text)?;
        let root = nodes.first().context("malformed SGF: no game tree")?;
        let size = match root.value("SZ") {
            None => None,
            Some(v) => {
                let (cols, rows) = sgf::size(v).with_context(|| {
                    format!("malformed SGF: invalid property {}", shown("SZ", v))
                })?;
                Some((rows, cols))
            }
        };
        let komi = match root.value("KM") {
            None => None,
            Some(v) if v.trim().is_empty() => None,
            Some(v) => Some(sgf::real(v).with_context(|| {
                format!(
                    "malformed SGF: invalid property {} (komi must be a finite number)",
                    shown("KM", v)
                )
            })?),
        };
        Ok(SgfGame { size, komi, nodes })
    }

    /// The board of `SZ` (19x19 without one).
    pub fn geometry(&self) -> anyhow::Result<Geometry> {
        let (rows, cols) = self.size.unwrap_or((19, 19));
        Geometry::new(rows, cols).map_err(|_| {
            anyhow::anyhow!(
                "SGF board size {rows}x{cols} is not supported: at most {m}x{m}",
                m = stonelab_go::MAX_SIZE
            )
        })
    }

    /// Plays the main line on `board`; returns the number of moves played.
    pub fn replay(&self, board: &mut Board) -> anyhow::Result<usize> {
        let g = *board.geometry();
        let mut number = 0;
        for node in &self.nodes {
            if let Some(s) = self.setup(node, board)? {
                *board =
                    Board::from_setup(s, board.rules()).map_err(|e| anyhow::anyhow!("SGF {e}"))?;
            }
            for prop in &node.properties {
                let color = match prop.id.as_str() {
                    "B" => Color::Black,
                    "W" => Color::White,
                    _ => continue,
                };
                let value = &prop.values[0];
                number += 1;
                let invalid = || {
                    anyhow::anyhow!("malformed SGF: invalid property {}", shown(&prop.id, value))
                };
                if prop.values.len() > 1 {
                    return Err(invalid());
                }
                let mv = match sgf::move_value(value).ok_or_else(invalid)? {
                    SgfMove::Pass => Move::Pass,
                    SgfMove::At(x, y) => match g.point(y, x) {
                        Some(q) => Move::Play(q),
                        None if (x, y) == (19, 19) => Move::Pass,
                        None => bail!(
                            "move {number} ({} {}): illegal move: off board",
                            color.letter(),
                            clean(value, 20)
                        ),
                    },
                };
                play(board, number, color, mv, &format_move_text(mv, &g))?;
            }
        }
        Ok(number)
    }

    /// The setup a node asks for (`AB`, `AW`, `AE`, `PL`, and a check of `SZ`), or `None` when
    /// it sets nothing up.
    fn setup(&self, node: &sgf::Node, board: &Board) -> anyhow::Result<Option<Setup>> {
        let g = *board.geometry();
        let mut setup: Option<Setup> = None;
        let mut touched = Bitboard::EMPTY;
        for prop in &node.properties {
            let id = prop.id.as_str();
            match id {
                "SZ" => {
                    let v = &prop.values[0];
                    let (cols, rows) = sgf::size(v).with_context(|| {
                        format!("malformed SGF: invalid property {}", shown(id, v))
                    })?;
                    if (rows, cols) != (g.rows(), g.cols()) {
                        bail!(
                            "SGF board size {rows}x{cols} differs from the board's {}",
                            format_size(&g)
                        );
                    }
                }
                "AB" | "AW" | "AE" => {
                    let color = match id {
                        "AB" => Some(Color::Black),
                        "AW" => Some(Color::White),
                        _ => None,
                    };
                    let s = setup.get_or_insert_with(|| board.to_setup());
                    for v in &prop.values {
                        let list = sgf::points(v).with_context(|| {
                            format!("malformed SGF: invalid property {}", shown(id, v))
                        })?;
                        for (x, y) in list {
                            let q = g.point(y, x).with_context(|| {
                                format!("SGF setup point '{}' is off the board", clean(v, 20))
                            })?;
                            if touched.contains(q) {
                                bail!(
                                    "SGF setup point '{}' ({}) is set up twice in one node",
                                    clean(v, 20),
                                    format_vertex(q, &g)
                                );
                            }
                            touched.set(q);
                            s.set(q, color);
                        }
                    }
                    s.ko = None;
                }
                "PL" => {
                    let v = &prop.values[0];
                    let c = stonelab_go::vertex::parse_color(v.trim()).with_context(|| {
                        format!("malformed SGF: invalid property {}", shown(id, v))
                    })?;
                    setup.get_or_insert_with(|| board.to_setup()).to_move = c;
                }
                _ => {}
            }
        }
        Ok(setup)
    }
}

/// A move as GTP writes it, for messages.
fn format_move_text(mv: Move, g: &Geometry) -> String {
    stonelab_go::vertex::format_move(mv, g)
}

/// Replays SGF `text` on `board` (whose size the caller chose); the number of moves played.
pub fn replay_sgf(board: &mut Board, text: &str) -> anyhow::Result<usize> {
    SgfGame::read(text)?.replay(board)
}
