//! The solver against a plain forward minimax: for every reachable
//! position and every horizon D, "the player to move can force a win
//! within D plies" (and the same for a loss), computed by depth-limited
//! minimax over the engine's own moves on positions found by its own
//! search, must match the solver's value and distance; positions that no
//! horizon decides are the solver's draws.

use morrigo_engine::{Bits, Machine, State};
use morrigo_solve::{key_keeps_lines_formed, solve, solver_rules, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

type Key = ([Bits<1>; 2], [u32; 2], u8, u16, u16);

fn ruleset(name: &str) -> morrigo_rules::Rules {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/solve")
        .join(format!("{name}.yaml"));
    let spec = if path.exists() {
        path.to_string_lossy().into_owned()
    } else {
        name.to_string()
    };
    morrigo_rules::load_rules(&spec).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// Solve `name` and check every reachable position against minimax;
/// returns the start value and the number of reachable positions.
fn check(name: &str) -> (Value, u64) {
    let rules = ruleset(name);
    morrigo_solve::retrograde_applies(&rules).unwrap();
    let keep = key_keeps_lines_formed(&rules);
    let m = Machine::<1>::new(Arc::new(solver_rules(&rules)));
    let (table, stats) = solve(&m, &m.initial(), u64::MAX, &morrigo_solve::Quiet).unwrap();

    let key = |s: &State<1>| -> Key {
        let lf = if keep && s.pos.pending > 0 {
            s.pos.lines_formed
        } else {
            0
        };
        (s.pos.occ, s.pos.in_hand, s.pos.to_move, s.pos.pending, lf)
    };
    // Every reachable position, its children (index, same mover) and its end.
    let mut ids: HashMap<Key, usize> = HashMap::new();
    let mut states = vec![m.initial()];
    ids.insert(key(&states[0]), 0);
    let mut children: Vec<Vec<(usize, bool)>> = Vec::new();
    let mut ends: Vec<Option<Option<u8>>> = Vec::new();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let s = states[i].clone();
        let mut kids = Vec::new();
        let end = m.legal_moves(&s, &mut moves).map(|o| o.winner);
        for &mv in &moves {
            let mut c = s.clone();
            m.apply(&mut c, mv);
            let id = *ids.entry(key(&c)).or_insert_with(|| {
                states.push(c.clone());
                states.len() - 1
            });
            kids.push((id, c.pos.to_move == s.pos.to_move));
        }
        children.push(kids);
        ends.push(end);
        i += 1;
    }
    assert_eq!(
        states.len() as u64,
        stats.reachable,
        "{name}: reachable positions"
    );

    // val[i] = (mover wins, first horizon that decides it).
    let n = states.len();
    let mut val: Vec<Option<(bool, u32)>> = (0..n)
        .map(|i| match ends[i] {
            Some(Some(w)) => Some((w == states[i].pos.to_move, 0)),
            _ => None,
        })
        .collect();
    let mut d = 0;
    loop {
        d += 1;
        let prev = val.clone();
        let mut changed = false;
        for i in 0..n {
            if prev[i].is_some() || ends[i].is_some() || children[i].is_empty() {
                continue;
            }
            // Within d plies: some child good for the mover within d - 1,
            // or every child bad for it within d - 1.
            let good = |&(c, same): &(usize, bool)| prev[c].is_some_and(|(w, _)| w == same);
            let bad = |&(c, same): &(usize, bool)| prev[c].is_some_and(|(w, _)| w != same);
            if children[i].iter().any(good) {
                val[i] = Some((true, d));
                changed = true;
            } else if children[i].iter().all(bad) {
                val[i] = Some((false, d));
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for (i, s) in states.iter().enumerate() {
        let expect = match val[i] {
            Some((true, d)) => Value::Win(d),
            Some((false, d)) => Value::Loss(d),
            None => Value::Draw,
        };
        assert_eq!(
            table.value(&s.pos),
            Some(expect),
            "{name}: position {i} {:?}",
            s.pos
        );
    }
    let start = match val[0] {
        Some((true, d)) => Value::Win(d),
        Some((false, d)) => Value::Loss(d),
        None => Value::Draw,
    };
    assert_eq!(table.start_value(), start);
    (start, stats.reachable)
}

#[test]
fn three_mens_morris_matches_minimax() {
    let (_, reachable) = check("three-mens-morris");
    // The count `states three-mens-morris` reports.
    assert_eq!(reachable, 5390);
}

#[test]
fn three_mens_morris_flying_matches_minimax() {
    check("three-mens-morris-flying");
}

#[test]
fn tiny_mill_with_removals_and_flying_matches_minimax() {
    check("tiny-mill");
}

#[test]
fn tiny_row_matches_minimax() {
    check("tiny-row");
}

#[test]
fn removals_per_line_keep_the_lines_formed_and_match_minimax() {
    assert!(key_keeps_lines_formed(&ruleset("tiny-remove-per-line")));
    check("tiny-remove-per-line");
}

#[test]
fn history_draw_rules_are_left_out_and_go_rulesets_refused() {
    let three = ruleset("three-mens-morris");
    assert_eq!(
        morrigo_solve::history_draw_rules(&three),
        vec!["repetition"]
    );
    assert!(solver_rules(&three)
        .end
        .iter()
        .all(|e| e.name != "repetition"));
    let nine = ruleset("nine-mens-morris");
    assert_eq!(
        morrigo_solve::history_draw_rules(&nine),
        vec!["repetition", "no_removal"]
    );
    let go = ruleset("jk-final");
    let why = morrigo_solve::retrograde_applies(&go).unwrap_err();
    assert!(why.contains("Go-style"), "{why}");
}

/// A ruleset: Three Men's Morris with one section replaced.
fn three_with(section: &str) -> morrigo_rules::Rules {
    let text = format!("name: probe\nextends: three-mens-morris\n{section}");
    morrigo_rules::rules_from_text("probe.yaml", &text).unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn legality_or_wins_that_read_the_history_are_refused() {
    // A phase chosen by the turn number: legal moves depend on the history.
    let r = three_with("phases:\n  placing:\n    when: \"turn < 6\"\n");
    let why = morrigo_solve::retrograde_applies(&r).unwrap_err();
    assert!(
        why.contains("phase `placing`") && why.contains("`turn`"),
        "{why}"
    );
    // A loss decided by repetitions: a win or a loss read from the history.
    let r = three_with("end:\n  repeated:\n    lose: \"repetitions >= 2\"\n");
    let why = morrigo_solve::retrograde_applies(&r).unwrap_err();
    assert!(
        why.contains("end rule `repeated`") && why.contains("`repetitions`"),
        "{why}"
    );
    // The built-in draw by repetition is fine: it is left out.
    assert!(morrigo_solve::retrograde_applies(&ruleset("three-mens-morris")).is_ok());
}

#[test]
fn a_saved_table_loads_with_the_same_values_and_only_for_its_rules() {
    let rules = ruleset("tiny-mill");
    let m = Machine::<1>::new(Arc::new(solver_rules(&rules)));
    let (table, _) = solve(&m, &m.initial(), u64::MAX, &morrigo_solve::Quiet).unwrap();
    let fp = morrigo_solve::rules_fingerprint(&rules);
    let mut bytes = Vec::new();
    table.save(&mut bytes, "tiny-mill", fp).unwrap();
    let back = morrigo_solve::Table::load(&mut bytes.as_slice(), fp).unwrap();
    assert_eq!(back.start_value(), table.start_value());
    assert_eq!(back.index_space(), table.index_space());
    let s = m.initial();
    for (mv, v) in morrigo_solve::move_values(&m, &table, &s) {
        assert_eq!(
            morrigo_solve::move_values(&m, &back, &s)
                .iter()
                .find(|x| x.0 == mv)
                .unwrap()
                .1,
            v
        );
    }
    // Other rules: refused, naming the table's ruleset.
    let other = morrigo_solve::rules_fingerprint(&ruleset("tiny-row"));
    assert_ne!(other, fp);
    match morrigo_solve::Table::load(&mut bytes.as_slice(), other) {
        Err(morrigo_solve::LoadError::OtherRules { table_ruleset }) => {
            assert_eq!(table_ruleset, "tiny-mill")
        }
        r => panic!("expected a refusal, got {:?}", r.map(|_| ())),
    }
    // Cut short: refused as damaged (the checksum trailer), not a panic.
    let cut = &bytes[..bytes.len() - 3];
    assert!(matches!(
        morrigo_solve::Table::load(&mut &cut[..], fp),
        Err(morrigo_solve::LoadError::Damaged(_))
    ));
}

#[test]
fn the_table_is_the_same_whatever_the_thread_count() {
    // Segments are numbered in sorted order per layer and values are set
    // one distance at a time, so the saved bytes match exactly.
    let rules = ruleset("three-mens-morris");
    let m = Machine::<1>::new(Arc::new(solver_rules(&rules)));
    let bytes = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (table, _) = pool
            .install(|| solve(&m, &m.initial(), u64::MAX, &morrigo_solve::Quiet))
            .unwrap();
        let mut out = Vec::new();
        table.save(&mut out, "three-mens-morris", 0).unwrap();
        out
    };
    assert_eq!(bytes(1), bytes(3));
}
