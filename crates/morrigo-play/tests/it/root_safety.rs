//! No agent (but `uniform`, the baseline) plays a move that loses at once
//! while another move exists, nor a pass the opponent can answer with a
//! pass that ends the game with the mover lost by the count: checked on
//! seeded random positions of every built-in ruleset, each agent asked.

use morrigo_engine::{with_machine, Machine, Move, MoveKind, State};
use morrigo_play::{game_rng, loses_at_once, prepare_agents, AgentSpec, PerfectParams, Player};
use rand::Rng;

use crate::common::*;

/// Checked independently of the agents' filter: after the pass `mv`, can
/// the opponent end the game at once with a pass of their own, the mover
/// lost?
fn pass_lets_the_opponent_win_by_passing<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    mv: Move,
) -> bool {
    if mv.kind != MoveKind::Pass {
        return false;
    }
    let me = s.pos.to_move;
    let u = m.apply(s, mv);
    let mut replies = Vec::new();
    let mut lost = false;
    if s.pos.pending == 0 && s.pos.to_move != me && m.legal_moves(s, &mut replies).is_none() {
        for r in replies.into_iter().filter(|r| r.kind == MoveKind::Pass) {
            let u2 = m.apply(s, r);
            lost |= s.pos.pending == 0 && m.outcome(s).is_some_and(|o| o.winner == Some(me ^ 1));
            m.undo(s, u2);
        }
    }
    m.undo(s, u);
    lost
}

/// A position of a seeded random game: up to 60 plies of uniform play,
/// ending on a pass half the time where one is legal (so passes that end
/// the game or let the opponent end it come up). `None` if the game ended.
fn random_position<const W: usize>(m: &Machine<W>, seed: u64) -> Option<State<W>> {
    let mut rng = game_rng(seed, 1);
    let mut s = m.initial();
    let mut moves = Vec::new();
    let plies = rng.random_range(0..60u32);
    for ply in 0..=plies {
        if m.legal_moves(&s, &mut moves).is_some() || moves.is_empty() {
            return None;
        }
        let pass = moves.iter().copied().find(|mv| mv.kind == MoveKind::Pass);
        let mv = match pass {
            Some(p) if ply == plies && rng.random_bool(0.5) => p,
            _ => moves[rng.random_range(0..moves.len())],
        };
        m.apply(&mut s, mv);
    }
    (m.legal_moves(&s, &mut moves).is_none() && moves.len() > 1).then_some(s)
}

/// Each agent's move at each position: `(positions with a trap and a way
/// out, faults)`.
fn check_agents<const W: usize>(
    m: &Machine<W>,
    agents: &[AgentSpec],
    seeds: std::ops::Range<u64>,
) -> (u32, Vec<String>) {
    let (mut traps, mut faults) = (0, Vec::new());
    let mut moves = Vec::new();
    for seed in seeds {
        let Some(mut s) = random_position(m, seed) else {
            continue;
        };
        m.legal_moves(&s, &mut moves);
        let at_once: Vec<bool> = moves
            .iter()
            .map(|&mv| loses_at_once(m, &mut s, mv))
            .collect();
        let by_pass: Vec<bool> = moves
            .iter()
            .map(|&mv| pass_lets_the_opponent_win_by_passing(m, &mut s, mv))
            .collect();
        let safe_exists = (0..moves.len()).any(|i| !at_once[i] && !by_pass[i]);
        let no_loss_exists = at_once.iter().any(|&l| !l);
        if !(safe_exists && by_pass.iter().any(|&b| b)
            || no_loss_exists && at_once.iter().any(|&l| l))
        {
            continue;
        }
        traps += 1;
        for &a in agents {
            let mut player = Player::new(a);
            let mv = player.choose(m, &mut s, &moves, &mut game_rng(seed, 2));
            let i = moves.iter().position(|&x| x == mv).expect("a legal move");
            let why = if at_once[i] && no_loss_exists {
                "loses at once"
            } else if by_pass[i] && safe_exists {
                "is a pass the opponent's pass punishes"
            } else {
                continue;
            };
            faults.push(format!(
                "{} seed {seed}: {a} plays {mv:?}, which {why}",
                m.rules.name
            ));
        }
    }
    (traps, faults)
}

#[test]
fn no_agent_plays_a_move_that_loses_at_once_while_another_exists_on_any_builtin() {
    let mut agents = vec![AgentSpec::Random, AgentSpec::Greedy, ab(2), mcts(50)];
    let perfect = AgentSpec::Perfect(PerfectParams::default());
    let (mut traps, mut faults, mut rulesets_with_traps) = (0, Vec::new(), 0);
    for b in morrigo_rules::builtin::all() {
        let go = b.path.starts_with("rulesets/go/");
        let any = load(b.name, go.then_some(4));
        // The perfect agent too, where a solve on the fly is small.
        let with_perfect = prepare_agents(any.rules(), &[perfect], 4 << 20).is_ok();
        if with_perfect {
            agents.push(perfect);
        }
        let (t, f) = with_machine!(&any, m => check_agents(m, &agents, 0..150));
        if with_perfect {
            agents.pop();
        }
        traps += t;
        rulesets_with_traps += u32::from(t > 0);
        faults.extend(f);
    }
    assert!(
        faults.is_empty(),
        "{} faults:\n{}",
        faults.len(),
        faults.join("\n")
    );
    // The check must have met the traps it is about, on many rulesets (the
    // Go family's passes and suicides; Morris moves seldom lose at once).
    // Without the root filter, mcts and greedy fell into 14 of them.
    assert!(
        traps >= 100 && rulesets_with_traps >= 10,
        "{traps} traps on {rulesets_with_traps} rulesets"
    );
}
