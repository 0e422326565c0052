//! The line rule's extras (`counts` with per-line history, `from_hand`,
//! `delay`) against the reference on the built-ins that use them: random
//! games in lock-step that must actually exercise each extra (a line that
//! does not count, a removal from the hand, a mark, a traded line), undo
//! of every legal move on the way, and perft to depth 4 from positions
//! where the extra is live.

use morrigo_engine::{perft, with_machine, AnyMachine, Machine, Move, State, Unit};
use morrigo_reference::morris::RefGame;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| (m.kind as u8, m.from, m.to));
    moves
}

#[derive(Debug, Default)]
struct Seen {
    /// Turns that completed a line which earned nothing.
    uncounted: usize,
    /// Moves that took pieces from the opponent's hand.
    from_hand: usize,
    /// Plies after which a mark stood on the board.
    marked: usize,
    /// Moves that traded a line (moved out of it, completing another).
    traded: usize,
    /// Move prefixes leading to the ply just before each event.
    before_event: Vec<Vec<Move>>,
}

fn lockstep<const W: usize>(m: &Machine<W>, name: &str, games: u64) -> Seen {
    let rules = &m.rules;
    let mut seen = Seen::default();
    for g in 0..games {
        let mut rng = SmallRng::seed_from_u64(0x3111 + g);
        let mut s: State<W> = m.initial();
        let mut r = RefGame::new(rules);
        let mut played = Vec::new();
        for _ in 0..400 {
            let mut fast = Vec::new();
            let outcome = m.legal_moves(&s, &mut fast);
            let (slow, slow_outcome) = r.legal_moves();
            let at = format!("{name} game {g} ply {}", played.len());
            assert_eq!(sorted(fast.clone()), sorted(slow), "{at}: legal moves");
            assert_eq!(outcome, slow_outcome, "{at}: outcome");
            if outcome.is_some() || fast.is_empty() {
                break;
            }
            let pos = s.pos;
            for &mv in &fast {
                let u = m.apply(&mut s, mv);
                m.undo(&mut s, u);
                assert_eq!(s.pos, pos, "{at}: undo of {mv:?}");
            }
            let mv = fast[rng.random_range(0..fast.len())];
            let me = r.to_move as usize;
            let (events, lost, hand) = (r.line_events.len(), r.lost, r.in_hand);
            m.apply(&mut s, mv);
            r.apply(mv);
            let new = &r.line_events[events..];
            let formed = new.iter().any(|e| !e.traded);
            let event_count = seen.uncounted + seen.from_hand + seen.traded;
            let was_marked = r.marked.contains(&true);
            if formed && r.pending == 0 && r.lost == lost {
                seen.uncounted += 1;
            }
            if r.in_hand[1 - me] < hand[1 - me] {
                seen.from_hand += 1;
            }
            if new.iter().any(|e| e.traded) {
                seen.traded += 1;
            }
            if r.marked.contains(&true) {
                seen.marked += 1;
            }
            let now_marked = r.marked.contains(&true) && !was_marked;
            if (seen.uncounted + seen.from_hand + seen.traded > event_count || now_marked)
                && seen.before_event.len() < 4
            {
                seen.before_event.push(played.clone());
            }
            played.push(mv);
        }
    }
    seen
}

fn run(name: &str) -> Seen {
    let rules = Arc::new(morrigo_rules::load_rules(name).expect("built-in"));
    let any = AnyMachine::new(rules.clone()).expect("fits");
    with_machine!(&any, m => {
        let seen = lockstep(m, name, 200);
        // Perft to depth 4 from just before some events, both engines.
        for prefix in &seen.before_event {
            let mut s = m.initial();
            let mut r = RefGame::new(&rules);
            for &mv in prefix {
                m.apply(&mut s, mv);
                r.apply(mv);
            }
            let fast = perft(m, &mut s, 4, Unit::Ply);
            assert_eq!(fast, r.perft(4, Unit::Ply), "{name}: perft 4 after {prefix:?}");
            assert!(fast > 0);
        }
        println!(
            "{name}: uncounted {}, from hand {}, marked {}, traded {}, perft from {} positions",
            seen.uncounted,
            seen.from_hand,
            seen.marked,
            seen.traded,
            seen.before_event.len()
        );
        seen
    })
}

/// Russian Mill: re-formed lines earn nothing, and that happens in play.
#[test]
fn russian_mill_lines_are_used_once() {
    let seen = run("russian-mill");
    assert!(seen.uncounted > 0, "{}", seen.uncounted);
    assert!(!seen.before_event.is_empty());
}

/// Morabaraba (GAR): lines are traded; re-making a traded line at once is
/// refused (`tests/line_values.rs`), so every line made earns its shot.
#[test]
fn morabaraba_traded_lines() {
    let seen = run("morabaraba");
    assert!(seen.traded > 0 && seen.uncounted == 0);
}

/// Dooz: lines formed while placing take from the hand.
#[test]
fn dooz_removes_from_the_hand() {
    let seen = run("dooz");
    assert!(seen.from_hand > 0 && seen.uncounted == 0);
}

/// Da San Qi: marks stand on the board in play.
#[test]
fn da_san_qi_leaves_marks() {
    let seen = run("da-san-qi");
    assert!(seen.marked > 0 && !seen.before_event.is_empty());
}
