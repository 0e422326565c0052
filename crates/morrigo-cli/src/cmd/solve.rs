use super::solve_args::SolveArgs;
use super::solve_history::HistorySearch;
use super::solve_text::{line_text, move_value_text, value_text};
use crate::budget::{self};
use crate::fail::{Failure, Outcome};
use crate::game;
use morrigo_diag::Diagnostic;
use morrigo_engine::{with_machine, Game, Machine, State};
use morrigo_rules::Rules;
use morrigo_solve::history::Limits;
use morrigo_solve::{LineEnd, Observer, SolveError, Stage, Stats, Table};
use std::io::Write;
use std::sync::Mutex;
use std::time::Instant;

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
        let played = Game::from(game::machine_of(rules)?);
        // The transposition table grows within half of --max-memory.
        args.budget.enforce();
        let limits = Limits {
            max_nodes: args.max_nodes,
            max_plies: args.max_plies,
            ..Limits::default()
        };
        let how = if args.no_transpositions {
            HistorySearch::Plain
        } else {
            HistorySearch::Table {
                every_first_move: !args.value_only,
            }
        };
        let progress = args.budget.progress;
        return super::solve_history::run(
            &played,
            args.position.as_deref(),
            &limits,
            how,
            progress,
        );
    }
    if args.value_only {
        return Err(Failure::usage(format!(
            "`--value-only` narrows the full-history search, and {} is solved by retrograde analysis, which values every first move anyway",
            rules.name
        )));
    }
    let left_out: Vec<String> = morrigo_solve::history_draw_rules(&rules)
        .into_iter()
        .map(str::to_string)
        .collect();
    let fingerprint = morrigo_solve::rules_fingerprint(&rules);
    let played = Game::from(game::machine_of(morrigo_solve::solver_rules(&rules))?);
    with_machine!(played.machine().as_ref(), m => run_on(&played, m, &args, &left_out, fingerprint))
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
    played: &Game,
    m: &Machine<W>,
    args: &SolveArgs,
    left_out: &[String],
    fingerprint: u64,
) -> Outcome {
    let rules = &m.rules;
    let name = &rules.name;
    let start = game::start(played, args.position.as_deref())?;
    print_heading(rules, args, &start);
    let s = start.state_at::<W>().clone();
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
    let (table, stats) = solved.map_err(|e| refusal(rules, e, limit))?;
    let secs = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    let value = table.start_value();
    writeln!(
        out,
        "  value      {}",
        value_text(rules, s.pos.to_move, value, args.position.is_none())
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
fn print_heading(rules: &Rules, args: &SolveArgs, start: &game::Start) {
    println!("solve {} ({} points)", rules.name, rules.topology.len());
    if args.position.is_some() {
        println!(
            "  from       the position after {} plies, {} to move",
            start.plies,
            game::player_name(rules, start.state.to_move())
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

fn refusal(rules: &Rules, e: SolveError, limit: (u64, &'static str)) -> Failure {
    let name = &rules.name;
    // Games too large for one table may still fit the sector solver.
    let smaller = if morrigo_sector::supported(rules).is_ok() {
        "a smaller board or fewer pieces, or `--db DIR` (the sector solver, a file per sector on disk)"
    } else {
        "a smaller board or fewer pieces"
    };
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
        .expected(smaller),
        SolveError::TooManyMoves { edges } => Diagnostic::new(format!(
            "solve {name}: {edges} moves between reachable positions, more than the 4294967295 the solver links"
        ))
        .expected(smaller),
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
