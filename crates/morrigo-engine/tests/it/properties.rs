//! Properties of the fast engine over random move sequences on every
//! built-in Morris ruleset: the incremental hash equals the hash built from
//! scratch, transposed move orders reach the same position and hash,
//! apply+undo is the identity, legal moves have no duplicates, and removals
//! only ever target opposing pieces (and, when none is owed, only where the
//! phase has a `remove` action).

use morrigo_engine::{with_machine, AnyMachine, Machine, Move, MoveKind, State};
use morrigo_rules::Rules;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::sync::{Arc, OnceLock};

fn machines() -> &'static [(Arc<Rules>, AnyMachine)] {
    static ALL: OnceLock<Vec<(Arc<Rules>, AnyMachine)>> = OnceLock::new();
    ALL.get_or_init(|| {
        morrigo_rules::builtin::family("morris")
            .map(|b| {
                let rules = Arc::new(morrigo_rules::load_rules(b.name).expect("compiles"));
                let any = AnyMachine::new(rules.clone()).expect("fits");
                (rules, any)
            })
            .collect()
    })
}

fn legal<const W: usize>(m: &Machine<W>, s: &State<W>) -> Vec<Move> {
    let mut out = Vec::new();
    m.legal_moves(s, &mut out);
    out
}

/// The hash of the same board, hands and side built from scratch.
fn fresh_hash<const W: usize>(m: &Machine<W>, s: &State<W>) -> u64 {
    let p = &s.pos;
    let fresh = m
        .state_from(p.occ[0], p.occ[1], p.in_hand, p.to_move)
        .pos
        .hash;
    // Marks of delayed removals are part of the key too.
    if m.marked(s).is_empty() {
        fresh
    } else {
        m.recomputed_hash(s)
    }
}

/// Checks every property at each ply of a game driven by `choices`.
fn walk<const W: usize>(m: &Machine<W>, choices: &[u32]) -> Result<(), TestCaseError> {
    let mut s = m.initial();
    for (i, &c) in choices.iter().enumerate() {
        let moves = legal(m, &s);
        if moves.is_empty() {
            break;
        }
        let me = s.pos.to_move;
        for (a, x) in moves.iter().enumerate() {
            for y in &moves[a + 1..] {
                prop_assert!(!x.same_effect(y), "ply {i}: {x:?} and {y:?} are one move");
            }
            if s.pos.pending > 0 {
                prop_assert_eq!(x.kind, MoveKind::Remove, "ply {}: removal owed", i);
                prop_assert_eq!(s.owner(x.to), Some(me ^ 1), "ply {}: {:?}", i, x);
            } else if x.kind == MoveKind::Remove {
                // A removal made as a move: the phase's `remove` action
                // (an opposing piece) or `remove_own` action (an own piece).
                let phase = &m.rules.phases[m.phase(&s)];
                let owner = if s.owner(x.to) == Some(me) {
                    prop_assert!(phase.remove_own.is_some(), "ply {}: own piece", i);
                    me
                } else {
                    prop_assert!(phase.remove.is_some(), "ply {}: nothing owed", i);
                    me ^ 1
                };
                prop_assert_eq!(s.owner(x.to), Some(owner), "ply {}: {:?}", i, x);
            } else {
                prop_assert_eq!(s.owner(x.to), None, "ply {}: {:?} to a taken point", i, x);
                if x.kind != MoveKind::Place {
                    prop_assert_eq!(s.owner(x.from), Some(me), "ply {}: {:?}", i, x);
                }
            }
        }
        // apply + undo is the identity, for every legal move.
        let (pos, history) = (s.pos, s.history().to_vec());
        for &mv in &moves {
            let u = m.apply(&mut s, mv);
            prop_assert_eq!(
                s.pos.hash,
                fresh_hash(m, &s),
                "ply {}: hash after {:?}",
                i,
                mv
            );
            m.undo(&mut s, u);
            prop_assert_eq!(s.pos, pos, "ply {}: undo {:?}", i, mv);
            prop_assert_eq!(s.history(), &history[..], "ply {}: undo {:?}", i, mv);
        }
        m.apply(&mut s, moves[c as usize % moves.len()]);
        prop_assert_eq!(s.pos.hash, fresh_hash(m, &s));
    }
    Ok(())
}

