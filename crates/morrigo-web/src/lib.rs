//! The Morrigo web playground (`morrigo serve`): a JSON API under `/api/`
//! over the same library functions the CLI uses (check, show, replay,
//! explain, agents, compare, SGF), and a page embedded in the binary (an
//! editor, the board, play by clicking, a compare panel).
//!
//! Requests are stateless: each one carries its ruleset (text, a built-in
//! name or a file of the ruleset directory) and the move record, which the
//! server replays; compiled rulesets and the positions of the last requests
//! are cached (a bounded cache, no sessions), so a click that sends back the
//! record it was given plays one move on the kept position. Every request is bounded
//! (see the `MAX_*` constants); heavy work runs on the blocking pool, at
//! most [`HEAVY_SLOTS`] at a time, so the server keeps answering.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod api;
pub mod compare;
pub mod db;
pub mod error;
pub mod game;
pub mod guard;
pub mod ruleset;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use error::ApiError;
use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Largest request body in bytes (MAX_BODY_BYTES); larger ones get 413.
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// Longest wait for a request's headers, and for the next request on an
/// idle kept-alive connection (HEADER_TIMEOUT): the connection is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Longest wait for a request's whole body (BODY_TIMEOUT): 408, closed.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);

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
    /// Compiled rulesets, kept for the next request.
    pub machines: ruleset::MachineCache,
    /// Positions replayed for the last requests, so a click plays one move.
    pub positions: game::Positions,
    /// Permits for searches and compares: HEAVY_SLOTS of them.
    pub heavy: Arc<Semaphore>,
    /// Compares running or kept for polling.
    pub jobs: Mutex<compare::Jobs>,
    /// `morrigo serve --db DIR`: a solved database (canonical), whose
    /// values every position of its rules carries ([`db`]).
    pub database: Option<&'static str>,
}

/// What a ruleset file is opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Reading a file, which must exist.
    Read,
    /// Writing a file, which may be new.
    Write,
}

impl AppState {
    /// The directory is kept with its symlinks resolved: every file the
    /// server touches must resolve inside it.
    pub fn new(ruleset_dir: Option<PathBuf>) -> Self {
        AppState {
            ruleset_dir: ruleset_dir.map(|d| d.canonicalize().unwrap_or(d)),
            machines: ruleset::MachineCache::default(),
            positions: game::Positions::default(),
            heavy: Arc::new(Semaphore::new(HEAVY_SLOTS)),
            jobs: Mutex::default(),
            database: None,
        }
    }

    /// Serve the values of the database in `dir` (a directory of
    /// `morrigo solve RULESET --db DIR`) with every position of its rules;
    /// the page shows them, and `perfect` plays from it on any board.
    pub fn with_database(mut self, dir: &Path) -> Result<Self, String> {
        let real = dir.canonicalize().map_err(|e| {
            format!(
                "cannot open the database directory `{}`: {e}",
                dir.display()
            )
        })?;
        if !real.is_dir() {
            return Err(format!("`{}` is not a directory", dir.display()));
        }
        let text = real
            .to_str()
            .ok_or_else(|| format!("the path `{}` is not UTF-8", real.display()))?;
        // Once per server: agent specs name tables by `&'static str`.
        self.database = Some(Box::leak(text.to_string().into_boxed_str()));
        Ok(self)
    }

    /// The JSON of the position `s` after `t`, with the database's values
    /// when the server has one.
    pub fn position(
        &self,
        t: &morrigo_record::Transcript,
        s: &morrigo_engine::GameState,
    ) -> serde_json::Value {
        let mut pos = game::position(t, s);
        if let Some(dir) = self.database {
            db::add_values(&mut pos, s, dir);
        }
        pos
    }

