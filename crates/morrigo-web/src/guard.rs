//! What every request passes before any route sees it, so that no web page
//! the user visits can drive the API:
//! - `Host` must be the server's own address (the bound `host:port`,
//!   `localhost`, `127.0.0.1` or `[::1]` with its port; any IP literal with
//!   its port when bound to `0.0.0.0`/`::`): a rebound DNS name is refused.
//! - `Origin`, when sent, must be `http://` and that same host: a foreign
//!   page's request is refused even when it is a CORS "simple request".
//! - A request with a body (every POST) must say `application/json`: a form
//!   or `text/plain` post never reaches a route.
//! - The body is read whole within [`Guard::body_timeout`] and
//!   [`MAX_BODY_BYTES`](crate::MAX_BODY_BYTES): a slow body gets 408.
//!
//! Refusals are 403, 415, 408 or 413 with the API's JSON error body.

use crate::error::ApiError;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use morrigo_diag::Diagnostic;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// The checks of one server: its address and its body timeout.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The `Host` values accepted (lower case).
    hosts: Vec<String>,
    /// Bound to every interface: any IP literal with `port` is this server.
    any_ip: bool,
    port: u16,
    /// Longest wait for a request's whole body, answered 408.
    pub body_timeout: Duration,
}

impl Guard {
    /// The guard of a server bound to `bound` (the address after binding,
    /// so `--port 0` gives the real port).
    pub fn new(bound: SocketAddr, body_timeout: Duration) -> Self {
        let port = bound.port();
        let mut hosts = vec![
            bound.to_string(),
            format!("localhost:{port}"),
            format!("127.0.0.1:{port}"),
            format!("[::1]:{port}"),
        ];
        if port == 80 {
            // Browsers leave the default port out.
            let bare: Vec<String> = hosts
                .iter()
                .filter_map(|h| h.rsplit_once(':').map(|(name, _)| name.to_string()))
                .collect();
            hosts.extend(bare);
        }
        Guard {
            hosts,
            any_ip: bound.ip().is_unspecified(),
            port,
            body_timeout,
        }
    }

    /// Whether `host` (a `Host` header) names this server.
    pub fn host_ok(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        if self.hosts.contains(&host) {
            return true;
        }
        if !self.any_ip {
            return false;
        }
        // A DNS name can be rebound to this machine; an IP literal cannot.
        let port = match host.parse::<SocketAddr>() {
            Ok(a) => a.port(),
            Err(_) => match host
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<IpAddr>()
            {
                Ok(_) => 80,
                Err(_) => return false,
            },
        };
        port == self.port
    }
}

fn forbidden(message: String) -> Response {
    ApiError::new(
        StatusCode::FORBIDDEN,
        &Diagnostic::new(message).expected(
            "requests from the playground's own page, at the address `morrigo serve` printed",
        ),
    )
    .into_response()
}

/// Whether the request carries a body (a method that takes one, or body
/// headers on any other).
fn has_body(method: &Method, headers: &HeaderMap) -> bool {
    matches!(*method, Method::POST | Method::PUT | Method::PATCH)
        || headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0")
}

fn is_json(v: Option<&HeaderValue>) -> bool {
    v.and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or("").trim())
        .is_some_and(|t| t.eq_ignore_ascii_case("application/json"))
}

/// The middleware: see the module's description.
pub async fn check(State(guard): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string)
        .or_else(|| req.uri().authority().map(|a| a.to_string()));
    let Some(host) = host.filter(|h| guard.host_ok(h)) else {
        return forbidden(
            "the request's `Host` is not this server's address (a page on another site, or a DNS name rebound to this machine)".to_string(),
        );
    };
    if let Some(origin) = headers.get(header::ORIGIN) {
        let same = origin
            .to_str()
            .ok()
            .and_then(|o| o.strip_prefix("http://"))
            .is_some_and(|o| o.eq_ignore_ascii_case(&host));
        if !same {
            return forbidden(format!(
                "the request comes from another site (`Origin: {}`); the API answers only its own page",
                String::from_utf8_lossy(origin.as_bytes())
            ));
        }
    }
    if !has_body(req.method(), headers) {
        return next.run(req).await;
    }
    if !is_json(headers.get(header::CONTENT_TYPE)) {
        return ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            &Diagnostic::new(format!(
                "the request body is `{}`, not JSON",
                headers
                    .get(header::CONTENT_TYPE)
                    .map_or("of no type".into(), |v| String::from_utf8_lossy(
                        v.as_bytes()
                    ))
            ))
            .expected("`Content-Type: application/json`"),
        )
        .into_response();
    }
    let (parts, body) = req.into_parts();
    let limited = Limited::new(body, crate::MAX_BODY_BYTES);
    let bytes = match tokio::time::timeout(guard.body_timeout, limited.collect()).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => {
            return close(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                &Diagnostic::new(format!(
                    "the request body is larger than the limit of {} bytes (MAX_BODY_BYTES)",
                    crate::MAX_BODY_BYTES
                )),
            ))
        }
        Ok(Err(e)) => return close(ApiError::bad(format!("cannot read the request body: {e}"))),
        Err(_) => {
            return close(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                &Diagnostic::new(format!(
                    "the request body did not arrive within {} s (BODY_TIMEOUT)",
                    guard.body_timeout.as_secs_f64()
                )),
            ))
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// A refusal after which the connection is closed (its body is unread).
fn close(e: ApiError) -> Response {
    let mut r = e.into_response();
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    r
}
