//! `compare` from the page: a job on the blocking pool, polled for its
//! progress, so the server keeps answering while the games run, and
//! cancellable (the games stop at the next game boundary).

use crate::api::compare_machine;
use crate::error::{ApiError, ApiJson, ApiResult};
use crate::ruleset::RulesetRef;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use morrigo_engine::AnyMachine;
use morrigo_play::{
    compare_table, default_pairings, simulate_until, AgentSpec, Format, SimConfig, SimReport,
};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::OwnedSemaphorePermit;

/// Most rows (rulesets × pairings) of one compare (MAX_COMPARE_ROWS).
pub const MAX_COMPARE_ROWS: usize = 12;
/// Most games of one compare, all rows together, when only `uniform`,
/// `random` and `greedy` play (MAX_COMPARE_GAMES).
pub const MAX_COMPARE_GAMES: u64 = 5000;
/// Most games of one compare when `alphabeta`, `mcts` or `perfect` plays
/// (MAX_COMPARE_SEARCH_GAMES).
pub const MAX_COMPARE_SEARCH_GAMES: u64 = 120;
/// Budget of a searching agent in a compare: Monte Carlo playouts a move
/// (MAX_COMPARE_PLAYOUTS) and alpha-beta depth (MAX_COMPARE_DEPTH).
pub const MAX_COMPARE_PLAYOUTS: u32 = 1000;
/// Alpha-beta depth of a searching agent in a compare (MAX_COMPARE_DEPTH).
pub const MAX_COMPARE_DEPTH: u32 = 4;
/// Compare jobs kept for polling, finished ones dropped oldest first
/// (MAX_COMPARE_JOBS).
pub const MAX_COMPARE_JOBS: usize = 16;

/// The body of POST /api/compare: rulesets, agent pairings, games a row,
/// seed and ply limit.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareBody {
    rulesets: Vec<RulesetRef>,
    /// Pairings `[first seat, second seat]` of agent specs; none: the
    /// CLI's default pairing.
    #[serde(default)]
    pairings: Vec<[String; 2]>,
    games: u32,
    #[serde(default = "one")]
    seed: u64,
    max_plies: Option<u32>,
}

fn one() -> u64 {
    1
}

enum JobState {
    /// Playing; `cancelling` once `cancel` is set, until the games in
    /// flight end.
    Running,
    Done(Vec<SimReport>),
    Failed(String),
    /// Stopped by DELETE; its heavy slot is free.
    Cancelled,
}

/// One compare: its progress, then its report or failure, kept for polling.
pub struct Job {
    id: u64,
    total: u64,
    rows: Vec<String>,
    /// Games finished so far (the simulation counts them).
    done: Arc<AtomicU64>,
    state: JobState,
    /// Set by DELETE; the simulation checks it before each game.
    cancel: Arc<AtomicBool>,
}

impl Job {
    fn status(&self) -> &'static str {
        match self.state {
            JobState::Running if self.cancel.load(Ordering::Relaxed) => "cancelling",
            JobState::Running => "running",
            JobState::Done(_) => "done",
            JobState::Failed(_) => "failed",
            JobState::Cancelled => "cancelled",
        }
    }
}

