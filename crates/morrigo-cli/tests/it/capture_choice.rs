//! Captures taken by removals the player chooses (`captures.*.take`), from
//! the command line: how `show`, `replay` and refused moves word them, and
//! the combinations `check` refuses (located, exit 1).

use crate::common::{assert_code, check, morrigo, stderr, stdout, variant};

const PROBE: &str = "tests/rulesets/nmm-capture-choose.yaml";

/// `show` says how each capture rule takes its pieces.
#[test]
fn show_says_how_captures_take() {
    let o = morrigo(&["show", "tests/rulesets/nmm-capture-choose-one.yaml"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("flank: custodian along side, one flanked piece taken by a removal"),
        "{out}"
    );
    assert!(
        out.contains("when phase == moving, taken by removals the player chooses"),
        "{out}"
    );
}

/// The transcript names the pieces a capture made removable, and says the
/// first removal chooses when a mill was completed too.
#[test]
fn replay_names_the_capture_targets() {
    let o = morrigo(&[
        "replay",
        PROBE,
        "--moves",
        "a1 d1 g1 xd1 b6 a4 d7 g7 f2 a7 xd7",
    ]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("captures by removal: d1"), "{out}");
    snap!("capture_choice__mill_and_capture", out);
}

/// Removing a piece the capture does not allow is refused, naming the
/// pieces it does.
#[test]
fn a_removal_outside_the_capture_is_refused() {
    let o = morrigo(&["replay", PROBE, "--moves", "a1 d1 d7 b6 g1 xb6"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("white's capture made d1 removable, and the piece on b6 is not one of them"),
        "{err}"
    );
    snap!("capture_choice__not_a_target", err);
}

/// `take` where it has no reading: a leap, one piece of an intervention,
/// and a line rule whose removals come from the hand or leave marks.
#[test]
fn check_refuses_take_without_a_reading() {
    let cases = [
        (
            "leap-choose.yaml",
            "captures:\n  jump:\n    kind: leap\n    take: choose\n",
        ),
        (
            "between-one.yaml",
            "captures:\n  between:\n    kind: intervention\n    take: choose_one\n",
        ),
        (
            "from-hand.yaml",
            "on_line_formed:\n  from_hand: \"phase == placing\"\ncaptures:\n  flank:\n    kind: custodian\n    take: choose\n",
        ),
        (
            "take-typo.yaml",
            "captures:\n  flank:\n    kind: custodian\n    take: chose\n",
        ),
    ];
    let mut all = String::new();
    for (file, body) in cases {
        let o = check(file, &variant(file.trim_end_matches(".yaml"), body));
        assert_code(&o, 1);
        let err = stderr(&o);
        assert!(err.contains(&format!("{file}:")), "{err}");
        all.push_str(&err);
        all.push('\n');
    }
    snap!("capture_choice__check_refusals", all);
}
