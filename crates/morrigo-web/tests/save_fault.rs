//! A save that fails half-way (a full disk, injected with
//! MORRIGO_FAIL_WRITES_AFTER) used to truncate the file it replaced. Its
//! own test binary: the injected budget is process-wide.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use morrigo_web::{router, AppState};
use serde_json::{json, Value};
use tower::ServiceExt;

#[tokio::test]
async fn a_failed_save_leaves_the_old_file_whole() {
    // Before any write of this process: the budget is read once.
    std::env::set_var(morrigo_store::FAIL_WRITES_ENV, "16");
    let dir = std::env::temp_dir().join(format!("morrigo-save-fault-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let old = "extends: three-mens-morris\nname: old\ntitle: The old one\n";
    std::fs::write(dir.join("mine.yaml"), old).unwrap();
    let app = router(
        AppState::new(Some(dir.clone())),
        "127.0.0.1:8080".parse().unwrap(),
    );
    let body = json!({
        "file": "mine.yaml",
        "text": "extends: three-mens-morris\nname: new\ntitle: A new one, longer than the budget\n",
    });
    let req = Request::builder()
        .method("POST")
        .uri("/api/save")
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let res = app.oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .unwrap();
    let r: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(message.contains("cannot save `mine.yaml`"), "{r}");
    assert!(message.contains("no space left"), "{r}");
    assert_eq!(std::fs::read_to_string(dir.join("mine.yaml")).unwrap(), old);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["mine.yaml"], "no temporary file is left behind");
    std::fs::remove_dir_all(&dir).unwrap();
}
