//! The fast engine against the slow reference implementation
//! (`morrigo_reference::morris`), on every built-in Morris ruleset: random
//! games in lock-step (same legal move set, same state, same outcome at every
//! ply; undo restores the state exactly), and perft counts.
//!
//! Heavier variants are `#[ignore]`d; run them with
//! `cargo test --release -p morrigo-engine --test it cross_check:: -- --ignored --nocapture`.

use morrigo_engine::notation::format_move;
use morrigo_engine::{
    perft, with_machine, AnyMachine, Machine, Move, MoveKind, Outcome, State, Unit,
};
use morrigo_reference::morris::RefGame;
use morrigo_rules::Rules;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

/// Longest random game before the test gives up on it (three men's morris
/// has no move limit, only repetition).
const MAX_PLIES: usize = 600;

fn load(name: &str) -> Arc<Rules> {
    Arc::new(morrigo_rules::load_rules(name).unwrap_or_else(|e| panic!("{name}: {e:?}")))
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| (m.kind as u8, m.from, m.to));
    moves
}

fn record(rules: &Rules, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| format_move(&rules.topology, m))
        .collect::<Vec<_>>()
        .join(" ")
}

fn fast_moves<const W: usize>(m: &Machine<W>, s: &State<W>) -> (Vec<Move>, Option<Outcome>) {
    let mut out = Vec::new();
    let outcome = m.legal_moves(s, &mut out);
    (out, outcome)
}

/// Everything both implementations track must agree.
fn same_state<const W: usize>(m: &Machine<W>, s: &State<W>, r: &RefGame, at: &str) {
    let p = &s.pos;
    for point in 0..r.board.len() {
        assert_eq!(
            s.owner(point as u16),
            r.board[point],
            "{at}: owner of point {point}"
        );
    }
    assert_eq!(p.in_hand, r.in_hand, "{at}: in hand");
    assert_eq!(p.lost, r.lost, "{at}: lost");
    let marked: Vec<bool> = (0..r.board.len()).map(|q| m.marked(s).has(q)).collect();
    assert_eq!(marked, r.marked, "{at}: marked points");
    assert_eq!(p.to_move, r.to_move, "{at}: to move");
    assert_eq!(u32::from(p.pending), r.pending, "{at}: pending");
    assert_eq!(p.turn, r.turn, "{at}: turn");
    assert_eq!(p.ply, r.ply, "{at}: ply");
    let counters = (p.turns_without_removal, p.turns_without_line);
    let expected = (r.turns_without_removal, r.turns_without_line);
    assert_eq!(counters, expected, "{at}: turns without removal / line");
    if p.pending == 0 {
        assert_eq!(m.phase(s), r.phase(), "{at}: phase");
        if m.rules.uses(morrigo_rules::Prim::Repetitions) {
            assert_eq!(m.repetitions(s), r.repetitions(), "{at}: repetitions");
        }
    }
}

/// Apply and undo every legal move; the state must come back exactly.
fn check_undo<const W: usize>(m: &Machine<W>, s: &mut State<W>, moves: &[Move], at: &str) {
    let (pos, history) = (s.pos, s.history().to_vec());
    for &mv in moves {
        let u = m.apply(s, mv);
        m.undo(s, u);
        assert_eq!(s.pos, pos, "{at}: undo of {mv:?} changed the position");
        assert_eq!(
            s.history(),
            &history[..],
            "{at}: undo of {mv:?} changed the history"
        );
    }
}

#[derive(Default, Debug)]
struct Tally {
    games: usize,
    plies: usize,
    decided: Vec<usize>,
    unfinished: usize,
}

fn lockstep<const W: usize>(m: &Machine<W>, rules: &Rules, games: u64, seed: u64) -> Tally {
    let mut tally = Tally {
        decided: vec![0; rules.end.len()],
        ..Tally::default()
    };
    for g in 0..games {
        let mut rng = SmallRng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(g));
        let mut s = m.initial();
        let mut r = RefGame::new(rules);
        let mut played: Vec<Move> = Vec::new();
        let mut finished = false;
        for _ in 0..MAX_PLIES {
            let at = format!(
                "{} game {g} (seed {seed}), after `{}`",
                rules.name,
                record(rules, &played)
            );
            same_state(m, &s, &r, &at);
            let (fm, fo) = fast_moves(m, &s);
            let (rm, ro) = r.legal_moves();
            let (fm, rm) = (sorted(fm), sorted(rm));
            assert_eq!(
                fm, rm,
                "{at}: legal moves differ (left fast, right reference)"
            );
            assert_eq!(fo, ro, "{at}: outcome differs (left fast, right reference)");
            if let Some(o) = fo {
                tally.decided[o.rule as usize] += 1;
                finished = true;
                break;
            }
            assert!(!fm.is_empty(), "{at}: no moves and no outcome");
            check_undo(m, &mut s, &fm, &at);
            let mv = fm[rng.random_range(0..fm.len())];
            m.apply(&mut s, mv);
            r.apply(mv);
            played.push(mv);
            tally.plies += 1;
        }
        tally.games += 1;
        if !finished {
            tally.unfinished += 1;
        }
    }
    tally
}

