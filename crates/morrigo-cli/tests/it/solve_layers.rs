//! `morrigo solve FILE --shards DIR`: the solve a layer at a time gives
//! the single solve's value and counts; units run one by one (`--shard`,
//! as cluster workers do, in the order `--ready` lists them) give the same
//! files; a unit whose dependencies are missing is refused.

use std::process::Output;

use crate::common::{assert_code, morrigo, scratch_dir, stderr, stdout};

fn line<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find(|l| l.trim_start().starts_with(key))
        .unwrap_or_else(|| panic!("no `{key}` line in\n{text}"))
        .trim_start()
        .trim_start_matches(key)
        .trim()
}

fn ok(o: &Output) -> String {
    assert_code(o, 0);
    stdout(o)
}

/// Rule: the layered solve's value of the start and its counts of won,
/// lost and drawn positions are the single solve's.
#[test]
fn the_layered_solve_equals_the_single_solve() {
    let dir = scratch_dir("three");
    let layered = ok(&morrigo(&[
        "solve",
        "three-mens-morris",
        "--shards",
        &dir.display().to_string(),
    ]));
    let single = ok(&morrigo(&["solve", "three-mens-morris"]));
    assert_eq!(line(&layered, "value"), line(&single, "value"));
    assert_eq!(line(&layered, "moves"), line(&single, "moves"));
    // "5390 reachable (index space …)" and "5390 reachable in 7 layers (2997 won, …)".
    let count = |t: &str| line(t, "positions").split(' ').next().unwrap().to_string();
    assert_eq!(count(&layered), count(&single));
    assert!(
        line(&layered, "positions").ends_with(&format!(
            "({} for the player to move)",
            line(&single, "reachable").trim_end_matches(" for the player to move")
        )),
        "{layered}\n{single}"
    );
    let mut redacted = layered.clone();
    redacted = redacted.replace(&dir.display().to_string(), "[dir]");
    let redacted: String = redacted
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("units") {
                "  units      [units and time]".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!(redacted);
}

/// Run every unit of the layered solve in `dir` as its own process, in the
/// order `--ready` lists them (as cluster workers do); `extra` goes to each
/// call. Returns the units run.
fn run_unit_by_unit(ruleset: &str, dir: &str, extra: &[&str]) -> Vec<String> {
    let mut units = Vec::new();
    let call = |more: &[&str]| {
        let mut args = vec!["solve", ruleset, "--shards", dir];
        args.extend_from_slice(extra);
        args.extend_from_slice(more);
        ok(&morrigo(&args))
    };
    loop {
        let ready = call(&["--ready"]);
        if ready.trim().is_empty() {
            return units;
        }
        for unit in ready.lines() {
            let o = call(&["--shard", unit]);
            assert!(o.starts_with(&format!("{unit}: ")), "{o}");
            units.push(unit.to_string());
        }
    }
}

/// The digest of the whole layered solve of Three Men's Morris in one process.
fn three_digest(tag: &str) -> String {
    let whole = scratch_dir(tag);
    let all = ok(&morrigo(&[
        "solve",
        "three-mens-morris",
        "--shards",
        &whole.display().to_string(),
        "--jobs",
        "1",
    ]));
    line(&all, "digest").to_string()
}

/// Rule: units run one at a time by separate processes, in the order
/// `--ready` gives them, produce the same solve (the same digest).
#[test]
fn units_run_one_by_one_give_the_same_solve() {
    let dir = scratch_dir("units");
    let d = dir.display().to_string();
    let units = run_unit_by_unit("three-mens-morris", &d, &[]);
    assert_eq!(units.len(), 14, "7 layers, explored then solved");
    let after = ok(&morrigo(&["solve", "three-mens-morris", "--shards", &d]));
    assert_eq!(line(&after, "digest"), three_digest("whole"));
    assert_eq!(
        line(&after, "units"),
        "0 run now".to_string() + &line(&after, "units")[9..]
    );
}

/// Rule: with `--max-unit-positions`, a layer of more positions is solved
/// in ranges (`expand:LAYER/RANGE`, then a `round:LAYER/RANGE/DISTANCE` per
/// distance), each unit its own process, and the solve is the same (1100
/// splits the 3040 positions of h0-0b3-3 into 1013, 1013 and 1014); the
/// directory keeps its unit size.
#[test]
fn a_layer_split_into_ranges_gives_the_same_solve() {
    let dir = scratch_dir("ranges");
    let d = dir.display().to_string();
    let units = run_unit_by_unit("three-mens-morris", &d, &["--max-unit-positions", "1100"]);
    for unit in ["expand:h0-0b3-3/2", "round:h0-0b3-3/2/3", "solve:h0-0b3-3"] {
        assert!(units.iter().any(|u| u == unit), "{unit} not in {units:?}");
    }
    // Without the setting, the directory's is used.
    let after = ok(&morrigo(&["solve", "three-mens-morris", "--shards", &d]));
    let whole = three_digest("ranges-whole");
    assert_eq!(line(&after, "digest"), whole);
    let other = scratch_dir("ranges-one");
    let one = ok(&morrigo(&[
        "solve",
        "three-mens-morris",
        "--shards",
        &other.display().to_string(),
        "--max-unit-positions",
        "333",
    ]));
    assert_eq!(line(&one, "digest"), whole);
    let o = morrigo(&[
        "solve",
        "three-mens-morris",
        "--shards",
        &d,
        "--max-unit-positions",
        "100",
    ]);
    assert_code(&o, 1);
    insta::assert_snapshot!(stderr(&o).replace(&d, "[dir]"));
    let o = morrigo(&[
        "solve",
        "three-mens-morris",
        "--shards",
        &d,
        "--max-unit-positions",
        "0",
    ]);
    assert_code(&o, 2);
}

#[test]
fn a_unit_before_its_dependencies_is_refused() {
    let dir = scratch_dir("early");
    let o = morrigo(&[
        "solve",
        "three-mens-morris",
        "--shards",
        &dir.display().to_string(),
        "--shard",
        "solve:h0-0b3-3",
    ]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("solve:h0-0b3-3 cannot run yet: layer"),
        "{err}"
    );
    insta::assert_snapshot!(err);
    let o = morrigo(&[
        "solve",
        "three-mens-morris",
        "--shards",
        &dir.display().to_string(),
        "--shard",
        "solve:layer-one",
    ]);
    assert_code(&o, 2);
    insta::assert_snapshot!("bad_unit", stderr(&o));
}

/// A ruleset whose moves read the history cannot be solved by layers.
#[test]
fn a_history_ruleset_is_refused() {
    let dir = scratch_dir("history");
    let o = morrigo(&[
        "solve",
        "tromp-taylor",
        "--size",
        "2x1",
        "--shards",
        &dir.display().to_string(),
    ]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("a layered solve is a retrograde solve"),
        "{}",
        stderr(&o)
    );
}

/// Fault: a flipped byte of a layered solve's `values/` file was accepted
/// and its values used. Every file is sealed: the flip is refused with the
/// file's name, exit 1, and the solve is not reported.
#[test]
fn a_flipped_byte_of_a_layered_values_file_is_refused() {
    let dir = scratch_dir("flipped-values");
    let d = dir.display().to_string();
    ok(&morrigo(&["solve", "three-mens-morris", "--shards", &d]));
    let values = dir.join("values");
    let file = std::fs::read_dir(&values)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "values"))
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[3] ^= 0x04;
    std::fs::write(&file, &bytes).unwrap();
    let o = morrigo(&["solve", "three-mens-morris", "--shards", &d]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "`{}` is damaged: its checksum does not match",
            file.display()
        )),
        "{err}"
    );
    assert!(!stdout(&o).contains("value "), "{}", stdout(&o));
    // A damaged JSON file (the plan) is refused the same way.
    let plan = dir.join("solve.json");
    let text = std::fs::read_to_string(&plan).unwrap();
    std::fs::write(
        &plan,
        text.replace("three-mens-morris", "three-mens-morriz"),
    )
    .unwrap();
    let o = morrigo(&["solve", "three-mens-morris", "--shards", &d]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("solve.json` is damaged: the line's checksum does not match"),
        "{err}"
    );
}
