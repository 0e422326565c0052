//! The playground's integration tests, one module per subject, in one test
//! binary (linked once instead of once per file): the API through the
//! router, the database, the safety guards and the socket timeouts. Two
//! files stay binaries of their own, because what they test is the whole
//! process: `tests/memory.rs` (the resident memory, which other tests
//! running beside it would grow) and `tests/save_fault.rs` (the injected
//! write budget, read once per process, which would fail the other tests'
//! writes).

mod api;
mod database;
mod safety;
mod timeouts;
