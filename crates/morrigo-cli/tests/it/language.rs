//! The rule language's general forms: `if … then … else …`, `min(a, b)`,
//! `max(a, b)` — refused with located errors when malformed or mistyped
//! (exit 1), and compiled (constants folded) where they are well formed.

use crate::common::{assert_code, check, morrigo, refused, root, stderr, stdout, variant};

/// An `if` must have an `else`: the error is at the end of the expression
/// and says `else` could come there.
#[test]
fn if_without_else_is_a_located_syntax_error() {
    let o = check(
        "no-else.yaml",
        &variant(
            "no-else",
            "on_line_formed:\n  removals: \"if turn > 3 then 1\"\n",
        ),
    );
    let err = refused(
        &o,
        "no-else.yaml",
        "4:32",
        "syntax error: unexpected the end",
    );
    assert!(err.contains("or `else`"), "{err}");
    insta::assert_snapshot!("if_without_else", err);
}

#[test]
fn if_without_then_is_a_located_syntax_error() {
    let o = check(
        "no-then.yaml",
        &variant(
            "no-then",
            "end:\n  x: { lose: \"if no_legal_move 1 else 0\" }\n",
        ),
    );
    let err = refused(&o, "no-then.yaml", "4:32", "syntax error: unexpected `1`");
    assert!(err.contains("`then`"), "{err}");
}

/// The two values of an `if` have one type; a condition where the `then`
/// value is a number is refused at the `else` value.
#[test]
fn branches_of_different_types_are_refused_at_the_else_value() {
    let o = check(
        "mixed.yaml",
        &variant(
            "mixed",
            "on_line_formed:\n  removals: \"if turn > 3 then 2 else lines_formed > 1\"\n",
        ),
    );
    let err = refused(
        &o,
        "mixed.yaml",
        "4:38",
        "this is a condition (true/false), but the `then` value is a number",
    );
    insta::assert_snapshot!("if_branches_differ", err);
}

/// A condition is not a number: not as `min`'s argument, not as an `if`'s
/// condition the other way round, not as a result that must count removals.
#[test]
fn a_condition_used_as_a_number_is_refused_where_it_stands() {
    let o = check(
        "min-bool.yaml",
        &variant(
            "min-bool",
            "end:\n  x: { lose: \"min(on_board(me), no_legal_move) < 2\" }\n",
        ),
    );
    refused(
        &o,
        "min-bool.yaml",
        "4:33",
        "this is a condition (true/false), but a number is needed here",
    );
    let o = check(
        "if-number.yaml",
        &variant(
            "if-number",
            "end:\n  x: { lose: \"if turn then true else false\" }\n",
        ),
    );
    refused(
        &o,
        "if-number.yaml",
        "4:18",
        "this is a number, but a condition (true/false) is needed here",
    );
    let o = check(
        "removals-bool.yaml",
        &variant(
            "removals-bool",
            "on_line_formed:\n  removals: \"if turn > 3 then true else false\"\n",
        ),
    );
    refused(
        &o,
        "removals-bool.yaml",
        "4:14",
        "this is a condition (true/false), but a number is needed here",
    );
}

#[test]
fn min_and_max_take_exactly_two_numbers() {
    let o = check(
        "max-one.yaml",
        &variant("max-one", "end:\n  x: { lose: \"max(turn) > 2\" }\n"),
    );
    let err = refused(
        &o,
        "max-one.yaml",
        "4:15",
        "`max` takes 2 argument(s), 1 given",
    );
    assert!(err.contains("expected `max(number, number)`"), "{err}");
    let o = check(
        "min-bare.yaml",
        &variant("min-bare", "end:\n  x: { lose: \"min > 2\" }\n"),
    );
    refused(
        &o,
        "min-bare.yaml",
        "4:15",
        "`min` is a function and needs arguments",
    );
}

/// `min`, `max`, `if`, `then` and `else` are words of the language: no
/// param, phase or player may take them.
#[test]
fn language_words_cannot_name_params_or_phases() {
    let o = check(
        "param-max.yaml",
        &variant("param-max", "params:\n  max: 3\n"),
    );
    refused(
        &o,
        "param-max.yaml",
        "4:3",
        "`max` is a word of the rule language and cannot be the name of a param",
    );
    let o = check(
        "phase-else.yaml",
        &variant(
            "phase-else",
            "phases:\n  else: { actions: { slide: true } }\n",
        ),
    );
    // (The parent's `moving` has no `when`, so a phase added after it is
    // also refused; the name is refused in its own right.)
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains(
            "phase-else.yaml:4:3: error: `else` is a word of the rule language and cannot be the name of a phase"
        ),
        "{}",
        stderr(&o)
    );
}

