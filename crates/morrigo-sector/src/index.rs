//! Positions of a sector ↔ dense indices, one per symmetry orbit.
//!
//! A sector's arrangement is ranked combinatorially: the first player's
//! set among C(n, w), the second's among C(n − w, b) of the points left
//! (rank = r0 · C(n − w, b) + r1), O(n) both ways, no tables but the
//! binomials. The canonical member of an orbit is the one of least rank.
//! Since r0 dominates the rank, only first-player sets that are least in
//! their own orbit can start a canonical position, and only the
//! symmetries fixing that set can lower r1; most sets have no such
//! symmetry but the identity, so every second-player set goes with them
//! and the orbit index is an offset plus r1, with no lookup. Only the
//! first-player sets with a larger stabiliser keep a sorted list of their
//! canonical r1 (the idea of Malom's sector hashing, derived here from the
//! computed group).

use crate::symmetry::Symmetry;

/// Binomial coefficients C(a, k) for a, k ≤ n.
#[derive(Clone, Debug)]
pub struct Binomial {
    /// C(a, k) at `k * STRIDE + a`, zero where k > a: a rank's terms are
    /// one lookup each, with no test.
    table: Vec<u64>,
}

const STRIDE: usize = 65;

impl Binomial {
    /// The table for `n` points (n ≤ 64).
    pub fn new(n: usize) -> Self {
        assert!(n < STRIDE, "at most 64 points");
        let mut table = vec![0u64; (n + 1) * STRIDE];
        for a in 0..=n {
            table[a] = 1;
            for k in 1..=a {
                table[k * STRIDE + a] =
                    table[(k - 1) * STRIDE + a - 1].saturating_add(table[k * STRIDE + a - 1]);
            }
        }
        Binomial { table }
    }

    /// C(a, k) (0 when k > a).
    #[inline(always)]
    pub fn c(&self, a: usize, k: usize) -> u64 {
        debug_assert!(a < STRIDE);
        self.table.get(k * STRIDE + a).copied().unwrap_or(0)
    }

    /// Rank of a set among the sets of its size (combinadic).
    #[inline]
    pub fn rank_set(&self, mut set: u64) -> u64 {
        let mut r = 0;
        let mut i = 1;
        while set != 0 {
            let p = set.trailing_zeros() as usize;
            set &= set - 1;
            r += self.c(p, i);
            i += 1;
        }
        r
    }

    /// `rank_set(compress(set, taken))` in one pass.
    #[inline]
    pub fn rank_compressed(&self, mut set: u64, taken: u64) -> u64 {
        let mut r = 0;
        let mut i = 1;
        while set != 0 {
            let p = set.trailing_zeros();
            set &= set - 1;
            let below = (taken & ((1u64 << p) - 1)).count_ones();
            r += self.c((p - below) as usize, i);
            i += 1;
        }
        r
    }

    /// The set of `k` points among `n` of rank `r`.
    #[inline]
    pub fn unrank_set(&self, mut r: u64, k: usize, n: usize) -> u64 {
        let mut set = 0;
        let mut top = n;
        for i in (1..=k).rev() {
            let mut p = top - 1;
            while self.c(p, i) > r {
                p -= 1;
            }
            r -= self.c(p, i);
            set |= 1 << p;
            top = p;
        }
        set
    }
}

/// `set`'s points renumbered among the points outside `taken`.
#[inline]
pub fn compress(set: u64, taken: u64) -> u64 {
    let mut out = 0;
    let mut s = set;
    while s != 0 {
        let p = s.trailing_zeros();
        s &= s - 1;
        let below = (taken & ((1u64 << p) - 1)).count_ones();
        out |= 1 << (p - below);
    }
    out
}

/// The inverse of [`compress`]: the i-th point outside `taken` for each bit i.
#[inline]
pub fn expand(mut set: u64, taken: u64, n: usize) -> u64 {
    let mut out = 0;
    let mut free = !taken & if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut i = 0;
    while set != 0 && free != 0 {
        let p = free.trailing_zeros();
        free &= free - 1;
        if set & 1 << i != 0 {
            out |= 1 << p;
            set &= !(1 << i);
        }
        i += 1;
    }
    out
}

