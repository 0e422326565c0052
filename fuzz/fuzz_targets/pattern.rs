//! History-pattern text as a JK forbid rule and an end rule.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(pattern) = std::str::from_utf8(data) else {
        return;
    };
    if pattern.contains(['\n', '\r', '\'']) {
        return; // the pattern sits inside one quoted line of the DSL
    }
    let yaml = format!(
        "name: fuzz\nextends: jk-final\nforbid:\n  fuzzed:\n    moves: [P]\n    when: |-\n      after('{pattern}')\nend:\n  fuzzed_end:\n    score: |-\n      after('{pattern}')\n"
    );
    if let Err(diagnostics) = morrigo_rules::rules_from_text("fuzz.yaml", &yaml) {
        for d in &diagnostics.0 {
            let _ = d.to_string();
        }
    }
});
