//! `stonelab go replay`: plays a move list or SGF file and prints the final position.
//!
//! Moves are played for the colour given (as GTP `play` does), under the default rules (suicide
//! illegal, simple ko). SGF input: the first game tree's main line; `SZ` (square or `SZ[c:r]`) must
//! match `--size`; `AB`/`AW`/`AE` and `PL` set up stones and the side to move in any node; `B`/`W`
//! play, an empty value or `tt` is a pass. `KM` is ignored: komi comes from `--komi`.

use anyhow::{bail, Context};
use stonelab_go::vertex::{format_size, format_vertex, parse_move_list, parse_size, parse_vertex};
use stonelab_go::{format_score, Board, Color, Geometry, Move, Point, Rules, Setup};

use crate::common::Format;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Board size as ROWSxCOLS, e.g. 9x9
    #[arg(long)]
    pub size: String,
    /// Komi added to White's area score
    #[arg(long, default_value_t = 0.0)]
    pub komi: f64,
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
    let geometry = parse_size(&args.size)?;
    let mut board = Board::new(geometry, Rules::default());
    let moves = match (&args.moves, &args.sgf) {
        (Some(list), _) => replay_list(&mut board, list)?,
        (None, Some(path)) => {
            let text = crate::common::read_input(Some(path))?;
            replay_sgf(&mut board, &text)?
        }
        (None, None) => bail!("nothing to replay: give --moves \"B C3 W D4 ...\" or an SGF file"),
    };
    let diagram = board.to_string();
    let report = Report {
        size: format_size(&geometry),
        board: diagram.lines().map(str::to_string).collect(),
        captures_black: board.captures(Color::Black),
        captures_white: board.captures(Color::White),
        ko: board.ko().map(|p| format_vertex(p, &geometry)),
        score: format_score(board.area_score(args.komi)),
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

/// Plays one move, turning an illegal one into an error naming the move number and reason.
fn play(
    board: &mut Board,
    number: usize,
    color: Color,
    mv: Move,
    shown: &str,
) -> anyhow::Result<()> {
    board.try_play_as(color, mv).map_err(|e| {
        anyhow::anyhow!(
            "move {number} ({} {shown}): illegal move: {e}",
            color.letter()
        )
    })
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

/// The board point of an SGF point (`x` column, `y` row from the top), `None` if off the board.
fn sgf_point(p: &sgf_parse::go::Point, g: &Geometry) -> Option<Point> {
    g.point(usize::from(p.y), usize::from(p.x))
}

fn sgf_name(p: &sgf_parse::go::Point) -> String {
    format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char)
}

pub fn replay_sgf(board: &mut Board, text: &str) -> anyhow::Result<usize> {
    use sgf_parse::go::{Move as SgfMove, Prop};
    let trees = sgf_parse::go::parse(text).map_err(|e| anyhow::anyhow!("malformed SGF: {e}"))?;
    let root = trees.first().context("malformed SGF: no game tree")?;
    let g = *board.geometry();
    let mut number = 0;
    for node in root.main_variation() {
        // Setup properties first, then the move (SGF forbids both in one node, but be lenient).
        let mut setup: Option<Setup> = None;
        for prop in node.properties() {
            match prop {
                Prop::SZ((cols, rows))
                    if (usize::from(*rows), usize::from(*cols)) != (g.rows(), g.cols()) =>
                {
                    bail!(
                        "SGF board size {rows}x{cols} differs from --size {}",
                        format_size(&g)
                    );
                }
                Prop::AB(points) | Prop::AW(points) | Prop::AE(points) => {
                    let color = match prop {
                        Prop::AB(_) => Some(Color::Black),
                        Prop::AW(_) => Some(Color::White),
                        _ => None,
                    };
                    let s = setup.get_or_insert_with(|| board.to_setup());
                    for p in points {
                        let q = sgf_point(p, &g).with_context(|| {
                            format!("SGF setup point '{}' is off the board", sgf_name(p))
                        })?;
                        s.set(q, color);
                    }
                    s.ko = None;
                }
                Prop::PL(c) => {
                    let s = setup.get_or_insert_with(|| board.to_setup());
                    s.to_move = match c {
                        sgf_parse::Color::Black => Color::Black,
                        sgf_parse::Color::White => Color::White,
                    };
                }
                Prop::Invalid(id, values)
                    if ["B", "W", "AB", "AW", "AE", "PL", "SZ"].contains(&id.as_str()) =>
                {
                    bail!(
                        "malformed SGF: invalid property {id}[{}]",
                        values.join("][")
                    );
                }
                _ => {}
            }
        }
        if let Some(s) = setup {
            *board = Board::from_setup(s, board.rules()).map_err(|e| anyhow::anyhow!("SGF {e}"))?;
        }
        for prop in node.properties() {
            let (color, mv) = match prop {
                Prop::B(mv) => (Color::Black, mv),
                Prop::W(mv) => (Color::White, mv),
                _ => continue,
            };
            number += 1;
            let (mv, shown) = match mv {
                SgfMove::Pass => (Move::Pass, "pass".to_string()),
                SgfMove::Move(p) => match sgf_point(p, &g) {
                    Some(q) => (Move::Play(q), format_vertex(q, &g)),
                    None if p.x == 19 && p.y == 19 => (Move::Pass, "pass".to_string()),
                    None => bail!(
                        "move {number} ({} {}): illegal move: off board",
                        color.letter(),
                        sgf_name(p)
                    ),
                },
            };
            play(board, number, color, mv, &shown)?;
        }
    }
    Ok(number)
}
