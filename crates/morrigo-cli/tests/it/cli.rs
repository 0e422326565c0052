//! The `morrigo` binary, run as a user runs it: arguments in, text and an
//! exit status out (0 ok, 1 rule or game error, 2 usage error).

use std::path::Path;
use std::process::{Command, Output};

use crate::common::{assert_code, stderr, stdout, temp_file};

fn morrigo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args(args)
        .output()
        .expect("the morrigo binary runs")
}

/// Run with `input` on stdin, in the directory the tests run in.
fn morrigo_stdin(args: &[&str], input: &str) -> Output {
    crate::common::piped_in(Path::new("."), args, input)
}

const MORRIS_TITLES: [&str; 20] = [
    "Achi",
    "Five Men's Morris",
    "Seven Men's Morris",
    "Cheng San Qi",
    "Da San Qi",
    "Dooz",
    "Dara",
    "Lasker Morris",
    "Morabaraba",
    "Nerenchi",
    "Nine Men's Morris, no flying",
    "Nine Men's Morris, one removal per mill",
    "Nine Men's Morris",
    "Picaria",
    "Russian Mill",
    "Six Men's Morris",
    "Tapatan",
    "Three Men's Morris",
    "Twelve Men's Morris",
    "Zhi Qi",
];

// ----- usage errors (2) -------------------------------------------------------

#[test]
fn no_command_or_unknown_options_are_usage_errors() {
    assert_code(&morrigo(&[]), 2);
    assert_code(&morrigo(&["frobnicate"]), 2);
    assert_code(&morrigo(&["check"]), 2);
    assert_code(&morrigo(&["show"]), 2);
    assert_code(&morrigo(&["replay", "nine-mens-morris"]), 2);
    assert_code(&morrigo(&["perft", "nine-mens-morris"]), 2);
    assert_code(&morrigo(&["perft", "nine-mens-morris", "x"]), 2);
    assert_code(&morrigo(&["perft", "nine-mens-morris", "0"]), 2);
    assert_code(
        &morrigo(&["perft", "nine-mens-morris", "2", "--unit", "move"]),
        2,
    );
    assert_code(
        &morrigo(&["play", "nine-mens-morris", "--agent", "smart"]),
        2,
    );
    assert_code(
        &morrigo(&["simulate", "nine-mens-morris", "--games", "0"]),
        2,
    );
    assert_code(
        &morrigo(&["simulate", "nine-mens-morris", "--agents", "random,clever"]),
        2,
    );
    assert_code(&morrigo(&["compare", "--format", "xml"]), 2);
    assert_code(&morrigo(&["test"]), 2);
    assert_code(&morrigo(&["bench", "--games", "many"]), 2);
    assert_code(&morrigo(&["rulesets", "extra"]), 2);
}

#[test]
fn play_as_a_player_the_ruleset_lacks_is_a_usage_error() {
    let o = morrigo_stdin(&["play", "nine-mens-morris", "--as", "purple"], "quit\n");
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("`purple` is not a player"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("white, black"), "{}", stderr(&o));
}

#[test]
fn help_works_for_every_command() {
    assert_code(&morrigo(&["--help"]), 0);
    assert_code(&morrigo(&["--version"]), 0);
    for cmd in [
        "check", "show", "replay", "perft", "play", "simulate", "compare", "test", "bench",
        "rulesets", "states",
    ] {
        let o = morrigo(&[cmd, "--help"]);
        assert_code(&o, 0);
        assert!(
            stdout(&o).contains("Examples:"),
            "{cmd} --help:\n{}",
            stdout(&o)
        );
    }
}

#[test]
fn top_level_help() {
    let o = morrigo(&["--help"]);
    assert_code(&o, 0);
    insta::assert_snapshot!("help", stdout(&o));
}

// ----- rulesets, check, show --------------------------------------------------

#[test]
fn rulesets_lists_the_built_ins_with_titles() {
    let o = morrigo(&["rulesets"]);
    assert_code(&o, 0);
    let text = stdout(&o);
    for title in MORRIS_TITLES {
        assert!(text.contains(title), "{title} missing:\n{text}");
    }
    assert!(text.contains("nine-mens-morris "), "{text}");
}

#[test]
fn check_a_good_ruleset() {
    let o = morrigo(&["check", "nine-mens-morris", "three-mens-morris"]);
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o),
        "ok: nine-mens-morris (24 points, 16 lines, 4 end rules)\n\
         ok: three-mens-morris (9 points, 8 lines, 3 end rules)\n"
    );
}

