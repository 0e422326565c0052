//! The `playout.shapes` section: MoGo-style 3×3 shapes for the Monte Carlo
//! playouts, inherited through `extends`, refused with a located message
//! where no square grid or board play can use them or a shape is malformed.

use morrigo_rules::load_rules;

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
fn the_go_rulesets_inherit_the_shapes_of_tromp_taylor() {
    for name in ["tromp-taylor", "chinese", "japanese", "aga", "new-zealand"] {
        let r = load_rules(name).unwrap();
        let t = r
            .shapes
            .as_ref()
            .unwrap_or_else(|| panic!("{name} has no shapes"));
        assert_eq!(t.names.len(), 13, "{name}");
        assert_eq!(t.names[0], "enclosing hane");
        assert!(t.count() > 0);
        assert!(r
            .to_string()
            .contains("playout shapes (mcts): enclosing hane"));
    }
    assert!(load_rules("nine-mens-morris").unwrap().shapes.is_none());
}

#[test]
fn a_variant_deletes_the_inherited_shapes_with_null() {
    let r = load_rules(&file("rulesets", "go-without-shapes.yaml")).unwrap();
    assert!(r.shapes.is_none());
    assert!(!r.to_string().contains("playout shapes"));
}

#[test]
fn shapes_on_a_board_without_board_plays_are_refused_at_the_key() {
    let out = refusal("shapes-on-a-morris-board.yaml");
    assert!(
        out.contains(":6:3:") && out.contains("square grid"),
        "{out}"
    );
    insta::assert_snapshot!(out);
}

#[test]
fn a_malformed_shape_is_refused_at_its_rows_with_what_a_shape_is() {
    let out = refusal("shape-malformed.yaml");
    assert!(
        out.contains(":6:28:") && out.contains("playout shape 1") && out.contains("nine"),
        "{out}"
    );
    assert!(
        out.contains(":7:42:") && out.contains("playout shape 2") && out.contains("centre"),
        "{out}"
    );
    insta::assert_snapshot!(out);
}
