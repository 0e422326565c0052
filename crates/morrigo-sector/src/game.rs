//! Every position of a game from its start, by the sector solve.
//!
//! The placing phase is solved like the moving phase, in units of pieces
//! on the board and in hand ([`Sector`]): a placement leads to a unit with
//! one piece fewer in hand, a removal to one with fewer on the board, and
//! a slide while pieces wait in hand (Lasker Morris) stays in its unit and
//! is undone like any other. Solving the unit of the start position asks,
//! recursively, for the halves (by side to move) of the units its turns
//! lead to: under alternating placement one side to move per hand count,
//! which is all a game reaches. This replaces Gasser's search of the
//! placings over the databases with exact values for every placing
//! position, at the cost of one byte each.
//!
//! The result, [`GameTable`], answers the value of any turn-start position
//! in the units solved (board, hands, side to move) without further
//! solving: the alpha-beta agent reads it as its endgame table.

use crate::index::{Binomial, SectorIndex};
use crate::solver::{read_unit, unit_path, Halves, SectorError, SectorStats, Solver, UNSOLVED};
use crate::symmetry::Symmetry;
use crate::unmove::{Board, Sector};
use morrigo_engine::memory;
use morrigo_engine::{Machine, Move};
use morrigo_solve::Value;
use morrigo_store::StoreError;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What a whole-game file's trailer says it holds.
pub const KIND: morrigo_store::Kind = *b"mgame002";
const MAGIC: &[u8; 8] = b"MRGGAME2";
/// The whole-game file in a database directory (beside the sector files).
pub const GAME_FILE: &str = "game.tbl";
/// Bytes of one unit in the whole-game file: its four counts, halves and
/// orbits a half.
const UNIT_BYTES: usize = 5 + 8;

/// Exact values (as [`Value`] decodes them) of every turn-start position
/// of the units a game's start reaches.
pub struct GameTable {
    group: Vec<Symmetry>,
    binom: Binomial,
    points: usize,
    fingerprint: u64,
    /// Where the units' files are, when the table was solved into a
    /// directory: a unit not in memory is read from its file (seal and
    /// rules checked) when first asked for.
    dir: Option<PathBuf>,
    /// Every unit the start reaches, the halves solved and the orbits a
    /// half.
    list: Vec<(Sector, Halves, u64)>,
    units: Mutex<HashMap<Sector, Arc<Held>>>,
    /// The last unit file that could not be read, and why.
    read_error: Mutex<Option<String>>,
    /// The rules treat the players alike: a position absent is read off
    /// its colour-swapped twin (a unit solved that way reaches the twins
    /// of its twin's successors only).
    colour_swap: bool,
    start: u16,
}

/// One unit's index and values in memory.
struct Held {
    index: Arc<SectorIndex>,
    values: Vec<u16>,
}

impl std::fmt::Debug for GameTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameTable")
            .field("units", &self.list.len())
            .field("start", &Value::decode(self.start))
            .finish()
    }
}

/// How much a [`GameTable`] holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameSizes {
    /// Units with nothing in hand.
    pub moving_units: usize,
    /// Units with pieces in hand.
    pub placing_units: usize,
    /// Values held (orbits in the halves solved).
    pub values: u64,
}

impl GameTable {
    /// Solve the game of `m` (built from [`morrigo_solve::solver_rules`])
    /// from its start: every unit its turns reach, lowest first.
    pub fn solve(m: &Machine<1>) -> Result<GameTable, SectorError> {
        Self::solve_in(m, None)
    }

    /// [`GameTable::solve`] with a database directory: each unit is written
    /// there once solved (a killed run resumes at the first unfinished
    /// one), then the list of units reached and the start's value as
    /// `game.tbl`; a later run reads that back, checked, instead of
    /// solving, and each unit's file when a position of it is asked for.
    /// One run at a time writes a directory (`game.lock`).
    pub fn solve_in(m: &Machine<1>, dir: Option<&Path>) -> Result<GameTable, SectorError> {
        Self::solve_with(m, dir, |_| {})
    }

