//! `compare`: tables that tell variants apart (wins by seat with confidence
//! intervals, outcomes per end rule, lengths, rule events), the same results
//! whatever the thread count, and pass-rule variants that differ under the
//! default real-agent pairing.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use crate::common::{assert_code, stderr, stdout};

fn morrigo_env(args: &[&str], threads: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_morrigo"));
    c.args(args)
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .stdin(Stdio::null());
    if let Some(t) = threads {
        c.env("RAYON_NUM_THREADS", t);
    }
    c.output().expect("the morrigo binary runs")
}

fn morrigo(args: &[&str]) -> Output {
    morrigo_env(args, None)
}

/// The timing cells (the only output that varies between identical runs)
/// replaced by `[time]`: the `time/game` column of the first text table,
/// the `secs_per_game` column of CSV.
fn redact_time(text: &str, column: &str, sep: char) -> String {
    let mut index = None;
    let mut out = String::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split(sep).collect();
        if index.is_none() {
            index = cells.iter().position(|c| c.trim() == column);
        } else if line.trim().is_empty() {
            index = Some(usize::MAX);
        }
        match index {
            Some(i) if i < cells.len() && !line.starts_with("|:") && !line.starts_with("--") => {
                let mut cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
                if cells[i].trim() != column {
                    cells[i] = if sep == '|' {
                        " [time] ".into()
                    } else {
                        "[time]".into()
                    };
                }
                out.push_str(&cells.join(&sep.to_string()));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

fn json_without_time(o: &Output) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    for r in v.as_array_mut().expect("an array of reports") {
        r["elapsed_secs"] = serde_json::Value::Null;
        r["secs_per_game"] = serde_json::Value::Null;
    }
    v
}

const MORRIS: [&str; 7] = [
    "compare",
    "three-mens-morris",
    "six-mens-morris",
    "--games",
    "40",
    "--seed",
    "3",
];

fn with(base: &[&str], more: &[&str]) -> Vec<String> {
    base.iter().chain(more).map(|s| s.to_string()).collect()
}

fn run(args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    morrigo(&args)
}

#[test]
fn compare_markdown_snapshot() {
    let o = run(&with(
        &MORRIS,
        &["--agents", "greedy,random", "--agents", "random,greedy"],
    ));
    assert_code(&o, 0);
    let text = stdout(&o);
    // Every row names its pairing; the legend states the interval method.
    assert!(text.contains("| greedy vs random "), "{text}");
    assert!(text.contains("Wilson score"), "{text}");
    insta::assert_snapshot!(redact_time(&text, "time/game", '|'));
}

#[test]
fn compare_table_format_snapshot() {
    let o = run(&with(&MORRIS, &["--agents", "greedy", "--format", "table"]));
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(!text.contains('|'), "plain columns:\n{text}");
    // The time column is the last of the first table, as wide as its
    // header and right-aligned: cut each row there.
    let mut start = None;
    let mut redacted = String::new();
    for l in text.lines() {
        if start.is_none() {
            start = l.find("time/game").map(|b| l[..b].chars().count());
        } else if l.is_empty() {
            start = Some(usize::MAX);
        }
        match start {
            Some(c)
                if c < l.chars().count() && !l.starts_with("--") && !l.contains("time/game") =>
            {
                let kept: String = l.chars().take(c).collect();
                redacted.push_str(&format!("{kept}[time]\n"));
            }
            _ => redacted.push_str(&format!("{l}\n")),
        }
    }
    insta::assert_snapshot!(redacted);
}

#[test]
fn compare_csv_snapshot() {
    let o = run(&with(&MORRIS, &["--agents", "greedy", "--format", "csv"]));
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(
        text.starts_with("ruleset,title,white_agent,black_agent,games,distinct_games,white_wins,"),
        "{text}"
    );
    insta::assert_snapshot!(redact_time(&text, "secs_per_game", ','));
}

#[test]
fn compare_json_snapshot() {
    let o = run(&with(&MORRIS, &["--agents", "greedy", "--format", "json"]));
    assert_code(&o, 0);
    let v = json_without_time(&o);
    let r = &v[0];
    // Wins, draws and unfinished games add up; the outcomes per rule too.
    let games = r["games"].as_u64().unwrap();
    let wins: u64 = (0..2).map(|i| r["wins"][i].as_u64().unwrap()).sum();
    let draws = r["draws"].as_u64().unwrap();
    assert_eq!(wins + draws + r["unfinished"].as_u64().unwrap(), games);
    let by_rule: u64 = r["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["wins"][0].as_u64().unwrap() + o["wins"][1].as_u64().unwrap())
        .sum();
    assert_eq!(by_rule, wins);
    insta::assert_json_snapshot!(v);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let runs: [&[&str]; 3] = [
        &[
            "compare",
            "nine-mens-morris",
            "lasker-morris",
            "--games",
            "24",
            "--seed",
            "11",
            "--agents",
            "greedy,random",
        ],
        &[
            "compare", "jk-final", "chinese", "--size", "5", "--games", "24", "--seed", "11",
            "--agents", "random",
        ],
        // Monte Carlo search draws its own random playouts.
        &[
            "compare",
            "three-mens-morris",
            "--games",
            "6",
            "--agents",
            "mcts:playouts=50",
        ],
    ];
    for args in runs {
        let mut args = args.to_vec();
        args.extend(["--format", "json"]);
        let one = morrigo_env(&args, Some("1"));
        let two = morrigo_env(&args, Some("2"));
        assert_code(&one, 0);
        assert_code(&two, 0);
        let a = serde_json::to_string_pretty(&json_without_time(&one)).unwrap();
        let b = serde_json::to_string_pretty(&json_without_time(&two)).unwrap();
        assert_eq!(a, b, "{args:?}: RAYON_NUM_THREADS=1 and 2 differ");
    }
}

/// The JK pass rules: the final rules, the strict end (no pass at all just
/// after ECC, ECCCC), and a variant forbidding the ending pass before move
/// 20. Random play never reached the pass rules; under the default pairing
/// (Monte Carlo search on both seats, passes ordinary moves to it) the
/// tables differ, and the variant's own forbid rule refuses ending passes.
#[test]
fn jk_pass_rule_variants_differ_under_the_default_pairing() {
    let o = morrigo(&[
        "compare",
        "jk-final",
        "jk-strict-end",
        "tests/rulesets/jk-no-early-end.yaml",
        "--size",
        "5",
        "--games",
        "6",
        "--seed",
        "1",
        "--format",
        "json",
    ]);
    assert_code(&o, 0);
    let v = json_without_time(&o);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for r in rows {
        assert_eq!(r["agents"][0], "mcts:playouts=200,c=1.4", "{r}");
    }
    // What the tables show, minus the names: pairwise different.
    let shown = |r: &serde_json::Value| {
        let mut r = r.clone();
        for k in ["ruleset", "title", "events", "end_rules", "outcomes"] {
            r[k] = serde_json::Value::Null;
        }
        r
    };
    for i in 0..3 {
        for j in i + 1..3 {
            assert_ne!(shown(&rows[i]), shown(&rows[j]), "rows {i} and {j} equal");
        }
    }
    let event = |r: &serde_json::Value, name: &str| {
        r["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["event"] == name)
            .map(|e| e["count"].as_u64().unwrap())
    };
    // Passes are played, and the ending sequence decides games.
    for r in rows {
        assert!(event(r, "pass:E").unwrap() > 0, "{r}");
        let ended = r["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["rule"] == "ending_sequence")
            .unwrap();
        assert!(
            ended["wins"][0].as_u64().unwrap()
                + ended["wins"][1].as_u64().unwrap()
                + ended["draws"].as_u64().unwrap()
                > 0
        );
    }
    assert!(event(&rows[2], "forbid no_early_ending_pass").unwrap() > 0);
    assert_eq!(event(&rows[0], "forbid no_early_ending_pass"), None);
}

#[test]
fn simulate_refuses_two_pairings() {
    let o = morrigo(&[
        "simulate",
        "three-mens-morris",
        "--agents",
        "greedy",
        "--agents",
        "random",
    ]);
    assert_code(&o, 2);
    assert!(stderr(&o).contains("more than once"), "{}", stderr(&o));
}

#[test]
fn svg_chart_of_outcomes_and_lengths() {
    let dir = std::env::temp_dir().join(format!("morrigo-compare-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("chart.svg");
    let path = file.to_string_lossy().to_string();
    let o = run(&with(&MORRIS, &["--agents", "greedy", "--svg", &path]));
    assert_code(&o, 0);
    let svg = std::fs::read_to_string(&file).expect("the chart is written");
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
    for text in [
        "Outcomes (% of games)",
        "Length (plies)",
        "three-mens-morris",
        "six-mens-morris",
        "white wins",
        "black wins",
        "draws",
    ] {
        assert!(svg.contains(text), "no `{text}` in the chart");
    }
    // One mean dot per row.
    assert_eq!(svg.matches("<circle").count(), 2);
    // A file that cannot be written: a located refusal, exit 1.
    let bad = dir.join("no-such-dir").join("chart.svg");
    let o = run(&with(
        &MORRIS,
        &["--agents", "greedy", "--svg", &bad.to_string_lossy()],
    ));
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("cannot write the chart to"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The main job: with no arguments, every built-in Morris ruleset under the
/// default pairing, alpha-beta with a node budget on both seats (Morris
/// turns move pieces), named in the legend.
#[test]
fn compare_with_no_rulesets_seats_real_agents() {
    let o = morrigo(&["compare", "--games", "2", "--format", "json"]);
    assert_code(&o, 0);
    let v = json_without_time(&o);
    let rows = v.as_array().unwrap();
    let morris = morrigo_rules::builtin::family("morris").count();
    assert_eq!(rows.len(), morris, "one row per built-in Morris ruleset");
    for r in rows {
        assert_eq!(
            r["agents"],
            serde_json::json!([
                "alphabeta:depth=64,nodes=3000",
                "alphabeta:depth=64,nodes=3000"
            ]),
            "{}",
            r["ruleset"]
        );
    }
    let o = morrigo(&["compare", "three-mens-morris", "--games", "2"]);
    assert!(
        stdout(&o).contains(
            "Agents: white alphabeta:depth=64,nodes=3000, black alphabeta:depth=64,nodes=3000."
        ),
        "{}",
        stdout(&o)
    );
}
