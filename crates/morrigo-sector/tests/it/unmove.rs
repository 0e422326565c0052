//! Un-moves against the engine's moves, both ways, on random positions:
//! every predecessor P of Q has Q among P's successors (the engine's legal
//! moves and removals), and every successor S of P has P among S's
//! predecessors. Run on slides (Six Men's), flights at three (Nine Men's),
//! one removal per mill and a removal per line (two at once), and lines
//! that end the game (Three Men's).

use morrigo_sector::{Board, Moves};

fn check(name: &str, sectors: &[(u32, u32)], samples: usize) -> (usize, usize) {
    let m = crate::common::machine(name);
    let mut mv = Moves::new(&m);
    let n = mv.points();
    let mut rng = crate::common::rng(22);
    let (mut preds_seen, mut unremovals) = (0, 0);
    let mut succ = Vec::new();
    let mut preds = Vec::new();
    let mut preds2 = Vec::new();
    for &(w, b) in sectors {
        for _ in 0..samples {
            let q = crate::common::random_board(&mut rng, n, w, b);
            // Backward, then forward.
            mv.predecessors(&q, true, true, &mut preds);
            for p in preds.clone() {
                preds_seen += 1;
                if p.counts() != q.counts() {
                    unremovals += 1;
                }
                assert!(
                    mv.successors(&p, &mut succ).is_none(),
                    "{name}: a predecessor is not over"
                );
                assert!(
                    succ.iter().any(|&(s, _)| s == q),
                    "{name}: {q:?} is not a successor of its predecessor {p:?}"
                );
            }
            // Forward, then backward.
            let p = q;
            if mv.successors(&p, &mut succ).is_some() {
                continue;
            }
            for &(s, plies) in &succ.clone() {
                assert_eq!(
                    u32::from(plies) - 1,
                    (p.counts()[0] + p.counts()[1]) - (s.counts()[0] + s.counts()[1]),
                    "a turn's plies are its move and its removals"
                );
                mv.predecessors(&s, true, true, &mut preds2);
                assert!(
                    preds2.contains(&p),
                    "{name}: {p:?} is not a predecessor of its successor {s:?}"
                );
                // Without un-removals, exactly the predecessors in the sector.
                mv.predecessors(&s, false, true, &mut preds2);
                assert_eq!(preds2.contains(&p), s.counts() == p.counts());
            }
        }
    }
    (preds_seen, unremovals)
}

#[test]
fn six_mens_morris_slides_and_removals() {
    let (preds, unremovals) = check("six-mens-morris", &[(4, 4), (5, 3), (3, 3), (6, 5)], 300);
    assert!(
        preds > 1000 && unremovals > 100,
        "{preds} predecessors, {unremovals} with removals"
    );
}

#[test]
fn nine_mens_morris_flights_at_three() {
    let (preds, unremovals) = check("nine-mens-morris", &[(3, 3), (3, 5), (4, 3), (6, 6)], 200);
    assert!(
        preds > 1000 && unremovals > 100,
        "{preds} predecessors, {unremovals} with removals"
    );
}

#[test]
fn a_removal_per_line_undoes_two_at_once() {
    let (preds, unremovals) = check(
        "nine-mens-morris-remove-per-mill",
        &[(5, 4), (7, 5), (3, 6)],
        300,
    );
    assert!(
        preds > 1000 && unremovals > 100,
        "{preds} predecessors, {unremovals} with removals"
    );
}

#[test]
fn three_mens_morris_lines_end_the_game() {
    let (preds, unremovals) = check("three-mens-morris", &[(3, 3)], 400);
    assert!(preds > 100);
    assert_eq!(unremovals, 0, "no removals in Three Men's Morris");
}

#[test]
fn rulesets_reading_history_are_refused() {
    // Morabaraba's re-forming rule reads turns_since_traded.
    let r = crate::common::rules("morabaraba");
    let why = morrigo_sector::supported(&r).unwrap_err();
    assert!(why.contains("turns_since_traded"), "{why}");
    // Malom's readings read the position only: solvable.
    for name in ["morabaraba-malom", "lasker-morris-malom"] {
        morrigo_sector::supported(&crate::common::rules(name)).unwrap();
    }
}

#[test]
fn a_player_with_no_piece_did_not_just_move() {
    // The player who just moved (the first, black to move) has no piece:
    // no turn leads here.
    let m = crate::common::machine("six-mens-morris");
    let mut mv = Moves::new(&m);
    let mut preds = Vec::new();
    mv.predecessors(&Board::moving([0, 0b111], 1), true, true, &mut preds);
    assert!(preds.is_empty());
}

/// The shortcuts for plain turns (a move completing no line played without
/// the engine; the actions allowed asked once per sector; forbid rules
/// skipped where a conjunct reading piece counts is false) give exactly
/// what asking the engine about every move gives, both ways. Lasker (Malom)
/// forbids completing a line while the opponent has no piece on the board:
/// inert in its moving sectors, in force in units where the opponent's
/// pieces are all in hand.
#[test]
fn plain_turn_shortcuts_agree_with_the_engine() {
    for (name, sectors, hands) in [
        (
            "six-mens-morris",
            &[(3u32, 3u32), (5, 4), (6, 6)][..],
            [0, 0],
        ),
        ("nine-mens-morris", &[(3, 3), (3, 7), (8, 8)][..], [0, 0]),
        ("lasker-morris", &[(3, 5), (7, 9)][..], [0, 0]),
        ("lasker-morris-malom", &[(3, 3), (5, 4), (8, 8)][..], [0, 0]),
        ("lasker-morris-malom", &[(3, 0), (5, 0), (4, 1)][..], [2, 3]),
        (
            "twelve-mens-morris",
            &[(3, 3), (6, 6), (11, 10)][..],
            [0, 0],
        ),
        (
            "nine-mens-morris-remove-per-mill",
            &[(4, 4), (8, 7)][..],
            [0, 0],
        ),
    ] {
        let m = crate::common::machine(name);
        let (mut fast, mut slow) = (Moves::new(&m), Moves::engine_only(&m));
        let n = fast.points();
        let mut rng = crate::common::rng(7);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let (mut pa, mut pb) = (Vec::new(), Vec::new());
        let mut compared = 0;
        for &(w, bl) in sectors {
            for _ in 0..300 {
                let q = Board {
                    in_hand: hands,
                    ..crate::common::random_board(&mut rng, n, w, bl)
                };
                assert_eq!(fast.successors(&q, &mut a), slow.successors(&q, &mut b));
                assert_eq!(a, b, "{name}: successors of {q:?}");
                for unremovals in [false, true] {
                    fast.predecessors(&q, unremovals, false, &mut pa);
                    slow.predecessors(&q, unremovals, false, &mut pb);
                    assert_eq!(pa, pb, "{name}: predecessors of {q:?}");
                }
                compared += a.len() + pa.len();
            }
        }
        assert!(compared > 1000, "{name}: only {compared} turns compared");
    }
}
