//! Simulation outcomes on the built-in Go-style rulesets (small boards).

use morrigo_engine::{winner, with_machine, AnyMachine};
use morrigo_play::{machine_with, play_game, simulate, AgentSpec, SimConfig, SimReport};
use morrigo_rules::load::Overrides;
use morrigo_rules::Verdict;

fn go(name: &str, size: u32) -> AnyMachine {
    let overrides = Overrides {
        size: Some((size, size)),
        komi: None,
    };
    machine_with(name, &overrides).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn without_time(mut r: SimReport) -> SimReport {
    r.elapsed_secs = 0.0;
    r.secs_per_game = 0.0;
    r
}

#[test]
fn go_simulate_is_deterministic_for_a_seed_and_independent_of_thread_count() {
    for name in ["chinese", "jk-final", "tromp-taylor"] {
        let any = go(name, 9);
        for agents in [
            [AgentSpec::Random; 2],
            [AgentSpec::Greedy, AgentSpec::Random],
        ] {
            let cfg = |threads, seed| SimConfig {
                threads: Some(threads),
                agents,
                ..SimConfig::new(60, seed)
            };
            let one = without_time(simulate(&any, &cfg(1, 5), None));
            let two = without_time(simulate(&any, &cfg(2, 5), None));
            let again = without_time(simulate(&any, &cfg(2, 5), None));
            assert_eq!(one, two, "{name} {agents:?}: 1 thread vs 2 threads");
            assert_eq!(two, again, "{name} {agents:?}: same seed twice");
            let other = without_time(simulate(&any, &cfg(2, 6), None));
            assert_ne!(one.total_plies, other.total_plies, "{name}: seeds 5 and 6");
        }
    }
}

#[test]
fn every_go_game_on_5x5_ends_by_a_rule_of_its_ruleset_or_the_cap() {
    for b in morrigo_rules::builtin::family("go") {
        let any = go(b.name, 5);
        for agents in [
            [AgentSpec::Random; 2],
            [AgentSpec::Greedy, AgentSpec::Random],
            [AgentSpec::Greedy; 2],
        ] {
            let cfg = SimConfig {
                agents,
                max_plies: 600,
                ..SimConfig::new(60, 17)
            };
            with_machine!(&any, m => {
                let mut moves = Vec::new();
                for i in 0..cfg.games as u64 {
                    let g = play_game(m, &cfg, i, &mut moves);
                    let at = format!("{} {agents:?} game {i}: {g:?}", b.name);
                    assert!(!g.stuck, "{at}");
                    let Some(rule) = g.end_rule else {
                        assert_eq!(g.plies, cfg.max_plies, "{at}: stopped early");
                        assert_eq!((g.winner, g.score), (None, None), "{at}");
                        continue;
                    };
                    let end = &m.rules.end[rule as usize];
                    match end.verdict {
                        Verdict::Draw => assert_eq!(g.winner, None, "{at}"),
                        Verdict::NoResult => assert!(g.no_result && g.winner.is_none(), "{at}"),
                        Verdict::Lose | Verdict::Win => assert!(g.winner.is_some(), "{at}"),
                        Verdict::Score => {
                            let score = g.score.unwrap_or_else(|| panic!("{at}: no score"));
                            assert_eq!(g.winner, winner(score), "{at}");
                        }
                        Verdict::CompareCaptures => {}
                    }
                    if end.verdict != Verdict::Score {
                        assert_eq!(g.score, None, "{at}");
                    }
                    assert!(g.turns == g.plies && g.plies > 0, "{at}");
                }
            });
            let r = simulate(&any, &cfg, None);
            let no_results = r.no_results.unwrap_or(0);
            assert_eq!(
                r.wins[0] + r.wins[1] + r.draws + no_results + r.unfinished,
                r.games
            );
            let decided: u32 = r.end_rules.iter().map(|(_, c)| c).sum();
            assert_eq!(decided + r.unfinished, r.games, "{r:?}");
            assert_eq!(r.stuck, 0, "{r:?}");
            assert_eq!(r.mean_score.is_some(), r.counted > 0, "{r:?}");
        }
    }
}

#[test]
fn counted_games_report_mean_scores_and_prisoners() {
    let any = go("chinese", 7);
    let r = simulate(&any, &SimConfig::new(100, 3), None);
    // Chinese rules end only by two passes, which count the board.
    assert_eq!(r.counted + r.unfinished, r.games, "{r:?}");
    let [b, w] = r.mean_score.expect("counted games");
    // Area scores: at most the board, plus komi for white.
    assert!(
        (0.0..=49.0).contains(&b) && (7.5..=56.5).contains(&w),
        "{r:?}"
    );
    assert!(r.captured[0] > 0 && r.captured[1] > 0, "{r:?}");
}

#[test]
fn greedy_beats_random_on_7x7_chinese_more_often_than_it_loses() {
    let any = go("chinese", 7);
    let games = 100;
    let greedy_black = simulate(
        &any,
        &SimConfig {
            agents: [AgentSpec::Greedy, AgentSpec::Random],
            ..SimConfig::new(games, 31)
        },
        None,
    );
    let greedy_white = simulate(
        &any,
        &SimConfig {
            agents: [AgentSpec::Random, AgentSpec::Greedy],
            ..SimConfig::new(games, 32)
        },
        None,
    );
    let won = greedy_black.wins[0] + greedy_white.wins[1];
    let lost = greedy_black.wins[1] + greedy_white.wins[0];
    assert!(
        won > 5 * lost + 100,
        "greedy won {won}, lost {lost} of {}",
        2 * games
    );
}

#[test]
fn greedy_never_fills_its_own_eye_while_it_has_another_play() {
    use morrigo_engine::{Move, MoveKind};
    use morrigo_play::{game_rng, Player};
    let any = go("chinese", 5);
    with_machine!(&any, m => {
        // Black owns the first two rows but for an eye at (0, 0); white
        // stones elsewhere keep the rest of the board open.
        let mut s = m.initial();
        let plays = [(1, 15), (2, 16), (3, 17), (4, 18), (5, 19), (6, 20), (7, 21), (8, 22), (9, 23)];
        for (b, w) in plays {
            m.apply(&mut s, Move::play(b));
            m.apply(&mut s, Move::play(w));
        }
        let mut moves = Vec::new();
        assert!(m.legal_moves(&s, &mut moves).is_none());
        assert!(moves.contains(&Move::play(0)), "the eye is a legal play");
        for seed in 0..50 {
            let mv = Player::new(AgentSpec::Greedy).choose(m, &mut s, &moves, &mut game_rng(seed, 0));
            assert_ne!(mv, Move::play(0), "seed {seed}: filled its own eye");
            assert_ne!(mv.kind, MoveKind::Pass, "seed {seed}: passed with plays left");
        }
    });
}
