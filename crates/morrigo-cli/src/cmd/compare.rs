use crate::cmd::sim_args::{progress, SimOptions};
use crate::fail::{Failure, Outcome};
use crate::game;
use clap::{Args, ValueEnum};
use morrigo_diag::Diagnostics;
use morrigo_play::{compare_table, simulate, Format};
use morrigo_rules::builtin;
use std::io::Write;

/// Compare rulesets side by side from simulated games.
///
/// Plays the same number of games with the same seed on each ruleset and
/// prints one row per ruleset: how often each seat wins, draws, how long
/// games last and which end rules decide them. With no FILE, compares every
/// built-in Morris ruleset — a quick look at how rule changes shift a game.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo compare
  morrigo compare --games 5000 --seed 7
  morrigo compare nine-mens-morris nine-mens-morris-no-flying --format csv
  morrigo compare my-variant.yaml nine-mens-morris --agents greedy
  morrigo compare rulesets/go/jk-final.yaml rulesets/go/chinese.yaml --size 9 --games 200

--size and --komi apply to every ruleset compared.")]
pub struct CompareArgs {
    /// Ruleset files or built-in names (default: every built-in Morris ruleset).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// Games per ruleset.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Seed of the random choices (the same for every ruleset).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Markdown)]
    pub format: FormatArg,
    #[command(flatten)]
    pub options: SimOptions,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    /// Aligned Markdown tables.
    Markdown,
    /// One row per ruleset, with a header row.
    Csv,
    /// A JSON array of the reports.
    Json,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Csv => Format::Csv,
            FormatArg::Json => Format::Json,
        }
    }
}

pub fn run(args: CompareArgs) -> Outcome {
    let specs: Vec<String> = if args.files.is_empty() {
        builtin::family("morris")
            .map(|b| b.path.to_string())
            .collect()
    } else {
        args.files.clone()
    };
    // Load everything first: a bad ruleset stops the run before any game.
    let mut machines = Vec::new();
    let mut errors = Vec::new();
    for spec in &specs {
        match game::machine(spec, &args.ruleset) {
            Ok(m) => machines.push(m),
            Err(Failure::Game(Diagnostics(ds))) => errors.extend(ds),
            Err(other) => return Err(other),
        }
    }
    if !errors.is_empty() {
        return Err(Failure::Game(Diagnostics(errors)));
    }
    let cfg = args.options.config(args.games, args.seed);
    for any in &machines {
        morrigo_play::prepare_agents(any.rules(), &cfg.agents, morrigo_play::ON_THE_FLY_MEMORY)
            .map_err(|e| Failure::game(morrigo_diag::Diagnostic::new(e)))?;
    }
    let bar = progress(u64::from(args.games) * machines.len() as u64);
    let mut reports = Vec::with_capacity(machines.len());
    for any in &machines {
        if let Some(b) = &bar {
            b.set_message(any.rules().name.clone());
        }
        reports.push(simulate(any, &cfg, bar.as_ref()));
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut out = std::io::stdout().lock();
    write!(out, "{}", compare_table(&reports, args.format.into()))?;
    Ok(())
}
