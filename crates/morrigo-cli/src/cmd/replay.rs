use crate::fail::{Failure, Outcome};
use crate::game::{self, RulesetOptions};
use clap::Args;
use morrigo_diag::{Diagnostic, SourceFile};
use morrigo_engine::{Game, GameState};
use morrigo_record::{ReplayError, Status, Transcript};
use morrigo_rules::Rules;
use morrigo_sgf::{GameResult, Margin, SgfGame, SgfMove};
use std::io::Write;
use std::sync::Arc;

/// Replay a move record and print the annotated transcript.
///
/// Every ply is listed with its player, phase and what it did (lines
/// completed, removals, flying; for Go-style rulesets the move class `N`/`C`/
/// pass kind, a D, captures and the passes the next player may use), then
/// the result with the end rule that decided it (and the score of a counted
/// game), and the final board. A move the rules refuse stops the replay:
/// the error points at the move's column and quotes the rule, and the
/// transcript up to that move is printed to stderr (exit status 1).
///
/// `--sgf GAME.sgf` replays the main line of an SGF game (Go-style rulesets):
/// its `SZ` is used as `--size` unless `--size` is given (they must then
/// agree), its `KM` as `--komi` for scored rulesets unless `--komi` is given.
/// A rule-breaking SGF is reported at its move number and position in the
/// file. Passes name their kind with the private property `PK` (`;W[]PK[E]`).
/// Without a ruleset, the game's `RU` is used when it names a built-in one.
/// Set-up stones (`AB`, `AW`, `PL` in the root node) are the start position.
/// Only the main line is replayed: variations off it are reported as a
/// warning. The recorded result `RE` is honoured: a resignation or a count
/// ends the game as recorded; a result the ruleset disagrees with is
/// reported as a warning. SGF is for Go-style games: Morris games are kept
/// as move records (`--file`).
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo replay nine-mens-morris --moves \"a1 d2 d1 b4 g1xd2\"
  morrigo replay nine-mens-morris --moves \"a1 d2 d1 b4 g1 xd2\" --json
  morrigo replay my-variant.yaml --file game.txt
  morrigo replay jk-final --size 9 --moves \"E5 D5 pass:E pass:E\"
  morrigo replay jk-final --sgf game.sgf
  morrigo replay --sgf game.sgf                (the ruleset its RU names)
  morrigo replay tromp-taylor --size 9 --moves \"E5 D4 resign\" --to-sgf game.sgf
  morrigo replay nine-mens-morris --moves \"a1 d2 d1\" --svg end.svg

Notation: `d1` place, `d1-d2` slide or fly, `xd2` remove (a ply of its own),
`g1xd2` a move with its removal; Go: `D4` a board play, `pass` or `pass:E`,
`resign`, `agree` / `agree:D4,E5` (with the dead stones). Move numbers such
as `1.` are skipped.")]
#[command(group = clap::ArgGroup::new("record").required(true).args(["moves", "file", "sgf"]))]
pub struct ReplayArgs {
    /// Ruleset file or built-in name. With `--sgf` it may be left out when
    /// the game's `RU` names a built-in ruleset.
    #[arg(value_name = "FILE")]
    pub ruleset: Option<String>,
    /// The move record, separated by spaces or commas.
    #[arg(long, value_name = "RECORD")]
    pub moves: Option<String>,
    /// Read the move record from a file.
    #[arg(long, value_name = "RECORD_FILE")]
    pub file: Option<String>,
    /// Read the game from an SGF file (its main line).
    #[arg(long, value_name = "GAME.sgf")]
    pub sgf: Option<String>,
    /// Write the replayed game as SGF to this file (Go-style rulesets).
    #[arg(long, value_name = "OUT.sgf")]
    pub to_sgf: Option<String>,
    /// Write the board at the end of the record, with its pieces, as SVG to
    /// this file.
    #[arg(long, value_name = "OUT.svg")]
    pub svg: Option<String>,
    /// Print the transcript as JSON: {"plies":[{"n","player","move","phase"}…],
    /// "result":{"status","winner","reason"}} (further keys, such as a ply's
    /// "note" or the final "board", may be present).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub ruleset_options: RulesetOptions,
}

