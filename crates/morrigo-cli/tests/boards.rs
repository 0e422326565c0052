//! Generated boards from ruleset files (grid diagonals, rectangles,
//! triangular and hexagonal lattices): `check` accepts them with the points
//! and lines the generator defines, and refuses bad parameters at their key.

use std::path::PathBuf;
use std::process::{Command, Output};

mod common;
use common::{assert_code, stderr, stdout};

fn morrigo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args(args)
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .expect("the morrigo binary runs")
}

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
