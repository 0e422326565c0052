//! `simulate`, `compare` and `Agent`: morrigo-play's agents and playouts,
//! run without the GIL.

use crate::compiled::{load_core, size_of, GameCore, PyGame};
use crate::errors::ruleset_error;
use crate::state::{PyMove, PyState};
use morrigo_engine::{with_machine, Machine};
use morrigo_play::{game_rng, playout_with, AgentSpec, GameRecord, Player, SimConfig};
use morrigo_rules::load::Overrides;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use rayon::prelude::*;
use std::sync::{Arc, Mutex};

/// One or two agents (`"random"`, `"mcts:playouts=200,greedy"`, or a list).
pub fn agents_of(agents: &Bound<'_, PyAny>) -> PyResult<[AgentSpec; 2]> {
    let list: Vec<AgentSpec> = if let Ok(text) = agents.extract::<String>() {
        AgentSpec::parse_list(&text).map_err(PyValueError::new_err)?
    } else if let Ok(items) = agents.extract::<Vec<String>>() {
        items
            .iter()
            .map(|t| t.parse::<AgentSpec>())
            .collect::<Result<_, _>>()
            .map_err(PyValueError::new_err)?
    } else {
        return Err(PyValueError::new_err(
            "agents are a string (\"random\", \"greedy,random\") or a list of one or two agent strings",
        ));
    };
    match list.as_slice() {
        [a] => Ok([*a, *a]),
        [a, b] => Ok([*a, *b]),
        more => Err(PyValueError::new_err(format!(
            "{} agents given; expected one or two (first player, second player)",
            more.len()
        ))),
    }
}

fn check_threads(threads: Option<usize>) -> PyResult<()> {
    match threads {
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        _ => Ok(()),
    }
}

