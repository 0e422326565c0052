//! The size of a move tree, estimated before counting it: `perft` front
//! ends refuse a depth whose tree would take too long.

use crate::machine::{Machine, State};
use crate::perft::Unit;

/// Random paths used to estimate the size of a move tree.
pub const ESTIMATE_PATHS: u32 = 256;

/// Estimated number of leaves of the move tree of `depth` levels below `s`
/// (Knuth's estimator: along a random path, the product of the number of
/// legal moves at each level, averaged over [`ESTIMATE_PATHS`] paths; its
/// expectation is the exact count).
pub fn estimate_leaves<const W: usize>(
    m: &Machine<W>,
    s: &State<W>,
    depth: u32,
    unit: Unit,
) -> f64 {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut buf = Vec::new();
    let mut total = 0.0;
    for _ in 0..ESTIMATE_PATHS {
        let mut s = s.clone();
        let mut product = 1.0f64;
        let mut left = depth;
        // A turn owing many removals stays at one level: bound the walk.
        let mut steps = 0u32;
        while left > 0 && steps < depth.saturating_mul(8) + 64 {
            steps += 1;
            m.legal_moves(&s, &mut buf);
            if buf.is_empty() {
                product = 0.0;
                break;
            }
            product *= buf.len() as f64;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mv = buf[(x % buf.len() as u64) as usize];
            m.apply(&mut s, mv);
            if !(unit == Unit::Turn && s.pos.pending > 0) {
                left -= 1;
            }
        }
        total += product;
    }
    total / f64::from(ESTIMATE_PATHS)
}
