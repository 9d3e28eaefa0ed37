//! Small pieces shared by every subcommand: output format selection and input reading.

use std::io::Read;

use anyhow::Context;

/// Output format of a subcommand.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Human-readable text.
    #[default]
    Text,
    /// One JSON object on stdout.
    Json,
}

/// Reads the whole input named on the command line: a path, or `-` (or nothing) for stdin.
pub fn read_input(path: Option<&str>) -> anyhow::Result<String> {
    match path {
        None | Some("-") => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("cannot read standard input")?;
            Ok(text)
        }
        Some(path) => {
            std::fs::read_to_string(path).with_context(|| format!("cannot read file '{path}'"))
        }
    }
}

/// Prints a value as one line of JSON on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string(value)?);
    Ok(())
}
