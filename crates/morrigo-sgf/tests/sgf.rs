use morrigo_diag::SourceFile;
use morrigo_engine::{notation, with_machine, Game, GameState, Machine, Move, Sample};
use morrigo_rules::{load::Overrides, load_rules_with, Rules};
use morrigo_sgf::{export, import, import_source, info, result_of, GameResult, Margin};
use std::sync::Arc;

fn rules(name: &str, size: &str) -> Rules {
    let o = Overrides {
        size: Some(Overrides::parse_size(size).unwrap()),
        komi: None,
    };
    load_rules_with(name, &o).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A random game of at most `max` moves: its moves, tokens and result.
fn random_game<const W: usize>(
    game: &Game,
    m: &Machine<W>,
    seed: u64,
    max: usize,
) -> (Vec<Move>, Vec<String>, GameResult) {
    let mut s = m.initial();
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut rng = |n: u32| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % u64::from(n)) as u32
    };
    let mut buf = Vec::new();
    let mut moves = Vec::new();
    let mut outcome = None;
    while moves.len() < max {
        match m.sample_move(&s, &mut buf, &mut rng) {
            Sample::Move(mv) => {
                m.apply(&mut s, mv);
                moves.push(mv);
            }
            Sample::Over(o) => {
                outcome = Some(o);
                break;
            }
            Sample::Stuck => break,
        }
    }
    let tokens = moves
        .iter()
        .map(|mv| notation::format_move_in(&m.rules, mv))
        .collect();
    let end = GameState::from_parts(game, s).expect("the game's width");
    (moves, tokens, result_of(&end, outcome))
}

#[test]
fn export_then_import_gives_the_same_moves() {
    for (name, size) in [
        ("jk-final", "5"),
        ("tromp-taylor", "4"),
        ("chinese", "7x5"),
        ("jk-final", "3x6"),
    ] {
        let r = rules(name, size);
        let game = Game::new(Arc::new(r.clone())).unwrap();
        for seed in 1..20 {
            let (moves, tokens, result) =
                with_machine!(game.machine().as_ref(), m => random_game(&game, m, seed, 300));
            let text = export(&r, &moves, &result).unwrap();
            assert!(text.starts_with("(;GM[1]FF[4]"), "{text}");
            assert!(text.contains(&format!("RU[{name}]")), "{text}");
            let back = import(&text, &r)
                .unwrap_or_else(|e| panic!("{name} {seed}: {e}\n{text}"))
                .moves;
            let got: Vec<&str> = back.iter().map(|m| m.token.as_str()).collect();
            assert_eq!(got, tokens, "{name} {size} seed {seed}\n{text}");
            for (i, m) in back.iter().enumerate() {
                assert_eq!(m.move_number, i + 1);
                assert_eq!(m.player as usize, i % 2);
            }
            let i = info(&SourceFile::new("x.sgf", text.as_str())).unwrap();
            assert_eq!(i.size, Some((r.topology.width, r.topology.height)));
            assert_eq!(i.result, result.to_sgf());
        }
    }
}

#[test]
fn coordinates_are_gtp_names() {
    let r = rules("jk-final", "9");
    let moves = import("(;GM[1]FF[4]SZ[9];B[aa];W[ii];B[ai];W[ia];B[ee])", &r)
        .unwrap()
        .moves;
    let got: Vec<&str> = moves.iter().map(|m| m.token.as_str()).collect();
    assert_eq!(got, ["A9", "J1", "A1", "J9", "E5"]);
}

#[test]
fn pass_kinds_use_the_pk_property() {
    let r = rules("jk-final", "5");
    let moves = import("(;SZ[5];B[cc];W[]PK[E];B[]PK[E])", &r)
        .unwrap()
        .moves;
    let got: Vec<&str> = moves.iter().map(|m| m.token.as_str()).collect();
    assert_eq!(got, ["C3", "pass:E", "pass:E"]);
    let e = import("(;SZ[5];B[cc];W[])", &r).unwrap_err();
    assert!(e.message.starts_with("move 2 (W[]):"), "{e}");
    assert!(e.to_string().contains("PK[P] or PK[E]"), "{e}");
    let e = import("(;SZ[5];B[cc];W[]PK[X])", &r).unwrap_err();
    assert!(e.message.contains("no pass kind `X`"), "{e}");
    // tt is a pass on small boards; one pass kind needs no PK.
    let tt = rules("tromp-taylor", "5");
    let moves = import("(;SZ[5];B[tt];W[])", &tt).unwrap().moves;
    let got: Vec<&str> = moves.iter().map(|m| m.token.as_str()).collect();
    assert_eq!(got, ["pass", "pass"]);
    // Export writes PK only where there are several kinds.
    let text = export(&r, &[Move::pass(1)], &GameResult::Ongoing).unwrap();
    assert!(text.contains(";B[]PK[E]"), "{text}");
    let text = export(&tt, &[Move::pass(0)], &GameResult::Ongoing).unwrap();
    assert!(text.contains(";B[])") && !text.contains("PK"), "{text}");
}

