use crate::budget::{self, BudgetOptions};
use crate::cmd::sim_args::{progress, progress_lines, reported, SimOptions};
use crate::fail::{Failure, Outcome};
use crate::game;
use clap::Args;
use morrigo_diag::Diagnostic;
use morrigo_engine::AnyMachine;
use morrigo_play::{simulate, SimConfig, SimReport};
use std::io::Write;

/// Play many games between built-in agents and summarise the results.
///
/// Games run in parallel; each game's random choices depend only on the seed
/// and the game's number, so a run is reproducible whatever the thread count.
/// Prints wins by seat, draws, unfinished games, the mean length, how often
/// each end rule decided a game, and the speed.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo simulate nine-mens-morris --games 10000 --seed 1
  morrigo simulate morabaraba --games 1000 --seed 2 --agents greedy,random
  morrigo simulate my-variant.yaml --games 500 --seed 3 --json
  morrigo simulate jk-final --size 9 --games 200
  morrigo simulate jk-final --size 9 --games 20 --black mcts:playouts=500 --white random")]
pub struct SimulateArgs {
    /// Ruleset file or built-in name.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Seed of the random choices.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub options: SimOptions,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub budget: BudgetOptions,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

pub fn run(args: SimulateArgs) -> Outcome {
    if args.options.agents.len() > 1 {
        return Err(Failure::usage(
            "`--agents` given more than once: simulate plays one pairing (`compare` takes several)",
        ));
    }
    let any = game::machine(&args.file, &args.ruleset)?;
    let cfg = args.options.config(any.rules(), args.games, args.seed)?;
    morrigo_play::prepare_agents(any.rules(), &cfg.agents, args.budget.enforce().0)
        .map_err(|e| Failure::game(Diagnostic::new(e)))?;
    check_memory(&any, &cfg, &args.budget)?;
    let bar = progress(u64::from(args.games)).or_else(|| {
        args.budget.progress.then(|| {
            progress_lines(
                u64::from(args.games),
                format!("simulate {}", any.rules().name),
            )
        })
    });
    if let Some(b) = &bar {
        b.set_message(any.rules().name.clone());
    }
    let report = simulate(&any, &cfg, reported(&bar));
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| {
            Failure::game(morrigo_diag::Diagnostic::new(format!(
                "cannot write the report as JSON: {e}"
            )))
        })?;
        writeln!(out, "{text}")?;
    } else {
        write!(out, "{}", summary(&report))?;
    }
    Ok(())
}

/// Games run side by side, one per worker thread: a sampled game measures
/// the memory one game holds, and a simulation whose games together would
/// pass the memory limit is refused before it starts.
fn check_memory(any: &AnyMachine, cfg: &SimConfig, budget: &BudgetOptions) -> Outcome {
    let sample = SimConfig {
        games: 1,
        threads: Some(1),
        ..cfg.clone()
    };
    budget::reset_peak();
    let base = budget::live_bytes();
    let report = simulate(any, &sample, None);
    let per_game = budget::peak_bytes().saturating_sub(base) as u64;
    let threads = cfg
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        as u64;
    let need = per_game.saturating_mul(threads.min(u64::from(cfg.games)));
    let (limit, source) = budget.memory_limit();
    if need > limit {
        return Err(Failure::game(
            Diagnostic::new(format!(
                "simulate {}: {threads} games at a time would hold about {}, more than the memory limit of {} ({source}); one game of {} plies held {}",
                any.rules().name,
                budget::show_bytes(need),
                budget::show_bytes(limit),
                report.total_plies,
                budget::show_bytes(per_game)
            ))
            .expected("`--threads N` to run fewer games at a time, `--max-plies P`, or `--max-memory SIZE`"),
        ));
    }
    Ok(())
}

/// The human-readable report.
pub fn summary(r: &SimReport) -> String {
    let mut s = format!(
        "{} ({}): {} games, seed {}, {} {} vs {} {}, at most {} plies\n",
        r.title,
        r.ruleset,
        r.games,
        r.seed,
        r.players[0],
        r.agents[0],
        r.players[1],
        r.agents[1],
        r.max_plies
    );
    let line = |label: &str, n: u32| format!("  {label:<14} {n:>8}  {:>5.1}%\n", r.pct(n));
    s += &line(&format!("{} wins", r.players[0]), r.wins[0]);
    s += &line(&format!("{} wins", r.players[1]), r.wins[1]);
    s += &line("draws", r.draws);
    if let Some(n) = r.no_results {
        s += &line("no result", n);
    }
    s += &line("unfinished", r.unfinished);
    if let Some(n) = r.distinct_games {
        s += &line("distinct games", n);
    }
    s += &format!(
        "  mean length    {:>8.1} plies ({:.1} turns)\n",
        r.mean_plies, r.mean_turns
    );
    s += "  decided by:\n";
    let width = r.end_rules.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    for (name, n) in &r.end_rules {
        s += &format!("    {name:<width$} {n:>8}  {:>5.1}%\n", r.pct(*n));
    }
    let per = |n: f64| {
        if r.elapsed_secs > 0.0 {
            n / r.elapsed_secs
        } else {
            0.0
        }
    };
    s += &format!(
        "  speed          {:.0} games/s, {:.0} plies/s ({:.2} s)\n",
        per(f64::from(r.games)),
        per(r.total_plies as f64),
        r.elapsed_secs
    );
    s
}
