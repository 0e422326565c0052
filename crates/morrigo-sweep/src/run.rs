//! Playing shards, and the results directory: `plan.json` (the manifest)
//! and one `shard-NNNNN.jsonl` per finished shard, each written whole
//! (a temporary file renamed into place), so a killed worker leaves no
//! partial shard and a re-run plays only the shards that are missing.

use crate::plan::Plan;
use indexmap::IndexMap;
use indicatif::ProgressBar;
use morrigo_diag::{Diagnostic, Diagnostics};
use morrigo_engine::AnyMachine;
use morrigo_play::{play_games, AgentSpec, GameRecord, GameSum, SimReport};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// One game of a sweep: a row of the results table (a pandas DataFrame
/// reads the JSONL lines directly).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    pub shard: usize,
    pub cell: usize,
    /// The ruleset's name.
    pub ruleset: String,
    /// The cell's params (`size`, `komi`, ruleset params), as written.
    pub params: IndexMap<String, String>,
    /// Agents of the first and second player.
    pub agents: [AgentSpec; 2],
    /// The run's seed; the game's generator is `game_rng(seed, game)`.
    pub seed: u64,
    /// The game's number in its cell.
    pub game: u32,
    /// The winner's name; `None` for a draw, no result, a cut-off or a stuck game.
    pub winner: Option<String>,
    pub winner_seat: Option<u8>,
    /// The end rule that decided, `cut off` (the ply cap) or `stuck`.
    pub reason: String,
    pub end_rule: Option<String>,
    pub no_result: bool,
    pub stuck: bool,
    pub plies: u32,
    pub turns: u32,
    /// Both scores when a `score` rule ended the game.
    pub score: Option<[f64; 2]>,
    pub captured: [u32; 2],
    /// How often each rule came into play in this game.
    pub events: IndexMap<String, u64>,
    /// Time the game took on its thread (the only field that varies).
    pub secs: f64,
}

/// The games of one shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardResult {
    pub shard: usize,
    pub rows: Vec<GameRow>,
}

/// Machines of the cells, compiled once per process.
#[derive(Default)]
pub struct Machines {
    cells: Mutex<HashMap<usize, Arc<AnyMachine>>>,
}

impl Machines {
    fn get(&self, plan: &Plan, cell: usize) -> Result<Arc<AnyMachine>, Diagnostics> {
        if let Some(m) = self.cells.lock().ok().and_then(|c| c.get(&cell).cloned()) {
            return Ok(m);
        }
        let m = Arc::new(plan.spec.cells[cell].machine()?);
        if let Ok(mut c) = self.cells.lock() {
            c.insert(cell, m.clone());
        }
        Ok(m)
    }
}

fn no_shard(plan: &Plan, k: usize) -> Diagnostic {
    Diagnostic::new(format!(
        "the sweep has no shard {k}: its shards are 0 to {}",
        plan.shards.len().saturating_sub(1)
    ))
}

/// Play shard `k` of `plan` (on the current rayon pool).
pub fn run_shard(plan: &Plan, k: usize) -> Result<ShardResult, Diagnostics> {
    run_shard_with(plan, k, &Machines::default(), None)
}

/// [`run_shard`] with compiled machines kept between shards and a progress
/// bar advanced per game.
pub fn run_shard_with(
    plan: &Plan,
    k: usize,
    machines: &Machines,
    progress: Option<&ProgressBar>,
) -> Result<ShardResult, Diagnostics> {
    let shard = *plan.shards.get(k).ok_or_else(|| no_shard(plan, k))?;
    let cell = &plan.spec.cells[shard.cell];
    let any = machines.get(plan, shard.cell)?;
    let cfg = plan.config(cell);
    let params: IndexMap<String, String> = cell
        .params
        .iter()
        .map(|p| (p.name.clone(), p.value.clone()))
        .collect();
    let h = &cell.header;
    let rows = play_games(&any, &cfg, shard.start..shard.end, progress)
        .into_iter()
        .map(|g| {
            let r = g.record;
            let end_rule = r
                .end_rule
                .and_then(|i| h.end_rules.get(i as usize).cloned());
            GameRow {
                shard: k,
                cell: shard.cell,
                ruleset: h.ruleset.clone(),
                params: params.clone(),
                agents: cell.agents,
                seed: cfg.seed,
                game: g.index,
                winner: r.winner.and_then(|w| h.players.get(w as usize).cloned()),
                winner_seat: r.winner,
                reason: end_rule
                    .clone()
                    .unwrap_or_else(|| if r.stuck { "stuck" } else { "cut off" }.to_string()),
                end_rule,
                no_result: r.no_result,
                stuck: r.stuck,
                plies: r.plies,
                turns: r.turns,
                score: r.score,
                captured: r.captured,
                events: h.events.iter().cloned().zip(g.events).collect(),
                secs: g.secs,
            }
        })
        .collect();
    Ok(ShardResult { shard: k, rows })
}

pub const MANIFEST: &str = "plan.json";

/// The file of shard `k` in a results directory.
pub fn shard_path(dir: &Path, k: usize) -> PathBuf {
    dir.join(format!("shard-{k:05}.jsonl"))
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> Diagnostic {
    Diagnostic::new(format!("cannot {what} `{}`: {e}", path.display()))
}

/// Write `text` to `path` whole: a temporary file beside it, renamed.
fn write_atomic(path: &Path, text: &[u8]) -> Result<(), Diagnostic> {
    let tmp = path.with_extension(
        format!(
            "tmp.{}.{:?}",
            std::process::id(),
            std::thread::current().id()
        )
        .replace(['(', ')'], ""),
    );
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_error("write", path, e)
    })
}