/// The compares kept for polling (at most MAX_COMPARE_JOBS), with the next
/// id to give.
#[derive(Default)]
pub struct Jobs {
    next: u64,
    list: Vec<Arc<Mutex<Job>>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A compare's agent: as in a game, with a smaller search budget.
fn compare_agent(text: &str) -> Result<AgentSpec, ApiError> {
    let spec: AgentSpec = text
        .parse()
        .map_err(|e: String| ApiError::bad(format!("agent `{text}`: {e}")))?;
    match spec {
        AgentSpec::Mcts(p) if p.playouts > MAX_COMPARE_PLAYOUTS => Err(ApiError::bad(format!(
            "agent `{text}`: a compare allows at most {MAX_COMPARE_PLAYOUTS} playouts a move (MAX_COMPARE_PLAYOUTS)"
        ))),
        AgentSpec::AlphaBeta(p) if p.depth > MAX_COMPARE_DEPTH || p.time_ms.is_some() => {
            Err(ApiError::bad(format!(
                "agent `{text}`: a compare allows alpha-beta to depth {MAX_COMPARE_DEPTH} (MAX_COMPARE_DEPTH) and no time budget (results must not depend on the machine)"
            )))
        }
        AgentSpec::Perfect(p) if p.table.is_some() => Err(ApiError::bad(format!(
            "agent `{text}`: the playground reads no table files"
        ))),
        other => Ok(other),
    }
}

fn searching(a: &AgentSpec) -> bool {
    matches!(
        a,
        AgentSpec::AlphaBeta(_) | AgentSpec::Mcts(_) | AgentSpec::Perfect(_)
    )
}

/// POST /api/compare: start a compare; 202 with the job to poll.
pub async fn start(
    State(state): State<Arc<AppState>>,
    ApiJson(body): ApiJson<CompareBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let max_plies = validate(&body)?;
    let pairings: Vec<[AgentSpec; 2]> = body
        .pairings
        .iter()
        .map(|[a, b]| Ok([compare_agent(a)?, compare_agent(b)?]))
        .collect::<Result<_, ApiError>>()?;
    let permit = state.heavy.clone().try_acquire_owned().map_err(|_| {
        ApiError::busy(format!(
            "the server is running {} searches or compares already (HEAVY_SLOTS); try again when one ends",
            crate::HEAVY_SLOTS
        ))
    })?;
    let st = state.clone();
    let runs = crate::blocking(move || plan_runs(&st, &body.rulesets, &pairings)).await?;
    let total = total_games(&runs, body.games)?;
    let rows: Vec<String> = runs
        .iter()
        .map(|(any, p)| format!("{} ({} vs {})", any.rules().name, p[0], p[1]))
        .collect();
    let play = Play {
        runs,
        games: body.games,
        seed: body.seed,
        max_plies,
        done: Arc::new(AtomicU64::new(0)),
        cancel: Arc::new(AtomicBool::new(false)),
    };
    let job = lock(&state.jobs).add(total, rows, &play.done, &play.cancel)?;
    let id = lock(&job).id;
    play.spawn(permit, job);
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({ "job": id, "total": total, "poll": format!("/api/compare/{id}") })),
    ))
}

/// The body's counts checked; the ply cap of each game.
fn validate(body: &CompareBody) -> Result<u32, ApiError> {
    if body.rulesets.is_empty() {
        return Err(ApiError::bad("`rulesets` is empty: nothing to compare"));
    }
    if body.games == 0 {
        return Err(ApiError::bad("`games` is 0").expected("1 or more games per row"));
    }
    let max_plies = body.max_plies.unwrap_or(morrigo_play::DEFAULT_MAX_PLIES);
    if max_plies == 0 || max_plies > morrigo_play::DEFAULT_MAX_PLIES {
        return Err(ApiError::bad(format!(
            "`max_plies` must be from 1 to {}",
            morrigo_play::DEFAULT_MAX_PLIES
        )));
    }
    Ok(max_plies)
}

/// One row of a compare: a ruleset and the agents in its two seats.
type Run = (Arc<AnyMachine>, [AgentSpec; 2]);

/// The rows: each ruleset with each pairing (the CLI's default pairings
/// when none is given), the agents ready to play. Loads rulesets, so it
/// runs on the blocking pool.
fn plan_runs(
    st: &AppState,
    rulesets: &[RulesetRef],
    pairings: &[[AgentSpec; 2]],
) -> Result<Vec<Run>, ApiError> {
    let mut runs = Vec::new();
    for r in rulesets {
        let any = compare_machine(st, r)?;
        let rows = if pairings.is_empty() {
            default_pairings(any.rules())
        } else {
            pairings.to_vec()
        };
        for p in rows {
            let p = p.map(|a| crate::api::from_database(st, any.rules(), a));
            for a in &p {
                crate::api::check_perfect(any.rules(), a)?;
            }
            morrigo_play::prepare_agents(any.rules(), &p, morrigo_play::ON_THE_FLY_MEMORY)
                .map_err(ApiError::bad)?;
            runs.push((any.clone(), p));
        }
    }
    Ok(runs)
}

/// The games of all rows together, refused past the playground's limits
/// (lower when a searching agent plays).
fn total_games(runs: &[Run], games: u32) -> Result<u64, ApiError> {
    if runs.len() > MAX_COMPARE_ROWS {
        return Err(ApiError::bad(format!(
            "{} rows (rulesets × pairings) is more than the limit of {MAX_COMPARE_ROWS} (MAX_COMPARE_ROWS)",
            runs.len()
        )));
    }
    let total = u64::from(games) * runs.len() as u64;
    let (limit, name) = if runs.iter().any(|(_, p)| p.iter().any(searching)) {
        (MAX_COMPARE_SEARCH_GAMES, "MAX_COMPARE_SEARCH_GAMES")
    } else {
        (MAX_COMPARE_GAMES, "MAX_COMPARE_GAMES")
    };
    if total > limit {
        return Err(ApiError::bad(format!(
            "{total} games in all is more than the playground's limit of {limit} ({name}; `morrigo compare` has none)"
        )));
    }
    Ok(total)
}