fn run_in_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> T {
    match threads.and_then(|n| rayon::ThreadPoolBuilder::new().num_threads(n).build().ok()) {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

/// Every game of a run, in game order: the games `morrigo simulate` plays
/// for the same seed (game `i` from `game_rng(seed, i)`, players reused
/// within a thread and reset per game, as morrigo-play's `simulate` does).
fn games_on<const W: usize>(m: &Machine<W>, cfg: &SimConfig) -> Vec<GameRecord> {
    let initial = m.initial();
    (0..cfg.games)
        .into_par_iter()
        .with_min_len(8)
        .map_init(
            || (cfg.agents.map(Player::new), Vec::with_capacity(64)),
            |(players, moves), index| {
                players.iter_mut().for_each(Player::new_game);
                let mut rng = game_rng(cfg.seed, u64::from(index));
                let mut s = initial.clone();
                playout_with(m, &mut s, players, &mut rng, cfg.max_plies, moves)
            },
        )
        .collect()
}

fn machine_for(
    ruleset: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    komi: Option<f64>,
) -> PyResult<Arc<GameCore>> {
    if let Ok(g) = ruleset.cast::<PyGame>() {
        if size.is_some_and(|s| !s.is_none()) || komi.is_some() {
            return Err(PyValueError::new_err(
                "size and komi apply when a ruleset is loaded: pass them to morrigo.load",
            ));
        }
        return Ok(g.get().core.clone());
    }
    let spec: String = ruleset.extract().map_err(|_| {
        PyValueError::new_err("a ruleset is a morrigo.Game, a built-in name, a path or YAML text")
    })?;
    let overrides = Overrides {
        size: size_of(size)?,
        komi,
    };
    load_core(&spec, &overrides)
        .map(Arc::new)
        .map_err(ruleset_error)
}

fn prepare(rules: &morrigo_rules::Rules, agents: &[AgentSpec]) -> PyResult<()> {
    morrigo_play::prepare_agents(rules, agents, morrigo_play::ON_THE_FLY_MEMORY)
        .map_err(PyValueError::new_err)
}

/// The game and configuration of a simulation call, checked (the
/// arguments of `simulate` and `simulate_report_json`).
#[allow(clippy::too_many_arguments)]
fn simulation(
    ruleset: &Bound<'_, PyAny>,
    games: u32,
    seed: u64,
    agents: Option<&Bound<'_, PyAny>>,
    max_plies: u32,
    threads: Option<usize>,
    size: Option<&Bound<'_, PyAny>>,
    komi: Option<f64>,
) -> PyResult<(Arc<GameCore>, SimConfig)> {
    check_threads(threads)?;
    let core = machine_for(ruleset, size, komi)?;
    let agents = match agents {
        Some(a) => agents_of(a)?,
        None => [AgentSpec::Random; 2],
    };
    prepare(core.rules(), &agents)?;
    let cfg = SimConfig {
        games,
        seed,
        max_plies,
        agents,
        threads,
    };
    Ok((core, cfg))
}

/// Play ``games`` games of ``ruleset`` between two built-in agents and
/// return one record (a dict) per game, in game order, ready for
/// ``pandas.DataFrame(records)``.
///
/// The games are those ``morrigo simulate RULESET --games N --seed S``
/// plays: game ``i`` depends only on the seed and ``i``, never on the
/// thread count. ``ruleset`` is a :class:`Game`, a built-in name, a path or
/// YAML text (``size``/``komi`` as for :func:`load`). ``agents``: one agent
/// for both seats or a pair, as the CLI's ``--agents`` (``"random"``,
/// ``"greedy,mcts:playouts=200"``, or ``["greedy", "random"]``). Runs on all
/// cores (``threads`` to limit) without the GIL.
///
/// Record keys: ``game``, ``ruleset``, ``seed``, ``first_agent``,
/// ``second_agent``, ``first_player``, ``second_player``, ``result``
/// (``win``, ``draw``, ``no_result``, ``unfinished``), ``winner`` (name or
/// ``None``), ``winner_seat``, ``end_rule``, ``stuck``, ``plies``,
/// ``turns``, ``score_first``, ``score_second`` (counted games),
/// ``captured_first``, ``captured_second``.
#[pyfunction]
#[pyo3(signature = (ruleset, games = 1000, seed = 1, agents = None, max_plies = morrigo_play::DEFAULT_MAX_PLIES, threads = None, size = None, komi = None))]
#[allow(clippy::too_many_arguments)]
pub fn simulate<'py>(
    py: Python<'py>,
    ruleset: &Bound<'py, PyAny>,
    games: u32,
    seed: u64,
    agents: Option<&Bound<'py, PyAny>>,
    max_plies: u32,
    threads: Option<usize>,
    size: Option<&Bound<'py, PyAny>>,
    komi: Option<f64>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let (core, cfg) = simulation(ruleset, games, seed, agents, max_plies, threads, size, komi)?;
    let agents = cfg.agents;
    let records = {
        let core = core.clone();
        py.detach(move || {
            run_in_pool(
                threads,
                || with_machine!(core.game.machine().as_ref(), m => games_on(m, &cfg)),
            )
        })
    };
    records_of(py, core.rules(), seed, agents, &records)
}

/// The per-game dicts. Keys and repeated values are made once as Python
/// objects and shared by every record (20,000 games build in milliseconds).
fn records_of<'py>(
    py: Python<'py>,
    rules: &morrigo_rules::Rules,
    seed: u64,
    agents: [AgentSpec; 2],
    records: &[GameRecord],
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let s = |text: &str| PyString::new(py, text).into_any();
    let key = KEYS.map(|k| PyString::new(py, k));
    let none = py.None().into_bound(py);
    let ruleset = s(&rules.name);
    let seed = seed.into_pyobject(py)?.into_any();
    let agents = agents.map(|a| s(&a.to_string()));
    let players = [s(&rules.players[0]), s(&rules.players[1])];
    let results = ["unfinished", "win", "no_result", "draw"].map(s);
    let end_rules: Vec<_> = rules.end.iter().map(|e| s(&e.name)).collect();
    let opt_f64 = |v: Option<f64>| -> PyResult<Bound<'py, PyAny>> {
        Ok(match v {
            Some(x) => x.into_pyobject(py)?.into_any(),
            None => none.clone(),
        })
    };
    records
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let result = match (g.end_rule, g.winner) {
                (None, _) => 0,
                (Some(_), Some(_)) => 1,
                (Some(_), None) if g.no_result => 2,
                (Some(_), None) => 3,
            };
            let winner = g.winner.map(|w| players[w as usize & 1].clone());
            let end_rule = g.end_rule.and_then(|r| end_rules.get(r as usize)).cloned();
            let values: [Bound<'py, PyAny>; KEYS.len()] = [
                i.into_pyobject(py)?.into_any(),
                ruleset.clone(),
                seed.clone(),
                agents[0].clone(),
                agents[1].clone(),
                players[0].clone(),
                players[1].clone(),
                results[result].clone(),
                winner.unwrap_or_else(|| none.clone()),
                match g.winner {
                    Some(w) => w.into_pyobject(py)?.into_any(),
                    None => none.clone(),
                },
                end_rule.unwrap_or_else(|| none.clone()),
                pyo3::types::PyBool::new(py, g.stuck).to_owned().into_any(),
                g.plies.into_pyobject(py)?.into_any(),
                g.turns.into_pyobject(py)?.into_any(),
                opt_f64(g.score.map(|s| s[0]))?,
                opt_f64(g.score.map(|s| s[1]))?,
                g.captured[0].into_pyobject(py)?.into_any(),
                g.captured[1].into_pyobject(py)?.into_any(),
            ];
            let d = PyDict::new(py);
            for (k, v) in key.iter().zip(values) {
                d.set_item(k, v)?;
            }
            Ok(d)
        })
        .collect()
}

