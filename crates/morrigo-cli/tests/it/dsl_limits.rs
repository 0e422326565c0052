//! The expression and pattern language's limits and its overflow proof, run
//! through `morrigo check` / `replay` as a user meets them: every input is
//! refused with a located message naming the limit (exit 1), never a stack
//! overflow or a runaway allocation (exit 134), and arithmetic never wraps.

use std::path::PathBuf;
use std::process::{Command, Output};

use crate::common::{assert_code, stderr, stdout, temp_file};

fn morrigo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args(args)
        .output()
        .expect("the morrigo binary runs")
}

/// A regression input kept in `tests/defects/`.
fn defect(name: &str) -> String {
    format!("{}/../../tests/defects/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Nine Men's Morris with one more end rule, `probe`, drawing when `cond`.
fn morris_probe(name: &str, cond: &str) -> PathBuf {
    temp_file(
        name,
        &format!("name: probe\nextends: nine-mens-morris\nend:\n  probe: {{ draw: \"{cond}\" }}\n"),
    )
}

/// JK final rules with a pass forbidden after the history `pattern`.
fn jk_pattern_probe(name: &str, pattern: &str) -> PathBuf {
    temp_file(
        name,
        &format!(
            "name: probe\nextends: jk-final\nforbid:\n  probe:\n    moves: [P]\n    when: \"after('{pattern}')\"\n"
        ),
    )
}

/// `check` refuses the file with exit 1 and a message containing `needle`
/// at `line:column` (the first line of the diagnostic).
#[track_caller]
fn refused(path: &str, at: &str, needle: &str) {
    let o = morrigo(&["check", path]);
    assert_code(&o, 1);
    let err = stderr(&o);
    let first = err.lines().next().unwrap_or_default();
    assert!(first.contains(&format!("{path}:{at}: error")), "{first}");
    assert!(first.contains(needle), "{first}");
}

fn path(p: &std::path::Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

// Defect 8: inputs that used to overflow the stack (or, for 5,000
// parentheses, reached pest's own guard with a baffling message).

#[test]
fn expression_of_5000_parentheses_is_over_the_length_limit() {
    refused(
        &defect("expr-parens-5000.yaml"),
        "26:4115",
        "expression too long: 10004 bytes, over the expression length limit of 4096 bytes",
    );
}

#[test]
fn flat_sum_of_20000_terms_is_over_the_length_limit() {
    refused(
        &defect("expr-sum-20000-terms.yaml"),
        "26:4115",
        "over the expression length limit of 4096 bytes",
    );
}

#[test]
fn twenty_thousand_unary_minuses_are_over_the_length_limit() {
    refused(
        &defect("expr-neg-20000.yaml"),
        "26:4115",
        "over the expression length limit of 4096 bytes",
    );
}

#[test]
fn pattern_nested_5000_deep_is_over_the_length_limit() {
    refused(
        &defect("pattern-parens-5000.yaml"),
        "6:4108",
        "over the expression length limit of 4096 bytes",
    );
}

#[test]
fn parentheses_past_the_depth_limit_are_refused_at_the_101st() {
    let cond = format!("{}true{}", "(".repeat(101), ")".repeat(101));
    let p = morris_probe("parens-101.yaml", &cond);
    // The 101st `(` is column 19 + 100 of line 4.
    refused(
        path(&p),
        "4:119",
        "expression nested too deeply: over the expression depth limit of 100 levels",
    );
}

#[test]
fn chained_operators_past_the_depth_limit_are_refused() {
    // 101 terms: the 100th `+` (column 19 + 499) makes the tree 101 levels deep.
    let cond = format!("{} > 0", vec!["turn"; 101].join("+"));
    let p = morris_probe("sum-101.yaml", &cond);
    refused(
        path(&p),
        "4:518",
        "over the expression depth limit of 100 levels",
    );
}

#[test]
fn unary_minuses_past_the_depth_limit_are_refused() {
    let cond = format!("{}turn > 0", "-".repeat(100));
    let p = morris_probe("neg-100.yaml", &cond);
    refused(
        path(&p),
        "4:19",
        "over the expression depth limit of 100 levels",
    );
}

/// At the limit an expression is checked, lowered and evaluated on every
/// move (the engine's passes recurse as deep as the tree): 99 × turn
/// reaches 198 after two turns, and the probe draws.
#[test]
fn expression_at_the_depth_limit_plays() {
    // 99 terms and the comparison: 100 levels.
    let cond = format!("{} >= 198", vec!["turn"; 99].join(" + "));
    let p = morris_probe("sum-100.yaml", &cond);
    let o = morrigo(&["check", path(&p)]);
    assert_code(&o, 0);
    let o = morrigo(&["replay", path(&p), "--moves", "a1"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("result: ongoing"), "{}", stdout(&o));
    let o = morrigo(&["replay", path(&p), "--moves", "a1 d7"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("result: draw"), "{}", stdout(&o));
}

#[test]
fn pattern_past_the_depth_limit_is_refused() {
    let pattern = format!("{}E{}", "(".repeat(33), ")".repeat(33));
    let p = jk_pattern_probe("pattern-33.yaml", &pattern);
    // The pattern starts at column 19; the 33rd `(` is 32 further.
    refused(
        path(&p),
        "6:51",
        "pattern nested too deeply: over the pattern depth limit of 32 parentheses",
    );
    let pattern = format!("{}E{}", "(".repeat(32), ")".repeat(32));
    let p = jk_pattern_probe("pattern-32.yaml", &pattern);
    assert_code(&morrigo(&["check", path(&p)]), 0);
}

// Defect 10: counted repeats multiply; the size is computed before the
// program is built (this 110-byte pattern used to allocate 25.7 GB).

#[test]
fn nested_counted_repeats_are_over_the_size_limit() {
    refused(
        &defect("pattern-nested-repeats.yaml"),
        "6:19",
        "pattern too large: it needs 1073741825 matcher steps, over the pattern size limit of 1024",
    );
}

#[test]
fn pattern_at_the_size_limit_is_accepted_and_one_past_refused() {
    // 31 × 33 = 1023 steps and the final match: 1024.
    let p = jk_pattern_probe("size-1024.yaml", "(E{31}){33}");
    assert_code(&morrigo(&["check", path(&p)]), 0);
    let p = jk_pattern_probe("size-1025.yaml", "(E{32}){32}");
    refused(
        path(&p),
        "6:19",
        "it needs 1025 matcher steps, over the pattern size limit of 1024",
    );
}

// Defect 4: arithmetic on constants wrapped silently; now a located error.

#[test]
fn folding_below_the_smallest_number_is_refused() {
    refused(
        &defect("overflow-param-min-minus-one.yaml"),
        "27:19",
        "`small - 1` overflows: -9223372036854775809 is outside the range of rule numbers",
    );
}

#[test]
fn flying_guard_that_overflows_is_refused() {
    refused(
        &defect("overflow-fly-guard.yaml"),
        "4:38",
        "`big + 1` overflows: 9223372036854775808",
    );
}

#[test]
fn removal_count_that_overflows_is_refused_at_the_first_overflow() {
    refused(
        &defect("overflow-removals.yaml"),
        "4:30",
        "`big + big` overflows: 18446744073709551614",
    );
}

/// Arithmetic on built-in counts is proved from their bounds (0 to 2^32−1):
/// a product of two counts can pass 2^63 and is refused, naming the bound.
#[test]
fn arithmetic_that_can_overflow_at_run_time_is_refused() {
    let p = morris_probe("turn-cubed.yaml", "turn * turn > 5");
    let o = morrigo(&["check", path(&p)]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("`turn * turn` can overflow: it can reach 18446744065119617025"),
        "{err}"
    );
    assert!(err.contains("counts of at most 4294967295"), "{err}");
    let p = morris_probe("turn-times-k.yaml", "turn * 1000000 - on_board(me) > 5");
    assert_code(&morrigo(&["check", path(&p)]), 0);
}

/// Counts the board bounds (pieces on it, empty points, lines) are bounded
/// by it: a product of such counts is proved safe where two 32-bit counts
/// would not be.
#[test]
fn board_counts_are_bounded_by_the_board() {
    let cond =
        "on_board(me) * on_board(opponent) * empty_points * lines(me) * lines(opponent) * turn > 5";
    let p = morris_probe("board-product.yaml", cond);
    assert_code(&morrigo(&["check", path(&p)]), 0);
    let cond = "in_hand(me) * in_hand(opponent) * on_board(me) > 5";
    let p = morris_probe("hand-product.yaml", cond);
    let o = morrigo(&["check", path(&p)]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("`in_hand(me) * in_hand(opponent)` can overflow"),
        "{}",
        stderr(&o)
    );
}

/// The largest constant still folds exactly at the edge of the range.
#[test]
fn folding_at_the_edge_of_the_range_is_exact() {
    let text = "name: edge\nextends: nine-mens-morris\nparams: { big: 9223372036854775807 }\n\
                phases: { moving: { actions: { fly: \"big - 9223372036854775804 == on_board(me)\" } } }\n";
    let p = temp_file("edge.yaml", text);
    let o = morrigo(&["check", path(&p)]);
    assert_code(&o, 0);
}

/// A removal count that can be negative was silently clamped (`"-1"`
/// meant no removal); it is refused, from the same interval analysis.
#[test]
fn removal_count_must_be_provably_not_negative() {
    refused(
        &defect("removals-negative.yaml"),
        "21:14",
        "in `removals`: this can be -1, but it counts pieces",
    );
    let p = morris_probe_removals("removals-lines.yaml", "lines_formed - 1");
    refused(path(&p), "3:30", "this can be -1, but it counts pieces");
    let p = morris_probe_removals("removals-lines-ok.yaml", "lines_formed + repetitions");
    assert_code(&morrigo(&["check", path(&p)]), 0);
}

/// Nine Men's Morris owing `removals` after a mill.
fn morris_probe_removals(name: &str, removals: &str) -> PathBuf {
    temp_file(
        name,
        &format!("name: probe\nextends: nine-mens-morris\non_line_formed: {{ removals: \"{removals}\" }}\n"),
    )
}
