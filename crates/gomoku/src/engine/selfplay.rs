//! Self-play games for the evaluation tuner: the engine against itself at a fixed node budget,
//! after an opening and a few random moves so that no two games are alike.

use super::search::Engine;
use crate::search::Budget;
use crate::{Color, Point, Rule};

/// One self-play game's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    pub size: usize,
    pub rule: Rule,
    /// Nodes per move (threat-space and alpha-beta together).
    pub nodes: u64,
    /// Moves played at random after the opening: empty cells next to a stone.
    pub random_plies: usize,
    /// Seed of the random moves.
    pub seed: u64,
    /// Transposition table size in bytes.
    pub table_bytes: usize,
    /// Whether the engine searches threat sequences before alpha-beta ([`Engine::think`]) or
    /// plays by alpha-beta alone ([`Engine::think_tree`]).
    pub threat_search: bool,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A five by this colour.
    Five(Color),
    /// The board filled up.
    Draw,
}

/// A finished game: every move from the first (Black's), and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub moves: Vec<Point>,
    pub outcome: Outcome,
}

/// Plays one game from `opening` (Black first; it must hold no five).
#[must_use]
pub fn play(settings: &Settings, opening: &[Point]) -> Game {
    let mut engine = Engine::new(settings.size, settings.rule, settings.table_bytes);
    let mut rng = stonelab_rand::Xorshift64Star::new(settings.seed | 1);
    let mut moves = Vec::new();
    let mut c = Color::Black;
    for &p in opening {
        engine.make(p, c);
        moves.push(p);
        c = !c;
    }
    let cells = settings.size * settings.size;
    let budget = Budget {
        time: None,
        nodes: Some(settings.nodes),
    };
    while moves.len() < cells {
        let pos = engine.position();
        let tactical = !pos.class_sets(c).five.is_empty()
            || !pos.class_sets(!c).five.is_empty()
            || !pos.class_sets(c).open_four.is_empty();
        let random = moves.len() < opening.len() + settings.random_plies && !tactical;
        let p = if random {
            let near: Vec<Point> = neighbours(pos, settings.size);
            near[rng.below(near.len())]
        } else if settings.threat_search {
            engine.think(c, budget).best
        } else {
            engine.think_tree(c, settings.nodes)
        };
        let five = engine.position().makes_five(p, c);
        engine.make(p, c);
        moves.push(p);
        if five {
            return Game {
                moves,
                outcome: Outcome::Five(c),
            };
        }
        c = !c;
    }
    Game {
        moves,
        outcome: Outcome::Draw,
    }
}

/// The empty cells next to (Chebyshev distance 1) some stone; every empty cell if none is.
fn neighbours(pos: &super::Position, size: usize) -> Vec<Point> {
    let mut out = Vec::new();
    let mut empty = Vec::new();
    for y in 0..size as u8 {
        for x in 0..size as u8 {
            let p = Point::new(x, y);
            if pos.stone(p).is_some() {
                continue;
            }
            empty.push(p);
            let touches = (-1i32..=1).any(|dy| {
                (-1i32..=1).any(|dx| {
                    let (qx, qy) = (i32::from(x) + dx, i32::from(y) + dy);
                    (0..size as i32).contains(&qx)
                        && (0..size as i32).contains(&qy)
                        && pos.stone(Point::new(qx as u8, qy as u8)).is_some()
                })
            });
            if touches {
                out.push(p);
            }
        }
    }
    if out.is_empty() {
        empty
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game ends with a five of the last mover (checked on a fresh board) or a full board, and
    /// the same settings give the same game.
    #[test]
    fn games_end_in_a_real_five_and_repeat_with_the_seed() {
        let settings = Settings {
            size: 9,
            rule: Rule::Freestyle,
            nodes: 2_000,
            random_plies: 2,
            seed: 7,
            table_bytes: 1 << 16,
            threat_search: true,
        };
        let opening = [Point::new(4, 4), Point::new(3, 3), Point::new(5, 3)];
        let game = play(&settings, &opening);
        assert_eq!(game, play(&settings, &opening));
        let tree_only = Settings {
            threat_search: false,
            ..settings.clone()
        };
        check(&play(&tree_only, &opening), &opening);
        check(&game, &opening);
    }

    fn check(game: &Game, opening: &[Point]) {
        assert_eq!(&game.moves[..3], opening);
        let mut board = crate::Board::new(9, Rule::Freestyle).expect("size");
        let mut c = Color::Black;
        let last = game.moves.len() - 1;
        for (k, &p) in game.moves.iter().enumerate() {
            let five = crate::search::five_points(&board, c).contains(p);
            assert_eq!(
                five,
                k == last && game.outcome == Outcome::Five(c),
                "move {k}"
            );
            board.make(p, c);
            c = !c;
        }
    }
}
