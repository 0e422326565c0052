//! The placing phase by search over the solved units, as Gasser proved
//! Nine Men's Morris a draw (an 18-ply alpha-beta search over the
//! moving-phase databases).
//!
//! Solving every placing unit by retrograde analysis ([`crate::GameTable`])
//! gives every placing position's value, but under alternating placement
//! those units hold about twice the moving phase's orbits. The value of
//! the start and of each first move needs far less: a proof that each
//! side can hold the value, which an alpha-beta search finds with the
//! moving-phase sectors (and any placing unit already solved) as exact
//! leaves. Values here are win, draw or loss, without distances.
//!
//! The search is a pair of null-window tests per position ("can the
//! player to move get at least a draw?", "... a win?"), with a
//! transposition table keyed by the position's orbit (so the board's
//! symmetries are transpositions too), enhanced transposition cutoffs
//! (every successor looked up before any is searched), captures first and
//! a history heuristic per point. It is sound without path bookkeeping
//! because the placing phase is a DAG: every turn places a piece, so no
//! position repeats and a value never depends on the path (graph-history
//! interaction cannot arise). Rules with turns that place nothing while
//! pieces wait in hand (Lasker Morris) are refused: their placing units
//! are solved by [`crate::GameTable`].

use crate::index::{Binomial, SectorIndex};
use crate::solver::{
    read_unit, sector_plan, unit_path, SectorError, SectorStats, Solver, UNSOLVED,
};
use crate::symmetry::Symmetry;
use crate::unmove::{Board, Moves, Sector};
use morrigo_engine::{memory, Machine};
use morrigo_store::StoreError;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A game value for the player to move, as the search compares them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// The player to move loses against perfect play.
    Loss = 0,
    /// Neither player can force a win.
    Draw = 1,
    /// The player to move can force a win.
    Win = 2,
}

impl Wdl {
    fn from_u8(v: u8) -> Wdl {
        match v {
            0 => Wdl::Loss,
            1 => Wdl::Draw,
            _ => Wdl::Win,
        }
    }

    /// The value for the other player.
    pub fn flip(self) -> Wdl {
        Wdl::from_u8(2 - self as u8)
    }

    /// A stored solver value (see [`morrigo_solve::Value::decode`]).
    pub fn of_stored(v: u16) -> Wdl {
        match v {
            0 => Wdl::Draw,
            v if v & 1 == 1 => Wdl::Win,
            _ => Wdl::Loss,
        }
    }

    /// The word the tables print.
    pub fn word(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }
}

impl std::fmt::Display for Wdl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// One solved unit's values as win/draw/loss, two bits an orbit.
struct Known {
    index: Arc<SectorIndex>,
    /// Per orbit of both halves (side 0's, then side 1's): 0 not solved,
    /// else 1 + [`Wdl`].
    bits: Vec<u8>,
}

impl Known {
    fn get(&self, half: u8, orbit: u64) -> Option<Wdl> {
        let e = u64::from(half) * self.index.orbits + orbit;
        let v = self.bits[(e / 4) as usize] >> (2 * (e % 4)) & 3;
        (v != 0).then(|| Wdl::from_u8(v - 1))
    }
}

/// The solved units of a database directory, read when first needed and
/// shared by the searches.
struct Units {
    dir: PathBuf,
    fingerprint: u64,
    binom: Binomial,
    group: Vec<Symmetry>,
    points: usize,
    /// `None`: the unit has no file.
    read: Mutex<HashMap<Sector, Option<Arc<Known>>>>,
    indices: Mutex<HashMap<(u32, u32), Arc<SectorIndex>>>,
}

impl Units {
    fn index(&self, w: u32, b: u32) -> Arc<SectorIndex> {
        let mut indices = self.indices.lock().unwrap_or_else(|p| p.into_inner());
        indices
            .entry((w, b))
            .or_insert_with(|| {
                Arc::new(SectorIndex::new(
                    &self.binom,
                    &self.group,
                    self.points,
                    w as usize,
                    b as usize,
                ))
            })
            .clone()
    }

