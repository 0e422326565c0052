//! The whole-game table (moving-phase sectors plus the placing phase by
//! forward recursion) against the existing solver, position by position:
//! every turn-start position reachable from the start.

mod common;
use morrigo_engine::{Machine, State};
use morrigo_sector::GameTable;
use std::collections::HashSet;

/// Every turn-start position reachable from the start (removals played
/// out), by the engine's own moves.
fn reachable(m: &Machine<1>) -> Vec<State<1>> {
    let mut seen = HashSet::new();
    let mut todo = vec![m.initial()];
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while let Some(s) = todo.pop() {
        let p = &s.pos;
        if !seen.insert((
            p.occ[0].0[0],
            p.occ[1].0[0],
            p.in_hand,
            p.to_move,
            p.pending,
        )) {
            continue;
        }
        if p.pending == 0 {
            out.push(s.clone());
        }
        if m.legal_moves(&s, &mut moves).is_some() {
            continue;
        }
        for &mv in &moves {
            let mut t = s.clone();
            m.apply(&mut t, mv);
            todo.push(t);
        }
    }
    out
}

fn check_against_full_solve(name: &str) -> usize {
    let m = common::machine(name);
    let (table, _) =
        morrigo_solve::solve(&m, &m.initial(), u64::MAX, &morrigo_solve::Quiet).unwrap();
    let game = GameTable::solve(&m).unwrap();
    assert_eq!(game.start_value(), table.start_value(), "{name}: the start");
    let positions = reachable(&m);
    for s in &positions {
        assert_eq!(
            game.value(&s.pos),
            table.value(&s.pos),
            "{name}: {:?} in hand, {:?}, {} to move",
            s.pos.in_hand,
            [s.pos.occ[0].0[0], s.pos.occ[1].0[0]],
            s.pos.to_move
        );
    }
    positions.len()
}

#[test]
fn three_mens_morris_every_reachable_position_matches_the_full_solve() {
    // A first-player win in 9 plies; placing and moving phases both.
    let n = check_against_full_solve("three-mens-morris");
    assert!(n > 4000, "{n} positions compared");
}

#[test]
fn lasker_morris_is_refused_before_any_sector_is_solved() {
    // Lasker: a piece may move while others wait in hand, so positions can
    // repeat and forward recursion would not end.
    let e = GameTable::solve(&common::machine("lasker-morris")).unwrap_err();
    assert!(
        e.to_string()
            .contains("moves a piece instead of placing one"),
        "{e}"
    );
}

/// Six Men's Morris (a draw): every turn-start position of 2,000 random
/// games. The full solve takes about a minute and 1.5 GB in a release
/// build, so not in the default run
/// (`cargo test --release -p morrigo-sector --test game -- --ignored`).
#[test]
#[ignore]
fn six_mens_morris_random_games_match_the_full_solve() {
    use rand::Rng;
    let m = common::machine("six-mens-morris");
    let (table, _) =
        morrigo_solve::solve(&m, &m.initial(), u64::MAX, &morrigo_solve::Quiet).unwrap();
    let game = GameTable::solve(&m).unwrap();
    assert_eq!(game.start_value(), morrigo_solve::Value::Draw);
    let mut rng = common::rng(22);
    let (mut moves, mut compared) = (Vec::new(), 0);
    for _ in 0..2000 {
        let mut s = m.initial();
        for _ in 0..200 {
            if s.pos.pending == 0 {
                assert_eq!(game.value(&s.pos), table.value(&s.pos), "{:?}", s.pos);
                compared += 1;
            }
            if m.legal_moves(&s, &mut moves).is_some() || moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            m.apply(&mut s, mv);
        }
    }
    assert!(compared > 50_000, "{compared} positions compared");
}
