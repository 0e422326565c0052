//! The whole-game table (units of pieces on the board and in hand, from
//! the start) against the existing solver (explicit move lists, a
//! different algorithm), position by position: every turn-start position
//! reachable from the start.

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

fn check_against_full_solve(m: Machine<1>) -> usize {
    let name = m.rules.name.clone();
    let name = name.as_str();
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
    let n = check_against_full_solve(crate::common::machine("three-mens-morris"));
    assert!(n > 4000, "{n} positions compared");
}

#[test]
fn three_mens_morris_lasker_style_matches_the_full_solve() {
    // Slides while pieces wait in hand: positions with pieces in hand
    // repeat, so those units have cycles; a first-player win in 11.
    let n = check_against_full_solve(crate::common::test_machine("three-mens-lasker"));
    assert!(n > 10_000, "{n} positions compared");
}

/// Five Men's Morris with four each, Lasker's way (a draw, 8.9 million
/// positions): the explicit solve takes 20 s in a release build, so not
/// in the default run
/// (`cargo test --release -p morrigo-sector --test it game -- --ignored`).
#[test]
#[ignore]
fn five_mens_morris_lasker_style_matches_the_full_solve() {
    let n = check_against_full_solve(crate::common::test_machine("five-mens-lasker"));
    assert!(n > 1_000_000, "{n} positions compared");
}

/// A database directory: every unit in its own file, the list of units
/// and the start's value in `game.tbl`; a second run reads them back.
#[test]
fn a_database_directory_is_read_back_unit_by_unit() {
    let m = crate::common::test_machine("three-mens-lasker");
    let dir = std::env::temp_dir().join(format!("morrigo-sector-game-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let first = GameTable::solve_in(&m, Some(&dir)).unwrap();
    let files = std::fs::read_dir(&dir).unwrap().count();
    let sizes = first.sizes();
    // Every unit's file, game.tbl and the lock.
    assert_eq!(files, sizes.moving_units + sizes.placing_units + 2);
    assert!(dir.join("w1-b0-h2-3.sec").exists());
    let mut solved = 0;
    let again =
        GameTable::solve_with(&m, Some(&dir), |s| solved += usize::from(!s.loaded)).unwrap();
    assert_eq!(solved, 0, "a rerun solves nothing");
    assert_eq!(again.start_value(), first.start_value());
    assert_eq!(again.sizes(), sizes);
    // Its units are read from their files as positions are asked for.
    let positions = reachable(&m);
    for s in &positions {
        assert_eq!(again.value(&s.pos), first.value(&s.pos), "{:?}", s.pos);
    }
    assert!(positions.len() > 10_000);
    // Opened read only, it gives the same values, and writes nothing.
    let opened = GameTable::open(&m, &dir).unwrap();
    std::fs::remove_file(dir.join("game.lock")).unwrap();
    for s in positions.iter().step_by(7) {
        assert_eq!(opened.value(&s.pos), first.value(&s.pos), "{:?}", s.pos);
    }
    assert!(!dir.join("game.lock").exists(), "opening takes no lock");
    let empty = dir.join("not-solved");
    std::fs::create_dir_all(&empty).unwrap();
    let why = GameTable::open(&m, &empty).unwrap_err().to_string();
    assert!(
        why.contains("holds no solved game (no `game.tbl`)"),
        "{why}"
    );
    std::fs::remove_dir(&empty).unwrap();
    // A damaged unit file is not read: its positions are not held.
    let path = dir.join("w1-b0-h2-3.sec");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[40] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let fresh = GameTable::solve_in(&m, Some(&dir)).unwrap();
    let start = m.initial();
    let mut moves = Vec::new();
    m.legal_moves(&start, &mut moves);
    let mut s = start.clone();
    m.apply(&mut s, moves[0]);
    assert_eq!(fresh.value(&s.pos), None, "a damaged file is refused");
    let why = fresh.read_error().unwrap();
    assert!(why.contains("w1-b0-h2-3.sec"), "{why}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Six Men's Morris (a draw): every turn-start position of 2,000 random
/// games. The full solve takes about a minute and 1.5 GB in a release
/// build, so not in the default run
/// (`cargo test --release -p morrigo-sector --test it game -- --ignored`).
#[test]
#[ignore]
fn six_mens_morris_random_games_match_the_full_solve() {
    use rand::Rng;
    let m = crate::common::machine("six-mens-morris");
    let (table, _) =
        morrigo_solve::solve(&m, &m.initial(), u64::MAX, &morrigo_solve::Quiet).unwrap();
    let game = GameTable::solve(&m).unwrap();
    assert_eq!(game.start_value(), morrigo_solve::Value::Draw);
    let mut rng = crate::common::rng(22);
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
