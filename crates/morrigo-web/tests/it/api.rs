//! The playground's JSON API, route by route, through the router itself
//! (no port): good requests, refusals quoting rules, and bad requests,
//! which get 400 (413, 429, 404) with a message, never a 500.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use morrigo_web::{router, AppState, ROUTES};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// The address the router believes it is bound to; requests name it.
const AT: &str = "127.0.0.1:8080";

fn app() -> Router {
    app_in(None)
}

fn app_in(dir: Option<PathBuf>) -> Router {
    router(AppState::new(dir), AT.parse().unwrap())
}

async fn send(app: &Router, method: &str, path: &str, body: Option<String>) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("host", AT)
        .header("content-type", "application/json")
        .body(body.map_or_else(Body::empty, Body::from))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 64 << 20)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, value)
}

async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    send(app, "POST", path, Some(body.to_string())).await
}

async fn get(app: &Router, path: &str) -> (StatusCode, Value) {
    send(app, "GET", path, None).await
}

fn message(v: &Value) -> &str {
    v["error"]["message"].as_str().unwrap_or_default()
}

/// A 400 whose message contains `needle`.
#[track_caller]
fn refused(got: (StatusCode, Value), needle: &str) {
    assert_eq!(got.0, StatusCode::BAD_REQUEST, "{}", got.1);
    assert!(
        message(&got.1).contains(needle),
        "`{needle}` not in {}",
        got.1
    );
}

const NMM: &str = "nine-mens-morris";

fn nmm() -> Value {
    json!({ "builtin": NMM })
}

fn jk5() -> Value {
    json!({ "builtin": "jk-final", "size": 5 })
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("morrigo-web-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The (method, path) pairs `openapi.yaml` documents.
fn documented() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut path = None;
    let mut in_paths = false;
    for line in morrigo_web::OPENAPI.lines() {
        if !line.starts_with(' ') {
            in_paths = line == "paths:";
            continue;
        }
        if !in_paths {
            continue;
        }
        if let Some(p) = line.strip_prefix("  /").and_then(|l| l.strip_suffix(':')) {
            path = Some(format!("/{p}"));
        } else if let (Some(p), Some(m)) = (
            &path,
            line.strip_prefix("    ").and_then(|l| l.strip_suffix(':')),
        ) {
            if ["get", "post", "put", "delete"].contains(&m) {
                out.push((m.to_string(), p.clone()));
            }
        }
    }
    out
}

#[tokio::test]
async fn openapi_documents_every_route_and_the_router_serves_each() {
    let mut doc = documented();
    let mut routes: Vec<(String, String)> = ROUTES
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    doc.sort();
    routes.sort();
    assert_eq!(doc, routes, "openapi.yaml and ROUTES list the same routes");
    let app = app();
    for (method, path) in &routes {
        let concrete = path.replace("{job}", "1");
        let (status, body) = send(&app, &method.to_uppercase(), &concrete, None).await;
        assert_ne!(
            body["error"]["message"], "no such API route",
            "{method} {path} is routed"
        );
        assert!(
            status != StatusCode::METHOD_NOT_ALLOWED && !status.is_server_error(),
            "{method} {path}: {status}"
        );
    }
    let (status, body) = get(&app, "/api/openapi.yaml").await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.as_str().unwrap().starts_with("openapi: 3"));
}

#[tokio::test]
async fn the_page_and_its_assets_are_embedded() {
    let app = app();
    for (path, needle) in [
        ("/", "app.js"),
        ("/app.js", "EditorView"),
        ("/app.css", "#board"),
    ] {
        let (status, body) = get(&app, path).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            body.as_str().unwrap().contains(needle),
            "{path} holds {needle}"
        );
    }
    // No asset is fetched from elsewhere at run time.
    let (_, html) = get(&app, "/").await;
    assert!(
        !html.as_str().unwrap().contains("http"),
        "the page loads nothing from the network"
    );
}

