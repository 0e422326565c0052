//! Benson's unconditional life and settled boards (`Machine::unconditional_life`,
//! `Machine::is_settled`) on hand-drawn boards: diagrams top row first,
//! `X` black, `O` white, `.` empty, points named as in GTP.

use morrigo_engine::{AnyMachine, Bits, Life, Machine};
use morrigo_rules::load::Overrides;
use std::sync::Arc;

/// The machine of `tromp-taylor` on the diagram's board, and its stones.
fn board(rows: &[&str]) -> (Machine<1>, [Bits<1>; 2]) {
    let (w, h) = (rows[0].split_whitespace().count(), rows.len());
    let o = Overrides {
        size: Some((w as u32, h as u32)),
        komi: None,
    };
    let rules =
        morrigo_rules::load_rules_with("tromp-taylor", &o).unwrap_or_else(|e| panic!("{e}"));
    let AnyMachine::W1(m) = AnyMachine::new(Arc::new(rules)).expect("a board") else {
        panic!("a small board fits one word");
    };
    let mut occ = [Bits::EMPTY; 2];
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.split_whitespace().enumerate() {
            let name = format!("{}{}", "ABCDEFGHJKLMNOPQRST".as_bytes()[c] as char, h - r);
            let p = m.rules.topology.point(&name).expect("a point") as usize;
            match cell {
                "X" => occ[0].set(p),
                "O" => occ[1].set(p),
                _ => assert_eq!(cell, ".", "a diagram cell"),
            }
        }
    }
    (m, occ)
}

fn points(m: &Machine<1>, set: Bits<1>) -> Vec<String> {
    set.iter()
        .map(|p| m.rules.topology.name(p as u16).to_string())
        .collect()
}

/// Two separate eyes: alive, both eyes safe, and the board settled.
#[test]
fn a_chain_with_two_eyes_is_unconditionally_alive() {
    let (m, occ) = board(&["X X X X X", "X . X . X", "X X X X X"]);
    let life = m.unconditional_life(&occ, 0);
    assert_eq!(life.alive, occ[0]);
    assert_eq!(points(&m, life.safe), ["B2", "D2"]);
    assert!(m.is_settled(&occ));
}

/// One eye of two points is one region: white plays into it, and when
/// the region is down to one empty point white's play there captures the
/// chain. Not alive.
#[test]
fn a_chain_with_one_eye_is_not() {
    let (m, occ) = board(&["X X X X X", "X . . X X", "X X X X X"]);
    let life = m.unconditional_life(&occ, 0);
    assert_eq!(life.alive, Bits::EMPTY);
    assert!(!m.is_settled(&occ));
}

/// `X . X` on a line: the point between is one region shared by two
/// chains, each with no other; white captures both by playing it.
#[test]
fn a_shared_point_is_no_second_eye() {
    let (m, occ) = board(&["X . X"]);
    assert_eq!(m.unconditional_life(&occ, 0).alive, Bits::EMPTY);
    let (m, occ) = board(&[". X . X ."]);
    let life = m.unconditional_life(&occ, 0);
    assert_eq!(life.alive, occ[0], "each chain has two vital points");
    assert_eq!(points(&m, life.safe), ["A1", "C1", "E1"]);
}

/// A white stone in a black eye: the region is still vital (its empty
/// point is a liberty of the black chain), so black lives, but the region
/// is not safe territory while the stone stands, and the board is not
/// settled.
#[test]
fn an_intruder_leaves_life_but_not_the_count() {
    let (m, occ) = board(&["X X X X X X", "X O . X . X", "X X X X X X"]);
    let life: Life<1> = m.unconditional_life(&occ, 0);
    assert_eq!(life.alive, occ[0]);
    assert_eq!(points(&m, life.safe), ["E2"]);
    assert_eq!(m.unconditional_life(&occ, 1).alive, Bits::EMPTY);
    assert!(!m.is_settled(&occ));
}

/// Two groups, each with two eyes of its own, side by side: every point
/// is someone's for good.
#[test]
fn two_living_groups_settle_the_board() {
    let (m, occ) = board(&["X . X O . O", ". X X O O ."]);
    for player in 0..2 {
        assert_eq!(m.unconditional_life(&occ, player).alive, occ[player]);
    }
    assert!(m.is_settled(&occ));
    // Take away one white eye (F1 filled): white's chain keeps one region
    // only, so it is not alive and the board is not settled.
    let (m, occ) = board(&["X . X O . O", ". X X O O O"]);
    assert_eq!(m.unconditional_life(&occ, 1).alive, Bits::EMPTY);
    assert!(!m.is_settled(&occ));
}

/// Empty points next to both colours are no one's: never settled, even
/// with every stone alive.
#[test]
fn a_neutral_point_is_not_settled() {
    let (m, occ) = board(&[". X . X . O . O ."]);
    assert!(!m.is_settled(&occ));
}

/// A straight four is one eye space, so Benson's test alone gives the
/// wall no life; with answers it counts as two eyes (whatever white plays
/// there first, black takes one of the two middle points the play left
/// and has two eyes), and its four points are black's.
#[test]
fn a_straight_four_lives_with_answers() {
    let (m, occ) = board(&["X X X X X X", "X . . . . X"]);
    assert_eq!(m.unconditional_life(&occ, 0).alive, Bits::EMPTY);
    let life = m.life_with_answers(&occ, 0);
    assert_eq!(life.alive, occ[0]);
    assert_eq!(points(&m, life.safe), ["B1", "C1", "D1", "E1"]);
    // A bent four (a path of four points through a corner) is the same.
    let (m, occ) = board(&["X X X X X", "X . X X X", "X . . . X"]);
    assert_eq!(m.life_with_answers(&occ, 0).alive, occ[0]);
}

/// The eye spaces a first play kills, with one cut point or none: the
/// straight three (white takes its middle), the square four, the pyramid
/// four (white takes its centre). None lives with answers.
#[test]
fn eye_spaces_with_a_vital_point_do_not() {
    let straight_three = ["X X X X X", "X . . . X"];
    let square_four = ["X X X X", "X . . X", "X . . X", "X X X X"];
    let pyramid_four = ["X X X X X", "X X . X X", "X . . . X"];
    for rows in [&straight_three[..], &square_four[..], &pyramid_four[..]] {
        let (m, occ) = board(rows);
        assert_eq!(m.life_with_answers(&occ, 0).alive, Bits::EMPTY, "{rows:?}");
    }
}

/// What an answer cannot mend: a white stone already in the space (the
/// answer may come too late), and a space shared by two black chains (a
/// white play there may need an answer from each).
#[test]
fn an_intruder_or_a_second_chain_leaves_no_answer() {
    let (m, occ) = board(&["X X X X X X", "X . O . . X"]);
    assert_eq!(m.life_with_answers(&occ, 0).alive, Bits::EMPTY);
    let (m, occ) = board(&["X . . . . X"]);
    assert_eq!(m.life_with_answers(&occ, 0).alive, Bits::EMPTY);
}

/// Two walls, each over a straight four: settled with answers (each side
/// keeps its eight points by answering the other's plays), not by
/// Benson's test alone.
#[test]
fn two_straight_fours_settle_the_board_with_answers() {
    let (m, occ) = board(&["O . . . . O", "O O O O O O", "X X X X X X", "X . . . . X"]);
    assert!(!m.is_settled(&occ));
    assert!(m.is_settled_with_answers(&occ));
    // A straight three instead of black's four: white kills it first.
    let (m, occ) = board(&["O . . . . O", "O O O O O O", "X X X X X X", "X . . . X X"]);
    assert!(!m.is_settled_with_answers(&occ));
}