    fn unit(&self, c: Sector) -> Result<Option<Arc<Known>>, SectorError> {
        let mut read = self.read.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(k) = read.get(&c) {
            return Ok(k.clone());
        }
        let path = unit_path(&self.dir, c);
        let known = if path.exists() {
            let index = self.index(c.on_board[0], c.on_board[1]);
            let (values, _) = read_unit(&path, self.fingerprint, c, &index)?;
            let mut bits: Vec<u8> =
                memory::vec_of(0, values.len().div_ceil(4), "a unit's win/draw/loss bits")?;
            for (e, &v) in values.iter().enumerate() {
                if v != UNSOLVED {
                    bits[e / 4] |= (1 + Wdl::of_stored(v) as u8) << (2 * (e % 4));
                }
            }
            Some(Arc::new(Known { index, bits }))
        } else {
            None
        };
        read.insert(c, known.clone());
        Ok(known)
    }
}

/// Bounds on positions' values, keyed exactly by unit, side to move and
/// orbit: a fixed table, a slot a position (u64: the key, then the lower
/// and upper bound). A full probe window overwrites a slot: forgetting
/// costs time, never soundness.
struct Table {
    slots: Vec<u64>,
    mask: usize,
    /// Slots taken.
    used: u64,
}

const KEY_BITS: u32 = 56;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
const PROBE: usize = 4;

impl Table {
    fn new(bytes: u64) -> Result<Table, SectorError> {
        let slots = (bytes / 8).max(1 << 10).next_power_of_two() / 2;
        Ok(Table {
            slots: memory::vec_of(0, slots as usize, "the search's transposition table")?,
            mask: slots as usize - 1,
            used: 0,
        })
    }

    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & self.mask
    }

    /// The bounds (lower, upper) known for `key`.
    fn get(&self, key: u64) -> Option<(Wdl, Wdl)> {
        let home = self.home(key);
        (0..PROBE).find_map(|k| {
            let s = self.slots[(home + k) & self.mask];
            (s != 0 && s & KEY_MASK == key).then(|| {
                let b = s >> KEY_BITS;
                (
                    Wdl::from_u8((b & 3) as u8),
                    Wdl::from_u8((b >> 2 & 3) as u8),
                )
            })
        })
    }

    fn put(&mut self, key: u64, lower: Wdl, upper: Wdl) {
        let home = self.home(key);
        let entry = key | (lower as u64 | (upper as u64) << 2) << KEY_BITS;
        let mut free = None;
        for k in 0..PROBE {
            let at = (home + k) & self.mask;
            let s = self.slots[at];
            if s != 0 && s & KEY_MASK == key {
                self.slots[at] = entry;
                return;
            }
            if s == 0 && free.is_none() {
                free = Some(at);
            }
        }
        let at = match free {
            Some(at) => {
                self.used += 1;
                at
            }
            None => (home + (key as usize >> 7) % PROBE) & self.mask,
        };
        self.slots[at] = entry;
    }
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions searched (not answered by a unit or the table).
    pub nodes: u64,
    /// Successors answered by a solved unit.
    pub unit_hits: u64,
    /// Positions answered by the table.
    pub table_hits: u64,
    /// Table slots in use at the end.
    pub table_used: u64,
    /// Table slots.
    pub table_slots: u64,
}

/// The value of one class of first moves (the placements the board's
/// symmetries map onto each other).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstMove {
    /// The points of the class, by name.
    pub points: Vec<String>,
    /// The value for the player who makes it.
    pub value: Wdl,
    /// What the search that proved the value did (when read back, only
    /// its node count).
    pub stats: SearchStats,
    /// Wall-clock milliseconds (0 when read back).
    pub millis: u64,
    /// Read back from the directory's search file.
    pub loaded: bool,
}

/// The value of the start and of every first move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningResult {
    /// The value of the start for the player to move: the best first
    /// move's.
    pub start: Wdl,
    /// Each class of first moves with its value, in move generation order.
    pub first_moves: Vec<FirstMove>,
}

/// The search's file in a database directory: each first move's value
/// once proved, so a killed run resumes at the next.
pub const OPENING_FILE: &str = "opening.tbl";
const KIND: morrigo_store::Kind = *b"mopen001";
const MAGIC: &[u8; 8] = b"MRGOPEN1";

