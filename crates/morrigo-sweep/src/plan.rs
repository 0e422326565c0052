//! A sweep split into shards: deterministic, seeded, independent units of
//! work. Game `i` of a cell is played with the generator
//! `game_rng(seed, i)` whichever shard, process or machine plays it, so any
//! schedule, retry or split gives the games a single `simulate` (or
//! `compare`) with the same seed gives.

use crate::spec::{Cell, Spec};
use morrigo_play::SimConfig;
use serde::{Deserialize, Serialize};

/// The plan's format number, written in the manifest.
pub const PLAN_FORMAT: u32 = 1;

/// Games `start..end` of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub cell: usize,
    pub start: u32,
    pub end: u32,
}

impl Shard {
    pub fn games(&self) -> u32 {
        self.end - self.start
    }
}

/// Every shard of a sweep. Serialized as the results directory's manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub format: u32,
    pub spec: Spec,
    /// Shard `k` is `shards[k]`: cells in order, games in order.
    pub shards: Vec<Shard>,
}

/// Split a spec into shards of at most `spec.shard_games` games.
pub fn plan(spec: &Spec) -> Plan {
    let mut shards = Vec::new();
    for cell in 0..spec.cells.len() {
        let mut start = 0;
        while start < spec.games {
            let end = start.saturating_add(spec.shard_games).min(spec.games);
            shards.push(Shard { cell, start, end });
            start = end;
        }
    }
    Plan {
        format: PLAN_FORMAT,
        spec: spec.clone(),
        shards,
    }
}

impl Plan {
    pub fn cell(&self, shard: usize) -> Option<&Cell> {
        self.shards
            .get(shard)
            .and_then(|s| self.spec.cells.get(s.cell))
    }

    /// The simulation a cell's games belong to: the same as `simulate`
    /// with the spec's games, seed and ply cap.
    pub fn config(&self, cell: &Cell) -> SimConfig {
        SimConfig {
            games: self.spec.games,
            seed: self.spec.seed,
            max_plies: self.spec.max_plies,
            agents: cell.agents,
            threads: None,
        }
    }

    pub fn total_games(&self) -> u64 {
        self.shards.iter().map(|s| u64::from(s.games())).sum()
    }
}
