use crate::fail::{Failure, Outcome};
use crate::game;
use clap::Args;
use morrigo_diag::Diagnostic;
use morrigo_gtp::referee::{handicap_stones, run_match, GameRecord, MatchConfig, RESULTS_FILE};
use morrigo_play::{compare_table_by, EndOutcome, Format, LengthStats, SimReport};
use morrigo_rules::{Rules, Verdict};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Referee games between two external GTP engines under a ruleset.
///
/// Each game: both engines get `boardsize`, `komi` and `clear_board`; the
/// referee asks the player to move for `genmove`, checks the answer against
/// the ruleset (a plain `pass` is the first pass kind legal there), plays it
/// and sends it to the other engine (typed passes such as `pass:E` only to
/// engines that know `morrigo-legal`, plain `pass` to others). The
/// ruleset's end rules end the game and its scoring counts it. An illegal
/// move, a crash, a timeout, an answer that is not GTP, or refusing the
/// opponent's legal move loses the game, with the reason recorded.
///
/// Dead stones follow the ruleset's `scoring.dead_stones`: under
/// `agreement` (chinese, japanese, aga, new-zealand) both engines are
/// asked `final_status_list dead` when a count ends the game, and the
/// stones both name are removed before counting; when they differ the game
/// goes on (the clean-up: `kgs-genmove_cleanup` to engines that know it),
/// and at its end every stone on the board counts. Under `none`
/// (tromp-taylor, the JK rules) the board counts as it stands.
///
/// With `--handicap N` every game starts with the GTP standard's fixed
/// placement of N Black stones and White to move: both engines get
/// `fixed_handicap N` (after `clear_board`), and one that refuses it or
/// answers other vertices loses the game (end `handicap`).
///
/// Each game is written as DIR/game-NNNN.sgf (RU, pass kinds as `PK`, RE)
/// and a checked line (CRC-32) appended to DIR/results.jsonl as it ends;
/// run the same command again after an interruption and the finished
/// games are kept (skipped). One referee per DIR (a second is refused);
/// DIR/match.json records the ruleset, size, komi and handicap, and a run
/// under others is refused. The final table has the columns of `compare`
/// and counts games 1 to N of --games N.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo match chinese --size 9 --komi 7 --games 10 --swap --out runs/cn \\
      --black 'gnugo --mode gtp --level 1' --white 'morrigo gtp chinese --size 9'
  morrigo match jk-final --size 9 --games 20 --swap --jobs 2 --out runs/jk \\
      --black 'gnugo --mode gtp' --white 'gnugo --mode gtp --level 5'")]
