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

/// The caps' lines of a Go-style solve's progress (`solve NAME: cap 16:
/// W+4.5 (1 first move open), 5078 nodes, 0.1 s`): each cap, what it
/// shows of the value and the nodes searched so far.
fn cap_lines(err: &str, name: &str) -> Vec<(u32, String, u64)> {
    let head = format!("solve {name}: cap ");
    err.lines()
        .filter_map(|l| l.strip_prefix(head.as_str()))
        .map(|l| {
            let (cap, rest) = l.split_once(": ").expect("cap N: …");
            let (value, rest) = rest.split_once(", ").expect("…, N nodes, T s");
            let (nodes, time) = rest.split_once(" nodes, ").expect("N nodes, T s");
            assert!(time.ends_with(" s"), "{l}");
            time.trim_end_matches(" s")
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("a time in {l:?}"));
            let cap = cap.parse().unwrap_or_else(|_| panic!("a cap in {l:?}"));
            let nodes = nodes.parse().unwrap_or_else(|_| panic!("nodes in {l:?}"));
            (cap, value.to_string(), nodes)
        })
        .collect()
}

/// A Go-style solve can run for hours: with `--progress` each ply cap
/// finished prints a line (its value, or the bounds the cut lines leave
/// it between; the nodes so far; the time), so a run stopped early keeps
/// what its caps found. The last cap's line is the result's value.
#[test]
fn a_go_solve_prints_each_cap_finished() {
    // The arguments, the caps searched, what the last cap's line shows and
    // how the result says it (both searches, exact values and bounds).
    let cases: [(&[&str], &[u32], &str, &str); 4] = [
        (
            &["solve", "japanese", "--size", "5x1"],
            &[16, 20],
            "W+4.5",
            "value: white wins by 4.5 (counted",
        ),
        (
            // Exact at 16: the best move's value is all it needs.
            &["solve", "japanese", "--size", "5x1", "--value-only"],
            &[16],
            "W+4.5",
            "value: white wins by 4.5 (counted",
        ),
        (
            &["solve", "chinese", "--size", "5x1", "--max-plies", "20"],
            &[16, 20],
            "W+12.5..W+2.5",
            "at least white wins by 12.5, at most white wins by 2.5",
        ),
        (
            &[
                "solve",
                "chinese",
                "--size",
                "2x2",
                "--max-plies",
                "20",
                "--no-transpositions",
            ],
            &[16, 20],
            "W+11.5..W+3.5",
            "white wins by 11.5 if black loses them, white wins by 3.5 if black wins them",
        ),
    ];
    for (args, caps, last, result) in cases {
        let name = args[1];
        let o = morrigo(&[args, &["--progress"]].concat());
        assert_code(&o, 0);
        let (out, err) = (stdout(&o), stderr(&o));
        assert!(out.contains(result), "{args:?}: {out}");
        let lines = cap_lines(&err, name);
        let seen: Vec<u32> = lines.iter().map(|(c, _, _)| *c).collect();
        assert_eq!(seen, caps, "{args:?}: {err}");
        let nodes: Vec<u64> = lines.iter().map(|(_, _, n)| *n).collect();
        assert!(nodes.is_sorted(), "{args:?}: {err}");
        let (_, value, n) = lines.last().expect("a cap line");
        assert_eq!(value, last, "{args:?}: {err}");
        assert!(
            out.contains(&format!("nodes searched: {n}\n")),
            "{args:?}: the last cap's nodes are the solve's: {out}"
        );
        // Among the plain progress lines, before the end.
        let done = err.find(&format!("solve {name}: done")).expect("done");
        assert!(
            err.find(&format!("solve {name}: cap ")) < Some(done),
            "{err}"
        );
    }
    // A cap whose value is exact but some first move's is not: the
    // search goes on, and the line says why.
    let o = morrigo(&["solve", "japanese", "--size", "5x1", "--progress"]);
    assert!(
        stderr(&o).contains("solve japanese: cap 16: W+4.5 (1 first move open), "),
        "{}",
        stderr(&o)
    );
    // Without --progress on a pipe, nothing.
    let o = morrigo(&["solve", "japanese", "--size", "5x1"]);
    assert_eq!(stderr(&o), "");
}

/// On a terminal the caps' lines go above the counter, each after the
/// counter's line is cleared, never into it.
#[test]
fn a_terminal_gets_the_caps_above_the_counter() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("no `script` command: the terminal case is not checked here");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_morrigo");
    let o = Command::new("script")
        .args([
            "-qec",
            &format!("{bin} solve japanese --size 5x1"),
            "/dev/null",
        ])
        .current_dir(root())
        .output()
        .expect("script runs");
    assert_code(&o, 0);
    let seen = stdout(&o);
    for cap in ["cap 16: W+4.5 (1 first move open), ", "cap 20: W+4.5, "] {
        assert!(
            seen.contains(&format!("\x1b[2Ksolve japanese: {cap}")),
            "no line `{cap}` on a cleared line in {seen:?}"
        );
    }
}