    /// [`GameTable::solve_in`], telling `each` of every unit as it is
    /// solved or read back.
    pub fn solve_with<'m>(
        m: &'m Machine<1>,
        dir: Option<&Path>,
        each: impl FnMut(&SectorStats) + Sync + 'm,
    ) -> Result<GameTable, SectorError> {
        let mut solver = Solver::new(m, dir)?;
        solver.on_unit(each);
        let _lock = match dir {
            Some(d) => Some(morrigo_store::lock_exclusive(
                &d.join("game.lock"),
                "this database directory",
            )?),
            None => None,
        };
        let fingerprint = morrigo_solve::rules_fingerprint(&m.rules);
        let (list, start) =
            if let Some(path) = dir.map(|d| d.join(GAME_FILE)).filter(|p| p.exists()) {
                load(&path, fingerprint)?
            } else {
                let start = solver.value(&crate::opening::start_board(m))?;
                // Every unit solved or read on the way (some may have left
                // memory since), with the halves it ended with.
                let mut reached: HashMap<Sector, (Halves, u64)> = HashMap::new();
                for st in &solver.log {
                    let halves = st.halves.iter().filter(|&&h| h).count() as u64;
                    reached.insert(st.sector(), (st.halves, st.orbits / halves.max(1)));
                }
                let mut list: Vec<(Sector, Halves, u64)> =
                    reached.into_iter().map(|(c, (h, n))| (c, h, n)).collect();
                list.sort_unstable();
                if let Some(d) = dir {
                    save(&d.join(GAME_FILE), fingerprint, &list, start)?;
                }
                (list, start)
            };
        Ok(Self::from_solver(m, solver, dir, list, start))
    }

    /// The finished database in `dir`, read only: its list of units now,
    /// each unit's file when a position of it is first asked for. Nothing
    /// is solved, created or locked (a finished database's files are
    /// sealed and never rewritten), so a server or agent may read a
    /// directory it cannot write, even while a solve adds to it. Every
    /// file read must resolve inside `dir` once links are resolved.
    pub fn open(m: &Machine<1>, dir: &Path) -> Result<GameTable, SectorError> {
        let given = dir;
        let dir = dir
            .canonicalize()
            .map_err(|e| StoreError::io("open", dir, e))?;
        let game = confined(&dir, &dir.join(GAME_FILE))?;
        if !game.exists() {
            return Err(SectorError::Rules(format!(
                "`{}` holds no solved game (no `{GAME_FILE}`); solve it with `morrigo solve {} --db {}`",
                given.display(),
                m.rules.name,
                given.display()
            )));
        }
        let (list, start) = load(&game, morrigo_solve::rules_fingerprint(&m.rules))?;
        let solver = Solver::new(m, None)?;
        Ok(Self::from_solver(m, solver, Some(&dir), list, start))
    }

    fn from_solver(
        m: &Machine<1>,
        solver: Solver<'_>,
        dir: Option<&Path>,
        list: Vec<(Sector, Halves, u64)>,
        start: u16,
    ) -> GameTable {
        let group = solver.group().to_vec();
        let colour_swap = solver.colour_swap();
        let (binom, units) = solver.into_units();
        let units = units
            .into_iter()
            .map(|(c, (index, values))| (c, Arc::new(Held { index, values })))
            .collect();
        GameTable {
            group,
            binom,
            points: m.points(),
            fingerprint: morrigo_solve::rules_fingerprint(&m.rules),
            dir: dir.map(Path::to_path_buf),
            list,
            units: Mutex::new(units),
            read_error: Mutex::new(None),
            colour_swap,
            start,
        }
    }

    /// The value for the player who plays `mv` at `s` (a turn start the
    /// table holds): the position after it, with the removals it owes
    /// played out as best for that player, one ply each. `None` where the
    /// table lacks a position on the way.
    pub fn after<const W: usize>(
        &self,
        m: &Machine<W>,
        s: &mut morrigo_engine::State<W>,
        mv: Move,
    ) -> Option<Value> {
        let me = s.pos.to_move;
        let u = m.apply(s, mv);
        let v = self.reached(m, s, me).map(later);
        m.undo(s, u);
        v
    }

    /// The value for `me` of `s`, reached by a ply of `me`'s.
    fn reached<const W: usize>(
        &self,
        m: &Machine<W>,
        s: &mut morrigo_engine::State<W>,
        me: u8,
    ) -> Option<Value> {
        let for_me = |v: Value, to_move: u8| if to_move == me { v } else { v.flip() };
        let mut moves = Vec::new();
        if let Some(o) = m.legal_moves(s, &mut moves) {
            return Some(match o.winner {
                Some(w) if w == me => Value::Win(0),
                Some(_) => Value::Loss(0),
                None => Value::Draw,
            });
        }
        if s.pos.pending == 0 {
            return self.value(&s.pos).map(|v| for_me(v, s.pos.to_move));
        }
        // Removals owed: the player owing them picks the best for them.
        let owing = s.pos.to_move;
        let mut best: Option<Value> = None;
        for mv in moves {
            let v = for_me(self.after(m, s, mv)?, owing);
            if best.is_none_or(|b| for_me(v, owing).preference() > for_me(b, owing).preference()) {
                best = Some(v);
            }
        }
        best
    }

    /// The value of the start position for its player to move.
    pub fn start_value(&self) -> Value {
        Value::decode(self.start)
    }

    /// Why the last unit file asked for could not be read (a value then
    /// answered `None` for that reason, not for a position unreached).
    pub fn read_error(&self) -> Option<String> {
        self.read_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Units and values held.
    pub fn sizes(&self) -> GameSizes {
        let mut sizes = GameSizes::default();
        for (c, halves, orbits) in &self.list {
            if c.is_moving() {
                sizes.moving_units += 1;
            } else {
                sizes.placing_units += 1;
            }
            sizes.values += halves.iter().filter(|&&h| h).count() as u64 * orbits;
        }
        sizes
    }

    /// The value of a turn-start position (no removal owed) for its player
    /// to move; `None` where the table does not hold it (a removal owed, a
    /// unit or half no game from the start reaches, a board of more than
    /// 64 points).
    pub fn value<const W: usize>(&self, pos: &morrigo_engine::Position<W>) -> Option<Value> {
        if W != 1 || pos.pending > 0 {
            return None;
        }
        let b = Board::of_position(pos);
        self.held(&b)
            .or_else(|| self.colour_swap.then(|| self.held(&b.swapped())).flatten())
            .map(Value::decode)
    }

    /// The stored value of `b`, if its unit and half are held.
    fn held(&self, b: &Board) -> Option<u16> {
        let unit = self.unit(b.sector())?;
        let i = unit.index.orbit(&self.binom, &self.group, b.occ);
        let v = unit.values[(u64::from(b.to_move) * unit.index.orbits + i) as usize];
        (v != UNSOLVED).then_some(v)
    }

    /// Unit `c` from memory, or read from its file; at most a third of the
    /// memory limit is held this way (the units read are dropped for the
    /// next when it is full).
    fn unit(&self, c: Sector) -> Option<Arc<Held>> {
        let mut units = self.units.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(u) = units.get(&c) {
            return Some(u.clone());
        }
        let dir = self.dir.as_deref()?;
        self.list.binary_search_by(|e| e.0.cmp(&c)).ok()?;
        let index = Arc::new(SectorIndex::new(
            &self.binom,
            &self.group,
            self.points,
            c.on_board[0] as usize,
            c.on_board[1] as usize,
        ));
        let read = dir
            .canonicalize()
            .map_err(|e| SectorError::Store(StoreError::io("open", dir, e)))
            .and_then(|d| confined(&d, &unit_path(&d, c)))
            .and_then(|path| read_unit(&path, self.fingerprint, c, &index));
        let (values, _) = match read {
            Ok(read) => read,
            Err(e) => {
                *self.read_error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e.to_string());
                return None;
            }
        };
        let held: u64 = units.values().map(|u| 2 * u.values.len() as u64).sum();
        if held + 2 * values.len() as u64 > memory::limit().0 / 3 {
            units.clear();
        }
        let unit = Arc::new(Held { index, values });
        units.insert(c, unit.clone());
        Some(unit)
    }
}

