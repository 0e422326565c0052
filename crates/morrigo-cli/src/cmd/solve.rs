use crate::budget::{self, BudgetOptions};
use crate::fail::{Failure, Outcome};
use crate::game;
use clap::Args;
use morrigo_diag::Diagnostic;
use morrigo_engine::{with_machine, Machine, Move, MoveKind, State};
use morrigo_rules::Rules;
use morrigo_solve::history::{Limits, DEFAULT_MAX_NODES, DEFAULT_MAX_PLIES};
use morrigo_solve::{LineEnd, Observer, SolveError, Stage, Stats, Table, Value};
use std::io::Write;
use std::sync::Mutex;
use std::time::Instant;

/// Solve a ruleset exactly: who wins with perfect play, by how much, and how.
///
/// Two methods, chosen from the rules. Rulesets whose legal moves and wins
/// do not read the history (Morris-style) are solved by retrograde
/// analysis; the others (Go-style: ko, superko, JK move classes and D runs,
/// pass rules) by a full-history search, on tiny boards.
///
/// Retrograde analysis explores every position reachable from the start (or from `--position`),
/// then works backwards from the finished games: the game-theoretic value
/// (first player wins, draw, second player wins), the distance to the end
/// under perfect play in plies (the winner hurries, the loser delays), a
/// line of perfect play and the value of every first move.
///
/// A position is the board, the pieces in hand, the player to move and the
/// removals owed. End rules that read the history of the game (repetition
/// counts, turns without a removal) are left out, as in the published
/// Morris solutions: a game that neither side can force to a win is a
/// draw. Rulesets whose legal moves or wins read the history (Go-style ko
/// and pass rules) are refused.
///
/// Memory: about 8 bytes per position of the index space while exploring,
/// then 8 bytes per reachable position and 4 bytes per move while solving;
/// the counts and the memory needed are printed once the positions are
/// known, and the solve stops with an error (exit 1) when that would pass
/// `--max-memory`. The saved table holds 2 bytes per reachable position and
/// a bit per index.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo solve three-mens-morris
  morrigo solve six-mens-morris --save six.solve
  morrigo solve three-mens-morris --position \"b2 a1 c1\"
  morrigo solve six-mens-morris --db six-db
  morrigo solve six-mens-morris --db six-db --at \"white: a1 c1 e3; black: b2 d4; in hand: 3 4; to move: black\"
  morrigo play three-mens-morris --agent perfect:table=three.solve
  morrigo solve jk-final --size 2x1 --komi 0
  morrigo solve jk-final --size 2 --komi 0              (2x2: 6,187 nodes)
  morrigo solve jk-final --size 2 --komi 0 --no-transpositions   (the plain search)
  morrigo solve chinese --size 3x1 --komi 0 --position b1")]
