//! `morrigo solve` on Go-style rulesets (full-history search) and
//! `compare --solve`: the reports, the refusals (exit 1) and which JK
//! variants the exact values tell apart.

use crate::common::{assert_code, morrigo, stderr, stdout};

/// The report without its `time:` line (the only line that varies).
fn report(args: &[&str]) -> String {
    let o = morrigo(args);
    assert_code(&o, 0);
    stdout(&o)
        .lines()
        .filter(|l| !l.starts_with("time: "))
        .map(|l| format!("{l}\n"))
        .collect()
}

const GO_RULESETS: [&str; 10] = [
    "chinese",
    "tromp-taylor",
    "jk-final",
    "jk-12-4",
    "jk-12-6",
    "jk-d4-6",
    "jk-natural",
    "jk-no-move-loses",
    "jk-strict-end",
    "jk-suicide-multi",
];

/// The solve report of each Go ruleset on 2x1 and 3x1 with komi 0.
#[test]
fn solve_reports_on_two_and_three_points() {
    for size in ["2x1", "3x1"] {
        for r in GO_RULESETS {
            let text = report(&["solve", r, "--size", size, "--komi", "0"]);
            insta::assert_snapshot!(format!("solve_{r}_{size}"), text);
        }
    }
}

/// Values every Go ruleset agrees on, read from the report: 2x1 is a draw
/// (a stone is captured at once and cannot be retaken), 3x1 is won by
/// black by 3 with the centre point B1 and lost by every other first move.
#[test]
fn tiny_board_values() {
    for r in GO_RULESETS {
        let two = report(&["solve", r, "--size", "2x1", "--komi", "0"]);
        assert!(two.contains("value: draw"), "{r}:\n{two}");
        let three = report(&["solve", r, "--size", "3x1", "--komi", "0"]);
        assert!(three.contains("value: black wins by 3"), "{r}:\n{three}");
        assert!(
            three.contains("  B1      black wins by 3")
                || three.contains("  B1    black wins by 3"),
            "{r}:\n{three}"
        );
    }
}

/// Komi goes to the second player: half a point turns the 2x1 draw into
/// a win for white by 0.5.
#[test]
fn komi_is_counted() {
    let text = report(&["solve", "tromp-taylor", "--size", "2x1", "--komi", "0.5"]);
    assert!(text.contains("value: white wins by 0.5"), "{text}");
}

/// Which JK pass-rule variants the exact values tell apart (on 2x1).
///
/// - jk-natural has no ECCE ending: after black's A1 and white's ko
///   capture, the board cycles until its third occurrence (Art. 3.3, equal
///   captures: a draw), where jk-final ends it by ECCE counted white +2.
/// - jk-strict-end forbids any pass just after ECC: after
///   `A1 B1 pass:P pass:E A1`, white's retake B1 leaves black no pass and
///   only losing plays, a win by rule instead of white +2.
/// - jk-12-4, jk-12-6, jk-d4-6 and jk-no-move-loses differ from jk-final
///   only in lines with D runs (four ko captures or more) or with no safe
///   move, which these boards do not reach: their values are the same.
#[test]
fn compare_solve_tells_pass_rule_variants_apart() {
    let text = report(&[
        "compare",
        "--solve",
        "--size",
        "2x1",
        "--komi",
        "0",
        "jk-final",
        "jk-natural",
        "jk-12-4",
        "jk-12-6",
        "jk-d4-6",
        "jk-no-move-loses",
        "jk-strict-end",
    ]);
    insta::assert_snapshot!("compare_solve_jk_2x1", text);
    let row = |name: &str| {
        table_row(&text, name)
            .split('|')
            .map(|c| c.trim().to_string())
            .collect::<Vec<_>>()
    };
    // Columns: "", ruleset, komi, value, A1, B1, pass:P, pass:E, nodes.
    assert_eq!(row("jk-final")[4], "W+2");
    assert_eq!(row("jk-natural")[4], "draw");
    for same in [
        "jk-12-4",
        "jk-12-6",
        "jk-d4-6",
        "jk-no-move-loses",
        "jk-strict-end",
    ] {
        assert_eq!(row(same)[3..8], row("jk-final")[3..8], "{same}");
    }

    let after = "A1 B1 pass:P pass:E A1";
    let text = report(&[
        "compare",
        "--solve",
        "--size",
        "2x1",
        "--komi",
        "0",
        "--position",
        after,
        "jk-final",
        "jk-strict-end",
    ]);
    insta::assert_snapshot!("compare_solve_jk_strict_end_2x1", text);
    assert!(text.contains("| jk-final      | komi 0 | W+2 "), "{text}");
    assert!(
        text.contains("| jk-strict-end | komi 0 | W by rule "),
        "{text}"
    );
}

