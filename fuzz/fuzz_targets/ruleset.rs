//! Ruleset text → load, merge, check, compile, build the machine, render
//! every diagnostic. Nothing may panic, whatever the text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match morrigo_rules::rules_from_text("fuzz.yaml", text) {
        Ok(rules) => {
            let _ = morrigo_engine::AnyMachine::new(Arc::new(rules));
        }
        Err(diagnostics) => {
            for d in &diagnostics.0 {
                let _ = d.to_string();
            }
        }
    }
});
