//! Every position of a game from its start: the moving phase by the sector
//! solve, the placing phase by forward recursion over the hands.
//!
//! While pieces are placed the hands only shrink — each turn there places a
//! piece — so the placing positions form no cycle and each one's value is
//! its best successor's, computed once and memoised per orbit (the board's
//! symmetries hold in every phase: they are computed from the rules as a
//! whole). This is Gasser's split (databases for the moves, the placings
//! searched over them), exact, with no search horizon. A turn that moves a
//! piece while pieces remain in hand (Lasker Morris) could repeat a
//! position, and is refused with the reason rather than recursed into.
//!
//! The result, [`GameTable`], answers the value of any turn-start position
//! reached from the start (board, hands, side to move) without further
//! solving: the alpha-beta agent reads it as its endgame table.

use crate::index::{Binomial, SectorIndex};
use crate::solver::{SectorError, Solver};
use crate::symmetry::Symmetry;
use morrigo_engine::{Machine, Move, MoveKind, State};
use morrigo_solve::Value;
use morrigo_store::StoreError;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// What a whole-game file's trailer says it holds.
pub const KIND: morrigo_store::Kind = *b"mgame001";
const MAGIC: &[u8; 8] = b"MRGGAME1";
/// The whole-game file in a database directory (beside the sector files).
pub const GAME_FILE: &str = "game.tbl";
/// Bytes of one placing entry on disk: two point sets, two hands, the
/// side to move and the value.
const ENTRY_BYTES: usize = 8 + 8 + 2 + 2 + 1 + 2;

/// A placing position, canonical under the board's symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    occ: [u64; 2],
    in_hand: [u16; 2],
    to_move: u8,
}

/// Exact values (as [`Value`] decodes them) of every turn-start position
/// reached from the start of a game.
pub struct GameTable {
    group: Vec<Symmetry>,
    binom: Binomial,
    units: HashMap<[u32; 2], (Arc<SectorIndex>, Vec<u16>)>,
    placing: HashMap<Key, u16>,
    start: u16,
}

impl std::fmt::Debug for GameTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameTable")
            .field("units", &self.units.len())
            .field("placing", &self.placing.len())
            .field("start", &Value::decode(self.start))
            .finish()
    }
}

/// Positions on the path being solved: reached again, the placing turns
/// would cycle.
const IN_PROGRESS: u16 = u16::MAX;

/// The most placing orbits memoised: a game whose placing phase is larger
/// (Nine Men's Morris has billions) is refused instead of filling memory.
pub const MAX_PLACING_ORBITS: usize = 20_000_000;

impl GameTable {
    /// Solve the game of `m` (built from [`morrigo_solve::solver_rules`])
    /// from its start: every moving-phase sector the placings lead to, then
    /// every placing position.
    pub fn solve(m: &Machine<1>) -> Result<GameTable, SectorError> {
        Self::solve_in(m, None)
    }

    /// [`GameTable::solve`] with a database directory: each moving-phase
    /// sector is written there once solved (a killed run resumes at the
    /// first unfinished one), then the placing positions and the list of
    /// sectors reached as `game.tbl`; a later run reads them back, checked,
    /// instead of solving. One run at a time writes a directory
    /// (`game.lock`).
    pub fn solve_in(m: &Machine<1>, dir: Option<&Path>) -> Result<GameTable, SectorError> {
        let mut solver = Solver::new(m, dir)?;
        let _lock = match dir {
            Some(d) => Some(morrigo_store::lock_exclusive(
                &d.join("game.lock"),
                "this database directory",
            )?),
            None => None,
        };
        let fingerprint = morrigo_solve::rules_fingerprint(&m.rules);
        if let Some(path) = dir.map(|d| d.join(GAME_FILE)).filter(|p| p.exists()) {
            let (units, placing, start) = load(&path, fingerprint)?;
            for c in units {
                solver.solve(c[0], c[1])?;
            }
            let group = solver.group().to_vec();
            let (binom, units) = solver.into_units();
            return Ok(GameTable {
                group,
                binom,
                units,
                placing,
                start,
            });
        }
        let mut walk = Walk {
            m,
            group: solver.group().to_vec(),
            placing: HashMap::new(),
            stack: Vec::new(),
        };
        let mut s = m.initial();
        let start = walk.value(&mut solver, &mut s, 0)?;
        let (binom, units) = solver.into_units();
        let table = GameTable {
            group: walk.group,
            binom,
            units,
            placing: walk.placing,
            start,
        };
        if let Some(d) = dir {
            table.save(&d.join(GAME_FILE), fingerprint)?;
        }
        Ok(table)
    }

