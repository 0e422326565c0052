//! Any request body to each JSON route of the playground, in-process
//! (`morrigo serve`'s router, with a ruleset directory): the first byte
//! picks the route, the rest is the body. No answer is a 500 or a panic,
//! and every refusal is the API's JSON error with a message.
#![no_main]
use axum::body::Body;
use axum::http::Request;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use tower::ServiceExt;

struct Fixture {
    runtime: tokio::runtime::Runtime,
    app: axum::Router,
    posts: Vec<&'static str>,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("morrigo-fuzz-web-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch ruleset directory");
        std::fs::write(
            dir.join("mine.yaml"),
            "extends: three-mens-morris\nname: mine\n",
        )
        .expect("a ruleset file");
        let state = morrigo_web::AppState::new(Some(dir));
        Fixture {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime"),
            app: morrigo_web::router(state, "127.0.0.1:8080".parse().expect("an address")),
            posts: morrigo_web::ROUTES
                .iter()
                .filter(|(m, _)| *m == "post")
                .map(|(_, p)| *p)
                .collect(),
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let f = fixture();
    let path = f.posts[usize::from(pick) % f.posts.len()];
    let req = Request::builder()
        .method("POST")
        .uri(path)
        .header("host", "127.0.0.1:8080")
        .header("content-type", "application/json")
        .body(Body::from(body.to_vec()))
        .expect("a request");
    let (status, bytes) = f.runtime.block_on(async {
        let res = f.app.clone().oneshot(req).await.expect("infallible");
        let status = res.status();
        let bytes = axum::body::to_bytes(res.into_body(), 64 << 20)
            .await
            .expect("a whole answer");
        (status, bytes)
    });
    assert!(
        !status.is_server_error(),
        "{path}: {status} {}",
        String::from_utf8_lossy(&bytes)
    );
    if !status.is_success() {
        let v: serde_json::Value = serde_json::from_slice(&bytes).expect("a JSON refusal");
        assert!(v["error"]["message"].is_string(), "{path}: {v}");
    }
});
