//! The width-erased game API (`Game`, `GameState`, `Setup`, `game::Move`):
//! on boards of every machine width it plays the same games as the machine
//! it wraps, refuses illegal moves without changing the state, builds
//! positions only through the set-up check, and names marks as owners.

use morrigo_engine::game::Move;
use morrigo_engine::{
    refusal, with_machine, AnyMachine, Bits, DecidedBy, Game, GameState, Illegal, Machine, Outcome,
    Owner, Setup, SetupError, State,
};
use morrigo_rules::load::Overrides;
use morrigo_rules::Rules;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

fn load(name: &str, size: Option<(u32, u32)>) -> Arc<Rules> {
    let o = Overrides { size, komi: None };
    Arc::new(morrigo_rules::load_rules_with(name, &o).unwrap_or_else(|e| panic!("{name}: {e}")))
}

fn point(rules: &Rules, name: &str) -> u16 {
    rules
        .topology
        .point(name)
        .unwrap_or_else(|| panic!("no point {name}"))
}

/// Random games through the API and through the machine in lock-step: the
/// same legal moves (packed one to one), outcomes and position keys.
fn lockstep(rules: Arc<Rules>, games: u64, plies: usize) -> usize {
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let game = Game::new(rules).expect("fits");
    let mut compared = 0;
    with_machine!(&any, m => {
        for g in 0..games {
            let mut rng = SmallRng::seed_from_u64(0xA91 + g);
            let mut s = m.initial();
            let mut gs = game.start();
            for ply in 0..plies {
                let at = format!("game {g} ply {ply}");
                let mut packed = Vec::new();
                let outcome = m.legal_moves(&s, &mut packed);
                assert_eq!(gs.hash(), s.pos.hash, "{at}: position key");
                assert_eq!(gs.to_move(), s.pos.to_move, "{at}: player to move");
                same_readings(m, &s, &gs, &at);
                same_refusals(m, &s, &gs, ply, &at);
                match gs.legal_moves() {
                    Err(o) => {
                        assert_eq!(Some(o), outcome, "{at}: outcome");
                        break;
                    }
                    Ok(moves) => {
                        assert_eq!(outcome, None, "{at}: outcome");
                        let back: Vec<_> = moves.iter().map(|mv| mv.packed()).collect();
                        assert_eq!(back, packed, "{at}: legal moves");
                        for (&mv, &p) in moves.iter().zip(&packed) {
                            assert_eq!(Move::from(p), mv, "{at}: {p:?} unpacks");
                        }
                        compared += moves.len();
                        if moves.is_empty() {
                            break;
                        }
                        let i = rng.random_range(0..moves.len());
                        same_take_back(&gs, moves[i], &at);
                        gs.apply(moves[i]).unwrap_or_else(|e| panic!("{at}: {e:?}"));
                        m.apply(&mut s, packed[i]);
                    }
                }
            }
        }
    });
    compared
}

/// A move's check with its reason in words (the first legal move, and
/// moves of every kind about a point that moves with the ply, mostly
/// illegal) is the machine's check and [`refusal`].
fn same_refusals<const W: usize>(
    m: &Machine<W>,
    s: &State<W>,
    gs: &GameState,
    ply: usize,
    at: &str,
) {
    let n = m.points();
    let p = ((ply * 7 + 3) % n) as u16;
    let q = ((ply * 11 + 1) % n) as u16;
    let mut probes = vec![
        Move::Place { to: p },
        Move::Play { at: p },
        Move::Remove { at: q },
        Move::Slide { from: p, to: q },
        Move::Fly { from: q, to: p },
        Move::Leap { from: p, to: q },
        Move::Pass { kind: 0 },
    ];
    if let Ok(moves) = gs.legal_moves() {
        probes.extend(moves.first());
    }
    for mv in probes {
        let packed = mv.packed();
        let by_machine = m
            .check_move(s, packed)
            .map_err(|why| refusal(m, s, packed, why));
        assert_eq!(gs.check_explained(mv), by_machine, "{at}: {mv:?} explained");
    }
}

