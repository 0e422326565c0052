//! Sweeps: many rulesets × params × agent pairings × games, split into
//! seeded shards that run anywhere (threads here, Ray tasks on a cluster),
//! each written to a results directory when finished, merged into the
//! report `compare` prints. Results never depend on the schedule: game `i`
//! of a cell is game `i` of `simulate` with the sweep's seed.
//!
//! The API is plain functions over serializable data, for a driver in
//! another language (the Python package's Ray tasks):
//!
//! ```no_run
//! use morrigo_sweep::{collect, plan, prepare_dir, run_shard, write_shard, Spec};
//! let spec = Spec::read("rulesets/sweeps/flying.yaml".as_ref()).unwrap();
//! let plan = plan(&spec);
//! let dir = std::path::Path::new("results");
//! prepare_dir(&plan, dir).unwrap();
//! for k in 0..plan.shard_count() {
//!     write_shard(dir, &run_shard(&plan, k).unwrap()).unwrap();
//! }
//! let merged = collect(dir).unwrap();
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod layered;
mod plan;
mod run;
mod spec;

pub use plan::{plan, Plan, Shard, PLAN_FORMAT};
pub use run::{
    check_finished, collect, finished, prepare_dir, read_plan, read_shard, run_shard,
    run_shard_with, shard_path, write_shard, Collected, GameRow, Machines, ShardResult, MANIFEST,
};
pub use spec::{
    Cell, Param, Spec, DEFAULT_SHARD_GAMES, MAX_CELLS, MAX_GAMES, MAX_SHARDS, MAX_SHARD_GAMES,
};
