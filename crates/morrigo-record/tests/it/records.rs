//! Record-crate regressions: the record-length limit, removals written after
//! a move, and `run_path` on directories with rulesets and link loops.

use morrigo_diag::SourceFile;
use morrigo_engine::Game;
use morrigo_record::{replay, run_path, MAX_RECORD_TOKENS};
use std::path::PathBuf;
use std::sync::Arc;

fn game(name: &str) -> Game {
    let rules = morrigo_rules::load_rules(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    Game::new(Arc::new(rules)).unwrap()
}

fn replay_text(name: &str, record: &str) -> Result<morrigo_record::Transcript, String> {
    let game = game(name);
    replay(&game, record, &SourceFile::new("--moves", record)).map_err(|e| e.diagnostic.to_string())
}

/// A record longer than the limit is refused before it is played, at the
/// first move past the limit.
#[test]
fn records_longer_than_the_limit_are_refused() {
    let record = "a1 ".repeat(MAX_RECORD_TOKENS + 1);
    let e = replay_text("three-mens-morris", &record).unwrap_err();
    let col = 3 * MAX_RECORD_TOKENS + 1;
    assert!(
        e.starts_with(&format!(
            "--moves:1:{col}: error: the record has {} moves, more than the limit of {MAX_RECORD_TOKENS}",
            MAX_RECORD_TOKENS + 1
        )),
        "{}",
        &e[..200]
    );
}

/// `g1xd2xb4`: a move and one removal per `x`; a removal nothing owes is
/// refused with the reason.
#[test]
fn removals_follow_their_move_in_one_token() {
    let t = replay_text(
        "nine-mens-morris-remove-per-mill",
        "a1 b2 d1 d2 g4 e3 g7 c5 g1xb2xd2",
    )
    .unwrap();
    let moves: Vec<&str> = t.plies.iter().map(|p| p.mv.as_str()).collect();
    assert_eq!(moves[8..], ["g1", "xb2", "xd2"]);
    let e = replay_text("nine-mens-morris", "a1 d2 g1xd2").unwrap_err();
    assert!(
        e.contains("`g1` completes no line, so no removal is owed: `xd2` cannot follow it"),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn run_path_enters_each_directory_once_and_skips_rulesets() {
    let dir = std::env::temp_dir().join(format!("morrigo-record-runpath-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("inner")).unwrap();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/defects/scenario-dir-with-ruleset");
    for name in ["three-mens-morris.yaml", "ruleset-extends-itself.yaml"] {
        std::fs::copy(src.join(name), dir.join("inner").join(name)).unwrap();
    }
    std::os::unix::fs::symlink(&dir, dir.join("inner").join("up")).unwrap();
    let report = run_path(&dir).unwrap();
    assert_eq!(report.files.len(), 1, "{report}");
    assert_eq!(report.skipped.len(), 1, "{report}");
    assert!(report.all_passed(), "{report}");
    // A directory holding only rulesets has no scenario file to run.
    std::fs::remove_file(dir.join("inner").join("three-mens-morris.yaml")).unwrap();
    let e = run_path(&dir).unwrap_err();
    assert!(e.notes.iter().any(|n| n.contains("are rulesets")), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
