//! A move record replayed against a built-in ruleset (the first byte picks
//! it), with the transcript rendered as text and JSON.
#![no_main]
use libfuzzer_sys::fuzz_target;
use morrigo_diag::SourceFile;
use morrigo_engine::Game;
use morrigo_rules::load::Overrides;
use std::sync::{Arc, OnceLock};

/// Built-in rulesets and the Go board size to use (small, so records reach
/// captures, kos and the end quickly).
const RULESETS: &[(&str, Option<(u32, u32)>)] = &[
    ("nine-mens-morris", None),
    ("three-mens-morris", None),
    ("lasker-morris", None),
    ("twelve-mens-morris", None),
    ("jk-final", Some((5, 5))),
    ("jk-suicide-multi", Some((4, 4))),
    ("chinese", Some((5, 5))),
    ("tromp-taylor", Some((3, 3))),
];

fn games() -> &'static Vec<Game> {
    static GAMES: OnceLock<Vec<Game>> = OnceLock::new();
    GAMES.get_or_init(|| {
        RULESETS
            .iter()
            .map(|&(name, size)| {
                let overrides = Overrides { size, komi: None };
                let rules = morrigo_rules::load_rules_with(name, &overrides).expect("built-in");
                Game::new(Arc::new(rules)).expect("built-in")
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(record) = std::str::from_utf8(rest) else {
        return;
    };
    let game = &games()[pick as usize % RULESETS.len()];
    let source = SourceFile::new("--moves", record);
    match morrigo_record::replay(game, record, &source) {
        Ok(transcript) => {
            let _ = transcript.to_text();
            let _ = transcript.to_json().to_string();
        }
        Err(e) => {
            let _ = e.diagnostic.to_string();
            let _ = e.transcript.to_text();
        }
    }
});
