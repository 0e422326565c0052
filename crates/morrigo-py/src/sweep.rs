//! Sweeps from Python: thin functions over morrigo-sweep for the Ray driver
//! in `morrigo/sweep.py`. The plan travels as its JSON text (what a Ray task
//! receives), shards are played without the GIL and written whole by
//! morrigo-sweep, so a worker killed mid-shard leaves no file behind.

use crate::errors::{ruleset_error, SweepError};
use morrigo_diag::{Diagnostic, Diagnostics};
use morrigo_sweep::{Plan, Spec};
use pyo3::prelude::*;
use std::path::PathBuf;

fn sweep_error(d: Diagnostic) -> PyErr {
    SweepError::new_err(d.to_string())
}

fn plan_of(plan_json: &str) -> PyResult<Plan> {
    serde_json::from_str(plan_json)
        .map_err(|e| SweepError::new_err(format!("not a sweep plan: {e}")))
}

/// Read a sweep spec (YAML) and split it into shards: the plan as JSON.
///
/// Raises :class:`RulesetError` (located) for a bad spec or ruleset.
#[pyfunction]
pub fn sweep_plan(py: Python<'_>, spec_path: PathBuf) -> PyResult<String> {
    let spec = py
        .detach(move || Spec::read(&spec_path))
        .map_err(ruleset_error)?;
    serde_json::to_string(&morrigo_sweep::plan(&spec))
        .map_err(|e| SweepError::new_err(format!("cannot write the plan: {e}")))
}

/// Create the results directory and write the plan there, or check that the
/// plan there is this one. Raises :class:`SweepError` otherwise.
#[pyfunction]
pub fn sweep_prepare(plan_json: &str, dir: PathBuf) -> PyResult<()> {
    morrigo_sweep::prepare_dir(&plan_of(plan_json)?, &dir).map_err(sweep_error)
}

/// For each shard of the plan, whether its file is in the results directory.
/// Each file there is read and checked: a damaged one raises
/// :class:`SweepError` naming it (delete it to play the shard again).
#[pyfunction]
pub fn sweep_finished(py: Python<'_>, plan_json: &str, dir: PathBuf) -> PyResult<Vec<bool>> {
    let plan = plan_of(plan_json)?;
    py.detach(move || morrigo_sweep::check_finished(&plan, &dir))
        .map_err(|ds| SweepError::new_err(ds.to_string()))
}

/// Play shard ``k`` of the plan (without the GIL) and write its file whole
/// to the results directory. Returns the number of games played.
#[pyfunction]
pub fn sweep_run_shard(py: Python<'_>, plan_json: &str, k: usize, dir: PathBuf) -> PyResult<usize> {
    let plan = plan_of(plan_json)?;
    if k >= plan.shard_count() {
        return Err(SweepError::new_err(format!(
            "no shard {k}: the plan has {} shards (0 to {})",
            plan.shard_count(),
            plan.shard_count().saturating_sub(1)
        )));
    }
    enum Failed {
        Rules(Diagnostics),
        Write(Diagnostic),
    }
    py.detach(move || {
        let result = morrigo_sweep::run_shard(&plan, k).map_err(Failed::Rules)?;
        morrigo_sweep::write_shard(&dir, &result).map_err(Failed::Write)?;
        Ok(result.rows.len())
    })
    .map_err(|f| match f {
        Failed::Rules(ds) => ruleset_error(ds),
        Failed::Write(d) => sweep_error(d),
    })
}

/// The merged results of a directory as JSON: ``{"reports": [...],
/// "missing": [...]}``, one report (``morrigo compare``'s) per cell whose
/// shards are all finished, and the shards with no file yet.
#[pyfunction]
pub fn sweep_collect_json(py: Python<'_>, dir: PathBuf) -> PyResult<String> {
    let collected = py
        .detach(move || morrigo_sweep::collect(&dir))
        .map_err(sweep_error)?;
    let out = serde_json::json!({
        "name": collected.plan.spec().name,
        "reports": collected.reports,
        "missing": collected.missing,
        "shards": collected.plan.shard_count(),
    });
    Ok(out.to_string())
}
