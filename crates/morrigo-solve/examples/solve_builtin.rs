//! Solve a ruleset and print the value and the counts (a quick check
//! without the CLI): `cargo run --release -p morrigo-solve --example solve_builtin -- six-mens-morris`.

use morrigo_engine::{with_machine, AnyMachine};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let name = std::env::args()
        .nth(1)
        .unwrap_or("three-mens-morris".into());
    let rules = morrigo_rules::load_rules(&name).expect("ruleset loads");
    morrigo_solve::retrograde_applies(&rules).expect("retrograde applies");
    let any = AnyMachine::new(Arc::new(morrigo_solve::solver_rules(&rules))).expect("machine");
    let t = Instant::now();
    with_machine!(&any, m => {
        let (table, stats) = morrigo_solve::solve(m, &m.initial(), u64::MAX, &morrigo_solve::Quiet).expect("solves");
        println!("{name}: {:?} {stats:?} in {:.2?}", table.start_value(), t.elapsed());
    });
}
