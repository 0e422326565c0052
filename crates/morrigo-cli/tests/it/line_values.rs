//! Values about the judged move read by a per-line condition
//! (`lines_formed(cond)`, `lines_broken(cond)`), its points (`to`, `from`),
//! its direction, and point and direction names in expressions: located
//! `check` errors where they cannot be used or do not exist, and refused
//! moves that name the rule and show the values it read.

use crate::common::{assert_code, check, morrigo, refused, run_in, scratch_dir, stderr, variant};

/// A point name the board does not have: located, with the nearest name.
#[test]
fn unknown_point_name_is_refused_with_did_you_mean() {
    let o = check(
        "point.yaml",
        "name: point\nextends: picaria\nforbid:\n  centre:\n    moves: [place]\n    when: \"to == c9 and turn == 0\"\n",
    );
    let err = refused(&o, "point.yaml", "6:18", "unknown name `c9`");
    assert!(err.contains("did you mean `c1`?"), "{err}");
    assert!(err.contains("point"), "{err}");
    insta::assert_snapshot!("unknown_point_name", err);
}

/// A direction no line of the board runs in (Nine Men's Morris has side
/// and cross lines only).
#[test]
fn direction_the_board_lacks_is_refused() {
    let o = check(
        "dir.yaml",
        &variant(
            "dir",
            "forbid:\n  x:\n    moves: [slide]\n    when: \"direction == horizontal\"\n",
        ),
    );
    let err = refused(&o, "dir.yaml", "6:25", "`horizontal` cannot be used here");
    assert!(err.contains("its lines run cross, side"), "{err}");
    insta::assert_snapshot!("direction_the_board_lacks", err);
}

/// A count by a condition inside another one's condition.
#[test]
fn nested_counts_of_lines_are_refused() {
    let o = check(
        "nested.yaml",
        &variant(
            "nested",
            "forbid:\n  x:\n    moves: [slide]\n    when: \"lines_formed(lines_broken(true) > 0) > 0\"\n",
        ),
    );
    let err = refused(
        &o,
        "nested.yaml",
        "6:25",
        "`lines_broken(…)` cannot be used here",
    );
    insta::assert_snapshot!("nested_counts_of_lines", err);
}

/// The move's direction in an action condition: a move is not known there.
#[test]
fn direction_in_an_action_condition_is_refused() {
    let o = check(
        "guard.yaml",
        &variant(
            "guard",
            "phases:\n  moving:\n    actions:\n      slide: \"direction == side\"\n",
        ),
    );
    let err = refused(&o, "guard.yaml", "6:15", "`direction` cannot be used here");
    assert!(
        err.contains("write a forbid rule naming their kind"),
        "{err}"
    );
}

/// `lines_formed(…)` in an end rule, `to` compared with a direction.
#[test]
fn counts_by_condition_outside_forbid_rules_and_type_errors_are_refused() {
    let o = check(
        "end.yaml",
        &variant(
            "end",
            "end:\n  x:\n    lose: \"lines_formed(direction(line) == side) > 0\"\n",
        ),
    );
    refused(
        &o,
        "end.yaml",
        "5:12",
        "`lines_formed(…)` cannot be used here",
    );
    let o = check(
        "types.yaml",
        &variant(
            "types",
            "forbid:\n  x:\n    moves: [slide]\n    when: \"to == side\"\n",
        ),
    );
    refused(
        &o,
        "types.yaml",
        "6:12",
        "cannot compare a point with a direction",
    );
}

/// Morabaraba: the cow going straight back to re-make the line it traded is
/// refused, naming the rule and the two counts it read.
#[test]
fn morabaraba_re_forming_refusal_shows_the_counts() {
    let dir = scratch_dir("reform");
    std::fs::write(
        dir.join("trade.yaml"),
        "name: trade\nextends: morabaraba\nsetup:\n  in_hand: 0\n  stones:\n    white: [a1, d1, g1, e4, f4]\n    black: [b2, d6, e5, c4, a7]\n",
    )
    .expect("write");
    let o = run_in(
        &dir,
        &["replay", "trade.yaml", "--moves", "g1-g4 xc4 d6-d7 g4-g1"],
    );
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("the move g4-g1 is forbidden here by rule `re_forming` (lines_formed(…) = 1, lines_broken(…) = 1)"),
        "{err}"
    );
    insta::assert_snapshot!("morabaraba_re_forming", err);
}

/// The direction probe: a diagonal step is refused with `direction = diagonal`.
#[test]
fn diagonal_step_refusal_shows_the_direction() {
    let dir = scratch_dir("diagonal");
    let probe =
        std::fs::read_to_string(crate::common::root().join("tests/rulesets/lang-directions.yaml"))
            .expect("probe");
    let body = probe.replace("name: lang-directions", "name: step");
    let setup =
        "setup:\n  in_hand: 0\n  stones:\n    white: [b2, g7, d6, a7]\n    black: [f2, f6, e5, g1]\n";
    std::fs::write(dir.join("step.yaml"), format!("{body}{setup}")).expect("write");
    let o = run_in(&dir, &["replay", "step.yaml", "--moves", "b2-a1"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(
            "the move b2-a1 is forbidden here by rule `no_diagonal_step` (direction = diagonal)"
        ),
        "{err}"
    );
    insta::assert_snapshot!("diagonal_step", err);
}

/// Picaria's first drop on the centre, by point name.
#[test]
fn centre_drop_refusal_shows_the_point() {
    let o = morrigo(&[
        "replay",
        "tests/rulesets/picaria-no-centre-drop.yaml",
        "--moves",
        "c3",
    ]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("placing on c3 is forbidden here by rule `no_centre_first` (to = c3)"),
        "{err}"
    );
    insta::assert_snapshot!("centre_drop", err);
}
