//! Exact values of Go-style rulesets by alpha-beta with a transposition
//! table that is sound under every repetition rule Morrigo compiles.
//!
//! The key holds what the compiled rules read ([`KeySpec`], derived from
//! the rules, never written per ruleset): the board and the player to
//! move, the prisoners where a count or a rule reads them, the move-class
//! window the pass patterns read, the look-back of simple ko and JK
//! Art. 3.2, the stones of a trailing run of ko captures (JK's D), and for
//! superko and board-occurrence rules the capture-epoch skeleton of the
//! path with a guard that keeps path-dependent values out of the table
//! (`path`'s module comment says why that is exact).
//!
//! The plain search of [`crate::history`] stays the reference: the tests
//! compare both on every board and ruleset the plain search finishes.

pub mod keyspec;
mod path;
mod reads;
mod search;
pub mod settled;
mod tt;

pub use crate::history::TtStats;
pub use keyspec::{ClassWindow, KeySpec};
pub use search::{solve_tt, solve_tt_with, TtOptions};
pub use settled::settled_boards_end_lines;
