//! Counting the distinct board states reachable from a position.

use crate::bits::Bits;
use crate::machine::{Machine, State};
use std::collections::{HashSet, VecDeque};

/// How many distinct boards (colour of every point) and positions (board,
/// hands, player to move, removal step) a search reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateCount {
    pub boards: u64,
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
    count_states_with(m, start, limit, &mut |_| {})
}

/// [`count_states`], calling `progress` with the number of distinct
/// positions found so far each time it reaches a multiple of
/// [`PROGRESS_EVERY`].
pub fn count_states_with<const W: usize>(
    m: &Machine<W>,
    start: &State<W>,
    limit: u64,
    progress: &mut dyn FnMut(u64),
) -> StateCount {
    type Key<const W: usize> = ([Bits<W>; 2], [u32; 2], u8, u16);
    let key = |s: &State<W>| -> Key<W> { (s.pos.occ, s.pos.in_hand, s.pos.to_move, s.pos.pending) };
    let mut positions: HashSet<Key<W>> = HashSet::new();
    let mut boards: HashSet<[Bits<W>; 2]> = HashSet::new();
    let mut queue = VecDeque::new();
    positions.insert(key(start));
    boards.insert(start.pos.occ);
    queue.push_back(start.clone());
    let mut moves = Vec::new();
    while let Some(s) = queue.pop_front() {
        if m.legal_moves(&s, &mut moves).is_some() {
            continue;
        }
        for &mv in &moves {
            let mut next = s.clone();
            m.apply(&mut next, mv);
            if positions.insert(key(&next)) {
                boards.insert(next.pos.occ);
                let found = positions.len() as u64;
                if found & (PROGRESS_EVERY - 1) == 0 {
                    progress(found);
                }
                if found >= limit {
                    return StateCount {
                        boards: boards.len() as u64,
                        positions: positions.len() as u64,
                        complete: false,
                    };
                }
                queue.push_back(next);
            }
        }
    }
    StateCount {
        boards: boards.len() as u64,
        positions: positions.len() as u64,
        complete: true,
    }
}
