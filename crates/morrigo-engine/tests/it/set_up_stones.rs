//! Set-up stones (`setup.stones`, `setup.to_move`) in a Morris ruleset:
//! the fast engine and the Morris reference start from the same position
//! and agree on random games from it, move by move.

use morrigo_engine::{with_machine, AnyMachine, Move};
use morrigo_reference::morris::RefGame;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| (m.kind as u8, m.from, m.to));
    moves
}

#[test]
fn morris_games_from_set_up_stones_agree_with_the_reference() {
    let path = format!(
        "{}/../../tests/rulesets/three-mens-morris-set-up.yaml",
        env!("CARGO_MANIFEST_DIR")
    );
    let rules = Arc::new(morrigo_rules::load_rules(&path).unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(rules.start.to_move, 1, "black moves first");
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let mut ended = 0;
    with_machine!(&any, m => {
        for g in 0..300u64 {
            let mut rng = SmallRng::seed_from_u64(g);
            let mut s = m.initial();
            let mut r = RefGame::new(&rules);
            assert_eq!(s.pos.on_board, [1, 1], "game {g}: the set-up pieces");
            for ply in 0..200 {
                let mut fast = Vec::new();
                let fo = m.legal_moves(&s, &mut fast);
                let (slow, ro) = r.legal_moves();
                assert_eq!(fo, ro, "game {g} ply {ply}: outcome (left fast)");
                assert_eq!(sorted(fast.clone()), sorted(slow), "game {g} ply {ply}: moves");
                if fo.is_some() || fast.is_empty() {
                    ended += 1;
                    break;
                }
                let mv = fast[rng.random_range(0..fast.len())];
                m.apply(&mut s, mv);
                r.apply(mv);
            }
        }
    });
    assert!(ended > 200, "only {ended} games ended");
}
