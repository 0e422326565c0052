//! The perfect agent: plays a best move of a solved table (the quickest
//! win, else a draw, else the slowest loss; ties broken by the game's
//! random generator). The table is a file from `morrigo solve --save`, a
//! database directory from `morrigo solve --db` (its units read as the
//! game needs them), or, with neither, the game is solved when the agent
//! is prepared, if the solve fits in [`ON_THE_FLY_MEMORY`]. Tables are kept for the whole run,
//! shared by every game and thread.
//!
//! A position the table does not hold (a game started elsewhere than the
//! table's start) is played as `greedy` plays it.

use crate::moves::pick;
use crate::spec::{AgentSpec, AlphaBetaParams, PerfectParams};
use morrigo_engine::{with_machine, AnyMachine, Machine, Move, State};
use morrigo_rules::Rules;
use morrigo_solve::{LoadError, Table, Value};
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

/// Games of at most this many moving-phase positions (both sides to move,
/// before symmetry) are solved whole by the sector solver for the
/// alpha-beta agent: Five and Six Men's Morris (42 million positions,
/// about 13 s and 32 MiB for Six), not Nine Men's (10^11).
pub const GAME_TABLE_POSITIONS: u64 = 50_000_000;

/// Exact values the alpha-beta agent reads: a solved table (every
/// position, removals owed included) or a whole-game sector table (turn
/// starts only; a removal owed is searched through to them).
#[derive(Clone)]
pub(crate) enum Exact {
    Table(Arc<Table>),
    Game(Arc<morrigo_sector::GameTable>),
}

impl Exact {
    #[inline]
    pub(crate) fn value<const W: usize>(&self, pos: &morrigo_engine::Position<W>) -> Option<Value> {
        match self {
            Exact::Table(t) => t.value(pos),
            Exact::Game(g) => g.value(pos),
        }
    }

    /// The value of each of `moves` at `s` for the player to move, in their
    /// order; `None` where a value is missing.
    pub(crate) fn move_values<const W: usize>(
        &self,
        m: &Machine<W>,
        s: &mut State<W>,
        moves: &[Move],
    ) -> Option<Vec<(Move, Value)>> {
        match self {
            Exact::Table(t) => {
                t.value(&s.pos)?;
                let all = morrigo_solve::move_values(m, t, s);
                moves
                    .iter()
                    .map(|mv| {
                        all.iter()
                            .find(|(a, _)| a == mv)
                            .and_then(|&(a, v)| Some((a, v?)))
                    })
                    .collect()
            }
            // A removal owed included: the positions after it are turn
            // starts the table holds.
            Exact::Game(g) => moves
                .iter()
                .map(|&mv| Some((mv, g.after(m, s, mv)?)))
                .collect(),
        }
    }

    /// The best of `moves` at `s` by the exact values, drawn with `rng`
    /// among equals, with its value; `None` where a value is missing.
    pub(crate) fn choose<const W: usize>(
        &self,
        m: &Machine<W>,
        s: &mut State<W>,
        moves: &[Move],
        rng: &mut SmallRng,
    ) -> Option<(Move, Value)> {
        Self::best(&self.move_values(m, s, moves)?, rng)
    }

    /// The best of `values` (quickest win, else a draw, else the slowest
    /// loss), drawn with `rng` among equals, with its value.
    pub(crate) fn best(values: &[(Move, Value)], rng: &mut SmallRng) -> Option<(Move, Value)> {
        let best = values
            .iter()
            .map(|(_, v)| *v)
            .max_by_key(|v| v.preference())?;
        let best_moves: Vec<Move> = values
            .iter()
            .filter(|(_, v)| *v == best)
            .map(|(mv, _)| *mv)
            .collect();
        Some((best_moves[pick(rng, best_moves.len())], best))
    }
}

/// Moving-phase positions of a game (both sides to move, before
/// symmetry): every split of up to the pieces in hand on `n` points.
fn moving_positions(rules: &Rules) -> u64 {
    // Called for boards of at most 64 points, which the table holds.
    let n = rules.topology.names.len();
    let binom = morrigo_sector::Binomial::new(n);
    let h = (rules.in_hand as usize).min(n);
    let mut total = 0u64;
    for w in 0..=h {
        for b in 0..=h.min(n - w) {
            let arrangements = binom.c(n, w).saturating_mul(binom.c(n - w, b));
            total = total.saturating_add(arrangements.saturating_mul(2));
        }
    }
    total
}