/// Plays random games from the start and returns the state after `plies`
/// plies (fewer if the game ends), in both implementations.
fn random_position<'r, const W: usize>(
    m: &Machine<W>,
    rules: &'r Rules,
    plies: usize,
    seed: u64,
) -> (State<W>, RefGame<'r>, Vec<Move>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut s = m.initial();
    let mut r = RefGame::new(rules);
    let mut played = Vec::new();
    for _ in 0..plies {
        let moves = sorted(fast_moves(m, &s).0);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        m.apply(&mut s, mv);
        r.apply(mv);
        played.push(mv);
    }
    (s, r, played)
}

fn run_lockstep(name: &str, games: u64) {
    let rules = load(name);
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let tally = with_machine!(&any, m => lockstep(m, &rules, games, 0x5EED));
    println!("{name}: {tally:?}");
    assert_eq!(tally.games as u64, games);
}

fn run_perft(name: &str, depth: u32, positions: &[(usize, u64)], pos_depth: u32) {
    let units = [Unit::Ply, Unit::Turn];
    perft_agrees(name, load(name), depth, positions, pos_depth, &units);
}

/// Rules given as text (a probe of the file or the test).
fn rules_of(name: &str, text: &str) -> Arc<morrigo_rules::Rules> {
    Arc::new(morrigo_rules::rules_from_text(name, text).expect("compiles"))
}

/// Perft `depth` from the start and `pos_depth` from each random position
/// of `positions`, in both implementations, counted in each of `units`.
fn perft_agrees(
    name: &str,
    rules: Arc<morrigo_rules::Rules>,
    depth: u32,
    positions: &[(usize, u64)],
    pos_depth: u32,
    units: &[Unit],
) {
    let any = AnyMachine::new(rules.clone()).expect("fits");
    with_machine!(&any, m => {
        for &unit in units {
            let fast = perft(m, &mut m.initial(), depth, unit);
            let slow = RefGame::new(&rules).perft(depth, unit);
            assert_eq!(fast, slow, "{name}: perft {depth} ({unit:?}) from the start");
            for &(plies, seed) in positions {
                let (mut s, r, played) = random_position(m, &rules, plies, seed);
                let fast = perft(m, &mut s, pos_depth, unit);
                let slow = r.perft(pos_depth, unit);
                assert_eq!(
                    fast,
                    slow,
                    "{name}: perft {pos_depth} ({unit:?}) after `{}`",
                    record(&rules, &played)
                );
            }
        }
    });
}

/// Mid-game positions for perft: (plies of random play, seed).
const POSITIONS: &[(usize, u64)] = &[(12, 1), (19, 2), (30, 3), (45, 4), (70, 5)];

macro_rules! per_ruleset {
    ($($test:ident => $name:literal),* $(,)?) => {
        /// Every built-in Morris ruleset has its cross-check.
        #[test]
        fn every_morris_ruleset_is_cross_checked() {
            let mut listed = vec![$($name),*];
            listed.sort();
            let mut family: Vec<&str> =
                morrigo_rules::builtin::family("morris").map(|b| b.name).collect();
            family.sort();
            assert_eq!(listed, family, "add new rulesets to the list in cross_check.rs");
        }

        mod lockstep_games {
            $(
                #[test]
                fn $test() {
                    super::run_lockstep($name, 300);
                }
            )*
        }

        mod perft_counts {
            $(
                #[test]
                fn $test() {
                    super::run_perft($name, 4, super::POSITIONS, 3);
                }
            )*
        }
    };
}

per_ruleset! {
    achi => "achi",
    five_mens_morris => "five-mens-morris",
    cheng_san_qi => "cheng-san-qi",
    da_san_qi => "da-san-qi",
    dooz => "dooz",
    dara => "dara",
    el_filja => "el-filja",
    lasker_morris => "lasker-morris",
    lasker_morris_malom => "lasker-morris-malom",
    morabaraba => "morabaraba",
    morabaraba_malom => "morabaraba-malom",
    nerenchi => "nerenchi",
    nine_mens_morris_no_flying => "nine-mens-morris-no-flying",
    nine_mens_morris_remove_per_mill => "nine-mens-morris-remove-per-mill",
    nine_mens_morris => "nine-mens-morris",
    picaria => "picaria",
    seven_mens_morris => "seven-mens-morris",
    russian_mill => "russian-mill",
    six_mens_morris => "six-mens-morris",
    tapatan => "tapatan",
    three_mens_morris => "three-mens-morris",
    twelve_mens_morris => "twelve-mens-morris",
    zhi_qi => "zhi-qi",
}

