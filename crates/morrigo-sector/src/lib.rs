//! Sector retrograde analysis for Morris-family rulesets, at full size.
//!
//! [`morrigo_solve`] keeps an explicit list of moves per position and
//! ignores the board's symmetries; that costs 4–12 bytes a move and 16×
//! the positions on a Nine Men's Morris board. This crate solves the
//! moving phase one *sector* at a time instead (pieces on the board per
//! player; both sides to move are solved together, since a slide changes
//! only the side to move), with
//!
//! - the board's symmetry group computed from the board graph, its lines
//!   and the points the rules name ([`symmetry`]), so each orbit of
//!   positions is stored once;
//! - positions indexed by combinatorial rank and a dense orbit index
//!   ([`index`]), no hash tables;
//! - predecessors regenerated from the compiled rules (un-moves, [`unmove`]),
//!   never stored: one value (u16) and one counter (u8) per orbit in memory
//!   for the sector being solved;
//! - lower sectors (fewer pieces, reached by removals) read from sealed
//!   files, one per sector, written atomically, so a killed run resumes
//!   at the first unfinished sector ([`solver`]).
//!
//! Nothing here names a game: every rule is read from the compiled ruleset
//! through the engine.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod game;
pub mod index;
pub mod opening;
pub mod solver;
pub use morrigo_solve::symmetry;
pub mod unmove;

pub use game::GameTable;
pub use index::{Binomial, SectorIndex};
pub use solver::{
    sector_plan, solve_sectors, solve_units, unit_plan, PlannedSector, SectorError, SectorStats,
    Solver,
};
pub use symmetry::{colour_blind, symmetries, Symmetry};
pub use unmove::{supported, Board, Moves, Sector};

/// The machine the sector solver runs on for `rules`: the reason, when
/// [`supported`] refuses them; else built from
/// [`morrigo_solve::solver_rules`] (the history draw rules left out, as in
/// the published Morris solutions).
pub fn solver_machine(rules: &morrigo_rules::Rules) -> Result<morrigo_engine::Machine<1>, String> {
    supported(rules)?;
    Ok(morrigo_engine::Machine::<1>::new(std::sync::Arc::new(
        morrigo_solve::solver_rules(rules),
    )))
}
