//! Playing shards, and the results directory: `plan.json` (the manifest)
//! and one `shard-NNNNN.jsonl` per finished shard, each written whole
//! (`morrigo_store`: a temporary file, fsync, renamed into place), so a
//! killed worker leaves no partial shard and a re-run plays only the shards
//! that are missing. Every line of both carries its CRC-32
//! (`{"crc32":"…",…}`), and a shard must hold exactly its games: a damaged
//! file is refused with its name, never merged.

use crate::plan::{Plan, PLAN_FORMAT};
use indexmap::IndexMap;
use morrigo_diag::{read_line_limited, Diagnostic, Diagnostics, LineRead, MAX_INPUT_BYTES};
use morrigo_engine::AnyMachine;
use morrigo_play::Progress;
use morrigo_play::{play_games, AgentSpec, GameRecord, GameSum, SimReport};
use morrigo_store::{seal_line, unseal_line, write_atomic, AtomicFile, StoreError};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// One game of a sweep: a row of the results table (a pandas DataFrame
/// reads the JSONL lines directly).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// The shard that played the game.
    pub shard: usize,
    /// The game's cell, by its index in the plan.
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
    /// The winner's seat (0: the first player); `None` when `winner` is.
    pub winner_seat: Option<u8>,
    /// The end rule that decided, `cut off` (the ply cap) or `stuck`.
    pub reason: String,
    /// The end rule that decided; `None` for a cut-off or a stuck game.
    pub end_rule: Option<String>,
    /// An end rule with the `no_result` verdict ended the game.
    pub no_result: bool,
    /// The player to move had no legal move and no end rule decided.
    pub stuck: bool,
    /// Plies played (a removal is a ply of its own).
    pub plies: u32,
    /// Turns completed.
    pub turns: u32,
    /// Both scores when a `score` rule ended the game.
    pub score: Option<[f64; 2]>,
    /// Prisoners each player captured (board plays).
    pub captured: [u32; 2],
    /// How often each rule came into play in this game.
    pub events: IndexMap<String, u64>,
    /// Hash of the game's move sequence, 16 hex digits (a string: pandas
    /// reads no u64): `compare`'s distinct games are counted from it.
    pub moves_hash: String,
    /// Time the game took on its thread (the only field that varies).
    pub secs: f64,
}

/// The games of one shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardResult {
    /// The shard's number in the plan.
    pub shard: usize,
    /// One row per game, in game order.
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
        let m = Arc::new(plan.spec().cells[cell].machine()?);
        if let Ok(mut c) = self.cells.lock() {
            c.insert(cell, m.clone());
        }
        Ok(m)
    }
}

fn no_shard(plan: &Plan, k: usize) -> Diagnostic {
    Diagnostic::new(format!(
        "the sweep has no shard {k}: its shards are 0 to {}",
        plan.shard_count().saturating_sub(1)
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
    progress: Option<&dyn Progress>,
) -> Result<ShardResult, Diagnostics> {
    let shard = plan.shard(k).ok_or_else(|| no_shard(plan, k))?;
    let cell = &plan.spec().cells[shard.cell];
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
                moves_hash: format!("{:016x}", g.moves_hash),
                secs: g.secs,
            }
        })
        .collect();
    Ok(ShardResult { shard: k, rows })
}

/// The manifest's file name in a results directory: the plan, as JSON.
pub const MANIFEST: &str = "plan.json";

