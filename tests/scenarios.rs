//! Runs every scenario file under `tests/scenarios/` and fails listing the
//! scenarios that did not pass.

use std::path::Path;

/// Run from the workspace root so reports show `tests/scenarios/...` paths.
fn scenarios_dir() -> &'static Path {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::env::set_current_dir(root).expect("workspace root");
    Path::new("tests/scenarios")
}

#[test]
fn every_scenario_file_passes() {
    let report = morrigo_record::run_path(scenarios_dir()).unwrap_or_else(|d| panic!("{d}"));
    let (passed, _, _) = report.counts();
    assert!(passed > 0, "no scenarios ran");
    assert!(report.all_passed(), "\n{report}");
    println!("{report}");
}

/// The no-removal limit, checked on records generated here: a seeded search
/// for a game from the start that never forms a line and never repeats a
/// position a third time, replayed through `replay`.
#[test]
fn fifty_turns_without_removal_draw_on_generated_records() {
    use morrigo_diag::SourceFile;
    use morrigo_engine::{notation::format_move, with_machine, AnyMachine};
    use rand::{rngs::SmallRng, Rng, SeedableRng};
    use std::sync::Arc;

    for ruleset in [
        "nine-mens-morris",
        "nine-mens-morris-no-flying",
        "lasker-morris",
    ] {
        let rules = Arc::new(morrigo_rules::load_rules(ruleset).expect("built-in"));
        let any = AnyMachine::new(rules).expect("fits");
        let record: Vec<String> = with_machine!(&any, m => {
            (0..1000u64)
                .find_map(|seed| {
                    let mut rng = SmallRng::seed_from_u64(seed);
                    let mut s = m.initial();
                    let mut moves = Vec::new();
                    let mut record = Vec::new();
                    for _ in 0..50 {
                        if m.legal_moves(&s, &mut moves).is_some() {
                            return None;
                        }
                        let quiet: Vec<_> = moves
                            .iter()
                            .copied()
                            .filter(|mv| {
                                let mut t = s.clone();
                                m.apply(&mut t, *mv);
                                t.pos.lines_formed == 0 && m.repetitions(&t) < 2
                            })
                            .collect();
                        if quiet.is_empty() {
                            return None;
                        }
                        let mv = quiet[rng.random_range(0..quiet.len())];
                        record.push(format_move(&m.rules.topology, &mv));
                        m.apply(&mut s, mv);
                    }
                    Some(record)
                })
                .expect("a quiet 50-turn game exists")
        });
        let play = |n: usize| {
            let text = record[..n].join(" ");
            morrigo_record::replay(&any, &text, &SourceFile::new("--moves", text.clone()))
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let before = play(49);
        assert_eq!(before.result.summary(), "ongoing", "{ruleset}");
        let at = play(50);
        assert_eq!(at.result.summary(), "draw", "{ruleset}\n{}", at.to_text());
        assert_eq!(at.result.reason.as_deref(), Some("no_removal"), "{ruleset}");
    }
}
