//! Threats in Allis' terms, read from the per-cell pattern classes: for each move of one colour and
//! each line through it, the threat it makes with its gain square (the move), cost squares (the
//! defender's answers on that line) and rest squares (the attacker's stones it builds on).
//!
//! The solver ([`super::tss`]) works from the same classes on the whole board; this listing is the
//! per-line view, for display and for engines that order moves by threat.

use crate::{Board, Color, Direction, Pattern, Point};

/// The kind of a threat, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ThreatKind {
    /// The move completes a five (standard: exactly five).
    Five,
    /// Afterwards two five points on the line: `. X X X X .`.
    StraightFour,
    /// Afterwards one five point on the line.
    Four,
    /// Afterwards a straight four is one move away, the stones next to each other: `. . X X X . .`.
    Three,
    /// The same with a gap: `. X X . X .`.
    BrokenThree,
}

/// One threat of one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threat {
    pub kind: ThreatKind,
    pub direction: Direction,
    /// The attacker's move.
    pub gain: Point,
    /// The defender's answers on the line: the five points of a four (both of a straight four, which
    /// cannot be answered), the squares that leave a three no straight four. Empty for a five.
    pub cost: Vec<Point>,
    /// The attacker's stones on the line within the rule's reach of the gain square, up to the first
    /// defender stone or edge on each side.
    pub rest: Vec<Point>,
}

fn line_cells(board: &Board, g: Point, d: Direction) -> Vec<(i32, Point)> {
    let n = board.size() as i32;
    let reach = board.rule().reach() as i32;
    let (dx, dy) = d.step();
    (-reach..=reach)
        .filter_map(|k| {
            let (x, y) = (i32::from(g.x) + k * dx, i32::from(g.y) + k * dy);
            ((0..n).contains(&x) && (0..n).contains(&y)).then(|| (k, Point::new(x as u8, y as u8)))
        })
        .collect()
}

/// Every threat `c` can make with one move, sorted by gain square (row, then column), direction.
#[must_use]
pub fn line_threats(board: &Board, c: Color) -> Vec<Threat> {
    let mut b = board.clone();
    let mut out = Vec::new();
    let n = board.size() as u8;
    for y in 0..n {
        for x in 0..n {
            let g = Point::new(x, y);
            if board.stone(g).is_some() {
                continue;
            }
            for d in Direction::ALL {
                let class = board.pattern(g, d, c);
                if class == Pattern::None {
                    continue;
                }
                let cells = line_cells(board, g, d);
                // Rest: own stones reached from g without crossing a defender stone.
                let mut rest = Vec::new();
                for side in [1, -1] {
                    let mut k = side;
                    while let Some(&(_, q)) = cells.iter().find(|(j, _)| *j == k) {
                        match board.stone(q) {
                            Some(s) if s == c => rest.push(q),
                            Some(_) => break,
                            None => {}
                        }
                        k += side;
                    }
                }
                rest.sort_by_key(|p| (p.y, p.x));
                b.make(g, c);
                let empties: Vec<Point> = cells
                    .iter()
                    .map(|&(_, q)| q)
                    .filter(|&q| b.stone(q).is_none())
                    .collect();
                let fives: Vec<Point> = empties
                    .iter()
                    .copied()
                    .filter(|&q| b.pattern(q, d, c) == Pattern::Five)
                    .collect();
                let (kind, cost) = match class {
                    Pattern::Five => (ThreatKind::Five, Vec::new()),
                    Pattern::OpenFour => (ThreatKind::StraightFour, fives),
                    Pattern::Four => (ThreatKind::Four, fives),
                    _ => {
                        let opens = |b: &Board| {
                            empties.iter().any(|&q| {
                                b.stone(q).is_none() && b.pattern(q, d, c) >= Pattern::OpenFour
                            })
                        };
                        let mut cost = Vec::new();
                        for &q in &empties {
                            b.make(q, !c);
                            if !opens(&b) {
                                cost.push(q);
                            }
                            b.unmake(q);
                        }
                        // Contiguous: the stones next to g on the line form one block with it.
                        let mut run = 1;
                        for side in [1, -1] {
                            let mut k = side;
                            while cells.iter().any(|&(j, q)| j == k && b.stone(q) == Some(c)) {
                                run += 1;
                                k += side;
                            }
                        }
                        let kind = if run >= 3 {
                            ThreatKind::Three
                        } else {
                            ThreatKind::BrokenThree
                        };
                        (kind, cost)
                    }
                };
                b.unmake(g);
                out.push(Threat {
                    kind,
                    direction: d,
                    gain: g,
                    cost,
                    rest,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_position, Rule};

    /// Black's threats on a freestyle board drawn as `text`.
    fn black_threats(text: &str) -> Vec<Threat> {
        let grid = parse_position(text, None).unwrap().grid;
        line_threats(&Board::from_grid(&grid, Rule::Freestyle), Color::Black)
    }

    /// The horizontal threat with gain square `g`.
    fn horizontal(t: &[Threat], g: Point) -> &Threat {
        t.iter()
            .find(|t| t.gain == g && t.direction == Direction::Horizontal)
            .unwrap()
    }

    #[test]
    fn kinds_cost_and_rest() {
        let t = black_threats(
            "........\n........\n..XX....\n........\n........\n........\n........\n........\n",
        );
        let three = horizontal(&t, Point::new(4, 2));
        assert_eq!(three.kind, ThreatKind::Three);
        assert_eq!(three.rest, vec![Point::new(2, 2), Point::new(3, 2)]);
        // . . X X X . . . : the defender answers at b or f (next to the three), or a/g? Only the
        // squares that leave no straight four.
        assert!(three.cost.contains(&Point::new(1, 2)) && three.cost.contains(&Point::new(5, 2)));
        let broken = horizontal(&t, Point::new(5, 2));
        assert_eq!(broken.kind, ThreatKind::BrokenThree);

        let t = black_threats(
            "........\n........\n.OXXX...\n........\n........\n........\n........\n........\n",
        );
        let four = horizontal(&t, Point::new(5, 2));
        assert_eq!(four.kind, ThreatKind::Four);
        assert_eq!(four.cost, vec![Point::new(6, 2)]);
    }
}