/// Nine Men's Morris from the empty board: the published per-ply counts,
/// from the reference alone.
#[test]
fn reference_perft_nine_mens_morris_published_counts() {
    let rules = load("nine-mens-morris");
    let g = RefGame::new(&rules);
    let counts: Vec<u64> = (1..=4).map(|d| g.perft(d, Unit::Ply)).collect();
    assert_eq!(counts, [24, 552, 12_144, 255_024]);
}

/// Reference perft split over the first moves, on all cores.
fn parallel_ref_perft(rules: &Rules, depth: u32, unit: Unit) -> u64 {
    let g = RefGame::new(rules);
    let (moves, _) = g.legal_moves();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (g, moves) = (&g, &moves);
                scope.spawn(move || {
                    moves
                        .iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|&mv| {
                            let mut next = g.clone();
                            next.apply(mv);
                            let rest = if unit == Unit::Turn && next.pending > 0 {
                                depth
                            } else {
                                depth - 1
                            };
                            next.perft(rest, unit)
                        })
                        .sum::<u64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("thread")).sum()
    })
}

#[test]
#[ignore = "slow: reference perft of Nine Men's Morris to ply depth 6 and turn depth 6 (release)"]
fn reference_perft_nine_mens_morris_deep() {
    let rules = load("nine-mens-morris");
    let ply: Vec<u64> = (1..=6)
        .map(|d| parallel_ref_perft(&rules, d, Unit::Ply))
        .collect();
    println!("reference ply 1..6: {ply:?}");
    assert_eq!(
        ply,
        [24, 552, 12_144, 255_024, 5_100_480, 96_223_680],
        "per ply"
    );
    let turn: Vec<u64> = (1..=6)
        .map(|d| parallel_ref_perft(&rules, d, Unit::Turn))
        .collect();
    println!("reference turn 1..6: {turn:?}");
    assert_eq!(
        turn,
        [24, 552, 12_144, 255_024, 5_140_800, 99_274_176],
        "per turn"
    );
}

#[test]
#[ignore = "very slow: reference perft of Nine Men's Morris at ply depth 7 (release, minutes)"]
fn reference_perft_nine_mens_morris_ply_7() {
    let rules = load("nine-mens-morris");
    let n = parallel_ref_perft(&rules, 7, Unit::Ply);
    println!("reference ply 7: {n}");
    assert_eq!(n, 1_720_800_000);
}

#[test]
#[ignore = "slow: many more lock-step games per ruleset"]
fn lockstep_games_many() {
    for b in morrigo_rules::builtin::family("morris") {
        let rules = load(b.name);
        let any = AnyMachine::new(rules.clone()).expect("fits");
        let tally = with_machine!(&any, m => lockstep(m, &rules, 3000, 0xBEEF));
        println!("{}: {tally:?}", b.name);
    }
}

// ----- probes: rulesets that read more of the vocabulary ---------------------

fn run_lockstep_text(name: &str, text: &str, games: u64) -> Tally {
    let rules = Arc::new(
        morrigo_rules::rules_from_text(name, text).unwrap_or_else(|e| panic!("{name}: {e:?}")),
    );
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let tally = with_machine!(&any, m => lockstep(m, &rules, games, 0xC0FFEE));
    println!("{name}: {tally:?}");
    tally
}

/// Each case in lock-step for `games` random games; some of them must end
/// by a rule, so whole games were compared and not only their openings.
fn lockstep_cases(cases: &[(&str, &str)], games: u64) {
    for (name, text) in cases {
        let t = run_lockstep_text(name, text, games);
        assert!(t.unfinished < t.games, "{name}: no game ended: {t:?}");
    }
}

/// End rules and guards over `turn`, `lost`, `lines`, `turns_without_line`,
/// `phase`, `empty_points` and a `win` verdict.
#[test]
fn probe_counters_and_win_verdict() {
    let text = r#"
name: probe-counters
extends: nine-mens-morris
params:
  quiet_limit: 12
phases:
  moving:
    actions:
      slide: "phase == moving"
      fly: "on_board(me) <= 4 and lost(me) >= 4"
end:
  big_lead:
    win: "lost(opponent) >= lost(me) + 3 and lines(me) > 0"
    before: too_few_pieces
  quiet:
    draw: "turns_without_line >= quiet_limit and turn > 30"
  crowded:
    lose: "empty_points < 4"
"#;
    let t = run_lockstep_text("probe-counters", text, 200);
    assert!(t.decided.iter().filter(|&&n| n > 0).count() >= 3, "{t:?}");
}