/// A board too large for the search is refused before searching, with the
/// estimate and the budget (exit 1); a search that reaches the budget stops
/// with exit 1 too.
#[test]
fn refusals_name_the_estimate_and_the_budget() {
    let o = morrigo(&[
        "solve",
        "jk-final",
        "--size",
        "4",
        "--komi",
        "0",
        "--no-transpositions",
    ]);
    assert_code(&o, 1);
    let e = stderr(&o);
    assert!(
        e.contains("jk-final on a 4x4 board is too large to solve by full-history search"),
        "{e}"
    );
    assert!(e.contains("over the node budget of 100000000"), "{e}");
    assert!(stdout(&o).is_empty());
    insta::assert_snapshot!("solve_refused_4x4", e);
    // The table search is not refused by that estimate (it cuts the tree
    // by more than the estimate knows): the node budget stops it.
    let o = morrigo(&[
        "solve",
        "jk-final",
        "--size",
        "4",
        "--komi",
        "0",
        "--max-nodes",
        "20000",
    ]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("the search reached the node budget of 20000 nodes"),
        "{}",
        stderr(&o)
    );

    let o = morrigo(&[
        "solve",
        "tromp-taylor",
        "--size",
        "3x1",
        "--komi",
        "0",
        "--max-nodes",
        "100",
        // The table search finishes within 100 nodes; the plain one does not.
        "--no-transpositions",
    ]);
    assert_code(&o, 1);
    insta::assert_snapshot!("solve_budget_reached", stderr(&o));

    let o = morrigo(&["solve", "jk-final", "--size", "2x1", "--max-nodes", "0"]);
    assert_code(&o, 2);

    // compare --solve: an unknown ruleset is an error, and no table is printed.
    let o = morrigo(&[
        "compare",
        "--solve",
        "--size",
        "2x1",
        "jk-final",
        "no-such-ruleset",
    ]);
    assert_code(&o, 1);
    assert!(stdout(&o).is_empty());
}

/// `--position` solves from the position after a record; a finished game
/// is reported as such.
#[test]
fn solve_from_a_position() {
    let text = report(&[
        "solve",
        "jk-final",
        "--size",
        "2x1",
        "--komi",
        "0",
        "--position",
        "A1 pass:E B1",
    ]);
    assert!(
        text.contains("value: white wins by end rule `suicide`"),
        "{text}"
    );
    assert!(
        text.contains("perfect play: (no move from here)  (ends by `suicide`)"),
        "{text}"
    );
    let o = morrigo(&["solve", "jk-final", "--size", "2x1", "--position", "C9"]);
    assert_code(&o, 1);
}

