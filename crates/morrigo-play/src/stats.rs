//! Small statistics of a simulation: confidence intervals of a proportion
//! and quartiles of a distribution of game lengths.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of `k` successes in `n` trials at 95%, as
/// shares in [0, 1]; `(0, 0)` when `n == 0`. Unlike the normal
/// approximation it stays inside [0, 1] and is sensible for 0 or `n`.
pub fn wilson(k: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let (all, none) = (k == n, k == 0);
    let (k, n) = (f64::from(k), f64::from(n));
    let z2 = Z95 * Z95;
    let p = k / n;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    // The bounds at 0 and n are exact (rounding would leave 0.999…).
    let lo = if none { 0.0 } else { (centre - half).max(0.0) };
    let hi = if all { 1.0 } else { (centre + half).min(1.0) };
    (lo, hi)
}

/// Game lengths in plies: mean, extremes and quartiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LengthStats {
    /// Mean length over all games.
    pub mean: f64,
    /// Length of the shortest game.
    pub min: u32,
    /// Quartiles by nearest rank: the smallest length at least a quarter
    /// (a half, three quarters) of the games do not exceed.
    pub q1: u32,
    /// Second quartile (see `q1`).
    pub median: u32,
    /// Third quartile (see `q1`).
    pub q3: u32,
    /// Length of the longest game.
    pub max: u32,
}

impl LengthStats {
    /// From a histogram (length → games).
    pub fn of(hist: &BTreeMap<u32, u32>) -> LengthStats {
        let n: u64 = hist.values().map(|&c| u64::from(c)).sum();
        if n == 0 {
            return LengthStats::default();
        }
        let total: u64 = hist
            .iter()
            .map(|(&l, &c)| u64::from(l) * u64::from(c))
            .sum();
        // Nearest rank: the value at rank ceil(p·n), 1-based.
        let rank = |num: u64| (n * num).div_ceil(4).max(1);
        let at = |r: u64| {
            let mut seen = 0u64;
            for (&l, &c) in hist {
                seen += u64::from(c);
                if seen >= r {
                    return l;
                }
            }
            0
        };
        LengthStats {
            mean: total as f64 / n as f64,
            min: hist.keys().next().copied().unwrap_or(0),
            q1: at(rank(1)),
            median: at(rank(2)),
            q3: at(rank(3)),
            max: hist.keys().next_back().copied().unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_published_values() {
        // 81 of 263 (a textbook example): 0.2553 to 0.3662.
        let (lo, hi) = wilson(81, 263);
        assert!(
            (lo - 0.2553).abs() < 5e-4 && (hi - 0.3662).abs() < 5e-4,
            "{lo} {hi}"
        );
        // None of 10: the interval still has width (0 to 0.2775).
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 5e-4, "{hi}");
        let (lo, hi) = wilson(10, 10);
        assert!((lo - 0.7225).abs() < 5e-4 && hi == 1.0, "{lo} {hi}");
        assert_eq!(wilson(0, 0), (0.0, 0.0));
    }

    #[test]
    fn quartiles_by_nearest_rank() {
        // Lengths 1..=8, one game each.
        let hist: BTreeMap<u32, u32> = (1..=8).map(|l| (l, 1)).collect();
        let s = LengthStats::of(&hist);
        assert_eq!((s.min, s.q1, s.median, s.q3, s.max), (1, 2, 4, 6, 8));
        assert_eq!(s.mean, 4.5);
        // One length only.
        let hist: BTreeMap<u32, u32> = [(30, 5)].into();
        let s = LengthStats::of(&hist);
        assert_eq!((s.min, s.q1, s.median, s.q3, s.max), (30, 30, 30, 30, 30));
        assert_eq!(LengthStats::of(&BTreeMap::new()), LengthStats::default());
    }
}
