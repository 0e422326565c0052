//! Ruleset compilation: built-ins, inheritance and located errors.

use morrigo_rules::{builtin, load_rules, rules_from_text, ActionKind, Verdict};

#[test]
fn every_builtin_ruleset_compiles() {
    for b in builtin::all() {
        if let Err(e) = load_rules(b.name) {
            panic!("{} does not compile:\n{e}", b.path);
        }
    }
}

#[test]
fn no_flying_variant_inherits_everything_but_fly() {
    let r = load_rules("nine-mens-morris-no-flying").unwrap();
    let moving = &r.phases[r.phase_index("moving").unwrap()];
    let kinds: Vec<_> = moving.actions.iter().map(|a| a.kind).collect();
    assert_eq!(kinds, vec![ActionKind::Slide]);
    assert_eq!(r.end.len(), 4, "end rules inherited");
    assert_eq!(r.sources.len(), 2, "file and its parent");
}

#[test]
fn before_inserts_an_inherited_rule_ahead() {
    let r = load_rules("twelve-mens-morris").unwrap();
    let names: Vec<_> = r.end.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "board_full",
            "too_few_pieces",
            "blocked",
            "repetition",
            "n_move"
        ]
    );
    assert_eq!(r.end[0].verdict, Verdict::Draw);
}

#[test]
fn lasker_has_one_phase_with_place_and_move() {
    let r = load_rules("lasker-morris").unwrap();
    assert_eq!(r.phases.len(), 1);
    let kinds: Vec<_> = r.phases[0].actions.iter().map(|a| a.kind).collect();
    assert_eq!(
        kinds,
        vec![ActionKind::Slide, ActionKind::Fly, ActionKind::Place]
    );
    assert_eq!(r.in_hand, 10);
}

const BASE: &str =
    "name: t\nboard:\n  grid: { width: 3, height: 3, lines: 3 }\nsetup: { in_hand: 3 }\n";

#[test]
fn dsl_error_is_located_at_the_offending_name() {
    let text = format!("{BASE}phases:\n  only:\n    actions:\n      place: \"in_hnd(me) > 0\"\n");
    let e = rules_from_text("t.yaml", &text).unwrap_err();
    let d = &e.0[0];
    let at = d.location.as_ref().unwrap();
    assert_eq!((at.line, at.col), (8, 15), "{e}");
    assert!(d.message.contains("unknown name `in_hnd`"), "{e}");
    assert_eq!(d.notes, vec!["did you mean `in_hand`?".to_string()]);
}

#[test]
fn all_errors_are_reported_together() {
    let text = format!(
        "{BASE}phases:\n  only:\n    actions:\n      plase: true\n      slide: \"1 +\"\nend:\n  x: {{ lose: \"target == target\" }}\n"
    );
    let e = rules_from_text("t.yaml", &text).unwrap_err();
    let messages: Vec<_> = e.0.iter().map(|d| d.message.clone()).collect();
    assert_eq!(e.0.len(), 3, "{e}");
    assert!(messages[0].contains("unknown action `plase`"), "{e}");
    assert_eq!(e.0[0].notes, vec!["did you mean `place`?".to_string()]);
    assert!(messages[1].contains("syntax error"), "{e}");
    assert!(messages[2].contains("`target` cannot be used here"), "{e}");
}

#[test]
fn missing_board_is_an_error_not_a_default() {
    let e = rules_from_text(
        "t.yaml",
        "name: t\nsetup: { in_hand: 3 }\nphases: { p: { actions: { place: true } } }\n",
    )
    .unwrap_err();
    assert!(e.to_string().contains("the ruleset has no `board`"), "{e}");
}

#[test]
fn phase_without_when_must_be_last() {
    let text = format!("{BASE}phases:\n  a:\n    actions: {{ place: true }}\n  b:\n    actions: {{ slide: true }}\n");
    let e = rules_from_text("t.yaml", &text).unwrap_err();
    assert!(e.to_string().contains("phase `a` has no `when`"), "{e}");
}

#[test]
fn redefining_a_builtin_name_is_refused() {
    let text =
        format!("{BASE}params: {{ me: 3 }}\nphases:\n  a:\n    actions: {{ place: true }}\n");
    let e = rules_from_text("t.yaml", &text).unwrap_err();
    assert!(e.to_string().contains("`me` is a built-in name"), "{e}");
}
