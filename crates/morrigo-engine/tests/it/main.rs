//! The engine's integration tests, one module per subject, in one test
//! binary (linked once instead of once per file): cross-checks against the
//! reference engines, perft, properties, the Go and Morris rules.

mod benson;
mod cross_check;
mod cross_check_go;
mod cross_check_language;
mod game_api;
mod generated_rulesets;
mod go;
mod legality;
mod line_values;
mod long_games;
mod mills;
mod move_values;
mod perft;
mod properties;
mod sample_where;
mod set_up_stones;
mod states_progress;
mod states_turn_keys;
mod tracked_values;