/// Searches the placing phase of one game over the units solved in a
/// directory.
pub struct OpeningSearch<'m> {
    moves: Moves<'m>,
    units: Arc<Units>,
    table: Table,
    /// Per ply: successors, and the order they are searched in.
    succ: Vec<Vec<(Board, u8)>>,
    order: Vec<Vec<(u32, u32)>>,
    /// Cutoffs made by a placement at each point, per pieces in hand.
    history: Vec<Vec<u32>>,
    /// Units looked up by this search (saves the shared lock).
    near: HashMap<Sector, Option<Arc<Known>>>,
    /// The lines through each point, as masks.
    lines_at: Vec<Vec<u64>>,
    /// Sector indices by `w * (points + 1) + b`, likewise.
    indices: Vec<Option<Arc<SectorIndex>>>,
    /// Placing units' files are not read: the search answers every
    /// placing position itself (to check them against it).
    placing_units: bool,
    stats: SearchStats,
}

/// The largest hand the table's key holds.
const MOST_IN_HAND: u32 = 15;

impl<'m> OpeningSearch<'m> {
    /// A search of `m`'s placing phase (built from
    /// [`morrigo_solve::solver_rules`]) over the units in `dir`, with a
    /// transposition table of `table_bytes`.
    pub fn new(m: &'m Machine<1>, dir: &Path, table_bytes: u64) -> Result<Self, SectorError> {
        let solver = Solver::new(m, None)?;
        if m.rules.in_hand > MOST_IN_HAND {
            return Err(SectorError::Rules(format!(
                "the placing-phase search keys hands of at most {MOST_IN_HAND} pieces; {} has {}",
                m.rules.name, m.rules.in_hand
            )));
        }
        let units = Units {
            dir: dir.to_path_buf(),
            fingerprint: morrigo_solve::rules_fingerprint(&m.rules),
            binom: Binomial::new(m.points()),
            group: solver.group().to_vec(),
            points: m.points(),
            read: Mutex::new(HashMap::new()),
            indices: Mutex::new(HashMap::new()),
        };
        Self::with_units(m, Arc::new(units), table_bytes)
    }

    fn with_units(
        m: &'m Machine<1>,
        units: Arc<Units>,
        table_bytes: u64,
    ) -> Result<Self, SectorError> {
        let hand = m.rules.in_hand as usize;
        let t = &m.rules.topology;
        let lines_at = (0..t.len())
            .map(|p| {
                t.lines_through[p]
                    .iter()
                    .map(|&l| t.lines[l as usize].iter().fold(0u64, |a, &q| a | 1 << q))
                    .collect()
            })
            .collect();
        Ok(OpeningSearch {
            lines_at,
            moves: Moves::new(m).untidy(),
            units,
            table: Table::new(table_bytes)?,
            succ: Vec::new(),
            order: Vec::new(),
            history: vec![vec![0; m.points()]; 2 * hand + 1],
            near: HashMap::new(),
            indices: vec![None; (m.points() + 1) * (m.points() + 1)],
            placing_units: true,
            stats: SearchStats::default(),
        })
    }

    /// The search without the placing units' files: every placing
    /// position is searched down to the moving phase, as a check of the
    /// units (and of the search).
    pub fn without_placing_units(self) -> Self {
        OpeningSearch {
            placing_units: false,
            ..self
        }
    }

