//! Slow, obviously correct reference implementations of the rules, written
//! independently of the engine's `Machine` so tests can cross-check the two:
//! [`morris`] (placements, slides, flies, lines and removals) and [`go`]
//! (board plays, captures, passes, repetition; also limited hands and lines
//! completed by board plays). Not shipped: only tests depend on this crate.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod go;
pub mod morris;
mod moves;
