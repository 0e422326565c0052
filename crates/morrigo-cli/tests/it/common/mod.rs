//! What every CLI test file needs to run `morrigo` and read a finished run.
#![allow(dead_code)] // each test file uses its own part of it

/// An insta snapshot without the expression in its header (the tests
/// name what they snapshot). `main.rs` declares `#[macro_use] mod common;` first, so every test module has it.
#[allow(unused_macros)]
macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({ omit_expression => true }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The project root: built-in rulesets, `tests/rulesets`, `tests/scenarios`
/// and `tests/defects` are found from there.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Run `morrigo ARGS` in the project root, with nothing on stdin.
pub fn morrigo(args: &[&str]) -> Output {
    run_in(&root(), args)
}

/// Run `morrigo ARGS` in `dir`, with nothing on stdin.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the morrigo binary runs")
}

/// Run `morrigo ARGS` in `dir` with `input` on stdin (a pipe, as when a
/// script or a GUI drives it).
pub fn piped_in(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the morrigo binary runs");
    // Write from another thread: a long input must not block on a full
    // stdout pipe, and the program may end (closing stdin) before it is all read.
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("the morrigo binary ends");
    writer.join().expect("the stdin writer ends");
    output
}

/// This test's own name for files: all the CLI tests run in one binary
/// (one process), so files are kept apart by test. libtest names each
/// test's thread after the test; the thread id covers a run on one thread.
fn this_test() -> String {
    let thread = std::thread::current();
    let name = match thread.name() {
        Some(n) if n != "main" => n.to_string(),
        _ => format!("{:?}", thread.id()),
    };
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// A fresh, empty directory under the temp directory, unique to this
/// test, this process and `tag`.
pub fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "morrigo-cli-{}-{}-{tag}",
        this_test(),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// Write `text` to `name` in this test's temp directory (shared by the
/// files one test writes, so that one may name another) and return the
/// file's path.
pub fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "morrigo-cli-{}-{}",
        this_test(),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path
}

/// Write `text` to `name` in a fresh directory and run `morrigo check name`
/// there, so messages name the file without a directory.
pub fn check(name: &str, text: &str) -> Output {
    let dir = scratch_dir(name.trim_end_matches(".yaml"));
    std::fs::write(dir.join(name), text).expect("write ruleset");
    run_in(&dir, &["check", name])
}

/// `check` exits 1 and its first line is an error in `file` at `at` (line:column)
/// saying `needle`; returns the whole of stderr.
#[track_caller]
pub fn refused(o: &Output, file: &str, at: &str, needle: &str) -> String {
    assert_code(o, 1);
    let err = stderr(o);
    let first = err.lines().next().unwrap_or_default();
    assert!(first.starts_with(&format!("{file}:{at}: error")), "{err}");
    assert!(first.contains(needle), "{err}");
    err
}

/// A ruleset named `name` extending nine men's morris with `body` added.
pub fn variant(name: &str, body: &str) -> String {
    format!("name: {name}\nextends: nine-mens-morris\n{body}")
}

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
