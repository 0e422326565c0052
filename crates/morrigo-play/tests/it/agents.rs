//! Agents: the `random` agent's refusal of moves that lose at once,
//! alpha-beta's and MCTS's Morris tactics, the playout policy. Legal play
//! on every ruleset, Go tactics and matches: `agent_play.rs`.

use morrigo_engine::{with_machine, Bits, Machine, Move, MoveKind, State};
use morrigo_play::{
    fills_own_eye, game_rng, loses_at_once, playout_move, simulate, AgentSpec, AlphaBetaParams,
    Player, SimConfig,
};

use crate::common::*;

/// Black to move on 3×3 JK where white holds the centre and the edges:
/// every corner play is a suicide, which loses the game at once (Art. 2.4
/// of the JK rules as the ruleset states it); passing does not.
fn jk_suicide_position<const W: usize>(m: &Machine<W>) -> State<W> {
    let mut white = Bits::EMPTY;
    for p in [1, 3, 4, 5, 7] {
        white.set(p);
    }
    m.state_from(Bits::EMPTY, white, [0, 0], 0)
}

#[test]
fn random_never_picks_a_move_that_loses_at_once_while_another_exists() {
    let any = load("jk-final", Some(3));
    with_machine!(&any, m => {
        let mut s = jk_suicide_position(m);
        let mut moves = Vec::new();
        assert!(m.legal_moves(&s, &mut moves).is_none());
        let losing: Vec<Move> = moves.iter().copied().filter(|&mv| loses_at_once(m, &mut s, mv)).collect();
        assert_eq!(losing.len(), 4, "the four corner plays lose at once: {moves:?}");
        assert!(losing.iter().all(|mv| mv.kind == MoveKind::Play));
        assert!(moves.len() > losing.len(), "a pass is left");
        let (mut uniform_lost, mut random) = (0, Player::new(AgentSpec::Random));
        for seed in 0..200 {
            let mv = random.choose(m, &mut s, &moves, &mut game_rng(seed, 0));
            assert!(!losing.contains(&mv), "seed {seed}: random chose the suicide {mv:?}");
            let u = Player::new(AgentSpec::Uniform).choose(m, &mut s, &moves, &mut game_rng(seed, 0));
            uniform_lost += losing.contains(&u) as u32;
        }
        // The position is a real test: the uniform agent falls into it.
        assert!(uniform_lost > 50, "uniform lost only {uniform_lost} times in 200");
    });
}

#[test]
fn random_playouts_avoid_suicide_where_uniform_ones_die_of_it() {
    let any = load("jk-final", Some(5));
    let rule = |agent| {
        let r = simulate(
            &any,
            &SimConfig {
                agents: [agent; 2],
                ..SimConfig::new(200, 3)
            },
            None,
        );
        r.end_rules
            .iter()
            .find(|(n, _)| n.contains("suicide"))
            .map_or(0, |(_, c)| *c)
    };
    let (uniform, random) = (rule(AgentSpec::Uniform), rule(AgentSpec::Random));
    assert!(
        uniform > 100,
        "uniform: {uniform} of 200 games end by suicide"
    );
    // What suicides remain come when every move loses (a full board after
    // the opponent's ending pass): checked move by move below. Random also
    // keeps from passes the opponent's pass would punish by the count, so it
    // plays on into full boards more often than when it passed (44 here).
    assert!(
        random * 3 < uniform,
        "random: {random} suicides, uniform {uniform}"
    );
}

#[test]
fn random_loses_at_once_only_when_every_move_does() {
    let any = load("jk-final", Some(5));
    with_machine!(&any, m => {
        let (mut forced, mut avoided) = (0, 0);
        for seed in 0..60 {
            let mut player = Player::new(AgentSpec::Random);
            let mut rng = game_rng(seed, 0);
            let mut s = m.initial();
            let mut moves = Vec::new();
            while s.pos.ply < 400 && m.legal_moves(&s, &mut moves).is_none() && !moves.is_empty() {
                let mv = player.choose(m, &mut s, &moves, &mut rng);
                let lose = moves.iter().filter(|&&x| loses_at_once(m, &mut s, x)).count();
                if loses_at_once(m, &mut s, mv) {
                    assert_eq!(lose, moves.len(), "seed {seed} ply {}: {mv:?} loses, others do not", s.pos.ply);
                    forced += 1;
                } else if lose > 0 {
                    avoided += 1;
                }
                m.apply(&mut s, mv);
            }
        }
        assert!(avoided > 100, "positions with a losing move avoided: {avoided} (forced {forced})");
    });
}

