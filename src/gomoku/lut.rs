//! `stonelab gomoku lut`: print rows of the seed's line table in the seed's own format.

use anyhow::{bail, Context};
use stonelab_gomoku::tables::skew::{decode, digit_string, line_drawing, CODE_COUNT};
use stonelab_gomoku::{Rule, ThreatMaskTable};

use super::RuleArg;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Each line: INDEX DIGITS LINE 0bMASK. DIGITS are the 15 skew-ternary digits, most\n\
    significant first (0 empty, 1 white, 2 black, 3 edge). LINE draws them in the same order: ├ and ┤\n\
    for empty cells at the line's ends, ┼ inside, ○ white, ● black, ▒ the edge and beyond. MASK has bit\n\
    i set when the cell at digit i is a threat point."
)]
pub struct Args {
    /// Winning rule of the table
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    rule: RuleArg,
    /// Table indices, 0 ..= 21523358
    #[arg(required = true, value_name = "INDEX")]
    indices: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut codes = Vec::with_capacity(args.indices.len());
    for (i, text) in args.indices.iter().enumerate() {
        let code: u64 = text
            .parse()
            .with_context(|| format!("argument {}: '{text}' is not a table index", i + 1))?;
        if code >= CODE_COUNT as u64 {
            bail!(
                "argument {}: index {code} is outside 0..={}",
                i + 1,
                CODE_COUNT - 1
            );
        }
        codes.push(code as u32);
    }
    let table = ThreatMaskTable::get(Rule::from(args.rule));
    let mut out = String::new();
    for code in codes {
        let digits = decode(code).expect("index checked");
        out.push_str(&format!(
            "{code} {} {} 0b{:015b}\n",
            digit_string(&digits),
            line_drawing(&digits),
            table.lookup(code)
        ));
    }
    out!("{out}")?;
    Ok(())
}
