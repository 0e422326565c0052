//! Move-tree counting.

use crate::machine::{Machine, State};
use crate::moves::Move;

/// What one level of the tree is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Every ply, a removal included, is one level.
    Ply,
    /// A move together with the removals it earns is one level.
    Turn,
}

/// Leaf count of the tree of depth `depth` from `s`.
pub fn perft<const W: usize>(m: &Machine<W>, s: &mut State<W>, depth: u32, unit: Unit) -> u64 {
    let mut buffers = vec![Vec::with_capacity(64); depth as usize * 4 + 8];
    walk(m, s, depth, unit, &mut buffers)
}

/// Per-first-move leaf counts (`--divide`), in move-generation order.
pub fn perft_divide<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    depth: u32,
    unit: Unit,
) -> Vec<(Vec<Move>, u64)> {
    let mut buffers = vec![Vec::with_capacity(64); depth as usize * 4 + 8];
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    let mut prefix = Vec::new();
    divide(m, s, depth, unit, &mut buffers, &mut prefix, &mut out);
    out
}

fn divide<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    depth: u32,
    unit: Unit,
    buffers: &mut [Vec<Move>],
    prefix: &mut Vec<Move>,
    out: &mut Vec<(Vec<Move>, u64)>,
) {
    let mut fresh = Vec::new();
    let (moves, rest) = match buffers.split_first_mut() {
        Some(split) => split,
        None => (&mut fresh, &mut [][..]),
    };
    m.legal_moves(s, moves);
    for &mv in moves.iter() {
        let u = m.apply(s, mv);
        prefix.push(mv);
        if unit == Unit::Turn && s.pos.pending > 0 {
            divide(m, s, depth, unit, rest, prefix, out);
        } else {
            let n = if depth == 1 {
                1
            } else {
                walk(m, s, depth - 1, unit, rest)
            };
            out.push((prefix.clone(), n));
        }
        prefix.pop();
        m.undo(s, u);
    }
}

fn walk<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    depth: u32,
    unit: Unit,
    buffers: &mut [Vec<Move>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if buffers.is_empty() {
        // Only rulesets owing many removals per turn get this deep; give them fresh buffers.
        let mut more = vec![Vec::with_capacity(64); depth as usize * 4 + 8];
        return walk(m, s, depth, unit, &mut more);
    }
    let (moves, rest) = buffers.split_first_mut().expect("checked non-empty above");
    m.legal_moves(s, moves);
    if depth == 1 && unit == Unit::Ply {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let u = m.apply(s, mv);
        total += if unit == Unit::Turn && s.pos.pending > 0 {
            // The removal belongs to the same turn: same depth.
            walk(m, s, depth, unit, rest)
        } else {
            walk(m, s, depth - 1, unit, rest)
        };
        m.undo(s, u);
    }
    total
}

/// Games that end within a depth: `perft --to-end`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameEnds {
    /// `ended[d]`: sequences of exactly `d` levels whose last move ends the game.
    pub ended: Vec<u64>,
    /// `going[d]`: sequences of exactly `d` levels after which the game goes on.
    pub going: Vec<u64>,
    /// Finished games by winner: first player, second player, draw.
    pub winners: [u64; 3],
    /// Finished games by end rule (index into `Rules::end`).
    pub rules: Vec<u64>,
}

/// Walk the move tree to `depth` levels, counting where games end.
pub fn perft_to_end<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    depth: u32,
    unit: Unit,
) -> GameEnds {
    let mut ends = GameEnds {
        ended: vec![0; depth as usize + 1],
        going: vec![0; depth as usize + 1],
        winners: [0; 3],
        rules: vec![0; m.rules.end.len()],
    };
    let mut buffers = vec![Vec::new(); depth as usize * 4 + 8];
    walk_to_end(m, s, 0, depth, unit, &mut buffers, &mut ends);
    ends
}

fn walk_to_end<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    level: u32,
    depth: u32,
    unit: Unit,
    buffers: &mut [Vec<Move>],
    ends: &mut GameEnds,
) {
    let mut fresh = Vec::new();
    let (moves, rest) = match buffers.split_first_mut() {
        Some((moves, rest)) => (moves, rest),
        None => (&mut fresh, &mut [][..]),
    };
    let mid_turn = unit == Unit::Turn && s.pos.pending > 0;
    if let Some(o) = m.legal_moves(s, moves) {
        ends.ended[level as usize] += 1;
        ends.winners[o.winner.map_or(2, usize::from)] += 1;
        if let Some(n) = ends.rules.get_mut(o.rule as usize) {
            *n += 1;
        }
        return;
    }
    if !mid_turn {
        ends.going[level as usize] += 1;
        if level == depth {
            return;
        }
    }
    for &mv in moves.iter() {
        let u = m.apply(s, mv);
        // A removal owed by the same turn stays on the same level.
        let next = if unit == Unit::Turn && s.pos.pending > 0 {
            level
        } else {
            level + 1
        };
        walk_to_end(m, s, next, depth, unit, rest, ends);
        m.undo(s, u);
    }
}