pub struct SolveArgs {
    /// Ruleset file or built-in name.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Solve from the position after this move record.
    #[arg(long, value_name = "RECORD")]
    pub position: Option<String>,
    /// Keep the solved table in this file (for `play` and the `perfect`
    /// agent; retrograde analysis only).
    #[arg(long, value_name = "FILE")]
    pub save: Option<String>,
    /// Full-history search: its node budget; larger searches are refused
    /// or stopped.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// Full-history search: the deepest ply cap. Lines are cut at 16
    /// plies, then 20, 25, 31, … (a quarter more each time) up to this, until no line is cut or the cut
    /// lines do not change the value.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_PLIES,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_plies: u32,
    /// Full-history search: search without the transposition table (the
    /// plain reference search, every node searched).
    #[arg(long)]
    pub no_transpositions: bool,
    /// Solve layer by layer (pieces in hand and on the board), each layer
    /// a unit of work whose files go to this directory; a re-run resumes.
    #[arg(long, value_name = "DIR")]
    pub shards: Option<std::path::PathBuf>,
    /// Solve the whole game with the sector solver into a database
    /// directory (created if missing): one unit (pieces on the board and
    /// in hand per side) at a time, from the ones the start reaches down,
    /// each unit's file written as it is finished, then the list of units
    /// and the start's value as `game.tbl`. A killed run resumes at the
    /// first unfinished unit; a finished database is read back, checked,
    /// in a fraction of a second. Morris games of up to 64 points whose
    /// turns place, slide or fly and remove by lines (Lasker Morris's
    /// slides with pieces in hand too)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["shards", "save", "position"])]
    pub db: Option<std::path::PathBuf>,
    /// With --db: the value and distance of one position and of each of
    /// its moves, e.g. `--at "white: a1 d1 c5; black: b2 d6 e4; to move:
    /// white"`; add `in hand: 2 3` (white's, then black's) for a position
    /// of the placing phase
    #[arg(long, value_name = "POSITION", requires = "db")]
    pub at: Option<String>,
    /// With --db: how the placing phase is solved. `units` (the default):
    /// every placing unit the start reaches, by retrograde analysis, so
    /// every position of the game gets its value and distance (what `--at`,
    /// `play`, the `perfect` agent and `serve --db` read). `search`: the
    /// moving-phase sectors, then the start and each first move by a proof
    /// search over them, as Gasser solved Nine Men's Morris: win, draw or
    /// loss, without distances, for far less work where the placing units
    /// are large.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = Placing::Units, conflicts_with = "at")]
    pub placing: Placing,
    /// With --shards: run this one unit (`explore:h6-6b0-0`,
    /// `solve:h0-0b3-3`, `expand:h0-0b5-5/2`, `round:h0-0b5-5/2/7`), what a
    /// cluster worker runs.
    #[arg(long, value_name = "UNIT", requires = "shards")]
    pub shard: Option<String>,
    /// With --shards: list the units ready to run, one a line, and run none.
    #[arg(long, requires = "shards", conflicts_with = "shard")]
    pub ready: bool,
    /// With --shards: solve a layer of more than N positions in ranges of
    /// at most N (units `expand:LAYER/RANGE`, then `round:LAYER/RANGE/DISTANCE`),
    /// so no unit holds a whole large layer. Set when the directory is
    /// started; the directory keeps it (default: layers are not split).
    #[arg(long, value_name = "N", requires = "shards",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_unit_positions: Option<u64>,
    /// With --shards: units run at a time (default: one per core).
    #[arg(long, value_name = "N", requires = "shards",
          value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    #[command(flatten)]
    pub budget: BudgetOptions,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

/// How `solve --db` solves the placing phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Placing {
    /// Every placing unit by retrograde analysis.
    Units,
    /// A proof search over the moving-phase sectors.
    Search,
}

/// The longest perfect-play line printed (a drawn line stops earlier, at
/// its first repeated position).
pub const LINE_LIMIT: usize = 1000;

pub fn run(args: SolveArgs) -> Outcome {
    if let Some(dir) = &args.shards {
        return super::solve_layers::run(&args, dir);
    }
    if let Some(dir) = &args.db {
        return super::solve_db::run(&args, dir);
    }
    let rules = game::rules(&args.file, &args.ruleset)?;
    if morrigo_solve::retrograde_applies(&rules).is_err() {
        if args.save.is_some() {
            return Err(Failure::usage(format!(
                "`--save` keeps a retrograde table, and {} reads the history, so it is solved by a full-history search, which keeps none",
                rules.name
            )));
        }
        let any = game::machine_of(rules)?;
        // The transposition table grows within half of --max-memory.
        args.budget.enforce();
        let limits = Limits {
            max_nodes: args.max_nodes,
            max_plies: args.max_plies,
            ..Limits::default()
        };
        return super::solve_history::run(
            &any,
            args.position.as_deref(),
            &limits,
            !args.no_transpositions,
        );
    }
    let left_out: Vec<String> = morrigo_solve::history_draw_rules(&rules)
        .into_iter()
        .map(str::to_string)
        .collect();
    let fingerprint = morrigo_solve::rules_fingerprint(&rules);
    let any = game::machine_of(morrigo_solve::solver_rules(&rules))?;
    with_machine!(&any, m => run_on(m, &args, &left_out, fingerprint))
}

