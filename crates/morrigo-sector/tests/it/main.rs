//! The sector solver's integration tests, one module per subject, in one
//! test binary (linked once instead of once per file).

mod bin;
mod common;
mod game;
mod index;
mod opening;
mod solver;
mod symmetry;
mod unmove;
