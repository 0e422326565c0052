//! Sweep spec files: which rulesets, params, agents and games, read through
//! `morrigo_rules::load` (the one place that reads YAML) and checked here
//! with every refusal located in the spec.

use indexmap::IndexMap;
use morrigo_diag::{Diagnostic, Diagnostics, Location, SourceFile};
use morrigo_engine::AnyMachine;
use morrigo_play::{AgentSpec, ReportHeader, DEFAULT_MAX_PLIES};
use morrigo_rules::load::{self, Overrides};
use morrigo_rules::yaml::Node;
use morrigo_rules::Rules;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Games per shard when the spec does not say.
pub const DEFAULT_SHARD_GAMES: u32 = 50;

/// Most cells (ruleset × params × pairing) a spec may have.
pub const MAX_CELLS: usize = 10_000;

/// Most games a sweep may have in all.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// Most shards (files in the results directory) a sweep may have.
pub const MAX_SHARDS: u64 = 1_000_000;

/// Most games in one shard (a shard's rows are held in memory once).
pub const MAX_SHARD_GAMES: u32 = 100_000;

// A cell's games and a shard's bounds fit in a u32.
const _: () = assert!(MAX_GAMES <= u32::MAX as u64);

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecFile {
    name: Option<String>,
    rulesets: Vec<String>,
    #[serde(default)]
    params: IndexMap<String, Vec<serde_json::Value>>,
    #[serde(default)]
    agents: Vec<String>,
    // Wide, so that a count past the limits is refused as such.
    games: u64,
    #[serde(default = "default_seed")]
    seed: u64,
    #[serde(default = "default_max_plies")]
    max_plies: u32,
    #[serde(default = "default_shard_games")]
    shard_games: u64,
}

fn default_seed() -> u64 {
    1
}
fn default_max_plies() -> u32 {
    DEFAULT_MAX_PLIES
}
fn default_shard_games() -> u64 {
    DEFAULT_SHARD_GAMES.into()
}

/// One ruleset setting of a cell: `size`, `komi`, or a name of the
/// ruleset's `params:`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    /// `size`, `komi` or the name of one of the ruleset's `params:`.
    pub name: String,
    /// As written (`9`, `7x5`, `6.5`, `3`).
    pub value: String,
}

/// One ruleset × params × pairing of a sweep, played `games` times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// The ruleset as loaded: a built-in name or a file path.
    pub ruleset: String,
    /// The cell's combination of the spec's params, in the spec's order.
    pub params: Vec<Param>,
    /// Agents of the first and second player.
    pub agents: [AgentSpec; 2],
    /// The ruleset's names (players, end rules, rule events) for reports.
    pub header: ReportHeader,
}

impl Cell {
    /// `nine-mens-morris`, or `jk-final size=9 komi=6.5` with params.
    pub fn label(&self) -> String {
        let mut s = self.header.ruleset.clone();
        for p in &self.params {
            s += &format!(" {}={}", p.name, p.value);
        }
        s
    }

    /// The ruleset's title, with the params as in [`Cell::label`].
    pub fn titled(&self) -> String {
        let mut s = self.header.title.clone();
        for p in &self.params {
            s += &format!(" {}={}", p.name, p.value);
        }
        s
    }

    /// Load and compile the cell's ruleset with its params.
    pub fn rules(&self) -> Result<Rules, Diagnostics> {
        load_cell(&self.ruleset, &self.params)
    }

    /// The machine that plays the cell's games: [`Cell::rules`], compiled
    /// for the engine.
    pub fn machine(&self) -> Result<AnyMachine, Diagnostics> {
        Ok(AnyMachine::new(Arc::new(self.rules()?))?)
    }
}

/// A checked sweep: every cell's ruleset loads with its params, every
/// agent parses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    /// The spec's `name:`, or the name the caller gave one without.
    pub name: String,
    /// Games of each cell.
    pub games: u32,
    /// The sweep's seed: game `i` of every cell is played with the
    /// generator `game_rng(seed, i)`.
    pub seed: u64,
    /// Plies after which a game is cut off.
    pub max_plies: u32,
    /// Most games in one shard.
    pub shard_games: u32,
    /// Rulesets (outer) × param combinations × pairings (inner).
    pub cells: Vec<Cell>,
}

/// The param names the loader handles itself (not in a ruleset's `params:`).
const OVERRIDES: [&str; 2] = ["size", "komi"];

