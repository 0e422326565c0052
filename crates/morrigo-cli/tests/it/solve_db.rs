//! `morrigo solve RULESET --db DIR [--at POSITION]`: the whole game by the
//! sector solver into a database directory, read back on later runs,
//! queried by position; its refusals.

use crate::common::{assert_code, morrigo, scratch_dir, stderr, stdout};

/// The lines of a report from `moves from here` on (each first move and
/// its value).
fn first_moves(out: &str) -> Vec<String> {
    out.lines()
        .skip_while(|l| !l.starts_with("  moves from here"))
        .take_while(|l| l.starts_with("  moves") || l.starts_with("    "))
        .map(str::to_string)
        .collect()
}

#[test]
fn three_mens_morris_by_sectors_agrees_with_the_retrograde_solve_and_is_read_back() {
    let dir = scratch_dir("solve-db-three");
    let db = dir.join("db");
    let db = db.to_str().unwrap();
    let o = morrigo(&["solve", "three-mens-morris", "--db", db]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("(solved in "), "{out}");
    assert!(
        out.contains("value      white wins in 9 plies (the first player wins)"),
        "{out}"
    );
    // Every first move's value and distance, as the explicit solve has them.
    let plain = morrigo(&["solve", "three-mens-morris"]);
    assert_code(&plain, 0);
    let want = first_moves(&stdout(&plain));
    assert_eq!(want.len(), 10, "{}", stdout(&plain));
    assert_eq!(first_moves(&out), want);
    // A second run reads the database back instead of solving.
    let again = morrigo(&["solve", "three-mens-morris", "--db", db]);
    assert_code(&again, 0);
    assert!(
        stdout(&again).contains("(read back in "),
        "{}",
        stdout(&again)
    );
    assert_eq!(first_moves(&stdout(&again)), want);
}

#[test]
fn a_position_of_the_placing_phase_is_answered_with_each_move() {
    let dir = scratch_dir("solve-db-at");
    let db = dir.join("db");
    // White a1 and c1 threaten the line a1-b1-c1 (Three Men's Morris: a
    // line wins); black must take b1, and any other move loses at once.
    let o = morrigo(&[
        "solve",
        "three-mens-morris",
        "--db",
        db.to_str().unwrap(),
        "--at",
        "white: a1 c1; black: b2; in hand: 1 2; to move: black",
    ]);
    assert_code(&o, 0);
    let out = stdout(&o);
    let moves = first_moves(&out);
    assert!(
        moves.iter().any(|l| l.trim_start().starts_with("b1 ")),
        "{out}"
    );
    for l in moves.iter().skip(1) {
        let l = l.trim_start();
        if !l.starts_with("b1 ") {
            assert!(
                l.ends_with("loses in 2"),
                "a move that leaves the line open: {l}"
            );
        }
    }
}

#[test]
fn a_damaged_database_is_refused_by_name() {
    let dir = scratch_dir("solve-db-damaged");
    let db = dir.join("db");
    let o = morrigo(&["solve", "three-mens-morris", "--db", db.to_str().unwrap()]);
    assert_code(&o, 0);
    let file = db.join("game.tbl");
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&file, &bytes).unwrap();
    let o = morrigo(&["solve", "three-mens-morris", "--db", db.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("game.tbl"), "{}", stderr(&o));
}

#[test]
fn bad_positions_are_usage_errors() {
    let dir = scratch_dir("solve-db-refusals");
    let db = dir.join("db");
    let db = db.to_str().unwrap();
    for (at, says) in [
        ("white: a1 z9; to move: white", "`z9` is not a point"),
        (
            "white: a1; black: a1; to move: white",
            "point `a1` is used twice",
        ),
        ("white: b2 b2; to move: white", "point `b2` is used twice"),
        ("white: a1", "no `to move`"),
        (
            "white: a1 b1 c1 a2; to move: black",
            "has 4 pieces (4 on the board, 0 in hand), but `three-mens-morris` gives each player 3",
        ),
        ("colour: a1; to move: white", "unknown field `colour`"),
    ] {
        let o = morrigo(&["solve", "three-mens-morris", "--db", db, "--at", at]);
        assert_code(&o, 2);
        assert!(stderr(&o).contains(says), "{at}: {}", stderr(&o));
    }
}

#[test]
fn a_lasker_style_game_by_sectors_agrees_with_the_retrograde_solve() {
    // Slides while pieces wait in hand (Lasker's rule): units with pieces
    // in hand have moves inside them, solved like the moving phase.
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/solve/three-mens-lasker.yaml"
    );
    let dir = scratch_dir("solve-db-lasker");
    let db = dir.join("db");
    let o = morrigo(&["solve", file, "--db", db.to_str().unwrap()]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("value      white wins in 11 plies (the first player wins)"),
        "{out}"
    );
    let plain = morrigo(&["solve", file]);
    assert_code(&plain, 0);
    let want = first_moves(&stdout(&plain));
    assert_eq!(want.len(), 10, "{}", stdout(&plain));
    assert_eq!(first_moves(&out), want);
}

