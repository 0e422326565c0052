//! `--white AGENT` / `--black AGENT` on the commands that play: the agent
//! sits in the seat of the player of that name (first in Morris, second in
//! Go), the same games as the equivalent `--agents`, and every conflict or
//! impossible colour is a usage error (exit 2) before a game is played.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use crate::common::{assert_code, stderr, stdout};

fn run(args: &[&str], input: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args(args)
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            // A refused command may exit before reading its input.
            let _ = c.stdin.take().expect("stdin").write_all(input.as_bytes());
            c.wait_with_output()
        })
        .expect("the morrigo binary runs")
}

fn morrigo(args: &[&str]) -> Output {
    run(args, "")
}

/// The JSON report of `simulate` without its timing.
fn report(args: &[&str]) -> serde_json::Value {
    let o = morrigo(args);
    assert_code(&o, 0);
    let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let fields = v.as_object_mut().expect("an object");
    fields.remove("elapsed_secs");
    fields.remove("secs_per_game");
    v
}

#[test]
fn white_and_black_seat_agents_by_player_name() {
    // Morris: White moves first.
    let base = [
        "simulate",
        "three-mens-morris",
        "--games",
        "6",
        "--seed",
        "2",
        "--json",
    ];
    let by_colour = report(&[&base[..], &["--white", "greedy", "--black", "uniform"]].concat());
    let by_seat = report(&[&base[..], &["--agents", "greedy,uniform"]].concat());
    assert_eq!(
        by_colour["agents"],
        serde_json::json!(["greedy", "uniform"])
    );
    assert_eq!(by_colour, by_seat, "the same games as --agents W,B");
    // Go: Black moves first, so `--white` is the second seat; the seat not
    // named keeps the default `random`.
    let base = [
        "simulate", "chinese", "--size", "5", "--games", "4", "--seed", "2", "--json",
    ];
    let by_colour = report(&[&base[..], &["--white", "greedy"]].concat());
    let by_seat = report(&[&base[..], &["--agents", "random,greedy"]].concat());
    assert_eq!(by_colour["agents"], serde_json::json!(["random", "greedy"]));
    assert_eq!(by_colour, by_seat);
}

#[test]
fn a_colour_that_agrees_with_agents_is_accepted() {
    let v = report(&[
        "simulate",
        "three-mens-morris",
        "--games",
        "2",
        "--json",
        "--agents",
        "greedy,random",
        "--black",
        "random",
    ]);
    assert_eq!(v["agents"], serde_json::json!(["greedy", "random"]));
}

#[test]
fn a_colour_that_contradicts_agents_is_a_usage_error() {
    let o = morrigo(&[
        "simulate",
        "three-mens-morris",
        "--games",
        "2",
        "--agents",
        "random",
        "--white",
        "greedy",
    ]);
    assert_code(&o, 2);
    assert!(stdout(&o).is_empty(), "no game played: {}", stdout(&o));
    insta::assert_snapshot!(stderr(&o));
}

