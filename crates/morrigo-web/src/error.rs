//! How the API says no: a status code and a JSON body
//! `{"error": {"message", "expected", "notes", "location"}}`, the same
//! located diagnostics the CLI prints. Never a 500 for a bad request.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use morrigo_diag::Diagnostic;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// A refused request.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The JSON body: `{"error": {…}}`, and `diagnostics` for a bad ruleset.
    pub body: Value,
}

/// What a handler answers: its JSON, or the refusal.
pub type ApiResult<T = Json<Value>> = Result<T, ApiError>;

impl ApiError {
    /// A refusal with `status` and the diagnostic `d` as its `error`.
    pub fn new(status: StatusCode, d: &Diagnostic) -> Self {
        ApiError {
            status,
            body: json!({ "error": diagnostic_json(d) }),
        }
    }

    /// 400: the request asks for something impossible.
    pub fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, &Diagnostic::new(message))
    }

    /// 400 with a located diagnostic (a bad ruleset, an unreadable record).
    pub fn diag(d: &Diagnostic) -> Self {
        Self::new(StatusCode::BAD_REQUEST, d)
    }

    /// 400 for every diagnostic of a ruleset: the first as `error`, all of
    /// them as `diagnostics`.
    pub fn diags(ds: &[Diagnostic]) -> Self {
        let first = ds
            .first()
            .cloned()
            .unwrap_or_else(|| Diagnostic::new("the ruleset has errors"));
        let mut e = Self::diag(&first);
        e.body["diagnostics"] = ds.iter().map(diagnostic_json).collect();
        e
    }

    /// 429: a limit on concurrent work was reached.
    pub fn busy(message: impl Into<String>) -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, &Diagnostic::new(message))
    }

    /// 409: the request does not fit the resource's state (cancelling a
    /// compare that has ended).
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, &Diagnostic::new(message))
    }

    /// 404: no such built-in, file or compare job.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, &Diagnostic::new(message))
    }

    /// 500: the server itself failed (a file could not be written).
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, &Diagnostic::new(message))
    }

    /// A file of the ruleset directory could not be used: the status says
    /// whose fault it is (403 permissions, 409 a directory, 507 a full
    /// disk); only what no request can cause is a 500.
    pub fn from_io(what: &str, name: &str, e: &std::io::Error) -> Self {
        use std::io::ErrorKind;
        let status = match e.kind() {
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => StatusCode::FORBIDDEN,
            ErrorKind::IsADirectory | ErrorKind::NotADirectory | ErrorKind::AlreadyExists => {
                StatusCode::CONFLICT
            }
            ErrorKind::StorageFull | ErrorKind::QuotaExceeded | ErrorKind::FileTooLarge => {
                StatusCode::INSUFFICIENT_STORAGE
            }
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        Self::new(
            status,
            &Diagnostic::new(format!("cannot {what} `{name}`: {e}")),
        )
    }

    /// The same refusal, saying what would have been accepted.
    pub fn expected(mut self, what: impl Into<String>) -> Self {
        self.body["error"]["expected"] = json!(what.into());
        self
    }
}

impl From<Diagnostic> for ApiError {
    fn from(d: Diagnostic) -> Self {
        ApiError::diag(&d)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

/// A diagnostic as JSON; `text` is what the CLI would print.
pub fn diagnostic_json(d: &Diagnostic) -> Value {
    json!({
        "message": d.message,
        "expected": d.expected,
        "notes": d.notes,
        "location": d.location.as_ref().map(|l| json!({
            "file": &*l.file,
            "line": l.line,
            "col": l.col,
            "source_line": l.source_line.as_deref(),
        })),
        "text": d.to_string(),
    })
}

/// A JSON request body whose problems are 400s (413 past the size limit)
/// with a message, not the framework's plain-text rejections.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|r| {
            if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    &Diagnostic::new(format!(
                        "the request body is larger than the limit of {} bytes (MAX_BODY_BYTES)",
                        crate::MAX_BODY_BYTES
                    )),
                )
            } else {
                ApiError::bad(format!("cannot read the request body: {}", r.body_text()))
            }
        })?;
        if bytes.is_empty() {
            return Err(ApiError::bad("the request has no body").expected("a JSON object"));
        }
        serde_json::from_slice(&bytes).map(ApiJson).map_err(|e| {
            let what = if e.is_syntax() || e.is_eof() {
                "the request body is not valid JSON"
            } else {
                "the request body does not fit this route"
            };
            ApiError::bad(format!("{what}: {e}"))
                .expected("the JSON object this route takes (see /api/openapi.yaml)")
        })
    }
}
