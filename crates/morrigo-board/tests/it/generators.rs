//! Generated boards have the points, edges and lines their rules say.

use std::collections::BTreeSet;

use morrigo_board::{build, BoardError, BoardSpec, Diagonals, Naming, PointId, Topology};

fn board(spec: BoardSpec) -> Topology {
    match build(&spec) {
        Ok(t) => t,
        Err(e) => panic!("{spec:?} should build: {e}"),
    }
}

fn id(t: &Topology, name: &str) -> PointId {
    t.point(name).unwrap_or_else(|| panic!("no point {name}"))
}

/// Lines as "a1-d1-g1" strings, each read from its lower end, as a set.
fn line_set(t: &Topology) -> BTreeSet<String> {
    t.lines
        .iter()
        .map(|line| {
            let mut names: Vec<&str> = line.iter().map(|&p| t.name(p)).collect();
            if line.first() > line.last() {
                names.reverse();
            }
            names.join("-")
        })
        .collect()
}

fn neighbour_names<'a>(t: &'a Topology, name: &str) -> Vec<&'a str> {
    t.neighbours[usize::from(id(t, name))]
        .iter()
        .map(|&p| t.name(p))
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

const NMM_LINES: [&str; 16] = [
    "a1-d1-g1", "b2-d2-f2", "c3-d3-e3", "a4-b4-c4", "e4-f4-g4", "c5-d5-e5", "b6-d6-f6", "a7-d7-g7",
    "a1-a4-a7", "b2-b4-b6", "c3-c4-c5", "d1-d2-d3", "d5-d6-d7", "e3-e4-e5", "f2-f4-f6", "g1-g4-g7",
];

#[test]
fn nine_mens_morris_has_24_points_named_by_row_then_column() {
    let t = board(BoardSpec::nine_mens_morris());
    let expected = "a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7";
    assert_eq!(t.names.join(" "), expected);
    assert_eq!(t.len(), 24);
    assert_eq!((t.width, t.height), (7, 7));
    assert_eq!(t.naming, Some(Naming::Algebraic));
}

#[test]
fn nine_mens_morris_has_32_edges_and_the_16_mills() {
    let t = board(BoardSpec::nine_mens_morris());
    assert_eq!(t.edge_count(), 32);
    assert_eq!(line_set(&t), set(&NMM_LINES));
    assert_eq!(t.lines.len(), 16);
}

#[test]
fn nine_mens_morris_lines_come_rows_first_then_columns() {
    let t = board(BoardSpec::nine_mens_morris());
    let order: Vec<String> = t
        .lines
        .iter()
        .map(|l| l.iter().map(|&p| t.name(p)).collect::<Vec<_>>().join("-"))
        .collect();
    assert_eq!(order, NMM_LINES);
}

#[test]
fn nine_mens_morris_neighbours_follow_the_lines() {
    let t = board(BoardSpec::nine_mens_morris());
    assert_eq!(neighbour_names(&t, "d2"), ["d1", "b2", "f2", "d3"]);
    assert_eq!(neighbour_names(&t, "a1"), ["d1", "a4"]);
    let mut d2: Vec<&str> = neighbour_names(&t, "d2");
    d2.sort_unstable();
    assert_eq!(d2, ["b2", "d1", "d3", "f2"]);
}

#[test]
fn neighbours_are_sorted_and_symmetric() {
    for spec in [
        BoardSpec::twelve_mens_morris(),
        BoardSpec::three_mens_morris(),
        BoardSpec::go(9),
    ] {
        let t = board(spec);
        for p in t.points() {
            let ns = &t.neighbours[usize::from(p)];
            assert!(
                ns.windows(2).all(|w| w[0] < w[1]),
                "{} not sorted",
                t.name(p)
            );
            assert!(
                ns.iter().all(|&q| t.adjacent(q, p)),
                "{} not symmetric",
                t.name(p)
            );
        }
        let degree_sum: usize = t.neighbours.iter().map(Vec::len).sum();
        assert_eq!(degree_sum, 2 * t.edge_count());
    }
}

