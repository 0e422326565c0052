//! `count_states` tells apart positions that owe a removal and differ only
//! in how the turn goes on after it: the phase the turn began in (which
//! decides an `extra_turn`). Its count is checked against a breadth-first
//! search over the reference implementation keyed by everything that
//! decides the rest of the game.

use morrigo_engine::{count_states, with_machine, AnyMachine};
use morrigo_reference::morris::RefGame;
use std::collections::{HashSet, VecDeque};
use std::sync::Arc;

/// Three Men's Morris where black starts, so white places its last piece
/// when black's hand is empty: a line made by that placement and one made
/// by a later slide can leave the same board and hands, both owing a
/// removal — but only the placement (a turn begun in `placing`) earns
/// another turn.
const PROBE: &str = r#"
name: states-turn-phase
extends: three-mens-morris
setup: { in_hand: 3, to_move: black }
phases:
  placing:
    extra_turn: "lines_formed > 0"
on_line_formed:
  removals: "1"
  removable: "true"
end:
  line_made: null
  repetition: null
  few:
    lose: "on_board(me) + in_hand(me) < 3"
"#;

type RefKey = (
    Vec<Option<u8>>,
    Vec<bool>,
    [u32; 2],
    u8,
    u32,
    Option<usize>,
    u32,
);

/// Distinct positions of the reference game: the board, marks, hands,
/// player to move, removals owed and, while they are owed, the phase the
/// turn began in and its lines.
fn reference_positions(rules: &morrigo_rules::Rules) -> (u64, u64) {
    let key = |g: &RefGame| -> RefKey {
        let owed = g.pending > 0;
        (
            g.board.clone(),
            g.marked.clone(),
            g.in_hand,
            g.to_move,
            g.pending,
            g.turn_phase().filter(|_| owed),
            if owed { g.lines_formed } else { 0 },
        )
    };
    let start = RefGame::new(rules);
    let mut seen: HashSet<RefKey> = HashSet::from([key(&start)]);
    let mut boards: HashSet<Vec<Option<u8>>> = HashSet::from([start.board.clone()]);
    let mut queue = VecDeque::from([start]);
    while let Some(g) = queue.pop_front() {
        let (moves, outcome) = g.legal_moves();
        if outcome.is_some() {
            continue;
        }
        for m in moves {
            let mut next = g.clone();
            next.apply(m);
            if seen.insert(key(&next)) {
                boards.insert(next.board.clone());
                queue.push_back(next);
            }
        }
    }
    (boards.len() as u64, seen.len() as u64)
}

#[test]
fn states_keep_positions_apart_by_the_phase_the_turn_began_in() {
    let rules =
        Arc::new(morrigo_rules::rules_from_text("states-turn-phase", PROBE).expect("compiles"));
    let (boards, positions) = reference_positions(&rules);
    let any = AnyMachine::new(rules).expect("fits");
    let count = with_machine!(&any, m => count_states(m, &m.initial(), u64::MAX));
    assert!(count.complete);
    assert_eq!(
        (count.boards, count.positions),
        (boards, positions),
        "fast engine (boards, positions) against the reference's"
    );
}
