//! The playground against a hostile web page and an unlucky directory:
//! foreign `Origin`, `Host` and `Content-Type` are refused on every route;
//! no file outside the ruleset directory is read, written or revealed
//! (paths in `extends`, symlinks); a directory name is a 4xx. Each test is
//! named after the fault it reproduces.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use morrigo_web::{router, AppState, ROUTES};
use serde_json::{json, Value};
use std::path::PathBuf;
use tower::ServiceExt;

const AT: &str = "127.0.0.1:8080";

fn app_in(dir: Option<PathBuf>) -> Router {
    router(AppState::new(dir), AT.parse().unwrap())
}

/// A request with exactly these headers.
async fn send(
    app: &Router,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<String>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(path);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = req.body(body.map_or_else(Body::empty, Body::from)).unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 64 << 20)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, value)
}

const JSON: (&str, &str) = ("content-type", "application/json");
const HOST: (&str, &str) = ("host", AT);

async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    send(app, "POST", path, &[HOST, JSON], Some(body.to_string())).await
}

fn message(v: &Value) -> String {
    v["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("morrigo-safety-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.canonicalize().unwrap()
}

/// A ruleset directory `rules/` with a secret file beside it (outside).
struct Setup {
    base: PathBuf,
    rules: PathBuf,
    secret: PathBuf,
}

const SECRET_LINE: &str = "password: hunter2-secret";

fn setup(tag: &str) -> Setup {
    let base = temp_dir(tag);
    let rules = base.join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    let secret = base.join("secret.yaml");
    std::fs::write(&secret, format!("{SECRET_LINE}\nname: x\n")).unwrap();
    Setup {
        base,
        rules,
        secret,
    }
}

fn concrete(path: &str) -> String {
    path.replace("{job}", "1")
}

#[tokio::test]
async fn a_cross_site_text_plain_post_is_refused() {
    let s = setup("textplain");
    std::fs::write(s.rules.join("mine.yaml"), "name: old\n").unwrap();
    let app = app_in(Some(s.rules.clone()));
    let body = json!({ "file": "mine.yaml", "text": "name: overwritten\n" }).to_string();
    // What a form or `fetch(…, {mode: "no-cors"})` on another site sends.
    let (status, r) = send(
        &app,
        "POST",
        "/api/save",
        &[
            HOST,
            ("content-type", "text/plain;charset=UTF-8"),
            ("origin", "http://evil.example"),
        ],
        Some(body.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{r}");
    // Without the Origin (an old browser), the content type still stops it.
    for ct in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let (status, r) = send(
            &app,
            "POST",
            "/api/save",
            &[HOST, ("content-type", ct)],
            Some(body.clone()),
        )
        .await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{ct}: {r}");
        assert!(message(&r).contains("not JSON"), "{r}");
    }
    let (status, _) = send(&app, "POST", "/api/save", &[HOST], Some(body.clone())).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        std::fs::read_to_string(s.rules.join("mine.yaml")).unwrap(),
        "name: old\n"
    );
    // The page's own requests pass: its Origin is the server's address.
    let (status, r) = send(
        &app,
        "POST",
        "/api/save",
        &[
            HOST,
            ("content-type", "application/json; charset=utf-8"),
            ("origin", "http://127.0.0.1:8080"),
        ],
        Some(body),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    std::fs::remove_dir_all(&s.base).unwrap();
}

#[tokio::test]
async fn a_foreign_origin_or_host_is_refused_on_every_route() {
    let app = app_in(None);
    let mut paths: Vec<(String, String)> = ROUTES
        .iter()
        .map(|(m, p)| (m.to_uppercase(), concrete(p)))
        .collect();
    paths.extend(["/", "/app.js", "/app.css", "/nowhere"].map(|p| ("GET".into(), p.into())));
    for (method, path) in &paths {
        let body = (method == "POST").then(|| "{}".to_string());
        for headers in [
            vec![HOST, JSON, ("origin", "http://evil.example")],
            vec![HOST, JSON, ("origin", "null")],
            vec![HOST, JSON, ("origin", "https://127.0.0.1:8080")],
            // DNS rebinding: a name of the attacker's, resolved to us.
            vec![("host", "evil.example:8080"), JSON],
            vec![("host", "127.0.0.1:9999"), JSON],
            vec![JSON],
        ] {
            let (status, r) = send(&app, method, path, &headers, body.clone()).await;
            assert_eq!(
                status,
                StatusCode::FORBIDDEN,
                "{method} {path} {headers:?}: {r}"
            );
            assert!(r["error"]["message"].is_string(), "{r}");
        }
    }
    // Every name of the server's own address passes.
    for host in [AT, "localhost:8080", "[::1]:8080", "LOCALHOST:8080"] {
        let origin = format!("http://{host}");
        let (status, r) = send(
            &app,
            "GET",
            "/api/rulesets",
            &[("host", host), ("origin", &origin)],
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{host}: {r}");
    }
}

#[tokio::test]
async fn a_server_on_every_interface_takes_ip_literals_but_no_names() {
    let app = router(AppState::new(None), "0.0.0.0:8080".parse().unwrap());
    for (host, ok) in [
        ("192.168.1.20:8080", true),
        ("[fe80::1]:8080", true),
        ("localhost:8080", true),
        ("192.168.1.20:8081", false),
        ("0.0.0.0:8080", true),
        ("my-laptop.local:8080", false),
    ] {
        let (status, r) = send(&app, "GET", "/api/rulesets", &[("host", host)], None).await;
        assert_eq!(status == StatusCode::OK, ok, "{host}: {status} {r}");
    }
}

/// Everything a refusal says about a file, as text.
fn said(r: &Value) -> String {
    r.to_string()
}

#[tokio::test]
async fn extends_outside_the_directory_is_refused_without_revealing_it() {
    let s = setup("extends");
    std::fs::write(
        s.rules.join("base.yaml"),
        "extends: three-mens-morris\nname: base\n",
    )
    .unwrap();
    let app = app_in(Some(s.rules.clone()));
    let secret = s.secret.display().to_string();
    let missing = s.base.join("missing.yaml").display().to_string();
    let mut answers = Vec::new();
    for parent in [
        secret.as_str(),
        missing.as_str(),
        "../secret",
        "../missing",
        "../secret.yaml",
        "/etc/passwd",
        "/no/such/file",
    ] {
        for route in ["/api/check", "/api/show"] {
            let text = format!("extends: {parent}\nname: child\n");
            let (status, r) = post(
                &app,
                route,
                json!({ "ruleset": { "text": text, "name": "child.yaml" } }),
            )
            .await;
            assert!(status.is_client_error() || status == StatusCode::OK, "{r}");
            let whole = said(&r);
            assert!(!whole.contains("hunter2"), "{parent}: {whole}");
            assert!(!whole.contains("root:"), "{parent}: {whole}");
            let d = if route == "/api/check" {
                assert_eq!(r["ok"], false, "{r}");
                r["diagnostics"][0].clone()
            } else {
                r["error"].clone()
            };
            // Located in the child (line 1), never in the other file.
            assert_eq!(d["location"]["line"], 1, "{r}");
            assert_eq!(
                d["location"]["file"],
                s.rules.join("child.yaml").display().to_string()
            );
            answers.push(d["message"].as_str().unwrap().replace(parent, "X"));
        }
    }
    answers.sort();
    answers.dedup();
    assert_eq!(answers.len(), 1, "one answer, existing or not: {answers:?}");
    // A file beside it and a built-in are still found.
    let (_, r) = post(
        &app,
        "/api/check",
        json!({ "ruleset": { "text": "extends: base\nname: c\n", "name": "c.yaml" } }),
    )
    .await;
    assert_eq!(r["ok"], true, "{r}");
    // With no directory, `extends` reads no file at all (not the cwd's).
    let bare = app_in(None);
    let (_, r) = post(
        &bare,
        "/api/check",
        json!({ "ruleset": { "text": format!("extends: {secret}\nname: c\n") } }),
    )
    .await;
    assert_eq!(r["ok"], false, "{r}");
    assert!(!said(&r).contains("hunter2"), "{r}");
    std::fs::remove_dir_all(&s.base).unwrap();
}

#[cfg(unix)]
#[tokio::test]
async fn a_symlink_out_of_the_directory_is_not_followed_for_reads_or_saves() {
    use std::os::unix::fs::symlink;
    let s = setup("symlink");
    symlink(&s.secret, s.rules.join("passwd.yaml")).unwrap();
    symlink(s.base.join("gone.yaml"), s.rules.join("dangling.yaml")).unwrap();
    std::fs::write(
        s.rules.join("inside.yaml"),
        "extends: three-mens-morris\nname: inside\n",
    )
    .unwrap();
    symlink(s.rules.join("inside.yaml"), s.rules.join("alias.yaml")).unwrap();
    let app = app_in(Some(s.rules.clone()));
    let (_, list) = send(&app, "GET", "/api/rulesets", &[HOST], None).await;
    assert_eq!(
        list["files"],
        json!(["alias.yaml", "inside.yaml"]),
        "{list}"
    );
    let mut answers = Vec::new();
    for name in ["passwd.yaml", "dangling.yaml"] {
        let (status, r) = send(
            &app,
            "GET",
            &format!("/api/source?file={name}"),
            &[HOST],
            None,
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{r}");
        assert!(!said(&r).contains("hunter2"), "{r}");
        answers.push(message(&r).replace(name, "X"));
        for (route, body) in [
            ("/api/show", json!({ "ruleset": { "file": name } })),
            ("/api/check", json!({ "ruleset": { "file": name } })),
            (
                "/api/save",
                json!({ "file": name, "text": "name: through-the-link\n" }),
            ),
        ] {
            let (status, r) = post(&app, route, body).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{route} {name}: {r}");
            assert!(!said(&r).contains("hunter2"), "{r}");
            answers.push(message(&r).replace(name, "X"));
        }
        // `extends` through the link is refused too.
        let stem = name.trim_end_matches(".yaml");
        let (_, r) = post(
            &app,
            "/api/check",
            json!({ "ruleset": { "text": format!("extends: {stem}\nname: c\n") } }),
        )
        .await;
        assert_eq!(r["ok"], false, "{r}");
        assert!(!said(&r).contains("hunter2"), "{r}");
    }
    answers.dedup();
    assert_eq!(answers.len(), 1, "existing or dangling alike: {answers:?}");
    assert_eq!(
        std::fs::read_to_string(&s.secret).unwrap(),
        format!("{SECRET_LINE}\nname: x\n"),
        "the file outside is untouched"
    );
    assert!(!s.base.join("gone.yaml").exists(), "no file made outside");
    // A link inside the directory is read, and a save through it writes
    // its target (the link stays).
    let (status, r) = post(
        &app,
        "/api/save",
        json!({ "file": "alias.yaml", "text": "extends: three-mens-morris\nname: changed\n" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert!(std::fs::symlink_metadata(s.rules.join("alias.yaml"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(s.rules.join("inside.yaml"))
        .unwrap()
        .contains("changed"));
    std::fs::remove_dir_all(&s.base).unwrap();
}

#[tokio::test]
async fn a_name_that_is_a_directory_is_a_4xx_not_a_500() {
    let s = setup("dirname");
    std::fs::create_dir(s.rules.join("folder.yaml")).unwrap();
    let app = app_in(Some(s.rules.clone()));
    let (status, r) = post(
        &app,
        "/api/save",
        json!({ "file": "folder.yaml", "text": "name: x\n" }),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{r}");
    assert!(message(&r).contains("is a directory"), "{r}");
    let (status, r) = send(&app, "GET", "/api/source?file=folder.yaml", &[HOST], None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{r}");
    let (status, r) = post(
        &app,
        "/api/show",
        json!({ "ruleset": { "file": "folder.yaml" } }),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{r}");
    let (status, r) = send(&app, "GET", "/api/source?file=none.yaml", &[HOST], None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{r}");
    let (_, list) = send(&app, "GET", "/api/rulesets", &[HOST], None).await;
    assert_eq!(list["files"], json!([]), "{list}");
    std::fs::remove_dir_all(&s.base).unwrap();
}

/// The index of point `name` in the board of `show`.
fn point_index(show: &Value, name: &str) -> usize {
    show["board"]["points"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p["name"] == name)
        .unwrap()
}

#[tokio::test]
async fn delayed_removal_marks_are_on_the_board() {
    let app = app_in(None);
    let rules = json!({ "builtin": "da-san-qi" });
    let (_, show) = post(&app, "/api/show", json!({ "ruleset": rules })).await;
    // White's mill at a1-d1-g1 takes a4, which keeps a mark while hands
    // hold pieces.
    let (status, pos) = post(
        &app,
        "/api/position",
        json!({ "ruleset": rules, "record": "a1 a4 d1 b4 g1xa4" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{pos}");
    let board = pos["board"].as_array().unwrap();
    assert_eq!(board[point_index(&show, "a4")], "mark", "{pos}");
    let marks = board.iter().filter(|v| *v == "mark").count();
    assert_eq!(marks, 1, "{pos}");
    assert_eq!(board[point_index(&show, "b4")], 1);
    let (_, r) = post(
        &app,
        "/api/apply",
        json!({ "ruleset": rules, "record": "a1 a4 d1 b4 g1xa4", "move": "a4" }),
    )
    .await;
    assert_eq!(r["accepted"], false, "{r}");
    assert!(
        r["refusal"]["message"].as_str().unwrap().contains("mark"),
        "{r}"
    );
    assert_eq!(r["position"]["board"][point_index(&show, "a4")], "mark");
}
