//! The JSON routes under `/api/` (documented in `openapi.yaml`).

use crate::error::{diagnostic_json, ApiError, ApiJson, ApiResult};
use crate::game::{self, one_move, refusal_json, replay};
use crate::ruleset::{check_file_name, Compiled, RulesetRef};
use crate::{blocking, AppState};
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use morrigo_engine::AnyMachine;
use morrigo_play::{AgentSpec, PerfectParams, Player};
use morrigo_rules::builtin;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

type St = State<Arc<AppState>>;

/// GET /api/rulesets: the built-ins (for the picker and `extends`) and the
/// files of the ruleset directory.
pub async fn rulesets(State(state): St) -> ApiResult {
    let builtins: Vec<Value> = builtin::all()
        .iter()
        .map(|b| {
            let family = b
                .path
                .strip_prefix("rulesets/")
                .and_then(|p| p.split_once('/'))
                .map(|(f, _)| f);
            json!({ "name": b.name, "path": b.path, "family": family })
        })
        .collect();
    Ok(Json(json!({
        "builtins": builtins,
        "files": state.dir_files()?,
        "directory": state.ruleset_dir.as_ref().map(|d| d.display().to_string()),
        "agents": morrigo_play::AGENT_NAMES,
    })))
}

/// The query of GET /api/source: `builtin` or `file`, exactly one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceQuery {
    builtin: Option<String>,
    file: Option<String>,
}

/// GET /api/source?builtin=NAME | ?file=NAME: the text of a ruleset.
pub async fn source(
    State(state): St,
    query: Result<Query<SourceQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult {
    let Ok(Query(q)) = query else {
        return Err(ApiError::bad(
            "the query must be `?builtin=NAME` or `?file=NAME`",
        ));
    };
    match (q.builtin, q.file) {
        (Some(name), None) => {
            let b = builtin::find(&name).ok_or_else(|| {
                ApiError::not_found(format!("no built-in ruleset named `{name}`"))
            })?;
            Ok(Json(
                json!({ "name": b.name, "path": b.path, "text": b.text }),
            ))
        }
        (None, Some(file)) => {
            let path = state.dir_file(&file, crate::Access::Read)?;
            let text = morrigo_diag::read_input(&path)
                .map_err(|e| ApiError::bad(format!("cannot read `{file}`: {}", e.why)))?;
            Ok(Json(
                json!({ "name": file, "path": path.display().to_string(), "text": text }),
            ))
        }
        _ => Err(ApiError::bad("give exactly one of `builtin` and `file`")),
    }
}

/// The body of POST /api/check and /api/show: a ruleset.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetBody {
    ruleset: RulesetRef,
}

/// POST /api/check: every diagnostic of a ruleset (200 either way: the
/// diagnostics are the answer).
pub async fn check(State(state): St, ApiJson(body): ApiJson<RulesetBody>) -> ApiResult {
    blocking(move || match body.ruleset.machine(&state) {
        Ok(any) => {
            let r = any.rules();
            Ok(Json(json!({
                "ok": true,
                "diagnostics": [],
                "name": r.name,
                "title": r.title,
                "points": r.topology.len(),
                "lines": r.topology.lines.len(),
                "end_rules": r.end.len(),
            })))
        }
        Err(Compiled::Refused(e)) => Err(e),
        Err(Compiled::Errors(ds)) => Ok(Json(json!({
            "ok": false,
            "diagnostics": ds.iter().map(diagnostic_json).collect::<Vec<_>>(),
        }))),
    })
    .await
}

/// POST /api/show: the compiled summary (as `morrigo show` prints it) and
/// the board's drawing data.
pub async fn show(State(state): St, ApiJson(body): ApiJson<RulesetBody>) -> ApiResult {
    blocking(move || {
        let any = body.ruleset.load(&state)?;
        let r = any.rules();
        let t = &r.topology;
        let at = t.svg_positions();
        let margin = 36.0;
        let (w, h) = at.iter().fold((0.0f64, 0.0f64), |(w, h), &(x, y)| {
            (w.max(x + margin), h.max(y + margin))
        });
        let points: Vec<Value> = t
            .points()
            .zip(&at)
            .map(|(p, &(x, y))| json!({ "name": t.name(p), "x": x, "y": y }))
            .collect();
        let mut edges = Vec::new();
        for p in t.points() {
            for &q in &t.neighbours[usize::from(p)] {
                if q > p {
                    edges.push([p, q]);
                }
            }
        }
        let passes: Vec<String> = (0..r.passes.kinds.len())
            .map(|k| morrigo_engine::notation::pass_text(r, k as u8))
            .collect();
        Ok(Json(json!({
            "name": r.name,
            "title": r.title,
            "summary": r.to_string(),
            "players": r.players,
            "go": r.play.is_some(),
            "passes": passes,
            "board": {
                "width": w, "height": h,
                "points": points,
                "edges": edges,
                "lines": t.lines,
            },
        })))
    })
    .await
}

