//! Go-family primitives on small boards: chains, captures, suicide, ko,
//! passes, repetition, scoring.

use morrigo_engine::{count_states, with_machine, AnyMachine};
use morrigo_rules::load::Overrides;
use std::sync::Arc;

fn machine(ruleset: &str, w: u32, h: u32) -> AnyMachine {
    let o = Overrides {
        size: Some((w, h)),
        komi: None,
    };
    let rules = morrigo_rules::load_rules_with(ruleset, &o).unwrap_or_else(|e| panic!("{e}"));
    AnyMachine::new(Arc::new(rules)).unwrap()
}

#[test]
fn tromp_taylor_reaches_every_legal_2x2_position() {
    let any = machine("tromp-taylor", 2, 2);
    let count = with_machine!(&any, m => count_states(m, &m.initial(), u64::MAX));
    assert_eq!(count.boards, 57);
}

#[test]
fn tromp_taylor_reaches_every_legal_3x3_position() {
    let any = machine("tromp-taylor", 3, 3);
    let count = with_machine!(&any, m => count_states(m, &m.initial(), u64::MAX));
    assert_eq!(count.boards, 12_675);
}

#[test]
fn one_by_one_board_has_one_legal_position() {
    let any = machine("tromp-taylor", 1, 1);
    let count = with_machine!(&any, m => count_states(m, &m.initial(), u64::MAX));
    assert_eq!(count.boards, 1);
}

#[test]
#[ignore = "timing; run with --release -- --ignored --nocapture"]
fn playout_speed_9x9() {
    for name in ["chinese", "jk-final", "tromp-taylor"] {
        let any = machine(name, 9, 9);
        with_machine!(&any, m => {
            let mut seed = 0x1234_5678_9abc_def1u64;
            let mut rng = move |n: u32| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (((seed >> 32) * n as u64) >> 32) as u32
            };
            let mut buf = Vec::new();
            let start = std::time::Instant::now();
            let (mut plies, mut games, mut stuck, mut capped) = (0u64, 0u64, 0u64, 0u64);
            let mut reasons = std::collections::BTreeMap::new();
            while start.elapsed().as_secs_f64() < 2.0 {
                let mut s = m.initial();
                let mut n = 0;
                loop {
                    match m.sample_move(&s, &mut buf, &mut rng) {
                        morrigo_engine::Sample::Move(mv) => { m.apply(&mut s, mv); n += 1; }
                        morrigo_engine::Sample::Over(o) => { *reasons.entry(o.rule_name(&m.rules).to_string()).or_insert(0) += 1; break; }
                        morrigo_engine::Sample::Stuck => { stuck += 1; break; }
                    }
                    if n >= 1000 { capped += 1; break; }
                }
                plies += n;
                games += 1;
            }
            let secs = start.elapsed().as_secs_f64();
            println!("{name}: {:.0} games/s, {:.0} plies/s, mean {:.1} plies, stuck {stuck}, capped {capped}, {reasons:?}", games as f64 / secs, plies as f64 / secs, plies as f64 / games as f64);
        });
    }
}

/// jk-no-move-loses: with every pass forbidden, a player whose only plays
/// lose at once loses before playing (rule `no_legal_move`); under jk-final
/// the same player must play the suicide and loses by `suicide`.
#[test]
fn no_move_loses_decides_before_the_losing_play() {
    let outcome = |parent: &str| {
        let text = format!(
            "name: probe\nextends: {parent}\nboard:\n  grid: {{ width: 1, height: 1 }}\nforbid:\n  never_pass:\n    moves: [P, E]\n    when: \"true\"\n"
        );
        let rules =
            morrigo_rules::rules_from_text("probe.yaml", &text).unwrap_or_else(|e| panic!("{e}"));
        let any = AnyMachine::new(Arc::new(rules)).unwrap();
        with_machine!(&any, m => {
            let mut s = m.initial();
            let mut moves = Vec::new();
            let mut plies = 0;
            loop {
                if let Some(o) = m.legal_moves(&s, &mut moves) {
                    return (o.rule_name(&m.rules).to_string(), o.winner, plies);
                }
                assert_eq!(moves.len(), 1, "the single point is the only move");
                m.apply(&mut s, moves[0]);
                plies += 1;
            }
        })
    };
    assert_eq!(
        outcome("jk-no-move-loses"),
        ("no_legal_move".to_string(), Some(1), 0)
    );
    assert_eq!(outcome("jk-final"), ("suicide".to_string(), Some(1), 1));
}

