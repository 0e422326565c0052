//! Generated boards from ruleset files (grid diagonals, rectangles,
//! triangular and hexagonal lattices): `check` accepts them with the points
//! and lines the generator defines, and refuses bad parameters at their key.

use std::path::PathBuf;

use crate::common::{assert_code, morrigo, stderr, stdout};

#[test]
fn check_counts_the_points_and_lines_of_each_generated_board() {
    let cases = [
        ("long-diagonals", "9 points, 8 lines"),
        ("crossed", "13 points, 16 lines"),
        ("rect-6x5", "30 points, 38 lines"),
        ("triangular", "10 points, 9 lines"),
        ("hexagonal", "19 points, 27 lines"),
    ];
    for (name, counts) in cases {
        let o = morrigo(&["check", &format!("tests/boards/{name}.yaml")]);
        assert_code(&o, 0);
        assert!(stdout(&o).contains(counts), "{name}: {}", stdout(&o));
    }
}

#[test]
fn the_generated_long_diagonal_board_is_three_mens_morris_board() {
    // Same points, neighbours and lines as the built-in's explicit board:
    // perft counts of the same rules agree, to depth 8 (two sliding plies
    // after the six placements).
    let perft = |ruleset: &str| {
        let o = morrigo(&["perft", ruleset, "8"]);
        assert_code(&o, 0);
        stdout(&o)
            .lines()
            .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
    };
    let built_in = perft("three-mens-morris");
    assert!(!built_in.is_empty());
    assert_eq!(perft("tests/boards/long-diagonals.yaml"), built_in);
}

#[test]
fn show_draws_the_crossed_board_with_its_centre_points() {
    let o = morrigo(&["show", "tests/boards/crossed.yaml"]);
    assert_code(&o, 0);
    insta::assert_snapshot!("show_crossed_board", stdout(&o));
}

#[test]
fn bad_board_parameters_are_refused_at_their_key() {
    let mut all = String::new();
    for name in [
        "bad-long-not-square",
        "bad-diagonals-word",
        "bad-hexagon-lines",
        "bad-two-kinds",
    ] {
        let o = morrigo(&["check", &format!("tests/boards/{name}.yaml")]);
        assert_code(&o, 1);
        all.push_str(&stderr(&o));
    }
    insta::assert_snapshot!("bad_board_parameters", all);
}

/// A fresh path for an output file of this test run.
fn out_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("morrigo-boards-{}-{name}", std::process::id()))
}

fn read_svg(path: &PathBuf) -> String {
    let text = std::fs::read_to_string(path).expect("the SVG was written");
    let _ = std::fs::remove_file(path);
    text
}

#[test]
fn show_svg_writes_the_empty_board_with_every_point_named() {
    let path = out_path("show.svg");
    let o = morrigo(&[
        "show",
        "tests/boards/hexagonal.yaml",
        "--svg",
        path.to_str().expect("utf-8"),
    ]);
    assert_code(&o, 0);
    let svg = read_svg(&path);
    assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
    assert_eq!(svg.matches("<line ").count(), 42, "hexagon of side 3");
    for name in ["a1", "c1", "e3", "c5"] {
        assert!(svg.contains(&format!("<title>{name}</title>")), "{name}");
    }
    assert!(!svg.contains("r=\"15\""), "an empty board has no pieces");
}

#[test]
fn replay_svg_draws_the_position_at_the_end_of_the_record() {
    let path = out_path("replay.svg");
    // White mills on the bottom row and removes d2; a1 d1 g1 stay white,
    // b4 black.
    let o = morrigo(&[
        "replay",
        "nine-mens-morris",
        "--moves",
        "a1 d2 d1 b4 g1xd2",
        "--svg",
        path.to_str().expect("utf-8"),
    ]);
    assert_code(&o, 0);
    let svg = read_svg(&path);
    for piece in ["a1: white", "d1: white", "g1: white", "b4: black"] {
        assert!(svg.contains(&format!("<title>{piece}</title>")), "{piece}");
    }
    assert!(!svg.contains("d2: black"), "the removed piece is gone");
    assert_eq!(svg.matches("r=\"15\"").count(), 4);
}

#[test]
fn show_svg_with_a_position_draws_go_stones() {
    let path = out_path("go.svg");
    let o = morrigo(&[
        "show",
        "jk-final",
        "--size",
        "5",
        "--position",
        "C3 D3",
        "--svg",
        path.to_str().expect("utf-8"),
    ]);
    assert_code(&o, 0);
    let svg = read_svg(&path);
    assert!(svg.contains("<title>C3: black</title>") && svg.contains("<title>D3: white</title>"));
    assert_eq!(svg.matches("r=\"15\"").count(), 2);
}

#[test]
fn an_svg_path_that_cannot_be_written_is_an_error_naming_it() {
    let o = morrigo(&[
        "show",
        "nine-mens-morris",
        "--svg",
        "/nonexistent-dir/x.svg",
    ]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("cannot write `/nonexistent-dir/x.svg`"),
        "{}",
        stderr(&o)
    );
}

/// Node counts per depth of `morrigo perft RULESET DEPTH`.
fn perft_counts(ruleset: &str, depth: u32) -> Vec<u64> {
    let o = morrigo(&["perft", ruleset, &depth.to_string()]);
    assert_code(&o, 0);
    stdout(&o)
        .lines()
        .skip(2)
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .expect("a count")
                .parse()
                .expect("a number")
        })
        .collect()
}

#[test]
fn tapatan_perft_counts_placements_then_removes_won_games() {
    // Placing: 9, 9*8, ..., 9*8*7*6*5. At ply 5, White has a line in
    // 8 lines * 3! orders * 6*5 Black placements = 1440 positions, which end
    // the game; the other 13,680 each have 4 placements: 54,720.
    assert_eq!(perft_counts("tapatan", 6), [9, 72, 504, 3024, 15120, 54720]);
}

#[test]
fn achi_perft_places_four_pieces_each_then_slides() {
    // As Tapatan to ply 6; then Achi keeps placing (4 pieces each) where
    // Tapatan slides, so the counts part from ply 7 on. At ply 6 Black has
    // a line in 6 * (6 rows/columns * 18 + 2 diagonals * 20) * 3! = 5,328
    // of the 54,720 positions (White's three not in a line); each other
    // position has 3 placements: 148,176.
    let achi = perft_counts("achi", 8);
    assert_eq!(achi[..6], [9, 72, 504, 3024, 15120, 54720]);
    assert_eq!(achi[6..], [148176, 200448]);
    assert_ne!(perft_counts("tapatan", 7)[6], achi[6]);
}

#[test]
fn size_that_breaks_long_diagonals_is_blamed_on_the_command_line() {
    // `--size 5x3` replaces Tapatan's 3x3: long diagonals need a square.
    let o = morrigo(&["show", "tapatan", "--size", "5x3"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("board parameter `height` is 3"), "{err}");
    assert!(err.contains("the value comes from `--size`"), "{err}");
    // A square size is fine: 25 points, 8 diagonal edges among 48.
    let o = morrigo(&["check", "tapatan", "--size", "5"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("25 points"), "{}", stdout(&o));
}