/// Replays a record in both implementations, comparing them at every ply.
fn replay_lockstep(name: &str, text: &str, moves: &str) {
    let rules = Arc::new(
        morrigo_rules::rules_from_text(name, text).unwrap_or_else(|e| panic!("{name}: {e:?}")),
    );
    let any = AnyMachine::new(rules.clone()).expect("fits");
    with_machine!(&any, m => {
        let mut s = m.initial();
        let mut r = RefGame::new(&rules);
        let mut played = Vec::new();
        let intents: Vec<_> = morrigo_engine::notation::tokens(moves)
            .iter()
            .flat_map(|t| {
                morrigo_engine::notation::parse_token(&rules.topology, &t.text, None)
                    .unwrap_or_else(|e| panic!("{}: {e:?}", t.text))
            })
            .collect();
        for intent in intents.iter().map(Some).chain([None]) {
            let at = format!("{name}, after `{}`", record(&rules, &played));
            same_state(m, &s, &r, &at);
            let (fm, fo) = fast_moves(m, &s);
            let (rm, ro) = r.legal_moves();
            assert_eq!(sorted(fm), sorted(rm.clone()), "{at}: legal moves (left fast)");
            assert_eq!(fo, ro, "{at}: outcome (left fast)");
            let Some(intent) = intent else { break };
            let mv = *rm
                .iter()
                .find(|mv| intent.matches(mv))
                .unwrap_or_else(|| panic!("{at}: {intent:?} is not legal"));
            m.apply(&mut s, mv);
            r.apply(mv);
            played.push(mv);
        }
    });
}

const PHASE_IN_REMOVABLE: &str = r#"
name: probe-phase-removable
extends: nine-mens-morris
on_line_formed:
  removable: "phase == placing or not in_line(target)"
"#;

const LINES_FORMED_IN_REMOVABLE: &str = r#"
name: probe-lines-formed-removable
extends: nine-mens-morris-remove-per-mill
on_line_formed:
  removable: "lines_formed >= 1"
"#;

/// Black closes b2-b4-b6 while placing; with `phase == placing` every white
/// piece is removable, those of White's mill a1-d1-g1 included.
#[test]
fn probe_phase_in_removable_minimal() {
    replay_lockstep(
        "probe-phase-removable",
        PHASE_IN_REMOVABLE,
        "a1 c3 d1 b4 g1xc3 b6 d7 b2",
    );
}

/// White's d1 closes two lines and owes two removals; `lines_formed` is 2 for
/// both of them.
#[test]
fn probe_lines_formed_in_removable_minimal() {
    replay_lockstep(
        "probe-lines-formed-removable",
        LINES_FORMED_IN_REMOVABLE,
        "a1 a7 g1 g7 d2 b6 d3 f6 d1xa7 xg7",
    );
}

/// `phase` in `on_line_formed.removable` (the vocabulary allows it there).
#[test]
fn probe_phase_in_removable() {
    run_lockstep_text("probe-phase-removable", PHASE_IN_REMOVABLE, 100);
}

/// `lines_formed` in `removable`, with one removal per line formed: the
/// second removal of a double line still sees the move's `lines_formed`.
#[test]
fn probe_lines_formed_in_removable() {
    run_lockstep_text(
        "probe-lines-formed-removable",
        LINES_FORMED_IN_REMOVABLE,
        300,
    );
}
/// `repetitions`, `turn` and `no_legal_move` in the line rule.
#[test]
fn probe_repetitions_in_line_rule() {
    let text = r#"
name: probe-repetitions-line-rule
extends: nine-mens-morris
on_line_formed:
  removals: "1 + repetitions"
  removable: "not no_legal_move and (turn > 40 or not in_line(target) or all_in_lines(opponent))"
"#;
    run_lockstep_text("probe-repetitions-line-rule", text, 200);
}

// ----- captures made by the move itself (`captures:`) -------------------------

/// Custodian and intervention captures on each board kind and direction
/// set, every phase and in the moving phase only, against the reference.
#[test]
fn probe_captures_in_lockstep() {
    let cases = [
        (
            "cap-nmm-custodian",
            include_str!("../../../../tests/rulesets/nmm-custodian.yaml"),
        ),
        (
            "cap-nmm-intervention",
            include_str!("../../../../tests/rulesets/nmm-intervention.yaml"),
        ),
        (
            "cap-nmm-leap",
            include_str!("../../../../tests/rulesets/nmm-leap.yaml"),
        ),
        (
            "cap-leap-flying",
            r#"
name: cap-leap-flying
extends: nine-mens-morris
params: { fly_at: 4 }
captures:
  jump: { kind: leap }
  flank: { kind: custodian, directions: [side], when: "on_board(me) > 4" }
"#,
        ),
        (
            "cap-twelve-diagonal",
            r#"
name: cap-twelve-diagonal
extends: twelve-mens-morris
captures:
  flank: { kind: custodian, directions: [diagonal, cross] }
  between: { kind: intervention, directions: [diagonal], when: "on_board(me) <= 6" }
"#,
        ),
        (
            "cap-grid",
            r#"
name: cap-grid
extends: nine-mens-morris
board:
  nested_squares: null
  grid: { width: 5, height: 5, diagonals: alternate, lines: 3 }
setup: { in_hand: 8 }
captures:
  flank: { kind: custodian, directions: [horizontal, vertical] }
  between: { kind: intervention, directions: [diagonal], when: "phase == moving" }
  jump: { kind: leap, directions: [diagonal, vertical] }
"#,
        ),
    ];
    lockstep_cases(&cases, 150);
}

