//! The sector solve against the existing solver (morrigo-solve, explicit
//! move lists) position by position, against its own fixpoint equations
//! on every orbit, and across runs (files resumed, damage refused).

use morrigo_engine::{Bits, Machine};
use morrigo_sector::solver::BOTH;
use morrigo_sector::{Board, Moves, Sector, SectorIndex, Solver};
use morrigo_solve::Value;

/// Compare every position of units `units` that the existing table holds.
fn compare_with_table(
    m: &Machine<1>,
    table: &morrigo_solve::Table,
    s: &mut Solver,
    units: &[(u32, u32)],
) -> u64 {
    let n = m.points();
    let binom = morrigo_sector::Binomial::new(n);
    let mut compared = 0;
    for &(w, b) in units {
        s.solve(w, b).unwrap();
        let plain = SectorIndex::new(&binom, &s.group()[..1], n, w as usize, b as usize);
        for r in 0..plain.arrangements {
            let occ = plain.unrank(&binom, r);
            for to_move in 0..2u8 {
                let st = m.state_from(Bits([occ[0]]), Bits([occ[1]]), [0, 0], to_move);
                let Some(want) = table.value(&st.pos) else {
                    continue;
                };
                let got = Value::decode(s.value(&Board::moving(occ, to_move)).unwrap());
                assert_eq!(got, want, "sector {w}-{b}, {occ:?}, {to_move} to move");
                compared += 1;
            }
        }
    }
    compared
}

#[test]
fn three_mens_morris_moving_phase_matches_the_full_solve() {
    let m = crate::common::machine("three-mens-morris");
    let (table, _) =
        morrigo_solve::solve(&m, &m.initial(), u64::MAX, &morrigo_solve::Quiet).unwrap();
    let mut s = Solver::new(&m, None).unwrap();
    let compared = compare_with_table(&m, &table, &mut s, &[(3, 3)]);
    // Every 3-3 position is reachable from the start (C(9,3)·C(6,3) = 1680
    // arrangements, both sides to move), bar the ones with two lines.
    assert!(compared > 2500, "{compared} positions compared");
}

#[test]
fn six_mens_morris_matches_the_solve_from_a_four_against_four_position() {
    let m = crate::common::machine("six-mens-morris");
    let mut rng = crate::common::rng(6);
    let mut mv = Moves::new(&m);
    let mut succ = Vec::new();
    // A 4-4 position where the game goes on.
    let start = loop {
        let b = crate::common::random_board(&mut rng, m.points(), 4, 4);
        if mv.successors(&b, &mut succ).is_none() {
            break b;
        }
    };
    let st = m.state_from(
        Bits([start.occ[0]]),
        Bits([start.occ[1]]),
        [0, 0],
        start.to_move,
    );
    let (table, stats) = morrigo_solve::solve(&m, &st, u64::MAX, &morrigo_solve::Quiet).unwrap();
    let mut s = Solver::new(&m, None).unwrap();
    let compared = compare_with_table(
        &m,
        &table,
        &mut s,
        &[(4, 4), (4, 3), (3, 4), (3, 3), (3, 2), (2, 3)],
    );
    // The table also holds the positions owing a removal; the rest are here.
    assert!(
        compared * 3 > stats.reachable,
        "{compared} of {} compared",
        stats.reachable
    );
}

/// Every orbit of unit `c` (both halves): the stored value is what its
/// successors' values give (the retrograde equations), read forward over
/// the engine ([`Solver::check_orbits`]).
fn check_fixpoint(s: &mut Solver, c: Sector) -> [u64; 3] {
    s.solve_sector(c, BOTH).unwrap();
    let orbits = s.values(c).unwrap().0.orbits;
    let all: Vec<u64> = (0..orbits).collect();
    s.check_orbits(c, &all).unwrap_or_else(|e| panic!("{e}"))
}

