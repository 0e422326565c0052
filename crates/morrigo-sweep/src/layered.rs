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
//!
//! With a unit size (`max_unit_positions`), a layer of more positions is
//! solved in ranges of its sorted codes (slots), as even as they divide, none
//! larger: `expand:L/R` expands range R, then `round:L/R/D` propagates the
//! values of distance D within R (morrigo-solve's `range_push`), and
//! `solve:L` joins the last round's values:
//!
//! ```text
//! DIR/split/L/start-R.state      range R's terminal values and move counts (expand:L/R done)
//! DIR/split/L/edges-R-S.edges    moves from R's positions to S's (child slot, parent slot)
//! DIR/split/L/events-R.events    R's decided children in lower layers
//! DIR/split/L/round-D/R.state    R's values and counts after round D
//! DIR/split/L/round-D/R-S.msgs   S's positions R decided at distance D + 1
//! DIR/split/L/round-D/R.json     what round D found in R (round:L/R/D done)
//! ```
//!
//! Round D of every range waits for round D - 1 of every range; a round
//! deletes its range's files of two rounds back, and `solve:L` the split
//! directory, so the disk holds about two rounds at a time.
//! Codes are u64 and values u16, little-endian. Every file is written whole
//! (a temporary file renamed, morrigo-store's `write_atomic`), so a unit
//! killed midway is run again, and carries a checksum: a binary file ends
//! in a sealed trailer naming its kind, a JSON file is one line starting
//! with its CRC. A damaged file is refused with its name, never used.

use morrigo_diag::Diagnostic;
use morrigo_engine::{with_machine, AnyMachine, Machine};
use morrigo_rules::load::Overrides;
use morrigo_solve::layers::{
    expand_range, explore_layer, range_inbound, range_push, solve_layer, CodeIndex, Coder, LayerId,
    RangeEdges, RoundOut,
};
use morrigo_solve::Value;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a solve directory is for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolvePlan {
    /// The ruleset as given (a built-in name or a path), with its overrides.
    pub ruleset: String,
    /// The `--size` override (grid width and height), if any.
    pub size: Option<(u32, u32)>,
    /// The `--komi` override, if any.
    pub komi: Option<f64>,
    /// `morrigo_solve::rules_fingerprint` of the rules solved.
    pub fingerprint: u64,
    /// The layer of the start position, by its [`LayerId::name`].
    pub start_layer: String,
    /// The start position's code within its layer.
    pub start_code: u64,
    /// A layer of more positions is solved in ranges of at most this many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unit_positions: Option<u64>,
}

/// One unit of work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Unit {
    /// Explore a layer: its reachable positions and the lower layers they
    /// lead to.
    Explore(LayerId),
    /// Expand one range of a split layer.
    Expand(LayerId, u32),
    /// One distance of a split layer's propagation, in one range: (layer, range, distance).
    Round(LayerId, u32, u32),
    /// Solve a layer: the value of each of its positions (of a split layer,
    /// its ranges' last round joined).
    Solve(LayerId),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Explore(l) => write!(f, "explore:{l}"),
            Unit::Expand(l, r) => write!(f, "expand:{l}/{r}"),
            Unit::Round(l, r, d) => write!(f, "round:{l}/{r}/{d}"),
            Unit::Solve(l) => write!(f, "solve:{l}"),
        }
    }
}

