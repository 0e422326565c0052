//! A ruleset's `eval:` section is what alpha-beta evaluates with: changing
//! the weights changes the move it plays.

use morrigo_engine::{with_machine, AnyMachine, Bits, Machine, Move};
use morrigo_play::{game_rng, machine, AgentSpec, AlphaBetaParams, Player};

fn points<const W: usize>(m: &Machine<W>, names: &[&str]) -> Bits<W> {
    let mut b = Bits::EMPTY;
    for n in names {
        b.set(m.rules.topology.point(n).unwrap() as usize);
    }
    b
}

/// Alpha-beta's move, as `from-to`, at `depth` (ties drawn with `seed`)
/// in a Nine Men's Morris moving-phase position where white can close c3-d3-e3 with d2-d3.
fn choice(any: &AnyMachine, depth: u32, seed: u64) -> String {
    with_machine!(any, m => {
        let white = points(m, &["c3", "e3", "d2", "a1"]);
        let black = points(m, &["g7", "d7", "f6", "b6"]);
        let mut s = m.state_from(white, black, [0, 0], 0);
        let mut moves = Vec::new();
        assert!(m.legal_moves(&s, &mut moves).is_none());
        let spec = AgentSpec::AlphaBeta(AlphaBetaParams {
            depth,
            time_ms: None,
            margin: 0,
            ..AlphaBetaParams::default()
        });
        let mv: Move = Player::new(spec).choose(m, &mut s, &moves, &mut game_rng(seed, 0));
        let names = &m.rules.topology.names;
        format!("{}-{}", names[mv.from as usize], names[mv.to as usize])
    })
}

#[test]
fn an_eval_section_that_weighs_only_mobility_changes_alphabetas_move() {
    let default = machine("nine-mens-morris").unwrap();
    let mobility = machine("../../tests/rulesets/nmm-mobility-eval.yaml").unwrap();
    for depth in [1, 2] {
        let mut moved_out = std::collections::BTreeSet::new();
        for seed in 0..8 {
            // The family weights value the mill (a removal owed, a line).
            assert_eq!(choice(&default, depth, seed), "d2-d3", "depth {depth}");
            // Weighing mobility alone, it moves a piece out instead of
            // closing the mill (the seed draws among the moves the
            // search, quiescence included, scores alike).
            moved_out.insert(choice(&mobility, depth, seed));
        }
        let expected = ["a1-a4", "a1-d1", "c3-c4", "e3-e4"].map(String::from);
        assert!(
            moved_out.iter().all(|mv| expected.contains(mv)),
            "depth {depth}: {moved_out:?}"
        );
    }
}
