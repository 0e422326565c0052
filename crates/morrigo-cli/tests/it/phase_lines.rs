//! Removals fixed when a phase ends, from the command line: the
//! `remove_own` action and `lines_formed_in(phase, player)` as `show`,
//! `replay`, `test` and `check` present them (El Filja), and the errors a
//! ruleset can make with them (located, exit 1).

use crate::common::{assert_code, check, morrigo, refused, stderr, stdout, variant};

/// Twelve pieces each with no mill on either side (El Filja).
const NO_MILLS: &str = "d1 f2 d2 c4 c3 a7 a4 a1 d6 d3 c5 f4 e4 d7 b4 b2 g7 d5 e3 b6 f6 g4 g1 e5";

/// No mills while placing: each side removes one of its own pieces, white
/// first, and the transcript says so; then white moves.
#[test]
fn replay_shows_own_removals() {
    let moves = format!("{NO_MILLS} xd1 xf2 d2-d1");
    let o = morrigo(&["replay", "el-filja", "--moves", &moves]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("25. white  xd1      [making_room]  removes own piece"),
        "{out}"
    );
    assert!(
        out.contains("26. black  xf2      [making_room]  removes own piece"),
        "{out}"
    );
    snap!("phase_lines__el_filja_no_mills", out);
}

/// Removing an opposing piece where only own pieces may go, and an own
/// piece where only opposing ones may: refused with the reason (exit 1).
#[test]
fn wrong_owner_removals_are_refused() {
    let moves = format!("{NO_MILLS} xa1");
    let o = morrigo(&["replay", "el-filja", "--moves", &moves]);
    assert_code(&o, 1);
    snap!("phase_lines__opposing_piece_while_making_room", stderr(&o));
    let three_one = "a4 d6 a7 g1 a1 b2 f6 g7 b4 d2 c5 e4 g4 d7 d5 f2 c4 f4 e3 b6 d1 e5 c3 d3 xa1";
    let o = morrigo(&["replay", "el-filja", "--moves", three_one]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("a1 holds white's own piece"), "{err}");
}

/// `show` words the new action; the scenario file passes.
#[test]
fn show_and_scenarios() {
    let o = morrigo(&["show", "el-filja"]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("remove an own piece (target) if true"),
        "{}",
        stdout(&o)
    );
    let o = morrigo(&["test", "tests/scenarios/morris/el-filja.yaml"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("0 failed"), "{}", stdout(&o));
}

/// `lines_formed_in` on a board without lines, `remove_own` with board
/// plays, a non-phase first argument, and `target` in a phase `when`.
#[test]
fn check_refuses_bad_uses() {
    let o = check(
        "no-lines.yaml",
        "name: no-lines\nextends: tromp-taylor\nend:\n  lined:\n    lose: \"lines_formed_in(play, me) > 0\"\n",
    );
    let err = refused(&o, "no-lines.yaml", "5:12", "the board has no lines");
    snap!("phase_lines__no_lines", err);

    let o = check(
        "go-own.yaml",
        "name: go-own\nextends: tromp-taylor\nphases:\n  play:\n    actions:\n      remove_own: \"true\"\n",
    );
    let err = refused(&o, "go-own.yaml", "6:7", "a `remove_own` action");
    assert!(
        err.contains("no `remove_own` action in a ruleset with a `play:` section"),
        "{err}"
    );

    let o = check(
        "not-a-phase.yaml",
        &variant(
            "not-a-phase",
            "end:\n  odd:\n    lose: \"lines_formed_in(me, me) > 2\"\n",
        ),
    );
    assert_code(&o, 1);
    snap!("phase_lines__first_argument_not_a_phase", stderr(&o));

    let o = check(
        "own-target.yaml",
        &variant(
            "own-target",
            "phases:\n  moving:\n    actions:\n      remove_own: \"no_legal_move and in_line(target)\"\n",
        ),
    );
    assert_code(&o, 0);
}
