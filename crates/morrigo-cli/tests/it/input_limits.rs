//! Every input is read in bounded memory: a file that never ends (a device,
//! a wrong path) is refused at `MAX_INPUT_BYTES` with an error naming it
//! (exit 1), and a line typed at `morrigo play` longer than
//! `MAX_LINE_BYTES` is skipped with a note. Before, `/dev/zero` as a
//! ruleset or a record was read until memory ran out.

use crate::common::{assert_code, morrigo, piped_in, root, stderr, stdout};

const TOO_LARGE: &str = "it is larger than 67108864 bytes, the limit for an input file";

#[test]
fn an_endless_ruleset_file_is_refused_at_the_limit() {
    let o = morrigo(&["check", "/dev/zero"]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains(&format!("cannot read `/dev/zero`: {TOO_LARGE}")),
        "{}",
        stderr(&o)
    );
}

#[test]
fn endless_record_and_sgf_files_are_refused_at_the_limit() {
    for flag in ["--file", "--sgf"] {
        let o = morrigo(&["replay", "chinese", flag, "/dev/zero"]);
        assert_code(&o, 1);
        assert!(stderr(&o).contains(TOO_LARGE), "{flag}: {}", stderr(&o));
    }
}

#[test]
fn a_line_too_long_for_play_is_skipped_and_play_goes_on() {
    let input = format!("{}\nd6\n", "x".repeat(100_000));
    let o = piped_in(
        &root(),
        &["play", "nine-mens-morris", "--agent", "greedy"],
        &input,
    );
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("a line longer than 65536 bytes is ignored"),
        "{out}"
    );
    assert!(!out.contains("xxxx"), "the long line is not echoed: {out}");
    assert!(out.contains("d6"), "the next line is played: {out}");
}
