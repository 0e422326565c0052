//! Perft from the empty board against the published Nine Men's Morris counts
//! (removal counted as its own ply).

use morrigo_engine::{perft, AnyMachine, Unit};
use std::sync::Arc;

fn counts(ruleset: &str, unit: Unit, depths: &[u32]) -> Vec<u64> {
    let rules = Arc::new(morrigo_rules::load_rules(ruleset).expect("built-in ruleset compiles"));
    let any = AnyMachine::new(rules).expect("fits");
    morrigo_engine::with_machine!(&any, m => {
        depths.iter().map(|&d| perft(m, &mut m.initial(), d, unit)).collect()
    })
}

#[test]
fn nine_mens_morris_perft_matches_published_counts_per_ply() {
    assert_eq!(
        counts("nine-mens-morris", Unit::Ply, &[1, 2, 3, 4, 5]),
        vec![24, 552, 12_144, 255_024, 5_100_480]
    );
}

#[test]
#[ignore = "slow in debug; run with --release"]
fn nine_mens_morris_perft_depth_6_and_7() {
    println!("{:?}", counts("nine-mens-morris", Unit::Ply, &[6, 7]));
    println!(
        "{:?}",
        counts("nine-mens-morris", Unit::Turn, &[1, 2, 3, 4, 5, 6])
    );
}

/// Three Men's Morris: the earliest end is White's third placement making a
/// line: 8 lines × 3! orders of White's pieces × 6·5 placements for Black.
#[test]
fn three_mens_morris_first_games_end_at_ply_five() {
    let rules = Arc::new(morrigo_rules::load_rules("three-mens-morris").expect("built-in"));
    let any = AnyMachine::new(rules).expect("fits");
    let ends = morrigo_engine::with_machine!(&any, m => {
        morrigo_engine::perft_to_end(m, &mut m.initial(), 5, Unit::Ply)
    });
    assert_eq!(ends.ended, vec![0, 0, 0, 0, 0, 8 * 6 * 30]);
    assert_eq!(ends.winners, [1440, 0, 0], "white made every line");
    assert_eq!(ends.going[5], 9 * 8 * 7 * 6 * 5 - 1440);
}
