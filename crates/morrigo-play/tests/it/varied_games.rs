//! Seeded games differ (agents draw among equal moves with the seed) and
//! the same seed plays the same games again; `distinct_games` counts the
//! games that differ in their moves.

use morrigo_engine::{with_machine, Machine, Move, Sample};
use morrigo_play::{game_rng, play_games, simulate, AgentSpec, SimConfig};
use rand::Rng;
use std::collections::HashSet;

use crate::common::*;

/// Alpha-beta ignored the seed: its self-play was one game repeated.
#[test]
fn seeded_alphabeta_self_play_plays_different_games_and_repeats_them_with_the_seed() {
    let any = load("nine-mens-morris", None);
    let cfg = SimConfig {
        agents: [ab(3); 2],
        max_plies: 200,
        ..SimConfig::new(10, 7)
    };
    let hashes = |cfg: &SimConfig| -> Vec<u64> {
        play_games(&any, cfg, 0..cfg.games, None)
            .iter()
            .map(|g| g.moves_hash)
            .collect()
    };
    let first = hashes(&cfg);
    let distinct = first.iter().collect::<HashSet<_>>().len();
    assert!(distinct > 1, "10 seeded games, {distinct} distinct");
    assert_eq!(hashes(&cfg), first, "the same seed plays the same games");
    let report = simulate(&any, &cfg, None);
    assert_eq!(report.distinct_games, Some(distinct as u32));
}

/// The uniform agent's games of `cfg`, replayed here move by move as the
/// simulation plays them: the number of distinct move sequences and of
/// distinct final positions.
fn replayed<const W: usize>(m: &Machine<W>, cfg: &SimConfig) -> (usize, usize) {
    let (mut games, mut ends) = (HashSet::<Vec<Move>>::new(), HashSet::new());
    let mut moves = Vec::new();
    for i in 0..cfg.games {
        let mut rng = game_rng(cfg.seed, u64::from(i));
        let mut s = m.initial();
        let mut line = Vec::new();
        let mut draw = |n: u32| {
            if n == 1 {
                0
            } else {
                rng.random_range(0..n as usize) as u32
            }
        };
        while let Sample::Move(mv) = m.sample_move(&s, &mut moves, &mut draw) {
            if line.len() as u32 >= cfg.max_plies {
                break;
            }
            m.apply(&mut s, mv);
            line.push(mv);
        }
        games.insert(line);
        ends.insert(s.pos.hash);
    }
    (games.len(), ends.len())
}

/// `distinct games` must count move sequences: equal games once, and games
/// that reach the same position by another order apart.
#[test]
fn distinct_games_count_the_different_move_sequences() {
    let any = load("nine-mens-morris", None);
    let cfg = SimConfig {
        agents: [AgentSpec::Uniform; 2],
        // Three placements: 12,144 sequences, so 3,000 games repeat some,
        // and transposed ones (a, b, c / c, b, a) reach the same position.
        max_plies: 3,
        ..SimConfig::new(3000, 5)
    };
    let (sequences, positions) = with_machine!(&any, m => replayed(m, &cfg));
    assert!(
        sequences < 3000 && positions < sequences,
        "{sequences} / {positions}"
    );
    for threads in [1, 2] {
        let r = simulate(
            &any,
            &SimConfig {
                threads: Some(threads),
                ..cfg.clone()
            },
            None,
        );
        assert_eq!(
            r.distinct_games,
            Some(sequences as u32),
            "{threads} threads"
        );
    }
    let one_ply = simulate(
        &any,
        &SimConfig {
            max_plies: 1,
            ..cfg.clone()
        },
        None,
    );
    assert_eq!(
        one_ply.distinct_games,
        Some(24),
        "one placement on 24 points"
    );
}

/// `margin=N` finds every root move within N of the best (a window one
/// unit below it) and draws among them: seeded games differ there too.
#[test]
fn alphabeta_with_a_margin_draws_among_near_equal_moves() {
    let any = load("nine-mens-morris", None);
    let spec: AgentSpec = "alphabeta:depth=2,margin=5".parse().unwrap();
    let cfg = SimConfig {
        agents: [spec; 2],
        max_plies: 60,
        ..SimConfig::new(6, 3)
    };
    let a = simulate(&any, &cfg, None);
    assert!(a.distinct_games.unwrap() > 1, "{:?}", a.distinct_games);
    assert_eq!(simulate(&any, &cfg, None).distinct_games, a.distinct_games);
}