    /// What the search did so far.
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            table_used: self.table.used,
            table_slots: self.table.slots.len() as u64,
            ..self.stats
        }
    }

    fn known(&mut self, c: Sector) -> Result<Option<Arc<Known>>, SectorError> {
        if let Some(k) = self.near.get(&c) {
            return Ok(k.clone());
        }
        let k = self.units.unit(c)?;
        self.near.insert(c, k.clone());
        Ok(k)
    }

    /// The value of `b` from a solved unit (its own file or, nothing in
    /// hand, its twin's), if one holds it. A moving-phase position no file
    /// holds is an error: the search needs every sector it reaches.
    fn exact(&mut self, b: &Board) -> Result<Option<Wdl>, SectorError> {
        let c = b.sector();
        if !c.is_moving() && !self.placing_units {
            return Ok(None);
        }
        if let Some(k) = self.known(c)? {
            let i = k.index.orbit(&self.units.binom, &self.units.group, b.occ);
            if let Some(v) = k.get(b.to_move, i) {
                return Ok(Some(v));
            }
        }
        let twin = b.swapped();
        if let Some(k) = self.known(c.swapped())? {
            let i = k
                .index
                .orbit(&self.units.binom, &self.units.group, twin.occ);
            if let Some(v) = k.get(twin.to_move, i) {
                return Ok(Some(v));
            }
        }
        if c.is_moving() {
            return Err(SectorError::Rules(format!(
                "the placing-phase search reaches moving-phase sector {c}, which `{}` does not hold: solve the moving phase first (`morrigo-sector solve-sectors RULESET --db DIR --max-pieces N`)",
                self.units.dir.display()
            )));
        }
        Ok(None)
    }

    /// The table's key of a placing position.
    fn key(&mut self, b: &Board) -> u64 {
        let [w, bl] = b.counts();
        let slot = w as usize * (self.units.points + 1) + bl as usize;
        let index = match &self.indices[slot] {
            Some(i) => i.clone(),
            None => self.indices[slot].insert(self.units.index(w, bl)).clone(),
        };
        let orbit = index.orbit(&self.units.binom, &self.units.group, b.occ);
        debug_assert!(orbit < 1 << 31 && w < 64 && bl < 64);
        let unit = (u64::from(w) << 14)
            | (u64::from(bl) << 8)
            | (u64::from(b.in_hand[0]) << 4)
            | u64::from(b.in_hand[1]);
        // 20 bits of unit, 1 of side, 31 of orbit, plus one so no key is 0.
        ((unit << 32 | u64::from(b.to_move) << 31 | orbit) + 1) & KEY_MASK
    }

    /// The value of `b` (a turn start with pieces in hand) for its player
    /// to move.
    pub fn value(&mut self, b: &Board) -> Result<Wdl, SectorError> {
        if let Some(v) = self.exact(b)? {
            return Ok(v);
        }
        Ok(if !self.at_least(b, Wdl::Draw, 0)? {
            Wdl::Loss
        } else if self.at_least(b, Wdl::Win, 0)? {
            Wdl::Win
        } else {
            Wdl::Draw
        })
    }

    /// Whether the player to move at `b` gets at least `t` (a draw or a
    /// win).
    fn at_least(&mut self, b: &Board, t: Wdl, ply: usize) -> Result<bool, SectorError> {
        let key = self.key(b);
        let (mut lower, mut upper) = self.table.get(key).unwrap_or((Wdl::Loss, Wdl::Win));
        if lower >= t {
            self.stats.table_hits += 1;
            return Ok(true);
        }
        if upper < t {
            self.stats.table_hits += 1;
            return Ok(false);
        }
        self.stats.nodes += 1;
        if self.succ.len() <= ply {
            self.succ.resize_with(ply + 1, Vec::new);
            self.order.resize_with(ply + 1, Vec::new);
        }
        let mut succ = std::mem::take(&mut self.succ[ply]);
        let mut order = std::mem::take(&mut self.order[ply]);
        let found = self.search(b, t, ply, &mut succ, &mut order);
        self.succ[ply] = succ;
        self.order[ply] = order;
        let found = found?;
        if found {
            lower = lower.max(t);
        } else {
            upper = upper.min(Wdl::from_u8(t as u8 - 1));
        }
        self.table.put(key, lower, upper);
        Ok(found)
    }

    fn search(
        &mut self,
        b: &Board,
        t: Wdl,
        ply: usize,
        succ: &mut Vec<(Board, u8)>,
        order: &mut Vec<(u32, u32)>,
    ) -> Result<bool, SectorError> {
        let me = b.to_move;
        if let Some(winner) = self.moves.successors(b, succ) {
            let v = match winner {
                Some(p) if p == me => Wdl::Win,
                Some(_) => Wdl::Loss,
                None => Wdl::Draw,
            };
            return Ok(v >= t);
        }
        let hand = b.in_hand[0] + b.in_hand[1];
        let opp = usize::from(me ^ 1);
        let history = (hand as usize).min(self.history.len() - 1);
        order.clear();
        // Every successor looked up first: one a unit or the table answers
        // well enough ends the search here.
        for (k, &(s, _)) in succ.iter().enumerate() {
            if s.in_hand[0] + s.in_hand[1] >= hand {
                return Err(SectorError::Rules(format!(
                    "{}: a turn with pieces in hand that places none (sector {} to {}); the placing-phase search needs every such turn to place a piece (for moves while pieces wait in hand, solve the placing units: `morrigo-sector solve-game`)",
                    self.moves.machine().rules.name,
                    b.sector(),
                    s.sector()
                )));
            }
            let same = s.to_move == me;
            // The successor's bounds for its own player to move.
            let (lo, hi) = match self.exact(&s)? {
                Some(v) => {
                    self.stats.unit_hits += 1;
                    (v, v)
                }
                // (A moving-phase successor is always answered above.)
                None => {
                    let key = self.key(&s);
                    self.table.get(key).unwrap_or((Wdl::Loss, Wdl::Win))
                }
            };
            let (lo, hi) = if same {
                (lo, hi)
            } else {
                (hi.flip(), lo.flip())
            };
            if lo >= t {
                return Ok(true);
            }
            if hi < t {
                continue;
            }
            // Captures first, then placements that threaten or block a
            // line, then the points that cut off most often.
            let opp_left = s.occ[opp].count_ones() + s.in_hand[opp];
            let mine = s.occ[usize::from(me)];
            let placed = mine & !b.occ[usize::from(me)];
            let (lines, score) = if placed == 0 {
                (0, 0)
            } else {
                let p = placed.trailing_zeros() as usize;
                let theirs = b.occ[opp];
                let lines = self.lines_at[p]
                    .iter()
                    .map(|&l| {
                        let threat = (mine & l).count_ones() == 2 && theirs & l == 0;
                        let block = (theirs & l).count_ones() == l.count_ones() - 1;
                        2 * u32::from(threat) + 3 * u32::from(block)
                    })
                    .sum::<u32>();
                (lines.min(7), self.history[history][p])
            };
            order.push((
                opp_left << 27 | (7 - lines) << 24 | (u32::MAX - score) >> 8,
                k as u32,
            ));
        }
        order.sort_unstable();
        for &(_, k) in order.iter() {
            let s = succ[k as usize].0;
            let holds = if s.to_move == me {
                self.at_least(&s, t, ply + 1)?
            } else {
                !self.at_least(&s, Wdl::from_u8(3 - t as u8), ply + 1)?
            };
            if holds {
                let placed = s.occ[usize::from(me)] & !b.occ[usize::from(me)];
                if placed != 0 {
                    let h = &mut self.history[history][placed.trailing_zeros() as usize];
                    *h = h.saturating_add(hand * hand);
                }
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Solve into `dir` every moving-phase sector the placing phase can reach
/// (up to the pieces a player starts with) that `dir` holds no file of,
/// nor, when the colours swap, of its twin; lower sectors first. Sectors
/// held are not read here: the search reads (and checks) the ones it
/// reaches. `each` is told of every sector solved or read on the way.
pub fn solve_moving_phase<'m>(
    m: &'m Machine<1>,
    dir: &Path,
    each: impl FnMut(&SectorStats) + Sync + 'm,
) -> Result<Vec<SectorStats>, SectorError> {
    let mut solver = Solver::new(m, Some(dir))?;
    solver.on_unit(each);
    let swap = solver.colour_swap();
    for planned in sector_plan(m, 0, m.rules.in_hand) {
        let c = planned.sector;
        let held = unit_path(dir, c).exists() || (swap && unit_path(dir, c.swapped()).exists());
        if !held {
            solver.solve(c.on_board[0], c.on_board[1])?;
        }
    }
    Ok(solver.log)
}

/// The start of `m`'s game as a board.
pub fn start_board(m: &Machine<1>) -> Board {
    Board::of_position(&m.initial().pos)
}

/// The value of `m`'s start and of each class of first moves, by search
/// over the units solved in `dir` (every moving-phase sector the placing
/// phase reaches must be there). Each first move proved is written to
/// [`OPENING_FILE`] in `dir`, so a rerun resumes at the next; `threads`
/// searches run at once (one first move each), sharing the units read and
/// `table_bytes` of transposition tables. `each` is told of every first
/// move as it is proved or read back.
pub fn search_opening(
    m: &Machine<1>,
    dir: &Path,
    table_bytes: u64,
    threads: usize,
    each: impl Fn(&FirstMove) + Sync,
) -> Result<OpeningResult, SectorError> {
    let start = start_board(m);
    let fingerprint = morrigo_solve::rules_fingerprint(&m.rules);
    let _lock =
        morrigo_store::lock_exclusive(&dir.join("opening.lock"), "this database directory")?;
    let mut first = OpeningSearch::new(m, dir, 1 << 16)?;
    let units = first.units.clone();
    let classes = first_move_classes(m, &mut first, &start)?;
    let path = dir.join(OPENING_FILE);
    let done = Mutex::new(if path.exists() {
        load(&path, fingerprint)?
    } else {
        HashMap::new()
    });
    let threads = threads.max(1);
    let work = FirstMoveWork {
        m,
        start,
        units,
        classes: &classes,
        done,
        path,
        fingerprint,
        per_search: table_bytes / threads as u64,
        each: &each,
        next: Mutex::new(0),
        out: Mutex::new((0..classes.len()).map(|_| None).collect()),
    };
    let results = work.prove_on(threads);
    opening_result(results, classes.len())
}

/// One class of first moves: the placements the board's symmetries map
/// onto each other.
struct FirstMoveClass {
    /// The table's key of the class's orbit.
    key: u64,
    /// The position after one of them.
    board: Board,
    /// The points of the class, by name.
    points: Vec<String>,
}

/// The classes of first moves from `start` (successors of one orbit), in
/// move generation order; an error if the game is over at the start.
fn first_move_classes(
    m: &Machine<1>,
    first: &mut OpeningSearch,
    start: &Board,
) -> Result<Vec<FirstMoveClass>, SectorError> {
    let mut succ = Vec::new();
    if let Some(winner) = first.moves.successors(start, &mut succ) {
        return Err(SectorError::Rules(format!(
            "{}: the game is over at the start ({winner:?})",
            m.rules.name
        )));
    }
    let mut classes: Vec<FirstMoveClass> = Vec::new();
    for &(s, _) in &succ {
        let key = first.key(&s);
        let placed = s.occ[usize::from(start.to_move)] & !start.occ[usize::from(start.to_move)];
        let name = if placed == 0 {
            "(no placement)".to_string()
        } else {
            m.rules.topology.names[placed.trailing_zeros() as usize].clone()
        };
        match classes.iter_mut().find(|c| c.key == key) {
            Some(c) => c.points.push(name),
            None => classes.push(FirstMoveClass {
                key,
                board: s,
                points: vec![name],
            }),
        }
    }
    Ok(classes)
}

/// The first moves' searches, shared by the threads that run them: the
/// classes, the next one to take, the values proved so far (and their
/// file), and each class's result.
struct FirstMoveWork<'a> {
    m: &'a Machine<1>,
    start: Board,
    units: Arc<Units>,
    classes: &'a [FirstMoveClass],
    /// Key → value, nodes: read back from the file, and written to it as
    /// each is proved.
    done: Mutex<HashMap<u64, (Wdl, u64)>>,
    path: PathBuf,
    fingerprint: u64,
    /// Each search's share of the transposition tables' bytes.
    per_search: u64,
    each: &'a (dyn Fn(&FirstMove) + Sync),
    next: Mutex<usize>,
    out: Mutex<Vec<Option<Result<FirstMove, SectorError>>>>,
}

impl<'a> FirstMoveWork<'a> {
    /// Run `threads` searchers to the end; each class's result in order
    /// (none for a class left when a search failed).
    fn prove_on(self, threads: usize) -> Vec<Result<FirstMove, SectorError>> {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| self.searcher());
            }
        });
        self.out
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .into_iter()
            .flatten()
            .collect()
    }

    /// One thread: takes the next class until none is left or one fails,
    /// with one search of its own (made when first needed).
    fn searcher(&self) {
        let mut search: Option<OpeningSearch> = None;
        loop {
            let k = {
                let mut n = self.next.lock().unwrap_or_else(|p| p.into_inner());
                let k = *n;
                *n += 1;
                k
            };
            let Some(class) = self.classes.get(k) else {
                break;
            };
            let stored = self
                .done
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(&class.key)
                .copied();
            let result = match stored {
                Some((value, nodes)) => Ok(FirstMove {
                    points: class.points.clone(),
                    value,
                    stats: SearchStats {
                        nodes,
                        ..SearchStats::default()
                    },
                    millis: 0,
                    loaded: true,
                }),
                None => self.prove(&mut search, class),
            };
            if let Ok(f) = &result {
                (self.each)(f);
            }
            let failed = result.is_err();
            self.out.lock().unwrap_or_else(|p| p.into_inner())[k] = Some(result);
            if failed {
                break;
            }
        }
    }

    /// Prove `class`'s value for the player who makes the move, and write
    /// it to the file with the others proved.
    fn prove(
        &self,
        search: &mut Option<OpeningSearch<'a>>,
        class: &FirstMoveClass,
    ) -> Result<FirstMove, SectorError> {
        let started = Instant::now();
        let search = match search {
            Some(s) => s,
            None => search.insert(OpeningSearch::with_units(
                self.m,
                self.units.clone(),
                self.per_search,
            )?),
        };
        let before = search.stats();
        let v = search.value(&class.board)?;
        let value = if class.board.to_move == self.start.to_move {
            v
        } else {
            v.flip()
        };
        let after = search.stats();
        let stats = SearchStats {
            nodes: after.nodes - before.nodes,
            unit_hits: after.unit_hits - before.unit_hits,
            table_hits: after.table_hits - before.table_hits,
            ..after
        };
        let mut done = self.done.lock().unwrap_or_else(|p| p.into_inner());
        done.insert(class.key, (value, stats.nodes));
        save(&self.path, self.fingerprint, &done)?;
        Ok(FirstMove {
            points: class.points.clone(),
            value,
            stats,
            millis: started.elapsed().as_millis() as u64,
            loaded: false,
        })
    }
}