fn read(path: &str) -> Result<String, Failure> {
    morrigo_diag::read_input(std::path::Path::new(path))
        .map_err(|e| Failure::game(Diagnostic::from(e)))
}

/// The ruleset named on the command line; without one, the usage error.
fn named(ruleset: &Option<String>) -> Result<&str, Failure> {
    ruleset.as_deref().ok_or_else(|| {
        Failure::usage(
            "name the ruleset: `morrigo replay RULESET --moves …` (a file or a built-in name)",
        )
    })
}

pub fn run(args: ReplayArgs) -> Outcome {
    let (rules, source, sgf) = match (&args.moves, &args.file, &args.sgf) {
        (Some(moves), _, _) => (
            game::rules(named(&args.ruleset)?, &args.ruleset_options)?,
            SourceFile::new("--moves", moves.as_str()),
            None,
        ),
        (None, Some(path), _) => (
            game::rules(named(&args.ruleset)?, &args.ruleset_options)?,
            SourceFile::new(path.as_str(), read(path)?),
            None,
        ),
        (None, None, Some(path)) => {
            let file = SourceFile::new(path.as_str(), read(path)?);
            let (rules, game) = load_sgf(args.ruleset.as_deref(), &args.ruleset_options, &file)?;
            for w in &game.warnings {
                warn(w);
            }
            let record: Vec<&str> = game.moves.iter().map(|m| m.token.as_str()).collect();
            let record = record.join(" ");
            (
                rules,
                SourceFile::new(path.as_str(), record),
                Some((file, game)),
            )
        }
        (None, None, None) => {
            return Err(Failure::usage(
                "give the record with --moves, --file or --sgf",
            ))
        }
    };
    if args.to_sgf.is_some() {
        // Refuse before replaying: a Morris board has no SGF coordinates.
        morrigo_sgf::export(&rules, &[], &GameResult::Ongoing)?;
    }
    let played = Game::from(game::machine_of(rules)?);
    let render = |t: &Transcript| {
        if args.json {
            format!("{:#}\n", t.to_json())
        } else {
            t.to_text()
        }
    };
    let start = match &sgf {
        Some((_, g)) => sgf_start(&played, g)?,
        None => played.start(),
    };
    let replayed =
        morrigo_record::replay_from(start, &source.text, &source, 0).map(|(mut t, mut s)| {
            if let Some((_, g)) = &sgf {
                apply_sgf_result(&mut t, &mut s, g);
            }
            let out = args
                .to_sgf
                .as_ref()
                .map(|_| sgf_of(&s, &t, sgf.as_ref().map(|(_, g)| g)));
            let svg = args
                .svg
                .as_ref()
                .map(|path| game::write_svg(s.rules(), |p| s.owner(p), path));
            (t, out, svg)
        });
    match replayed {
        Ok((t, sgf_text, svg)) => {
            svg.transpose()?;
            if let (Some(path), Some(text)) = (&args.to_sgf, sgf_text) {
                std::fs::write(path, text?).map_err(|e| {
                    Failure::game(Diagnostic::new(format!("cannot write `{path}`: {e}")))
                })?;
            }
            let mut out = std::io::stdout().lock();
            write!(out, "{}", render(&t))?;
            Ok(())
        }
        Err(e) => {
            let ply = e.ply;
            let d = match &sgf {
                Some((file, g)) => at_sgf_move(e.diagnostic.as_ref().clone(), file, &g.moves, ply),
                None => *e.diagnostic.clone(),
            };
            report_failure(&d, &e, &render)
        }
    }
}

fn report_failure(
    d: &Diagnostic,
    e: &ReplayError,
    render: &dyn Fn(&Transcript) -> String,
) -> Outcome {
    eprintln!("{d}");
    eprintln!("\ntranscript up to ply {}:", e.ply);
    eprint!("{}", render(&e.transcript));
    Err(Failure::Quiet(1))
}

/// Print a warning: a diagnostic that does not stop the command.
fn warn(d: &Diagnostic) {
    let text = d.to_string();
    let text = match text.split_once("error: ") {
        Some((head, rest)) if !head.contains('\n') => format!("{head}warning: {rest}"),
        _ => text,
    };
    eprintln!("{text}");
}

