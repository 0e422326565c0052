//! `ladder`: a seeded round robin whose ratings order agents by strength,
//! the same output for the same seed whatever the thread count, blunder
//! rates against the solved table, and usage errors for bad agent lists.

use crate::common::{assert_code, morrigo, stderr, stdout};

const AGENTS: [&str; 6] = [
    "--agents", "uniform", "--agents", "greedy", "--agents", "perfect",
];

fn ladder(extra: &[&str]) -> String {
    let mut args = vec![
        "ladder",
        "three-mens-morris",
        "--games",
        "40",
        "--seed",
        "3",
    ];
    args.extend(AGENTS);
    args.extend(extra);
    let out = morrigo(&args);
    assert_code(&out, 0);
    stdout(&out)
}

fn json(extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["--format", "json"];
    args.extend(extra);
    serde_json::from_str(&ladder(&args)).expect("ladder --format json prints JSON")
}

fn agent<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == name)
        .unwrap_or_else(|| panic!("no agent {name} in {v}"))
}

#[test]
fn a_stronger_setting_rates_above_a_weaker_one_with_margin() {
    let v = json(&[]);
    let elo = |n: &str| agent(&v, n)["elo"].as_f64().unwrap();
    let ci = |n: &str, k: usize| agent(&v, n)["elo_ci95"][k].as_f64().unwrap();
    // Perfect play over greedy over uniform, each gap beyond both intervals'
    // halves: far from what a different seed could reverse.
    assert!(elo("perfect") > elo("greedy") + 100.0, "{v}");
    assert!(elo("greedy") > elo("uniform") + 100.0, "{v}");
    assert!(ci("perfect", 0) > ci("uniform", 1), "{v}");
    assert_eq!(v["pairs"].as_array().unwrap().len(), 3);
}

#[test]
fn the_perfect_agent_never_blunders_and_the_table_is_found_without_asking() {
    let v = json(&[]);
    let perfect = &agent(&v, "perfect")["blunders"];
    let uniform = &agent(&v, "uniform")["blunders"];
    assert!(perfect["moves"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(perfect["blunders"], 0, "{v}");
    assert!(uniform["blunders"].as_u64().unwrap() > 0, "{v}");
    assert!(v["perfect_play"]
        .as_str()
        .unwrap()
        .contains("first player wins"));
}

#[test]
fn the_same_seed_gives_the_same_ladder_whatever_the_thread_count() {
    assert_eq!(ladder(&["--threads", "1"]), ladder(&["--threads", "2"]));
    assert_ne!(
        ladder(&["--format", "csv"]),
        stdout(&morrigo(&[
            "ladder",
            "three-mens-morris",
            "--games",
            "40",
            "--seed",
            "4",
            "--agents",
            "uniform",
            "--agents",
            "greedy",
            "--agents",
            "perfect",
            "--format",
            "csv"
        ])),
        "another seed plays other games"
    );
}

#[test]
fn ladder_markdown_snapshot() {
    snap!("ladder_markdown", ladder(&[]));
}

#[test]
fn ladder_svg_shows_draw_and_decisive_rates() {
    let path = std::env::temp_dir().join(format!("morrigo-ladder-svg-{}.svg", std::process::id()));
    ladder(&["--svg", path.to_str().unwrap()]);
    let svg = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
    for text in ["draw rate", "decisive rate", "perfect", "greedy", "uniform"] {
        assert!(svg.contains(text), "the chart lacks {text}");
    }
}

#[test]
fn one_agent_or_an_agent_twice_is_a_usage_error() {
    let out = morrigo(&["ladder", "three-mens-morris", "--agents", "greedy"]);
    assert_code(&out, 2);
    assert!(
        stderr(&out).contains("at least two agents"),
        "{}",
        stderr(&out)
    );
    let out = morrigo(&[
        "ladder",
        "three-mens-morris",
        "--agents",
        "greedy",
        "--agents",
        "greedy",
    ]);
    assert_code(&out, 2);
    assert!(stderr(&out).contains("given twice"), "{}", stderr(&out));
}

#[test]
fn blunders_on_a_game_the_solver_cannot_take_is_a_game_error() {
    let out = morrigo(&[
        "ladder",
        "tromp-taylor",
        "--size",
        "3",
        "--agents",
        "uniform",
        "--agents",
        "random",
        "--blunders",
        "--games",
        "2",
    ]);
    assert_code(&out, 1);
    assert!(stderr(&out).contains("perfect"), "{}", stderr(&out));
}

#[test]
fn a_saved_table_judges_the_moves_a_damaged_one_is_a_game_error_a_comma_a_usage_error() {
    let dir = std::env::temp_dir().join(format!("morrigo-ladder-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("three.table");
    let table = table.to_str().unwrap();
    assert_code(
        &morrigo(&["solve", "three-mens-morris", "--save", table]),
        0,
    );
    let out = morrigo(&[
        "ladder",
        "three-mens-morris",
        "--agents",
        "uniform",
        "--agents",
        "greedy",
        "--games",
        "6",
        "--table",
        table,
        "--format",
        "csv",
    ]);
    assert_code(&out, 0);
    let csv = stdout(&out);
    let header = csv.lines().next().unwrap();
    assert!(
        header.ends_with("judged_moves,blunders,blunder_pct"),
        "{csv}"
    );
    let uniform = csv.lines().find(|l| l.contains(",uniform,")).unwrap();
    let judged: u64 = uniform.split(',').nth(13).unwrap().parse().unwrap();
    assert!(judged > 0, "{csv}");

    let bad = dir.join("bad.table");
    std::fs::write(&bad, b"not a table").unwrap();
    let out = morrigo(&[
        "ladder",
        "three-mens-morris",
        "--agents",
        "uniform",
        "--agents",
        "greedy",
        "--table",
        bad.to_str().unwrap(),
    ]);
    assert_code(&out, 1);
    assert!(stderr(&out).contains("bad.table"), "{}", stderr(&out));

    let comma = dir.join("a,b.table");
    std::fs::copy(table, &comma).unwrap();
    let out = morrigo(&[
        "ladder",
        "three-mens-morris",
        "--agents",
        "uniform",
        "--agents",
        "greedy",
        "--table",
        comma.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_code(&out, 2);
    assert!(stderr(&out).contains("has a comma"), "{}", stderr(&out));
}
