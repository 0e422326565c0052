//! Retrograde analysis one layer at a time, for state spaces too big for
//! one machine. A *layer* is every position with the same pieces in hand
//! and on the board for each player. No move raises a layer's *level*
//! (pieces in hand summed, then pieces on the board summed): a placement
//! lowers the pieces in hand, a removal the pieces on the board, and a
//! slide or a flight stays in its layer. So:
//!
//! - exploring (which positions are reachable) runs from the start's layer
//!   down, a level at a time: a layer's entries are the children its
//!   parents (at higher levels) found in it; [`explore_layer`] closes them
//!   under the moves that stay in the layer and lists the children in lower
//!   layers;
//! - solving runs from the lowest level up: [`solve_layer`] reads the
//!   values of the lower layers' positions the layer's moves lead to and
//!   propagates them (and its own finished games) backwards within the
//!   layer, one distance at a time, exactly as [`crate::solve`] does over the
//!   whole space, so every value (won, lost or drawn, and the distance) is
//!   the one the single solve finds.
//!
//! Layers of one level do not depend on each other: each is a unit of
//! work for a separate process or machine, exchanging positions and values
//! through files (morrigo-sweep keeps them in a directory).
//!
//! A position of a layer is a *code*: the player to move (1 bit), the
//! removals owed (15 bits), the lines formed by the last move (16 bits, when
//! the ruleset's removals read them) and the rank of the pieces'
//! arrangement (32 bits).

use crate::layout::{Layout, SegKey};
use crate::solve::{loss, set_position, win, MAX_DISTANCE};
use morrigo_engine::memory::{self, OutOfMemory};
use morrigo_engine::{Machine, Move, Position, State};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt;

/// The pieces in hand and on the board of each player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LayerId {
    /// Pieces each player still has to place.
    pub in_hand: [u32; 2],
    /// Pieces each player has on the board.
    pub on_board: [u16; 2],
}

impl LayerId {
    /// The layer a position is in.
    pub fn of<const W: usize>(pos: &Position<W>) -> Self {
        LayerId {
            in_hand: pos.in_hand,
            on_board: [pos.on_board[0] as u16, pos.on_board[1] as u16],
        }
    }

    /// No move raises it; moves that change the layer lower it.
    pub fn level(&self) -> (u64, u32) {
        (
            u64::from(self.in_hand[0]) + u64::from(self.in_hand[1]),
            u32::from(self.on_board[0]) + u32::from(self.on_board[1]),
        )
    }

    /// `h3-2b1-2`: in hand 3 and 2, on the board 1 and 2 (file names, unit names).
    pub fn name(&self) -> String {
        format!(
            "h{}-{}b{}-{}",
            self.in_hand[0], self.in_hand[1], self.on_board[0], self.on_board[1]
        )
    }

    /// Read a [`LayerId::name`] back; `None` when `text` is not one.
    pub fn parse(text: &str) -> Option<LayerId> {
        let rest = text.strip_prefix('h')?;
        let (hand, board) = rest.split_once('b')?;
        let pair = |t: &str| -> Option<(u64, u64)> {
            let (a, b) = t.split_once('-')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        };
        let (h0, h1) = pair(hand)?;
        let (b0, b1) = pair(board)?;
        Some(LayerId {
            in_hand: [u32::try_from(h0).ok()?, u32::try_from(h1).ok()?],
            on_board: [u16::try_from(b0).ok()?, u16::try_from(b1).ok()?],
        })
    }
}

