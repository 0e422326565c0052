//! The process's memory budget, checked before the large allocations (the
//! solver's tables, the visited sets of `states`, position lists), so that
//! a command past its budget stops with an error instead of aborting when
//! an allocation fails (a failed Rust allocation aborts the process).
//!
//! Two limits, both checked by [`reserve`]:
//! - the bytes the process holds, counted by [`Counting`] when a binary
//!   installs it as its global allocator, against [`set_limit`]'s limit
//!   (`--max-memory`): the held bytes plus the allocation asked for must
//!   fit, so the peak never passes the limit;
//! - the process's address space (`ulimit -v`, `RLIMIT_AS`), which counts
//!   thread stacks, allocator arenas and the binary as well: the virtual
//!   size now (read from /proc) plus the allocation must fit under it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{OnceLock, RwLock};

/// The system allocator, counting the bytes held and their peak. The hot
/// loops (apply, undo, move generation) do not allocate, so the counting
/// costs them nothing.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static INSTALLED: AtomicBool = AtomicBool::new(false);

#[inline]
fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
    if !INSTALLED.load(Relaxed) {
        INSTALLED.store(true, Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counters are plain statistics. (The engine's only unsafe code.)
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            out_of_memory(layout.size(), "no memory or address space left");
        }
        grew(layout.size());
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(layout.size(), "no memory or address space left");
        }
        grew(layout.size());
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(new_size, "no memory or address space left");
        }
        if new_size >= layout.size() {
            grew(new_size - layout.size());
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Relaxed);
        }
        p
    }
}

/// The last line of defence, for allocations no budget check foresaw: one
/// the system refuses (`ulimit -v`, no memory left) stops the process with
/// a message and exit 1 instead of Rust's abort (`handle_alloc_error`).
/// The checks of [`reserve`] come first and say what needed the memory;
/// this only says how much. Nothing here allocates: the message is
/// formatted on the stack. (`try_reserve` therefore never sees a refusal
/// in a binary that installs [`Counting`]: the process ends first.)
#[cold]
fn out_of_memory(bytes: usize, why: &str) -> ! {
    use std::io::Write;
    struct Stack {
        buf: [u8; 512],
        len: usize,
    }
    impl fmt::Write for Stack {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            let n = s.len().min(self.buf.len() - self.len);
            self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
            self.len += n;
            Ok(())
        }
    }
    let mut m = Stack {
        buf: [0; 512],
        len: 0,
    };
    let limit = LIMIT.load(Relaxed);
    let _ = fmt::Write::write_fmt(
        &mut m,
        format_args!(
            "error: out of memory: the system refused an allocation of {bytes} bytes ({why}), with {} bytes held",
            LIVE.load(Relaxed)
        ),
    );
    if limit != u64::MAX {
        let _ = fmt::Write::write_fmt(&mut m, format_args!(", the limit being {limit} bytes"));
    }
    let _ = fmt::Write::write_str(
        &mut m,
        "\n  = note: raise --max-memory or `ulimit -v`, or ask for a smaller job\n",
    );
    let _ = std::io::stderr().write_all(&m.buf[..m.len]);
    std::process::exit(1)
}

/// Bytes held now (0 when [`Counting`] is not the global allocator).
pub fn live_bytes() -> u64 {
    LIVE.load(Relaxed) as u64
}

/// The most bytes held since the start (or the last [`reset_peak`]).
pub fn peak_bytes() -> u64 {
    PEAK.load(Relaxed) as u64
}

/// Start measuring a peak from the bytes held now.
pub fn reset_peak() {
    PEAK.store(LIVE.load(Relaxed), Relaxed);
}

/// Whether [`Counting`] counts this process's allocations.
pub fn counting() -> bool {
    INSTALLED.load(Relaxed)
}

static LIMIT: AtomicU64 = AtomicU64::new(u64::MAX);
static SOURCE: RwLock<&'static str> = RwLock::new("no limit");

/// Room kept for the small allocations made between two checks (buffers
/// of a chunk of work, per thread), so the peak stays under the limit.
pub const UNCHECKED: u64 = 16 << 20;