/// Progress bars, one per stage, and the counts printed once known.
struct Report {
    asked: bool,
    name: String,
    bar: Mutex<Option<(Stage, budget::Progress)>>,
    limit: (u64, &'static str),
}

impl Report {
    /// Close the current stage's bar, if one is open.
    fn finish_bar(&self) {
        if let Ok(mut g) = self.bar.lock() {
            if let Some((_, bar)) = g.take() {
                bar.finish();
            }
        }
    }
}

impl Observer for Report {
    fn progress(&self, stage: Stage, done: u64, total: u64) {
        let Ok(mut g) = self.bar.try_lock() else {
            return;
        };
        match &mut *g {
            Some((s, bar)) if *s == stage => bar.set(done),
            _ => {
                if let Some((_, bar)) = g.take() {
                    bar.finish();
                }
                let what = match stage {
                    Stage::Explore => "exploring the reachable positions",
                    Stage::Link => "linking positions to their predecessors",
                    Stage::Solve => "deciding positions",
                };
                let mut bar = budget::Progress::new(
                    format!("solve {}: {what}", self.name),
                    total,
                    self.asked,
                );
                bar.set(done);
                *g = Some((stage, bar));
            }
        }
    }

    fn explored(&self, stats: &Stats) {
        self.finish_bar();
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", counts(stats));
        let _ = writeln!(
            out,
            "  memory     {} for the solve (limit {}: {})",
            budget::show_bytes(stats.memory),
            budget::show_bytes(self.limit.0),
            self.limit.1
        );
        let _ = out.flush();
    }
}

fn counts(s: &Stats) -> String {
    format!(
        "  positions  {} reachable (index space {} in {} segments)\n  moves      {}",
        s.reachable, s.index, s.segments, s.edges
    )
}

fn run_on<const W: usize>(
    m: &Machine<W>,
    args: &SolveArgs,
    left_out: &[String],
    fingerprint: u64,
) -> Outcome {
    let rules = &m.rules;
    let name = &rules.name;
    let start = game::start(m, args.position.as_deref())?;
    print_heading(rules, args, &start);
    let s = start.state;
    let limit = args.budget.enforce();
    let report = Report {
        asked: args.budget.progress,
        name: name.clone(),
        bar: Mutex::new(None),
        limit,
    };
    let started = Instant::now();
    let solved = morrigo_solve::solve(m, &s, limit.0, &report);
    report.finish_bar();
    budget::report_peak();
    let (table, stats) = solved.map_err(|e| refusal(name, e, limit))?;
    let secs = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    let value = table.start_value();
    writeln!(
        out,
        "  value      {}",
        value_text(rules, &s, value, args.position.is_none())
    )?;
    write_line(&mut out, m, &table, &s)?;
    write_move_values(&mut out, m, &table, &s)?;
    writeln!(
        out,
        "  reachable  {} won, {} lost, {} drawn for the player to move",
        stats.wins, stats.losses, stats.draws
    )?;
    write_history(&mut out, left_out)?;
    writeln!(out, "  time       {secs:.2} s")?;
    if let Some(path) = &args.save {
        save_table(&mut out, &table, name, fingerprint, path)?;
    }
    Ok(())
}

/// The ruleset and board, and where the solve starts when not at the start.
fn print_heading<const W: usize>(rules: &Rules, args: &SolveArgs, start: &game::Start<W>) {
    println!("solve {} ({} points)", rules.name, rules.topology.len());
    if args.position.is_some() {
        println!(
            "  from       the position after {} plies, {} to move",
            start.plies,
            game::player_name(rules, start.state.pos.to_move)
        );
    }
}

/// A line of perfect play from `s`, and how it ends.
fn write_line<const W: usize>(
    out: &mut impl Write,
    m: &Machine<W>,
    table: &Table,
    s: &State<W>,
) -> std::io::Result<()> {
    let rules = &m.rules;
    let (line, end) = morrigo_solve::perfect_line(m, table, s, LINE_LIMIT);
    let ending = match end {
        LineEnd::Over(o) => format!(
            " — {}",
            game::outcome_text(rules, &o).lines().next().unwrap_or("")
        ),
        LineEnd::Repeats => " — then the position repeats: neither side can force more".to_string(),
        LineEnd::Stuck => {
            " — no legal move and no end rule decides: the game is stuck (counted a draw)"
                .to_string()
        }
        LineEnd::Unknown => " — a position the table does not hold".to_string(),
        LineEnd::Limit => format!(" … ({LINE_LIMIT} plies shown)"),
    };
    writeln!(out, "  line       {}{ending}", line_text(rules, &line))
}

/// The value of each move from `s`, the moves aligned; nothing when the
/// game is over.
fn write_move_values<const W: usize>(
    out: &mut impl Write,
    m: &Machine<W>,
    table: &Table,
    s: &State<W>,
) -> std::io::Result<()> {
    let rules = &m.rules;
    let firsts = morrigo_solve::move_values(m, table, s);
    if firsts.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "  moves from here ({} to move):",
        game::player_name(rules, s.pos.to_move)
    )?;
    let width = firsts
        .iter()
        .map(|(mv, _)| line_text(rules, &[*mv]).len())
        .max()
        .unwrap_or(0);
    for (mv, v) in &firsts {
        let text = match v {
            Some(v) => move_value_text(*v),
            None => "not in the table".to_string(),
        };
        writeln!(out, "    {:width$}  {text}", line_text(rules, &[*mv]))?;
    }
    Ok(())
}

