//! Who moves next, from the command line: a phase's `extra_turn`, its
//! `first` and its `remove` action, as `show`, `replay` (text and JSON),
//! `test` and `check` present them, and the errors a ruleset can make with
//! them (located, exit 1).

use crate::common::{assert_code, check, morrigo, stderr, stdout, variant};

/// `show` states each turn-order rule in words under its phase.
#[test]
fn show_states_the_turn_order_rules() {
    let o = morrigo(&["show", "zhi-qi"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains(
            "remove an opposing piece (target) if no_legal_move and own_neighbours(target) > 0"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "then the mover moves again if turns_without_removal == 0 and lines_formed == 0"
        ),
        "{out}"
    );
    let o = morrigo(&["show", "tests/rulesets/nmm-defender-first.yaml"]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("on entering this phase, black moves first"),
        "{}",
        stdout(&o)
    );
}

/// Nerenchi's extra placement after a row: the transcript shows white twice
/// and says so.
#[test]
fn replay_shows_the_same_player_twice() {
    let o = morrigo(&["replay", "nerenchi", "--moves", "a1 a4 d1 b4 g1 g4 c3"]);
    assert_code(&o, 0);
    snap!("turns__nerenchi_extra_placement", stdout(&o));
}

/// The JSON transcript names the player of every ply: white, white.
#[test]
fn json_transcript_names_the_repeated_player() {
    let o = morrigo(&[
        "replay",
        "nerenchi",
        "--moves",
        "a1 a4 d1 b4 g1 g4",
        "--json",
    ]);
    assert_code(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let players: Vec<&str> = v["plies"]
        .as_array()
        .expect("plies")
        .iter()
        .map(|p| p["player"].as_str().expect("player"))
        .collect();
    assert_eq!(
        players,
        ["white", "black", "white", "black", "white", "white"]
    );
}

/// Zhi Qi's blocked player: the removal is a move of its own, the same
/// player moves again, and a removal while the player can move is refused
/// with the rule quoted.
#[test]
fn a_blocked_players_removal_is_a_move() {
    let o = morrigo(&[
        "replay",
        "zhi-qi",
        "--moves",
        "b6 e4 c5 c3 b4 d6 d3 e5 a4 d7 e3 g4 d5 a7 g7 b2 d2 g1 a1 d1 f4 c4 f6 f2 xa7 xb6 a4-a7",
    ]);
    assert_code(&o, 0);
    snap!("turns__zhi_qi_full_board", stdout(&o));
    let o = morrigo(&[
        "replay",
        "zhi-qi",
        "--moves",
        "b6 e4 c5 c3 b4 d6 d3 e5 a4 d7 e3 g4 d5 a7 g7 b2 d2 g1 a1 d1 f4 c4 f6 f2 xg1",
    ]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("white may remove the piece on g1 only when this holds, and it does not"),
        "{err}"
    );
    assert!(err.contains("own_neighbours(target) > 0"), "{err}");
}

/// The scenario files of the turn-order rules pass through `morrigo test`.
#[test]
fn scenario_files_pass() {
    for f in [
        "tests/scenarios/morris/nerenchi.yaml",
        "tests/scenarios/morris/zhi-qi.yaml",
        "tests/scenarios/morris/board-full.yaml",
        "tests/scenarios/morris/cheng-san-qi.yaml",
        "tests/scenarios/language/turn-order.yaml",
        "tests/scenarios/language/blocked-passes.yaml",
        "tests/scenarios/language/stop-placing.yaml",
        "tests/scenarios/language/blocked-removes.yaml",
    ] {
        let o = morrigo(&["test", f]);
        assert_code(&o, 0);
        assert!(stdout(&o).contains("0 failed"), "{f}: {}", stdout(&o));
    }
}

/// Names that make no sense where a turn-order rule is read are refused
/// at their place, with the reason.
#[test]
fn misplaced_names_are_located_errors() {
    let o = check(
        "extra-target.yaml",
        &variant(
            "extra-target",
            "phases:\n  moving:\n    extra_turn: \"in_line(target)\"\n",
        ),
    );
    assert_code(&o, 1);
    snap!("turns__extra_turn_reads_target", stderr(&o));

    let o = check(
        "first-number.yaml",
        &variant("first-number", "phases:\n  moving:\n    first: \"1 + 1\"\n"),
    );
    assert_code(&o, 1);
    snap!("turns__first_is_not_a_player", stderr(&o));

    let o = check(
        "remove-lines.yaml",
        &variant(
            "remove-lines",
            "phases:\n  moving:\n    actions:\n      remove: \"lines_formed > 0\"\n",
        ),
    );
    assert_code(&o, 1);
    snap!("turns__remove_reads_lines_formed", stderr(&o));

    let o = check(
        "extra-blocked.yaml",
        &variant(
            "extra-blocked",
            "phases:\n  moving:\n    extra_turn: \"no_legal_move\"\n",
        ),
    );
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.starts_with("extra-blocked.yaml:5:18: error"), "{err}");
    assert!(err.contains("next player is not decided yet"), "{err}");
}

/// A phase with only a `remove` action is a phase with an action.
#[test]
fn a_removal_only_phase_is_accepted() {
    let o = check(
        "removal-phase.yaml",
        &variant(
            "removal-phase",
            "phases:\n  cull:\n    before: moving\n    when: \"turn == 18\"\n    actions:\n      remove: \"true\"\n",
        ),
    );
    assert_code(&o, 0);
}

/// Retrograde analysis does not apply when the next player depends on the
/// turn just played; the full-history search plays the rules as they are.
#[test]
fn solve_plays_extra_turns_by_full_history_search() {
    let dir = std::env::temp_dir().join(format!("morrigo-turns-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("achi-blocked-removes.yaml");
    std::fs::write(
        &path,
        "name: achi-blocked-removes\nextends: achi\nphases:\n  moving:\n    actions:\n      remove: \"no_legal_move\"\n    extra_turn: \"turns_without_removal == 0\"\n",
    )
    .expect("write");
    let o = morrigo(&["solve", path.to_str().expect("utf-8 path")]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("search: full history"), "{out}");
    assert!(out.contains("value: "), "{out}");
}

/// Board plays take the players to alternate (ko, superko, move classes):
/// the turn-order keys are refused there, at their place.
#[test]
fn turn_order_is_refused_with_board_plays() {
    let o = check(
        "go-extra.yaml",
        "name: go-extra\nextends: tromp-taylor\nphases:\n  play:\n    extra_turn: \"captured(me) > 0\"\n    actions:\n      remove: \"true\"\n",
    );
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.starts_with("go-extra.yaml:5:5: error: `extra_turn` decides who moves next"),
        "{err}"
    );
    assert!(
        err.contains("go-extra.yaml:7:7: error: a `remove` action"),
        "{err}"
    );
}
