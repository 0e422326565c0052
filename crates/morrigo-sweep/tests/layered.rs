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
    let mut order = Vec::new();
    loop {
        let ready = l.ready().unwrap();
        if ready.is_empty() {
            return order;
        }
        for u in ready {
            l.run(u).unwrap();
            order.push(u);
        }
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

fn check(ruleset: &str, tag: &str) -> u64 {
    let dir = scratch(tag);
    let l = Layered::open(ruleset, &Overrides::default(), &dir).unwrap();
    let order = run_all(&l);
    assert!(order.len() > 2, "{order:?}");
    let rules = morrigo_rules::load_rules(ruleset).unwrap();
    let any = AnyMachine::new(Arc::new(solver_rules(&rules))).unwrap();
    let n = with_machine!(&any, m => same_as_single(m, &l));
    let _ = std::fs::remove_dir_all(&dir);
    n
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