/// A move played with its undo and taken back leaves the position, its
/// histories (the legal moves and classes after) and its key as they were.
fn same_take_back(gs: &GameState, mv: Move, at: &str) {
    let mut back = gs.clone();
    let u = back.apply_undoable(mv);
    assert_eq!(back.ply(), gs.ply() + 1, "{at}: played");
    back.undo(u);
    assert_eq!(back.hash(), gs.hash(), "{at}: undo key");
    assert_eq!(back.ply(), gs.ply(), "{at}: undo ply");
    assert_eq!(back.classes(), gs.classes(), "{at}: undo classes");
    assert_eq!(back.legal_moves(), gs.legal_moves(), "{at}: undo moves");
}

/// What a replay reads of a position through the API (the legal moves
/// into a reused buffer, the last move's line count, suicide, class and D,
/// the pieces, lines through a point, an owed capture, the ends the players
/// make) is what the machine says.
fn same_readings<const W: usize>(m: &Machine<W>, s: &State<W>, gs: &GameState, at: &str) {
    let mut room = vec![Move::Pass { kind: 0 }];
    let outcome = gs.legal_moves_into(&mut room);
    match gs.legal_moves() {
        Ok(moves) => assert_eq!((outcome, room), (None, moves), "{at}: moves into"),
        Err(o) => assert_eq!((outcome, room), (Some(o), Vec::new()), "{at}: over"),
    }
    assert_eq!(gs.lines_formed(), s.pos.lines_formed, "{at}: lines formed");
    assert_eq!(gs.turn(), s.pos.turn, "{at}: turn");
    let counts = [s.pos.occ[0].count(), s.pos.occ[1].count()];
    assert_eq!(gs.on_board(), counts, "{at}: on board");
    assert_eq!(gs.last_suicide(), s.pos.last_suicide, "{at}: suicide");
    assert_eq!(gs.last_class(), s.last_class(), "{at}: class");
    assert_eq!(gs.last_ends_d(), s.last_ends_d(), "{at}: D");
    assert_eq!(gs.capture_owed(), m.capture_owed(s), "{at}: capture owed");
    assert_eq!(
        gs.capture_owed_lines(),
        m.capture_owed_lines(s),
        "{at}: and lines"
    );
    let targets: Vec<u16> = m.capture_targets(s).iter().map(|p| p as u16).collect();
    assert_eq!(gs.capture_targets(), targets, "{at}: capture targets");
    assert_eq!(gs.resign(), m.resign(s.pos.to_move), "{at}: resignation");
    let mut dead = Bits::<W>::EMPTY;
    for player in 0..2u8 {
        let mut pieces = vec![u16::MAX];
        gs.pieces_into(player, &mut pieces);
        assert_eq!(pieces, gs.pieces(player), "{at}: pieces of {player}");
        if let Some(&p) = pieces.first() {
            let occ = &s.pos.occ[usize::from(player)];
            assert_eq!(
                gs.lines_at(player, p),
                m.lines_at(occ, usize::from(p)),
                "{at}"
            );
            dead.set(usize::from(p));
        }
    }
    let named: Vec<u16> = dead.iter().map(|p| p as u16).collect();
    assert_eq!(gs.score_with_dead(&named), m.score(s, &dead), "{at}: count");
    assert_eq!(gs.agree(&named), m.agree(s, &dead), "{at}: agreement");
    same_front_end_readings(m, s, gs, at);
}

