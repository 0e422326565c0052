//! Agents of every kind play only legal moves on every built-in ruleset;
//! alpha-beta finds forced captures and escapes in Go positions built by
//! hand; the searching agents beat the simple ones in seeded matches large
//! enough that chance cannot explain the result.

use morrigo_engine::{with_machine, AnyMachine, Machine, Move, State};
use morrigo_play::{game_rng, simulate, AgentSpec, Player, SimConfig};

use crate::common::*;

// ----- legal play ------------------------------------------------------------

/// One game, every move checked against the engine's list of legal moves
/// and by `check_move`; the agents' probing must leave the state as it was.
/// Returns the plies played.
fn checked_game<const W: usize>(
    m: &Machine<W>,
    agents: [AgentSpec; 2],
    seed: u64,
    cap: u32,
) -> u32 {
    let mut players = agents.map(Player::new);
    let mut rng = game_rng(seed, 0);
    let mut s = m.initial();
    let mut moves = Vec::new();
    while s.pos.ply < cap {
        if m.legal_moves(&s, &mut moves).is_some() || moves.is_empty() {
            break;
        }
        let me = s.pos.to_move as usize;
        let before = s.pos.hash;
        let mv = players[me].choose(m, &mut s, &moves, &mut rng);
        let where_ = || {
            format!(
                "{} {:?} seed {seed} ply {}",
                m.rules.name, agents[me], s.pos.ply
            )
        };
        assert!(
            moves.contains(&mv),
            "{}: {mv:?} is not in the legal list",
            where_()
        );
        assert!(
            m.check_move(&s, mv).is_ok(),
            "{}: the engine refuses {mv:?}",
            where_()
        );
        assert_eq!(
            s.pos.hash,
            before,
            "{}: the agent changed the position",
            where_()
        );
        m.apply(&mut s, mv);
    }
    s.pos.ply
}

#[test]
fn every_agent_kind_plays_only_legal_moves_on_every_builtin_ruleset() {
    // Small budgets: the point is the moves, not their quality.
    let agents = [
        AgentSpec::Uniform,
        AgentSpec::Random,
        AgentSpec::Greedy,
        ab(2),
        mcts(24),
    ];
    let mut games = 0;
    for b in morrigo_rules::builtin::all() {
        let go = b.path.starts_with("rulesets/go/");
        let any = load(b.name, go.then_some(5));
        let mut plies = 0;
        for (i, &a) in agents.iter().enumerate() {
            for seed in 0..2u64 {
                // Each agent meets two others, in both seats.
                let other = agents[(i + 1 + 2 * seed as usize) % agents.len()];
                plies += with_machine!(&any, m => checked_game(m, [a, other], seed, 150));
                plies += with_machine!(&any, m => checked_game(m, [other, a], seed, 150));
                games += 2;
            }
        }
        assert!(plies >= 100, "{}: only {plies} plies played", b.name);
    }
    assert!(games >= 20 * morrigo_rules::builtin::all().len());
}

// ----- Go tactics ------------------------------------------------------------

/// Does some move of the player to move capture at once?
fn can_capture<const W: usize>(m: &Machine<W>, s: &mut State<W>) -> bool {
    let mut moves = Vec::new();
    m.legal_moves(s, &mut moves);
    moves.iter().any(|&mv| {
        let captured = s.pos.captured[s.pos.to_move as usize];
        let u = m.apply(s, mv);
        let took = s.pos.captured[(s.pos.to_move ^ 1) as usize] > captured;
        m.undo(s, u);
        took
    })
}

/// After `mv`, whatever the opponent replies, the mover captures next.
fn forces_a_capture<const W: usize>(m: &Machine<W>, s: &mut State<W>, mv: Move) -> bool {
    let u = m.apply(s, mv);
    let mut replies = Vec::new();
    m.legal_moves(s, &mut replies);
    let forced = replies.iter().all(|&r| {
        let v = m.apply(s, r);
        let yes = m.outcome(s).is_none() && can_capture(m, s);
        m.undo(s, v);
        yes
    });
    m.undo(s, u);
    forced
}

