//! Recorded GTP sessions (`tests/sessions/*.gtp`) fed to the engine line
//! by line; the replies are snapshotted, errors included. The first line
//! of each session gives the command line: `# morrigo gtp RULESET [--size
//! N] [--komi K] [--agent SPEC] [--seed S] [--plain-passes]`.

use morrigo_gtp::{Config, Engine};
use morrigo_rules::load::Overrides;
use std::path::Path;

fn engine(header: &str) -> Engine {
    let words: Vec<&str> = header
        .strip_prefix("# morrigo gtp ")
        .expect("a session starts with `# morrigo gtp RULESET …`")
        .split_whitespace()
        .collect();
    let mut cfg = Config {
        ruleset: words[0].to_string(),
        overrides: Overrides::default(),
        agent: morrigo_play::AgentSpec::Greedy,
        seed: 0,
        plain_passes: false,
    };
    let mut words = words[1..].iter().copied();
    while let Some(flag) = words.next() {
        if flag == "--plain-passes" {
            cfg.plain_passes = true;
            continue;
        }
        let value = words.next().expect("an option's value");
        match flag {
            "--size" => cfg.overrides.size = Some(Overrides::parse_size(value).unwrap()),
            "--komi" => cfg.overrides.komi = Some(value.parse().unwrap()),
            "--agent" => cfg.agent = value.parse().unwrap(),
            "--seed" => cfg.seed = value.parse().unwrap(),
            other => panic!("unknown option {other:?}"),
        }
    }
    Engine::new(cfg).expect("the session's ruleset loads")
}

/// The session as `> command` / reply pairs (comment and blank lines are
/// sent too: the engine must answer nothing to them).
fn transcript(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let mut e = engine(lines.next().unwrap());
    let mut out = String::new();
    for line in lines {
        let mut reply = Vec::new();
        e.run(&mut format!("{line}\n").as_bytes(), &mut reply)
            .unwrap();
        out += &format!("> {line}\n{}", String::from_utf8(reply).unwrap());
    }
    out
}

fn check(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sessions")
        .join(format!("{name}.gtp"));
    insta::assert_snapshot!(name, transcript(&path));
}

/// The standard commands and their failures on a Chinese-rules board.
#[test]
fn standard_commands_and_errors() {
    check("standard");
}

/// JK rules: typed passes, the plain pass mapped to the first kind allowed,
/// a pass refused by its forbid rule, the game ended by `E E`.
#[test]
fn jk_typed_passes_and_the_ending_sequence() {
    check("jk-passes");
}

/// Refused board plays name the rule: occupied point, suicide, ko.
#[test]
fn refused_moves_name_the_rule() {
    check("refusals");
}

/// Consecutive moves of one colour hand the turn over (`play`, `genmove`,
/// a plain pass typed for the player it hands to); `undo` takes back the
/// move and its hand-over; printsgf writes them and loadsgf reads them
/// back, with the handicap of `HA`.
#[test]
fn consecutive_moves_of_one_colour_hand_the_turn_over() {
    check("out-of-turn");
}

/// `--plain-passes`: `genmove` answers GTP's plain `pass`, and the agent
/// passes only by the kind a plain `pass` stands for (E after a board play
/// under jk-final, P at the start), so the GUI's record replays the same.
#[test]
fn plain_passes_for_guis() {
    check("plain-passes");
}

/// `final_status_list`: the chains in seki (by the reading `seki: nobody`
/// scores with), the other stones alive, none dead.
#[test]
fn final_status_list_names_the_chains_in_seki() {
    check("seki");
}

/// loadsgf sets the board size, komi and moves from a file; printsgf writes
/// the game back with its pass kinds.
#[test]
fn loadsgf_and_printsgf() {
    check("sgf");
}

/// The handicap commands: the standard's fixed points, the engine's free
/// placement, the controller's points; the stones are set-up stones with
/// White to move (`undo` keeps them, `clear_board` removes them, `printsgf`
/// writes `HA`, `AB` and `PL[W]`); every refusal (board not empty, number
/// of stones, bad vertex list, a move already played).
#[test]
fn handicap_commands_and_errors() {
    check("handicap");
}

/// A ruleset whose own set-up places stones: the board is not empty, so
/// the handicap commands fail, even after clear_board.
#[test]
fn handicap_on_a_ruleset_with_set_up_stones_fails() {
    check("handicap-setup");
}

/// `final_status_list dead` under `dead_stones: agreement` (chinese): the
/// ownership estimate names the lone stone inside the opponent's area and
/// no living group; after two passes a move resumes the game (clean-up),
/// and once the stone is captured none is dead.
#[test]
fn final_status_list_names_a_dead_stone_and_a_move_resumes_the_game() {
    check("dead-stones");
}
