//! Records, SGF, `--position` and the budgets of long commands: regression
//! tests for the defects found in them, run through the `morrigo` binary
//! as a user runs it (0 ok, 1 rule or game error, 2 usage error).

use std::time::Instant;

use crate::common::{assert_code, morrigo, root, scratch_dir, stderr, stdout};

fn defect(name: &str) -> String {
    format!("tests/defects/{name}")
}

fn temp_file(test: &str, name: &str, text: &str) -> String {
    let path = scratch_dir(test).join(name);
    std::fs::write(&path, text).expect("write temp file");
    path.display().to_string()
}

// ----- SGF -------------------------------------------------------------------

/// Defect 14: `RE[W+R]` was lost on import (the game replayed as ongoing).
/// A resignation in the record ends the game.
#[test]
fn sgf_resignation_in_re_ends_the_game() {
    let f = temp_file(
        "re-resign",
        "g.sgf",
        "(;GM[1]FF[4]SZ[5]RU[jk-final]RE[W+R];B[cc];W[dd])",
    );
    let o = morrigo(&["replay", "jk-final", "--sgf", &f]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("black resigns"), "{out}");
    assert!(out.contains("result: white wins by resignation"), "{out}");
}

/// Defect 14: `RE[B+25]` was dropped silently. A count that disagrees with
/// the ruleset's own count is reported, with the file position of `RE`.
#[test]
fn sgf_scored_result_that_disagrees_is_reported() {
    let f = temp_file(
        "re-score",
        "g.sgf",
        "(;GM[1]FF[4]SZ[5]RU[tromp-taylor]KM[0.5]RE[B+25];B[cc];W[dd];B[];W[])",
    );
    let o = morrigo(&["replay", "--sgf", &f]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("g.sgf:1:44: warning: RE[B+25] disagrees"),
        "{err}"
    );
    assert!(err.contains("W+0.5"), "{err}");
    assert!(stdout(&o).contains("result: white wins"), "{}", stdout(&o));
}

/// A count the record agrees with ends an unfinished record by agreement.
#[test]
fn sgf_scored_result_ends_an_unfinished_record_by_agreement() {
    let f = temp_file(
        "re-agree",
        "g.sgf",
        "(;GM[1]FF[4]SZ[5]RU[tromp-taylor]KM[0.5]RE[W+0.5];B[cc];W[dd])",
    );
    let o = morrigo(&["replay", "--sgf", &f, "--json"]);
    assert_code(&o, 0);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("\"reason\": \"agreement\""), "{out}");
    assert!(out.contains("\"winner\": \"white\""), "{out}");
}

/// Defect 14: `RU[jk-final]` was not used when no ruleset was named (exit 2).
#[test]
fn sgf_ru_names_the_ruleset_when_none_is_given() {
    let f = temp_file(
        "ru",
        "g.sgf",
        "(;GM[1]FF[4]SZ[5]RU[jk-final];B[cc];W[]PK[E];B[]PK[E])",
    );
    let o = morrigo(&["replay", "--sgf", &f]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("ruleset: jk-final"), "{}", stdout(&o));
    // An RU that is not a built-in ruleset: a usage error that says so.
    let f = temp_file("ru-unknown", "g.sgf", "(;GM[1]SZ[19]RU[Japanese];B[dd])");
    let o = morrigo(&["replay", "--sgf", &f]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("RU[Japanese] is not a built-in ruleset"),
        "{}",
        stderr(&o)
    );
    let o = morrigo(&["replay", "--moves", "a1"]);
    assert_code(&o, 2);
    assert!(stderr(&o).contains("name the ruleset"), "{}", stderr(&o));
}

/// Defect 14: variations were dropped silently. The main line is replayed
/// and the variations are reported, located.
#[test]
fn sgf_variations_are_reported() {
    let f = temp_file(
        "variations",
        "g.sgf",
        "(;GM[1]FF[4]SZ[5]RU[tromp-taylor];B[cc](;W[dd];B[cd])(;W[ee]))",
    );
    let o = morrigo(&["replay", "--sgf", &f]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("g.sgf:1:55: warning: the game has 1 variation(s) off the main line"),
        "{err}"
    );
    let out = stdout(&o);
    assert!(out.contains("3. black  C2"), "{out}");
    assert!(
        !out.contains("E1"),
        "the second variation is not played: {out}"
    );
}