#[test]
fn alphabeta_plays_the_fork_that_forces_a_mill() {
    // White d1 and a7 share no line; a1 opens a1-d1-g1 and a1-a4-a7 at
    // once. Black can block only one: a mill three plies later.
    let any = load("nine-mens-morris", None);
    with_machine!(&any, m => {
        let white = points(m, &["d1", "a7"]);
        let black = points(m, &["f2", "d6"]);
        let mut s = m.state_from(white, black, [7, 7], 0);
        let mut moves = Vec::new();
        assert!(m.legal_moves(&s, &mut moves).is_none());
        let fork = Move::place(m.rules.topology.point("a1").unwrap());
        let mut player = Player::new(ab(4));
        let mv = player.choose(m, &mut s, &moves, &mut game_rng(0, 0));
        assert_eq!(mv, fork, "depth 4 finds the fork");
        // The search saw the piece it wins: White ahead (the score also
        // weighs mobility, 40 a free neighbour in Nine Men's Morris, so it
        // is not a piece's 100).
        let info = player.last_search().unwrap();
        assert_eq!(info.depth, 4);
        assert!(info.score > 0, "white ahead after the fork: {info:?}");
    });
}

#[test]
fn alphabeta_closes_a_mill_and_removes_a_piece() {
    // Moving phase: white slides d2 to d3, closing c3-d3-e3... built from
    // hand: white c3, e3 and d2; black elsewhere, none in hand.
    let any = load("nine-mens-morris", None);
    with_machine!(&any, m => {
        let white = points(m, &["c3", "e3", "d2", "a1"]);
        let black = points(m, &["g7", "d7", "f6", "b6"]);
        let mut s = m.state_from(white, black, [0, 0], 0);
        let mut moves = Vec::new();
        assert!(m.legal_moves(&s, &mut moves).is_none());
        let mut player = Player::new(ab(3));
        let mv = player.choose(m, &mut s, &moves, &mut game_rng(0, 0));
        let d2 = m.rules.topology.point("d2").unwrap();
        let d3 = m.rules.topology.point("d3").unwrap();
        assert_eq!((mv.from, mv.to), (d2, d3), "closes the mill: {mv:?}");
        m.apply(&mut s, mv);
        assert_eq!(s.pos.pending, 1, "the mill earns a removal");
        m.legal_moves(&s, &mut moves);
        let rm = player.choose(m, &mut s, &moves, &mut game_rng(0, 0));
        assert_eq!(rm.kind, MoveKind::Remove);
        m.apply(&mut s, rm);
        assert_eq!(s.pos.on_board[1], 3);
    });
}

#[test]
fn alphabeta_takes_the_winning_capture() {
    // 5×5 area scoring: the white stone on c3 has one liberty left (d3);
    // black captures it. White has no other stone (with one on e5, d5
    // ataris both, winning a stone as surely, and a search may rightly
    // prefer that).
    let any = load("chinese", Some(5));
    with_machine!(&any, m => {
        let t = &m.rules.topology;
        let at = |n: &str| t.point(n).unwrap_or_else(|| panic!("no point {n}: {:?}", t.names));
        let black = {
            let mut b = Bits::EMPTY;
            for n in ["B3", "C2", "C4"] {
                b.set(at(n) as usize);
            }
            b
        };
        let mut white = Bits::EMPTY;
        white.set(at("C3") as usize);
        let mut s = m.state_from(black, white, [0, 0], 0);
        let mut moves = Vec::new();
        assert!(m.legal_moves(&s, &mut moves).is_none());
        let mv = Player::new(ab(2)).choose(m, &mut s, &moves, &mut game_rng(0, 0));
        assert_eq!(mv, Move::play(at("D3")), "captures on D3");
    });
}

