//! `morrigo match`: the referee, with GNU Go (Debian package `gnugo`,
//! installed by `.ci/run`) and `morrigo gtp` as the players, and with test
//! engines that crash, hang, talk nonsense or play illegal moves. The tests
//! that play GNU Go are skipped with a notice where it is not installed
//! (see `gnugo`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{assert_code, morrigo, root, scratch_dir, stdout};

/// The notice a test that plays GNU Go prints when it is skipped.
const SKIPPED: &str = "skipped: GNU Go is not installed (apt-get install gnugo); set MORRIGO_REQUIRE_GNUGO=1 to make this an error";

/// GNU Go's path (`MORRIGO_GNUGO`, else on the PATH, else where Debian
/// puts it), or `None` with a printed notice when it is not installed: a
/// fresh machine with only a Rust toolchain passes the tests. With
/// `MORRIGO_REQUIRE_GNUGO=1` (as `.ci/run` sets) a missing GNU Go fails.
/// Every test that plays GNU Go starts here.
fn gnugo() -> Option<String> {
    let found = match std::env::var_os("MORRIGO_GNUGO") {
        Some(p) => Some(PathBuf::from(p)).filter(|p| p.is_file()),
        None => std::env::var_os("PATH")
            .into_iter()
            .flat_map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
            .map(|dir| dir.join("gnugo"))
            .chain([PathBuf::from("/usr/games/gnugo")])
            .find(|p| p.is_file()),
    };
    if found.is_none() {
        assert!(
            std::env::var("MORRIGO_REQUIRE_GNUGO").as_deref() != Ok("1"),
            "GNU Go is not installed and MORRIGO_REQUIRE_GNUGO=1: `apt-get install gnugo` (as `.ci/run` does)"
        );
        // Written to stderr itself, not through `eprintln!`, which the
        // test harness captures: the notice shows in `cargo test`'s output.
        let _ = writeln!(std::io::stderr(), "{SKIPPED}");
    }
    found.map(|p| p.display().to_string())
}

/// GNU Go at its fastest level: these tests check the referee, not play.
/// GNU Go at level 1, never resigning: these games test how the referee
/// ends and counts a game by the rules, which a resignation would skip.
fn gnugo_cmd() -> Option<String> {
    gnugo().map(|g| format!("{g} --mode gtp --level 1 --never-resign"))
}

fn morrigo_gtp(ruleset: &str, size: &str) -> String {
    format!(
        "'{}' gtp {ruleset} --size {size} --agent mcts:playouts=200 --seed 5",
        env!("CARGO_BIN_EXE_morrigo")
    )
}

fn faulty(mode: &str) -> String {
    format!(
        "sh '{}' {mode}",
        root().join("tests/gtp/faulty-engine.sh").display()
    )
}

use morrigo_gtp::referee::GameRecord as Rec;

fn results(dir: &Path) -> Vec<Rec> {
    std::fs::read_to_string(dir.join("results.jsonl"))
        .expect("the results file")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a results line"))
        .collect()
}

fn run_match(ruleset: &str, size: &str, extra: &[&str], dir: &Path) -> Output {
    let out = dir.display().to_string();
    let mut args = vec!["match", ruleset, "--size", size, "--out", &out];
    args.extend_from_slice(extra);
    morrigo(&args)
}

/// Every game of a finished match replays under the ruleset from its SGF
/// (`replay` checks each move, the end and the recorded result), and a
/// counted game's margin is its recorded score.
fn check_games(ruleset: &str, size: &str, dir: &Path, recs: &[Rec]) {
    for r in recs {
        let sgf = dir.join(&r.sgf);
        let text = std::fs::read_to_string(&sgf).unwrap();
        assert!(text.contains(&format!("RU[{ruleset}]")), "{text}");
        let result = r.result.as_deref().expect("a finished game");
        assert!(text.contains(&format!("RE[{result}]")), "{text}");
        // A clean-up's moves follow the passes that ended the game, where
        // `replay` stops: morrigo-gtp's dead-stone tests check those games.
        let cleanup = r.dead_stones.as_ref().is_some_and(|d| d.how == "clean-up");
        if !cleanup {
            let o = morrigo(&[
                "replay",
                ruleset,
                "--size",
                size,
                "--sgf",
                &sgf.display().to_string(),
            ]);
            assert_code(&o, 0);
        }
        if let Some([b, w]) = r.score {
            let margin = (b - w).abs();
            let winner = if b > w { "B" } else { "W" };
            assert_eq!(result, format!("{winner}+{margin}"), "{r:?}");
        }
    }
}

