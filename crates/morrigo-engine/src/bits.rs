//! Fixed-size bitsets over board points. `W` words hold `64 * W` points; the
//! engine is compiled once per width so a 24-point Morris board costs one
//! `u64` per set and a 19×19 Go board six.

/// A set of points: bit `i % 64` of word `i / 64` holds point `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bits<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Bits([0; W])
    }
}

impl<const W: usize> Bits<W> {
    /// No point.
    pub const EMPTY: Self = Bits([0; W]);

    /// The first `n` points.
    pub fn first(n: usize) -> Self {
        let mut b = Self::EMPTY;
        for i in 0..n {
            b.set(i);
        }
        b
    }

    /// Add point `i`.
    #[inline(always)]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    /// Remove point `i`.
    #[inline(always)]
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    /// Whether point `i` is in the set.
    #[inline(always)]
    pub fn has(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    /// How many points the set holds.
    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set holds no point.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The points in both sets.
    #[inline(always)]
    pub fn and(self, o: Self) -> Self {
        let mut r = self;
        for i in 0..W {
            r.0[i] &= o.0[i];
        }
        r
    }

    /// The points in either set.
    #[inline(always)]
    pub fn or(self, o: Self) -> Self {
        let mut r = self;
        for i in 0..W {
            r.0[i] |= o.0[i];
        }
        r
    }

    /// The points of `self` not in `o`.
    #[inline(always)]
    pub fn without(self, o: Self) -> Self {
        let mut r = self;
        for i in 0..W {
            r.0[i] &= !o.0[i];
        }
        r
    }

    /// `self ⊆ o`
    #[inline(always)]
    pub fn within(&self, o: &Self) -> bool {
        (0..W).all(|i| self.0[i] & !o.0[i] == 0)
    }

    /// The index of the `k`-th set point (0-based), for uniform random picks.
    #[inline]
    pub fn nth(&self, mut k: u32) -> Option<usize> {
        for (wi, &w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if k < c {
                let mut w = w;
                for _ in 0..k {
                    w &= w - 1;
                }
                return Some(wi * 64 + w.trailing_zeros() as usize);
            }
            k -= c;
        }
        None
    }

    /// Every point index moved up by `k` (< 64); bits past the end are lost.
    #[inline(always)]
    pub fn shl(&self, k: u32) -> Self {
        let mut r = Self::EMPTY;
        for i in (0..W).rev() {
            r.0[i] = self.0[i] << k;
            if i > 0 && k > 0 {
                r.0[i] |= self.0[i - 1] >> (64 - k);
            }
        }
        r
    }

    /// Every point index moved down by `k` (< 64).
    #[inline(always)]
    pub fn shr(&self, k: u32) -> Self {
        let mut r = Self::EMPTY;
        for i in 0..W {
            r.0[i] = self.0[i] >> k;
            if i + 1 < W && k > 0 {
                r.0[i] |= self.0[i + 1] << (64 - k);
            }
        }
        r
    }

    /// The points in the set, in increasing order.
    #[inline(always)]
    pub fn iter(&self) -> BitsIter<W> {
        BitsIter {
            bits: *self,
            word: 0,
        }
    }
}

pub struct BitsIter<const W: usize> {
    bits: Bits<W>,
    word: usize,
}

impl<const W: usize> Iterator for BitsIter<W> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.word < W {
            let w = &mut self.bits.0[self.word];
            if *w != 0 {
                let i = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(self.word * 64 + i);
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.bits.0[self.word.min(W)..]
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum();
        (left, Some(left))
    }
}

impl<const W: usize> ExactSizeIterator for BitsIter<W> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_clear_count_across_words() {
        let mut b = Bits::<2>::EMPTY;
        b.set(3);
        b.set(64);
        b.set(127);
        assert_eq!(b.count(), 3);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 64, 127]);
        assert_eq!(b.nth(1), Some(64));
        assert_eq!(b.nth(3), None);
        assert_eq!(b.shl(1).iter().collect::<Vec<_>>(), vec![4, 65]);
        assert_eq!(b.shr(4).iter().collect::<Vec<_>>(), vec![60, 123]);
        b.clear(64);
        assert!(!b.has(64));
        assert!(Bits::<2>::first(70).has(69) && !Bits::<2>::first(70).has(70));
    }
}
