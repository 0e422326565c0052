//! The referee's side of GTP: an external engine process, spoken to one
//! command at a time, every answer awaited with a deadline.
//!
//! Whatever the engine prints, the referee's memory stays bounded: its
//! output is cut into lines of at most [`MAX_LINE`] bytes (a longer line is
//! refused as soon as it passes the limit, not read to its end), at most
//! [`QUEUED_LINES`] lines wait between the reading thread and the referee,
//! and one response holds at most [`MAX_RESPONSE_BYTES`]. An engine that
//! prints empty lines (or anything) forever is read until the deadline and
//! loses on time.

use crate::protocol::MAX_LINE;
use morrigo_diag::LineRead;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Most bytes one response may have: an engine that talks on without
/// ending its response is cut off (`list_commands` of GNU Go is ~3 KiB).
pub const MAX_RESPONSE_BYTES: usize = 1024 * 1024;

/// Lines read ahead of the referee: the reading thread waits when they
/// are not taken, so a flood of output costs no memory.
pub const QUEUED_LINES: usize = 64;

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
    /// The fault's message, whichever kind it is.
    pub fn describe(&self) -> String {
        match self {
            Fault::Timeout(w) | Fault::Crash(w) | Fault::Garbage(w) | Fault::Refused(w) => {
                w.clone()
            }
        }
    }
}

/// Read one line of engine output into `line` (without the limit's
/// overrun): a line longer than [`MAX_LINE`] bytes is `TooLong` as soon as
/// its first `MAX_LINE + 1` bytes are read.
pub fn read_engine_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<LineRead> {
    line.clear();
    let n = input
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', line)?;
    Ok(match n {
        0 => LineRead::End,
        _ if line.ends_with(b"\n") || line.len() <= MAX_LINE => LineRead::Line,
        _ => {
            line.clear();
            LineRead::TooLong
        }
    })
}

/// The response to one command, read line by line: `=`/`?`, the id, the
/// text, up to the empty line that ends it (empty lines before it are
/// skipped, as GTP allows).
#[derive(Debug)]
pub struct Response {
    id: u64,
    command: String,
    status: Option<bool>,
    text: String,
}

impl Response {
    /// An empty response to command `command`, sent with id `id`.
    pub fn new(id: u64, command: &str) -> Self {
        Response {
            id,
            command: command.to_string(),
            status: None,
            text: String::new(),
        }
    }

    /// Take one line (without its newline); `Some` once the response is
    /// complete or cannot be one. The text never exceeds
    /// [`MAX_RESPONSE_BYTES`].
    pub fn line(&mut self, line: &str) -> Option<Result<String, Fault>> {
        let command = &self.command;
        let id = self.id;
        let line = line.trim_end();
        let Some(ok) = self.status else {
            if line.trim().is_empty() {
                return None;
            }
            let ok = match line.as_bytes()[0] {
                b'=' => true,
                b'?' => false,
                _ => {
                    return Some(Err(Fault::Garbage(format!(
                        "answered `{command}` with `{}`, not a GTP response (`=` or `?`)",
                        clip(line)
                    ))))
                }
            };
            let rest = &line[1..];
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 && rest[..digits].parse::<u64>().ok() != Some(id) {
                return Some(Err(Fault::Garbage(format!(
                    "answered `{command}` (id {id}) with id {}",
                    clip(&rest[..digits])
                ))));
            }
            self.status = Some(ok);
            self.text = rest[digits..].trim().to_string();
            return None;
        };
        if line.trim().is_empty() {
            let text = std::mem::take(&mut self.text);
            return Some(if ok {
                Ok(text)
            } else {
                Err(Fault::Refused(text))
            });
        }
        if self.text.len() + line.len() + 1 > MAX_RESPONSE_BYTES {
            return Some(Err(Fault::Garbage(format!(
                "an answer to `{command}` longer than {MAX_RESPONSE_BYTES} bytes"
            ))));
        }
        self.text.push('\n');
        self.text += line;
        None
    }
}

