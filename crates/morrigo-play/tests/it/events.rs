//! Rule events counted in the game loop, checked against what the games
//! left behind: removals against the pieces lost, a forbid rule against the
//! turns its condition covers, and the report against the per-game counts.

use morrigo_engine::with_machine;
use morrigo_play::{
    game_rng, machine_with, playout_counted, simulate, AgentSpec, CountPlan, Player, SimConfig,
};
use morrigo_rules::load::Overrides;

fn event(events: &[morrigo_play::RuleEvent], name: &str) -> u64 {
    events
        .iter()
        .find(|e| e.event == name)
        .unwrap_or_else(|| panic!("no event {name} in {events:?}"))
        .count
}

/// Every removal takes a piece off the board: the removals counted equal
/// the pieces both players lost, game by game; and the simulation's report
/// sums the same counts.
#[test]
fn removals_counted_are_the_pieces_lost() {
    let any = morrigo_play::machine("nine-mens-morris").unwrap();
    let games = 40u64;
    let (mut counted, mut lost) = (0u64, 0u64);
    with_machine!(&any, m => {
        let plan = CountPlan::new(&m.rules);
        let mut players = [AgentSpec::Random; 2].map(Player::new);
        let mut moves = Vec::new();
        for i in 0..games {
            let mut c = plan.counters();
            let mut s = m.initial();
            let mut rng = game_rng(9, i);
            playout_counted(m, &mut s, &mut players, &mut rng, 2000, &mut moves, Some((&plan, &mut c)));
            let events = plan.events(&m.rules, &c);
            let removals = event(&events, "removals");
            assert_eq!(removals, u64::from(s.pos.lost[0] + s.pos.lost[1]), "game {i}");
            counted += removals;
            lost += u64::from(s.pos.lost[0] + s.pos.lost[1]);
        }
    });
    assert!(lost > 0);
    let r = simulate(&any, &SimConfig::new(games as u32, 9), None);
    assert_eq!(event(&r.events, "removals"), counted);
    assert!(event(&r.events, "flying moves") > 0, "{:?}", r.events);
}

/// `tests/rulesets/jk-no-early-end.yaml` forbids the ending pass while
/// `turn < 19`: at every turn start before move 20 where a move is made, the
/// rule refuses it (the earlier rule naming E, no pass just after a D run,
/// never holds without D runs). So its count is the sum over games of the
/// turns played, capped at 19.
#[test]
fn a_forbid_rule_is_counted_at_each_turn_it_refuses() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/rulesets/jk-no-early-end.yaml"
    );
    let overrides = Overrides {
        size: Some((5, 5)),
        komi: None,
    };
    let any = machine_with(path, &overrides).unwrap();
    let games = 30u64;
    let mut expected = 0u64;
    let total = with_machine!(&any, m => {
        let plan = CountPlan::new(&m.rules);
        let mut players = [AgentSpec::Random; 2].map(Player::new);
        let mut moves = Vec::new();
        let mut c = plan.counters();
        for i in 0..games {
            let mut s = m.initial();
            let mut rng = game_rng(4, i);
            let g = playout_counted(m, &mut s, &mut players, &mut rng, 2000, &mut moves, Some((&plan, &mut c)));
            expected += u64::from(g.turns.min(19));
        }
        let events = plan.events(&m.rules, &c);
        assert_eq!(event(&events, "D runs"), 0, "the premise: no D run");
        // Ending passes were played (after move 20).
        assert!(event(&events, "pass:E") > 0);
        event(&events, "forbid no_early_ending_pass")
    });
    assert_eq!(total, expected);
    assert!(expected > games * 10, "{expected}");
}
