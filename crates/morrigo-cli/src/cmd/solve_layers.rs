//! `morrigo solve FILE --shards DIR`: the retrograde solve a layer at a
//! time (morrigo-sweep's `layered`), each layer's positions and values in
//! files that the layers depending on it read; `--shard UNIT` runs one
//! unit, as a cluster worker does.

use crate::cmd::solve_args::SolveArgs;
use crate::cmd::solve_text::value_text;
use crate::fail::{Failure, Outcome};
use morrigo_diag::Diagnostic;
use morrigo_engine::with_machine;
use morrigo_solve::Value;
use morrigo_sweep::layered::{Layered, Unit};
use rayon::prelude::*;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

pub fn run(args: &SolveArgs, dir: &Path) -> Outcome {
    if args.position.is_some() || args.save.is_some() {
        return Err(Failure::usage(
            "--shards solves the whole game and keeps its values in the directory: --position and --save do not apply",
        ));
    }
    let layered = Layered::open_with(
        &args.file,
        &args.ruleset.overrides(),
        dir,
        args.max_unit_positions,
    )?;
    let mut out = std::io::stdout().lock();
    if args.ready {
        for u in layered.ready()? {
            writeln!(out, "{u}")?;
        }
        return Ok(());
    }
    if let Some(text) = &args.shard {
        let unit: Unit = text.parse().map_err(Failure::usage)?;
        let started = Instant::now();
        let n = layered.run(unit)?;
        writeln!(
            out,
            "{unit}: {n} positions ({:.2} s)",
            started.elapsed().as_secs_f64()
        )?;
        return Ok(());
    }
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.map_or(0, usize::from))
        .build()
        .map_err(|e| Failure::game(Diagnostic::new(format!("cannot start the jobs: {e}"))))?;
    let mut units = 0;
    loop {
        let ready = layered.ready()?;
        if ready.is_empty() {
            break;
        }
        units += ready.len();
        pool.install(|| {
            ready
                .par_iter()
                .with_max_len(1)
                .map(|&u| layered.run(u).map(|_| ()))
                .collect::<Result<Vec<()>, Diagnostic>>()
        })?;
    }
    let secs = started.elapsed().as_secs_f64();
    let Some(sum) = layered.summary()? else {
        return Err(Failure::game(Diagnostic::new(
            "the layered solve stopped with units left (a layer no unit reaches)",
        )));
    };
    let rules = layered.machine().rules();
    let value = with_machine!(layered.machine(), m => {
        value_text(rules, m.initial().pos.to_move, Value::decode(sum.start), true)
    });
    writeln!(out, "solve {} by layers in {}", rules.name, dir.display())?;
    writeln!(out, "  value      {value}")?;
    writeln!(
        out,
        "  positions  {} reachable in {} layers ({} won, {} lost, {} drawn for the player to move)",
        sum.positions, sum.layers, sum.wins, sum.losses, sum.draws
    )?;
    writeln!(out, "  moves      {}", sum.edges)?;
    writeln!(out, "  digest     {:016x}", sum.digest)?;
    writeln!(out, "  units      {units} run now ({secs:.2} s)")?;
    Ok(())
}
