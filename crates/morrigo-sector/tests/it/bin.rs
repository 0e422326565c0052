//! The `morrigo-sector` commands end to end on Five Men's Morris: a
//! whole-game solve, the search of its placing phase over the same
//! directory, and both checks of it; a bad ruleset's diagnostics.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_morrigo-sector"))
        .args(args)
        .output()
        .expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_solved_directory_is_searched_and_checked_both_ways() {
    let dir = std::env::temp_dir().join(format!("morrigo-sector-bin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.to_str().unwrap();
    let solved = run(&["solve-game", "five-mens-morris", "--db", db]);
    assert!(solved.status.success(), "{solved:?}");
    let start = stdout(&solved);
    let start = start.lines().last().unwrap();
    assert!(start.contains("start "), "{start}");
    // The search proves the value the units hold (win, draw or loss).
    let searched = run(&["search-opening", "five-mens-morris", "--db", db]);
    assert!(searched.status.success(), "{searched:?}");
    let word = if start.contains("start Draw") {
        "a draw"
    } else if start.contains("start Win") {
        "a win"
    } else {
        "a loss"
    };
    let out = stdout(&searched);
    assert!(
        out.contains(&format!("the start is {word} for the first player")),
        "{out}\n{start}"
    );
    let checked = run(&[
        "check-opening",
        "five-mens-morris",
        "--db",
        db,
        "--samples",
        "5",
    ]);
    assert!(checked.status.success(), "{checked:?}");
    assert!(stdout(&checked).contains("every one has its unit's value"));
    let checked = run(&["check", "five-mens-morris", "--db", db, "--samples", "5"]);
    assert!(checked.status.success(), "{checked:?}");
    assert!(stdout(&checked).contains("every value holds"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unknown_ruleset_is_named_once() {
    let o = run(&[
        "solve-sectors",
        "no-such-game",
        "--db",
        "unused",
        "--max-pieces",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error: no ruleset file or built-in ruleset named `no-such-game`"),
        "{err}"
    );
    assert!(!std::path::Path::new("unused").exists());
}