/// The check finds a value one ply off, in a file sealed afresh (so only
/// the equations can tell).
#[test]
fn a_wrong_value_is_found_by_the_equations() {
    use std::io::Write;
    let m = crate::common::machine("six-mens-morris");
    let dir = std::env::temp_dir().join(format!("morrigo-sector-wrong-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let c = Sector::moving(3, 3);
    Solver::new(&m, Some(&dir))
        .unwrap()
        .solve_sector(c, BOTH)
        .unwrap();
    let path = dir.join("w3-b3.sec");
    let kind = morrigo_sector::solver::KIND;
    let mut bytes = morrigo_store::read_sealed(&path, &kind, 1 << 30).unwrap();
    // The first win in more than 0 plies after the 37-byte header: a win
    // in d + 1 plies instead (2d + 1 -> 2d + 3).
    let at = 37
        + bytes[37..]
            .iter()
            .position(|&b| b % 2 == 1 && b > 1 && b < 250)
            .unwrap();
    bytes[at] += 2;
    let file = morrigo_store::AtomicFile::create(&path).unwrap();
    let mut w = morrigo_store::SealedWriter::new(&kind, file);
    w.write_all(&bytes).unwrap();
    w.finish().unwrap().commit().unwrap();
    let mut s = Solver::new(&m, Some(&dir)).unwrap();
    assert_eq!(s.load_sector(c).unwrap(), Some(BOTH));
    let orbits = s.values(c).unwrap().0.orbits;
    let all: Vec<u64> = (0..orbits).collect();
    let e = s.check_orbits(c, &all).unwrap_err();
    assert!(e.to_string().contains("but its successors give"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn nine_mens_morris_three_against_three_satisfies_the_equations() {
    let m = crate::common::machine("nine-mens-morris");
    let mut s = Solver::new(&m, None).unwrap();
    let [wins, losses, draws] = check_fixpoint(&mut s, Sector::moving(3, 3));
    assert!(
        wins > 0 && losses > 0 && draws > 0,
        "{wins} {losses} {draws}"
    );
    // With flying, the player to move wins most 3-3 positions.
    let st = s.log.iter().find(|x| (x.w, x.b) == (3, 3)).unwrap();
    assert_eq!(st.positions, 2 * 2_691_920);
    assert_eq!(st.wins + st.losses + st.draws, st.positions);
}

#[test]
fn six_mens_morris_five_against_four_satisfies_the_equations() {
    let m = crate::common::machine("six-mens-morris");
    let mut s = Solver::new(&m, None).unwrap();
    check_fixpoint(&mut s, Sector::moving(5, 4));
}

/// A unit with pieces in hand where placements leave it and nothing
/// stays: each value is its best placement's.
#[test]
fn six_mens_morris_placing_unit_satisfies_the_equations() {
    let m = crate::common::machine("six-mens-morris");
    let mut s = Solver::new(&m, None).unwrap();
    let c = Sector {
        on_board: [4, 3],
        in_hand: [2, 2],
    };
    let [wins, losses, draws] = check_fixpoint(&mut s, c);
    assert!(
        wins > 0 && losses > 0 && draws > 0,
        "{wins} {losses} {draws}"
    );
}

/// Lasker's way: with pieces in hand a player may slide instead of place,
/// so a unit with pieces in hand has moves inside it (and cycles), solved
/// by the same retrograde levels as the moving phase.
#[test]
fn lasker_units_with_pieces_in_hand_satisfy_the_equations() {
    let m = crate::common::test_machine("five-mens-lasker");
    let mut s = Solver::new(&m, None).unwrap();
    for (on_board, in_hand) in [([3, 3], [1, 1]), ([2, 3], [2, 1])] {
        let c = Sector { on_board, in_hand };
        let [wins, losses, draws] = check_fixpoint(&mut s, c);
        assert!(
            wins + losses > 0 && draws > 0,
            "{c}: {wins} {losses} {draws}"
        );
    }
}

#[test]
fn finished_sectors_are_read_back_and_damage_is_refused() {
    let m = crate::common::machine("six-mens-morris");
    let dir = std::env::temp_dir().join(format!("morrigo-sector-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let first = morrigo_sector::solve_sectors(&m, Some(&dir), 3, 4, |_| {}).unwrap();
    assert!(first.iter().all(|s| !s.loaded));
    let again = morrigo_sector::solve_sectors(&m, Some(&dir), 3, 4, |_| {}).unwrap();
    let wanted: Vec<_> = again.iter().filter(|s| s.w >= 3 && s.b >= 3).collect();
    assert!(
        wanted.iter().all(|s| s.loaded),
        "a rerun reads the finished sectors"
    );
    for s in &wanted {
        let f = first.iter().find(|x| (x.w, x.b) == (s.w, s.b)).unwrap();
        assert_eq!(
            (s.wins, s.losses, s.draws, s.longest_win),
            (f.wins, f.losses, f.draws, f.longest_win)
        );
    }
    // A flipped byte is refused with the file's name.
    let path = dir.join("w4-b4.sec");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[40] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let err = morrigo_sector::solve_sectors(&m, Some(&dir), 3, 4, |_| {}).unwrap_err();
    assert!(err.to_string().contains("w4-b4.sec"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Rules that treat the players alike solve unit (w, b), w < b, by reading
/// unit (b, w) with the colours swapped: the same values as solving it.
#[test]
fn colour_swapped_units_equal_solved_ones() {
    let m = crate::common::machine("six-mens-morris");
    let mut swapped = Solver::new(&m, None).unwrap();
    assert!(
        swapped.colour_swap(),
        "Six Men's Morris treats the players alike"
    );
    let mut solved = Solver::new(&m, None).unwrap();
    solved.set_colour_swap(false);
    for (w, b) in [(3, 4), (4, 6), (2, 5)] {
        swapped.solve(w, b).unwrap();
        solved.solve(w, b).unwrap();
        assert_eq!(
            swapped.values(Sector::moving(w, b)).unwrap().1,
            solved.values(Sector::moving(w, b)).unwrap().1,
            "unit {w}-{b}"
        );
    }
}

/// A rule naming a colour (`me == white`) makes the players unlike.
#[test]
fn a_rule_naming_a_colour_keeps_the_colours_apart() {
    let rules = |name| crate::common::rules(name);
    let plain = |r: &morrigo_rules::Rules| {
        Machine::<1>::new(std::sync::Arc::new(morrigo_solve::solver_rules(r))).plain_turns()
    };
    let nmm = rules("nine-mens-morris");
    assert!(morrigo_sector::colour_blind(&nmm, plain(&nmm)));
    let dsq = rules("da-san-qi");
    assert!(!morrigo_sector::colour_blind(&dsq, plain(&dsq)));
}

/// `solve-sectors --hands`: every unit with at most N pieces a side on the
/// board and in hand, both sides to move. On Three Men's Morris played
/// Lasker's way (slides while pieces wait in hand) with N = 3 that is
/// the whole game: each unit the game solves in full has the same counts
/// and digest, the start is the game's first-player win in 11, and the
/// plan lists every unit once, lowest totals first.
#[test]
fn units_with_hands_up_to_n_a_side_equal_the_whole_game() {
    let m = crate::common::test_machine("three-mens-lasker");
    let plan = morrigo_sector::unit_plan(&m, 0, 3);
    let pieces = |c: &Sector| c.on_board[0] + c.on_board[1] + c.in_hand[0] + c.in_hand[1];
    // Totals (w + x, b + y) of 0..=3 each, every split of each total between
    // board and hand (a board of 9 points holds them all).
    let want: u32 = (0..=3u32)
        .flat_map(|w| (0..=3u32).map(move |b| (w + 1) * (b + 1)))
        .sum();
    assert_eq!(plan.len(), want as usize);
    assert!(plan.windows(2).all(|p| pieces(&p[0]) <= pieces(&p[1])));
    let units = morrigo_sector::solve_units(&m, None, 0, 3, |_| {}).unwrap();
    assert_eq!(units.len(), plan.len());
    let mut whole = Vec::new();
    let game = morrigo_sector::GameTable::solve_with(&m, None, |st| whole.push(*st)).unwrap();
    let same = |st: &morrigo_sector::SectorStats| morrigo_sector::SectorStats {
        millis: 0,
        loaded: false,
        ..*st
    };
    let mut compared = 0;
    for st in whole.iter().filter(|st| st.halves == BOTH) {
        let mine = units
            .iter()
            .find(|u| (u.w, u.b, u.in_hand) == (st.w, st.b, st.in_hand))
            .expect("the plan has every unit");
        assert_eq!(same(mine), same(st), "{}-{} +{:?}", st.w, st.b, st.in_hand);
        compared += 1;
    }
    assert!(compared >= 8, "{compared} units compared");
    let start = units
        .iter()
        .find(|u| (u.w, u.b, u.in_hand) == (0, 0, [3, 3]))
        .expect("the start's unit");
    assert_eq!(game.start_value(), Value::Win(11));
    assert_eq!((start.wins, start.positions, start.longest_win), (2, 2, 11));
}
