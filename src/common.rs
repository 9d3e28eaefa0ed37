//! Small pieces shared by every subcommand: output format selection, input reading, writing to
//! standard output without panicking, checks of output paths, thread counts and komi, and the one
//! place where errors become the `stonelab: error: ...` line.

use std::fmt;
use std::io::{Read, Write};
use std::path::Path;

use anyhow::{bail, Context};

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

/// A failed write to standard output. A closed pipe (`stonelab ... | head -1`) ends the program
/// quietly; any other failure (a full disk, `> /dev/full`) is an error like any other.
#[derive(Debug)]
pub struct OutputError(pub std::io::Error);

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write standard output: {}", self.0)
    }
}

impl std::error::Error for OutputError {}

impl OutputError {
    /// Whether the reader went away (the quiet case).
    #[must_use]
    pub fn is_broken_pipe(&self) -> bool {
        self.0.kind() == std::io::ErrorKind::BrokenPipe
    }
}

/// Writes formatted text to standard output; unlike `print!` it returns an error instead of
/// panicking when the output is closed or full.
pub fn write_stdout(args: fmt::Arguments<'_>) -> Result<(), OutputError> {
    std::io::stdout()
        .lock()
        .write_fmt(args)
        .map_err(OutputError)
}

/// Flushes standard output (the last line of a program that ends without a line feed).
pub fn flush_stdout() -> Result<(), OutputError> {
    std::io::stdout().flush().map_err(OutputError)
}

/// `print!` that returns `Result<(), OutputError>` instead of panicking (use it with `?`).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::common::write_stdout(format_args!($($arg)*))
    };
}

/// `println!` that returns `Result<(), OutputError>` instead of panicking (use it with `?`).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::common::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::common::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Prints a value as one line of JSON on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    outln!("{}", serde_json::to_string(value)?)?;
    Ok(())
}

/// Most threads or workers a command accepts: far more than any machine it runs on has cores,
/// and few enough that a typo (`--threads 10000`) is refused before it costs memory.
pub const MAX_THREADS: usize = 256;

/// Checks a thread or worker count given as `flag`: 1 ..= [`MAX_THREADS`].
pub fn check_threads(flag: &str, n: usize) -> anyhow::Result<()> {
    if n == 0 {
        bail!("{flag} must be at least 1");
    }
    if n > MAX_THREADS {
        bail!("{flag} {n} is over the limit of {MAX_THREADS}");
    }
    Ok(())
}

/// Reads a komi: a finite number (`7.5`, `-0.5`); NaN and infinities are refused. A clap value
/// parser, so every command reads komi the same way.
pub fn parse_komi(text: &str) -> Result<f64, String> {
    let k: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number", clean(text, 40)))?;
    if !k.is_finite() {
        return Err(format!(
            "komi must be a finite number, not '{}'",
            clean(text, 40)
        ));
    }
    Ok(k)
}

/// The instant `limit` from now, or a century from now for a limit too long to add (a time flag
/// given as `u64::MAX` milliseconds waits "for ever" rather than overflowing).
#[must_use]
pub fn deadline(limit: std::time::Duration) -> std::time::Instant {
    deadline_from(std::time::Instant::now(), limit)
}

/// The instant `limit` after `start`, as [`deadline`].
#[must_use]
pub fn deadline_from(start: std::time::Instant, limit: std::time::Duration) -> std::time::Instant {
    start
        .checked_add(limit)
        .or_else(|| start.checked_add(std::time::Duration::from_secs(100 * 365 * 86_400)))
        .unwrap_or(start)
}

/// Longest time flag accepted, in milliseconds (`--turn-ms`, `--move-ms`, `--max-ms` ...):
/// about eleven and a half days.
pub const MAX_MS: u64 = 1_000_000_000;

/// A clap value parser for a time flag in milliseconds: `0 ..= MAX_MS`.
pub fn parse_ms(text: &str) -> Result<u64, String> {
    let ms: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number of milliseconds", clean(text, 40)))?;
    if ms > MAX_MS {
        return Err(format!("{ms} ms is over the limit of {MAX_MS} ms"));
    }
    Ok(ms)
}

