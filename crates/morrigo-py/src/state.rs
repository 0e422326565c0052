//! `State` and `Move`: a game position with its undo stack, driven through
//! the engine's own apply, undo, legality and explanation.

use crate::compiled::{parse_unit, perft_from, GameCore, PyGame, DEFAULT_MAX_NODES};
use crate::errors::{illegal_move, refusal_parts, split_location, unreadable_move};
use crate::observation::planes;
use crate::position::Position;
use morrigo_diag::SourceFile;
use morrigo_engine::game::Move;
use morrigo_engine::notation::{self, Intent};
use morrigo_engine::{GameState, Outcome};
use morrigo_rules::Verdict;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Arc;

/// One ply: its kind and points, its text and its action.
///
/// ``str(move)`` is its notation (``d1``, ``d1-d2``, ``xd2``, ``D4``,
/// ``pass:E``), which :meth:`State.apply` also accepts. Moves compare equal
/// when they are the same engine move.
#[pyclass(name = "Move", module = "morrigo", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PyMove {
    /// The engine's move.
    pub mv: Move,
    /// The move's notation.
    #[pyo3(get)]
    pub text: String,
    /// ``place``, ``play``, ``slide``, ``fly``, ``leap``, ``remove`` or ``pass``.
    #[pyo3(get)]
    pub kind: &'static str,
    /// The point a piece leaves (slides, flies, leaps), else ``None``.
    #[pyo3(get)]
    pub from_point: Option<String>,
    /// The point the move is about (``None`` for a pass).
    #[pyo3(get)]
    pub to_point: Option<String>,
    /// The pass kind's letter for a pass, else ``None``.
    #[pyo3(get)]
    pub pass_kind: Option<String>,
    /// The move's index in the game's action space.
    #[pyo3(get)]
    pub action: usize,
}

impl PyMove {
    /// The `Move` of an engine move of `game`.
    pub fn new(game: &GameCore, mv: Move) -> Self {
        let rules = game.rules();
        let t = &rules.topology;
        let pass_kind = match mv {
            Move::Pass { kind } => rules
                .passes
                .kinds
                .get(usize::from(kind))
                .map(|k| (*k as char).to_string()),
            _ => None,
        };
        PyMove {
            mv,
            text: notation::format_move_in(rules, &mv.packed()),
            kind: mv.kind_name(),
            from_point: mv.from_point().map(|p| t.name(p).to_string()),
            to_point: mv.to_point().map(|p| t.name(p).to_string()),
            pass_kind,
            action: game
                .layout
                .action(mv)
                .expect("the layout has a block for every move kind of the ruleset"),
        }
    }
}

#[pymethods]
impl PyMove {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "<morrigo.Move {} ({}, action {})>",
            self.text, self.kind, self.action
        )
    }
}

/// What a caller passes as a move.
pub enum Given {
    /// A move object: checked with the engine's legality check.
    Move(Move, String),
    /// Notation or an action: the plies it asks for.
    Intents(Vec<Intent>, String),
}

/// A position of a game, with the moves that led to it.
///
/// Made by :meth:`Game.new_state`. :meth:`apply` and :meth:`undo` change it
/// in place; :meth:`copy` gives an independent copy.
#[pyclass(name = "State", module = "morrigo")]
pub struct PyState {
    /// The game it belongs to.
    pub game: Arc<GameCore>,
    /// The position and its undo stack.
    pub inner: Position,
}

impl PyState {
    /// Read a move argument: a `Move`, notation text or an action number.
    fn given(&self, mv: &Bound<'_, PyAny>) -> PyResult<Given> {
        let rules = self.game.rules();
        if let Ok(m) = mv.cast::<PyMove>() {
            let m = m.get();
            return Ok(Given::Move(m.mv, m.text.clone()));
        }
        if let Ok(text) = mv.extract::<String>() {
            return match notation::parse_token_in(rules, text.trim(), None) {
                Ok(intents) => Ok(Given::Intents(intents, text)),
                Err(d) => Err(unreadable_move(&text, &d)),
            };
        }
        if let Ok(a) = mv.extract::<i64>() {
            let intent = usize::try_from(a)
                .ok()
                .and_then(|a| self.game.layout.intent(a))
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "action {a} is outside the action space of {} (0 to {})",
                        rules.name,
                        self.game.layout.size.saturating_sub(1)
                    ))
                })?;
            let text = match intent {
                Intent::Pass(k) => notation::pass_text(rules, k),
                i => i.format(&rules.topology),
            };
            return Ok(Given::Intents(vec![intent], text));
        }
        Err(PyTypeError::new_err(
            "a move is a morrigo.Move, its text (\"d1\", \"g1xd2\", \"D4\", \"pass:E\") or an action number",
        ))
    }
}