/// Load the ruleset for an SGF game (its `SZ` as the size, its `KM` as the
/// komi, unless the command line says otherwise) and import the game.
/// Without a ruleset on the command line, the game's `RU` is used when it
/// names a built-in ruleset.
pub fn load_sgf(
    spec: Option<&str>,
    opts: &RulesetOptions,
    file: &SourceFile,
) -> Result<(Rules, SgfGame), Failure> {
    let info = morrigo_sgf::info(file)?;
    let spec = match (spec, &info.rules) {
        (Some(spec), _) => spec.to_string(),
        (None, Some(ru)) if morrigo_rules::builtin::find(ru).is_some() => ru.clone(),
        (None, ru) => {
            let why = match ru {
                Some(ru) => format!("the game's RU[{ru}] is not a built-in ruleset"),
                None => "the game has no RU property".to_string(),
            };
            return Err(Failure::Usage(
                Diagnostic::new(format!(
                    "name the ruleset to replay `{}` with: {why}",
                    file.name
                ))
                .expected(format!(
                    "`morrigo replay RULESET --sgf {}` (built-in rulesets: `morrigo rulesets`)",
                    file.name
                )),
            ));
        }
    };
    let spec = spec.as_str();
    if opts.size.is_none() && info.size.is_some() {
        // Say "not a Go ruleset" rather than "--size needs a grid".
        let plain = game::rules(spec, opts)?;
        morrigo_sgf::export(&plain, &[], &GameResult::Ongoing)?;
    }
    let mut opts = opts.clone();
    if opts.size.is_none() {
        opts.size = info.size;
    }
    let mut rules = game::rules(spec, &opts)?;
    if let (None, Some(km), Some(scoring)) = (opts.komi, info.komi, &rules.scoring) {
        if scoring.komi != km {
            opts.komi = Some(km);
            rules = game::rules(spec, &opts)?;
        }
    }
    let game = morrigo_sgf::import_source(file, &rules)?;
    if let Some(mv) = game.moves.get(morrigo_record::MAX_RECORD_TOKENS) {
        let limit = morrigo_record::MAX_RECORD_TOKENS;
        return Err(Failure::game(
            Diagnostic::new(format!(
                "move {}: the game has {} moves, more than the limit of {limit} moves per record",
                mv.move_number,
                game.moves.len()
            ))
            .at_opt(mv.offset.map(|o| file.location(o)))
            .expected(format!("at most {limit} moves")),
        ));
    }
    Ok((rules, game))
}

/// The position an SGF game starts from: its set-up stones and first
/// player, checked by the engine (a board it refuses is a game error).
fn sgf_start(played: &Game, g: &SgfGame) -> Result<GameState, Failure> {
    if g.setup.iter().all(Vec::is_empty) && g.first_player == 0 {
        return Ok(played.start());
    }
    played
        .set_up(&morrigo_engine::Setup {
            pieces: g.setup.clone(),
            in_hand: None,
            to_move: Some(g.first_player),
        })
        .map_err(|e| Failure::game(e.to_diagnostic()))
}

