//! A sweep split into shards: deterministic, seeded, independent units of
//! work. Game `i` of a cell is played with the generator
//! `game_rng(seed, i)` whichever shard, process or machine plays it, so any
//! schedule, retry or split gives the games a single `simulate` (or
//! `compare`) with the same seed gives.
//!
//! The plan lists no shard: shard `k` is computed from the spec's counts
//! (cells, games, games per shard), so the plan grows with the cells, never
//! with the games or the shards.

use crate::spec::{shards_per_cell, Cell, Spec, MAX_CELLS, MAX_GAMES, MAX_SHARDS, MAX_SHARD_GAMES};
use morrigo_play::SimConfig;
use serde::{Deserialize, Serialize};

/// The plan's format number, written in the manifest. Format 1 listed
/// every shard; format 2 derives them from the spec.
pub const PLAN_FORMAT: u32 = 2;

/// Games `start..end` of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// The cell, by its index in the spec's cells.
    pub cell: usize,
    /// Number in the cell of the shard's first game.
    pub start: u32,
    /// Number in the cell of the game after its last.
    pub end: u32,
}

impl Shard {
    /// Games in the shard.
    pub fn games(&self) -> u32 {
        self.end - self.start
    }
}

/// Every shard of a sweep, derived from its spec. Serialized as the
/// results directory's manifest: `{"format":2,"spec":…,"shards":N}`; a
/// plan read back is checked (format, limits, shard count) before use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "PlanFile", into = "PlanFile")]
pub struct Plan {
    spec: Spec,
    per_cell: u32,
    shards: usize,
}

/// The plan as written: the shard count is there for readers (Python, jq),
/// and checked against the spec when read.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanFile {
    format: u32,
    spec: Spec,
    shards: u64,
}

impl From<Plan> for PlanFile {
    fn from(p: Plan) -> Self {
        PlanFile {
            format: PLAN_FORMAT,
            shards: p.shards as u64,
            spec: p.spec,
        }
    }
}

impl TryFrom<PlanFile> for Plan {
    type Error = String;

    fn try_from(f: PlanFile) -> Result<Self, String> {
        if f.format != PLAN_FORMAT {
            return Err(format!(
                "it is a plan of format {}, this Morrigo reads format {PLAN_FORMAT}",
                f.format
            ));
        }
        let plan = Plan::new(f.spec)?;
        if plan.shards as u64 != f.shards {
            return Err(format!(
                "it says {} shards, its spec makes {}",
                f.shards, plan.shards
            ));
        }
        Ok(plan)
    }
}

/// Split a spec into shards of at most `spec.shard_games` games. A spec
/// from [`Spec::parse`] is within the limits; see [`Plan::new`] for others.
pub fn plan(spec: &Spec) -> Plan {
    Plan::new(spec.clone()).expect("a parsed spec is within the sweep limits")
}

impl Plan {
    /// The plan of a spec, or why the spec is outside the sweep limits
    /// (counts multiplied with checked arithmetic: nothing is built first).
    pub fn new(spec: Spec) -> Result<Plan, String> {
        if spec.cells.is_empty() || spec.cells.len() > MAX_CELLS {
            return Err(format!(
                "its spec has {} cells, expected 1 to {MAX_CELLS}",
                spec.cells.len()
            ));
        }
        if spec.games == 0 || spec.shard_games == 0 {
            return Err("its spec has 0 games or 0 games per shard".into());
        }
        let games = u64::from(spec.games);
        let total = (spec.cells.len() as u64).checked_mul(games);
        if total.is_none_or(|t| t > MAX_GAMES) {
            return Err(format!("its spec has more than {MAX_GAMES} games"));
        }
        if spec.shard_games.min(spec.games) > MAX_SHARD_GAMES {
            return Err(format!(
                "its spec has shards of more than {MAX_SHARD_GAMES} games"
            ));
        }
        let per_cell = shards_per_cell(games, u64::from(spec.shard_games));
        let shards = (spec.cells.len() as u64)
            .checked_mul(per_cell)
            .filter(|&s| s <= MAX_SHARDS)
            .ok_or_else(|| format!("its spec makes more than {MAX_SHARDS} shards"))?;
        Ok(Plan {
            spec,
            // per_cell <= games, a u32.
            per_cell: per_cell as u32,
            shards: shards as usize,
        })
    }

    /// The spec the plan was made from.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// How many shards: cells × ⌈games / shard_games⌉.
    pub fn shard_count(&self) -> usize {
        self.shards
    }

    /// Shard `k`: cells in order, each cell's games in order.
    pub fn shard(&self, k: usize) -> Option<Shard> {
        if k >= self.shards {
            return None;
        }
        let per_cell = self.per_cell as usize;
        let (cell, i) = (k / per_cell, (k % per_cell) as u64);
        let start = i * u64::from(self.spec.shard_games);
        let end = (start + u64::from(self.spec.shard_games)).min(u64::from(self.spec.games));
        // start < end <= games, a u32.
        Some(Shard {
            cell,
            start: start as u32,
            end: end as u32,
        })
    }

    /// Every shard, in order.
    pub fn shards(&self) -> impl Iterator<Item = Shard> + '_ {
        (0..self.shards).map(|k| self.shard(k).expect("k < shard_count"))
    }

    /// The cell whose games shard `shard` plays (`None` past the last shard).
    pub fn cell(&self, shard: usize) -> Option<&Cell> {
        self.shard(shard).and_then(|s| self.spec.cells.get(s.cell))
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

    /// Games of the whole sweep: cells × games.
    pub fn total_games(&self) -> u64 {
        self.spec.cells.len() as u64 * u64::from(self.spec.games)
    }
}
