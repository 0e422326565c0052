//! `morrigo._native`: the Rust half of the `morrigo` Python package.
//!
//! Everything here calls the engine's crates (loading and compiling in
//! morrigo-rules, apply/undo/explain/notation/perft in morrigo-engine,
//! agents and playouts in morrigo-play, transcripts in morrigo-record,
//! sweeps in morrigo-sweep, sector solves in morrigo-sector): no rule is
//! implemented twice. The pure-Python half (`python/morrigo/`) adds
//! the record flattening for pandas and the PettingZoo and Gymnasium
//! environments.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod compiled;
mod errors;
mod game;
mod history;
mod layout;
mod observation;
mod position;
mod sectors;
mod sim;
mod state;
mod sweep;

use compiled::{load_core, size_of, PyGame};
use errors::{ruleset_error, IllegalMoveError, RulesetError, SolveError, SweepError};
use morrigo_rules::load::Overrides;
use pyo3::prelude::*;
use std::sync::Arc;

/// Load and compile a ruleset: a built-in name (``"nine-mens-morris"``), a
/// path to a YAML file, or the YAML text itself. ``size`` (``9``,
/// ``"7x5"`` or ``(7, 5)``) and ``komi`` change a grid board's size and the
/// komi, as ``--size``/``--komi`` do on the command line.
///
/// Raises :class:`RulesetError` (with ``file``, ``line``, ``column``) when
/// the ruleset has an error.
#[pyfunction]
#[pyo3(signature = (ruleset, size = None, komi = None))]
fn load(ruleset: &str, size: Option<&Bound<'_, PyAny>>, komi: Option<f64>) -> PyResult<PyGame> {
    let overrides = Overrides {
        size: size_of(size)?,
        komi,
    };
    let core = load_core(ruleset, &overrides).map_err(ruleset_error)?;
    Ok(PyGame {
        core: Arc::new(core),
    })
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(game::rulesets, m)?)?;
    m.add_function(wrap_pyfunction!(sim::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(sim::simulate_report_json, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_plan, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_prepare, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_finished, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_run_shard, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_collect_json, m)?)?;
    m.add_function(wrap_pyfunction!(sectors::sector_plan, m)?)?;
    m.add_function(wrap_pyfunction!(sectors::sector_solve, m)?)?;
    m.add_function(wrap_pyfunction!(sectors::game_solve, m)?)?;
    m.add_class::<PyGame>()?;
    m.add_class::<state::PyState>()?;
    m.add_class::<state::PyMove>()?;
    m.add_class::<sim::PyAgent>()?;
    m.add("RulesetError", py.get_type::<RulesetError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("SweepError", py.get_type::<SweepError>())?;
    m.add("SolveError", py.get_type::<SolveError>())?;
    Ok(())
}