/// Perft with captures: the fast engine and the reference agree to depth 4
/// from mid-game positions where captures happen.
#[test]
fn perft_with_captures() {
    let text = r#"
name: cap-perft
extends: nine-mens-morris
captures:
  between: { kind: intervention }
  jump: { kind: leap, directions: [side, cross] }
"#;
    let rules = rules_of("cap-perft", text);
    perft_agrees("cap-perft", rules, 4, POSITIONS, 3, &[Unit::Ply]);
}

// ----- turn order: extra turns, `first`, removals as moves -------------------

/// Achi (blocked positions are common) where a blocked player removes an
/// opposing piece next to one of its own and moves again, and the second
/// player starts the moving phase: every turn-order rule, many times a game.
const TURN_ORDER_PROBE: &str = r#"
name: probe-turn-order
extends: achi
phases:
  moving:
    actions:
      remove: "no_legal_move and own_neighbours(target) > 0"
    extra_turn: "turns_without_removal == 0"
    first: black
"#;

#[test]
fn probe_turn_order_rules() {
    lockstep_cases(&[("probe-turn-order", TURN_ORDER_PROBE)], 300);
}

/// The probe's random games go through every turn-order rule: removals
/// made as moves, the same player moving again after one, and black
/// starting the moving phase although white placed first.
#[test]
fn probe_turn_order_rules_are_exercised() {
    let rules = Arc::new(
        morrigo_rules::rules_from_text("probe-turn-order", TURN_ORDER_PROBE).expect("compiles"),
    );
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let (removal_moves, again, black_first) = with_machine!(&any, m => {
        let (mut removal_moves, mut again, mut black_first) = (0, 0, 0);
        let moving = rules.phases.iter().position(|p| p.name == "moving").expect("moving");
        for g in 0..200u64 {
            let mut rng = SmallRng::seed_from_u64(0x7E45 ^ g);
            let mut s = m.initial();
            let mut moves = Vec::new();
            for _ in 0..MAX_PLIES {
                if m.legal_moves(&s, &mut moves).is_some() || moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                let (me, owed, was) = (s.pos.to_move, s.pos.pending, m.phase(&s));
                m.apply(&mut s, mv);
                if mv.kind == MoveKind::Remove && owed == 0 {
                    removal_moves += 1;
                    again += usize::from(s.pos.to_move == me);
                }
                if was != moving && m.phase(&s) == moving && s.pos.to_move == 1 && me == 1 {
                    black_first += 1;
                }
            }
        }
        (removal_moves, again, black_first)
    });
    assert!(removal_moves >= 5, "removal moves: {removal_moves}");
    assert_eq!(again, removal_moves, "each removal move earns another move");
    assert!(
        black_first > 20,
        "black starting the moving phase: {black_first}"
    );
}

#[test]
fn probe_turn_order_perft() {
    let rules = Arc::new(
        morrigo_rules::rules_from_text("probe-turn-order", TURN_ORDER_PROBE).expect("compiles"),
    );
    let any = AnyMachine::new(rules.clone()).expect("fits");
    with_machine!(&any, m => {
        for unit in [Unit::Ply, Unit::Turn] {
            let fast = perft(m, &mut m.initial(), 10, unit);
            let slow = RefGame::new(&rules).perft(10, unit);
            assert_eq!(fast, slow, "perft 10 ({unit:?})");
        }
    });
}

/// Zhi Qi's full board: both removals, then the moving phase, in lockstep.
#[test]
fn zhi_qi_full_board_in_lockstep() {
    let text = morrigo_rules::builtin::find("zhi-qi")
        .expect("built-in")
        .text;
    replay_lockstep(
        "zhi-qi",
        text,
        "b6 e4 c5 c3 b4 d6 d3 e5 a4 d7 e3 g4 d5 a7 g7 b2 d2 g1 a1 d1 f4 c4 f6 f2 \
         xa7 xb6 a4-a7 d6-b6",
    );
}

/// Nerenchi: a line while placing (extra placement), the stop at two empty
/// points, in lockstep.
#[test]
fn nerenchi_extra_turns_in_lockstep() {
    let text = morrigo_rules::builtin::find("nerenchi")
        .expect("built-in")
        .text;
    replay_lockstep("nerenchi", text, "a1 a4 d1 b4 g1 g4 c3 b6 d2 d6");
}

// ----- removals fixed when a phase ends: `lines_formed_in`, `remove_own` -----

/// What happened at the end of placing in one El Filja game.
#[derive(Debug, Default)]
struct SettleTally {
    /// Games that reached the end of placing.
    settled: usize,
    /// Games with no mill on either side (each removes an own piece).
    no_mills: usize,
    /// Own pieces removed (`remove_own`).
    own_removals: usize,
    /// Removals after which the same player removed again (`extra_turn`).
    again: usize,
}

