//! `morrigo serve --db DIR`: positions carry a solved database's values
//! (the position's and each legal move's), `perfect` plays from it on a
//! board the playground would not solve, and the server reads no file
//! outside the database directory.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use morrigo_engine::Machine;
use morrigo_web::{router, AppState};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use tower::ServiceExt;

const AT: &str = "127.0.0.1:8080";
/// 16 points: more than the playground solves on the fly.
const GAME: &str = "five-mens-morris";

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("morrigo-web-db-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.canonicalize().unwrap()
}

/// Five Men's Morris solved once into a directory, as
/// `morrigo solve five-mens-morris --db DIR` does.
fn solved() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp_dir("solved");
        let rules = morrigo_rules::load_rules(GAME).unwrap();
        let m = Machine::<1>::new(Arc::new(morrigo_solve::solver_rules(&rules)));
        morrigo_sector::GameTable::solve_in(&m, Some(&dir)).unwrap();
        dir
    })
}

/// A copy of the solved directory (each test its own: a database is
/// opened once per process and directory).
fn copy_of(tag: &str) -> PathBuf {
    let dir = temp_dir(tag);
    for e in std::fs::read_dir(solved()).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    dir
}

fn app_with(db: Option<&Path>) -> Router {
    let mut state = AppState::new(None);
    if let Some(db) = db {
        state = state.with_database(db).unwrap();
    }
    router(state, AT.parse().unwrap())
}

async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::builder()
        .method("POST")
        .uri(path)
        .header("host", AT)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 64 << 20)
        .await
        .unwrap();
    (status, serde_json::from_slice(&bytes).unwrap())
}