#[test]
fn lines_through_indexes_every_line_at_each_of_its_points() {
    let t = board(BoardSpec::twelve_mens_morris());
    for (i, line) in t.lines.iter().enumerate() {
        for &p in line {
            assert!(t.lines_through[usize::from(p)].contains(&(i as u16)));
        }
    }
    let total: usize = t.lines_through.iter().map(Vec::len).sum();
    assert_eq!(total, t.lines.iter().map(Vec::len).sum::<usize>());
    assert_eq!(t.lines_through[usize::from(id(&t, "b2"))].len(), 3);
}

/// The brief said 36 edges; the rule (each corner linked to the next ring's
/// corner) adds 2 links per diagonal x 4 diagonals = 8 edges to 32, i.e. 40,
/// which is also the real Twelve Men's Morris board (degree sum 80).
#[test]
fn corner_diagonals_add_8_edges_and_4_lines() {
    let t = board(BoardSpec::twelve_mens_morris());
    assert_eq!(t.len(), 24);
    assert_eq!(t.edge_count(), 40);
    assert_eq!(t.lines.len(), 20);
    let mut expected = set(&NMM_LINES);
    expected.extend(set(&["a1-b2-c3", "g1-f2-e3", "c5-b6-a7", "e5-f6-g7"]));
    assert_eq!(line_set(&t), expected);
    assert!(t.adjacent(id(&t, "a1"), id(&t, "b2")));
    assert!(t.adjacent(id(&t, "f6"), id(&t, "e5")));
}

/// The brief said 24 edges; two rings of 8 edges plus 4 single midpoint
/// links make 20, the real Six Men's Morris board (degree sum 40).
#[test]
fn six_mens_morris_has_16_points_20_edges_8_lines() {
    let t = board(BoardSpec::six_mens_morris());
    assert_eq!(t.len(), 16);
    assert_eq!(t.edge_count(), 20);
    assert_eq!(t.lines.len(), 8);
    assert_eq!((t.width, t.height), (5, 5));
    let expected = [
        "a1-c1-e1", "b2-c2-d2", "b4-c4-d4", "a5-c5-e5", "a1-a3-a5", "b2-b3-b4", "d2-d3-d4",
        "e1-e3-e5",
    ];
    assert_eq!(line_set(&t), set(&expected));
    assert!(t.adjacent(id(&t, "c1"), id(&t, "c2")));
}

#[test]
fn midpoint_chains_make_lines_only_when_long_enough() {
    let four = board(BoardSpec::NestedSquares {
        rings: 4,
        midpoint_links: true,
        corner_diagonals: false,
        line_length: 3,
    });
    // 4 rings x 4 sides, plus 2 windows on each of 4 chains of 4.
    assert_eq!(four.lines.len(), 16 + 8);
    let pairs = board(BoardSpec::NestedSquares {
        rings: 2,
        midpoint_links: true,
        corner_diagonals: false,
        line_length: 2,
    });
    // Each side gives 2 pairs, each chain of 2 gives 1.
    assert_eq!(pairs.lines.len(), 16 + 4);
}

#[test]
fn single_ring_is_a_cycle_of_8_even_with_links_asked() {
    let t = board(BoardSpec::NestedSquares {
        rings: 1,
        midpoint_links: true,
        corner_diagonals: true,
        line_length: 3,
    });
    assert_eq!(t.len(), 8);
    assert_eq!(t.edge_count(), 8);
    assert_eq!(t.lines.len(), 4);
    assert!(t.neighbours.iter().all(|ns| ns.len() == 2));
}