/// The keys of a per-game record, in order.
const KEYS: [&str; 18] = [
    "game",
    "ruleset",
    "seed",
    "first_agent",
    "second_agent",
    "first_player",
    "second_player",
    "result",
    "winner",
    "winner_seat",
    "end_rule",
    "stuck",
    "plies",
    "turns",
    "score_first",
    "score_second",
    "captured_first",
    "captured_second",
];

/// The summed report of a simulation, exactly ``morrigo simulate --json``'s
/// (morrigo-play's ``simulate``), as a JSON string; :func:`morrigo.compare`
/// and :func:`morrigo.simulate_report` read it.
#[pyfunction]
#[pyo3(signature = (ruleset, games = 1000, seed = 1, agents = None, max_plies = morrigo_play::DEFAULT_MAX_PLIES, threads = None, size = None, komi = None))]
#[allow(clippy::too_many_arguments)]
pub fn simulate_report_json<'py>(
    py: Python<'py>,
    ruleset: &Bound<'py, PyAny>,
    games: u32,
    seed: u64,
    agents: Option<&Bound<'py, PyAny>>,
    max_plies: u32,
    threads: Option<usize>,
    size: Option<&Bound<'py, PyAny>>,
    komi: Option<f64>,
) -> PyResult<String> {
    let (core, cfg) = simulation(ruleset, games, seed, agents, max_plies, threads, size, komi)?;
    let report = py.detach(move || morrigo_play::simulate(core.game.machine(), &cfg, None));
    serde_json::to_string(&report).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A built-in agent of morrigo-play (``uniform``, ``random``, ``greedy``,
/// ``alphabeta:depth=N``, ``mcts:playouts=N``, ``perfect``), seeded, that
/// picks a move for a :class:`State` of ``game``.
#[pyclass(name = "Agent", module = "morrigo", frozen)]
pub struct PyAgent {
    game: Arc<GameCore>,
    spec: AgentSpec,
    inner: Mutex<(Player, SmallRng)>,
}

#[pymethods]
impl PyAgent {
    #[new]
    #[pyo3(signature = (game, spec = "random", seed = 0))]
    fn new(game: &Bound<'_, PyGame>, spec: &str, seed: u64) -> PyResult<Self> {
        let spec: AgentSpec = spec.parse().map_err(PyValueError::new_err)?;
        let core = game.get().core.clone();
        prepare(core.rules(), &[spec])?;
        Ok(PyAgent {
            game: core,
            spec,
            inner: Mutex::new((Player::new(spec), SmallRng::seed_from_u64(seed))),
        })
    }

    /// The agent's specification (``mcts:playouts=200,c=1.4``).
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The move the agent plays in ``state`` (``None`` when the game is
    /// over or the player to move has no legal move). The state is left as
    /// it was. Runs without the GIL.
    fn choose(&self, py: Python<'_>, state: &Bound<'_, PyState>) -> PyResult<Option<PyMove>> {
        let mut st = state.borrow_mut();
        if !Arc::ptr_eq(&st.game, &self.game) {
            return Err(PyValueError::new_err(
                "this state belongs to another game than the agent's",
            ));
        }
        let c = &mut st.inner;
        let lock = &self.inner;
        let mv = py.detach(|| {
            let mut guard = lock.lock().unwrap_or_else(|e| e.into_inner());
            let (player, rng) = &mut *guard;
            c.legal();
            if c.scratch.is_empty() {
                return None;
            }
            Some(player.choose_in(&c.s, &c.scratch, rng))
        });
        Ok(mv.map(|mv| PyMove::new(&self.game, mv)))
    }

    fn __repr__(&self) -> String {
        format!("<morrigo.Agent {}>", self.spec)
    }
}
