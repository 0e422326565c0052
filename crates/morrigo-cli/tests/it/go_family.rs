//! The Go family as players know it, through the `morrigo` binary: Atari
//! Go's first capture, the Japanese rules' territory count, dead stones by
//! agreement and the "no result" of a long cycle (transcripts, JSON,
//! simulate and compare tables), the AGA rules' pass stones and White
//! passing last, and set-up (handicap) stones in a ruleset and in SGF.

use crate::common::{assert_code, morrigo, scratch_dir, stderr, stdout};

/// Sending two, returning one on 3x3: the third time the board results
/// from a board play, the game ends with no result.
const LONG_CYCLE: &str = "A2 C2 B2 B3 B1 C1 C3 C2 pass C1 C3 C2";

const HANDICAP: &str = "tests/rulesets/handicap-japanese.yaml";

#[test]
fn atari_go_the_first_capture_wins() {
    let o = morrigo(&[
        "replay",
        "atari-go",
        "--size",
        "5",
        "--moves",
        "B1 A1 E5 A2 B2 E4 A3",
    ]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(
        text.contains("result: black wins by rule `first_capture`"),
        "{text}"
    );
    let o = morrigo(&[
        "replay",
        "atari-go",
        "--size",
        "5",
        "--moves",
        "B1 A1 E5 A2 B2 E4 A3 E3",
    ]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("the game is over"), "{}", stderr(&o));
}

#[test]
fn japanese_long_cycle_ends_with_no_result() {
    let o = morrigo(&["replay", "japanese", "--size", "3", "--moves", LONG_CYCLE]);
    assert_code(&o, 0);
    insta::assert_snapshot!("japanese_long_cycle_transcript", stdout(&o));
    let o = morrigo(&[
        "replay", "japanese", "--size", "3", "--moves", LONG_CYCLE, "--json",
    ]);
    assert_code(&o, 0);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let r = &v["result"];
    assert_eq!(r["status"], "over");
    assert_eq!(r["winner"], serde_json::Value::Null);
    assert_eq!(r["reason"], "long_cycle");
    assert_eq!(r["no_result"], true);
    // SGF writes it as `RE[Void]`.
    let out = scratch_dir("void").join("void.sgf");
    let o = morrigo(&[
        "replay",
        "japanese",
        "--size",
        "3",
        "--moves",
        LONG_CYCLE,
        "--to-sgf",
        &out.display().to_string(),
    ]);
    assert_code(&o, 0);
    let sgf = std::fs::read_to_string(&out).expect("SGF written");
    assert!(sgf.contains("RE[Void]"), "{sgf}");
    let o = morrigo(&["replay", "japanese", "--sgf", &out.display().to_string()]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("result: no result"), "{}", stdout(&o));
    assert!(stderr(&o).is_empty(), "no disagreement: {}", stderr(&o));
    // A draw carries no `no_result` key.
    let o = morrigo(&[
        "replay",
        "japanese",
        "--size",
        "3",
        "--moves",
        "B2 pass pass",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["result"]["no_result"], serde_json::Value::Null);
}

/// The summary without its timing line (the only part that varies).
fn without_speed(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("speed"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn simulate_counts_games_with_no_result_apart_from_draws() {
    let args = [
        "simulate", "japanese", "--size", "3", "--games", "300", "--seed", "1",
    ];
    let o = morrigo(&args);
    assert_code(&o, 0);
    insta::assert_snapshot!("japanese_simulate_3x3", without_speed(&stdout(&o)));
    let mut json = args.to_vec();
    json.push("--json");
    let o = morrigo(&json);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let n = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k}: {v}"));
    let wins = v["wins"][0].as_u64().unwrap() + v["wins"][1].as_u64().unwrap();
    assert!(n("no_results") > 0, "{v}");
    assert_eq!(wins + n("draws") + n("no_results") + n("unfinished"), 300);
    // A ruleset without a `no_result` rule reports none.
    let o = morrigo(&[
        "simulate", "chinese", "--size", "3", "--games", "5", "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["no_results"], serde_json::Value::Null);
}

#[test]
fn compare_tables_show_a_no_result_column_when_a_ruleset_has_the_verdict() {
    let base = [
        "--size",
        "3",
        "--games",
        "40",
        "--seed",
        "3",
        "--agents",
        "random,random",
    ];
    let with = |names: &[&str], extra: &[&str]| {
        let mut args = vec!["compare"];
        args.extend(names);
        args.extend(base);
        args.extend(extra);
        let o = morrigo(&args);
        assert_code(&o, 0);
        stdout(&o)
    };
    let table = with(&["japanese", "chinese"], &[]);
    let header = table.lines().next().expect("a header");
    assert!(header.contains("| no result |"), "{table}");
    let csv = with(&["japanese", "chinese"], &["--format", "csv"]);
    assert!(
        csv.lines().next().unwrap().contains(",no_results,"),
        "{csv}"
    );
    let plain = with(&["chinese", "tromp-taylor"], &[]);
    assert!(!plain.contains("no result"), "{plain}");
}

#[test]
fn japanese_dead_stones_by_agreement_are_prisoners() {
    let moves = "B1 D1 B2 D2 B3 D3 B4 D4 B5 D5 E3 agree:E3";
    let o = morrigo(&["replay", "japanese", "--size", "5", "--moves", moves]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("result: white wins by agreement"), "{text}");
    assert!(text.contains("score: black 5, white 12.5"), "{text}");
}

#[test]
fn aga_white_passes_last() {
    let o = morrigo(&["replay", "aga", "--size", "5", "--moves", "C3 pass pass"]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("result: ongoing, white to move"),
        "{}",
        stdout(&o)
    );
    let o = morrigo(&[
        "replay",
        "aga",
        "--size",
        "5",
        "--moves",
        "C3 pass pass pass",
    ]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(
        text.contains("result: black wins by rule `two_passes`"),
        "{text}"
    );
    assert!(text.contains("score: black 26, white 8.5"), "{text}");
}

#[test]
fn set_up_stones_are_shown_and_white_moves_first() {
    let o = morrigo(&["show", HANDICAP]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("(first to move: white)"), "{text}");
    assert!(text.contains("black stones at start: B2 D4"), "{text}");
    let o = morrigo(&["replay", HANDICAP, "--moves", "C3 C4"]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("1. white  C3"), "{text}");
    assert!(text.contains("2. black  C4"), "{text}");
}

#[test]
fn setup_mistakes_are_located() {
    let o = morrigo(&["check", "tests/defects/setup-stones-errors.yaml"]);
    assert_code(&o, 1);
    insta::assert_snapshot!("setup_stones_errors", stderr(&o));
    let o = morrigo(&["check", HANDICAP, "--size", "3"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("setup stone `D4` of black is not a point of the board"),
        "{err}"
    );
    assert!(err.contains("`--size`"), "{err}");
}

#[test]
fn sgf_carries_the_set_up_stones_both_ways() {
    let out = scratch_dir("sgf").join("game.sgf");
    let out_s = out.display().to_string();
    let o = morrigo(&[
        "replay",
        HANDICAP,
        "--moves",
        "C3 pass pass",
        "--to-sgf",
        &out_s,
    ]);
    assert_code(&o, 0);
    let sgf = std::fs::read_to_string(&out).expect("SGF written");
    // B2 and D4 on 5x5 (SGF rows count from the top), White first.
    assert!(sgf.contains("AB[bd][db]"), "{sgf}");
    assert!(sgf.contains("PL[W]"), "{sgf}");
    assert!(sgf.contains(";W[cc]"), "{sgf}");
    // Replayed under the plain rules, the SGF's own set-up is the start.
    let o = morrigo(&["replay", "japanese", "--sgf", &out_s]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("1. white  C3"), "{text}");
    assert!(text.contains("score: black 0, white 6.5"), "{text}");
    // An SGF without set-up starts from the ruleset's stones.
    let bare = scratch_dir("bare").join("bare.sgf");
    std::fs::write(&bare, "(;GM[1]FF[4]SZ[5];W[cc];B[cb])").expect("write");
    let o = morrigo(&["replay", HANDICAP, "--sgf", &bare.display().to_string()]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("1. white  C3"), "{text}");
    assert!(
        text.contains("2 .---B---.---.---."),
        "the handicap stone B2 is on the board:\n{text}"
    );
}

#[test]
fn territory_and_no_result_settings_are_checked() {
    let cases = [
        (
            "seki.yaml",
            "name: c\nextends: chinese\nscoring: { seki: nobody }\n",
            "seki.yaml:3:18: error: `scoring.seki: nobody` applies to territory scoring only",
        ),
        (
            "two.yaml",
            "name: c\nextends: chinese\nend:\n  x: { no_result: \"turn > 3\", draw: \"turn > 4\" }\n",
            "two.yaml:4:31: error: end rule `x` must say exactly one of `lose`, `win`, `draw`, `score`, `compare_captures`, `no_result`",
        ),
        (
            "typo.yaml",
            "name: c\nextends: chinese\nend:\n  x: { no_result: \"turns > 3\" }\n",
            "typo.yaml:4:20: error",
        ),
    ];
    for (name, text, want) in cases {
        let path = scratch_dir("checked").join(name);
        std::fs::write(&path, text).expect("write");
        let o = morrigo(&["check", &path.display().to_string()]);
        assert_code(&o, 1);
        assert!(stderr(&o).contains(want), "{name}: {}", stderr(&o));
    }
}
