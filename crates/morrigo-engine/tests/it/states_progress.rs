//! `count_states_with` reports its progress every `PROGRESS_EVERY` new
//! positions (so `morrigo states` can show how far the search got) and
//! counts exactly what `count_states` counts.

use morrigo_engine::{count_states, count_states_with, with_machine, AnyMachine, PROGRESS_EVERY};
use morrigo_rules::load::Overrides;
use std::sync::Arc;

#[test]
fn the_progress_hook_sees_each_multiple_of_the_step_up_to_the_limit() {
    let o = Overrides {
        size: Some((4, 4)),
        komi: None,
    };
    let rules = Arc::new(morrigo_rules::load_rules_with("tromp-taylor", &o).expect("loads"));
    let any = AnyMachine::new(rules).expect("fits");
    let limit = 3 * PROGRESS_EVERY + 5;
    with_machine!(&any, m => {
        let start = m.initial();
        let mut seen = Vec::new();
        let with = count_states_with(m, &start, limit, &mut |p| {
            seen.push(p.positions);
            true
        });
        assert_eq!(seen, [1, 2, 3].map(|k| k * PROGRESS_EVERY));
        assert_eq!(with, count_states(m, &start, limit));
        assert!(!with.complete);
        assert_eq!(with.positions, limit);
    });
}

#[test]
fn the_hook_stops_the_search_and_the_count_says_it_is_incomplete() {
    let o = Overrides {
        size: Some((4, 4)),
        komi: None,
    };
    let rules = Arc::new(morrigo_rules::load_rules_with("tromp-taylor", &o).expect("loads"));
    let any = AnyMachine::new(rules).expect("fits");
    with_machine!(&any, m => {
        let start = m.initial();
        let mut growth_seen = false;
        let count = count_states_with(m, &start, u64::MAX, &mut |p| {
            growth_seen |= p.growth_bytes > 0;
            p.positions < 2 * PROGRESS_EVERY
        });
        assert_eq!(count.positions, 2 * PROGRESS_EVERY);
        assert!(!count.complete);
        // 131,072 positions cross at least one doubling of the visited set.
        assert!(growth_seen);
    });
}
