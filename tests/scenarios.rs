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

/// The counters a generated record is steered by.
struct Counts {
    in_hand: [u32; 2],
    quiet_turns: u32,
    turns_without_removal: u32,
}

/// A game of `ruleset` from the start, found by a seeded search: while
/// `quiet` holds, a move forms no line and repeats no position a third
/// time; otherwise any legal move. It ends where `stop` first holds, and
/// `keep` must hold there.
fn generated_record(
    ruleset: &str,
    quiet: impl Fn(&Counts) -> bool,
    stop: impl Fn(&Counts) -> bool,
    keep: impl Fn(&Counts) -> bool,
) -> (morrigo_engine::Game, Vec<String>) {
    use morrigo_engine::{notation::format_move, with_machine, Game};
    use rand::{rngs::SmallRng, Rng, SeedableRng};
    use std::sync::Arc;

    let rules = Arc::new(morrigo_rules::load_rules(ruleset).expect("built-in"));
    let game = Game::new(rules).expect("fits");
    let record: Vec<String> = with_machine!(game.machine().as_ref(), m => {
        let counts = |s: &morrigo_engine::State<_>| Counts {
            in_hand: s.pos.in_hand,
            quiet_turns: s.pos.quiet_turns,
            turns_without_removal: s.pos.turns_without_removal,
        };
        (0..2000u64)
            .find_map(|seed| {
                let mut rng = SmallRng::seed_from_u64(seed);
                let mut s = m.initial();
                let mut moves = Vec::new();
                let mut record = Vec::new();
                while !stop(&counts(&s)) {
                    if m.legal_moves(&s, &mut moves).is_some() || record.len() > 2000 {
                        return None;
                    }
                    let now_quiet = quiet(&counts(&s));
                    let allowed: Vec<_> = moves
                        .iter()
                        .copied()
                        .filter(|mv| {
                            let mut t = s.clone();
                            m.apply(&mut t, *mv);
                            !now_quiet || (t.pos.lines_formed == 0 && m.repetitions(&t) < 2)
                        })
                        .collect();
                    if allowed.is_empty() {
                        return None;
                    }
                    let mv = allowed[rng.random_range(0..allowed.len())];
                    record.push(format_move(&m.rules.topology, &mv));
                    m.apply(&mut s, mv);
                }
                keep(&counts(&s)).then_some(record)
            })
            .expect("a generated record exists")
    });
    (game, record)
}

/// The record's game after its first `n` plies.
fn replay_prefix(
    game: &morrigo_engine::Game,
    record: &[String],
    n: usize,
) -> morrigo_record::Transcript {
    use morrigo_diag::SourceFile;
    let text = record[..n].join(" ");
    morrigo_record::replay(game, &text, &SourceFile::new("--moves", text.clone()))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The no-removal limit, checked on records generated here: a seeded search
/// for a game from the start that never forms a line and never repeats a
/// position a third time, replayed through `replay`.
#[test]
fn fifty_turns_without_removal_draw_on_generated_records() {
    for ruleset in [
        "nine-mens-morris",
        "nine-mens-morris-no-flying",
        "lasker-morris",
    ] {
        let (any, record) = generated_record(
            ruleset,
            |_| true,
            |c| c.turns_without_removal == 50,
            |_| true,
        );
        assert_eq!(record.len(), 50, "{ruleset}: quiet turns are one ply each");
        let before = replay_prefix(&any, &record, 49);
        assert_eq!(before.result.summary(), "ongoing", "{ruleset}");
        let at = replay_prefix(&any, &record, 50);
        assert_eq!(at.result.summary(), "draw", "{ruleset}\n{}", at.to_text());
        assert_eq!(at.result.reason.as_deref(), Some("no_removal"), "{ruleset}");
    }
}

/// The Sanmill app's n-move rule in its presets (rulesets/morris/RULES.md,
/// [SANMILL]): a hundred turns that neither place nor remove a piece draw,
/// counted from the last placement, not from the last removal. Each record
/// removes a piece while placing, then plays a hundred quiet moving turns:
/// fifty turns without a removal would have drawn long before.
#[test]
fn sanmill_presets_draw_after_a_hundred_quiet_turns() {
    for ruleset in [
        "twelve-mens-morris",
        "dooz",
        "russian-mill",
        "cheng-san-qi",
        "el-filja",
        "zhi-qi",
        "da-san-qi",
    ] {
        // El Filja always removes when placing ends, so its count of turns
        // without a removal starts there too.
        let removed_while_placing = ruleset != "el-filja";
        let (any, record) = generated_record(
            ruleset,
            |c| c.in_hand == [0, 0],
            |c| c.quiet_turns == 100,
            |c| !removed_while_placing || c.turns_without_removal > c.quiet_turns,
        );
        let n = record.len();
        let before = replay_prefix(&any, &record, n - 1);
        assert_eq!(
            before.result.summary(),
            "ongoing",
            "{ruleset}\n{}",
            before.to_text()
        );
        let at = replay_prefix(&any, &record, n);
        assert_eq!(at.result.summary(), "draw", "{ruleset}\n{}", at.to_text());
        assert_eq!(at.result.reason.as_deref(), Some("n_move"), "{ruleset}");
    }
}
