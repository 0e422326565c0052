//! The language's conditional forms (`if … then … else …`, `min`, `max`)
//! evaluated by the fast engine and by the reference's own evaluator, in
//! lock-step over random games of a ruleset that uses them in an action
//! guard, the line rule's removal count and an end rule
//! (`tests/rulesets/lang-conditional.yaml`). Each branch is seen taken.

use morrigo_engine::{with_machine, AnyMachine, Machine, Move, MoveKind};
use morrigo_reference::morris::RefGame;
use morrigo_rules::Rules;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| (m.kind as u8, m.from, m.to));
    moves
}

/// What the random games went through, to show each form was exercised.
#[derive(Debug, Default)]
struct Seen {
    plies: usize,
    /// Flies by a player with four pieces (the guard's then-branch).
    flies_at_four: usize,
    /// Turns owing two removals (the line rule's then-branch with `min`).
    double_removals: usize,
    /// Mills earning one removal (the else-branch).
    single_removals: usize,
    /// Games lost by `too_few_pieces` with three or more pieces (`max`).
    lost_behind: usize,
}

fn lockstep<const W: usize>(m: &Machine<W>, rules: &Rules, games: u64) -> Seen {
    let mut seen = Seen::default();
    let too_few = rules
        .end
        .iter()
        .position(|r| r.name == "too_few_pieces")
        .expect("the ruleset has too_few_pieces");
    for g in 0..games {
        let mut rng = SmallRng::seed_from_u64(0x1F_E15E ^ g);
        let mut s = m.initial();
        let mut r = RefGame::new(rules);
        for ply in 0..400 {
            let at = format!("game {g}, ply {ply}");
            let mut fast = Vec::new();
            let fo = m.legal_moves(&s, &mut fast);
            let (slow, ro) = r.legal_moves();
            assert_eq!(
                sorted(fast.clone()),
                sorted(slow),
                "{at}: legal moves (left fast)"
            );
            assert_eq!(fo, ro, "{at}: outcome (left fast)");
            assert_eq!(m.phase(&s), r.phase(), "{at}: phase");
            if let Some(o) = fo {
                if o.rule as usize == too_few && s.pos.on_board[s.pos.to_move as usize] >= 3 {
                    seen.lost_behind += 1;
                }
                break;
            }
            let mv = fast[rng.random_range(0..fast.len())];
            let me = s.pos.to_move as usize;
            if mv.kind == MoveKind::Fly
                && !rules.topology.neighbours[mv.from as usize].contains(&mv.to)
                && s.pos.on_board[me] == 4
            {
                seen.flies_at_four += 1;
            }
            let before = s.pos.pending;
            m.apply(&mut s, mv);
            r.apply(mv);
            assert_eq!(u32::from(s.pos.pending), r.pending, "{at}: removals owed");
            if before == 0 && mv.kind != MoveKind::Remove {
                match s.pos.pending {
                    2 => seen.double_removals += 1,
                    1 => seen.single_removals += 1,
                    _ => {}
                }
            }
            seen.plies += 1;
        }
    }
    seen
}

#[test]
fn conditionals_agree_with_the_reference() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/rulesets/lang-conditional.yaml"
    );
    let rules = Arc::new(morrigo_rules::load_rules(path).unwrap_or_else(|e| panic!("{e:?}")));
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let seen = with_machine!(&any, m => lockstep(m, &rules, 300));
    println!("{seen:?}");
    assert!(seen.flies_at_four > 0, "{seen:?}");
    assert!(seen.double_removals > 0, "{seen:?}");
    assert!(seen.single_removals > 0, "{seen:?}");
    assert!(seen.lost_behind > 0, "{seen:?}");
}

/// Random games of a Go-family ruleset in lock-step with the Go
/// reference (same legal moves, outcome and phase at every ply); `each`
/// sees every position's phase and legal moves. Returns the plies played
/// and how many games each end rule decided.
fn go_lockstep(
    rules: &Arc<Rules>,
    games: u64,
    mut each: impl FnMut(usize, &[Move], &str),
) -> (usize, Vec<usize>) {
    use morrigo_reference::go::RefGo;
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let mut plies = 0;
    let mut decided = vec![0; rules.end.len()];
    with_machine!(&any, m => {
        for g in 0..games {
            let mut rng = SmallRng::seed_from_u64(0x0BE1 ^ g);
            let mut s = m.initial();
            let mut r = RefGo::new(rules);
            for ply in 0..120 {
                let at = format!("game {g}, ply {ply}");
                let mut fast = Vec::new();
                let fo = m.legal_moves(&s, &mut fast);
                let (slow, ro) = r.legal_moves();
                assert_eq!(sorted(fast.clone()), sorted(slow), "{at}: legal moves (left fast)");
                assert_eq!(fo, ro, "{at}: outcome (left fast)");
                if let Some(o) = fo {
                    decided[o.rule as usize] += 1;
                    break;
                }
                let phase = m.phase(&s);
                assert_eq!(phase, r.phase(), "{at}: phase");
                each(phase, &fast, &at);
                let mv = fast[rng.random_range(0..fast.len())];
                m.apply(&mut s, mv);
                r.apply(mv);
                plies += 1;
            }
        }
    });
    (plies, decided)
}

