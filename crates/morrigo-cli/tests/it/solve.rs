//! `morrigo solve`: exact values by retrograde analysis, from the start and
//! from hand-checkable positions, its refusals, and the saved table.

use crate::common::{assert_code, morrigo, scratch_dir, stderr, stdout};
use std::process::{Command, Output};

/// The report without its one machine-dependent line (the time taken).
fn report(o: &Output) -> String {
    stdout(o)
        .lines()
        .map(|l| {
            if l.starts_with("  time ") {
                "  time       [time]"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn three_mens_morris_report() {
    let o = morrigo(&["solve", "three-mens-morris", "--max-memory", "1G"]);
    assert_code(&o, 0);
    insta::assert_snapshot!(report(&o));
}

#[test]
fn the_value_names_the_winning_seat_and_the_history_rule_left_out() {
    let o = morrigo(&["solve", "three-mens-morris", "--max-memory", "1G"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    // Checked against a plain minimax in morrigo-solve's tests.
    assert!(
        out.contains("value      white wins in 9 plies (the first player wins)"),
        "{out}"
    );
    assert!(
        out.contains("end rule `repetition` reads the history"),
        "{out}"
    );
    assert!(out.contains("positions  5390 reachable"), "{out}");
}

#[test]
fn a_line_in_one_move_is_a_win_in_one_ply() {
    // White a1 b1, black a2 b2, white to move: c1 completes the bottom row.
    let o = morrigo(&[
        "solve",
        "three-mens-morris",
        "--position",
        "a1 a2 b1 b2",
        "--max-memory",
        "1G",
    ]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("value      white (to move) wins in 1 ply"),
        "{out}"
    );
    assert!(
        out.contains("line       c1 — white wins by end rule `line_made`"),
        "{out}"
    );
    assert!(out.contains("    c1  wins in 1"), "{out}");
}

#[test]
fn an_unavoidable_block_is_a_loss_in_two_plies() {
    // Seven points in a row: white a c f, black b d e, g empty. White's
    // only move is f-g, black's only answer e-f, and white is blocked.
    let o = morrigo(&[
        "solve",
        "tests/solve/tiny-row.yaml",
        "--position",
        "a b c d f e",
        "--max-memory",
        "1G",
    ]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("value      black wins in 2 plies (white to move loses)"),
        "{out}"
    );
    assert!(
        out.contains("line       f-g e-f — black wins by end rule `blocked`"),
        "{out}"
    );
}

#[test]
fn flying_changes_three_mens_morris_to_a_draw() {
    let o = morrigo(&[
        "solve",
        "tests/solve/three-mens-morris-flying.yaml",
        "--max-memory",
        "1G",
    ]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("value      draw (neither side can force a win)"),
        "{out}"
    );
    assert!(out.contains("then the position repeats"), "{out}");
}

#[test]
fn a_tiny_memory_limit_is_refused_with_the_estimate() {
    let o = morrigo(&["solve", "three-mens-morris", "--max-memory", "1K"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    // Refused before exploring: the index space of the segments random
    // lines pass through is a lower bound, already over the limit.
    assert!(
        err.contains("solve three-mens-morris: the solve needs at least"),
        "{err}"
    );
    assert!(
        err.contains("more than the limit of 1.0 KiB (--max-memory)"),
        "{err}"
    );
    assert!(err.contains("--max-memory SIZE"), "{err}");
}

/// A ruleset whose legality reads the history (ko, JK classes) cannot be
/// solved over positions: `solve` searches full histories instead, and a
/// table to `--save` is refused, as that search keeps none.
#[test]
fn go_style_rulesets_are_searched_over_full_histories() {
    let o = morrigo(&["solve", "jk-final", "--size", "2x1", "--komi", "0"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("search: full history"), "{out}");
    assert!(!out.contains("retrograde"), "{out}");
    let o = morrigo(&["solve", "jk-final", "--size", "2x1", "--save", "x.solve"]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("`--save` keeps a retrograde table, and jk-final reads the history"),
        "{err}"
    );
}

#[test]
fn a_saved_table_plays_perfectly_and_is_refused_for_other_rules() {
    let table = scratch_dir("three").join("three.solve");
    let path = table.to_str().unwrap();
    let o = morrigo(&[
        "solve",
        "three-mens-morris",
        "--save",
        path,
        "--max-memory",
        "1G",
    ]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("  saved      "), "{}", stdout(&o));
    // Three Men's Morris is a first-player win: perfect play as white wins
    // every game against any opponent.
    let agents = format!("perfect:table={path},random");
    let o = morrigo(&[
        "simulate",
        "three-mens-morris",
        "--agents",
        &agents,
        "--games",
        "40",
        "--seed",
        "3",
    ]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("white wins           40  100.0%"),
        "{}",
        stdout(&o)
    );
    // The same file for other rules: refused, naming the table's ruleset.
    let o = morrigo(&[
        "simulate",
        "six-mens-morris",
        "--agents",
        &agents,
        "--games",
        "1",
    ]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("was solved for other rules (`three-mens-morris`"),
        "{err}"
    );
    // Not a table at all.
    let junk = scratch_dir("junk").join("junk.solve");
    std::fs::write(&junk, "not a table").unwrap();
    let agents = format!("perfect:table={}", junk.to_str().unwrap());
    let o = morrigo(&["play", "three-mens-morris", "--agent", &agents]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("is not a solve table"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn perfect_against_perfect_plays_the_solved_value() {
    // Solved on the fly (small game): white wins in exactly 9 plies each game.
    let o = morrigo(&[
        "simulate",
        "three-mens-morris",
        "--agents",
        "perfect",
        "--games",
        "20",
        "--seed",
        "1",
    ]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("white wins           20  100.0%"), "{out}");
    assert!(out.contains("mean length         9.0 plies"), "{out}");
    // With flying the game is a draw: perfect players repeat positions
    // until the ruleset's own repetition rule ends the game.
    let o = morrigo(&[
        "simulate",
        "tests/solve/three-mens-morris-flying.yaml",
        "--agents",
        "perfect",
        "--games",
        "10",
        "--seed",
        "1",
    ]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("draws                10  100.0%"), "{out}");
}

#[test]
fn the_perfect_agent_refuses_games_too_large_to_solve_on_the_fly() {
    let o = morrigo(&[
        "simulate",
        "nine-mens-morris",
        "--agents",
        "perfect",
        "--games",
        "1",
    ]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("too large to solve on the fly"), "{err}");
    // One table cannot index Nine Men's Morris: the sector solver can.
    assert!(
        err.contains("`morrigo solve nine-mens-morris --db DIR` (the sector solver) and use `perfect:table=DIR`"),
        "{err}"
    );
}

#[test]
fn the_perfect_agent_opens_with_the_only_winning_move_in_play() {
    use std::io::Write;
    use std::process::Stdio;
    // b2 is the only first move that wins Three Men's Morris (see the
    // report's move list); a corner draws and a midpoint loses.
    let mut child = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args([
            "play",
            "three-mens-morris",
            "--as",
            "black",
            "--agent",
            "perfect",
            "--seed",
            "5",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("morrigo runs");
    child.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    let o = child.wait_with_output().unwrap();
    let out = stdout(&o);
    assert!(out.contains("the perfect agent plays white"), "{out}");
    assert!(out.contains("white plays b2"), "{out}");
}

#[test]
fn progress_is_plain_lines_on_a_pipe_when_asked_and_silent_otherwise() {
    let o = morrigo(&[
        "solve",
        "three-mens-morris",
        "--max-memory",
        "1G",
        "--progress",
    ]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("solve three-mens-morris: exploring the reachable positions: started"),
        "{err}"
    );
    assert!(
        err.contains("solve three-mens-morris: deciding positions: done"),
        "{err}"
    );
    let o = morrigo(&["solve", "three-mens-morris", "--max-memory", "1G"]);
    assert_code(&o, 0);
    assert_eq!(stderr(&o), "");
}

/// Fault: a flipped bit of a table loaded and changed the games the
/// perfect player plays. The table is sealed: `perfect:table=` refuses a
/// damaged one with its name and what is wrong, exit 1.
#[test]
fn a_perfect_agent_refuses_a_damaged_table_from_the_command_line() {
    let table = scratch_dir("damaged-table").join("three.solve");
    let path = table.to_str().unwrap();
    let o = morrigo(&["solve", "three-mens-morris", "--save", path]);
    assert_code(&o, 0);
    let mut bytes = std::fs::read(&table).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x01;
    std::fs::write(&table, &bytes).unwrap();
    let agents = format!("perfect:table={path},random");
    let o = morrigo(&[
        "simulate",
        "three-mens-morris",
        "--agents",
        &agents,
        "--games",
        "2",
    ]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "agent `perfect`: the table `{path}` is damaged: its checksum does not match"
        )),
        "{err}"
    );
    assert!(
        err.contains("solve it again with `morrigo solve three-mens-morris --save FILE`"),
        "{err}"
    );
    // A table of the format before checksums: refused, asking for the solve again.
    let mut old = std::fs::read(&table).unwrap();
    old[16] = 1;
    std::fs::write(&table, &old[..old.len() - 28]).unwrap();
    let o = morrigo(&[
        "play",
        "three-mens-morris",
        "--agent",
        &format!("perfect:table={path}"),
    ]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("format version 1, from before tables carried a checksum"),
        "{err}"
    );
}

/// A save that fails midway (a full disk, injected) leaves the old table
/// whole, and the solve says so (exit 1).
#[test]
fn a_failed_save_keeps_the_old_table() {
    let table = scratch_dir("failed-save").join("three.solve");
    let path = table.to_str().unwrap();
    std::fs::write(&table, b"old").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args(["solve", "three-mens-morris", "--save", path])
        .env("MORRIGO_FAIL_WRITES_AFTER", "1000")
        .output()
        .unwrap();
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("cannot write the table"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&table).unwrap(), b"old");
}

/// Run the binary with its address space limited to `kib` KiB (`ulimit -v`).
fn under_ulimit(kib: u64, args: &[&str]) -> Output {
    let mut cmd = format!("ulimit -v {kib}; exec \"$0\"");
    for i in 1..=args.len() {
        cmd += &format!(" \"${i}\"");
    }
    Command::new("bash")
        .arg("-c")
        .arg(cmd)
        .arg(env!("CARGO_BIN_EXE_morrigo"))
        .args(args)
        .output()
        .unwrap()
}

/// Exited with a status (no signal, no abort: 134 is SIGABRT's).
fn assert_refused(o: &Output) {
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(o.status.signal(), None, "killed by a signal: {}", stderr(o));
    assert_code(o, 1);
}

/// Fault: `solve six-mens-morris --max-memory 1G` aborted (an allocation
/// failed) under a 2 GiB ulimit: the limit was a hint, and a growing table
/// doubled past it. Each allocation is now reserved before it is made.
/// The same at a smaller scale (Five Men's Morris needs 565 MiB; the
/// probe's bound passes 300M, so the exploration itself reaches the limit).
#[test]
fn solve_under_a_ulimit_twice_its_budget_refuses_instead_of_aborting() {
    let o = under_ulimit(
        600 << 10,
        &["solve", "five-mens-morris", "--max-memory", "300M"],
    );
    assert_refused(&o);
    let err = stderr(&o);
    assert!(err.contains("error: solve five-mens-morris: "), "{err}");
    assert!(
        err.contains("more than the limit of 300.0 MiB (--max-memory)"),
        "{err}"
    );
    assert!(err.contains("in all"), "{err}");
}

/// A game far too large is refused before it is explored: random lines
/// from the start pass through segments whose index space alone passes
/// the 31-bit links (Nine Men's Morris explored for minutes before).
#[test]
fn solve_refuses_a_game_too_large_to_index_before_exploring_it() {
    let o = morrigo(&["solve", "nine-mens-morris", "--max-memory", "20G"]);
    assert_refused(&o);
    let err = stderr(&o);
    assert!(
        err.contains("error: solve nine-mens-morris: the positions cannot be indexed: the index space passes 2147483647 positions"),
        "{err}"
    );
    assert!(err.contains("--db"), "{err}");
}

/// Fault: the layered solve's tables were not budgeted, so under a small
/// `ulimit -v` it aborted (exit 134, "memory allocation of 67108864 bytes
/// failed"). Its large arrays are reserved first now, and any allocation
/// the system still refuses ends the process with a message and exit 1.
#[test]
fn a_layered_solve_under_a_small_ulimit_stops_with_a_message_not_an_abort() {
    let dir = std::env::temp_dir().join(format!("morrigo-layered-ulimit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    for kib in [250_000, 400_000] {
        let o = under_ulimit(
            kib,
            &[
                "solve",
                "six-mens-morris",
                "--shards",
                &format!("{d}/{kib}"),
            ],
        );
        assert_refused(&o);
        let err = stderr(&o);
        assert!(
            err.contains("needs about") || err.contains("error: out of memory"),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Fault: with no `--max-memory`, the default ignored `ulimit -v` and a
/// large solve aborted. The default is the smaller of the memory available
/// and the address space left.
#[test]
fn solve_of_a_larger_game_under_a_small_limit_refuses_with_the_estimate() {
    let o = under_ulimit(256 << 10, &["solve", "nine-mens-morris"]);
    assert_refused(&o);
    let err = stderr(&o);
    assert!(err.contains("error: solve nine-mens-morris: "), "{err}");
    assert!(err.contains("needs at least"), "{err}");
    assert!(
        err.contains("(the address space left under ulimit -v)"),
        "{err}"
    );
}

/// `--max-memory` is the peak the process holds: a solve allowed less than
/// it needs is refused; allowed enough, it runs, and its measured peak
/// (`MORRIGO_REPORT_PEAK`) stays under the limit.
#[test]
fn max_memory_is_a_peak_not_a_hint() {
    let o = morrigo(&["solve", "five-mens-morris", "--max-memory", "64M"]);
    assert_refused(&o);
    let err = stderr(&o);
    assert!(
        err.contains("more than the limit of 64.0 MiB (--max-memory)"),
        "{err}"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args(["solve", "three-mens-morris", "--max-memory", "24M"])
        .env("MORRIGO_REPORT_PEAK", "1")
        .output()
        .unwrap();
    assert_code(&o, 0);
    let err = stderr(&o);
    let peak: u64 = err
        .lines()
        .find_map(|l| l.strip_prefix("peak memory: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no peak reported: {err}"));
    assert!(
        peak > 0 && peak <= 24 << 20,
        "peak {peak} bytes past 24 MiB"
    );
}

/// Fault: `states` of a large game aborted (exit 134) under `ulimit -v`
/// instead of refusing: the default limit ignored the address space.
#[test]
fn states_of_a_large_game_under_a_small_limit_refuses_with_the_estimate() {
    let o = under_ulimit(256 << 10, &["states", "nine-mens-morris"]);
    assert_refused(&o);
    let err = stderr(&o);
    assert!(
        err.contains("error: states nine-mens-morris: stopped after"),
        "{err}"
    );
    assert!(err.contains("needs about"), "{err}");
    assert!(err.contains("in all, more than the limit of"), "{err}");
    assert!(
        stdout(&o).contains("stopped by the memory limit"),
        "{}",
        stdout(&o)
    );
}
