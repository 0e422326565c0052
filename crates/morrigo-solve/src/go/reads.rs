//! The interior boards a search looked up (see `path`'s guard), carried up
//! the tree so a tainted node can still be stored: with the answers its
//! line gave to those look-ups, reused where another line gives the same
//! ones (Kishimoto and Müller's remedy for graph-history interaction,
//! with the boards named rather than the whole path).
//!
//! Only the look-ups that taint a node matter to it: a board whose
//! threshold (the first path index whose skeleton omits it) is past the
//! node is in the node's key, and in every ancestor's. So each node keeps
//! the boards at or before its own index, a handful on the boards solved,
//! and passes them up.

use super::path::board_hash;
use morrigo_engine::Bits;
use std::collections::HashMap;

/// Most boards a node carries by name (more: only their least threshold).
/// Eight against six stores more of the tainted nodes for 16 more bytes a
/// table slot: 11-52% fewer nodes on the 3x3 and 3x2 benchmarks (design
/// 2.3); twelve was cheaper on some, dearer on others.
pub(crate) const MOST_READS: usize = 8;

/// The interior boards looked up so far, each named by a small id, up to
/// a number of boards set by the memory budget (past it, new boards stay
/// unnamed, so the nodes they taint are searched but not stored).
#[derive(Debug)]
pub(crate) struct Interior<const W: usize> {
    boards: Vec<[Bits<W>; 2]>,
    ids: HashMap<u128, u32>,
    most: usize,
}

/// Bytes a named board takes, its map entry included (generously).
const BOARD_BYTES: u64 = 96;

impl<const W: usize> Interior<W> {
    /// Room for the boards `bytes` can hold.
    pub(crate) fn within(bytes: u64) -> Self {
        let most = (bytes / BOARD_BYTES).min(u64::from(u32::MAX)) as usize;
        Interior {
            boards: Vec::new(),
            ids: HashMap::new(),
            most,
        }
    }

    /// The id of board `y`, named now if new (`None`: no room left).
    pub(crate) fn id(&mut self, y: &[Bits<W>; 2]) -> Option<u32> {
        let key = board_hash(y);
        if let Some(&id) = self.ids.get(&key) {
            return Some(id);
        }
        if self.boards.len() >= self.most {
            return None;
        }
        let id = u32::try_from(self.boards.len()).ok()?;
        self.ids.insert(key, id);
        self.boards.push(*y);
        Some(id)
    }

    pub(crate) fn board(&self, id: u32) -> &[Bits<W>; 2] {
        &self.boards[id as usize]
    }
}

/// Interior boards a subtree looked up that taint the node: by id with
/// their thresholds, and the least threshold of any that did not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reads {
    ids: [u32; MOST_READS],
    at: [u32; MOST_READS],
    len: u8,
    /// Least threshold of the boards left unnamed (`u32::MAX`: none).
    unnamed: u32,
}

impl Default for Reads {
    fn default() -> Self {
        Reads::NONE
    }
}

impl Reads {
    pub(crate) const NONE: Reads = Reads {
        ids: [0; MOST_READS],
        at: [0; MOST_READS],
        len: 0,
        unnamed: u32::MAX,
    };

