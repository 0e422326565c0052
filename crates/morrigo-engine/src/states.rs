//! Counting the distinct board states reachable from a position.

use crate::bits::Bits;
use crate::machine::{Machine, State};
use crate::memory::{self, refused, OutOfMemory};
use std::collections::{HashSet, VecDeque};

/// How many distinct boards (colour of every point) and positions (board,
/// hands, player to move, removal step and what the turn's removals
/// depend on) a search reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateCount {
    /// Distinct boards reached.
    pub boards: u64,
    /// Distinct positions reached.
    pub positions: u64,
    /// False when the search stopped at its limit.
    pub complete: bool,
}

/// How many new positions [`count_states_with`] finds between two calls of
/// its progress hook (a power of two: the check is a mask).
pub const PROGRESS_EVERY: u64 = 1 << 16;

/// Breadth-first search over positions. A position is expanded once, with
/// the history of the first path that reached it: rules that read the
/// history (superko, pass patterns) are applied along that path.
pub fn count_states<const W: usize>(m: &Machine<W>, start: &State<W>, limit: u64) -> StateCount {
    count_states_with(m, start, limit, &mut |_| true)
}

/// What [`count_states_with`] tells its hook each [`PROGRESS_EVERY`] new
/// positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatesProgress {
    /// Distinct positions found so far.
    pub positions: u64,
    /// Bytes the visited sets will allocate if they grow before the next
    /// call (a hash table doubles: the new table is held beside the old one
    /// while it is filled), so a caller can stop before a growth it cannot
    /// afford rather than after.
    pub growth_bytes: u64,
}

/// Bytes a hash set of `T` allocates when it grows past `capacity` items:
/// twice as many buckets, each a `T` and a control byte (hashbrown keeps a
/// table at most 7/8 full).
fn growth_bytes<T>(capacity: usize) -> u64 {
    (capacity as u64 * 16 / 7 + 1) * (std::mem::size_of::<T>() as u64 + 1)
}

/// [`count_states`], calling `progress` each time the number of distinct
/// positions reaches a multiple of [`PROGRESS_EVERY`]; the search stops
/// (incomplete) when the hook returns false.
pub fn count_states_with<const W: usize>(
    m: &Machine<W>,
    start: &State<W>,
    limit: u64,
    progress: &mut dyn FnMut(StatesProgress) -> bool,
) -> StateCount {
    count_states_within(m, start, limit, progress).0
}

/// How often (in new positions) the search checks the memory its queued
/// positions take, besides each growth of its tables.
const MEMORY_CHECK_EVERY: u64 = 1 << 10;