/// Arithmetic inside an `if` is proved safe over both branches: a product
/// safe in one branch but not the other is refused.
#[test]
fn overflow_is_proved_over_both_branches() {
    let o = check(
        "if-overflow.yaml",
        &variant(
            "if-overflow",
            "end:\n  x: { lose: \"(if turn > 3 then 1 else turn) * 9223372036854775807 > 0\" }\n",
        ),
    );
    refused(
        &o,
        "if-overflow.yaml",
        "4:16",
        "can overflow: it can reach 39614081247908796755622232065",
    );
    let o = check(
        "min-no-overflow.yaml",
        &variant(
            "min-no-overflow",
            "end:\n  x: { lose: \"min(turn, 1) * 9223372036854775807 > 0\" }\n",
        ),
    );
    assert_code(&o, 0);
}

/// The compiled form of the test ruleset that uses the new forms: each
/// expression as written and as checked, with parameters folded
/// (`fly_at + 1` is 4, `fly_at` 3, `min_pieces` 3).
#[test]
fn compiled_form_of_conditional_rules() {
    let path = root().join("tests/rulesets/lang-conditional.yaml");
    let rules = morrigo_rules::load_rules(path.to_str().expect("utf-8 path"))
        .unwrap_or_else(|e| panic!("{e:?}"));
    let mut out = String::new();
    for phase in &rules.phases {
        for a in &phase.actions {
            out += &format!(
                "{}.{:?}: {}\n  {:?}\n",
                phase.name, a.kind, a.guard.text, a.guard.expr
            );
        }
    }
    let line = rules
        .line_rule
        .as_ref()
        .expect("the ruleset has a line rule");
    out += &format!(
        "removals: {}\n  {:?}\n",
        line.removals.text, line.removals.expr
    );
    for e in &rules.end {
        out += &format!("end.{}: {}\n  {:?}\n", e.name, e.when.text, e.when.expr);
    }
    insta::assert_snapshot!("compiled_conditional_rules", out);
}

/// `morrigo test` runs the scenario file of the new forms and all pass.
#[test]
fn scenarios_of_the_new_forms_pass() {
    let o = morrigo(&["test", "tests/scenarios/language/conditional.yaml"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("7 passed, 0 failed"), "{}", stdout(&o));
}

/// `before: NAME` on a phase must name another phase: an unknown name is
/// refused at the value, with the phases it could name and the nearest.
#[test]
fn phase_before_an_unknown_phase_is_located() {
    let o = check(
        "before-typo.yaml",
        "name: before-typo\nextends: tromp-taylor\nphases:\n  opening:\n    when: \"turn < 4\"\n    before: ply\n    actions: { play: true }\n",
    );
    let err = refused(
        &o,
        "before-typo.yaml",
        "6:13",
        "phase `opening` is to come before `ply`, a phase that does not exist",
    );
    assert!(err.contains("did you mean `play`?"), "{err}");
    let o = check(
        "before-self.yaml",
        "name: before-self\nextends: tromp-taylor\nphases:\n  opening:\n    when: \"turn < 4\"\n    before: opening\n    actions: { play: true }\n",
    );
    refused(
        &o,
        "before-self.yaml",
        "6:13",
        "phase `opening` is to come before `opening`, itself",
    );
}

/// With `before:` the inserted phase is tried first, and the phase names
/// in expressions follow that order (`phase == opening` means the first).
#[test]
fn phase_before_an_inherited_phase_is_tried_first() {
    let o = morrigo(&["show", "tests/rulesets/lang-opening.yaml"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    let opening = out
        .find("    opening when turn < opening_turns")
        .expect(&out);
    let play = out.find("    play otherwise").expect(&out);
    assert!(opening < play, "{out}");
    let o = morrigo(&["test", "tests/scenarios/language/forbid-phase.yaml"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("4 passed, 0 failed"), "{}", stdout(&o));
}

/// `target` in a forbid rule is the piece a judged removal takes: a rule
/// reading it that names other moves is refused with the forbid rule's own
/// reason (not an action condition's).
#[test]
fn forbid_rules_refuse_target_with_their_own_reason() {
    let o = check(
        "forbid-target.yaml",
        "name: forbid-target\nextends: tromp-taylor\nforbid:\n  x:\n    moves: [P]\n    when: \"in_line(target)\"\n",
    );
    let err = refused(
        &o,
        "forbid-target.yaml",
        "6:5",
        "reads `target`, the piece a removal takes, but names moves that are not removals",
    );
    assert!(
        err.contains("expected `moves: [remove]` in a forbid rule reading `target`"),
        "{err}"
    );
}

/// `no_legal_move` in a forbid rule means "no legal move outside this
/// rule's": `morrigo test` runs the scenarios of a pass allowed only when
/// blocked; `no_safe_move` stays refused there, with the reason.
#[test]
fn no_legal_move_in_a_forbid_rule() {
    let o = morrigo(&["test", "tests/scenarios/language/forbid-no-legal-move.yaml"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("5 passed, 0 failed"), "{}", stdout(&o));
    let o = check(
        "forbid-safe.yaml",
        "name: forbid-safe\nextends: tromp-taylor\nforbid:\n  x:\n    moves: [P]\n    when: \"not no_safe_move\"\n",
    );
    let err = refused(
        &o,
        "forbid-safe.yaml",
        "6:16",
        "`no_safe_move` cannot be used here",
    );
    insta::assert_snapshot!("forbid_no_safe_move", err);
}
