//! The line rule's extras from the command line: `counts` with the per-line
//! history, `from_hand`, `delay` — refused with located errors where they
//! cannot work (exit 1), and shown in transcripts and SVG where they do.

use crate::common::{assert_code, check, refused, run_in, scratch_dir, stderr, stdout, variant};

/// `line` exists only in `counts`; elsewhere the error says so.
#[test]
fn line_outside_counts_is_refused_with_the_reason() {
    let o = check(
        "line-elsewhere.yaml",
        &variant(
            "line-elsewhere",
            "on_line_formed:\n  removals: \"if formed_before(line) then 0 else 1\"\n",
        ),
    );
    let err = refused(
        &o,
        "line-elsewhere.yaml",
        "4:31",
        "`line` cannot be used here",
    );
    assert!(err.contains("only in `on_line_formed.counts`"), "{err}");
    insta::assert_snapshot!("line_outside_counts", err);
}

/// `counts` decides `lines_formed`, so it cannot read it.
#[test]
fn lines_formed_in_counts_is_refused() {
    let o = check(
        "counts-lines-formed.yaml",
        &variant(
            "counts-lines-formed",
            "on_line_formed:\n  counts: \"lines_formed > 1\"\n",
        ),
    );
    let err = refused(&o, "counts-lines-formed.yaml", "4:12", "lines_formed");
    assert!(err.contains("cannot read it"), "{err}");
}

/// A history function takes a line, not a point or a number.
#[test]
fn a_history_function_of_a_point_is_a_type_error() {
    let o = check(
        "history-point.yaml",
        &variant(
            "history-point",
            "on_line_formed:\n  removable: \"not formed_before(target)\"\n",
        ),
    );
    let err = refused(&o, "history-point.yaml", "4:33", "a line");
    insta::assert_snapshot!("history_of_a_point", err);
}

/// `counts` is a condition.
#[test]
fn counts_must_be_a_condition() {
    let o = check(
        "counts-number.yaml",
        &variant(
            "counts-number",
            "on_line_formed:\n  counts: \"turns_since_formed(line)\"\n",
        ),
    );
    refused(&o, "counts-number.yaml", "4:12", "condition");
}

/// Removals from an unlimited hand mean nothing: refused at `from_hand`.
#[test]
fn from_hand_with_unlimited_hands_is_refused() {
    let o = check(
        "hand-unlimited.yaml",
        &variant(
            "hand-unlimited",
            "setup:\n  in_hand: unlimited\non_line_formed:\n  from_hand: \"true\"\n",
        ),
    );
    let err = refused(&o, "hand-unlimited.yaml", "6:3", "hands are unlimited");
    insta::assert_snapshot!("from_hand_unlimited", err);
}

/// Marks and board plays do not mix: refused at `delay`.
#[test]
fn delay_with_board_plays_is_refused() {
    let text = "name: go-marks\nextends: tromp-taylor\nboard:\n  grid: { width: 5, height: 5, lines: 5 }\non_line_formed:\n  delay: \"true\"\n";
    let o = check("go-marks.yaml", text);
    let err = refused(
        &o,
        "go-marks.yaml",
        "6:3",
        "`on_line_formed.delay` leaves marks",
    );
    assert!(
        err.contains("no `delay` in a ruleset with `play:`"),
        "{err}"
    );
}

/// A Da San Qi game: the transcript draws the mark `#` where a piece was
/// taken while placing, and the SVG draws a cross there.
#[test]
fn da_san_qi_transcript_and_svg_show_the_mark() {
    let d = scratch_dir("da-san-qi");
    std::fs::write(d.join("game.txt"), "a1 a4 d1 b4 g1xa4\n").expect("write record");
    let o = run_in(
        &d,
        &[
            "replay",
            "--file",
            "game.txt",
            "--svg",
            "board.svg",
            "da-san-qi",
        ],
    );
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("4 #---B---."), "{out}");
    insta::assert_snapshot!("da_san_qi_transcript", out);
    let svg = std::fs::read_to_string(d.join("board.svg")).expect("svg written");
    assert!(svg.contains("<title>a4: marked</title>"), "{svg}");
    assert_eq!(svg.matches(": marked</title>").count(), 1, "{svg}");
    // `show --position` draws the same board, mark included.
    let o = run_in(
        &d,
        &[
            "show",
            "da-san-qi",
            "--position",
            "a1 a4 d1 b4 g1xa4",
            "--svg",
            "shown.svg",
        ],
    );
    assert_code(&o, 0);
    let shown = std::fs::read_to_string(d.join("shown.svg")).expect("svg written");
    assert_eq!(shown, svg, "show and replay draw the same board");
}

/// A Dooz game: a mill while placing takes from Black's hand, so the game
/// goes on with Black to move and nothing to remove.
#[test]
fn dooz_transcript_shows_the_hand_taken() {
    let d = scratch_dir("dooz");
    std::fs::write(d.join("game.txt"), "a1 a4 d1 b4 g1 c5\n").expect("write record");
    let o = run_in(&d, &["replay", "--file", "game.txt", "dooz"]);
    assert_code(&o, 0);
    insta::assert_snapshot!("dooz_transcript", stdout(&o));
}

/// Placing on a marked point is refused at the move, quoting `delay`.
#[test]
fn placing_on_a_mark_is_refused_quoting_delay() {
    let d = scratch_dir("da-san-qi-refused");
    std::fs::write(d.join("game.txt"), "a1 a4 d1 b4 g1xa4 a4\n").expect("write record");
    let o = run_in(&d, &["replay", "--file", "game.txt", "da-san-qi"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("a4 holds the mark of a piece taken"), "{err}");
    assert!(
        err.contains("in_hand(me) > 0 or in_hand(opponent) > 0"),
        "{err}"
    );
    insta::assert_snapshot!("placing_on_a_mark", err);
}