/// A ruleset that can leave a player with no legal move and no verdict (a
/// 1x1 board, suicide illegal, no pass): the report says the position is
/// counted as a draw.
#[test]
fn stuck_positions_are_reported() {
    let dir = std::env::temp_dir().join(format!("morrigo-solve-stuck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("no-pass.yaml");
    std::fs::write(
        &file,
        "name: no-pass\nboard:\n  grid: { width: 1, height: 1 }\nplayers: [black, white]\n\
         setup:\n  in_hand: unlimited\nphases:\n  play:\n    actions:\n      play: true\n\
         play:\n  suicide: illegal\nend:\n  never:\n    draw: \"false\"\n",
    )
    .expect("write the ruleset");
    let text = report(&["solve", file.to_str().expect("utf-8 path")]);
    std::fs::remove_dir_all(&dir).ok();
    insta::assert_snapshot!("solve_stuck", text);
    assert!(
        text.contains("no legal move and no end rule decides"),
        "{text}"
    );
    assert!(
        text.contains("positions with no legal move and no verdict: "),
        "{text}"
    );
}

/// `compare --solve SUITE`: the repository's suite of rule-testing
/// positions, one table position by rule set, with every cell's line.
/// Among the outcomes it pins: the JK retake after a set-up ko is legal
/// (Art. 3.2 needs a board play two moves back) but loses after `B1 C1`;
/// the 2x1 ending-pass position cycles to a draw by Art. 3.3 under
/// jk-natural (only `EE` ends) and ends `ECCE` under jk-final; sending two
/// and returning one voids the game only under the Japanese long-cycle
/// reading; the 5x1 ko neither side can end is a draw only under
/// jk-natural, which lacks the ECC pass rule.
#[test]
fn suite_of_cycles_table() {
    let o = morrigo(&["compare", "--solve", "tests/suites/go-cycles.yaml"]);
    assert_code(&o, 0);
    let text = stdout(&o);
    let row = |name: &str| table_row(&text, name);
    assert!(row("ko on 4x1").contains("| B+4          | B+4"), "{text}");
    assert!(row("ko from a set-up board").contains("| draw "), "{text}");
    assert!(
        row("empty 2x2").starts_with("| empty 2x2                     | B+1 "),
        "{text}"
    );
    let send_two = row("send two, return one (5x1)");
    assert_eq!(
        send_two.matches("no result (long_cycle)").count(),
        1,
        "{text}"
    );
    assert_eq!(send_two.matches("W+0.5").count(), 8, "{text}");
    let ko_fight = row("a ko neither can end (5x1)");
    assert_eq!(
        ko_fight.matches("draw (repeated_board)").count(),
        1,
        "{text}"
    );
    assert_eq!(ko_fight.matches("W+4.5").count(), 8, "{text}");
    insta::assert_snapshot!("compare_solve_suite_go_cycles", text);
}

/// `value_only: true`: each cell is the value and its line, the other first
/// moves only proved no better, as `solve --value-only`; the table is the
/// same as with every first move solved.
#[test]
fn suite_value_only_gives_the_same_table() {
    let body = "rulesets: [tromp-taylor, jk-final]\npositions:\n  - name: ko on 4x1\n    source: a test\n    board: 4x1\n    moves: \"B1 C1\"\n";
    let full = crate::common::temp_file("full.yaml", &format!("name: s\n{body}"));
    let cheap =
        crate::common::temp_file("cheap.yaml", &format!("name: s\nvalue_only: true\n{body}"));
    let table = |path: &std::path::Path| {
        let o = morrigo(&["compare", "--solve", path.to_str().unwrap()]);
        assert_code(&o, 0);
        stdout(&o)
    };
    let (full, cheap) = (table(&full), table(&cheap));
    assert!(
        full.contains("| ko on 4x1 | B+4          | B+4      |"),
        "{full}"
    );
    assert_eq!(full, cheap);
}

/// The classics on filled boards (`tests/suites/go-classics.yaml`): a
/// self-contained triple ko, won by Black under positional and
/// situational superko (White's third capture would repeat the first
/// board), no result under the Japanese long-cycle reading, a draw by JK
/// Art. 3.3 under jk-final, jk-natural and jk-12-4 (six captures each
/// between the first and the third board);
/// and a double-ko seki, W+0.5 by the count everywhere but under
/// jk-natural, where Black, behind, trolls the kos to an Art. 3.3 draw
/// (jk-12-4's no P after ECC stops it). The suite proves values only
/// (`value_only`).
#[test]
fn suite_of_classics_table() {
    let o = morrigo(&["compare", "--solve", "tests/suites/go-classics.yaml"]);
    assert_code(&o, 0);
    let text = stdout(&o);
    let row = table_row(&text, "triple ko (4x5)");
    assert_eq!(
        row,
        "| triple ko (4x5)      | B+20         | B+20            | B+20        | no result (long_cycle) | draw (repeated_board) | draw (repeated_board) | draw (repeated_board) |",
        "{text}"
    );
    let row = table_row(&text, "double-ko seki (5x3)");
    assert_eq!(
        row,
        "| double-ko seki (5x3) | W+0.5        | W+0.5           | W+0.5       | W+0.5                  | W+0.5                 | draw (repeated_board) | W+0.5                 |",
        "{text}"
    );
    insta::assert_snapshot!("compare_solve_suite_go_classics", text);
}

/// The JK chapter's figures 12.37-12.38 (`tests/suites/go-jk-figures.yaml`,
/// its 4x10 position under four of its rule sets; the whole suite is a
/// documented command): after a D of four ko captures and Black's pass,
/// JK Art. 2.7.1 leaves White no pass at all, nor after two more captures
/// (`DPCC`), so under jk-final White takes back a ko, Black retakes and
/// White must play a stone (G3) where she would pass; jk-natural and
/// jk-12-4 allow White an ending pass after `DP`. All three keep the
/// count's W+1, as the Japanese rules do (two passes end the game there).
#[test]
fn suite_of_jk_figures_the_d_then_p_position() {
    let name = "figs. 12.37-12.38, D then P (4x10)";
    let cut = suite_cut(
        "go-jk-figures.yaml",
        name,
        "[japanese, jk-final, jk-natural, jk-12-4]",
    );
    let o = morrigo(&["compare", "--solve", cut.to_str().unwrap()]);
    assert_code(&o, 0);
    let text = stdout(&o);
    let row = table_row(&text, name);
    assert_eq!(
        row.split('|').map(str::trim).collect::<Vec<_>>(),
        ["", name, "W+1", "W+1", "W+1", "W+1", ""],
        "{text}"
    );
    assert!(
        text.contains("  jk-final: W+1: J2 J3 G3 "),
        "jk-final's line should show White's forced captures and stone:\n{text}"
    );
    insta::assert_snapshot!("compare_solve_suite_jk_figures_d_then_p", text);
}

/// The row of a Markdown table in `text` whose first cell is `name`.
fn table_row<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(&format!("| {name} ")))
        .unwrap_or_else(|| panic!("no row {name}:\n{text}"))
}

