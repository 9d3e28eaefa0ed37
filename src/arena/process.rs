//! An engine in a child process, as every match runner needs one.

use std::io::{BufRead, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::Context;

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed (the engine may still answer late: kill it before trusting it again).
    Timeout,
    /// The engine closed its output (it exited or crashed).
    Closed,
}

/// A line an engine could not take ([`EngineProcess::send`]).
#[derive(Debug)]
pub struct SendError(String);

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write to the engine: {}", self.0)
    }
}

impl std::error::Error for SendError {}

/// An engine process: `command` run by `sh -c` as the leader of a process group of its own, its
/// stdin, and its stdout lines as they come, read by a thread so that [`read_line`] can wait with
/// a deadline (a hung engine then costs a timeout, not the match). Its stderr is dropped.
///
/// Dropping a process that still runs kills its group, so an engine never outlives its runner's
/// error paths.
///
/// [`read_line`]: EngineProcess::read_line
pub struct EngineProcess {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts `command` with `sh -c`.
    pub fn spawn(command: &str) -> anyhow::Result<EngineProcess> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
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
            command: command.to_string(),
            child,
            stdin,
            lines,
        })
    }

    /// The command line it was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Writes `text` and a line feed, and flushes.
    ///
    /// # Errors
    /// [`SendError`] when the engine's input is closed (it exited or crashed) or fails. It is not
    /// an `io::Error` on purpose: a broken pipe to an engine is a failure of the engine, not the
    /// quiet end of a program whose own output's reader went away
    /// ([`crate::common::is_broken_pipe`]).
    pub fn send(&mut self, text: &str) -> Result<(), SendError> {
        writeln!(self.stdin, "{text}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| SendError(e.to_string()))
    }

    /// The next output line (without its line feed) that comes before `deadline`.
    pub fn read_line(&self, deadline: Instant) -> Result<String, ReadError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
        }
    }

    /// Says `goodbye` (the protocol's quit line), gives the engine `grace` to leave, then kills
    /// its process group.
    pub fn shutdown(mut self, goodbye: &str, grace: Duration) {
        let _ = self.send(goodbye);
        let deadline = crate::common::deadline(grace);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                // The shell left; anything it started in the background goes with the group.
                self.kill_group();
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the whole process group (the `sh` and what it started) and reaps the shell.
    pub fn kill(&mut self) {
        if !self.kill_group() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }

    /// SIGKILL to the group whose leader is the shell; whether `kill` said it worked.
    fn kill_group(&self) -> bool {
        let group = format!("-{}", self.child.id());
        Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alive(pid: &str) -> bool {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
            && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .unwrap_or_default()
                .contains(") Z ")
    }

    #[test]
    fn lines_come_back_and_a_silent_engine_times_out() {
        let mut e = EngineProcess::spawn("while read l; do echo \"got $l\"; done").unwrap();
        e.send("a").unwrap();
        let soon = || Instant::now() + Duration::from_secs(5);
        assert_eq!(e.read_line(soon()), Ok("got a".to_string()));
        let quick = Instant::now() + Duration::from_millis(50);
        assert_eq!(e.read_line(quick), Err(ReadError::Timeout));
        e.shutdown("", Duration::from_millis(50));
    }

    #[test]
    fn closed_output_is_reported() {
        let e = EngineProcess::spawn("echo one").unwrap();
        let soon = Instant::now() + Duration::from_secs(5);
        assert_eq!(e.read_line(soon), Ok("one".to_string()));
        assert_eq!(e.read_line(soon), Err(ReadError::Closed));
    }

    /// Writing to an engine that has gone fails with an error that does not pass for standard
    /// output's reader going away, which would end a match runner quietly with exit code 0.
    #[test]
    fn a_gone_engine_refuses_input_loudly() {
        let mut e = EngineProcess::spawn("exit 0").unwrap();
        let soon = Instant::now() + Duration::from_secs(5);
        assert_eq!(e.read_line(soon), Err(ReadError::Closed));
        let _ = e.child.wait();
        let err = (0..100)
            .find_map(|_| e.send("name").err())
            .expect("writing to a finished engine fails");
        let err = anyhow::Error::from(err).context("engine 'exit 0' (command 'name')");
        assert!(!crate::common::is_broken_pipe(&err), "{err:#}");
        assert!(format!("{err:#}").contains("cannot write to the engine"));
    }

    #[test]
    fn shutdown_kills_what_the_shell_started() {
        // The shell starts a sleeper, prints its pid and waits: the group kill must end both.
        let e = EngineProcess::spawn("sleep 100 & echo $!; wait").unwrap();
        let pid = e
            .read_line(Instant::now() + Duration::from_secs(5))
            .unwrap();
        assert!(alive(&pid));
        e.shutdown("quit", Duration::from_millis(100));
        let deadline = Instant::now() + Duration::from_secs(5);
        while alive(&pid) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            !alive(&pid),
            "the engine's child {pid} outlived the shutdown"
        );
    }
}