/// A first-player set that starts canonical positions.
#[derive(Clone, Copy, Debug)]
struct WhiteEntry {
    /// Orbit index of its first canonical position.
    offset: u64,
    /// Its canonical r1 are `blacks[start..start + len]`; `ALL`: every r1.
    start: u32,
    len: u32,
    /// The symmetries fixing the set besides the identity, as indices
    /// into the group: `stabs[stab..stab + stab_len]`.
    stab: u32,
    stab_len: u32,
}

const ALL: u32 = u32::MAX;
const NOT_CANONICAL: u32 = u32::MAX;
/// In `least_sym`: the set's least image is fixed by more than the
/// identity, so the second set decides between the symmetries that fix it.
const AMBIGUOUS: u8 = 0x80;
/// The most first-player sets given a `least_sym` entry (a byte each).
const MAX_LEAST_TABLE: u64 = 1 << 28;

/// The orbit index of one sector's arrangements (`w` and `b` pieces).
#[derive(Clone, Debug)]
pub struct SectorIndex {
    /// Points on the board.
    pub n: usize,
    /// The first player's pieces on the board.
    pub w: usize,
    /// The second player's pieces on the board.
    pub b: usize,
    /// C(n − w, b): ways to place the second player's set.
    pub inner: u64,
    /// Orbits (canonical arrangements).
    pub orbits: u64,
    /// Arrangements (all of them).
    pub arrangements: u64,
    /// By r0: index into `whites`, or `NOT_CANONICAL`.
    slot: Vec<u32>,
    whites: Vec<WhiteEntry>,
    /// r0 of each entry of `whites` (ascending).
    white_rank: Vec<u64>,
    blacks: Vec<u32>,
    /// By r0: a symmetry mapping that first-player set to its least image,
    /// marked `AMBIGUOUS` when the image has more symmetries than the
    /// identity (then the second set decides between them). One or a few
    /// maps instead of |G| per canonical image. Empty when the sets are
    /// too many for a byte each, or the group too large.
    least_sym: Vec<u8>,
    /// By r0, beside `least_sym`: the entry of `whites` of the least image.
    least_entry: Vec<u32>,
    /// Group indices (up to `MAX_GROUP`, so two bytes).
    stabs: Vec<u16>,
}

impl SectorIndex {
    /// Build the index of sector (`w`, `b`) on `n` points under `group`
    /// (identity first). Time: O(C(n, w) · |G|) plus, for the sets with a
    /// non-trivial stabiliser, O(C(n − w, b) · |stabiliser|).
    pub fn new(binom: &Binomial, group: &[Symmetry], n: usize, w: usize, b: usize) -> Self {
        assert!(w + b <= n && n <= 64, "sector {w}+{b} on {n} points");
        let whites_total = binom.c(n, w);
        let inner = binom.c(n - w, b);
        let mut slot = vec![NOT_CANONICAL; whites_total as usize];
        let mut whites = Vec::new();
        let mut white_rank = Vec::new();
        let mut blacks = Vec::new();
        let mut offset = 0u64;
        let mut stab: Vec<u16> = Vec::with_capacity(group.len());
        let mut stabs = Vec::new();
        let table = whites_total <= MAX_LEAST_TABLE && group.len() <= usize::from(AMBIGUOUS);
        let mut least_sym = Vec::new();
        let mut least_image = Vec::new();
        if table {
            least_sym = vec![AMBIGUOUS; whites_total as usize];
            least_image = vec![0u64; whites_total as usize];
            for r0 in 0..whites_total {
                let white = binom.unrank_set(r0, w, n);
                let (mut best, mut at, mut ties) = (white, 0u8, 1u32);
                for (k, g) in group.iter().enumerate().skip(1) {
                    let image = g.apply(white);
                    if image < best {
                        (best, at, ties) = (image, k as u8, 1);
                    } else if image == best {
                        ties += 1;
                    }
                }
                least_sym[r0 as usize] = if ties == 1 { at } else { at | AMBIGUOUS };
                least_image[r0 as usize] = binom.rank_set(best);
            }
        }
        for r0 in 0..whites_total {
            let white = binom.unrank_set(r0, w, n);
            stab.clear();
            let mut canonical = true;
            for (k, g) in group.iter().enumerate().skip(1) {
                let image = g.apply(white);
                if image == white {
                    stab.push(k as u16);
                } else if binom.rank_set(image) < r0 {
                    canonical = false;
                    break;
                }
            }
            if !canonical {
                continue;
            }
            slot[r0 as usize] = whites.len() as u32;
            white_rank.push(r0);
            if stab.is_empty() {
                whites.push(WhiteEntry {
                    offset,
                    start: 0,
                    len: ALL,
                    stab: 0,
                    stab_len: 0,
                });
                offset += inner;
                continue;
            }
            let start = blacks.len() as u32;
            for r1 in 0..inner {
                let black = expand(binom.unrank_set(r1, b, n - w), white, n);
                let least = stab.iter().all(|&g| {
                    binom.rank_set(compress(group[usize::from(g)].apply(black), white)) >= r1
                });
                if least {
                    blacks.push(r1 as u32);
                }
            }
            let len = blacks.len() as u32 - start;
            whites.push(WhiteEntry {
                offset,
                start,
                len,
                stab: stabs.len() as u32,
                stab_len: stab.len() as u32,
            });
            stabs.extend_from_slice(&stab);
            offset += u64::from(len);
        }
        let least_entry = least_image.iter().map(|&r| slot[r as usize]).collect();
        SectorIndex {
            n,
            w,
            b,
            inner,
            orbits: offset,
            arrangements: whites_total * inner,
            slot,
            whites,
            white_rank,
            blacks,
            least_sym,
            least_entry,
            stabs,
        }
    }