/// El Filja's removals, read independently from Sanmill's rule: with `w`
/// and `b` the complete lines of each colour when both hands are empty,
/// (white's, black's) removals.
fn el_filja_owed(w: u32, b: u32) -> (u32, u32) {
    match (w, b) {
        (0, 0) => (1, 1),
        (_, 0) => (2, 1),
        (0, _) => (1, 2),
        _ if w == b => (w, b),
        _ if w > b => (b + 1, b),
        _ => (w, w + 1),
    }
}

/// Random El Filja games: the mill counts at the end of placing fix each
/// side's removals as Sanmill reads them, white makes all of its removals
/// before black, own pieces go when neither side has a mill, and then the
/// moving phase starts with white. Every branch is seen taken.
#[test]
fn el_filja_removals_follow_the_mill_counts() {
    let rules = load("el-filja");
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let tally = with_machine!(&any, m => {
        let mut t = SettleTally::default();
        let moving = rules.phases.iter().position(|p| p.name == "moving").expect("moving");
        for g in 0..300u64 {
            let mut rng = SmallRng::seed_from_u64(0xF11A ^ g);
            let mut s = m.initial();
            let mut moves = Vec::new();
            // Play the 24 placements.
            for _ in 0..24 {
                assert!(m.legal_moves(&s, &mut moves).is_none(), "game {g}: ended while placing");
                let mv = moves[rng.random_range(0..moves.len())];
                assert_eq!(mv.kind, MoveKind::Place);
                m.apply(&mut s, mv);
            }
            let lines = |pl: usize| {
                rules.topology.lines.iter()
                    .filter(|l| l.iter().all(|&p| s.pos.occ[pl].has(p as usize)))
                    .count() as u32
            };
            let (w, b) = (lines(0), lines(1));
            let owed = el_filja_owed(w, b);
            t.settled += 1;
            t.no_mills += usize::from(w + b == 0);
            // The removals, until the moving phase.
            let mut made: Vec<(u8, bool)> = Vec::new();
            while m.phase(&s) != moving {
                assert!(m.legal_moves(&s, &mut moves).is_none(), "game {g}: ended while removing");
                let mv = moves[rng.random_range(0..moves.len())];
                assert_eq!(mv.kind, MoveKind::Remove, "game {g}: {mv:?} while removing");
                let me = s.pos.to_move;
                let own = s.pos.occ[me as usize].has(mv.to as usize);
                assert_eq!(own, w + b == 0, "game {g}: own piece iff no mills ({w}, {b})");
                m.apply(&mut s, mv);
                t.own_removals += usize::from(own);
                t.again += usize::from(s.pos.to_move == me);
                made.push((me, own));
            }
            let by = |pl: u8| made.iter().filter(|(p, _)| *p == pl).count() as u32;
            assert_eq!((by(0), by(1)), owed, "game {g}: removals for mills ({w}, {b})");
            let white_first = made.iter().take(owed.0 as usize).all(|(p, _)| *p == 0);
            assert!(white_first, "game {g}: white removes first: {made:?}");
            assert_eq!(s.pos.to_move, 0, "game {g}: white moves first");
        }
        t
    });
    println!("{tally:?}");
    assert_eq!(tally.settled, 300);
    assert!(tally.no_mills >= 1, "{tally:?}");
    assert_eq!(tally.own_removals, 2 * tally.no_mills, "{tally:?}");
    assert!(tally.again >= 100, "{tally:?}");
}

/// The probe of the two primitives on another ruleset
/// (`tests/rulesets/lang-phase-lines.yaml`): random games in lock-step and
/// perft against the reference, and each rule seen at work.
#[test]
fn probe_phase_lines_in_lockstep() {
    let text = include_str!("../../../../tests/rulesets/lang-phase-lines.yaml");
    let t = run_lockstep_text("lang-phase-lines", text, 300);
    let rules = rules_of("lang-phase-lines", text);
    let three = rules
        .end
        .iter()
        .position(|e| e.name == "three_lines_moving");
    assert!(t.decided[three.expect("rule")] > 100, "{t:?}");
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let (own, black_first) = with_machine!(&any, m => {
        let moving = rules.phases.iter().position(|p| p.name == "moving").expect("moving");
        let (mut own, mut black_first) = (0, 0);
        for g in 0..300u64 {
            let mut rng = SmallRng::seed_from_u64(0xB10C ^ g);
            let mut s = m.initial();
            let mut moves = Vec::new();
            for _ in 0..MAX_PLIES {
                if m.legal_moves(&s, &mut moves).is_some() || moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                let (me, was) = (s.pos.to_move as usize, m.phase(&s));
                own += usize::from(mv.kind == MoveKind::Remove && s.pos.occ[me].has(mv.to as usize));
                m.apply(&mut s, mv);
                let entered = was != moving && s.pos.pending == 0 && m.phase(&s) == moving;
                black_first += usize::from(entered && s.pos.to_move == 1);
            }
        }
        (own, black_first)
    });
    assert!(own >= 3, "own removals when blocked: {own}");
    assert!(
        black_first >= 20,
        "black starting the moving phase: {black_first}"
    );
    let positions = [(24, 7), (30, 8), (40, 9)];
    let units = [Unit::Ply, Unit::Turn];
    perft_agrees("lang-phase-lines", rules, 4, &positions, 3, &units);
}