#[test]
fn check_a_bad_ruleset_prints_file_line_col_and_exits_1() {
    let path = temp_file(
        "bad-key.yaml",
        "name: bad\nextends: nine-mens-morris\nphases:\n  placing:\n    wen: \"true\"\n",
    );
    let path = path.to_string_lossy().into_owned();
    let o = morrigo(&["check", "nine-mens-morris", &path]);
    assert_code(&o, 1);
    assert!(
        stdout(&o).contains("ok: nine-mens-morris"),
        "{}",
        stdout(&o)
    );
    let err = stderr(&o);
    assert!(err.contains(&format!("{path}:5:5: error:")), "{err}");
    assert!(err.contains("unknown key `wen`"), "{err}");
    assert!(err.contains("did you mean `when`?"), "{err}");
    assert!(err.contains('^'), "the caret under the column: {err}");
}

#[test]
fn check_reports_a_bad_rule_expression_at_its_place() {
    let path = temp_file(
        "bad-expr.yaml",
        "name: bad-expr\nextends: nine-mens-morris\nend:\n  blocked:\n    lose: \"no_legal_moves\"\n",
    );
    let path = path.to_string_lossy().into_owned();
    let o = morrigo(&["check", &path]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains(&format!("{path}:5:")), "{err}");
    assert!(err.contains("no_legal_moves"), "{err}");
}

