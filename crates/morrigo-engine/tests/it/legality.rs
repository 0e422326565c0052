//! One answer to "is this move legal, and why not": on random games of
//! Morris and Go rulesets, every candidate move (every kind, every point,
//! every pair of points, every pass kind) is in `legal_moves` iff
//! `check_move` accepts it, and `explain` words the reason `check_move`
//! gives (or says the move is legal when it is).

use morrigo_engine::notation::{format_move_in, Intent};
use morrigo_engine::{explain, refusal, AnyMachine, Machine, Move, MoveKind, State, NO_POINT};
use morrigo_rules::load::Overrides;
use morrigo_rules::Rules;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

fn load(name: &str, size: Option<(u32, u32)>) -> Arc<Rules> {
    let o = Overrides { size, komi: None };
    Arc::new(morrigo_rules::load_rules_with(name, &o).unwrap_or_else(|e| panic!("{name}: {e}")))
}

fn candidates(rules: &Rules) -> Vec<Move> {
    let n = rules.topology.len() as u16;
    let mut out = Vec::new();
    for p in 0..n {
        for kind in [MoveKind::Place, MoveKind::Play, MoveKind::Remove] {
            out.push(Move {
                kind,
                from: NO_POINT,
                to: p,
            });
        }
        for q in 0..n {
            for kind in [MoveKind::Slide, MoveKind::Fly, MoveKind::Leap] {
                out.push(Move {
                    kind,
                    from: p,
                    to: q,
                });
            }
        }
    }
    out.extend((0..rules.passes.kinds.len() as u8).map(Move::pass));
    out
}

fn intent_of(m: &Move) -> Intent {
    match m.kind {
        MoveKind::Place | MoveKind::Play => Intent::Place(m.to),
        MoveKind::Slide | MoveKind::Fly | MoveKind::Leap => Intent::Move(m.from, m.to),
        MoveKind::Remove => Intent::Remove(m.to),
        MoveKind::Pass => Intent::Pass(m.to as u8),
    }
}

fn check_position<const W: usize>(m: &Machine<W>, s: &State<W>, all: &[Move], at: &str) {
    let mut legal = Vec::new();
    m.legal_moves(s, &mut legal);
    for &c in all {
        let verdict = m.check_move(s, c);
        assert_eq!(
            legal.contains(&c),
            verdict.is_ok(),
            "{at}: {c:?}: legal_moves and check_move disagree ({verdict:?})"
        );
        let intent = intent_of(&c);
        let told = explain(m, s, intent).to_string();
        if legal.iter().any(|l| intent.matches(l)) {
            assert!(
                told.ends_with("is legal here"),
                "{at}: {c:?} is legal, explain says {told}"
            );
        } else {
            assert!(
                !told.ends_with("is legal here"),
                "{at}: {c:?} is illegal, explain says {told}"
            );
            // The intent's own form (a slide between adjacent points, a fly
            // otherwise; a placement or a board play for a point) is worded
            // as check_move says.
            let adjacent = || m.rules.topology.neighbours[c.from as usize].contains(&c.to);
            let forms: Vec<Move> = match c.kind {
                MoveKind::Slide if !adjacent() => vec![],
                MoveKind::Fly if adjacent() => vec![],
                // Between points that are not adjacent, a ruleset with
                // leaps explains the move as a leap when it is no fly.
                MoveKind::Fly => vec![
                    c,
                    Move {
                        kind: MoveKind::Leap,
                        ..c
                    },
                ],
                MoveKind::Leap => vec![],
                MoveKind::Place | MoveKind::Play => [MoveKind::Place, MoveKind::Play]
                    .map(|kind| Move { kind, ..c })
                    .to_vec(),
                _ => vec![c],
            };
            if !forms.is_empty() {
                let worded: Vec<String> = forms
                    .iter()
                    .map(|&f| {
                        let why = m.check_move(s, f).expect_err("no form is legal");
                        refusal(m, s, f, why).to_string()
                    })
                    .collect();
                assert!(
                    worded.contains(&told),
                    "{at}: {c:?}: explain says {told}, check_move {worded:?}"
                );
            }
        }
    }
}

fn random_games<const W: usize>(m: &Machine<W>, games: u64, plies: usize) -> usize {
    let all = candidates(&m.rules);
    let mut checked = 0;
    for g in 0..games {
        let mut rng = SmallRng::seed_from_u64(g);
        let mut s = m.initial();
        let mut record = Vec::new();
        for _ in 0..plies {
            let at = format!("{} game {g} after `{}`", m.rules.name, record.join(" "));
            check_position(m, &s, &all, &at);
            checked += 1;
            let mut legal = Vec::new();
            if m.legal_moves(&s, &mut legal).is_some() || legal.is_empty() {
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())];
            record.push(format_move_in(&m.rules, &mv));
            m.apply(&mut s, mv);
        }
    }
    checked
}

fn run(name: &str, size: Option<(u32, u32)>, games: u64, plies: usize) {
    let any = AnyMachine::new(load(name, size)).expect("fits");
    let checked = morrigo_engine::with_machine!(&any, m => random_games(m, games, plies));
    assert!(checked > games as usize, "{name}: games ended at once");
}

#[test]
fn morris_legal_moves_check_move_and_explain_agree() {
    for name in [
        "nine-mens-morris",
        "three-mens-morris",
        "lasker-morris",
        "morabaraba",
    ] {
        run(name, None, 4, 120);
    }
}

/// Captures (`captures:`): leaps are moves of their own, and a slide or
/// fly between a leap's ends is refused as being the leap.
#[test]
fn capture_rulesets_legal_moves_check_move_and_explain_agree() {
    for name in [
        "../../tests/rulesets/nmm-leap.yaml",
        "../../tests/rulesets/nmm-custodian.yaml",
        "../../tests/rulesets/nmm-leap-flying.yaml",
        "../../tests/rulesets/nmm-capture-choose.yaml",
        "../../tests/rulesets/nmm-capture-choose-one.yaml",
    ] {
        run(name, None, 6, 150);
    }
}

#[test]
fn go_legal_moves_check_move_and_explain_agree() {
    for name in ["chinese", "tromp-taylor", "jk-final", "jk-no-move-loses"] {
        run(name, Some((4, 4)), 6, 60);
    }
}