async fn position(app: &Router, game: &str, record: &str) -> Value {
    let (status, pos) = post(
        app,
        "/api/position",
        json!({ "ruleset": { "builtin": game }, "record": record }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{pos}");
    pos
}

/// A value one ply earlier, for the other player: what a move's value is
/// when the position after it has value `v` for the opponent.
fn before(v: &Value) -> Value {
    match v["outcome"].as_str().unwrap() {
        "draw" => json!({ "outcome": "draw", "plies": null }),
        o => json!({
            "outcome": if o == "win" { "loss" } else { "win" },
            "plies": v["plies"].as_u64().unwrap() + 1,
        }),
    }
}

fn rank(v: &Value) -> i64 {
    match v["outcome"].as_str().unwrap() {
        "win" => 1_000_000 - v["plies"].as_i64().unwrap(),
        "draw" => 0,
        _ => -1_000_000 + v["plies"].as_i64().unwrap(),
    }
}

/// Every legal move of a position carries its value, and each agrees with
/// the position it leads to (a move's value is the next position's value
/// for the opponent, one ply earlier; the position's is its best move's),
/// along a game into the moving phase.
#[tokio::test]
async fn positions_carry_the_databases_values_and_they_agree_along_a_game() {
    let dir = copy_of("values");
    let app = app_with(Some(&dir));
    let mut record = String::new();
    let mut seen = [0usize; 3];
    for ply in 0..24 {
        let pos = position(&app, GAME, &record).await;
        if pos["over"].as_bool().unwrap() {
            break;
        }
        let here = pos["exact"]["value"].clone();
        assert!(here.is_object(), "ply {ply}: {}", pos["exact"]);
        let legal = pos["legal"].as_array().unwrap();
        let best = legal
            .iter()
            .map(|m| &m["value"])
            .max_by_key(|v| rank(v))
            .unwrap();
        assert_eq!(
            &here, best,
            "ply {ply}: the position's value is its best move's"
        );
        // Play the move whose index turns with the ply (a varied game),
        // and check its value against the position it leads to.
        let mv = &legal[(ply * 7) % legal.len()];
        let next_record = format!("{record} {}", mv["text"].as_str().unwrap());
        let next = position(&app, GAME, next_record.trim()).await;
        seen[match mv["value"]["outcome"].as_str().unwrap() {
            "win" => 0,
            "draw" => 1,
            _ => 2,
        }] += 1;
        if !next["over"].as_bool().unwrap() {
            let mover = pos["to_move"].as_u64().unwrap();
            let next_value = &next["exact"]["value"];
            if next["to_move"].as_u64().unwrap() == mover {
                // A removal owed: the same player moves again.
                let v = next_value.clone();
                let later = match v["outcome"].as_str().unwrap() {
                    "draw" => v,
                    o => json!({ "outcome": o, "plies": v["plies"].as_u64().unwrap() + 1 }),
                };
                assert_eq!(mv["value"], later, "ply {ply}: {}", mv["text"]);
            } else {
                assert_eq!(mv["value"], before(next_value), "ply {ply}: {}", mv["text"]);
            }
        }
        record = next_record.trim().to_string();
    }
    // Moves that win or lose were checked, not only draws.
    assert!(
        seen.iter().sum::<usize>() >= 20 && seen[0] + seen[2] >= 10,
        "{seen:?}"
    );
    // Five Men's Morris is a draw: so is its start, and the first moves
    // the database gives as best.
    let start = position(&app, GAME, "").await;
    assert_eq!(
        start["exact"]["value"]["outcome"], "draw",
        "{}",
        start["exact"]
    );
}

/// Other rules than the database's get no values, and say why; a server
/// without a database adds nothing.
#[tokio::test]
async fn other_rules_get_no_values_and_a_server_without_a_database_adds_none() {
    let dir = copy_of("other");
    let app = app_with(Some(&dir));
    let pos = position(&app, "three-mens-morris", "").await;
    assert_eq!(pos["exact"]["value"], Value::Null);
    let why = pos["exact"]["error"].as_str().unwrap();
    assert!(why.contains("solved for other rules"), "{why}");
    assert!(
        pos["legal"][0].get("value").is_none(),
        "{}",
        pos["legal"][0]
    );
    let go = position(&app, "jk-final", "").await;
    assert!(
        go["exact"]["error"]
            .as_str()
            .unwrap()
            .contains("database cannot hold"),
        "{}",
        go["exact"]
    );
    let plain = position(&app_with(None), GAME, "").await;
    assert!(plain.get("exact").is_none(), "{}", plain["exact"]);
}

/// `perfect` on 16 points is refused without a database (the playground
/// would have to solve it) and plays a best move from one.
#[tokio::test]
async fn perfect_plays_a_best_move_from_the_database() {
    let body = json!({ "ruleset": { "builtin": GAME }, "record": "", "agent": "perfect" });
    let (status, r) = post(&app_with(None), "/api/agent", body.clone()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{r}");
    let dir = copy_of("perfect");
    let app = app_with(Some(&dir));
    let mut record = String::new();
    for ply in 0..6 {
        let pos = position(&app, GAME, &record).await;
        let best = pos["exact"]["value"].clone();
        let mut body = body.clone();
        body["record"] = json!(record);
        body["seed"] = json!(ply);
        let (status, r) = post(&app, "/api/agent", body).await;
        assert_eq!(status, StatusCode::OK, "{r}");
        let played = r["move"].as_str().unwrap();
        let entry = pos["legal"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["text"] == played)
            .unwrap_or_else(|| panic!("{played} is not among {}", pos["legal"]));
        assert_eq!(entry["value"], best, "ply {ply}: {played} is a best move");
        record = r["position"]["record"].as_str().unwrap().to_string();
    }
}

/// A unit file replaced by a link to a copy outside the directory is not
/// read: the position it holds gets no value and says why, naming no
/// outside path.
#[tokio::test]
async fn a_unit_file_linked_out_of_the_directory_is_not_read() {
    let dir = copy_of("link");
    let outside = temp_dir("outside");
    let start_unit = dir.join("w0-b0-h5-5.sec");
    assert!(start_unit.exists(), "the start's unit is w0-b0-h5-5");
    let copy = outside.join("elsewhere.sec");
    std::fs::rename(&start_unit, &copy).unwrap();
    std::os::unix::fs::symlink(&copy, &start_unit).unwrap();
    let app = app_with(Some(&dir));
    let pos = position(&app, GAME, "").await;
    assert_eq!(pos["exact"]["value"], Value::Null, "{}", pos["exact"]);
    let why = pos["exact"]["error"].as_str().unwrap();
    assert!(
        why.contains("does not lead to a file inside the database directory"),
        "{why}"
    );
    assert!(!why.contains("elsewhere"), "{why}");
    assert!(!why.contains("outside"), "{why}");
    // A link to a file inside the directory is followed.
    let fresh = copy_of("link-inside");
    let unit = fresh.join("w0-b0-h5-5.sec");
    std::fs::rename(&unit, fresh.join("renamed.bin")).unwrap();
    std::os::unix::fs::symlink(fresh.join("renamed.bin"), &unit).unwrap();
    let pos = position(&app_with(Some(&fresh)), GAME, "").await;
    assert_eq!(pos["exact"]["value"]["outcome"], "draw", "{}", pos["exact"]);
}