/// Load a ruleset with sweep params: `size`/`komi` as the command line's
/// overrides, the others into the ruleset's `params:`.
fn load_cell(ruleset: &str, params: &[Param]) -> Result<Rules, Diagnostics> {
    let mut o = Overrides::default();
    let mut named = Vec::new();
    for p in params {
        match p.name.as_str() {
            "size" => o.size = Some(Overrides::parse_size(&p.value).map_err(Diagnostic::new)?),
            "komi" => o.komi = Some(parse_komi(&p.value).map_err(Diagnostic::new)?),
            _ => named.push((
                p.name.clone(),
                parse_int(&p.value).map_err(Diagnostic::new)?,
            )),
        }
    }
    let loaded = load::with_overrides(load::load(ruleset)?, &o)?;
    let loaded = load::with_params(loaded, &named)?;
    morrigo_rules::compile(&loaded)
}

fn parse_komi(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(k) if k.is_finite() => Ok(k),
        _ => Err(format!("komi `{text}` is not a finite number of points")),
    }
}

fn parse_int(text: &str) -> Result<i64, String> {
    text.trim()
        .parse::<i64>()
        .map_err(|_| format!("`{text}` is not a whole number"))
}

impl Spec {
    /// Read and check a spec file; rulesets named by a relative path are
    /// looked up next to the file first.
    pub fn read(path: &Path) -> Result<Spec, Diagnostics> {
        let text = morrigo_diag::read_input(path).map_err(|e| {
            Diagnostic::new(format!(
                "cannot read the sweep spec `{}`: {}",
                e.path, e.why
            ))
        })?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "sweep".into());
        Spec::parse(
            SourceFile::new(path.display().to_string(), text),
            path.parent(),
            &stem,
        )
    }

    /// Check spec text (YAML or JSON); `dir` is where relative ruleset
    /// paths are looked up first; `default_name` names a spec with no `name:`.
    pub fn parse(
        source: SourceFile,
        dir: Option<&Path>,
        default_name: &str,
    ) -> Result<Spec, Diagnostics> {
        let expected = "a mapping with `rulesets:`, `games:` and optionally `name:`, `params:`, `agents:`, `seed:`, `max_plies:`, `shard_games:`";
        let (file, tree): (SpecFile, Node) = load::parse_yaml_located(&source).map_err(|d| {
            if d.expected.is_some() {
                d
            } else {
                d.expected(expected)
            }
        })?;
        let places = Places {
            source: &source,
            tree: &tree,
        };
        let mut errors = Vec::new();
        check_counts(&file, &places, &mut errors);
        let axes = param_axes(&file.params, &places, &mut errors);
        let pairings = pairings(&file.agents, &places, &mut errors);
        if !errors.is_empty() {
            return Err(Diagnostics(errors));
        }
        if let Some(d) = over_limits(&file, &axes, pairings.len(), &places) {
            return Err(d.into());
        }
        let cells = cells(&file.rulesets, dir, &axes, &pairings, &places, &mut errors);
        if !errors.is_empty() {
            errors.dedup_by(|a, b| a.to_string() == b.to_string());
            return Err(Diagnostics(errors));
        }
        Ok(Spec {
            name: file.name.unwrap_or_else(|| default_name.to_string()),
            // Both within MAX_GAMES or MAX_SHARD_GAMES, checked above.
            games: file.games as u32,
            seed: file.seed,
            max_plies: file.max_plies,
            shard_games: file.shard_games.min(u64::from(u32::MAX)) as u32,
            cells,
        })
    }
}

/// Where things are in a spec's text, for its errors.
struct Places<'a> {
    source: &'a SourceFile,
    tree: &'a Node,
}

impl Places<'_> {
    /// The value at `keys`.
    fn at(&self, keys: &[&str]) -> Option<Location> {
        self.tree
            .path(keys)
            .map(|n| self.source.location(n.pos.start))
    }

    /// Item `i` of the list at `key`.
    fn item(&self, key: &str, i: usize) -> Option<Location> {
        self.tree
            .get(key)
            .and_then(|n| n.items().get(i))
            .map(|n| self.source.location(n.pos.start))
    }

    /// The key of the `i`th param.
    fn param_key(&self, i: usize) -> Option<Location> {
        self.tree
            .get("params")
            .and_then(|p| p.entries().get(i))
            .map(|(k, _)| self.source.location(k.pos.start))
    }

    /// Value `j` of the `i`th param.
    fn param_value(&self, i: usize, j: usize) -> Option<Location> {
        self.tree
            .get("params")
            .and_then(|p| p.entries().get(i))
            .and_then(|(_, list)| list.items().get(j))
            .map(|n| self.source.location(n.pos.start))
    }

    /// The key of the param named `name`.
    fn param_named(&self, name: &str) -> Option<Location> {
        let k = self
            .tree
            .get("params")
            .and_then(|n| n.entries().iter().find(|(k, _)| k.as_str() == Some(name)))?;
        Some(self.source.location(k.0.pos.start))
    }
}

