//! The traditional boards beyond nested squares and plain grids: grid
//! diagonals (none, the two long ones, alternate, all, crossed with centre
//! points), rectangular grids, triangular and hexagonal lattices.

use std::collections::BTreeSet;

use morrigo_board::{build, BoardError, BoardSpec, Diagonals, Naming, Topology};

fn board(spec: BoardSpec) -> Topology {
    match build(&spec) {
        Ok(t) => t,
        Err(e) => panic!("{spec:?} should build: {e}"),
    }
}

fn grid(width: u32, height: u32, diagonals: Diagonals, lines: Option<u32>) -> Topology {
    board(BoardSpec::Grid {
        width,
        height,
        diagonals,
        naming: Naming::Algebraic,
        line_length: lines,
    })
}

fn counts(t: &Topology) -> (usize, usize, usize) {
    (t.len(), t.edge_count(), t.lines.len())
}

fn neighbours(t: &Topology, name: &str) -> Vec<String> {
    let p = t.point(name).unwrap_or_else(|| panic!("no point {name}"));
    t.neighbours[usize::from(p)]
        .iter()
        .map(|&q| t.name(q).to_string())
        .collect()
}

fn lines(t: &Topology) -> BTreeSet<String> {
    t.lines
        .iter()
        .map(|l| l.iter().map(|&p| t.name(p)).collect::<Vec<_>>().join("-"))
        .collect()
}

fn empty(t: &Topology) -> String {
    t.render(|_| '.')
}

#[test]
fn long_diagonals_join_only_the_corners_through_the_centre() {
    let t = grid(3, 3, Diagonals::Long, Some(3));
    // 12 orthogonal edges + 4 half-diagonals; rows, columns and 2 diagonals.
    assert_eq!(counts(&t), (9, 16, 8));
    assert_eq!(neighbours(&t, "a2"), ["a1", "b2", "a3"]);
    assert_eq!(neighbours(&t, "b2").len(), 8);
    assert!(lines(&t).contains("a1-b2-c3") && lines(&t).contains("c1-b2-a3"));
    insta::assert_snapshot!("tapatan_3x3_long", empty(&t));
}

#[test]
fn long_diagonals_on_a_5x5_grid_run_corner_to_corner_only() {
    let t = grid(5, 5, Diagonals::Long, None);
    // 40 orthogonal edges, 2 diagonals of 4 edges each.
    assert_eq!(t.edge_count(), 48);
    assert_eq!(neighbours(&t, "b1"), ["a1", "c1", "b2"]);
}

#[test]
fn long_diagonals_need_a_square_grid() {
    let e = build(&BoardSpec::Grid {
        width: 3,
        height: 4,
        diagonals: Diagonals::Long,
        naming: Naming::Algebraic,
        line_length: Some(3),
    });
    match e {
        Err(BoardError::ParamOutOfRange {
            param: "height",
            value: 4,
            allowed,
            ..
        }) => assert!(allowed.contains("square"), "{allowed}"),
        other => panic!("expected a height error, got {other:?}"),
    }
}

#[test]
fn alternate_diagonals_make_the_alquerque_board() {
    let t = grid(5, 5, Diagonals::Alternate, Some(3));
    // 40 orthogonal edges + one diagonal per cell (16). Lines of three:
    // 15 in rows, 15 in columns, 3 on each long diagonal and one on each
    // of the 4 diagonals of three points (a3-b4-c5 ...).
    assert_eq!(counts(&t), (25, 56, 15 + 15 + 6 + 4));
    assert_eq!(neighbours(&t, "b1"), ["a1", "c1", "b2"]);
    assert_eq!(neighbours(&t, "c3").len(), 8);
    // On 3x3 the alternate pattern is the two long diagonals.
    let (alt, long) = (
        grid(3, 3, Diagonals::Alternate, Some(3)),
        grid(3, 3, Diagonals::Long, Some(3)),
    );
    assert_eq!(alt.neighbours, long.neighbours);
    assert_eq!(lines(&alt), lines(&long));
    insta::assert_snapshot!("alquerque_5x5", empty(&t));
}

