//! Forbid rules for every move kind and the values about the move being
//! judged (`lines_formed`, `captures`, `run_length`): refused with located
//! errors where they cannot be used, honoured by `replay`/`perft`, and a
//! refused move names the rule and the values it read.

use crate::common::{assert_code, check, morrigo, refused, stderr, stdout, variant};

/// A misspelt move kind is refused at the word, with the kinds of this
/// ruleset and the nearest name.
#[test]
fn unknown_move_kind_is_refused_with_did_you_mean() {
    let o = check(
        "typo.yaml",
        &variant(
            "typo",
            "forbid:\n  no_x:\n    moves: [slid]\n    when: \"run_length > 3\"\n",
        ),
    );
    let err = refused(&o, "typo.yaml", "5:13", "`slid`, which is not a move kind");
    assert!(err.contains("did you mean `slide`?"), "{err}");
    insta::assert_snapshot!("unknown_move_kind", err);
}

/// A kind the ruleset has no moves of (Nine Men's Morris has no board plays).
#[test]
fn move_kind_the_ruleset_lacks_is_refused() {
    let o = check(
        "lacks.yaml",
        &variant(
            "lacks",
            "forbid:\n  no_x:\n    moves: [play]\n    when: \"captures > 0\"\n",
        ),
    );
    let err = refused(&o, "lacks.yaml", "5:13", "this ruleset has no such moves");
    assert!(
        err.contains("one of `place`, `slide`, `fly`, `remove`"),
        "{err}"
    );
}

/// An action condition cannot read a value about a move: it says where the
/// value may be used.
#[test]
fn move_values_in_an_action_condition_are_refused() {
    let o = check(
        "guard.yaml",
        &variant(
            "guard",
            "phases:\n  moving:\n    actions:\n      slide: \"run_length < 4\"\n",
        ),
    );
    let err = refused(&o, "guard.yaml", "6:15", "run_length");
    assert!(err.contains("exist only in forbid rules' `when`"), "{err}");
    insta::assert_snapshot!("move_value_in_guard", err);
}

/// `captures` in an end rule is refused the same way.
#[test]
fn move_values_in_an_end_rule_are_refused() {
    let o = check(
        "end.yaml",
        &variant("end", "end:\n  odd:\n    draw: \"captures > 2\"\n"),
    );
    let err = refused(&o, "end.yaml", "5:12", "captures");
    assert!(err.contains("exist only in forbid rules"), "{err}");
}

/// A rule judged per move cannot also ask whether a legal move exists.
#[test]
fn per_move_rule_reading_no_legal_move_is_refused() {
    let o = check(
        "blocked.yaml",
        &variant(
            "blocked",
            "forbid:\n  odd:\n    moves: [slide]\n    when: \"not no_legal_move\"\n",
        ),
    );
    refused(
        &o,
        "blocked.yaml",
        "6:5",
        "reads `no_legal_move` and is judged move by move",
    );
}

/// `run_length` needs the lines to continue one way per step: an explicit
/// board whose lines fork is refused.
#[test]
fn run_length_on_forking_lines_is_refused() {
    let text = "name: fork\n\
        board:\n  explicit:\n    nodes: [a, b, c, d]\n    edges: [[a, b], [b, c], [b, d]]\n    lines: [[a, b, c], [a, b, d]]\n\
        players: [white, black]\nsetup: { in_hand: 2 }\n\
        phases:\n  placing:\n    actions: { place: true }\n\
        forbid:\n  long:\n    moves: [place]\n    when: \"run_length > 2\"\n\
        end:\n  full:\n    draw: \"empty_points == 0\"\n";
    let o = check("fork.yaml", text);
    let err = refused(
        &o,
        "fork.yaml",
        "15:5",
        "`run_length` needs one line direction",
    );
    assert!(err.contains("from a through b both to c and to d"), "{err}");
}

/// Dara: a drop making four in a row stops the replay, naming the rule,
/// its line in the ruleset and the value it read.
#[test]
fn dara_refusal_shows_the_value_read() {
    let o = morrigo(&["replay", "dara", "--moves", "a1 a5 b1 b5 c1 c5 d1"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("placing on d1 is forbidden here by rule `no_four` (run_length = 4)"),
        "{err}"
    );
    assert!(
        err.contains("rule: `run_length > longest_run` (rulesets/morris/dara.yaml:"),
        "{err}"
    );
    insta::assert_snapshot!("dara_four_in_a_row", err);
}

/// NoGo: a capturing play is refused with the number of stones it would take.
#[test]
fn nogo_capture_refusal_shows_captures() {
    let o = morrigo(&["replay", "nogo", "--size", "5", "--moves", "A2 A1 B2 B1 C1"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("a play on C1 is forbidden here by rule `no_capture` (captures = 2)"),
        "{err}"
    );
}

/// perft from Dara's start: no piece is refused in the first four plies
/// (three of a colour cannot make four), so the counts are 30·29·28·27;
/// mid-game counts, where `no_four` refuses moves, are checked against the
/// reference in the engine's cross-check.
#[test]
fn dara_perft_counts() {
    let o = morrigo(&["perft", "dara", "4"]);
    assert_code(&o, 0);
    let counts: Vec<u64> = stdout(&o)
        .lines()
        .skip(2)
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .expect("nodes")
                .parse()
                .expect("a count")
        })
        .collect();
    assert_eq!(counts, [30, 870, 24_360, 657_720]);
}
