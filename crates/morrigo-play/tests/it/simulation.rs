//! Simulation outcomes on the built-in Morris rulesets.

use morrigo_engine::{with_machine, AnyMachine};
use morrigo_play::{play_game, simulate, AgentSpec, SimConfig, SimReport};
use morrigo_rules::Verdict;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

fn machine(name: &str) -> AnyMachine {
    morrigo_play::machine(name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn without_time(mut r: SimReport) -> SimReport {
    r.elapsed_secs = 0.0;
    r.secs_per_game = 0.0;
    r
}

fn rule_count(r: &SimReport, name: &str) -> u32 {
    r.end_rules
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, c)| *c)
        .unwrap_or_else(|| panic!("{} has no end rule {name}", r.ruleset))
}

#[test]
fn simulate_is_deterministic_for_a_seed_and_independent_of_thread_count() {
    let any = machine("nine-mens-morris");
    let cfg = |threads, seed| SimConfig {
        threads: Some(threads),
        ..SimConfig::new(120, seed)
    };
    let one = without_time(simulate(&any, &cfg(1, 11), None));
    let two = without_time(simulate(&any, &cfg(2, 11), None));
    let again = without_time(simulate(&any, &cfg(2, 11), None));
    assert_eq!(one, two, "1 thread vs 2 threads");
    assert_eq!(two, again, "same seed twice");
    let other = without_time(simulate(&any, &cfg(2, 12), None));
    assert_ne!(
        one.total_plies, other.total_plies,
        "a different seed should play different games"
    );
}

#[test]
fn every_random_nmm_game_ends_by_an_end_rule_or_the_cap() {
    let any = machine("nine-mens-morris");
    let cfg = SimConfig::new(200, 3);
    with_machine!(&any, m => {
        let mut moves = Vec::new();
        for i in 0..cfg.games as u64 {
            let g = play_game(m, &cfg, i, &mut moves);
            match g.end_rule {
                Some(rule) => {
                    let end = &m.rules.end[rule as usize];
                    match end.verdict {
                        Verdict::Draw => assert_eq!(g.winner, None, "game {i}: {}", end.name),
                        Verdict::Lose | Verdict::Win => {
                            assert!(g.winner.is_some(), "game {i}: {}", end.name)
                        }
                        Verdict::Score | Verdict::CompareCaptures | Verdict::NoResult => {
                            panic!("game {i}: Nine Men's Morris has no counted end ({})", end.name)
                        }
                    }
                }
                None => {
                    assert_eq!(g.plies, cfg.max_plies, "game {i} stopped early");
                    assert_eq!(g.winner, None);
                }
            }
            assert!(g.turns <= g.plies && g.plies > 0, "game {i}: {g:?}");
        }
    });
    let r = simulate(&any, &cfg, None);
    assert_eq!(r.wins[0] + r.wins[1] + r.draws + r.unfinished, r.games);
    let decided: u32 = r.end_rules.iter().map(|(_, c)| c).sum();
    assert_eq!(decided + r.unfinished, r.games);
    let names: Vec<&str> = r.end_rules.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["too_few_pieces", "blocked", "repetition", "no_removal"],
        "end rules in the ruleset's order, zero counts included"
    );
    // A random game of Nine Men's Morris lasts at least the 18 placements.
    assert!(r.mean_plies >= 18.0 && r.mean_turns >= 18.0, "{r:?}");
}

#[test]
fn three_mens_morris_games_end_by_line_made_repetition_or_blocked() {
    let any = machine("three-mens-morris");
    let r = simulate(&any, &SimConfig::new(300, 5), None);
    let by_rules =
        rule_count(&r, "line_made") + rule_count(&r, "repetition") + rule_count(&r, "blocked");
    assert_eq!(r.unfinished, 0, "{r:?}");
    assert_eq!(by_rules, r.games, "{r:?}");
    assert!(rule_count(&r, "line_made") > 0, "{r:?}");
    assert_eq!(r.wins[0] + r.wins[1] + r.draws, r.games);
}