/// The body of POST /api/position, /api/undo and /api/sgf/export: a
/// ruleset and a move record.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameBody {
    ruleset: RulesetRef,
    #[serde(default)]
    record: String,
}

/// POST /api/position: replay a record; the board, legal moves, passes.
pub async fn position_route(State(state): St, ApiJson(body): ApiJson<GameBody>) -> ApiResult {
    blocking(move || {
        let any = body.ruleset.load(&state)?;
        let (t, s) = replay(&state, &any, &body.record)?;
        Ok(Json(state.position(&t, &s)))
    })
    .await
}

/// POST /api/undo: the position one ply before the record's end.
pub async fn undo(State(state): St, ApiJson(body): ApiJson<GameBody>) -> ApiResult {
    blocking(move || {
        let any = body.ruleset.load(&state)?;
        let (t, _) = replay(&state, &any, &body.record)?;
        if t.plies.is_empty() {
            return Err(ApiError::bad("nothing to undo: the record is empty"));
        }
        // The shorter record was usually the position before: kept.
        let shorter: Vec<&str> = t.plies[..t.plies.len() - 1]
            .iter()
            .map(|p| p.mv.as_str())
            .collect();
        let (t, s) = replay(&state, &any, &shorter.join(" "))?;
        Ok(Json(state.position(&t, &s)))
    })
    .await
}

/// The body of POST /api/apply and /api/explain: a ruleset, a move record
/// and one move after it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    ruleset: RulesetRef,
    #[serde(default)]
    record: String,
    #[serde(rename = "move")]
    mv: String,
}

/// POST /api/apply: play one move after the record. Refused moves are
/// answered 200 with `accepted: false` and the refusal, quoting the rule.
pub async fn apply(State(state): St, ApiJson(body): ApiJson<MoveBody>) -> ApiResult {
    one_move(&body.mv)?;
    blocking(move || {
        let any = body.ruleset.load(&state)?;
        let (t0, s0) = replay(&state, &any, &body.record)?;
        match game::play_on(&state, &any, (&t0, &s0), body.mv.trim()) {
            Ok((t, s)) => Ok(Json(
                json!({ "accepted": true, "position": state.position(&t, &s) }),
            )),
            Err(e) if e.ply > t0.plies.len() => Ok(Json(json!({
                "accepted": false,
                "refusal": refusal_json(&s0, body.mv.trim(), &e.diagnostic),
                "position": state.position(&t0, &s0),
            }))),
            Err(e) => Err(ApiError::diag(&e.diagnostic)),
        }
    })
    .await
}

/// POST /api/explain: whether a move is legal after the record, and if not
/// which rule refuses it (`morrigo_engine::explain`).
pub async fn explain(State(state): St, ApiJson(body): ApiJson<MoveBody>) -> ApiResult {
    one_move(&body.mv)?;
    blocking(move || {
        let any = body.ruleset.load(&state)?;
        let (_, s) = replay(&state, &any, &body.record)?;
        let rules = s.rules();
        let intents = morrigo_engine::notation::parse_token_in(rules, body.mv.trim(), None)?;
        let [intent] = intents.as_slice() else {
            return Err(ApiError::bad(
                "explain takes one ply (`g1`, `xd2`), not a move with its removals",
            ));
        };
        let mut moves = Vec::new();
        s.legal_moves_into(&mut moves);
        let legal = moves.iter().any(|mv| intent.matches(&mv.packed()));
        let r = s.explain(*intent);
        Ok(Json(json!({
            "move": body.mv.trim(),
            "legal": legal,
            "reason": r.reason,
            "rule": r.rule.map(|(text, at)| game::rule_json(rules, &text, at.as_deref())),
        })))
    })
    .await
}

/// The body of POST /api/agent: a ruleset, a move record, an agent spec
/// and its seed.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentBody {
    ruleset: RulesetRef,
    #[serde(default)]
    record: String,
    agent: String,
    #[serde(default)]
    seed: u64,
}