impl fmt::Display for LayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Why a layer could not be explored or solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayerError {
    /// A move leads to a layer of the same or a higher level: the ruleset's
    /// moves do not keep the order layers are solved in.
    Order {
        /// The layer the move is made in.
        from: LayerId,
        /// The layer it leads to.
        to: LayerId,
    },
    /// A position does not fit in a code (too many removals owed, or an
    /// arrangement rank past 32 bits).
    Code {
        /// The layer of the position.
        layer: LayerId,
    },
    /// A child position the lower layers' files do not hold.
    MissingChild {
        /// The layer being solved.
        layer: LayerId,
        /// The lower layer the child is in.
        child: LayerId,
    },
    /// A distance past [`MAX_DISTANCE`] plies.
    TooDeep,
    /// A position with more legal moves than a counter holds.
    TooManyMovesAt {
        /// Legal moves at that position.
        moves: usize,
    },
    /// A range's files name a position outside the range (files of another split).
    Range {
        /// The slot named, among the layer's codes.
        slot: u32,
    },
    /// An allocation the process's memory budget refused before it was
    /// made ([`morrigo_engine::memory`]).
    Budget(OutOfMemory),
}

impl From<OutOfMemory> for LayerError {
    fn from(e: OutOfMemory) -> Self {
        LayerError::Budget(e)
    }
}

impl fmt::Display for LayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayerError::Order { from, to } => write!(
                f,
                "a move leads from layer {from} to layer {to}, which is not lower (layers are solved from fewer pieces up; this ruleset's moves do not keep that order)"
            ),
            LayerError::Code { layer } => write!(
                f,
                "a position of layer {layer} does not fit in a layer code (32-bit arrangement rank, 15-bit removals owed)"
            ),
            LayerError::MissingChild { layer, child } => write!(
                f,
                "layer {layer} leads to a position of layer {child} that layer's files do not hold"
            ),
            LayerError::TooDeep => write!(
                f,
                "a game lasts more than {MAX_DISTANCE} plies under perfect play"
            ),
            LayerError::Budget(e) => write!(f, "{e}"),
            LayerError::TooManyMovesAt { moves } => write!(
                f,
                "a position has {moves} legal moves, more than the 65535 the solver counts"
            ),
            LayerError::Range { slot } => write!(
                f,
                "a range's files name position {slot}, outside the range (files of another split of the layer)"
            ),
        }
    }
}

/// Positions ↔ codes for one machine.
pub struct Coder {
    layout: Layout,
}

impl Coder {
    /// The coder for `m`'s board, with the lines formed in the code when
    /// its rules' removals read them.
    pub fn new<const W: usize>(m: &Machine<W>) -> Self {
        Coder {
            layout: Layout::new(m.points(), crate::applies::key_keeps_lines_formed(&m.rules)),
        }
    }

    /// The code of a position within its layer.
    pub fn encode<const W: usize>(&self, pos: &Position<W>) -> Option<u64> {
        let key = self.layout.key_of(pos);
        let seg = self.layout.segment_for(key)?;
        if key.pending >= 1 << 15 {
            return None;
        }
        let rank = self.layout.rank(&seg, &pos.occ);
        Some(
            (u64::from(key.to_move & 1) << 63)
                | (u64::from(key.pending) << 48)
                | (u64::from(key.lines_formed) << 32)
                | rank,
        )
    }

    /// The segment of the codes of `layer` whose bits above the rank are `hi`.
    fn segment(&self, layer: LayerId, hi: u32) -> Option<crate::layout::Segment> {
        self.layout.segment_for(SegKey {
            on_board: layer.on_board,
            in_hand: layer.in_hand,
            to_move: (hi >> 31) as u8,
            pending: ((hi >> 16) & 0x7FFF) as u16,
            lines_formed: (hi & 0xFFFF) as u16,
        })
    }

    /// Put the position `code` of `layer` into `s`.
    pub fn decode<const W: usize>(
        &self,
        m: &Machine<W>,
        layer: LayerId,
        code: u64,
        s: &mut State<W>,
    ) -> Option<()> {
        let key = SegKey {
            on_board: layer.on_board,
            in_hand: layer.in_hand,
            to_move: (code >> 63) as u8,
            pending: ((code >> 48) & 0x7FFF) as u16,
            lines_formed: ((code >> 32) & 0xFFFF) as u16,
        };
        let seg = self.layout.segment_for(key)?;
        let rank = code & 0xFFFF_FFFF;
        if rank >= seg.size {
            return None;
        }
        let occ = self.layout.unrank(&seg, rank);
        set_position(m, s, &key, occ);
        Some(())
    }
}