impl std::str::FromStr for Unit {
    type Err = String;
    fn from_str(text: &str) -> Result<Unit, String> {
        let bad = || {
            format!("`{text}` is not a unit of a layered solve; expected `explore:LAYER`, `solve:LAYER`, `expand:LAYER/RANGE` or `round:LAYER/RANGE/DISTANCE`, a layer written `h6-6b0-0` (in hand, on the board)")
        };
        let (kind, rest) = text.split_once(':').ok_or_else(bad)?;
        let mut parts = rest.split('/');
        let layer = LayerId::parse(parts.next().ok_or_else(bad)?).ok_or_else(bad)?;
        let mut number =
            || -> Result<u32, String> { parts.next().and_then(|t| t.parse().ok()).ok_or_else(bad) };
        let unit = match kind {
            "explore" => Unit::Explore(layer),
            "solve" => Unit::Solve(layer),
            "expand" => Unit::Expand(layer, number()?),
            "round" => {
                let r = number()?;
                Unit::Round(layer, r, number()?)
            }
            _ => return Err(bad()),
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(unit)
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
    /// The directory the solve's files are in.
    pub dir: PathBuf,
    /// What the directory is for, as its `solve.json` says.
    pub plan: SolvePlan,
    machine: Arc<AnyMachine>,
}

/// The positions of one layer (codes, sorted) and their values.
pub struct SolvedLayer {
    /// Which layer this is.
    pub layer: LayerId,
    /// Its reachable positions' codes, sorted.
    pub codes: Vec<u64>,
    /// The value of each position, in the order of `codes` (as
    /// [`Value::decode`] reads them).
    pub values: Vec<u16>,
}

/// Counts of a finished solve.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayeredSummary {
    /// Layers reached from the start.
    pub layers: u64,
    /// Positions reached, in all layers.
    pub positions: u64,
    /// Moves from the reached positions.
    pub edges: u64,
    /// Positions won for the player to move.
    pub wins: u64,
    /// Positions lost for the player to move.
    pub losses: u64,
    /// Positions drawn.
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
    morrigo_store::write_atomic(path, bytes).map_err(|e| err(e.to_string()))
}

/// The kinds of the binary files, in their checksum trailers.
const CODES: &morrigo_store::Kind = b"MRGCODES";
const VALUES: &morrigo_store::Kind = b"MRGVALUS";
const STATE: &morrigo_store::Kind = b"MRGSTATE";
const EDGES: &morrigo_store::Kind = b"MRGEDGES";
const EVENTS: &morrigo_store::Kind = b"MRGEVNTS";
const MSGS: &morrigo_store::Kind = b"MRGMSGS\0";

/// The largest file a unit reads (a bound, not a size any layer reaches).
const MAX_FILE: u64 = 1 << 40;

fn write_sealed(path: &Path, kind: &morrigo_store::Kind, payload: &[u8]) -> Result<(), Diagnostic> {
    write_whole(path, &morrigo_store::seal(kind, payload))
}

/// A sealed file's payload; a damaged one is refused with its name.
fn read_sealed(path: &Path, kind: &morrigo_store::Kind) -> Result<Vec<u8>, Diagnostic> {
    morrigo_store::read_sealed(path, kind, MAX_FILE).map_err(|e| {
        let d = err(e.to_string());
        match e {
            morrigo_store::StoreError::Damaged { .. } => d.expected(
                "a file this layered solve wrote: delete it to run its unit again, or start the solve in an empty directory",
            ),
            _ => d,
        }
    })
}

/// A JSON file of one line carrying its checksum.
fn write_json(path: &Path, value: &impl Serialize) -> Result<(), Diagnostic> {
    let text = serde_json::to_string(value).map_err(|e| err(e.to_string()))?;
    write_whole(
        path,
        format!("{}\n", morrigo_store::seal_line(&text)).as_bytes(),
    )
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, Diagnostic> {
    let text = std::fs::read_to_string(path).map_err(|e| io("read", path, e))?;
    let object = morrigo_store::unseal_line(&text).map_err(|why| {
        let old = if text.starts_with("{\"crc32\"") {
            ""
        } else {
            " (a layered solve from before its files carried checksums)"
        };
        err(format!("`{}` is damaged: {why}{old}", path.display()))
            .expected("a file this layered solve wrote: start the solve in an empty directory")
    })?;
    serde_json::from_str(&object).map_err(|e| err(format!("`{}`: {e}", path.display())))
}

fn codes_bytes(codes: &[u64]) -> Vec<u8> {
    codes.iter().flat_map(|c| c.to_le_bytes()).collect()
}

fn cut_short(path: &Path) -> Diagnostic {
    err(format!(
        "`{}` is damaged: its length is not a whole number of entries",
        path.display()
    ))
}

fn read_codes(path: &Path) -> Result<Vec<u64>, Diagnostic> {
    read_u64s(path, CODES)
}

fn read_u64s(path: &Path, kind: &morrigo_store::Kind) -> Result<Vec<u64>, Diagnostic> {
    let bytes = read_sealed(path, kind)?;
    if bytes.len() % 8 != 0 {
        return Err(cut_short(path));
    }
    Ok(bytes
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
        .collect())
}

fn read_u16s(path: &Path, kind: &morrigo_store::Kind) -> Result<Vec<u16>, Diagnostic> {
    let bytes = read_sealed(path, kind)?;
    if bytes.len() % 2 != 0 {
        return Err(cut_short(path));
    }
    Ok(bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect())
}

fn read_values(path: &Path) -> Result<Vec<u16>, Diagnostic> {
    read_u16s(path, VALUES)
}

fn u16_bytes(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn u32_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn pair_bytes(a: u32, b: u32) -> [u8; 8] {
    ((u64::from(b) << 32) | u64::from(a)).to_le_bytes()
}

fn read_u32s(path: &Path) -> Result<Vec<u32>, Diagnostic> {
    let bytes = read_sealed(path, MSGS)?;
    if bytes.len() % 4 != 0 {
        return Err(cut_short(path));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
        .collect())
}

fn read_pairs(path: &Path, kind: &morrigo_store::Kind) -> Result<Vec<(u32, u32)>, Diagnostic> {
    Ok(read_u64s(path, kind)?
        .into_iter()
        .map(|w| (w as u32, (w >> 32) as u32))
        .collect())
}

/// A range's values, then its move counts.
fn state_bytes(values: &[u16], counts: &[u16]) -> Vec<u8> {
    let mut bytes = u16_bytes(values);
    bytes.extend(u16_bytes(counts));
    bytes
}

fn read_state(path: &Path, len: usize) -> Result<(Vec<u16>, Vec<u16>), Diagnostic> {
    let mut values = read_u16s(path, STATE)?;
    if values.len() != 2 * len {
        return Err(err(format!(
            "`{}` holds {} positions, not the range's {len}",
            path.display(),
            values.len() / 2
        )));
    }
    let counts = values.split_off(len);
    Ok((values, counts))
}

/// The range (of `bounds`) holding `slot`.
fn range_of(bounds: &[usize], slot: u32) -> u32 {
    (bounds.partition_point(|&b| b <= slot as usize) - 1) as u32
}

/// What a round found in its range: positions it decided at the next
/// distance, decisions it sent to other ranges, and whether the layer may
/// need another round.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct RoundStatus {
    decided_next: u64,
    sent: u64,
    more: bool,
}

/// How far the solve of a split layer is.
enum Progress {
    /// These ranges are not expanded.
    Expand(Vec<u32>),
    /// Round d is not done in these ranges.
    Round(u32, Vec<u32>),
    /// Every range ran its last round, this one.
    Finished(u32),
}

impl Layered {
    /// Open (or start) the layered solve of `ruleset` in `dir`; a directory
    /// holding another ruleset's solve is refused. Its layers are split as
    /// the directory says (not at all in a new one).
    pub fn open(ruleset: &str, o: &Overrides, dir: &Path) -> Result<Layered, Diagnostic> {
        Layered::open_with(ruleset, o, dir, None)
    }

    /// As [`Layered::open`], with a unit size: a layer of more than
    /// `max_unit_positions` positions is solved in ranges (`None`: the
    /// directory's setting). A directory started with another unit size is
    /// refused: its ranges are in its files.
    pub fn open_with(
        ruleset: &str,
        o: &Overrides,
        dir: &Path,
        max_unit_positions: Option<u64>,
    ) -> Result<Layered, Diagnostic> {
        if max_unit_positions == Some(0) {
            return Err(
                err("a unit of a layered solve holds at least one position".into())
                    .expected("a unit size of 1 or more positions"),
            );
        }
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
            max_unit_positions,
        };
        let mut plan = plan;
        let path = dir.join("solve.json");
        match std::fs::metadata(&path) {
            Ok(_) => {
                let old: SolvePlan = read_json(&path)?;
                if old.fingerprint != fingerprint || old.start_code != start_code {
                    return Err(err(format!(
                        "`{}` holds the layered solve of other rules (`{}`)",
                        dir.display(),
                        old.ruleset
                    ))
                    .expected("an empty directory, or the one this ruleset's solve wrote"));
                }
                let size = |n: Option<u64>| {
                    n.map_or("does not split layers".to_string(), |n| {
                        format!("splits layers into units of at most {n} positions")
                    })
                };
                match max_unit_positions {
                    Some(n) if old.max_unit_positions != Some(n) => {
                        return Err(err(format!(
                            "the layered solve in `{}` {}, not {n}: a solve keeps the unit size it started with",
                            dir.display(),
                            size(old.max_unit_positions)
                        ))
                        .expected("the directory's unit size, or none (the directory's is used)"));
                    }
                    _ => plan.max_unit_positions = old.max_unit_positions,
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                write_json(&path, &plan)?;
                write_sealed(
                    &dir.join("reach")
                        .join(start_layer.name())
                        .join("start.codes"),
                    CODES,
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
    fn split_dir(&self, l: LayerId) -> PathBuf {
        self.dir.join("split").join(l.name())
    }
    fn start_path(&self, l: LayerId, r: u32) -> PathBuf {
        self.split_dir(l).join(format!("start-{r}.state"))
    }
    fn edges_path(&self, l: LayerId, from: u32, to: u32) -> PathBuf {
        self.split_dir(l).join(format!("edges-{from}-{to}.edges"))
    }
    fn events_path(&self, l: LayerId, r: u32) -> PathBuf {
        self.split_dir(l).join(format!("events-{r}.events"))
    }
    fn round_path(&self, l: LayerId, d: u32, file: String) -> PathBuf {
        self.split_dir(l).join(format!("round-{d}")).join(file)
    }
    fn state_path(&self, l: LayerId, r: u32, d: u32) -> PathBuf {
        self.round_path(l, d, format!("{r}.state"))
    }
    fn msgs_path(&self, l: LayerId, from: u32, to: u32, d: u32) -> PathBuf {
        self.round_path(l, d, format!("{from}-{to}.msgs"))
    }
    fn status_path(&self, l: LayerId, r: u32, d: u32) -> PathBuf {
        self.round_path(l, d, format!("{r}.json"))
    }

    /// Whether unit `u` has finished: its result file is in the directory.
    pub fn done(&self, u: Unit) -> bool {
        match u {
            Unit::Explore(l) => self.codes_path(l).is_file(),
            Unit::Expand(l, r) => self.start_path(l, r).is_file(),
            Unit::Round(l, r, d) => self.status_path(l, r, d).is_file(),
            Unit::Solve(l) => self.values_path(l).is_file(),
        }
    }

    fn info(&self, l: LayerId) -> Result<LayerInfo, Diagnostic> {
        let path = self.info_path(l);
        read_json(&path)
    }

    fn children(&self, l: LayerId) -> Result<Vec<LayerId>, Diagnostic> {
        Ok(self
            .info(l)?
            .children
            .iter()
            .filter_map(|c| LayerId::parse(c))
            .collect())
    }

    /// The slot ranges layer `l` (explored) is solved in: their bounds, as
    /// even as they divide, none past the unit size; one range: not split.
    pub fn ranges(&self, l: LayerId) -> Result<Vec<usize>, Diagnostic> {
        let n = self.info(l)?.positions;
        let k = match self.plan.max_unit_positions {
            Some(max) if n > max => n.div_ceil(max),
            _ => 1,
        };
        Ok((0..=k)
            .map(|i| (u128::from(i) * u128::from(n) / u128::from(k)) as usize)
            .collect())
    }

    fn status(&self, l: LayerId, r: u32, d: u32) -> Result<RoundStatus, Diagnostic> {
        let path = self.status_path(l, r, d);
        read_json(&path)
    }

    /// How far the solve of a layer split into `k` ranges is.
    fn progress(&self, l: LayerId, k: u32) -> Result<Progress, Diagnostic> {
        let missing: Vec<u32> = (0..k).filter(|&r| !self.done(Unit::Expand(l, r))).collect();
        if !missing.is_empty() {
            return Ok(Progress::Expand(missing));
        }
        for d in 0.. {
            let missing: Vec<u32> = (0..k)
                .filter(|&r| !self.done(Unit::Round(l, r, d)))
                .collect();
            if !missing.is_empty() {
                return Ok(Progress::Round(d, missing));
            }
            let mut more = false;
            for r in 0..k {
                more |= self.status(l, r, d)?.more;
            }
            if !more {
                return Ok(Progress::Finished(d));
            }
        }
        unreachable!("a round is missing or the last")
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
    /// unexplored layers of the highest level, else (all explored) for each
    /// unsolved layer whose lower layers are solved, its solve, or (split)
    /// its unexpanded ranges, else its ranges' unfinished round, else the
    /// solve that joins them. Empty: finished.
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
            if !self.children(l)?.iter().all(|&c| self.done(Unit::Solve(c))) {
                continue;
            }
            let k = (self.ranges(l)?.len() - 1) as u32;
            if k == 1 {
                ready.push(Unit::Solve(l));
                continue;
            }
            match self.progress(l, k)? {
                Progress::Expand(rs) => ready.extend(rs.into_iter().map(|r| Unit::Expand(l, r))),
                Progress::Round(d, rs) => {
                    ready.extend(rs.into_iter().map(|r| Unit::Round(l, r, d)))
                }
                Progress::Finished(_) => ready.push(Unit::Solve(l)),
            }
        }
        Ok(ready)
    }

    /// Why `u` cannot run yet, if it cannot.
    fn blocked(&self, u: Unit) -> Result<Option<String>, Diagnostic> {
        let known = self.known()?;
        let l = match u {
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
                return Ok(None);
            }
            Unit::Expand(l, _) | Unit::Round(l, _, _) | Unit::Solve(l) => l,
        };
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
        let k = (self.ranges(l)?.len() - 1) as u32;
        let range = match u {
            Unit::Expand(_, r) | Unit::Round(_, r, _) => r,
            _ if k == 1 => return Ok(None),
            _ => {
                return Ok(match self.progress(l, k)? {
                    Progress::Finished(_) => None,
                    _ => Some(format!(
                        "layer {l} is solved in {k} ranges, and their rounds are not finished"
                    )),
                })
            }
        };
        if k == 1 {
            return Ok(Some(format!(
                "layer {l} is solved whole (a unit of its own: `solve:{l}`), not in ranges"
            )));
        }
        if range >= k {
            return Ok(Some(format!(
                "layer {l} is solved in {k} ranges, 0 to {}",
                k - 1
            )));
        }
        let Unit::Round(_, _, d) = u else {
            return Ok(None);
        };
        Ok(match self.progress(l, k)? {
            Progress::Expand(_) => {
                Some(format!("the ranges of layer {l} are not all expanded yet"))
            }
            Progress::Round(now, _) if d > now => Some(format!(
                "round {now} of layer {l} is not finished in every range"
            )),
            Progress::Finished(last) if d > last => Some(format!(
                "layer {l} has no round {d}: its values are all found by round {last}"
            )),
            _ => None,
        })
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

    /// The values of the layers `l` leads to, by code.
    fn lower(&self, l: LayerId) -> Result<BTreeMap<LayerId, (CodeIndex, Vec<u16>)>, Diagnostic> {
        let mut lower = BTreeMap::new();
        for c in self.children(l)? {
            let codes = read_codes(&self.codes_path(c))?;
            lower.insert(
                c,
                (CodeIndex::new(&codes), read_values(&self.values_path(c))?),
            );
        }
        Ok(lower)
    }

    fn run_on<const W: usize>(&self, m: &Machine<W>, u: Unit) -> Result<u64, Diagnostic> {
        let solve_err = |e: morrigo_solve::layers::LayerError| err(e.to_string());
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
                let reach = explore_layer(m, l, &entries).map_err(solve_err)?;
                for (c, codes) in &reach.children {
                    write_sealed(
                        &self
                            .dir
                            .join("reach")
                            .join(c.name())
                            .join(format!("{}.codes", l.name())),
                        CODES,
                        &codes_bytes(codes),
                    )?;
                }
                let info = LayerInfo {
                    positions: reach.codes.len() as u64,
                    edges: reach.edges,
                    children: reach.children.keys().map(|c| c.name()).collect(),
                };
                write_json(&self.info_path(l), &info)?;
                // Last: the codes file marks the unit done.
                write_sealed(&self.codes_path(l), CODES, &codes_bytes(&reach.codes))?;
                Ok(info.positions)
            }
            Unit::Solve(l) => {
                let bounds = self.ranges(l)?;
                if bounds.len() > 2 {
                    return self.join(l, &bounds);
                }
                let codes = read_codes(&self.codes_path(l))?;
                let lower = self.lower(l)?;
                let look = |c: LayerId, code: u64| -> Option<u16> {
                    let (index, values) = lower.get(&c)?;
                    index.slot(code).and_then(|i| values.get(i).copied())
                };
                let values = solve_layer(m, l, &codes, &look).map_err(solve_err)?;
                write_sealed(&self.values_path(l), VALUES, &u16_bytes(&values))?;
                Ok(codes.len() as u64)
            }
            Unit::Expand(l, r) => {
                let bounds = self.ranges(l)?;
                let (a, b) = (bounds[r as usize], bounds[r as usize + 1]);
                let (index, codes) = {
                    let codes = read_codes(&self.codes_path(l))?;
                    (CodeIndex::new(&codes), codes[a..b].to_vec())
                };
                let lower = self.lower(l)?;
                let look = |c: LayerId, code: u64| -> Option<u16> {
                    let (index, values) = lower.get(&c)?;
                    index.slot(code).and_then(|i| values.get(i).copied())
                };
                let mut x = expand_range(m, l, &codes, a, &index, &look).map_err(solve_err)?;
                drop(lower);
                x.edges.sort_unstable_by_key(|e| e.0);
                let mut rest = &x.edges[..];
                while let Some(&(child, _)) = rest.first() {
                    let to = range_of(&bounds, child);
                    let n = rest.partition_point(|e| e.0 < bounds[to as usize + 1] as u32);
                    let bytes: Vec<u8> = rest[..n]
                        .iter()
                        .flat_map(|&(c, p)| pair_bytes(c, p))
                        .collect();
                    write_sealed(&self.edges_path(l, r, to), EDGES, &bytes)?;
                    rest = &rest[n..];
                }
                let events: Vec<u8> = x
                    .events
                    .iter()
                    .flat_map(|&(d, e)| pair_bytes(d, e))
                    .collect();
                write_sealed(&self.events_path(l, r), EVENTS, &events)?;
                // Last: the start state marks the unit done.
                write_sealed(
                    &self.start_path(l, r),
                    STATE,
                    &state_bytes(&x.values, &x.counts),
                )?;
                Ok(codes.len() as u64)
            }
            Unit::Round(l, r, d) => self.round(l, r, d),
        }
    }

    /// Round `d` of range `r` of layer `l`.
    fn round(&self, l: LayerId, r: u32, d: u32) -> Result<u64, Diagnostic> {
        let bounds = self.ranges(l)?;
        let k = (bounds.len() - 1) as u32;
        let (a, b) = (bounds[r as usize], bounds[r as usize + 1]);
        let before = if d == 0 {
            self.start_path(l, r)
        } else {
            self.state_path(l, r, d - 1)
        };
        let (mut values, mut counts) = read_state(&before, b - a)?;
        let events = read_pairs(&self.events_path(l, r), EVENTS)?;
        let mut inbound = Vec::new();
        if d > 0 {
            for s in (0..k).filter(|&s| s != r) {
                let p = self.msgs_path(l, s, r, d - 1);
                if p.is_file() {
                    inbound.extend(read_u32s(&p)?);
                }
            }
            inbound.extend(events.iter().filter(|e| e.0 == d - 1).map(|e| e.1));
        }
        let last_event = events.last().map(|e| e.0);
        drop(events);
        let frontier = range_inbound(a, &mut values, &mut counts, d, &inbound)
            .map_err(|e| err(e.to_string()))?;
        drop(inbound);
        let mut out = RoundOut::default();
        if !frontier.is_empty() {
            // The moves into the range, a file at a time, read twice (count, place).
            let files: Vec<PathBuf> = (0..k)
                .map(|s| self.edges_path(l, s, r))
                .filter(|p| p.is_file())
                .collect();
            let mut into = RangeEdges::new(a, b - a);
            for p in &files {
                into.count(&read_pairs(p, EDGES)?)
                    .map_err(|e| err(e.to_string()))?;
            }
            for p in &files {
                into.place(&read_pairs(p, EDGES)?);
            }
            out = range_push(&mut values, &mut counts, d, &frontier, &into)
                .map_err(|e| err(e.to_string()))?;
        }
        out.outbound.sort_unstable_by_key(|e| e & 0x7FFF_FFFF);
        let mut rest = &out.outbound[..];
        while let Some(&e) = rest.first() {
            let to = range_of(&bounds, e & 0x7FFF_FFFF);
            let n = rest.partition_point(|e| (e & 0x7FFF_FFFF) < bounds[to as usize + 1] as u32);
            write_sealed(&self.msgs_path(l, r, to, d), MSGS, &u32_bytes(&rest[..n]))?;
            rest = &rest[n..];
        }
        write_sealed(
            &self.state_path(l, r, d),
            STATE,
            &state_bytes(&values, &counts),
        )?;
        let status = RoundStatus {
            decided_next: out.decided_next,
            sent: out.outbound.len() as u64,
            more: out.decided_next > 0
                || !out.outbound.is_empty()
                || last_event.is_some_and(|e| e >= d),
        };
        // Last: the status marks the unit done.
        write_json(&self.status_path(l, r, d), &status)?;
        // Round d - 1 (all done) read the files of round d - 2; no unit reads them now.
        if d >= 2 {
            let _ = std::fs::remove_file(self.state_path(l, r, d - 2));
            for s in 0..k {
                let _ = std::fs::remove_file(self.msgs_path(l, r, s, d - 2));
            }
        }
        Ok((b - a) as u64)
    }

    /// `solve:L` of a split layer: the values of its last round, joined.
    fn join(&self, l: LayerId, bounds: &[usize]) -> Result<u64, Diagnostic> {
        let k = (bounds.len() - 1) as u32;
        let Progress::Finished(last) = self.progress(l, k)? else {
            return Err(err(format!("the rounds of layer {l} are not finished")));
        };
        let mut values = Vec::with_capacity(bounds[k as usize]);
        for r in 0..k {
            let len = bounds[r as usize + 1] - bounds[r as usize];
            values.extend(read_state(&self.state_path(l, r, last), len)?.0);
        }
        write_sealed(&self.values_path(l), VALUES, &u16_bytes(&values))?;
        // The values are in place: the ranges' files are read by no unit now.
        let _ = std::fs::remove_dir_all(self.split_dir(l));
        Ok(values.len() as u64)
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

    /// The machine the solve runs: the ruleset's rules without the draw
    /// rules that read the history ([`morrigo_solve::solver_rules`]).
    pub fn machine(&self) -> &AnyMachine {
        &self.machine
    }
}
