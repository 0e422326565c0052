//! Loading rulesets: merges keep order, every refusal is located and speaks
//! in the file's terms, and big or deep inputs are handled in bounded time.
//! The files are in `tests/defects/` at the top of the repository.

use morrigo_rules::{load_rules, rules_from_text};

fn defect(name: &str) -> String {
    format!("../../tests/defects/{name}")
}

/// `check`'s view of a file: the summary, or every error as printed.
fn check(name: &str) -> String {
    match load_rules(&defect(name)) {
        Ok(r) => format!("ok: {}", r.name),
        Err(d) => d.to_string(),
    }
}

fn check_text(text: &str) -> String {
    match rules_from_text("inline.yaml", text) {
        Ok(r) => format!("ok: {}", r.name),
        Err(d) => d.to_string(),
    }
}

macro_rules! refused {
    ($test:ident, $file:literal) => {
        #[test]
        fn $test() {
            let out = check($file);
            assert!(!out.starts_with("ok"), "{out}");
            insta::assert_snapshot!(stringify!($test), out);
        }
    };
}

// ----- defect 3: merges keep the parent's order ---------------------------

/// Deleting `too_few_pieces` must not move the draw rules ahead of
/// `blocked` (a loss): end rules are checked in order.
#[test]
fn deleting_an_end_rule_keeps_the_order_of_the_rest() {
    let child = load_rules(&defect("nmm-delete-end-rule.yaml")).unwrap();
    let parent = load_rules("nine-mens-morris").unwrap();
    let expected: Vec<&str> = parent
        .end
        .iter()
        .map(|e| e.name.as_str())
        .filter(|n| *n != "too_few_pieces")
        .collect();
    let got: Vec<&str> = child.end.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(got, expected);
    insta::assert_snapshot!("show_nmm_delete_end_rule", child.to_string());
}

/// The child deletes `placing` and changes `moving`: the phases keep the
/// parent's order (`endgame` before `moving`), so `moving` stays last.
#[test]
fn deleting_a_phase_keeps_the_order_of_the_rest() {
    let rules = load_rules(&defect("three-phase-child-deletes-placing.yaml")).unwrap();
    let names: Vec<&str> = rules.phases.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["endgame", "moving"]);
}

// ----- defect 5: settings check accepts must work or be refused -------------

refused!(
    unknown_key_in_an_explicit_node,
    "explicit-node-unknown-key.yaml"
);
refused!(unknown_key_in_a_suicide_map, "suicide-unknown-key.yaml");
refused!(extends_a_number, "extends-a-number.yaml");
refused!(repetition_count_zero, "repetition-count-0.yaml");
refused!(pass_action_without_pass_kinds, "pass-without-passes.yaml");

#[test]
fn count_without_a_repeated_board_rule_is_refused() {
    let out = check_text("name: c\nextends: tromp-taylor\nrepetition: { count: 4 }\n");
    insta::assert_snapshot!(out);
}

#[test]
fn ko_runs_without_jk_ko_captures_is_refused() {
    let out =
        check_text("name: c\nextends: tromp-taylor\nplay: { derived: { D: { ko_runs: any } } }\n");
    insta::assert_snapshot!(out);
}

/// Errors about lists and added rules point at the entry, not at the first
/// place the same text occurs in the file.
#[test]
fn list_items_and_added_rules_are_located_by_their_place() {
    let out = check_text(
        "name: c\ntitle: P P and suicide\nextends: tromp-taylor\npasses: { kinds: [P, P] }\n",
    );
    assert!(
        out.contains("inline.yaml:4:22: error: pass kind `P` is listed twice"),
        "{out}"
    );
    let out = check_text("name: c\nextends: jk-final\nend:\n  suicide: { lose: \"false\" }\n");
    assert!(
        out.contains("inline.yaml:4:3: error: end rule `suicide` has the name of a rule"),
        "{out}"
    );
}

/// Settings that would have no effect in the ruleset they are written in.
#[test]
fn inert_settings_are_refused() {
    let cases = [
        ("name: c\nextends: nine-mens-morris\nrepetition: { superko: positional }\n", "inline.yaml:3:1: error: `repetition` rules judge board plays"),
        ("name: c\nextends: tromp-taylor\non_line_formed: { removals: 1 }\n", "inline.yaml:3:1: error: `on_line_formed` says what completing a line does, but the board has no lines"),
        ("name: c\nextends: tromp-taylor\npasses: { kinds: null, stones: 1 }\n", "`passes.stones` is given, but the ruleset has no pass kinds"),
        ("name: c\nextends: tromp-taylor\nphases:\n  play:\n    actions: { pass: null }\n", "the ruleset has pass kinds, but no phase allows `pass`"),
        ("name: c\nextends: tromp-taylor\nplay: null\n", "phase `play` allows `play` (a board play with captures), but the ruleset has no `play:` section"),
    ];
    for (text, message) in cases {
        let out = check_text(text);
        assert!(out.contains(message), "{message}\n---\n{out}");
    }
}

