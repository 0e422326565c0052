use crate::budget::{self, BudgetOptions};
use crate::fail::{Failure, Outcome};
use crate::game;
use clap::{Args, ValueEnum};
use morrigo_diag::Diagnostic;
use morrigo_engine::{perft, perft_divide, perft_to_end, with_machine, Game, Machine, State, Unit};
use std::io::Write;
use std::time::Instant;

/// Count the leaves of the move tree (move-generator check and speed test).
///
/// Prints the number of positions reached after 1, 2, … DEPTH levels, with
/// nodes per second. With `--unit ply` (the default) a removal is a level of
/// its own, which matches the published Nine Men's Morris figures (24, 552,
/// 12144, 255024, 5100480); with `--unit turn` a move and the removals it
/// earns are one level. `--divide` prints the count below each first move.
///
/// `--to-end` counts finished games instead: the number of move sequences
/// of at most DEPTH levels that end the game (a sequence stops where the
/// game ends; one that ends at depth 3 is not extended). For each depth it
/// prints the sequences that end the game at exactly that depth, the
/// cumulative count up to it, and the sequences still going at it; then
/// the finished games by winner and by the end rule that decided them.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo perft nine-mens-morris 5
  morrigo perft nine-mens-morris 3 --divide
  morrigo perft nine-mens-morris 6 --unit turn --position \"a1 b2 d1 f2\"
  morrigo perft three-mens-morris 7 --to-end
  morrigo perft jk-final 6 --size 2 --to-end")]
pub struct PerftArgs {
    /// Ruleset file or built-in name.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Depth of the tree, in units.
    #[arg(value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// What one level of the tree is.
    #[arg(long, value_enum, default_value_t = UnitArg::Ply)]
    pub unit: UnitArg,
    /// Print the count below each first move, then the total.
    #[arg(long)]
    pub divide: bool,
    /// Start from the position after this move record.
    #[arg(long, value_name = "RECORD")]
    pub position: Option<String>,
    /// Count the move sequences of at most DEPTH levels that end the game
    /// (per depth and cumulative), instead of the leaves.
    #[arg(long, conflicts_with = "divide")]
    pub to_end: bool,
    /// Refuse a depth whose tree is estimated to have more leaves than
    /// this (the estimate comes from random paths down the tree).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    #[command(flatten)]
    pub budget: BudgetOptions,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum UnitArg {
    /// Every ply is a level; a removal is a ply of its own.
    Ply,
    /// A move together with its removals is one level.
    Turn,
}

impl From<UnitArg> for Unit {
    fn from(u: UnitArg) -> Unit {
        match u {
            UnitArg::Ply => Unit::Ply,
            UnitArg::Turn => Unit::Turn,
        }
    }
}

pub fn run(args: PerftArgs) -> Outcome {
    let played = game::game(&args.file, &args.ruleset)?;
    with_machine!(played.machine().as_ref(), m => run_on(&played, m, &args))
}

fn run_on<const W: usize>(played: &Game, m: &Machine<W>, args: &PerftArgs) -> Outcome {
    let start = game::start(played, args.position.as_deref())?;
    let mut s = start.state_at::<W>().clone();
    let unit = Unit::from(args.unit);
    let mut out = std::io::stdout().lock();
    if start.over.is_none() {
        check_work(m, &s, args.depth, unit, args.max_nodes, "--max-nodes")?;
    }
    if let Some(why) = &start.over {
        // A finished game has no moves: every depth counts 0 (the engine
        // cannot see an ending by the players, such as a resignation).
        writeln!(out, "perft {}: the game is over: {why}", m.rules.name)?;
        writeln!(out, "{:>5}  {:>14}", "depth", "nodes")?;
        for depth in 1..=args.depth {
            writeln!(out, "{depth:>5}  {:>14}", 0)?;
        }
        return Ok(());
    }
    if args.to_end {
        return to_end(m, &mut s, args.depth, unit, &args.budget, &mut out);
    }
    if args.divide {
        return divide(m, &mut s, args.depth, unit, &args.budget, &mut out);
    }
    let unit_name = match unit {
        Unit::Ply => "ply",
        Unit::Turn => "turn",
    };
    writeln!(out, "perft {} (unit: {unit_name})", m.rules.name)?;
    writeln!(
        out,
        "{:>5}  {:>14}  {:>10}  {:>14}",
        "depth", "nodes", "seconds", "nodes/s"
    )?;
    for depth in 1..=args.depth {
        let start = Instant::now();
        let label = format!("perft depth {depth}");
        let nodes = perft_shown(m, &mut s, depth, unit, label, args.budget.progress);
        let secs = start.elapsed().as_secs_f64();
        writeln!(
            out,
            "{depth:>5}  {nodes:>14}  {secs:>10.3}  {:>14}",
            rate(nodes as f64, secs)
        )?;
        out.flush()?;
    }
    Ok(())
}

/// The leaf limit of `perft` (and of an explicit `bench --perft-depth`):
/// about a few minutes of a release build.
pub const DEFAULT_MAX_NODES: u64 = 10_000_000_000;

/// Refuse a tree estimated to have more than `max` leaves at `depth`.
pub fn check_work<const W: usize>(
    m: &Machine<W>,
    s: &State<W>,
    depth: u32,
    unit: Unit,
    max: u64,
    flag: &str,
) -> Outcome {
    let estimate = budget::estimate_leaves(m, s, depth, unit);
    if estimate > max as f64 {
        return Err(Failure::game(
            Diagnostic::new(format!(
                "perft {} {depth}: the tree has an estimated {} leaves at depth {depth}, more than the limit of {} ({flag})",
                m.rules.name,
                budget::show_count(estimate),
                budget::show_count(max as f64),
            ))
            .expected(format!("a smaller depth, or `{flag} N` to allow a larger tree"))
            .note(format!(
                "estimated from {} random paths down the tree",
                budget::ESTIMATE_PATHS
            )),
        ));
    }
    Ok(())
}

/// `perft` of one depth, counted below each node one or two levels down
/// so that the progress bar moves often (the same count as the engine's
/// `perft`). `label` names the bar.
pub fn perft_shown<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    depth: u32,
    unit: Unit,
    label: String,
    asked: bool,
) -> u64 {
    let levels = if depth >= 3 { 2 } else { 1 };
    let units = split(m, s, depth, unit, levels, &mut |_, _| 1);
    let mut bar = budget::Progress::new(label, units, asked);
    let total = split(m, s, depth, unit, levels, &mut |s, d| {
        let n = perft(m, s, d, unit);
        bar.inc();
        n
    });
    bar.finish();
    total
}