    /// Write the placing positions and the sectors reached, sealed,
    /// atomically (sorted, so the same game writes the same bytes).
    fn save(&self, path: &Path, fingerprint: u64) -> Result<(), SectorError> {
        let io = |e| SectorError::Store(StoreError::io("write", path, e));
        let file = morrigo_store::AtomicFile::create(path)?;
        let mut w = morrigo_store::SealedWriter::new(&KIND, file);
        let mut units: Vec<[u32; 2]> = self.units.keys().copied().collect();
        units.sort_unstable();
        let mut entries: Vec<(&Key, &u16)> = self.placing.iter().collect();
        entries.sort_unstable_by_key(|(k, _)| (k.occ, k.in_hand, k.to_move));
        let mut head = Vec::new();
        head.extend_from_slice(MAGIC);
        head.extend_from_slice(&fingerprint.to_le_bytes());
        head.extend_from_slice(&self.start.to_le_bytes());
        head.extend_from_slice(&(units.len() as u32).to_le_bytes());
        for c in &units {
            head.push(c[0] as u8);
            head.push(c[1] as u8);
        }
        head.extend_from_slice(&(entries.len() as u64).to_le_bytes());
        w.write_all(&head).map_err(io)?;
        let mut buf = Vec::with_capacity(ENTRY_BYTES << 12);
        for chunk in entries.chunks(1 << 12) {
            buf.clear();
            for (k, v) in chunk {
                buf.extend_from_slice(&k.occ[0].to_le_bytes());
                buf.extend_from_slice(&k.occ[1].to_le_bytes());
                buf.extend_from_slice(&k.in_hand[0].to_le_bytes());
                buf.extend_from_slice(&k.in_hand[1].to_le_bytes());
                buf.push(k.to_move);
                buf.extend_from_slice(&v.to_le_bytes());
            }
            w.write_all(&buf).map_err(io)?;
        }
        w.finish().map_err(io)?.commit()?;
        Ok(())
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

    /// Placing orbits and moving-phase units held.
    pub fn sizes(&self) -> (usize, usize) {
        (self.placing.len(), self.units.len())
    }

    /// The value of a turn-start position (no removal owed) for its player
    /// to move; `None` where the table does not hold it (a removal owed, a
    /// position not reached from the start, a board of more than 64 points).
    pub fn value<const W: usize>(&self, pos: &morrigo_engine::Position<W>) -> Option<Value> {
        if W != 1 || pos.pending > 0 {
            return None;
        }
        let occ = [pos.occ[0].0[0], pos.occ[1].0[0]];
        if pos.in_hand == [0, 0] {
            let (index, values) = self.units.get(&pos.on_board)?;
            let i = index.orbit(&self.binom, &self.group, occ);
            let v = values[(u64::from(pos.to_move & 1) * index.orbits + i) as usize];
            return Some(Value::decode(v));
        }
        let key = canonical(&self.group, occ, pos.in_hand, pos.to_move)?;
        self.placing.get(&key).map(|&v| Value::decode(v))
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

type Loaded = (Vec<[u32; 2]>, HashMap<Key, u16>, u16);

/// Read back a whole-game file: the sectors it reached, the placing
/// positions and the value of the start.
fn load(path: &Path, fingerprint: u64) -> Result<Loaded, SectorError> {
    let bytes = morrigo_store::read_sealed(path, &KIND, 1 << 32)?;
    let damaged = |why: String| SectorError::Store(StoreError::damaged(path, why));
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8], SectorError> {
        let part = bytes.get(at..at + n).ok_or_else(|| {
            damaged(format!(
                "it ends after {} bytes, inside a record",
                bytes.len()
            ))
        })?;
        at += n;
        Ok(part)
    };
    let u64_of = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    if take(8)? != MAGIC {
        return Err(damaged("it is not a whole-game table".into()));
    }
    let fp = u64_of(take(8)?);
    if fp != fingerprint {
        return Err(damaged(format!(
            "it was solved for other rules (fingerprint {fp:016x}, these rules {fingerprint:016x})"
        )));
    }
    let start = u16::from_le_bytes(take(2)?.try_into().expect("2 bytes"));
    let n_units = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
    let mut units = Vec::new();
    for _ in 0..n_units {
        let c = take(2)?;
        units.push([u32::from(c[0]), u32::from(c[1])]);
    }
    let n = u64_of(take(8)?);
    if n > MAX_PLACING_ORBITS as u64 {
        return Err(damaged(format!(
            "it claims {n} placing positions, more than {MAX_PLACING_ORBITS}"
        )));
    }
    let mut placing = HashMap::with_capacity(n as usize);
    for _ in 0..n {
        let e = take(ENTRY_BYTES)?;
        let key = Key {
            occ: [u64_of(&e[0..8]), u64_of(&e[8..16])],
            in_hand: [
                u16::from_le_bytes([e[16], e[17]]),
                u16::from_le_bytes([e[18], e[19]]),
            ],
            to_move: e[20],
        };
        placing.insert(key, u16::from_le_bytes([e[21], e[22]]));
    }
    if at != bytes.len() {
        return Err(damaged(format!(
            "{} bytes follow the last record",
            bytes.len() - at
        )));
    }
    Ok((units, placing, start))
}

fn canonical(group: &[Symmetry], occ: [u64; 2], in_hand: [u32; 2], to_move: u8) -> Option<Key> {
    let mut best = occ;
    for g in &group[1..] {
        let img = [g.apply(occ[0]), g.apply(occ[1])];
        if img < best {
            best = img;
        }
    }
    Some(Key {
        occ: best,
        in_hand: [
            u16::try_from(in_hand[0]).ok()?,
            u16::try_from(in_hand[1]).ok()?,
        ],
        to_move,
    })
}

/// The forward recursion's state: the memo and move buffers per depth.
struct Walk<'m> {
    m: &'m Machine<1>,
    group: Vec<Symmetry>,
    placing: HashMap<Key, u16>,
    stack: Vec<Vec<Move>>,
}

impl Walk<'_> {
    /// The value of turn-start position `s` (encoded as the sector files
    /// encode it), `depth` turns from the start.
    fn value(
        &mut self,
        solver: &mut Solver,
        s: &mut State<1>,
        depth: usize,
    ) -> Result<u16, SectorError> {
        let p = &s.pos;
        if p.in_hand == [0, 0] {
            let board = crate::unmove::Board {
                occ: [p.occ[0].0[0], p.occ[1].0[0]],
                to_move: p.to_move,
            };
            return solver.value(&board);
        }
        let key = canonical(
            &self.group,
            [p.occ[0].0[0], p.occ[1].0[0]],
            p.in_hand,
            p.to_move,
        )
        .ok_or_else(|| SectorError::Rules("a hand holds more than 65535 pieces".into()))?;
        match self.placing.get(&key) {
            Some(&IN_PROGRESS) => {
                return Err(SectorError::Rules(format!(
                    "{}: a turn with pieces in hand can lead back to an earlier position (a piece moves while others wait in hand), so the placing phase is not solved by forward recursion",
                    self.m.rules.name
                )))
            }
            Some(&v) => return Ok(v),
            None => {}
        }
        if self.placing.len() >= MAX_PLACING_ORBITS {
            return Err(SectorError::Rules(format!(
                "{}: the placing phase has more than {MAX_PLACING_ORBITS} positions up to symmetry (MAX_PLACING_ORBITS); solve its sectors with `morrigo-sector solve-sectors`",
                self.m.rules.name
            )));
        }
        self.placing.insert(key, IN_PROGRESS);
        let me = s.pos.to_move;
        let mut best: Option<Value> = None;
        let mut children = Vec::new();
        if let Some(winner) = self.turns(s, depth, &mut children) {
            best = Some(match winner {
                Some(w) if w == me => Value::Win(0),
                Some(_) => Value::Loss(0),
                None => Value::Draw,
            });
        }
        let hand = |st: &State<1>| st.pos.in_hand[me as usize & 1];
        if children
            .iter()
            .any(|(c, _)| hand(c) == hand(s) && c.pos.in_hand != [0, 0])
        {
            // Nothing placed: a slide or flight with pieces in hand.
            return Err(SectorError::Rules(format!(
                "{}: a turn with pieces in hand moves a piece instead of placing one (Lasker-style rules), so the placing phase is not solved by forward recursion",
                self.m.rules.name
            )));
        }
        for (mut child, plies) in children {
            let v = Value::decode(self.value(solver, &mut child, depth + 1)?);
            let v = if child.pos.to_move == me { v } else { v.flip() };
            let v = match v {
                Value::Win(d) => Value::Win(d + plies),
                Value::Loss(d) => Value::Loss(d + plies),
                Value::Draw => Value::Draw,
            };
            if best.is_none_or(|b| v.preference() > b.preference()) {
                best = Some(v);
            }
        }
        let v = encode(best.unwrap_or(Value::Draw));
        self.placing.insert(key, v);
        Ok(v)
    }

