//! The transposition table: buckets of two entries in one flat vector that
//! grows (doubling, each growth checked against the process's memory
//! budget) until it reaches its size limit, then replaces: one slot of a
//! bucket keeps the entry with the larger subtree, the other takes the
//! newest. Losing an entry costs work, never a wrong value.

use super::reads::Answers;
use morrigo_engine::memory::{self, OutOfMemory};
use morrigo_engine::{Move, MoveKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) value: f64,
    pub(crate) bound: Bound,
    pub(crate) best: Option<Move>,
    /// Plies below the node its search reached (through hits too).
    pub(crate) height: u32,
    /// What the line the entry was found on answered for the interior
    /// boards that tainted it: the entry holds where the path answers the
    /// same (empty: wherever the key is the same).
    pub(crate) answers: Answers,
}

/// One stored entry, packed: the best move as `kind << 16 | point`.
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: u128,
    value: f64,
    height: u32,
    best: u32,
    answers: Answers,
    /// The pass an entry whose subtree met cut lines belongs to (0: an
    /// entry valid in every pass; `EMPTY`: no entry).
    pass: u32,
    bound: Bound,
}

const EMPTY: u32 = u32::MAX;
const NO_MOVE: u32 = u32::MAX;

impl Slot {
    const VACANT: Slot = Slot {
        key: 0,
        value: 0.0,
        height: 0,
        best: NO_MOVE,
        answers: Answers::EMPTY,
        pass: EMPTY,
        bound: Bound::Exact,
    };
}

fn pack(mv: Option<Move>) -> u32 {
    match mv {
        None => NO_MOVE,
        Some(m) => u32::from(m.kind == MoveKind::Pass) << 16 | u32::from(m.to),
    }
}

fn unpack(v: u32) -> Option<Move> {
    match v {
        NO_MOVE => None,
        v if v >> 16 == 1 => Some(Move::pass(v as u8)),
        v => Some(Move::play(v as u16)),
    }
}

/// The table's first size, in buckets.
const FIRST_BUCKETS: usize = 1 << 12;

/// Bytes a bucket takes.
pub(crate) const BUCKET_BYTES: usize = 2 * std::mem::size_of::<Slot>();

pub(crate) struct Table {
    slots: Vec<Slot>,
    /// Most buckets the table may grow to.
    max_buckets: usize,
    filled: usize,
    /// The current pass (entries with cut lines are for one pass only).
    pass: u32,
}

impl Table {
    /// A table growing up to `max_bytes` (at least its first size).
    pub(crate) fn new(max_bytes: u64) -> Result<Self, OutOfMemory> {
        let most = (max_bytes / BUCKET_BYTES as u64).max(FIRST_BUCKETS as u64);
        let max_buckets = 1usize << (63 - most.leading_zeros()).min(40);
        let slots = memory::vec_of(Slot::VACANT, 2 * FIRST_BUCKETS, "the transposition table")?;
        Ok(Table {
            slots,
            max_buckets,
            filled: 0,
            pass: 1,
        })
    }

    /// Start a new pass: entries with cut lines of earlier passes no longer
    /// count.
    pub(crate) fn next_pass(&mut self) {
        self.pass += 1;
    }

    fn bucket(&self, key: u128) -> usize {
        (key as usize & (self.slots.len() / 2 - 1)) * 2
    }

