//! `Game`'s Python methods (the type, with loading, is in `compiled.rs`)
//! and :func:`morrigo.rulesets`.

use crate::compiled::{parse_unit, perft_from, PyGame, DEFAULT_MAX_NODES};
use crate::observation::PLANE_NAMES;
use crate::position::Position;
use crate::state::PyState;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The built-in rulesets: dicts with ``name``, ``title``, ``family``
/// (``morris`` or ``go``) and ``path`` (inside the repository).
#[pyfunction]
pub fn rulesets(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    morrigo_rules::builtin::all()
        .iter()
        .map(|b| {
            let d = PyDict::new(py);
            d.set_item("name", b.name)?;
            let title = morrigo_rules::load_rules(b.name)
                .map(|r| r.title)
                .unwrap_or_default();
            d.set_item("title", title)?;
            let family = b
                .path
                .strip_prefix("rulesets/")
                .and_then(|p| p.split_once('/'))
                .map_or("", |(f, _)| f);
            d.set_item("family", family)?;
            d.set_item("path", b.path)?;
            Ok(d)
        })
        .collect()
}

#[pymethods]
impl PyGame {
    /// The ruleset's name (``nine-mens-morris``).
    #[getter]
    fn name(&self) -> String {
        self.core.rules().name.clone()
    }

    /// The ruleset's title (``Nine Men's Morris``).
    #[getter]
    fn title(&self) -> String {
        self.core.rules().title.clone()
    }

    /// The players' names, first to move first (``["white", "black"]``).
    #[getter]
    fn players(&self) -> Vec<String> {
        self.core.rules().players.clone()
    }

    /// The names of the board's points, in point order (the order of
    /// :meth:`State.board`, the observation planes and the action blocks).
    #[getter]
    fn points(&self) -> Vec<String> {
        self.core.rules().topology.names.clone()
    }

    /// Number of points of the board.
    #[getter]
    fn num_points(&self) -> usize {
        self.core.rules().topology.len()
    }

    /// Drawing coordinates of each point, ``(x, y)`` with y up (grid
    /// boards: column and row from 0).
    #[getter]
    fn coords(&self) -> Vec<(i32, i32)> {
        self.core.rules().topology.coords.clone()
    }

    /// Each point's adjacent points (by index).
    #[getter]
    fn neighbours(&self) -> Vec<Vec<u16>> {
        self.core.rules().topology.neighbours.clone()
    }

    /// The board's lines (mills), each a list of point indices.
    #[getter]
    fn lines(&self) -> Vec<Vec<u16>> {
        self.core.rules().topology.lines.clone()
    }

    /// The phases' names, in ruleset order.
    #[getter]
    fn phases(&self) -> Vec<String> {
        self.core
            .rules()
            .phases
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }

    /// The pass kinds' letters (``["P", "E"]`` under JK rules; ``[]`` without passes).
    #[getter]
    fn pass_kinds(&self) -> Vec<String> {
        self.core.rules().passes.names()
    }

    /// Whether the ruleset is Go-style (board plays with captures).
    #[getter]
    fn is_go(&self) -> bool {
        self.core.rules().play.is_some()
    }

    /// Size of the fixed action space (see :attr:`action_blocks`).
    #[getter]
    fn action_size(&self) -> usize {
        self.core.layout.size
    }

    /// The blocks of the action space: ``[(kind, start, length), ...]``
    /// with kind ``drop`` (N: place or board play on a point), ``move``
    /// (N×N: ``from * N + to``; slide, fly or leap), ``remove`` (N) and
    /// ``pass`` (one per pass kind), each present only when the ruleset has
    /// such moves, in that order.
    #[getter]
    fn action_blocks(&self) -> Vec<(&'static str, usize, usize)> {
        self.core.layout.blocks()
    }

    /// Shape of :meth:`State.observation`: ``(planes, points)``.
    #[getter]
    fn observation_shape(&self) -> (usize, usize) {
        (self.core.planes, self.core.rules().topology.len())
    }

    /// The names of the observation planes, in order.
    #[getter]
    fn observation_planes(&self) -> Vec<String> {
        let mut names: Vec<String> = PLANE_NAMES.iter().map(|s| s.to_string()).collect();
        names.extend(
            self.core
                .rules()
                .phases
                .iter()
                .map(|p| format!("phase {}", p.name)),
        );
        names
    }

    /// Shape of :meth:`State.history_observation`: ``(turns, features)``.
    /// ``turns`` is the longest stretch of move-class history any of the
    /// ruleset's patterns (``after('…')``) reads, when all are bounded;
    /// else 8 (no pattern, or one with ``*``, ``+`` or a derived class).
    #[getter]
    fn history_shape(&self) -> (usize, usize) {
        (self.core.history.turns, self.core.history.width)
    }

    /// The names of the history columns, in order (``own turn``, ``kind
    /// drop``, …, ``class N``, …).
    #[getter]
    fn history_features(&self) -> Vec<String> {
        self.core.history.features()
    }

    /// The state at the start of the game.
    fn new_state(&self) -> PyState {
        PyState {
            game: self.core.clone(),
            inner: Position::new(self.core.game.start()),
        }
    }

    /// The move text of an action (``"d1"``, ``"a1-a4"``, ``"xd2"``, ``"pass:E"``).
    fn action_text(&self, action: usize) -> PyResult<String> {
        let intent = self.core.layout.intent(action).ok_or_else(|| {
            PyValueError::new_err(format!(
                "action {action} is outside the action space of {} (0 to {})",
                self.core.rules().name,
                self.core.layout.size.saturating_sub(1)
            ))
        })?;
        let rules = self.core.rules();
        Ok(match intent {
            morrigo_engine::notation::Intent::Pass(k) => {
                morrigo_engine::notation::pass_text(rules, k)
            }
            i => i.format(&rules.topology),
        })
    }

    /// Leaf count of the move tree of ``depth`` plies from the start
    /// (``unit="turn"``: a move and its removals are one level), as
    /// ``morrigo perft`` counts it. A depth whose tree is estimated at more
    /// than ``max_nodes`` leaves is refused (``ValueError``), as the CLI's
    /// ``--max-nodes`` does. Runs without the GIL.
    #[pyo3(signature = (depth, unit = "ply", max_nodes = DEFAULT_MAX_NODES))]
    fn perft(&self, py: Python<'_>, depth: u32, unit: &str, max_nodes: u64) -> PyResult<u64> {
        let unit = parse_unit(unit)?;
        let start = self.core.game.start();
        py.detach(move || perft_from(&start, depth, unit, max_nodes))
            .map_err(PyValueError::new_err)
    }

    /// Every built-in ruleset (see :func:`morrigo.rulesets`).
    #[staticmethod]
    fn rulesets(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
        rulesets(py)
    }

    fn __repr__(&self) -> String {
        let r = self.core.rules();
        format!(
            "<morrigo.Game {} ({}), {} points>",
            r.name,
            r.title,
            r.topology.len()
        )
    }
}
