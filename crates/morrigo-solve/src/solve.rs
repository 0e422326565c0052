//! Retrograde analysis: explore the reachable positions breadth-first
//! (discovering the segments of the index space as they appear), link
//! every position to its predecessors (a reverse-edge table built by a
//! second forward pass), then propagate wins and losses backwards from the
//! finished games, one distance at a time. Each step runs in parallel.

use crate::layout::{Layout, SegKey, Segment, MAX_INDEX};
use crate::table::{Reached, Table, Value};
use morrigo_engine::memory::{self, OutOfMemory};
use morrigo_engine::{Bits, Machine, Move, State};
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};

/// The stage a progress report is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Positions expanded so far (the total is not known yet).
    Explore,
    /// Positions linked to their predecessors, of the reachable ones.
    Link,
    /// Positions decided (won or lost) so far.
    Solve,
}

/// What the caller hears while a solve runs: progress (from any thread,
/// at least every few thousand positions) and the counts once the
/// reachable positions are known, before the tables are built.
pub trait Observer: Sync {
    /// `done` of `total` in this stage (`total` 0: not known yet).
    fn progress(&self, _stage: Stage, _done: u64, _total: u64) {}
    /// The exploration is complete: `stats` holds the counts and the memory
    /// the solve will need (values not found yet).
    fn explored(&self, _stats: &Stats) {}
}

/// An observer that hears nothing.
pub struct Quiet;
impl Observer for Quiet {}

/// Bytes per index of the index space while exploring: a reached bit, the
/// value (u16), the count of undecided successors (u16), the number of
/// predecessors (u32).
pub const BYTES_PER_INDEX: f64 = 8.125;
/// Bytes per reached position once the tables are packed: the same three
/// numbers; and per index, the reached bit and its rank directory.
pub const BYTES_PER_POSITION: u64 = 8;
pub const BYTES_PER_PACKED_INDEX: f64 = 0.1875;
/// Bytes per move (a predecessor link, u32).
pub const BYTES_PER_EDGE: u64 = 4;

/// Memory the exploration takes for an index space.
fn explore_memory(index: u64) -> u64 {
    (index as f64 * BYTES_PER_INDEX) as u64
}

/// Peak memory of a solve: the exploration's tables while they are packed
/// (one packed array at a time), or the packed tables with the links.
pub fn memory_needed(index: u64, reachable: u64, edges: u64) -> u64 {
    let packing = explore_memory(index) + reachable * 4;
    let solving = (index as f64 * BYTES_PER_PACKED_INDEX) as u64
        + reachable * BYTES_PER_POSITION
        + edges * BYTES_PER_EDGE;
    packing.max(solving)
}

/// The most plies a distance may count (values are stored in 15 bits).
pub const MAX_DISTANCE: u32 = (u16::MAX as u32 - 2) / 2;

/// Why a solve stopped without a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The solve would need more memory than allowed (`complete`: the
    /// exploration finished, so the numbers are exact, not lower bounds).
    Memory {
        /// Size of the index space.
        index: u64,
        /// Positions reached.
        reachable: u64,
        /// Moves between reached positions.
        edges: u64,
        /// Bytes the solve would need.
        needed: u64,
        /// Bytes it was allowed (`max_bytes`).
        limit: u64,
        /// Whether the exploration finished.
        complete: bool,
    },
    /// The index space would pass [`MAX_INDEX`] positions.
    IndexSpace {
        /// Size of the index space before the segment that would pass it
        /// (`u64::MAX` when the start's own segment does not fit).
        index: u64,
    },
    /// More moves than the links can address (2^32).
    TooManyMoves {
        /// Moves between the reachable positions.
        edges: u64,
    },
    /// A position with more legal moves than a counter holds.
    TooManyMovesAt {
        /// Legal moves at that position.
        moves: usize,
    },
    /// A distance past [`MAX_DISTANCE`] plies.
    TooDeep,
    /// An allocation the process's memory budget refused
    /// ([`morrigo_engine::memory`]), before it was made.
    Budget(OutOfMemory),
}

