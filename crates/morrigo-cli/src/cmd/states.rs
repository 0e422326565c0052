use crate::budget::{self, BudgetOptions};
use crate::fail::{Failure, Outcome};
use crate::game;
use clap::Args;
use morrigo_diag::Diagnostic;
use morrigo_engine::{count_states_within, with_machine, Game, Machine, StateCount};
use std::io::Write;
use std::time::Instant;

/// Count the distinct reachable board states (and positions) of a ruleset.
///
/// A breadth-first search from the start (or from `--position`) over every
/// legal move. A *board* is the colour of every point; a *position* adds
/// the pieces in hand, the player to move and a removal still owed. Each
/// position is expanded once, along the first path that reached it, so
/// rules that read the history (superko, pass patterns) are applied along
/// that path. The search stops at `--limit` positions; the counts are then
/// lower bounds, and the output says so.
///
/// Memory: each growth of the visited sets and of the queue is checked
/// before it is made; the search stops with an error (exit 1) before the
/// memory held would pass `--max-memory` (default: the memory available on
/// the machine, or the address space left under `ulimit -v`), printing the
/// counts reached as lower bounds.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo states tromp-taylor --size 2        (57 boards)
  morrigo states tromp-taylor --size 3        (12675 boards)
  morrigo states jk-final --size 2x3 --limit 1000000
  morrigo states three-mens-morris")]
pub struct StatesArgs {
    /// Ruleset file or built-in name.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Stop after this many distinct positions.
    #[arg(long, value_name = "N", default_value_t = 10_000_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,
    /// Start from the position after this move record.
    #[arg(long, value_name = "RECORD")]
    pub position: Option<String>,
    #[command(flatten)]
    pub budget: BudgetOptions,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

pub fn run(args: StatesArgs) -> Outcome {
    let played = game::game(&args.file, &args.ruleset)?;
    with_machine!(played.machine().as_ref(), m => run_on(&played, m, &args))
}

fn run_on<const W: usize>(played: &Game, m: &Machine<W>, args: &StatesArgs) -> Outcome {
    let start = game::start(played, args.position.as_deref())?;
    let s = start.state_at::<W>().clone();
    let t = &m.rules.topology;
    let started = Instant::now();
    let mut memory_stop = None;
    let count = match &start.over {
        // A finished game reaches nothing but itself.
        Some(_) => StateCount {
            boards: 1,
            positions: 1,
            complete: true,
        },
        None => {
            args.budget.enforce();
            // The size is known only once the search completes: a count of
            // the positions found, with the limit in the label.
            let mut bar = budget::Progress::counter(
                format!("states {} (at most {})", m.rules.name, args.limit),
                "positions",
                args.budget.progress,
            );
            // Every growth of the search's tables is reserved from the
            // budget before it is made: past it, the search stops.
            let (count, stop) = count_states_within(m, &s, args.limit, &mut |p| {
                bar.set(p.positions);
                true
            });
            bar.finish();
            budget::report_peak();
            memory_stop = stop;
            count
        }
    };
    let secs = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}",
        report(
            &m.rules.name,
            t.width,
            t.height,
            t.len(),
            &count,
            match memory_stop {
                Some(_) => None,
                None => Some(args.limit),
            }
        )
    )?;
    if let Some(why) = &start.over {
        writeln!(out, "  note       the game is over: {why}")?;
    }
    writeln!(out, "  time       {secs:.3} s")?;
    if let Some(e) = memory_stop {
        out.flush()?;
        return Err(Failure::game(
            Diagnostic::new(format!(
                "states {}: stopped after {} positions: {e}",
                m.rules.name, count.positions,
            ))
            .expected("`--max-memory SIZE` (such as `--max-memory 16G`) to allow more, a larger `ulimit -v`, or a smaller board")
            .note("the counts printed are lower bounds"),
        ));
    }
    Ok(())
}

/// `limit`: the `--limit` that stopped an incomplete search (`None`: the
/// memory limit stopped it).
fn report(name: &str, w: u32, h: u32, points: usize, c: &StateCount, limit: Option<u64>) -> String {
    let mut text = format!("states {name} ({points} points, {w}x{h})\n");
    text += &format!("  boards     {}\n", c.boards);
    text += &format!("  positions  {}\n", c.positions);
    if c.complete {
        text += "  search     complete: every reachable position was visited";
    } else if let Some(limit) = limit {
        text += &format!(
            "  search     stopped at the limit of {limit} positions: the counts are lower bounds (raise --limit)"
        );
    } else {
        text += "  search     stopped by the memory limit: the counts are lower bounds (raise --max-memory)";
    }
    text
}