/// Defect 14: `AB`/`AW` set-up stones were refused. They are the start
/// position (with `PL`), and `--to-sgf` writes them back.
#[test]
fn sgf_setup_stones_start_the_game() {
    let f = temp_file(
        "setup",
        "g.sgf",
        "(;GM[1]FF[4]SZ[5]AB[aa][bb:bc]AW[ee]PL[W];W[cc];B[dd])",
    );
    let out_sgf = scratch_dir("setup-out").join("out.sgf");
    let out_sgf = out_sgf.display().to_string();
    let o = morrigo(&["replay", "tromp-taylor", "--sgf", &f, "--to-sgf", &out_sgf]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("1. white  C3"), "{out}");
    assert!(out.contains("5 B---.---.---.---."), "{out}");
    let written = std::fs::read_to_string(&out_sgf).unwrap();
    assert!(written.contains("AB[aa][bb][bc]AW[ee]PL[W]"), "{written}");
    // Set-up after the first node: refused at its place.
    let f = temp_file("setup-late", "g.sgf", "(;GM[1]SZ[5];B[cc];AB[aa])");
    let o = morrigo(&["replay", "tromp-taylor", "--sgf", &f]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("g.sgf:1:20: error: `AB` after the start"),
        "{}",
        stderr(&o)
    );
}

/// Defects 14, 18, 6: invalid `SZ`, `KM` and lowercase identifiers were
/// silently ignored, `SZ[0]` pointed into the ruleset's description. Each
/// is an error at its place in the SGF file (exit 1).
#[test]
fn sgf_values_that_cannot_be_read_are_located_errors() {
    for (file, at) in [
        (
            "sgf-km-garbage.sgf",
            "sgf-km-garbage.sgf:1:21: error: KM[abc]",
        ),
        ("sgf-km-nan.sgf", "sgf-km-nan.sgf:1:21: error: KM[nan]"),
        (
            "sgf-sz-garbage.sgf",
            "sgf-sz-garbage.sgf:1:16: error: SZ[abc]",
        ),
        ("sgf-sz-zero.sgf", "sgf-sz-zero.sgf:1:16: error: SZ[0]"),
    ] {
        let o = morrigo(&["replay", "jk-final", "--sgf", &defect(file)]);
        assert_code(&o, 1);
        assert!(stderr(&o).contains(at), "{file}: {}", stderr(&o));
    }
    for (text, at) in [
        ("(;GM[1]FF[4]SZ[-5];B[cc])", "g.sgf:1:16: error: SZ[-5]"),
        (
            "(;GM[1]FF[4]SZ[5];b[cc])",
            "g.sgf:1:19: error: malformed SGF: `b`",
        ),
        (
            "(;GM[1]FF[4]SZ[5]KM[inf];B[cc])",
            "g.sgf:1:21: error: KM[inf]",
        ),
    ] {
        let f = temp_file("values", "g.sgf", text);
        let o = morrigo(&["replay", "jk-final", "--sgf", &f]);
        assert_code(&o, 1);
        assert!(stderr(&o).contains(at), "{text}: {}", stderr(&o));
    }
}

/// Defect 8: SGF variations nested 150,000 deep overflowed the stack
/// (exit 134). The reader is iterative: the file is read, and its error
/// (two black moves in a row) is reported.
#[test]
fn sgf_nested_150000_deep_is_an_error_not_a_crash() {
    let n = 150_000;
    let text = format!("(;GM[1]FF[4]SZ[5]{}{})", "(;B[cc]".repeat(n), ")".repeat(n));
    let f = temp_file("deep", "deep.sgf", &text);
    let o = morrigo(&["replay", "jk-final", "--sgf", &f]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("move 2 (B[cc]): black plays out of turn"),
        "{}",
        stderr(&o).chars().take(300).collect::<String>()
    );
}

/// Defect 14: Morris games cannot be SGF (`GM[1]` is Go and SGF defines no
/// Morris move format): refused with a message that says what to use.
#[test]
fn sgf_of_a_morris_game_is_refused_clearly() {
    let out = scratch_dir("morris-sgf")
        .join("m.sgf")
        .display()
        .to_string();
    let o = morrigo(&[
        "replay",
        "nine-mens-morris",
        "--moves",
        "a1 d2",
        "--to-sgf",
        &out,
    ]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("has no board plays"), "{err}");
    assert!(err.contains("move records"), "{err}");
    let f = temp_file("morris-gm", "g.sgf", "(;GM[5]FF[4];W[a1])");
    let o = morrigo(&["replay", "jk-final", "--sgf", &f]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("g.sgf:1:6: error: GM[5]: the file is not a Go game"),
        "{}",
        stderr(&o)
    );
}

// ----- komi ------------------------------------------------------------------

