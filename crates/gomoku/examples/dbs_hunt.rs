//! Hunts random games for positions whose dbs win needs the combination stage (the unit test
//! `dbs::tests::combination_stage_joins_two_trees` uses one): `cargo run --release -p
//! stonelab-gomoku --example dbs_hunt`.

use stonelab_gomoku::games::{random_position, GamePosition, Rng};
use stonelab_gomoku::search::dbs::{self, Options};
use stonelab_gomoku::search::referee;
use stonelab_gomoku::search::{Limits, Mode};
use stonelab_gomoku::{render, Bitboard, Board, Parsed, Style};

fn main() {
    let mut rng = Rng::new(77);
    let mut found = 0;
    for i in 0..20000u64 {
        let Some(GamePosition {
            grid,
            rule,
            to_move: c,
        }) = random_position(&mut rng, 9..12, 500_000 + i, 8)
        else {
            continue;
        };
        let size = grid.size();
        let board = Board::from_grid(&grid, rule);
        for mode in [Mode::Vcf, Mode::Vct] {
            let lim = Limits::for_mode(mode);
            let big = Options {
                max_nodes: 100_000,
                max_candidates: 1000,
                ..Options::default()
            };
            let with = dbs::search(&board, c, mode, &lim, &big);
            if !with.via_combination {
                continue;
            }
            let without = dbs::search(
                &board,
                c,
                mode,
                &lim,
                &Options {
                    combination: false,
                    ..big
                },
            );
            if without.proof.is_some() {
                continue;
            }
            let p = with.proof.unwrap();
            referee::check_proof(&grid, rule, c, &p).unwrap();
            println!(
                "#{i} {:?} {:?} size {size} {} to move, line {:?}",
                mode,
                rule,
                c.name(),
                p.line().iter().map(|q| (q.x, q.y)).collect::<Vec<_>>()
            );
            print!(
                "{}",
                render(
                    &Parsed {
                        grid: grid.clone(),
                        style: Style::Ascii
                    },
                    &Bitboard::EMPTY
                )
            );
            found += 1;
        }
        if found >= 4 {
            break;
        }
    }
}
