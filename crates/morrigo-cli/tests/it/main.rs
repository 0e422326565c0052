//! The CLI's integration tests, one module per subject, in one test
//! binary: linked once instead of once per file (34 files), which is most
//! of what a test build of this crate costs. Each module runs `morrigo`
//! (the built binary) on built-in rulesets and the files under `tests/`.

#[macro_use]
mod common;

mod agent_seats;
mod agents;
mod architecture;
mod boards;
mod capture_choice;
mod cli;
mod compare;
mod docs;
mod dsl_classes;
mod dsl_limits;
mod engine_limits;
mod go_family;
mod gtp;
mod gtp_match;
mod inherited_verdicts;
mod input_limits;
mod ladder;
mod language;
mod line_values;
mod loader;
mod long_records;
mod mills;
mod move_values;
mod narrow_counts;
mod phase_lines;
mod progress;
mod records;
mod serve;
mod solve;
mod solve_db;
mod solve_history;
mod solve_layers;
mod sweep;
mod turns;