/// Which end rules read the history, and so were left out of the solve.
fn write_history(out: &mut impl Write, left_out: &[String]) -> std::io::Result<()> {
    if left_out.is_empty() {
        return writeln!(
            out,
            "  history    no end rule reads the history of the game"
        );
    }
    let names: Vec<String> = left_out.iter().map(|n| format!("`{n}`")).collect();
    writeln!(
        out,
        "  history    end rule{} {} read{} the history of the game and {} left out, as in the published Morris solutions: a game neither side can force to a win is a draw",
        if names.len() > 1 { "s" } else { "" },
        names.join(" and "),
        if names.len() > 1 { "" } else { "s" },
        if names.len() > 1 { "are" } else { "is" },
    )
}

/// `--save`: the table to `path`, and its size once written.
fn save_table(
    out: &mut impl Write,
    table: &Table,
    name: &str,
    fingerprint: u64,
    path: &str,
) -> Outcome {
    // Whole or not at all: a failed write keeps the old file.
    let saved = morrigo_store::AtomicFile::create(std::path::Path::new(path))
        .map_err(|e| e.to_string())
        .and_then(|mut f| {
            table
                .save(&mut f, name, fingerprint)
                .map_err(|e| e.to_string())?;
            f.commit().map_err(|e| e.to_string())
        });
    if let Err(e) = saved {
        out.flush()?;
        return Err(Failure::game(Diagnostic::new(format!(
            "solve {name}: cannot write the table to `{path}`: {e}"
        ))));
    }
    let size = std::fs::metadata(path).map_or(0, |md| md.len());
    writeln!(out, "  saved      {path} ({})", budget::show_bytes(size))?;
    Ok(())
}

