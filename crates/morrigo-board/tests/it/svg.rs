//! SVG drawings: edges, named points (label and hover title), pieces in
//! their player's colour; coordinates from the board, a √3 stretch for
//! triangular lattices, a circle for boards without coordinates.

use morrigo_board::{build, BoardSpec, Diagonals, Named, Naming, Owner, Topology};

fn board(spec: BoardSpec) -> Topology {
    build(&spec).unwrap_or_else(|e| panic!("{spec:?} should build: {e}"))
}

fn players(a: &str, b: &str) -> Vec<String> {
    vec![a.to_string(), b.to_string()]
}

/// The `cx`/`cy` of the dot titled `name`.
fn dot(svg: &str, name: &str) -> (f64, f64) {
    let title = format!("<title>{name}</title>");
    let line = svg
        .lines()
        .find(|l| l.contains("r=\"4\"") && l.contains(&title))
        .unwrap_or_else(|| panic!("no dot {name}"));
    let attr = |key: &str| -> f64 {
        let start = line.find(&format!("{key}=\"")).expect("attribute") + key.len() + 2;
        let rest = &line[start..];
        rest[..rest.find('"').expect("quote")]
            .parse()
            .expect("a number")
    };
    (attr("cx"), attr("cy"))
}

#[test]
fn nine_mens_morris_svg_has_every_edge_and_named_point() {
    let t = board(BoardSpec::nine_mens_morris());
    let svg = t.svg(|_| None, &players("white", "black"));
    assert_eq!(svg.matches("<line ").count(), 32);
    assert_eq!(svg.matches("r=\"4\"").count(), 24);
    assert_eq!(svg.matches("r=\"15\"").count(), 0, "no pieces");
    // a1 bottom-left, g7 top-right: y grows downwards in SVG.
    let (a1, g7) = (dot(&svg, "a1"), dot(&svg, "g7"));
    assert!(a1.0 < g7.0 && a1.1 > g7.1, "{a1:?} {g7:?}");
    insta::assert_snapshot!("svg_nine_mens_morris", svg);
}

#[test]
fn go_5x5_svg_draws_stones_in_their_players_colours() {
    let t = board(BoardSpec::go(5));
    let (c3, d3, b2) = (t.point("C3"), t.point("D3"), t.point("B2"));
    let owner = |p| match Some(p) {
        x if x == c3 || x == b2 => Some(Owner::Player(0)),
        x if x == d3 => Some(Owner::Player(1)),
        _ => None,
    };
    let svg = t.svg(owner, &players("black", "white"));
    assert_eq!(svg.matches("fill=\"black\"").count(), 2);
    assert_eq!(svg.matches("fill=\"white\"").count(), 1);
    assert!(svg.contains("<title>C3: black</title>"));
    assert!(svg.contains("<title>D3: white</title>"));
    insta::assert_snapshot!("svg_go_5x5_with_stones", svg);
}

#[test]
fn players_without_a_colour_name_get_a_dark_and_a_light_piece() {
    let t = board(BoardSpec::three_mens_morris());
    let svg = t.svg(
        |p| (p < 2).then_some(Owner::Player(p as u8)),
        &players("sun", "moon"),
    );
    assert!(svg.contains("fill=\"#222222\"") && svg.contains("fill=\"#f4f4f4\""));
    assert!(svg.contains("<title>a1: sun</title>") && svg.contains("<title>b1: moon</title>"));
}

#[test]
fn picaria_board_svg_places_centres_between_corners() {
    let t = board(BoardSpec::Grid {
        width: 3,
        height: 3,
        diagonals: Diagonals::Crossed,
        naming: Naming::Algebraic,
        line_length: Some(3),
    });
    let svg = t.svg(|_| None, &players("white", "black"));
    let (a1, b2, c3) = (dot(&svg, "a1"), dot(&svg, "b2"), dot(&svg, "c3"));
    assert_eq!(b2, ((a1.0 + c3.0) / 2.0, (a1.1 + c3.1) / 2.0));
    assert_eq!(svg.matches("<line ").count(), 28);
    insta::assert_snapshot!("svg_picaria_crossed", svg);
}

#[test]
fn triangular_lattices_are_drawn_with_equilateral_triangles() {
    let t = board(BoardSpec::Hexagonal {
        side: 2,
        line_length: None,
    });
    let svg = t.svg(|_| None, &players("white", "black"));
    let (a1, b1, b2) = (dot(&svg, "a1"), dot(&svg, "b1"), dot(&svg, "b2"));
    let dist = |p: (f64, f64), q: (f64, f64)| ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt();
    // a1, b1 (bottom row) and b2 (the middle row's centre) form a triangle.
    let (d1, d2, d3) = (dist(a1, b1), dist(a1, b2), dist(b1, b2));
    assert!(
        (d1 - d2).abs() < 0.2 && (d1 - d3).abs() < 0.2,
        "{d1} {d2} {d3}"
    );
}

#[test]
fn boards_without_coordinates_are_laid_out_on_a_circle() {
    let names = ["n", "e", "s", "w"];
    let t = board(BoardSpec::Explicit {
        nodes: names.iter().map(|&n| (Named::new(n), None)).collect(),
        edges: vec![
            ("n".into(), "e".into()),
            ("e".into(), "s".into()),
            ("s".into(), "w".into()),
            ("w".into(), "n".into()),
        ],
        lines: vec![],
    });
    let svg = t.svg(|_| None, &players("white", "black"));
    let at: Vec<(f64, f64)> = names.iter().map(|n| dot(&svg, n)).collect();
    let centre = (
        at.iter().map(|p| p.0).sum::<f64>() / 4.0,
        at.iter().map(|p| p.1).sum::<f64>() / 4.0,
    );
    let radius = |p: (f64, f64)| ((p.0 - centre.0).powi(2) + (p.1 - centre.1).powi(2)).sqrt();
    for p in &at {
        assert!((radius(*p) - radius(at[0])).abs() < 0.2, "{at:?}");
    }
    // Clockwise from the top: n top, e right, s bottom, w left.
    assert!(at[0].1 < at[2].1 && at[1].0 > at[3].0, "{at:?}");
    insta::assert_snapshot!("svg_explicit_circle", svg);
}
