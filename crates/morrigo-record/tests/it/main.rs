//! The record crate's integration tests in one test binary (linked once
//! instead of once per file): its own regressions and the scenario schema,
//! and the workspace conformance tests kept at the top of the repository
//! beside their data, `tests/scenarios.rs` (every scenario file under
//! `tests/scenarios/`) and `tests/snapshots.rs` (snapshots in
//! `tests/snapshots/`, named without the module path). `scenarios` moves the
//! process into the repository's top directory, so no module here reads a
//! path relative to the current directory.

mod records;
mod schema;

#[path = "../../../../tests/scenarios.rs"]
mod scenarios;
#[path = "../../../../tests/snapshots.rs"]
mod snapshots;
