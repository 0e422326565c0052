//! Exact game values of Morrigo rulesets, by two methods.
//!
//! Retrograde analysis, for rulesets whose legal moves and wins do not read
//! the history (Morris-style): [`retrograde_applies`] says whether a ruleset can be solved this way;
//! [`solver_rules`] drops the draw rules that read the history (what
//! neither side can force is a draw); [`solve`] explores the reachable
//! positions and propagates the values backwards into a [`Table`] of one
//! u16 per position (value and distance), indexed by combinatorial rank.
//!
//! [`history`]: a full-history game-tree search (alpha-beta over the
//! engine's apply/undo) for rulesets whose legality or end rules read the
//! history (ko, superko, JK move classes and D runs, pass patterns), on
//! boards small enough for it to finish; [`go`]: the same search with a
//! transposition table keyed by what the rules read.
//!
//! [`symmetry`]: the board's symmetry group under the rules, shared by the
//! sector solver and the Go search.

#![warn(missing_docs)]
// Unsafe code only where an item allows it (FFI, an allocator, atomics
// over a buffer), each with its reason.
#![deny(unsafe_code)]

mod applies;
pub mod go;
pub mod history;
pub mod layers;
mod layout;
mod line;
mod solve;
pub mod symmetry;
mod table;

pub use applies::{
    history_draw_rules, key_keeps_lines_formed, retrograde_applies, rules_fingerprint, solver_rules,
};
pub use layout::MAX_INDEX;
pub use line::{best_moves, move_values, perfect_line, LineEnd};
pub use solve::{
    memory_needed, probe, solve, Observer, Quiet, SolveError, Stage, Stats, MAX_DISTANCE,
};
pub use table::{LoadError, Table, Value};