/// The reachable positions of one layer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayerReach {
    /// Codes, sorted.
    pub codes: Vec<u64>,
    /// The children in lower layers: codes, sorted, each once.
    pub children: BTreeMap<LayerId, Vec<u64>>,
    /// Moves from the layer's positions (to any layer).
    pub edges: u64,
}

const CHUNK: usize = 1024;

/// One chunk's children: in the layer, in lower layers, and its move count.
type Wave = (Vec<u64>, Vec<(LayerId, u64)>, u64);

/// The positions of `layer` reachable from `entries` (codes of the layer)
/// by moves that stay in it, and their children in lower layers.
pub fn explore_layer<const W: usize>(
    m: &Machine<W>,
    layer: LayerId,
    entries: &[u64],
) -> Result<LayerReach, LayerError> {
    let coder = Coder::new(m);
    let mut seen = CodeSet::default();
    let mut frontier: Vec<u64> = Vec::new();
    for &c in entries {
        if seen.insert(&coder, layer, c)? {
            frontier.push(c);
        }
    }
    frontier.sort_unstable();
    let mut out = LayerReach::default();
    let mut lower: BTreeMap<LayerId, Vec<u64>> = BTreeMap::new();
    while !frontier.is_empty() {
        let parts: Vec<Result<Wave, LayerError>> = frontier
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut s = m.initial();
                let mut moves: Vec<Move> = Vec::new();
                let (mut same, mut other, mut edges) = (Vec::new(), Vec::new(), 0u64);
                for &code in chunk {
                    coder
                        .decode(m, layer, code, &mut s)
                        .ok_or(LayerError::Code { layer })?;
                    if m.legal_moves(&s, &mut moves).is_some() {
                        continue;
                    }
                    edges += moves.len() as u64;
                    for &mv in &moves {
                        let u = m.apply(&mut s, mv);
                        let to = LayerId::of(&s.pos);
                        let c = coder.encode(&s.pos).ok_or(LayerError::Code { layer: to })?;
                        if to == layer {
                            same.push(c);
                        } else if to.level() < layer.level() {
                            other.push((to, c));
                        } else {
                            return Err(LayerError::Order { from: layer, to });
                        }
                        m.undo(&mut s, u);
                    }
                }
                Ok((same, other, edges))
            })
            .collect();
        let mut next = Vec::new();
        for part in parts {
            let (same, other, edges) = part?;
            out.edges += edges;
            for c in same {
                if seen.insert(&coder, layer, c)? {
                    next.push(c);
                }
            }
            for (to, c) in other {
                lower.entry(to).or_default().push(c);
            }
        }
        next.sort_unstable();
        frontier = next;
    }
    for codes in lower.values_mut() {
        codes.par_sort_unstable();
        codes.dedup();
    }
    out.codes = seen.codes();
    out.children = lower;
    Ok(out)
}

/// What the moves of one position lead to.
struct Expanded {
    /// Internal edges: (child slot, parent slot | same mover << 31).
    edges: Vec<(u32, u32)>,
    /// Decided children in lower layers: (distance, parent slot, good for the parent).
    events: Vec<(u32, u32, bool)>,
    /// (slot, terminal value or 0, move count).
    start: Vec<(u32, u16, u16)>,
}

