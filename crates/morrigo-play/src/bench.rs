//! Throughput measurement for the CLI's `bench` command (single thread).

use crate::playout::playout;
use crate::sim::{game_rng, per_sec, DEFAULT_MAX_PLIES};
use crate::spec::AgentSpec;
use morrigo_engine::{perft, with_machine, AnyMachine, Machine, Unit};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Random-playout throughput.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchResult {
    pub games: u32,
    pub plies: u64,
    pub secs: f64,
    pub games_per_sec: f64,
    pub plies_per_sec: f64,
}

/// Perft throughput.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerftBench {
    pub depth: u32,
    pub nodes: u64,
    pub secs: f64,
    pub nodes_per_sec: f64,
}

/// Play `games` random-vs-random games on this thread and time them.
pub fn bench_playouts(any: &AnyMachine, games: u32, seed: u64) -> BenchResult {
    with_machine!(any, m => bench_playouts_on(m, games, seed))
}

/// [`bench_playouts`] on a machine of known width.
pub fn bench_playouts_on<const W: usize>(m: &Machine<W>, games: u32, seed: u64) -> BenchResult {
    let initial = m.initial();
    let mut moves = Vec::with_capacity(64);
    let mut plies = 0u64;
    let agents = [AgentSpec::Uniform; 2];
    let started = Instant::now();
    for i in 0..games as u64 {
        let mut rng = game_rng(seed, i);
        let mut s = initial.clone();
        let g = playout(m, &mut s, agents, &mut rng, DEFAULT_MAX_PLIES, &mut moves);
        plies += g.plies as u64;
    }
    let secs = started.elapsed().as_secs_f64();
    BenchResult {
        games,
        plies,
        secs,
        games_per_sec: per_sec(games as f64, secs),
        plies_per_sec: per_sec(plies as f64, secs),
    }
}

/// Time `perft` of `depth` from the initial position.
pub fn bench_perft(any: &AnyMachine, depth: u32, unit: Unit) -> PerftBench {
    with_machine!(any, m => {
        let mut s = m.initial();
        let started = Instant::now();
        let nodes = perft(m, &mut s, depth, unit);
        let secs = started.elapsed().as_secs_f64();
        PerftBench { depth, nodes, secs, nodes_per_sec: per_sec(nodes as f64, secs) }
    })
}
