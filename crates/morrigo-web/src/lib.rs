//! The Morrigo web playground (`morrigo serve`): a JSON API under `/api/`
//! over the same library functions the CLI uses (check, show, replay,
//! explain, agents, compare, SGF), and a page embedded in the binary (an
//! editor, the board, play by clicking, a compare panel).
//!
//! Requests are stateless: each one carries its ruleset (text, a built-in
//! name or a file of the ruleset directory) and the move record, which the
//! server replays; compiled rulesets are cached. Every request is bounded
//! (see the `MAX_*` constants); heavy work runs on the blocking pool, at
//! most [`HEAVY_SLOTS`] at a time, so the server keeps answering.

pub mod api;
pub mod compare;
pub mod error;
pub mod game;
pub mod ruleset;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use error::ApiError;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// Largest request body in bytes (MAX_BODY_BYTES); larger ones get 413.
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// Searches (agent moves) and compares running at once (HEAVY_SLOTS);
/// more are refused with 429.
pub const HEAVY_SLOTS: usize = 2;

/// The OpenAPI description of the routes.
pub const OPENAPI: &str = include_str!("../openapi.yaml");

/// Every route: method and path as the router and `openapi.yaml` write it.
pub const ROUTES: &[(&str, &str)] = &[
    ("get", "/api/rulesets"),
    ("get", "/api/source"),
    ("post", "/api/check"),
    ("post", "/api/show"),
    ("post", "/api/position"),
    ("post", "/api/apply"),
    ("post", "/api/undo"),
    ("post", "/api/explain"),
    ("post", "/api/agent"),
    ("post", "/api/compare"),
    ("get", "/api/compare/{job}"),
    ("delete", "/api/compare/{job}"),
    ("post", "/api/sgf/export"),
    ("post", "/api/sgf/import"),
    ("post", "/api/save"),
    ("get", "/api/openapi.yaml"),
];

/// What the server knows beyond a request.
pub struct AppState {
    /// `morrigo serve DIR`: where rulesets are listed, read and saved.
    pub ruleset_dir: Option<PathBuf>,
    pub machines: ruleset::MachineCache,
    pub heavy: Arc<Semaphore>,
    pub jobs: Mutex<compare::Jobs>,
}

impl AppState {
    pub fn new(ruleset_dir: Option<PathBuf>) -> Self {
        AppState {
            ruleset_dir,
            machines: ruleset::MachineCache::default(),
            heavy: Arc::new(Semaphore::new(HEAVY_SLOTS)),
            jobs: Mutex::default(),
        }
    }

    /// A file of the ruleset directory, by a checked name.
    pub fn dir_file(&self, name: &str) -> Result<PathBuf, ApiError> {
        let Some(dir) = &self.ruleset_dir else {
            return Err(ApiError::bad(
                "the server has no ruleset directory, so `file` names nothing",
            )
            .expected("`builtin` or `text`, or start the server as `morrigo serve DIR`"));
        };
        ruleset::check_file_name(name)?;
        Ok(dir.join(name))
    }

    /// The `.yaml`/`.yml` files of the ruleset directory, sorted.
    pub fn dir_files(&self) -> Result<Vec<String>, ApiError> {
        let Some(dir) = &self.ruleset_dir else {
            return Ok(Vec::new());
        };
        let entries = std::fs::read_dir(dir)
            .map_err(|e| ApiError::internal(format!("cannot list `{}`: {e}", dir.display())))?;
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter(|e| e.path().is_file())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| ruleset::check_file_name(n).is_ok())
            .collect();
        names.sort();
        Ok(names)
    }
}

/// Run engine work on the blocking pool; a panic is a 500 with a message,
/// never a dropped connection.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r,
        Err(_) => Err(ApiError::internal(
            "the request stopped on an internal error (a bug: please report it with the request)",
        )),
    }
}

/// The page and its assets, embedded at build time (`web/build.sh` writes
/// `assets/app.js`).
const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");

fn asset(kind: &'static str, body: &'static str) -> impl IntoResponse {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// The whole app: page, assets and API.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/api/rulesets", get(api::rulesets))
        .route("/api/source", get(api::source))
        .route("/api/check", post(api::check))
        .route("/api/show", post(api::show))
        .route("/api/position", post(api::position_route))
        .route("/api/apply", post(api::apply))
        .route("/api/undo", post(api::undo))
        .route("/api/explain", post(api::explain))
        .route("/api/agent", post(api::agent))
        .route("/api/compare", post(compare::start))
        .route(
            "/api/compare/{job}",
            get(compare::poll).delete(compare::cancel),
        )
        .route("/api/sgf/export", post(api::sgf_export))
        .route("/api/sgf/import", post(api::sgf_import))
        .route("/api/save", post(api::save))
        .route("/api/openapi.yaml", get(api::openapi))
        .route("/api/{*rest}", axum::routing::any(api::no_route))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(Arc::new(state));
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/app.css",
            get(|| async { asset("text/css; charset=utf-8", APP_CSS) }),
        )
        .merge(api)
}

/// Serve on `addr` until Ctrl-C; `ready` is called with the bound address.
pub async fn serve(
    state: AppState,
    addr: std::net::SocketAddr,
    ready: impl FnOnce(std::net::SocketAddr),
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    ready(listener.local_addr()?);
    axum::serve(listener, router(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
