//! `morrigo sweep`: a spec's rulesets × params × agents × games, split
//! into seeded shards played in parallel, each written to the results
//! directory when finished; a re-run plays only the missing shards. The
//! merged report is `compare`'s table.

use crate::cmd::compare::FormatArg;
use crate::cmd::sim_args::{progress, reported};
use crate::fail::{Failure, Outcome};
use clap::Args;
use morrigo_diag::Diagnostic;
use morrigo_play::compare_table;
use morrigo_sweep::{
    check_finished, collect, plan, prepare_dir, read_shard, run_shard_with, write_shard, Machines,
    Plan, Spec,
};
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Play a sweep spec (rulesets × params × agents × games) in resumable shards.
///
/// Every ruleset × param values × agent pairing of the spec plays `games`
/// games, split into shards.
///
/// Game i of each cell is game i of `simulate`/`compare` with the spec's
/// seed, so the report equals theirs whatever the schedule, however many
/// jobs or machines play the shards, and across retries and resumes. Each
/// finished shard is written whole to the results directory as JSONL (one
/// line per game, each with its checksum); a re-run skips the finished
/// shards and refuses a damaged one, naming it (delete it to play it
/// again). A spec lists
/// `rulesets`, `params` (name: [values]; `size`, `komi` or a name of the
/// ruleset's `params:`), `agents` (pairings), `games`, `seed`, `max_plies`
/// and `shard_games` (docs/src/sweeps.md).
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo sweep rulesets/sweeps/flying.yaml
  morrigo sweep rulesets/sweeps/flying.yaml --results out --jobs 2
  morrigo sweep rulesets/sweeps/flying.yaml --results out --shard 3   (one shard: a worker's task)
  morrigo sweep rulesets/sweeps/flying.yaml --results out --collect   (the report of what is finished)
  morrigo sweep rulesets/sweeps/flying.yaml --ray 127.0.0.1:6379      (the shards as Ray tasks)")]
pub struct SweepArgs {
    /// The sweep spec (YAML).
    #[arg(value_name = "SPEC")]
    pub spec: PathBuf,
    /// Results directory (default: `<spec name>.results` here).
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// Shards played at a time (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Play exactly this shard and write its file (what a remote worker runs).
    #[arg(long, value_name = "K", conflicts_with_all = ["ray", "collect"])]
    pub shard: Option<usize>,
    /// Play the shards as tasks on the Ray cluster at this address, through
    /// the Python package (`python3 -m morrigo.sweep`).
    #[arg(long, value_name = "ADDRESS", conflicts_with = "collect")]
    pub ray: Option<String>,
    /// Seconds to attach to the `--ray` cluster before giving up with an
    /// error naming the address.
    #[arg(long, value_name = "SECS", requires = "ray", conflicts_with = "collect", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    pub ray_timeout: u32,
    /// Play nothing: print the report of the cells whose shards are finished.
    #[arg(long)]
    pub collect: bool,
    /// Output format of the report.
    #[arg(long, value_enum, default_value_t = FormatArg::Markdown)]
    pub format: FormatArg,
}

/// Tries of a shard before the sweep gives up on it.
const TRIES: u32 = 2;

pub fn run(args: SweepArgs) -> Outcome {
    let spec = Spec::read(&args.spec)?;
    let plan = plan(&spec);
    let dir = args
        .results
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.results", spec.name)));
    prepare_dir(&plan, &dir)?;
    // A damaged shard is refused (naming it) before anything is played.
    if args.shard.is_none() && !args.collect {
        check_finished(&plan, &dir).map_err(Failure::Game)?;
    }
    if let Some(k) = args.shard {
        return one_shard(&plan, &dir, k);
    }
    if let Some(address) = &args.ray {
        on_ray(&args.spec, address, args.ray_timeout, &dir)?;
    } else if !args.collect {
        local(&plan, &dir, args.jobs)?;
    }
    report(&dir, args.format)
}

fn one_shard(plan: &Plan, dir: &Path, k: usize) -> Outcome {
    if k >= plan.shard_count() {
        return Err(Failure::usage(format!(
            "--shard {k}: the sweep has shards 0 to {}",
            plan.shard_count() - 1
        )));
    }
    let path = morrigo_sweep::shard_path(dir, k);
    let mut out = std::io::stdout().lock();
    if path.is_file() {
        read_shard(plan, dir, k)?;
        writeln!(out, "shard {k}: already finished ({})", path.display())?;
        return Ok(());
    }
    let result = run_shard_with(plan, k, &Machines::default(), None)?;
    write_shard(dir, &result)?;
    writeln!(
        out,
        "shard {k}: {} games written to {}",
        result.rows.len(),
        path.display()
    )?;
    Ok(())
}

/// Play the missing shards here, `jobs` at a time, each tried up to
/// [`TRIES`] times.
fn local(plan: &Plan, dir: &Path, jobs: Option<u16>) -> Outcome {
    let done = morrigo_sweep::finished(plan, dir);
    let todo: Vec<usize> = (0..plan.shard_count()).filter(|&k| !done[k]).collect();
    let games: u64 = todo
        .iter()
        .filter_map(|&k| plan.shard(k))
        .map(|s| u64::from(s.games()))
        .sum();
    let bar = progress(games);
    if let Some(b) = &bar {
        b.set_message(format!(
            "{}: {} of {} shards",
            plan.spec().name,
            todo.len(),
            plan.shard_count()
        ));
    }
    let machines = Machines::default();
    let play = || {
        todo.par_iter()
            .with_max_len(1)
            .map(|&k| {
                let mut last = None;
                for _ in 0..TRIES {
                    let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        run_shard_with(plan, k, &machines, reported(&bar))
                    }));
                    match attempt {
                        Ok(Ok(result)) => return write_shard(dir, &result).map_err(Failure::from),
                        Ok(Err(ds)) => return Err(Failure::Game(ds)),
                        Err(_) => last = Some(k),
                    }
                }
                Err(Failure::game(Diagnostic::new(format!(
                    "shard {} failed {TRIES} times; the other shards are written, run the sweep again to retry it",
                    last.unwrap_or(k)
                ))))
            })
            .collect::<Vec<Outcome>>()
    };
    let results = match jobs {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build()
            .map_err(|e| Failure::game(Diagnostic::new(format!("cannot start {n} jobs: {e}"))))?
            .install(play),
        None => play(),
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    results.into_iter().collect()
}

