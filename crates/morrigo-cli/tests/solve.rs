//! `morrigo solve`: exact values by retrograde analysis, from the start and
//! from hand-checkable positions, its refusals, and the saved table.

mod common;

use common::{assert_code, stderr, stdout};
use std::path::PathBuf;
use std::process::{Command, Output};

fn morrigo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("morrigo runs")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The report without its one machine-dependent line (the time taken).
fn report(o: &Output) -> String {
    stdout(o)
        .lines()
        .map(|l| {
            if l.starts_with("  time ") {
                "  time       [time]"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn three_mens_morris_report() {
    let o = morrigo(&["solve", "three-mens-morris", "--max-memory", "1G"]);
    assert_code(&o, 0);
    insta::assert_snapshot!(report(&o));
}

#[test]
fn the_value_names_the_winning_seat_and_the_history_rule_left_out() {
    let o = morrigo(&["solve", "three-mens-morris", "--max-memory", "1G"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    // Checked against a plain minimax in morrigo-solve's tests.
    assert!(
        out.contains("value      white wins in 9 plies (the first player wins)"),
        "{out}"
    );
    assert!(
        out.contains("end rule `repetition` reads the history"),
        "{out}"
    );
    assert!(out.contains("positions  5390 reachable"), "{out}");
}

#[test]
fn a_line_in_one_move_is_a_win_in_one_ply() {
    // White a1 b1, black a2 b2, white to move: c1 completes the bottom row.
    let o = morrigo(&[
        "solve",
        "three-mens-morris",
        "--position",
        "a1 a2 b1 b2",
        "--max-memory",
        "1G",
    ]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("value      white (to move) wins in 1 ply"),
        "{out}"
    );
    assert!(
        out.contains("line       c1 — white wins by end rule `line_made`"),
        "{out}"
    );
    assert!(out.contains("    c1  wins in 1"), "{out}");
}

#[test]
fn an_unavoidable_block_is_a_loss_in_two_plies() {
    // Seven points in a row: white a c f, black b d e, g empty. White's
    // only move is f-g, black's only answer e-f, and white is blocked.
    let o = morrigo(&[
        "solve",
        "tests/solve/tiny-row.yaml",
        "--position",
        "a b c d f e",
        "--max-memory",
        "1G",
    ]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("value      black wins in 2 plies (white to move loses)"),
        "{out}"
    );
    assert!(
        out.contains("line       f-g e-f — black wins by end rule `blocked`"),
        "{out}"
    );
}

#[test]
fn flying_changes_three_mens_morris_to_a_draw() {
    let o = morrigo(&[
        "solve",
        "tests/solve/three-mens-morris-flying.yaml",
        "--max-memory",
        "1G",
    ]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("value      draw (neither side can force a win)"),
        "{out}"
    );
    assert!(out.contains("then the position repeats"), "{out}");
}

#[test]
fn a_tiny_memory_limit_is_refused_with_the_estimate() {
    let o = morrigo(&["solve", "three-mens-morris", "--max-memory", "1K"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("solve three-mens-morris: the solve needs at least"),
        "{err}"
    );
    assert!(
        err.contains("more than the limit of 1.0 KiB (--max-memory)"),
        "{err}"
    );
    assert!(err.contains("--max-memory SIZE"), "{err}");
}

#[test]
fn go_style_rulesets_are_refused() {
    let o = morrigo(&["solve", "jk-final", "--size", "2x1"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("a Go-style ruleset"), "{err}");
    assert!(err.contains("full game histories"), "{err}");
}
