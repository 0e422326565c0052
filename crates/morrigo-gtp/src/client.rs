//! The referee's side of GTP: an external engine process, spoken to one
//! command at a time, every answer awaited with a deadline.

use crate::protocol::MAX_LINE;
use morrigo_diag::{read_line_limited, LineRead};
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Most bytes one response may have: an engine that talks on without
/// ending its response is cut off (`list_commands` of GNU Go is ~3 KiB).
pub const MAX_RESPONSE_BYTES: usize = 1024 * 1024;

/// Why an engine could not go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No complete answer within the time allowed.
    Timeout(String),
    /// The process ended, closed its output or could not be written to.
    Crash(String),
    /// The answer is not GTP.
    Garbage(String),
    /// A `?` failure response, with its message.
    Refused(String),
}

impl Fault {
    pub fn describe(&self) -> String {
        match self {
            Fault::Timeout(w) | Fault::Crash(w) | Fault::Garbage(w) | Fault::Refused(w) => {
                w.clone()
            }
        }
    }
}

/// A running engine.
pub struct Client {
    /// The command line, for messages.
    pub command: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Result<String, String>>,
    timeout: Duration,
    next_id: u64,
}

impl Client {
    /// Start `command` (run by `sh -c`, in its own process group so it can
    /// be ended with whatever it started).
    pub fn spawn(command: &str, timeout: Duration) -> Result<Client, Fault> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| Fault::Crash(format!("cannot start `{command}`: {e}")))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Fault::Crash(format!("`{command}` has no output")))?;
        let (tx, rx) = mpsc::channel();
        // The reader owns the engine's output; it ends at end of file, on a
        // read error, or when the referee has dropped the client.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                let line = match read_line_limited(&mut reader, &mut bytes, MAX_LINE) {
                    Ok(LineRead::End) => return,
                    Ok(LineRead::TooLong) => Err(format!("a line longer than {MAX_LINE} bytes")),
                    Ok(LineRead::Line) => {
                        Ok(String::from_utf8_lossy(&bytes).trim_end().to_string())
                    }
                    Err(e) => Err(format!("cannot read its output: {e}")),
                };
                let stop = line.is_err();
                if tx.send(line).is_err() || stop {
                    return;
                }
            }
        });
        Ok(Client {
            command: command.to_string(),
            child,
            stdin,
            lines: rx,
            timeout,
            next_id: 1,
        })
    }

    /// How the process ended, if it has.
    fn exit_note(&mut self) -> String {
        // Give a dying process a moment to be reaped.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!(" ({status})");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        String::new()
    }

    /// Send one command and wait for its response: the text of a success,
    /// or the fault.
    pub fn send(&mut self, command: &str) -> Result<String, Fault> {
        let id = self.next_id;
        self.next_id += 1;
        let written = match self.stdin.as_mut() {
            Some(w) => writeln!(w, "{id} {command}").and_then(|_| w.flush()),
            None => Err(std::io::Error::other("input closed")),
        };
        if let Err(e) = written {
            let note = self.exit_note();
            return Err(Fault::Crash(format!(
                "the engine stopped reading (`{command}`: {e}){note}"
            )));
        }
        let deadline = Instant::now() + self.timeout;
        let mut body: Vec<String> = Vec::new();
        let mut size = 0usize;
        let mut status: Option<(bool, String)> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(Ok(line)) => line,
                Ok(Err(why)) => return Err(Fault::Garbage(format!("after `{command}`: {why}"))),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Fault::Timeout(format!(
                        "no answer to `{command}` within {:.1} s",
                        self.timeout.as_secs_f64()
                    )))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let note = self.exit_note();
                    return Err(Fault::Crash(format!(
                        "the engine ended its output while answering `{command}`{note}"
                    )));
                }
            };
            match &status {
                None if line.trim().is_empty() => continue,
                None => {
                    let ok = match line.chars().next() {
                        Some('=') => true,
                        Some('?') => false,
                        _ => {
                            return Err(Fault::Garbage(format!(
                                "answered `{command}` with `{}`, not a GTP response (`=` or `?`)",
                                clip(&line)
                            )))
                        }
                    };
                    let rest = &line[1..];
                    let digits =
                        rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                    if digits > 0 && rest[..digits].parse::<u64>().ok() != Some(id) {
                        return Err(Fault::Garbage(format!(
                            "answered `{command}` (id {id}) with id {}",
                            &rest[..digits]
                        )));
                    }
                    status = Some((ok, rest[digits..].trim().to_string()));
                }
                Some(_) if line.trim().is_empty() => break,
                Some(_) => {
                    size += line.len() + 1;
                    if size > MAX_RESPONSE_BYTES {
                        return Err(Fault::Garbage(format!(
                            "an answer to `{command}` longer than {MAX_RESPONSE_BYTES} bytes"
                        )));
                    }
                    body.push(line);
                }
            }
        }
        let (ok, first) = status.unwrap_or_default();
        let mut text = first;
        for l in body {
            text.push('\n');
            text += &l;
        }
        match ok {
            true => Ok(text),
            false => Err(Fault::Refused(text)),
        }
    }

    /// Ask the engine to quit, then make sure it is gone (and whatever it
    /// started in its process group).
    pub fn stop(mut self) {
        if self.stdin.is_some() {
            self.timeout = self.timeout.min(Duration::from_secs(2));
            let _ = self.send("quit");
        }
        self.kill();
    }

    fn kill(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            #[cfg(unix)]
            {
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{}", self.child.id())])
                    .stderr(Stdio::null())
                    .status();
            }
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// A line of engine output, shortened for a message.
fn clip(line: &str) -> String {
    let mut s: String = line.chars().take(80).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}