#[test]
fn size_must_match_and_setup_is_read_from_the_root() {
    let r = rules("jk-final", "9");
    let e = import("(;SZ[13];B[aa])", &r).unwrap_err();
    assert!(e.message.contains("13x13 board"), "{e}");
    assert!(e.to_string().contains("--size 13x13"), "{e}");
    // AB/AW in the root node: a set-up position (rectangles too), PL says who moves.
    let g = import("(;SZ[9]\nAB[aa][bb:bc]AW[ii]PL[W];W[cc];B[dd])", &r).unwrap();
    let names =
        |v: &[u16]| -> Vec<String> { v.iter().map(|&p| r.topology.name(p).to_string()).collect() };
    assert_eq!(names(&g.setup[0]), ["A9", "B8", "B7"]);
    assert_eq!(names(&g.setup[1]), ["J1"]);
    assert_eq!(g.first_player, 1);
    assert_eq!(g.moves[0].player, 1);
    // Export writes the set-up back, and it reads the same.
    let point = |name: &str| {
        r.topology
            .points()
            .find(|&p| r.topology.name(p) == name)
            .unwrap()
    };
    let moves = [
        Move::play(point(&g.moves[0].token)),
        Move::play(point(&g.moves[1].token)),
    ];
    let text = morrigo_sgf::export_game(&r, &g.setup, 1, &moves, &GameResult::Ongoing).unwrap();
    assert!(text.contains("AB[aa][bb][bc]AW[ii]PL[W]"), "{text}");
    assert_eq!(import(&text, &r).unwrap().setup, g.setup);
    // A handicap game: `HA` in the root node, read back as set-up stones.
    let black = [g.setup[0].clone(), Vec::new()];
    let text = morrigo_sgf::export_handicap_game(&r, &black, 1, Some(3), &[], &GameResult::Ongoing)
        .unwrap();
    assert!(text.contains("HA[3]AB[aa][bb][bc]PL[W]"), "{text}");
    let back = import(&text, &r).unwrap();
    assert_eq!((back.setup, back.first_player), (black, 1));
    // Set-up after the start, a point set up twice, AE: located errors.
    let e = import_source(&SourceFile::new("g.sgf", "(;SZ[9];B[aa]\n;AB[bb])"), &r).unwrap_err();
    assert!(e.message.contains("set-up in the middle of a game"), "{e}");
    assert_eq!(e.location.as_ref().map(|l| (l.line, l.col)), Some((2, 2)));
    let e = import("(;SZ[9]AB[aa]AW[aa])", &r).unwrap_err();
    assert!(e.message.contains("set up twice"), "{e}");
    // A set-up chain without a liberty is no Go position.
    let e = import_source(
        &SourceFile::new("g.sgf", "(;SZ[9]AB[aa]AW[ab][ba];B[ee])"),
        &r,
    )
    .unwrap_err();
    assert!(
        e.message.contains("set-up stones A9 have no liberty"),
        "{e}"
    );
    assert_eq!(e.location.as_ref().map(|l| (l.line, l.col)), Some((1, 11)));
    let e = import("(;SZ[9]AE[aa])", &r).unwrap_err();
    assert!(e.message.contains("`AE`"), "{e}");
    let e = import("(;SZ[9];B[aa];B[bb])", &r).unwrap_err();
    assert!(
        e.message
            .starts_with("move 2 (B[bb]): black plays out of turn"),
        "{e}"
    );
    let e = import("(;SZ[9];B[aa];W[jj])", &r).unwrap_err();
    assert!(e.message.contains("off the 9x9 board"), "{e}");
    let morris = morrigo_rules::load_rules("nine-mens-morris").unwrap();
    let e = import("(;B[aa])", &morris).unwrap_err();
    assert!(e.message.contains("no board plays"), "{e}");
}