fn load_sized(path: &str, size: u32) -> Arc<Rules> {
    let o = morrigo_rules::load::Overrides {
        size: Some((size, size)),
        komi: None,
    };
    Arc::new(morrigo_rules::load_rules_with(path, &o).unwrap_or_else(|e| panic!("{e}")))
}

/// A forbid rule on the phase, with the phase inserted by `before:`
/// (`tests/rulesets/lang-opening.yaml`), against the Go reference on a 4×4
/// board: no pass is ever legal in the opening, and one is after it.
#[test]
fn phase_in_a_forbid_rule_agrees_with_the_go_reference() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/rulesets/lang-opening.yaml"
    );
    let rules = load_sized(path, 4);
    let opening = rules.phases.iter().position(|p| p.name == "opening");
    assert_eq!(opening, Some(0), "`before: play` puts the opening first");
    let mut passes_after = 0;
    let (plies, _) = go_lockstep(&rules, 100, |phase, moves, at| {
        let pass_legal = moves.iter().any(|mv| mv.kind == MoveKind::Pass);
        assert_eq!(
            pass_legal,
            phase != 0,
            "{at}: a pass is legal only after the opening"
        );
        passes_after += usize::from(pass_legal);
    });
    assert!(passes_after > 0 && plies > 400, "{passes_after} {plies}");
}

/// `no_legal_move` in a forbid rule (`tests/rulesets/lang-pass-when-blocked.yaml`):
/// a pass is legal exactly when no board play is, on 3×3 against the Go
/// reference.
#[test]
fn no_legal_move_in_a_forbid_rule_agrees_with_the_go_reference() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/rulesets/lang-pass-when-blocked.yaml"
    );
    let rules = load_sized(path, 3);
    let mut blocked = 0;
    let (plies, _) = go_lockstep(&rules, 200, |_, moves, at| {
        let plays = moves.iter().any(|mv| mv.kind == MoveKind::Play);
        let passes = moves.iter().any(|mv| mv.kind == MoveKind::Pass);
        assert_eq!(passes, !plays, "{at}: a pass exactly when no play is legal");
        blocked += usize::from(passes);
    });
    assert!(blocked > 0 && plies > 1000, "{blocked} {plies}");
}

/// Two forbid rules reading `no_legal_move`, each on the other's class:
/// each judges the other's moves by the forbid rules that do not read it,
/// so neither depends on itself. Late in the game both hold (a pass is
/// plainly possible, so plays are forbidden; a play is, so passes are) and
/// the player is blocked and loses by the end rule; both implementations
/// agree throughout.
#[test]
fn two_forbid_rules_reading_no_legal_move_agree_with_the_go_reference() {
    let text = r#"
name: lang-two-blocked
extends: chinese
params: { late: 6 }
forbid:
  pass_only_when_blocked:
    moves: [P]
    when: "not no_legal_move"
  late_play_only_if_pass_is_impossible:
    moves: [play]
    when: "turn >= late and not no_legal_move"
end:
  blocked: { lose: "no_legal_move", before: two_passes }
"#;
    let dir = std::env::temp_dir().join(format!("morrigo-lang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("lang-two-blocked.yaml");
    std::fs::write(&path, text).expect("write");
    let rules = load_sized(path.to_str().expect("utf-8"), 3);
    let blocked = rules.end.iter().position(|r| r.name == "blocked");
    let blocked = blocked.expect("the ruleset has `blocked`");
    let (plies, decided) = go_lockstep(&rules, 100, |_, moves, at| {
        assert!(!moves.is_empty(), "{at}: no moves and no outcome");
    });
    assert!(plies > 300 && decided[blocked] > 0, "{plies} {decided:?}");
}