/// The counts that must be 1 or more.
fn check_counts(file: &SpecFile, places: &Places, errors: &mut Vec<Diagnostic>) {
    if file.rulesets.is_empty() {
        errors.push(
            Diagnostic::new("`rulesets` is empty")
                .at_opt(places.at(&["rulesets"]))
                .expected("a list of built-in ruleset names or ruleset files"),
        );
    }
    if file.games == 0 {
        errors.push(
            Diagnostic::new("`games` is 0")
                .at_opt(places.at(&["games"]))
                .expected("the games of each ruleset, params and pairing: 1 or more"),
        );
    }
    if file.shard_games == 0 {
        errors.push(
            Diagnostic::new("`shard_games` is 0")
                .at_opt(places.at(&["shard_games"]))
                .expected("games per shard: 1 or more"),
        );
    }
    if file.max_plies == 0 {
        errors.push(
            Diagnostic::new("`max_plies` is 0")
                .at_opt(places.at(&["max_plies"]))
                .expected("a ply cap of 1 or more"),
        );
    }
}

/// Params: each value checked for its kind, located at the value. One
/// axis per param, of its good values.
fn param_axes(
    params: &IndexMap<String, Vec<serde_json::Value>>,
    places: &Places,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Vec<Param>> {
    let mut axes: Vec<Vec<Param>> = Vec::new();
    for (i, (name, values)) in params.iter().enumerate() {
        if values.is_empty() {
            errors.push(
                Diagnostic::new(format!("param `{name}` has no values"))
                    .at_opt(places.param_key(i))
                    .expected("a list of values, such as `[7, 9]`"),
            );
        }
        let mut axis = Vec::new();
        for (j, v) in values.iter().enumerate() {
            match checked_param(name, v, places.param_value(i, j)) {
                Ok(p) => axis.push(p),
                Err(d) => errors.push(d),
            }
        }
        axes.push(axis);
    }
    axes
}

/// One value of param `name`, checked for the param's kind (an error
/// located at `value_at`).
fn checked_param(
    name: &str,
    v: &serde_json::Value,
    value_at: Option<Location>,
) -> Result<Param, Diagnostic> {
    let text = match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        other => {
            return Err(Diagnostic::new(format!("param `{name}`: found {other}"))
                .at_opt(value_at)
                .expected("a number (or a size such as `7x5`)"));
        }
    };
    let checked = match name {
        "size" => Overrides::parse_size(&text).map(|_| ()),
        "komi" => parse_komi(&text).map(|_| ()),
        _ => parse_int(&text).map(|_| ()),
    };
    if let Err(e) = checked {
        return Err(Diagnostic::new(format!("param `{name}`: {e}"))
            .at_opt(value_at)
            .expected(match name {
                "size" => "a board size: `9` or `7x5`, each from 1 to 25",
                "komi" => "points, such as 6.5",
                _ => "a whole number (ruleset params are whole numbers)",
            }));
    }
    Ok(Param {
        name: name.to_string(),
        value: text,
    })
}