#[test]
fn check_a_directory_of_rulesets() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/morris");
    let o = morrigo(&["check", dir]);
    assert_code(&o, 0);
    let files = std::fs::read_dir(dir)
        .expect("rulesets/morris")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "yaml"))
        })
        .count();
    assert_eq!(stdout(&o).lines().count(), files, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("ok: morabaraba (24 points, 20 lines"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn check_of_a_missing_file_is_a_rule_error() {
    let o = morrigo(&["check", "no-such-ruleset.yaml"]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("error: no ruleset file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn show_nine_mens_morris() {
    let o = morrigo(&["show", "nine-mens-morris"]);
    assert_code(&o, 0);
    insta::assert_snapshot!("show_nine_mens_morris", stdout(&o));
}

#[test]
fn show_after_a_position() {
    let o = morrigo(&[
        "show",
        "nine-mens-morris",
        "--position",
        "a1 d2 d1 b4 g1xd2",
    ]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("1 W-----------W-----------W"), "{text}");
    assert!(text.contains("black to move, phase placing"), "{text}");
    let o = morrigo(&["show", "nine-mens-morris", "--position", "a1 a1"]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("--position:1:4: error"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty(), "nothing printed on error");
    assert_code(&morrigo(&["show", "no-such-ruleset"]), 1);
}

// ----- replay -----------------------------------------------------------------

/// The worked position of source PY (rulesets/morris/RULES.md): White has a1 and d1, places g1 to form
/// a1-d1-g1 and removes Black's d2 before Black moves.
const WORKED: &str = "a1 d2 d1 b4 g1xd2";

#[test]
fn replay_the_worked_position() {
    let o = morrigo(&["replay", "nine-mens-morris", "--moves", WORKED]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("completes a line"), "{text}");
    assert!(text.contains("xd2"), "{text}");
    assert!(text.contains("result: ongoing, black to move"), "{text}");
}

#[test]
fn replay_from_a_file() {
    let path = temp_file("record.txt", "1. a1 d2\n2. d1 b4\n3. g1 xd2\n");
    let o = morrigo(&[
        "replay",
        "nine-mens-morris",
        "--file",
        &path.to_string_lossy(),
    ]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("xd2"), "{}", stdout(&o));
    assert_code(
        &morrigo(&["replay", "nine-mens-morris", "--file", "/no/such/record"]),
        1,
    );
}

#[test]
fn replay_json_has_the_specified_shape() {
    let o = morrigo(&["replay", "nine-mens-morris", "--moves", WORKED, "--json"]);
    assert_code(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    let plies = v["plies"].as_array().expect("plies is an array");
    assert_eq!(plies.len(), 6, "a removal is a ply of its own");
    let expected = [
        ("white", "a1", "placing"),
        ("black", "d2", "placing"),
        ("white", "d1", "placing"),
        ("black", "b4", "placing"),
        ("white", "g1", "placing"),
        ("white", "xd2", "remove"),
    ];
    for (i, (ply, (player, mv, phase))) in plies.iter().zip(expected).enumerate() {
        let obj = ply.as_object().expect("a ply is an object");
        for key in ["n", "player", "move", "phase"] {
            assert!(obj.contains_key(key), "ply {i} lacks `{key}`: {ply}");
        }
        // `note` is the only optional key a ply may add.
        for key in obj.keys() {
            assert!(
                ["n", "player", "move", "phase", "note"].contains(&key.as_str()),
                "unexpected key `{key}` in {ply}"
            );
        }
        assert_eq!(ply["n"], i + 1);
        assert_eq!(ply["player"], player);
        assert_eq!(ply["move"], mv);
        assert_eq!(ply["phase"], phase);
    }
    let result = v["result"].as_object().expect("result is an object");
    for key in ["status", "winner", "reason"] {
        assert!(result.contains_key(key), "result lacks `{key}`: {v}");
    }
    assert_eq!(v["result"]["status"], "ongoing");
    assert!(v["result"]["winner"].is_null());
    assert!(v["result"]["reason"].is_null());
}

#[test]
fn replay_json_of_a_finished_game_names_winner_and_reason() {
    // Three Men's Morris: white completes a1-b2-c3 while placing.
    let o = morrigo(&[
        "replay",
        "three-mens-morris",
        "--moves",
        "a1 a2 b2 a3 c3",
        "--json",
    ]);
    assert_code(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["result"]["status"], "over", "{v}");
    assert_eq!(v["result"]["winner"], "white", "{v}");
    assert!(v["result"]["reason"].is_string(), "{v}");
}

#[test]
fn replay_of_an_illegal_move_is_located_and_keeps_the_transcript() {
    let o = morrigo(&["replay", "nine-mens-morris", "--moves", "a1 d2 d1 b4 g1 d3"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    // `d3` is the 6th token, at column 16: White still owes a removal.
    assert!(err.contains("--moves:1:16: error"), "{err}");
    assert!(err.contains("remove"), "{err}");
    assert!(err.contains("rule:") || err.contains("= "), "{err}");
    assert!(err.contains("5. white  g1"), "transcript so far: {err}");
    assert!(stdout(&o).is_empty());

    let o = morrigo(&["replay", "nine-mens-morris", "--moves", "a1 zz9"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("--moves:1:4: error"), "{}", stderr(&o));
}

// ----- perft ------------------------------------------------------------------

#[test]
fn perft_counts_match_the_published_figures() {
    let o = morrigo(&["perft", "nine-mens-morris", "3"]);
    assert_code(&o, 0);
    let text = stdout(&o);
    for n in ["24", "552", "12144"] {
        assert!(text.contains(n), "{n} missing:\n{text}");
    }
    assert!(text.contains("nodes/s"), "{text}");
}

#[test]
fn perft_divide_lists_first_moves_and_the_total() {
    let o = morrigo(&["perft", "nine-mens-morris", "2", "--divide"]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("a1: 23\n"), "{text}");
    assert!(text.contains("total: 552\n"), "{text}");
    // Turn units: a move and its removal are one first move.
    let o = morrigo(&[
        "perft",
        "nine-mens-morris",
        "1",
        "--divide",
        "--unit",
        "turn",
        "--position",
        "a1 d2 d1 b4",
    ]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("g1xd2: 1\n"), "{text}");
    assert!(text.contains("g1xb4: 1\n"), "{text}");
    assert_code(&morrigo(&["perft", "nope", "2"]), 1);
}

// ----- play -------------------------------------------------------------------

#[test]
fn play_through_a_pipe_explains_refusals_and_quits() {
    let o = morrigo_stdin(
        &[
            "play",
            "nine-mens-morris",
            "--agent",
            "random",
            "--seed",
            "7",
        ],
        "help\nzz\nd1\nd1\nd1-d2\nquit\n",
    );
    assert_code(&o, 0);
    let out = stdout(&o);
    let err = stderr(&o);
    assert!(out.contains("white to move, phase placing"), "{out}");
    assert!(out.contains("legal: a1 d1 g1"), "{out}");
    assert!(out.contains("d1-d2     move the piece"), "help text: {out}");
    assert!(out.contains("black plays"), "the agent replied: {out}");
    assert!(out.contains("game left unfinished"), "{out}");
    assert!(err.contains("unknown point `zz`"), "{err}");
    assert!(
        err.contains("white cannot play `d1`: d1 is occupied"),
        "{err}"
    );
    // Sliding while placing: the refusal names the phase.
    assert!(err.contains("cannot play `d1-d2`"), "{err}");
    assert!(err.contains("placing"), "{err}");
}

#[test]
fn play_to_the_end_through_a_pipe() {
    // Offer every point, many times: each line is either played or refused,
    // so the game goes on until it ends (or the input runs out).
    let points = "a1 b2 c3 a2 b1 c1 a3 b3 c2 ";
    let mut input = String::new();
    for _ in 0..60 {
        for p in points.split_whitespace() {
            input += p;
            input.push('\n');
        }
        for a in ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"] {
            for b in ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"] {
                if a != b {
                    input += &format!("{a}-{b}\n");
                }
            }
        }
    }
    let o = morrigo_stdin(
        &[
            "play",
            "three-mens-morris",
            "--agent",
            "greedy",
            "--seed",
            "3",
        ],
        &input,
    );
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("game over:") || out.contains("end of input"),
        "{out}"
    );
}

#[test]
fn play_ends_cleanly_at_end_of_input() {
    let o = morrigo_stdin(
        &["play", "nine-mens-morris", "--as", "black", "--seed", "1"],
        "",
    );
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("white plays"), "the agent opened: {out}");
    assert!(out.contains("end of input"), "{out}");
}

#[test]
fn play_reports_the_end_rule() {
    // As black against a random agent, keep offering moves until it ends.
    let mut input = String::new();
    for _ in 0..200 {
        for p in ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"] {
            input += p;
            input.push('\n');
            for q in ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"] {
                if p != q {
                    input += &format!("{p}-{q}\n");
                }
            }
        }
    }
    let o = morrigo_stdin(
        &[
            "play",
            "three-mens-morris",
            "--as",
            "black",
            "--agent",
            "greedy",
            "--seed",
            "5",
        ],
        &input,
    );
    assert_code(&o, 0);
    let out = stdout(&o);
    if out.contains("game over:") {
        assert!(out.contains("by end rule `"), "{out}");
        assert!(out.contains("record: "), "{out}");
    }
}

// ----- simulate, compare, bench, test -----------------------------------------

#[test]
fn simulate_summarises_wins_draws_and_end_rules() {
    let o = morrigo(&[
        "simulate",
        "nine-mens-morris",
        "--games",
        "20",
        "--seed",
        "1",
    ]);
    assert_code(&o, 0);
    let text = stdout(&o);
    for s in [
        "white wins",
        "black wins",
        "draws",
        "mean length",
        "too_few_pieces",
        "games/s",
    ] {
        assert!(text.contains(s), "{s} missing:\n{text}");
    }
    assert!(
        stderr(&o).is_empty(),
        "no progress bar on a pipe: {}",
        stderr(&o)
    );
}

#[test]
fn simulate_json_is_reproducible() {
    let args = [
        "simulate",
        "six-mens-morris",
        "--games",
        "30",
        "--seed",
        "9",
        "--agents",
        "greedy,random",
        "--max-plies",
        "300",
        "--json",
    ];
    let a: serde_json::Value = serde_json::from_slice(&morrigo(&args).stdout).expect("JSON");
    let b: serde_json::Value = serde_json::from_slice(&morrigo(&args).stdout).expect("JSON");
    assert_eq!(a["games"], 30);
    assert_eq!(a["agents"], serde_json::json!(["greedy", "random"]));
    assert_eq!(a["wins"], b["wins"]);
    assert_eq!(a["end_rules"], b["end_rules"]);
    assert_code(
        &morrigo(&["simulate", "no-such-ruleset", "--games", "5"]),
        1,
    );
}

#[test]
fn compare_every_builtin_morris_ruleset() {
    let o = morrigo(&["compare", "--games", "2"]);
    assert_code(&o, 0);
    let text = stdout(&o);
    for title in MORRIS_TITLES {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("| {title} "))),
            "no row for {title}:\n{text}"
        );
    }
}