/// The file of shard `k` in a results directory.
pub fn shard_path(dir: &Path, k: usize) -> PathBuf {
    dir.join(format!("shard-{k:05}.jsonl"))
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> Diagnostic {
    Diagnostic::new(format!("cannot {what} `{}`: {e}", path.display()))
}

fn store_error(e: StoreError) -> Diagnostic {
    Diagnostic::new(e.to_string())
}

/// The manifest's one line: the plan's JSON, its checksum first.
fn plan_line(plan: &Plan) -> Result<String, Diagnostic> {
    let text = serde_json::to_string(plan)
        .map_err(|e| Diagnostic::new(format!("cannot write the plan: {e}")))?;
    Ok(seal_line(&text) + "\n")
}

fn damaged_plan(path: &Path, why: impl Into<String>) -> Diagnostic {
    store_error(StoreError::damaged(path, why)).expected(format!(
        "the plan as the sweep wrote it; if the spec is the one its shards were played with, delete `{}` and run the sweep again to write it anew",
        path.display()
    ))
}

/// Create the results directory and write the manifest, or check that the
/// one there is this plan's (a directory belongs to one sweep). A damaged
/// manifest is refused, never replaced.
pub fn prepare_dir(plan: &Plan, dir: &Path) -> Result<(), Diagnostic> {
    std::fs::create_dir_all(dir).map_err(|e| io_error("create the results directory", dir, e))?;
    let path = dir.join(MANIFEST);
    if !path.exists() {
        return write_atomic(&path, plan_line(plan)?.as_bytes()).map_err(store_error);
    }
    if read_plan(dir)? != *plan {
        return Err(Diagnostic::new(format!(
            "the results directory `{}` holds another sweep's plan",
            dir.display()
        ))
        .expected("an empty directory, or the one this spec's sweep wrote (the spec unchanged)"));
    }
    Ok(())
}

/// Read the manifest of a results directory: one checksummed line, a plan
/// within the sweep limits.
pub fn read_plan(dir: &Path) -> Result<Plan, Diagnostic> {
    let path = dir.join(MANIFEST);
    let text = morrigo_diag::read_input(&path)
        .map_err(|e| Diagnostic::new(format!("cannot read `{}`: {}", e.path, e.why)))?;
    let Some(line) = text.strip_suffix('\n').filter(|l| !l.contains('\n')) else {
        // A plan of format 1 was pretty-printed JSON with no checksum.
        let old = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("format")?.as_u64());
        return Err(match old {
            Some(f) if f < u64::from(PLAN_FORMAT) => Diagnostic::new(format!(
                "`{}` is a plan of format {f}, written by an older Morrigo; this one reads format {PLAN_FORMAT}",
                path.display()
            ))
            .expected("a new results directory for this sweep"),
            _ => damaged_plan(&path, "it is not one line ending in a line break"),
        });
    };
    let object = unseal_line(line).map_err(|why| damaged_plan(&path, why))?;
    serde_json::from_str(&object)
        .map_err(|e| damaged_plan(&path, format!("it is not a sweep plan: {e}")))
}

/// Write a finished shard whole: one checksummed JSON line per game.
pub fn write_shard(dir: &Path, result: &ShardResult) -> Result<(), Diagnostic> {
    let path = shard_path(dir, result.shard);
    let mut file = AtomicFile::create(&path).map_err(store_error)?;
    for row in &result.rows {
        let line = serde_json::to_string(row)
            .map_err(|e| Diagnostic::new(format!("cannot write a game: {e}")))?;
        let line = seal_line(&line) + "\n";
        file.write_all(line.as_bytes())
            .map_err(|e| io_error("write", &path, e))?;
    }
    file.commit().map_err(store_error)
}

/// Shards with a file in the results directory (not read: see
/// [`check_finished`]).
pub fn finished(plan: &Plan, dir: &Path) -> Vec<bool> {
    (0..plan.shard_count())
        .map(|k| shard_path(dir, k).is_file())
        .collect()
}

/// Damaged shards listed one by one before the rest are counted.
const DAMAGED_LISTED: usize = 10;

/// [`finished`], each shard file there read and checked: a damaged one is
/// refused, naming it, never counted as finished nor played again over
/// (its file may be the only copy of games someone wants to look at).
pub fn check_finished(plan: &Plan, dir: &Path) -> Result<Vec<bool>, Diagnostics> {
    let done = finished(plan, dir);
    let mut damaged = Vec::new();
    let mut more = 0usize;
    for k in (0..done.len()).filter(|&k| done[k]) {
        if let Err(d) = for_each_row(plan, dir, k, |_| {}) {
            if damaged.len() < DAMAGED_LISTED {
                damaged.push(d);
            } else {
                more += 1;
            }
        }
    }
    if more > 0 {
        damaged.push(Diagnostic::new(format!(
            "and {more} more damaged shard files"
        )));
    }
    if damaged.is_empty() {
        Ok(done)
    } else {
        Err(Diagnostics(damaged))
    }
}