    /// The boards by id with their thresholds.
    pub(crate) fn named(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..usize::from(self.len)).map(|i| (self.ids[i], self.at[i]))
    }

    /// The first path index any of the boards taints (`usize::MAX`: none).
    #[cfg(test)]
    pub(crate) fn taint(&self) -> usize {
        let least = self.at[..usize::from(self.len)]
            .iter()
            .fold(self.unnamed, |m, &a| m.min(a));
        if least == u32::MAX {
            usize::MAX
        } else {
            least as usize
        }
    }

    /// Whether some board could not be named, so the node's value cannot
    /// be tied to named boards' answers.
    pub(crate) fn has_unnamed(&self) -> bool {
        self.unnamed != u32::MAX
    }

    /// Add board `id` (`None`: unnamed) tainting from path index `at`.
    pub(crate) fn add(&mut self, id: Option<u32>, at: usize) {
        let at = u32::try_from(at).unwrap_or(u32::MAX - 1);
        let Some(id) = id else {
            self.unnamed = self.unnamed.min(at);
            return;
        };
        let len = usize::from(self.len);
        if let Some(i) = self.ids[..len].iter().position(|&k| k == id) {
            self.at[i] = self.at[i].min(at);
        } else if len < MOST_READS {
            self.ids[len] = id;
            self.at[len] = at;
            self.len += 1;
        } else {
            self.unnamed = self.unnamed.min(at);
        }
    }

    pub(crate) fn merge(&mut self, other: &Reads) {
        for (id, at) in other.named() {
            self.add(Some(id), at as usize);
        }
        self.unnamed = self.unnamed.min(other.unnamed);
    }

    /// Keep what taints path index `node` or an earlier one: a board whose
    /// threshold is later is in the key of `node` and of every ancestor.
    pub(crate) fn keep_to(&mut self, node: usize) {
        let node = u32::try_from(node).unwrap_or(u32::MAX - 1);
        let mut len = 0;
        for i in 0..usize::from(self.len) {
            if self.at[i] <= node {
                self.ids[len] = self.ids[i];
                self.at[len] = self.at[i];
                len += 1;
            }
        }
        self.len = len as u8;
        if self.unnamed > node {
            self.unnamed = u32::MAX;
        }
    }
}

/// A stored entry's condition: the answers its line gave for the interior
/// boards that tainted it (by id; see `PathStack::occurrences`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Answers {
    ids: [u32; MOST_READS],
    answers: [u32; MOST_READS],
    len: u8,
}

impl Answers {
    pub(crate) const EMPTY: Answers = Answers {
        ids: [0; MOST_READS],
        answers: [0; MOST_READS],
        len: 0,
    };

    /// The answers for `reads`' boards from `answer`, which gives each
    /// board's id in the entry's frame with its answer (`None` where a
    /// board is unnamed or has no answer: the node cannot be kept).
    pub(crate) fn of(
        reads: &Reads,
        mut answer: impl FnMut(u32) -> Option<(u32, u32)>,
    ) -> Option<Self> {
        if reads.has_unnamed() {
            return None;
        }
        let mut out = Answers::EMPTY;
        for (i, (id, _)) in reads.named().enumerate() {
            (out.ids[i], out.answers[i]) = answer(id)?;
        }
        out.len = reads.len;
        Some(out)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The boards by id with their answers.
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..usize::from(self.len)).map(|i| (self.ids[i], self.answers[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_named_until_their_room_is_full() {
        let mut interior = Interior::<1>::within(2 * BOARD_BYTES);
        let board = |p: usize| {
            let mut occ = [Bits::EMPTY; 2];
            occ[0].set(p);
            occ
        };
        assert_eq!(interior.id(&board(3)), Some(0));
        assert_eq!(interior.id(&board(5)), Some(1));
        assert_eq!(interior.id(&board(3)), Some(0), "named once");
        assert_eq!(interior.id(&board(7)), None, "no room left");
        assert_eq!(interior.board(1), &board(5));
    }

    #[test]
    fn boards_merge_by_id_and_overflow_into_the_unnamed_threshold() {
        let mut r = Reads::NONE;
        assert_eq!(r.taint(), usize::MAX);
        r.add(Some(7), 5);
        r.add(Some(7), 3);
        // Fill the names with boards tainting from 9 on.
        for id in 0..MOST_READS as u32 - 1 {
            r.add(Some(100 + id), 9);
        }
        assert_eq!(r.named().count(), MOST_READS);
        assert_eq!(r.named().next(), Some((7, 3)), "one name, the least");
        r.add(Some(8), 4);
        assert!(r.has_unnamed(), "one board more does not fit");
        assert_eq!(r.taint(), 3);
        r.keep_to(5);
        assert_eq!(r.named().collect::<Vec<_>>(), [(7, 3)]);
        assert!(r.has_unnamed(), "its threshold 4 taints node 5");
        r.keep_to(3);
        assert!(!r.has_unnamed());
        assert_eq!(r.taint(), 3);
        let mut other = Reads::NONE;
        other.add(Some(7), 2);
        other.add(None, 1);
        r.merge(&other);
        assert_eq!(r.named().collect::<Vec<_>>(), [(7, 2)]);
        assert_eq!(r.taint(), 1, "the unnamed board's threshold");
    }
}