fn engine_game(ruleset: &str, size: &str, komi: &str) -> Option<(PathBuf, Vec<Rec>, String)> {
    let gg = gnugo_cmd()?;
    let dir = scratch_dir(ruleset);
    let me = morrigo_gtp(ruleset, size);
    let o = run_match(
        ruleset,
        size,
        &[
            "--komi", komi, "--games", "2", "--swap", "--black", &me, "--white", &gg,
        ],
        &dir,
    );
    assert_code(&o, 0);
    let recs = results(&dir);
    assert_eq!(recs.len(), 2);
    // Colours swap: morrigo is black in game 1, white in game 2.
    assert_eq!(
        (recs[0].black.as_str(), recs[1].white.as_str()),
        (me.as_str(), me.as_str())
    );
    check_games(ruleset, size, &dir, &recs);
    Some((dir, recs, stdout(&o)))
}

/// Chinese rules: both games end by the ruleset's two passes and are
/// counted by area, komi included.
#[test]
fn morrigo_against_gnugo_under_chinese_rules() {
    let Some((_, recs, out)) = engine_game("chinese", "5", "0.5") else {
        return;
    };
    for r in &recs {
        assert_eq!(r.end, "two_passes", "{r:?}");
        assert!(r.score.is_some(), "{r:?}");
        // `dead_stones: agreement`: both engines were asked.
        let how = r.dead_stones.as_ref().map(|d| d.how.as_str());
        assert!(matches!(how, Some("agreed" | "clean-up")), "{r:?}");
    }
    assert!(out.contains("| games |"), "the compare table: {out}");
    assert!(out.contains("Engines: "), "{out}");
}

/// Tromp-Taylor: positional superko is the referee's to enforce; the games
/// end by two passes and are counted, by a superko violation, or by GNU
/// Go refusing a suicide of several stones (legal under Tromp-Taylor,
/// which GNU Go does not play).
#[test]
fn morrigo_against_gnugo_under_tromp_taylor() {
    let Some((_, recs, _)) = engine_game("tromp-taylor", "5", "0.5") else {
        return;
    };
    for r in &recs {
        assert!(r.result.is_some(), "{r:?}");
        let gnugo_refused = r.end == "refused" && r.reason.contains("gnugo");
        assert!(
            r.end == "two_passes" || r.end == "illegal move" || gnugo_refused,
            "a game ends by the rules, a superko violation or GNU Go's refusal: {r:?}"
        );
    }
}

/// JK rules: GNU Go's plain passes become P or E as the pass rules allow,
/// the SGF records the kinds (`PK`), and the games end by the JK ending
/// sequences.
#[test]
fn morrigo_against_gnugo_under_jk_final() {
    let Some((dir, recs, _)) = engine_game("jk-final", "5", "0.5") else {
        return;
    };
    let mut kinds = 0;
    for r in &recs {
        let text = std::fs::read_to_string(dir.join(&r.sgf)).unwrap();
        kinds += text.matches("PK[E]").count();
        // Ended by a JK end rule (the ending sequence, a suicide or a
        // repetition that loses), a move the rules refuse, or GNU Go
        // refusing a move JK allows (a suicide, a ko retake its simple ko
        // forbids).
        if r.end == "refused" && r.reason.contains("gnugo") {
            continue;
        }
        assert!(
            [
                "ending_sequence",
                "suicide",
                "immediate_repetition",
                "repeated_board",
                "illegal move"
            ]
            .contains(&r.end.as_str()),
            "{r:?}"
        );
    }
    assert!(kinds > 0, "ending passes are recorded as PK[E]");
}

/// A crash is a loss by forfeit (`+F`) with the exit status in the reason;
/// the match goes on to the next game.
#[test]
fn a_crashing_engine_loses_and_the_match_goes_on() {
    let dir = scratch_dir("crash");
    let o = run_match(
        "chinese",
        "5",
        &[
            "--games",
            "2",
            "--swap",
            "--black",
            &faulty("crash"),
            "--white",
            &faulty("illegal"),
        ],
        &dir,
    );
    assert_code(&o, 0);
    let recs = results(&dir);
    assert_eq!(recs.len(), 2);
    assert_eq!(
        (recs[0].end.as_str(), recs[0].result.as_deref()),
        ("crash", Some("W+F"))
    );
    assert_eq!(
        (recs[1].end.as_str(), recs[1].result.as_deref()),
        ("crash", Some("B+F"))
    );
    assert!(recs[0].reason.contains("exit status: 3"), "{:?}", recs[0]);
    assert!(recs[0].reason.contains("genmove b"), "{:?}", recs[0]);
}

