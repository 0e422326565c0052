//! `morrigo match`: the referee, with GNU Go (Debian package `gnugo`,
//! installed by `.ci/run`) and `morrigo gtp` as the players, and with test
//! engines that crash, hang, talk nonsense or play illegal moves.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{assert_code, morrigo, root, scratch_dir, stdout};

/// GNU Go's path: on the PATH or where Debian puts it.
fn gnugo() -> String {
    if let Ok(path) = std::env::var("PATH") {
        for dir in std::env::split_paths(&path) {
            if dir.join("gnugo").is_file() {
                return dir.join("gnugo").display().to_string();
            }
        }
    }
    let debian = Path::new("/usr/games/gnugo");
    assert!(
        debian.is_file(),
        "GNU Go is not installed: `apt-get install gnugo` (as `.ci/run` does)"
    );
    debian.display().to_string()
}

/// GNU Go at its fastest level: these tests check the referee, not play.
fn gnugo_cmd() -> String {
    format!("{} --mode gtp --level 1", gnugo())
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
        let o = morrigo(&[
            "replay",
            ruleset,
            "--size",
            size,
            "--sgf",
            &sgf.display().to_string(),
        ]);
        assert_code(&o, 0);
        if let Some([b, w]) = r.score {
            let margin = (b - w).abs();
            let winner = if b > w { "B" } else { "W" };
            assert_eq!(result, format!("{winner}+{margin}"), "{r:?}");
        }
    }
}

fn engine_game(ruleset: &str, size: &str, komi: &str) -> (PathBuf, Vec<Rec>, String) {
    let dir = scratch_dir(ruleset);
    let me = morrigo_gtp(ruleset, size);
    let gg = gnugo_cmd();
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
    (dir, recs, stdout(&o))
}

/// Chinese rules: both games end by the ruleset's two passes and are
/// counted by area, komi included.
#[test]
fn morrigo_against_gnugo_under_chinese_rules() {
    let (_, recs, out) = engine_game("chinese", "5", "0.5");
    for r in &recs {
        assert_eq!(r.end, "two_passes", "{r:?}");
        assert!(r.score.is_some(), "{r:?}");
    }
    assert!(out.contains("| games |"), "the compare table: {out}");
    assert!(out.contains("Engines: "), "{out}");
}

/// Tromp-Taylor: positional superko is the referee's to enforce; the games
/// end by two passes and are counted.
#[test]
fn morrigo_against_gnugo_under_tromp_taylor() {
    let (_, recs, _) = engine_game("tromp-taylor", "5", "0.5");
    for r in &recs {
        assert!(r.result.is_some(), "{r:?}");
        assert!(
            r.end == "two_passes" || r.end == "illegal move",
            "a game ends by the rules or by a superko violation: {r:?}"
        );
    }
}

/// JK rules: GNU Go's plain passes become P or E as the pass rules allow,
/// the SGF records the kinds (`PK`), and the games end by the JK ending
/// sequences.
#[test]
fn morrigo_against_gnugo_under_jk_final() {
    let (dir, recs, _) = engine_game("jk-final", "5", "0.5");
    let mut kinds = 0;
    for r in &recs {
        let text = std::fs::read_to_string(dir.join(&r.sgf)).unwrap();
        kinds += text.matches("PK[E]").count();
        // Ended by a JK end rule (the ending sequence, a suicide or a
        // repetition that loses) or a move the rules refuse.
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
            &gnugo_cmd(),
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
            &gnugo_cmd(),
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
fn faulty_black_game(kind: &str) -> Rec {
    let dir = scratch_dir(kind);
    let o = run_match(
        "chinese",
        "5",
        &[
            "--games",
            "1",
            "--black",
            &faulty(kind),
            "--white",
            &gnugo_cmd(),
        ],
        &dir,
    );
    assert_code(&o, 0);
    results(&dir).swap_remove(0)
}

/// Nonsense and illegal moves lose with a located reason; the refusal
/// names the rule.
#[test]
fn garbage_and_illegal_moves_lose_with_the_reason() {
    let r = &faulty_black_game("garbage");
    assert_eq!(
        (r.end.as_str(), r.result.as_deref()),
        ("not GTP", Some("W+F"))
    );
    assert!(r.reason.contains("`hello, referee`"), "{r:?}");

    // An answer that never ends is cut off at 1 MiB.
    let r = &faulty_black_game("flood");
    assert_eq!(
        (r.end.as_str(), r.result.as_deref()),
        ("not GTP", Some("W+F"))
    );
    assert!(r.reason.contains("longer than 1048576 bytes"), "{r:?}");

    let r = &faulty_black_game("illegal");
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
            &gnugo_cmd(),
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
    // Game 1 ends at once (a crash); later games answer after 2 s.
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
    let dir = scratch_dir("handicap");
    let me = format!(
        "'{}' gtp chinese --size 9 --agent greedy --seed 5",
        env!("CARGO_BIN_EXE_morrigo")
    );
    let gg = gnugo_cmd();
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
    let dir = scratch_dir("handicap-wrong");
    let args = |h: &'static str| {
        vec![
            "--handicap".to_string(),
            h.to_string(),
            "--games".into(),
            "1".into(),
            "--black".into(),
            gnugo_cmd(),
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
            common::stderr(&o).contains("--handicap"),
            "{}",
            common::stderr(&o)
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
            &gnugo_cmd(),
            "--white",
            &faulty("illegal"),
        ],
        &dir,
    );
    assert_code(&o, 1);
    assert!(
        common::stderr(&o).contains("handicap 2"),
        "{}",
        common::stderr(&o)
    );
}

/// `morrigo gtp`'s `fixed_handicap` places the stones GNU Go places (the
/// GTP standard's table) on every size from 5x5 to 19x19, for 1 to 10
/// stones, and refuses the counts GNU Go refuses.
#[test]
fn fixed_handicap_matches_gnugo_on_every_size() {
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
    let gnugo = answers(&format!("{} --mode gtp", gnugo()));
    assert!(ours.iter().filter(|a| *a != "?").count() > 50, "{ours:?}");
    assert_eq!(ours, gnugo);
}