/// Largest Monte Carlo budget of one move (MAX_AGENT_PLAYOUTS); MCTS has no
/// time budget, so its playouts are bounded (an estimate from the book's
/// playout rates: seconds on 19×19 Go with the release build).
pub const MAX_AGENT_PLAYOUTS: u32 = 5_000;
/// Time budget of every alpha-beta search (MAX_AGENT_MS): the search stops
/// then, whatever its depth, and the deepest completed iteration plays.
pub const MAX_AGENT_MS: u64 = 5000;

/// Largest board on which `perfect` plays (MAX_PERFECT_POINTS): it solves
/// the game first, which takes minutes on a 16-point board before the
/// solver can even say that the game is too large.
pub const MAX_PERFECT_POINTS: usize = 12;

/// `perfect` only where solving it is quick.
pub fn check_perfect(rules: &morrigo_rules::Rules, spec: &AgentSpec) -> Result<(), ApiError> {
    let n = rules.topology.len();
    if matches!(spec, AgentSpec::Perfect(PerfectParams { table: None })) && n > MAX_PERFECT_POINTS {
        return Err(ApiError::bad(format!(
            "agent `perfect`: {} has {n} points, and the playground solves games only on boards of at most {MAX_PERFECT_POINTS} points (MAX_PERFECT_POINTS)",
            rules.name
        ))
        .expected(format!(
            "another agent, or a database: `morrigo solve {} --db DIR` then `morrigo serve --db DIR`",
            rules.name
        )));
    }
    Ok(())
}

/// `perfect` plays from the server's database (`--db`) when it holds
/// these rules, on any board: nothing is solved.
pub fn from_database(state: &AppState, rules: &morrigo_rules::Rules, spec: AgentSpec) -> AgentSpec {
    match (spec, state.database) {
        (AgentSpec::Perfect(PerfectParams { table: None }), Some(dir))
            if morrigo_play::database(rules, dir).is_ok() =>
        {
            AgentSpec::Perfect(PerfectParams { table: Some(dir) })
        }
        (spec, _) => spec,
    }
}

/// An agent the playground may run: bounded work, no files.
pub fn agent_spec(text: &str) -> Result<AgentSpec, ApiError> {
    let spec: AgentSpec = text
        .parse()
        .map_err(|e: String| ApiError::bad(format!("agent `{text}`: {e}")))?;
    match spec {
        AgentSpec::Mcts(p) if p.playouts > MAX_AGENT_PLAYOUTS => Err(ApiError::bad(format!(
            "agent `{text}`: {} playouts a move is more than the playground's limit of {MAX_AGENT_PLAYOUTS} (MAX_AGENT_PLAYOUTS)",
            p.playouts
        ))),
        AgentSpec::AlphaBeta(p) if p.time_ms.is_some_and(|t| t > MAX_AGENT_MS) => {
            Err(ApiError::bad(format!(
                "agent `{text}`: a time budget over {MAX_AGENT_MS} ms is more than the playground allows (MAX_AGENT_MS)"
            )))
        }
        AgentSpec::AlphaBeta(mut p) => {
            p.time_ms = Some(p.time_ms.unwrap_or(MAX_AGENT_MS));
            Ok(AgentSpec::AlphaBeta(p))
        }
        AgentSpec::Perfect(p) if p.table.is_some() => Err(ApiError::bad(format!(
            "agent `{text}`: the playground reads no table files"
        ))
        .expected("`perfect` without `table=` (small games are solved first)")),
        other => Ok(other),
    }
}

/// POST /api/agent: the move a built-in agent chooses after the record,
/// played (the position after it).
pub async fn agent(State(state): St, ApiJson(body): ApiJson<AgentBody>) -> ApiResult {
    let spec = agent_spec(&body.agent)?;
    let permit = state.heavy.clone().try_acquire_owned().map_err(|_| {
        ApiError::busy(format!(
            "the server is running {} searches or compares already (HEAVY_SLOTS); try again when one ends",
            crate::HEAVY_SLOTS
        ))
    })?;
    blocking(move || {
        let _permit = permit;
        let any = body.ruleset.load(&state)?;
        let spec = from_database(&state, any.rules(), spec);
        check_perfect(any.rules(), &spec)?;
        morrigo_play::prepare_agents(any.rules(), &[spec], morrigo_play::ON_THE_FLY_MEMORY)
            .map_err(ApiError::bad)?;
        let (t0, s) = replay(&state, &any, &body.record)?;
        let mut moves = Vec::new();
        if s.legal_moves_into(&mut moves).is_some()
            || moves.is_empty()
            || t0.result.status == morrigo_record::Status::Over
        {
            return Err(ApiError::bad(
                "the game is over: the agent has no move to make",
            ));
        }
        let mut rng = morrigo_play::game_rng(body.seed, t0.plies.len() as u64);
        let mut player = Player::new(spec);
        let mv = player.choose_in(&s, &moves, &mut rng);
        let text = morrigo_engine::notation::format_move_in(any.rules(), &mv.packed());
        let (t, s) = game::play_on(&state, &any, (&t0, &s), &text)
            .map_err(|e| ApiError::diag(&e.diagnostic))?;
        Ok(Json(
            json!({ "move": text, "agent": spec.to_string(), "position": state.position(&t, &s) }),
        ))
    })
    .await
}

