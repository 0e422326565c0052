//! Snapshots (stored in `tests/snapshots/`, reviewed like code): every
//! built-in ruleset as compiled, every built-in board, one full random game
//! per Morris ruleset replayed into a transcript, and the messages of bad
//! input of every kind a user can write.

use morrigo_diag::SourceFile;
use morrigo_engine::{notation::format_move, with_machine, Game};
use rand::{rngs::SmallRng, Rng, SeedableRng};
use std::sync::Arc;

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({
            snapshot_path => "snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

fn machine(name: &str) -> Game {
    let rules = morrigo_rules::load_rules(name).unwrap_or_else(|e| panic!("{e}"));
    Game::new(Arc::new(rules)).expect("fits")
}

#[test]
fn builtin_rulesets_compiled() {
    for b in morrigo_rules::builtin::all() {
        let rules = morrigo_rules::load_rules(b.name).unwrap_or_else(|e| panic!("{e}"));
        snap!(format!("ruleset__{}", b.name), format!("{rules}"));
    }
}

#[test]
fn builtin_boards_rendered() {
    for b in morrigo_rules::builtin::all() {
        let rules = morrigo_rules::load_rules(b.name).unwrap_or_else(|e| panic!("{e}"));
        snap!(format!("board__{}", b.name), rules.topology.render(|_| '.'));
    }
}

/// A random game with a fixed seed, played on the engine directly, as a record.
fn random_record(game: &Game, seed: u64) -> String {
    with_machine!(game.machine().as_ref(), m => {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut s = m.initial();
        let mut moves = Vec::new();
        let mut record = Vec::new();
        while m.legal_moves(&s, &mut moves).is_none() {
            assert!(record.len() < 5000, "game did not end");
            let mv = moves[rng.random_range(0..moves.len())];
            record.push(format_move(&m.rules.topology, &mv));
            m.apply(&mut s, mv);
        }
        record.join(" ")
    })
}

#[test]
fn random_game_transcripts() {
    for b in morrigo_rules::builtin::family("morris") {
        let any = machine(b.name);
        let record = random_record(&any, 2024);
        let source = SourceFile::new("--moves", record.clone());
        let t = morrigo_record::replay(&any, &record, &source).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(t.result.status, morrigo_record::Status::Over, "{}", b.name);
        let json = t.to_json();
        assert_eq!(json["result"]["status"], "over");
        assert_eq!(json["plies"].as_array().map(Vec::len), Some(t.plies.len()));
        snap!(format!("game__{}", b.name), t.to_text());
    }
}

// ----- error messages -------------------------------------------------------

const TINY: &str = "name: tiny
board:
  explicit:
    nodes: [a, b, c, d]
    edges: [[a, b], [b, c], [c, d]]
    lines: [[a, b, c]]
setup:
  in_hand: 2
phases:
  placing:
    when: \"in_hand(me) > 0\"
    actions:
      place: true
  moving:
    actions:
      slide: true
end:
  blocked:
    lose: \"no_legal_move\"
";

fn ruleset_error(text: &str) -> String {
    match morrigo_rules::rules_from_text("bad.yaml", text) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn variant(body: &str) -> String {
    ruleset_error(&format!("name: bad\nextends: nine-mens-morris\n{body}"))
}

#[test]
fn the_tiny_ruleset_is_valid() {
    morrigo_rules::rules_from_text("tiny.yaml", TINY).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn error_yaml_syntax() {
    snap!("error__yaml_syntax", variant("phases: {placing: [\n"));
}

#[test]
fn error_unknown_key() {
    snap!(
        "error__unknown_key",
        variant("phases:\n  placing:\n    wen: \"in_hand(me) > 0\"\n")
    );
}

#[test]
fn error_dsl_syntax() {
    snap!(
        "error__dsl_syntax",
        variant("end:\n  sudden:\n    lose: \"on_board(me) < \"\n")
    );
}

#[test]
fn error_dsl_unknown_name() {
    snap!(
        "error__dsl_unknown_name",
        variant("end:\n  sudden:\n    lose: \"on_bord(me) < 2\"\n")
    );
}

#[test]
fn error_dsl_type() {
    snap!(
        "error__dsl_type",
        variant("end:\n  sudden:\n    lose: \"on_board(me) + 1\"\n")
    );
}

#[test]
fn error_unknown_action_kind() {
    snap!(
        "error__unknown_action_kind",
        variant("phases:\n  moving:\n    actions:\n      jump: true\n")
    );
}

#[test]
fn error_unknown_point_in_explicit_board() {
    let text = TINY.replace("[c, d]]", "[c, e]]");
    snap!("error__explicit_unknown_point", ruleset_error(&text));
}

#[test]
fn error_line_not_a_path() {
    let text = TINY.replace("lines: [[a, b, c]]", "lines: [[a, c, b]]");
    snap!("error__line_not_a_path", ruleset_error(&text));
}

#[test]
fn error_disconnected_board() {
    let text = TINY.replace("[[a, b], [b, c], [c, d]]", "[[a, b], [c, d]]");
    let text = text.replace("lines: [[a, b, c]]", "lines: [[a, b]]");
    snap!("error__disconnected_board", ruleset_error(&text));
}

#[test]
fn error_missing_parent() {
    snap!(
        "error__missing_parent",
        ruleset_error("name: bad\nextends: nine-mens-moris\n")
    );
}

fn replay_error(ruleset: &str, record: &str) -> String {
    let any = machine(ruleset);
    let source = SourceFile::new("--moves", record);
    match morrigo_record::replay(&any, record, &source) {
        Ok(t) => panic!("expected an error, got\n{}", t.to_text()),
        Err(e) => {
            assert_eq!(e.ply, e.transcript.plies.len() + 1);
            format!(
                "{}\n--- transcript up to the error ---\n{}",
                e.diagnostic,
                e.transcript.to_text()
            )
        }
    }
}

#[test]
fn error_record_illegal_move() {
    snap!(
        "error__record_illegal_move",
        replay_error("nine-mens-morris", "d1 d2 a1 b2 g1 f2")
    );
}

#[test]
fn error_record_not_adjacent() {
    snap!(
        "error__record_not_adjacent",
        replay_error(
            "nine-mens-morris",
            "d3 a4 e3 a1 g4 d1 a7 f6 b4 d2 e4 b2 g1 c3 f2 d5 d6 c4 e4-e5 c4-c5 d3-g7"
        )
    );
}

#[test]
fn error_record_unknown_point() {
    snap!(
        "error__record_unknown_point",
        replay_error("nine-mens-morris", "d1 d2 a1 b2 g1xb3")
    );
}

#[test]
fn error_record_after_the_end() {
    snap!(
        "error__record_after_the_end",
        replay_error("three-mens-morris", "a1 a2 b1 b2 c1 c2")
    );
}

fn scenario_error(text: &str) -> String {
    match morrigo_record::run_text("bad-scenarios.yaml", text) {
        Err(d) => d.to_string(),
        Ok(report) => report.to_string(),
    }
}

#[test]
fn error_impossible_setup() {
    let text = "ruleset: nine-mens-morris
scenarios:
  - name: too many white pieces
    rule: 9 pieces each
    setup:
      pieces: { white: [a1, d1, g1, a4, g4], black: [d2] }
      in_hand: { white: 5 }
  - name: a point used twice
    rule: one piece per point
    setup:
      pieces:
        white: [a1, d1]
        black: [d2, a1]
  - name: an unknown point
    rule: the board has 24 points
    setup:
      pieces: { white: [a1, d9] }
";
    snap!("error__impossible_setup", scenario_error(text));
}

#[test]
fn error_scenario_file_unknown_key() {
    let text = "ruleset: nine-mens-morris
scenarios:
  - name: typo
    rule: none
    expct:
      result: ongoing
";
    snap!("error__scenario_unknown_key", scenario_error(text));
}

#[test]
fn failing_scenarios_report() {
    let text = "ruleset: nine-mens-morris
scenarios:
  - name: passes
    rule: White moves first
    expect: { to_move: white }
  - name: wrong expectations
    rule: Mill removes before the opponent moves
    moves: d1 d2 a1 b2 g1
    expect:
      to_move: black
      legal: [xd2]
      illegal: { move: xd2, reason_contains: nothing }
      result: white wins
  - name: a refused move in the record
    rule: Sliding only to adjacent points
    moves: d1 d2 a1 b2 g1 xd2 d1-d3
";
    snap!("report__failing_scenarios", scenario_error(text));
}

#[test]
fn transcript_json_shape() {
    let any = machine("nine-mens-morris");
    let record = "d1 d2 a1 b2 g1xd2";
    let t = morrigo_record::replay(&any, record, &SourceFile::new("--moves", record))
        .unwrap_or_else(|e| panic!("{e}"));
    let json = t.to_json();
    assert_eq!(
        json["plies"][0],
        serde_json::json!({"n": 1, "player": "white", "move": "d1", "phase": "placing"})
    );
    assert_eq!(json["plies"][5]["move"], "xd2");
    assert_eq!(json["plies"][5]["phase"], "remove");
    assert_eq!(json["result"]["status"], "ongoing");
    assert_eq!(json["result"]["winner"], serde_json::Value::Null);
    assert_eq!(json["result"]["reason"], serde_json::Value::Null);
}

// ----- Go family --------------------------------------------------------------

fn go_machine(name: &str, size: u32) -> Game {
    let overrides = morrigo_rules::load::Overrides {
        size: Some((size, size)),
        komi: None,
    };
    let rules = morrigo_rules::load_rules_with(name, &overrides).unwrap_or_else(|e| panic!("{e}"));
    Game::new(Arc::new(rules)).expect("fits")
}

fn go_game(name: &str, size: u32, record: &str) -> String {
    let any = go_machine(name, size);
    let t = morrigo_record::replay(&any, record, &SourceFile::new("--moves", record))
        .unwrap_or_else(|e| panic!("{e}"));
    format!("{}\n--- json ---\n{:#}\n", t.to_text(), t.to_json())
}

fn go_error(name: &str, size: u32, record: &str) -> String {
    let any = go_machine(name, size);
    match morrigo_record::replay(&any, record, &SourceFile::new("--moves", record)) {
        Ok(t) => panic!("expected an error, got\n{}", t.to_text()),
        Err(e) => {
            assert_eq!(e.ply, e.transcript.plies.len() + 1);
            format!(
                "{}\n--- transcript up to the error ---\n{}",
                e.diagnostic,
                e.transcript.to_text()
            )
        }
    }
}

/// A short JK game on 5x5: walls, a capture, then EE; counted with
/// territory, captured prisoners, pass stones and Art. 4.4.
#[test]
fn go_jk_game_ending_by_ee() {
    snap!(
        "game__jk-final-5x5",
        go_game(
            "jk-final",
            5,
            "C3 D3 C4 D4 C2 D2 B4 E2 C5 D5 D1 E1 C1 B5 A5 pass:E pass:E"
        )
    );
}

#[test]
fn go_tromp_taylor_game() {
    snap!(
        "game__tromp-taylor-5x5",
        go_game("tromp-taylor", 5, "C3 D3 C4 D4 C2 D2 C5 D5 C1 D1 pass pass")
    );
}

#[test]
fn go_resignation_and_agreement_transcripts() {
    let any = go_machine("jk-final", 5);
    for (record, reason) in [
        ("C3 resign", "resignation"),
        ("C3 C2 agree:C2", "agreement"),
    ] {
        let t = morrigo_record::replay(&any, record, &SourceFile::new("--moves", record))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(t.result.reason.as_deref(), Some(reason));
        assert_eq!(t.result.winner.as_deref(), Some("black"));
    }
}

#[test]
fn go_transcript_json_shape() {
    let any = go_machine("jk-final", 5);
    let record = "C3 pass:E pass:E";
    let t = morrigo_record::replay(&any, record, &SourceFile::new("--moves", record))
        .unwrap_or_else(|e| panic!("{e}"));
    let json = t.to_json();
    assert_eq!(
        json["plies"][0],
        serde_json::json!({"n": 1, "player": "black", "move": "C3", "phase": "play",
            "class": "N", "d": false, "legal_passes": ["E"]})
    );
    assert_eq!(json["plies"][2]["legal_passes"], serde_json::json!([]));
    assert_eq!(
        json["result"]["score"],
        serde_json::json!({"black": 26, "white": 1})
    );
    // Morris plies and results keep their shape: no Go keys.
    let morris = machine("nine-mens-morris");
    let t = morrigo_record::replay(&morris, "d1 d2", &SourceFile::new("--moves", "d1 d2"))
        .unwrap_or_else(|e| panic!("{e}"));
    let json = t.to_json();
    assert!(json["plies"][0].get("class").is_none());
    assert!(json["result"].get("score").is_none());
}

#[test]
fn error_go_point_off_the_board() {
    snap!("error__go_off_board", go_error("jk-final", 5, "C3 Z9"));
}

#[test]
fn error_go_unknown_pass_kind() {
    snap!(
        "error__go_unknown_pass_kind",
        go_error("jk-final", 5, "C3 pass:X")
    );
}

#[test]
fn error_go_ambiguous_pass() {
    snap!(
        "error__go_ambiguous_pass",
        go_error("jk-final", 5, "C3 pass")
    );
}

#[test]
fn error_go_forbidden_pass() {
    snap!(
        "error__go_forbidden_pass",
        go_error("jk-final", 5, "C3 pass:P")
    );
}

#[test]
fn error_go_move_after_resignation() {
    snap!(
        "error__go_move_after_resignation",
        go_error("jk-final", 5, "C3 D3 resign C4")
    );
}