/// Hand the sweep to the Python package, which runs the shards as Ray
/// tasks and writes them to the same directory.
fn on_ray(spec: &Path, address: &str, timeout: u32, dir: &Path) -> Outcome {
    let python = std::env::var("MORRIGO_PYTHON").unwrap_or_else(|_| "python3".into());
    let missing = |why: String| {
        Failure::game(
            Diagnostic::new(format!(
                "--ray needs the morrigo Python package with Ray (`{python} -m morrigo.sweep`): {why}"
            ))
            .expected("the morrigo wheel (crates/morrigo-py) and ray installed for that Python (`MORRIGO_PYTHON` names another interpreter), or a sweep without --ray"),
        )
    };
    let probe = std::process::Command::new(&python)
        .args(["-c", "import morrigo.sweep"])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| missing(format!("cannot run `{python}`: {e}")))?;
    if !probe.status.success() {
        let text = String::from_utf8_lossy(&probe.stderr);
        let last = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(missing(last.trim().to_string()));
    }
    let status = std::process::Command::new(&python)
        .args(["-m", "morrigo.sweep"])
        .arg(spec)
        .arg("--address")
        .arg(address)
        .arg("--results")
        .arg(dir)
        .arg("--timeout")
        .arg(timeout.to_string())
        .stdin(std::process::Stdio::null())
        // Stdout is the report's (`--format json` must parse): the module's
        // summary line goes with the progress, to stderr.
        .stdout(std::io::stderr())
        .status()
        .map_err(|e| missing(format!("cannot run `{python}`: {e}")))?;
    // Exit 1: the sweep module has printed its `error:` (an unreachable
    // cluster, a bad results directory) and a second message adds nothing.
    if status.code() == Some(1) {
        return Err(Failure::Quiet(1));
    }
    if !status.success() {
        return Err(Failure::game(Diagnostic::new(format!(
            "the Ray sweep failed ({status}); the finished shards are in `{}`, run again to resume",
            dir.display()
        ))));
    }
    Ok(())
}

fn report(dir: &Path, format: FormatArg) -> Outcome {
    let merged = collect(dir)?;
    let mut out = std::io::stdout().lock();
    write!(out, "{}", compare_table(&merged.reports, format.into()))?;
    if !merged.missing.is_empty() {
        writeln!(
            out,
            "{} of {} shards not finished; their cells are left out: run the sweep again to finish them",
            merged.missing.len(),
            merged.plan.shard_count()
        )?;
    }
    Ok(())
}
