//! No per-request leak: 10,000 `/api/agent` requests, half of them naming
//! a table file (whose path the agent parser used to leak on every parse),
//! half playing a move, and the resident memory stays put. Its own test
//! binary, so that no other test allocates meanwhile.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use morrigo_web::{router, AppState};
use serde_json::json;
use tower::ServiceExt;

/// Resident memory of this process in bytes (VmRSS).
fn resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

async fn agent(app: &Router, i: usize) -> StatusCode {
    let spec = if i.is_multiple_of(2) {
        // 4 KB a path, a different one each time: 40 MB if each leaked.
        format!("perfect:table={}-{i}.solve", "t".repeat(4000))
    } else {
        "random".to_string()
    };
    let body = json!({
        "ruleset": { "builtin": "three-mens-morris" },
        "record": "b2 a1",
        "agent": spec,
        "seed": i,
    });
    let req = Request::builder()
        .method("POST")
        .uri("/api/agent")
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .unwrap();
    status
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn ten_thousand_agent_requests_do_not_grow_memory() {
    let app = router(AppState::new(None), "127.0.0.1:8080".parse().unwrap());
    // Warm up: the compiled ruleset, the allocator's pools, the runtime.
    for i in 0..200 {
        agent(&app, i).await;
    }
    let before = resident();
    let mut played = 0;
    for i in 0..10_000 {
        let status = agent(&app, i);
        match status.await {
            StatusCode::OK => played += 1,
            StatusCode::BAD_REQUEST => {}
            other => panic!("request {i}: {other}"),
        }
    }
    let grown = resident().saturating_sub(before);
    assert_eq!(played, 5_000, "every `random` request played a move");
    // Leaking the paths alone would be 40 MB.
    assert!(
        grown < 12 << 20,
        "resident memory grew by {} KiB over 10,000 requests",
        grown >> 10
    );
    eprintln!("resident memory grew by {} KiB", grown >> 10);
}