pub struct MatchArgs {
    /// Ruleset file or built-in name (a Go-style ruleset on a square grid).
    #[arg(value_name = "RULESET")]
    pub file: String,
    /// Command line of the engine playing black in odd games (run by `sh
    /// -c`; `{game}` in it is replaced by the game number, e.g. a seed).
    #[arg(long, value_name = "CMD")]
    pub black: String,
    /// Command line of the engine playing white in odd games.
    #[arg(long, value_name = "CMD")]
    pub white: String,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub games: u32,
    /// Swap colours every other game (even games: `--white` plays black).
    #[arg(long)]
    pub swap: bool,
    /// Longest wait for any one answer of an engine, in seconds (a game is
    /// lost on time past it).
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    pub timeout: f64,
    /// Games played at once, each with its own engine processes.
    #[arg(long, value_name = "J", default_value_t = 1)]
    pub jobs: usize,
    /// Directory of the SGF files and the results file.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Moves after which a game is stopped unfinished (default: ten times
    /// the points of the board).
    #[arg(long, value_name = "N")]
    pub max_moves: Option<u32>,
    /// Fixed handicap: N Black stones on the GTP standard's points (2 to 9
    /// on odd sizes from 9x9, 2 to 4 on 7x7 and even sizes), White moves
    /// first; sent to both engines with `fixed_handicap N`.
    #[arg(long, value_name = "N")]
    pub handicap: Option<u32>,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

pub fn run(args: MatchArgs) -> Outcome {
    let rules = game::rules(&args.file, &args.ruleset)?;
    if !game::is_go(&rules) {
        return Err(Failure::usage(format!(
            "`match` referees Go engines, and `{}` is a Morris-family ruleset (no board plays)",
            rules.name
        )));
    }
    morrigo_gtp::engine::go_board(&rules).map_err(Failure::Usage)?;
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 86_400.0) {
        return Err(Failure::usage(format!(
            "--timeout {}: expected seconds from 0 to 86400",
            args.timeout
        )));
    }
    if args.jobs == 0 || args.games == 0 {
        return Err(Failure::usage("--jobs and --games must be at least 1"));
    }
    if let Some(n) = args.handicap {
        handicap_stones(&rules, n).map_err(|e| Failure::usage(format!("--handicap {n}: {e}")))?;
    }
    let max_moves = args
        .max_moves
        .unwrap_or(10 * rules.topology.len() as u32)
        .max(1);
    let cfg = MatchConfig {
        ruleset: args.file.clone(),
        overrides: args.ruleset.overrides(),
        engines: [args.black.clone(), args.white.clone()],
        games: args.games,
        swap: args.swap,
        timeout: Duration::from_secs_f64(args.timeout),
        jobs: args.jobs,
        out: args.out.clone(),
        max_moves,
        handicap: args.handicap,
    };
    let started = Instant::now();
    let report = |r: &GameRecord| {
        // A closed output ends nothing: the games are in the results file.
        let _ = writeln!(
            std::io::stdout(),
            "game {}: {}: {}",
            r.game,
            r.result.as_deref().unwrap_or("unfinished"),
            r.reason
        );
    };
    let records = run_match(&cfg, &report).map_err(|e| Failure::game(Diagnostic::new(e)))?;
    let sim = sim_report(&rules, &records, max_moves, started.elapsed().as_secs_f64());
    let who = engines_line(&cfg, &records);
    let mut out = std::io::stdout().lock();
    writeln!(out)?;
    write!(
        out,
        "{}",
        compare_table_by(&[sim], Format::Markdown, Some(&who))
    )?;
    if let Some(line) = dead_line(&records) {
        writeln!(out, "{line}")?;
    }
    writeln!(
        out,
        "Games: {} (SGF and {RESULTS_FILE}).",
        cfg.out.display()
    )?;
    Ok(())
}

/// "Dead stones: agreed in 3 games (5 stones removed), clean-up in 1,
/// counted as the board stands in 0." for the games a count ended.
fn dead_line(records: &[GameRecord]) -> Option<String> {
    let of = |how: &str| {
        records
            .iter()
            .filter_map(|r| r.dead_stones.as_ref())
            .filter(|d| d.how == how)
            .collect::<Vec<_>>()
    };
    let (agreed, cleanup, stands) = (of("agreed"), of("clean-up"), of("as it stands"));
    if agreed.len() + cleanup.len() + stands.len() == 0 {
        return None;
    }
    let removed: usize = agreed.iter().map(|d| d.removed.len()).sum();
    Some(format!(
        "Dead stones: agreed in {} games ({removed} stones removed), clean-up in {}, counted as the board stands in {}.",
        agreed.len(),
        cleanup.len(),
        stands.len()
    ))
}

/// "Engines: `a` (--black) won 3 of 4 (2 of 2 as black); `b` (--white) …".
fn engines_line(cfg: &MatchConfig, records: &[GameRecord]) -> String {
    let parts: Vec<String> = ["--black", "--white"]
        .iter()
        .enumerate()
        .map(|(e, flag)| {
            // Engine `e` plays black in game n unless the colours are swapped.
            let black_in = |n: u32| (e == 0) != (cfg.swap && n.is_multiple_of(2));
            let won = |r: &GameRecord| match r.winner.as_deref() {
                Some(w) => (w == "black") == black_in(r.game),
                None => false,
            };
            let as_black: Vec<&GameRecord> = records.iter().filter(|r| black_in(r.game)).collect();
            format!(
                "`{}` ({flag}) won {} of {} ({} of {} as black)",
                cfg.engines[e],
                records.iter().filter(|r| won(r)).count(),
                records.len(),
                as_black.iter().filter(|r| won(r)).count(),
                as_black.len()
            )
        })
        .collect();
    format!("Engines: {}.\n", parts.join("; "))
}

