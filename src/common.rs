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

/// A spinner with a message on stderr, shown only when stderr is a terminal (so pipes and CI
/// logs stay clean). Cheap to clone and to update from worker threads.
#[derive(Clone)]
pub struct Spinner(Option<indicatif::ProgressBar>);

impl Spinner {
    /// Starts a spinner with `message`.
    pub fn new(message: String) -> Spinner {
        use std::io::IsTerminal;
        if !std::io::stderr().is_terminal() {
            return Spinner(None);
        }
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar.set_message(message);
        Spinner(Some(bar))
    }

    /// Replaces the message.
    pub fn set(&self, message: String) {
        if let Some(bar) = &self.0 {
            bar.set_message(message);
        }
    }

    /// Removes the spinner.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
