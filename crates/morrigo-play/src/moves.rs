//! What every agent asks of a move before weighing it: a uniform pick
//! among moves, and whether a move loses at once. Below the agents, so
//! that each agent module and the dispatch in `agent` can share them.

use morrigo_engine::{Machine, Move, Outcome, State, Undo};
use rand::rngs::SmallRng;
use rand::Rng;

/// Whether playing `mv` ends the game at once with its mover lost.
#[inline]
pub fn loses_at_once<const W: usize>(m: &Machine<W>, s: &mut State<W>, mv: Move) -> bool {
    match apply_unless_lost(m, s, mv) {
        Some((u, _)) => {
            m.undo(s, u);
            false
        }
        None => true,
    }
}

/// Play `mv` unless it ends the game at once with its mover lost (then
/// `s` is left as it was and the answer is `None`): its undo, and the
/// outcome of the position reached when the turn is over (`None` while a
/// removal is owed or the game goes on).
#[inline]
pub(crate) fn apply_unless_lost<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    mv: Move,
) -> Option<(Undo<W>, Option<Outcome>)> {
    let me = s.pos.to_move;
    let u = m.apply(s, mv);
    let outcome = if s.pos.pending == 0 {
        m.outcome(s)
    } else {
        None
    };
    if outcome.is_some_and(|o| o.winner == Some(me ^ 1)) {
        m.undo(s, u);
        return None;
    }
    Some((u, outcome))
}

/// A uniform index below `n` (`n > 0`); draws nothing when `n == 1`.
#[inline(always)]
pub(crate) fn pick(rng: &mut SmallRng, n: usize) -> usize {
    if n == 1 {
        0
    } else {
        rng.random_range(0..n)
    }
}
