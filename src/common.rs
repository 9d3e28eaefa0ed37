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

/// Elo difference and its 95% interval; `None` for an infinite bound.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Elo {
    /// The score fraction `(W + D/2) / N`.
    pub score: f64,
    pub difference: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl Elo {
    /// From wins, draws and losses: `-400 log10(1/p - 1)` with a 95% interval from the Wilson score
    /// interval of `p`.
    pub fn of(wins: u32, draws: u32, losses: u32) -> Elo {
        let n = f64::from(wins + losses + draws);
        let p = (f64::from(wins) + f64::from(draws) / 2.0) / n;
        let z = 1.96f64;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        Elo {
            score: p,
            difference: elo(p),
            low: elo(centre - half),
            high: elo(centre + half),
        }
    }
}

fn elo(p: f64) -> Option<f64> {
    (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10())
}

/// An Elo figure with a sign, or `infinite` for an unbounded one.
pub fn fmt_elo(e: Option<f64>, infinite: &str) -> String {
    e.map_or(infinite.to_string(), |v| format!("{v:+.0}"))
}

/// An engine process of a match runner: `command` run by `sh -c`, its stdin, and its stdout lines
/// as they come, read by a thread so that a caller can wait for one with `recv_timeout` (a hung
/// engine then costs a timeout, not the match). Its stderr is dropped. With `own_group` the shell
/// leads a process group of its own, so that killing the group also ends the engine the shell
/// started.
pub struct EngineProcess {
    pub child: std::process::Child,
    pub stdin: std::process::ChildStdin,
    pub lines: std::sync::mpsc::Receiver<String>,
}

/// Starts an [`EngineProcess`].
pub fn spawn_engine(command: &str, own_group: bool) -> anyhow::Result<EngineProcess> {
    use std::io::BufRead;
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let mut process = std::process::Command::new("sh");
    process
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if own_group {
        process.process_group(0);
    }
    let mut child = process
        .spawn()
        .with_context(|| format!("cannot start engine '{command}'"))?;
    let stdin = child.stdin.take().context("engine stdin")?;
    let stdout = child.stdout.take().context("engine stdout")?;
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    Ok(EngineProcess {
        child,
        stdin,
        lines,
    })
}
