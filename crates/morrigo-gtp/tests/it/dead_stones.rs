//! The referee's dead-stone protocol (`scoring.dead_stones`) against
//! scripted engines (`tests/gtp/scripted-engine.sh`) that agree, disagree,
//! answer garbage, refuse, crash or hang on `final_status_list dead`.
//!
//! The game, 5x5, komi 0.5: Black walls column C, White column D, White
//! drops a lone stone at A1 in Black's side, and both pass (14 moves). As
//! the board stands White counts 11.5 (D1-D5, E1-E5, A1) against Black's 5;
//! with A1 removed Black counts 15 (columns A-C) against 10.5.

use morrigo_gtp::referee::{run_match, GameRecord, MatchConfig};
use morrigo_rules::load::Overrides;
use std::path::{Path, PathBuf};
use std::time::Duration;

const BLACK: &str = "C1 C2 C3 C4 C5 pass pass";
const WHITE: &str = "D1 D2 D3 D4 D5 A1 pass";

fn script(moves: &str, dead: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/gtp/scripted-engine.sh");
    format!("sh '{}' '{moves}' {dead}", path.display())
}

fn out_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("morrigo-dead-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// One game under `ruleset` between the two scripted engines; the record
/// and the SGF text.
fn game(
    tag: &str,
    ruleset: &str,
    black: String,
    white: String,
    timeout: u64,
) -> (GameRecord, String) {
    let dir = out_dir(tag);
    let cfg = MatchConfig {
        ruleset: ruleset.into(),
        overrides: Overrides {
            size: Some((5, 5)),
            komi: Some(0.5),
        },
        engines: [black, white],
        games: 1,
        swap: false,
        timeout: Duration::from_secs(timeout),
        jobs: 1,
        out: dir.clone(),
        max_moves: 250,
        handicap: None,
    };
    let mut recs = run_match(&cfg, &|_| {}).expect("the match runs");
    assert_eq!(recs.len(), 1);
    let r = recs.remove(0);
    let sgf = std::fs::read_to_string(dir.join(&r.sgf)).unwrap();
    // The results line read back from the file is the one returned.
    let back = morrigo_gtp::referee::finished(&dir).unwrap();
    assert_eq!(back, std::slice::from_ref(&r));
    let _ = std::fs::remove_dir_all(&dir);
    (r, sgf)
}

/// Chinese rules (`dead_stones: agreement`): both engines name A1, which
/// is removed before counting: Black wins by 4.5 where the board as it
/// stands gives White 6.5; the results line and the SGF say so.
#[test]
fn stones_both_engines_name_are_removed_before_counting() {
    let (r, sgf) = game(
        "agree",
        "chinese",
        script(BLACK, "list:A1"),
        script(WHITE, "list:a1"),
        10,
    );
    assert_eq!(r.result.as_deref(), Some("B+4.5"), "{r:?}");
    assert_eq!(r.score, Some([15.0, 10.5]));
    assert_eq!(r.end, "two_passes");
    assert_eq!(r.moves, 14);
    let d = r.dead_stones.expect("the dead stones are recorded");
    assert_eq!(
        (d.how.as_str(), d.removed.as_slice()),
        ("agreed", &["A1".to_string()][..])
    );
    assert!(sgf.contains("RE[B+4.5]"), "{sgf}");
    assert!(sgf.contains("removed before counting: A1"), "{sgf}");
}

/// Tromp-Taylor (`dead_stones` absent: none): nobody is asked, the board
/// counts as it stands, A1 included.
#[test]
fn where_no_stone_is_dead_the_board_counts_as_it_stands() {
    let (r, sgf) = game(
        "tt",
        "tromp-taylor",
        script(BLACK, "list:A1"),
        script(WHITE, "list:A1"),
        10,
    );
    assert_eq!(r.result.as_deref(), Some("W+6.5"), "{r:?}");
    assert_eq!(r.score, Some([5.0, 11.5]));
    let d = r.dead_stones.expect("recorded");
    assert_eq!((d.how.as_str(), d.answers), ("as it stands", None));
    assert!(sgf.contains("the board counted as it stands"), "{sgf}");
}

/// The engines disagree (Black names A1, White nothing): the game goes on
/// with Black to move; Black captures A1 (A2, B1) while White passes, two
/// passes end the clean-up, and every stone on the board counts.
#[test]
fn a_disagreement_is_played_out_and_then_every_stone_counts() {
    let (r, sgf) = game(
        "cleanup",
        "chinese",
        script("C1 C2 C3 C4 C5 pass pass A2 B1 pass", "list:A1"),
        script(WHITE, "list:"),
        10,
    );
    assert_eq!(r.result.as_deref(), Some("B+4.5"), "{r:?}");
    assert_eq!(r.score, Some([15.0, 10.5]));
    assert_eq!(r.captured, [1, 0]);
    assert_eq!(r.moves, 19, "14 moves, then A2 pass B1 pass pass");
    let d = r.dead_stones.expect("recorded");
    assert_eq!(d.how, "clean-up");
    assert_eq!(d.cleanup_from, Some(14));
    assert_eq!(d.answers, Some(["A1".to_string(), String::new()]));
    assert!(r.reason.contains("after a clean-up"), "{}", r.reason);
    assert!(sgf.contains("clean-up) from move 15"), "{sgf}");
    // The clean-up's moves follow the passes in the record.
    assert!(
        sgf.contains(";B[] ;W[] ;B[ad] ;W[] ;B[be] ;W[] ;B[]"),
        "{sgf}"
    );
}

/// A clean-up nobody plays (Black passes at once): the dead stone stays
/// and counts for White, as the board stands.
#[test]
fn a_clean_up_ended_at_once_counts_the_dead_stone() {
    let (r, _) = game(
        "cleanup-pass",
        "chinese",
        script(BLACK, "list:A1"),
        script(WHITE, "list:"),
        10,
    );
    assert_eq!(r.result.as_deref(), Some("W+6.5"), "{r:?}");
    assert_eq!(r.score, Some([5.0, 11.5]));
    assert_eq!(r.moves, 15);
    assert_eq!(r.dead_stones.unwrap().how, "clean-up");
}

/// An engine that answers garbage, names an empty point, refuses the
/// command or crashes on it gives no list: a disagreement, played out (here
/// Black passes at once, so every stone counts).
#[test]
fn no_list_is_a_disagreement() {
    for (mode, said) in [
        ("garbage", "hello, referee"),
        ("list:B2", "B2"),
        ("refuse", "unknown command"),
        ("crash", "the engine ended its output"),
    ] {
        let (r, _) = game(
            &format!("fault-{mode}"),
            "chinese",
            script(BLACK, "list:A1"),
            script(WHITE, mode),
            10,
        );
        assert_eq!(r.result.as_deref(), Some("W+6.5"), "{mode}: {r:?}");
        let d = r.dead_stones.expect("recorded");
        assert_eq!(d.how, "clean-up", "{mode}");
        let answers = d.answers.expect("both answers kept");
        assert_eq!(answers[0], "A1");
        assert!(answers[1].contains(said), "{mode}: {answers:?}");
    }
}

/// An engine that never answers `final_status_list dead` is waited on for
/// the timeout only: the clean-up goes on, and the engine loses on time at
/// the next command it cannot answer.
#[test]
fn a_hanging_engine_is_bounded_by_the_timeout() {
    let (r, _) = game(
        "hang",
        "chinese",
        script("C1 C2 C3 C4 C5 pass pass A2 B1", "list:A1"),
        script(WHITE, "hang"),
        1,
    );
    assert_eq!(r.result.as_deref(), Some("B+T"), "{r:?}");
    assert_eq!(r.end, "timeout");
    let d = r.dead_stones.expect("recorded");
    assert_eq!(d.how, "clean-up");
    assert!(d.answers.unwrap()[1].contains("no answer to `final_status_list dead`"));
}
