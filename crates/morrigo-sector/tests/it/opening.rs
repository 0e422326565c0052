//! The placing phase by search over the moving-phase sectors (Gasser's
//! method) against the placing units solved by retrograde analysis
//! (`GameTable`, a different algorithm): the start, every first move and
//! placing positions of random games agree in win, draw or loss.

use morrigo_engine::Machine;
use morrigo_sector::opening::{search_opening, OpeningSearch, Wdl, OPENING_FILE};
use morrigo_sector::{Board, GameTable};
use morrigo_solve::Value;
use rand::Rng;
use std::path::PathBuf;

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("morrigo-opening-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn wdl(v: Value) -> Wdl {
    match v {
        Value::Win(_) => Wdl::Win,
        Value::Loss(_) => Wdl::Loss,
        Value::Draw => Wdl::Draw,
    }
}

/// Solve the moving phase of `m` into a fresh directory.
fn moving_phase(m: &Machine<1>, tag: &str) -> PathBuf {
    let dir = temp_dir(tag);
    let most = m.rules.in_hand;
    morrigo_sector::solve_sectors(m, Some(&dir), 0, most, |_| {}).unwrap();
    dir
}

/// The search's start and first moves equal the whole-game table's, and
/// `games` random games' placing positions have the table's value.
fn agrees_with_the_placing_units(m: Machine<1>, games: usize) -> usize {
    let name = m.rules.name.clone();
    let dir = moving_phase(&m, &name);
    let table = GameTable::solve(&m).unwrap();
    let result = search_opening(&m, &dir, 64 << 20, 2, |_| {}).unwrap();
    assert_eq!(result.start, wdl(table.start_value()), "{name}: the start");
    // Every first move, by the engine's own moves: the class holding its
    // point has its value.
    let start = m.initial();
    let mut moves = Vec::new();
    assert!(m.legal_moves(&start, &mut moves).is_none());
    for &mv in &moves {
        let mut s = start.clone();
        let v = table.after(&m, &mut s, mv).map(wdl).unwrap();
        let point = &m.rules.topology.names[mv.to as usize];
        let class = result
            .first_moves
            .iter()
            .find(|f| f.points.contains(point))
            .unwrap_or_else(|| panic!("{name}: no class holds {point}"));
        assert_eq!(class.value, v, "{name}: the first move at {point}");
        assert!(!class.loaded);
    }
    let classes: usize = result.first_moves.iter().map(|f| f.points.len()).sum();
    assert_eq!(classes, moves.len(), "{name}: each first move in one class");
    // A rerun reads every first move back.
    let again = search_opening(&m, &dir, 64 << 20, 1, |_| {}).unwrap();
    assert_eq!(again.start, result.start);
    assert!(again.first_moves.iter().all(|f| f.loaded));
    assert!(dir.join(OPENING_FILE).exists());
    // Placing positions of random games, searched one after another with
    // one table (bounds learnt for one serve the next).
    let mut search = OpeningSearch::new(&m, &dir, 64 << 20).unwrap();
    let mut rng = crate::common::rng(7);
    let mut checked = 0;
    for _ in 0..games {
        let mut s = m.initial();
        loop {
            if m.legal_moves(&s, &mut moves).is_some() {
                break;
            }
            if s.pos.pending == 0 && s.pos.in_hand != [0, 0] {
                let want = wdl(table.value(&s.pos).unwrap());
                assert_eq!(
                    search.value(&Board::of_position(&s.pos)).unwrap(),
                    want,
                    "{name}: {s:?}"
                );
                checked += 1;
            }
            if s.pos.in_hand == [0, 0] {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            m.apply(&mut s, mv);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    checked
}

#[test]
fn three_mens_morris_search_matches_the_placing_units() {
    // Lines end the game: the placing phase decides it.
    assert!(agrees_with_the_placing_units(crate::common::machine("three-mens-morris"), 100) > 300);
}

#[test]
fn five_mens_morris_search_matches_the_placing_units() {
    assert!(agrees_with_the_placing_units(crate::common::machine("five-mens-morris"), 100) > 500);
}

#[test]
fn six_mens_morris_search_matches_the_placing_units() {
    // A draw (every first move too), with captures in the placing phase.
    assert!(agrees_with_the_placing_units(crate::common::machine("six-mens-morris"), 200) > 1000);
}

#[test]
fn moves_while_pieces_wait_in_hand_are_refused() {
    // Lasker's slides during the placing phase make it cyclic: the
    // search's table would not be sound, so it says to solve the units.
    let m = crate::common::test_machine("three-mens-lasker");
    let dir = moving_phase(&m, "lasker");
    let e = search_opening(&m, &dir, 1 << 20, 1, |_| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains("places none") && e.contains("solve-game"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_moving_sector_is_named() {
    // Only the sectors of at most two pieces a side: the placing phase of
    // Six Men's Morris reaches more.
    let m = crate::common::machine("six-mens-morris");
    let dir = temp_dir("missing");
    morrigo_sector::solve_sectors(&m, Some(&dir), 0, 2, |_| {}).unwrap();
    let e = search_opening(&m, &dir, 1 << 20, 1, |_| {})
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("reaches moving-phase sector") && e.contains("solve-sectors"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