#[test]
fn alphabeta_drives_an_edge_stone_into_the_corner_and_captures_it() {
    // 5×5 area scoring, black to move. White A2 sits on the edge with
    // liberties A1 and A3 (black holds B2). Black A3 leaves it A1, and
    // extending there leaves the pair only B1: captured either way. Black
    // A1 instead lets white extend to A3 and out.
    let any = load("chinese", Some(5));
    with_machine!(&any, m => {
        let mut s = m.state_from(points(m, &["B2"]), points(m, &["A2"]), [0, 0], 0);
        let (a3, a1) = (Move::play(at(m, "A3")), Move::play(at(m, "A1")));
        assert!(forces_a_capture(m, &mut s, a3), "the premise: A3 wins the stone");
        assert!(!forces_a_capture(m, &mut s, a1), "the premise: A1 lets it escape");
        let mut moves = Vec::new();
        assert!(m.legal_moves(&s, &mut moves).is_none());
        for depth in [3, 4] {
            let mut player = Player::new(ab(depth));
            let mv = player.choose(m, &mut s, &moves, &mut game_rng(0, 0));
            assert_eq!(mv, a3, "depth {depth}");
            let info = player.last_search().unwrap();
            assert!(info.score >= 40, "depth {depth}: a prisoner ahead: {info:?}");
        }
    });
}

#[test]
fn alphabeta_saves_a_stone_in_atari() {
    // 5×5 area scoring, white to move: C3 has one liberty, C4 (black on
    // B3, C2, D3). Extending to C4 gives the pair three liberties; any
    // other move loses the stone to black C4.
    let any = load("chinese", Some(5));
    with_machine!(&any, m => {
        let black = points(m, &["B3", "C2", "D3"]);
        let mut s = m.state_from(black, points(m, &["C3"]), [0, 0], 1);
        let c4 = Move::play(at(m, "C4"));
        let mut moves = Vec::new();
        assert!(m.legal_moves(&s, &mut moves).is_none());
        for depth in 1..=4 {
            let mv = Player::new(ab(depth)).choose(m, &mut s, &moves, &mut game_rng(0, 0));
            assert_eq!(mv, c4, "depth {depth}");
        }
        // The premise: after C4 black cannot capture; after a pass it can.
        let u = m.apply(&mut s, c4);
        assert!(!can_capture(m, &mut s));
        m.undo(&mut s, u);
        m.apply(&mut s, Move::pass(0));
        assert!(can_capture(m, &mut s));
    });
}

// ----- strength --------------------------------------------------------------

/// Wins and losses of `strong` against `weak`, half the games in each seat.
fn match_result(
    any: &AnyMachine,
    strong: AgentSpec,
    weak: AgentSpec,
    games: u32,
    max_plies: u32,
) -> (u32, u32) {
    let (mut won, mut lost) = (0, 0);
    for (seat, agents) in [[strong, weak], [weak, strong]].into_iter().enumerate() {
        let cfg = SimConfig {
            agents,
            max_plies,
            ..SimConfig::new(games / 2, 1234)
        };
        let r = simulate(any, &cfg, None);
        won += r.wins[seat];
        lost += r.wins[seat ^ 1];
    }
    (won, lost)
}

// Under the hypothesis that the two agents are equally strong, winning at
// least 3/4 of 32 decided games has a probability below 0.2%.

#[test]
fn alphabeta_beats_greedy_at_nine_mens_morris() {
    let any = load("nine-mens-morris", None);
    let (won, lost) = match_result(&any, ab(3), AgentSpec::Greedy, 40, 300);
    assert!(
        won + lost >= 32 && won * 4 >= (won + lost) * 3,
        "alphabeta:depth=3 won {won}, lost {lost} of 40"
    );
}

#[test]
fn mcts_beats_random_at_go_on_5x5() {
    let any = load("chinese", Some(5));
    let (won, lost) = match_result(&any, mcts(200), AgentSpec::Random, 40, 200);
    assert!(
        won + lost >= 32 && won * 4 >= (won + lost) * 3,
        "mcts:playouts=200 won {won}, lost {lost} of 40"
    );
}

#[test]
fn mcts_beats_random_at_nine_mens_morris() {
    let any = load("nine-mens-morris", None);
    let (won, lost) = match_result(&any, mcts(200), AgentSpec::Random, 40, 300);
    assert!(
        won + lost >= 32 && won * 4 >= (won + lost) * 3,
        "mcts:playouts=200 won {won}, lost {lost} of 40"
    );
}
