//! One module per subcommand: its arguments (with help text) and `run`.

pub mod bench;
pub mod check;
pub mod compare;
pub mod completions;
pub mod gtp;
pub mod gtp_match;
pub mod ladder;
pub mod perft;
pub mod play;
pub mod replay;
pub mod rulesets;
pub mod serve;
pub mod show;
pub mod sim_args;
pub mod simulate;
pub mod solve;
pub mod solve_args;
pub mod solve_db;
pub mod solve_history;
pub mod solve_layers;
pub mod solve_suite;
pub mod solve_text;
pub mod states;
pub mod sweep;
pub mod test;
