//! The JSON Schema of scenario files (`rulesets/scenario.schema.json`, for
//! editors through the yaml-language-server modeline each scenario file of
//! the repository carries): generated from the types that read them,
//! current, every scenario file valid against it; a wrong key is not.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const MODELINE: &str = "# yaml-language-server: $schema=../../../rulesets/scenario.schema.json";

fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("rulesets/scenario.schema.json"))
        .expect("rulesets/scenario.schema.json");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema")
}

fn errors(v: &jsonschema::Validator, yaml: &str) -> Vec<String> {
    let value: serde_json::Value = serde_yaml::from_str(yaml).expect("YAML");
    v.iter_errors(&value)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn the_committed_schema_is_the_generated_one() {
    let path = root().join("rulesets/scenario.schema.json");
    let generated = morrigo_record::scenario_file::scenario_schema();
    if std::env::var_os("MORRIGO_UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).expect("write the schema");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "rulesets/scenario.schema.json is stale: regenerate it with \
         `MORRIGO_UPDATE_SCHEMA=1 cargo test -p morrigo-record --test schema`"
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
        assert!(
            errs.iter().any(|e| e
                .split_once(':')
                .is_some_and(|(path, _)| at.starts_with(path))),
            "{yaml}: {errs:#?}"
        );
    }
}
