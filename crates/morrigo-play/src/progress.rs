//! How a long run (games, a ladder, a sweep's shard) reports progress:
//! one call per finished game. The library knows no progress bar; the
//! CLI draws one with indicatif, the web playground keeps a counter.

use std::sync::atomic::{AtomicU64, Ordering};

/// Told of every unit of work finished, from any thread.
pub trait Progress: Sync {
    /// `n` more units are done.
    fn inc(&self, n: u64);
}

/// A plain counter (what the playground polls).
impl Progress for AtomicU64 {
    fn inc(&self, n: u64) {
        self.fetch_add(n, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_counts_every_unit_from_every_thread() {
        let done = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| (0..1000).for_each(|_| (&done as &dyn Progress).inc(1)));
            }
        });
        assert_eq!(done.load(Ordering::Relaxed), 4000);
    }
}