#[test]
fn compare_refuses_a_conflict_in_any_ruleset_before_playing() {
    // Black is the first seat of `chinese`: `--black greedy` agrees with
    // `--agents greedy,random` there and contradicts it in Morris.
    let args = [
        "compare",
        "tests/rulesets/chinese-5x5.yaml",
        "--games",
        "2",
        "--agents",
        "greedy,random",
        "--black",
        "greedy",
    ];
    assert_code(&morrigo(&args), 0);
    let o = morrigo(&[&args[..], &["three-mens-morris"]].concat());
    assert_code(&o, 2);
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("`--black greedy` conflicts with `--agents`, which seats `random` as black in three-mens-morris"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_colour_the_ruleset_has_no_player_of_is_a_usage_error() {
    let o = morrigo(&[
        "simulate",
        "tests/rulesets/three-mens-morris-red-blue.yaml",
        "--games",
        "2",
        "--white",
        "greedy",
    ]);
    assert_code(&o, 2);
    insta::assert_snapshot!(stderr(&o));
}

#[test]
fn play_seats_the_agent_on_the_colour_named_and_you_on_the_other() {
    let o = run(
        &[
            "play",
            "three-mens-morris",
            "--white",
            "mcts:playouts=60",
            "--seed",
            "1",
            "--show-search",
        ],
        "quit\n",
    );
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("you play black (B); the mcts:playouts=60,c=1.4 agent plays white"),
        "{out}"
    );
    // White moves first: the agent's search is shown before your turn.
    assert!(out.contains("white ran 60 playouts"), "{out}");
    let o = run(
        &["play", "three-mens-morris", "--black", "alphabeta:depth=2"],
        "quit\n",
    );
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("you play white (W); the alphabeta:depth=2 agent plays black"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn play_refuses_colours_that_contradict_its_other_options() {
    let cases: [(&[&str], &str); 3] = [
        (
            &["--white", "greedy", "--black", "random"],
            "both `--white` and `--black` name one",
        ),
        (
            &["--white", "greedy", "--as", "white"],
            "`--as white` conflicts with `--white greedy`",
        ),
        (
            &["--black", "greedy", "--agent", "random"],
            "`--agent random` conflicts with `--black greedy`",
        ),
    ];
    for (extra, message) in cases {
        let o = run(
            &[&["play", "three-mens-morris"][..], extra].concat(),
            "quit\n",
        );
        assert_code(&o, 2);
        assert!(stderr(&o).contains(message), "{extra:?}: {}", stderr(&o));
        assert!(
            stdout(&o).is_empty(),
            "{extra:?}: refused before the game: {}",
            stdout(&o)
        );
    }
}

/// A person can face every agent kind, in Morris and in Go; with
/// `--show-search` a searching agent shows its line (alpha-beta) or its
/// visit counts (MCTS), both starting with the move it then plays, and a
/// non-searching one says it has nothing to show.
#[test]
fn play_faces_every_agent_kind_and_shows_what_the_search_found() {
    let games: [(&[&str], &str); 2] = [
        // Spare moves, in case the agent takes one first (a refused
        // move is reported and the next line read); none forms a line.
        (&["nine-mens-morris"], "a1\ng7\nb2\nf6\nquit\n"),
        (&["jk-final", "--size", "5"], "C3\nA1\nE5\nA5\nquit\n"),
    ];
    for (ruleset, moves) in games {
        for agent in [
            "uniform",
            "random",
            "greedy",
            "alphabeta:depth=3",
            "mcts:playouts=120",
        ] {
            let side = if ruleset[0] == "jk-final" {
                "white"
            } else {
                "black"
            };
            let args = [
                &["play"][..],
                ruleset,
                &["--agent", agent, "--seed", "5", "--show-search"],
            ]
            .concat();
            let o = run(&args, moves);
            assert_code(&o, 0);
            let out = stdout(&o);
            // Each reply, with the searches made for it (a turn that
            // completes a line is searched again for the removal).
            let mut turns: Vec<(&str, Vec<&str>)> = Vec::new();
            let mut searches = Vec::new();
            for line in out.lines() {
                if let Some(text) = line.strip_prefix(&format!("{side} plays ")) {
                    let text = text.split(':').next().unwrap_or(text);
                    turns.push((text, std::mem::take(&mut searches)));
                } else if line.starts_with(&format!("{side} searched"))
                    || line.starts_with(&format!("{side} ran"))
                {
                    searches.push(line);
                }
            }
            assert!(
                turns.len() >= 2,
                "{ruleset:?} {agent}: two replies or more in {out}"
            );
            let searching = agent.starts_with("alphabeta") || agent.starts_with("mcts");
            for (played, shown) in &turns {
                assert_eq!(
                    !shown.is_empty(),
                    searching,
                    "{ruleset:?} {agent}: {played}: {out}"
                );
                for (i, line) in shown.iter().enumerate() {
                    let expects = line.split("expects ").nth(1).unwrap_or("");
                    let first = expects.split(' ').next().unwrap_or("");
                    // The turn's first ply starts it; a removal is in it.
                    let ok = if i == 0 {
                        played.starts_with(first)
                    } else {
                        played.contains(first)
                    };
                    assert!(ok && !first.is_empty(), "{played} after {line}");
                    if agent.starts_with("mcts") {
                        let visits = line.split("visits: ").nth(1).unwrap_or("");
                        assert!(
                            visits.starts_with(&format!("{first} ")),
                            "most visited first: {line}"
                        );
                    }
                }
            }
            if !searching {
                assert!(
                    out.contains(&format!("the {agent} agent does not search")),
                    "{out}"
                );
            }
        }
    }
}
