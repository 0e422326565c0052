//! A retrograde solve split into layers (morrigo-solve's `layers`), each a
//! unit of work that reads only its dependencies' files in a directory:
//!
//! ```text
//! DIR/solve.json             the ruleset, its fingerprint, the start position
//! DIR/reach/L/FROM.codes     positions of layer L a higher layer FROM leads to
//! DIR/layers/L.codes         the reachable positions of L (explore:L done)
//! DIR/layers/L.json          the lower layers L's moves lead to
//! DIR/values/L.values        one value per position of L (solve:L done)
//! ```
//!
//! `explore:L` runs once every layer of a higher level is explored;
//! `solve:L` once every layer is explored and L's lower layers are solved.
//! Codes are u64 and values u16, little-endian. Every file is written whole
//! (a temporary file renamed), so a unit killed midway is run again.

use morrigo_diag::Diagnostic;
use morrigo_engine::{with_machine, AnyMachine, Machine};
use morrigo_rules::load::Overrides;
use morrigo_solve::layers::{explore_layer, solve_layer, CodeIndex, Coder, LayerId};
use morrigo_solve::Value;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a solve directory is for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolvePlan {
    /// The ruleset as given (a built-in name or a path), with its overrides.
    pub ruleset: String,
    pub size: Option<(u32, u32)>,
    pub komi: Option<f64>,
    /// `morrigo_solve::rules_fingerprint` of the rules solved.
    pub fingerprint: u64,
    pub start_layer: String,
    pub start_code: u64,
}

/// One unit of work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Unit {
    Explore(LayerId),
    Solve(LayerId),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Explore(l) => write!(f, "explore:{l}"),
            Unit::Solve(l) => write!(f, "solve:{l}"),
        }
    }
}

impl std::str::FromStr for Unit {
    type Err = String;
    fn from_str(text: &str) -> Result<Unit, String> {
        let bad = || {
            format!("`{text}` is not a unit of a layered solve; expected `explore:LAYER` or `solve:LAYER`, a layer written `h6-6b0-0` (in hand, on the board)")
        };
        let (kind, layer) = text.split_once(':').ok_or_else(bad)?;
        let layer = LayerId::parse(layer).ok_or_else(bad)?;
        match kind {
            "explore" => Ok(Unit::Explore(layer)),
            "solve" => Ok(Unit::Solve(layer)),
            _ => Err(bad()),
        }
    }
}

/// The children of a layer, as its explore unit found them.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct LayerInfo {
    positions: u64,
    edges: u64,
    children: Vec<String>,
}

/// A layered solve of one ruleset in one directory.
pub struct Layered {
    pub dir: PathBuf,
    pub plan: SolvePlan,
    machine: Arc<AnyMachine>,
}

/// The positions of one layer (codes, sorted) and their values.
pub struct SolvedLayer {
    pub layer: LayerId,
    pub codes: Vec<u64>,
    pub values: Vec<u16>,
}

/// Counts of a finished solve.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayeredSummary {
    pub layers: u64,
    pub positions: u64,
    pub edges: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// The value of the start for the player to move (`Value` encoding).
    pub start: u16,
    /// FNV-1a over every layer's codes and values, in layer order: equal
    /// digests, equal solves.
    pub digest: u64,
}

fn err(message: String) -> Diagnostic {
    Diagnostic::new(message)
}

fn io(what: &str, path: &Path, e: std::io::Error) -> Diagnostic {
    err(format!("cannot {what} `{}`: {e}", path.display()))
}

fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), Diagnostic> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| io("create", parent, e))?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io("write", path, e)
    })
}

fn codes_bytes(codes: &[u64]) -> Vec<u8> {
    codes.iter().flat_map(|c| c.to_le_bytes()).collect()
}

fn read_codes(path: &Path) -> Result<Vec<u64>, Diagnostic> {
    let bytes = std::fs::read(path).map_err(|e| io("read", path, e))?;
    if bytes.len() % 8 != 0 {
        return Err(err(format!("`{}` is cut short", path.display())));
    }
    Ok(bytes
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
        .collect())
}