/// `hand_over` (a GTP controller's two moves of one colour in a row): only
/// the player to move and the position key change (the key a fresh
/// computation gives), nothing enters the move-class history, a move after
/// it is the handed-to player's, and a second call takes it back.
#[test]
fn hand_over_changes_only_the_player_to_move() {
    let any = machine("jk-final", 5, 5);
    with_machine!(&any, m => {
        let at = |name: &str| m.rules.topology.point(name).unwrap();
        let mut s = m.initial();
        m.apply(&mut s, morrigo_engine::Move::play(at("C3")));
        let (to_move, hash) = (s.pos.to_move, s.pos.hash);
        let classes: Vec<u8> = s.classes().collect();
        assert!(m.hand_over(&mut s));
        assert_eq!(s.pos.to_move, to_move ^ 1);
        assert_ne!(s.pos.hash, hash);
        assert_eq!(s.pos.hash, m.recomputed_hash(&s));
        assert_eq!(s.classes().collect::<Vec<u8>>(), classes);
        let handed = s.pos.hash;
        let u = m.apply(&mut s, morrigo_engine::Move::play(at("D3")));
        assert_eq!(s.owner(at("D3")), Some(s.owner(at("C3")).unwrap()));
        m.undo(&mut s, u);
        assert_eq!((s.pos.to_move, s.pos.hash), (to_move ^ 1, handed));
        assert!(m.hand_over(&mut s));
        assert_eq!((s.pos.to_move, s.pos.hash), (to_move, hash));
    });
}

/// Random games of every Go built-in (5x5) with hand-overs mixed in: after
/// each step the position key equals a fresh computation, and taking every
/// move and hand-over back restores the start (key, player, history).
#[test]
fn random_games_with_hand_overs_unwind_to_the_start() {
    let (mut moves, mut hand_overs) = (0, 0);
    for b in morrigo_rules::builtin::family("go") {
        let any = machine(b.name, 5, 5);
        with_machine!(&any, m => {
            let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ b.name.len() as u64;
            let mut rng = move |n: u32| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % u64::from(n)) as u32
            };
            let mut s = m.initial();
            let start = (s.pos.hash, s.pos.to_move, s.history().to_vec());
            let mut steps = Vec::new();
            let mut buf = Vec::new();
            for _ in 0..80 {
                if rng(5) == 0 {
                    assert!(m.hand_over(&mut s));
                    steps.push(None);
                } else {
                    match m.sample_move(&s, &mut buf, &mut rng) {
                        morrigo_engine::Sample::Move(mv) => steps.push(Some(m.apply(&mut s, mv))),
                        _ => break,
                    }
                }
                assert_eq!(s.pos.hash, m.recomputed_hash(&s), "{}", b.name);
            }
            moves += steps.iter().filter(|x| x.is_some()).count();
            hand_overs += steps.iter().filter(|x| x.is_none()).count();
            while let Some(step) = steps.pop() {
                match step {
                    Some(u) => m.undo(&mut s, u),
                    None => assert!(m.hand_over(&mut s)),
                }
            }
            assert_eq!((s.pos.hash, s.pos.to_move, s.history()), (start.0, start.1, &start.2[..]), "{}", b.name);
            assert_eq!(s.classes().count(), 0, "{}", b.name);
        });
    }
    // Whole games were played, with hand-overs among their moves.
    assert!(
        moves >= 400 && hand_overs >= 100,
        "{moves} moves, {hand_overs} hand-overs"
    );
}