/// An engine that does not answer within --timeout loses on time (`+T`),
/// and is ended so the match goes on.
#[test]
fn a_hanging_engine_loses_on_time() {
    let dir = scratch_dir("hang");
    let started = std::time::Instant::now();
    let o = run_match(
        "tromp-taylor",
        "5",
        &[
            "--games",
            "2",
            "--timeout",
            "1",
            "--black",
            &faulty("illegal"),
            "--white",
            &faulty("hang"),
        ],
        &dir,
    );
    assert_code(&o, 0);
    assert!(started.elapsed().as_secs() < 20, "timeouts are enforced");
    let recs = results(&dir);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(
            (r.end.as_str(), r.result.as_deref()),
            ("timeout", Some("B+T"))
        );
        assert!(
            r.reason.contains("no answer to `genmove w` within 1.0 s"),
            "{r:?}"
        );
    }
}

/// The record of one game of chinese 5×5: the faulty engine `kind` as
/// black against GNU Go (the match itself goes on: exit 0).
fn faulty_black_game(kind: &str) -> Option<Rec> {
    let gg = gnugo_cmd()?;
    let dir = scratch_dir(kind);
    let o = run_match(
        "chinese",
        "5",
        &["--games", "1", "--black", &faulty(kind), "--white", &gg],
        &dir,
    );
    assert_code(&o, 0);
    Some(results(&dir).swap_remove(0))
}

/// Nonsense and illegal moves lose with a located reason; the refusal
/// names the rule.
#[test]
fn garbage_and_illegal_moves_lose_with_the_reason() {
    let Some(r) = &faulty_black_game("garbage") else {
        return;
    };
    assert_eq!(
        (r.end.as_str(), r.result.as_deref()),
        ("not GTP", Some("W+F"))
    );
    assert!(r.reason.contains("`hello, referee`"), "{r:?}");

    // An answer that never ends is cut off at 1 MiB.
    let r = &faulty_black_game("flood").unwrap();
    assert_eq!(
        (r.end.as_str(), r.result.as_deref()),
        ("not GTP", Some("W+F"))
    );
    assert!(r.reason.contains("longer than 1048576 bytes"), "{r:?}");

    let r = &faulty_black_game("illegal").unwrap();
    assert_eq!(
        (r.end.as_str(), r.result.as_deref()),
        ("illegal move", Some("W+F"))
    );
    assert!(r.reason.contains("played `A1`: A1 is occupied"), "{r:?}");
    assert_eq!(r.moves, 2, "A1, then white's reply: {r:?}");
}

/// An interrupted match resumes: finished games are kept as they were, a
/// line cut short by the kill is dropped and its game played again.
#[test]
fn a_killed_match_resumes_where_it_stopped() {
    let dir = scratch_dir("resume");
    let args = |n: &'static str| {
        vec![
            "--games".to_string(),
            n.to_string(),
            "--black".into(),
            faulty("crash"),
            "--white".into(),
            faulty("illegal"),
        ]
    };
    let a = args("1");
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    assert_code(&run_match("chinese", "5", &a, &dir), 0);
    let first = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    // What a kill in the middle of writing game 2's line leaves.
    std::fs::write(
        dir.join("results.jsonl"),
        format!("{first}{{\"game\":2,\"bl"),
    )
    .unwrap();
    let a = args("3");
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let o = run_match("chinese", "5", &a, &dir);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        !out.contains("game 1:"),
        "game 1 is not played again: {out}"
    );
    assert!(out.contains("game 2:") && out.contains("game 3:"), "{out}");
    let text = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    assert!(text.starts_with(&first), "game 1's line is kept as written");
    let games: Vec<u32> = results(&dir).iter().map(|r| r.game).collect();
    assert_eq!(games, [1, 2, 3]);
    assert!(
        out.contains("|     3 |"),
        "the table counts all three games: {out}"
    );

    // Another pairing in the same directory is refused, not mixed in.
    let o = run_match(
        "chinese",
        "5",
        &[
            "--games",
            "3",
            "--black",
            &faulty("illegal"),
            "--white",
            &faulty("crash"),
        ],
        &dir,
    );
    assert_code(&o, 1);
}