/// Defect: invalid SZ, KM and lowercase identifiers were silently ignored.
/// Each is now an error at its place in the file.
#[test]
fn unreadable_values_are_located_errors() {
    let r = rules("jk-final", "5");
    for (text, col, what) in [
        ("(;GM[1]FF[4]SZ[abc];B[cc])", 16, "SZ[abc]"),
        ("(;GM[1]FF[4]SZ[-5];B[cc])", 16, "SZ[-5]"),
        ("(;GM[1]FF[4]SZ[0])", 16, "SZ[0]"),
        ("(;GM[1]FF[4]SZ[5]KM[abc];B[cc])", 21, "KM[abc]"),
        ("(;GM[1]FF[4]SZ[5]KM[nan];B[cc])", 21, "KM[nan]"),
        ("(;GM[1]FF[4]SZ[5]KM[inf];B[cc])", 21, "KM[inf]"),
        ("(;GM[1]FF[4]SZ[5]RE[X+Y];B[cc])", 21, "RE[X+Y]"),
        ("(;GM[1]FF[4]SZ[5];b[cc])", 19, "`b` is not a property"),
        ("(;GM[1]FF[4]SZ[5];B[c])", 19, "cannot read `c`"),
        ("(;GM[5]FF[4];W[a1])", 6, "GM[5]"),
    ] {
        let src = SourceFile::new("w.sgf", text);
        let e = info(&src)
            .and_then(|_| import_source(&src, &r))
            .unwrap_err();
        assert!(e.message.contains(what), "{text}: {e}");
        let at = e.location.as_ref().map(|l| (l.line, l.col));
        assert_eq!(at, Some((1, col)), "{text}: {e}");
    }
}

#[test]
fn results_are_read_as_sgf_writes_them() {
    use morrigo_sgf::parse_result;
    let win = |player, margin| GameResult::Win { player, margin };
    assert_eq!(parse_result("B+R"), Ok(win(0, Margin::Resign)));
    assert_eq!(parse_result("W+25"), Ok(win(1, Margin::Score(25.0))));
    assert_eq!(parse_result("W+3.5"), Ok(win(1, Margin::Score(3.5))));
    assert_eq!(parse_result("B+"), Ok(win(0, Margin::Rule)));
    assert_eq!(parse_result("B+T"), Ok(win(0, Margin::Time)));
    assert_eq!(parse_result("0"), Ok(GameResult::Draw));
    assert_eq!(parse_result("Void"), Ok(GameResult::Ongoing));
    assert!(parse_result("B+nan").is_err());
    assert!(parse_result("B+-3").is_err());
    assert!(parse_result("X+R").is_err());
}

/// Defect: variations nested 150,000 deep overflowed the stack. The reader
/// is iterative; the main line is followed and the variations are reported.
#[test]
fn deep_nesting_is_read_without_recursion_and_variations_are_reported() {
    let r = rules("jk-final", "5");
    let n = 150_000;
    let text = format!(
        "(;GM[1]FF[4]SZ[5]{}{})",
        "(;B[cc];W[]PK[P])".to_string() + &"(;B[]PK[P];W[]PK[P]".repeat(n),
        ")".repeat(n)
    );
    let g = import(&text, &r).unwrap();
    assert_eq!(g.moves.len(), 2, "the first variation is the main line");
    let w = &g.warnings;
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].message.contains("1 variation(s) off the main line"),
        "{}",
        w[0]
    );
    // A main line nested as deep as the file allows: every node read.
    let deep = format!(
        "(;GM[1]FF[4]SZ[5]{}{})",
        "(;B[]PK[P];W[]PK[P]".repeat(n),
        ")".repeat(n)
    );
    let g = import(&deep, &r).unwrap();
    assert_eq!(g.moves.len(), 2 * n);
    assert!(g.warnings.is_empty());
}

#[test]
fn komi_that_is_not_finite_is_not_written() {
    let mut r = rules("tromp-taylor", "5");
    if let Some(s) = r.scoring.as_mut() {
        s.komi = f64::NAN;
    }
    let e = export(&r, &[], &GameResult::Ongoing).unwrap_err();
    assert!(e.message.contains("SGF cannot record"), "{e}");
}

