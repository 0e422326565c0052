//! What the engine cannot run is refused by `check` (and every command that
//! loads the ruleset) with a located error naming the limit, exit 1, at
//! once: the board-size limit (`MAX_POINTS`) and the hand-size limit
//! (`MAX_IN_HAND`). Before, these inputs passed `check` and then aborted
//! allocating tens of GiB, or failed later without a location.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn defect(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/defects")
        .join(name);
    path.to_str().expect("utf-8 path").to_string()
}

/// Run `morrigo`, asserting it takes well under the 5 s budget.
fn morrigo(args: &[&str]) -> Output {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args(args)
        .output()
        .expect("the morrigo binary runs");
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(2),
        "`morrigo {}` took {took:?}",
        args.join(" ")
    );
    out
}

/// Every command refuses the file with exit 1 and a message naming the
/// limit, located at `line:col` of the file.
fn refused(file: &str, line_col: &str, message: &str, limit: &str) {
    let path = defect(file);
    for args in [
        vec!["check", path.as_str()],
        vec!["show", path.as_str()],
        vec!["perft", path.as_str(), "1"],
    ] {
        let out = morrigo(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains(&format!("{file}:{line_col}: error: {message}")),
            "{args:?}: expected `{message}` at {line_col}, got:\n{err}"
        );
        assert!(
            err.contains(limit),
            "{args:?}: the limit is not named:\n{err}"
        );
    }
}

#[test]
fn a_hand_of_u32_max_is_refused_at_setup_in_hand() {
    refused(
        "in-hand-u32-max.yaml",
        "8:12",
        "`setup.in_hand: 4294967295` is more pieces than the engine can count",
        "at most 1000000 pieces in hand (the hand-size limit)",
    );
}

#[test]
fn a_hand_of_a_billion_is_refused_at_setup_in_hand() {
    refused(
        "in-hand-1e9.yaml",
        "8:12",
        "`setup.in_hand: 1000000000` is more pieces than the engine can count",
        "at most 1000000 pieces in hand (the hand-size limit)",
    );
}

#[test]
fn a_26x26_grid_is_refused_at_the_board() {
    refused(
        "grid-26x26.yaml",
        "4:1",
        "a board of 676 points is larger than the engine can run",
        "at most 640 points (the board-size limit",
    );
}

#[test]
fn a_641_point_explicit_board_is_refused_at_the_board() {
    refused(
        "explicit-641-points.yaml",
        "5:1",
        "a board of 641 points is larger than the engine can run",
        "at most 640 points (the board-size limit",
    );
}

/// A hand at the limit is fine, and cheap: the hash keys of hand counts
/// are computed, not tabled (this took 57 s and 15 GB at 10^9).
#[test]
fn a_hand_at_the_limit_runs() {
    let text = std::fs::read_to_string(defect("in-hand-1e9.yaml")).expect("readable");
    let text = text.replace("in_hand: 1000000000", "in_hand: 1000000");
    let dir = std::env::temp_dir().join(format!("morrigo-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("in-hand-at-limit.yaml");
    std::fs::write(&path, text).expect("writable");
    let path = path.to_str().expect("utf-8 path");
    let out = morrigo(&["check", path]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = morrigo(&["replay", path, "--moves", "a1 b2 d1 d2 g1 xd2"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("result: ongoing"), "{text}");
}
