//! The Monte Carlo agent (MC-RAVE, priors, heavy playouts, tree reuse):
//! a stronger setting beats a weaker one in seeded matches, the tree kept
//! from move to move offers exactly the legal moves of the position
//! reached, seeded games differ, and under JK rules it never plays a move
//! that loses at once (a suicide) while another move exists. Fixed playout
//! budgets only, so every result is the same on every machine.

use morrigo_engine::{with_machine, AnyMachine, Machine, Move, MoveKind, State};
use morrigo_play::{
    game_rng, loses_at_once, root_moves, simulate, AgentSpec, MctsParams, Player, SimConfig,
};
use rand::Rng;

use crate::common::*;

fn mcts_with(playouts: u32, rave: u32) -> AgentSpec {
    AgentSpec::Mcts(MctsParams {
        playouts,
        rave,
        ..MctsParams::default()
    })
}

/// Wins of `strong` and of `weak` over `games` seeded games, half in each
/// seat.
fn match_result(any: &AnyMachine, strong: AgentSpec, weak: AgentSpec, games: u32) -> (u32, u32) {
    let (mut won, mut lost) = (0, 0);
    for (seat, agents) in [[strong, weak], [weak, strong]].into_iter().enumerate() {
        let cfg = SimConfig {
            agents,
            max_plies: 200,
            ..SimConfig::new(games / 2, 77)
        };
        let r = simulate(any, &cfg, None);
        won += r.wins[seat];
        lost += r.wins[seat ^ 1];
    }
    (won, lost)
}

// Equal agents would win at least 14 of 16 games with a probability below
// 0.3%: a margin that a real difference in strength clears easily.

/// More playouts make a stronger player (Go, area scoring on 5×5).
#[test]
fn more_playouts_beat_fewer_at_go() {
    let any = load("chinese", Some(5));
    let (won, lost) = match_result(&any, mcts_with(400, 3000), mcts_with(20, 3000), 16);
    assert!(won >= 14, "mcts:playouts=400 won {won}, lost {lost} of 16");
}

/// RAVE with priors beats plain UCT at the same playouts (Go, 7×7).
#[test]
fn rave_and_priors_beat_plain_uct_at_go() {
    let any = load("chinese", Some(7));
    let (won, lost) = match_result(&any, mcts_with(300, 3000), mcts_with(300, 0), 16);
    assert!(won >= 14, "rave won {won}, lost {lost} of 16");
}

