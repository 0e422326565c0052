//! Seeded random streams: every game of a run draws from its own
//! generator, derived from the run's seed and the game's index, so results
//! do not depend on threads or order.

use rand::rngs::SmallRng;
use rand::SeedableRng;

/// SplitMix64 finaliser: spreads game indices over the seed space.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator of game `index` of a run seeded with `seed`: games are
/// independent of each other and of which thread plays them.
pub fn game_rng(seed: u64, index: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed ^ splitmix64(index))
}
