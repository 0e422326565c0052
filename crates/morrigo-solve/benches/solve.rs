//! `solve three-mens-morris` end to end (explore, link, propagate). Six
//! Men's Morris takes minutes; its time and peak memory are measured with
//! the command in README.md ("Solving a game exactly").

use criterion::{criterion_group, criterion_main, Criterion};
use morrigo_engine::Machine;
use std::sync::Arc;

fn solve_three(c: &mut Criterion) {
    let rules = morrigo_rules::load_rules("three-mens-morris").expect("built-in loads");
    let m = Machine::<1>::new(Arc::new(morrigo_solve::solver_rules(&rules)));
    c.bench_function("solve three-mens-morris", |b| {
        b.iter(|| {
            let (table, stats) =
                morrigo_solve::solve(&m, &m.initial(), u64::MAX, &morrigo_solve::Quiet)
                    .expect("solves");
            assert_eq!(stats.reachable, 5390);
            table.start_value()
        })
    });
}

criterion_group!(benches, solve_three);
criterion_main!(benches);
