//! Explicit boards: each kind of mistake is its own error, with a clear
//! message and the location of the offending name.

use crate::common::explicit;
use morrigo_board::{build, BoardError, BoardSpec, Named, Usage};

fn error(text: &str) -> BoardError {
    match build(&explicit(text)) {
        Err(e) => e,
        Ok(t) => panic!(
            "expected an error for {text:?}, got a board of {} points",
            t.len()
        ),
    }
}

/// (line, column) of the error's location.
fn place(e: &BoardError) -> Option<(usize, usize)> {
    e.location().map(|l| (l.line, l.col))
}

#[test]
fn valid_explicit_board_builds() {
    let t = build(&explicit("nodes: a b c\nedges: a-b b-c\nlines: a-b-c\n")).expect("valid");
    assert_eq!(t.names, ["a", "b", "c"]);
    assert_eq!(t.edge_count(), 2);
    assert_eq!(t.lines, [vec![0, 1, 2]]);
    assert_eq!(t.naming, None);
    assert!(!t.has_coords);
}

#[test]
fn empty_board_is_an_error() {
    let e = error("nodes:\n");
    assert!(matches!(e, BoardError::Empty { .. }), "{e:?}");
    assert_eq!(e.to_string(), "the board has no points");
}

#[test]
fn duplicate_node_name_is_an_error() {
    let e = error("nodes: a b a\nedges: a-b\n");
    assert!(
        matches!(&e, BoardError::DuplicatePoint { name, first: Some(_), .. } if name == "a"),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "point `a` is defined twice");
    assert_eq!(place(&e), Some((1, 12)));
}

#[test]
fn unknown_name_in_an_edge_suggests_the_nearest_point() {
    let e = error("nodes: alpha beta gamma\nedges: alpha-beta beta-gama\n");
    assert!(
        matches!(&e, BoardError::UnknownPoint { usage: Usage::Edge, suggestion: Some(s), .. } if s == "gamma"),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "unknown point `gama` in an edge");
    assert_eq!(place(&e), Some((2, 24)));
    assert_eq!(e.to_diagnostic().notes, ["did you mean `gamma`?"]);
}

