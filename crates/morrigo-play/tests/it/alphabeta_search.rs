//! The alpha-beta agent's search (PVS, aspiration windows, reductions,
//! quiescence over owed removals and line closings, node budgets) against
//! exact values, and as a player: a larger node budget beats a smaller
//! one, seeded games differ, a node budget plays the same games on any
//! thread count.

use morrigo_engine::{with_machine, Machine, Move, State};
use morrigo_play::{game_rng, play_games, simulate, AgentSpec, AlphaBeta, AlphaBetaParams};
use morrigo_play::{Player, SimConfig, WIN};
use morrigo_solve::{solve, solver_rules, Quiet, Table, Value};
use std::collections::HashSet;
use std::sync::Arc;

use crate::common::*;

fn nodes(n: u64) -> AgentSpec {
    AgentSpec::AlphaBeta(AlphaBetaParams {
        depth: AlphaBetaParams::MAX_DEPTH,
        nodes: Some(n),
        ..AlphaBetaParams::default()
    })
}

/// Positions of seeded uniform-random games of `m` (the game not over).
fn positions<const W: usize>(m: &Machine<W>, games: u64) -> Vec<(State<W>, Vec<Move>)> {
    let mut out = Vec::new();
    let mut moves = Vec::new();
    let mut uniform = Player::new(AgentSpec::Uniform);
    for g in 0..games {
        let mut rng = game_rng(5, g);
        let mut s = m.initial();
        while m.legal_moves(&s, &mut moves).is_none() && !moves.is_empty() {
            out.push((s.clone(), moves.clone()));
            let mv = uniform.choose(m, &mut s, &moves, &mut rng);
            m.apply(&mut s, mv);
        }
    }
    out
}

/// Three Men's Morris is solved; the search alone (no table) must agree
/// with the table wherever the table's value is within its depth: a win
/// in `d` plies scores a win, a loss a loss, and a draw is never scored
/// as a forced result (soundness of PVS, reductions and the table keys).
#[test]
fn search_without_table_agrees_with_the_solved_values_of_three_mens_morris() {
    let any = load("three-mens-morris", None);
    with_machine!(&any, m => {
        let solver = morrigo_engine::AnyMachine::new(Arc::new(solver_rules(&m.rules))).unwrap();
        let table: Table = with_machine!(&solver, sm => solve(sm, &sm.initial(), 64 << 20, &Quiet).unwrap().0);
        let mut checked = [0usize; 3];
        let mut rng = game_rng(1, 0);
        for (mut s, moves) in positions(m, 12) {
            // A lone move is played unsearched past one ply.
            let Some(v) = table.value(&s.pos).filter(|_| moves.len() > 1) else {
                continue;
            };
            let mut ab = AlphaBeta::new(AlphaBetaParams { depth: 12, ..AlphaBetaParams::default() })
                .without_table();
            let mv = ab.choose(m, &mut s, &moves, &mut rng);
            let score = ab.last().score;
            let decided = WIN - 10_000;
            match v {
                Value::Win(d) if d <= 9 => {
                    assert!(score >= decided, "a win in {d}: scored {score}");
                    checked[0] += 1;
                    // The chosen move keeps the win.
                    let me = s.pos.to_move;
                    let u = m.apply(&mut s, mv);
                    let after = table.value(&s.pos).unwrap();
                    let after = if s.pos.to_move == me { after } else { after.flip() };
                    m.undo(&mut s, u);
                    assert!(matches!(after, Value::Win(_)), "the chosen move leads to {after:?}");
                }
                Value::Loss(d) if d <= 9 => {
                    assert!(score <= -decided, "a loss in {d}: scored {score}");
                    checked[1] += 1;
                }
                Value::Draw => {
                    assert!(score.abs() < decided, "a draw scored {score}");
                    checked[2] += 1;
                }
                _ => {}
            }
        }
        assert!(checked.iter().all(|&n| n >= 5), "wins, losses, draws checked: {checked:?}");
    });
}

