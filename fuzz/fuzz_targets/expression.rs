//! Expression text in every place a ruleset takes one: an action guard, the
//! removal count and target rule, and an end rule of a Morris ruleset.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

/// The text as a YAML literal block scalar at `indent` spaces, so the
/// expression reaches the DSL exactly as written.
fn block(text: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::from("|-\n");
    for line in text.split('\n') {
        out.push_str(&pad);
        out.push_str(line);
        out.push('\n');
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Ok(expr) = std::str::from_utf8(data) else {
        return;
    };
    if expr.contains('\r') {
        return; // line ends inside a block scalar are YAML's business
    }
    let yaml = format!(
        "name: fuzz\nextends: nine-mens-morris\nphases:\n  moving:\n    actions:\n      fly: {}\non_line_formed:\n  removals: {}\n  removable: {}\nend:\n  fuzzed:\n    draw: {}",
        block(expr, 8),
        block(expr, 4),
        block(expr, 4),
        block(expr, 6),
    );
    match morrigo_rules::rules_from_text("fuzz.yaml", &yaml) {
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