/// A match killed in the middle of a game (SIGKILL: no clean-up) resumes:
/// the finished game is kept, the interrupted one is played again.
#[test]
fn a_match_killed_mid_game_resumes() {
    let dir = scratch_dir("killed");
    let script = root().join("tests/gtp/faulty-engine.sh");
    // Game 1 ends at once (a crash); later games answer after 4 s.
    let black = format!(
        "sh -c 'if [ {{game}} = 1 ]; then exec sh {0} crash; else exec sh {0} slow; fi'",
        script.display()
    );
    let white = faulty("illegal");
    let out = dir.display().to_string();
    let args = [
        "match", "chinese", "--size", "5", "--games", "3", "--out", &out, "--black", &black,
        "--white", &white,
    ];
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .current_dir(root())
        .args(args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let results_file = dir.join("results.jsonl");
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&results_file).map_or(true, |t| t.lines().count() < 1) {
        assert!(started.elapsed().as_secs() < 20, "game 1 ends at once");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let first = std::fs::read_to_string(&results_file).unwrap();
    assert_eq!(first.lines().count(), 1, "killed during game 2: {first}");

    let o = morrigo(&args[..]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(!out.contains("game 1:"), "{out}");
    let text = std::fs::read_to_string(&results_file).unwrap();
    assert!(text.starts_with(&first));
    let recs = results(&dir);
    let games: Vec<u32> = recs.iter().map(|r| r.game).collect();
    assert_eq!(games, [1, 2, 3]);
    assert_eq!(recs[0].end, "crash");
    assert_eq!(
        recs[1].end, "illegal move",
        "the slow engine's second A1: {:?}",
        recs[1]
    );
}

/// Parallel games: each job runs its own engine processes; every game is
/// recorded once; `{game}` in a command line is the game number; the
/// engines' line counts each engine's wins across the colour swaps.
#[test]
fn jobs_play_games_in_parallel() {
    let dir = scratch_dir("jobs");
    let o = run_match(
        "chinese",
        "5",
        &[
            "--games",
            "4",
            "--swap",
            "--jobs",
            "2",
            "--black",
            &faulty("illegal {game}"),
            "--white",
            &faulty("crash"),
        ],
        &dir,
    );
    assert_code(&o, 0);
    let mut recs = results(&dir);
    recs.sort_by_key(|r| r.game);
    let games: Vec<u32> = recs.iter().map(|r| r.game).collect();
    assert_eq!(games, [1, 2, 3, 4]);
    // The illegal engine plays black in odd games, white in even ones.
    assert!(recs[0].black.ends_with("illegal 1"), "{:?}", recs[0]);
    assert!(recs[1].white.ends_with("illegal 2"), "{:?}", recs[1]);
    // The crashing engine crashes at its first genmove, before the
    // illegal engine repeats a move.
    for r in &recs {
        assert_eq!(r.end, "crash", "{r:?}");
    }
    let out = stdout(&o);
    assert!(
        out.contains("(--black) won 4 of 4 (2 of 2 as black)")
            && out.contains("(--white) won 0 of 4 (0 of 2 as black)"),
        "{out}"
    );
}

/// A Morris ruleset is a usage error.
#[test]
fn a_morris_ruleset_is_refused() {
    let dir = scratch_dir("morris");
    let o = morrigo(&[
        "match",
        "nine-mens-morris",
        "--black",
        "x",
        "--white",
        "y",
        "--out",
        &dir.display().to_string(),
    ]);
    assert_code(&o, 2);
}

/// `--handicap 2` on 9x9: both engines take `fixed_handicap 2` (GNU Go
/// places the standard's C3 G7 too), White moves first, and each game's
/// SGF records the handicap (`HA[2]`, Black's `AB` stones, `PL[W]`) and
/// replays under the ruleset from that position.
#[test]
fn a_handicap_game_against_gnugo_starts_with_the_fixed_stones() {
    let Some(gg) = gnugo_cmd() else {
        return;
    };
    let dir = scratch_dir("handicap");
    let me = format!(
        "'{}' gtp chinese --size 9 --agent greedy --seed 5",
        env!("CARGO_BIN_EXE_morrigo")
    );
    let o = run_match(
        "chinese",
        "9",
        &[
            "--komi",
            "0.5",
            "--handicap",
            "2",
            "--games",
            "2",
            "--swap",
            "--black",
            &me,
            "--white",
            &gg,
        ],
        &dir,
    );
    assert_code(&o, 0);
    let recs = results(&dir);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r.handicap, Some(2), "{r:?}");
        assert_eq!(
            r.end, "two_passes",
            "both engines took the handicap and played the game out: {r:?}"
        );
        let text = std::fs::read_to_string(dir.join(&r.sgf)).unwrap();
        // C3 and G7, the standard's two stones on 9x9.
        assert!(text.contains("HA[2]AB[cg][gc]PL[W]"), "{text}");
        assert!(!text.contains("AW["), "{text}");
        assert!(text.contains("\n;W["), "White moves first: {text}");
    }
    // Each game replays under the ruleset from the handicap position.
    check_games("chinese", "9", &dir, &recs);
}

