//! Work and memory budgets of the long commands (`states`, `perft`,
//! `bench`): estimate before starting, refuse what would not fit with a
//! message that says how to raise the limit, and show progress on stderr.
//!
//! Memory is measured, not guessed: the binary counts the bytes it holds
//! (a counting wrapper around the system allocator), so a short sampled
//! run tells how much one more position costs.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::alloc::{GlobalAlloc, Layout, System};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The system allocator, counting the bytes held and their peak. The hot
/// loops (apply, undo, move generation) do not allocate, so the counting
/// costs them nothing.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counters are plain statistics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grow = new_size - layout.size();
                let now = LIVE.fetch_add(grow, Ordering::Relaxed) + grow;
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

/// Bytes held now.
pub fn live_bytes() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// Start measuring a peak from the bytes held now.
pub fn reset_peak() {
    PEAK.store(live_bytes(), Ordering::Relaxed);
}

pub fn peak_bytes() -> usize {
    PEAK.load(Ordering::Relaxed)
}

/// The memory limit when `/proc/meminfo` cannot be read.
pub const FALLBACK_MEMORY: u64 = 4 << 30;

/// `--max-memory` and `--progress`, shared by the long commands.
#[derive(Args, Debug, Clone, Default)]
pub struct BudgetOptions {
    /// Memory the command may use (`512M`, `8G`, or bytes). Default: the
    /// memory available on the machine (`MemAvailable` in /proc/meminfo,
    /// 4G when it cannot be read).
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
    /// Show progress on stderr even when it is not a terminal (one line
    /// per step instead of a bar).
    #[arg(long)]
    pub progress: bool,
}

impl BudgetOptions {
    /// The memory limit in bytes and where it comes from, for messages.
    pub fn memory_limit(&self) -> (u64, &'static str) {
        match self.max_memory {
            Some(b) => (b, "--max-memory"),
            None => match available_memory() {
                Some(b) => (b, "the memory available on this machine"),
                None => (
                    FALLBACK_MEMORY,
                    "the default when /proc/meminfo cannot be read",
                ),
            },
        }
    }
}

/// `MemAvailable` from /proc/meminfo, in bytes.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// `8G`, `512M`, `64K` or a number of bytes.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => t.split_at(i),
        None => (t, ""),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a size (expected `512M`, `8G` or bytes)"))?;
    let scale: u64 = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(format!("`{text}`: unknown unit `{unit}` (K, M, G or T)")),
    };
    match n.checked_mul(scale) {
        Some(b) if b > 0 => Ok(b),
        _ => Err(format!("`{text}` is not a size from 1 byte to 16E")),
    }
}

/// A size for people: `1.5 GiB`.
pub fn show_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut x = b as f64;
    let mut u = 0;
    while x >= 1024.0 && u < UNITS.len() - 1 {
        x /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} bytes")
    } else {
        format!("{x:.1} {}", UNITS[u])
    }
}

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