/// Checks a path a command is about to write (by a temporary name and a rename): it must be a
/// regular file or not exist yet (a device, a FIFO, a folder or a symbolic link is never
/// replaced), and its folder must exist (none is created).
pub fn check_output_path(path: &Path, flag: &str) -> anyhow::Result<()> {
    let shown = path.display();
    if path.as_os_str().is_empty() {
        bail!("{flag}: the path is empty");
    }
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.file_type().is_file() => {
            bail!("{flag} '{shown}' exists and is not a regular file; it is not replaced")
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("{flag}: cannot inspect '{shown}'")),
    }
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    match std::fs::metadata(parent) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => bail!("{flag} '{shown}': '{}' is not a folder", parent.display()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!(
                "{flag} '{shown}': the folder '{}' does not exist",
                parent.display()
            )
        }
        Err(e) => Err(e).with_context(|| format!("{flag}: cannot inspect '{}'", parent.display())),
    }
}

/// Text from the outside world made safe to echo in a one-line message: control characters
/// escaped (`\n`, `\u{1b}`), and cut once `max` characters are written (the rest counted).
#[must_use]
pub fn clean(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut written = 0;
    for (i, ch) in text.char_indices() {
        if written >= max {
            let rest = text[i..].chars().count();
            out.push_str(&format!("... ({rest} more characters)"));
            break;
        }
        if ch.is_control() {
            let escaped: String = ch.escape_default().collect();
            written += escaped.len();
            out.push_str(&escaped);
        } else {
            written += 1;
            out.push(ch);
        }
    }
    out
}

/// Longest error message printed: what a person reads, with room for a path and a quoted line.
pub const MAX_MESSAGE: usize = 1000;

/// An error and its causes as one clean line: `outer: cause: cause`, where a cause whose text
/// the line already holds is left out (libraries that print their source themselves would
/// otherwise show it twice), control characters escaped and the whole cut to [`MAX_MESSAGE`].
#[must_use]
pub fn message(err: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    clean(&line, MAX_MESSAGE)
}

/// Whether an error is standard output's reader going away (the program then ends quietly).
#[must_use]
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<OutputError>()
            .is_some_and(OutputError::is_broken_pipe)
            || c.downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Ends a program after `result`: quietly with 0 on success or when standard output's reader
/// went away, else with the one line `PROGRAM: error: ...` on stderr and exit code 2.
pub fn exit_with(program: &str, result: anyhow::Result<()>) -> ! {
    let result = result.and_then(|()| flush_stdout().map_err(anyhow::Error::from));
    match result {
        Ok(()) => std::process::exit(0),
        Err(e) if is_broken_pipe(&e) => std::process::exit(0),
        Err(e) => {
            eprintln!("{program}: error: {}", message(&e));
            std::process::exit(2)
        }
    }
}

/// A safety net for any `print!` left in the program: its panic on a closed or full standard
/// output becomes the same quiet exit or one-line error as [`exit_with`]. Other panics (bugs)
/// are reported as usual.
pub fn catch_output_panics(program: &'static str) {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied());
        if let Some(why) = text.and_then(|t| t.strip_prefix("failed printing to stdout: ")) {
            if why.starts_with("Broken pipe") {
                std::process::exit(0);
            }
            eprintln!("{program}: error: cannot write standard output: {why}");
            std::process::exit(2);
        }
        default(info);
    }));
}

/// Parses the command line of `program`, turning clap's errors into the one line
/// `PROGRAM: error: ...` (its tip, if any, on the same line) followed by clap's usage hint, with
/// exit code 2. Help and version requests print as clap prints them.
pub fn parse_args<C: clap::Parser>(program: &str) -> C {
    use clap::error::ErrorKind;
    let e = match C::try_parse() {
        Ok(c) => return c,
        Err(e) => e,
    };
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => e.exit(),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprintln!("{program}: error: a subcommand is required");
            eprint!("{}", e.render());
            std::process::exit(2)
        }
        _ => {}
    }
    let (line, hints) = clap_message(&e.render().to_string());
    eprintln!("{program}: error: {line}");
    for hint in hints {
        eprintln!("{hint}");
    }
    std::process::exit(2)
}

/// Splits clap's rendered error into one message line and the hint lines after it.
fn clap_message(rendered: &str) -> (String, Vec<String>) {
    let mut paragraphs = rendered.split("\n\n").filter(|p| !p.trim().is_empty());
    let first = paragraphs.next().unwrap_or("");
    let mut parts: Vec<String> = first
        .lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    if let Some(head) = parts.first_mut() {
        *head = head
            .strip_prefix("error:")
            .unwrap_or(head)
            .trim()
            .to_string();
    }
    let mut line = parts.join(" ");
    let mut hints = Vec::new();
    for p in paragraphs {
        let p = p.trim();
        if p.starts_with("tip:") {
            line.push_str("; ");
            line.push_str(&p.lines().map(str::trim).collect::<Vec<_>>().join(" "));
        } else {
            hints.extend(p.lines().map(|l| clean(l, MAX_MESSAGE)));
        }
    }
    (clean(&line, MAX_MESSAGE), hints)
}

