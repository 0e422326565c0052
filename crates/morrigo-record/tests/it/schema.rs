//! The JSON Schema of scenario files (`rulesets/scenario.schema.json`, for
//! editors through the yaml-language-server modeline each scenario file of
//! the repository carries): generated from the types that read them,
//! current, every scenario file valid against it; a wrong key is not.

#[path = "../../../../tests/schema_files.rs"]
mod schema_files;
use schema_files::{errors, refused_at};

const SCHEMA: &str = "rulesets/scenario.schema.json";
const MODELINE: &str = "# yaml-language-server: $schema=../../../rulesets/scenario.schema.json";

fn root() -> std::path::PathBuf {
    schema_files::root(env!("CARGO_MANIFEST_DIR"))
}

fn validator() -> jsonschema::Validator {
    schema_files::validator(&root(), SCHEMA)
}

#[test]
fn the_committed_schema_is_the_generated_one() {
    schema_files::assert_current(
        &root(),
        SCHEMA,
        &morrigo_record::scenario_file::scenario_schema(),
        "cargo test -p morrigo-record --test it schema",
    );
}

#[test]
fn every_scenario_file_is_valid_and_names_the_schema() {
    let v = validator();
    let mut seen = 0;
    for group in ["go", "language", "morris"] {
        let dir = root().join("tests/scenarios").join(group);
        for entry in std::fs::read_dir(&dir).expect("a scenario directory") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|x| x != "yaml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read");
            let errs = errors(&v, &text);
            assert!(errs.is_empty(), "{}: {errs:#?}", path.display());
            assert!(
                text.lines().any(|l| l == MODELINE),
                "{} lacks the line `{MODELINE}`",
                path.display()
            );
            seen += 1;
        }
    }
    assert!(seen > 50, "only {seen} scenario files");
}

/// A misspelt key, a scenario without its rule, an `illegal` entry with a
/// misspelt `move`: invalid, as `morrigo test` refuses them.
#[test]
fn wrong_keys_are_invalid() {
    let v = validator();
    for (yaml, at) in [
        ("ruleset: x\nscenarios: []\nscenarioz: []\n", ""),
        ("ruleset: x\nscenarios: [{ name: a }]\n", "/scenarios/0"),
        (
            "ruleset: x\nscenarios: [{ name: a, rule: b, expect: { legal_include: [a1] } }]\n",
            "/scenarios/0/expect",
        ),
        (
            "ruleset: x\nscenarios: [{ name: a, rule: b, expect: { illegal: { mvoe: a1 } } }]\n",
            "/scenarios/0/expect/illegal",
        ),
    ] {
        let errs = errors(&v, yaml);
        assert!(refused_at(&errs, at), "{yaml}: {errs:#?}");
    }
}
