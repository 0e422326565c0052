//! Property tests over generated Go-family rulesets (board plays with or
//! without lines, limited or unlimited hands, suicide and repetition
//! settings, custom forbid rules) and the built-in Go rulesets:
//! - the fast engine and the slow reference (`morrigo_reference::go`) agree
//!   on the legal moves, the outcome and the state at every ply;
//! - undo after apply restores the position and the history exactly;
//! - the incrementally kept hash equals the hash built from scratch.

use morrigo_engine::notation::format_move_in;
use morrigo_engine::{with_machine, AnyMachine, Machine, Move, State};
use morrigo_reference::go::RefGo;
use morrigo_rules::load::Overrides;
use morrigo_rules::Rules;
use proptest::prelude::*;
use std::sync::Arc;

/// The settings a generated ruleset is made of.
#[derive(Clone, Debug)]
struct Gen {
    width: u32,
    height: u32,
    lines: bool,
    hand: Option<u32>,
    suicide: &'static str,
    removals: &'static str,
    immediate: &'static str,
    reading: &'static str,
    superko: &'static str,
    forbid: Option<&'static str>,
}

fn gen() -> impl Strategy<Value = Gen> {
    (
        (
            3u32..=4,
            3u32..=4,
            any::<bool>(),
            prop::option::of(2u32..=8),
        ),
        prop::sample::select(vec!["legal", "illegal", "lose"]),
        prop::sample::select(vec!["1", "lines_formed", "2"]),
        (
            prop::sample::select(vec!["allowed", "illegal", "lose"]),
            prop::sample::select(vec!["simple_ko", "jk"]),
            prop::sample::select(vec!["none", "positional", "situational"]),
        ),
        prop::option::of(prop::sample::select(vec![
            "turn < 2",
            "board_repetitions >= 2",
            "repetitions >= 2",
            "captured(me) > captured(opponent)",
            "phase == play and on_board(me) == 0",
        ])),
    )
        .prop_map(
            |(
                (width, height, lines, hand),
                suicide,
                removals,
                (immediate, reading, superko),
                forbid,
            )| Gen {
                width,
                height,
                lines,
                hand,
                suicide,
                removals,
                immediate,
                reading,
                superko,
                forbid,
            },
        )
}

impl Gen {
    fn text(&self) -> String {
        let lines = if self.lines { ", lines: 3" } else { "" };
        let hand = self.hand.map_or("unlimited".to_string(), |n| n.to_string());
        // No hand guard on `play`: an empty hand must stop board plays by itself.
        let play_guard = "true";
        let mut t = format!(
            "name: generated\ntitle: generated\n\
             board: {{ grid: {{ width: {}, height: {}, naming: gtp{lines} }} }}\n\
             players: [black, white]\nsetup: {{ in_hand: {hand} }}\n\
             phases:\n  play:\n    actions:\n      play: {play_guard}\n      pass: true\n\
             play:\n  suicide: {}\npasses:\n  kinds: [P]\n\
             repetition:\n  immediate: {}\n  immediate_reading: {}\n  superko: {}\n\
             end:\n  two_passes:\n    draw: \"after('P P')\"\n",
            self.width, self.height, self.suicide, self.immediate, self.reading, self.superko
        );
        if self.lines {
            t.push_str(&format!(
                "on_line_formed:\n  removals: \"{}\"\n  removable: \"not in_line(target) or all_in_lines(opponent)\"\n",
                self.removals
            ));
        }
        if let Some(f) = self.forbid {
            t.push_str(&format!(
                "forbid:\n  custom:\n    moves: [P]\n    when: \"{f}\"\n"
            ));
        }
        t
    }
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| (m.kind as u8, m.from, m.to));
    moves
}

/// The hash of the same board, hands and side built from scratch.
fn fresh_hash<const W: usize>(m: &Machine<W>, s: &State<W>) -> u64 {
    let p = &s.pos;
    m.state_from(p.occ[0], p.occ[1], p.in_hand, p.to_move)
        .pos
        .hash
}

/// One game in lock-step, the moves picked by `picks`; checks every
/// property at every ply. Returns an error naming the ply that failed.
fn lockstep<const W: usize>(
    m: &Machine<W>,
    rules: &Rules,
    picks: &[u16],
) -> Result<(), TestCaseError> {
    let mut s = m.initial();
    let mut r = RefGo::new(rules);
    let mut record = Vec::new();
    for &pick in picks {
        let at = format!("`{}`", record.join(" "));
        let mut fast = Vec::new();
        let fo = m.legal_moves(&s, &mut fast);
        let (slow, ro) = r.legal_moves();
        prop_assert_eq!(
            sorted(fast.clone()),
            sorted(slow),
            "{}: legal moves (left fast)",
            at
        );
        prop_assert_eq!(fo, ro, "{}: outcome (left fast)", at);
        prop_assert_eq!(s.pos.in_hand, r.in_hand, "{}: in hand", at);
        prop_assert_eq!(u32::from(s.pos.pending), r.pending, "{}: removals owed", at);
        prop_assert_eq!(s.pos.captured, r.captured, "{}: captured", at);
        prop_assert_eq!(s.pos.lost, r.lost, "{}: lost", at);
        for p in 0..r.board.len() {
            prop_assert_eq!(s.owner(p as u16), r.board[p], "{}: point {}", at, p);
        }
        prop_assert_eq!(s.pos.hash, fresh_hash(m, &s), "{}: incremental hash", at);
        let (pos, classes): (_, Vec<u8>) = (s.pos, s.classes().collect());
        for &mv in &fast {
            let u = m.apply(&mut s, mv);
            m.undo(&mut s, u);
            prop_assert_eq!(s.pos, pos, "{}: undo of {:?}", at, mv);
            prop_assert!(
                s.classes().eq(classes.iter().copied()),
                "{}: undo of {:?} (history)",
                at,
                mv
            );
        }
        if fo.is_some() || fast.is_empty() {
            break;
        }
        let mv = fast[pick as usize % fast.len()];
        record.push(format_move_in(rules, &mv));
        m.apply(&mut s, mv);
        r.apply(mv);
    }
    Ok(())
}

fn run(rules: Arc<Rules>, picks: &[u16]) -> Result<(), TestCaseError> {
    let any = AnyMachine::new(rules.clone()).expect("fits");
    with_machine!(&any, m => lockstep(m, &rules, picks))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Generated rulesets: fast engine = reference, undo, incremental hash.
    #[test]
    fn generated_rulesets_agree_with_the_reference(
        g in gen(),
        picks in prop::collection::vec(any::<u16>(), 1..80),
    ) {
        let rules = morrigo_rules::rules_from_text("generated", &g.text())
            .map_err(|e| TestCaseError::fail(format!("{e:?}\n{}", g.text())))?;
        run(Arc::new(rules), &picks)?;
    }

    /// Built-in Go rulesets on small boards: the same properties.
    #[test]
    fn go_rulesets_agree_with_the_reference(
        ruleset in prop::sample::select(vec!["chinese", "tromp-taylor", "new-zealand", "jk-final", "jk-natural"]),
        size in (2u32..=4, 2u32..=4),
        picks in prop::collection::vec(any::<u16>(), 1..80),
    ) {
        let o = Overrides { size: Some(size), komi: None };
        let rules = morrigo_rules::load_rules_with(ruleset, &o).expect("built-in");
        run(Arc::new(rules), &picks)?;
    }
}