/// An engine whose `fixed_handicap` answer is not the standard's points
/// (the faulty engine answers nothing) loses the game by forfeit, end
/// `handicap`, with both answers in the reason. A handicap the standard
/// does not define is refused before any game (exit 2), and a results
/// directory of another handicap is not resumed.
#[test]
fn a_wrong_handicap_placement_loses_and_bad_handicaps_are_refused() {
    let Some(gg) = gnugo_cmd() else {
        return;
    };
    let dir = scratch_dir("handicap-wrong");
    let args = |h: &'static str| {
        vec![
            "--handicap".to_string(),
            h.to_string(),
            "--games".into(),
            "1".into(),
            "--black".into(),
            gg.clone(),
            "--white".into(),
            faulty("illegal"),
        ]
    };
    let a = args("2");
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let o = run_match("chinese", "9", &a, &dir);
    assert_code(&o, 0);
    let r = results(&dir).swap_remove(0);
    assert_eq!(
        (r.end.as_str(), r.result.as_deref(), r.moves),
        ("handicap", Some("B+F"), 0),
        "{r:?}"
    );
    assert!(
        r.reason
            .contains("answered `fixed_handicap 2` with ``, not the standard's C3 G7"),
        "{r:?}"
    );

    // No fixed placement: 5 stones on 8x8, any on 5x5.
    for (size, h) in [("8", "5"), ("5", "2")] {
        let o = run_match(
            "chinese",
            size,
            &args(h).iter().map(String::as_str).collect::<Vec<_>>(),
            &dir,
        );
        assert_code(&o, 2);
        assert!(
            crate::common::stderr(&o).contains("--handicap"),
            "{}",
            crate::common::stderr(&o)
        );
    }
    // The same directory without the handicap: another match.
    let o = run_match(
        "chinese",
        "9",
        &[
            "--games",
            "1",
            "--black",
            &gg,
            "--white",
            &faulty("illegal"),
        ],
        &dir,
    );
    assert_code(&o, 1);
    assert!(
        crate::common::stderr(&o).contains("handicap 2"),
        "{}",
        crate::common::stderr(&o)
    );
}

/// `morrigo gtp`'s `fixed_handicap` places the stones GNU Go places (the
/// GTP standard's table) on every size from 5x5 to 19x19, for 1 to 10
/// stones, and refuses the counts GNU Go refuses.
#[test]
fn fixed_handicap_matches_gnugo_on_every_size() {
    let Some(gnugo) = gnugo() else {
        return;
    };
    let mut script = String::new();
    for size in 5..=19 {
        for n in 1..=10 {
            script += &format!("boardsize {size}\nfixed_handicap {n}\n");
        }
    }
    // Each `fixed_handicap` answer as `?` or its vertices, sorted.
    let answers = |cmd: &str| -> Vec<String> {
        let o = std::process::Command::new("sh")
            .args(["-c", cmd])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(script.as_bytes())?;
                child.wait_with_output()
            })
            .unwrap();
        let text = String::from_utf8(o.stdout).unwrap();
        let replies: Vec<&str> = text.split("\n\n").filter(|r| !r.is_empty()).collect();
        assert_eq!(replies.len(), 15 * 20, "{cmd}: {text}");
        replies
            .iter()
            .skip(1)
            .step_by(2)
            .map(|r| match r.strip_prefix('=') {
                Some(v) => {
                    let mut v: Vec<&str> = v.split_whitespace().collect();
                    v.sort();
                    v.join(" ")
                }
                None => "?".to_string(),
            })
            .collect()
    };
    let ours = answers(&format!(
        "'{}' gtp chinese --agent greedy",
        env!("CARGO_BIN_EXE_morrigo")
    ));
    let gnugo = answers(&format!("{gnugo} --mode gtp"));
    assert!(ours.iter().filter(|a| *a != "?").count() > 50, "{ours:?}");
    assert_eq!(ours, gnugo);
}