#[test]
fn three_mens_morris_is_a_3x3_grid_with_8_lines_and_20_edges() {
    let t = board(BoardSpec::three_mens_morris());
    assert_eq!(t.names.join(" "), "a1 b1 c1 a2 b2 c2 a3 b3 c3");
    assert_eq!(t.lines.len(), 8);
    assert_eq!(t.edge_count(), 20);
    let expected = [
        "a1-b1-c1", "a2-b2-c2", "a3-b3-c3", "a1-a2-a3", "b1-b2-b3", "c1-c2-c3", "a1-b2-c3",
        "c1-b2-a3",
    ];
    assert_eq!(line_set(&t), set(&expected));
    assert_eq!(t.neighbours[usize::from(id(&t, "b2"))].len(), 8);
}

#[test]
fn go_19x19_has_361_gtp_points_and_684_edges() {
    let t = board(BoardSpec::go(19));
    assert_eq!(t.len(), 361);
    assert_eq!(t.edge_count(), 684);
    assert!(t.lines.is_empty());
    assert_eq!(t.name(0), "A1");
    assert_eq!(t.name(360), "T19");
    assert!(t.point("J1").is_some());
    assert!(t.point("I1").is_none());
    assert!(t.names.iter().all(|n| !n.starts_with('I')));
    assert_eq!(t.neighbours[usize::from(id(&t, "H1"))].len(), 3);
    assert!(t.adjacent(id(&t, "H1"), id(&t, "J1")));
}

#[test]
fn gtp_names_also_resolve_in_lower_case() {
    let t = board(BoardSpec::go(19));
    assert_eq!(t.point("q16"), t.point("Q16"));
    assert!(t.point("q16").is_some());
    assert!(t.point("i5").is_none());
    let alg = board(BoardSpec::nine_mens_morris());
    assert!(alg.point("D1").is_none());
}

#[test]
fn one_by_one_grid_is_a_valid_board() {
    let t = board(BoardSpec::go(1));
    assert_eq!(t.len(), 1);
    assert_eq!(t.edge_count(), 0);
    assert_eq!(t.names, ["A1"]);
    assert_eq!((t.width, t.height), (1, 1));
}

#[test]
fn rectangular_grid_keeps_its_width_and_height() {
    let t = board(BoardSpec::Grid {
        width: 7,
        height: 5,
        diagonals: Diagonals::None,
        naming: Naming::Gtp,
        line_length: None,
    });
    assert_eq!(t.len(), 35);
    assert_eq!((t.width, t.height), (7, 5));
    assert!(t.point("G5").is_some());
    assert!(t.point("H5").is_none());
    assert!(t.point("G6").is_none());
}

#[test]
fn largest_grids_build() {
    let alg = board(BoardSpec::Grid {
        width: 26,
        height: 26,
        diagonals: Diagonals::All,
        naming: Naming::Algebraic,
        line_length: Some(5),
    });
    assert_eq!(alg.len(), 676);
    assert_eq!(alg.name(675), "z26");
    // Runs of 5: 22 per row and column, 22*22 per diagonal direction.
    assert_eq!(alg.lines.len(), 2 * 26 * 22 + 2 * 22 * 22);
    let gtp = board(BoardSpec::go(25));
    assert_eq!(gtp.name(624), "Z25");
}

#[test]
fn grid_lines_of_k_cover_every_run_in_each_direction() {
    let t = board(BoardSpec::Grid {
        width: 4,
        height: 3,
        diagonals: Diagonals::None,
        naming: Naming::Algebraic,
        line_length: Some(3),
    });
    // Rows: 2 runs x 3 rows; columns: 1 run x 4 columns.
    assert_eq!(t.lines.len(), 6 + 4);
    assert_eq!(t.edge_count(), 3 * 3 + 4 * 2);
}

fn param_error(spec: BoardSpec) -> (String, u32, String) {
    match build(&spec) {
        Err(BoardError::ParamOutOfRange { param, value, .. }) => {
            let msg = build(&spec)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            (param.to_string(), value, msg)
        }
        other => panic!("{spec:?}: expected ParamOutOfRange, got {other:?}"),
    }
}

fn nested(rings: u32, line_length: u32) -> BoardSpec {
    BoardSpec::NestedSquares {
        rings,
        midpoint_links: true,
        corner_diagonals: false,
        line_length,
    }
}

