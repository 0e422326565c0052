//! The `eval:` section: alpha-beta's evaluation weights, set term by term,
//! inherited through `extends`, refused with a located message when a key
//! or a value is wrong.

use morrigo_rules::{load_rules, EvalWeights};

fn file(dir: &str, name: &str) -> String {
    format!("../../tests/{dir}/{name}")
}

fn refusal(name: &str) -> String {
    match load_rules(&file("defects", name)) {
        Ok(r) => panic!("{name} was accepted as {}", r.name),
        Err(d) => d.to_string(),
    }
}

#[test]
fn without_an_eval_section_each_family_keeps_its_default_weights() {
    // Three Men's Morris: Nine Men's sets `mobility: 40` in its file.
    let nmm = load_rules("three-mens-morris").unwrap();
    assert_eq!(nmm.eval, None);
    assert_eq!(nmm.eval_weights(), EvalWeights::PIECES);
    let go = load_rules("jk-final").unwrap();
    assert_eq!(go.eval, None);
    assert_eq!(go.eval_weights(), EvalWeights::BOARD_PLAYS);
    assert!(
        !nmm.to_string().contains("eval weights"),
        "show prints no section the file lacks"
    );
}

#[test]
fn terms_left_out_keep_the_family_default() {
    let r = load_rules(&file("rulesets", "nmm-mobility-eval.yaml")).unwrap();
    let expected = EvalWeights {
        material: 0,
        owed_removals: 0,
        lines: 0,
        open_lines: 0,
        mobility: 10,
        ..EvalWeights::PIECES
    };
    assert_eq!(r.eval, Some(expected));
    assert_eq!(r.eval_weights(), expected);
}

#[test]
fn a_variant_inherits_the_parents_eval_and_changes_one_term() {
    let r = load_rules(&file("rulesets", "nmm-mobility-eval-child.yaml")).unwrap();
    let expected = EvalWeights {
        material: 0,
        owed_removals: 0,
        lines: 0,
        open_lines: 0,
        mobility: 5,
        ..EvalWeights::PIECES
    };
    assert_eq!(r.eval_weights(), expected);
    insta::assert_snapshot!(r.to_string());
}

#[test]
fn an_unknown_eval_key_is_refused_with_a_suggestion() {
    let out = refusal("eval-unknown-key.yaml");
    assert!(
        out.contains(":5:3:") && out.contains("did you mean `mobility`"),
        "{out}"
    );
    insta::assert_snapshot!(out);
}

#[test]
fn a_weight_beyond_the_limit_is_refused_at_its_value() {
    let out = refusal("eval-weight-too-big.yaml");
    assert!(
        out.contains(":5:10:") && out.contains("-10000 to 10000"),
        "{out}"
    );
    insta::assert_snapshot!(out);
}

#[test]
fn a_weight_that_is_not_a_whole_number_is_refused() {
    let out = refusal("eval-weight-a-fraction.yaml");
    assert!(out.contains(":4:14:"), "{out}");
    insta::assert_snapshot!(out);
}
