//! The hot loop: one game from a given state to its end (or a ply cap).

use crate::agent::{danger_of, random_by_count, Player};
use crate::counters::CountPlan;
use crate::moves::pick;
use crate::spec::AgentSpec;
use morrigo_engine::{Bits, Machine, Move, Outcome, Sample, State};
use morrigo_rules::Verdict;
use rand::rngs::SmallRng;
use serde::{Deserialize, Serialize};

/// How one game went.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Seat of the winner (0 = first player); `None` for a draw, a cut-off
    /// or a stuck game.
    pub winner: Option<u8>,
    /// Index into `Rules::end` of the rule that decided; `None` when the game
    /// was stopped at `max_plies` or got stuck.
    pub end_rule: Option<u16>,
    /// The player to move had no legal move and no end rule decided: the
    /// rules left the game stuck (`end_rule` is `None`).
    #[serde(default)]
    pub stuck: bool,
    /// Both players' scores when a `score` verdict decided the game (the
    /// position counted with no dead stones, komi included).
    #[serde(default)]
    pub score: Option<[f64; 2]>,
    /// Captured prisoners each player took in this playout (board plays).
    #[serde(default)]
    pub captured: [u32; 2],
    /// An end rule with the `no_result` verdict ended the game (`winner`
    /// is `None`, as for a draw).
    #[serde(default)]
    pub no_result: bool,
    /// Plies played in this playout (a removal is a ply of its own).
    pub plies: u32,
    /// Turns completed in this playout.
    pub turns: u32,
}

impl GameRecord {
    /// An end rule decided the game (neither cut off nor stuck).
    pub fn finished(&self) -> bool {
        self.end_rule.is_some()
    }
}

/// Play from `s` until an end rule decides, the game gets stuck or
/// `max_plies` plies have been played, seat `i` choosing with `agents[i]`.
/// `s` is left at the final position. `moves` is scratch space, reused so
/// the loop never allocates (apart from the engine's histories growing).
/// Searching agents are set up for this one game; [`playout_with`] reuses
/// them across games.
pub fn playout<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    agents: [AgentSpec; 2],
    rng: &mut SmallRng,
    max_plies: u32,
    moves: &mut Vec<Move>,
) -> GameRecord {
    let mut players = agents.map(Player::new);
    playout_with(m, s, &mut players, rng, max_plies, moves)
}

/// [`playout`] with the seats' players given (their tables kept as they
/// are: call [`Player::new_game`] first for a game independent of others).
///
/// The uniform and random agents draw their move with
/// [`Machine::sample_move`], which checks only the board plays it draws
/// (random looks at every move only when the draw loses at once); the
/// other agents look at every legal move.
pub fn playout_with<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    players: &mut [Player; 2],
    rng: &mut SmallRng,
    max_plies: u32,
    moves: &mut Vec<Move>,
) -> GameRecord {
    playout_counted(m, s, players, rng, max_plies, moves, None)
}

/// [`playout_with`], adding each move and rule event of the game to
/// `counts` (laid out by the plan) when given.
pub fn playout_counted<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    players: &mut [Player; 2],
    rng: &mut SmallRng,
    max_plies: u32,
    moves: &mut Vec<Move>,
    counts: Option<(&CountPlan, &mut [u64])>,
) -> GameRecord {
    playout_hashed(m, s, players, rng, max_plies, moves, counts).0
}

/// One move folded into the hash of a game's move sequence.
#[inline(always)]
pub(crate) fn hash_move(h: u64, mv: Move) -> u64 {
    let code = (mv.kind as u64) << 32 | (mv.from as u64) << 16 | mv.to as u64;
    crate::seeds::splitmix64(h ^ code)
}

/// [`playout_counted`], with the hash of the moves played ([`hash_move`]
/// over the sequence): games with the same hash played the same moves.
pub(crate) fn playout_hashed<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    players: &mut [Player; 2],
    rng: &mut SmallRng,
    max_plies: u32,
    moves: &mut Vec<Move>,
    mut counts: Option<(&CountPlan, &mut [u64])>,
) -> (GameRecord, u64) {
    let mut hash = 0u64;
    let start_ply = s.pos.ply;
    let start_turn = s.pos.turn;
    let start_captured = s.pos.captured;
    let record = |s: &State<W>, outcome: Option<Outcome>, stuck: bool| {
        let score = outcome.and_then(|o| {
            let end = m.rules.end.get(o.rule as usize)?;
            (end.verdict == Verdict::Score).then(|| m.score(s, &Bits::EMPTY))
        });
        GameRecord {
            winner: outcome.and_then(|o| o.winner),
            end_rule: outcome.map(|o| o.rule),
            stuck,
            no_result: outcome.is_some_and(|o| o.is_no_result(&m.rules)),
            score,
            captured: [
                s.pos.captured[0] - start_captured[0],
                s.pos.captured[1] - start_captured[1],
            ],
            plies: s.pos.ply - start_ply,
            turns: s.pos.turn - start_turn,
        }
    };
    loop {
        let player = &mut players[s.pos.to_move as usize & 1];
        let mv = match player.spec {
            AgentSpec::Uniform | AgentSpec::Random => {
                match m.sample_move(s, moves, &mut |n| pick(rng, n as usize) as u32) {
                    Sample::Move(mv)
                        if player.spec == AgentSpec::Uniform || danger_of(m, s, mv) == 0 =>
                    {
                        mv
                    }
                    Sample::Move(_) => {
                        // The draw loses at once (or passes into a lost count):
                        // choose among the moves that do not.
                        m.legal_moves(s, moves);
                        random_by_count(m, s, moves, rng)
                    }
                    Sample::Over(o) => return (record(s, Some(o), false), hash),
                    Sample::Stuck => return (record(s, None, true), hash),
                }
            }
            _ => {
                if let Some(o) = m.legal_moves(s, moves) {
                    return (record(s, Some(o), false), hash);
                }
                if moves.is_empty() {
                    return (record(s, None, true), hash);
                }
                player.choose(m, s, moves, rng)
            }
        };
        if s.pos.ply - start_ply >= max_plies {
            return (record(s, None, false), hash);
        }
        hash = hash_move(hash, mv);
        if let Some((plan, c)) = &mut counts {
            plan.turn(m, s, moves, c);
            m.apply(s, mv);
            plan.moved(s, mv, c);
        } else {
            m.apply(s, mv);
        }
    }
}
