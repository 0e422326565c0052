//! The tables a [`crate::Machine`] holds and the logs a [`crate::State`]
//! keeps for rules beyond the plain ones, one module per concern. Plain
//! data with their constructors: they import nothing of the machine, so
//! `machine.rs` can hold them and the behaviour module of the same name
//! (an `impl Machine` block) can read them.

pub(crate) mod captures;
pub(crate) mod choose;
pub(crate) mod mills;
pub(crate) mod move_values;
pub(crate) mod phase_lines;
pub(crate) mod turns;