/// Read a shard's file, checking it holds its games.
pub fn read_shard(plan: &Plan, dir: &Path, k: usize) -> Result<ShardResult, Diagnostic> {
    let mut rows = Vec::new();
    for_each_row(plan, dir, k, |row| rows.push(row))?;
    Ok(ShardResult { shard: k, rows })
}

/// Stream the rows of shard `k`'s file, each line's checksum checked, and
/// the rows checked to be the shard's games, in order, all of them.
fn for_each_row(
    plan: &Plan,
    dir: &Path,
    k: usize,
    mut each: impl FnMut(GameRow),
) -> Result<(), Diagnostic> {
    let shard = plan.shard(k).ok_or_else(|| no_shard(plan, k))?;
    let path = shard_path(dir, k);
    let damaged = |why: String| {
        store_error(StoreError::damaged(&path, why)).expected(format!(
            "the shard's file as the sweep wrote it; delete `{}` and run the sweep again to play shard {k} again",
            path.display()
        ))
    };
    let games = format!(
        "games {}..{} of cell {}",
        shard.start, shard.end, shard.cell
    );
    let file = std::fs::File::open(&path).map_err(|e| io_error("read", &path, e))?;
    let mut input = std::io::BufReader::new(file);
    let mut line = Vec::new();
    let mut rows = 0u32;
    let seed = plan.spec().seed;
    let ruleset = &plan.spec().cells[shard.cell].header.ruleset;
    loop {
        let n = u64::from(rows) + 1;
        match read_line_limited(&mut input, &mut line, MAX_INPUT_BYTES as usize)
            .map_err(|e| io_error("read", &path, e))?
        {
            LineRead::End => break,
            LineRead::TooLong => {
                return Err(damaged(format!("line {n} is longer than any game row")))
            }
            LineRead::Line => {}
        }
        if !line.ends_with(b"\n") {
            return Err(damaged(format!(
                "its last line (line {n}) has no line break: the file is cut short"
            )));
        }
        let text = std::str::from_utf8(&line)
            .map_err(|_| damaged(format!("line {n} is not UTF-8 text")))?;
        let object = unseal_line(text).map_err(|why| damaged(format!("line {n}: {why}")))?;
        let row: GameRow = serde_json::from_str(&object)
            .map_err(|e| damaged(format!("line {n} is not a game row: {e}")))?;
        let want = shard.start.checked_add(rows).filter(|&g| g < shard.end);
        if want != Some(row.game) || row.cell != shard.cell || row.shard != k {
            return Err(damaged(format!(
                "it does not hold {games}: line {n} is game {} of cell {} (shard {})",
                row.game, row.cell, row.shard
            )));
        }
        if row.moves_hash.len() != 16 || !row.moves_hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(damaged(format!(
                "line {n}: `moves_hash` is `{}`, not 16 hex digits",
                row.moves_hash
            )));
        }
        if row.seed != seed || row.ruleset != *ruleset {
            return Err(damaged(format!(
                "line {n} is a game of `{}` with seed {}, the plan's shard {k} plays `{ruleset}` with seed {seed}",
                row.ruleset, row.seed
            )));
        }
        rows += 1;
        each(row);
    }
    if rows != shard.games() {
        return Err(damaged(format!(
            "it does not hold {games}: it has {rows} rows, the plan's shard {k} has {}",
            shard.games()
        )));
    }
    Ok(())
}

/// The merged results of a directory.
#[derive(Clone, Debug)]
pub struct Collected {
    /// The plan read from the directory's manifest.
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
        .spec()
        .cells
        .iter()
        .map(|c| (GameSum::new(c.header.clone()), 0.0, true))
        .collect();
    for (k, shard) in plan.shards().enumerate() {
        let entry = &mut sums[shard.cell];
        if !done[k] {
            entry.2 = false;
            continue;
        }
        let h = &plan.spec().cells[shard.cell].header;
        for_each_row(&plan, dir, k, |row| {
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
            // Checked when the row was read: 16 hex digits.
            let hash = u64::from_str_radix(&row.moves_hash, 16).ok();
            entry.0.add_hashed(&record, hash, &events, row.secs);
            entry.1 += row.secs;
        })?;
    }
    let reports = plan
        .spec()
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
