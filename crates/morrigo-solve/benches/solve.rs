//! `solve three-mens-morris` end to end (explore, link, propagate). Six
//! Men's Morris takes minutes; its time and peak memory are measured with
//! the command in README.md ("Solving a game exactly").
//!
//! The Go searches on 2x2 (Tromp-Taylor, jk-final, komi 0): the plain
//! full-history search and the table search, end to end.

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

fn go_2x2(c: &mut Criterion) {
    use morrigo_solve::go::{solve_tt, KeySpec};
    use morrigo_solve::history::{solve_history, Limits};
    for name in ["tromp-taylor", "jk-final"] {
        let rules = morrigo_rules::load_rules_with(
            name,
            &morrigo_rules::load::Overrides {
                size: Some((2, 2)),
                komi: Some(0.0),
            },
        )
        .expect("built-in loads");
        let spec = KeySpec::of(&rules).expect("a Go key");
        let m = Machine::<1>::new(Arc::new(rules));
        let limits = Limits::default();
        c.bench_function(&format!("go 2x2 {name}: plain search"), |b| {
            b.iter(|| {
                solve_history(&m, &m.initial(), &limits)
                    .expect("solves")
                    .value
            })
        });
        c.bench_function(&format!("go 2x2 {name}: table search"), |b| {
            b.iter(|| solve_tt(&m, spec, &[], &limits).expect("solves").value)
        });
    }
}

criterion_group!(benches, solve_three, go_2x2);
criterion_main!(benches);