impl From<OutOfMemory> for SolveError {
    fn from(e: OutOfMemory) -> Self {
        SolveError::Budget(e)
    }
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Memory { needed, limit, .. } => write!(
                f,
                "the solve needs {needed} bytes of memory, more than the limit of {limit}"
            ),
            SolveError::IndexSpace { .. } => {
                write!(f, "the index space passes {MAX_INDEX} positions")
            }
            SolveError::TooManyMoves { edges } => {
                write!(
                    f,
                    "{edges} moves, more than the 4294967295 the solver links"
                )
            }
            SolveError::TooManyMovesAt { moves } => write!(
                f,
                "a position has {moves} legal moves, more than the 65535 the solver counts"
            ),
            SolveError::TooDeep => write!(
                f,
                "a game lasts more than {MAX_DISTANCE} plies under perfect play"
            ),
            SolveError::Budget(e) => write!(f, "{e}"),
        }
    }
}

/// What the solve found besides the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions reachable from the start.
    pub reachable: u64,
    /// Size of the index space (reachable segments, every arrangement).
    pub index: u64,
    /// Segments of the index space: groups of positions with the same
    /// counts (pieces on the board and in hand, player to move, removals
    /// owed).
    pub segments: u64,
    /// Moves between reachable positions.
    pub edges: u64,
    /// Reachable positions won for the player to move.
    pub wins: u64,
    /// Reachable positions lost for the player to move.
    pub losses: u64,
    /// Reachable positions drawn (neither side can force a win).
    pub draws: u64,
    /// Peak bytes of the solver's own tables.
    pub memory: u64,
}

/// Per-thread scratch: a state to load positions into and a move buffer.
struct Scratch<const W: usize> {
    s: State<W>,
    moves: Vec<Move>,
}

impl<const W: usize> Scratch<W> {
    fn new(m: &Machine<W>) -> Self {
        Scratch {
            s: m.initial(),
            moves: Vec::new(),
        }
    }

    /// Make the scratch state the position at `rank` of `seg`. Counters
    /// that only history rules read stay as they are: no rule left reads them.
    fn load(&mut self, m: &Machine<W>, layout: &Layout, seg: &Segment, rank: u64) {
        let occ: [Bits<W>; 2] = layout.unrank(seg, rank);
        set_position(m, &mut self.s, &seg.key, occ);
    }
}

/// Put a keyed position into a state.
pub(crate) fn set_position<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    key: &SegKey,
    occ: [Bits<W>; 2],
) {
    let pos = &mut s.pos;
    pos.occ = occ;
    pos.on_board = [u32::from(key.on_board[0]), u32::from(key.on_board[1])];
    pos.in_hand = key.in_hand;
    pos.lost = [0, 1].map(|p| {
        if m.rules.unlimited_hand {
            0
        } else {
            m.rules
                .in_hand
                .saturating_sub(pos.on_board[p] + pos.in_hand[p])
        }
    });
    pos.to_move = key.to_move;
    pos.pending = key.pending;
    pos.lines_formed = key.lines_formed;
}

#[inline]
pub(crate) fn win(d: u32) -> u16 {
    (2 * d + 1) as u16
}

#[inline]
pub(crate) fn loss(d: u32) -> u16 {
    (2 * d + 2) as u16
}

// The crate's only unsafe code (`AtomicU32::from_mut_slice` is unstable).
#[allow(unsafe_code)]
fn atomics_u32(v: &mut [u32]) -> &[AtomicU32] {
    // SAFETY: AtomicU32 has the same size and alignment as u32, and the
    // exclusive borrow guarantees no other access while the atomics live.
    unsafe { &*(v as *mut [u32] as *const [AtomicU32]) }
}

/// Explored positions and the arrays the later stages fill.
struct Explored {
    layout: Layout,
    reached: Vec<AtomicU64>,
    value: Vec<AtomicU16>,
    count: Vec<AtomicU16>,
    indeg: Vec<AtomicU32>,
    reachable: u64,
    edges: u64,
}

impl Explored {
    /// Grow the tables to the index space, all four reserved from the
    /// budget at once before any is grown, each to its exact size.
    fn grow(&mut self) -> Result<(), OutOfMemory> {
        let total = self.layout.total as usize;
        let what = "growing the exploration's tables to the index space";
        let words = total.div_ceil(64);
        let bytes = (words - self.reached.len()) as u64 * 8
            + (total - self.value.len()) as u64 * (2 + 2 + 4);
        memory::reserve(bytes, what)?;
        let exact = |e| memory::refused(what, e);
        let n = self.reached.len();
        self.reached
            .try_reserve_exact(words - n)
            .map_err(|_| exact(bytes))?;
        self.reached.resize_with(words, || AtomicU64::new(0));
        let n = self.value.len();
        self.value
            .try_reserve_exact(total - n)
            .map_err(|_| exact(bytes))?;
        self.value.resize_with(total, || AtomicU16::new(0));
        self.count
            .try_reserve_exact(total - n)
            .map_err(|_| exact(bytes))?;
        self.count.resize_with(total, || AtomicU16::new(0));
        self.indeg
            .try_reserve_exact(total - n)
            .map_err(|_| exact(bytes))?;
        self.indeg.resize_with(total, || AtomicU32::new(0));
        Ok(())
    }