/// `path` (a file of `dir`, which is canonical) with its links resolved,
/// if it stays inside `dir`; a file not there yet is returned as it is.
/// A database directory's files are its own: a link leading out of it is
/// refused, so a server given the directory reads nothing else.
fn confined(dir: &Path, path: &Path) -> Result<PathBuf, SectorError> {
    let outside = || {
        SectorError::Store(StoreError::damaged(
            path,
            format!(
                "it is a link that does not lead to a file inside the database directory `{}`, so it is not followed",
                dir.display()
            ),
        ))
    };
    match path.canonicalize() {
        Ok(real) if real.starts_with(dir) => Ok(real),
        Ok(_) => Err(outside()),
        // A dangling link is refused the same way, its target unsaid.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => match std::fs::symlink_metadata(path)
        {
            Ok(_) => Err(outside()),
            Err(_) => Ok(path.to_path_buf()),
        },
        Err(e) => Err(SectorError::Store(StoreError::io("open", path, e))),
    }
}

/// A value one ply further from the end.
fn later(v: Value) -> Value {
    match v {
        Value::Win(d) => Value::Win(d + 1),
        Value::Loss(d) => Value::Loss(d + 1),
        Value::Draw => Value::Draw,
    }
}

/// Write the units reached (sorted) and the start's value, sealed,
/// atomically.
fn save(
    path: &Path,
    fingerprint: u64,
    units: &[(Sector, Halves, u64)],
    start: u16,
) -> Result<(), SectorError> {
    let io = |e| SectorError::Store(StoreError::io("write", path, e));
    let file = morrigo_store::AtomicFile::create(path)?;
    let mut w = morrigo_store::SealedWriter::new(&KIND, file);
    let mut out = Vec::with_capacity(22 + UNIT_BYTES * units.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&fingerprint.to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&(units.len() as u32).to_le_bytes());
    for (c, h, orbits) in units {
        out.extend(c.on_board.iter().chain(&c.in_hand).map(|&k| k as u8));
        out.push(u8::from(h[0]) | u8::from(h[1]) << 1);
        out.extend_from_slice(&orbits.to_le_bytes());
    }
    w.write_all(&out).map_err(io)?;
    w.finish().map_err(io)?.commit()?;
    Ok(())
}