#[test]
fn crossed_diagonals_make_picarias_13_point_board() {
    let t = grid(3, 3, Diagonals::Crossed, Some(3));
    // 12 orthogonal edges, 4 per cell centre; rows, columns and 5 windows
    // of three along each diagonal direction.
    assert_eq!(counts(&t), (13, 28, 16));
    assert_eq!(t.names.join(" "), "a1 c1 e1 b2 d2 a3 c3 e3 b4 d4 a5 c5 e5");
    assert_eq!(neighbours(&t, "b2"), ["a1", "c1", "a3", "c3"]);
    assert_eq!(neighbours(&t, "a1"), ["c1", "b2", "a3"]);
    assert_eq!((t.width, t.height), (5, 5));
    for line in ["a1-c1-e1", "a1-b2-c3", "b2-c3-d4", "e1-d2-c3", "c1-d2-e3"] {
        assert!(lines(&t).contains(line), "missing {line}");
    }
    assert!(!lines(&t).contains("b2-d2"), "centres are not joined");
    insta::assert_snapshot!("picaria_crossed", empty(&t));
}

#[test]
fn crossed_diagonals_keep_names_within_z() {
    let spec = |w| BoardSpec::Grid {
        width: w,
        height: 2,
        diagonals: Diagonals::Crossed,
        naming: Naming::Algebraic,
        line_length: None,
    };
    assert_eq!(board(spec(13)).width, 25);
    assert!(matches!(
        build(&spec(14)),
        Err(BoardError::ParamOutOfRange {
            param: "width",
            value: 14,
            ..
        })
    ));
}

#[test]
fn dara_grids_are_6x5_and_5x6_with_lines_along_rows_and_columns() {
    for (w, h) in [(6, 5), (5, 6)] {
        let t = grid(w, h, Diagonals::None, Some(3));
        // Orthogonal edges w(h-1) + h(w-1); windows of 3: h(w-2) + w(h-2).
        let (wu, hu) = (w as usize, h as usize);
        assert_eq!(
            counts(&t),
            (
                30,
                wu * (hu - 1) + hu * (wu - 1),
                hu * (wu - 2) + wu * (hu - 2)
            )
        );
        assert_eq!((t.width, t.height), (w, h));
    }
    insta::assert_snapshot!("dara_6x5", empty(&grid(6, 5, Diagonals::None, Some(3))));
}

#[test]
fn triangular_board_has_six_neighbours_inside_and_three_line_directions() {
    let t = board(BoardSpec::Triangular {
        side: 4,
        line_length: Some(3),
    });
    // n(n+1)/2 points, 3n(n-1)/2 edges; runs of 3: 3 per direction.
    assert_eq!(counts(&t), (10, 18, 9));
    assert_eq!(t.names.join(" "), "a1 b1 c1 d1 a2 b2 c2 a3 b3 a4");
    assert_eq!(neighbours(&t, "b2").len(), 6);
    assert_eq!(neighbours(&t, "a4"), ["a3", "b3"]);
    for line in ["a1-b1-c1", "a1-a2-a3", "d1-c2-b3", "b1-b2-b3"] {
        assert!(lines(&t).contains(line), "missing {line}: {:?}", lines(&t));
    }
    assert_eq!(t.naming, None, "columns are per row, not a grid");
    insta::assert_snapshot!("triangular_4", empty(&t));
}

#[test]
fn hexagonal_board_has_3n_n_minus_1_plus_1_points() {
    for (side, points, edges) in [(1, 1, 0), (2, 7, 12), (3, 19, 42), (5, 61, 156)] {
        let t = board(BoardSpec::Hexagonal {
            side,
            line_length: None,
        });
        assert_eq!((t.len(), t.edge_count(), t.lines.len()), (points, edges, 0));
    }
    let t = board(BoardSpec::Hexagonal {
        side: 3,
        line_length: Some(5),
    });
    // One run of 5 per direction: the three long diagonals through the centre.
    assert_eq!(t.lines.len(), 3);
    assert_eq!(neighbours(&t, "c3").len(), 6);
    assert!(lines(&t).contains("a3-b3-c3-d3-e3"));
    insta::assert_snapshot!("hexagonal_3", empty(&t));
}

#[test]
fn lattice_sizes_out_of_range_are_refused() {
    let bad = [
        BoardSpec::Triangular {
            side: 0,
            line_length: None,
        },
        BoardSpec::Triangular {
            side: 27,
            line_length: None,
        },
        BoardSpec::Hexagonal {
            side: 14,
            line_length: None,
        },
        BoardSpec::Hexagonal {
            side: 3,
            line_length: Some(1),
        },
    ];
    for spec in bad {
        assert!(
            matches!(build(&spec), Err(BoardError::ParamOutOfRange { .. })),
            "{spec:?}"
        );
    }
}
