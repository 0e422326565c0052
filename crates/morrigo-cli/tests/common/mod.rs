//! What every CLI test file needs to read a finished `morrigo` run.
#![allow(dead_code)] // each test file uses its own part of it

use std::process::Output;

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The exit status is `code`; on failure both streams are shown (stderr cut
/// at 4000 characters: some refusals quote long inputs).
#[track_caller]
pub fn assert_code(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "exit status\n--- stdout\n{}\n--- stderr\n{}",
        stdout(o),
        stderr(o).chars().take(4000).collect::<String>()
    );
}
