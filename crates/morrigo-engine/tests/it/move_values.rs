//! Forbid rules judged per move and the values they read: perft counts of
//! `nogo` (capturing forbidden by `captures`) computed by the fast engine and
//! the Go reference, and lock-step random games of a Morris probe whose
//! forbid rules name `place`, `fly` and `remove` against the Morris reference.

use morrigo_engine::{perft, with_machine, AnyMachine, Machine, Move, State, Unit};
use morrigo_reference::go::RefGo;
use morrigo_reference::morris::RefGame;
use morrigo_rules::load::Overrides;
use morrigo_rules::Rules;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

fn load_sized(name: &str, size: (u32, u32)) -> Arc<Rules> {
    let o = Overrides {
        size: Some(size),
        komi: None,
    };
    Arc::new(morrigo_rules::load_rules_with(name, &o).unwrap_or_else(|e| panic!("{name}: {e}")))
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| (m.kind as u8, m.from, m.to));
    moves
}

/// Reference perft: every node a clone of the game.
fn ref_go_perft(g: &RefGo, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, _) = g.legal_moves();
    moves
        .into_iter()
        .map(|m| {
            let mut next = g.clone();
            next.apply(m);
            ref_go_perft(&next, depth - 1)
        })
        .sum()
}

/// Plays `plies` random legal moves (the fast engine's, sorted) in both.
fn go_prefix<'r, const W: usize>(
    m: &Machine<W>,
    rules: &'r Rules,
    plies: usize,
    seed: u64,
) -> (State<W>, RefGo<'r>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut s = m.initial();
    let mut r = RefGo::new(rules);
    let mut moves = Vec::new();
    for _ in 0..plies {
        if m.legal_moves(&s, &mut moves).is_some() || moves.is_empty() {
            break;
        }
        let moves = sorted(moves.clone());
        let mv = moves[rng.random_range(0..moves.len())];
        m.apply(&mut s, mv);
        r.apply(mv);
    }
    (s, r)
}

/// NoGo on 5×5 to depth 4 from the start, and to depth 3 from crowded
/// mid-game positions where captures and suicides are refused: the fast
/// engine and the reference count the same leaves.
#[test]
fn nogo_perft_agrees_with_the_reference() {
    let rules = load_sized("nogo", (5, 5));
    let any = AnyMachine::new(rules.clone()).expect("fits");
    with_machine!(&any, m => {
        let fast: Vec<u64> = (1..=4).map(|d| perft(m, &mut m.initial(), d, Unit::Ply)).collect();
        let slow: Vec<u64> = (1..=4).map(|d| ref_go_perft(&RefGo::new(&rules), d)).collect();
        assert_eq!(fast, slow, "nogo 5x5 perft from the start");
        // 25·24·23 = 13,800 less the 8 captures of a corner stone at ply 3
        // (a white corner stone, a black stone beside it, black closing it).
        assert_eq!(fast, [25, 600, 13_792, 302_896]);
        for (plies, seed) in [(8, 1), (12, 2), (15, 3)] {
            let (mut s, r) = go_prefix(m, &rules, plies, seed);
            let fast = perft(m, &mut s, 3, Unit::Ply);
            assert_eq!(fast, ref_go_perft(&r, 3), "nogo perft 3 after {plies} plies (seed {seed})");
        }
    });
}

/// Random games of the probe in lock-step with the Morris reference: the
/// same legal moves and outcome at every ply.
#[test]
fn morris_forbid_rules_on_every_kind_agree_with_the_reference() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/rulesets/lang-move-values.yaml"
    );
    let rules = Arc::new(morrigo_rules::load_rules(path).unwrap_or_else(|e| panic!("{e}")));
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let mut refused_by_values = 0;
    let mut removals = 0;
    with_machine!(&any, m => {
        for g in 0..150u64 {
            let mut rng = SmallRng::seed_from_u64(0xD1CE + g);
            let mut s = m.initial();
            let mut r = RefGame::new(&rules);
            let mut buf = Vec::new();
            for ply in 0..400 {
                let fo = m.legal_moves(&s, &mut buf);
                let (rm, ro) = r.legal_moves();
                let fm = sorted(buf.clone());
                assert_eq!(fm, sorted(rm), "game {g} ply {ply}: legal moves (left fast)");
                assert_eq!(fo, ro, "game {g} ply {ply}: outcome (left fast)");
                if fo.is_some() || fm.is_empty() {
                    break;
                }
                // Count the candidate moves a per-move rule refused.
                for mv in &fm {
                    assert_eq!(m.check_move(&s, *mv), Ok(()), "game {g}: {mv:?}");
                }
                if s.pos.pending == 0 {
                    let empty: Vec<u16> =
                        (0..m.points() as u16).filter(|&p| s.owner(p).is_none()).collect();
                    for &p in &empty {
                        let place = Move::place(p);
                        if m.check_move(&s, place).is_err_and(|e| {
                            matches!(e, morrigo_engine::Illegal::Forbidden(_))
                        }) {
                            refused_by_values += 1;
                        }
                    }
                }
                let mv = fm[rng.random_range(0..fm.len())];
                removals += (mv.kind == morrigo_engine::MoveKind::Remove) as usize;
                m.apply(&mut s, mv);
                r.apply(mv);
            }
        }
    });
    assert!(
        removals > 0,
        "no removal after `no_early_removal` stopped holding"
    );
    assert!(
        refused_by_values > 0,
        "no placement was refused by `no_double_mill`"
    );
}
