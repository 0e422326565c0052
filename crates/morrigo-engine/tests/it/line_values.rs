//! Forbid rules reading the lines a move completes or leaves by a per-line
//! condition (`lines_formed(cond)`, `lines_broken(cond)`), the points it
//! goes from and to, and the direction it goes along: random games in
//! lock-step with the Morris reference (same legal moves, outcome and undo
//! at every ply; every refused candidate refused by the same rule in both),
//! each rule shown to fire in those games, and perft to depth 3 from the
//! positions just before it fired, both engines.

use morrigo_engine::{
    perft, with_machine, AnyMachine, Illegal, Machine, Move, MoveKind, State, Unit,
};
use morrigo_reference::morris::RefGame;
use morrigo_rules::Rules;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

fn load(spec: &str) -> Arc<Rules> {
    let path = format!(
        "{}/../../tests/rulesets/{spec}.yaml",
        env!("CARGO_MANIFEST_DIR")
    );
    let spec = if std::path::Path::new(&path).exists() {
        path
    } else {
        spec.to_string()
    };
    Arc::new(morrigo_rules::load_rules(&spec).unwrap_or_else(|e| panic!("{spec}: {e}")))
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| (m.kind as u8, m.from, m.to));
    moves
}

#[derive(Debug, Default)]
struct Seen {
    /// Per forbid rule: candidate moves it refused.
    refused: Vec<usize>,
    /// Turns that completed a line and earned no removal.
    uncounted: usize,
    /// Move prefixes leading to positions where a rule refused a move.
    before_refusal: Vec<Vec<Move>>,
}

/// Every placement, slide, fly and leap of the player to move that the board
/// allows (an own piece, an empty point), legal or not.
fn candidates<const W: usize>(m: &Machine<W>, s: &State<W>) -> Vec<Move> {
    let me = s.pos.to_move;
    let n = m.points() as u16;
    let empty: Vec<u16> = (0..n).filter(|&p| s.owner(p).is_none()).collect();
    let mut out: Vec<Move> = empty.iter().map(|&p| Move::place(p)).collect();
    for from in (0..n).filter(|&p| s.owner(p) == Some(me)) {
        for &to in &empty {
            for kind in [MoveKind::Slide, MoveKind::Fly, MoveKind::Leap] {
                out.push(Move { kind, from, to });
            }
        }
    }
    out
}

fn lockstep<const W: usize>(m: &Machine<W>, rules: &Rules, games: u64) -> Seen {
    let mut seen = Seen {
        refused: vec![0; rules.forbid.len()],
        ..Seen::default()
    };
    for g in 0..games {
        let mut rng = SmallRng::seed_from_u64(0x11FE + g);
        let mut s: State<W> = m.initial();
        let mut r = RefGame::new(rules);
        let mut played = Vec::new();
        for _ in 0..300 {
            let at = format!("{} game {g} ply {}", rules.name, played.len());
            let mut fast = Vec::new();
            let outcome = m.legal_moves(&s, &mut fast);
            let (slow, slow_outcome) = r.legal_moves();
            assert_eq!(sorted(fast.clone()), sorted(slow), "{at}: legal moves");
            assert_eq!(outcome, slow_outcome, "{at}: outcome");
            if outcome.is_some() || fast.is_empty() {
                break;
            }
            if s.pos.pending == 0 {
                let mut refused_here = false;
                for mv in candidates(m, &s) {
                    if let Err(Illegal::Forbidden(i)) = m.check_move(&s, mv) {
                        assert_eq!(r.forbidden_by(mv), Some(i), "{at}: rule refusing {mv:?}");
                        seen.refused[i] += 1;
                        refused_here = true;
                    }
                }
                if refused_here && seen.before_refusal.len() < 4 && !played.is_empty() {
                    seen.before_refusal.push(played.clone());
                }
            }
            let pos = s.pos;
            for &mv in &fast {
                let u = m.apply(&mut s, mv);
                m.undo(&mut s, u);
                assert_eq!(s.pos, pos, "{at}: undo of {mv:?}");
            }
            let mv = fast[rng.random_range(0..fast.len())];
            let (me, lost) = (r.to_move, r.lost);
            m.apply(&mut s, mv);
            r.apply(mv);
            if mv.kind != MoveKind::Remove
                && r.lines_through(me, mv.to) > 0
                && r.pending == 0
                && r.lost == lost
            {
                seen.uncounted += 1;
            }
            played.push(mv);
        }
    }
    seen
}

fn run(spec: &str, games: u64) -> Seen {
    let rules = load(spec);
    let any = AnyMachine::new(rules.clone()).expect("fits");
    with_machine!(&any, m => {
        let seen = lockstep(m, &rules, games);
        let start = perft(m, &mut m.initial(), 3, Unit::Ply);
        assert_eq!(start, RefGame::new(&rules).perft(3, Unit::Ply), "{spec}: perft 3");
        for prefix in &seen.before_refusal {
            let mut s = m.initial();
            let mut r = RefGame::new(&rules);
            for &mv in prefix {
                m.apply(&mut s, mv);
                r.apply(mv);
            }
            let fast = perft(m, &mut s, 3, Unit::Ply);
            assert_eq!(fast, r.perft(3, Unit::Ply), "{spec}: perft 3 after {prefix:?}");
            assert!(fast > 0);
        }
        println!(
            "{spec}: refused per rule {:?}, uncounted lines {}, perft from {} positions",
            seen.refused,
            seen.uncounted,
            seen.before_refusal.len()
        );
        seen
    })
}

/// Morabaraba (GAR, Sanmill's reading): moving a cow straight back to
/// re-make the line it broke to make a new one is refused, and that
/// happens in random play; no line ever goes without its shot.
#[test]
fn morabaraba_refuses_re_forming_a_traded_line() {
    let seen = run("morabaraba", 200);
    assert!(seen.refused[0] > 0, "`re_forming` never fired: {seen:?}");
    assert_eq!(seen.uncounted, 0);
    assert!(!seen.before_refusal.is_empty());
}

/// The softer reading (probe): the same moves are legal and earn nothing.
#[test]
fn morabaraba_softer_reading_lets_the_line_earn_nothing() {
    let seen = run("morabaraba-reform-counts", 200);
    assert!(seen.refused.iter().all(|&n| n == 0), "{seen:?}");
    assert!(seen.uncounted > 0, "no re-made line went without a shot");
}

/// Directions and point names (probe): each of its rules refuses moves in
/// play, and diagonal lines earn nothing.
#[test]
fn directions_and_point_names_fire_in_play() {
    let seen = run("lang-directions", 150);
    let rules = load("lang-directions");
    for (i, f) in rules.forbid.iter().enumerate() {
        assert!(seen.refused[i] > 0, "`{}` never fired: {seen:?}", f.name);
    }
    assert!(seen.uncounted > 0, "no diagonal line was made");
}

/// Picaria without a first drop on the centre (probe).
#[test]
fn picaria_first_drop_is_not_on_the_centre() {
    let seen = run("picaria-no-centre-drop", 100);
    assert!(seen.refused[0] >= 100, "{seen:?}");
}

/// The direction of a leap (probe): leaps across the squares are refused,
/// those along the sides are played.
#[test]
fn leaps_across_the_squares_are_refused() {
    let seen = run("lang-leap-direction", 200);
    assert!(seen.refused[0] > 0, "`no_cross_leap` never fired: {seen:?}");
}
