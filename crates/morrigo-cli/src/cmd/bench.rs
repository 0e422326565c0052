use crate::budget::{self, Progress};
use crate::cmd::perft::{check_work, perft_shown, rate, DEFAULT_MAX_NODES};
use crate::fail::Outcome;
use crate::game;
use clap::Args;
use morrigo_engine::with_machine;
use morrigo_play::{bench_mcts_with, bench_playouts_with, bench_search_with, AgentSpec, Unit};
use std::io::Write;
use std::time::Instant;

/// Measure the engine's speed on one thread.
///
/// Plays uniform-random games from the start (games/s, plies/s), then
/// counts the move tree to a fixed depth (nodes/s, a removal counted as a
/// ply). Build with `--release` for meaningful figures.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  cargo run --release -p morrigo-cli -- bench
  morrigo bench morabaraba --games 20000 --perft-depth 4
  morrigo bench tromp-taylor --size 9 --games 500 --perft-depth 3
  morrigo bench nine-mens-morris --search alphabeta:depth=5 --positions 40")]
pub struct BenchArgs {
    /// Ruleset file or built-in name.
    #[arg(value_name = "FILE", default_value = "nine-mens-morris")]
    pub file: String,
    /// Number of random playouts.
    #[arg(long, value_name = "N", default_value_t = 2000,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Depth of the perft run (0 skips it). Default: the deepest level up
    /// to 5 whose tree is estimated at no more than 10 million leaves.
    #[arg(long, value_name = "D",
          value_parser = clap::value_parser!(u32).range(0..=12))]
    pub perft_depth: Option<u32>,
    /// Refuse an explicit `--perft-depth` whose tree is estimated to have
    /// more leaves than this.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// Also time this searching agent (`alphabeta:depth=N[,time=MS]`:
    /// nodes/s, each position from an empty table; `mcts:playouts=N`:
    /// playouts/s) on positions of random games.
    #[arg(long, value_name = "AGENT", value_parser = crate::cmd::sim_args::parse_agent)]
    pub search: Option<AgentSpec>,
    /// Positions `--search` searches.
    #[arg(long, value_name = "N", default_value_t = 40,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub positions: u32,
    /// Seed of the playouts.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Show progress on stderr even when it is not a terminal (one line
    /// a second instead of a bar).
    #[arg(long)]
    pub progress: bool,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

/// The deepest default perft level of `bench`.
const DEFAULT_BENCH_DEPTH: u32 = 5;
/// The default perft depth is the deepest whose tree is estimated at no
/// more leaves than this (a second or so of a release build).
const BENCH_PERFT_NODES: f64 = 1e7;

pub fn run(args: BenchArgs) -> Outcome {
    let search = match args.search {
        None => None,
        Some(a @ (AgentSpec::AlphaBeta(_) | AgentSpec::Mcts(_))) => Some(a),
        Some(other) => {
            return Err(crate::fail::Failure::Usage(
                morrigo_diag::Diagnostic::new(format!(
                    "`--search {other}` is not a searching agent"
                ))
                .expected("`alphabeta` or `mcts`, with its parameters"),
            ))
        }
    };
    let any = game::machine(&args.file, &args.ruleset)?;
    let depth = with_machine!(&any, m => {
        let start = m.initial();
        match args.perft_depth {
            Some(d) if d > 0 => {
                check_work(m, &start, d, Unit::Ply, args.max_nodes, "--max-nodes")?;
                d
            }
            Some(_) => 0,
            None => (1..=DEFAULT_BENCH_DEPTH)
                .take_while(|&d| {
                    budget::estimate_leaves(m, &start, d, Unit::Ply) <= BENCH_PERFT_NODES
                })
                .last()
                .unwrap_or(1),
        }
    });
    let mut out = std::io::stdout().lock();
    writeln!(out, "bench {} (one thread)", any.rules().name)?;
    let name = &any.rules().name;
    let mut bar = Progress::new(
        format!("bench {name}: playouts"),
        u64::from(args.games),
        args.progress,
    );
    let p = bench_playouts_with(&any, args.games, args.seed, &mut |n| bar.set(n));
    bar.finish();
    writeln!(
        out,
        "  playouts: {} games, {} plies in {:.3} s: {:.0} games/s, {:.0} plies/s",
        p.games, p.plies, p.secs, p.games_per_sec, p.plies_per_sec
    )?;
    out.flush()?;
    if depth > 0 {
        let started = Instant::now();
        let label = format!("bench {name}: perft {depth}");
        let nodes = with_machine!(&any, m => {
            perft_shown(m, &mut m.initial(), depth, Unit::Ply, label, args.progress)
        });
        let secs = started.elapsed().as_secs_f64();
        writeln!(
            out,
            "  perft {depth}: {nodes} nodes in {secs:.3} s: {} nodes/s",
            rate(nodes as f64, secs)
        )?;
        out.flush()?;
    }
    if let Some(agent) = search {
        let mut bar = Progress::new(
            format!("bench {name}: {agent}"),
            u64::from(args.positions),
            args.progress,
        );
        let mut shown = |n| bar.set(n);
        let (n, seed) = (args.positions, args.seed);
        let (b, unit) = match agent {
            AgentSpec::Mcts(p) => (bench_mcts_with(&any, p, n, seed, &mut shown), "playouts"),
            AgentSpec::AlphaBeta(p) => (bench_search_with(&any, p, n, seed, &mut shown), "nodes"),
            _ => unreachable!("only searching agents get here"),
        };
        bar.finish();
        writeln!(
            out,
            "  search {agent}: {} positions, {} {unit} in {:.3} s: {:.0} {unit}/s",
            b.positions, b.nodes, b.secs, b.nodes_per_sec
        )?;
    }
    Ok(())
}