    /// Mark reached; true if it was not.
    #[inline]
    fn reach(&self, i: u64) -> bool {
        let bit = 1u64 << (i % 64);
        self.reached[(i / 64) as usize].fetch_or(bit, Relaxed) & bit == 0
    }
}

const CHUNK: usize = 2048;

/// What the position lists of a breadth-first step are, for refusals.
const NEXT: &str = "the list of positions to expand next";

/// Solve the game from `start`: `m` must play by [`crate::solver_rules`].
/// `max_bytes` bounds the solver's tables; `progress` is called often
/// (at least every few thousand positions) from any thread.
pub fn solve<const W: usize>(
    m: &Machine<W>,
    start: &State<W>,
    max_bytes: u64,
    progress: &dyn Observer,
) -> Result<(Table, Stats), SolveError> {
    let keep = crate::applies::key_keeps_lines_formed(&m.rules);
    let mut ex = Explored {
        layout: Layout::new(m.points(), keep),
        reached: Vec::new(),
        value: Vec::new(),
        count: Vec::new(),
        indeg: Vec::new(),
        reachable: 0,
        edges: 0,
    };
    probe(m, start, max_bytes)?;
    explore(m, start, &mut ex, max_bytes, progress)?;
    let index = ex.layout.total;
    let needed = memory_needed(index, ex.reachable, ex.edges);
    progress.explored(&Stats {
        reachable: ex.reachable,
        index,
        segments: ex.layout.segments.len() as u64,
        edges: ex.edges,
        memory: needed,
        ..Stats::default()
    });
    if needed > max_bytes {
        return Err(SolveError::Memory {
            index,
            reachable: ex.reachable,
            edges: ex.edges,
            needed,
            limit: max_bytes,
            complete: true,
        });
    }
    if ex.edges > u64::from(u32::MAX) {
        return Err(SolveError::TooManyMoves { edges: ex.edges });
    }
    let (reached, packed) = pack(ex)?;
    let mut packed = packed;
    let (offsets, rev) = link(m, &reached, &mut packed, progress)?;
    retro(&packed, &offsets, &rev, progress)?;
    drop(rev);
    drop(offsets);
    let mut stats = Stats {
        reachable: packed.reachable,
        index,
        segments: packed.layout.segments.len() as u64,
        edges: packed.edges,
        memory: needed,
        ..Stats::default()
    };
    let Packed { layout, value, .. } = packed;
    let values: Vec<u16> = value.into_iter().map(AtomicU16::into_inner).collect();
    for &v in &values {
        match Value::decode(v) {
            Value::Win(_) => stats.wins += 1,
            Value::Loss(_) => stats.losses += 1,
            Value::Draw => stats.draws += 1,
        }
    }
    let start_index = layout.index(&start.pos).expect("the start was explored");
    let start_slot = reached.slot(start_index).expect("the start was reached");
    Ok((
        Table {
            layout,
            reached,
            values,
            start: start_slot,
        },
        stats,
    ))
}

/// The tables packed to reached positions only, by slot.
struct Packed {
    layout: Layout,
    value: Vec<AtomicU16>,
    count: Vec<AtomicU16>,
    indeg: Vec<u32>,
    reachable: u64,
    edges: u64,
}

