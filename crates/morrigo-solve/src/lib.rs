//! Exact solutions of Morris-style rulesets by retrograde analysis.
//!
//! [`retrograde_applies`] says whether a ruleset can be solved this way;
//! [`solver_rules`] drops the draw rules that read the history (what
//! neither side can force is a draw); [`solve`] explores the reachable
//! positions and propagates the values backwards into a [`Table`] of one
//! u16 per position (value and distance), indexed by combinatorial rank.

mod applies;
mod layout;
mod line;
mod solve;
mod table;

pub use applies::{
    history_draw_rules, key_keeps_lines_formed, retrograde_applies, rules_fingerprint, solver_rules,
};
pub use layout::MAX_INDEX;
pub use line::{best_moves, move_values, perfect_line, LineEnd};
pub use solve::{memory_needed, solve, Observer, Quiet, SolveError, Stage, Stats, MAX_DISTANCE};
pub use table::{LoadError, Table, Value};
