//! Reading a solved table: the value of every legal move, the best moves,
//! and a line of perfect play.

use crate::table::{Table, Value};
use morrigo_engine::{Machine, Move, Outcome, State};
use std::collections::HashSet;

/// The value of each legal move for the player making it (`None` for a
/// move to a position the table does not hold). Empty when the game is over.
pub fn move_values<const W: usize>(
    m: &Machine<W>,
    table: &Table,
    s: &State<W>,
) -> Vec<(Move, Option<Value>)> {
    let mut moves = Vec::new();
    if m.legal_moves(s, &mut moves).is_some() {
        return Vec::new();
    }
    let me = s.pos.to_move;
    let mut next = s.clone();
    moves
        .iter()
        .map(|&mv| {
            let u = m.apply(&mut next, mv);
            let v = table.value(&next.pos).map(|v| {
                let v = if next.pos.to_move == me { v } else { v.flip() };
                match v {
                    Value::Win(d) => Value::Win(d + 1),
                    Value::Loss(d) => Value::Loss(d + 1),
                    Value::Draw => Value::Draw,
                }
            });
            m.undo(&mut next, u);
            (mv, v)
        })
        .collect()
}

/// The moves of best value (quickest win, else a draw, else the slowest
/// loss), in move-generation order, with that value.
pub fn best_moves<const W: usize>(
    m: &Machine<W>,
    table: &Table,
    s: &State<W>,
) -> Option<(Vec<Move>, Value)> {
    let values = move_values(m, table, s);
    let best = values
        .iter()
        .filter_map(|(_, v)| *v)
        .max_by_key(|v| v.preference())?;
    let moves = values
        .iter()
        .filter(|(_, v)| *v == Some(best))
        .map(|(mv, _)| *mv)
        .collect();
    Some((moves, best))
}

/// How a perfect-play line stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// The game ends (by the solver's rules).
    Over(Outcome),
    /// A drawn line reached a position it had passed: play can go round forever.
    Repeats,
    /// No legal move and no end rule decides: the rules leave the game
    /// stuck (the solver counts it a draw).
    Stuck,
    /// The table does not hold a position on the way.
    Unknown,
    /// The line reached the length asked for.
    Limit,
}

/// A line of perfect play from `s`: each side plays its first best move
/// (quickest win, else a draw, else the slowest loss). At most `limit` plies.
pub fn perfect_line<const W: usize>(
    m: &Machine<W>,
    table: &Table,
    s: &State<W>,
    limit: usize,
) -> (Vec<Move>, LineEnd) {
    let mut s = s.clone();
    let mut line = Vec::new();
    let mut seen = HashSet::new();
    let mut moves = Vec::new();
    loop {
        if let Some(o) = m.legal_moves(&s, &mut moves) {
            return (line, LineEnd::Over(o));
        }
        if moves.is_empty() {
            return (line, LineEnd::Stuck);
        }
        if line.len() >= limit {
            return (line, LineEnd::Limit);
        }
        let key = (
            s.pos.occ,
            s.pos.in_hand,
            s.pos.to_move,
            s.pos.pending,
            s.pos.lines_formed,
        );
        if !seen.insert(key) {
            return (line, LineEnd::Repeats);
        }
        let Some((best, _)) = best_moves(m, table, &s) else {
            return (line, LineEnd::Unknown);
        };
        m.apply(&mut s, best[0]);
        line.push(best[0]);
    }
}
