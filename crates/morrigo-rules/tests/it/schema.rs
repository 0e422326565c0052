//! The JSON Schema of ruleset files (`rulesets/ruleset.schema.json`, for
//! editors through the yaml-language-server modeline every built-in
//! carries): generated from the schema types, current, and every ruleset
//! of the repository valid against it; a wrong key or type is not.

use morrigo_rules::builtin;

#[path = "../../../../tests/schema_files.rs"]
mod schema_files;
use schema_files::{errors, refused_at};

const SCHEMA: &str = "rulesets/ruleset.schema.json";
const MODELINE: &str = "# yaml-language-server: $schema=../ruleset.schema.json";

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
        &morrigo_rules::schema::ruleset_schema(),
        "cargo test -p morrigo-rules --test it schema",
    );
}

#[test]
fn every_builtin_is_valid_and_names_the_schema() {
    let v = validator();
    for b in builtin::all() {
        let errs = errors(&v, b.text);
        assert!(errs.is_empty(), "{}: {errs:#?}", b.path);
        assert!(
            b.text.lines().any(|l| l == MODELINE),
            "{} lacks the line `{MODELINE}`",
            b.path
        );
    }
}

#[test]
fn every_test_ruleset_is_valid() {
    let v = validator();
    let dir = root().join("tests/rulesets");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/rulesets") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|x| x == "yaml") {
            let text = std::fs::read_to_string(&path).expect("read");
            let errs = errors(&v, &text);
            assert!(errs.is_empty(), "{}: {errs:#?}", path.display());
            seen += 1;
        }
    }
    assert!(seen > 20, "only {seen} test rulesets");
}

/// What `check` refuses for its shape, the schema refuses too, at the
/// place or at an optional section holding it (an optional section is
/// "this or null", reported where the choice is): an unknown key, a param
/// that is not a number, a suicide word that does not exist, a node
/// without its coordinates.
#[test]
fn wrong_keys_and_types_are_invalid() {
    let v = validator();
    for (yaml, at) in [
        ("name: x\nphasez: {}\n", ""),
        ("name: x\nparams: { fly_at: three }\n", "/params/fly_at"),
        (
            "name: x\nparams: { fly_at: { value: 3, mn: 0 } }\n",
            "/params/fly_at",
        ),
        ("name: x\nplay: { suicide: sometimes }\n", "/play/suicide"),
        (
            "name: x\nboard: { explicit: { nodes: [{ name: a1 }] } }\n",
            "/board/explicit/nodes/0",
        ),
        ("name: x\nsetup: { in_hand: lots }\n", "/setup/in_hand"),
    ] {
        let errs = errors(&v, yaml);
        assert!(refused_at(&errs, at), "{yaml}: {errs:#?}");
    }
}
