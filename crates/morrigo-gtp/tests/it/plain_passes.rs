//! `--plain-passes` keeps a GUI's record faithful: every pass `genmove`
//! plays is the kind a plain `pass` stands for there (the first kind of
//! the ruleset's `passes.kinds` that is legal), so replaying the GUI's
//! plain passes gives the same game. Without the option the agent may pass
//! by another kind, which a plain `pass` would not reproduce.

use morrigo_gtp::{parse_line, Config, Engine, Reply};
use morrigo_rules::load::Overrides;

fn ask(e: &mut Engine, line: &str) -> String {
    match e.handle(&parse_line(line).unwrap()) {
        Reply::Success(text) => text,
        Reply::Failure(text) => panic!("`{line}` failed: {text}"),
    }
}

/// Games of a uniform agent on 3x3 under jk-final: for each pass played,
/// the kind a plain pass stood for (from `morrigo-legal` before the move)
/// and the kind played (the last of `morrigo-classes`).
fn passes(plain_passes: bool) -> Vec<(char, char)> {
    let mut seen = Vec::new();
    for seed in 0..30 {
        let mut e = Engine::new(Config {
            ruleset: "jk-final".into(),
            overrides: Overrides {
                size: Some((3, 3)),
                ..Overrides::default()
            },
            agent: morrigo_play::AgentSpec::Uniform,
            seed,
            plain_passes,
        })
        .unwrap();
        for ply in 0..30 {
            let Reply::Success(legal) = e.handle(&parse_line("morrigo-legal").unwrap()) else {
                break; // the game is over
            };
            let plain = ['P', 'E']
                .into_iter()
                .find(|k| legal.split(' ').any(|m| m == format!("pass:{k}")));
            let colour = if ply % 2 == 0 { "b" } else { "w" };
            let answer = ask(&mut e, &format!("genmove {colour}"));
            if answer.starts_with("pass") {
                assert_eq!(plain_passes, answer == "pass", "answer `{answer}`");
                let classes = ask(&mut e, "morrigo-classes");
                let played = classes.chars().last().unwrap();
                seen.push((plain.unwrap(), played));
            }
        }
    }
    seen
}

#[test]
fn with_plain_passes_every_pass_is_the_kind_a_plain_pass_stands_for() {
    let seen = passes(true);
    assert!(seen.len() >= 10, "too few passes to judge: {seen:?}");
    assert!(
        seen.iter().all(|(plain, played)| plain == played),
        "{seen:?}"
    );
}

#[test]
fn without_it_the_agent_also_passes_by_other_kinds() {
    let seen = passes(false);
    assert!(
        seen.iter().any(|(plain, played)| plain != played),
        "{seen:?}"
    );
}
