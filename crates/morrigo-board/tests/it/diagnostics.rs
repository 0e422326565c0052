//! What a user reads: `to_diagnostic()` of board errors, located in a file.

use crate::common::explicit;
use morrigo_board::{build, BoardSpec, Diagonals, Named, Naming};

fn diagnostic(spec: &BoardSpec) -> String {
    match build(spec) {
        Err(e) => e.to_diagnostic().to_string(),
        Ok(_) => panic!("expected an error"),
    }
}

#[test]
fn diagnostic_unknown_point_with_suggestion() {
    let spec = explicit("nodes: a1 d1 g1\nedges: a1-d1 d1-g7\n");
    insta::assert_snapshot!(diagnostic(&spec));
}

#[test]
fn diagnostic_duplicate_point() {
    let spec = explicit("nodes: a1 d1\nnodes: a1\n");
    insta::assert_snapshot!(diagnostic(&spec));
}

#[test]
fn diagnostic_line_not_a_path() {
    let spec = explicit("nodes: a b c\nedges: a-b b-c\nlines: a-c-b\n");
    insta::assert_snapshot!(diagnostic(&spec));
}

#[test]
fn diagnostic_disconnected_board() {
    let spec = explicit("nodes: a b c d\nedges: a-b c-d\n");
    insta::assert_snapshot!(diagnostic(&spec));
}

#[test]
fn diagnostic_duplicate_edge() {
    let spec = explicit("nodes: a b\nedges: a-b\nedges: b-a\n");
    insta::assert_snapshot!(diagnostic(&spec));
}

#[test]
fn diagnostic_parameter_out_of_range() {
    let spec = BoardSpec::Grid {
        width: 26,
        height: 19,
        diagonals: Diagonals::None,
        naming: Naming::Gtp,
        line_length: None,
    };
    insta::assert_snapshot!(diagnostic(&spec));
}

#[test]
fn diagnostic_resolve_without_location() {
    let t = build(&BoardSpec::go(9)).expect("valid");
    let e = t
        .resolve(&Named::new("I5"))
        .err()
        .map(|e| e.to_diagnostic().to_string());
    insta::assert_snapshot!(e.unwrap_or_default());
}