#[test]
fn a_database_directory_plays_perfectly_and_an_unsolved_one_is_refused() {
    let dir = scratch_dir("solve-db-agent");
    let db = dir.join("db");
    let db = db.to_str().unwrap();
    assert_code(&morrigo(&["solve", "three-mens-morris", "--db", db]), 0);
    // Three Men's Morris is a first-player win: the perfect agent reading
    // the database as white wins every game.
    let agents = format!("perfect:table={db},random");
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
    // A directory with no finished solve: refused, naming the command.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let agents = format!("perfect:table={},random", empty.to_str().unwrap());
    let o = morrigo(&[
        "simulate",
        "three-mens-morris",
        "--agents",
        &agents,
        "--games",
        "1",
    ]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("holds no solved game (no `game.tbl`); solve it with `morrigo solve three-mens-morris --db"),
        "{}",
        stderr(&o)
    );
}

/// `play --show-search` against `perfect:table=DIR`: before each reply the
/// agent prints its database's value of the position and of its best
/// moves, and plays a move of that value. Three Men's Morris is a
/// first-player win, so white's table says white wins from the start.
#[test]
fn play_shows_the_values_a_database_gives_and_plays_a_best_move() {
    let dir = scratch_dir("solve-db-play");
    let db = dir.join("db");
    let db = db.to_str().unwrap();
    assert_code(&morrigo(&["solve", "three-mens-morris", "--db", db]), 0);
    let agent = format!("perfect:table={db}");
    let o = crate::common::piped_in(
        &crate::common::root(),
        &[
            "play",
            "three-mens-morris",
            "--white",
            &agent,
            "--seed",
            "4",
            "--show-search",
        ],
        "a1\nc3\nb1\nc1\na3\nquit\n",
    );
    assert_code(&o, 0);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let shown: Vec<(usize, &str)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.strip_prefix("white's table: ").map(|t| (i, t)))
        .collect();
    assert!(shown.len() >= 2, "a table line before each reply: {out}");
    assert!(
        shown[0].1.starts_with("white (to move) wins in"),
        "the start is a first-player win: {out}"
    );
    for (i, text) in shown {
        let played = lines[i + 1]
            .strip_prefix("white plays ")
            .unwrap_or_else(|| panic!("the reply follows its values: {out}"));
        let moves: Vec<&str> = text
            .split("; moves ")
            .nth(1)
            .expect("the moves' values")
            .split(" (and ")
            .next()
            .unwrap()
            .split(", ")
            .collect();
        let value = |m: &str| m.split_once(' ').map(|(_, v)| v.to_string());
        let best = value(moves[0]).expect("a value");
        // Wins are listed quickest first: the first move's value is the
        // position's, and a move of that value is played.
        let position = text.split("; moves ").next().unwrap();
        if let Some(d) = best.strip_prefix("wins in ") {
            assert!(position.contains(&format!("wins in {d} pl")), "{text}");
        }
        let listed = moves.iter().find(|m| m.split(' ').next() == Some(played));
        if let Some(m) = listed {
            assert_eq!(value(m), Some(best.clone()), "{played} in {text}");
        } else {
            assert!(text.contains(" (and "), "{played} is listed: {text}");
        }
    }
}

/// `win`, `draw` or `loss` of a move's value as `solve` prints it.
fn outcome(text: &str) -> &'static str {
    if text.starts_with("wins") {
        "win"
    } else if text.starts_with("loses") {
        "loss"
    } else {
        assert_eq!(text, "draws");
        "draw"
    }
}

#[test]
fn the_placing_phase_by_search_agrees_with_the_placing_units() {
    // Gasser's method (the moving-phase sectors, then a proof search of
    // the placing phase) against every placing unit solved by retrograde
    // analysis: the start and every first move, win, draw or loss.
    let dir = scratch_dir("solve-db-search");
    let units = dir.join("units");
    let search = dir.join("search");
    let full = morrigo(&["solve", "five-mens-morris", "--db", units.to_str().unwrap()]);
    assert_code(&full, 0);
    let full = stdout(&full);
    let searched = || {
        morrigo(&[
            "solve",
            "five-mens-morris",
            "--db",
            search.to_str().unwrap(),
            "--placing",
            "search",
        ])
    };
    let o = searched();
    assert_code(&o, 0);
    let out = stdout(&o);
    let value = |text: &str| -> &'static str {
        let line = text.lines().find(|l| l.starts_with("  value")).unwrap();
        if line.contains("draw (") {
            "draw"
        } else if line.contains("the first player wins") {
            "win"
        } else {
            "loss"
        }
    };
    assert_eq!(value(&out), value(&full), "{out}\n{full}");
    assert!(out.contains("0 read back"), "{out}");
    // Each first move: the class listing its point has the units' outcome.
    let classes: Vec<(Vec<String>, &str)> = out
        .lines()
        .skip_while(|l| !l.starts_with("  first moves"))
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .map(|l| {
            let (points, text) = l.trim().rsplit_once("  ").unwrap();
            (
                points.split(' ').map(str::to_string).collect(),
                outcome(text.trim()),
            )
        })
        .collect();
    let moves = first_moves(&full);
    assert!(moves.len() > 10, "{full}");
    for l in moves.iter().skip(1) {
        let (point, text) = l.trim().split_once(' ').unwrap();
        let class = classes
            .iter()
            .find(|(points, _)| points.iter().any(|p| p == point))
            .unwrap_or_else(|| panic!("no class holds {point}: {out}"));
        assert_eq!(class.1, outcome(text.trim()), "the first move at {point}");
    }
    // A rerun proves nothing again.
    let again = searched();
    assert_code(&again, 0);
    let again = stdout(&again);
    assert!(again.contains("0 solved now"), "{again}");
    assert!(
        again.contains(&format!("({} read back)", classes.len())),
        "{again}"
    );
}
