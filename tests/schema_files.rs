//! Shared by the schema tests of morrigo-rules and morrigo-record (each
//! includes this file with `#[path]`): a committed JSON Schema is the
//! generated one, and YAML files are checked against it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository's top directory, from a crate two levels below it.
pub fn root(manifest_dir: &str) -> PathBuf {
    Path::new(manifest_dir).join("../..")
}

/// The committed schema at `path` (relative to the top) equals `generated`;
/// with `MORRIGO_UPDATE_SCHEMA` set, it is written first. `how` is the
/// command that regenerates it.
pub fn assert_current(top: &Path, path: &str, generated: &str, how: &str) {
    let file = top.join(path);
    if std::env::var_os("MORRIGO_UPDATE_SCHEMA").is_some() {
        std::fs::write(&file, generated).expect("write the schema");
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == generated,
        "{path} is stale: regenerate it with `MORRIGO_UPDATE_SCHEMA=1 {how}`"
    );
}

/// A validator for the committed schema at `path` (relative to the top).
pub fn validator(top: &Path, path: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(top.join(path)).expect(path);
    let schema: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema")
}

/// The errors of a YAML text against the schema, each `path: message`.
pub fn errors(v: &jsonschema::Validator, yaml: &str) -> Vec<String> {
    let value: serde_json::Value = serde_yaml::from_str(yaml).expect("YAML");
    v.iter_errors(&value)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// Whether some error is at `at` or at an optional section holding it (an
/// optional section is "this or null", reported where the choice is).
pub fn refused_at(errors: &[String], at: &str) -> bool {
    errors.iter().any(|e| {
        e.split_once(':')
            .is_some_and(|(path, _)| at.starts_with(path))
    })
}