#[test]
fn greedy_beats_random_in_nmm_more_often_than_it_loses() {
    let any = machine("nine-mens-morris");
    let games = 100;
    let greedy_white = simulate(
        &any,
        &SimConfig {
            agents: [AgentSpec::Greedy, AgentSpec::Random],
            ..SimConfig::new(games, 21)
        },
        None,
    );
    let greedy_black = simulate(
        &any,
        &SimConfig {
            agents: [AgentSpec::Random, AgentSpec::Greedy],
            ..SimConfig::new(games, 22)
        },
        None,
    );
    let won = greedy_white.wins[0] + greedy_black.wins[1];
    let lost = greedy_white.wins[1] + greedy_black.wins[0];
    // A wide margin: greedy should win far more than twice as often.
    assert!(
        won > 2 * lost + 20,
        "greedy won {won}, lost {lost} of {}",
        2 * games
    );
}

#[test]
fn greedy_agent_is_deterministic_for_a_seed() {
    let any = machine("nine-mens-morris");
    let cfg = |threads| SimConfig {
        agents: [AgentSpec::Greedy, AgentSpec::Greedy],
        threads: Some(threads),
        ..SimConfig::new(30, 9)
    };
    let a = without_time(simulate(&any, &cfg(1), None));
    let b = without_time(simulate(&any, &cfg(2), None));
    assert_eq!(a, b);
}

#[test]
fn every_builtin_morris_ruleset_simulates_to_consistent_totals() {
    for b in morrigo_rules::builtin::family("morris") {
        let any = machine(b.name);
        let r = simulate(&any, &SimConfig::new(40, 1), None);
        assert_eq!(r.ruleset, b.name);
        assert_eq!(
            r.wins[0] + r.wins[1] + r.draws + r.unfinished,
            r.games,
            "{r:?}"
        );
        let decided: u32 = r.end_rules.iter().map(|(_, c)| c).sum();
        assert_eq!(decided + r.unfinished, r.games, "{r:?}");
        assert_eq!(r.end_rules.len(), any.rules().end.len());
    }
}

#[test]
fn the_ply_cap_stops_games_as_unfinished() {
    let any = machine("nine-mens-morris");
    let r = simulate(
        &any,
        &SimConfig {
            max_plies: 10,
            ..SimConfig::new(20, 4)
        },
        None,
    );
    assert_eq!(r.unfinished, 20);
    assert_eq!(r.total_plies, 200);
    assert_eq!(r.wins, [0, 0]);
}

#[test]
fn simulate_until_with_a_flag_never_set_gives_simulates_report() {
    let any = machine("nine-mens-morris");
    let cfg = SimConfig {
        threads: Some(2),
        ..SimConfig::new(60, 3)
    };
    let stop = AtomicBool::new(false);
    let until = morrigo_play::simulate_until(&any, &cfg, None, &stop).expect("not stopped");
    assert_eq!(
        without_time(until),
        without_time(simulate(&any, &cfg, None))
    );
}

#[test]
fn simulate_until_a_flag_set_beforehand_plays_no_game() {
    let any = machine("nine-mens-morris");
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(true);
    let r = morrigo_play::simulate_until(&any, &SimConfig::new(500, 1), Some(&done), &stop);
    assert!(r.is_none(), "a stopped run has no report");
    assert_eq!(
        done.load(Ordering::Relaxed),
        0,
        "no game starts once stopped"
    );
}

#[test]
fn simulate_until_stops_within_one_game_a_thread_of_the_flag() {
    let any = machine("nine-mens-morris");
    let threads = 2;
    // Searching agents: minutes for every game, so the flag lands mid-run
    // however slow the watcher is.
    let cfg = SimConfig {
        agents: ["mcts:playouts=100".parse().unwrap(); 2],
        threads: Some(threads),
        ..SimConfig::new(10_000, 2)
    };
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let at_stop = std::thread::scope(|s| {
        let watcher = s.spawn(|| {
            while done.load(Ordering::Relaxed) < 4 {
                std::thread::sleep(Duration::from_millis(1));
            }
            stop.store(true, Ordering::Relaxed);
            // Read after the store: every game counted later had started
            // before it.
            done.load(Ordering::Relaxed)
        });
        let r = morrigo_play::simulate_until(&any, &cfg, Some(&done), &stop);
        assert!(r.is_none(), "the run was stopped before its 10000 games");
        watcher.join().unwrap()
    });
    let played = done.load(Ordering::Relaxed);
    assert!(
        played <= at_stop + threads as u64,
        "{played} games played, {at_stop} when stopped: at most one more a thread"
    );
}