/// The match as a `compare` report: wins by seat, how games ended (end
/// rules, then the referee's own endings), lengths, counts.
fn sim_report(rules: &Rules, records: &[GameRecord], max_moves: u32, secs: f64) -> SimReport {
    let games = records.len() as u32;
    let seat = |w: &str| rules.players.iter().position(|p| p == w);
    let mut wins = [0u32; 2];
    let (mut draws, mut void, mut unfinished, mut counted) = (0, 0, 0, 0);
    let mut score = [0.0f64; 2];
    let mut captured = [0u64; 2];
    let mut lengths: BTreeMap<u32, u32> = BTreeMap::new();
    let mut outcomes: Vec<EndOutcome> = rules
        .end
        .iter()
        .map(|e| EndOutcome {
            rule: e.name.clone(),
            wins: [0, 0],
            draws: 0,
        })
        .collect();
    let mut plies = 0u64;
    let mut game_secs = 0.0;
    for r in records {
        let won = r.winner.as_deref().and_then(seat);
        match (won, r.result.as_deref()) {
            (_, None) => unfinished += 1,
            (Some(s), _) => wins[s] += 1,
            (None, Some("Void")) => void += 1,
            (None, _) => draws += 1,
        }
        if r.result.is_some() {
            let i = match outcomes.iter().position(|o| o.rule == r.end) {
                Some(i) => i,
                None => {
                    outcomes.push(EndOutcome {
                        rule: r.end.clone(),
                        wins: [0, 0],
                        draws: 0,
                    });
                    outcomes.len() - 1
                }
            };
            match won {
                Some(s) => outcomes[i].wins[s] += 1,
                None => outcomes[i].draws += 1,
            }
        }
        if let Some(sc) = r.score {
            counted += 1;
            score[0] += sc[0];
            score[1] += sc[1];
        }
        captured[0] += u64::from(r.captured[0]);
        captured[1] += u64::from(r.captured[1]);
        *lengths.entry(r.moves).or_default() += 1;
        plies += u64::from(r.moves);
        game_secs += r.secs;
    }
    let ci = |k: u32| {
        let (lo, hi) = morrigo_play::wilson(k, games);
        [lo * 100.0, hi * 100.0]
    };
    let mean = |x: f64| {
        if games == 0 {
            0.0
        } else {
            x / f64::from(games)
        }
    };
    SimReport {
        ruleset: rules.name.clone(),
        title: rules.title.clone(),
        players: [rules.players[0].clone(), rules.players[1].clone()],
        agents: Default::default(),
        seed: 0,
        max_plies: max_moves,
        games,
        wins,
        draws,
        no_results: rules
            .end
            .iter()
            .any(|e| e.verdict == Verdict::NoResult)
            .then_some(void),
        unfinished,
        stuck: 0,
        counted,
        mean_score: (counted > 0).then(|| score.map(|s| s / f64::from(counted))),
        captured,
        mean_plies: mean(plies as f64),
        mean_turns: mean(plies as f64),
        end_rules: outcomes
            .iter()
            .map(|o| (o.rule.clone(), o.total()))
            .collect(),
        total_plies: plies,
        total_turns: plies,
        wins_ci95: [ci(wins[0]), ci(wins[1])],
        outcomes,
        length: LengthStats::of(&lengths),
        // The referee keeps no move hashes: distinct games are not counted.
        distinct_games: None,
        events: Vec::new(),
        elapsed_secs: secs,
        secs_per_game: mean(game_secs),
    }
}
