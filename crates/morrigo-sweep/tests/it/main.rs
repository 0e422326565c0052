//! The sweep's integration tests, one module per subject, in one test
//! binary (linked once instead of once per file): shards, damaged files,
//! limits and the layered solve. The modules share one process (and its
//! id), so each names its scratch directories apart.

mod damage;
mod layered;
mod limits;
mod shards;