/// What GTP and the playground read and do through the API (the class
/// history and its D ends, seki, a pass's forbid rule, handing the turn
/// over, the board on a fresh history) is what the machine says and does.
fn same_front_end_readings<const W: usize>(m: &Machine<W>, s: &State<W>, gs: &GameState, at: &str) {
    let classes: Vec<u8> = s.classes().collect();
    assert_eq!(gs.classes(), classes, "{at}: classes");
    for i in 0..=classes.len() {
        assert_eq!(gs.ends_d(i), s.ends_d(i), "{at}: D at {i}");
    }
    let marks: Vec<u16> = m.marked(s).iter().map(|p| p as u16).collect();
    assert_eq!(gs.marks(), marks, "{at}: marks");
    let seki: Vec<u16> = m.seki_stones(s).iter().map(|p| p as u16).collect();
    assert_eq!(gs.seki_stones(), seki, "{at}: seki");
    for k in 0..gs.rules().passes.kinds.len() {
        assert_eq!(
            gs.pass_forbidden_by(k),
            m.pass_forbidden_by(s, k),
            "{at}: pass {k}"
        );
    }
    let (mut handed, mut by_machine) = (gs.clone(), s.clone());
    assert_eq!(
        handed.hand_over(),
        m.hand_over(&mut by_machine),
        "{at}: hand over"
    );
    assert_eq!(handed.hash(), by_machine.pos.hash, "{at}: handed key");
    assert_eq!(handed.to_move(), by_machine.pos.to_move, "{at}: handed");
    let fresh = gs.on_fresh_history();
    let pos = &s.pos;
    let mut by_machine = m.state_from(pos.occ[0], pos.occ[1], pos.in_hand, pos.to_move);
    by_machine.pos.captured = pos.captured;
    by_machine.pos.pass_stones = pos.pass_stones;
    let mut packed = Vec::new();
    let outcome = m.legal_moves(&by_machine, &mut packed);
    let moves = fresh
        .legal_moves()
        .map(|ms| ms.iter().map(|mv| mv.packed()).collect());
    assert_eq!(moves, outcome.map_or(Ok(packed), Err), "{at}: fresh moves");
    assert_eq!(fresh.hash(), by_machine.pos.hash, "{at}: fresh key");
    assert_eq!(fresh.captured(), pos.captured, "{at}: fresh prisoners");
    assert_eq!(fresh.classes(), Vec::<u8>::new(), "{at}: fresh history");
}