#[test]
fn malformed_sgf_is_located() {
    let r = rules("jk-final", "9");
    for (text, line, col) in [
        ("(;SZ[9]\n;B[aa];W[bb", 2, 9),
        ("(;SZ[9]\n;B[aa]\n;W[bb]", 3, 7),
        ("(;SZ[9];B[aa]W)", 1, 15),
        ("SZ[9]", 1, 1),
        ("", 1, 1),
    ] {
        let e = import_source(&SourceFile::new("bad.sgf", text), &r).unwrap_err();
        let at = e.location.as_ref().map(|l| (l.line, l.col));
        assert_eq!(at, Some((line, col)), "{text:?}: {e}");
        assert!(e.message.starts_with("malformed SGF"), "{e}");
    }
}

#[test]
fn results_are_written_as_sgf_does() {
    let win = |player, margin| GameResult::Win { player, margin };
    assert_eq!(win(0, Margin::Resign).to_sgf().as_deref(), Some("B+R"));
    assert_eq!(
        win(1, Margin::Score(3.5)).to_sgf().as_deref(),
        Some("W+3.5")
    );
    assert_eq!(win(1, Margin::Score(7.0)).to_sgf().as_deref(), Some("W+7"));
    assert_eq!(win(0, Margin::Rule).to_sgf().as_deref(), Some("B+"));
    assert_eq!(GameResult::Draw.to_sgf().as_deref(), Some("0"));
    assert_eq!(GameResult::Ongoing.to_sgf(), None);
    let r = rules("tromp-taylor", "9");
    let text = export(&r, &[], &win(1, Margin::Score(7.5))).unwrap();
    assert!(
        text.contains("KM[7.5]") && text.contains("RE[W+7.5]"),
        "{text}"
    );
}

/// `Turns::AsRecorded` reads one colour moving twice in a row (what a GTP
/// controller may send), which the default import refuses; `export_played`
/// writes such a game, and importing it gives the same players and points.
#[test]
fn consecutive_moves_of_one_colour_round_trip_when_asked_for() {
    use morrigo_sgf::{export_played, import_source_with, Turns};
    let r = rules("chinese", "9");
    let text = "(;SZ[9];B[aa];B[bb];W[cc];W[])";
    assert!(import(text, &r).is_err());
    let g = import_source_with(&SourceFile::new("sgf", text), &r, Turns::AsRecorded).unwrap();
    let players: Vec<u8> = g.moves.iter().map(|m| m.player).collect();
    assert_eq!(players, [0, 0, 1, 1]);
    let tokens: Vec<&str> = g.moves.iter().map(|m| m.token.as_str()).collect();
    assert_eq!(tokens, ["A9", "B8", "C7", "pass"]);
    let played: Vec<(u8, Move)> = g
        .moves
        .iter()
        .map(|m| {
            let intent = notation::parse_token_in(&r, &m.token, None).unwrap()[0];
            let mv = match intent {
                notation::Intent::Place(p) => Move::play(p),
                notation::Intent::Pass(k) => Move::pass(k),
                other => panic!("{other:?}"),
            };
            (m.player, mv)
        })
        .collect();
    let out = export_played(
        &r,
        &[vec![], vec![]],
        0,
        None,
        &played,
        &GameResult::Ongoing,
    )
    .unwrap();
    assert!(out.contains(";B[aa] ;B[bb] ;W[cc] ;W[]"), "{out}");
    let again =
        import_source_with(&SourceFile::new("sgf", out.as_str()), &r, Turns::AsRecorded).unwrap();
    assert_eq!(
        again.moves.iter().map(|m| m.player).collect::<Vec<_>>(),
        players
    );
}

/// `HA` is read as the handicap (`HA[0]`/`HA[1]` mean an even game, as
/// records write); an unreadable one is a located error.
#[test]
fn the_handicap_is_read_from_ha() {
    let r = rules("chinese", "9");
    let i = info(&SourceFile::new("sgf", "(;SZ[9]HA[2]AB[cc][gg];W[ee])")).unwrap();
    assert_eq!(i.handicap, Some(2));
    let i = info(&SourceFile::new("sgf", "(;SZ[9]HA[0];B[ee])")).unwrap();
    assert_eq!(i.handicap, None);
    let e = info(&SourceFile::new("sgf", "(;SZ[9]HA[two])")).unwrap_err();
    assert!(e.message.starts_with("HA[two]: cannot read"), "{e}");
    assert_eq!(e.location.as_ref().map(|l| (l.line, l.col)), Some((1, 11)));
    assert!(import("(;SZ[9]HA[2]AB[cc][gg];W[ee])", &r).is_ok());
}