/// Honour the game's recorded result (`RE`) after its moves: a resignation
/// or a count ends the game as the record says; a result the ruleset's own
/// count or end rules disagree with is reported as a warning.
fn apply_sgf_result(t: &mut Transcript, s: &mut GameState, g: &SgfGame) {
    let info = &g.info;
    let (Some(text), at) = (&info.result, info.result_at.clone()) else {
        return;
    };
    let Ok(recorded) = morrigo_sgf::parse_result(text) else {
        return;
    };
    // Its own handle: `s` is replaced below.
    let rules = &Arc::clone(s.rules());
    let warn_at = |msg: String| warn(&Diagnostic::new(msg).at_opt(at.clone()));
    if t.result.status == Status::Ongoing {
        let token = match &recorded {
            GameResult::Ongoing => return,
            GameResult::Win {
                player,
                margin: Margin::Resign,
            } => {
                if s.to_move() == *player {
                    warn_at(format!(
                        "RE[{text}]: {} resigned after making the last move; the game is recorded as won by {} on resignation",
                        game::player_name(rules, player ^ 1),
                        game::player_name(rules, *player)
                    ));
                    force_resignation(t, s, *player);
                    return;
                }
                "resign"
            }
            GameResult::Win {
                margin: Margin::Score(_),
                ..
            }
            | GameResult::Draw
                if rules.scoring.is_some() =>
            {
                "agree"
            }
            _ => {
                warn_at(format!(
                    "RE[{text}]: the record ends with the game still going under ruleset `{}`, which cannot end it that way; the result is not applied",
                    rules.name
                ));
                return;
            }
        };
        let here = SourceFile::new("RE", token);
        match morrigo_record::replay_from(s.clone(), token, &here, 0) {
            Ok((end, next)) => {
                for mut p in end.plies {
                    p.n = t.plies.len() + 1;
                    p.note = Some(format!("{} (RE[{text}])", p.note.unwrap_or_default()));
                    t.plies.push(p);
                }
                t.result = end.result;
                t.board = end.board;
                *s = next;
            }
            Err(e) => {
                warn_at(format!(
                    "RE[{text}]: the result cannot be applied: {}",
                    e.diagnostic.message
                ));
                return;
            }
        }
    }
    // The game is over: does the record agree with the ruleset?
    let got = morrigo_sgf::transcript::transcript_result(s, t).unwrap_or(GameResult::Ongoing);
    let agree = match (&recorded, &got) {
        (
            GameResult::Win {
                player: a,
                margin: Margin::Score(x),
            },
            GameResult::Win {
                player: b,
                margin: Margin::Score(y),
            },
        ) => a == b && (x - y).abs() < 1e-9,
        (GameResult::Win { player: a, .. }, GameResult::Win { player: b, .. }) => a == b,
        (GameResult::Draw, GameResult::Draw) => true,
        (GameResult::Ongoing, _) => true,
        _ => false,
    };
    if !agree {
        let said = got.to_sgf().unwrap_or_else(|| "?".to_string());
        let how = match got {
            GameResult::Win {
                margin: Margin::Score(_),
                ..
            }
            | GameResult::Draw => " (counted with no dead stones: SGF does not record them)",
            _ => "",
        };
        warn_at(format!(
            "RE[{text}] disagrees with ruleset `{}`: replaying the record gives {said}{how}",
            rules.name
        ));
    }
}

/// End the game by the resignation of `winner`'s opponent when the record
/// says so but the resigning player is not the one to move.
fn force_resignation(t: &mut Transcript, s: &GameState, winner: u8) {
    let rules = s.rules();
    // Not `s.resign()`: the player resigning is not the one to move.
    let o = morrigo_engine::Outcome {
        winner: Some(winner),
        rule: morrigo_engine::Outcome::RESIGNATION,
    };
    t.result.status = Status::Over;
    t.result.winner = o.winner.map(|w| rules.players[w as usize].clone());
    t.result.reason = Some(o.rule_name(rules).to_string());
    t.result.to_move = rules.players[s.to_move() as usize].clone();
}

/// Restate a replay error at the SGF move it is about: "move 17 (W[cd]): …",
/// located in the SGF file.
pub fn at_sgf_move(
    mut d: Diagnostic,
    file: &SourceFile,
    moves: &[SgfMove],
    ply: usize,
) -> Diagnostic {
    let Some(mv) = moves.get(ply.wrapping_sub(1)) else {
        return d;
    };
    let message = match d.message.strip_prefix("ply ") {
        Some(rest) => rest
            .split_once(": ")
            .map_or(rest.to_string(), |(_, m)| m.to_string()),
        None => d.message.clone(),
    };
    d.message = format!("move {} ({}): {message}", mv.move_number, mv.sgf);
    d.location = mv.offset.map(|o| file.location(o));
    d
}

/// The SGF text of a replayed game (from the set-up of an imported game).
fn sgf_of(s: &GameState, t: &Transcript, from: Option<&SgfGame>) -> Result<String, Failure> {
    let rules = s.rules();
    let (setup, first) = match from {
        Some(g) => (g.setup.clone(), g.first_player),
        None => (rules.start.stones.clone(), rules.start.to_move),
    };
    Ok(morrigo_sgf::transcript::export_transcript_from(
        s, t, &setup, first,
    )?)
}