#[tokio::test]
async fn unknown_routes_and_malformed_bodies_are_400s_or_404s_with_a_message() {
    let app = app();
    let (status, body) = get(&app, "/api/nothing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(message(&body), "no such API route");
    refused(
        send(&app, "POST", "/api/check", None).await,
        "the request has no body",
    );
    refused(
        send(&app, "POST", "/api/check", Some("{not json".into())).await,
        "not valid JSON",
    );
    refused(
        post(&app, "/api/check", json!({ "rules": 1 })).await,
        "unknown field `rules`",
    );
    refused(
        post(&app, "/api/check", json!({ "ruleset": {} })).await,
        "exactly one of",
    );
    refused(
        post(
            &app,
            "/api/check",
            json!({ "ruleset": { "builtin": NMM, "text": "x" } }),
        )
        .await,
        "exactly one of",
    );
    refused(
        post(
            &app,
            "/api/position",
            json!({ "ruleset": { "builtin": "nine-mens-moris" } }),
        )
        .await,
        "no built-in ruleset named `nine-mens-moris`",
    );
    refused(
        post(
            &app,
            "/api/show",
            json!({ "ruleset": { "builtin": NMM, "size": 9 } }),
        )
        .await,
        "--size applies to grid boards",
    );
    refused(
        post(
            &app,
            "/api/show",
            json!({ "ruleset": { "builtin": "chinese", "size": "99" } }),
        )
        .await,
        "not a board dimension from 1 to 25",
    );
    // The body limit (MAX_BODY_BYTES) is a 413 that names it.
    let big = json!({ "ruleset": { "text": "x".repeat(morrigo_web::MAX_BODY_BYTES) } });
    let (status, body) = post(&app, "/api/check", big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(message(&body).contains("MAX_BODY_BYTES"), "{body}");
}

#[tokio::test]
async fn rulesets_and_source_list_and_read_the_builtins() {
    let app = app();
    let (status, body) = get(&app, "/api/rulesets").await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = body["builtins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&NMM) && names.contains(&"jk-final"));
    assert_eq!(body["files"], json!([]));
    assert!(body["agents"].as_array().unwrap().contains(&json!("mcts")));
    let (status, src) = get(&app, "/api/source?builtin=nine-mens-morris").await;
    assert_eq!(status, StatusCode::OK);
    assert!(src["text"].as_str().unwrap().contains("fly_at"));
    let (status, _) = get(&app, "/api/source?builtin=nope").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    refused(get(&app, "/api/source").await, "exactly one of");
    refused(
        get(&app, "/api/source?colour=red").await,
        "`?builtin=NAME` or `?file=NAME`",
    );
    refused(
        get(&app, "/api/source?file=a.yaml").await,
        "no ruleset directory",
    );
}

const TYPO: &str = "extends: nine-mens-morris\nphases:\n  placing:\n    when: \"in_hand(me) > 0\"\n    actions: { place: true }\n  moving:\n    actions:\n      slide: true\n      fly: \"on_bord(me) == fly_at\"\n";

#[tokio::test]
async fn check_locates_each_error_with_did_you_mean() {
    let app = app();
    let (status, good) = post(&app, "/api/check", json!({ "ruleset": nmm() })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(good["ok"], true);
    assert_eq!(good["points"], 24);
    let (status, bad) = post(
        &app,
        "/api/check",
        json!({ "ruleset": { "text": TYPO, "name": "broken.yaml" } }),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "a bad ruleset is an answer, not a bad request"
    );
    assert_eq!(bad["ok"], false);
    let d = &bad["diagnostics"][0];
    assert_eq!(d["location"]["file"], "broken.yaml");
    assert_eq!(d["location"]["line"], 9);
    assert_eq!(d["location"]["col"], 13);
    insta::assert_json_snapshot!("check_typo", bad);
    // Routes that need good rules refuse them with every diagnostic.
    let (status, body) = post(
        &app,
        "/api/position",
        json!({ "ruleset": { "text": TYPO, "name": "broken.yaml" } }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["diagnostics"].as_array().unwrap().len(), 1);
    // `extends` of a name that is no built-in: located, with did you mean.
    let (_, body) = post(
        &app,
        "/api/check",
        json!({ "ruleset": { "text": "extends: nine-mens-moris\n" } }),
    )
    .await;
    let d = &body["diagnostics"][0];
    assert_eq!(d["location"]["line"], 1);
    assert!(
        d["notes"][0]
            .as_str()
            .unwrap()
            .contains("did you mean `nine-mens-morris`?"),
        "{d}"
    );
}

#[tokio::test]
async fn show_gives_the_summary_and_the_board_graph() {
    let app = app();
    let (status, show) = post(&app, "/api/show", json!({ "ruleset": nmm() })).await;
    assert_eq!(status, StatusCode::OK);
    let rules = morrigo_rules::load_rules(NMM).unwrap();
    assert_eq!(
        show["summary"],
        rules.to_string(),
        "the same summary as `morrigo show`"
    );
    assert_eq!(show["board"]["points"].as_array().unwrap().len(), 24);
    assert_eq!(show["board"]["edges"].as_array().unwrap().len(), 32);
    assert_eq!(show["board"]["lines"].as_array().unwrap().len(), 16);
    assert_eq!(show["go"], false);
    let (_, go) = post(&app, "/api/show", json!({ "ruleset": jk5() })).await;
    assert_eq!(go["go"], true);
    assert_eq!(go["passes"], json!(["pass:P", "pass:E"]));
    assert_eq!(go["board"]["points"].as_array().unwrap().len(), 25);
}

#[tokio::test]
async fn position_replays_a_record_to_the_removal_after_a_mill() {
    let app = app();
    let (status, pos) = post(
        &app,
        "/api/position",
        json!({ "ruleset": nmm(), "record": "a1 d2 d1 b4 g1" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // g1 closes a1-d1-g1: White owes a removal of a piece not in a mill.
    assert_eq!(pos["phase"], "removing");
    assert_eq!(pos["pending"], 1);
    let legal: Vec<&str> = pos["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(legal, ["xd2", "xb4"]);
    assert_eq!(pos["in_hand"], json!([6, 7]));
    // An illegal record is a located 400.
    let (status, body) = post(
        &app,
        "/api/position",
        json!({ "ruleset": nmm(), "record": "a1 a1" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["location"]["col"], 4);
    assert!(message(&body).contains("ply 2"), "{body}");
    // The record limit (MAX_RECORD_MOVES) names itself.
    let long = vec!["pass"; morrigo_web::game::MAX_RECORD_MOVES + 1].join(" ");
    refused(
        post(
            &app,
            "/api/position",
            json!({ "ruleset": jk5(), "record": long }),
        )
        .await,
        "MAX_RECORD_MOVES",
    );
}

#[tokio::test]
async fn apply_plays_a_move_or_refuses_it_quoting_the_rule() {
    let app = app();
    let (status, r) = post(
        &app,
        "/api/apply",
        json!({ "ruleset": nmm(), "record": "a1 d2 d1 b4 g1", "move": "xd2" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(r["accepted"], true);
    assert_eq!(r["position"]["record"], "a1 d2 d1 b4 g1 xd2");
    assert_eq!(r["position"]["board"][3], Value::Null, "d2 was removed");
    // JK Art. 4: no normal pass right after a normal play.
    let (status, r) = post(
        &app,
        "/api/apply",
        json!({ "ruleset": jk5(), "record": "C3", "move": "pass:P" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(r["accepted"], false);
    assert_eq!(r["position"]["record"], "C3", "the position is unchanged");
    let passes = &r["position"]["passes"];
    assert_eq!(passes[0]["forbidden_by"], "no_normal_pass");
    assert_eq!(passes[1]["legal"], true);
    insta::assert_json_snapshot!("jk_pass_refused", r["refusal"]);
    refused(
        post(
            &app,
            "/api/apply",
            json!({ "ruleset": nmm(), "move": "a1 d1" }),
        )
        .await,
        "one move",
    );
    refused(
        post(
            &app,
            "/api/apply",
            json!({ "ruleset": nmm(), "record": "a1 a1", "move": "d1" }),
        )
        .await,
        "ply 2",
    );
}

/// A game played click by click (each click plays one move on the kept
/// position) shows, at every ply, exactly what replaying its whole record
/// on a fresh server shows: board, legal moves, passes, transcript, result.
#[tokio::test]
async fn a_game_played_click_by_click_equals_its_record_replayed_whole() {
    for ruleset in [nmm(), jk5()] {
        let clicks = app();
        let mut record = String::new();
        let mut mid = 0;
        for ply in 0..60usize {
            let (_, pos) = post(
                &clicks,
                "/api/position",
                json!({ "ruleset": ruleset, "record": record }),
            )
            .await;
            let legal = pos["legal"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() {
                break;
            }
            // A fixed but varied choice, so the game reaches captures and passes.
            let mv = legal[(ply * 7 + 3) % legal.len()]["text"]
                .as_str()
                .unwrap()
                .to_string();
            let (status, r) = post(
                &clicks,
                "/api/apply",
                json!({ "ruleset": ruleset, "record": record, "move": mv }),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{r}");
            assert_eq!(r["accepted"], true, "ply {ply}: {mv}: {r}");
            record = r["position"]["record"].as_str().unwrap().to_string();
            let (_, whole) = post(
                &app(),
                "/api/position",
                json!({ "ruleset": ruleset, "record": record }),
            )
            .await;
            assert_eq!(r["position"], whole, "{ruleset} after `{record}`");
            mid = ply;
        }
        assert!(mid > 20, "{ruleset}: the game ended after {mid} plies");
    }
}

#[tokio::test]
async fn undo_takes_back_one_ply() {
    let app = app();
    let (status, pos) = post(
        &app,
        "/api/undo",
        json!({ "ruleset": nmm(), "record": "a1 d2 d1 b4 g1 xd2" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(pos["record"], "a1 d2 d1 b4 g1");
    assert_eq!(pos["phase"], "removing");
    refused(
        post(&app, "/api/undo", json!({ "ruleset": nmm() })).await,
        "nothing to undo",
    );
}

#[tokio::test]
async fn explain_names_the_rule_or_says_the_move_is_legal() {
    let app = app();
    let (status, e) = post(
        &app,
        "/api/explain",
        json!({ "ruleset": jk5(), "record": "C3", "move": "pass:P" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(e["legal"], false);
    assert!(
        e["reason"].as_str().unwrap().contains("no_normal_pass"),
        "{e}"
    );
    assert_eq!(e["rule"]["file"], "rulesets/go/jk-final.yaml");
    assert!(e["rule"]["source_line"]
        .as_str()
        .unwrap()
        .contains("after('N | P"));
    let (_, e) = post(
        &app,
        "/api/explain",
        json!({ "ruleset": jk5(), "record": "C3", "move": "pass:E" }),
    )
    .await;
    assert_eq!(e["legal"], true);
    assert_eq!(e["reason"], "`pass:1` is legal here");
    refused(
        post(
            &app,
            "/api/explain",
            json!({ "ruleset": nmm(), "move": "z9" }),
        )
        .await,
        "z9",
    );
    refused(
        post(
            &app,
            "/api/explain",
            json!({ "ruleset": nmm(), "record": "a1 d2 d1 b4", "move": "g1xd2" }),
        )
        .await,
        "one ply",
    );
}

#[tokio::test]
async fn agent_moves_are_played_and_bounded() {
    let app = app();
    // Greedy closes the mill a1-d1-g1 when it can.
    let (status, r) = post(
        &app,
        "/api/agent",
        json!({ "ruleset": nmm(), "record": "a1 d2 d1 b4", "agent": "greedy" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(r["move"], "g1");
    assert_eq!(r["position"]["record"], "a1 d2 d1 b4 g1");
    let (status, r) = post(
        &app,
        "/api/agent",
        json!({ "ruleset": nmm(), "agent": "alphabeta:depth=2", "seed": 3 }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(
        r["agent"], "alphabeta:depth=2,time=5000",
        "the time cap is stated"
    );
    refused(
        post(
            &app,
            "/api/agent",
            json!({ "ruleset": nmm(), "agent": "mcts:playouts=100000" }),
        )
        .await,
        "MAX_AGENT_PLAYOUTS",
    );
    refused(
        post(
            &app,
            "/api/agent",
            json!({ "ruleset": nmm(), "agent": "alphabeta:time=60000" }),
        )
        .await,
        "MAX_AGENT_MS",
    );
    refused(
        post(
            &app,
            "/api/agent",
            json!({ "ruleset": nmm(), "agent": "perfect:table=/etc/passwd" }),
        )
        .await,
        "reads no table files",
    );
    // `perfect` solves the game first: quick on 3×3, refused on larger boards.
    let (status, r) = post(
        &app,
        "/api/agent",
        json!({ "ruleset": { "builtin": "three-mens-morris" }, "agent": "perfect" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(r["move"], "b2", "the centre wins Three Men's Morris");
    refused(
        post(
            &app,
            "/api/agent",
            json!({ "ruleset": { "builtin": "six-mens-morris" }, "agent": "perfect" }),
        )
        .await,
        "MAX_PERFECT_POINTS",
    );
    refused(
        post(&app, "/api/compare", json!({ "rulesets": [{ "builtin": "six-mens-morris" }], "pairings": [["perfect", "random"]], "games": 1 })).await,
        "MAX_PERFECT_POINTS",
    );
    refused(
        post(
            &app,
            "/api/agent",
            json!({ "ruleset": nmm(), "agent": "greddy" }),
        )
        .await,
        "greddy",
    );
    refused(
        post(
            &app,
            "/api/agent",
            json!({ "ruleset": jk5(), "record": "resign", "agent": "greedy" }),
        )
        .await,
        "the game is over",
    );
}

#[tokio::test]
async fn sgf_round_trips_a_jk_game_and_refuses_morris() {
    let app = app();
    let record = "C3 D3 C2 D2 pass:E pass:E";
    let (status, r) = post(
        &app,
        "/api/sgf/export",
        json!({ "ruleset": jk5(), "record": record }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    let sgf = r["sgf"].as_str().unwrap();
    assert!(
        sgf.contains("SZ[5]RU[jk-final]") && sgf.contains(";B[]PK[E]") && sgf.contains("RE[0]"),
        "{sgf}"
    );
    let (status, r) = post(
        &app,
        "/api/sgf/import",
        json!({ "ruleset": jk5(), "sgf": sgf }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(r["record"], record);
    assert_eq!(r["position"]["result"]["status"], "over");
    refused(
        post(
            &app,
            "/api/sgf/export",
            json!({ "ruleset": nmm(), "record": "a1" }),
        )
        .await,
        "SGF records Go games",
    );
    refused(
        post(
            &app,
            "/api/sgf/import",
            json!({ "ruleset": jk5(), "sgf": "(;GM[1]SZ[abc])" }),
        )
        .await,
        "SZ[abc]",
    );
    refused(
        post(
            &app,
            "/api/sgf/import",
            json!({ "ruleset": jk5(), "sgf": "(;GM[1]SZ[5]AB[cc];W[dd])" }),
        )
        .await,
        "set-up stones",
    );
}

#[tokio::test]
async fn save_writes_into_the_ruleset_directory_and_extends_finds_its_files() {
    let dir = temp_dir("save");
    let app = app_in(Some(dir.clone()));
    let text =
        "extends: nine-mens-morris\nname: my-variant\ntitle: My variant\nparams: { fly_at: 4 }\n";
    let (status, r) = post(
        &app,
        "/api/save",
        json!({ "file": "my-variant.yaml", "text": text }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(r["ok"], true);
    assert_eq!(
        std::fs::read_to_string(dir.join("my-variant.yaml")).unwrap(),
        text
    );
    let (_, list) = get(&app, "/api/rulesets").await;
    assert_eq!(list["files"], json!(["my-variant.yaml"]));
    let (_, src) = get(&app, "/api/source?file=my-variant.yaml").await;
    assert_eq!(src["text"], text);
    // A buffer extends a file beside it.
    let child = "extends: my-variant\nname: child\ntitle: Child\n";
    let (_, show) = post(
        &app,
        "/api/show",
        json!({ "ruleset": { "text": child, "name": "child.yaml" } }),
    )
    .await;
    assert!(
        show["summary"].as_str().unwrap().contains("fly_at = 4"),
        "{show}"
    );
    let (_, show) = post(
        &app,
        "/api/show",
        json!({ "ruleset": { "file": "my-variant.yaml" } }),
    )
    .await;
    assert_eq!(show["title"], "My variant");
    // A saved file with errors is saved, and its errors reported.
    let (_, r) = post(
        &app,
        "/api/save",
        json!({ "file": "broken.yaml", "text": TYPO }),
    )
    .await;
    assert_eq!(r["ok"], false);
    assert_eq!(r["diagnostics"][0]["location"]["line"], 9);
    for bad in [
        "../escape.yaml",
        "a/b.yaml",
        ".hidden.yaml",
        "notes.txt",
        "",
    ] {
        refused(
            post(&app, "/api/save", json!({ "file": bad, "text": "x" })).await,
            "is not a ruleset file name",
        );
    }
    refused(
        post(
            &app,
            "/api/show",
            json!({ "ruleset": { "file": "../etc/passwd" } }),
        )
        .await,
        "is not a ruleset file name",
    );
    refused(
        post(
            &self::app(),
            "/api/save",
            json!({ "file": "x.yaml", "text": "x" }),
        )
        .await,
        "no ruleset directory",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Poll a compare job until it has ended (at most `secs` seconds).
async fn finish(app: &Router, poll: &str, secs: u64) -> Value {
    let started = Instant::now();
    loop {
        let (status, p) = get(app, poll).await;
        assert_eq!(status, StatusCode::OK, "{p}");
        if p["status"] != "running" && p["status"] != "cancelling" {
            return p;
        }
        assert!(
            started.elapsed() < Duration::from_secs(secs),
            "the compare ends within {secs} s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn compare_runs_as_a_job_with_progress_and_reports() {
    let app = app();
    let (status, job) = post(
        &app,
        "/api/compare",
        json!({
            "rulesets": [{ "builtin": "three-mens-morris" }, { "builtin": "six-mens-morris" }],
            "pairings": [["random", "greedy"]],
            "games": 40, "seed": 7,
        }),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    assert_eq!(job["total"], 80);
    let done = finish(&app, job["poll"].as_str().unwrap(), 120).await;
    assert_eq!(done["status"], "done");
    assert_eq!(done["done"], 80);
    let reports = done["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 2);
    // The same games as the library's simulate with this seed.
    let any = morrigo_engine::AnyMachine::new(std::sync::Arc::new(
        morrigo_rules::load_rules("three-mens-morris").unwrap(),
    ))
    .unwrap();
    let cfg = morrigo_play::SimConfig {
        agents: [
            morrigo_play::AgentSpec::Random,
            morrigo_play::AgentSpec::Greedy,
        ],
        ..morrigo_play::SimConfig::new(40, 7)
    };
    let direct = morrigo_play::simulate(&any, &cfg, None);
    assert_eq!(reports[0]["wins"], json!(direct.wins));
    assert_eq!(reports[0]["length"]["median"], direct.length.median);
    assert!(done["table"]
        .as_str()
        .unwrap()
        .contains("Three Men's Morris"));
    // Without pairings, the CLI's default pairing.
    let (status, job) = post(
        &app,
        "/api/compare",
        json!({ "rulesets": [{ "builtin": "three-mens-morris" }], "games": 2 }),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let done = finish(&app, job["poll"].as_str().unwrap(), 120).await;
    // Three Men's Morris moves pieces: alpha-beta with a node budget.
    assert_eq!(
        done["reports"][0]["agents"][0],
        "alphabeta:depth=64,nodes=3000"
    );
}

#[tokio::test]
async fn compare_requests_are_bounded() {
    let app = app();
    let cmp = |games: u32, pairings: Value| json!({ "rulesets": [{ "builtin": "three-mens-morris" }], "pairings": pairings, "games": games });
    refused(
        post(
            &app,
            "/api/compare",
            cmp(5001, json!([["random", "random"]])),
        )
        .await,
        "MAX_COMPARE_GAMES",
    );
    refused(
        post(
            &app,
            "/api/compare",
            cmp(121, json!([["mcts:playouts=10", "random"]])),
        )
        .await,
        "MAX_COMPARE_SEARCH_GAMES",
    );
    refused(
        post(
            &app,
            "/api/compare",
            cmp(1, json!([["mcts:playouts=5000", "random"]])),
        )
        .await,
        "MAX_COMPARE_PLAYOUTS",
    );
    refused(
        post(
            &app,
            "/api/compare",
            cmp(1, json!([["alphabeta:depth=5", "random"]])),
        )
        .await,
        "MAX_COMPARE_DEPTH",
    );
    refused(
        post(
            &app,
            "/api/compare",
            cmp(1, json!([["alphabeta:time=10", "random"]])),
        )
        .await,
        "no time budget",
    );
    refused(
        post(&app, "/api/compare", cmp(0, json!([]))).await,
        "`games` is 0",
    );
    refused(
        post(&app, "/api/compare", cmp(1, json!([["randm", "random"]]))).await,
        "randm",
    );
    let thirteen: Vec<Value> = (0..13).map(|_| json!(["random", "random"])).collect();
    refused(
        post(&app, "/api/compare", cmp(1, json!(thirteen))).await,
        "MAX_COMPARE_ROWS",
    );
    refused(
        post(&app, "/api/compare", json!({ "rulesets": [], "games": 1 })).await,
        "nothing to compare",
    );
    refused(
        post(
            &app,
            "/api/compare",
            json!({ "rulesets": [{ "builtin": "zz" }], "games": 1 }),
        )
        .await,
        "no built-in ruleset named `zz`",
    );
    let (status, _) = get(&app, "/api/compare/99").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    refused(get(&app, "/api/compare/abc").await, "not a job number");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_answers_while_compares_run_and_refuses_a_third_heavy_job() {
    let app = app();
    let slow = json!({
        "rulesets": [{ "builtin": NMM }],
        "pairings": [["mcts:playouts=300", "mcts:playouts=300"]],
        "games": 6,
    });
    let (status, a) = post(&app, "/api/compare", slow.clone()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{a}");
    let (status, b) = post(&app, "/api/compare", slow.clone()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{b}");
    // Both heavy slots (HEAVY_SLOTS) are taken: a third search waits its turn.
    let (status, c) = post(
        &app,
        "/api/agent",
        json!({ "ruleset": nmm(), "agent": "greedy" }),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{c}");
    assert!(message(&c).contains("HEAVY_SLOTS"));
    // Light requests are answered meanwhile.
    let started = Instant::now();
    let (status, _) = post(
        &app,
        "/api/position",
        json!({ "ruleset": nmm(), "record": "a1 d2" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, p) = get(&app, a["poll"].as_str().unwrap()).await;
    assert_eq!(
        p["status"], "running",
        "the position was answered while the compare ran"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    let pa = finish(&app, a["poll"].as_str().unwrap(), 300).await;
    let pb = finish(&app, b["poll"].as_str().unwrap(), 300).await;
    // The same seed gives the same games, whatever else ran meanwhile.
    for key in ["wins", "draws", "length", "outcomes"] {
        assert_eq!(pa["reports"][0][key], pb["reports"][0][key], "{key}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_cancels_a_running_compare_and_frees_its_heavy_slot() {
    let app = app();
    // Searching agents on both seats: minutes of games, cancelled long
    // before the end.
    let slow = json!({
        "rulesets": [{ "builtin": NMM }],
        "pairings": [["mcts:playouts=20", "mcts:playouts=20"]],
        "games": 120,
    });
    let (status, job) = post(&app, "/api/compare", slow.clone()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let poll = job["poll"].as_str().unwrap().to_string();
    // Let some games end first, so the cancelled job has a count to report.
    let started = Instant::now();
    loop {
        let (_, p) = get(&app, &poll).await;
        assert_eq!(p["status"], "running", "{p}");
        if p["done"].as_u64().unwrap() >= 1 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "a first game ends"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (status, c) = send(&app, "DELETE", &poll, None).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{c}");
    assert!(
        c["status"] == "cancelling" || c["status"] == "cancelled",
        "{c}"
    );
    // It stops once the games in flight (one a worker thread) end.
    let p = finish(&app, &poll, 120).await;
    assert_eq!(p["status"], "cancelled", "{p}");
    let done = p["done"].as_u64().unwrap();
    assert!(
        (1..120).contains(&done),
        "games played before the cancel: {p}"
    );
    assert_eq!(
        p["reports"],
        Value::Null,
        "a cancelled compare has no reports"
    );
    // Cancelling it again is no error; it stays cancelled.
    let (status, again) = send(&app, "DELETE", &poll, None).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{again}");
    assert_eq!(again["status"], "cancelled");
    // Its heavy slot is free: both slots (HEAVY_SLOTS) can be taken anew.
    let mut polls = Vec::new();
    for _ in 0..morrigo_web::HEAVY_SLOTS {
        let (status, j) = post(&app, "/api/compare", slow.clone()).await;
        assert_eq!(status, StatusCode::ACCEPTED, "the slot was freed: {j}");
        polls.push(j["poll"].as_str().unwrap().to_string());
    }
    for poll in &polls {
        let (status, _) = send(&app, "DELETE", poll, None).await;
        assert_eq!(status, StatusCode::ACCEPTED);
    }
    for poll in &polls {
        assert_eq!(finish(&app, poll, 120).await["status"], "cancelled");
    }
    // A compare that has ended cannot be cancelled: 409.
    let (status, quick) = post(
        &app,
        "/api/compare",
        json!({ "rulesets": [{ "builtin": "three-mens-morris" }], "pairings": [["random", "random"]], "games": 2 }),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{quick}");
    let quick = quick["poll"].as_str().unwrap();
    assert_eq!(finish(&app, quick, 60).await["status"], "done");
    let (status, e) = send(&app, "DELETE", quick, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    assert!(message(&e).contains("nothing to cancel"), "{e}");
    assert_eq!(get(&app, quick).await.1["status"], "done", "it stays done");
    // An unknown job is 404, a malformed one 400.
    let (status, e) = send(&app, "DELETE", "/api/compare/999", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{e}");
    assert!(message(&e).contains("no compare job 999"), "{e}");
    refused(
        send(&app, "DELETE", "/api/compare/abc", None).await,
        "not a job number",
    );
}
