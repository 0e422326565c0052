//! The Python exceptions: a bad ruleset (`RulesetError`, located), a
//! refused move (`IllegalMoveError`, naming the rule that refuses it), a
//! sweep (`SweepError`) or a sector solve (`SolveError`) that cannot go on.

use morrigo_diag::{Diagnostic, Diagnostics};
use morrigo_engine::Refusal;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pyo3::create_exception!(
    morrigo,
    RulesetError,
    PyValueError,
    "A ruleset that cannot be loaded or compiled.\n\n\
     ``str(e)`` is the full diagnostic as ``morrigo check`` prints it (file, line,\n\
     column, the source line with a caret, what was expected). The first\n\
     diagnostic's parts are attributes: ``file``, ``line``, ``column`` (1-based;\n\
     ``None`` when the error has no place in a file), ``message``, ``expected``,\n\
     ``notes``; ``diagnostics`` lists every diagnostic as a dict with those keys."
);

pyo3::create_exception!(
    morrigo,
    IllegalMoveError,
    PyValueError,
    "A move the rules refuse (or a move text that cannot be read).\n\n\
     Attributes: ``move`` (the move as given), ``reason`` (what is wrong),\n\
     ``rule`` (the text of the rule that refuses it, or ``None``), ``location``\n\
     (``file:line:col`` of that rule in the ruleset, or ``None``), and its parts\n\
     ``file``, ``line``, ``column``."
);

pyo3::create_exception!(
    morrigo,
    SweepError,
    PyRuntimeError,
    "A sweep that cannot go on: a results directory that cannot be written or\n\
     holds another sweep's plan, a shard file that is not what the plan says,\n\
     a Ray cluster address that cannot be attached within the timeout."
);

pyo3::create_exception!(
    morrigo,
    SolveError,
    PyRuntimeError,
    "A sector solve that cannot go on: rules the sector solver does not handle\n\
     (history rules it cannot leave out, captures, more than 64 points), a\n\
     sector that does not fit the board, a unit file that cannot be written or\n\
     is damaged (named: delete it to solve its unit again), a memory budget\n\
     refused. ``reason`` is what is wrong, without the ruleset's name."
);

/// A `SolveError` saying `message`, with `reason` as its attribute.
pub fn solve_error(message: String, reason: &str) -> PyErr {
    Python::attach(|py| {
        let err = SolveError::new_err(message);
        match err.value(py).setattr("reason", reason) {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

fn diagnostic_dict<'py>(py: Python<'py>, d: &Diagnostic) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    let loc = d.location.as_ref();
    out.set_item("file", loc.map(|l| l.file.to_string()))?;
    out.set_item("line", loc.map(|l| l.line))?;
    out.set_item("column", loc.map(|l| l.col))?;
    out.set_item("message", &d.message)?;
    out.set_item("expected", d.expected.as_deref())?;
    out.set_item("notes", d.notes.clone())?;
    out.set_item("text", d.to_string())?;
    Ok(out)
}

/// A `RulesetError` carrying every diagnostic.
pub fn ruleset_error(ds: Diagnostics) -> PyErr {
    Python::attach(|py| {
        let err = RulesetError::new_err(ds.to_string());
        let value = err.value(py);
        let first = ds.0.first().cloned().unwrap_or_else(|| Diagnostic::new(""));
        let set = || -> PyResult<()> {
            let loc = first.location.as_ref();
            value.setattr("file", loc.map(|l| l.file.to_string()))?;
            value.setattr("line", loc.map(|l| l.line))?;
            value.setattr("column", loc.map(|l| l.col))?;
            value.setattr("message", &first.message)?;
            value.setattr("expected", first.expected.as_deref())?;
            value.setattr("notes", first.notes.clone())?;
            let all =
                ds.0.iter()
                    .map(|d| diagnostic_dict(py, d))
                    .collect::<PyResult<Vec<_>>>()?;
            value.setattr("diagnostics", all)?;
            Ok(())
        };
        match set() {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

/// `file:line:col` split into its parts (a file name may hold colons).
pub fn split_location(at: &str) -> (Option<String>, Option<usize>, Option<usize>) {
    let mut parts = at.rsplitn(3, ':');
    let col = parts.next().and_then(|c| c.parse().ok());
    let line = parts.next().and_then(|l| l.parse().ok());
    match (parts.next(), line, col) {
        (Some(file), Some(_), Some(_)) => (Some(file.to_string()), line, col),
        _ => (None, None, None),
    }
}

/// The rule text and its location of a refusal.
pub fn refusal_parts(r: &Refusal) -> (Option<String>, Option<String>) {
    match &r.rule {
        Some((text, at)) => (Some(text.clone()), at.clone()),
        None => (None, None),
    }
}

/// An `IllegalMoveError` for `given` refused with `r`.
pub fn illegal_move(given: &str, r: &Refusal) -> PyErr {
    Python::attach(|py| {
        let err = IllegalMoveError::new_err(format!("cannot play `{given}`: {r}"));
        let (rule, at) = refusal_parts(r);
        let (file, line, col) = at.as_deref().map_or((None, None, None), split_location);
        let value = err.value(py);
        let set = || -> PyResult<()> {
            value.setattr("move", given)?;
            value.setattr("reason", &r.reason)?;
            value.setattr("rule", rule)?;
            value.setattr("location", at)?;
            value.setattr("file", file)?;
            value.setattr("line", line)?;
            value.setattr("column", col)?;
            Ok(())
        };
        match set() {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

/// An `IllegalMoveError` for a move text that cannot be read (an unknown
/// point, a pass the ruleset does not have): the located diagnostic.
pub fn unreadable_move(given: &str, d: &Diagnostic) -> PyErr {
    illegal_move(
        given,
        &Refusal {
            reason: d.to_string(),
            rule: None,
        },
    )
}
