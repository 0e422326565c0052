//! The hot loop: one game from a given state to its end (or a ply cap).

use crate::agent::{choose, AgentKind};
use morrigo_engine::{Machine, Move, State};
use rand::rngs::SmallRng;
use serde::{Deserialize, Serialize};

/// How one game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Seat of the winner (0 = first player); `None` for a draw or a cut-off.
    pub winner: Option<u8>,
    /// Index into `Rules::end` of the rule that decided; `None` when the game
    /// was stopped at `max_plies`.
    pub end_rule: Option<u16>,
    /// Plies played in this playout (a removal is a ply of its own).
    pub plies: u32,
    /// Turns completed in this playout.
    pub turns: u32,
}

impl GameRecord {
    pub fn finished(&self) -> bool {
        self.end_rule.is_some()
    }
}

/// Play from `s` until an end rule decides or `max_plies` plies have been
/// played, seat `i` choosing with `agents[i]`. `s` is left at the final
/// position. `moves` is scratch space, reused so the loop never allocates
/// (apart from the engine's turn history growing).
pub fn playout<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    agents: [AgentKind; 2],
    rng: &mut SmallRng,
    max_plies: u32,
    moves: &mut Vec<Move>,
) -> GameRecord {
    let start_ply = s.pos.ply;
    let start_turn = s.pos.turn;
    let record = |s: &State<W>, winner, end_rule| GameRecord {
        winner,
        end_rule,
        plies: s.pos.ply - start_ply,
        turns: s.pos.turn - start_turn,
    };
    loop {
        if let Some(outcome) = m.legal_moves(s, moves) {
            return record(s, outcome.winner, Some(outcome.rule));
        }
        if s.pos.ply - start_ply >= max_plies {
            return record(s, None, None);
        }
        if moves.is_empty() {
            // Only a removal ply with nothing removable; the engine forfeits
            // such removals, so this is unreachable, but never spin.
            return record(s, None, None);
        }
        let agent = agents[s.pos.to_move as usize & 1];
        let mv = choose(agent, m, s, moves, rng);
        m.apply(s, mv);
    }
}
