//! A GTP session of any command lines under a Go ruleset (jk-final on 5x5,
//! its typed passes and forbid rules): nothing panics, every command line
//! gets exactly one well-formed response (`=` or `?`, then an empty line),
//! and the engine's game stays replayable: `printsgf` output is valid SGF
//! for the ruleset (consecutive moves of one colour included). `loadsgf`
//! and `printsgf FILE` are left out: they touch the file system.
#![no_main]
use libfuzzer_sys::fuzz_target;
use morrigo_gtp::{Config, Engine};
use morrigo_rules::load::Overrides;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines: Vec<&str> = text
        .lines()
        .take(200)
        .filter(|l| {
            let lower = l.to_ascii_lowercase();
            !lower.contains("sgf") || lower.trim_end().ends_with("printsgf")
        })
        .collect();
    let mut engine = Engine::new(Config {
        ruleset: "jk-final".into(),
        overrides: Overrides {
            size: Some((5, 5)),
            komi: None,
        },
        agent: morrigo_play::AgentSpec::Uniform,
        seed: u64::from(data.first().copied().unwrap_or(0)),
        plain_passes: data.len() % 2 == 0,
    })
    .expect("jk-final loads");
    for line in &lines {
        let mut reply = Vec::new();
        engine
            .run(&mut format!("{line}\n").as_bytes(), &mut reply)
            .expect("writing to memory");
        let reply = String::from_utf8(reply).expect("responses are UTF-8");
        let has_command = morrigo_gtp::parse_line(line).is_some();
        if has_command {
            assert!(
                (reply.starts_with('=') || reply.starts_with('?')) && reply.ends_with("\n\n"),
                "`{line}` answered {reply:?}"
            );
            assert_eq!(
                reply.matches("\n\n").count(),
                1,
                "`{line}`: one response, no empty line inside: {reply:?}"
            );
        } else {
            assert!(reply.is_empty(), "`{line}` is no command but got {reply:?}");
        }
        if has_command && line.split_whitespace().any(|w| w == "quit") {
            break;
        }
    }
    // The game as SGF reads back under the ruleset at the session's size.
    let mut reply = Vec::new();
    engine
        .run(&mut "printsgf\n".as_bytes(), &mut reply)
        .expect("writing to memory");
    let reply = String::from_utf8(reply).unwrap();
    if let Some(sgf) = reply.strip_prefix("= ") {
        let source = morrigo_diag::SourceFile::new("sgf", sgf.trim_end());
        morrigo_sgf::import_source_with(&source, engine.rules(), morrigo_sgf::Turns::AsRecorded)
            .unwrap_or_else(|d| panic!("printsgf wrote an SGF its import refuses: {d}\n{sgf}"));
    }
});