    /// The turn-start positions after each turn from `s` (a move and the
    /// removals it owes) with the plies the turn took; the winner when the
    /// game is over at `s` (`Some(None)` for a draw or no move at all).
    fn turns(
        &mut self,
        s: &mut State<1>,
        depth: usize,
        out: &mut Vec<(State<1>, u32)>,
    ) -> Option<Option<u8>> {
        if self.stack.len() <= depth {
            self.stack.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.stack[depth]);
        let over = self.m.legal_moves(s, &mut moves);
        let result = match over {
            Some(o) => Some(o.winner),
            None if moves.is_empty() => Some(None),
            None => {
                for &mv in &moves {
                    let u = self.m.apply(s, mv);
                    if s.pos.pending == 0 {
                        out.push((s.clone(), 1));
                    } else {
                        // The removals owed, each a ply, finished here.
                        let mut rest = Vec::new();
                        self.removals(s, depth + 1, 1, &mut rest);
                        out.extend(rest);
                    }
                    self.m.undo(s, u);
                }
                None
            }
        };
        self.stack[depth] = moves;
        result
    }

    fn removals(
        &mut self,
        s: &mut State<1>,
        depth: usize,
        plies: u32,
        out: &mut Vec<(State<1>, u32)>,
    ) {
        if s.pos.pending == 0 {
            out.push((s.clone(), plies));
            return;
        }
        if self.stack.len() <= depth {
            self.stack.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.stack[depth]);
        self.m.legal_moves(s, &mut moves);
        for &mv in moves.iter().filter(|mv| mv.kind == MoveKind::Remove) {
            let u = self.m.apply(s, mv);
            self.removals(s, depth + 1, plies + 1, out);
            self.m.undo(s, u);
        }
        self.stack[depth] = moves;
    }
}

fn encode(v: Value) -> u16 {
    match v {
        Value::Draw => 0,
        Value::Win(d) => (2 * d + 1).min(u32::from(u16::MAX - 2)) as u16,
        Value::Loss(d) => (2 * d + 2).min(u32::from(u16::MAX - 1)) as u16,
    }
}