    /// Bytes the index holds.
    pub fn bytes(&self) -> u64 {
        (self.slot.len() * 4
            + self.whites.len() * 16
            + self.white_rank.len() * 8
            + self.blacks.len() * 4
            + self.least_sym.len()
            + self.least_entry.len() * 4
            + self.stabs.len() * 2) as u64
    }

    /// The rank of an arrangement (`occ[0]` has `w` points, `occ[1]` `b`).
    #[inline]
    pub fn rank(&self, binom: &Binomial, occ: [u64; 2]) -> u64 {
        binom.rank_set(occ[0]) * self.inner + binom.rank_compressed(occ[1], occ[0])
    }

    /// The arrangement of a rank.
    #[inline]
    pub fn unrank(&self, binom: &Binomial, rank: u64) -> [u64; 2] {
        let white = binom.unrank_set(rank / self.inner, self.w, self.n);
        let black = expand(
            binom.unrank_set(rank % self.inner, self.b, self.n - self.w),
            white,
            self.n,
        );
        [white, black]
    }

    /// The least-rank image of an arrangement under the group, and its rank.
    /// Among sets of one size the combinadic rank orders sets as their
    /// masks compare as numbers (both order by the highest point where
    /// they differ), and so does the rank of the second set compressed
    /// around one first set: so images are compared as masks and only
    /// the least is ranked.
    #[inline]
    pub fn canonical(
        &self,
        binom: &Binomial,
        group: &[Symmetry],
        occ: [u64; 2],
    ) -> ([u64; 2], u64) {
        let mut best = occ;
        for g in &group[1..] {
            let white = g.apply(occ[0]);
            if white < best[0] {
                best = [white, g.apply(occ[1])];
            } else if white == best[0] {
                let black = g.apply(occ[1]);
                if black < best[1] {
                    best[1] = black;
                }
            }
        }
        let rank = binom.rank_set(best[0]) * self.inner + binom.rank_compressed(best[1], best[0]);
        (best, rank)
    }

    /// The orbit index of a canonical rank (`None` if it is not canonical).
    #[inline]
    pub fn orbit_of_rank(&self, rank: u64) -> Option<u64> {
        let (r0, r1) = (rank / self.inner, rank % self.inner);
        let slot = *self.slot.get(r0 as usize)?;
        if slot == NOT_CANONICAL {
            return None;
        }
        let e = self.whites[slot as usize];
        if e.len == ALL {
            return Some(e.offset + r1);
        }
        let list = &self.blacks[e.start as usize..(e.start + e.len) as usize];
        list.binary_search(&(r1 as u32))
            .ok()
            .map(|k| e.offset + k as u64)
    }

