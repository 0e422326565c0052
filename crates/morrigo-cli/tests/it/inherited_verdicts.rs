//! An end rule given a second verdict by a variant (`extends` merges the
//! mappings): `check` points at the verdict the variant wrote, in the
//! variant's file, and says where the inherited one is written.

use crate::common::{assert_code, run_in, scratch_dir, stderr};

#[test]
fn a_second_verdict_from_a_variant_is_located_in_the_variant() {
    let dir = scratch_dir("verdicts");
    let parent =
        "name: parent\nextends: nine-mens-morris\nend:\n  long_game:\n    lose: \"turn > 200\"\n";
    let child = "name: child\nextends: parent.yaml\nend:\n  long_game:\n    draw: \"turn > 100\"\n";
    std::fs::write(dir.join("parent.yaml"), parent).expect("write");
    std::fs::write(dir.join("child.yaml"), child).expect("write");
    let o = run_in(&dir, &["check", "child.yaml"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.starts_with("child.yaml:5:5: error: end rule `long_game`"),
        "{err}"
    );
    assert!(
        err.contains("`lose` is written at parent.yaml:5:5"),
        "{err}"
    );
    snap!("inherited_verdicts__second_verdict", err);
}

/// Two verdicts in one file: the later one is pointed at.
#[test]
fn two_verdicts_in_one_file_point_at_the_second() {
    let dir = scratch_dir("one-file");
    let text = "name: two\nextends: nine-mens-morris\nend:\n  long_game:\n    lose: \"turn > 200\"\n    win: \"turn > 300\"\n";
    std::fs::write(dir.join("two.yaml"), text).expect("write");
    let o = run_in(&dir, &["check", "two.yaml"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.starts_with("two.yaml:6:5: error: end rule `long_game`"),
        "{err}"
    );
    assert!(!err.contains("null"), "{err}");
}