/// Expand the positions `codes` of `layer`, whose slots among the layer's
/// codes start at `first`: their terminal values and move counts, their
/// moves within the layer (`index` gives a child's slot) and the decided
/// children they have in lower layers (`lower`, as for [`solve_layer`]).
fn expand<const W: usize>(
    m: &Machine<W>,
    layer: LayerId,
    codes: &[u64],
    first: usize,
    index: &CodeIndex,
    lower: &(dyn Fn(LayerId, u64) -> Option<u16> + Sync),
) -> Vec<Result<Expanded, LayerError>> {
    let coder = Coder::new(m);
    codes
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let mut s = m.initial();
            let mut moves: Vec<Move> = Vec::new();
            let mut x = Expanded {
                edges: Vec::new(),
                events: Vec::new(),
                start: Vec::new(),
            };
            for (k, &code) in chunk.iter().enumerate() {
                let me = (first + c * CHUNK + k) as u32;
                coder
                    .decode(m, layer, code, &mut s)
                    .ok_or(LayerError::Code { layer })?;
                let mover = s.pos.to_move;
                if let Some(o) = m.legal_moves(&s, &mut moves) {
                    let v = match o.winner {
                        Some(w) if w == mover => win(0),
                        Some(_) => loss(0),
                        None => 0,
                    };
                    x.start.push((me, v, 0));
                    continue;
                }
                if moves.len() > usize::from(u16::MAX) {
                    return Err(LayerError::TooManyMovesAt { moves: moves.len() });
                }
                x.start.push((me, 0, moves.len() as u16));
                for &mv in &moves {
                    let u = m.apply(&mut s, mv);
                    let to = LayerId::of(&s.pos);
                    let same = s.pos.to_move == mover;
                    let child = coder.encode(&s.pos).ok_or(LayerError::Code { layer: to })?;
                    m.undo(&mut s, u);
                    if to == layer {
                        let slot = index
                            .slot(child)
                            .ok_or(LayerError::MissingChild { layer, child: to })?;
                        x.edges.push((slot as u32, me | (u32::from(same) << 31)));
                    } else {
                        let v = lower(to, child)
                            .ok_or(LayerError::MissingChild { layer, child: to })?;
                        if v != 0 {
                            let child_wins = v & 1 == 1;
                            let d = u32::from(v - 1) / 2;
                            x.events.push((d, me, child_wins == same));
                        }
                    }
                }
            }
            Ok(x)
        })
        .collect()
}

/// Values (as [`crate::Value::decode`] reads them) of the positions `codes`
/// (sorted) of `layer`, given `lower`: the value of a position (by layer
/// and code) of a lower layer, `None` when it is not known.
pub fn solve_layer<const W: usize>(
    m: &Machine<W>,
    layer: LayerId,
    codes: &[u64],
    lower: &(dyn Fn(LayerId, u64) -> Option<u16> + Sync),
) -> Result<Vec<u16>, LayerError> {
    let index = CodeIndex::new(codes);
    let parts = expand(m, layer, codes, 0, &index, lower);
    let n = codes.len();
    const LAYER: &str = "the layer's values, counters and predecessor counts";
    memory::reserve(n as u64 * (2 + 2 + 4), LAYER)?;
    let mut value = memory::vec_of(0u16, n, LAYER)?;
    let mut count = memory::vec_of(0u16, n, LAYER)?;
    let mut indeg = memory::vec_of(0u32, n, LAYER)?;
    let mut by_level: BTreeMap<u32, Vec<(u32, bool)>> = BTreeMap::new();
    let mut parts_ok = Vec::with_capacity(parts.len());
    for part in parts {
        let x = part?;
        for &(slot, v, c) in &x.start {
            value[slot as usize] = v;
            count[slot as usize] = c;
        }
        for &(child, _) in &x.edges {
            indeg[child as usize] += 1;
        }
        for &(d, q, good) in &x.events {
            by_level.entry(d).or_default().push((q, good));
        }
        parts_ok.push(x.edges);
    }
    // Predecessors by child slot.
    let mut offsets = Vec::with_capacity(n + 1);
    let mut sum = 0u32;
    offsets.push(0);
    for d in &indeg {
        sum += d;
        offsets.push(sum);
    }
    drop(indeg);
    let mut cursor = offsets.clone();
    let mut rev = memory::vec_of(0u32, sum as usize, "the layer's moves, by child")?;
    for edges in parts_ok {
        for (child, parent) in edges {
            let at = &mut cursor[child as usize];
            rev[*at as usize] = parent;
            *at += 1;
        }
    }
    drop(cursor);
    let mut frontier: Vec<u32> = (0..n as u32).filter(|&i| value[i as usize] != 0).collect();
    let mut d = 0u32;
    while !frontier.is_empty() || by_level.range(d..).next().is_some() {
        if d + 1 > MAX_DISTANCE {
            return Err(LayerError::TooDeep);
        }
        let (w, l) = (win(d + 1), loss(d + 1));
        let mut next = Vec::new();
        for &p in &frontier {
            let p_wins = value[p as usize] & 1 == 1;
            for &e in &rev[offsets[p as usize] as usize..offsets[p as usize + 1] as usize] {
                let same = e >> 31 == 1;
                let q = (e & 0x7FFF_FFFF) as usize;
                decide(&mut value, &mut count, q, p_wins == same, (w, l), &mut next);
            }
        }
        if let Some(events) = by_level.remove(&d) {
            for (q, good) in events {
                decide(&mut value, &mut count, q as usize, good, (w, l), &mut next);
            }
        }
        frontier = next;
        d += 1;
    }
    Ok(value)
}