fn read_values(path: &Path) -> Result<Vec<u16>, Diagnostic> {
    let bytes = std::fs::read(path).map_err(|e| io("read", path, e))?;
    if bytes.len() % 2 != 0 {
        return Err(err(format!("`{}` is cut short", path.display())));
    }
    Ok(bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect())
}

impl Layered {
    /// Open (or start) the layered solve of `ruleset` in `dir`; a directory
    /// holding another ruleset's solve is refused.
    pub fn open(ruleset: &str, o: &Overrides, dir: &Path) -> Result<Layered, Diagnostic> {
        let rules = morrigo_rules::load_rules_with(ruleset, o).map_err(|ds| {
            ds.0.into_iter()
                .next()
                .unwrap_or_else(|| err("cannot load the ruleset".into()))
        })?;
        morrigo_solve::retrograde_applies(&rules).map_err(|why| {
            err(format!(
                "a layered solve is a retrograde solve, and {} cannot be solved that way: {why}",
                rules.name
            ))
        })?;
        let fingerprint = morrigo_solve::rules_fingerprint(&rules);
        let machine = Arc::new(AnyMachine::new(Arc::new(morrigo_solve::solver_rules(
            &rules,
        )))?);
        let (start_layer, start_code) = with_machine!(machine.as_ref(), m => {
            let s = m.initial();
            let code = Coder::new(m)
                .encode(&s.pos)
                .ok_or_else(|| err("the start position does not fit in a layer code".into()))?;
            (LayerId::of(&s.pos), code)
        });
        let plan = SolvePlan {
            ruleset: ruleset.to_string(),
            size: o.size,
            komi: o.komi,
            fingerprint,
            start_layer: start_layer.name(),
            start_code,
        };
        let path = dir.join("solve.json");
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let old: SolvePlan = serde_json::from_str(&text).map_err(|e| {
                    err(format!("`{}` is not a layered solve: {e}", path.display()))
                })?;
                if old.fingerprint != fingerprint || old.start_code != start_code {
                    return Err(err(format!(
                        "`{}` holds the layered solve of other rules (`{}`)",
                        dir.display(),
                        old.ruleset
                    ))
                    .expected("an empty directory, or the one this ruleset's solve wrote"));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let text = serde_json::to_string_pretty(&plan)
                    .map_err(|e| err(format!("cannot write the plan: {e}")))?;
                write_whole(&path, text.as_bytes())?;
                write_whole(
                    &dir.join("reach")
                        .join(start_layer.name())
                        .join("start.codes"),
                    &codes_bytes(&[start_code]),
                )?;
            }
            Err(e) => return Err(io("read", &path, e)),
        }
        Ok(Layered {
            dir: dir.to_path_buf(),
            plan,
            machine,
        })
    }

    fn codes_path(&self, l: LayerId) -> PathBuf {
        self.dir.join("layers").join(format!("{}.codes", l.name()))
    }
    fn info_path(&self, l: LayerId) -> PathBuf {
        self.dir.join("layers").join(format!("{}.json", l.name()))
    }
    fn values_path(&self, l: LayerId) -> PathBuf {
        self.dir.join("values").join(format!("{}.values", l.name()))
    }

    pub fn done(&self, u: Unit) -> bool {
        match u {
            Unit::Explore(l) => self.codes_path(l).is_file(),
            Unit::Solve(l) => self.values_path(l).is_file(),
        }
    }

    fn info(&self, l: LayerId) -> Result<LayerInfo, Diagnostic> {
        let path = self.info_path(l);
        let text = std::fs::read_to_string(&path).map_err(|e| io("read", &path, e))?;
        serde_json::from_str(&text).map_err(|e| err(format!("`{}`: {e}", path.display())))
    }

    fn children(&self, l: LayerId) -> Result<Vec<LayerId>, Diagnostic> {
        Ok(self
            .info(l)?
            .children
            .iter()
            .filter_map(|c| LayerId::parse(c))
            .collect())
    }

    /// Every layer known so far: the start's, and the children of the
    /// explored layers.
    fn known(&self) -> Result<BTreeSet<LayerId>, Diagnostic> {
        let start = LayerId::parse(&self.plan.start_layer)
            .ok_or_else(|| err("solve.json names no start layer".into()))?;
        let mut all = BTreeSet::from([start]);
        let mut todo = vec![start];
        while let Some(l) = todo.pop() {
            if !self.done(Unit::Explore(l)) {
                continue;
            }
            for c in self.children(l)? {
                if all.insert(c) {
                    todo.push(c);
                }
            }
        }
        Ok(all)
    }

    /// The units whose dependencies are done and which are not: the
    /// unexplored layers of the highest level, else (all explored) the
    /// unsolved layers whose lower layers are solved. Empty: finished.
    pub fn ready(&self) -> Result<Vec<Unit>, Diagnostic> {
        let known = self.known()?;
        let unexplored: Vec<LayerId> = known
            .iter()
            .copied()
            .filter(|&l| !self.done(Unit::Explore(l)))
            .collect();
        if let Some(top) = unexplored.iter().map(|l| l.level()).max() {
            return Ok(unexplored
                .into_iter()
                .filter(|l| l.level() == top)
                .map(Unit::Explore)
                .collect());
        }
        let mut ready = Vec::new();
        for &l in &known {
            if self.done(Unit::Solve(l)) {
                continue;
            }
            if self.children(l)?.iter().all(|&c| self.done(Unit::Solve(c))) {
                ready.push(Unit::Solve(l));
            }
        }
        Ok(ready)
    }

    /// Why `u` cannot run yet, if it cannot.
    fn blocked(&self, u: Unit) -> Result<Option<String>, Diagnostic> {
        let known = self.known()?;
        match u {
            Unit::Explore(l) => {
                if let Some(p) = known
                    .iter()
                    .find(|p| p.level() > l.level() && !self.done(Unit::Explore(**p)))
                {
                    return Ok(Some(format!(
                        "layer {p} (a higher level) is not explored yet"
                    )));
                }
                if !known.contains(&l) {
                    return Ok(Some(format!("no explored layer leads to layer {l}")));
                }
            }
            Unit::Solve(l) => {
                if let Some(p) = known.iter().find(|p| !self.done(Unit::Explore(**p))) {
                    return Ok(Some(format!("layer {p} is not explored yet")));
                }
                if !known.contains(&l) {
                    return Ok(Some(format!("layer {l} holds no reachable position")));
                }
                if let Some(c) = self
                    .children(l)?
                    .into_iter()
                    .find(|&c| !self.done(Unit::Solve(c)))
                {
                    return Ok(Some(format!(
                        "layer {c}, which layer {l} leads to, is not solved yet"
                    )));
                }
            }
        }
        Ok(None)
    }

    /// Run one unit (its dependencies must be done); a done unit is left as it is.
    /// Returns the positions it handled.
    pub fn run(&self, u: Unit) -> Result<u64, Diagnostic> {
        if self.done(u) {
            return Ok(0);
        }
        if let Some(why) = self.blocked(u)? {
            return Err(err(format!("{u} cannot run yet: {why}")).expected(
                "a unit `morrigo solve FILE --shards DIR --ready` lists (units run in that order)",
            ));
        }
        with_machine!(self.machine.as_ref(), m => self.run_on(m, u))
    }

    fn run_on<const W: usize>(&self, m: &Machine<W>, u: Unit) -> Result<u64, Diagnostic> {
        match u {
            Unit::Explore(l) => {
                let dir = self.dir.join("reach").join(l.name());
                let mut entries = Vec::new();
                let listing = std::fs::read_dir(&dir).map_err(|e| io("read", &dir, e))?;
                for f in listing.flatten() {
                    let p = f.path();
                    if p.extension().is_some_and(|x| x == "codes") {
                        entries.extend(read_codes(&p)?);
                    }
                }
                let reach = explore_layer(m, l, &entries).map_err(|e| err(e.to_string()))?;
                for (c, codes) in &reach.children {
                    write_whole(
                        &self
                            .dir
                            .join("reach")
                            .join(c.name())
                            .join(format!("{}.codes", l.name())),
                        &codes_bytes(codes),
                    )?;
                }
                let info = LayerInfo {
                    positions: reach.codes.len() as u64,
                    edges: reach.edges,
                    children: reach.children.keys().map(|c| c.name()).collect(),
                };
                let text = serde_json::to_string(&info).map_err(|e| err(e.to_string()))?;
                write_whole(&self.info_path(l), text.as_bytes())?;
                // Last: the codes file marks the unit done.
                write_whole(&self.codes_path(l), &codes_bytes(&reach.codes))?;
                Ok(info.positions)
            }
            Unit::Solve(l) => {
                let codes = read_codes(&self.codes_path(l))?;
                let mut lower: BTreeMap<LayerId, (CodeIndex, Vec<u16>)> = BTreeMap::new();
                for c in self.children(l)? {
                    let codes = read_codes(&self.codes_path(c))?;
                    lower.insert(
                        c,
                        (CodeIndex::new(&codes), read_values(&self.values_path(c))?),
                    );
                }
                let look = |c: LayerId, code: u64| -> Option<u16> {
                    let (index, values) = lower.get(&c)?;
                    index.slot(code).and_then(|i| values.get(i).copied())
                };
                let values = solve_layer(m, l, &codes, &look).map_err(|e| err(e.to_string()))?;
                let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
                write_whole(&self.values_path(l), &bytes)?;
                Ok(codes.len() as u64)
            }
        }
    }

    /// The counts, start value and digest of a finished solve (`None`
    /// while some unit is not done).
    pub fn summary(&self) -> Result<Option<LayeredSummary>, Diagnostic> {
        let known = self.known()?;
        if known.iter().any(|&l| !self.done(Unit::Solve(l))) {
            return Ok(None);
        }
        let mut s = LayeredSummary {
            layers: known.len() as u64,
            digest: 0xcbf2_9ce4_8422_2325,
            ..LayeredSummary::default()
        };
        let mut fnv = |bytes: &[u8]| {
            for b in bytes {
                s.digest ^= u64::from(*b);
                s.digest = s.digest.wrapping_mul(0x0100_0000_01b3);
            }
        };
        let start = LayerId::parse(&self.plan.start_layer);
        let mut counts = [0u64; 3];
        let mut edges = 0;
        let mut start_value = 0;
        for &l in &known {
            let codes = read_codes(&self.codes_path(l))?;
            let values = read_values(&self.values_path(l))?;
            edges += self.info(l)?.edges;
            fnv(l.name().as_bytes());
            for (c, v) in codes.iter().zip(&values) {
                fnv(&c.to_le_bytes());
                fnv(&v.to_le_bytes());
                counts[match Value::decode(*v) {
                    Value::Win(_) => 0,
                    Value::Loss(_) => 1,
                    Value::Draw => 2,
                }] += 1;
            }
            if Some(l) == start {
                if let Ok(i) = codes.binary_search(&self.plan.start_code) {
                    start_value = values[i];
                }
            }
        }
        s.positions = counts.iter().sum();
        [s.wins, s.losses, s.draws] = counts;
        s.edges = edges;
        s.start = start_value;
        Ok(Some(s))
    }

    /// Every solved position, layer by layer.
    pub fn values(&self) -> Result<Vec<SolvedLayer>, Diagnostic> {
        let mut out = Vec::new();
        for layer in self.known()? {
            out.push(SolvedLayer {
                layer,
                codes: read_codes(&self.codes_path(layer))?,
                values: read_values(&self.values_path(layer))?,
            });
        }
        Ok(out)
    }

    pub fn machine(&self) -> &AnyMachine {
        &self.machine
    }
}
