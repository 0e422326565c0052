//! Throughput measurement for the CLI's `bench` command (single thread).

use crate::mcts::Mcts;
use crate::playout::playout;
use crate::search::{AlphaBeta, SearchInfo};
use crate::seeds::game_rng;
use crate::sim::{per_sec, DEFAULT_MAX_PLIES};
use crate::spec::{AgentSpec, AlphaBetaParams, MctsParams};
use morrigo_engine::{perft, with_machine, AnyMachine, Machine, Move, State, Unit};
use rand::rngs::SmallRng;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Random-playout throughput.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchResult {
    /// Games played.
    pub games: u32,
    /// Plies played, over all games.
    pub plies: u64,
    /// Wall-clock time of all games.
    pub secs: f64,
    /// Games per second (0 when no time was measured).
    pub games_per_sec: f64,
    /// Plies per second (0 when no time was measured).
    pub plies_per_sec: f64,
}

/// Perft throughput.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerftBench {
    /// Depth of the tree counted.
    pub depth: u32,
    /// Leaves of the tree.
    pub nodes: u64,
    /// Wall-clock time of the count.
    pub secs: f64,
    /// Leaves per second (0 when no time was measured).
    pub nodes_per_sec: f64,
}

/// Play `games` uniform-random games on this thread and time them.
pub fn bench_playouts(any: &AnyMachine, games: u32, seed: u64) -> BenchResult {
    bench_playouts_with(any, games, seed, &mut |_| {})
}

/// [`bench_playouts`], calling `progress` with the games played after each.
pub fn bench_playouts_with(
    any: &AnyMachine,
    games: u32,
    seed: u64,
    progress: &mut dyn FnMut(u64),
) -> BenchResult {
    with_machine!(any, m => playouts_on(m, games, seed, progress))
}

/// [`bench_playouts`] on a machine of known width.
pub fn bench_playouts_on<const W: usize>(m: &Machine<W>, games: u32, seed: u64) -> BenchResult {
    playouts_on(m, games, seed, &mut |_| {})
}

fn playouts_on<const W: usize>(
    m: &Machine<W>,
    games: u32,
    seed: u64,
    progress: &mut dyn FnMut(u64),
) -> BenchResult {
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
        progress(i + 1);
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

/// Search throughput: alpha-beta nodes, or Monte Carlo playouts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchBench {
    /// Positions searched.
    pub positions: u32,
    /// Nodes visited (alpha-beta) or playouts run (mcts).
    pub nodes: u64,
    /// Wall-clock time of all searches.
    pub secs: f64,
    /// `nodes` per second (0 when no time was measured).
    pub nodes_per_sec: f64,
}

/// Search `positions` positions with alpha-beta, each from an empty table:
/// the positions of uniform-random games of `seed`, one per ply.
pub fn bench_search(
    any: &AnyMachine,
    params: AlphaBetaParams,
    positions: u32,
    seed: u64,
) -> SearchBench {
    bench_search_with(any, params, positions, seed, &mut |_| {})
}

/// [`bench_search`], calling `progress` with the positions searched after
/// each (outside the timed searches).
pub fn bench_search_with(
    any: &AnyMachine,
    params: AlphaBetaParams,
    positions: u32,
    seed: u64,
    progress: &mut dyn FnMut(u64),
) -> SearchBench {
    with_machine!(any, m => {
        let mut ab = AlphaBeta::new(params);
        search_positions(m, positions, seed, 1, progress, &mut |s, moves, rng| {
            ab.clear();
            // A copy draws the tie: the walk's positions stay those of
            // earlier versions, so node counts compare.
            ab.choose(m, s, moves, &mut rng.clone());
            ab.last()
        })
    })
}

/// Run the Monte Carlo agent on `positions` positions of uniform-random
/// games of `seed`, one per ply; `nodes` counts its playouts.
pub fn bench_mcts(any: &AnyMachine, params: MctsParams, positions: u32, seed: u64) -> SearchBench {
    bench_mcts_with(any, params, positions, seed, &mut |_| {})
}

/// [`bench_mcts`], calling `progress` with the positions searched after
/// each (outside the timed searches).
pub fn bench_mcts_with(
    any: &AnyMachine,
    params: MctsParams,
    positions: u32,
    seed: u64,
    progress: &mut dyn FnMut(u64),
) -> SearchBench {
    with_machine!(any, m => {
        let mut mc = Mcts::new(params);
        // A forced move is no search: positions need two moves at least.
        search_positions(m, positions, seed, 2, progress, &mut |s, moves, rng| {
            mc.choose(m, s, moves, rng);
            mc.last()
        })
    })
}

/// The walk both search benchmarks share: uniform-random games of `seed`,
/// `search` run on each position with at least `min_moves` legal moves
/// (timed by the search itself), until `positions` are searched or more
/// games than that have been started (games that end at once).
fn search_positions<const W: usize>(
    m: &Machine<W>,
    positions: u32,
    seed: u64,
    min_moves: usize,
    progress: &mut dyn FnMut(u64),
    search: &mut dyn FnMut(&mut State<W>, &[Move], &mut SmallRng) -> SearchInfo,
) -> SearchBench {
    let mut moves = Vec::with_capacity(64);
    let (mut nodes, mut secs, mut done) = (0u64, 0f64, 0u32);
    let mut game = 0u64;
    while done < positions && game <= u64::from(positions) {
        let mut rng = game_rng(seed, game);
        let mut s = m.initial();
        game += 1;
        while done < positions
            && m.legal_moves(&s, &mut moves).is_none()
            && moves.len() >= min_moves
        {
            let info = search(&mut s, &moves, &mut rng);
            nodes += info.nodes;
            secs += info.elapsed.as_secs_f64();
            done += 1;
            progress(u64::from(done));
            let mv = moves[crate::moves::pick(&mut rng, moves.len())];
            m.apply(&mut s, mv);
        }
    }
    SearchBench {
        positions: done,
        nodes,
        secs,
        nodes_per_sec: per_sec(nodes as f64, secs),
    }
}
