//! Long records replay in linear time: a ruleset that reads `repetitions`
//! (and one with superko) replays a record of up to the record-length limit
//! in seconds, and the repetition count is still exact at its end.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::common::scratch_dir;

/// A linear replay takes seconds even in the debug build; the quadratic
/// rescans this guards against took minutes on these records.
const BOUND: Duration = Duration::from_secs(120);

/// Replay `record` with the ruleset `yaml`, both written to files.
fn replay(test: &str, yaml: &str, record: &str) -> (Output, Duration) {
    let dir = scratch_dir(test);
    let rules = dir.join("rules.yaml");
    let moves = dir.join("record.txt");
    std::fs::write(&rules, yaml).expect("write ruleset");
    std::fs::write(&moves, record).expect("write record");
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .arg("replay")
        .arg(&rules)
        .arg("--file")
        .arg(&moves)
        .output()
        .expect("the morrigo binary runs");
    let took = started.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    (out, took)
}

fn tail(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

/// Four points in a row, one piece each, a draw when a position occurs for
/// the 250,000th time.
const SHUTTLE: &str = "name: shuttle
board:
  explicit:
    nodes:
      - { name: a, at: [0, 0] }
      - { name: b, at: [1, 0] }
      - { name: c, at: [2, 0] }
      - { name: d, at: [3, 0] }
    edges: [[a, b], [b, c], [c, d]]
    lines: [[a, b, c, d]]
players: [white, black]
setup:
  in_hand: 1
phases:
  placing:
    when: \"in_hand(me) > 0\"
    actions:
      place: true
  moving:
    actions:
      slide: true
end:
  repetition:
    draw: \"repetitions >= 250000\"
";

/// `a d` then the pieces slide back and forth: the position after the
/// placements recurs every four slides, for the 250,000th time after
/// 999,996 slides (999,998 moves, just under the record-length limit), and
/// the repetition draw decides there.
#[test]
fn a_million_move_morris_record_reading_repetitions_replays_in_seconds() {
    let cycle = ["a-b", "d-c", "b-a", "c-d"];
    let mut record = String::from("a d");
    for i in 0..999_996 {
        record.push(' ');
        record.push_str(cycle[i % 4]);
    }
    let (out, took) = replay("shuttle", SHUTTLE, &record);
    let text = tail(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", tail(&out.stderr));
    assert!(text.contains("999998. black  c-d"), "{text}");
    assert!(text.contains("result: draw by rule `repetition`"), "{text}");
    assert!(took < BOUND, "replay took {took:?}");
}

/// Positional superko, a draw when a position occurs for the 150,000th
/// time. Go moves are never irreversible, so the whole game is one
/// reversible stretch.
const SUPERKO: &str = "name: superko-long
board:
  grid: { width: 5, height: 5, naming: gtp }
players: [black, white]
setup:
  in_hand: unlimited
phases:
  play:
    actions:
      play: true
      pass: true
play:
  suicide: legal
passes:
  kinds: [P]
repetition:
  superko: positional
end:
  repeated:
    draw: \"repetitions >= 150000\"
";

/// `C3` then passes: the position after `C3` (white to move) recurs after
/// every second pass, for the 150,000th time after 299,998 passes, and the
/// draw decides there.
#[test]
fn a_long_go_record_with_superko_reading_repetitions_replays_in_seconds() {
    let mut record = String::from("C3");
    for _ in 0..299_998 {
        record.push_str(" pass");
    }
    let (out, took) = replay("superko", SUPERKO, &record);
    let text = tail(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", tail(&out.stderr));
    assert!(text.contains("299999. black  pass"), "{text}");
    assert!(text.contains("result: draw by rule `repeated`"), "{text}");
    assert!(took < BOUND, "replay took {took:?}");
}