/// Room kept under `ulimit -v` for what the address space grows by
/// without a check: thread stacks and allocator arenas started later,
/// small allocations.
pub const ADDRESS_SLACK: u64 = 96 << 20;

/// Limit the bytes the process holds; `source` says where the limit comes
/// from, for messages (`--max-memory`).
pub fn set_limit(bytes: u64, source: &'static str) {
    LIMIT.store(bytes, Relaxed);
    if let Ok(mut s) = SOURCE.write() {
        *s = source;
    }
}

/// The limit on the bytes held and where it comes from.
pub fn limit() -> (u64, &'static str) {
    let source = SOURCE.read().map_or("no limit", |s| *s);
    (LIMIT.load(Relaxed), source)
}

/// The memory limit when `/proc/meminfo` cannot be read.
pub const FALLBACK_MEMORY: u64 = 4 << 30;

/// The limit a long command takes when none is asked for: the memory
/// available on the machine, or the address space left under `ulimit -v`
/// when that is less; with where it comes from, for messages.
pub fn default_limit() -> (u64, &'static str) {
    let free = match available_memory() {
        Some(b) => (b, "the memory available on this machine"),
        None => (
            FALLBACK_MEMORY,
            "the default when /proc/meminfo cannot be read",
        ),
    };
    match address_space_room() {
        Some(room) if room < free.0 => (room, "the address space left under ulimit -v"),
        _ => free,
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

/// The soft `RLIMIT_AS` of the process (`ulimit -v`), `None` when unlimited.
pub fn address_space_limit() -> Option<u64> {
    static AS: OnceLock<Option<u64>> = OnceLock::new();
    *AS.get_or_init(|| {
        let text = std::fs::read_to_string("/proc/self/limits").ok()?;
        let line = text.lines().find(|l| l.starts_with("Max address space"))?;
        line["Max address space".len()..]
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    })
}

/// The process's virtual size now (`VmSize` in /proc/self/status).
pub fn address_space_used() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with("VmSize:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// Bytes the address space can still grow by under `ulimit -v`, keeping
/// [`ADDRESS_SLACK`]; `None` when it is unlimited.
pub fn address_space_room() -> Option<u64> {
    let limit = address_space_limit()?;
    let used = address_space_used().unwrap_or(0);
    Some(limit.saturating_sub(used).saturating_sub(ADDRESS_SLACK))
}

/// An allocation refused before it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfMemory {
    /// What was to be allocated (`growing the set of visited positions`).
    pub what: &'static str,
    /// Bytes asked for.
    pub asked: u64,
    /// Bytes held (or, under `ulimit -v`, of address space in use) when asked.
    pub held: u64,
    /// Bytes kept free for what grows between checks ([`UNCHECKED`], [`ADDRESS_SLACK`]).
    pub kept: u64,
    /// The limit, in bytes.
    pub limit: u64,
    /// Where the limit comes from (`--max-memory`, `ulimit -v`).
    pub source: &'static str,
    /// The limit is the address space (`ulimit -v`), not the bytes held.
    pub address_space: bool,
}

impl OutOfMemory {
    /// What the process would have needed: held, asked and kept.
    pub fn needed(&self) -> u64 {
        self.held
            .saturating_add(self.asked)
            .saturating_add(self.kept)
    }
}

impl fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let held = if self.address_space {
            "of address space in use"
        } else {
            "held"
        };
        write!(
            f,
            "{} needs about {} more, with {} {held} and {} kept for smaller allocations: about {} in all, more than the limit of {} ({})",
            self.what,
            show_bytes(self.asked),
            show_bytes(self.held),
            show_bytes(self.kept),
            show_bytes(self.needed()),
            show_bytes(self.limit),
            self.source
        )
    }
}

impl std::error::Error for OutOfMemory {}

/// The system refused an allocation the budget allowed (`try_reserve`
/// failed): refused the same way, never an abort.
pub fn refused(what: &'static str, bytes: u64) -> OutOfMemory {
    OutOfMemory {
        what,
        asked: bytes,
        held: live_bytes(),
        kept: 0,
        limit: limit().0,
        source: "the system refused the allocation",
        address_space: false,
    }
}

