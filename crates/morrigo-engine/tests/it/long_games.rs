//! Long games stay linear: `repetitions` (and superko) cost amortised O(1)
//! per move however long the reversible stretch, so a record of a million
//! moves replays in seconds, and the counts stay exact across undo.

use morrigo_engine::{AnyMachine, Machine, Move, MoveKind, State};
use morrigo_rules::Rules;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn narrow(name: &str, text: &str) -> Machine<1> {
    let rules: Arc<Rules> = Arc::new(
        morrigo_rules::rules_from_text(name, text).unwrap_or_else(|e| panic!("{name}: {e:?}")),
    );
    match AnyMachine::new(rules).expect("fits") {
        AnyMachine::W1(m) => m,
        _ => panic!("test boards have at most 64 points"),
    }
}

/// Four points in a row, one piece each: after placing on the two ends the
/// pieces slide back and forth, every position recurring each four turns.
/// The third-party repetition draw fires when a position occurs `limit`
/// times.
fn shuttle(limit: u32) -> Machine<1> {
    narrow(
        "shuttle",
        &format!(
            "name: shuttle
board:
  explicit:
    nodes:
      - {{ name: a, at: [0, 0] }}
      - {{ name: b, at: [1, 0] }}
      - {{ name: c, at: [2, 0] }}
      - {{ name: d, at: [3, 0] }}
    edges: [[a, b], [b, c], [c, d]]
    lines: [[a, b, c, d]]
players: [white, black]
setup:
  in_hand: 1
phases:
  placing:
    when: \"in_hand(me) > 0\"
    actions:
      place: true
  moving:
    actions:
      slide: true
end:
  repetition:
    draw: \"repetitions >= {limit}\"
"
        ),
    )
}

/// The legal move from `from` to `to` (`from == to`: a placement).
fn find(m: &Machine<1>, s: &State<1>, moves: &mut Vec<Move>, from: &str, to: &str) -> Move {
    let t = &m.rules.topology;
    let point = |n: &str| t.names.iter().position(|x| x == n).expect("point") as u16;
    assert!(m.legal_moves(s, moves).is_none(), "the game is not over");
    *moves
        .iter()
        .find(|mv| {
            mv.to == point(to)
                && (from == to && mv.kind == MoveKind::Place || mv.from == point(from))
        })
        .unwrap_or_else(|| panic!("{from}-{to} is legal"))
}

/// Slides of the shuttle after the placements `a d`: white a-b, black d-c,
/// white b-a, black c-d, and again.
const CYCLE: [(&str, &str); 4] = [("a", "b"), ("d", "c"), ("b", "a"), ("c", "d")];

/// Play `slides` slides of the shuttle, checking `repetitions` after each
/// one (turn `t` of the cycle reaches its position for the `t / 4 + 1`th
/// time), then undo them all, checking the counts on the way back.
fn shuttle_game(slides: u32, limit: u32) -> (State<1>, u32) {
    let m = shuttle(limit);
    let mut s = m.initial();
    let mut moves = Vec::new();
    for (p, _) in [("a", ""), ("d", "")] {
        let mv = find(&m, &s, &mut moves, p, p);
        m.apply(&mut s, mv);
    }
    let mut undos = Vec::with_capacity(slides as usize);
    let mut played = 0;
    for i in 0..slides {
        if m.outcome(&s).is_some() {
            break;
        }
        let (from, to) = CYCLE[i as usize % 4];
        let mv = find(&m, &s, &mut moves, from, to);
        undos.push(m.apply(&mut s, mv));
        played += 1;
        assert_eq!(m.repetitions(&s), (i + 1) / 4 + 1, "after slide {}", i + 1);
    }
    let end = s.clone();
    for (i, u) in undos.into_iter().enumerate().rev() {
        assert_eq!(
            m.repetitions(&s),
            (i as u32 + 1) / 4 + 1,
            "undo at slide {}",
            i + 1
        );
        m.undo(&mut s, u);
    }
    assert_eq!(m.repetitions(&s), 1, "back at the end of the placements");
    (end, played)
}

/// Repetition draw (`repetitions >= limit`): with a limit of 25,000 the
/// start of the cycle occurs for the 25,000th time after 99,996 slides, and
/// the draw decides there; every count on the way is exact.
#[test]
fn a_hundred_thousand_slides_count_repetitions_exactly() {
    let started = Instant::now();
    let (end, played) = shuttle_game(100_000, 25_000);
    assert_eq!(played, 99_996, "the draw fires at the 25,000th occurrence");
    let m = shuttle(25_000);
    let o = m.outcome(&end).expect("the repetition draw decides");
    assert_eq!(o.winner, None);
    assert_eq!(m.repetitions(&end), 25_000);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

/// The same with a million slides (run with `--ignored`; the CLI test
/// replays a million-move record through the binary).
#[test]
#[ignore]
fn a_million_slides_count_repetitions_exactly() {
    let (end, played) = shuttle_game(1_000_000, 250_000);
    assert_eq!(played, 999_996);
    assert_eq!(shuttle(250_000).outcome(&end).map(|o| o.winner), Some(None));
}

/// Positional superko on a 5x5 board, with an end rule reading
/// `repetitions` (Go: no move is irreversible, so the whole game is one
/// reversible stretch). Random plays (a pass now and then) until superko
/// leaves no new board to play, then passes, so positions recur: no board
/// play ever recreates a board, and the engine's `repetitions` agrees with
/// a count of the positions kept here at every ply.
fn superko_game(plies: u32) {
    let m = narrow(
        "superko-long",
        "name: superko-long
board:
  grid: { width: 5, height: 5, naming: gtp }
players: [black, white]
setup:
  in_hand: unlimited
phases:
  play:
    actions:
      play: true
      pass: true
play:
  suicide: legal
passes:
  kinds: [P]
repetition:
  superko: positional
end:
  repeated:
    draw: \"repetitions >= 1000000\"
",
    );
    let mut s = m.initial();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut moves = Vec::new();
    let mut positions: HashMap<u64, u32> = HashMap::from([(s.pos.hash, 1)]);
    let mut boards: HashMap<u64, u32> = HashMap::from([(s.pos.board_key, 1)]);
    let mut last_pass = false;
    let mut played = 0;
    for ply in 0..plies {
        assert!(
            m.legal_moves(&s, &mut moves).is_none(),
            "ply {ply}: not over"
        );
        let plays: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|mv| mv.kind == MoveKind::Play)
            .collect();
        let mv = if plays.is_empty() || !last_pass && rng.random_range(0..50) == 0 {
            *moves
                .iter()
                .find(|mv| mv.kind == MoveKind::Pass)
                .expect("pass")
        } else {
            played += 1;
            plays[rng.random_range(0..plays.len())]
        };
        last_pass = mv.kind == MoveKind::Pass;
        m.apply(&mut s, mv);
        let seen = boards.entry(s.pos.board_key).or_insert(0);
        assert!(
            *seen == 0 || last_pass,
            "ply {ply}: superko let a board recur"
        );
        *seen += 1;
        let count = positions.entry(s.pos.hash).or_insert(0);
        *count += 1;
        assert_eq!(m.repetitions(&s), *count, "ply {ply}");
    }
    eprintln!("{played} board plays, {} distinct boards", boards.len());
}

#[test]
fn a_hundred_thousand_plies_of_superko_go_stay_linear() {
    let started = Instant::now();
    superko_game(100_000);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
#[ignore]
fn a_million_plies_of_superko_go_stay_linear() {
    superko_game(1_000_000);
}