impl Jobs {
    /// Keep a new running job for polling, under the next id. When the
    /// list is full the oldest ended job makes room; with none ended the
    /// compare is refused.
    fn add(
        &mut self,
        total: u64,
        rows: Vec<String>,
        done: &Arc<AtomicU64>,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Arc<Mutex<Job>>, ApiError> {
        if self.list.len() >= MAX_COMPARE_JOBS {
            let ended = self
                .list
                .iter()
                .position(|j| !matches!(lock(j).state, JobState::Running));
            match ended {
                Some(i) => {
                    self.list.remove(i);
                }
                None => return Err(ApiError::busy("too many compares are running")),
            }
        }
        self.next += 1;
        let job = Arc::new(Mutex::new(Job {
            id: self.next,
            total,
            rows,
            done: done.clone(),
            state: JobState::Running,
            cancel: cancel.clone(),
        }));
        self.list.push(job.clone());
        Ok(job)
    }
}

/// The games of a started compare, with the counter and the stop flag its
/// job shares.
struct Play {
    runs: Vec<Run>,
    games: u32,
    seed: u64,
    max_plies: u32,
    done: Arc<AtomicU64>,
    cancel: Arc<AtomicBool>,
}

impl Play {
    /// Every row's games; `None`: cancelled before every row was played.
    fn run(&self) -> Option<Vec<SimReport>> {
        self.runs
            .iter()
            .map(|(any, agents)| {
                let cfg = SimConfig {
                    games: self.games,
                    seed: self.seed,
                    max_plies: self.max_plies,
                    agents: *agents,
                    threads: None,
                };
                simulate_until(any, &cfg, Some(&*self.done), &self.cancel)
            })
            .collect()
    }

    /// Play on the blocking pool, holding the heavy slot, then say in `job`
    /// how it ended.
    fn spawn(self, permit: OwnedSemaphorePermit, job: Arc<Mutex<Job>>) {
        tokio::task::spawn_blocking(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.run()));
            // The slot is free before the job says it ended, so a client that
            // saw the end can start the next heavy job at once.
            drop(permit);
            lock(&job).state = match result {
                Ok(Some(reports)) => JobState::Done(reports),
                Ok(None) => JobState::Cancelled,
                Err(_) => JobState::Failed("the compare stopped on an internal error".to_string()),
            };
        });
    }
}

fn find(state: &AppState, id: &str) -> Result<Arc<Mutex<Job>>, ApiError> {
    let id: u64 = id
        .parse()
        .map_err(|_| ApiError::bad(format!("`{id}` is not a job number")))?;
    lock(&state.jobs)
        .list
        .iter()
        .find(|j| lock(j).id == id)
        .cloned()
        .ok_or_else(|| ApiError::not_found(format!("no compare job {id} (finished jobs are kept while fewer than {MAX_COMPARE_JOBS} are held)")))
}

/// GET /api/compare/{id}: progress, then the reports.
pub async fn poll(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> ApiResult {
    let job = find(&state, &id)?;
    let job = lock(&job);
    Ok(Json(job_json(&job)))
}

/// DELETE /api/compare/{id}: cancel a running compare. 202 with the job
/// (`cancelling` until the games in flight end, then `cancelled`); 409 for
/// a compare that already ended as `done` or `failed`.
pub async fn cancel(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let job = find(&state, &id)?;
    let job = lock(&job);
    match job.state {
        JobState::Running | JobState::Cancelled => {
            job.cancel.store(true, Ordering::Relaxed);
            Ok((StatusCode::ACCEPTED, Json(job_json(&job))))
        }
        JobState::Done(_) | JobState::Failed(_) => Err(ApiError::conflict(format!(
            "compare job {} has ended ({}): there is nothing to cancel",
            job.id,
            job.status()
        ))),
    }
}

fn job_json(job: &Job) -> Value {
    let (reports, table, error) = match &job.state {
        JobState::Done(r) => (
            serde_json::to_value(r).unwrap_or(Value::Null),
            json!(compare_table(r, Format::Markdown)),
            Value::Null,
        ),
        JobState::Failed(e) => (Value::Null, Value::Null, json!(e)),
        JobState::Running | JobState::Cancelled => (Value::Null, Value::Null, Value::Null),
    };
    let done = match &job.state {
        JobState::Done(_) => job.total,
        _ => job.done.load(Ordering::Relaxed).min(job.total),
    };
    json!({
        "job": job.id,
        "status": job.status(),
        "done": done,
        "total": job.total,
        "rows": job.rows,
        "reports": reports,
        "table": table,
        "error": error,
    })
}
