//! SGF text read against a Go ruleset and replayed.
#![no_main]
use libfuzzer_sys::fuzz_target;
use morrigo_diag::SourceFile;
use morrigo_rules::Rules;
use std::sync::OnceLock;

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        let overrides = morrigo_rules::load::Overrides {
            size: Some((9, 9)),
            komi: None,
        };
        morrigo_rules::load_rules_with("jk-final", &overrides).expect("built-in")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let source = SourceFile::new("fuzz.sgf", text);
    if let Err(d) = morrigo_sgf::info(&source) {
        let _ = d.to_string();
    }
    if let Err(d) = morrigo_sgf::import_source(&source, rules()) {
        let _ = d.to_string();
    }
});