/// The start's value in words: for the whole game, who wins; from a
/// position, for the player to move.
pub(crate) fn value_text<const W: usize>(
    rules: &Rules,
    s: &State<W>,
    v: Value,
    whole_game: bool,
) -> String {
    let me = game::player_name(rules, s.pos.to_move);
    let other = game::player_name(rules, s.pos.to_move ^ 1);
    let seat = |p: u8| {
        if p == 0 {
            "the first player wins"
        } else {
            "the second player wins"
        }
    };
    match v {
        Value::Win(d) if whole_game => {
            format!("{me} wins in {} ({})", plies(d), seat(s.pos.to_move))
        }
        Value::Loss(d) if whole_game => {
            format!("{other} wins in {} ({})", plies(d), seat(s.pos.to_move ^ 1))
        }
        Value::Draw if whole_game => "draw (neither side can force a win)".to_string(),
        Value::Win(d) => format!("{me} (to move) wins in {}", plies(d)),
        Value::Loss(d) => format!("{other} wins in {} ({me} to move loses)", plies(d)),
        Value::Draw => "draw (neither side can force a win)".to_string(),
    }
}

pub(crate) fn plies(d: u32) -> String {
    if d == 1 {
        "1 ply".to_string()
    } else {
        format!("{d} plies")
    }
}

pub(crate) fn move_value_text(v: Value) -> String {
    match v {
        Value::Win(d) => format!("wins in {d}"),
        Value::Loss(d) => format!("loses in {d}"),
        Value::Draw => "draws".to_string(),
    }
}

/// Moves as a record: removals joined to the move that owed them.
pub(crate) fn line_text(rules: &Rules, line: &[Move]) -> String {
    let mut turns: Vec<String> = Vec::new();
    for mv in line {
        let text = morrigo_engine::notation::format_move_in(rules, mv);
        match (mv.kind, turns.last_mut()) {
            (MoveKind::Remove, Some(last)) => last.push_str(&text),
            _ => turns.push(text),
        }
    }
    if turns.is_empty() {
        "(none: the game is over)".to_string()
    } else {
        turns.join(" ")
    }
}

fn refusal(name: &str, e: SolveError, limit: (u64, &'static str)) -> Failure {
    let d = match e {
        SolveError::Memory {
            index,
            reachable,
            edges,
            needed,
            complete,
            ..
        } => {
            let (about, counts) = if complete {
                ("", format!("{reachable} positions reachable, index space {index}, {edges} moves"))
            } else {
                (
                    "at least ",
                    format!("at least {reachable} positions reachable, index space {index} so far, {edges} moves so far"),
                )
            };
            Diagnostic::new(format!(
                "solve {name}: the solve needs {about}{} of memory ({counts}), more than the limit of {} ({})",
                budget::show_bytes(needed),
                budget::show_bytes(limit.0),
                limit.1
            ))
            .expected("`--max-memory SIZE` (such as `--max-memory 16G`) to allow more, or a smaller ruleset")
        }
        SolveError::IndexSpace { index } => Diagnostic::new(format!(
            "solve {name}: the positions cannot be indexed: the index space passes {} positions (at {index})",
            morrigo_solve::MAX_INDEX
        ))
        .expected("a smaller board or fewer pieces"),
        SolveError::TooManyMoves { edges } => Diagnostic::new(format!(
            "solve {name}: {edges} moves between reachable positions, more than the 4294967295 the solver links"
        ))
        .expected("a smaller board or fewer pieces"),
        SolveError::TooManyMovesAt { moves } => Diagnostic::new(format!(
            "solve {name}: a position has {moves} legal moves, more than the 65535 the solver counts"
        ))
        .expected("a smaller board"),
        SolveError::Budget(e) => Diagnostic::new(format!("solve {name}: {e}")).expected(
            "`--max-memory SIZE` (such as `--max-memory 16G`) to allow more, a larger `ulimit -v`, or a smaller ruleset",
        ),
        SolveError::TooDeep => Diagnostic::new(format!(
            "solve {name}: a game lasts more than {} plies under perfect play, more than a value holds",
            morrigo_solve::MAX_DISTANCE
        ))
        .expected("a smaller ruleset"),
    };
    Failure::game(d)
}