#[test]
fn unknown_name_in_a_line_is_an_error() {
    let e = error("nodes: d1 d2 d3\nedges: d1-d2 d2-d3\nlines: d1-d2-d4\n");
    assert!(
        matches!(
            &e,
            BoardError::UnknownPoint {
                usage: Usage::Line,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "unknown point `d4` in a line");
    assert_eq!(place(&e), Some((3, 14)));
    // All candidates are one edit away: the first defined wins, every time.
    assert_eq!(e.to_diagnostic().notes, ["did you mean `d1`?"]);
}

#[test]
fn unknown_name_without_any_close_point_has_no_suggestion() {
    let e = error("nodes: a b\nedges: a-zebra\n");
    assert!(
        matches!(
            &e,
            BoardError::UnknownPoint {
                suggestion: None,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_diagnostic().notes.is_empty());
}

#[test]
fn edge_from_a_node_to_itself_is_an_error() {
    let e = error("nodes: a b\nedges: a-b b-b\n");
    assert!(
        matches!(&e, BoardError::SelfEdge { name, .. } if name == "b"),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "edge from point `b` to itself");
    assert_eq!(place(&e), Some((2, 14)));
}

#[test]
fn duplicate_edge_is_an_error_either_way_round() {
    let e = error("nodes: a b\nedges: a-b b-a\n");
    assert!(
        matches!(&e, BoardError::DuplicateEdge { first: Some(_), .. }),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "edge `b`-`a` is listed twice");
    assert_eq!(place(&e), Some((2, 12)));
    assert_eq!(e.to_diagnostic().notes, ["first listed at board.txt:2:8"]);
    let e = error("nodes: a b\nedges: a-b a-b\n");
    assert!(matches!(e, BoardError::DuplicateEdge { .. }), "{e:?}");
}

#[test]
fn line_with_fewer_than_two_points_is_an_error() {
    let e = error("nodes: a b\nedges: a-b\nlines: a\n");
    assert!(matches!(e, BoardError::ShortLine { len: 1, .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "line has 1 point(s); a line needs at least 2"
    );
    assert_eq!(place(&e), Some((3, 8)));
    let spec = BoardSpec::Explicit {
        nodes: vec![(Named::new("a"), None)],
        edges: vec![],
        lines: vec![vec![]],
    };
    let e = build(&spec).err();
    assert!(
        matches!(e, Some(BoardError::ShortLine { len: 0, at: None })),
        "{e:?}"
    );
}

#[test]
fn line_with_a_repeated_point_is_an_error() {
    let e = error("nodes: a b\nedges: a-b\nlines: a-b-a\n");
    assert!(
        matches!(&e, BoardError::RepeatedInLine { name, .. } if name == "a"),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "point `a` appears twice in one line");
    assert_eq!(place(&e), Some((3, 12)));
}

#[test]
fn line_that_is_not_a_path_names_the_pair() {
    let e = error("nodes: a b c\nedges: a-b b-c\nlines: a-c-b\n");
    assert!(
        matches!(&e, BoardError::NotAPath { a, b, .. } if a == "a" && b == "c"),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "line is not a path of the board: `a` and `c` are not adjacent"
    );
    assert_eq!(place(&e), Some((3, 10)));
}

#[test]
fn duplicate_line_is_an_error_either_way_round() {
    let e = error("nodes: a b c\nedges: a-b b-c\nlines: a-b-c c-b-a\n");
    assert!(
        matches!(&e, BoardError::DuplicateLine { line, .. } if line == "c-b-a"),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "line `c-b-a` is listed twice");
    assert_eq!(place(&e), Some((3, 14)));
}

#[test]
fn disconnected_board_names_an_unreachable_point() {
    let e = error("nodes: a b c d\nedges: a-b c-d\n");
    assert!(
        matches!(&e, BoardError::Disconnected { unreachable, from, .. } if unreachable == "c" && from == "a"),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "the board is not connected: `c` cannot be reached from `a`"
    );
    assert_eq!(place(&e), Some((1, 12)));
}

#[test]
fn single_point_board_is_connected() {
    let t = build(&explicit("nodes: only\n")).expect("one point is a board");
    assert_eq!(t.len(), 1);
    assert_eq!(t.edge_count(), 0);
}

#[test]
fn bad_point_names_are_errors() {
    for bad in ["", "a b", "tab\there"] {
        let spec = BoardSpec::Explicit {
            nodes: vec![(Named::new(bad), None)],
            edges: vec![],
            lines: vec![],
        };
        let e = build(&spec).err();
        assert!(
            matches!(&e, Some(BoardError::BadName { name, .. }) if name == bad),
            "{e:?}"
        );
    }
    let spec = BoardSpec::Explicit {
        nodes: vec![(Named::new(""), None)],
        edges: vec![],
        lines: vec![],
    };
    assert_eq!(
        build(&spec).err().map(|e| e.to_string()).as_deref(),
        Some("invalid point name ``")
    );
}

#[test]
fn coordinates_for_some_points_only_is_an_error() {
    let spec = BoardSpec::Explicit {
        nodes: vec![(Named::new("a"), Some((0, 0))), (Named::new("b"), None)],
        edges: vec![("a".into(), "b".into())],
        lines: vec![],
    };
    let e = build(&spec).err();
    assert!(
        matches!(&e, Some(BoardError::MissingCoords { name, .. }) if name == "b"),
        "{e:?}"
    );
    let msg = e.map(|e| e.to_string());
    assert_eq!(
        msg.as_deref(),
        Some("point `b` has no coordinates, but point `a` has")
    );
}

#[test]
fn too_many_points_is_an_error_not_a_panic() {
    let nodes = (0..70_000)
        .map(|i| (Named::new(format!("p{i}")), None))
        .collect();
    let spec = BoardSpec::Explicit {
        nodes,
        edges: vec![],
        lines: vec![],
    };
    let e = build(&spec).err();
    assert!(
        matches!(
            e,
            Some(BoardError::TooManyPoints {
                count: 70_000,
                max: 65_535,
                ..
            })
        ),
        "{e:?}"
    );
}

#[test]
fn explicit_coordinates_set_the_bounding_box() {
    let spec = BoardSpec::Explicit {
        nodes: vec![
            (Named::new("a"), Some((-2, 1))),
            (Named::new("b"), Some((3, 4))),
        ],
        edges: vec![("a".into(), "b".into())],
        lines: vec![],
    };
    let t = build(&spec).expect("valid");
    assert!(t.has_coords);
    assert_eq!((t.width, t.height), (6, 4));
    assert_eq!(t.coords, [(-2, 1), (3, 4)]);
}

#[test]
fn resolve_reports_unknown_points_with_did_you_mean() {
    let t = build(&BoardSpec::nine_mens_morris()).expect("valid");
    assert_eq!(t.resolve(&Named::new("d2")), Ok(4));
    let e = t.resolve(&Named::new("d9")).err();
    assert!(
        matches!(&e, Some(BoardError::UnknownPoint { usage: Usage::Reference, suggestion: Some(s), .. }) if s == "d1"),
        "{e:?}"
    );
    assert_eq!(
        e.map(|e| e.to_string()).as_deref(),
        Some("unknown point `d9`")
    );
}

/// A path of `n` points named p0..p(n-1), each edge also a line.
fn path(n: usize, lines: usize) -> BoardSpec {
    let name = |i: usize| Named::new(format!("p{i}"));
    BoardSpec::Explicit {
        nodes: (0..n).map(|i| (name(i), None)).collect(),
        edges: (1..n).map(|i| (name(i - 1), name(i))).collect(),
        lines: (0..lines)
            .map(|i| vec![name(i % (n - 1)), name(i % (n - 1) + 1)])
            .collect(),
    }
}

#[test]
fn largest_explicit_board_builds_with_every_id_and_line_index_used() {
    let t = build(&path(65_535, 65_534)).expect("65535 points fit in u16 ids");
    assert_eq!(t.len(), 65_535);
    assert_eq!(t.name(65_534), "p65534");
    assert_eq!(t.lines_through[65_534], [65_533]);
}

#[test]
fn too_many_lines_is_an_error_not_a_panic() {
    let e = build(&path(3, 65_536)).err();
    assert!(
        matches!(
            e,
            Some(BoardError::TooManyLines {
                count: 65_536,
                max: 65_535,
                ..
            })
        ),
        "{e:?}"
    );
}