/// The legal move an intent names, if there is one: the first of its
/// forms the engine's legality check accepts (`check` is `Ok` exactly for
/// the moves `legal_moves` lists), without generating every move.
fn resolve(s: &GameState, intent: Intent) -> Option<Move> {
    let between = |from, to| {
        [
            Move::Slide { from, to },
            Move::Fly { from, to },
            Move::Leap { from, to },
        ]
    };
    let (forms, count) = match intent {
        Intent::Place(p) => (
            [
                Move::Place { to: p },
                Move::Play { at: p },
                Move::Place { to: p },
            ],
            2,
        ),
        Intent::Move(from, to) => (between(from, to), 3),
        Intent::Remove(p) => ([Move::Remove { at: p }; 3], 1),
        Intent::Pass(k) => ([Move::Pass { kind: k }; 3], 1),
    };
    forms[..count]
        .iter()
        .copied()
        .find(|mv| s.check(*mv).is_ok())
}

/// Apply the plies of `given`, all or nothing; the plies played.
fn apply_given(c: &mut Position, given: &Given) -> PyResult<Vec<Move>> {
    match given {
        Given::Move(mv, text) => match c.s.check_explained(*mv) {
            Ok(()) => {
                c.push(*mv);
                Ok(vec![*mv])
            }
            Err(why) => Err(illegal_move(text, &why)),
        },
        Given::Intents(intents, text) => {
            let mut played = Vec::with_capacity(intents.len());
            for intent in intents {
                match resolve(&c.s, *intent) {
                    Some(mv) => {
                        c.push(mv);
                        played.push(mv);
                    }
                    None => {
                        let why = c.s.explain(*intent);
                        for _ in &played {
                            c.pop();
                        }
                        return Err(illegal_move(text, &why));
                    }
                }
            }
            Ok(played)
        }
    }
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len() * 4);
    for x in v {
        out.extend_from_slice(&x.to_ne_bytes());
    }
    out
}

/// A NumPy array of `dtype` and `shape` holding `bytes` (a copy, writable).
pub fn numpy_array<'py>(
    py: Python<'py>,
    bytes: &[u8],
    dtype: &str,
    shape: Option<(usize, usize)>,
) -> PyResult<Bound<'py, PyAny>> {
    let np = py.import("numpy")?;
    let arr = np.call_method1("frombuffer", (PyBytes::new(py, bytes), dtype))?;
    let arr = match shape {
        Some(s) => arr.call_method1("reshape", s)?,
        None => arr,
    };
    arr.call_method0("copy")
}