/// El Filja from the end of placing (the four branches of the mill
/// counts), perft 4 in both implementations.
#[test]
fn el_filja_perft_through_the_removals() {
    let rules = load("el-filja");
    let any = AnyMachine::new(rules.clone()).expect("fits");
    let records = [
        "d1 f2 d2 c4 c3 a7 a4 a1 d6 d3 c5 f4 e4 d7 b4 b2 g7 d5 e3 b6 f6 g4 g1 e5",
        "a4 d6 a7 g1 a1 b2 f6 g7 b4 d2 c5 e4 g4 d7 d5 f2 c4 f4 e3 b6 d1 e5 c3 d3",
        "c3 g7 c4 a4 b6 f2 e4 e3 d6 c5 a7 e5 d5 d3 b4 b2 d1 d7 f4 g1 g4 a1 d2 f6",
        "c5 d6 c4 d5 d7 g1 f2 c3 a7 e3 d1 b4 a1 g7 g4 f6 e5 a4 e4 b6 d2 f4 b2 d3",
    ];
    with_machine!(&any, m => {
        for moves in records {
            let mut s = m.initial();
            let mut r = RefGame::new(&rules);
            for t in morrigo_engine::notation::tokens(moves) {
                let intents = morrigo_engine::notation::parse_token(&rules.topology, &t.text, None)
                    .expect("a move");
                let mv = r.legal_moves().0.into_iter().find(|mv| intents[0].matches(mv)).expect("legal");
                m.apply(&mut s, mv);
                r.apply(mv);
            }
            for unit in [Unit::Ply, Unit::Turn] {
                assert_eq!(perft(m, &mut s.clone(), 4, unit), r.perft(4, unit), "{moves} ({unit:?})");
            }
        }
    });
}

// ----- captures taken by removals (`captures.*.take: choose | choose_one`) ---

/// Rulesets with captures by removal: the probe file, one removal per
/// custodian, both kinds on the diagonals of Twelve Men's Morris (a full
/// board, so mills and captures meet often) mixed with a capture taken at
/// once, and a grid.
const CHOOSE_CASES: &[(&str, &str)] = &[
    (
        "choose-nmm",
        include_str!("../../../../tests/rulesets/nmm-capture-choose.yaml"),
    ),
    (
        "choose-one-nmm",
        r#"
name: choose-one-nmm
extends: nine-mens-morris
captures:
  flank: { kind: custodian, take: choose_one }
  between: { kind: intervention, directions: [side, cross], take: choose }
"#,
    ),
    (
        "choose-twelve",
        r#"
name: choose-twelve
extends: twelve-mens-morris
captures:
  flank: { kind: custodian, directions: [side, diagonal], take: choose }
  between: { kind: intervention, take: choose, when: "on_board(me) <= 9" }
  sweep: { kind: intervention, directions: [cross], when: "phase == moving" }
"#,
    ),
    (
        "choose-grid",
        r#"
name: choose-grid
extends: nine-mens-morris
board:
  nested_squares: null
  grid: { width: 5, height: 5, diagonals: alternate, lines: 3 }
setup: { in_hand: 8 }
captures:
  flank: { kind: custodian, directions: [horizontal, vertical], take: choose }
  between: { kind: intervention, directions: [diagonal], take: choose }
"#,
    ),
];

#[test]
fn captures_by_removal_in_lockstep() {
    lockstep_cases(CHOOSE_CASES, 150);
}

/// Perft with captures by removal: the fast engine and the reference agree
/// to depth 4 from the start and depth 3 from mid-game positions, per ply
/// and per turn.
#[test]
fn perft_with_captures_by_removal() {
    for (name, text) in &CHOOSE_CASES[..3] {
        let units = [Unit::Ply, Unit::Turn];
        perft_agrees(name, rules_of(name, text), 4, POSITIONS, 3, &units);
    }
}

/// How often each reading of a capture by removal came up in random games.
#[derive(Debug, Default)]
struct ChoiceTally {
    /// Moves that left a capture by removal owing.
    opened: usize,
    /// Of those, with one target / with two or more.
    one_target: usize,
    several_targets: usize,
    /// Also completing a line: the first removal took the capture / the line's.
    took_capture_over_line: usize,
    took_line_over_capture: usize,
    /// Intervention: the second removal was forced to the first's partner.
    partner_forced: usize,
}