/// POST /api/sgf/export: the record as SGF (Go-style rulesets on grids).
pub async fn sgf_export(State(state): St, ApiJson(body): ApiJson<GameBody>) -> ApiResult {
    blocking(move || {
        let any = body.ruleset.load(&state)?;
        let (t, s) = replay(&state, &any, &body.record)?;
        let sgf = morrigo_sgf::transcript::export_transcript(&s, &t)?;
        Ok(Json(json!({ "sgf": sgf })))
    })
    .await
}

/// The body of POST /api/sgf/import: a ruleset and the SGF text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SgfBody {
    ruleset: RulesetRef,
    sgf: String,
}

/// POST /api/sgf/import: the main line of an SGF game as a record, replayed.
pub async fn sgf_import(State(state): St, ApiJson(body): ApiJson<SgfBody>) -> ApiResult {
    blocking(move || {
        let any = body.ruleset.load(&state)?;
        let rules = any.rules();
        let game = morrigo_sgf::import(&body.sgf, rules)?;
        if game.setup.iter().any(|s| !s.is_empty()) || game.first_player != rules.start.to_move {
            return Err(ApiError::bad(
                "the game starts from set-up stones (AB/AW/PL); the playground plays from the ruleset's start",
            )
            .expected("`morrigo replay RULESET --sgf GAME.sgf`, which reads set-ups"));
        }
        let record: Vec<&str> = game.moves.iter().map(|mv| mv.token.as_str()).collect();
        let record = record.join(" ");
        let warnings: Vec<Value> = game.warnings.iter().map(diagnostic_json).collect();
        let (t, s) = replay(&state, &any, &record)?;
        Ok(Json(
            json!({ "record": record, "warnings": warnings, "position": state.position(&t, &s) }),
        ))
    })
    .await
}

/// The body of POST /api/save: a file name in the ruleset directory and
/// its text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveBody {
    file: String,
    text: String,
}

/// POST /api/save: write a ruleset file into the ruleset directory (with
/// its check, so the page can say whether it is good).
pub async fn save(State(state): St, ApiJson(body): ApiJson<SaveBody>) -> ApiResult {
    if state.ruleset_dir.is_none() {
        return Err(
            ApiError::bad("the server has no ruleset directory to save into")
                .expected("start it as `morrigo serve DIR`"),
        );
    }
    check_file_name(&body.file)?;
    blocking(move || {
        let path = state.dir_file(&body.file, crate::Access::Write)?;
        // Whole or not at all: a full disk leaves the old file as it was.
        morrigo_store::write_atomic(&path, body.text.as_bytes()).map_err(|e| match e {
            morrigo_store::StoreError::Io { source, .. } => {
                ApiError::from_io("save", &body.file, &source)
            }
            other => ApiError::internal(format!("cannot save `{}`: {other}", body.file)),
        })?;
        state.machines.clear();
        state.positions.clear();
        let r = RulesetRef {
            file: Some(body.file.clone()),
            ..RulesetRef::default()
        };
        let diagnostics: Vec<Value> = match r.machine(&state) {
            Ok(_) => Vec::new(),
            Err(Compiled::Errors(ds)) => ds.iter().map(diagnostic_json).collect(),
            Err(Compiled::Refused(e)) => return Err(e),
        };
        Ok(Json(json!({ "saved": path.display().to_string(), "ok": diagnostics.is_empty(), "diagnostics": diagnostics })))
    })
    .await
}

/// GET /api/openapi.yaml
pub async fn openapi() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/yaml; charset=utf-8")],
        crate::OPENAPI,
    )
}

/// Unknown routes under /api/.
pub async fn no_route() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        &morrigo_diag::Diagnostic::new("no such API route")
            .expected("a route of /api/openapi.yaml"),
    )
}

/// The ruleset a compare row runs, compiled.
pub fn compare_machine(state: &AppState, r: &RulesetRef) -> Result<Arc<AnyMachine>, ApiError> {
    r.load(state).map(|l| l.machine)
}
