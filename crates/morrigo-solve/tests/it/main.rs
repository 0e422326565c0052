//! The solvers' integration tests, one module per subject, in one test
//! binary (linked once instead of once per file): the retrograde solver
//! against a plain minimax, the table file, the full-history search against
//! the Go reference and the transposition-table search against both.

mod history;
mod minimax;
mod table_file;
mod transpositions;
