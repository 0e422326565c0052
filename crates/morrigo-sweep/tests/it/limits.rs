//! The sweep limits (cells, games, shards, games a shard) are checked from
//! the spec's counts before any cell, plan or shard is built, and each
//! refusal is located at the spec key; the plan grows with the cells, never
//! with the games or shards.

use morrigo_diag::{Diagnostics, SourceFile};
use morrigo_sweep::{plan, prepare_dir, read_plan, Plan, Spec, MANIFEST, MAX_SHARDS};

fn parse(text: &str) -> Result<Spec, Diagnostics> {
    Spec::parse(SourceFile::new("spec.yaml", text), None, "test")
}

/// The one refusal of a spec, as printed (`spec.yaml:L:C: error: …`).
fn refusal(text: &str) -> String {
    let started = std::time::Instant::now();
    let ds = parse(text).expect_err("a spec past the limits");
    // Counted, not built: a refusal takes no time.
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    assert_eq!(ds.0.len(), 1, "{ds}");
    ds.to_string()
}

fn values(n: usize) -> String {
    let v: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    format!("[{}]", v.join(", "))
}

#[test]
fn two_hundred_to_the_fourth_combinations_are_refused_before_planning() {
    let v = values(200);
    let text = format!(
        "rulesets: [nine-mens-morris]\nparams:\n  a: {v}\n  b: {v}\n  c: {v}\n  d: {v}\ngames: 1\n"
    );
    let e = refusal(&text);
    assert!(e.starts_with("spec.yaml:3:3: error"), "{e}");
    assert!(
        e.contains(
            "the sweep has 1600000000 cells (1 ruleset × 200 × 200 × 200 × 200 = 1600000000 param combinations × 1 pairing), more than the limit of 10000"
        ),
        "{e}"
    );
}

#[test]
fn param_combinations_past_two_to_the_sixty_four_are_refused_not_wrapped() {
    let v = values(10);
    let mut text = "rulesets: [nine-mens-morris]\nparams:\n".to_string();
    for i in 0..20 {
        text += &format!("  p{i}: {v}\n");
    }
    text += "games: 1\n";
    let e = refusal(&text);
    assert!(e.starts_with("spec.yaml:3:3: error"), "{e}");
    assert!(
        e.contains("the sweep has more than 18446744073709551615 cells"),
        "{e}"
    );
}

#[test]
fn many_pairings_are_refused_at_agents() {
    let agents: Vec<&str> = vec!["random"; 10_001];
    let text = format!(
        "rulesets: [nine-mens-morris]\nagents: [{}]\ngames: 1\n",
        agents.join(", ")
    );
    let e = refusal(&text);
    assert!(e.starts_with("spec.yaml:2:9: error"), "{e}");
    assert!(e.contains("10001 cells"), "{e}");
}

#[test]
fn a_billion_one_game_shards_are_refused_before_planning() {
    let e = refusal("rulesets: [nine-mens-morris]\ngames: 1000000000\nshard_games: 1\n");
    assert!(e.starts_with("spec.yaml:3:14: error"), "{e}");
    assert!(
        e.contains("the sweep has 1000000000 shards (1 cell × 1000000000 shards of 1 game), more than the limit of 1000000 shard files"),
        "{e}"
    );
    assert!(e.contains("`shard_games` of 1000 or more"), "{e}");
    // The default of 50 games a shard: located at `games`.
    let e = refusal("rulesets: [nine-mens-morris]\ngames: 1000000000\n");
    assert!(e.starts_with("spec.yaml:2:8: error"), "{e}");
    assert!(e.contains("20000000 shards"), "{e}");
}

#[test]
fn games_past_the_limit_are_refused_at_games() {
    // Past a u32, too: refused as a count, not as a type.
    let e = refusal("rulesets: [nine-mens-morris]\ngames: 5000000000\n");
    assert!(e.starts_with("spec.yaml:2:8: error"), "{e}");
    assert!(e.contains("the sweep has 5000000000 games"), "{e}");
    let e = refusal("rulesets: [nine-mens-morris, morabaraba]\ngames: 600000000\n");
    assert!(e.starts_with("spec.yaml:2:8: error"), "{e}");
    assert!(
        e.contains(
            "1200000000 games (2 cells × 600000000 games), more than the limit of 1000000000"
        ),
        "{e}"
    );
}

