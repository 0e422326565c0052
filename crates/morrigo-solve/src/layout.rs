//! Positions ↔ dense indices. A position is keyed by what decides its
//! future (both colours' points, both hands, the player to move, the
//! removals owed, and the lines the last move formed when `removable`
//! reads them). Positions with the same counts form a *segment*; within a
//! segment a position's index is the combinatorial rank (combinadic) of
//! the first player's points among all points, times the number of ways to
//! place the second player's, plus the rank of the second player's points
//! among the points left. Segments are numbered as the search discovers
//! them, so only reachable segments take room.

use morrigo_engine::{Bits, Position};
use std::collections::HashMap;

/// The counts that name a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SegKey {
    pub on_board: [u16; 2],
    pub in_hand: [u32; 2],
    pub to_move: u8,
    pub pending: u16,
    pub lines_formed: u16,
}

#[derive(Clone, Copy, Debug)]
pub struct Segment {
    pub key: SegKey,
    /// Index of the segment's first position.
    pub base: u64,
    /// Ways to place the second player's pieces once the first's are placed.
    pub inner: u64,
    /// Positions in the segment.
    pub size: u64,
}

/// The most positions an index space may hold: edges store an index in 31
/// bits (the top bit says whether the mover stays the same).
pub const MAX_INDEX: u64 = (1 << 31) - 1;

#[derive(Clone, Debug)]
pub struct Layout {
    pub n: usize,
    /// `binom[a * (n + 1) + b]` = C(a, b), saturating.
    binom: Vec<u64>,
    pub segments: Vec<Segment>,
    map: HashMap<SegKey, u32>,
    /// Keep `lines_formed` in the key (only while removals are owed).
    pub keep_lines_formed: bool,
    pub total: u64,
}

impl Layout {
    pub fn new(n: usize, keep_lines_formed: bool) -> Self {
        let w = n + 1;
        let mut binom = vec![0u64; w * w];
        for a in 0..=n {
            binom[a * w] = 1;
            for b in 1..=a {
                binom[a * w + b] =
                    binom[(a - 1) * w + b - 1].saturating_add(binom[(a - 1) * w + b]);
            }
        }
        Layout {
            n,
            binom,
            segments: Vec::new(),
            map: HashMap::new(),
            keep_lines_formed,
            total: 0,
        }
    }

    #[inline(always)]
    fn c(&self, a: usize, b: usize) -> u64 {
        if b > a {
            0
        } else {
            self.binom[a * (self.n + 1) + b]
        }
    }

    #[inline]
    pub fn key_of<const W: usize>(&self, pos: &Position<W>) -> SegKey {
        SegKey {
            on_board: [pos.on_board[0] as u16, pos.on_board[1] as u16],
            in_hand: pos.in_hand,
            to_move: pos.to_move,
            pending: pos.pending,
            lines_formed: if self.keep_lines_formed && pos.pending > 0 {
                pos.lines_formed
            } else {
                0
            },
        }
    }

    #[inline]
    pub fn segment_of(&self, key: &SegKey) -> Option<u32> {
        self.map.get(key).copied()
    }

    /// Add a segment; `None` when the index space would pass [`MAX_INDEX`].
    pub fn add(&mut self, key: SegKey) -> Option<u32> {
        if let Some(&id) = self.map.get(&key) {
            return Some(id);
        }
        let [a, b] = key.on_board.map(usize::from);
        if a + b > self.n {
            return None;
        }
        let inner = self.c(self.n - a, b);
        let size = self.c(self.n, a).checked_mul(inner)?;
        let total = self.total.checked_add(size)?;
        if total > MAX_INDEX || inner == u64::MAX || size == u64::MAX {
            return None;
        }
        let id = self.segments.len() as u32;
        self.segments.push(Segment {
            key,
            base: self.total,
            inner,
            size,
        });
        self.map.insert(key, id);
        self.total = total;
        Some(id)
    }

    /// The segment of `key` outside any index space (`base` 0), for ranks
    /// alone (the layered solve); `None` when it does not fit in 32 bits.
    pub fn segment_for(&self, key: SegKey) -> Option<Segment> {
        let [a, b] = key.on_board.map(usize::from);
        if a + b > self.n {
            return None;
        }
        let inner = self.c(self.n - a, b);
        let size = self.c(self.n, a).checked_mul(inner)?;
        (size <= 1 << 32).then_some(Segment {
            key,
            base: 0,
            inner,
            size,
        })
    }

    /// Rank of a position's points within its segment.
    #[inline]
    pub fn rank<const W: usize>(&self, seg: &Segment, occ: &[Bits<W>; 2]) -> u64 {
        let mut r0 = 0;
        for (i, p) in occ[0].iter().enumerate() {
            r0 += self.c(p, i + 1);
        }
        let mut r1 = 0;
        for (j, p) in occ[1].iter().enumerate() {
            // The point's place among the points the first player leaves.
            let below = occ[0].and(Bits::first(p)).count() as usize;
            r1 += self.c(p - below, j + 1);
        }
        r0 * seg.inner + r1
    }

    /// Global index of a position (`None` if its segment is unknown).
    #[inline]
    pub fn index<const W: usize>(&self, pos: &Position<W>) -> Option<u64> {
        let id = self.segment_of(&self.key_of(pos))?;
        let seg = &self.segments[id as usize];
        Some(seg.base + self.rank(seg, &pos.occ))
    }

    /// The segment holding a global index.
    pub fn segment_at(&self, index: u64) -> &Segment {
        let i = self.segments.partition_point(|s| s.base + s.size <= index);
        &self.segments[i]
    }

    /// The points of the position at `rank` in `seg`.
    pub fn unrank<const W: usize>(&self, seg: &Segment, rank: u64) -> [Bits<W>; 2] {
        let (mut r0, mut r1) = (rank / seg.inner, rank % seg.inner);
        let [a, b] = seg.key.on_board.map(usize::from);
        let mut first = Bits::EMPTY;
        let mut top = self.n;
        for k in (1..=a).rev() {
            // Largest p with C(p, k) <= r0.
            let mut p = top - 1;
            while self.c(p, k) > r0 {
                p -= 1;
            }
            r0 -= self.c(p, k);
            first.set(p);
            top = p;
        }
        let free: Vec<usize> = (0..self.n).filter(|&p| !first.has(p)).collect();
        let mut second = Bits::EMPTY;
        let mut top = free.len();
        for k in (1..=b).rev() {
            let mut q = top - 1;
            while self.c(q, k) > r1 {
                q -= 1;
            }
            r1 -= self.c(q, k);
            second.set(free[q]);
            top = q;
        }
        [first, second]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse_over_a_whole_segment() {
        let mut l = Layout::new(9, false);
        let key = SegKey {
            on_board: [3, 2],
            in_hand: [0, 1],
            to_move: 1,
            pending: 0,
            lines_formed: 0,
        };
        let id = l.add(key).unwrap();
        let seg = l.segments[id as usize];
        assert_eq!(seg.size, 84 * 15);
        let mut seen = vec![false; seg.size as usize];
        for r in 0..seg.size {
            let occ: [Bits<1>; 2] = l.unrank(&seg, r);
            assert_eq!(occ[0].count(), 3);
            assert_eq!(occ[1].count(), 2);
            assert!(occ[0].and(occ[1]).is_empty());
            let back = l.rank(&seg, &occ);
            assert_eq!(back, r);
            seen[back as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