/// Placements without a line, then the same placements in another order.
fn transposed_placements<const W: usize>(
    m: &Machine<W>,
    choices: &[u32],
    shuffle_seed: u64,
) -> Result<(), TestCaseError> {
    let mut s = m.initial();
    let mut placed: [Vec<Move>; 2] = [Vec::new(), Vec::new()];
    for &c in choices {
        let places: Vec<Move> = legal(m, &s)
            .into_iter()
            .filter(|mv| mv.kind == MoveKind::Place)
            .collect();
        if places.is_empty() || s.pos.pending > 0 {
            break;
        }
        let mv = places[c as usize % places.len()];
        let me = s.pos.to_move as usize;
        let u = m.apply(&mut s, mv);
        if s.pos.lines_formed > 0 {
            m.undo(&mut s, u);
            break;
        }
        placed[me].push(mv);
    }
    // Whole turns only: equal numbers, or white one ahead.
    let mut rng = SmallRng::seed_from_u64(shuffle_seed);
    let mut order = placed.clone();
    order[0].shuffle(&mut rng);
    order[1].shuffle(&mut rng);
    let mut t = m.initial();
    for k in 0..order[0].len() {
        for side in &order {
            if let Some(&mv) = side.get(k) {
                let moves = legal(m, &t);
                prop_assert!(moves.contains(&mv), "{mv:?} not legal in the transposition");
                m.apply(&mut t, mv);
                prop_assert_eq!(t.pos.lines_formed, 0);
            }
        }
    }
    prop_assert_eq!(
        t.pos,
        s.pos,
        "same placements, other order: {:?} vs {:?}",
        order,
        placed
    );
    prop_assert_eq!(t.pos.hash, s.pos.hash);
    prop_assert_eq!(t.history().last(), s.history().last());
    Ok(())
}

/// In the moving phase, two slides out and back by both players return the
/// position, its hash, and count one more repetition.
fn there_and_back<const W: usize>(m: &Machine<W>, choices: &[u32]) -> Result<(), TestCaseError> {
    let mut s = m.initial();
    let mut k = 0;
    let mut pick = |n: usize| {
        let c = choices.get(k).copied().unwrap_or(k as u32);
        k += 1;
        c as usize % n
    };
    // Random play until both sides are moving (no pieces in hand).
    while s.pos.in_hand != [0, 0] || s.pos.pending > 0 {
        let moves = legal(m, &s);
        if moves.is_empty() || s.pos.turn > 200 {
            return Ok(());
        }
        m.apply(&mut s, moves[pick(moves.len())]);
    }
    let start = s.clone();
    let slide = |s: &State<W>, pick: &mut dyn FnMut(usize) -> usize| -> Option<Move> {
        let slides: Vec<Move> = legal(m, s)
            .into_iter()
            .filter(|mv| mv.kind == MoveKind::Slide)
            .collect();
        (!slides.is_empty()).then(|| slides[pick(slides.len())])
    };
    let mut out = Vec::new();
    for _ in 0..2 {
        let Some(mv) = slide(&s, &mut pick) else {
            return Ok(());
        };
        m.apply(&mut s, mv);
        if s.pos.pending > 0 || s.pos.lines_formed > 0 {
            return Ok(());
        }
        out.push(mv);
    }
    for mv in out {
        let back = Move {
            kind: MoveKind::Slide,
            from: mv.to,
            to: mv.from,
        };
        if !legal(m, &s).contains(&back) {
            return Ok(()); // the game ended (a draw by move count, say)
        }
        m.apply(&mut s, back);
        if s.pos.pending > 0 || s.pos.lines_formed > 0 {
            return Ok(());
        }
    }
    prop_assert_eq!(s.pos.occ, start.pos.occ);
    prop_assert_eq!(s.pos.to_move, start.pos.to_move);
    prop_assert_eq!(s.pos.hash, start.pos.hash);
    if m.rules.uses(morrigo_rules::Prim::Repetitions) {
        prop_assert_eq!(m.repetitions(&s), m.repetitions(&start) + 1);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn moves_are_distinct_removals_opposing_undo_exact_hash_fresh(
        which in 0..64usize,
        choices in proptest::collection::vec(any::<u32>(), 0..160),
    ) {
        let all = machines();
        let (_, any) = &all[which % all.len()];
        with_machine!(any, m => walk(m, &choices))?;
    }

    #[test]
    fn transposed_placements_reach_the_same_position(
        which in 0..64usize,
        choices in proptest::collection::vec(any::<u32>(), 0..24),
        seed in any::<u64>(),
    ) {
        let all = machines();
        let (_, any) = &all[which % all.len()];
        with_machine!(any, m => transposed_placements(m, &choices, seed))?;
    }

    #[test]
    fn slides_out_and_back_repeat_the_position(
        which in 0..64usize,
        choices in proptest::collection::vec(any::<u32>(), 0..400),
    ) {
        let all = machines();
        let (_, any) = &all[which % all.len()];
        with_machine!(any, m => there_and_back(m, &choices))?;
    }
}
