//! Criterion benches: random playouts of Nine Men's Morris (throughput in
//! plies), perft depth 5 from the empty board, and random playouts of Go
//! (`chinese`, simple ko; `jk-final`) on 9×9 and 19×19 (throughput in games;
//! the plies per game are printed); MCTS searches of 2000 playouts on Nine
//! Men's Morris and 9×9 `chinese` (throughput in playouts). Kept short:
//! `cargo bench` finishes in about two minutes.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use morrigo_engine::{perft, with_machine, AnyMachine, Machine, Unit};
use morrigo_play::{
    game_rng, machine_with, playout, AgentSpec, MctsParams, Player, DEFAULT_MAX_PLIES,
};
use morrigo_rules::load::Overrides;
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
            let agents = [AgentSpec::Uniform; 2];
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
                let agents = [AgentSpec::Uniform; 2];
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

/// Play `games` random games of `any` from the start; total plies.
fn random_games(any: &AnyMachine, games: u64, seed: u64) -> u64 {
    with_machine!(any, m => {
        let initial = m.initial();
        let mut moves = Vec::with_capacity(400);
        let agents = [AgentSpec::Uniform; 2];
        (0..games)
            .map(|i| {
                let mut s = initial.clone();
                let mut rng = game_rng(seed, i);
                playout(m, &mut s, agents, &mut rng, DEFAULT_MAX_PLIES, &mut moves).plies as u64
            })
            .sum()
    })
}

fn go_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("go");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (ruleset, size, games) in [
        ("chinese", 9, 200u64),
        ("jk-final", 9, 200),
        ("chinese", 19, 20),
        ("jk-final", 19, 40),
    ] {
        let overrides = Overrides {
            size: Some((size, size)),
            komi: None,
        };
        let any = machine_with(ruleset, &overrides).expect("built-in ruleset");
        let plies = random_games(&any, games, 7);
        println!(
            "go/{ruleset} {size}x{size}: {:.1} plies per random game",
            plies as f64 / games as f64
        );
        group.throughput(Throughput::Elements(games));
        group.bench_function(
            format!("{ruleset} {size}x{size} random games x{games}"),
            |b| b.iter(|| black_box(random_games(&any, games, 7))),
        );
    }
    group.finish();
}

/// One MCTS search of `playouts` playouts from the start of `any` (a fresh
/// tree each time, so nothing is reused); playouts run.
fn mcts_search(any: &AnyMachine, playouts: u32) -> u64 {
    with_machine!(any, m => {
        let mut s = m.initial();
        let mut moves = Vec::with_capacity(400);
        m.legal_moves(&s, &mut moves);
        let spec = AgentSpec::Mcts(MctsParams {
            playouts,
            ..MctsParams::default()
        });
        let mut player = Player::new(spec);
        player.choose(m, &mut s, &moves, &mut game_rng(7, 0));
        player.last_search().map_or(0, |i| i.nodes)
    })
}

/// MCTS playouts/s (the tree, RAVE updates and the playout policy) on
/// Nine Men's Morris and 9×9 `chinese`, from the start position.
fn mcts_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    const PLAYOUTS: u32 = 2000;
    for (ruleset, size) in [("nine-mens-morris", None), ("chinese", Some(9))] {
        let overrides = Overrides {
            size: size.map(|n| (n, n)),
            komi: None,
        };
        let any = machine_with(ruleset, &overrides).expect("built-in ruleset");
        group.throughput(Throughput::Elements(PLAYOUTS as u64));
        group.bench_function(format!("{ruleset} playouts x{PLAYOUTS}"), |b| {
            b.iter(|| black_box(mcts_search(&any, PLAYOUTS)))
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, perft5, go_playouts, mcts_playouts);
criterion_main!(benches);