/// Keep the reached positions' entries only, one array at a time (so the
/// peak is the exploration's tables plus one packed array).
fn pack(ex: Explored) -> Result<(Reached, Packed), OutOfMemory> {
    let Explored {
        layout,
        reached,
        value,
        count,
        indeg,
        reachable,
        edges,
    } = ex;
    let reached = Reached::new(reached.into_iter().map(AtomicU64::into_inner).collect())?;
    fn keep<A, T>(
        full: Vec<A>,
        reached: &Reached,
        n: u64,
        get: impl Fn(&A) -> T,
    ) -> Result<Vec<T>, OutOfMemory> {
        let mut out =
            memory::vec_with_capacity(n as usize, "packing the tables to the reachable positions")?;
        for (w, &word) in reached.words.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out.push(get(&full[i]));
            }
        }
        Ok(out)
    }
    let value = keep(value, &reached, reachable, |a| {
        AtomicU16::new(a.load(Relaxed))
    })?;
    let count = keep(count, &reached, reachable, |a| {
        AtomicU16::new(a.load(Relaxed))
    })?;
    let indeg = keep(indeg, &reached, reachable, |a| a.load(Relaxed))?;
    let packed = Packed {
        layout,
        value,
        count,
        indeg,
        reachable,
        edges,
    };
    Ok((reached, packed))
}

/// Output of one chunk of a breadth-first layer.
#[derive(Default)]
struct LayerOut {
    next: Vec<u64>,
    new_keys: HashSet<SegKey>,
    redo: Vec<u64>,
    edges: u64,
    too_many: Option<usize>,
    oom: Option<OutOfMemory>,
}

/// Random lines played from the start before exploring, and their plies.
const PROBE_LINES: u64 = 16;
const PROBE_PLIES: usize = 256;

/// Refuse at once a game whose exploration would pass `max_bytes`, found
/// by a few random lines from `start`: every segment a line passes through
/// is reachable, so the exploration would add it, and the sum of their
/// sizes is a lower bound on its index space. Without this, a game far
/// too large (Nine Men's Morris on the fly) was explored for tens of
/// seconds before the budget stopped it; a game that fits costs
/// microseconds more.
///
/// Public so that a caller can tell, before any solve, whether a game
/// could fit one table at all (`max_bytes` `u64::MAX`: only
/// [`SolveError::IndexSpace`] can come back).
pub fn probe<const W: usize>(
    m: &Machine<W>,
    start: &State<W>,
    max_bytes: u64,
) -> Result<(), SolveError> {
    let keep = crate::applies::key_keeps_lines_formed(&m.rules);
    let mut layout = Layout::new(m.points(), keep);
    let mut moves = Vec::new();
    // A fixed seed: the refusal must not depend on the run.
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..PROBE_LINES {
        let mut s = start.clone();
        for _ in 0..PROBE_PLIES {
            let key = layout.key_of(&s.pos);
            if layout.segment_of(&key).is_none() {
                let before = layout.total;
                if layout.add(key).is_none() {
                    return Err(SolveError::IndexSpace { index: before });
                }
                let needed = explore_memory(layout.total);
                if needed > max_bytes {
                    return Err(SolveError::Memory {
                        index: layout.total,
                        // A position of each segment, at least.
                        reachable: layout.segments.len() as u64,
                        edges: 0,
                        needed,
                        limit: max_bytes,
                        complete: false,
                    });
                }
            }
            if m.legal_moves(&s, &mut moves).is_some() || moves.is_empty() {
                break;
            }
            let pick = (crate::history::splitmix(&mut rng) % moves.len() as u64) as usize;
            let _ = m.apply(&mut s, moves[pick]);
        }
    }
    Ok(())
}