#[test]
fn alphabeta_games_are_identical_whatever_the_thread_count() {
    // Nine Men's Morris: Six Men's would be played from its table.
    let any = load("nine-mens-morris", None);
    let run = |threads| {
        let cfg = SimConfig {
            agents: [ab(2), AgentSpec::Random],
            threads: Some(threads),
            max_plies: 200,
            ..SimConfig::new(12, 5)
        };
        let mut r = simulate(&any, &cfg, None);
        r.elapsed_secs = 0.0;
        r.secs_per_game = 0.0;
        r
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn mcts_closes_a_mill_in_one() {
    // The position of the alpha-beta mill test: d2-d3 closes c3-d3-e3.
    let any = load("nine-mens-morris", None);
    with_machine!(&any, m => {
        let white = points(m, &["c3", "e3", "d2", "a1"]);
        let black = points(m, &["g7", "d7", "f6", "b6"]);
        let mut s = m.state_from(white, black, [0, 0], 0);
        let mut moves = Vec::new();
        assert!(m.legal_moves(&s, &mut moves).is_none());
        let mut player = Player::new(mcts(400));
        let mv = player.choose(m, &mut s, &moves, &mut game_rng(1, 0));
        let d3 = m.rules.topology.point("d3").unwrap();
        assert_eq!(mv.to, d3, "closes the mill: {mv:?}");
        let stats = player.root_stats();
        assert_eq!(stats.len(), moves.len());
        assert_eq!(stats.iter().map(|x| x.1).sum::<u32>(), 400, "every playout counted at the root");
    });
}

#[test]
fn the_playout_policy_never_fills_its_own_eye_while_it_has_another_move() {
    // Black owns the first two rows of 5×5 but for an eye at the corner.
    let any = load("chinese", Some(5));
    with_machine!(&any, m => {
        let mut s = m.initial();
        for (b, w) in [(1, 15), (2, 16), (3, 17), (4, 18), (5, 19), (6, 20), (7, 21), (8, 22), (9, 23)] {
            m.apply(&mut s, Move::play(b));
            m.apply(&mut s, Move::play(w));
        }
        let eye = Move::play(0);
        assert!(m.check_move(&s, eye).is_ok() && fills_own_eye(m, &s, eye));
        let mut buf = Vec::new();
        for seed in 0..300 {
            let mv = playout_move(m, &mut s, &mut buf, &mut game_rng(seed, 0)).expect("a move");
            assert_ne!(mv, eye, "seed {seed}: filled its own eye");
            assert!(m.check_move(&s, mv).is_ok());
        }
    });
}

#[test]
fn a_time_budget_stops_the_search_with_the_deepest_completed_move() {
    let any = load("nine-mens-morris", None);
    with_machine!(&any, m => {
        let mut s = m.initial();
        let mut moves = Vec::new();
        m.legal_moves(&s, &mut moves);
        let spec: AgentSpec = "alphabeta:time=50".parse().unwrap();
        let mut player = Player::new(spec);
        let started = std::time::Instant::now();
        let mv = player.choose(m, &mut s, &moves, &mut game_rng(0, 0));
        let took = started.elapsed();
        assert!(took < std::time::Duration::from_millis(1000), "took {took:?}");
        let info = player.last_search().unwrap();
        assert!(info.depth >= 1 && info.depth < AlphaBetaParams::MAX_DEPTH, "{info:?}");
        assert!(moves.contains(&mv));
        let line = player.principal_variation(m, &s, info.depth as usize);
        assert_eq!(line.first(), Some(&mv), "the expected line starts with the move played");
    });
}

#[test]
fn mcts_passes_when_passing_wins() {
    // JK on 3×3: black takes the centre, white makes the ending pass E;
    // black's E ends the game (Art. 4.3: EE) with black owning the board.
    let any = load("jk-final", Some(3));
    with_machine!(&any, m => {
        let mut s = m.initial();
        m.apply(&mut s, Move::play(4));
        m.apply(&mut s, Move::pass(1));
        let mut moves = Vec::new();
        assert!(m.legal_moves(&s, &mut moves).is_none());
        let end = Move::pass(1);
        assert!(moves.contains(&end), "E is legal: {moves:?}");
        let mut after = s.clone();
        m.apply(&mut after, end);
        assert_eq!(m.outcome(&after).and_then(|o| o.winner), Some(0), "EE ends it, black ahead");
        for seed in 0..3 {
            let mv = Player::new(mcts(200)).choose(m, &mut s, &moves, &mut game_rng(seed, 0));
            assert_eq!(mv, end, "seed {seed}: the winning pass");
        }
    });
}
