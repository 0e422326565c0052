use crate::cmd::compare::FormatArg;
use crate::cmd::sim_args::{progress, reported};
use crate::fail::{Failure, Outcome};
use crate::game;
use clap::Args;
use morrigo_diag::Diagnostic;
use morrigo_play::ladder::{ladder, ladder_table, table_for, LadderConfig, LadderReport};
use morrigo_play::{AgentSpec, PerfectParams, DEFAULT_MAX_PLIES};
use std::io::Write;

// Kept beside this file: only `ladder` draws this chart.
#[path = "ladder_svg.rs"]
mod svg;

/// Rate agent settings against each other on one ruleset.
///
/// A round robin: every two agents play `--games` games, taking turns at
/// the first seat, each game seeded (the results depend only on the seed,
/// never on the thread count, unless an agent has a time budget). Prints
/// each agent's Elo with its 95% interval (Bradley–Terry maximum
/// likelihood, draws half a win, one virtual draw per pairing, mean rating
/// 0, intervals from the observed Fisher information), its score, draws and
/// decisive games; the score matrix; and each pairing's draw rate.
///
/// Where a solved table is at hand (`--table FILE` from `morrigo solve
/// --save`, or a game small enough to solve in memory at once), each
/// agent's blunder rate too: the share of its moves (among two or more)
/// that turned a won position into a drawn or lost one, or a drawn one
/// into a lost one.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo ladder three-mens-morris
  morrigo ladder six-mens-morris --agents random --agents greedy --agents alphabeta:depth=4 --games 40
  morrigo ladder nine-mens-morris --agents greedy --agents mcts:playouts=200 --svg ladder.svg
  morrigo ladder nine-mens-morris --table nmm.table --format json")]
pub struct LadderArgs {
    /// Ruleset file or built-in name.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// One agent setting each time (at least two, each once), e.g.
    /// `--agents greedy --agents alphabeta:depth=3`. Default: `random`,
    /// `greedy`, `alphabeta:depth=2`, `mcts:playouts=200`.
    #[arg(long, value_name = "AGENT", value_parser = crate::cmd::sim_args::parse_agent,
          action = clap::ArgAction::Append)]
    pub agents: Vec<AgentSpec>,
    /// Games of each pairing.
    #[arg(long, value_name = "N", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Seed of the random choices.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Markdown)]
    pub format: FormatArg,
    /// Also draw draw rate and decisive rate against Elo as SVG.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    /// Judge every move by a solved table: the game is solved in memory
    /// (an error if it is too large). Without it, moves are judged only
    /// when the game is small enough to solve at once (Three Men's Morris,
    /// not Six).
    #[arg(long)]
    pub blunders: bool,
    /// Judge every move by this table (from `morrigo solve --save`).
    #[arg(long, value_name = "TABLE")]
    pub table: Option<String>,
    /// A game still running after this many plies counts as unfinished
    /// (half a win each in the ratings).
    #[arg(long, value_name = "P", default_value_t = DEFAULT_MAX_PLIES,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: u32,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

/// Memory a solve may take to judge moves without `--blunders` (games
/// that pass `solves_cheaply` need far less).
const AUTO_SOLVE_BYTES: u64 = 8 << 20;

fn default_agents() -> Vec<AgentSpec> {
    ["random", "greedy", "alphabeta:depth=2", "mcts:playouts=200"]
        .iter()
        .filter_map(|a| a.parse().ok())
        .collect()
}

pub fn run(args: LadderArgs) -> Outcome {
    let any = game::machine(&args.file, &args.ruleset)?;
    let rules = any.rules();
    let agents = if args.agents.is_empty() {
        default_agents()
    } else {
        args.agents.clone()
    };
    if agents.len() < 2 {
        return Err(Failure::Usage(
            Diagnostic::new(format!(
                "a ladder needs at least two agents; {} given",
                agents.len()
            ))
            .expected("`--agents A --agents B [...]`, one agent setting each"),
        ));
    }
    for (i, a) in agents.iter().enumerate() {
        if agents[..i].contains(a) {
            return Err(Failure::Usage(
                Diagnostic::new(format!("`--agents {a}` is given twice"))
                    .expected("each agent setting once (they are rated against each other)"),
            ));
        }
    }
    morrigo_play::prepare_agents(rules, &agents, morrigo_play::ON_THE_FLY_MEMORY)
        .map_err(|e| Failure::game(Diagnostic::new(e)))?;
    let table = match (&args.table, args.blunders) {
        (Some(path), _) => {
            // The path goes through the agent syntax, where a comma
            // starts the next parameter.
            if path.contains(',') {
                return Err(Failure::Usage(
                    Diagnostic::new(format!("`--table {path}`: the path has a comma"))
                        .expected("a table path without commas (as for `perfect:table=FILE`)"),
                ));
            }
            let spec: AgentSpec = format!("perfect:table={path}")
                .parse()
                .map_err(|e: String| Failure::Usage(Diagnostic::new(e)))?;
            let AgentSpec::Perfect(p) = spec else {
                unreachable!("a perfect spec parses as perfect")
            };
            Some(table_for(rules, p, morrigo_play::ON_THE_FLY_MEMORY).map_err(game_error)?)
        }
        (None, true) => Some(
            table_for(
                rules,
                PerfectParams::default(),
                morrigo_play::ON_THE_FLY_MEMORY,
            )
            .map_err(game_error)?,
        ),
        (None, false) => morrigo_play::ladder::solves_cheaply(&any)
            .then(|| table_for(rules, PerfectParams::default(), AUTO_SOLVE_BYTES).ok())
            .flatten(),
    };
    let cfg = LadderConfig {
        agents,
        games: args.games,
        seed: args.seed,
        max_plies: args.max_plies,
        threads: args.threads.map(usize::from),
        table,
    };
    let pairs = cfg.agents.len() * (cfg.agents.len() - 1) / 2;
    let bar = progress(u64::from(args.games) * pairs as u64);
    if let Some(b) = &bar {
        b.set_message(rules.name.clone());
    }
    let report = ladder(&any, &cfg, reported(&bar));
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(path) = &args.svg {
        write_chart(path, &report)?;
    }
    let mut out = std::io::stdout().lock();
    write!(out, "{}", ladder_table(&report, args.format.into()))?;
    Ok(())
}

fn game_error(e: String) -> Failure {
    Failure::game(Diagnostic::new(e))
}

fn write_chart(path: &std::path::Path, report: &LadderReport) -> Outcome {
    let cannot = |e: String| {
        Failure::game(Diagnostic::new(format!(
            "cannot write the chart to {}: {e}",
            path.display()
        )))
    };
    let text = svg::chart(report).map_err(cannot)?;
    morrigo_store::write_atomic(path, text.as_bytes()).map_err(|e| cannot(e.to_string()))?;
    Ok(())
}