#[pymethods]
impl PyState {
    /// The game this state belongs to.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame {
            core: self.game.clone(),
        }
    }

    /// The legal moves, in the engine's generation order (empty when the
    /// game is over). While a removal is owed, the removals.
    fn legal_moves(&mut self) -> Vec<PyMove> {
        let c = &mut self.inner;
        c.legal();
        c.scratch
            .iter()
            .map(|mv| PyMove::new(&self.game, *mv))
            .collect()
    }

    /// The actions of the legal moves (see :attr:`Game.action_blocks`).
    fn legal_actions(&mut self) -> Vec<usize> {
        let c = &mut self.inner;
        c.legal();
        let layout = &self.game.layout;
        c.scratch
            .iter()
            .filter_map(|mv| layout.action(*mv))
            .collect()
    }

    /// The legal actions as a mask: a NumPy ``int8`` array of
    /// :attr:`Game.action_size`, 1 where the action is legal.
    fn action_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let c = &mut self.inner;
        c.legal();
        let layout = &self.game.layout;
        let mut mask = vec![0u8; layout.size];
        for mv in &c.scratch {
            if let Some(a) = layout.action(*mv) {
                mask[a] = 1;
            }
        }
        numpy_array(py, &mask, "int8", None)
    }

    /// Play a move: a :class:`Move`, its text (``"d1"``, ``"d1-d2"``,
    /// ``"xd2"``, ``"g1xd2"`` for a move and its removal, ``"D4"``,
    /// ``"pass"``, ``"pass:E"``) or an action number. A text of several
    /// plies is played all or nothing. Returns the plies played.
    ///
    /// Raises :class:`IllegalMoveError` naming the rule that refuses the
    /// move (and where the ruleset writes it) when the move is not legal.
    #[pyo3(name = "apply")]
    fn apply_move(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<Vec<PyMove>> {
        let given = self.given(mv)?;
        let played = apply_given(&mut self.inner, &given)?;
        Ok(played
            .into_iter()
            .map(|mv| PyMove::new(&self.game, mv))
            .collect())
    }

    /// Take back the last ply; returns it. Raises ``IndexError`` at the
    /// start of the game.
    fn undo(&mut self) -> PyResult<PyMove> {
        let mv = self.inner.pop().ok_or_else(|| {
            PyIndexError::new_err("no move to undo: this is the start of the game")
        })?;
        Ok(PyMove::new(&self.game, mv))
    }

    /// Whether an end rule has decided the game.
    fn is_over(&mut self) -> bool {
        self.inner.legal().is_some()
    }

    /// How the game stands, as a dict: ``over`` (bool), ``winner`` (a
    /// player's name, ``None`` for a draw, no result, or an ongoing game),
    /// ``winner_seat`` (0 first player, 1 second), ``draw``, ``no_result``,
    /// ``reason`` (the end rule's name), ``rule`` (its condition text),
    /// ``location`` (``file:line:col`` of the rule), ``doc`` (its
    /// description), ``score`` (``{player: points}`` when the game was
    /// counted, komi included), and ``stuck`` (no legal move and no end rule
    /// decides).
    fn result<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let rules = self.game.rules();
        let d = PyDict::new(py);
        let c = &mut self.inner;
        let outcome = c.legal();
        let stuck = outcome.is_none() && c.scratch.is_empty();
        let scored = outcome.is_some_and(|o| {
            o.rule == Outcome::AGREEMENT
                || rules
                    .end
                    .get(o.rule as usize)
                    .is_some_and(|e| e.verdict == Verdict::Score)
        });
        let score = (scored && rules.scoring.is_some()).then(|| c.s.score());
        d.set_item("over", outcome.is_some())?;
        let winner = outcome.and_then(|o| o.winner);
        d.set_item("winner", winner.map(|w| rules.players[w as usize].clone()))?;
        d.set_item("winner_seat", winner)?;
        let no_result = outcome.is_some_and(|o| o.is_no_result(rules));
        d.set_item("draw", outcome.is_some() && winner.is_none() && !no_result)?;
        d.set_item("no_result", no_result)?;
        d.set_item("reason", outcome.map(|o| o.rule_name(rules).to_string()))?;
        let rule = outcome.and_then(|o| rules.end.get(o.rule as usize));
        d.set_item("rule", rule.map(|r| r.when.text.clone()))?;
        d.set_item(
            "location",
            rule.and_then(|r| r.when.at.as_ref().map(|l| l.to_string())),
        )?;
        d.set_item("doc", rule.and_then(|r| r.doc.clone()))?;
        match score {
            Some(sc) => {
                let s = PyDict::new(py);
                s.set_item(&rules.players[0], sc[0])?;
                s.set_item(&rules.players[1], sc[1])?;
                d.set_item("score", s)?;
            }
            None => d.set_item("score", py.None())?,
        }
        d.set_item("stuck", stuck)?;
        Ok(d)
    }

    /// Why a move is legal or not, as a dict: ``move``, ``legal`` (bool),
    /// ``reason`` (in words), ``rule`` (the text of the rule that refuses
    /// it, quoted from the ruleset, or ``None``), ``location``
    /// (``file:line:col`` where the ruleset writes that rule) and its parts
    /// ``file``, ``line``, ``column``. A text of several plies (``g1xd2``)
    /// is judged ply by ply; the first refused ply is explained.
    fn explain<'py>(
        &mut self,
        py: Python<'py>,
        mv: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let given = self.given(mv)?;
        let s = &self.inner.s;
        let (legal, r, text) = match &given {
            Given::Move(mv, text) => match s.check_explained(*mv) {
                Ok(()) => (true, None, text.clone()),
                Err(why) => (false, Some(why), text.clone()),
            },
            Given::Intents(intents, text) => {
                // Judged ply by ply on a copy (`g1xd2`: the removal
                // after the mill).
                let mut probe = s.clone();
                let mut why = None;
                for intent in intents {
                    match resolve(&probe, *intent) {
                        Some(mv) => probe.apply_unchecked(mv),
                        None => {
                            why = Some(probe.explain(*intent));
                            break;
                        }
                    }
                }
                (why.is_none(), why, text.clone())
            }
        };
        let d = PyDict::new(py);
        d.set_item("move", text.clone())?;
        d.set_item("legal", legal)?;
        let reason = match &r {
            Some(r) => r.reason.clone(),
            None => format!("`{text}` is legal here"),
        };
        d.set_item("reason", reason)?;
        let (rule, at) = r.as_ref().map_or((None, None), refusal_parts);
        let (file, line, col) = at.as_deref().map_or((None, None, None), split_location);
        d.set_item("rule", rule)?;
        d.set_item("location", at)?;
        d.set_item("file", file)?;
        d.set_item("line", line)?;
        d.set_item("column", col)?;
        Ok(d)
    }

    /// The game so far as transcript JSON (the schema of ``morrigo replay
    /// --json``: plies with players, phases and notes, the result, the
    /// board), by replaying the moves through ``morrigo-record``.
    fn to_json(&self) -> PyResult<String> {
        let record = self.history().join(" ");
        let source = SourceFile::new("state", record.as_str());
        match morrigo_record::replay(&self.game.game, &record, &source) {
            Ok(t) => serde_json::to_string(&t.to_json())
                .map_err(|e| PyValueError::new_err(e.to_string())),
            Err(e) => Err(PyValueError::new_err(e.diagnostic.to_string())),
        }
    }

    /// An independent copy (the moves played included, so it can undo).
    fn copy(&self) -> PyState {
        PyState {
            game: self.game.clone(),
            inner: self.inner.clone(),
        }
    }

    fn __copy__(&self) -> PyState {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.copy()
    }

    /// The board as a NumPy ``int8`` array over the points (in
    /// :attr:`Game.points` order): 0 empty, 1 a piece of the first
    /// player, 2 of the second.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let s = &self.inner.s;
        let mut cells = vec![0u8; self.game.rules().topology.len()];
        let mut pieces = Vec::new();
        for player in 0..2 {
            s.pieces_into(player, &mut pieces);
            for &p in &pieces {
                cells[usize::from(p)] = player + 1;
            }
        }
        numpy_array(py, &cells, "int8", None)
    }

    /// The observation planes as a NumPy ``float32`` array of shape
    /// :attr:`Game.observation_shape`, seen by ``seat`` (default: the player
    /// to move): own pieces, opponent pieces, empty points, marked points
    /// (delayed removals), a removal owed by ``seat`` (all ones), the
    /// pieces in hand of ``seat`` and of the opponent (as a fraction of the
    /// starting hand; 0 for unlimited hands), then one plane per phase (all
    /// ones for the phase of the player to move). The recent turns are
    /// :meth:`history_observation`.
    #[pyo3(signature = (seat = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let shape = (self.game.planes, self.game.rules().topology.len());
        let s = &self.inner.s;
        let v = planes(s, seat.unwrap_or(usize::from(s.to_move())));
        numpy_array(py, &f32_bytes(&v), "float32", Some(shape))
    }

    /// The recent turns as a NumPy ``float32`` array of shape
    /// :attr:`Game.history_shape`, ``(turns, features)``, seen by ``seat``
    /// (default: the player to move): row 0 the last completed turn, all
    /// zeros before the first. Columns (:attr:`Game.history_features`):
    /// ``own turn`` (``seat`` made it), ``kind drop``/``move``/``remove``/
    /// ``pass`` (the action blocks of its plies; those the ruleset has),
    /// then ``class X`` for each move class the ruleset's history patterns
    /// may name (``N``, ``C``, the pass kinds: the class the engine
    /// recorded for the turn; a derived class such as JK's ``D``: a run
    /// ends with the turn). What ``after('…')`` rules read and the planes
    /// cannot show (under JK rules, whether a pass is legal).
    #[pyo3(signature = (seat = None))]
    fn history_observation<'py>(
        &self,
        py: Python<'py>,
        seat: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let h = &self.game.history;
        let c = &self.inner;
        let v = h.rows(c, seat.unwrap_or(usize::from(c.s.to_move())));
        numpy_array(py, &f32_bytes(&v), "float32", Some((h.turns, h.width)))
    }

    /// The position's Zobrist key (board, hands and player to move).
    fn zobrist(&self) -> u64 {
        self.inner.s.hash()
    }

    /// Seat of the player to move (0 first player, 1 second).
    #[getter]
    fn to_move(&self) -> u8 {
        self.inner.s.to_move()
    }

    /// Name of the player to move.
    #[getter]
    fn player(&self) -> String {
        let seat = self.to_move() as usize;
        self.game.rules().players[seat].clone()
    }

    /// The phase of the player to move (``removing`` while a removal is owed).
    #[getter]
    fn phase(&self) -> String {
        self.inner.s.phase_name().to_string()
    }

    /// Plies played since the start.
    #[getter]
    fn ply(&self) -> u32 {
        self.inner.s.ply()
    }

    /// Turns completed since the start.
    #[getter]
    fn turn(&self) -> u32 {
        self.inner.s.turn()
    }

    /// Pieces in hand per seat.
    #[getter]
    fn in_hand(&self) -> [u32; 2] {
        self.inner.s.in_hand()
    }

    /// Pieces on the board per seat.
    #[getter]
    fn on_board(&self) -> [u32; 2] {
        self.inner.s.on_board()
    }

    /// Prisoners each seat has captured (board plays).
    #[getter]
    fn captured(&self) -> [u32; 2] {
        self.inner.s.captured()
    }

    /// Removals the player to move still owes this turn.
    #[getter]
    fn pending_removals(&self) -> u16 {
        self.inner.s.pending_removals()
    }

    /// The plies played since the start, as move texts.
    #[getter]
    fn history(&self) -> Vec<String> {
        let rules = self.game.rules();
        self.inner
            .stack
            .iter()
            .map(|p| notation::format_move_in(rules, &p.mv.packed()))
            .collect()
    }

    /// Leaf count of the move tree of ``depth`` plies from this position
    /// (``unit="turn"``: a move and its removals are one level); refused
    /// above ``max_nodes`` estimated leaves, as :meth:`Game.perft`. Runs
    /// without the GIL.
    #[pyo3(signature = (depth, unit = "ply", max_nodes = DEFAULT_MAX_NODES))]
    fn perft(&self, py: Python<'_>, depth: u32, unit: &str, max_nodes: u64) -> PyResult<u64> {
        let unit = parse_unit(unit)?;
        let s = &self.inner.s;
        py.detach(|| perft_from(s, depth, unit, max_nodes))
            .map_err(PyValueError::new_err)
    }

    /// A random walk of ``plies`` plies from a copy of this position, run in
    /// the engine without the GIL: per ply the legal moves, then apply,
    /// undo and apply again of a random one (a finished game starts over).
    /// The engine's own speed through the calls ``State`` makes, to compare
    /// with the same loop driven from Python (``bench/bench.py``). Returns
    /// the plies walked.
    #[pyo3(signature = (plies, seed = 0))]
    fn bench_apply_undo(&self, py: Python<'_>, plies: u64, seed: u64) -> u64 {
        use rand::{Rng, SeedableRng};
        let mut c = self.inner.clone();
        py.detach(move || {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            let start = c.stack.len();
            let mut done = 0;
            while done < plies {
                c.legal();
                if c.scratch.is_empty() {
                    while c.stack.len() > start {
                        c.pop();
                    }
                    if c.stack.len() == start {
                        c.legal();
                        if c.scratch.is_empty() {
                            break;
                        }
                    }
                    continue;
                }
                let mv = c.scratch[rng.random_range(0..c.scratch.len())];
                c.push(mv);
                c.pop();
                c.push(mv);
                done += 1;
            }
            done
        })
    }

    /// The board drawn as text (``morrigo show``'s drawing).
    fn __str__(&self) -> String {
        let s = &self.inner.s;
        morrigo_record::render_board(s.rules(), |p| s.owner(p))
    }

    fn __repr__(&self) -> String {
        format!(
            "<morrigo.State {} ply {}, {} to move>",
            self.game.rules().name,
            self.ply(),
            self.player()
        )
    }
}
