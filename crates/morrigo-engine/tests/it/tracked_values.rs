//! Values the engine tracks only when some rule reads them (`repetitions`,
//! `board_repetitions`, `no_legal_move`, `phase`) must be up to date for
//! every kind of rule that reads them: a condition gives the same verdict as
//! an action guard and as a forbid rule.

use morrigo_engine::notation::format_move;
use morrigo_engine::{AnyMachine, Machine, Move, State};
use morrigo_rules::Rules;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::path::Path;
use std::sync::Arc;

fn from_text(name: &str, text: &str) -> Arc<Rules> {
    Arc::new(morrigo_rules::rules_from_text(name, text).unwrap_or_else(|e| panic!("{name}: {e:?}")))
}

fn defect_file(name: &str) -> Arc<Rules> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/defects")
        .join(name);
    let path = path.to_str().expect("utf-8 path");
    Arc::new(morrigo_rules::load_rules(path).unwrap_or_else(|e| panic!("{path}: {e:?}")))
}

fn narrow(rules: Arc<Rules>) -> Machine<1> {
    match AnyMachine::new(rules).expect("fits") {
        AnyMachine::W1(m) => m,
        _ => panic!("test boards have at most 64 points"),
    }
}

fn legal(m: &Machine<1>, s: &State<1>) -> Vec<Move> {
    let mut out = Vec::new();
    m.legal_moves(s, &mut out);
    out.sort_by_key(|m| (m.kind as u8, m.from, m.to));
    out
}

/// After `B2`, the board has resulted from a board play once, so a pass is
/// refused by the guard `board_repetitions < 1` and by the forbid rule
/// `board_repetitions >= 1` alike.
#[test]
fn board_repetitions_in_a_forbid_rule_and_a_guard_refuse_the_same_pass() {
    for file in [
        "forbid-board-repetitions.yaml",
        "guard-board-repetitions.yaml",
    ] {
        let m = narrow(defect_file(file));
        let mut s = m.initial();
        let b2 = m.rules.topology.point("B2").expect("B2 exists");
        m.apply(&mut s, Move::play(b2));
        let moves = legal(&m, &s);
        assert!(
            !moves.contains(&Move::pass(0)),
            "{file}: a pass after B2 must be refused, legal: {moves:?}"
        );
        assert!(!moves.is_empty(), "{file}: board plays stay legal");
    }
}

/// Rulesets that differ only in how a pass is restricted: by an action
/// guard (`pass: "not (COND)"`) or by a forbid rule (`when: COND`).
fn pair(parent: &str, cond: &str, phases: &str) -> (Arc<Rules>, Arc<Rules>) {
    let guard = format!(
        "name: by-guard\nextends: {parent}\nboard: {{ grid: {{ width: 3, height: 3, naming: gtp }} }}\n\
         phases:\n{}",
        phases.replace("PASS", &format!("\"not ({cond})\""))
    );
    let forbid = format!(
        "name: by-forbid\nextends: {parent}\nboard: {{ grid: {{ width: 3, height: 3, naming: gtp }} }}\n\
         phases:\n{}forbid:\n  no_pass:\n    moves: [P]\n    when: \"{cond}\"\n",
        phases.replace("PASS", "true")
    );
    (
        from_text("by-guard", &guard),
        from_text("by-forbid", &forbid),
    )
}

const ONE_PHASE: &str = "  play:\n    actions:\n      play: true\n      pass: PASS\n";
/// The inherited phase `play` now holds for the first four turns only.
const TWO_PHASES: &str =
    "  play:\n    when: \"turn < 4\"\n    actions:\n      play: true\n      pass: PASS\n  \
                          later:\n    actions:\n      play: true\n      pass: PASS\n";

/// Random games in lock-step: both rulesets give the same legal moves (and
/// the same outcome) at every ply.
fn same_legal_moves(guard: Arc<Rules>, forbid: Arc<Rules>, what: &str) {
    let (g, f) = (narrow(guard), narrow(forbid));
    let mut refused_somewhere = false;
    for seed in 0..40u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let (mut sg, mut sf) = (g.initial(), f.initial());
        let mut record = Vec::new();
        for _ in 0..120 {
            let (mut mg, mut mf) = (Vec::new(), Vec::new());
            let og = g.legal_moves(&sg, &mut mg);
            let of = f.legal_moves(&sf, &mut mf);
            mg.sort_by_key(|m| (m.kind as u8, m.from, m.to));
            mf.sort_by_key(|m| (m.kind as u8, m.from, m.to));
            assert_eq!(mg, mf, "{what}, seed {seed}, after `{}`", record.join(" "));
            assert_eq!(og, of, "{what}, seed {seed}, after `{}`", record.join(" "));
            if og.is_some() || mg.is_empty() {
                break;
            }
            refused_somewhere |= !mg.contains(&Move::pass(0));
            let m = mg[rng.random_range(0..mg.len())];
            record.push(format_move(&g.rules.topology, &m));
            g.apply(&mut sg, m);
            f.apply(&mut sf, m);
        }
    }
    assert!(
        refused_somewhere,
        "{what}: the condition never refused a pass"
    );
}

#[test]
fn a_forbid_rule_reading_board_repetitions_sees_what_a_guard_sees() {
    let (g, f) = pair("chinese", "board_repetitions >= 1", ONE_PHASE);
    same_legal_moves(g, f, "board_repetitions");
}

#[test]
fn a_forbid_rule_reading_repetitions_sees_what_a_guard_sees() {
    let (g, f) = pair("chinese", "repetitions >= 2", ONE_PHASE);
    same_legal_moves(g, f, "repetitions");
}

#[test]
fn a_forbid_rule_reading_phase_sees_what_a_guard_sees() {
    let (g, f) = pair("chinese", "phase == play", TWO_PHASES);
    same_legal_moves(g, f, "phase");
}