/// A larger node budget beats a smaller one on Nine Men's Morris (too
/// large to be solved on the fly): seeded games, both seats, a score well
/// above half.
#[test]
fn a_larger_node_budget_beats_a_smaller_one() {
    let any = load("nine-mens-morris", None);
    let (strong, weak) = (nodes(4000), nodes(150));
    let mut points = 0.0;
    let games = 6;
    for (agents, seat) in [([strong, weak], 0), ([weak, strong], 1)] {
        let cfg = SimConfig {
            agents,
            max_plies: 300,
            ..SimConfig::new(games, 3)
        };
        let r = simulate(&any, &cfg, None);
        points += r.wins[seat] as f64 + 0.5 * r.draws as f64;
    }
    let share = points / (2 * games) as f64;
    assert!(
        share >= 0.7,
        "the larger budget scored {share:.2} of {} games",
        2 * games
    );
}

/// Seeded self-play at a node budget plays different games, and the same
/// ones again with the same seed on any thread count (nodes, not time).
#[test]
fn node_budget_games_vary_with_the_seed_and_repeat_on_any_thread_count() {
    let any = load("nine-mens-morris", None);
    let cfg = SimConfig {
        agents: [nodes(1500); 2],
        max_plies: 120,
        threads: Some(1),
        ..SimConfig::new(6, 11)
    };
    let hashes = |cfg: &SimConfig| -> Vec<u64> {
        play_games(&any, cfg, 0..cfg.games, None)
            .iter()
            .map(|g| g.moves_hash)
            .collect()
    };
    let one = hashes(&cfg);
    let distinct = one.iter().collect::<HashSet<_>>().len();
    assert!(distinct >= 4, "6 seeded games, {distinct} distinct");
    let two = hashes(&SimConfig {
        threads: Some(2),
        ..cfg.clone()
    });
    assert_eq!(one, two, "the same games on one thread and on two");
}

/// Five Men's Morris (sixteen points, a draw with perfect play) is solved
/// whole by the sector solver when the agent starts, and played from that
/// table: self-play at depth 1, which alone blunders into losses, draws
/// every game, and every move comes from the table (no search).
#[test]
fn five_mens_morris_is_played_from_its_whole_game_table() {
    let any = load("five-mens-morris", None);
    let cfg = SimConfig {
        agents: [ab(1); 2],
        max_plies: 400,
        ..SimConfig::new(8, 4)
    };
    let r = simulate(&any, &cfg, None);
    assert_eq!(r.draws, 8, "perfect play draws: {:?} wins", r.wins);
    with_machine!(&any, m => {
        let mut p = Player::new(ab(1));
        p.new_game();
        let mut s = m.initial();
        let mut moves = Vec::new();
        m.legal_moves(&s, &mut moves);
        p.choose(m, &mut s, &moves, &mut game_rng(1, 0));
        let info = p.last_search().expect("an alpha-beta search");
        assert_eq!((info.depth, info.nodes), (0, 0), "the table answered: {info:?}");
    });
}

/// The perfect agent with no `table=` plays Five Men's Morris from the
/// same whole-game table (the explicit solve would need more memory than
/// a solve on the fly may take): against greedy it loses no game in
/// either seat.
#[test]
fn the_perfect_agent_plays_five_mens_morris_from_its_whole_game_table() {
    let any = load("five-mens-morris", None);
    let perfect = AgentSpec::Perfect(Default::default());
    morrigo_play::prepare_agents(any.rules(), &[perfect], morrigo_play::ON_THE_FLY_MEMORY)
        .expect("the perfect agent is prepared without a file");
    for (agents, seat) in [
        ([perfect, AgentSpec::Greedy], 0),
        ([AgentSpec::Greedy, perfect], 1),
    ] {
        let cfg = SimConfig {
            agents,
            max_plies: 400,
            ..SimConfig::new(6, 8)
        };
        let r = simulate(&any, &cfg, None);
        assert_eq!(
            r.wins[1 - seat],
            0,
            "greedy beat perfect: {:?}, {} draws",
            r.wins,
            r.draws
        );
    }
}
