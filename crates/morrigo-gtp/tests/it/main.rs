//! The GTP crate's integration tests, one module per subject, in one test
//! binary (linked once instead of once per file): the engine against the
//! standard and recorded sessions (`tests/sessions/`, snapshots in
//! `tests/it/snapshots/`), `--plain-passes`, and the referee's dead-stone
//! protocol against scripted engines.

mod dead_stones;
mod plain_passes;
mod standard;
mod transcripts;
