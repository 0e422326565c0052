//! The sector solver from Python: thin functions over morrigo-sector for
//! the Ray driver in `morrigo/_sectors.py`. The plan is morrigo-sector's
//! (`sector_plan`, the order `solve_sectors` solves in, each sector with
//! the planned ones it reads); a task solves one sector without the GIL,
//! into a database directory of sealed unit files written whole, so a
//! worker killed mid-sector leaves no file and a rerun reads back what is
//! finished. Results travel as JSON text.

use crate::errors::{ruleset_error, solve_error};
use morrigo_engine::memory;
use morrigo_engine::Machine;
use morrigo_sector::{GameTable, SectorError, SectorStats, Solver};
use morrigo_solve::Value;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{json, Value as Json};
use std::path::PathBuf;

/// The sector solver's machine for `ruleset` (a built-in name or a YAML
/// file): `RulesetError` when it does not load, `SolveError` (with the
/// reason) when the sector solver does not handle it.
fn machine(ruleset: &str) -> PyResult<Machine<1>> {
    let rules = morrigo_rules::load_rules(ruleset).map_err(ruleset_error)?;
    morrigo_sector::solver_machine(&rules).map_err(|why| {
        solve_error(
            format!("{}: the sector solver does not apply: {why}", rules.name),
            &why,
        )
    })
}

fn sector_error(name: &str, e: SectorError) -> PyErr {
    let why = e.to_string();
    solve_error(format!("{name}: {why}"), &why)
}

/// The memory the solve may hold: `max_memory` bytes, else (when nothing
/// set one before in this process) the memory available on the machine,
/// as `morrigo-sector` takes it. Past a third of it, units no longer read
/// are dropped and read back from their files when needed.
fn budget(max_memory: Option<u64>) {
    match max_memory {
        Some(bytes) => memory::set_limit(bytes, "max_memory"),
        None if memory::limit().0 == u64::MAX => {
            let (bytes, source) = memory::default_limit();
            memory::set_limit(bytes, source);
        }
        None => {}
    }
}

/// One unit's counts, as `morrigo-sector` prints them.
fn stats_json(s: &SectorStats) -> Json {
    json!({
        "sector": s.sector().to_string(),
        "w": s.w,
        "b": s.b,
        "in_hand": s.in_hand,
        "halves": s.halves,
        "orbits": s.orbits,
        "positions": s.positions,
        "wins": s.wins,
        "losses": s.losses,
        "draws": s.draws,
        "longest_win": s.longest_win,
        "digest": format!("{:08x}", s.digest),
        "loaded": s.loaded,
        "millis": s.millis,
    })
}

/// The moving-phase sectors of at most ``max_pieces`` a side (and at
/// least ``min_pieces``) that fit on the board, in the order
/// ``morrigo-sector solve-sectors`` solves them, as JSON: ``{"ruleset",
/// "points", "colour_swap", "min_pieces", "max_pieces", "sectors": [{"w",
/// "b", "after": [[w, b], ...]}, ...]}``, ``after`` the planned sectors
/// each reads (one piece fewer; its colour-swapped twin when it is read
/// off it, which comes later in the order).
///
/// Raises :class:`RulesetError` for a ruleset that does not load,
/// :class:`SolveError` for one the sector solver does not handle.
#[pyfunction]
#[pyo3(signature = (ruleset, max_pieces, min_pieces = 0))]
pub fn sector_plan(ruleset: &str, max_pieces: u32, min_pieces: u32) -> PyResult<String> {
    if min_pieces > max_pieces {
        return Err(PyValueError::new_err(format!(
            "min_pieces {min_pieces} is more than max_pieces {max_pieces}"
        )));
    }
    let m = machine(ruleset)?;
    let sectors: Vec<Json> = morrigo_sector::sector_plan(&m, min_pieces, max_pieces)
        .iter()
        .map(|p| {
            let after: Vec<[u32; 2]> = p.after.iter().map(|c| c.on_board).collect();
            json!({"w": p.sector.on_board[0], "b": p.sector.on_board[1], "after": after})
        })
        .collect();
    let colour_swap = morrigo_sector::colour_blind(&m.rules, m.plain_turns());
    Ok(json!({
        "ruleset": m.rules.name,
        "points": m.points(),
        "colour_swap": colour_swap,
        "min_pieces": min_pieces,
        "max_pieces": max_pieces,
        "sectors": sectors,
    })
    .to_string())
}

