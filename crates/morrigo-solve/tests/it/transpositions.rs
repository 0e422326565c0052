//! The transposition-table search (`go`) against the plain full-history
//! search (`history`), which keeps no table and reads the whole history at
//! every node: both must give the same value, the same value of every
//! first move and the same bounds, pass for pass, on every Go built-in and
//! every board the plain search finishes.

use morrigo_engine::{with_machine, AnyMachine, Move};
use morrigo_rules::load::Overrides;
use morrigo_rules::{builtin, Rules};
use morrigo_solve::go::{solve_tt, solve_tt_with, ClassWindow, KeySpec, TtOptions};
use morrigo_solve::history::{solve_history, HistorySolution, Limits, SolveError};
use std::sync::Arc;

fn rules(name: &str, size: (u32, u32), komi: f64) -> Rules {
    try_rules(name, size, Some(komi)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A ruleset with komi where it counts (rulesets without scoring take none).
fn try_rules(name: &str, size: (u32, u32), komi: Option<f64>) -> Result<Rules, String> {
    morrigo_rules::load_rules_with(
        name,
        &Overrides {
            size: Some(size),
            komi,
        },
    )
    .map_err(|e| format!("{e:?}"))
}

fn go_builtins() -> Vec<&'static str> {
    builtin::family("go").map(|b| b.name).collect()
}

/// Plain and transposition solves of the position after `moves` (the
/// plain one `None` when it is refused or runs out of budget; the table
/// search gets the default node budget and the same ply cap).
fn both(
    rules: Rules,
    moves: &[Move],
    limits: &Limits,
) -> (Option<HistorySolution>, HistorySolution) {
    let spec = KeySpec::of(&rules).unwrap_or_else(|e| panic!("{e}"));
    let any = AnyMachine::new(Arc::new(rules)).expect("tiny board");
    with_machine!(&any, m => {
        let mut s = m.initial();
        for &mv in moves {
            m.apply(&mut s, mv);
        }
        let plain = solve_history(m, &s, limits).ok();
        let tt_limits = Limits { max_nodes: Limits::default().max_nodes, ..*limits };
        let tt = solve_tt(m, spec, moves, &tt_limits).expect("the table search finishes");
        (plain, tt)
    })
}

fn assert_same(what: &str, plain: &HistorySolution, tt: &HistorySolution) {
    if plain.all_exact() && tt.all_exact() {
        assert_eq!(plain.value, tt.value, "{what}: value");
        assert_eq!(plain.moves, tt.moves, "{what}: first moves");
        return;
    }
    assert_eq!(plain.value, tt.value, "{what}: value");
    assert_eq!(plain.moves, tt.moves, "{what}: first moves");
    assert_eq!(plain.bounds, tt.bounds, "{what}: bounds");
    assert_eq!(
        plain.move_bounds, tt.move_bounds,
        "{what}: first moves' bounds"
    );
    assert_eq!(plain.max_plies, tt.max_plies, "{what}: ply cap");
}

/// The line a solve reports is played out legally and ends as reported,
/// with the value the solve gives (when it ends by a count).
fn assert_line_plays(what: &str, rules: &Rules, sol: &HistorySolution) {
    if !sol.exact() {
        return;
    }
    let any = AnyMachine::new(Arc::new(rules.clone())).expect("tiny board");
    with_machine!(&any, m => {
        let mut s = m.initial();
        let mut moves = Vec::new();
        for &mv in &sol.line {
            assert!(m.legal_moves(&s, &mut moves).is_none(), "{what}: line goes on after the end");
            assert!(moves.contains(&mv), "{what}: {mv:?} is not legal in the line");
            m.apply(&mut s, mv);
        }
        let end = m.legal_moves(&s, &mut moves);
        assert_eq!(end, sol.end, "{what}: line end");
        if let Some(o) = end {
            assert_eq!(
                morrigo_solve::history::outcome_value(m, &s, &o),
                sol.value,
                "{what}: the line's end is worth the value"
            );
        }
    });
}

/// Transposition search = plain search on 2x1, 3x1 and 2x2 for every Go
/// built-in, komi 0 and 0.5 (Chinese 2x2 has cycles: both give the same
/// bounds at the caps the plain search finishes).
#[test]
fn table_search_equals_plain_search_on_tiny_boards() {
    let limits = Limits {
        max_nodes: 3_000_000,
        max_plies: 64,
        ..Limits::default()
    };
    let mut beyond_plain = Vec::new();
    let mut with_answers = 0;
    for name in go_builtins() {
        for size in [(2, 1), (3, 1), (2, 2)] {
            for komi in [0.0, 0.5] {
                let what = format!("{name} {}x{} komi {komi}", size.0, size.1);
                let Ok(r) =
                    try_rules(name, size, Some(komi)).or_else(|_| try_rules(name, size, None))
                else {
                    panic!("{what}: does not load");
                };
                let (plain, tt) = both(r.clone(), &[], &limits);
                match &plain {
                    Some(plain) => assert_same(&what, plain, &tt),
                    None => {
                        beyond_plain.push(what.clone());
                        // AGA is area-equivalent (pass stones): Tromp-Taylor's
                        // B+1; the multi-stone suicide variant draws like the
                        // other JK rules (the plain search finds it with its
                        // default budget); Chinese cycles between W+4 and B+4.
                        let expected = match (name, komi == 0.0) {
                            ("aga", true) => (1.0, None),
                            ("aga", false) => (0.5, None),
                            ("jk-suicide-multi", _) => (0.0, None),
                            ("chinese", true) => (0.0, Some((-4.0, 4.0))),
                            ("chinese", false) => (0.0, Some((-4.5, 3.5))),
                            _ => panic!("{what}: the plain search does not finish"),
                        };
                        assert_eq!((tt.value, tt.bounds), expected, "{what}");
                    }
                }
                assert_line_plays(&what, &r, &tt);
                let stats = tt.tt.expect("table statistics");
                assert!(stats.stores > 0 || tt.nodes < 10, "{what}: nothing stored");
                with_answers += stats.stored_with_answers;
            }
        }
    }
    // Tainted entries kept with their boards' answers were used above, so
    // the equalities checked them too.
    assert!(with_answers > 100, "{with_answers} entries with answers");
    // Where the plain search gives up, the table search still answers:
    // AGA (situational superko with pass stones) and jk-suicide-multi are
    // exact, Chinese (simple ko: cycles) is bracketed.
    assert_eq!(
        beyond_plain,
        ["aga", "chinese", "jk-suicide-multi"]
            .iter()
            .flat_map(|n| [format!("{n} 2x2 komi 0"), format!("{n} 2x2 komi 0.5")])
            .collect::<Vec<_>>()
    );
}

/// The same from positions with a history: every position reached in up to
/// 4 plies on 2x2 under the rulesets whose keys hold the most (superko,
/// board occurrences with Art. 3.3, derived D runs, situational superko),
/// so the skeleton and the look-back start from a path, not the empty board.
#[test]
fn table_search_equals_plain_search_after_every_opening() {
    let limits = Limits {
        max_nodes: 3_000_000,
        max_plies: 64,
        ..Limits::default()
    };
    for name in ["tromp-taylor", "new-zealand", "jk-final", "japanese"] {
        let r = rules(name, (2, 2), 0.0);
        let any = AnyMachine::new(Arc::new(r.clone())).expect("tiny board");
        let mut openings: Vec<Vec<Move>> = vec![Vec::new()];
        with_machine!(&any, m => {
            let mut frontier = openings.clone();
            for _ in 0..2 {
                let mut next = Vec::new();
                for seq in &frontier {
                    let mut s = m.initial();
                    seq.iter().for_each(|&mv| {
                        m.apply(&mut s, mv);
                    });
                    let mut moves = Vec::new();
                    if m.legal_moves(&s, &mut moves).is_none() {
                        next.extend(moves.into_iter().map(|mv| [seq.clone(), vec![mv]].concat()));
                    }
                }
                openings.extend(next.iter().cloned());
                frontier = next;
            }
        });
        let mut compared = 0;
        for seq in &openings {
            let (plain, tt) = both(r.clone(), seq, &limits);
            // Where the plain search is refused (its estimate over budget),
            // there is nothing to compare with.
            if let Some(plain) = plain {
                assert_same(&format!("{name} 2x2 after {seq:?}"), &plain, &tt);
                compared += 1;
            }
        }
        assert!(
            compared * 3 >= openings.len() * 2,
            "{name}: {compared} of {} compared",
            openings.len()
        );
    }
}

/// The key of every Go built-in holds what its rules read, derived from the
/// compiled rules.
#[test]
fn key_specs_follow_the_rules() {
    let spec = |name: &str| KeySpec::of(&try_rules(name, (2, 2), None).unwrap()).expect("a Go key");
    let tt = spec("tromp-taylor");
    assert_eq!(tt.classes, ClassWindow::Last(2), "after('P P')");
    assert_eq!(tt.superko, morrigo_rules::Superko::Positional);
    assert!(!tt.prisoners && !tt.lookback && !tt.occurrences, "{tt:?}");
    let jk = spec("jk-final");
    assert_eq!(jk.classes, ClassWindow::Whole, "patterns naming D");
    assert!(
        jk.lookback
            && jk.ko_runs
            && jk.occurrences
            && jk.occurrence_captures
            && jk.prisoners
            && jk.turn0,
        "{jk:?}"
    );
    let japanese = spec("japanese");
    assert!(
        japanese.occurrences && !japanese.occurrence_captures && japanese.lookback,
        "{japanese:?}"
    );
    assert_eq!(
        spec("new-zealand").superko,
        morrigo_rules::Superko::Situational
    );
    let nogo = spec("nogo");
    assert_eq!(nogo.classes, ClassWindow::None);
    assert!(!nogo.reads_boards());
    // A ruleset reading the turn number cannot be keyed by position.
    let text = "\
name: turn-limit
board:
  grid: { width: 2, height: 1 }
players: [black, white]
setup:
  in_hand: unlimited
phases:
  play:
    actions:
      play: true
      pass: true
play:
  suicide: illegal
passes:
  kinds: [P]
end:
  long:
    draw: \"turn >= 10\"
";
    let r = morrigo_rules::rules_from_text("turn-limit.yaml", text).expect("a valid ruleset");
    let why = KeySpec::of(&r).expect_err("turn is not keyed");
    assert!(why.contains("Turn"), "{why}");
}

/// Tromp's 2x2 under area scoring and positional superko: B+1; his
/// search, passes tried first, needs 1,446 nodes for the value alone. The
/// table search, which also values every first move, stays within twice
/// that (the target; 1,416 when this was written, against the plain
/// search's 12,497), and positions symmetric on the board share entries
/// (6,030 nodes without).
#[test]
fn tromp_taylor_2x2_within_twice_tromps_node_count() {
    let r = rules("tromp-taylor", (2, 2), 0.0);
    let spec = KeySpec::of(&r).expect("a Go key");
    let any = AnyMachine::new(Arc::new(r)).expect("tiny board");
    let (with, without) = with_machine!(&any, m => {
        let limits = Limits::default();
        let with = solve_tt_with(m, spec, &[], &limits, TtOptions::default(), &mut |_| {}).expect("solves");
        let without = solve_tt_with(m, spec, &[], &limits, TtOptions { symmetry: false, ..TtOptions::default() }, &mut |_| {}).expect("solves");
        (with, without)
    });
    assert_eq!((with.value, without.value), (1.0, 1.0));
    assert_eq!(with.moves, without.moves);
    assert!(with.nodes <= 2 * 1_446, "{} nodes", with.nodes);
    assert!(
        with.nodes < without.nodes,
        "{} against {}",
        with.nodes,
        without.nodes
    );
}

/// The table search's value of an empty board (komi 0) and of every first
/// move in generation order, all of them exact within the default budget.
fn exact_from_the_start(name: &str, size: (u32, u32)) -> (f64, Vec<f64>) {
    let r = rules(name, size, 0.0);
    let spec = KeySpec::of(&r).expect("a Go key");
    let any = AnyMachine::new(Arc::new(r)).expect("small board");
    let sol = with_machine!(&any, m => {
        solve_tt(m, spec, &[], &Limits::default()).expect("solves within the default budget")
    });
    assert!(sol.all_exact(), "{name} {size:?}: not exact");
    (sol.value, sol.moves.iter().map(|(_, v)| *v).collect())
}

/// The literature's 2x3 value under area scoring with positional superko
/// (van der Werf's table of small boards: 0 with komi 0): chinese-superko
/// 3x2 is a draw, reached only by passing; the centre points lose by 2 and
/// the corners by 6. (3x3, B+9 with the centre, takes 10.6M nodes with
/// every first move valued: a documented command in the book, not a test.)
#[test]
fn chinese_superko_3x2_is_van_der_werfs_draw() {
    let (value, first_moves) = exact_from_the_start("chinese-superko", (3, 2));
    assert_eq!(value, 0.0);
    // A1 B1 C1 A2 B2 C2 pass, in generation order.
    assert_eq!(first_moves, [-6.0, -2.0, -6.0, -6.0, -2.0, -6.0, 0.0]);
}

/// Transposition search = plain search from random positions of 2x2 and
/// 3x2 (random legal openings of 2 to 15 plies, fixed seed) under the
/// rulesets whose keys carry the skeleton: positional and situational
/// superko, board occurrences (Japanese long cycle, JK Art. 3.3).
#[test]
fn table_search_equals_plain_search_from_random_positions() {
    let limits = Limits {
        max_nodes: 2_000_000,
        max_plies: 64,
        ..Limits::default()
    };
    let mut rng = 12_345u64;
    let mut pick = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    for name in ["tromp-taylor", "new-zealand", "japanese", "jk-final", "aga"] {
        for size in [(2, 2), (3, 2)] {
            let r = rules(name, size, 0.0);
            let spec = KeySpec::of(&r).expect("a Go key");
            let any = AnyMachine::new(Arc::new(r)).expect("tiny board");
            let mut compared = 0;
            with_machine!(&any, m => {
                for _ in 0..40 {
                    let plies = 2 + pick(14);
                    let mut s = m.initial();
                    let mut seq = Vec::new();
                    let mut moves = Vec::new();
                    for _ in 0..plies {
                        if m.legal_moves(&s, &mut moves).is_some() || moves.is_empty() {
                            break;
                        }
                        let mv = moves[pick(moves.len())];
                        m.apply(&mut s, mv);
                        seq.push(mv);
                    }
                    let Ok(plain) = solve_history(m, &s, &limits) else {
                        continue;
                    };
                    let tt = solve_tt(m, spec, &seq, &Limits { max_nodes: 100_000_000, ..limits })
                        .expect("the table search finishes");
                    assert_same(&format!("{name} {size:?} after {seq:?}"), &plain, &tt);
                    compared += 1;
                }
            });
            assert!(compared >= 10, "{name} {size:?}: only {compared} compared");
        }
    }
}

/// Linear Go (1x5) under Tromp-Taylor rules with suicide illegal and
/// positional superko, set up without history, black (x) to move: the
/// values of Hayward's exercises (University of Alberta course notes,
/// "solving go", linear Go exercises), by both searches. One exercise,
/// `x - o - -`, is listed there as 0 (x:4 o:2 x:1 o:2); both searches give
/// white +5, by o:5 after x:4: `x - o - o` leaves x only a pass (x:4
/// recreates a board, x:2 is suicide), and after o:4 and x:2's capture,
/// o:4 again leaves x no legal play before o:3 takes the rest.
#[test]
fn linear_go_exercises() {
    let cases: [(&str, &str, f64); 7] = [
        ("a1", "c1", -5.0), // listed as 0: see above
        ("c1", "a1", 5.0),
        ("a1", "d1", -5.0),
        ("d1", "a1", 5.0),
        ("", "a1", 5.0),
        ("", "b1", 0.0),
        ("", "c1", 0.0),
    ];
    for (black, white, value) in cases {
        let text = format!(
            "name: linear\nextends: tromp-taylor\nboard:\n  grid: {{ width: 5, height: 1 }}\nplay:\n  suicide: illegal\n\
             setup:\n  in_hand: unlimited\n  stones:\n    black: [{black}]\n    white: [{white}]\n  to_move: black\nscoring:\n  komi: 0\n"
        );
        let r = morrigo_rules::rules_from_text("linear.yaml", &text).expect("a valid ruleset");
        let (plain, tt) = both(r, &[], &Limits::default());
        let plain = plain.expect("the plain search finishes");
        assert_same(&format!("x at {black}, o at {white}"), &plain, &tt);
        assert_eq!(tt.value, value, "x at {black}, o at {white}");
    }
}

/// Ending lines on settled boards (Benson's unconditional life, counted as
/// they stand) is allowed exactly under the area rule sets whose passes
/// are never refused and whose games end only by two passes, and it
/// changes no value there: the game's, every first move's and the bounds
/// are those of the search without it, on every board up to 5x1 and 2x2
/// (chinese-superko also 3x2, where it ends lines early).
#[test]
fn settled_boards_change_no_value() {
    let allowed: Vec<&str> = go_builtins()
        .into_iter()
        .filter(|name| {
            let r = try_rules(name, (2, 2), None).expect("a built-in");
            morrigo_solve::go::settled_boards_end_lines(&r).is_ok()
        })
        .collect();
    assert_eq!(
        allowed,
        ["chinese-superko", "chinese", "new-zealand", "tromp-taylor"]
    );
    let limits = Limits {
        max_plies: 64,
        ..Limits::default()
    };
    let off = TtOptions {
        settled: false,
        ..TtOptions::default()
    };
    let mut boards: Vec<(&str, (u32, u32))> = allowed
        .iter()
        .flat_map(|&name| [(2, 1), (3, 1), (4, 1), (5, 1), (2, 2)].map(|size| (name, size)))
        .collect();
    boards.push(("chinese-superko", (3, 2)));
    for (name, size) in boards {
        let r = rules(name, size, 0.0);
        let spec = KeySpec::of(&r).expect("a Go key");
        let any = AnyMachine::new(Arc::new(r)).expect("small board");
        let (with, without) = with_machine!(&any, m => {
            let with = solve_tt(m, spec, &[], &limits).expect("solves");
            let without = solve_tt_with(m, spec, &[], &limits, off, &mut |_| {}).expect("solves");
            (with, without)
        });
        let what = format!("{name} {size:?}");
        assert_same(&what, &without, &with);
        let settled = with.tt.expect("table stats").settled;
        if size == (3, 2) {
            assert!(settled > 0, "{what}: Benson ended no line");
            assert!(
                with.nodes < without.nodes,
                "{what}: {} against {}",
                with.nodes,
                without.nodes
            );
        }
    }
}

/// The literature's 2x4 value under area scoring with positional superko
/// (van der Werf's table of small boards: black wins by 8, the whole
/// board): chinese-superko 4x2, the two centre points of either row win
/// by 8, the corners and a pass lose by 8.
#[test]
fn chinese_superko_4x2_is_van_der_werfs_black_by_8() {
    let (value, first_moves) = exact_from_the_start("chinese-superko", (4, 2));
    assert_eq!(value, 8.0);
    // A1 B1 C1 D1 A2 B2 C2 D2 pass, in generation order.
    assert_eq!(
        first_moves,
        [-8.0, 8.0, 8.0, -8.0, -8.0, 8.0, 8.0, -8.0, -8.0]
    );
}

/// A value-only root (`every_first_move` off) is one alpha-beta node: on
/// every Go built-in and tiny board it gives the full search's value and
/// bounds, reports one best move whose full-search value is the game's,
/// counts the others as refuted, and on chinese-superko 3x2 searches a
/// fraction of the nodes (the root's move order differs, so a tiny board
/// may take a node or two more).
#[test]
fn value_only_root_keeps_the_value_and_best_move() {
    let limits = Limits {
        max_plies: 64,
        ..Limits::default()
    };
    let value_only = TtOptions {
        every_first_move: false,
        ..TtOptions::default()
    };
    let mut cases: Vec<(String, Rules)> = Vec::new();
    for name in go_builtins() {
        for size in [(2, 1), (3, 1), (2, 2)] {
            let r = try_rules(name, size, Some(0.0))
                .or_else(|_| try_rules(name, size, None))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            cases.push((format!("{name} {}x{}", size.0, size.1), r));
        }
    }
    cases.push((
        "chinese-superko 3x2".into(),
        rules("chinese-superko", (3, 2), 0.0),
    ));
    for (what, r) in cases {
        let spec = KeySpec::of(&r).expect("a Go key");
        let any = AnyMachine::new(Arc::new(r)).expect("small board");
        let (full, only) = with_machine!(&any, m => {
            let full = solve_tt(m, spec, &[], &limits).expect("solves");
            let only = solve_tt_with(m, spec, &[], &limits, value_only, &mut |_| {}).expect("solves");
            (full, only)
        });
        assert_eq!(
            (only.value, only.bounds),
            (full.value, full.bounds),
            "{what}: value"
        );
        assert_eq!(full.refuted, None, "{what}");
        if full.moves.is_empty() {
            assert!(only.moves.is_empty(), "{what}");
            continue;
        }
        let [(best, v)] = only.moves[..] else {
            panic!("{what}: one best move, got {:?}", only.moves);
        };
        assert_eq!(v, only.value, "{what}: the best move's value is the game's");
        if full.all_exact() {
            let (_, full_v) = full
                .moves
                .iter()
                .find(|(mv, _)| *mv == best)
                .expect("a legal first move");
            assert_eq!(
                *full_v, full.value,
                "{what}: {best:?} is a best move of the full search"
            );
        }
        assert_eq!(only.refuted, Some(full.moves.len() - 1), "{what}: refuted");
        if what == "chinese-superko 3x2" {
            // Well under two thirds: the other first moves are only refuted.
            assert!(
                only.nodes * 3 < full.nodes * 2,
                "{what}: {} nodes against {}",
                only.nodes,
                full.nodes
            );
        }
    }
}

/// The line a value-only solve shows is perfect play: after every prefix
/// of it, the full search from that position (the history kept) gives the
/// game's value, so no move of the line, Black's or White's, gives any of
/// it away (the null windows prove the value; the line is proved move by
/// move, `go::search::value_only`).
#[test]
fn value_only_line_keeps_the_value_at_every_move() {
    let value_only = TtOptions {
        every_first_move: false,
        ..TtOptions::default()
    };
    let mut cases: Vec<(String, Rules)> = Vec::new();
    for name in go_builtins() {
        if let Ok(r) = try_rules(name, (2, 2), Some(0.0)) {
            cases.push((format!("{name} 2x2"), r));
        }
    }
    for (name, size) in [("japanese", (3, 2)), ("chinese-superko", (3, 2))] {
        cases.push((
            format!("{name} {}x{}", size.0, size.1),
            rules(name, size, 0.0),
        ));
    }
    let mut long_lines = 0;
    for (what, r) in cases {
        let spec = KeySpec::of(&r).expect("a Go key");
        let any = AnyMachine::new(Arc::new(r)).expect("small board");
        with_machine!(&any, m => {
            let only = solve_tt_with(m, spec, &[], &Limits::default(), value_only, &mut |_| {})
                .expect("solves");
            // Values bounded at every cap (chinese 2x2) have no perfect line.
            let checked = if only.exact() { only.line.len() } else { 0 };
            long_lines += usize::from(checked >= 5);
            for n in 1..=checked {
                let after = solve_tt(m, spec, &only.line[..n], &Limits::default()).expect("solves");
                assert!(after.exact(), "{what} after {n} moves");
                assert_eq!(
                    after.value, only.value,
                    "{what}: the line's move {n} ({:?}) gives value away",
                    only.line[n - 1]
                );
            }
        });
    }
    assert!(long_lines >= 3, "lines with play to check: {long_lines}");
}

/// Where settled boards end lines, a line cut at the ply cap counts the
/// points each player holds for good (Benson) in the passes that bound the
/// game's value, instead of a loss or a win: at every cap the bounds lie
/// inside those of the search that counts cut lines lost and won, still
/// hold the game's value, and they meet at a lower cap.
#[test]
fn cut_lines_count_the_points_held_for_good() {
    let off = TtOptions {
        settled: false,
        ..TtOptions::default()
    };
    let (name, size) = ("chinese-superko", (3, 2));
    let r = rules(name, size, 0.0);
    let spec = KeySpec::of(&r).expect("a Go key");
    let any = AnyMachine::new(Arc::new(r)).expect("small board");
    let solve = |max_plies: u32, options: TtOptions| {
        let limits = Limits {
            max_plies,
            ..Limits::default()
        };
        with_machine!(&any, m => {
            solve_tt_with(m, spec, &[], &limits, options, &mut |_| {}).expect("solves")
        })
    };
    let game = solve(64, TtOptions::default());
    assert!(game.exact(), "{name}");
    // Both are exact at 23 plies; only the held points make 21 enough.
    for cap in [8, 12, 16, 21] {
        let (on, plain) = (solve(cap, TtOptions::default()), solve(cap, off));
        let within = |sol: &morrigo_solve::history::HistorySolution| {
            sol.bounds.unwrap_or((sol.value, sol.value))
        };
        let ((lo, hi), (plain_lo, plain_hi)) = (within(&on), within(&plain));
        assert!(
            plain_lo <= lo && lo <= game.value && game.value <= hi && hi <= plain_hi,
            "{name} at {cap} plies: {lo}..{hi} against {plain_lo}..{plain_hi}, game {}",
            game.value
        );
        if cap == 21 {
            assert!(on.exact() && !plain.exact(), "{name} at {cap} plies");
        }
    }
}

/// A wall over a straight four lives by answers (the eye space counts as
/// two eyes where its owner answers, `Machine::life_with_answers`): on
/// 6x2, white to move, the board is black's (B+12), every first move's
/// value exact. White's plays in the four are answered by a cut point,
/// after which black has two eyes and the intruder is captured.
#[test]
fn a_wall_over_a_straight_four_is_black_by_12() {
    for name in ["tromp-taylor", "chinese-superko"] {
        let text = format!(
            "name: wall\nextends: {name}\nboard:\n  grid: {{ width: 6, height: 2 }}\n\
             setup:\n  in_hand: unlimited\n  stones:\n    black: [A1, F1, A2, B2, C2, D2, E2, F2]\n    white: []\n  to_move: white\nscoring:\n  komi: 0\n"
        );
        let r = morrigo_rules::rules_from_text("wall.yaml", &text).expect("a valid ruleset");
        let spec = KeySpec::of(&r).expect("a Go key");
        let any = AnyMachine::new(Arc::new(r)).expect("small board");
        let sol =
            with_machine!(&any, m => solve_tt(m, spec, &[], &Limits::default()).expect("solves"));
        assert!(sol.all_exact(), "{name}");
        assert_eq!(sol.value, 12.0, "{name}");
        assert!(
            sol.moves.iter().all(|&(_, v)| v == 12.0),
            "{name}: {:?}",
            sol.moves
        );
    }
}

/// The value-only solve (`every_first_move` off) of `r` from the start.
fn solve_value_only(r: &Rules, limits: &Limits) -> Result<HistorySolution, SolveError> {
    let value_only = TtOptions {
        every_first_move: false,
        ..TtOptions::default()
    };
    let spec = KeySpec::of(r).expect("a Go key");
    let any = AnyMachine::new(Arc::new(r.clone())).expect("small board");
    with_machine!(&any, m => solve_tt_with(m, spec, &[], limits, value_only, &mut |_| {}))
}

/// Van der Werf's values past 3x2 by value only (release: 3x3 263,695
/// nodes / 0.3 s, 5x2 574,961 / 0.6 s): chinese-superko 3x3 is B+9 with the
/// centre, 5x2 B+10 with a centre point.
#[test]
fn chinese_superko_3x3_and_5x2_by_value_only_root() {
    // On 5x2 the two centre points are one point up to the board's symmetry.
    for (size, value, best) in [((3, 3), 9.0, &["B2"][..]), ((5, 2), 10.0, &["C1", "C2"])] {
        let r = rules("chinese-superko", size, 0.0);
        let sol = solve_value_only(&r, &Limits::default()).expect("solves");
        assert!(sol.exact(), "{size:?}");
        assert_eq!(sol.value, value, "{size:?}");
        let moves: Vec<String> = sol
            .moves
            .iter()
            .map(|(mv, _)| morrigo_engine::notation::format_move_in(&r, mv))
            .collect();
        assert!(
            moves.len() == 1 && best.contains(&moves[0].as_str()),
            "{size:?}: {moves:?}"
        );
    }
}

/// Both searches report each ply cap as its search finishes (what a
/// progress display prints, so a long run stopped early keeps them): the
/// caps in order, the nodes growing, and the last cap's report is the
/// result's cap, value, bounds and nodes.
#[test]
fn each_cap_is_reported_as_it_finishes() {
    use morrigo_solve::history::{solve_history_with, CapReport, SolveProgress};
    // (ruleset, board, komi, ply cap, caps, plain search)
    let cases = [
        ("japanese", (5, 1), 6.5, 200, vec![16, 20], false),
        ("chinese", (5, 1), 6.5, 20, vec![16, 20], false),
        ("chinese", (2, 2), 7.5, 20, vec![16, 20], true),
    ];
    for (name, size, komi, max_plies, caps, plain) in cases {
        let r = rules(name, size, komi);
        let spec = KeySpec::of(&r).expect("a Go key");
        let any = AnyMachine::new(Arc::new(r)).expect("tiny board");
        let limits = Limits {
            max_plies,
            ..Limits::default()
        };
        let mut reports: Vec<CapReport> = Vec::new();
        let mut counts = 0;
        let mut seen = |p: SolveProgress| match p {
            SolveProgress::Nodes(_) => counts += 1,
            SolveProgress::CapDone(r) => reports.push(r),
        };
        let solved = with_machine!(&any, m => if plain {
            solve_history_with(m, &m.initial(), &limits, &mut seen)
        } else {
            solve_tt_with(m, spec, &[], &limits, TtOptions::default(), &mut seen)
        })
        .expect("solves");
        let what = format!("{name} {size:?} (plain: {plain})");
        let seen_caps: Vec<u32> = reports.iter().map(|r| r.cap).collect();
        assert_eq!(seen_caps, caps, "{what}");
        assert!(
            reports
                .windows(2)
                .all(|w| w[0].nodes < w[1].nodes && w[0].elapsed <= w[1].elapsed),
            "{what}: {reports:?}"
        );
        let last = reports.last().expect("a cap");
        assert_eq!(
            (last.cap, last.value, last.bounds, last.nodes),
            (solved.max_plies, solved.value, solved.bounds, solved.nodes),
            "{what}"
        );
        assert_eq!(last.cut_lines, solved.cut_lines, "{what}");
        let open = solved.move_bounds.iter().filter(|b| b.is_some()).count();
        assert_eq!(last.open_moves, open, "{what}");
        assert_eq!(
            counts as u64,
            solved.nodes / morrigo_solve::history::PROGRESS_EVERY,
            "{what}: node counts"
        );
    }
}

/// Van der Werf's 2x4 (black by 8, the whole board) under every rule set
/// with a finite game, by value only: the area rule sets give it, as
/// does every JK variant (the JK count equals the area count, Art. 4.4,
/// and no cycle arises once black's first stone stands), Japanese
/// territory scoring gives 5 (the stones do not count). jk-suicide-multi
/// is left out: a chain's suicide empties the board and the game goes
/// on, so it stays open within any budget a test can give (the book's
/// table). Release: 62K (chinese-superko) to 662K (aga) nodes a rule set.
#[test]
fn every_rule_set_gives_van_der_werfs_2x4() {
    let limits = Limits {
        max_nodes: 20_000_000,
        ..Limits::default()
    };
    // Every built-in with a finite, counted game: not chinese (endless
    // cycles), atari-go (the first capture wins), nogo (no count), nor
    // jk-suicide-multi (above).
    let names = [
        "tromp-taylor",
        "new-zealand",
        "aga",
        "chinese-superko",
        "japanese",
        "jk-final",
        "jk-12-4",
        "jk-12-6",
        "jk-d4-6",
        "jk-natural",
        "jk-no-move-loses",
        "jk-strict-end",
    ];
    for name in names {
        let sol = solve_value_only(&rules(name, (4, 2), 0.0), &limits)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(sol.all_exact(), "{name}: not exact");
        let expected = if name == "japanese" { 5.0 } else { 8.0 };
        assert_eq!(sol.value, expected, "{name}");
    }
}