fn grid(width: u32, height: u32, naming: Naming, line_length: Option<u32>) -> BoardSpec {
    BoardSpec::Grid {
        width,
        height,
        diagonals: Diagonals::None,
        naming,
        line_length,
    }
}

#[test]
fn generator_parameters_out_of_range_are_errors() {
    let (p, v, msg) = param_error(nested(0, 3));
    assert_eq!((p.as_str(), v), ("rings", 0));
    assert_eq!(msg, "board parameter `rings` is 0, out of range");
    assert_eq!(param_error(nested(13, 3)).0, "rings");
    assert_eq!(param_error(nested(3, 1)).0, "line_length");
    assert_eq!(param_error(grid(0, 5, Naming::Algebraic, None)).0, "width");
    assert_eq!(param_error(grid(27, 5, Naming::Algebraic, None)).0, "width");
    assert_eq!(
        param_error(grid(26, 27, Naming::Algebraic, None)).0,
        "height"
    );
    assert_eq!(param_error(grid(26, 5, Naming::Gtp, None)).0, "width");
    assert_eq!(param_error(grid(5, 0, Naming::Gtp, None)).0, "height");
    assert_eq!(
        param_error(grid(3, 3, Naming::Gtp, Some(1))),
        (
            // Named as a ruleset writes it: `grid: { lines: 1 }`.
            "lines".into(),
            1,
            "board parameter `lines` is 1, out of range".into()
        )
    );
    assert!(build(&nested(12, 3)).is_ok());
    assert!(build(&grid(26, 26, Naming::Algebraic, Some(2))).is_ok());
}

#[test]
fn line_length_longer_than_the_board_gives_no_lines() {
    let t = board(grid(3, 3, Naming::Algebraic, Some(u32::MAX)));
    assert!(t.lines.is_empty());
    let t = board(nested(3, 4));
    assert!(t.lines.is_empty());
}

/// Lines of each direction, by name, as "a1-d1-g1" strings.
fn lines_running(t: &Topology, dir: morrigo_board::LineDirection) -> BTreeSet<String> {
    t.lines
        .iter()
        .zip(&t.line_directions)
        .filter(|(_, d)| **d == dir)
        .map(|(line, _)| {
            let names: Vec<&str> = line.iter().map(|&p| t.name(p)).collect();
            names.join("-")
        })
        .collect()
}

#[test]
fn nested_squares_lines_are_sides_crosses_and_diagonals() {
    use morrigo_board::LineDirection::*;
    let t = board(BoardSpec::twelve_mens_morris());
    assert_eq!(
        lines_running(&t, Side).len(),
        12,
        "four sides of three squares"
    );
    assert_eq!(
        lines_running(&t, Cross),
        ["a4-b4-c4", "d1-d2-d3", "d5-d6-d7", "e4-f4-g4"]
            .map(String::from)
            .into(),
        "the midpoint links"
    );
    assert_eq!(lines_running(&t, Diagonal).len(), 4, "the corner diagonals");
    assert!(lines_running(&t, Side).contains("a1-d1-g1"));
    assert!(lines_running(&t, Side).contains("c3-c4-c5"));
    assert_eq!(t.line_directions.len(), t.lines.len());
}

#[test]
fn grid_lines_run_horizontal_vertical_and_diagonal() {
    use morrigo_board::LineDirection::*;
    let t = board(BoardSpec::Grid {
        width: 3,
        height: 3,
        diagonals: Diagonals::Long,
        naming: Naming::Algebraic,
        line_length: Some(3),
    });
    assert_eq!(
        lines_running(&t, Horizontal),
        ["a1-b1-c1", "a2-b2-c2", "a3-b3-c3"]
            .map(String::from)
            .into()
    );
    assert_eq!(lines_running(&t, Vertical).len(), 3);
    assert_eq!(
        lines_running(&t, Diagonal),
        ["a1-b2-c3", "c1-b2-a3"].map(String::from).into()
    );
}