/// [`count_states_with`] within the process's memory budget
/// ([`crate::memory`]): every growth of the visited sets and of the queue
/// is reserved before it is made, and the positions queued are counted as
/// they come; past the budget the search stops (incomplete) with why.
pub fn count_states_within<const W: usize>(
    m: &Machine<W>,
    start: &State<W>,
    limit: u64,
    progress: &mut dyn FnMut(StatesProgress) -> bool,
) -> (StateCount, Option<OutOfMemory>) {
    // The position key (board, marks, hands, player to move and an open
    // capture choice) and, while removals are owed, what decides how the
    // turn goes on: the phase it began in and the lines its move formed
    // (extra turns, `first` and the line rule read them).
    // (Each only when some rule reads it, so equal positions stay one.)
    type Key<const W: usize> = ([Bits<W>; 2], [u32; 2], u8, u16, u64, u8, u16);
    let lines_read = m.rules.uses(morrigo_rules::Prim::LinesFormed);
    let key = |s: &State<W>| -> Key<W> {
        let p = &s.pos;
        let (phase, lines) = if p.pending > 0 {
            // `turn_phase` is kept (else 0) only when a rule reads it.
            (p.turn_phase, if lines_read { p.lines_formed } else { 0 })
        } else {
            (0, 0)
        };
        (p.occ, p.in_hand, p.to_move, p.pending, p.hash, phase, lines)
    };
    let mut positions: HashSet<Key<W>> = HashSet::new();
    let mut boards: HashSet<[Bits<W>; 2]> = HashSet::new();
    let mut queue: VecDeque<State<W>> = VecDeque::new();
    positions.insert(key(start));
    boards.insert(start.pos.occ);
    queue.push_back(start.clone());
    let base = memory::live_bytes();
    let stopped = |positions: &HashSet<Key<W>>, boards: &HashSet<[Bits<W>; 2]>| StateCount {
        boards: boards.len() as u64,
        positions: positions.len() as u64,
        complete: false,
    };
    let mut moves = Vec::new();
    while let Some(s) = queue.pop_front() {
        if m.legal_moves(&s, &mut moves).is_some() {
            continue;
        }
        for &mv in &moves {
            let mut next = s.clone();
            m.apply(&mut next, mv);
            // Each growth is reserved before it is made: a hash set
            // doubles, holding the old table beside the new one meanwhile.
            let grown = grow_set(&mut positions, "growing the set of visited positions")
                .and_then(|()| grow_set(&mut boards, "growing the set of visited boards"));
            if let Err(e) = grown {
                return (stopped(&positions, &boards), Some(e));
            }
            if positions.insert(key(&next)) {
                boards.insert(next.pos.occ);
                let found = positions.len() as u64;
                if found.is_multiple_of(MEMORY_CHECK_EVERY) {
                    // The positions queued hold histories of their own: the
                    // next ones are about as large as those so far.
                    let per = memory::live_bytes().saturating_sub(base) / found;
                    if let Err(e) =
                        memory::reserve(per * MEMORY_CHECK_EVERY, "the positions queued next")
                    {
                        return (stopped(&positions, &boards), Some(e));
                    }
                }
                let stop = found & (PROGRESS_EVERY - 1) == 0 && {
                    let soon = |len: usize, cap: usize| len + PROGRESS_EVERY as usize > cap;
                    let mut growth = 0;
                    if soon(positions.len(), positions.capacity()) {
                        growth += growth_bytes::<Key<W>>(positions.capacity());
                    }
                    if soon(boards.len(), boards.capacity()) {
                        growth += growth_bytes::<[Bits<W>; 2]>(boards.capacity());
                    }
                    // Each new position is queued once: the queue grows by
                    // at most PROGRESS_EVERY before the next call.
                    if soon(queue.len(), queue.capacity()) {
                        growth += (queue.capacity() * 2 * std::mem::size_of::<State<W>>()) as u64;
                    }
                    !progress(StatesProgress {
                        positions: found,
                        growth_bytes: growth,
                    })
                };
                if stop || found >= limit {
                    return (stopped(&positions, &boards), None);
                }
                if queue.len() == queue.capacity() {
                    let more = queue.capacity().max(64);
                    let bytes = (more * std::mem::size_of::<State<W>>()) as u64;
                    let reserved =
                        memory::reserve(bytes, "growing the queue of positions to expand")
                            .and_then(|()| {
                                queue.try_reserve_exact(more).map_err(|_| {
                                    refused("growing the queue of positions to expand", bytes)
                                })
                            });
                    if let Err(e) = reserved {
                        return (stopped(&positions, &boards), Some(e));
                    }
                }
                queue.push_back(next);
            }
        }
    }
    let count = StateCount {
        boards: boards.len() as u64,
        positions: positions.len() as u64,
        complete: true,
    };
    (count, None)
}

/// Make room for one more item in a full set, through the budget.
fn grow_set<T: std::hash::Hash + Eq>(
    set: &mut HashSet<T>,
    what: &'static str,
) -> Result<(), OutOfMemory> {
    if set.len() < set.capacity() {
        return Ok(());
    }
    let bytes = growth_bytes::<T>(set.capacity().max(3));
    memory::reserve(bytes, what)?;
    set.try_reserve(1).map_err(|_| refused(what, bytes))
}