/// Check that `bytes` more can be allocated within both limits; call it
/// before each large allocation (and each growth of a growing table).
pub fn reserve(bytes: u64, what: &'static str) -> Result<(), OutOfMemory> {
    let (limit, source) = limit();
    let held = live_bytes();
    if limit != u64::MAX && held.saturating_add(bytes).saturating_add(UNCHECKED) > limit {
        return Err(OutOfMemory {
            what,
            asked: bytes,
            held,
            kept: UNCHECKED,
            limit,
            source,
            address_space: false,
        });
    }
    if let Some(as_limit) = address_space_limit() {
        let used = address_space_used().unwrap_or(0);
        if used.saturating_add(bytes).saturating_add(ADDRESS_SLACK) > as_limit {
            return Err(OutOfMemory {
                what,
                asked: bytes,
                held: used,
                kept: ADDRESS_SLACK,
                limit: as_limit,
                source: "ulimit -v, the address space of the process",
                address_space: true,
            });
        }
    }
    Ok(())
}

/// An empty vector with room for `n` items, reserved from the budget first.
pub fn vec_with_capacity<T>(n: usize, what: &'static str) -> Result<Vec<T>, OutOfMemory> {
    let mut v = Vec::new();
    grow_exact(&mut v, n, what)?;
    Ok(v)
}

/// `n` copies of `x`, reserved from the budget first.
pub fn vec_of<T: Clone>(x: T, n: usize, what: &'static str) -> Result<Vec<T>, OutOfMemory> {
    let mut v = vec_with_capacity(n, what)?;
    v.resize(n, x);
    Ok(v)
}

/// Room for `additional` more items in `v` (exactly: no doubling), reserved
/// from the budget first; a failed allocation is refused too, not an abort.
pub fn grow_exact<T>(
    v: &mut Vec<T>,
    additional: usize,
    what: &'static str,
) -> Result<(), OutOfMemory> {
    let free = v.capacity() - v.len();
    if additional <= free {
        return Ok(());
    }
    let bytes = ((additional - free) as u64).saturating_mul(std::mem::size_of::<T>() as u64);
    reserve(bytes, what)?;
    v.try_reserve_exact(additional)
        .map_err(|_| refused(what, bytes))
}

/// Push `x`, doubling `v` through the budget when it is full.
#[inline]
pub fn push<T>(v: &mut Vec<T>, x: T, what: &'static str) -> Result<(), OutOfMemory> {
    if v.len() == v.capacity() {
        grow_exact(v, v.capacity().max(64), what)?;
    }
    v.push(x);
    Ok(())
}

/// Append `items` to `v` through the budget.
pub fn extend<T: Clone>(
    v: &mut Vec<T>,
    items: &[T],
    what: &'static str,
) -> Result<(), OutOfMemory> {
    if v.capacity() - v.len() < items.len() {
        // Amortised: at least double, as `extend` would.
        grow_exact(v, items.len().max(v.len()), what)?;
    }
    v.extend_from_slice(items);
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// With no limit set and the address space unlimited, nothing is
    /// refused; a vector grown through the budget holds what was asked.
    #[test]
    fn budgeted_vectors_hold_what_was_asked() {
        let mut v: Vec<u32> = vec_with_capacity(10, "test").unwrap();
        assert!(v.capacity() >= 10);
        for i in 0..1000 {
            push(&mut v, i, "test").unwrap();
        }
        extend(&mut v, &[1, 2, 3], "test").unwrap();
        assert_eq!(v.len(), 1003);
        assert_eq!(vec_of(7u8, 5, "test").unwrap(), vec![7; 5]);
    }

    /// An allocation far past any machine is refused with the numbers,
    /// before it is tried.
    #[test]
    fn an_impossible_allocation_is_refused_not_aborted() {
        let e = vec_with_capacity::<u64>(usize::MAX / 16, "the test's table").unwrap_err();
        assert_eq!(e.what, "the test's table");
        assert!(
            e.to_string().starts_with("the test's table needs about"),
            "{e}"
        );
    }
}
