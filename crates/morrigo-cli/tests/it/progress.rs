//! Progress of the long commands (`perft`, `states`, `bench`, `solve`): a bar on a
//! terminal, nothing on a pipe, plain lines on a pipe with `--progress`.

use std::process::Command;

use crate::common::{assert_code, morrigo, root, stderr, stdout};

/// Commands that run long enough for a bar to be drawn (short in a test
/// build), with the label their bar shows.
const LONG_COMMANDS: [(&[&str], &str); 5] = [
    (&["perft", "nine-mens-morris", "4"], "perft depth 4 ["),
    (
        &["perft", "three-mens-morris", "5", "--to-end"],
        "perft --to-end 5 ",
    ),
    (
        &["states", "tromp-taylor", "--size", "3"],
        "states tromp-taylor (at most 10000000) ",
    ),
    (
        &[
            "bench",
            "three-mens-morris",
            "--games",
            "200",
            "--perft-depth",
            "3",
            "--search",
            "alphabeta:depth=2",
            "--positions",
            "5",
        ],
        "bench three-mens-morris: playouts [",
    ),
    (
        &["solve", "chinese-superko", "--size", "3x2", "--komi", "0"],
        "solve chinese-superko ",
    ),
];

/// What drawing a bar leaves in a stream: escape sequences (indicatif
/// clears its line with `ESC [2K`) and carriage returns.
fn bar_marks(text: &str) -> Vec<&'static str> {
    ["\x1b", "\r"]
        .into_iter()
        .filter(|m| text.contains(m))
        .collect()
}

#[test]
fn piped_output_has_no_progress_bar() {
    for (args, label) in LONG_COMMANDS {
        let o = morrigo(args);
        assert_code(&o, 0);
        assert!(!stdout(&o).is_empty(), "{args:?}: a result");
        assert_eq!(
            bar_marks(&stdout(&o)),
            Vec::<&str>::new(),
            "{args:?} stdout"
        );
        assert!(stderr(&o).is_empty(), "{args:?}: stderr {:?}", stderr(&o));
        assert!(!stdout(&o).contains(label.trim_end()), "{args:?}");
    }
}

#[test]
fn progress_on_a_pipe_is_plain_lines() {
    for (args, _) in LONG_COMMANDS {
        let o = morrigo(&[args, &["--progress"]].concat());
        assert_code(&o, 0);
        let err = stderr(&o);
        assert_eq!(bar_marks(&err), Vec::<&str>::new(), "{args:?}: {err:?}");
        assert!(
            err.lines().any(|l| l.ends_with(": started")),
            "{args:?}: {err}"
        );
        assert!(
            err.lines().any(|l| l.ends_with(": done")),
            "{args:?}: {err}"
        );
    }
    // A step count where the size is known: perft counts the nodes two
    // levels down (24 × 23 in Nine Men's Morris).
    let o = morrigo(&["perft", "nine-mens-morris", "3", "--progress"]);
    assert!(
        stderr(&o).contains("perft depth 3: 552/552"),
        "{}",
        stderr(&o)
    );
}

/// On a terminal (a pseudo-terminal made by `script`), the bar is drawn on
/// it, on its own line cleared when the work is done.
#[test]
fn a_terminal_gets_a_bar() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("no `script` command: the terminal case is not checked here");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_morrigo");
    for (args, label) in LONG_COMMANDS {
        let line = format!("{bin} {}", args.join(" "));
        let o = Command::new("script")
            .args(["-qec", &line, "/dev/null"])
            .current_dir(root())
            .output()
            .expect("script runs");
        assert_code(&o, 0);
        let seen = stdout(&o);
        assert!(
            seen.contains(label),
            "{args:?}: no bar `{label}` in {seen:?}"
        );
        assert!(
            seen.contains("\x1b[2K"),
            "{args:?}: the bar is not cleared: {seen:?}"
        );
    }
}