/// A copy of the suite `file` (in `tests/suites/`) with only the position
/// `name`, solved under `rulesets` (a YAML list): one cell or a few of a
/// suite too heavy for the test command.
fn suite_cut(file: &str, name: &str, rulesets: &str) -> std::path::PathBuf {
    let path = crate::common::root().join("tests/suites").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut suite: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let positions = suite["positions"].as_sequence_mut().unwrap();
    positions.retain(|p| p["name"].as_str() == Some(name));
    assert_eq!(positions.len(), 1, "no position {name} in {path:?}");
    suite["rulesets"] = serde_yaml::from_str(rulesets).unwrap();
    crate::common::temp_file(file, &serde_yaml::to_string(&suite).unwrap())
}

/// Bent four in the corner (`tests/suites/go-classics-large.yaml`, the
/// one cell of it cheap enough for the test command): with no outside
/// liberty and no ko threat White's group is dead by play under area
/// scoring and positional superko, Black taking the whole board; the
/// solver knows no rule that names the shape.
#[test]
fn bent_four_in_the_corner_dies_by_play() {
    let name = "bent four in the corner (6x3)";
    let cut = suite_cut("go-classics-large.yaml", name, "[chinese-superko]");
    let o = morrigo(&["compare", "--solve", cut.to_str().unwrap()]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains(&format!("| {name} | B+18 ")), "{text}");
    assert!(text.contains("  chinese-superko: B+18: A2 "), "{text}");
}

/// Every suite in `tests/suites/` reads, and each position's stones and
/// record set up under at least one of its rule sets (one node each: the
/// heavy suites are documented commands, so this is what the test command
/// checks of them).
#[test]
fn every_suite_file_sets_up_its_positions() {
    let dir = crate::common::root().join("tests/suites");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "{files:?}");
    for file in files {
        let o = morrigo(&[
            "compare",
            "--solve",
            file.to_str().unwrap(),
            "--max-nodes",
            "1",
        ]);
        assert_code(&o, 0);
        let suite: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let out = stdout(&o);
        for p in suite["positions"].as_sequence().unwrap() {
            table_row(&out, p["name"].as_str().unwrap());
        }
    }
}

