//! Agent specifications on the commands that play (`simulate`, `compare`,
//! `play`): parameters, refusals with suggestions (usage errors, exit 2),
//! and results that depend only on the seed.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::common::{assert_code, morrigo, stderr, stdout};

#[test]
fn simulate_takes_agents_with_parameters_and_reports_them() {
    let args = [
        "simulate",
        "three-mens-morris",
        "--games",
        "6",
        "--seed",
        "4",
        "--agents",
        "alphabeta:depth=3,time=60000,random",
        "--json",
    ];
    let o = morrigo(&args);
    assert_code(&o, 0);
    let a: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        a["agents"],
        serde_json::json!(["alphabeta:depth=3,time=60000", "random"])
    );
    assert_eq!(a["games"], 6);
}

#[test]
fn alphabeta_simulations_repeat_for_a_seed_whatever_the_threads() {
    let run = |threads: &str| {
        let o = morrigo(&[
            "simulate",
            // Not Six Men's Morris: the agent would solve it, not search.
            "nine-mens-morris",
            "--games",
            "8",
            "--seed",
            "2",
            "--agents",
            "alphabeta:depth=2,greedy",
            "--max-plies",
            "200",
            "--threads",
            threads,
            "--json",
        ]);
        assert_code(&o, 0);
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        v["elapsed_secs"] = serde_json::Value::Null;
        v["secs_per_game"] = serde_json::Value::Null;
        v
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn unknown_agents_and_parameters_are_usage_errors_with_a_suggestion() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["simulate", "nine-mens-morris", "--agents", "grredy"],
            "did you mean `greedy`?",
        ),
        (
            &[
                "compare",
                "three-mens-morris",
                "--agents",
                "alphabeta:dpth=3",
            ],
            "did you mean `depth`?",
        ),
        (
            &["play", "nine-mens-morris", "--agent", "alphabeta:depth=0"],
            "must be 1 to 64",
        ),
        (
            &["simulate", "nine-mens-morris", "--agents", "random:depth=2"],
            "takes no parameters",
        ),
        (
            &[
                "simulate",
                "nine-mens-morris",
                "--agents",
                "random,greedy,uniform",
            ],
            "expected one or two",
        ),
    ];
    for (args, message) in cases {
        let o = morrigo(args);
        assert_code(&o, 2);
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn compare_seats_the_agents_given() {
    let o = morrigo(&[
        "compare",
        "three-mens-morris",
        "nine-mens-morris",
        "--games",
        "4",
        "--agents",
        "alphabeta:depth=2,uniform",
        "--format",
        "markdown",
    ]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("alphabeta:depth=2") && stdout(&o).contains("uniform"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn play_against_alphabeta_from_a_pipe() {
    // Nine Men's Morris: the smaller games (Three, Five, Six Men's) are
    // solved when the agent starts and played from the table, without a
    // search.
    let o = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args([
            "play",
            "nine-mens-morris",
            "--agent",
            "alphabeta:depth=3",
            "--seed",
            "1",
            "--show-search",
        ])
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().expect("stdin").write_all(b"b2\nquit\n")?;
            c.wait_with_output()
        })
        .expect("the morrigo binary runs");
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("the alphabeta:depth=3 agent plays"), "{out}");
    assert!(out.contains("black plays "), "the agent answered b2: {out}");
    // `--show-search`: the completed depth and the expected line (as many
    // moves as the depth, starting with the move played).
    let info = out
        .lines()
        .find(|l| l.starts_with("black searched depth 3:"))
        .unwrap_or_else(|| panic!("no search line: {out}"));
    let line: Vec<&str> = info
        .split("expects ")
        .nth(1)
        .unwrap_or("")
        .split(' ')
        .collect();
    assert_eq!(line.len(), 3, "{info}");
    assert!(out.contains(&format!("black plays {}", line[0])), "{out}");
}

#[test]
fn bench_times_alphabeta_and_mcts_searches_and_refuses_other_agents() {
    let o = morrigo(&[
        "bench",
        "six-mens-morris",
        "--games",
        "5",
        "--perft-depth",
        "0",
        "--search",
        "alphabeta:depth=2",
        "--positions",
        "5",
    ]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("search alphabeta:depth=2: 5 positions,"),
        "{}",
        stdout(&o)
    );
    let o = morrigo(&[
        "bench",
        "three-mens-morris",
        "--games",
        "5",
        "--perft-depth",
        "0",
        "--search",
        "mcts:playouts=50",
        "--positions",
        "3",
    ]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("search mcts:playouts=50,c=1.4: 3 positions, 150 playouts in"),
        "{}",
        stdout(&o)
    );
    let o = morrigo(&["bench", "--search", "greedy"]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("not a searching agent"),
        "{}",
        stderr(&o)
    );
    assert!(
        stdout(&o).is_empty(),
        "refused before measuring: {}",
        stdout(&o)
    );
}

#[test]
fn play_shows_the_visit_counts_of_mcts() {
    let o = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args([
            "play",
            "jk-final",
            "--size",
            "5",
            "--agent",
            "mcts:playouts=100,c=1.4",
            "--seed",
            "3",
            "--show-search",
        ])
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().expect("stdin").write_all(b"C3\nquit\n")?;
            c.wait_with_output()
        })
        .expect("the morrigo binary runs");
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("the mcts:playouts=100,c=1.4 agent plays white"),
        "{out}"
    );
    assert!(out.contains("white ran 100 playouts"), "{out}");
    assert!(out.contains("visits: "), "{out}");
}
