//! The perfect agent: plays a best move of a solved table (the quickest
//! win, else a draw, else the slowest loss; ties broken by the game's
//! random generator). The table is a file from `morrigo solve --save`, or,
//! with no file, the game is solved when the agent is prepared, if the
//! solve fits in [`ON_THE_FLY_MEMORY`]. Tables are kept for the whole run,
//! shared by every game and thread.
//!
//! A position the table does not hold (a game started elsewhere than the
//! table's start) is played as `greedy` plays it.

use crate::agent::pick;
use crate::spec::{AgentSpec, PerfectParams};
use morrigo_engine::{with_machine, AnyMachine, Machine, Move, State};
use morrigo_rules::Rules;
use morrigo_solve::{LoadError, Table};
use rand::rngs::SmallRng;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The most memory a solve on the fly may take (the perfect agent with
/// no `table=`); larger games need `morrigo solve --save` first.
pub const ON_THE_FLY_MEMORY: u64 = 256 << 20;

/// The most memory the alpha-beta agent's solve on the fly may take: the
/// small games (Three Men's Morris and its kin, a few thousand positions)
/// solve in milliseconds; a larger one stops the solve at this bound, once
/// per run, and is searched (or given `alphabeta:table=FILE`).
pub const SEARCH_TABLE_MEMORY: u64 = 16 << 20;

/// Boards of more points are never solved on the fly for the alpha-beta
/// agent: 3^13 (1.6 million) colourings bound the boards tried, so the
/// attempt on a large game costs nothing (a failed exploration of Nine
/// Men's Morris up to [`SEARCH_TABLE_MEMORY`] took 2 s).
pub const SEARCH_TABLE_POINTS: usize = 13;

fn small_cache() -> &'static Mutex<HashMap<u64, Option<Arc<Table>>>> {
    static CACHE: OnceLock<Mutex<HashMap<u64, Option<Arc<Table>>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The solved table the alpha-beta agent reads: `path`'s (loaded once,
/// checked when the agent is prepared), else the game's own if it solves
/// within [`SEARCH_TABLE_MEMORY`]; `None` otherwise. A failed solve is
/// remembered, so it is tried once per run and ruleset.
pub(crate) fn search_table(rules: &Rules, path: Option<&'static str>) -> Option<Arc<Table>> {
    if path.is_some() {
        return load_or_solve(rules, &PerfectParams { table: path }, ON_THE_FLY_MEMORY).ok();
    }
    if rules.topology.names.len() > SEARCH_TABLE_POINTS {
        return None;
    }
    let fingerprint = morrigo_solve::rules_fingerprint(rules);
    let mut cache = small_cache().lock().unwrap_or_else(|p| p.into_inner());
    if let Some(t) = cache.get(&fingerprint) {
        return t.clone();
    }
    // Solved under the lock: other seats of the same ruleset wait for it
    // rather than solve it again.
    let t = solve(rules, SEARCH_TABLE_MEMORY).ok().map(Arc::new);
    cache.insert(fingerprint, t.clone());
    t
}

type Key = (u64, Option<&'static str>);

fn cache() -> &'static Mutex<HashMap<Key, Arc<Table>>> {
    static CACHE: OnceLock<Mutex<HashMap<Key, Arc<Table>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// Load (or solve) the tables of every perfect agent among `agents`, so
/// that playing cannot fail later; a solve on the fly may use at most
/// `max_bytes` (and never more than [`ON_THE_FLY_MEMORY`]). The error says
/// why, for the user.
pub fn prepare_agents(rules: &Rules, agents: &[AgentSpec], max_bytes: u64) -> Result<(), String> {
    for a in agents {
        match a {
            AgentSpec::Perfect(p) => {
                load_or_solve(rules, p, max_bytes.min(ON_THE_FLY_MEMORY))?;
            }
            AgentSpec::AlphaBeta(ab) if ab.table.is_some() => {
                let p = PerfectParams { table: ab.table };
                load_or_solve(rules, &p, max_bytes.min(ON_THE_FLY_MEMORY))
                    .map_err(|e| e.replacen("agent `perfect`", "agent `alphabeta`", 1))?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// The table of a prepared agent (`None` if it could not be had).
pub(crate) fn table(rules: &Rules, p: PerfectParams) -> Option<Arc<Table>> {
    load_or_solve(rules, &p, ON_THE_FLY_MEMORY).ok()
}

fn load_or_solve(rules: &Rules, p: &PerfectParams, max_bytes: u64) -> Result<Arc<Table>, String> {
    let fingerprint = morrigo_solve::rules_fingerprint(rules);
    let key = (fingerprint, p.table);
    if let Some(t) = cache().lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(t);
    }
    let table = Arc::new(match p.table {
        Some(path) => load(rules, path, fingerprint)?,
        None => solve(rules, max_bytes)?,
    });
    if let Ok(mut c) = cache().lock() {
        c.insert(key, table.clone());
    }
    Ok(table)
}

fn load(rules: &Rules, path: &str, fingerprint: u64) -> Result<Table, String> {
    // The checksum is checked before anything of the table is used.
    Table::load_file(std::path::Path::new(path), fingerprint).map_err(|e| match e {
        LoadError::OtherRules { .. } => format!(
            "agent `perfect`: `{path}` {e}, not for {}; solve this ruleset with `morrigo solve {} --save FILE`",
            rules.name, rules.name
        ),
        LoadError::Damaged(_) => format!(
            "agent `perfect`: the table `{path}` {e}; solve it again with `morrigo solve {} --save FILE`",
            rules.name
        ),
        LoadError::Format(why) => format!("agent `perfect`: `{path}`: {why}"),
        _ => format!("agent `perfect`: the table `{path}` {e}"),
    })
}

fn solve(rules: &Rules, max_bytes: u64) -> Result<Table, String> {
    let name = &rules.name;
    morrigo_solve::retrograde_applies(rules)
        .map_err(|why| format!("agent `perfect` cannot play {name}: {why}"))?;
    let any =
        AnyMachine::new(Arc::new(morrigo_solve::solver_rules(rules))).map_err(|d| d.to_string())?;
    with_machine!(&any, m => {
        morrigo_solve::solve(m, &m.initial(), max_bytes, &morrigo_solve::Quiet)
            .map(|(t, _)| t)
            .map_err(|e| match e {
                morrigo_solve::SolveError::Memory { .. } => format!(
                    "agent `perfect`: {name} is too large to solve on the fly (over {} KiB); solve it first with `morrigo solve {name} --save FILE` and use `perfect:table=FILE`",
                    max_bytes >> 10
                ),
                other => format!("agent `perfect`: {name} cannot be solved: {other}"),
            })
    })
}

/// A best move of `s` by the table among `moves`, chosen among equals
/// with `rng`; `None` when no best move is among `moves` (the root filter
/// took them out, or the table lacks `s`).
pub(crate) fn choose<const W: usize>(
    m: &Machine<W>,
    table: &Table,
    s: &State<W>,
    moves: &[Move],
    rng: &mut SmallRng,
) -> Option<Move> {
    let (best, _) = morrigo_solve::best_moves(m, table, s)?;
    let best: Vec<Move> = best.into_iter().filter(|b| moves.contains(b)).collect();
    (!best.is_empty()).then(|| best[pick(rng, best.len())])
}
