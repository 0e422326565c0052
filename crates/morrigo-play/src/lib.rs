//! Playing Morrigo games without a person: agents, random playouts,
//! parallel simulation, ruleset comparison tables and throughput benchmarks.
//!
//! ```no_run
//! use morrigo_play::{compare_table, simulate, Format, SimConfig};
//! use std::sync::Arc;
//! let rules = morrigo_rules::load_rules("nine-mens-morris").unwrap();
//! let any = morrigo_engine::AnyMachine::new(Arc::new(rules)).unwrap();
//! let report = simulate(&any, &SimConfig::new(1000, 42), None);
//! println!("{}", compare_table(&[report], Format::Markdown));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod agent;
mod bench;
mod counters;
mod crossing;
mod games;
pub mod ladder;
mod mcts;
mod moves;
mod ownership;
mod perfect;
mod playout;
pub mod progress;
mod search;
mod seeds;
mod sim;
mod spec;
mod stats;
mod table;

pub use agent::{danger, root_moves, Player};
pub use bench::{
    bench_mcts, bench_mcts_with, bench_perft, bench_playouts, bench_playouts_on,
    bench_playouts_with, bench_search, bench_search_with, BenchResult, PerftBench, SearchBench,
};
pub use counters::{CountPlan, RuleEvent};
pub use crossing::dead_stones;
pub use games::{play_games, GameSum, PlayedGame};
pub use mcts::{fills_own_eye, playout_move, Mcts, MCTS_PLAYOUT_PLIES};
pub use morrigo_engine::Unit;
pub use moves::loses_at_once;
pub use ownership::{dead_chains, ownership, Ownership};
pub use perfect::{database, prepare_agents, ON_THE_FLY_MEMORY};
pub use playout::{playout, playout_counted, playout_with, GameRecord};
pub use progress::Progress;
pub use search::{evaluate, AlphaBeta, EvalWeights, SearchInfo, TT_ENTRIES, WIN};
pub use seeds::{game_rng, splitmix64};
pub use sim::{
    default_pairings, play_game, simulate, simulate_until, EndOutcome, ReportHeader, SimConfig,
    SimReport, DEFAULT_MAX_PLIES,
};
pub use spec::{AgentSpec, AlphaBetaParams, MctsParams, PerfectParams, AGENT_NAMES};
pub use stats::{wilson, LengthStats, Z95};
pub use table::{compare_table, compare_table_by, Format};

/// Load a ruleset (path or built-in name) and compile its machine; errors
/// come back as display text.
pub fn machine(spec: &str) -> Result<morrigo_engine::AnyMachine, String> {
    machine_with(spec, &morrigo_rules::load::Overrides::default())
}

/// [`machine`] with command-line style overrides (board size, komi), e.g.
/// `chinese` on 9×9.
pub fn machine_with(
    spec: &str,
    overrides: &morrigo_rules::load::Overrides,
) -> Result<morrigo_engine::AnyMachine, String> {
    let rules = morrigo_rules::load_rules_with(spec, overrides).map_err(|d| d.to_string())?;
    morrigo_engine::AnyMachine::new(std::sync::Arc::new(rules)).map_err(|d| d.to_string())
}
