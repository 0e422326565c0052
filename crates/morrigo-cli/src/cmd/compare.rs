use crate::cmd::sim_args::{progress, reported, SimOptions};
use crate::fail::{Failure, Outcome};
use crate::game;
use clap::{Args, ValueEnum};
use morrigo_diag::{Diagnostic, Diagnostics};
use morrigo_engine::AnyMachine;
use morrigo_play::{compare_table, default_pairings, simulate, AgentSpec, Format, SimConfig};
use morrigo_rules::builtin;
use std::io::Write;

// Kept beside this file (not in cmd/mod.rs): only `compare` draws charts.
#[path = "compare_svg.rs"]
mod svg;

/// Compare rulesets side by side from simulated games.
///
/// Plays the same number of games with the same seed on each ruleset, for
/// each pairing of agents, and prints one row per ruleset and pairing: each
/// seat's share of wins with its 95% confidence interval, draws, game length
/// (mean and quartiles), which end rules decided the games and for whom,
/// how often each rule came into play (removals, flying moves, passes of
/// each kind, D runs, repetitions, forbid rules refusing a move) and the time
/// per game. Results depend only on the seed, never on the thread count
/// (unless an agent has a time budget).
///
/// With no FILE, compares every built-in Morris ruleset. With no `--agents`,
/// the same agent plays both seats, so each seat's share of wins measures
/// the seat: alpha-beta with 3000 positions a move (`alphabeta:nodes=3000`;
/// small games from their solved table) where turns move pieces, Monte
/// Carlo search (200 playouts a move) where they are board plays.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo compare
  morrigo compare --games 100 --seed 7 --svg compare.svg
  morrigo compare nine-mens-morris nine-mens-morris-no-flying --format csv
  morrigo compare my-variant.yaml nine-mens-morris --agents greedy
  morrigo compare three-mens-morris --agents mcts,greedy --agents greedy,mcts
  morrigo compare jk-final jk-strict-end --size 7 --games 20
  morrigo compare --solve --komi 0        (exact values of the Go rulesets on 2x1, 3x1, 2x2)

--size and --komi apply to every ruleset compared.")]
pub struct CompareArgs {
    /// Ruleset files or built-in names (default: every built-in Morris ruleset).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// Games per ruleset and pairing (default: 1000 when only `uniform`,
    /// `random` and `greedy` play, 30 when `alphabeta` or `mcts` plays).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub games: Option<u32>,
    /// Seed of the random choices (the same for every ruleset).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Markdown)]
    pub format: FormatArg,
    /// Also draw a chart of outcomes and game lengths per row as SVG.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub options: SimOptions,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
    /// Instead of simulating, solve each ruleset exactly (Go-style rulesets,
    /// full-history search) on the --size board, or on 2x1, 3x1 and 2x2,
    /// and put the values side by side (default: every built-in Go ruleset).
    #[arg(long)]
    pub solve: bool,
    /// Node budget of each solve (with --solve).
    #[arg(long, value_name = "N", requires = "solve",
          default_value_t = morrigo_solve::history::DEFAULT_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// With --solve: solve from the position after this move record.
    #[arg(long, value_name = "RECORD", requires = "solve")]
    pub position: Option<String>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FormatArg {
    /// Aligned Markdown tables.
    Markdown,
    /// The same tables as plain aligned columns.
    Table,
    /// One row per ruleset and pairing, with a header row.
    Csv,
    /// A JSON array of the reports.
    Json,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Table => Format::Table,
            FormatArg::Csv => Format::Csv,
            FormatArg::Json => Format::Json,
        }
    }
}

/// Games per row when `--games` is not given.
const GAMES_FAST: u32 = 1000;
const GAMES_SEARCH: u32 = 30;

pub fn run(args: CompareArgs) -> Outcome {
    if args.solve {
        if let [file] = args.files.as_slice() {
            if let Some(suite) = super::solve_suite::read(file)? {
                return super::solve_suite::run(file, &suite, args.max_nodes);
            }
        }
        let specs: Vec<String> = if args.files.is_empty() {
            // A komi applies to the rule sets that count the game: with
            // one, the default leaves out those without a count (nogo),
            // which would refuse it.
            let counts = |name: &str| {
                morrigo_rules::load_rules_with(name, &Default::default())
                    .is_ok_and(|r| r.scoring.is_some())
            };
            builtin::family("go")
                .filter(|b| args.ruleset.komi.is_none() || counts(b.name))
                .map(|b| b.path.to_string())
                .collect()
        } else {
            args.files.clone()
        };
        return super::solve_history::run_compare(
            &specs,
            &args.ruleset,
            args.position.as_deref(),
            args.max_nodes,
        );
    }
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
    // Every ruleset × pairing.
    // `--white`/`--black` seat their agents in every pairing.
    let mut runs: Vec<(&AnyMachine, [AgentSpec; 2])> = Vec::new();
    for any in &machines {
        let rules = any.rules();
        if args.options.agents.is_empty() {
            for default in default_pairings(rules) {
                runs.push((any, args.options.seat_agents_over(rules, None, default)?));
            }
        } else {
            for p in &args.options.agents {
                runs.push((any, args.options.seat_agents(rules, Some(p.0))?));
            }
        }
    }
    for (any, agents) in &runs {
        morrigo_play::prepare_agents(any.rules(), agents, morrigo_play::ON_THE_FLY_MEMORY)
            .map_err(|e| Failure::game(Diagnostic::new(e)))?;
    }
    let searching = runs.iter().any(|(_, p)| {
        p.iter()
            .any(|a| matches!(a, AgentSpec::AlphaBeta(_) | AgentSpec::Mcts(_)))
    });
    let games = args
        .games
        .unwrap_or(if searching { GAMES_SEARCH } else { GAMES_FAST });
    let base = args.options.config(runs[0].0.rules(), games, args.seed)?;
    let bar = progress(u64::from(games) * runs.len() as u64);
    let mut reports = Vec::with_capacity(runs.len());
    for (any, agents) in runs {
        if let Some(b) = &bar {
            b.set_message(any.rules().name.clone());
        }
        let cfg = SimConfig {
            agents,
            ..base.clone()
        };
        reports.push(simulate(any, &cfg, reported(&bar)));
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(path) = &args.svg {
        let cannot = |e: String| {
            Failure::game(morrigo_diag::Diagnostic::new(format!(
                "cannot write the chart to {}: {e}",
                path.display()
            )))
        };
        let text = svg::chart(&reports).map_err(cannot)?;
        std::fs::write(path, text).map_err(|e| cannot(e.to_string()))?;
    }
    let mut out = std::io::stdout().lock();
    write!(out, "{}", compare_table(&reports, args.format.into()))?;
    Ok(())
}
