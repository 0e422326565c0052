//! The play crate's integration tests, one module per subject, in one test
//! binary: linked once instead of once per file (11 files), each of which
//! linked the whole dependency tree and instantiated the generic engine
//! again. Agents, their searches, simulation outcomes and comparison tables.

mod common;

mod agent_play;
mod agents;
mod alphabeta_search;
mod eval_section;
mod events;
mod go;
mod ladder;
mod mcts_search;
mod root_safety;
mod simulation;
mod table;
mod varied_games;
