//! Work and memory budgets of the long commands (`states`, `perft`,
//! `bench`): estimate before starting, refuse what would not fit with a
//! message that says how to raise the limit, and show progress on stderr.
//!
//! Memory is measured, not guessed: the binary counts the bytes it holds
//! (a counting wrapper around the system allocator), so a short sampled
//! run tells how much one more position costs.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

// The counting allocator lives in the engine, so the libraries' large
// allocations can check the process-wide budget against its count.
pub use morrigo_engine::memory::{show_bytes, Counting};

/// Bytes held now.
pub fn live_bytes() -> usize {
    morrigo_engine::memory::live_bytes() as usize
}

/// Start measuring a peak from the bytes held now.
pub fn reset_peak() {
    morrigo_engine::memory::reset_peak()
}

pub fn peak_bytes() -> usize {
    morrigo_engine::memory::peak_bytes() as usize
}

/// With `MORRIGO_REPORT_PEAK` set, print the peak of the bytes held on
/// stderr (`peak memory: N bytes`), for tests of the budget.
pub fn report_peak() {
    if std::env::var_os("MORRIGO_REPORT_PEAK").is_some() {
        let peak = peak_bytes() as u64;
        eprintln!("peak memory: {peak} bytes ({})", show_bytes(peak));
    }
}

/// `--max-memory` and `--progress`, shared by the long commands.
#[derive(Args, Debug, Clone, Default)]
pub struct BudgetOptions {
    /// Memory the command may hold at its peak (`512M`, `8G`, or bytes);
    /// large allocations are checked before they are made. Default: the
    /// memory available on the machine (`MemAvailable` in /proc/meminfo,
    /// 4G when it cannot be read), or the address space left under
    /// `ulimit -v` when that is less.
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Show progress on stderr even when it is not a terminal (one line
    /// per step instead of a bar).
    #[arg(long)]
    pub progress: bool,
}

impl BudgetOptions {
    /// The memory limit in bytes and where it comes from, for messages:
    /// `--max-memory`, else the smaller of the memory available and the
    /// address space left under `ulimit -v`.
    pub fn memory_limit(&self) -> (u64, &'static str) {
        if let Some(b) = self.max_memory {
            return (b, "--max-memory");
        }
        morrigo_engine::memory::default_limit()
    }

    /// [`BudgetOptions::memory_limit`], made the process's budget: the
    /// large allocations from now on are checked against it before they
    /// are made, and the peak stays under it.
    pub fn enforce(&self) -> (u64, &'static str) {
        let limit = self.memory_limit();
        morrigo_engine::memory::set_limit(limit.0, limit.1);
        limit
    }
}

pub use morrigo_engine::memory::parse_bytes;

/// A count for people: `5100480`, or `6.1e12` when long.
pub fn show_count(x: f64) -> String {
    if x < 1e9 {
        format!("{x:.0}")
    } else {
        format!("{x:.1e}")
    }
}

// The estimator lives in the engine (the Python package bounds perft too).
pub use morrigo_engine::{estimate_leaves, ESTIMATE_PATHS};

/// Progress on stderr: a bar on a terminal, redrawn four times a second
/// (its clock moves even while one step of the work takes long); plain
/// lines, one a second, when asked for with `--progress` on a pipe or file;
/// nothing otherwise. With a total of 0, a spinner and the elapsed time.
pub struct Progress {
    /// Drawn on a terminal; hidden otherwise (still counting, for the
    /// plain lines).
    bar: ProgressBar,
    /// The thread printing plain lines, and its label.
    plain: Option<(String, std::thread::JoinHandle<()>)>,
}

/// How often a bar on a terminal is redrawn.
const TICK: Duration = Duration::from_millis(250);

impl Progress {
    pub fn new(label: String, total: u64, asked: bool) -> Self {
        let template = if total == 0 {
            "{msg} {spinner} {elapsed}".to_string()
        } else {
            "{msg} [{bar:30}] {pos}/{len} ({elapsed}, {eta} left)".to_string()
        };
        Progress::with_template(label, total, &template, asked)
    }

    /// A spinner: work whose size is not known in advance.
    pub fn spinner(label: String, asked: bool) -> Self {
        Progress::new(label, 0, asked)
    }

    /// A spinner with a count of `what` found so far (`set`), for work
    /// whose size is only bounded.
    pub fn counter(label: String, what: &str, asked: bool) -> Self {
        let template = format!("{{msg}} {{spinner}} {{human_pos}} {what} ({{elapsed}})");
        Progress::with_template(label, 0, &template, asked)
    }

    fn with_template(label: String, total: u64, template: &str, asked: bool) -> Self {
        if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total);
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_message(label);
            bar.enable_steady_tick(TICK);
            return Progress { bar, plain: None };
        }
        let bar = ProgressBar::hidden();
        bar.set_length(total);
        let plain = asked.then(|| {
            eprintln!("{label}: started");
            let watched = bar.clone();
            let name = label.clone();
            let thread = std::thread::spawn(move || {
                let mut last = Instant::now();
                while !watched.is_finished() {
                    std::thread::sleep(Duration::from_millis(50));
                    if last.elapsed() >= Duration::from_secs(1) && !watched.is_finished() {
                        eprintln!("{name}: {}", plain_count(&watched));
                        last = Instant::now();
                    }
                }
            });
            (label, thread)
        });
        Progress { bar, plain }
    }

    pub fn inc(&mut self) {
        self.bar.inc(1);
    }

    /// Advance to `done` (a count reported by the work itself).
    pub fn set(&mut self, done: u64) {
        self.bar.set_position(done);
    }

    /// A line of its own among the progress (`{label}: {text}`): above
    /// the bar on a terminal (drawn again below it), with the plain lines
    /// under `--progress`, nothing otherwise.
    pub fn line(&self, text: &str) {
        if let Some((label, _)) = &self.plain {
            eprintln!("{label}: {text}");
        } else if !self.bar.is_hidden() {
            self.bar.println(format!("{}: {text}", self.bar.message()));
        }
    }

    pub fn finish(self) {
        self.bar.finish_and_clear();
        if let Some((label, thread)) = self.plain {
            let _ = thread.join();
            if self.bar.length().unwrap_or(0) > 0 || self.bar.position() > 0 {
                eprintln!("{label}: {}", plain_count(&self.bar));
            }
            eprintln!("{label}: done");
        }
    }
}

/// `12/24`; without a total, the count so far (if any) and the seconds.
fn plain_count(bar: &ProgressBar) -> String {
    let secs = bar.elapsed().as_secs();
    match (bar.length(), bar.position()) {
        (Some(total), done) if total > 0 => format!("{done}/{total}"),
        (_, 0) => format!("{secs} s"),
        (_, done) => format!("{done} ({secs} s)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_units() {
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("8G"), Ok(8 << 30));
        assert_eq!(parse_bytes("8GiB"), Ok(8 << 30));
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("12X").is_err());
        assert!(parse_bytes("99999999999T").is_err());
    }
}