#[test]
fn the_api_plays_the_machines_games_at_every_width() {
    // 24, 81, 169, 361 and 625 points: machine widths 1, 2, 4, 6 and 10;
    // Da San Qi's delayed removals leave marks.
    type Case = (&'static str, Option<(u32, u32)>, u64, usize);
    let cases: [Case; 6] = [
        ("nine-mens-morris", None, 20, 300),
        ("da-san-qi", None, 6, 120),
        ("tromp-taylor", Some((9, 9)), 4, 120),
        ("tromp-taylor", Some((13, 13)), 2, 80),
        ("jk-final", Some((19, 19)), 1, 60),
        ("tromp-taylor", Some((25, 25)), 1, 30),
    ];
    for (name, size, games, plies) in cases {
        let compared = lockstep(load(name, size), games, plies);
        assert!(compared > 0, "{name} {size:?}: no move compared");
    }
}

#[test]
fn apply_refuses_an_illegal_move_and_leaves_the_state_as_it_was() {
    let rules = load("nine-mens-morris", None);
    let game = Game::new(rules.clone()).unwrap();
    let mut gs = game.start();
    let d1 = point(&rules, "d1");
    gs.apply(Move::Place { to: d1 })
        .expect("the first placement is legal");
    let before = (gs.hash(), gs.ply(), gs.in_hand(), gs.to_move());
    // Placing on an occupied point (the rule every Morris placement reads).
    assert_eq!(gs.apply(Move::Place { to: d1 }), Err(Illegal::Occupied));
    // Nothing is owed, so a removal is no move now.
    assert_eq!(
        gs.apply(Move::Remove { at: d1 }),
        Err(Illegal::NothingToRemove)
    );
    // A point beyond the board.
    assert_eq!(gs.apply(Move::Place { to: 24 }), Err(Illegal::NoSuchMove));
    assert_eq!((gs.hash(), gs.ply(), gs.in_hand(), gs.to_move()), before);
    assert_eq!(gs.owner(d1), Some(Owner::Player(0)));
    assert_eq!(gs.pieces(0), vec![d1]);
}

#[test]
fn a_mill_owes_a_removal_and_only_removals_are_legal() {
    // Nine Men's Morris: a completed line earns one removal (RULES.md, "Mills").
    let rules = load("nine-mens-morris", None);
    let game = Game::new(rules.clone()).unwrap();
    let mut gs = game.start();
    for name in ["a1", "b2", "d1", "b4", "g1"] {
        gs.apply(Move::Place {
            to: point(&rules, name),
        })
        .unwrap_or_else(|e| panic!("{name}: {e:?}"));
    }
    assert_eq!(gs.pending_removals(), 1, "a1 d1 g1 is a mill");
    assert_eq!(gs.to_move(), 0, "the mover removes");
    let moves = gs.legal_moves().expect("ongoing");
    assert!(moves.iter().all(|m| matches!(m, Move::Remove { .. })));
    assert_eq!(moves.len(), 2, "either black piece");
    assert_eq!(
        gs.apply(Move::Place {
            to: point(&rules, "d7")
        }),
        Err(Illegal::RemovalOwed)
    );
    gs.apply(Move::Remove {
        at: point(&rules, "b2"),
    })
    .unwrap();
    assert_eq!(gs.on_board(), [3, 1]);
    assert_eq!(gs.to_move(), 1);
}

#[test]
fn a_set_up_is_checked_once_into_a_position() {
    let rules = load("nine-mens-morris", None);
    let game = Game::new(rules.clone()).unwrap();
    let [a1, d1, g7] = ["a1", "d1", "g7"].map(|p| point(&rules, p));
    let gs = game
        .set_up(&Setup {
            pieces: [vec![a1, d1], vec![g7]],
            in_hand: Some([2, 3]),
            to_move: Some(1),
        })
        .expect("a position of the game");
    assert_eq!(gs.to_move(), 1);
    assert_eq!(gs.in_hand(), [2, 3]);
    assert_eq!(gs.on_board(), [2, 1]);
    assert_eq!(gs.owner(g7), Some(Owner::Player(1)));
    assert_eq!(gs.owner(point(&rules, "d7")), None);

    let twice = game.set_up(&Setup {
        pieces: [vec![a1], vec![a1]],
        ..Setup::default()
    });
    assert_eq!(
        twice.unwrap_err(),
        SetupError::PointTwice {
            point: a1,
            name: "a1".into()
        }
    );
    let off_board = game.set_up(&Setup {
        pieces: [vec![99], vec![]],
        ..Setup::default()
    });
    assert!(matches!(
        off_board,
        Err(SetupError::NoSuchPoint {
            point: 99,
            points: 24
        })
    ));
    let player = game.set_up(&Setup {
        to_move: Some(2),
        ..Setup::default()
    });
    assert_eq!(player.unwrap_err(), SetupError::NoSuchPlayer { player: 2 });
    // Nine pieces a player: two on the board and eight in hand is eleven.
    let too_many = game
        .set_up(&Setup {
            pieces: [vec![a1, d1], vec![]],
            in_hand: Some([8, 0]),
            to_move: None,
        })
        .unwrap_err();
    assert_eq!(
        too_many.to_string(),
        "impossible board: white has 10 pieces (2 on the board, 8 in hand), but `nine-mens-morris` gives each player 9"
    );
    assert_eq!(
        too_many.to_diagnostic().expected.as_deref(),
        Some("at most 9 pieces for white")
    );
    // Without hands the ruleset's start hands are taken: 9 + 2 > 9.
    let default_hands = game.set_up(&Setup {
        pieces: [vec![a1, d1], vec![]],
        ..Setup::default()
    });
    assert!(matches!(
        default_hands,
        Err(SetupError::TooManyPieces { total: 11, .. })
    ));
}

#[test]
fn go_set_up_stones_are_unlimited_and_the_position_plays_on() {
    // A Go supply is unlimited: any number of set-up stones is a position.
    let rules = load("tromp-taylor", Some((5, 5)));
    let game = Game::new(rules.clone()).unwrap();
    let black: Vec<u16> = (0..10).collect();
    let gs = game
        .set_up(&Setup {
            pieces: [black.clone(), vec![]],
            in_hand: None,
            to_move: Some(1),
        })
        .expect("a Go position");
    assert_eq!(gs.pieces(0), black);
    let moves = gs.legal_moves().expect("ongoing");
    assert!(moves.contains(&Move::Pass { kind: 0 }));
    assert!(moves.iter().all(|m| m.to_point().is_none_or(|p| p >= 10)));
    assert!(moves
        .iter()
        .any(|m| matches!(m, Move::Play { at } if *at == 24)));
}

#[test]
fn a_delayed_removal_leaves_a_mark_the_api_names() {
    // Da San Qi removes at the end of placing (`delay`): a mill while
    // placing marks the taken piece's point (rulesets/morris/RULES.md).
    let rules = load("da-san-qi", None);
    let game = Game::new(rules.clone()).unwrap();
    let mut marked = 0;
    for g in 0..40u64 {
        let mut rng = SmallRng::seed_from_u64(g);
        let mut gs: GameState = game.start();
        while let Ok(moves) = gs.legal_moves() {
            if moves.is_empty() || gs.ply() > 60 {
                break;
            }
            gs.apply_unchecked(moves[rng.random_range(0..moves.len())]);
            let marks = (0..rules.topology.len() as u16)
                .filter(|&p| gs.owner(p) == Some(Owner::Mark))
                .count();
            assert_eq!(gs.marks().len(), marks, "marks on empty points");
            if marks > 0 {
                marked += 1;
                // A marked point takes no piece.
                let p = (0..rules.topology.len() as u16)
                    .find(|&p| gs.owner(p) == Some(Owner::Mark))
                    .unwrap();
                let listed = gs.legal_moves().unwrap_or_default();
                assert!(!listed
                    .iter()
                    .any(|m| m.to_point() == Some(p) && matches!(m, Move::Place { .. })));
            }
        }
    }
    assert!(marked > 0, "no game left a mark");
}

#[test]
fn an_outcome_says_what_decided_it() {
    let rule = Outcome {
        winner: Some(1),
        rule: 3,
    };
    assert_eq!(rule.decided_by(), DecidedBy::Rule(3));
    let resigned = Outcome {
        winner: Some(0),
        rule: Outcome::RESIGNATION,
    };
    assert_eq!(resigned.decided_by(), DecidedBy::Resignation);
    let agreed = Outcome {
        winner: None,
        rule: Outcome::AGREEMENT,
    };
    assert_eq!(agreed.decided_by(), DecidedBy::Agreement);
}

#[test]
fn a_state_crosses_to_width_generic_code_and_back_only_at_its_width() {
    let rules = load("tromp-taylor", Some((9, 9)));
    let game = Game::new(rules.clone()).unwrap();
    let mut gs = game.start();
    gs.apply(Move::Play { at: 40 }).unwrap();
    // 81 points: a machine of width 2, not 1.
    assert!(gs.parts::<1>().is_none());
    let (m, s) = gs.parts::<2>().expect("width 2");
    let mut s = s.clone();
    m.apply(&mut s, Move::Play { at: 41 }.packed());
    let back = GameState::from_parts(&game, s.clone()).expect("the game's width");
    assert_eq!(back.hash(), s.pos.hash);
    assert_eq!(back.pieces(1), vec![41]);
    // A state of another width is not a state of this game.
    let morris = Game::new(load("nine-mens-morris", None)).unwrap().start();
    let (_, narrow) = morris.parts::<1>().expect("24 points: width 1");
    assert!(GameState::from_parts(&game, narrow.clone()).is_none());
}