// A layer split into slot ranges, for a layer past one machine's memory:
// each range is expanded on its own ([`expand_range`]), then the values
// propagate one distance at a time ([`range_inbound`], [`range_push`]), each range passing
// the decisions it makes about other ranges' positions on to their next
// round. The values are [`solve_layer`]'s: a round is one of its distances.

/// One range of a layer's positions, expanded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RangeStart {
    /// Per position of the range: its terminal value (or 0).
    pub values: Vec<u16>,
    /// Per position of the range: its move count.
    pub counts: Vec<u16>,
    /// Decided children in lower layers, sorted: (distance, parent slot | good for the parent << 31).
    pub events: Vec<(u32, u32)>,
    /// Moves within the layer: (child slot, parent slot | same mover << 31).
    pub edges: Vec<(u32, u32)>,
}

/// Expand the positions `codes` of `layer` (sorted, their slots among the
/// layer's codes from `first`; `index` holds the whole layer's codes).
pub fn expand_range<const W: usize>(
    m: &Machine<W>,
    layer: LayerId,
    codes: &[u64],
    first: usize,
    index: &CodeIndex,
    lower: &(dyn Fn(LayerId, u64) -> Option<u16> + Sync),
) -> Result<RangeStart, LayerError> {
    let n = codes.len();
    const RANGE: &str = "the range's values and counters";
    let mut r = RangeStart {
        values: memory::vec_of(0, n, RANGE)?,
        counts: memory::vec_of(0, n, RANGE)?,
        ..RangeStart::default()
    };
    for part in expand(m, layer, codes, first, index, lower) {
        let x = part?;
        for (slot, v, c) in x.start {
            r.values[slot as usize - first] = v;
            r.counts[slot as usize - first] = c;
        }
        r.edges.extend(x.edges);
        r.events.extend(
            x.events
                .into_iter()
                .map(|(d, q, good)| (d, q | (u32::from(good) << 31))),
        );
    }
    r.events.sort_unstable();
    Ok(r)
}

/// The moves into a range's positions, by child: each child's parents
/// (slot | same mover << 31), anywhere in the layer. Built in two passes
/// over the same parts of the edges ([`RangeEdges::count`] each, then
/// [`RangeEdges::place`] each), so no more than one part is held besides.
pub struct RangeEdges {
    first: usize,
    offsets: Vec<u32>,
    parents: Vec<u32>,
    cursor: Vec<u32>,
}

impl RangeEdges {
    /// For the range of `len` positions from slot `first`.
    pub fn new(first: usize, len: usize) -> Self {
        RangeEdges {
            first,
            offsets: vec![0; len + 1],
            parents: Vec::new(),
            cursor: Vec::new(),
        }
    }