/// The leaves of `depth` levels below `s`, as the sum of `leaf(node, depth
/// left)` over the nodes `levels` moves down (or where the depth runs out),
/// walking the tree as the engine's `perft` does.
fn split<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    depth: u32,
    unit: Unit,
    levels: u32,
    leaf: &mut dyn FnMut(&mut State<W>, u32) -> u64,
) -> u64 {
    if levels == 0 || depth <= 1 {
        return leaf(s, depth);
    }
    let mut moves = Vec::new();
    m.legal_moves(s, &mut moves);
    let mut total = 0;
    for &mv in &moves {
        let u = m.apply(s, mv);
        // A removal belongs to its move's turn: same depth.
        let left = if unit == Unit::Turn && s.pos.pending > 0 {
            depth
        } else {
            depth - 1
        };
        total += split(m, s, left, unit, levels - 1, leaf);
        m.undo(s, u);
    }
    total
}

fn divide<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    depth: u32,
    unit: Unit,
    budget: &BudgetOptions,
    out: &mut impl Write,
) -> Outcome {
    let start = Instant::now();
    let bar = budget::Progress::spinner(format!("perft --divide {depth}"), budget.progress);
    let counts = perft_divide(m, s, depth, unit);
    bar.finish();
    let secs = start.elapsed().as_secs_f64();
    let mut total = 0u64;
    for (plies, n) in &counts {
        writeln!(out, "{}: {n}", game::turn_text(&m.rules, plies))?;
        total += n;
    }
    writeln!(out)?;
    writeln!(out, "moves: {}", counts.len())?;
    writeln!(out, "total: {total}")?;
    writeln!(
        out,
        "time: {secs:.3} s ({} nodes/s)",
        rate(total as f64, secs)
    )?;
    Ok(())
}

/// A rate as a whole number; `-` when the time was too short to measure.
pub fn rate(count: f64, secs: f64) -> String {
    if secs < 1e-6 {
        "-".to_string()
    } else {
        format!("{:.0}", count / secs)
    }
}

fn to_end<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    depth: u32,
    unit: Unit,
    budget: &BudgetOptions,
    out: &mut impl Write,
) -> Outcome {
    let rules = &m.rules;
    let unit_name = match unit {
        Unit::Ply => "ply",
        Unit::Turn => "turn",
    };
    let start = Instant::now();
    let bar = budget::Progress::spinner(format!("perft --to-end {depth}"), budget.progress);
    let ends = perft_to_end(m, s, depth, unit);
    bar.finish();
    let secs = start.elapsed().as_secs_f64();
    writeln!(out, "perft --to-end {} (unit: {unit_name})", rules.name)?;
    let units = match unit {
        Unit::Ply => "plies",
        Unit::Turn => "turns",
    };
    writeln!(
        out,
        "games ended within {depth} {units}: move sequences of at most {depth} {units} whose last move ends the game"
    )?;
    writeln!(
        out,
        "{:>5}  {:>14}  {:>14}  {:>14}",
        "depth", "end here", "ended <= depth", "still going"
    )?;
    let mut total = 0;
    for d in 1..=depth as usize {
        total += ends.ended[d];
        writeln!(
            out,
            "{d:>5}  {:>14}  {total:>14}  {:>14}",
            ends.ended[d], ends.going[d]
        )?;
    }
    if ends.ended[0] > 0 {
        writeln!(out, "the start position is already over")?;
    }
    let p = |i: u8| game::player_name(rules, i);
    writeln!(
        out,
        "finished games: {total}: {} wins {}, {} wins {}, draws {}",
        p(0),
        ends.winners[0],
        p(1),
        ends.winners[1],
        ends.winners[2]
    )?;
    for (i, n) in ends.rules.iter().enumerate() {
        if *n > 0 {
            writeln!(out, "  by end rule `{}`: {n}", rules.end[i].name)?;
        }
    }
    writeln!(out, "time: {secs:.3} s")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// The counts behind the progress bar are the engine's, by plies and by
    /// turns, in positions where lines are formed and removals owed.
    #[test]
    fn counting_in_steps_gives_the_engines_count() {
        let rules = morrigo_rules::load_rules("nine-mens-morris").unwrap();
        let played = Game::new(Arc::new(rules)).unwrap();
        let start = game::start(&played, Some("a1 b2 d1 f2")).unwrap();
        let (m, s0) = start.state.parts::<1>().unwrap();
        for unit in [Unit::Ply, Unit::Turn] {
            for depth in 1..=4 {
                let mut s = s0.clone();
                let expected = perft(m, &mut s, depth, unit);
                let got = perft_shown(m, &mut s, depth, unit, String::new(), false);
                assert_eq!(got, expected, "{unit:?} depth {depth}");
            }
        }
    }
}
