//! Counts the engine keeps in narrow integers are refused by `check` past
//! their limit, at the section that holds them and naming the limit.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Three Men's Morris with `n` placing phases (each while more than some
/// pieces are in hand) before its moving phase.
fn with_phases(n: usize) -> String {
    let base = std::fs::read_to_string(root().join("rulesets/morris/three-mens-morris.yaml"))
        .expect("read the built-in ruleset");
    let head = &base[..base.find("phases:").expect("phases")];
    let tail = &base[base.find("end:").expect("end")..];
    let mut phases = String::from("phases:\n");
    for i in 0..n {
        phases += &format!(
            "  p{i}:\n    when: \"in_hand(me) > {}\"\n    actions: {{ place: true }}\n",
            n - i
        );
    }
    phases += "  moving:\n    actions: { slide: true }\n";
    format!("{head}{phases}{tail}")
}

fn check(test: &str, yaml: &str) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!("morrigo-narrow-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("rules.yaml");
    std::fs::write(&path, yaml).expect("write ruleset");
    let out = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .arg("check")
        .arg(&path)
        .output()
        .expect("the morrigo binary runs");
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The engine indexes phases in a byte (one value reserved): 255 phases
/// load, 256 are refused at `phases:`.
#[test]
fn more_phases_than_the_engine_indexes_are_refused_at_phases() {
    let (code, err) = check("255", &with_phases(254));
    assert_eq!(code, Some(0), "{err}");
    let (code, err) = check("256", &with_phases(255));
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("error: the ruleset has 256 phases, more than the limit of 255"),
        "{err}"
    );
    let line = 1 + with_phases(255)
        .lines()
        .position(|l| l == "phases:")
        .expect("phases line");
    assert!(
        err.contains(&format!("rules.yaml:{line}:1: error")),
        "{err}"
    );
}

/// Three Men's Morris with `n` extra end rules and `n` forbid rules.
fn with_rules(end: usize, forbid: usize) -> String {
    let mut yaml = String::from("name: many\nextends: three-mens-morris\nend:\n");
    for i in 0..end {
        yaml += &format!("  r{i}: {{ draw: \"turn > {}\" }}\n", i + 100);
    }
    if forbid > 0 {
        yaml += "phases:\n  moving:\n    actions: { slide: true, pass: true }\npasses: { kinds: [P] }\nforbid:\n";
        for i in 0..forbid {
            yaml += &format!("  f{i}: {{ moves: [P], when: \"turn < {i}\" }}\n");
        }
    }
    yaml
}

/// End and forbid rules are limited to 4096 each (the ruleset's own rules
/// and the ones `extends` brings count together): at the limit `check`
/// accepts the file, past it the section is refused naming the limit.
#[test]
fn more_end_or_forbid_rules_than_the_limit_are_refused() {
    // three-mens-morris has 3 end rules of its own.
    let (code, err) = check("end-4096", &with_rules(4093, 0));
    assert_eq!(code, Some(0), "{err}");
    let (code, err) = check("end-4097", &with_rules(4094, 0));
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("error: the ruleset has 4097 end rules, more than the limit of 4096"),
        "{err}"
    );
    let (code, err) = check("forbid-4096", &with_rules(0, 4096));
    assert_eq!(code, Some(0), "{err}");
    let (code, err) = check("forbid-4097", &with_rules(0, 4097));
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("error: the ruleset has 4097 forbid rules, more than the limit of 4096"),
        "{err}"
    );
}

/// A `--size` beyond the largest grid is a bad flag value (exit 2, like a
/// bad `--komi`), blamed on `--size` rather than on the ruleset's `board:`;
/// the largest size it accepts fits the board-size limit.
#[test]
fn a_board_too_large_for_size_is_blamed_on_the_flag() {
    let run = |size: &str| {
        Command::new(env!("CARGO_BIN_EXE_morrigo"))
            .args(["check", "jk-final", "--size", size])
            .current_dir(root())
            .output()
            .expect("the morrigo binary runs")
    };
    let o = run("30");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("'--size <N|WxH>'"), "{err}");
    assert!(err.contains("from 1 to 25"), "{err}");
    assert!(!err.contains("board:"), "{err}");
    let o = run("25");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("625 points"), "{out}");
}