/// Defect 6: `--komi NaN` / `--komi inf` were accepted and scores printed
/// NaN. The flag is a usage error (exit 2).
#[test]
fn komi_must_be_finite() {
    for k in ["NaN", "nan", "inf", "-inf", "infinity", "abc"] {
        let komi = format!("--komi={k}");
        let o = morrigo(&["show", "tromp-taylor", "--size", "5", &komi]);
        assert_code(&o, 2);
        assert!(stderr(&o).contains("--komi"), "{k}: {}", stderr(&o));
    }
    let o = morrigo(&[
        "replay",
        "tromp-taylor",
        "--size",
        "5",
        "--komi",
        "-2.5",
        "--moves",
        "C3 pass pass",
        "--json",
    ]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        !out.contains("NaN") && !out.contains("null,\n    \"score"),
        "{out}"
    );
}

// ----- --position -----------------------------------------------------------

/// Defect 7: `--position "a1 resign"` was ignored by perft, show and
/// states. One start path honours it: the game is over.
#[test]
fn a_finished_position_is_finished_for_every_command() {
    let o = morrigo(&["perft", "three-mens-morris", "3", "--position", "a1 resign"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("the game is over: white wins by resignation"),
        "{out}"
    );
    for d in 1..=3 {
        assert!(out.contains(&format!("    {d}               0")), "{out}");
    }
    let o = morrigo(&["states", "three-mens-morris", "--position", "a1 resign"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("positions  1\n"), "{out}");
    assert!(out.contains("boards     1\n"), "{out}");
    let o = morrigo(&["show", "three-mens-morris", "--position", "a1 resign"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("game over: white wins by resignation"),
        "{out}"
    );
    assert!(!out.contains("legal:"), "{out}");
    // A game ended by a rule: the same, with the rule.
    let o = morrigo(&[
        "perft",
        "three-mens-morris",
        "2",
        "--position",
        "a1 a2 b1 b2 c1",
    ]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("line_made"), "{}", stdout(&o));
}

// ----- notation --------------------------------------------------------------

/// Defect 15: `g1xd2xb4` (a move and two removals) failed with "unknown
/// point `d2xb4`". g1 completes two mills here (a1 d1 g1 and g1 g4 g7),
/// and the ruleset owes one removal per mill.
#[test]
fn a_move_with_two_removals_is_one_token() {
    let o = morrigo(&[
        "replay",
        "nine-mens-morris-remove-per-mill",
        "--moves",
        "a1 b2 d1 d2 g4 e3 g7 c5 g1xb2xd2",
    ]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("completes 2 lines: removes 2"), "{out}");
    assert!(out.contains("xb2") && out.contains("xd2"), "{out}");
    // One removal too many: located at its own `x`.
    let o = morrigo(&[
        "replay",
        "nine-mens-morris",
        "--moves",
        "a1 d2 d1 b4 g1xd2xb4",
    ]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("--moves:1:18: error: ply 7: `g1xd2` already made"),
        "{err}"
    );
}

/// Defect 15: `g1xd2` where g1 forms no line said "black cannot play `xd2`".
#[test]
fn a_removal_after_a_move_that_forms_no_line_says_so() {
    let o = morrigo(&["replay", "nine-mens-morris", "--moves", "a1 d2 g1xd2"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(
            "--moves:1:9: error: ply 4: `g1` completes no line, so no removal is owed: `xd2` cannot follow it"
        ),
        "{err}"
    );
    assert!(!err.contains("black cannot play"), "{err}");
}

// ----- long records ----------------------------------------------------------

/// A legal game of slides: six placements, then the same four slides.
fn slides(cycles: usize) -> String {
    let mut text = String::from("a1 b1 b3 a2 c2 c3");
    for _ in 0..cycles {
        text.push_str(" c2-c1 a2-a3 c1-c2 a3-a2");
    }
    text
}

/// Defect 11: a 100,000-move record took 57 s (each token's position was
/// found by rescanning). A million moves replay in seconds.
#[test]
fn a_million_moves_replay_in_linear_time() {
    let f = temp_file("million", "game.txt", &slides(249_998));
    let ruleset = defect("three-mens-morris-long-games.yaml");
    let started = Instant::now();
    let o = morrigo(&["replay", &ruleset, "--file", &f]);
    let secs = started.elapsed().as_secs_f64();
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("999998. black  a3-a2"),
        "{}",
        &out[out.len() - 500..]
    );
    assert!(out.contains("result: ongoing"));
    // Quadratic work would take hours; linear work takes seconds.
    assert!(secs < 120.0, "a million moves took {secs:.1} s");
}

/// The record-length limit: past 1,000,000 moves, a located error naming it.
#[test]
fn a_record_past_the_limit_is_refused() {
    let f = temp_file("over-limit", "game.txt", &slides(250_000));
    let o = morrigo(&[
        "replay",
        &defect("three-mens-morris-long-games.yaml"),
        "--file",
        &f,
    ]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(
            "error: the record has 1000006 moves, more than the limit of 1000000 moves per record"
        ),
        "{}",
        err.chars().take(300).collect::<String>()
    );
    assert!(err.starts_with(&format!("{f}:1:")), "{}", &err[..200]);
}

/// Defect 11: 10,000 scenarios in one file took over 120 s.
#[test]
fn ten_thousand_scenarios_run_in_linear_time() {
    let mut text = String::from("ruleset: three-mens-morris\nscenarios:\n");
    for i in 0..10_000 {
        text.push_str(&format!(
            "  - name: scenario {i}\n    rule: a line wins\n    moves: a1 a2 b1 b2 c1\n    expect:\n      result: white wins\n      reason: line_made\n"
        ));
    }
    let f = temp_file("scenarios", "many.yaml", &text);
    let started = Instant::now();
    let o = morrigo(&["test", &f]);
    let secs = started.elapsed().as_secs_f64();
    assert_code(&o, 0);
    assert!(stdout(&o).contains("10000 passed, 0 failed"));
    assert!(secs < 60.0, "10,000 scenarios took {secs:.1} s");
}

// ----- morrigo test DIR -------------------------------------------------------

/// Defect 12: `morrigo test DIR` followed symbolic-link loops without end,
/// and reported every ruleset in DIR as a broken scenario file.
#[cfg(unix)]
#[test]
fn test_dir_ends_symlink_loops_and_skips_rulesets() {
    let dir = scratch_dir("symlinks");
    let src = root().join(defect("scenario-dir-with-ruleset"));
    for name in ["three-mens-morris.yaml", "ruleset-extends-itself.yaml"] {
        std::fs::copy(src.join(name), dir.join(name)).unwrap();
    }
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("sub").join("loop")).unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("self")).unwrap();
    let o = morrigo(&["test", &dir.display().to_string()]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("1 scenario file(s): 1 passed, 0 failed"),
        "{out}"
    );
    assert!(
        out.contains("ruleset-extends-itself.yaml: skipped: a ruleset, not a scenario file"),
        "{out}"
    );
    // The project's own directory with a ruleset next to a scenario file.
    let o = morrigo(&["test", &defect("scenario-dir-with-ruleset")]);
    assert_code(&o, 0);
}

// ----- long commands -------------------------------------------------------

/// Defect 13: `perft` and `bench` ran trees of ~6·10^12 nodes. A tree
/// estimated past `--max-nodes` is refused at once (exit 1), saying how to
/// raise the limit; `bench`'s default depth fits the board.
#[test]
fn perft_refuses_a_tree_past_its_limit_and_bench_fits_the_board() {
    let started = Instant::now();
    let o = morrigo(&["perft", "jk-final", "5"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("error: perft jk-final 5: the tree has an estimated"),
        "{err}"
    );
    assert!(err.contains("--max-nodes"), "{err}");
    assert!(started.elapsed().as_secs() < 30);
    let o = morrigo(&["perft", "nine-mens-morris", "4", "--max-nodes", "1000"]);
    assert_code(&o, 1);
    let o = morrigo(&["perft", "nine-mens-morris", "4"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("255024"), "{}", stdout(&o));
    let o = morrigo(&["bench", "jk-final", "--games", "2"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("  perft 2: 131045 nodes"), "{out}");
    let o = morrigo(&["bench", "jk-final", "--games", "1", "--perft-depth", "5"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("--max-nodes"), "{}", stderr(&o));
}

/// Defect 13: `states` grew past the machine's memory with no output.
/// Past `--max-memory` it stops with a clear error and lower bounds.
#[test]
fn states_stops_before_the_memory_limit() {
    let o = morrigo(&["states", "nine-mens-morris", "--max-memory", "40M"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("error: states nine-mens-morris: stopped after"),
        "{err}"
    );
    assert!(
        err.contains("more than the limit of 40.0 MiB (--max-memory)"),
        "{err}"
    );
    let out = stdout(&o);
    assert!(out.contains("stopped by the memory limit"), "{out}");
    let o = morrigo(&[
        "states",
        "tromp-taylor",
        "--size",
        "2",
        "--max-memory",
        "40M",
    ]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("boards     57"), "{}", stdout(&o));
    let o = morrigo(&["states", "tromp-taylor", "--max-memory", "12Q"]);
    assert_code(&o, 2);
}

/// Defect 13: `perft` printed nothing inside a depth. `--progress` shows
/// progress on stderr (plain lines when stderr is not a terminal).
#[test]
fn perft_progress_on_request() {
    let o = morrigo(&["perft", "nine-mens-morris", "2", "--progress"]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(err.contains("perft depth 2: 24/24"), "{err}");
    let o = morrigo(&["perft", "nine-mens-morris", "2"]);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

// ----- help ------------------------------------------------------------------

/// Defect 20: help examples named a point and a file that do not exist.
#[test]
fn help_examples_exist() {
    let o = morrigo(&["test", "--help"]);
    let help = stdout(&o);
    for line in help
        .lines()
        .filter(|l| l.trim_start().starts_with("morrigo test "))
    {
        let path = line.trim_start().trim_start_matches("morrigo test ").trim();
        assert!(root().join(path).exists(), "`{path}` in test --help");
    }
    let o = morrigo(&["play", "--help"]);
    let help = stdout(&o);
    let line = help
        .lines()
        .find(|l| l.contains("play three-mens-morris"))
        .expect("a Three Men's Morris example");
    let point = line.split('\'').nth(1).unwrap().split('\\').next().unwrap();
    let o = morrigo(&["replay", "three-mens-morris", "--moves", point]);
    assert_code(&o, 0);
}

/// Defect 13, `simulate`: a sampled game measures the memory one game holds;
/// games that together would pass `--max-memory` are refused before they
/// start, with the ways out.
#[test]
fn simulate_refuses_what_would_not_fit_in_memory() {
    let o = morrigo(&[
        "simulate",
        "jk-final",
        "--size",
        "5",
        "--games",
        "4",
        "--max-memory",
        "1K",
    ]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("error: simulate jk-final:"), "{err}");
    assert!(
        err.contains("more than the memory limit of 1.0 KiB (--max-memory)"),
        "{err}"
    );
    assert!(err.contains("--threads N"), "{err}");
    let o = morrigo(&[
        "simulate",
        "jk-final",
        "--size",
        "5",
        "--games",
        "4",
        "--max-memory",
        "64M",
    ]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("4 games"), "{}", stdout(&o));
}

/// The record-length limit holds for SGF games too: refused at the first
/// move past it, in the SGF file.
#[test]
fn an_sgf_game_past_the_record_limit_is_refused() {
    let text = format!("(;GM[1]FF[4]SZ[5]{})", ";B[]PK[P];W[]PK[P]".repeat(500_001));
    let f = temp_file("sgf-limit", "long.sgf", &text);
    let o = morrigo(&["replay", "jk-final", "--sgf", &f]);
    assert_code(&o, 1);
    let err = stderr(&o);
    let head: String = err.chars().take(300).collect();
    assert!(
        head.contains("error: move 1000001: the game has 1000002 moves, more than the limit of 1000000 moves per record"),
        "{head}"
    );
    assert!(head.starts_with(&format!("{f}:1:")), "{head}");
}

// ----- scenario files: messages ----------------------------------------------

/// A misspelt key inside a one-entry `illegal:` is named at its place with
/// the keys it could have been (it used to be "a mapping is not accepted
/// here", pointing at the whole entry).
#[test]
fn a_misspelt_key_in_a_scenario_is_named_where_it_is() {
    let o = morrigo(&["test", &defect("scenario-typo-in-illegal.yaml")]);
    assert_code(&o, 1);
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        out.contains("scenario-typo-in-illegal.yaml:8:28: error: `scenarios[0].expect.illegal`: unknown key `resaon`"),
        "{out}"
    );
    assert!(
        out.contains("expected one of `move`, `reason_contains`"),
        "{out}"
    );
}

/// A wrong value where a mapping belongs says so in the file's terms, not
/// with the name of a Rust type.
#[test]
fn a_wrong_entry_in_a_scenario_names_no_rust_type() {
    let path = temp_file(
        "wrong-entry",
        "s.yaml",
        "ruleset: jk-final\nscenarios:\n  - name: a\n    rule: b\n    moves: C3\n    expect: { illegal: [C3] }\n",
    );
    let o = morrigo(&["test", &path]);
    assert_code(&o, 1);
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        out.contains(
            "s.yaml:6:25: error: `scenarios[0].expect.illegal[0]`: found the string \"C3\""
        ),
        "{out}"
    );
    assert!(out.contains("expected a mapping"), "{out}");
    assert!(!out.contains("struct"), "{out}");
}
