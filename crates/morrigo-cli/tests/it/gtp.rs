//! `morrigo gtp`: the engine over stdin/stdout, and its refusals at start.

use crate::common::{assert_code, morrigo, root, stderr};

/// Pipe `input` to `morrigo ARGS` and return its stdout and exit code.
fn session(args: &[&str], input: &str) -> (String, i32) {
    let o = crate::common::piped_in(&root(), args, input);
    (
        String::from_utf8(o.stdout).unwrap(),
        o.status.code().unwrap_or(-1),
    )
}

/// GTP is for Go-style rulesets: a Morris ruleset is a usage error (exit 2)
/// that says why and what to give instead.
#[test]
fn a_morris_ruleset_is_refused_with_exit_2() {
    let o = morrigo(&["gtp", "nine-mens-morris"]);
    assert_code(&o, 2);
    insta::assert_snapshot!(stderr(&o));
}

/// A bad ruleset name is a rule error (exit 1) from the loader.
#[test]
fn an_unknown_ruleset_is_a_rule_error() {
    let o = morrigo(&["gtp", "chinees"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("chinese"), "{}", stderr(&o));
}

/// A session over pipes: the command line's size and komi are in force,
/// the agent answers genmove (the same moves for the same seed), quit ends
/// the process with exit 0 and the rest of the input is not read.
#[test]
fn a_piped_session_follows_the_command_line_and_ends_at_quit() {
    let input = "1 showboard\n2 genmove b\n3 genmove w\n4 final_score\n5 quit\n6 name\n";
    let args = [
        "gtp", "chinese", "--size", "5", "--komi", "3", "--agent", "greedy", "--seed", "9",
    ];
    let (out, code) = session(&args, input);
    assert_eq!(code, 0);
    assert!(out.contains("1 .---.---"), "a 5x5 board: {out}");
    assert!(out.ends_with("=5 \n\n"), "quit is the last answer: {out}");
    assert!(!out.contains("=6"), "nothing is read after quit: {out}");
    let (again, _) = session(&args, input);
    assert_eq!(out, again, "the same seed plays the same moves");
    insta::assert_snapshot!(out);
}

/// The end of the input ends the session quietly (exit 0), like `quit`.
#[test]
fn end_of_input_ends_the_session() {
    let (out, code) = session(&["gtp", "jk-final", "--size", "7"], "protocol_version\n");
    assert_eq!((out.as_str(), code), ("= 2\n\n", 0));
}

/// A handicap game over pipes: `fixed_handicap 4` on 9x9 answers the
/// standard's points, and `printsgf` writes them as Black's set-up stones
/// (`AB`, with `HA[4]`) with White to move (`PL[W]`), White's reply as
/// the first move.
#[test]
fn printsgf_after_fixed_handicap_has_ab_and_pl_w() {
    let input = "1 fixed_handicap 4\n2 genmove w\n3 printsgf\n";
    let args = ["gtp", "chinese", "--size", "9", "--agent", "greedy"];
    let (out, code) = session(&args, input);
    assert_eq!(code, 0);
    assert!(out.starts_with("=1 C3 G7 C7 G3\n\n=2 "), "{out}");
    let sgf = out.split("=3 ").nth(1).expect("the printsgf answer");
    assert!(
        sgf.contains("HA[4]AB[cg][gc][cc][gg]PL[W]"),
        "handicap stones as AB, White to move: {sgf}"
    );
    assert!(sgf.contains("\n;W["), "White's move comes first: {sgf}");
    assert!(!sgf.contains(";B["), "no black move yet: {sgf}");
}

/// `--plain-passes` (for GUIs that read no typed passes): under jk-final
/// `genmove` answers a pass as GTP's `pass`, and it is the kind a plain
/// `pass` stands for at the start (P); without the option the same seed's
/// first move is a typed pass. A GUI's set-up of White stones (`play w`
/// with Black to move) hands the turn over instead of being refused.
#[test]
fn plain_passes_and_consecutive_moves_for_guis() {
    let args = [
        "gtp", "jk-final", "--size", "3", "--agent", "uniform", "--seed", "3",
    ];
    let input = "genmove b\nmorrigo-classes\nquit\n";
    let (typed, _) = session(&args, input);
    assert!(typed.starts_with("= pass:"), "{typed}");
    let plain_args = [&args[..], &["--plain-passes"]].concat();
    let (plain, code) = session(&plain_args, input);
    assert_eq!((plain.as_str(), code), ("= pass\n\n= P\n\n= \n\n", 0));
    let (setup, _) = session(
        &args,
        "play w B2\nplay w A1\nplay b C3\nmorrigo-classes\nundo\nundo\nshowboard\n",
    );
    assert!(
        setup.starts_with("= \n\n= \n\n= \n\n= N N N\n\n= \n\n= \n\n"),
        "{setup}"
    );
    assert!(
        setup.contains("2 .---W---.") && setup.contains("black to move, move 2"),
        "{setup}"
    );
}
