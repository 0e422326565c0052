use crate::fail::Outcome;
use crate::game;
use clap::Args;
use morrigo_play::{bench_perft, bench_playouts, Unit};
use std::io::Write;

/// Measure the engine's speed on one thread.
///
/// Plays random-vs-random games from the start (games/s, plies/s), then
/// counts the move tree to a fixed depth (nodes/s, a removal counted as a
/// ply). Build with `--release` for meaningful figures.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  cargo run --release -p morrigo-cli -- bench
  morrigo bench morabaraba --games 20000 --perft-depth 4
  morrigo bench tromp-taylor --size 9 --games 500 --perft-depth 3")]
pub struct BenchArgs {
    /// Ruleset file or built-in name.
    #[arg(value_name = "FILE", default_value = "nine-mens-morris")]
    pub file: String,
    /// Number of random playouts.
    #[arg(long, value_name = "N", default_value_t = 2000,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Depth of the perft run (0 skips it).
    #[arg(long, value_name = "D", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(0..=12))]
    pub perft_depth: u32,
    /// Seed of the playouts.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

pub fn run(args: BenchArgs) -> Outcome {
    let any = game::machine(&args.file, &args.ruleset)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "bench {} (one thread)", any.rules().name)?;
    let p = bench_playouts(&any, args.games, args.seed);
    writeln!(
        out,
        "  playouts: {} games, {} plies in {:.3} s: {:.0} games/s, {:.0} plies/s",
        p.games, p.plies, p.secs, p.games_per_sec, p.plies_per_sec
    )?;
    out.flush()?;
    if args.perft_depth > 0 {
        let b = bench_perft(&any, args.perft_depth, Unit::Ply);
        writeln!(
            out,
            "  perft {}: {} nodes in {:.3} s: {:.0} nodes/s",
            b.depth, b.nodes, b.secs, b.nodes_per_sec
        )?;
    }
    Ok(())
}