#[test]
fn compare_named_rulesets_as_csv_and_json() {
    let o = morrigo(&[
        "compare",
        "nine-mens-morris",
        "nine-mens-morris-no-flying",
        "--games",
        "10",
        "--format",
        "csv",
    ]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 3, "a header and two rows:\n{text}");
    let o = morrigo(&[
        "compare",
        "three-mens-morris",
        "--games",
        "10",
        "--format",
        "json",
    ]);
    assert_code(&o, 0);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v.as_array().map(Vec::len), Some(1));
    let bad = temp_file("bad-compare.yaml", "name: [\n");
    let o = morrigo(&["compare", "nine-mens-morris", &bad.to_string_lossy()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("bad-compare.yaml:"), "{}", stderr(&o));
}

#[test]
fn bench_measures_playouts_and_perft() {
    let o = morrigo(&["bench", "--games", "20", "--perft-depth", "3"]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("games/s"), "{text}");
    assert!(text.contains("perft 3: 12144 nodes"), "{text}");
}

#[test]
fn test_runs_scenario_files() {
    let good = temp_file(
        "good.scenarios.yaml",
        "ruleset: nine-mens-morris\n\
         scenarios:\n\
         \x20 - name: a mill by placing removes before the opponent moves\n\
         \x20   rule: seed 003 worked position\n\
         \x20   moves: a1 d2 d1 b4 g1\n\
         \x20   expect:\n\
         \x20     to_move: white\n\
         \x20     legal_includes: [xd2]\n",
    );
    let o = morrigo(&["test", &good.to_string_lossy()]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("1 passed, 0 failed"), "{}", stdout(&o));

    let failing = temp_file(
        "failing.scenarios.yaml",
        "ruleset: nine-mens-morris\n\
         scenarios:\n\
         \x20 - name: a wrong expectation\n\
         \x20   rule: black moves right after the mill (it does not)\n\
         \x20   moves: a1 d2 d1 b4 g1\n\
         \x20   expect:\n\
         \x20     to_move: black\n",
    );
    let o = morrigo(&["test", &failing.to_string_lossy()]);
    assert_code(&o, 1);
    assert!(stdout(&o).contains("FAIL"), "{}", stdout(&o));

    let o = morrigo(&["test", "/no/such/scenarios"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("error:"), "{}", stderr(&o));
}

// ----- --size and --komi -------------------------------------------------------

#[test]
fn size_and_komi_are_accepted_by_every_ruleset_command() {
    let runs: [&[&str]; 8] = [
        &["check", "jk-final"],
        &["show", "jk-final"],
        &["replay", "jk-final", "--moves", "C3 D3"],
        &["perft", "jk-final", "2"],
        &["states", "jk-final", "--limit", "100"],
        &["simulate", "jk-final", "--games", "5"],
        &["compare", "jk-final", "tromp-taylor", "--games", "5"],
        &["bench", "jk-final", "--games", "5", "--perft-depth", "1"],
    ];
    for args in runs {
        let mut full = args.to_vec();
        full.extend(["--size", "7x5", "--komi", "-2.5"]);
        assert_code(&morrigo(&full), 0);
    }
    let o = morrigo(&["show", "jk-final", "--size", "7x5"]);
    assert!(
        stdout(&o).contains("  A   B   C   D   E   F   G"),
        "{}",
        stdout(&o)
    );
    let o = morrigo_stdin(
        &["play", "jk-final", "--size", "7x5", "--agent", "random"],
        "quit\n",
    );
    assert_code(&o, 0);
}

#[test]
fn malformed_sizes_are_usage_errors() {
    for bad in ["0", "26", "x", "9x", "7x0", "nine"] {
        let o = morrigo(&["show", "jk-final", "--size", bad]);
        assert_code(&o, 2);
        assert!(stderr(&o).contains("--size"), "{bad}: {}", stderr(&o));
    }
    assert_code(&morrigo(&["show", "jk-final", "--size", "-3"]), 2);
    assert_code(&morrigo(&["show", "jk-final", "--komi", "lots"]), 2);
}

#[test]
fn size_on_a_board_that_is_not_a_grid_and_komi_without_scoring_are_usage_errors() {
    let o = morrigo(&["show", "nine-mens-morris", "--size", "9"]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("--size applies to grid boards"),
        "{}",
        stderr(&o)
    );
    assert_code(
        &morrigo(&["perft", "nine-mens-morris", "1", "--size", "9"]),
        2,
    );
    assert_code(&morrigo(&["check", "nine-mens-morris", "--size", "9"]), 2);
    // A file with its own error beside one that cannot take the flag: the
    // flag's misuse decides the exit code.
    assert_code(
        &morrigo(&[
            "check",
            "nine-mens-morris",
            "no-such-ruleset",
            "--size",
            "9",
        ]),
        2,
    );
    // Three men's morris is a grid, but has no scoring.
    let o = morrigo(&["show", "three-mens-morris", "--komi", "6.5"]);
    assert_code(&o, 2);
    assert!(stderr(&o).contains("no `scoring`"), "{}", stderr(&o));
    let o = morrigo(&[
        "replay",
        "tromp-taylor",
        "--size",
        "3",
        "--komi",
        "0.5",
        "--moves",
        "B2 pass pass",
        "--json",
    ]);
    assert_code(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["result"]["winner"], "black", "{v}");
}

// ----- states ---------------------------------------------------------------------

#[test]
fn states_counts_the_reachable_boards() {
    let o = morrigo(&["states", "tromp-taylor", "--size", "2"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("boards     57\n"), "{out}");
    assert!(out.contains("search     complete"), "{out}");
    let o = morrigo(&["states", "tromp-taylor", "--size", "3"]);
    assert!(stdout(&o).contains("boards     12675\n"), "{}", stdout(&o));
    let o = morrigo(&["states", "tromp-taylor", "--size", "3", "--limit", "500"]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("stopped at the limit of 500 positions"),
        "{}",
        stdout(&o)
    );
    assert_code(&morrigo(&["states", "tromp-taylor", "--limit", "0"]), 2);
    assert_code(&morrigo(&["states", "three-mens-morris"]), 0);
}

// ----- perft --to-end ------------------------------------------------------------

#[test]
fn perft_to_end_counts_finished_games_per_depth() {
    let o = morrigo(&["perft", "three-mens-morris", "6", "--to-end"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    // No line of three before the fifth placement.
    assert!(
        out.contains("    4               0               0            3024"),
        "{out}"
    );
    assert!(
        out.contains("    5            1440            1440           13680"),
        "{out}"
    );
    assert!(
        out.contains("    6            5328            6768           49392"),
        "{out}"
    );
    assert!(out.contains("by end rule `line_made`: 6768"), "{out}");
    // Go: two ending passes end a game at depth 2.
    let o = morrigo(&["perft", "jk-final", "4", "--size", "2", "--to-end"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("    2               1               1"),
        "{out}"
    );
    assert!(out.contains("by end rule `ending_sequence`"), "{out}");
    assert_code(
        &morrigo(&["perft", "jk-final", "2", "--to-end", "--divide"]),
        2,
    );
}

// ----- Go replay ------------------------------------------------------------------

#[test]
fn replay_go_json_has_classes_d_and_legal_passes() {
    let o = morrigo(&[
        "replay",
        "jk-final",
        "--size",
        "5",
        "--json",
        "--moves",
        "C3 D3 pass:E pass:E",
    ]);
    assert_code(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let plies = v["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), 4);
    assert_eq!(plies[0]["move"], "C3");
    assert_eq!(plies[0]["class"], "N");
    assert_eq!(plies[0]["d"], false);
    assert_eq!(plies[0]["legal_passes"], serde_json::json!(["E"]));
    assert_eq!(plies[2]["class"], "E");
    assert_eq!(v["result"]["status"], "over");
    assert_eq!(v["result"]["reason"], "ending_sequence");
}

// ----- SGF ------------------------------------------------------------------------

#[test]
fn sgf_export_then_import_gives_the_same_game() {
    let out = temp_file("game.sgf", "");
    let o = morrigo(&[
        "replay",
        "jk-final",
        "--size",
        "5",
        "--moves",
        "C3 D3 C2 pass:E D2 pass:E pass:E",
        "--to-sgf",
        out.to_str().unwrap(),
    ]);
    assert_code(&o, 0);
    let text = std::fs::read_to_string(&out).expect("SGF written");
    assert!(text.starts_with("(;GM[1]FF[4]"), "{text}");
    for part in [
        "SZ[5]",
        "RU[jk-final]",
        "KM[0]",
        ";B[cc]",
        ";W[dc]",
        ";W[]PK[E]",
        "RE[",
    ] {
        assert!(text.contains(part), "{part} in {text}");
    }
    let back = morrigo(&[
        "replay",
        "jk-final",
        "--sgf",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_code(&back, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&back)).expect("JSON");
    let moves: Vec<&str> = v["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["move"].as_str().unwrap())
        .collect();
    assert_eq!(
        moves,
        ["C3", "D3", "C2", "pass:E", "D2", "pass:E", "pass:E"]
    );
    assert_eq!(v["result"]["status"], "over");
    // White resigns after one move: RE[B+R]; a rectangle as SZ[w:h].
    let o = morrigo(&[
        "replay",
        "tromp-taylor",
        "--size",
        "7x5",
        "--moves",
        "D3 resign",
        "--to-sgf",
        out.to_str().unwrap(),
    ]);
    assert_code(&o, 0);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("SZ[7:5]") && text.contains("RE[B+R]") && text.contains("KM[7.5]"),
        "{text}"
    );
    // --to-sgf on a Morris ruleset: a rule error before anything is written.
    let o = morrigo(&[
        "replay",
        "nine-mens-morris",
        "--moves",
        "d1",
        "--to-sgf",
        "/nonexistent/x.sgf",
    ]);
    assert_code(&o, 1);
}

#[test]
fn sgf_breaking_the_rules_is_reported_at_its_move() {
    let path = temp_file(
        "bad-move.sgf",
        "(;GM[1]FF[4]SZ[5]\n;B[cc];W[dc]\n;B[]PK[E];W[]PK[P])\n",
    );
    let o = morrigo(&["replay", "jk-final", "--sgf", path.to_str().unwrap()]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("bad-move.sgf:3:11: error: move 4 (W[]PK[P]):"),
        "{err}"
    );
    assert!(err.contains("no_normal_pass"), "{err}");
    // The size comes from SZ; a clashing --size is refused.
    let o = morrigo(&[
        "replay",
        "jk-final",
        "--size",
        "9",
        "--sgf",
        path.to_str().unwrap(),
    ]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("5x5 board"), "{}", stderr(&o));
    // Set-up stones are read (tests/records.rs); without `PL[W]` Black
    // still moves first.
    // Handicap stones with no `PL`: the first move says who moves first
    // (White, as in every handicap game); then the colours alternate.
    let setup = temp_file("setup.sgf", "(;SZ[5]AB[aa][ee];W[bb];B[cc])");
    let o = morrigo(&["replay", "jk-final", "--sgf", setup.to_str().unwrap()]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("1. white  B4"), "{}", stdout(&o));
    let setup = temp_file("setup-twice.sgf", "(;SZ[5]AB[aa];W[bb];W[cc])");
    let o = morrigo(&["replay", "jk-final", "--sgf", setup.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("move 2 (W[cc]): white plays out of turn"),
        "{}",
        stderr(&o)
    );
    let o = morrigo(&[
        "replay",
        "nine-mens-morris",
        "--sgf",
        path.to_str().unwrap(),
    ]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("no board plays"), "{}", stderr(&o));
}

#[test]
fn malformed_sgf_is_a_located_error_not_a_panic() {
    for (name, text, at) in [
        ("open.sgf", "(;SZ[5]\n;B[cc];W[dc", "open.sgf:2:9"),
        ("junk.sgf", "(;SZ[5];B[cc]%)", "junk.sgf:1:14"),
        ("empty.sgf", "", "empty.sgf:1:1"),
    ] {
        let path = temp_file(name, text);
        let o = morrigo(&["replay", "jk-final", "--sgf", path.to_str().unwrap()]);
        assert_code(&o, 1);
        let err = stderr(&o);
        assert!(
            err.contains(&format!("{at}: error: malformed SGF")),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let o = morrigo(&["replay", "jk-final", "--sgf", "/nonexistent/game.sgf"]);
    assert_code(&o, 1);
}

// ----- Go play -----------------------------------------------------------------

#[test]
fn play_go_through_a_pipe() {
    let sgf = temp_file("played.sgf", "");
    let o = morrigo_stdin(
        &[
            "play",
            "jk-final",
            "--size",
            "5",
            "--agent",
            "random",
            "--seed",
            "3",
            "--save-sgf",
            sgf.to_str().unwrap(),
        ],
        "C3\nzz\nC3\npass:P\nundo\nD4\npass:E\nresign\n",
    );
    assert_code(&o, 0);
    let out = stdout(&o);
    let err = stderr(&o);
    assert!(out.contains("black (B) to move, move 1"), "{out}");
    assert!(
        out.contains("legal: 25 board plays, pass:P, pass:E"),
        "{out}"
    );
    assert!(out.contains("last move class N (normal play)"), "{out}");
    assert!(
        out.contains("no pass:P (forbidden by `no_normal_pass`)"),
        "{out}"
    );
    assert!(out.contains("white: 0 captured, 1 pass stone"), "{out}");
    assert!(out.contains("took back your last move"), "{out}");
    assert!(
        out.contains("game over: white wins by resignation"),
        "{out}"
    );
    assert!(err.contains("unknown point `zz`"), "{err}");
    assert!(err.contains("C3 is occupied"), "{err}");
    assert!(err.contains("rule: `after('N | P | E | E C C')"), "{err}");
    let text = std::fs::read_to_string(&sgf).expect("SGF saved");
    assert!(
        text.contains(";B[db]") && text.contains("RE[W+R]"),
        "{text}"
    );
    assert!(
        !text.contains(";B[cc]"),
        "the undone move is not saved: {text}"
    );
}

#[test]
fn play_go_to_a_counted_end_shows_the_score() {
    let o = morrigo_stdin(
        &[
            "play", "jk-final", "--size", "2", "--agent", "random", "--seed", "1",
        ],
        "pass:E\npass:E\npass:E\npass:E\n",
    );
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("game over: white wins by end rule `ending_sequence`"),
        "{out}"
    );
    assert!(out.contains("score: black 1, white 5"), "{out}");
}

// ----- shell completions -----------------------------------------------------

/// `morrigo completions bash` completes subcommands and their options when
/// bash loads it (checked by calling the completion function as bash does
/// on Tab); an unknown shell is a usage error.
#[test]
fn completions_complete_commands_and_options_in_bash() {
    let o = morrigo(&["completions", "bash"]);
    assert_code(&o, 0);
    let script = temp_file("completions.bash", &stdout(&o));
    assert_code(&morrigo(&["completions", "tcsh"]), 2);
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let o = morrigo(&["completions", shell]);
        assert_code(&o, 0);
        assert!(stdout(&o).contains("compare"), "{shell}");
    }
    let Ok(bash) = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source '{}'; \
             COMP_WORDS=(morrigo comp); COMP_CWORD=1; _morrigo morrigo comp morrigo; \
             echo \"${{COMPREPLY[@]}}\"; \
             COMP_WORDS=(morrigo compare --si); COMP_CWORD=2; _morrigo morrigo --si compare; \
             echo \"${{COMPREPLY[@]}}\"",
            script.display()
        ))
        .output()
    else {
        eprintln!("skipped the bash check: bash is not installed");
        return;
    };
    let out = String::from_utf8_lossy(&bash.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines, ["compare completions", "--size"], "{out}");
}

// ----- show --resolved ---------------------------------------------------------

/// `show` without its `from:` line (the file the rules were read from).
fn show_summary(args: &[&str]) -> String {
    let o = morrigo(args);
    assert_code(&o, 0);
    stdout(&o)
        .lines()
        .filter(|l| !l.trim_start().starts_with("from:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every built-in written by `show --resolved` (its `extends` chain merged
/// into one YAML file by serde_yaml) is a file without `extends` that
/// compiles to the same rules: `show` prints the same summary and board.
/// With `--size` and `--komi`, the file holds them.
#[test]
fn show_resolved_writes_each_builtin_as_one_file_that_loads_back_the_same() {
    let list = stdout(&morrigo(&["rulesets"]));
    let names: Vec<&str> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(names.len() > 30, "{list}");
    for name in names {
        let o = morrigo(&["show", name, "--resolved"]);
        assert_code(&o, 0);
        let text = stdout(&o);
        assert!(
            !text.lines().any(|l| l.starts_with("extends:")),
            "{name}: {text}"
        );
        let file = temp_file(&format!("resolved-{name}.yaml"), &text);
        let file = file.to_str().unwrap();
        assert_eq!(
            show_summary(&["show", file]),
            show_summary(&["show", name]),
            "{name} resolved:\n{text}"
        );
    }
    let o = morrigo(&[
        "show",
        "jk-final",
        "--size",
        "5",
        "--komi",
        "0.5",
        "--resolved",
    ]);
    assert_code(&o, 0);
    let file = temp_file("resolved-jk-5.yaml", &stdout(&o));
    assert_eq!(
        show_summary(&["show", file.to_str().unwrap()]),
        show_summary(&["show", "jk-final", "--size", "5", "--komi", "0.5"]),
    );
    // Nothing is written for a ruleset that does not compile.
    let bad = temp_file(
        "resolved-bad.yaml",
        "extends: nine-mens-morris\nname: x\nparams:\n  fly_at: -4\n",
    );
    let o = morrigo(&["show", bad.to_str().unwrap(), "--resolved"]);
    assert_code(&o, 1);
    assert_eq!(stdout(&o), "");
    assert_code(
        &morrigo(&["show", "nine-mens-morris", "--resolved", "--position", "a1"]),
        2,
    );
}