fn explore<const W: usize>(
    m: &Machine<W>,
    start: &State<W>,
    ex: &mut Explored,
    max_bytes: u64,
    progress: &dyn Observer,
) -> Result<(), SolveError> {
    let key = ex.layout.key_of(&start.pos);
    ex.layout
        .add(key)
        .ok_or(SolveError::IndexSpace { index: u64::MAX })?;
    ex.grow()?;
    let first = ex.layout.index(&start.pos).expect("segment just added");
    ex.reach(first);
    let mut frontier = vec![first];
    let expanded = AtomicU64::new(0);
    while !frontier.is_empty() {
        let known = ex.layout.segments.len() as u32;
        let outs: Vec<LayerOut> = frontier
            .par_chunks(CHUNK)
            .map(|chunk| expand(m, ex, chunk, 0, known, true, &expanded, progress))
            .collect();
        ex.reachable += frontier.len() as u64;
        drop(frontier);
        let mut next = Vec::new();
        let mut new_keys = HashSet::new();
        let mut redo = Vec::new();
        for o in outs {
            if let Some(n) = o.too_many {
                return Err(SolveError::TooManyMovesAt { moves: n });
            }
            if let Some(e) = o.oom {
                return Err(e.into());
            }
            ex.edges += o.edges;
            memory::extend(&mut next, &o.next, NEXT)?;
            new_keys.extend(o.new_keys);
            memory::extend(&mut redo, &o.redo, NEXT)?;
        }
        if !new_keys.is_empty() {
            // Sorted, so the numbering of segments does not depend on threads.
            let mut keys: Vec<SegKey> = new_keys.into_iter().collect();
            keys.sort_by_key(|k| (k.in_hand, k.on_board, k.to_move, k.pending, k.lines_formed));
            for k in keys {
                if ex.layout.add(k).is_none() {
                    return Err(SolveError::IndexSpace {
                        index: ex.layout.total,
                    });
                }
            }
            let needed = explore_memory(ex.layout.total);
            if needed > max_bytes {
                return Err(SolveError::Memory {
                    index: ex.layout.total,
                    reachable: ex.reachable + next.len() as u64,
                    edges: ex.edges,
                    needed,
                    limit: max_bytes,
                    complete: false,
                });
            }
            ex.grow()?;
            let outs: Vec<LayerOut> = redo
                .par_chunks(CHUNK)
                .map(|chunk| expand(m, ex, chunk, known, u32::MAX, false, &expanded, progress))
                .collect();
            drop(redo);
            for o in outs {
                if let Some(e) = o.oom {
                    return Err(e.into());
                }
                memory::extend(&mut next, &o.next, NEXT)?;
            }
        }
        frontier = next;
    }
    Ok(())
}

/// Expand the positions of `chunk`: children in segments numbered in
/// `lo..hi` are counted and reached; children in segments not known yet
/// are reported (their key, and the parent to expand again once they
/// are). `first` is the first expansion (values and move counts are set).
#[allow(clippy::too_many_arguments)]
fn expand<const W: usize>(
    m: &Machine<W>,
    ex: &Explored,
    chunk: &[u64],
    lo: u32,
    hi: u32,
    first: bool,
    expanded: &AtomicU64,
    progress: &dyn Observer,
) -> LayerOut {
    let mut out = LayerOut::default();
    let mut sc = Scratch::new(m);
    let layout = &ex.layout;
    for &i in chunk {
        let seg = *layout.segment_at(i);
        sc.load(m, layout, &seg, i - seg.base);
        let outcome = m.legal_moves(&sc.s, &mut sc.moves);
        if first {
            if let Some(o) = outcome {
                let v = match o.winner {
                    Some(w) if w == seg.key.to_move => win(0),
                    Some(_) => loss(0),
                    None => 0,
                };
                ex.value[i as usize].store(v, Relaxed);
                continue;
            }
            if sc.moves.len() > u16::MAX as usize {
                out.too_many = Some(sc.moves.len());
                return out;
            }
            ex.count[i as usize].store(sc.moves.len() as u16, Relaxed);
            out.edges += sc.moves.len() as u64;
        }
        let mut unknown = false;
        for k in 0..sc.moves.len() {
            let mv = sc.moves[k];
            let u = m.apply(&mut sc.s, mv);
            let key = layout.key_of(&sc.s.pos);
            match layout.segment_of(&key) {
                Some(id) if id >= lo && id < hi => {
                    let cs = &layout.segments[id as usize];
                    let c = cs.base + layout.rank(cs, &sc.s.pos.occ);
                    ex.indeg[c as usize].fetch_add(1, Relaxed);
                    if ex.reach(c) {
                        if let Err(e) = memory::push(&mut out.next, c, NEXT) {
                            out.oom = Some(e);
                            return out;
                        }
                    }
                }
                Some(_) => {}
                None => {
                    out.new_keys.insert(key);
                    unknown = true;
                }
            }
            m.undo(&mut sc.s, u);
        }
        if unknown {
            if let Err(e) = memory::push(&mut out.redo, i, NEXT) {
                out.oom = Some(e);
                return out;
            }
        }
    }
    if first {
        let done = expanded.fetch_add(chunk.len() as u64, Relaxed) + chunk.len() as u64;
        progress.progress(Stage::Explore, done, 0);
    }
    out
}