    /// A file of the ruleset directory, by a checked name, as the path to
    /// read or write: a regular file inside the directory after resolving
    /// symlinks (for a write, also a name not yet taken). A link leading
    /// out is refused the same way whether its target exists or not.
    pub fn dir_file(&self, name: &str, access: Access) -> Result<PathBuf, ApiError> {
        let Some(dir) = &self.ruleset_dir else {
            return Err(ApiError::bad(
                "the server has no ruleset directory, so `file` names nothing",
            )
            .expected("`builtin` or `text`, or start the server as `morrigo serve DIR`"));
        };
        ruleset::check_file_name(name)?;
        confined_file(dir, name, access)
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
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| self.dir_file(n, Access::Read).is_ok())
            .collect();
        names.sort();
        Ok(names)
    }
}

/// `dir.join(name)` if it is a regular file inside `dir` (canonical) once
/// links are resolved, or (for a write) no entry at all.
fn confined_file(dir: &Path, name: &str, access: Access) -> Result<PathBuf, ApiError> {
    use std::io::ErrorKind;
    let path = dir.join(name);
    let outside = || {
        ApiError::new(
            axum::http::StatusCode::FORBIDDEN,
            &morrigo_diag::Diagnostic::new(format!(
                "`{name}` is a link that does not lead to a file of the ruleset directory; the playground reads and writes only files inside it"
            )),
        )
        .expected("a regular file of the ruleset directory (or save under another name)")
    };
    let target = match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == ErrorKind::NotFound => {
            return match access {
                Access::Write => Ok(path),
                Access::Read => Err(ApiError::not_found(format!(
                    "the ruleset directory has no file `{name}`"
                ))
                .expected("a name from GET /api/rulesets (`files`)")),
            };
        }
        Err(e) => return Err(ApiError::from_io("open", name, &e)),
        Ok(m) if m.file_type().is_symlink() => match path.canonicalize() {
            Ok(t) if t.starts_with(dir) => t,
            _ => return Err(outside()),
        },
        Ok(_) => path,
    };
    match std::fs::metadata(&target) {
        Ok(m) if m.is_file() => Ok(target),
        Ok(m) if m.is_dir() => Err(ApiError::conflict(format!(
            "`{name}` is a directory in the ruleset directory, not a ruleset file"
        ))
        .expected("the name of a ruleset file")),
        Ok(_) => Err(ApiError::conflict(format!(
            "`{name}` is not a regular file (a pipe, socket or device)"
        ))
        .expected("the name of a ruleset file")),
        Err(e) => Err(ApiError::from_io("open", name, &e)),
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

/// The whole app (page, assets and API) for a server bound to `bound`,
/// every route behind the [`guard`] checks.
pub fn router(state: AppState, bound: SocketAddr) -> Router {
    router_with(state, guard::Guard::new(bound, BODY_TIMEOUT))
}

/// The whole app, as [`router`], with the checks of `guard`.
pub fn router_with(state: AppState, guard: guard::Guard) -> Router {
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
        .fallback(api::no_route)
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(guard),
            guard::check,
        ))
}

/// How long the server waits for a client.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// Headers of a request, and the next request of an idle connection.
    pub header: Duration,
    /// The whole body of a request.
    pub body: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            header: HEADER_TIMEOUT,
            body: BODY_TIMEOUT,
        }
    }
}

/// Serve on `addr` until Ctrl-C; `ready` is called with the bound address.
pub async fn serve(
    state: AppState,
    addr: SocketAddr,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    ready(listener.local_addr()?);
    serve_on(listener, state, Timeouts::default(), async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}

/// Serve connections from `listener` until `shutdown` completes, with
/// `timeouts` on every connection (hyper's header read timeout also closes
/// kept-alive connections left idle).
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    state: AppState,
    timeouts: Timeouts,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let bound = listener.local_addr()?;
    let app = router_with(state, guard::Guard::new(bound, timeouts.body));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    // Out of file descriptors, or a connection reset before
                    // it was accepted: wait a little, keep serving.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(timeouts.header)
            .serve_connection(TokioIo::new(stream), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
        });
    }
    drop(listener);
    // Requests under way may finish; a search is bounded by MAX_AGENT_MS.
    let _ = tokio::time::timeout(Duration::from_secs(10), graceful.shutdown()).await;
    Ok(())
}