/// Play a seeded game with one player per seat (trees kept between moves),
/// checking at each move that the root's moves are the moves the agent may
/// choose among; the moves played.
fn reused_game<const W: usize>(
    m: &Machine<W>,
    spec: AgentSpec,
    seed: u64,
    plies: u32,
) -> Vec<Move> {
    let mut players = [Player::new(spec), Player::new(spec)];
    let mut rng = game_rng(seed, 0);
    let mut s: State<W> = m.initial();
    let (mut moves, mut safe, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
    let mut played = Vec::new();
    for _ in 0..plies {
        if m.legal_moves(&s, &mut moves).is_some() || moves.is_empty() {
            break;
        }
        let p = &mut players[s.pos.to_move as usize & 1];
        let mv = p.choose(m, &mut s, &moves, &mut rng);
        root_moves(m, &mut s, &moves, &mut safe, &mut scratch);
        if safe.len() > 1 {
            let mut offered: Vec<Move> = p.root_stats().iter().map(|r| r.0).collect();
            let mut expected = safe.clone();
            let key = |m: &Move| (m.kind as u8, m.from, m.to);
            offered.sort_by_key(key);
            expected.sort_by_key(key);
            assert_eq!(offered, expected, "root moves after {} plies", played.len());
        }
        assert!(moves.contains(&mv), "{mv:?} is not legal");
        played.push(mv);
        m.apply(&mut s, mv);
    }
    played
}

/// The subtree kept from the last move is rooted at the position reached:
/// its root offers exactly the legal moves the agent may choose among
/// (Go with captures and ko; Nine Men's Morris with removals).
#[test]
fn a_reused_tree_offers_the_legal_moves() {
    for (name, size) in [("chinese", Some(7)), ("nine-mens-morris", None)] {
        let any = load(name, size);
        with_machine!(&any, m => {
            let played = reused_game(m, mcts_with(150, 3000), 3, 60);
            assert!(played.len() >= 40, "{name}: only {} plies", played.len());
        });
    }
}

/// Seeded games differ between seeds and repeat with the same seed.
#[test]
fn seeded_games_vary_and_repeat() {
    let any = load("chinese", Some(5));
    with_machine!(&any, m => {
        let spec = mcts_with(100, 3000);
        let a = reused_game(m, spec, 1, 30);
        let b = reused_game(m, spec, 2, 30);
        let c = reused_game(m, spec, 3, 30);
        assert_eq!(a, reused_game(m, spec, 1, 30), "same seed, same game");
        assert!(a != b || b != c, "three seeds played one game: {a:?}");
    });
}

/// Under JK rules a suicide loses at once: on seeded random 9×9
/// positions the agent never plays a move that loses at once while another
/// move exists.
#[test]
fn never_a_move_that_loses_at_once_under_jk() {
    let any = load("jk-final", Some(9));
    with_machine!(&any, m => {
        let mut moves = Vec::new();
        let mut checked = 0;
        let mut with_losing = 0;
        for seed in 0..120u64 {
            let mut rng = game_rng(seed, 9);
            let mut s = m.initial();
            let plies = rng.random_range(20..120u32);
            let mut ok = true;
            for _ in 0..plies {
                if m.legal_moves(&s, &mut moves).is_some() || moves.is_empty() {
                    ok = false;
                    break;
                }
                // Board plays only, so the walk fills the board rather
                // than ending in passes.
                let plays = moves.iter().filter(|mv| mv.kind == MoveKind::Play).count();
                if plays == 0 {
                    ok = false;
                    break;
                }
                let k = rng.random_range(0..plays);
                let mv = *moves.iter().filter(|mv| mv.kind == MoveKind::Play).nth(k).unwrap();
                m.apply(&mut s, mv);
            }
            if !ok || m.legal_moves(&s, &mut moves).is_some() || moves.len() < 2 {
                continue;
            }
            let losing = moves.iter().filter(|&&mv| loses_at_once(m, &mut s, mv)).count();
            if losing == moves.len() {
                continue;
            }
            with_losing += usize::from(losing > 0);
            let mv = Player::new(mcts_with(100, 3000)).choose(m, &mut s, &moves, &mut rng);
            assert!(!loses_at_once(m, &mut s, mv), "seed {seed}: {mv:?} loses at once");
            checked += 1;
        }
        eprintln!("{checked} positions, {with_losing} with a losing move");
        assert!(checked >= 30, "only {checked} positions checked");
        assert!(with_losing >= 8, "only {with_losing} positions had a losing move");
    });
}

/// The new parameters read and print back; a time alone lifts the playout
/// cap; out-of-range values are refused naming the bound.
#[test]
fn mcts_parameters_round_trip() {
    for text in [
        "mcts:playouts=500,c=1.4",
        "mcts:playouts=500,c=1.4,time=100,threads=2,rave=0",
    ] {
        let a: AgentSpec = text.parse().unwrap();
        assert_eq!(a.to_string(), text);
    }
    match "mcts:time=250".parse::<AgentSpec>().unwrap() {
        AgentSpec::Mcts(p) => {
            assert_eq!(p.time_ms, Some(250));
            assert_eq!(p.playouts, MctsParams::MAX_PLAYOUTS);
        }
        other => panic!("{other}"),
    }
    let e = "mcts:threads=0".parse::<AgentSpec>().unwrap_err();
    assert!(e.contains("1 to 64"), "{e}");
}