/// A progress bar on stderr counting `unit` (tasks, root moves, cells), with the time elapsed
/// and an estimate of the time left; or none. Shown on a terminal when `long` (the run is
/// expected to take seconds), and always with `forced` (`--progress`), drawn with terminal
/// escapes even when stderr is not a terminal.
#[must_use]
pub fn progress_bar(unit: &str, long: bool, forced: bool) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    let terminal = std::io::stderr().is_terminal();
    if !(forced || (long && terminal)) {
        return None;
    }
    let bar = indicatif::ProgressBar::new(0);
    if !terminal {
        bar.set_draw_target(indicatif::ProgressDrawTarget::term_like(Box::new(
            StderrTerm,
        )));
    }
    let template = format!("{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit}, eta {{eta}}");
    if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    Some(bar)
}

/// Standard error as a terminal for [`progress_bar`] when it is not one (`--progress`): ANSI
/// cursor movements, 80 columns.
#[derive(Debug)]
struct StderrTerm;

impl StderrTerm {
    fn put(&self, text: &str) -> std::io::Result<()> {
        std::io::stderr().write_all(text.as_bytes())
    }
}

impl indicatif::TermLike for StderrTerm {
    fn width(&self) -> u16 {
        80
    }

    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.put(&format!("\x1b[{n}A"))
    }

    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.put(&format!("\x1b[{n}B"))
    }

    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.put(&format!("\x1b[{n}C"))
    }

    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.put(&format!("\x1b[{n}D"))
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.put(&format!("{s}\n"))
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.put(s)
    }

    fn clear_line(&self) -> std::io::Result<()> {
        self.put("\r\x1b[2K")
    }

    fn flush(&self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_escapes_and_truncates() {
        assert_eq!(clean("a\nb\u{1b}[31m", 100), "a\\nb\\u{1b}[31m");
        assert_eq!(clean("abcdef", 3), "abc... (3 more characters)");
        assert_eq!(clean("é", 1), "é");
        assert_eq!(clean("\0\0\0", 8), "\\u{0}\\u{0}... (1 more characters)");
    }

    #[test]
    fn repeated_causes_are_printed_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone (os error 2)");
        #[derive(Debug)]
        struct Lib(std::io::Error);
        impl fmt::Display for Lib {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "/x: {}", self.0)
            }
        }
        impl std::error::Error for Lib {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let e = anyhow::Error::new(Lib(io)).context("cannot read /x");
        assert_eq!(message(&e), "cannot read /x: /x: gone (os error 2)");
    }

    #[test]
    fn komi_must_be_finite() {
        assert_eq!(parse_komi("7.5"), Ok(7.5));
        assert_eq!(parse_komi("-0.5"), Ok(-0.5));
        for bad in ["NaN", "nan", "inf", "-inf", "infinity", "x", ""] {
            assert!(parse_komi(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn thread_counts_are_bounded() {
        assert!(check_threads("--threads", 1).is_ok());
        assert!(check_threads("--threads", MAX_THREADS).is_ok());
        assert!(check_threads("--threads", 0).is_err());
        let e = check_threads("--threads", 10_000).unwrap_err().to_string();
        assert!(e.contains("limit of 256"), "{e}");
    }

    #[test]
    fn clap_errors_become_one_line() {
        let (line, hints) = clap_message(
            "error: unexpected argument '--foo' found\n\n  tip: to pass '--foo' as a value, use \
             '-- --foo'\n\nUsage: stonelab go count <BOARD>\n\nFor more information, try \
             '--help'.\n",
        );
        assert_eq!(
            line,
            "unexpected argument '--foo' found; tip: to pass '--foo' as a value, use '-- --foo'"
        );
        assert_eq!(
            hints,
            [
                "Usage: stonelab go count <BOARD>",
                "For more information, try '--help'."
            ]
        );
        let (line, _) = clap_message(
            "error: the following required arguments were not provided:\n  --size <SIZE>\n\n\
             Usage: x\n",
        );
        assert_eq!(
            line,
            "the following required arguments were not provided: --size <SIZE>"
        );
    }
}
