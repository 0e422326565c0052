//! ASCII drawings of the standard boards, checked by eye in the snapshots.

use morrigo_board::{build, BoardSpec, Diagonals, Named, Naming, Topology};

fn board(spec: BoardSpec) -> Topology {
    build(&spec).unwrap_or_else(|e| panic!("{spec:?} should build: {e}"))
}

fn empty(t: &Topology) -> String {
    t.render(|_| 'o')
}

#[test]
fn render_nine_mens_morris_empty() {
    insta::assert_snapshot!(empty(&board(BoardSpec::nine_mens_morris())));
}

#[test]
fn render_shows_pieces_from_the_cell_function() {
    let t = board(BoardSpec::nine_mens_morris());
    let (a1, d2) = (t.point("a1"), t.point("d2"));
    let text = t.render(|p| match Some(p) {
        x if x == a1 => 'W',
        x if x == d2 => 'B',
        _ => '.',
    });
    insta::assert_snapshot!(text);
}

#[test]
fn render_twelve_mens_morris_with_diagonals() {
    insta::assert_snapshot!(empty(&board(BoardSpec::twelve_mens_morris())));
}

#[test]
fn render_six_mens_morris() {
    insta::assert_snapshot!(empty(&board(BoardSpec::six_mens_morris())));
}

#[test]
fn render_three_mens_morris() {
    insta::assert_snapshot!(empty(&board(BoardSpec::three_mens_morris())));
}

#[test]
fn render_go_5x5_gtp() {
    insta::assert_snapshot!(board(BoardSpec::go(5)).render(|_| '.'));
}

#[test]
fn render_go_1x1() {
    insta::assert_snapshot!(board(BoardSpec::go(1)).render(|_| '.'), @r"
    1 .
      A
    ");
}

#[test]
fn render_wide_rectangular_grid_labels_every_column() {
    let t = board(BoardSpec::Grid {
        width: 26,
        height: 2,
        diagonals: Diagonals::None,
        naming: Naming::Algebraic,
        line_length: None,
    });
    insta::assert_snapshot!(empty(&t));
}

fn explicit(nodes: &[(&str, Option<(i32, i32)>)], edges: &[(&str, &str)]) -> BoardSpec {
    BoardSpec::Explicit {
        nodes: nodes.iter().map(|&(n, c)| (Named::new(n), c)).collect(),
        edges: edges.iter().map(|&(a, b)| (a.into(), b.into())).collect(),
        lines: vec![],
    }
}

#[test]
fn render_explicit_board_with_coordinates_draws_it() {
    // A triangle with a tail, at negative and odd coordinates.
    let spec = explicit(
        &[
            ("top", Some((1, 2))),
            ("left", Some((-1, 0))),
            ("right", Some((3, 0))),
            ("tail", Some((3, -1))),
        ],
        &[
            ("top", "left"),
            ("top", "right"),
            ("left", "right"),
            ("right", "tail"),
        ],
    );
    insta::assert_snapshot!(empty(&board(spec)));
}

#[test]
fn render_explicit_board_without_coordinates_lists_neighbours() {
    let spec = explicit(
        &[("hub", None), ("n", None), ("e", None), ("s", None)],
        &[("hub", "n"), ("hub", "e"), ("hub", "s")],
    );
    let t = board(spec);
    insta::assert_snapshot!(t.render(|p| if p == 0 { 'W' } else { '.' }), @r"
    W hub: n e s
    . n: hub
    . e: hub
    . s: hub
    ");
}

#[test]
fn render_explicit_coordinates_too_far_apart_fall_back_to_a_list() {
    let far = explicit(
        &[("a", Some((0, 0))), ("b", Some((i32::MAX, i32::MIN)))],
        &[("a", "b")],
    );
    assert_eq!(empty(&board(far)), "o a: b\no b: a\n");
    let same_spot = explicit(&[("a", Some((1, 1))), ("b", Some((1, 1)))], &[("a", "b")]);
    assert_eq!(empty(&board(same_spot)), "o a: b\no b: a\n");
}

#[test]
fn render_two_digit_row_numbers_stay_aligned() {
    let t = board(BoardSpec::Grid {
        width: 3,
        height: 11,
        diagonals: Diagonals::All,
        naming: Naming::Gtp,
        line_length: None,
    });
    insta::assert_snapshot!(t.render(|_| '+'));
}