/// The start's value from the first moves' results (the first error is
/// the answer), all `classes` of them proved.
fn opening_result(
    results: Vec<Result<FirstMove, SectorError>>,
    classes: usize,
) -> Result<OpeningResult, SectorError> {
    let mut first_moves = Vec::with_capacity(results.len());
    for r in results {
        first_moves.push(r?);
    }
    if first_moves.len() < classes {
        return Err(SectorError::Rules(
            "a search stopped before every first move was proved".into(),
        ));
    }
    let start_value = first_moves
        .iter()
        .map(|f| f.value)
        .max()
        .unwrap_or(Wdl::Loss);
    Ok(OpeningResult {
        start: start_value,
        first_moves,
    })
}

/// Write the first moves proved (key → value, nodes), sealed, atomically.
fn save(path: &Path, fingerprint: u64, done: &HashMap<u64, (Wdl, u64)>) -> Result<(), SectorError> {
    let io = |e| SectorError::Store(StoreError::io("write", path, e));
    let file = morrigo_store::AtomicFile::create(path)?;
    let mut w = morrigo_store::SealedWriter::new(&KIND, file);
    let mut entries: Vec<_> = done.iter().collect();
    entries.sort_unstable_by_key(|e| *e.0);
    let mut out = Vec::with_capacity(20 + 17 * entries.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&fingerprint.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for (key, (value, nodes)) in entries {
        out.extend_from_slice(&key.to_le_bytes());
        out.push(*value as u8);
        out.extend_from_slice(&nodes.to_le_bytes());
    }
    w.write_all(&out).map_err(io)?;
    w.finish().map_err(io)?.commit()?;
    Ok(())
}

fn load(path: &Path, fingerprint: u64) -> Result<HashMap<u64, (Wdl, u64)>, SectorError> {
    let bytes = morrigo_store::read_sealed(path, &KIND, 1 << 20)?;
    let damaged = |why: String| SectorError::Store(StoreError::damaged(path, why));
    if bytes.len() < 20 || &bytes[..8] != MAGIC {
        return Err(damaged("it is not a placing-phase search file".into()));
    }
    let fp = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    if fp != fingerprint {
        return Err(damaged(format!(
            "it was searched for other rules (fingerprint {fp:016x}, these rules {fingerprint:016x})"
        )));
    }
    let n = u32::from_le_bytes(bytes[16..20].try_into().expect("4 bytes")) as usize;
    let body = &bytes[20..];
    if body.len() != 17 * n {
        return Err(damaged(format!(
            "it holds {} bytes of entries, not the {} of {n}",
            body.len(),
            17 * n
        )));
    }
    let mut out = HashMap::new();
    for e in body.chunks_exact(17) {
        let key = u64::from_le_bytes(e[..8].try_into().expect("8 bytes"));
        if e[8] > 2 {
            return Err(damaged(format!("its value byte {} is not 0, 1 or 2", e[8])));
        }
        let nodes = u64::from_le_bytes(e[9..17].try_into().expect("8 bytes"));
        out.insert(key, (Wdl::from_u8(e[8]), nodes));
    }
    Ok(out)
}