/// Create the results directory and write the manifest, or check that the
/// one there is this plan's (a directory belongs to one sweep).
pub fn prepare_dir(plan: &Plan, dir: &Path) -> Result<(), Diagnostic> {
    std::fs::create_dir_all(dir).map_err(|e| io_error("create the results directory", dir, e))?;
    let path = dir.join(MANIFEST);
    let text = serde_json::to_string_pretty(plan)
        .map_err(|e| Diagnostic::new(format!("cannot write the plan: {e}")))?;
    match std::fs::read_to_string(&path) {
        Ok(old) => {
            let same = serde_json::from_str::<Plan>(&old).is_ok_and(|p| p == *plan);
            if !same {
                return Err(Diagnostic::new(format!(
                    "the results directory `{}` holds another sweep's plan",
                    dir.display()
                ))
                .expected(
                    "an empty directory, or the one this spec's sweep wrote (the spec unchanged)",
                ));
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            write_atomic(&path, format!("{text}\n").as_bytes())
        }
        Err(e) => Err(io_error("read", &path, e)),
    }
}

/// Read the manifest of a results directory.
pub fn read_plan(dir: &Path) -> Result<Plan, Diagnostic> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(|e| io_error("read", &path, e))?;
    serde_json::from_str(&text)
        .map_err(|e| Diagnostic::new(format!("`{}` is not a sweep plan: {e}", path.display())))
}

/// Write a finished shard (whole, at once).
pub fn write_shard(dir: &Path, result: &ShardResult) -> Result<(), Diagnostic> {
    let mut text = String::new();
    for row in &result.rows {
        let line = serde_json::to_string(row)
            .map_err(|e| Diagnostic::new(format!("cannot write a game: {e}")))?;
        text += &line;
        text.push('\n');
    }
    write_atomic(&shard_path(dir, result.shard), text.as_bytes())
}

/// Shards with a file in the results directory.
pub fn finished(plan: &Plan, dir: &Path) -> Vec<bool> {
    (0..plan.shards.len())
        .map(|k| shard_path(dir, k).is_file())
        .collect()
}

/// Read a shard's file, checking it holds its games.
pub fn read_shard(plan: &Plan, dir: &Path, k: usize) -> Result<ShardResult, Diagnostic> {
    let shard = plan.shards.get(k).ok_or_else(|| no_shard(plan, k))?;
    let path = shard_path(dir, k);
    let text = std::fs::read_to_string(&path).map_err(|e| io_error("read", &path, e))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let row: GameRow = serde_json::from_str(line).map_err(|e| {
            Diagnostic::new(format!(
                "`{}` line {}: not a game row: {e}",
                path.display(),
                i + 1
            ))
        })?;
        rows.push(row);
    }
    let games: Vec<u32> = rows.iter().map(|r| r.game).collect();
    if games != (shard.start..shard.end).collect::<Vec<_>>()
        || rows.iter().any(|r| r.cell != shard.cell)
    {
        return Err(Diagnostic::new(format!(
            "`{}` does not hold games {}..{} of cell {}",
            path.display(),
            shard.start,
            shard.end,
            shard.cell
        ))
        .expected("the shard's file as the sweep wrote it; delete it to play the shard again"));
    }
    Ok(ShardResult { shard: k, rows })
}

/// The merged results of a directory.
#[derive(Clone, Debug)]
pub struct Collected {
    pub plan: Plan,
    /// One report per cell, in the plan's order (the cells with every shard
    /// finished); labelled with the cell's params.
    pub reports: Vec<SimReport>,
    /// Shards with no file yet.
    pub missing: Vec<usize>,
}

/// Merge the finished shards of a results directory into `compare`'s
/// reports, one per cell whose shards are all finished.
pub fn collect(dir: &Path) -> Result<Collected, Diagnostic> {
    let plan = read_plan(dir)?;
    let done = finished(&plan, dir);
    let missing: Vec<usize> = (0..done.len()).filter(|&k| !done[k]).collect();
    let mut sums: Vec<(GameSum, f64, bool)> = plan
        .spec
        .cells
        .iter()
        .map(|c| (GameSum::new(c.header.clone()), 0.0, true))
        .collect();
    for (k, shard) in plan.shards.iter().enumerate() {
        let entry = &mut sums[shard.cell];
        if !done[k] {
            entry.2 = false;
            continue;
        }
        let h = &plan.spec.cells[shard.cell].header;
        for row in read_shard(&plan, dir, k)?.rows {
            let record = GameRecord {
                winner: row.winner_seat,
                end_rule: row
                    .end_rule
                    .as_ref()
                    .and_then(|n| h.end_rules.iter().position(|e| e == n))
                    .map(|i| i as u16),
                stuck: row.stuck,
                score: row.score,
                captured: row.captured,
                no_result: row.no_result,
                plies: row.plies,
                turns: row.turns,
            };
            let events: Vec<u64> = h
                .events
                .iter()
                .map(|e| row.events.get(e).copied().unwrap_or(0))
                .collect();
            entry.0.add(&record, &events, row.secs);
            entry.1 += row.secs;
        }
    }
    let reports = plan
        .spec
        .cells
        .iter()
        .zip(&sums)
        .filter(|(_, (_, _, complete))| *complete)
        .map(|(cell, (sum, secs, _))| {
            let mut r = sum.report(&plan.config(cell), *secs);
            r.ruleset = cell.label();
            r.title = cell.titled();
            r
        })
        .collect();
    Ok(Collected {
        plan,
        reports,
        missing,
    })
}