#[test]
fn unknown_keys_are_refused_with_a_suggestion_at_any_depth() {
    let out = check_text(
        "name: c\nextends: nine-mens-morris\nboard:\n  nested_squares: { rings: 3, midpoint_link: true }\n",
    );
    insta::assert_snapshot!(out);
}

// ----- defect 4: counts out of range -----------------------------------------

refused!(negative_removals, "removals-negative.yaml");
refused!(too_many_pass_stones, "pass-stones-too-many.yaml");

#[test]
fn komi_must_be_finite() {
    for komi in [".nan", ".inf", "-.inf"] {
        let out = check_text(&format!(
            "name: c\nextends: tromp-taylor\nscoring: {{ komi: {komi} }}\n"
        ));
        assert!(
            out.contains("inline.yaml:3:18: error: `scoring.komi` is"),
            "{out}"
        );
    }
}

#[test]
fn a_komi_override_must_be_finite() {
    let loaded = morrigo_rules::load::load("tromp-taylor").unwrap();
    let o = morrigo_rules::load::Overrides {
        size: None,
        komi: Some(f64::NAN),
    };
    let e = morrigo_rules::load::with_overrides(loaded, &o).unwrap_err();
    assert!(e.message.contains("not a finite number"), "{e}");
}

// ----- defect 16: names ---------------------------------------------------------

refused!(
    point_names_a_record_cannot_hold,
    "point-names-with-separators.yaml"
);
refused!(param_named_like_a_phase, "param-named-like-phase.yaml");
refused!(end_rule_with_an_empty_name, "end-rule-empty-name.yaml");