fn game_cache() -> &'static Mutex<HashMap<u64, Option<Arc<morrigo_sector::GameTable>>>> {
    static CACHE: OnceLock<Mutex<HashMap<u64, Option<Arc<morrigo_sector::GameTable>>>>> =
        OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The whole-game sector table of `rules`, solved once per run (under the
/// lock: other seats wait rather than solve again), or `None` where the
/// sector solver does not apply or the game is larger than
/// [`GAME_TABLE_POSITIONS`].
fn game_table(rules: &Rules) -> Option<Arc<morrigo_sector::GameTable>> {
    if rules.topology.names.len() > 64
        || rules.unlimited_hand
        || moving_positions(rules) > GAME_TABLE_POSITIONS
        || morrigo_sector::supported(rules).is_err()
    {
        return None;
    }
    let fingerprint = morrigo_solve::rules_fingerprint(rules);
    let mut cache = game_cache().lock().unwrap_or_else(|p| p.into_inner());
    if let Some(t) = cache.get(&fingerprint) {
        return t.clone();
    }
    let m = Machine::<1>::new(Arc::new(morrigo_solve::solver_rules(rules)));
    let t = morrigo_sector::GameTable::solve(&m).ok().map(Arc::new);
    cache.insert(fingerprint, t.clone());
    t
}

/// The exact values the alpha-beta agent reads: `path`'s table (loaded
/// once, checked when the agent is prepared); else the game's own solved
/// table if it solves within [`SEARCH_TABLE_MEMORY`]; else, for a larger
/// board the sector solver handles within [`GAME_TABLE_POSITIONS`], its
/// whole-game table; `None` otherwise. A failed solve is remembered, so
/// it is tried once per run and ruleset.
pub(crate) fn search_table(rules: &Rules, path: Option<&'static str>) -> Option<Exact> {
    if let Some(dir) = path.filter(is_database) {
        return database(rules, dir).ok().map(Exact::Game);
    }
    if path.is_some() {
        return load_or_solve(rules, &PerfectParams { table: path }, ON_THE_FLY_MEMORY)
            .ok()
            .map(Exact::Table);
    }
    if rules.topology.names.len() > SEARCH_TABLE_POINTS {
        return game_table_for(rules).map(Exact::Game);
    }
    let fingerprint = morrigo_solve::rules_fingerprint(rules);
    let mut cache = small_cache().lock().unwrap_or_else(|p| p.into_inner());
    if let Some(t) = cache.get(&fingerprint) {
        return t.clone().map(Exact::Table);
    }
    // Solved under the lock: other seats of the same ruleset wait for it
    // rather than solve it again.
    let t = solve(rules, SEARCH_TABLE_MEMORY).ok().map(Arc::new);
    cache.insert(fingerprint, t.clone());
    t.map(Exact::Table)
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
            AgentSpec::Perfect(PerfectParams { table: Some(dir) }) if is_database(dir) => {
                database(rules, dir).map_err(|e| format!("agent `perfect`: {e}"))?;
            }
            AgentSpec::AlphaBeta(AlphaBetaParams {
                table: Some(dir), ..
            }) if is_database(dir) => {
                database(rules, dir).map_err(|e| format!("agent `alphabeta`: {e}"))?;
            }
            AgentSpec::Perfect(p) if p.table.is_some() || game_table_for(rules).is_none() => {
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

/// The exact values the perfect agent plays from: `table=`'s file; else,
/// on a board of more than [`SEARCH_TABLE_POINTS`] points, the whole-game
/// sector table where it applies (Five and Six Men's Morris, solved in
/// seconds, where the explicit solve would need more than
/// [`ON_THE_FLY_MEMORY`]); else the game solved on the fly.
pub(crate) fn exact(rules: &Rules, p: PerfectParams) -> Option<Exact> {
    if let Some(dir) = p.table.filter(is_database) {
        return database(rules, dir).ok().map(Exact::Game);
    }
    if p.table.is_none() {
        if let Some(g) = game_table_for(rules) {
            return Some(Exact::Game(g));
        }
    }
    table(rules, p).map(Exact::Table)
}

/// Whether `table=` names a directory: a database of `morrigo solve --db`.
fn is_database(path: &&'static str) -> bool {
    std::path::Path::new(path).is_dir()
}

/// Database tables by rules fingerprint and directory.
type Databases = HashMap<(u64, &'static str), Arc<morrigo_sector::GameTable>>;

fn database_cache() -> &'static Mutex<Databases> {
    static CACHE: OnceLock<Mutex<Databases>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The whole-game table of database directory `dir` (a directory of
/// `morrigo solve --db`) for `rules`: its list of units read once per run,
/// each unit's file when a position of it is first asked for, nothing
/// written ([`morrigo_sector::GameTable::open`]). A directory without a
/// finished solve, or solved for other rules, is refused, naming the
/// command: reading a database never starts a solve of hours.
pub fn database(
    rules: &Rules,
    dir: &'static str,
) -> Result<Arc<morrigo_sector::GameTable>, String> {
    let name = &rules.name;
    let fingerprint = morrigo_solve::rules_fingerprint(rules);
    let mut cache = database_cache().lock().unwrap_or_else(|p| p.into_inner());
    if let Some(t) = cache.get(&(fingerprint, dir)) {
        return Ok(t.clone());
    }
    morrigo_sector::supported(rules)
        .map_err(|why| format!("a database cannot hold {name}: {why}"))?;
    let m = Machine::<1>::new(Arc::new(morrigo_solve::solver_rules(rules)));
    let t = morrigo_sector::GameTable::open(&m, std::path::Path::new(dir))
        .map(Arc::new)
        .map_err(|e| e.to_string())?;
    cache.insert((fingerprint, dir), t.clone());
    Ok(t)
}

/// [`game_table`] for boards too large for the explicit solve on the fly.
fn game_table_for(rules: &Rules) -> Option<Arc<morrigo_sector::GameTable>> {
    if rules.topology.names.len() > SEARCH_TABLE_POINTS {
        game_table(rules)
    } else {
        None
    }
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
        let start = m.initial();
        morrigo_solve::solve(m, &start, max_bytes, &morrigo_solve::Quiet)
            .map(|(t, _)| t)
            .map_err(|e| match e {
                morrigo_solve::SolveError::Memory { .. } => {
                    // Past one table's index space only the sector solver
                    // can help: name the command that will work.
                    let one_table = morrigo_solve::probe(m, &start, u64::MAX).is_ok();
                    let first = if one_table || morrigo_sector::supported(rules).is_err() {
                        format!("`morrigo solve {name} --save FILE` and use `perfect:table=FILE`")
                    } else {
                        format!("`morrigo solve {name} --db DIR` (the sector solver) and use `perfect:table=DIR`")
                    };
                    format!(
                        "agent `perfect`: {name} is too large to solve on the fly (over {} KiB); solve it first with {first}",
                        max_bytes >> 10
                    )
                }
                other => format!("agent `perfect`: {name} cannot be solved: {other}"),
            })
    })
}