fn choice_tally<const W: usize>(m: &Machine<W>, games: u64) -> ChoiceTally {
    let mut t = ChoiceTally::default();
    let mut rng = SmallRng::seed_from_u64(0xC401CE);
    for _ in 0..games {
        let mut s = m.initial();
        let mut both_open = false;
        let mut intervention_first = None;
        for _ in 0..MAX_PLIES {
            let (moves, outcome) = fast_moves(m, &s);
            if outcome.is_some() || moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let targets = m.capture_targets(&s);
            if let Some(first) = intervention_first.take() {
                // Only the partner of the first intervention removal is offered.
                if moves.len() == 1 && mv.kind == MoveKind::Remove && mv.to != first {
                    t.partner_forced += 1;
                }
            }
            if both_open && mv.kind == MoveKind::Remove {
                if targets.has(mv.to as usize) {
                    t.took_capture_over_line += 1;
                } else {
                    t.took_line_over_capture += 1;
                }
            }
            let was_open = m.capture_owed(&s) && both_open;
            m.apply(&mut s, mv);
            both_open = false;
            if mv.kind != MoveKind::Remove && m.capture_owed(&s) {
                t.opened += 1;
                match m.capture_targets(&s).count() {
                    1 => t.one_target += 1,
                    _ => t.several_targets += 1,
                }
                both_open = m.capture_owed_lines(&s);
            } else if mv.kind == MoveKind::Remove && !was_open && m.capture_owed(&s) {
                // A removal left exactly one more capture target: an
                // intervention partner (custodian targets shrink by one).
                if m.capture_targets(&s).count() == 1 && s.pos.pending == 1 {
                    intervention_first = Some(mv.to);
                }
            }
        }
    }
    t
}

/// Each case of the capture-by-removal reading happens in the probe
/// rulesets' random games: one flanked piece, several, a capture chosen
/// over a completed line's removal and the other way round, and a forced
/// intervention partner.
#[test]
fn captures_by_removal_are_exercised() {
    for (name, text) in &CHOOSE_CASES[1..3] {
        let rules = rules_of(name, text);
        let any = AnyMachine::new(rules).expect("fits");
        let t = with_machine!(&any, m => choice_tally(m, 200));
        println!("{name}: {t:?}");
        assert!(t.one_target > 0, "{name}: {t:?}");
        assert!(t.several_targets > 0, "{name}: {t:?}");
        assert!(t.took_capture_over_line > 0, "{name}: {t:?}");
        assert!(t.took_line_over_capture > 0, "{name}: {t:?}");
        assert!(t.partner_forced > 0, "{name}: {t:?}");
    }
}

// ----- passes in the Morris family (a blocked player passes) ------------------

/// A blocked player passes instead of losing: the probe file on Nine Men's
/// Morris, and Achi, where blocked positions come often.
const PASS_CASES: &[(&str, &str)] = &[
    (
        "nmm-blocked-passes",
        include_str!("../../../../tests/rulesets/nmm-blocked-passes.yaml"),
    ),
    (
        "achi-blocked-passes",
        r#"
name: achi-blocked-passes
extends: achi
passes: { kinds: [P] }
phases:
  moving:
    actions:
      pass: true
forbid:
  pass_only_when_blocked:
    moves: [P]
    when: "not no_legal_move"
end:
  blocked: null
"#,
    ),
];

#[test]
fn blocked_passes_in_lockstep() {
    lockstep_cases(PASS_CASES, 300);
}

/// Perft with passes: the fast engine and the reference agree to depth 4
/// from the start and depth 3 from mid-game positions.
#[test]
fn perft_with_blocked_passes() {
    for (name, text) in PASS_CASES {
        perft_agrees(name, rules_of(name, text), 4, POSITIONS, 3, &[Unit::Ply]);
    }
}

/// The random games of the lock-step test do pass: the reference's passes
/// are exercised, not only its other moves.
#[test]
fn blocked_passes_are_exercised() {
    let (name, text) = PASS_CASES[1];
    let rules = rules_of(name, text);
    let mut passes = 0;
    for g in 0..300u64 {
        let mut rng = SmallRng::seed_from_u64(0xC0FFEEu64.wrapping_mul(1_000_003).wrapping_add(g));
        let mut r = RefGame::new(&rules);
        for _ in 0..MAX_PLIES {
            let (moves, outcome) = r.legal_moves();
            if outcome.is_some() || moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            if mv.kind == MoveKind::Pass {
                // Passing is allowed only when nothing else is.
                assert_eq!(moves.len(), 1, "a pass beside other moves");
                passes += 1;
            }
            r.apply(mv);
        }
    }
    assert!(passes > 0, "no pass in 300 random games of {name}");
    println!("{name}: {passes} passes");
}

/// A forbid rule on removals reading `target` (the piece the removal
/// takes), against the reference.
#[test]
fn forbid_reading_the_removal_target_in_lockstep() {
    let text = include_str!("../../../../tests/rulesets/lang-remove-target.yaml");
    lockstep_cases(&[("lang-remove-target", text)], 200);
}
