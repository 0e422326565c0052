//! Scenario-file text parsed and run (its ruleset a built-in or a file).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match morrigo_record::run_text("fuzz.scenarios.yaml", text) {
        Ok(report) => {
            let _ = report.all_passed();
        }
        Err(d) => {
            let _ = d.to_string();
        }
    }
});
