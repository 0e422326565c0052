//! The ladder (`morrigo compare --ladder`) on a real game: its tables,
//! its independence from the thread count, and the blunder count the
//! perfect agent's table gives. (Moved out of the crate's unit tests: run
//! there, they compiled the whole ladder at every board width a second
//! time, for the library's test harness.)

use morrigo_engine::AnyMachine;
use morrigo_play::ladder::{ladder, ladder_table, solves_cheaply, table_for, LadderConfig};
use morrigo_play::{Format, PerfectParams};

fn machine(name: &str) -> AnyMachine {
    morrigo_play::machine(name).unwrap()
}

fn config(agents: &[&str], games: u32, threads: usize) -> LadderConfig {
    LadderConfig {
        agents: agents.iter().map(|a| a.parse().unwrap()).collect(),
        games,
        seed: 5,
        max_plies: 300,
        threads: Some(threads),
        table: None,
    }
}

/// Only games whose explicit solve is small are solved without asking.
#[test]
fn only_small_games_are_solved_without_asking() {
    assert!(solves_cheaply(&machine("three-mens-morris")));
    assert!(!solves_cheaply(&machine("six-mens-morris")));
    assert!(!solves_cheaply(&machine("nine-mens-morris")));
    assert!(!solves_cheaply(&machine("tromp-taylor")));
}

#[test]
fn text_tables_are_aligned_with_a_rule_under_each_header() {
    let any = machine("three-mens-morris");
    let r = ladder(&any, &config(&["random", "greedy"], 4, 1), None);
    for (format, rule) in [(Format::Table, "----"), (Format::Markdown, "| :---")] {
        let text = ladder_table(&r, format);
        // Each table: its header, a rule, rows, all of one width.
        for block in text.split("\n\n").filter(|b| b.contains(rule)) {
            let lines: Vec<&str> = block.lines().filter(|l| !l.starts_with('#')).collect();
            assert!(lines[1].starts_with(rule), "{block}");
            let w = lines[1].chars().count();
            assert!(
                lines.iter().all(|l| l.trim_end().chars().count() <= w),
                "{block}"
            );
        }
        assert_eq!(
            text.lines().filter(|l| l.starts_with(rule)).count(),
            3,
            "{text}"
        );
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let any = machine("three-mens-morris");
    let one = ladder(&any, &config(&["random", "greedy", "uniform"], 10, 1), None);
    let two = ladder(&any, &config(&["random", "greedy", "uniform"], 10, 2), None);
    assert_eq!(one, two);
    assert_eq!(one.pairs.len(), 3);
    assert!(one.pairs.iter().all(|p| p.games == 10));
}

#[test]
fn the_perfect_agent_never_blunders_and_random_does() {
    let any = machine("three-mens-morris");
    let mut cfg = config(&["perfect", "uniform"], 10, 2);
    cfg.table = Some(table_for(any.rules(), PerfectParams::default(), 64 << 20).unwrap());
    let r = ladder(&any, &cfg, None);
    let perfect = r.agents[0].blunders.unwrap();
    let uniform = r.agents[1].blunders.unwrap();
    assert!(perfect.moves > 0);
    assert_eq!(perfect.blunders, 0);
    assert!(uniform.blunders > 0, "{uniform:?}");
    assert!(r.agents[0].elo > r.agents[1].elo);
    assert!(r.perfect_play.is_some());
}
