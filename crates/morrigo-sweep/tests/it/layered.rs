//! The layered solve (units per layer, values exchanged through files)
//! finds the single-process solve's value for every position.

use morrigo_engine::{with_machine, AnyMachine, Machine};
use morrigo_rules::load::Overrides;
use morrigo_solve::layers::Coder;
use morrigo_solve::{solve, solver_rules, Quiet, Value};
use morrigo_sweep::layered::{Layered, Unit};
use std::sync::Arc;

fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("morrigo-layered-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Run every unit, in the order `ready` gives them, one at a time.
fn run_all(l: &Layered) -> Vec<Unit> {
    run_all_then(l, |_| {})
}

/// As `run_all`, calling `after` with each batch `ready` gave, once run.
fn run_all_then(l: &Layered, mut after: impl FnMut(&[Unit])) -> Vec<Unit> {
    let mut order = Vec::new();
    loop {
        let ready = l.ready().unwrap();
        if ready.is_empty() {
            return order;
        }
        for &u in &ready {
            l.run(u).unwrap();
            order.push(u);
        }
        after(&ready);
    }
}

fn same_as_single<const W: usize>(m: &Machine<W>, l: &Layered) -> u64 {
    let (table, stats) = solve(m, &m.initial(), 1 << 30, &Quiet).unwrap();
    let coder = Coder::new(m);
    let mut s = m.initial();
    let mut n = 0;
    for solved in l.values().unwrap() {
        let layer = solved.layer;
        for (c, v) in solved.codes.iter().zip(solved.values) {
            coder.decode(m, layer, *c, &mut s).unwrap();
            assert_eq!(
                table.value(&s.pos),
                Some(Value::decode(v)),
                "layer {layer} code {c:#x}"
            );
            n += 1;
        }
    }
    assert_eq!(n, stats.reachable, "the same reachable positions");
    let sum = l.summary().unwrap().expect("finished");
    assert_eq!(Value::decode(sum.start), table.start_value());
    assert_eq!(
        [sum.wins, sum.losses, sum.draws],
        [stats.wins, stats.losses, stats.draws]
    );
    assert_eq!(sum.edges, stats.edges);
    n
}

/// Solve `ruleset` by layers (split into ranges of at most `split`
/// positions), check every position against the single solve, and return
/// the positions, the units run and the solve's digest.
fn check_split(ruleset: &str, tag: &str, split: Option<u64>) -> (u64, Vec<Unit>, u64) {
    let dir = scratch(tag);
    let l = Layered::open_with(ruleset, &Overrides::default(), &dir, split).unwrap();
    let order = run_all(&l);
    assert!(order.len() > 2, "{order:?}");
    let rules = morrigo_rules::load_rules(ruleset).unwrap();
    let any = AnyMachine::new(Arc::new(solver_rules(&rules))).unwrap();
    let n = with_machine!(&any, m => same_as_single(m, &l));
    let digest = l.summary().unwrap().unwrap().digest;
    assert!(
        !dir.join("split").exists()
            || std::fs::read_dir(dir.join("split"))
                .unwrap()
                .next()
                .is_none(),
        "a joined layer's range files are removed"
    );
    let _ = std::fs::remove_dir_all(&dir);
    (n, order, digest)
}

fn check(ruleset: &str, tag: &str) -> u64 {
    check_split(ruleset, tag, None).0
}

/// The largest range index and the most rounds any split layer ran.
fn split_shape(order: &[Unit]) -> (u32, u32) {
    let ranges = order
        .iter()
        .filter_map(|u| match u {
            Unit::Expand(_, r) => Some(*r),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let rounds = order
        .iter()
        .filter_map(|u| match u {
            Unit::Round(_, _, d) => Some(*d),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    (ranges, rounds)
}

/// Rule: a value is the minimax distance of the whole game; solving it a
/// layer at a time, lower layers first, gives the same value everywhere.
#[test]
fn three_mens_morris_layer_by_layer_equals_the_single_solve() {
    check("three-mens-morris", "three");
}

/// With removals (a mill takes a piece: moves into a lower layer from the
/// moving phase too): Six Men's Morris with three pieces each, small
/// enough for a test.
#[test]
fn a_ruleset_with_removals_layer_by_layer_equals_the_single_solve() {
    let text = "name: small-removals\nextends: six-mens-morris\nsetup: { in_hand: 3 }\n";
    let dir = scratch("small-spec");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("small.yaml");
    std::fs::write(&path, text).unwrap();
    let n = check(path.to_str().unwrap(), "small");
    assert!(n > 1000, "{n}");
}

/// Rule: a layer split into ranges of positions, each expanded and
/// propagated a distance at a time by its own units exchanging decisions
/// through files, gets every value of the single solve. 211 and 500 do not
/// divide the layers: ranges of unequal sizes.
#[test]
fn three_mens_morris_in_ranges_equals_the_single_solve() {
    let (_, _, whole) = check_split("three-mens-morris", "three-whole", None);
    for split in [211, 500] {
        let (n, order, digest) =
            check_split("three-mens-morris", &format!("three-{split}"), Some(split));
        assert_eq!(n, 5390);
        assert_eq!(digest, whole, "split {split}");
        let (ranges, rounds) = split_shape(&order);
        assert!(ranges >= 2 && rounds >= 5, "{split}: {ranges} {rounds}");
    }
}

/// With removals (moves into lower layers from within a split layer): its
/// largest layer, 315,736 positions, in ranges of 105,245 and 105,246.
#[test]
fn a_ruleset_with_removals_in_ranges_equals_the_single_solve() {
    let text = "name: small-removals\nextends: six-mens-morris\nsetup: { in_hand: 3 }\n";
    let dir = scratch("small-split-spec");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("small.yaml");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    let (_, _, whole) = check_split(path, "small-whole", None);
    let (n, order, digest) = check_split(path, "small-split", Some(110_000));
    assert!(n > 1000, "{n}");
    assert_eq!(digest, whole);
    let (ranges, rounds) = split_shape(&order);
    assert!(ranges >= 2 && rounds >= 5, "{ranges} {rounds}");
}

/// Rule: a range unit killed before its last file (the one marking it done)
/// is run again from the same inputs, and the solve is unchanged; a unit
/// ahead of its round, or of a range the layer does not have, is refused.
#[test]
fn a_killed_range_unit_reruns_to_the_same_solve() {
    let (_, _, whole) = check_split("three-mens-morris", "kill-whole", Some(500));
    let dir = scratch("kill");
    let l =
        Layered::open_with("three-mens-morris", &Overrides::default(), &dir, Some(500)).unwrap();
    let (mut expand_killed, mut round_killed) = (false, false);
    run_all_then(&l, |ready| {
        match ready[0] {
            Unit::Expand(layer, _) if !expand_killed => {
                expand_killed = true;
                let e = l.run(Unit::Round(layer, 0, 1)).unwrap_err();
                assert!(e.message.contains("round 0 of layer"), "{e}");
                let e = l.run(Unit::Expand(layer, 99)).unwrap_err();
                assert!(e.message.contains("ranges, 0 to"), "{e}");
                // Killed after its edges and events, before its start state.
                let start = dir.join("split").join(layer.name()).join("start-1.state");
                std::fs::remove_file(start).unwrap();
                let again = l.ready().unwrap();
                assert!(again.contains(&Unit::Expand(layer, 1)), "{again:?}");
                assert!(!again
                    .iter()
                    .any(|u| matches!(u, Unit::Round(x, ..) if *x == layer)));
            }
            Unit::Round(layer, _, 2) if !round_killed => {
                round_killed = true;
                // Killed after its state and messages, before its status.
                let status = dir.join("split").join(layer.name()).join("round-2/0.json");
                std::fs::remove_file(status).unwrap();
                let again = l.ready().unwrap();
                assert!(again.contains(&Unit::Round(layer, 0, 2)), "{again:?}");
                assert!(!again
                    .iter()
                    .any(|u| matches!(u, Unit::Round(x, _, 3) if *x == layer)));
            }
            _ => {}
        }
    });
    assert!(expand_killed && round_killed);
    assert_eq!(l.summary().unwrap().unwrap().digest, whole);
    // The directory keeps its unit size.
    let e = Layered::open_with("three-mens-morris", &Overrides::default(), &dir, Some(400))
        .err()
        .unwrap();
    assert!(e.message.contains("at most 500 positions, not 400"), "{e}");
    assert!(Layered::open("three-mens-morris", &Overrides::default(), &dir).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Rule: a unit runs only once its dependencies are done, and a unit of a
/// killed run is run again from its inputs to the same files.
#[test]
fn units_wait_for_their_dependencies_and_rerun_identically() {
    let dir = scratch("deps");
    let l = Layered::open("three-mens-morris", &Overrides::default(), &dir).unwrap();
    let first = l.ready().unwrap();
    assert_eq!(first.len(), 1);
    let solve_start: Unit = format!("solve:{}", l.plan.start_layer).parse().unwrap();
    let e = l.run(solve_start).unwrap_err();
    assert!(e.message.contains("cannot run yet"), "{e}");
    run_all(&l);
    let digest = l.summary().unwrap().unwrap().digest;
    // Lose the values of the start layer and a layer explored midway.
    std::fs::remove_file(
        dir.join("values")
            .join(format!("{}.values", l.plan.start_layer)),
    )
    .unwrap();
    assert_eq!(l.ready().unwrap(), vec![solve_start]);
    run_all(&l);
    assert_eq!(l.summary().unwrap().unwrap().digest, digest);
    let _ = std::fs::remove_dir_all(&dir);
}