#[test]
fn a_shard_of_a_million_games_is_refused_at_shard_games() {
    let e = refusal("rulesets: [nine-mens-morris]\ngames: 1000000\nshard_games: 1000000\n");
    assert!(e.starts_with("spec.yaml:3:14: error"), "{e}");
    assert!(
        e.contains("more than the limit of 100000 games a shard"),
        "{e}"
    );
    // More games a shard than the cell has: one shard of the cell's games.
    let s = parse("rulesets: [nine-mens-morris]\ngames: 10\nshard_games: 5000000000\n").unwrap();
    assert_eq!(plan(&s).shard_count(), 1);
    assert_eq!(plan(&s).shard(0).unwrap().games(), 10);
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("morrigo-sweep-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn a_million_games_plan_stays_small() {
    // A million one-game shards: the most the limits allow.
    let s = parse("rulesets: [nine-mens-morris]\ngames: 1000000\nshard_games: 1\n").unwrap();
    let p = plan(&s);
    assert_eq!(p.shard_count() as u64, MAX_SHARDS);
    let last = p.shard(999_999).unwrap();
    assert_eq!((last.cell, last.start, last.end), (0, 999_999, 1_000_000));
    assert_eq!(p.total_games(), 1_000_000);
    let dir = temp_dir("million");
    prepare_dir(&p, &dir).unwrap();
    let bytes = std::fs::metadata(dir.join(MANIFEST)).unwrap().len();
    // The plan of format 1 listed every shard: 73 MB here.
    assert!(bytes < 4096, "the plan takes {bytes} bytes");
    assert_eq!(read_plan(&dir).unwrap(), p);
    // Twice the games in shards of 2: the same plan size, to a digit.
    let s2 = parse("rulesets: [nine-mens-morris]\ngames: 2000000\nshard_games: 2\n").unwrap();
    let text = serde_json::to_string(&plan(&s2)).unwrap();
    assert!(text.len() < 4096, "{}", text.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_forged_plan_past_the_limits_is_refused() {
    // A checksum only says the file is as written: the plan read back is
    // checked against the limits too, before any shard is computed.
    let s = parse("rulesets: [nine-mens-morris]\ngames: 10\nshard_games: 5\n").unwrap();
    let mut v = serde_json::to_value(plan(&s)).unwrap();
    assert_eq!(v["shards"], 2);
    v["spec"]["games"] = 1_000_000_000.into();
    v["spec"]["shard_games"] = 1.into();
    let e = serde_json::from_value::<Plan>(v.clone()).unwrap_err();
    assert!(
        e.to_string()
            .contains("its spec makes more than 1000000 shards"),
        "{e}"
    );
    v["spec"]["games"] = 10.into();
    v["spec"]["shard_games"] = 0.into();
    let e = serde_json::from_value::<Plan>(v.clone()).unwrap_err();
    assert!(e.to_string().contains("0 games per shard"), "{e}");
    v["spec"]["shard_games"] = 5.into();
    v["shards"] = 3.into();
    let e = serde_json::from_value::<Plan>(v.clone()).unwrap_err();
    assert!(
        e.to_string().contains("it says 3 shards, its spec makes 2"),
        "{e}"
    );
    // Sealed as the sweep seals it: refused all the same, by name.
    let dir = temp_dir("forged");
    std::fs::create_dir_all(&dir).unwrap();
    let line = morrigo_store::seal_line(&v.to_string()) + "\n";
    std::fs::write(dir.join(MANIFEST), line).unwrap();
    let e = read_plan(&dir).unwrap_err().to_string();
    assert!(e.contains("plan.json` is damaged"), "{e}");
    assert!(e.contains("it says 3 shards, its spec makes 2"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