/// Resident memory of process `pid` in KiB (0 once it is gone).
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Run a one-game match of `black` against the illegal engine, sampling
/// the referee's resident memory: the record and the peak in KiB.
fn watched_game(tag: &str, black: &str, timeout: &str) -> (Rec, u64, std::time::Duration) {
    let dir = scratch_dir(tag);
    let out = dir.display().to_string();
    let white = faulty("illegal");
    let started = std::time::Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .current_dir(root())
        .args([
            "match",
            "chinese",
            "--size",
            "5",
            "--games",
            "1",
            "--timeout",
            timeout,
            "--out",
            &out,
            "--black",
            black,
            "--white",
            &white,
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut peak = 0;
    while child.try_wait().unwrap().is_none() {
        peak = peak.max(rss_kib(child.id()));
        assert!(started.elapsed().as_secs() < 60, "the referee hangs");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let took = started.elapsed();
    (results(&dir).swap_remove(0), peak, took)
}

/// An engine printing only empty lines at full speed is read until the
/// deadline and loses on time, the referee's memory staying small (it grew
/// without bound: 5.6 GB in 25 s).
#[test]
fn an_engine_printing_only_empty_lines_loses_on_time_in_bounded_memory() {
    let (r, peak, took) = watched_game("blank", &faulty("blank"), "3");
    assert_eq!(
        (r.end.as_str(), r.result.as_deref()),
        ("timeout", Some("W+T")),
        "{r:?}"
    );
    assert!(r.reason.contains("within 3.0 s"), "{r:?}");
    assert!(took.as_secs() < 20, "the deadline holds: {took:?}");
    assert!(peak < 64 * 1024, "the referee's peak RSS {peak} KiB");
}

/// One endless line is refused as soon as it passes the line limit, and
/// random bytes at full speed are not GTP: both in bounded memory.
#[test]
fn an_endless_line_or_random_bytes_lose_at_once_in_bounded_memory() {
    let (r, peak, took) = watched_game("longline", &faulty("longline"), "30");
    assert_eq!(r.end, "not GTP", "{r:?}");
    assert!(r.reason.contains("a line longer than 65536 bytes"), "{r:?}");
    assert!(took.as_secs() < 20, "not read to its end: {took:?}");
    assert!(peak < 64 * 1024, "the referee's peak RSS {peak} KiB");

    let (r, peak, _) = watched_game("noise", &faulty("noise"), "30");
    assert_eq!(r.end, "not GTP", "{r:?}");
    assert!(peak < 64 * 1024, "the referee's peak RSS {peak} KiB");
}

/// Start a match that hangs in game 1 (black waits at `genmove` for 60 s),
/// its engines writing their pids to DIR/black.pid and DIR/white.pid;
/// returns once both engines run.
fn hanging_match(dir: &Path) -> std::process::Child {
    let out = dir.display().to_string();
    let engine = |who: &str| {
        faulty(&format!(
            "pidfile '{}'",
            dir.join(format!("{who}.pid")).display()
        ))
    };
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .current_dir(root())
        .args([
            "match",
            "chinese",
            "--size",
            "5",
            "--games",
            "2",
            "--timeout",
            "60",
            "--out",
            &out,
            "--black",
            &engine("black"),
            "--white",
            &engine("white"),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !["black", "white"].iter().all(|w| {
        std::fs::read_to_string(dir.join(format!("{w}.pid"))).is_ok_and(|t| t.ends_with('\n'))
    }) {
        assert!(started.elapsed().as_secs() < 20, "the engines start");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child
}

/// Whether process `pid` still runs (a zombie awaiting its reaper does not).
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        !s.rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

fn signal(pid: u32, sig: &str) {
    let ok = std::process::Command::new("kill")
        .args([&format!("-{sig}"), &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{sig} {pid}");
}

/// SIGTERM or SIGINT to the referee kills the engines it started (they ran
/// on, in process groups of their own, after the referee was gone).
#[test]
fn engines_die_with_the_referee_on_sigterm() {
    for sig in ["TERM", "INT"] {
        let dir = scratch_dir(&format!("signal-{sig}"));
        let mut child = hanging_match(&dir);
        let pids: Vec<String> = ["black", "white"]
            .iter()
            .map(|w| {
                std::fs::read_to_string(dir.join(format!("{w}.pid")))
                    .unwrap()
                    .trim()
                    .to_string()
            })
            .collect();
        assert!(pids.iter().all(|p| running(p)), "{pids:?}");
        signal(child.id(), sig);
        let status = child.wait().unwrap();
        assert!(!status.success(), "SIG{sig} ends the referee: {status}");
        let started = std::time::Instant::now();
        while pids.iter().any(|p| running(p)) {
            assert!(
                started.elapsed().as_secs() < 5,
                "engines {pids:?} outlive the referee after SIG{sig}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

/// A second referee on a running match's --out is refused (exit 1, saying
/// so): two referees recorded every game twice.
#[test]
fn a_second_referee_on_one_out_is_refused() {
    let dir = scratch_dir("two-referees");
    let mut first = hanging_match(&dir);
    let o = run_match(
        "chinese",
        "5",
        &[
            "--games",
            "2",
            "--black",
            &faulty("crash"),
            "--white",
            &faulty("crash"),
        ],
        &dir,
    );
    assert_code(&o, 1);
    let err = crate::common::stderr(&o);
    assert!(
        err.contains("is in use by another process") && err.contains("one referee per --out"),
        "{err}"
    );
    signal(first.id(), "TERM");
    first.wait().unwrap();
    assert!(
        !dir.join("results.jsonl").exists()
            || std::fs::read_to_string(dir.join("results.jsonl"))
                .unwrap()
                .is_empty(),
        "the refused referee wrote nothing"
    );
}

/// Two quick games (black crashes at once) into `dir` under `extra`.
fn quick_match(dir: &Path, games: &str, extra: &[&str]) -> Output {
    let (black, white) = (faulty("crash"), faulty("illegal"));
    let mut args = vec!["--games", games, "--black", &black, "--white", &white];
    args.extend_from_slice(extra);
    run_match("chinese", "5", &args, dir)
}

/// A resume under another komi, size or ruleset is refused (exit 1),
/// naming what differs: it merged another match's games.
#[test]
fn a_resume_under_another_komi_is_refused() {
    let dir = scratch_dir("other-komi");
    assert_code(&quick_match(&dir, "1", &["--komi", "7"]), 0);
    let o = quick_match(&dir, "2", &["--komi", "6.5"]);
    assert_code(&o, 1);
    assert!(
        crate::common::stderr(&o).contains("was made under komi 7, not komi 6.5"),
        "{}",
        crate::common::stderr(&o)
    );
    // Another size.
    let out = dir.display().to_string();
    let (black, white) = (faulty("crash"), faulty("illegal"));
    let o = morrigo(&[
        "match", "chinese", "--size", "7", "--komi", "7", "--games", "2", "--out", &out, "--black",
        &black, "--white", &white,
    ]);
    assert_code(&o, 1);
    assert!(
        crate::common::stderr(&o).contains("size 5x5, not size 7x7"),
        "{}",
        crate::common::stderr(&o)
    );
    // Another ruleset.
    let o = morrigo(&[
        "match",
        "tromp-taylor",
        "--size",
        "5",
        "--komi",
        "7",
        "--games",
        "2",
        "--out",
        &out,
        "--black",
        &black,
        "--white",
        &white,
    ]);
    assert_code(&o, 1);
    assert!(
        crate::common::stderr(&o).contains("ruleset `chinese`, not `tromp-taylor`"),
        "{}",
        crate::common::stderr(&o)
    );
    // The same settings resume.
    assert_code(&quick_match(&dir, "2", &["--komi", "7"]), 0);
    assert_eq!(results(&dir).len(), 2);
}

/// A damaged results line (one byte changed) is refused naming the file
/// and line, never used; so is a results file from before the checksums
/// (no manifest: it cannot be checked).
#[test]
fn a_damaged_results_line_is_refused() {
    let dir = scratch_dir("damaged");
    assert_code(&quick_match(&dir, "2", &[]), 0);
    let path = dir.join("results.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.lines().all(|l| l.starts_with("{\"crc32\":\"")),
        "{text}"
    );
    let damaged = text.replacen("\"game\":2", "\"game\":3", 1);
    assert_ne!(damaged, text);
    std::fs::write(&path, &damaged).unwrap();
    let o = quick_match(&dir, "3", &[]);
    assert_code(&o, 1);
    let err = crate::common::stderr(&o);
    assert!(
        err.contains(&format!("{}:2: the line is damaged", path.display()))
            && err.contains("checksum does not match"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        damaged,
        "left as it was"
    );

    // Lines without checksums and no manifest: an older Morrigo's.
    std::fs::remove_file(dir.join("match.json")).unwrap();
    let old: String = text
        .lines()
        .map(|l| format!("{{{}\n", &l[l.find(",").unwrap() + 1..]))
        .collect();
    std::fs::write(&path, old).unwrap();
    let o = quick_match(&dir, "3", &[]);
    assert_code(&o, 1);
    assert!(
        crate::common::stderr(&o).contains("before results lines carried checksums"),
        "{}",
        crate::common::stderr(&o)
    );
}

/// A failure while the partial last line is cut (a disk that fills up,
/// injected with MORRIGO_FAIL_WRITES_AFTER) leaves every game in the
/// results file: the repair is written aside and renamed, never in place
/// (a kill during the in-place rewrite lost 931,916 of 1,000,000 games).
#[test]
fn a_kill_during_repair_loses_no_game() {
    let dir = scratch_dir("repair");
    assert_code(&quick_match(&dir, "3", &[]), 0);
    let path = dir.join("results.jsonl");
    let whole = std::fs::read_to_string(&path).unwrap();
    let cut = format!("{whole}{{\"crc32\":\"00000000\",\"game\":4,\"bl");
    std::fs::write(&path, &cut).unwrap();
    let out = dir.display().to_string();
    let (black, white) = (faulty("crash"), faulty("illegal"));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .current_dir(root())
        .env("MORRIGO_FAIL_WRITES_AFTER", "100")
        .args([
            "match", "chinese", "--size", "5", "--games", "4", "--out", &out, "--black", &black,
            "--white", &white,
        ])
        .output()
        .unwrap();
    assert_code(&o, 1);
    assert!(
        crate::common::stderr(&o).contains("cannot repair")
            && crate::common::stderr(&o).contains("unchanged"),
        "{}",
        crate::common::stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        cut,
        "every game is still there"
    );
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains(".tmp.")), "{names:?}");
    // Without the failure the repair keeps the three games and plays game 4.
    assert_code(&quick_match(&dir, "4", &[]), 0);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(&whole), "{text}");
    let games: Vec<u32> = results(&dir).iter().map(|r| r.game).collect();
    assert_eq!(games, [1, 2, 3, 4]);
}

/// `--games 3` over a directory holding 6 finished games reports games 1
/// to 3 (it reported all 6); the other 3 stay in the results file.
#[test]
fn games_three_over_six_finished_reports_three() {
    let dir = scratch_dir("three-of-six");
    assert_code(&quick_match(&dir, "6", &["--swap"]), 0);
    let o = quick_match(&dir, "3", &["--swap"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(!out.contains("game 1:"), "nothing is played again: {out}");
    assert!(out.contains("|     3 |"), "the table counts 3 games: {out}");
    assert!(
        out.contains("(--black) won 0 of 3 (0 of 2 as black)")
            && out.contains("(--white) won 3 of 3 (1 of 1 as black)"),
        "games 1 to 3 (the crashing engine loses each): {out}"
    );
    assert_eq!(results(&dir).len(), 6);
}

/// `--games 300000000` starts playing at once in bounded memory (it
/// aborted allocating the list of games): the referee is stopped after
/// its first games under a 1 GiB address-space limit.
#[test]
fn a_match_of_300000000_games_builds_no_game_list() {
    let dir = scratch_dir("huge");
    let out = dir.display().to_string();
    let (black, white) = (faulty("crash"), faulty("illegal"));
    let script = format!(
        "ulimit -v 1048576; exec '{}' match chinese --size 5 --games 300000000 --out '{out}' --black \"$1\" --white \"$2\"",
        env!("CARGO_BIN_EXE_morrigo")
    );
    let mut child = std::process::Command::new("sh")
        .args(["-c", &script, "sh", &black, &white])
        .env("MALLOC_ARENA_MAX", "2")
        .current_dir(root())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let path = dir.join("results.jsonl");
    while std::fs::read_to_string(&path).map_or(true, |t| t.lines().count() < 3) {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
            panic!("the referee ended before its third game: {status}: {err}");
        }
        assert!(started.elapsed().as_secs() < 30, "the games start at once");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    signal(child.id(), "TERM");
    child.wait().unwrap();
    let games: Vec<u32> = results(&dir).iter().map(|r| r.game).take(3).collect();
    assert_eq!(games, [1, 2, 3]);
}

/// A Go-style ruleset whose moves GTP cannot name (a line rule's
/// removals) is refused before any engine starts, as a Morris one is, by
/// `match` and by `morrigo gtp` (which answered `genmove` with `xE5`).
#[test]
fn a_ruleset_with_line_removals_is_refused_by_match_and_gtp() {
    let ruleset = root().join("crates/morrigo-gtp/tests/rulesets/go-with-lines.yaml");
    let o = morrigo(&["gtp", &ruleset.display().to_string()]);
    assert_code(&o, 2);
    assert!(
        crate::common::stderr(&o).contains("which GTP cannot express"),
        "{}",
        crate::common::stderr(&o)
    );
    let dir = scratch_dir("lines");
    let o = morrigo(&[
        "match",
        &ruleset.display().to_string(),
        "--black",
        "x",
        "--white",
        "y",
        "--out",
        &dir.display().to_string(),
    ]);
    assert_code(&o, 2);
    assert!(
        crate::common::stderr(&o)
            .contains("has a line rule (completed lines earn removals), which GTP cannot express"),
        "{}",
        crate::common::stderr(&o)
    );
}
