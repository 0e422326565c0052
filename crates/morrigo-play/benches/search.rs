//! Criterion benches of the searching agents on one core: alpha-beta
//! nodes/s and MCTS playouts/s on Nine Men's Morris and 9×9 Go (`chinese`,
//! simple ko; `jk-final`). Each iteration searches the same positions (from
//! seeded uniform-random games) from an empty table, so the work per
//! iteration is fixed and counted once: the throughput is nodes (or
//! playouts) per second. Floors the issue sets: MCTS ≥ 20,000 playouts/s on
//! Nine Men's Morris, ≥ 10,000 on 9×9 Go.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use morrigo_engine::{with_machine, AnyMachine, Machine, Move, State};
use morrigo_play::{game_rng, machine_with, AgentSpec, AlphaBetaParams, MctsParams, Player};
use morrigo_rules::load::Overrides;
use std::hint::black_box;
use std::time::Duration;

/// Positions searched per iteration: every `STRIDE`-th ply of one seeded
/// uniform-random game, from the start.
const POSITIONS: usize = 6;
const STRIDE: u32 = 7;

/// Playouts per MCTS search.
const PLAYOUTS: u32 = 500;

/// The rulesets: name, board size (`None`: the ruleset's own), alpha-beta depth.
const RULESETS: [(&str, Option<u32>, u32); 3] = [
    ("nine-mens-morris", None, 5),
    ("chinese", Some(9), 3),
    ("jk-final", Some(9), 3),
];

fn load(name: &str, size: Option<u32>) -> AnyMachine {
    let overrides = Overrides {
        size: size.map(|n| (n, n)),
        komi: None,
    };
    machine_with(name, &overrides).expect("built-in ruleset")
}

/// The positions of one seeded uniform-random game at plies 0, STRIDE, …
fn positions<const W: usize>(m: &Machine<W>) -> Vec<(State<W>, Vec<Move>)> {
    let mut out = Vec::new();
    let mut s = m.initial();
    let mut moves = Vec::new();
    let mut uniform = Player::new(AgentSpec::Uniform);
    let mut rng = game_rng(11, 0);
    while out.len() < POSITIONS && m.legal_moves(&s, &mut moves).is_none() && !moves.is_empty() {
        if s.pos.ply.is_multiple_of(STRIDE) && moves.len() > 1 {
            out.push((s.clone(), moves.clone()));
        }
        let mv = uniform.choose(m, &mut s, &moves, &mut rng);
        m.apply(&mut s, mv);
    }
    assert_eq!(
        out.len(),
        POSITIONS,
        "{}: the game ended early",
        m.rules.name
    );
    out
}

/// Search every position once with `player`, its table cleared before each
/// (the agent is built once: its tables' allocation is not measured); the
/// nodes (alpha-beta) or playouts (MCTS) of all the searches.
fn search_all<const W: usize>(
    m: &Machine<W>,
    player: &mut Player,
    at: &[(State<W>, Vec<Move>)],
) -> u64 {
    let mut total = 0;
    for (i, (s, moves)) in at.iter().enumerate() {
        player.new_game();
        let mut s = s.clone();
        black_box(player.choose(m, &mut s, moves, &mut game_rng(3, i as u64)));
        total += player.last_search().map_or(0, |x| x.nodes);
    }
    total
}

fn bench_agent(c: &mut Criterion, group: &str, unit: &str, spec: impl Fn(u32) -> AgentSpec) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (name, size, depth) in RULESETS {
        let any = load(name, size);
        let spec = spec(depth);
        with_machine!(&any, m => {
            let at = positions(m);
            let mut player = Player::new(spec);
            let work = search_all(m, &mut player, &at);
            println!("{group}/{name}: {work} {unit} per iteration ({spec})");
            g.throughput(Throughput::Elements(work));
            g.bench_function(format!("{name} {spec} x{POSITIONS} positions"), |b| {
                b.iter(|| search_all(m, &mut player, &at))
            });
        });
    }
    g.finish();
}

fn alphabeta(c: &mut Criterion) {
    bench_agent(c, "alphabeta", "nodes", |depth| {
        AgentSpec::AlphaBeta(AlphaBetaParams {
            depth,
            time_ms: None,
            margin: 0,
            ..AlphaBetaParams::default()
        })
    });
}

fn mcts(c: &mut Criterion) {
    bench_agent(c, "mcts", "playouts", |_| {
        AgentSpec::Mcts(MctsParams {
            playouts: PLAYOUTS,
            ..MctsParams::default()
        })
    });
}

criterion_group!(benches, alphabeta, mcts);
criterion_main!(benches);
