//! The full-history search checked against a plain minimax over the slow
//! Go reference (`morrigo-reference`, written independently of the
//! engine's chains, history and scoring), and against values worked out by
//! hand on the 2x1 board.

use morrigo_engine::{with_machine, AnyMachine, Move, MoveKind};
use morrigo_reference::go::RefGo;
use morrigo_rules::load::Overrides;
use morrigo_rules::{builtin, Rules, Verdict};
use morrigo_solve::history::{solve_history, HistorySolution, Limits, WIN};
use std::sync::Arc;

fn rules(name: &str, size: (u32, u32), komi: f64) -> Rules {
    morrigo_rules::load_rules_with(
        name,
        &Overrides {
            size: Some(size),
            komi: Some(komi),
        },
    )
    .unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

fn solve(rules: Rules, limits: &Limits) -> HistorySolution {
    let any = AnyMachine::new(Arc::new(rules)).expect("tiny board");
    with_machine!(&any, m => solve_history(m, &m.initial(), limits)).expect("solves")
}

/// Plain minimax (no pruning, no ordering) over the reference, with the
/// same conventions: counted games worth the score difference, other
/// endings ±WIN, a line cut after `max_plies` plies a draw.
fn ref_minimax(g: &RefGo, depth: u32, max_plies: u32, nodes: &mut u64) -> f64 {
    *nodes += 1;
    let (moves, outcome) = g.legal_moves();
    if let Some(o) = outcome {
        let counted = g.rules.end[o.rule as usize].verdict == Verdict::Score;
        if counted {
            let [a, b] = g.score();
            return a - b;
        }
        return match o.winner {
            Some(0) => WIN,
            Some(_) => -WIN,
            None => 0.0,
        };
    }
    if moves.is_empty() || depth >= max_plies {
        return 0.0;
    }
    let values = moves.iter().map(|&mv| {
        let mut next = g.clone();
        next.apply(mv);
        ref_minimax(&next, depth + 1, max_plies, nodes)
    });
    if g.to_move == 0 {
        values.fold(f64::NEG_INFINITY, f64::max)
    } else {
        values.fold(f64::INFINITY, f64::min)
    }
}

/// The reference's values of every first move, in the engine's move order.
fn ref_first_moves(rules: &Rules, max_plies: u32) -> Vec<(Move, f64)> {
    let g = RefGo::new(rules);
    let (moves, _) = g.legal_moves();
    let mut nodes = 0;
    moves
        .iter()
        .map(|&mv| {
            let mut next = g.clone();
            next.apply(mv);
            (mv, ref_minimax(&next, 1, max_plies, &mut nodes))
        })
        .collect()
}

fn sorted(mut v: Vec<(Move, f64)>) -> Vec<(Move, f64)> {
    v.sort_by_key(|(m, _)| (m.kind == MoveKind::Pass, m.to));
    v
}

/// Every built-in Go ruleset on 2x1 and 3x1, komi 0 and 0.5: the value of
/// every first move equals plain minimax over the reference. The ply cap is
/// the same on both sides (12 plies on 3x1 keeps the unpruned reference
/// tree small; lines cut there are draws on both sides).
#[test]
fn agrees_with_plain_minimax_over_the_reference() {
    for b in builtin::family("go") {
        // Komi is varied below: only rulesets that count the game.
        if morrigo_rules::load_rules(b.path).map_or(true, |r| r.scoring.is_none()) {
            continue;
        }
        for (size, max_plies) in [((2, 1), 40), ((3, 1), 12)] {
            for komi in [0.0, 0.5] {
                let r = rules(b.path, size, komi);
                let limits = Limits {
                    max_nodes: 10_000_000,
                    max_plies,
                    ..Limits::default()
                };
                let got = solve(r.clone(), &limits);
                let want = sorted(ref_first_moves(&r, max_plies));
                assert_eq!(
                    sorted(got.moves.clone()),
                    want,
                    "{} on {size:?}, komi {komi}",
                    b.name
                );
                let best = want.iter().map(|m| m.1);
                let best = best.fold(f64::NEG_INFINITY, f64::max);
                assert_eq!(got.value, best, "{} on {size:?}, komi {komi}", b.name);
            }
        }
    }
}

/// Values on the 2x1 board (points A1, B1), komi 0, worked out by hand.
///
/// Tromp-Taylor (area, positional superko, suicide legal, two passes end):
/// - black passes, white passes: an empty board, 0 to 0, a draw; so black
///   gets at least a draw;
/// - black A1: white B1 captures it (captures come before suicide), board
///   {W B1}; black A1 again would bring back the board {B A1}: superko
///   forbids it, so black can only pass, and white passes: white's stone and
///   the point it reaches, 2 to 0. No count gives more than 2 points, so
///   A1 is worth white +2 exactly; B1 likewise;
/// - after black's pass, white playing a stone loses 2 the same way, so
///   white passes: the value is a draw.
///
/// Chinese (simple ko, suicide illegal): the same lines; black's retake at
/// A1 is refused by simple ko (it brings back the board from before white's
/// last play) instead of superko.
///
/// JK final: black's A1, then white's B1 is a ko capture (each side has one
/// libertyless single stone); black's retake at A1 at once would recreate
/// the board of two moves back, which loses (Art. 3.2), and the reference
/// minimax above confirms that white keeps 2 more points however black
/// passes; passing at once (P or E) is a draw.
#[test]
fn two_by_one_values_worked_out_by_hand() {
    for name in ["tromp-taylor", "chinese", "jk-final"] {
        let r = solve(rules(name, (2, 1), 0.0), &Limits::default());
        assert_eq!(r.value, 0.0, "{name}: a draw");
        for (mv, v) in &r.moves {
            let want = if mv.kind == MoveKind::Pass { 0.0 } else { -2.0 };
            assert_eq!(*v, want, "{name}: {mv:?}");
        }
        assert_eq!(r.cut_lines, 0, "{name}: every line ends within the cap");
        assert!(r.exact());
    }
}

/// A line cut at the ply cap counts as a draw, and the report says whether
/// the value depends on that: on 3x1, simple ko forbids only the retake at
/// once, so some lines run past a 10-ply cap; black's B1 wins whatever they
/// are worth.
#[test]
fn cut_lines_are_reported_with_bounds_when_they_matter() {
    let cap = |max_plies| Limits {
        max_nodes: 1_000_000,
        max_plies,
        ..Limits::default()
    };
    let r = solve(rules("chinese", (3, 1), 0.0), &cap(10));
    assert!(r.cut_lines > 0);
    assert_eq!(r.value, 3.0);
    assert!(r.all_exact(), "{:?} {:?}", r.bounds, r.move_bounds);
    // Cut after 2 plies, nothing is known: the bounds span a loss to a win.
    let r = solve(rules("chinese", (3, 1), 0.0), &cap(2));
    assert_eq!(r.bounds, Some((-WIN, WIN)));
    assert!(!r.exact());
}

/// Chinese 2x2: simple ko lets play cycle, and each side can force either a
/// cycle or a 4-point win, so the value depends on how endless play is
/// counted (a draw if as a draw). The cap grows from 16 plies by a quarter
/// (20, 25, 31); when the 31-ply search runs out of budget the 25-ply
/// result is reported, with its bounds and the cap that ran out.
#[test]
fn a_deeper_cap_out_of_budget_keeps_the_last_finished_one() {
    let r = solve(
        rules("chinese", (2, 2), 0.0),
        &Limits {
            max_nodes: 1_000_000,
            max_plies: 32,
            ..Limits::default()
        },
    );
    assert_eq!(r.value, 0.0);
    assert_eq!(r.max_plies, 25);
    assert_eq!(r.stopped_at, Some(31));
    assert_eq!(r.bounds, Some((-4.0, 4.0)));
    assert_eq!(r.nodes, 1_000_001);
    // Passing first: white can force a cycle or a 4-point win, never more.
    let pass = r.moves.iter().position(|(m, _)| m.kind == MoveKind::Pass);
    assert_eq!(r.move_bounds[pass.expect("a pass")], Some((-4.0, 0.0)));
}

/// The node budget stops a search (an error, not a wrong value), and a
/// board whose smallest possible search is over the budget is refused
/// before searching, with the estimate.
#[test]
fn budget_stops_and_refusals() {
    // Tromp-Taylor 3x1: the smallest search is estimated at about 60
    // nodes, the real one visits 117.
    let any = AnyMachine::new(Arc::new(rules("tromp-taylor", (3, 1), 0.0))).unwrap();
    let limits = Limits {
        max_nodes: 100,
        max_plies: 200,
        ..Limits::default()
    };
    let e = with_machine!(&any, m => solve_history(m, &m.initial(), &limits)).unwrap_err();
    assert_eq!(
        e,
        morrigo_solve::history::SolveError::Budget {
            nodes: 101,
            max_nodes: 100
        }
    );
    let any = AnyMachine::new(Arc::new(rules("jk-final", (5, 5), 0.0))).unwrap();
    let e = with_machine!(&any, m => solve_history(m, &m.initial(), &Limits::default()));
    match e {
        Err(morrigo_solve::history::SolveError::TooBig(est)) => {
            assert!(est.search > est.max_nodes as f64, "{est:?}")
        }
        other => panic!("5x5 not refused: {other:?}"),
    }
}

/// A position with no legal move where no end rule decides is counted as a
/// draw and reported: a 1x1 board with suicide illegal and no pass, where
/// the first player has no move at all.
#[test]
fn stuck_positions_are_counted_as_draws_and_reported() {
    let text = "\
name: no-pass
board:
  grid: { width: 1, height: 1 }
players: [black, white]
setup:
  in_hand: unlimited
phases:
  play:
    actions:
      play: true
play:
  suicide: illegal
end:
  never:
    draw: \"false\"
";
    let r = morrigo_rules::rules_from_text("no-pass.yaml", text).expect("a valid ruleset");
    let s = solve(r, &Limits::default());
    assert_eq!(s.value, 0.0);
    assert_eq!(s.stuck, 1);
    assert!(s.moves.is_empty() && s.line.is_empty() && s.end.is_none());
}

/// Which JK variants have other values than jk-final, over every position
/// reached in up to 6 plies on 2x1 (a move sequence legal under both):
/// jk-natural (no ECCE ending, fewer pass restrictions), jk-strict-end (no
/// pass after ECC) and jk-suicide-multi (a two-stone suicide is removed)
/// differ somewhere; jk-12-4, jk-12-6, jk-d4-6 and jk-no-move-loses never
/// do, since their rules differ only after four ko captures in a row or
/// for a player with no safe move, who loses under jk-final too.
#[test]
fn jk_variants_that_change_values_on_two_points() {
    let machine = |name: &str| match AnyMachine::new(Arc::new(rules(name, (2, 1), 0.0))) {
        Ok(AnyMachine::W1(m)) => m,
        _ => panic!("{name}: a one-word machine"),
    };
    let base = machine("jk-final");
    // Every sequence of up to 6 plies legal under jk-final.
    let mut all: Vec<Vec<Move>> = vec![Vec::new()];
    let mut frontier = all.clone();
    for _ in 0..6 {
        let mut next = Vec::new();
        for seq in &frontier {
            let mut s = base.initial();
            seq.iter().for_each(|&mv| {
                base.apply(&mut s, mv);
            });
            let mut moves = Vec::new();
            if base.legal_moves(&s, &mut moves).is_none() {
                next.extend(moves.into_iter().map(|mv| [seq.clone(), vec![mv]].concat()));
            }
        }
        all.extend(next.iter().cloned());
        frontier = next;
    }
    let limits = Limits {
        max_nodes: 1_000_000,
        max_plies: 200,
        ..Limits::default()
    };
    let values = |name: &str| -> Vec<Option<f64>> {
        let m = machine(name);
        all.iter()
            .map(|seq| {
                let mut s = m.initial();
                for &mv in seq {
                    let mut moves = Vec::new();
                    if m.legal_moves(&s, &mut moves).is_some() || !moves.contains(&mv) {
                        return None; // not legal under this variant
                    }
                    m.apply(&mut s, mv);
                }
                let r = solve_history(&m, &s, &limits).expect("solves");
                assert!(r.all_exact(), "{name} after {seq:?}");
                Some(r.value)
            })
            .collect()
    };
    let reference = values("jk-final");
    let differs = |name: &str| {
        values(name)
            .iter()
            .zip(&reference)
            .any(|(v, r)| v.is_some() && r.is_some() && v != r)
    };
    for name in ["jk-natural", "jk-strict-end", "jk-suicide-multi"] {
        assert!(differs(name), "{name} has jk-final's values everywhere");
    }
    for name in ["jk-12-4", "jk-12-6", "jk-d4-6", "jk-no-move-loses"] {
        assert!(!differs(name), "{name} differs from jk-final");
    }
}