    /// The entry stored for `key`: one valid in every pass (`cut: false`),
    /// or one of this pass (`cut: true`, asked with `pass_only`).
    pub(crate) fn get(&self, key: u128, pass_only: bool) -> Option<Entry> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .find(|s| {
                let pass = if pass_only { self.pass } else { 0 };
                s.key == key && s.pass == pass
            })
            .map(|s| Entry {
                value: s.value,
                bound: s.bound,
                best: unpack(s.best),
                height: s.height,
                answers: s.answers,
            })
    }

    /// Store an entry, valid in every pass or (`pass_only`) in this one.
    pub(crate) fn put(&mut self, key: u128, e: Entry, pass_only: bool) {
        if self.filled * 4 >= self.slots.len() * 3 && self.slots.len() / 2 < self.max_buckets {
            self.grow();
        }
        let slot = Slot {
            key,
            value: e.value,
            height: e.height,
            best: pack(e.best),
            answers: e.answers,
            pass: if pass_only { self.pass } else { 0 },
            bound: e.bound,
        };
        let b = self.bucket(key);
        let stale = |s: &Slot| s.pass == EMPTY || (s.pass != 0 && s.pass != self.pass);
        let deep = self.slots[b];
        let i = if deep.key == key || stale(&deep) {
            b
        } else if deep.height <= e.height {
            // The deeper entry keeps the first slot; the one it displaces
            // takes the second.
            if self.slots[b + 1].pass == EMPTY {
                self.filled += 1;
            }
            self.slots[b + 1] = deep;
            b
        } else {
            b + 1
        };
        if self.slots[i].pass == EMPTY {
            self.filled += 1;
        }
        self.slots[i] = slot;
    }

    /// Double the buckets if the memory budget allows (else stay and
    /// replace), moving every live entry.
    fn grow(&mut self) {
        let bigger = self.slots.len() * 2;
        let Ok(mut slots) = memory::vec_of(Slot::VACANT, bigger, "the transposition table") else {
            self.max_buckets = self.slots.len() / 2;
            return;
        };
        let old = std::mem::take(&mut self.slots);
        let mask = bigger / 2 - 1;
        self.filled = 0;
        for s in old.into_iter().filter(|s| s.pass != EMPTY) {
            let b = (s.key as usize & mask) * 2;
            let i = if slots[b].pass == EMPTY { b } else { b + 1 };
            if slots[i].pass == EMPTY {
                self.filled += 1;
                slots[i] = s;
            }
        }
        self.slots = slots;
    }

    /// Bytes the table holds now.
    pub(crate) fn bytes(&self) -> u64 {
        (self.slots.len() * std::mem::size_of::<Slot>()) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(value: f64, height: u32) -> Entry {
        Entry {
            value,
            bound: Bound::Exact,
            best: Some(Move::play(3)),
            height,
            answers: Answers::EMPTY,
        }
    }

    /// Entries come back as stored; one of a pass only within that pass.
    #[test]
    fn entries_come_back_in_their_pass() {
        let mut t = Table::new(1 << 20).unwrap();
        t.put(7, entry(1.5, 2), false);
        t.put(9, entry(-2.0, 1), true);
        assert_eq!(t.get(7, false).map(|e| e.value), Some(1.5));
        assert_eq!(t.get(7, false).and_then(|e| e.best), Some(Move::play(3)));
        assert_eq!(t.get(9, true).map(|e| e.value), Some(-2.0));
        assert!(
            t.get(9, false).is_none(),
            "a pass entry holds for its pass only"
        );
        t.next_pass();
        assert!(t.get(9, true).is_none(), "an entry of another pass");
        assert_eq!(t.get(7, false).map(|e| e.value), Some(1.5));
    }

    /// A full table at its size limit replaces instead of growing, and
    /// keeps the entry with the larger subtree in the first slot.
    #[test]
    fn a_full_table_replaces_within_its_limit() {
        let limit = (FIRST_BUCKETS * BUCKET_BYTES) as u64;
        let mut t = Table::new(limit).unwrap();
        let buckets = (t.slots.len() / 2) as u128;
        for k in 0..10 * buckets {
            t.put(k, entry(k as f64, 1), false);
        }
        assert_eq!(t.bytes(), limit, "it never grew");
        // Three keys of one bucket: the deepest stays.
        t.put(5 * buckets + 1, entry(0.0, 50), false);
        t.put(6 * buckets + 1, entry(0.0, 1), false);
        t.put(7 * buckets + 1, entry(0.0, 2), false);
        assert_eq!(t.get(5 * buckets + 1, false).map(|e| e.height), Some(50));
        assert!(t.get(6 * buckets + 1, false).is_none());
        assert_eq!(t.get(7 * buckets + 1, false).map(|e| e.height), Some(2));
    }

    /// A table allowed to grow does, and keeps nearly every entry of a
    /// search that fits (three keys meeting in a bucket before it grows
    /// lose one).
    #[test]
    fn a_growing_table_grows_and_keeps_entries() {
        let mut t = Table::new(1 << 30).unwrap();
        let key = |k: u128| k.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
        for k in 0..100_000u128 {
            t.put(key(k), entry(k as f64, 0), false);
        }
        assert!(
            t.bytes() >= (2 * 100_000 * std::mem::size_of::<Slot>()) as u64 / 2,
            "{} bytes, {} slots, {} filled, max {}",
            t.bytes(),
            t.slots.len(),
            t.filled,
            t.max_buckets
        );
        let kept = (0..100_000u128)
            .filter(|&k| t.get(key(k), false).map(|e| e.value) == Some(k as f64))
            .count();
        assert!(kept >= 95_000, "{kept} kept");
    }
}
