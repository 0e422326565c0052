//! GTP as the standard says, where Morrigo's rules have more to say: no
//! move once the game is over, no ruleset whose moves GTP cannot name, no
//! file read that waits, a score that says how the game was won.

use morrigo_gtp::{parse_line, Config, Engine, Reply};
use morrigo_rules::load::Overrides;
use std::path::Path;

fn engine(ruleset: &str, size: u32) -> Engine {
    Engine::new(Config {
        ruleset: ruleset.to_string(),
        overrides: Overrides {
            size: Some((size, size)),
            ..Overrides::default()
        },
        agent: morrigo_play::AgentSpec::Uniform,
        seed: 3,
        plain_passes: false,
    })
    .expect("the ruleset loads")
}

/// The reply to one command line.
fn send(e: &mut Engine, line: &str) -> Reply {
    e.handle(&parse_line(line).expect("a command"))
}

fn ok(e: &mut Engine, line: &str) -> String {
    match send(e, line) {
        Reply::Success(t) => t,
        Reply::Failure(t) => panic!("`{line}` failed: {t}"),
    }
}

fn refused(e: &mut Engine, line: &str) -> String {
    match send(e, line) {
        Reply::Failure(t) => t,
        Reply::Success(t) => panic!("`{line}` was accepted: `{t}`"),
    }
}

/// Atari-go after Black's capture: White has lost. `play` for either
/// colour, and `genmove`, are refused naming Black as the winner (the
/// winner could play on, the turn handed over, and the refusal could name
/// the wrong winner).
#[test]
fn play_after_the_game_is_over_is_refused_for_both_colours() {
    let mut e = engine("atari-go", 5);
    for line in ["play b A2", "play w A1", "play b B1"] {
        ok(&mut e, line);
    }
    let over = "the game is over (black wins by end rule `first_capture`)";
    for line in ["play b C3", "play w C3", "play b pass", "play w pass"] {
        let why = refused(&mut e, line);
        assert_eq!(why, format!("illegal move: {over}"), "{line}");
    }
    for line in ["genmove b", "genmove w"] {
        assert_eq!(refused(&mut e, line), over, "{line}");
    }
    assert_eq!(ok(&mut e, "final_score"), "B+F");
}

/// Random nogo games to their end: then no point is playable by either
/// colour (11 of 40 such games took a move of the colour not to move),
/// and every refusal names the true winner (handing the turn over to the
/// winner, who had no move either, named the loser).
#[test]
fn no_move_of_either_colour_is_accepted_after_random_nogo_games() {
    for game in 0..40 {
        let mut e = engine("nogo", 5);
        let size = 4 + game % 2;
        ok(&mut e, &format!("boardsize {size}"));
        let mut colour = 'b';
        let over = loop {
            match send(&mut e, &format!("genmove {colour}")) {
                Reply::Success(m) if m == "resign" => break None,
                Reply::Success(_) => colour = if colour == 'b' { 'w' } else { 'b' },
                Reply::Failure(why) => break Some(why),
            }
        };
        let Some(over) = over else { continue };
        assert!(over.starts_with("the game is over ("), "{over}");
        for c in ["b", "w"] {
            for col in "ABCDE".chars().take(size) {
                for row in 1..=size {
                    let line = format!("play {c} {col}{row}");
                    match send(&mut e, &line) {
                        Reply::Success(_) => panic!("game {game}: `{line}` accepted after {over}"),
                        // The true result, whichever colour asks.
                        Reply::Failure(why) => {
                            assert_eq!(why, format!("illegal move: {over}"), "game {game}: {line}")
                        }
                    }
                }
            }
        }
    }
}

/// A Go-style ruleset with a line rule (a row of three earns a removal)
/// is refused at start, like a Morris ruleset: GTP has no removal move
/// (`genmove` answered `xE5`, or `resign`).
#[test]
fn a_ruleset_with_line_removals_is_refused_by_gtp() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/go-with-lines.yaml");
    let e = Engine::new(Config {
        ruleset: path.display().to_string(),
        overrides: Overrides::default(),
        agent: morrigo_play::AgentSpec::Uniform,
        seed: 0,
        plain_passes: false,
    });
    let d = e.err().expect("refused");
    assert_eq!(
        d.message,
        "GTP names a move by one vertex or `pass`, and ruleset `go-with-lines` has a line rule (completed lines earn removals), which GTP cannot express"
    );
}

/// `loadsgf` of a FIFO is refused at once (it waited for a writer
/// forever), and so are `printsgf` to one and `loadsgf` of a directory.
#[test]
fn loadsgf_of_a_fifo_is_refused() {
    let dir = std::env::temp_dir().join(format!("morrigo-gtp-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("game.sgf");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let (tx, rx) = std::sync::mpsc::channel();
    let (f, d) = (fifo.display().to_string(), dir.display().to_string());
    std::thread::spawn(move || {
        let mut e = engine("chinese", 9);
        let answers = [
            refused(&mut e, &format!("loadsgf {f}")),
            refused(&mut e, &format!("printsgf {f}")),
            refused(&mut e, &format!("loadsgf {d}")),
        ];
        let _ = tx.send(answers);
    });
    let answers = rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("refused at once, not waiting on the FIFO");
    assert_eq!(
        answers[0],
        format!("cannot load file: `{}`: it is not a regular file (a FIFO, a device or a directory is not read)", fifo.display())
    );
    assert_eq!(
        answers[1],
        format!(
            "cannot write `{}`: it is not a regular file",
            fifo.display()
        )
    );
    assert!(
        answers[2].contains("it is not a regular file"),
        "{}",
        answers[2]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `final_score` of a game won by an end rule that does not count (the
/// first capture of atari-go) answers `W+F`/`B+F`, SGF's win by forfeit
/// (it answered `W+`, with no margin); a counted game answers the count.
#[test]
fn final_score_of_a_rule_win_says_how() {
    let mut e = engine("atari-go", 5);
    for line in ["play w A2", "play b A1", "play w B1"] {
        ok(&mut e, line);
    }
    assert_eq!(ok(&mut e, "final_score"), "W+F", "White's capture wins");
    let mut e = engine("chinese", 5);
    for line in ["komi 0.5", "play b C3", "play w pass", "play b pass"] {
        ok(&mut e, line);
    }
    assert_eq!(
        ok(&mut e, "final_score"),
        "B+24.5",
        "the count, komi included"
    );
}