    /// First pass: count a part's edges (child slot, parent), all into the range.
    pub fn count(&mut self, part: &[(u32, u32)]) -> Result<(), LayerError> {
        let len = self.offsets.len() - 1;
        for &(child, _) in part {
            let at = (child as usize)
                .checked_sub(self.first)
                .filter(|&i| i < len)
                .ok_or(LayerError::Range { slot: child })?;
            self.offsets[at + 1] += 1;
        }
        Ok(())
    }

    /// Second pass: place a part's edges, the parts in the order they were counted.
    pub fn place(&mut self, part: &[(u32, u32)]) {
        if self.cursor.is_empty() {
            for i in 1..self.offsets.len() {
                self.offsets[i] += self.offsets[i - 1];
            }
            self.parents = vec![0; *self.offsets.last().unwrap_or(&0) as usize];
            self.cursor = self.offsets.clone();
        }
        for &(child, parent) in part {
            let at = &mut self.cursor[child as usize - self.first];
            self.parents[*at as usize] = parent;
            *at += 1;
        }
    }
}

/// What one range's round found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundOut {
    /// Positions of other ranges decided at the next distance: slot | good for its mover << 31.
    pub outbound: Vec<u32>,
    /// The range's own positions decided at the next distance.
    pub decided_next: u64,
}

/// Round `d` of one range (`values` and `counts` of its positions, from
/// slot `first`), first part: `inbound` (slot | good << 31) are the
/// decisions at distance `d` that other ranges' round `d - 1` and the lower
/// layers' children at distance `d - 1` make. Returns the range's positions
/// at distance `d` (their offsets in the range), which [`range_push`] takes.
pub fn range_inbound(
    first: usize,
    values: &mut [u16],
    counts: &mut [u16],
    d: u32,
    inbound: &[u32],
) -> Result<Vec<u32>, LayerError> {
    let len = values.len();
    if !inbound.is_empty() {
        if d > MAX_DISTANCE {
            return Err(LayerError::TooDeep);
        }
        let mut ignored = Vec::new();
        for &e in inbound {
            let slot = e & 0x7FFF_FFFF;
            let q = (slot as usize)
                .checked_sub(first)
                .filter(|&i| i < len)
                .ok_or(LayerError::Range { slot })?;
            decide(
                values,
                counts,
                q,
                e >> 31 == 1,
                (win(d), loss(d)),
                &mut ignored,
            );
        }
    }
    Ok((0..len as u32)
        .filter(|&i| {
            let v = values[i as usize];
            v != 0 && u32::from(v - 1) / 2 == d
        })
        .collect())
}

/// Round `d` of one range, second part: its positions at distance `d`
/// (`frontier`) decide their parents at `d + 1`, those in the range at
/// once, the others returned for their ranges' round `d + 1`.
pub fn range_push(
    values: &mut [u16],
    counts: &mut [u16],
    d: u32,
    frontier: &[u32],
    into: &RangeEdges,
) -> Result<RoundOut, LayerError> {
    let mut out = RoundOut::default();
    if frontier.is_empty() {
        return Ok(out);
    }
    if d + 1 > MAX_DISTANCE {
        return Err(LayerError::TooDeep);
    }
    let (first, len) = (into.first, values.len());
    let (w, l) = (win(d + 1), loss(d + 1));
    let mut next = Vec::new();
    for &p in frontier {
        let p_wins = values[p as usize] & 1 == 1;
        let (a, b) = (into.offsets[p as usize], into.offsets[p as usize + 1]);
        for &e in &into.parents[a as usize..b as usize] {
            let same = e >> 31 == 1;
            let q = e & 0x7FFF_FFFF;
            let good = p_wins == same;
            match (q as usize).checked_sub(first).filter(|&i| i < len) {
                Some(i) => decide(values, counts, i, good, (w, l), &mut next),
                None => out.outbound.push(q | (u32::from(good) << 31)),
            }
        }
    }
    out.decided_next = next.len() as u64;
    Ok(out)
}

