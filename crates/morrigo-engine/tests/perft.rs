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
