//! The ruleset loader's integration tests, one module per subject, in one
//! test binary (linked once instead of once per file): compilation, located
//! refusals, the `eval:` and `playout.shapes` sections, the JSON Schema.

mod compile;
mod errors;
mod eval;
mod schema;
mod shapes;