/// Read back a whole-game file: the units it reached (with their halves)
/// and the value of the start.
type Listed = (Vec<(Sector, Halves, u64)>, u16);

fn load(path: &Path, fingerprint: u64) -> Result<Listed, SectorError> {
    let bytes = morrigo_store::read_sealed(path, &KIND, 1 << 24)?;
    let damaged = |why: String| SectorError::Store(StoreError::damaged(path, why));
    if bytes.len() < 22 || &bytes[..8] != MAGIC {
        return Err(damaged("it is not a whole-game table".into()));
    }
    let fp = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    if fp != fingerprint {
        return Err(damaged(format!(
            "it was solved for other rules (fingerprint {fp:016x}, these rules {fingerprint:016x})"
        )));
    }
    let start = u16::from_le_bytes([bytes[16], bytes[17]]);
    let n = u32::from_le_bytes(bytes[18..22].try_into().expect("4 bytes")) as usize;
    let body = &bytes[22..];
    if body.len() != n * UNIT_BYTES {
        return Err(damaged(format!(
            "it lists {n} units in {} bytes, not {}",
            body.len(),
            n * UNIT_BYTES
        )));
    }
    let mut units = Vec::with_capacity(n);
    for e in body.chunks_exact(UNIT_BYTES) {
        let c = Sector {
            on_board: [u32::from(e[0]), u32::from(e[1])],
            in_hand: [u32::from(e[2]), u32::from(e[3])],
        };
        let halves = [e[4] & 1 == 1, e[4] & 2 == 2];
        if e[4] > 3 || halves == [false; 2] {
            return Err(damaged(format!("unit {c} has the halves byte {}", e[4])));
        }
        let orbits = u64::from_le_bytes(e[5..13].try_into().expect("8 bytes"));
        units.push((c, halves, orbits));
    }
    if !units.is_sorted() {
        return Err(damaged("its units are not in order".into()));
    }
    Ok((units, start))
}
