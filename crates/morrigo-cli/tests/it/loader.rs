//! Loading files from the command line: refusals exit 1 with a located
//! message (never a panic), and big or deep files finish quickly. Input files
//! are in `tests/defects/` at the top of the repository.

use crate::common::{assert_code, morrigo, stderr, stdout, temp_file};

/// A scenario giving a player 4294967295 pieces in hand is refused (the
/// pieces on the board plus those in hand used to overflow and pass).
#[test]
fn a_scenario_hand_beyond_the_rulesets_is_refused() {
    let o = morrigo(&["test", "tests/defects/scenario-in-hand-too-many.yaml"]);
    assert_code(&o, 1);
    let out = stdout(&o) + &stderr(&o);
    assert!(out.contains("at most 9 pieces for white"), "{out}");
    assert!(!out.contains("panicked"), "{out}");
}

/// `pass` allowed in a phase of a ruleset without pass kinds: `check` refuses
/// it (it used to pass check and fail at the first `pass` of a replay).
#[test]
fn check_refuses_a_pass_action_without_pass_kinds() {
    let o = morrigo(&["check", "tests/defects/pass-without-passes.yaml"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("pass-without-passes.yaml:7:7: error: phase `moving` allows `pass`"),
        "{err}"
    );
}

/// A 10,000-point explicit board written in flow style checks (it took 43 s
/// and 10 GB when every name's location copied its source line).
#[test]
fn check_accepts_a_big_flow_style_board() {
    let n = 10_000;
    let nodes: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
    let edges: Vec<String> = (1..n).map(|i| format!("[p{}, p{i}]", i - 1)).collect();
    let body = format!(
        "name: big\nboard:\n  explicit: {{ nodes: [{}], edges: [{}] }}\nsetup: {{ in_hand: 1 }}\nphases:\n  p: {{ actions: {{ place: true }} }}\nend:\n  blocked: {{ lose: \"no_legal_move\" }}\n",
        nodes.join(", "),
        edges.join(", ")
    );
    let path = temp_file("big.yaml", &body);
    let o = morrigo(&["check", &path.to_string_lossy()]);
    let out = stdout(&o) + &stderr(&o);
    assert!(!out.contains("panicked"), "{out}");
    // Either accepted, or refused by a documented board limit of the engine.
    assert!(
        out.contains("ok: big (10000 points") || out.contains("at most"),
        "{}",
        &out[..out.len().min(400)]
    );
}

/// 200,000 nested `[`: refused at the nesting limit, located, in bounded
/// time (it took 65 s); the long line is shown around the column.
#[test]
fn check_refuses_deeply_nested_yaml() {
    let body = format!(
        "name: x\nboard: {}{}\n",
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    let path = temp_file("deep.yaml", &body);
    let o = morrigo(&["check", &path.to_string_lossy()]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("deep.yaml:2:71: error: the YAML is nested more than 64 levels deep"),
        "{}",
        &err[..err.len().min(400)]
    );
    assert!(
        err.len() < 2_000,
        "the 400,000-character line is not printed whole"
    );
}

/// A UTF-8 byte order mark before the first key is accepted.
#[test]
fn check_accepts_a_byte_order_mark() {
    let o = morrigo(&["check", "tests/defects/byte-order-mark.yaml"]);
    assert_code(&o, 0);
}