/// The reverse-edge table by slot: `offsets[i]` ends the predecessors of
/// slot `i` (they start at `offsets[i - 1]`, or 0); each link is the
/// predecessor's slot with the top bit set when the same player moves in both.
fn link<const W: usize>(
    m: &Machine<W>,
    reached: &Reached,
    packed: &mut Packed,
    progress: &dyn Observer,
) -> Result<(Vec<u32>, Vec<u32>), OutOfMemory> {
    let mut offsets: Vec<u32> = std::mem::take(&mut packed.indeg);
    let mut sum = 0u32;
    for o in offsets.iter_mut() {
        let d = *o;
        *o = sum;
        sum += d;
    }
    let mut rev = memory::vec_of(0u32, packed.edges as usize, "the table of predecessors")?;
    let linked = AtomicU64::new(0);
    {
        let cursor = atomics_u32(&mut offsets);
        let slots = atomics_u32(&mut rev);
        let packed = &*packed;
        let layout = &packed.layout;
        let per = CHUNK / 64;
        reached
            .words
            .par_chunks(per)
            .enumerate()
            .for_each(|(c, words)| {
                let mut sc = Scratch::new(m);
                let mut parent = reached.first_slot(c * per);
                let mut done = 0u64;
                for (w, &word) in words.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let i = ((c * per + w) * 64) as u64 + u64::from(bits.trailing_zeros());
                        bits &= bits - 1;
                        let me = parent;
                        parent += 1;
                        done += 1;
                        let seg = *layout.segment_at(i);
                        sc.load(m, layout, &seg, i - seg.base);
                        if m.legal_moves(&sc.s, &mut sc.moves).is_some() {
                            continue;
                        }
                        for k in 0..sc.moves.len() {
                            let u = m.apply(&mut sc.s, sc.moves[k]);
                            let child = layout.index(&sc.s.pos).expect("every child was explored");
                            let child = reached.slot(child).expect("every child was reached");
                            let same = u32::from(sc.s.pos.to_move == seg.key.to_move) << 31;
                            let slot = cursor[child as usize].fetch_add(1, Relaxed);
                            slots[slot as usize].store(me | same, Relaxed);
                            m.undo(&mut sc.s, u);
                        }
                    }
                }
                let all = linked.fetch_add(done, Relaxed) + done;
                progress.progress(Stage::Link, all, packed.reachable);
            });
    }
    Ok((offsets, rev))
}

fn retro(
    ex: &Packed,
    offsets: &[u32],
    rev: &[u32],
    progress: &dyn Observer,
) -> Result<(), SolveError> {
    debug_assert!(ex.reachable <= MAX_INDEX);
    const DECIDED: &str = "the list of positions decided at a distance";
    let mut frontier: Vec<u64> = Vec::new();
    for (i, v) in ex.value.iter().enumerate() {
        if v.load(Relaxed) != 0 {
            memory::push(&mut frontier, i as u64, DECIDED)?;
        }
    }
    let decided = AtomicU64::new(frontier.len() as u64);
    let mut d = 0u32;
    while !frontier.is_empty() {
        if d + 1 > MAX_DISTANCE {
            return Err(SolveError::TooDeep);
        }
        let (w, l) = (win(d + 1), loss(d + 1));
        let next: Vec<Result<Vec<u64>, OutOfMemory>> = frontier
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut next = Vec::new();
                for &p in chunk {
                    let p_wins = ex.value[p as usize].load(Relaxed) & 1 == 1;
                    let from = if p == 0 { 0 } else { offsets[p as usize - 1] };
                    let to = offsets[p as usize];
                    for &e in &rev[from as usize..to as usize] {
                        let q = (e & 0x7FFF_FFFF) as usize;
                        let same = e >> 31 == 1;
                        // Good for q's mover: a win for the same mover,
                        // a loss for the other.
                        let decided = if p_wins == same {
                            ex.value[q].compare_exchange(0, w, Relaxed, Relaxed).is_ok()
                        } else {
                            ex.count[q].fetch_sub(1, Relaxed) == 1
                                && ex.value[q].compare_exchange(0, l, Relaxed, Relaxed).is_ok()
                        };
                        if decided {
                            memory::push(&mut next, q as u64, DECIDED)?;
                        }
                    }
                }
                let all = decided.fetch_add(next.len() as u64, Relaxed) + next.len() as u64;
                progress.progress(Stage::Solve, all, ex.reachable);
                Ok(next)
            })
            .collect();
        drop(frontier);
        let mut parts = Vec::with_capacity(next.len());
        for part in next {
            parts.push(part?);
        }
        let total = parts.iter().map(Vec::len).sum();
        frontier = memory::vec_with_capacity(total, DECIDED)?;
        for part in parts {
            frontier.extend_from_slice(&part);
        }
        d += 1;
    }
    Ok(())
}
