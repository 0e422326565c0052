//! Criterion benches: random playouts of Nine Men's Morris (throughput in
//! plies) and perft depth 5 from the empty board. Kept short: `cargo bench`
//! finishes in about a minute.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use morrigo_engine::{perft, Machine, Unit};
use morrigo_play::{game_rng, playout, AgentKind, DEFAULT_MAX_PLIES};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

/// Games per measured iteration.
const GAMES: u64 = 100;

fn nmm() -> Machine<1> {
    let rules = morrigo_rules::load_rules("nine-mens-morris").expect("built-in ruleset");
    Machine::new(Arc::new(rules))
}

fn playouts(c: &mut Criterion) {
    let m = nmm();
    let initial = m.initial();
    let mut moves = Vec::with_capacity(64);
    // Plies of one iteration, counted once so throughput is exact.
    let plies: u64 = (0..GAMES)
        .map(|i| {
            let mut s = initial.clone();
            let agents = [AgentKind::Random; 2];
            let g = playout(
                &m,
                &mut s,
                agents,
                &mut game_rng(7, i),
                DEFAULT_MAX_PLIES,
                &mut moves,
            );
            g.plies as u64
        })
        .sum();
    let mut group = c.benchmark_group("nine-mens-morris");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Elements(plies));
    group.bench_function("random playouts x100", |b| {
        b.iter(|| {
            let mut total = 0u64;
            for i in 0..GAMES {
                let mut s = initial.clone();
                let agents = [AgentKind::Random; 2];
                let mut rng = game_rng(7, i);
                let g = playout(&m, &mut s, agents, &mut rng, DEFAULT_MAX_PLIES, &mut moves);
                total += g.plies as u64;
            }
            black_box(total)
        })
    });
    group.finish();
}

fn perft5(c: &mut Criterion) {
    let m = nmm();
    let mut group = c.benchmark_group("nine-mens-morris");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    let mut s = m.initial();
    let nodes = perft(&m, &mut s, 5, Unit::Ply);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("perft 5 (plies)", |b| {
        b.iter_batched_ref(
            || m.initial(),
            |s| black_box(perft(&m, s, 5, Unit::Ply)),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, playouts, perft5);
criterion_main!(benches);
