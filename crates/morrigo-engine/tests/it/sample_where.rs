//! `sample_move_where`: a move drawn uniformly among the legal moves a
//! filter accepts (the MCTS playout policy's draw), each candidate checked
//! only when drawn; `Stuck` when the filter accepts none; `Over` when the
//! game is over; the filter may play and take back moves on the state.

use morrigo_engine::{with_machine, AnyMachine, Machine, Move, MoveKind, Sample, State};
use morrigo_rules::load::Overrides;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::sync::Arc;

fn load(name: &str, size: Option<u32>) -> AnyMachine {
    let o = Overrides {
        size: size.map(|n| (n, n)),
        komi: None,
    };
    let rules = morrigo_rules::load_rules_with(name, &o).unwrap();
    AnyMachine::new(Arc::new(rules)).unwrap()
}

/// The position after `plies` uniform-random plies of seed `seed`.
fn position<const W: usize>(m: &Machine<W>, plies: u32, seed: u64) -> State<W> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut s = m.initial();
    let mut moves = Vec::new();
    for _ in 0..plies {
        if m.legal_moves(&s, &mut moves).is_some() || moves.is_empty() {
            break;
        }
        m.apply(&mut s, moves[rng.random_range(0..moves.len())]);
    }
    s
}

/// A filter that plays the move and takes it back, keeping moves to
/// points of even index and every pass (any rule would do: the draw must
/// be uniform over what it keeps).
fn even<const W: usize>(m: &Machine<W>, s: &mut State<W>, mv: Move) -> bool {
    let u = m.apply(s, mv);
    m.undo(s, u);
    mv.kind == MoveKind::Pass || mv.to.is_multiple_of(2)
}

#[test]
fn draws_are_uniform_over_the_legal_moves_the_filter_keeps() {
    for (name, size, plies) in [
        ("jk-final", Some(5), 12),
        ("chinese", Some(5), 9),
        ("nine-mens-morris", None, 6),
        ("nine-mens-morris", None, 30),
    ] {
        let any = load(name, size);
        with_machine!(&any, m => {
            let mut s = position(m, plies, 7);
            let mut legal = Vec::new();
            assert!(m.legal_moves(&s, &mut legal).is_none(), "{name}: game over");
            let kept: Vec<Move> = legal.iter().copied().filter(|&mv| even(m, &mut s.clone(), mv)).collect();
            assert!(kept.len() >= 3 && kept.len() < legal.len(), "{name}: {} of {}", kept.len(), legal.len());
            let hash = s.pos.hash;
            let per_move = 200;
            let mut counts: BTreeMap<(u8, u16, u16), usize> = BTreeMap::new();
            let (mut buf, mut rng) = (Vec::new(), SmallRng::seed_from_u64(1));
            for _ in 0..per_move * kept.len() {
                let mut draw = |n: u32| rng.random_range(0..n);
                match m.sample_move_where(&mut s, &mut buf, &mut draw, &mut |s, mv| even(m, s, mv), false) {
                    Sample::Move(mv) => {
                        assert!(kept.contains(&mv), "{name}: {mv:?} is not a kept legal move");
                        *counts.entry((mv.kind as u8, mv.from, mv.to)).or_default() += 1;
                    }
                    other => panic!("{name}: {other:?}"),
                }
                assert_eq!(s.pos.hash, hash, "{name}: the state is left as it was");
            }
            assert_eq!(counts.len(), kept.len(), "{name}: every kept move is drawn");
            for (mv, &c) in &counts {
                assert!((per_move / 2..=per_move * 3 / 2).contains(&c), "{name}: {mv:?} drawn {c} times");
            }
        });
    }
}

#[test]
fn nothing_accepted_is_stuck_and_a_finished_game_is_over() {
    let any = load("jk-final", Some(3));
    with_machine!(&any, m => {
        let mut s = m.initial();
        let (mut buf, mut rng) = (Vec::new(), SmallRng::seed_from_u64(1));
        let mut draw = |n: u32| rng.random_range(0..n);
        let got = m.sample_move_where(&mut s, &mut buf, &mut draw, &mut |_, _| false, false);
        assert_eq!(got, Sample::Stuck);
        // Two ending passes end a JK game (Art. 4.3).
        m.apply(&mut s, Move::pass(1));
        m.apply(&mut s, Move::pass(1));
        let over = m.outcome(&s).expect("EE ends the game");
        let got = m.sample_move_where(&mut s, &mut buf, &mut draw, &mut |_, _| true, false);
        assert_eq!(got, Sample::Over(over));
    });
}