#[test]
fn a_phase_named_remove_is_refused() {
    let out = check_text(
        "name: c\nextends: nine-mens-morris\nphases:\n  remove: { when: \"false\", actions: { place: true } }\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn an_end_rule_name_with_a_space_is_refused() {
    let out = check_text(
        "name: c\nextends: nine-mens-morris\nend:\n  \"a b\": { lose: \"no_legal_move\" }\n",
    );
    assert!(
        out.contains("`a b` cannot be the name of an end rule"),
        "{out}"
    );
    assert!(out.contains("inline.yaml:4:3"), "{out}");
}

#[test]
fn a_point_named_pass_is_refused() {
    let out = check_text(
        "name: c\nboard:\n  explicit: { nodes: [a, pass], edges: [[a, pass]] }\nsetup: { in_hand: 1 }\nphases:\n  p: { actions: { place: true } }\n",
    );
    assert!(
        out.contains("inline.yaml:3:26: error: invalid point name `pass`"),
        "{out}"
    );
}

#[test]
fn a_point_name_with_x_is_refused_where_x_marks_a_removal() {
    let board = "board:\n  explicit:\n    nodes: [a, xb, c]\n    edges: [[a, xb], [xb, c]]\n    lines: [[a, xb, c]]\n";
    let out = check_text(&format!("name: c\nextends: three-mens-morris\n{board}"));
    assert!(
        out.contains("inline.yaml:5:16: error: point name `xb` holds an `x`"),
        "{out}"
    );
    // Placing only, no removals: `x` means nothing in its records.
    let out = check_text(&format!(
        "name: c\n{board}setup: {{ in_hand: 1 }}\nphases:\n  p: {{ actions: {{ place: true }} }}\n"
    ));
    assert_eq!(out, "ok: c");
}

// ----- defect 17: no serde internals --------------------------------------------

refused!(in_hand_a_string, "in-hand-a-string.yaml");
refused!(name_a_number, "name-a-number.yaml");

#[test]
fn no_message_names_a_rust_type() {
    let cases = [
        "name: c\nextends: nine-mens-morris\nsetup: { in_hand: [1] }\n",
        "name: c\nextends: nine-mens-morris\nparams: { x: \"a\" }\n",
        "name: c\nextends: nine-mens-morris\nsetup: { in_hand: 99999999999999999999999 }\n",
        "name: c\nextends: tromp-taylor\nplay: { suicide: [lose] }\n",
        "name: c\nextends: tromp-taylor\nplay: { suicide: sometimes }\n",
        "name: c\nboard:\n  explicit: { nodes: [[a]] }\n",
        "name: c\nextends: nine-mens-morris\nboard: { nested_squares: { rings: -1 } }\n",
        "name: c\nextends: nine-mens-morris\nplayers: white\n",
    ];
    let mut all = String::new();
    for text in cases {
        let out = check_text(text);
        for internal in [
            "untagged",
            "i64",
            "u32",
            "u128",
            "enum",
            "struct",
            "YAML value",
        ] {
            assert!(!out.contains(internal), "`{internal}` in: {out}");
        }
        assert!(out.contains("inline.yaml:3:"), "located: {out}");
        all.push_str(&out);
        all.push_str("\n\n");
    }
    insta::assert_snapshot!(all);
}

// ----- defect 18: locations ------------------------------------------------------

refused!(expression_with_an_escape, "expression-escaped.yaml");
refused!(expression_folded, "expression-folded.yaml");
refused!(param_named_and, "param-named-and.yaml");
refused!(
    error_inherited_from_the_parent,
    "inherited-forbid-error.yaml"
);

#[test]
fn a_byte_order_mark_is_accepted() {
    assert_eq!(check("byte-order-mark.yaml"), "ok: base");
}

#[test]
fn a_single_quoted_expression_is_located_exactly() {
    let out = check_text(
        "name: c\nextends: tromp-taylor\nphases:\n  play:\n    actions: { play: 'after(''P'') or on_bord(me) > 0' }\n",
    );
    assert!(out.contains("inline.yaml:5:39: error"), "{out}");
}

// ----- defect 19: suggestions ----------------------------------------------------

/// Forbid rules once named only board plays and passes, so this file was
/// refused; every move kind may now be forbidden (`moves: [slide]`).
#[test]
fn forbid_in_a_ruleset_without_plays_or_passes() {
    assert_eq!(check("forbid-in-morris.yaml"), "ok: dara-no4");
}

#[test]
fn a_misspelt_inherited_phase_gets_a_suggestion() {
    let out = check_text(
        "name: c\nextends: nine-mens-morris\nphases:\n  movng:\n    actions: { fly: \"true\" }\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn an_explicit_board_in_a_variant_says_to_delete_the_inherited_one() {
    let out = check_text(
        "name: c\nextends: nine-mens-morris\nboard:\n  explicit: { nodes: [a, b], edges: [[a, b]] }\n",
    );
    assert!(out.contains("`nested_squares: null`"), "{out}");
}

// ----- defect 11: bounded work ---------------------------------------------------

/// A 10,000-point explicit board in flow style: every name is located
/// without copying its source line (this took 43 s and 10 GB), and the
/// board, read whole, is refused for its size (the board-size limit).
#[test]
fn a_big_flow_style_board_is_read_in_one_pass() {
    let n = 10_000;
    let nodes: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
    let edges: Vec<String> = (1..n).map(|i| format!("[p{}, p{i}]", i - 1)).collect();
    let text = format!(
        "name: big\nboard:\n  explicit: {{ nodes: [{}], edges: [{}] }}\nsetup: {{ in_hand: 1 }}\nphases:\n  p: {{ actions: {{ place: true }} }}\n",
        nodes.join(", "),
        edges.join(", ")
    );
    let e = rules_from_text("big.yaml", &text).unwrap_err().to_string();
    assert!(
        e.starts_with(
            "big.yaml:2:1: error: a board of 10000 points is larger than the engine can run"
        ),
        "{e}"
    );
    // An error at the end of the line is located in the same linear pass.
    let bad = text.replace(&format!("[p{}, p{}]", n - 2, n - 1), "[p0, q1]");
    let e = rules_from_text("big.yaml", &bad).unwrap_err().to_string();
    assert!(e.starts_with("big.yaml:3:"), "{}", &e[..200.min(e.len())]);
    assert!(
        e.contains("unknown point `q1` in an edge"),
        "{}",
        &e[..200.min(e.len())]
    );
}

/// 200,000 nested `[`: refused at the depth limit before any recursion.
#[test]
fn deeply_nested_yaml_is_refused_at_the_limit() {
    let text = format!(
        "name: x\nboard: {}{}\n",
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    let e = rules_from_text("deep.yaml", &text).unwrap_err();
    let first = &e.0[0];
    assert!(
        first.message.contains("nested more than 64 levels"),
        "{}",
        first.message
    );
    let at = first.location.as_ref().expect("located");
    assert_eq!((at.line, at.col), (2, 71));
}

/// Aliases are expanded, but not without bound ("billion laughs").
#[test]
fn alias_expansion_is_bounded() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    let e = rules_from_text("laughs.yaml", &text).unwrap_err();
    assert!(e.0[0].message.contains("more than 2000000 values"), "{e}");
}

/// 20,000 params: names are checked by hash and located only when refused
/// (each lookup used to search the whole mapping).
#[test]
fn many_params_are_checked_in_one_pass() {
    let params: Vec<String> = (0..20_000).map(|i| format!("  k{i}: {i}")).collect();
    let text = format!(
        "name: many\nextends: nine-mens-morris\nparams:\n{}\n  not: 1\n",
        params.join("\n")
    );
    let e = rules_from_text("many.yaml", &text).unwrap_err();
    let at = e.0[0].location.as_ref().expect("located");
    assert_eq!((at.line, at.col), (20_004, 3), "{}", e.0[0].message);
    assert!(e.0[0]
        .message
        .contains("`not` is a word of the rule language"));
}

/// A setting the chosen scoring method would silently ignore is refused:
/// area scoring counts no prisoners, so the JK Art. 4.4 pass stone does
/// nothing there.
#[test]
fn a_last_move_stone_under_area_scoring_is_refused() {
    let out = check_text("name: c\nextends: tromp-taylor\nscoring: { last_move_stone: true }\n");
    insta::assert_snapshot!(out);
    let ok = check_text("name: c\nextends: jk-final\nscoring: { last_move_stone: true }\n");
    assert_eq!(ok, "ok: c");
}

// ----- captures: refused where they could never capture --------------------

#[test]
fn capture_rule_errors_are_located_and_name_the_board_directions() {
    let out = check_text(
        "name: bad-captures\nextends: nine-mens-morris\ncaptures:\n  flank:\n    kind: custodian\n    directions: [side, diagonal]\n  between:\n    directions: [cross]\n",
    );
    insta::assert_snapshot!("capture_rule_errors", out);
    let out = check_text(
        "name: bad-captures\nextends: nine-mens-morris\ncaptures:\n  sandwich:\n    kind: flanking\n",
    );
    insta::assert_snapshot!("capture_rule_unknown_kind", out);
}

#[test]
fn captures_on_a_board_without_coordinates_work_along_every_line() {
    // The lines of an explicit board without coordinates have no known
    // direction: `directions` left out means all of them.
    let board = "board:\n  explicit:\n    nodes: [a, b, c, d]\n    edges: [[a, b], [b, c], [c, d]]\n    lines: [[a, b, c], [b, c, d]]\n";
    let text = format!("name: cap-explicit\nextends: three-mens-morris\n{board}captures:\n  flank: {{ kind: custodian }}\n");
    let rules = rules_from_text("cap.yaml", &text).expect("compiles");
    assert_eq!(
        rules.captures[0].directions,
        vec![morrigo_board::LineDirection::Unknown]
    );
    let out = check_text(&format!(
        "name: cap-explicit\nextends: three-mens-morris\n{board}captures:\n  flank: {{ kind: custodian, directions: [side] }}\n"
    ));
    assert!(out.contains("no line of this board runs in"), "{out}");
    assert!(out.contains("expected one of unknown"), "{out}");
}

// ----- params carry ranges -------------------------------------------------

// A variant's value below the range its parent declares is refused where
// the variant writes it; the value alone keeps the parent's range.
refused!(param_below_its_range, "param-below-range.yaml");
// A range whose min is above its max.
refused!(param_range_inverted, "param-range-inverted.yaml");

/// The range survives every layer of an `extends` chain: da-san-qi extends
/// twelve-mens-morris (which declares `n_move_limit: { value: 100, min: 1 }`)
/// and nine-mens-morris (`repetition_limit: { value: 3, min: 2 }`); a variant
/// of da-san-qi writing a value below either range is refused; one that
/// widens the range (`{ value: 0, min: 0 }`) is accepted.
#[test]
fn a_param_range_holds_through_the_extends_chain() {
    let out = check_text("name: v\nextends: da-san-qi\nparams:\n  n_move_limit: 0\n");
    assert!(
        out.contains("param `n_move_limit` is 0, outside its range")
            && out.contains("expected a value at least 1"),
        "{out}"
    );
    let out = check_text("name: v\nextends: da-san-qi\nparams:\n  repetition_limit: 1\n");
    assert!(
        out.contains("param `repetition_limit` is 1, outside its range")
            && out.contains("expected a value at least 2"),
        "{out}"
    );
    let out =
        check_text("name: v\nextends: da-san-qi\nparams:\n  n_move_limit: { value: 0, min: 0 }\n");
    assert_eq!(out, "ok: v");
    let rules = rules_from_text(
        "inline.yaml",
        "name: v\nextends: da-san-qi\nparams:\n  fly_at: 4\n",
    )
    .unwrap();
    assert!(rules.params.contains(&("fly_at".to_string(), 4)));
    assert!(rules.params.contains(&("n_move_limit".to_string(), 100)));
}
