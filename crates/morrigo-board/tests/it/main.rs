//! The board crate's integration tests, one module per subject, in one test
//! binary (linked once instead of once per file): generated and lattice
//! boards, explicit boards' validation and diagnostics, ASCII and SVG
//! drawings.

mod common;

mod diagnostics;
mod generators;
mod lattice_boards;
mod render;
mod svg;
mod validation;
