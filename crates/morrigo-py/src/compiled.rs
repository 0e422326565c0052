//! A compiled ruleset: what every state of a game shares ([`GameCore`]),
//! the `Game` object that holds it ([`PyGame`]; its Python methods are in
//! `game.rs`), loading one (a name, a path or YAML text; the board size a
//! caller gives), and the crossing from the engine's width-erased game
//! API into its width-generic perft for a state ([`perft_from`]; an
//! agent's choice crosses in morrigo-play, `Player::choose_in`).

use crate::history::HistoryLayout;
use crate::layout::Layout;
use crate::observation;
use morrigo_diag::Diagnostics;
use morrigo_engine::{with_machine, Game, GameState, Unit};
use morrigo_rules::load::{self, Overrides};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;

/// What every state of a game shares: the compiled game and the action
/// layout.
#[derive(Debug)]
pub struct GameCore {
    /// The compiled rules, whatever the width the board needs.
    pub game: Game,
    /// The fixed action space.
    pub layout: Layout,
    /// Number of observation planes (see [`observation::planes`]).
    pub planes: usize,
    /// The recent turns an observation shows.
    pub history: HistoryLayout,
}

impl GameCore {
    /// The shared part of `game`.
    pub fn new(game: Game) -> Self {
        let rules = game.rules();
        let layout = Layout::of(rules);
        let planes = observation::plane_count(rules);
        let history = HistoryLayout::of(rules, &layout);
        GameCore {
            game,
            layout,
            planes,
            history,
        }
    }

    /// The compiled rules.
    pub fn rules(&self) -> &morrigo_rules::Rules {
        self.game.rules()
    }
}

/// The board size a caller gives: `9`, `"7x5"` or `(7, 5)`.
pub fn size_of(size: Option<&Bound<'_, PyAny>>) -> PyResult<Option<(u32, u32)>> {
    let Some(obj) = size else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    let text = if let Ok(n) = obj.extract::<i64>() {
        n.to_string()
    } else if let Ok((w, h)) = obj.extract::<(i64, i64)>() {
        format!("{w}x{h}")
    } else if let Ok(t) = obj.extract::<String>() {
        t
    } else {
        return Err(PyValueError::new_err(
            "size must be an int (9), a string (\"7x5\") or a (columns, rows) tuple",
        ));
    };
    Overrides::parse_size(&text)
        .map(Some)
        .map_err(PyValueError::new_err)
}

/// Load and compile a ruleset: a path, a built-in name, or YAML text.
pub fn load_core(spec: &str, overrides: &Overrides) -> Result<GameCore, Diagnostics> {
    let is_named =
        std::path::Path::new(spec).exists() || morrigo_rules::builtin::find(spec).is_some();
    // Text with a line break or a `key:` is a ruleset, not a name.
    let is_text = !is_named && (spec.contains('\n') || spec.contains(": "));
    let rules = if is_text {
        let loaded = load::with_overrides(load::load_text("<ruleset text>", spec)?, overrides)?;
        morrigo_rules::compile(&loaded)?
    } else {
        morrigo_rules::load_rules_with(spec, overrides)?
    };
    let game = Game::new(Arc::new(rules))?;
    Ok(GameCore::new(game))
}

/// A compiled ruleset: its board, players, action space, and states.
///
/// Made by :func:`morrigo.load`. A game is immutable and may be shared
/// between threads; each :class:`State` belongs to the game that made it.
///
/// Its Python methods are in `game.rs`; the type is here, below both
/// `game.rs` and `state.rs`, because each names it (`State.game` returns
/// it) and `game.rs` names `State` (`Game.new_state`).
#[pyclass(name = "Game", module = "morrigo", frozen)]
pub struct PyGame {
    /// What the game's states share (each holds the same `Arc`).
    pub core: Arc<GameCore>,
}

/// The CLI's default `--max-nodes` of `perft`.
pub const DEFAULT_MAX_NODES: u64 = 10_000_000_000;

/// Leaf count of the move tree of `depth` from `s`, as [`bounded_perft`]
/// counts it, on a copy (the state is left as it was): the Python API's
/// one crossing of its own into width-generic code (the agents' is
/// morrigo-play's, `Player::choose_in`).
pub fn perft_from(s: &GameState, depth: u32, unit: Unit, max_nodes: u64) -> Result<u64, String> {
    with_machine!(s.game().machine().as_ref(), m => {
        let (_, s) = s.parts().expect("a state has its game's width");
        bounded_perft(m, &mut s.clone(), depth, unit, max_nodes)
    })
}

/// `perft`, refused when the tree is estimated at more than `max_nodes`
/// leaves (the CLI's check: a count that would run for hours).
pub fn bounded_perft<const W: usize>(
    m: &morrigo_engine::Machine<W>,
    s: &mut morrigo_engine::State<W>,
    depth: u32,
    unit: Unit,
    max_nodes: u64,
) -> Result<u64, String> {
    let estimate = morrigo_engine::estimate_leaves(m, s, depth, unit);
    if estimate > max_nodes as f64 {
        return Err(format!(
            "perft {depth}: the tree has an estimated {estimate:.1e} leaves, more than the limit of {max_nodes} (max_nodes)"
        ));
    }
    Ok(morrigo_engine::perft(m, s, depth, unit))
}

/// A perft `unit` argument: ``"ply"`` or ``"turn"`` (else `ValueError`).
pub fn parse_unit(unit: &str) -> PyResult<Unit> {
    match unit {
        "ply" => Ok(Unit::Ply),
        "turn" => Ok(Unit::Turn),
        other => Err(PyValueError::new_err(format!(
            "unknown perft unit `{other}`: expected \"ply\" or \"turn\""
        ))),
    }
}
