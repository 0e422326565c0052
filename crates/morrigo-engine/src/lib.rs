//! The generic Morrigo state machine.
//!
//! [`Machine`] is a ruleset compiled to bitset tables for boards of up to
//! `64 * W` points; [`AnyMachine`] picks the narrowest width for a board, and
//! width-generic code runs on it through [`with_machine!`]. Front ends use
//! the width-erased API of [`game`] ([`Game`], [`GameState`], [`Setup`],
//! [`game::Move`]); the machine itself is for the hot loops.
//!
//! The modules form layers (plain data and rule tables, the machine's
//! types, its behaviour by concern, building it from a ruleset); the doc
//! of `machine.rs` describes them.

#![warn(missing_docs)]
// Unsafe code only where an item allows it (FFI, an allocator, atomics
// over a buffer), each with its reason.
#![deny(unsafe_code)]

mod apply;
mod benson;
mod bits;
mod build;
mod captures;
mod chains;
mod choose;
mod compiled;
mod end_rules;
mod estimate;
mod eval;
mod explain;
pub mod game;
mod grid;
mod history;
mod legality;
mod line_values;
mod machine;
pub mod memory;
mod mills;
mod move_values;
mod movegen;
mod moves;
pub mod notation;
mod perft;
mod phase_lines;
mod ply_log;
mod records;
mod scoring;
mod states;
mod tables;
mod turns;

pub use benson::Life;
pub use bits::Bits;
pub use chains::PlayEffect;
pub use estimate::{estimate_leaves, ESTIMATE_PATHS};
pub use explain::{explain, refusal, Refusal};
pub use game::{Game, GameState, Owner, Setup, SetupError};
pub use legality::Illegal;
pub use machine::{Machine, Position, State, Undo};
pub use moves::{DecidedBy, Move, MoveKind, Outcome, Point, Sample, NO_POINT};
pub use perft::{perft, perft_divide, perft_to_end, GameEnds, Unit};
pub use scoring::winner;
pub use states::{
    count_states, count_states_with, count_states_within, StateCount, StatesProgress,
    PROGRESS_EVERY,
};

use morrigo_rules::Rules;
use std::sync::Arc;

/// A machine of the width the board needs.
#[derive(Debug)]
pub enum AnyMachine {
    /// Up to 64 points (Morris boards, 8×8).
    W1(Machine<1>),
    /// Up to 128 points (9×9 Go).
    W2(Machine<2>),
    /// Up to 256 points (13×13 Go).
    W4(Machine<4>),
    /// Up to 384 points (19×19 Go).
    W6(Machine<6>),
    /// Up to [`MAX_POINTS`] points (25×25 Go).
    W10(Machine<10>),
}

/// Largest board the engine compiles (25×25 Go); `check` refuses larger ones.
pub use morrigo_rules::MAX_POINTS;

impl AnyMachine {
    /// Compile `rules` into a machine of the narrowest width that holds its
    /// board; a board of more than [`MAX_POINTS`] points is refused.
    pub fn new(rules: Arc<Rules>) -> Result<Self, morrigo_diag::Diagnostic> {
        let n = rules.topology.len();
        Ok(match n {
            0..=64 => AnyMachine::W1(Machine::new(rules)),
            65..=128 => AnyMachine::W2(Machine::new(rules)),
            129..=256 => AnyMachine::W4(Machine::new(rules)),
            257..=384 => AnyMachine::W6(Machine::new(rules)),
            385..=MAX_POINTS => AnyMachine::W10(Machine::new(rules)),
            _ => {
                return Err(morrigo_diag::Diagnostic::new(format!(
                    "a board of {n} points is too large"
                ))
                .expected(format!("at most {MAX_POINTS} points")))
            }
        })
    }

    /// The ruleset the machine was compiled from.
    pub fn rules(&self) -> &Arc<Rules> {
        with_machine!(self, m => &m.rules)
    }
}

/// Run width-generic code on an [`AnyMachine`]: `with_machine!(any, m => body)`.
#[macro_export]
macro_rules! with_machine {
    ($any:expr, $m:ident => $body:expr) => {
        match $any {
            $crate::AnyMachine::W1($m) => $body,
            $crate::AnyMachine::W2($m) => $body,
            $crate::AnyMachine::W4($m) => $body,
            $crate::AnyMachine::W6($m) => $body,
            $crate::AnyMachine::W10($m) => $body,
        }
    };
}