/// Pairings: one or two agents each; `None` (the ruleset's default
/// pairing) when the spec names no agents.
fn pairings(
    agents: &[String],
    places: &Places,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Option<[AgentSpec; 2]>> {
    let mut pairings: Vec<Option<[AgentSpec; 2]>> = Vec::new();
    for (i, text) in agents.iter().enumerate() {
        let parsed = AgentSpec::parse_list(text).and_then(|list| match list.as_slice() {
            [a] => Ok([*a, *a]),
            [a, b] => Ok([*a, *b]),
            more => Err(format!(
                "{} agents given; expected one or two (first player, second player)",
                more.len()
            )),
        });
        match parsed {
            Ok(p) => pairings.push(Some(p)),
            Err(e) => errors.push(
                Diagnostic::new(format!("agents: {e}"))
                    .at_opt(places.item("agents", i))
                    .expected(
                        "an agent pairing such as `random`, `greedy,random` or `mcts:playouts=100`",
                    ),
            ),
        }
    }
    if pairings.is_empty() {
        pairings.push(None);
    }
    pairings
}

/// The limits, from the counts alone: nothing is built before they pass.
/// The first exceeded, located in the spec.
fn over_limits(
    file: &SpecFile,
    axes: &[Vec<Param>],
    pairings: usize,
    places: &Places,
) -> Option<Diagnostic> {
    let limits = Counts {
        rulesets: file.rulesets.len() as u64,
        axes: axes.iter().map(|a| a.len() as u64).collect(),
        pairings: pairings as u64,
        games: file.games,
        shard_games: file.shard_games,
    };
    let shard_games_at = places
        .at(&["shard_games"])
        .or_else(|| places.at(&["games"]));
    match limits.check() {
        Ok(()) => None,
        Err(Exceeded::Cells(d)) => {
            // At the key whose list multiplies most.
            let key = if limits.pairings > limits.combinations().unwrap_or(u64::MAX)
                && limits.pairings > limits.rulesets
            {
                "agents"
            } else if limits.combinations().is_none_or(|c| c > limits.rulesets) {
                "params"
            } else {
                "rulesets"
            };
            Some(d.at_opt(places.at(&[key])))
        }
        Err(Exceeded::Games(d)) => Some(d.at_opt(places.at(&["games"]))),
        Err(Exceeded::Shards(d)) => Some(d.at_opt(shard_games_at)),
    }
}

/// Every ruleset × param combination × pairing, each ruleset loaded with
/// each combination and checked with each pairing's agents; the errors
/// go to `errors`.
fn cells(
    rulesets: &[String],
    dir: Option<&Path>,
    axes: &[Vec<Param>],
    pairings: &[Option<[AgentSpec; 2]>],
    places: &Places,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Cell> {
    let combos = combinations(axes);
    let mut cells = Vec::new();
    for (i, name) in rulesets.iter().enumerate() {
        let ruleset = resolve(dir, name);
        for combo in &combos {
            let rules = match load_cell(&ruleset, combo) {
                Ok(r) => r,
                Err(Diagnostics(ds)) => {
                    errors.extend(ds.into_iter().map(|d| {
                        locate_load_error(d, name, combo, &places.item("rulesets", i), &|p| {
                            places.param_named(p)
                        })
                    }));
                    continue;
                }
            };
            for p in pairings {
                let agents = p.unwrap_or_else(|| morrigo_play::default_pairings(&rules)[0]);
                if let Err(e) =
                    morrigo_play::prepare_agents(&rules, &agents, morrigo_play::ON_THE_FLY_MEMORY)
                {
                    errors.push(Diagnostic::new(e).at_opt(places.at(&["agents"])));
                    continue;
                }
                cells.push(Cell {
                    ruleset: ruleset.clone(),
                    params: combo.clone(),
                    agents,
                    header: ReportHeader::of(&rules),
                });
            }
            // The first failing combination says it all for a ruleset.
            if !errors.is_empty() {
                break;
            }
        }
    }
    cells
}

/// A spec's counts, checked against the limits before any cell, plan or
/// shard exists (so a spec of 200^4 param combinations is refused, not
/// built).
struct Counts {
    rulesets: u64,
    /// Values of each param.
    axes: Vec<u64>,
    pairings: u64,
    games: u64,
    shard_games: u64,
}

enum Exceeded {
    Cells(Diagnostic),
    Games(Diagnostic),
    Shards(Diagnostic),
}

/// `n`, or "more than 18446744073709551615" when the product overflowed.
fn count(n: Option<u64>) -> String {
    match n {
        Some(n) => n.to_string(),
        None => format!("more than {}", u64::MAX),
    }
}

fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

impl Counts {
    fn combinations(&self) -> Option<u64> {
        self.axes.iter().try_fold(1u64, |p, &n| p.checked_mul(n))
    }

    fn check(&self) -> Result<(), Exceeded> {
        let combos = self.combinations();
        let cells = combos
            .and_then(|c| c.checked_mul(self.rulesets))
            .and_then(|c| c.checked_mul(self.pairings));
        if cells.is_none_or(|c| c > MAX_CELLS as u64) {
            let values: Vec<String> = self.axes.iter().map(u64::to_string).collect();
            let combos = match values.len() {
                0 => "1".to_string(),
                1 => count(combos),
                _ => format!("{} = {}", values.join(" × "), count(combos)),
            };
            return Err(Exceeded::Cells(
                Diagnostic::new(format!(
                    "the sweep has {} cells ({} × {combos} param combinations × {}), more than the limit of {MAX_CELLS}",
                    count(cells),
                    plural(self.rulesets, "ruleset"),
                    plural(self.pairings, "pairing"),
                ))
                .expected("fewer rulesets, param values or pairings; or several sweeps"),
            ));
        }
        // Within MAX_CELLS: the products below are u64 (or refused as such).
        let cells = cells.unwrap_or(0);
        let total = cells.checked_mul(self.games);
        if total.is_none_or(|t| t > MAX_GAMES) {
            return Err(Exceeded::Games(
                Diagnostic::new(format!(
                    "the sweep has {} games ({} × {}), more than the limit of {MAX_GAMES}",
                    count(total),
                    plural(cells, "cell"),
                    plural(self.games, "game"),
                ))
                .expected("fewer games per cell or fewer cells"),
            ));
        }
        let per_shard = self.shard_games.min(self.games);
        if per_shard > u64::from(MAX_SHARD_GAMES) {
            return Err(Exceeded::Shards(
                Diagnostic::new(format!(
                    "shards of {per_shard} games, more than the limit of {MAX_SHARD_GAMES} games a shard"
                ))
                .expected(format!(
                    "`shard_games` of at most {MAX_SHARD_GAMES} (a shard's games are held in memory)"
                )),
            ));
        }
        let per_cell = shards_per_cell(self.games, self.shard_games);
        let shards = cells.checked_mul(per_cell);
        if shards.is_none_or(|s| s > MAX_SHARDS) {
            // cells × ⌈games / g⌉ <= MAX_SHARDS needs g >= ⌈games / ⌊MAX_SHARDS / cells⌋⌉.
            let fewest = self.games.div_ceil((MAX_SHARDS / cells.max(1)).max(1));
            return Err(Exceeded::Shards(
                Diagnostic::new(format!(
                    "the sweep has {} shards ({} × {} of {}), more than the limit of {MAX_SHARDS} shard files",
                    count(shards),
                    plural(cells, "cell"),
                    plural(per_cell, "shard"),
                    plural(self.shard_games, "game"),
                ))
                .expected(format!(
                    "more games per shard (`shard_games` of {fewest} or more), or fewer games"
                )),
            ));
        }
        Ok(())
    }
}

/// A ruleset named in a spec: a file next to the spec, else as given (a
/// path from the working directory or a built-in name).
fn resolve(dir: Option<&Path>, name: &str) -> String {
    if let Some(d) = dir {
        let candidate: PathBuf = d.join(name);
        if candidate.is_file() {
            return candidate.to_string_lossy().into_owned();
        }
    }
    name.to_string()
}

/// An error loading a cell's ruleset: errors inside a ruleset file keep
/// their place; the others (unknown name, a param the ruleset lacks, a
/// size on a board that is not a grid) point into the spec.
fn locate_load_error(
    d: Diagnostic,
    name: &str,
    combo: &[Param],
    ruleset_at: &Option<morrigo_diag::Location>,
    param_at: &dyn Fn(&str) -> Option<morrigo_diag::Location>,
) -> Diagnostic {
    if d.location.is_some() {
        return d;
    }
    let about = |key: &str| {
        d.message.contains(&format!("`{key}`")) || d.message.contains(&format!("--{key}"))
    };
    let param = combo.iter().find(|p| about(&p.name)).or_else(|| {
        combo
            .iter()
            .find(|p| !OVERRIDES.contains(&p.name.as_str()) && d.message.contains("no param"))
    });
    match param {
        Some(p) => {
            let mut d = d;
            // The command line's words (`--size applies to …`) in the spec's.
            if let Some(rest) = d.message.strip_prefix(&format!("--{}", p.name)) {
                d.message = format!("param `{}`{rest}", p.name);
            }
            if !d.message.contains(name) {
                d.message = format!("ruleset `{name}`: {}", d.message);
            }
            d.at_opt(param_at(&p.name))
        }
        None => d.at_opt(ruleset_at.clone()),
    }
}

/// Every combination of one value per axis, the first axis outermost.
fn combinations(axes: &[Vec<Param>]) -> Vec<Vec<Param>> {
    let mut out = vec![Vec::new()];
    for axis in axes {
        let mut next = Vec::new();
        for prefix in &out {
            for v in axis {
                let mut c = prefix.clone();
                c.push(v.clone());
                next.push(c);
            }
        }
        out = next;
    }
    out
}

/// Shards of one cell: `games` split into runs of `shard_games`.
pub(crate) fn shards_per_cell(games: u64, shard_games: u64) -> u64 {
    games.div_ceil(shard_games.max(1))
}