/// A child decided at this distance: good for `q`'s mover wins `q` at once
/// (the first such child is the nearest); bad for it counts one more move
/// lost, and the last of them loses `q` (the farthest is the last).
#[inline]
fn decide(
    value: &mut [u16],
    count: &mut [u16],
    q: usize,
    good: bool,
    (w, l): (u16, u16),
    next: &mut Vec<u32>,
) {
    if good {
        if value[q] == 0 {
            value[q] = w;
            next.push(q as u32);
        }
    } else {
        count[q] -= 1;
        if count[q] == 0 && value[q] == 0 {
            value[q] = l;
            next.push(q as u32);
        }
    }
}

/// A set of codes of one layer: a bitset over the ranks of each segment
/// (the part of a code above the rank), as the single solve marks reached
/// positions, so membership costs no hashing.
#[derive(Default)]
struct CodeSet {
    segments: BTreeMap<u32, Vec<u64>>,
}

impl CodeSet {
    /// Add a code; whether it was new (an error when it is not a code of
    /// the layer, or its segment's bitset does not fit the memory budget).
    fn insert(&mut self, coder: &Coder, layer: LayerId, code: u64) -> Result<bool, LayerError> {
        let hi = (code >> 32) as u32;
        let rank = code & 0xFFFF_FFFF;
        let bits = match self.segments.entry(hi) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(e) => {
                let seg = coder.segment(layer, hi).ok_or(LayerError::Code { layer })?;
                e.insert(memory::vec_of(
                    0u64,
                    seg.size.div_ceil(64) as usize,
                    "the bitset of a layer segment's positions",
                )?)
            }
        };
        let word = bits
            .get_mut((rank / 64) as usize)
            .ok_or(LayerError::Code { layer })?;
        let bit = 1u64 << (rank % 64);
        let new = *word & bit == 0;
        *word |= bit;
        Ok(new)
    }

    /// The codes, sorted.
    fn codes(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for (&hi, words) in &self.segments {
            for (w, &word) in words.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let rank = (w * 64) as u64 + u64::from(bits.trailing_zeros());
                    bits &= bits - 1;
                    out.push((u64::from(hi) << 32) | rank);
                }
            }
        }
        out
    }
}

/// Slots of sorted codes, found without searching: per segment, the first
/// slot and a bitset of ranks with a count of the bits before each word.
pub struct CodeIndex {
    segments: BTreeMap<u32, (u32, Vec<u64>, Vec<u32>)>,
}

impl CodeIndex {
    /// The index of `codes` (sorted, each once).
    pub fn new(codes: &[u64]) -> Self {
        let mut segments: BTreeMap<u32, (u32, Vec<u64>, Vec<u32>)> = BTreeMap::new();
        for (slot, &code) in codes.iter().enumerate() {
            let hi = (code >> 32) as u32;
            let rank = (code & 0xFFFF_FFFF) as usize;
            let (_, words, _) = segments
                .entry(hi)
                .or_insert_with(|| (slot as u32, Vec::new(), Vec::new()));
            if words.len() <= rank / 64 {
                words.resize(rank / 64 + 1, 0);
            }
            words[rank / 64] |= 1 << (rank % 64);
        }
        for (_, words, dir) in segments.values_mut() {
            let mut sum = 0;
            for w in words.iter() {
                dir.push(sum);
                sum += w.count_ones();
            }
        }
        CodeIndex { segments }
    }

    /// The slot of `code` among the codes, if it is one of them.
    #[inline]
    pub fn slot(&self, code: u64) -> Option<usize> {
        let (first, words, dir) = self.segments.get(&((code >> 32) as u32))?;
        let rank = (code & 0xFFFF_FFFF) as usize;
        let w = *words.get(rank / 64)?;
        let bit = 1u64 << (rank % 64);
        (w & bit != 0).then(|| (first + dir[rank / 64] + (w & (bit - 1)).count_ones()) as usize)
    }
}