/// Solve moving-phase sector ``w``-``b`` (without the GIL) into the
/// database directory ``db``, reading back each unit that already has its
/// file there (the sector itself, if finished, costs only that read) and
/// solving any lower one it reaches that has none. Returns the JSON list
/// of the units solved or read back, in order, each with ``sector``,
/// ``w``, ``b``, ``in_hand``, ``halves``, ``orbits``, ``positions``,
/// ``wins``, ``losses``, ``draws``, ``longest_win``, ``digest`` (hex),
/// ``loaded`` (read back rather than solved) and ``millis``.
///
/// ``max_memory`` (bytes) bounds the units held in memory; by default the
/// memory available on the machine.
#[pyfunction]
#[pyo3(signature = (ruleset, db, w, b, max_memory = None))]
pub fn sector_solve(
    py: Python<'_>,
    ruleset: &str,
    db: PathBuf,
    w: u32,
    b: u32,
    max_memory: Option<u64>,
) -> PyResult<String> {
    let m = machine(ruleset)?;
    let name = m.rules.name.clone();
    if u64::from(w) + u64::from(b) > m.points() as u64 {
        return Err(solve_error(
            format!(
                "{name}: sector {w}-{b} does not fit the board's {} points",
                m.points()
            ),
            &format!(
                "{} pieces on {} points",
                u64::from(w) + u64::from(b),
                m.points()
            ),
        ));
    }
    budget(max_memory);
    let log = py
        .detach(move || -> Result<Vec<SectorStats>, SectorError> {
            let mut s = Solver::new(&m, Some(&db))?;
            s.solve(w, b)?;
            Ok(std::mem::take(&mut s.log))
        })
        .map_err(|e| sector_error(&name, e))?;
    Ok(Json::Array(log.iter().map(stats_json).collect()).to_string())
}

/// Solve the whole game from its start (without the GIL) into ``db``, as
/// ``morrigo solve RULESET --db DIR`` does: the moving-phase sectors read
/// back from their files (any missing solved), the units with pieces in
/// hand solved and written, then ``game.tbl`` (read back instead when it
/// is there). One solve at a time writes a directory (``game.lock``).
/// Returns JSON: ``{"ruleset", "to_move"`` (the player to move at the
/// start), ``"outcome"`` (``win``, ``loss`` or ``draw`` for that player),
/// ``"plies"`` (to the win or loss, null for a draw), ``"placing_units",
/// "moving_units", "values", "units"`` (the units solved or read back on
/// the way, as :func:`sector_solve` lists them; none when ``game.tbl`` is
/// read back)``}``.
#[pyfunction]
#[pyo3(signature = (ruleset, db, max_memory = None))]
pub fn game_solve(
    py: Python<'_>,
    ruleset: &str,
    db: PathBuf,
    max_memory: Option<u64>,
) -> PyResult<String> {
    let m = machine(ruleset)?;
    let name = m.rules.name.clone();
    let players = m.rules.players.clone();
    budget(max_memory);
    let (value, sizes, to_move, log) = py
        .detach(move || -> Result<_, SectorError> {
            let mut log = Vec::new();
            let t = GameTable::solve_with(&m, Some(&db), |s| log.push(*s))?;
            let to_move = m.initial().pos.to_move;
            Ok((t.start_value(), t.sizes(), to_move, log))
        })
        .map_err(|e| sector_error(&name, e))?;
    let (outcome, plies) = match value {
        Value::Win(d) => ("win", Some(d)),
        Value::Loss(d) => ("loss", Some(d)),
        Value::Draw => ("draw", None),
    };
    let player = players
        .get(usize::from(to_move))
        .cloned()
        .unwrap_or_else(|| format!("player {to_move}"));
    Ok(json!({
        "ruleset": name,
        "to_move": player,
        "outcome": outcome,
        "plies": plies,
        "placing_units": sizes.placing_units,
        "moving_units": sizes.moving_units,
        "values": sizes.values,
        "units": log.iter().map(stats_json).collect::<Vec<_>>(),
    })
    .to_string())
}