/// A position whose record none of the suite's rule sets can play (here a
/// point off the board) is an error at the position's line, with the
/// reason, not a row of `-`; so is a suite naming no rule set.
#[test]
fn a_suite_position_no_rule_set_can_play_is_an_error() {
    let path = crate::common::temp_file(
        "unplayable.yaml",
        "name: bad\nrulesets: [tromp-taylor, japanese]\npositions:\n  - name: misspelt\n    source: a test\n    board: 2x1\n    moves: \"A1 C1\"\n",
    );
    let o = morrigo(&["compare", "--solve", path.to_str().unwrap()]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("unplayable.yaml:4:1: error: position `misspelt` applies under none of the suite's rule sets (tromp-taylor: does not apply: "),
        "{err}"
    );
    assert!(err.contains("C1"), "{err}");
    let path = crate::common::temp_file(
        "no-rule-sets.yaml",
        "name: none\nrulesets: []\npositions:\n  - name: empty\n    source: a test\n    board: 2x1\n",
    );
    let o = morrigo(&["compare", "--solve", path.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("suite `none` names no rule set"),
        "{}",
        stderr(&o)
    );
}

/// A suite naming a point the board does not have is an error that names
/// the suite file, the position and the rule set (exit 1), not a blank cell.
#[test]
fn suite_with_an_unknown_point_is_an_error() {
    let path = crate::common::temp_file(
        "bad.yaml",
        "name: bad\nrulesets: [tromp-taylor]\npositions:\n  - name: off the board\n    source: a test\n    board: 2x2\n    black: [Z9]\n",
    );
    let o = morrigo(&["compare", "--solve", path.to_str().unwrap()]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("bad.yaml:4:1: error: position `off the board` under tromp-taylor"),
        "{err}"
    );
    assert!(err.contains("Z9"), "{err}");
}

/// `compare --solve --komi 0`, the help's example, compares the Go rule
/// sets that count the game: nogo has no count to take a komi, so the
/// default leaves it out instead of refusing the command.
#[test]
fn compare_solve_with_komi_takes_the_counting_rule_sets() {
    let o = morrigo(&["compare", "--solve", "--komi", "0", "--size", "2x1"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    for counted in ["tromp-taylor", "japanese", "jk-final", "atari-go"] {
        assert!(out.contains(counted), "{counted} missing:\n{out}");
    }
    assert!(!out.contains("nogo"), "nogo compared:\n{out}");
    let o = morrigo(&["compare", "--solve", "--komi", "0", "nogo"]);
    assert_code(&o, 2);
    assert!(stderr(&o).contains("has no `scoring`"), "{}", stderr(&o));
}

/// A cell whose solve runs out of nodes says so in the table, its line
/// and its progress line, with the nodes it searched (not 0).
#[test]
fn suite_cell_out_of_budget_says_how_far_it_got() {
    let path = crate::common::temp_file(
        "budget.yaml",
        "name: budget\nrulesets: [tromp-taylor]\npositions:\n  - name: empty 3x2\n    source: a test\n    board: 3x2\n",
    );
    let o = morrigo(&[
        "compare",
        "--solve",
        path.to_str().unwrap(),
        "--max-nodes",
        "1000",
    ]);
    let out = stdout(&o);
    assert!(out.contains("| empty 3x2 | node budget reached |"), "{out}");
    assert!(out.contains("stopped after 1001 nodes"), "{out}");
    let err = stderr(&o);
    assert!(
        err.contains("empty 3x2 under tromp-taylor: 1001 nodes"),
        "{err}"
    );
}

/// A suite with a misspelt key is refused with its line and column.
#[test]
fn suite_with_an_unknown_key_is_refused() {
    let path = crate::common::temp_file(
        "typo.yaml",
        "name: typo\nrulesets: [tromp-taylor]\npositions:\n  - name: p\n    source: a test\n    bord: 2x2\n",
    );
    let o = morrigo(&["compare", "--solve", path.to_str().unwrap()]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("typo.yaml:5:5") || err.contains("typo.yaml:6:5"),
        "{err}"
    );
    assert!(err.contains("bord"), "{err}");
}

/// `--value-only`: the value and the best first move, the others counted
/// as proved no better; refused (exit 2) where it would change nothing
/// (retrograde analysis) or cannot apply (the plain search).
#[test]
fn value_only_reports_the_best_move_and_is_refused_elsewhere() {
    let full = report(&["solve", "chinese-superko", "--size", "3x2", "--komi", "0"]);
    let only = report(&[
        "solve",
        "chinese-superko",
        "--size",
        "3x2",
        "--komi",
        "0",
        "--value-only",
    ]);
    let value = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("value: "))
            .map(str::to_string)
    };
    assert_eq!(value(&only), value(&full), "{only}");
    assert!(
        value(&full).expect("a value line").contains("draw"),
        "{full}"
    );
    assert!(
        only.contains("the other 6 first moves were proved no better, without values of their own (--value-only)"),
        "{only}"
    );
    assert!(only.contains("(the best)"), "{only}");

    let o = morrigo(&["solve", "three-mens-morris", "--value-only"]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("solved by retrograde analysis"),
        "{}",
        stderr(&o)
    );
    let o = morrigo(&[
        "solve",
        "jk-final",
        "--size",
        "2x1",
        "--value-only",
        "--no-transpositions",
    ]);
    assert_code(&o, 2);
}