/// Read the response to command `id` from `input` as the referee does,
/// without a clock (the fuzz target's entry): the response, or the fault.
pub fn read_response(input: &mut impl BufRead, id: u64, command: &str) -> Result<String, Fault> {
    let mut response = Response::new(id, command);
    let mut bytes = Vec::new();
    loop {
        match read_engine_line(input, &mut bytes) {
            Ok(LineRead::Line) => {
                if let Some(done) = response.line(&String::from_utf8_lossy(&bytes)) {
                    return done;
                }
            }
            Ok(LineRead::TooLong) => {
                return Err(Fault::Garbage(format!(
                    "after `{command}`: a line longer than {MAX_LINE} bytes"
                )))
            }
            Ok(LineRead::End) => {
                return Err(Fault::Crash(format!(
                    "the engine ended its output while answering `{command}`"
                )))
            }
            Err(e) => {
                return Err(Fault::Garbage(format!(
                    "after `{command}`: cannot read its output: {e}"
                )))
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
    /// Whether the process group is in the list a signal kills.
    #[cfg(unix)]
    registered: bool,
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
        #[cfg(unix)]
        let registered = engines::add(child.id() as i32);
        let (tx, rx) = mpsc::sync_channel(QUEUED_LINES);
        // The reader owns the engine's output; it ends at end of file, on a
        // read error, or when the referee has dropped the client. Waiting
        // on a full queue, it reads nothing more.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                let line = match read_engine_line(&mut reader, &mut bytes) {
                    Ok(LineRead::End) => return,
                    Ok(LineRead::TooLong) => Err(format!("a line longer than {MAX_LINE} bytes")),
                    Ok(LineRead::Line) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
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
            #[cfg(unix)]
            registered,
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
        let mut response = Response::new(id, command);
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
            if let Some(done) = response.line(&line) {
                return done;
            }
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

    // kill(2) on a process group: one of the crate's libc calls.
    #[allow(unsafe_code)]
    fn kill(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            #[cfg(unix)]
            // SAFETY: kill(2) on the engine's process group, which it leads
            // until it is reaped below.
            unsafe {
                libc::kill(-(self.child.id() as i32), libc::SIGKILL);
            }
            let _ = self.child.kill();
        }
        // Out of the list before the pid can be reused.
        #[cfg(unix)]
        if std::mem::take(&mut self.registered) {
            engines::remove(self.child.id() as i32);
        }
        let _ = self.child.wait();
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let running = matches!(self.child.try_wait(), Ok(None));
        #[cfg(unix)]
        let running = running || self.registered;
        if running {
            self.kill();
        }
    }
}

/// Kill every running engine's process group when the referee gets
/// SIGINT, SIGTERM or SIGHUP, then die of that signal as it would have:
/// engines never outlive the referee. Call once before spawning engines.
pub fn kill_engines_on_signal() {
    #[cfg(unix)]
    engines::install();
}

/// The process groups of the running engines, in a fixed table a signal
/// handler can read (it may only call async-signal-safe functions).
#[cfg(unix)]
mod engines {
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::sync::Once;

    const SLOTS: usize = 4096;
    static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

    /// Record `pid`'s group; false when the table is full (the engine
    /// then dies only with its own `stop`).
    pub fn add(pid: i32) -> bool {
        GROUPS.iter().any(|slot| {
            slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        })
    }

    pub fn remove(pid: i32) {
        for slot in &GROUPS {
            if slot
                .compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    #[allow(unsafe_code)]
    extern "C" fn on_signal(signal: libc::c_int) {
        for slot in &GROUPS {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: kill(2) is async-signal-safe.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
        // SAFETY: signal(2) and raise(3) are async-signal-safe; the
        // default action ends the process with this signal.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }

    #[allow(unsafe_code)]
    pub fn install() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: installs a handler that only calls
                // async-signal-safe functions.
                unsafe {
                    let mut action: libc::sigaction = std::mem::zeroed();
                    action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                    libc::sigemptyset(&mut action.sa_mask);
                    libc::sigaction(signal, &action, std::ptr::null_mut());
                }
            }
        });
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A line that never ends is refused once it passes the limit: it is
    /// not read to its end (it has none).
    #[test]
    fn an_endless_line_is_refused_at_the_limit_not_read_to_its_end() {
        let mut input = BufReader::new(std::io::repeat(b'x'));
        let mut line = Vec::new();
        let r = read_engine_line(&mut input, &mut line).unwrap();
        assert_eq!(r, LineRead::TooLong);
        assert!(line.capacity() <= 4 * MAX_LINE, "{}", line.capacity());
    }

    /// Empty lines before a response are skipped; the response ends at
    /// the first empty line after it; a wrong id is not GTP.
    #[test]
    fn a_response_is_read_to_its_empty_line() {
        let mut input = "\n\n \n=7 C3\nD4\n\n=8\n\n".as_bytes();
        assert_eq!(
            read_response(&mut input, 7, "genmove b"),
            Ok("C3\nD4".into())
        );
        let e = read_response(&mut "=9\n\n".as_bytes(), 8, "x").unwrap_err();
        assert_eq!(e, Fault::Garbage("answered `x` (id 8) with id 9".into()));
        let e = read_response(&mut "? no\n\n".as_bytes(), 1, "x").unwrap_err();
        assert_eq!(e, Fault::Refused("no".into()));
    }

    /// An answer that talks on is cut off at the response limit, and one
    /// line of 16 MiB at the line limit.
    #[test]
    fn a_response_longer_than_the_limit_is_cut_off() {
        let lines = "D4\n".repeat(MAX_RESPONSE_BYTES);
        let input = format!("=\n{lines}\n");
        let e = read_response(&mut input.as_bytes(), 1, "list_commands").unwrap_err();
        assert_eq!(
            e,
            Fault::Garbage(format!(
                "an answer to `list_commands` longer than {MAX_RESPONSE_BYTES} bytes"
            ))
        );
        let long = b"=\n".chain(std::io::repeat(b'x').take(1 << 24));
        let e = read_response(&mut BufReader::new(long), 1, "list_commands").unwrap_err();
        assert_eq!(
            e,
            Fault::Garbage(format!(
                "after `list_commands`: a line longer than {MAX_LINE} bytes"
            ))
        );
    }

    /// What the fuzz target checks, on random outputs over GTP's alphabet:
    /// every read ends, consumes input and stays bounded.
    #[test]
    fn random_engine_output_reads_as_bounded_answers_or_faults() {
        use rand::{Rng, SeedableRng};
        let alphabet = b"=?0123456789 \n\n\tx\xff\xc3";
        let mut rng = rand::rngs::SmallRng::seed_from_u64(20);
        for _ in 0..2000 {
            let len = rng.random_range(0..200);
            let data: Vec<u8> = (0..len)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect();
            let mut input = &data[..];
            let mut id = 1;
            while !input.is_empty() {
                let before = input.len();
                match read_response(&mut input, id, "genmove b") {
                    Ok(t) | Err(Fault::Refused(t)) => assert!(t.len() <= MAX_RESPONSE_BYTES),
                    Err(f) => assert!(f.describe().len() <= 512, "{f:?}"),
                }
                assert!(input.len() < before, "{data:?}");
                id += 1;
            }
        }
    }
}