    /// The orbit index of any arrangement of the sector.
    #[inline]
    pub fn orbit(&self, binom: &Binomial, group: &[Symmetry], occ: [u64; 2]) -> u64 {
        let r0 = binom.rank_set(occ[0]) as usize;
        if let Some(&k) = self.least_sym.get(r0) {
            let g = &group[usize::from(k & !AMBIGUOUS)];
            let white = g.apply(occ[0]);
            let e = self.whites[self.least_entry[r0] as usize];
            let image = g.apply(occ[1]);
            let mut black = image;
            if k & AMBIGUOUS == 0 {
                // A least image with a trivial stabiliser starts an entry
                // holding every second set.
                debug_assert_eq!(e.len, ALL);
                return e.offset + binom.rank_compressed(black, white);
            }
            // Every map to the least image is g followed by one fixing it.
            for &h in &self.stabs[e.stab as usize..(e.stab + e.stab_len) as usize] {
                black = black.min(group[usize::from(h)].apply(image));
            }
            let r1 = binom.rank_compressed(black, white) as u32;
            let list = &self.blacks[e.start as usize..(e.start + e.len) as usize];
            let k = list
                .binary_search(&r1)
                .expect("a canonical rank has an orbit");
            return e.offset + k as u64;
        }
        let (_, rank) = self.canonical(binom, group, occ);
        self.orbit_of_rank(rank)
            .expect("a canonical rank has an orbit")
    }

    /// The canonical rank of orbit `i`.
    pub fn rank_of_orbit(&self, i: u64) -> u64 {
        let k = self.whites.partition_point(|e| e.offset <= i) - 1;
        let e = self.whites[k];
        let r1 = if e.len == ALL {
            i - e.offset
        } else {
            u64::from(self.blacks[e.start as usize + (i - e.offset) as usize])
        };
        self.white_rank[k] * self.inner + r1
    }

    /// The canonical arrangement of orbit `i`.
    pub fn arrangement(&self, binom: &Binomial, i: u64) -> [u64; 2] {
        self.unrank(binom, self.rank_of_orbit(i))
    }

    /// Visit the orbits in order, each with its canonical arrangement:
    /// cheaper than [`SectorIndex::arrangement`] per orbit.
    pub fn for_each(&self, binom: &Binomial, f: impl FnMut(u64, [u64; 2])) {
        self.for_each_in(binom, 0..self.orbits, f)
    }

    /// [`SectorIndex::for_each`] over the orbits of `range` only (for
    /// splitting the work between threads).
    pub fn for_each_in(
        &self,
        binom: &Binomial,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, [u64; 2]),
    ) {
        self.walk(binom, range, |i, occ, _| f(i, occ));
    }

    /// [`SectorIndex::for_each`] with each orbit's size (positions in it),
    /// from the stabiliser of its first set: no symmetry is tried on the
    /// orbits whose first set has none.
    pub fn for_each_sized(
        &self,
        binom: &Binomial,
        group: &[Symmetry],
        mut f: impl FnMut(u64, [u64; 2], u64),
    ) {
        let g = group.len() as u64;
        self.walk(binom, 0..self.orbits, |i, occ, e| {
            let fixed = 1 + self.stabs[e.stab as usize..(e.stab + e.stab_len) as usize]
                .iter()
                .filter(|&&h| group[usize::from(h)].apply(occ[1]) == occ[1])
                .count() as u64;
            f(i, occ, g / fixed);
        });
    }

    /// The orbits of `range` in order, each with its canonical arrangement
    /// and the entry of its first set.
    fn walk(
        &self,
        binom: &Binomial,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, [u64; 2], &WhiteEntry),
    ) {
        if range.is_empty() {
            return;
        }
        let first = self.whites.partition_point(|e| e.offset <= range.start) - 1;
        for (k, e) in self.whites.iter().enumerate().skip(first) {
            if e.offset >= range.end {
                break;
            }
            let white = binom.unrank_set(self.white_rank[k], self.w, self.n);
            let count = if e.len == ALL {
                self.inner
            } else {
                u64::from(e.len)
            };
            let from = range.start.saturating_sub(e.offset);
            let to = count.min(range.end - e.offset);
            for j in from..to {
                let r1 = if e.len == ALL {
                    j
                } else {
                    u64::from(self.blacks[e.start as usize + j as usize])
                };
                let black = expand(binom.unrank_set(r1, self.b, self.n - self.w), white, self.n);
                f(e.offset + j, [white, black], e);
            }
        }
    }

    /// Which first-player entry orbit `i` belongs to, as a range of orbits
    /// sharing that set (for splitting work).
    pub fn white_ranges(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.whites.iter().enumerate().map(move |(k, e)| {
            let end = self.whites.get(k + 1).map_or(self.orbits, |n| n.offset);
            (e.offset, end)
        })
    }
}
