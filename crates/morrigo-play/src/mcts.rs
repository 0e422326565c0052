//! The Monte Carlo tree search agent (UCT). Passes and pass kinds are
//! ordinary moves to it; playouts follow [`playout_move`]: the `random`
//! agent's policy plus, for board plays, never filling a point all of whose
//! neighbours are the mover's own pieces (a generic graph rule: an eye on
//! any board).

use crate::agent::{apply_unless_lost, loses_at_once, pick};
use crate::spec::MctsParams;
use morrigo_engine::{Machine, Move, MoveKind, Outcome, Sample, State, Undo};
use rand::rngs::SmallRng;
use std::time::Instant;

/// Plies of one playout before it is scored a draw.
pub const MCTS_PLAYOUT_PLIES: u32 = 600;

/// Most nodes of one search tree (32 bytes each: 128 MiB). A leaf reached
/// when the tree is full is not expanded; playouts from it still count.
pub const MCTS_MAX_NODES: usize = 1 << 22;

struct Node {
    mv: Move,
    /// The player who made `mv` (scores are from this player's view).
    mover: u8,
    first_child: u32,
    children: u32,
    expanded: bool,
    visits: u32,
    /// Sum of results for `mover`: 1 a win, ½ a draw, 0 a loss.
    value: f64,
}

/// The tree of one seat, its node arena reused from move to move.
pub struct Mcts {
    params: MctsParams,
    nodes: Vec<Node>,
    moves: Vec<Move>,
    last: crate::search::SearchInfo,
    /// The root child the last search chose (ties drawn), where its line
    /// starts.
    chosen: Option<usize>,
}

/// Whether `mv` is a board play on a point every neighbour of which holds
/// one of the mover's pieces.
#[inline]
pub fn fills_own_eye<const W: usize>(m: &Machine<W>, s: &State<W>, mv: Move) -> bool {
    if mv.kind != MoveKind::Play {
        return false;
    }
    let own = &s.pos.occ[s.pos.to_move as usize & 1];
    let nbrs = &m.rules.topology.neighbours[mv.to as usize];
    !nbrs.is_empty() && nbrs.iter().all(|&q| own.has(q as usize))
}

/// One move of the playout policy: uniform among the moves that neither
/// lose at once nor fill an own eye; failing those, among the moves that do
/// not lose at once; failing those, among all. `None` when the turn has no
/// move (the caller asks the engine why). `s` is left as it was.
pub fn playout_move<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    buf: &mut Vec<Move>,
    rng: &mut SmallRng,
) -> Option<Move> {
    let (mv, u, _) = policy_step(m, s, buf, rng, false)?;
    m.undo(s, u);
    Some(mv)
}

/// [`playout_move`], played: the move, its undo, and the outcome of the
/// position reached when the turn is over (as `Machine::outcome`; `None`
/// while a removal is owed). Checking a move plays it, so the move kept is
/// not played twice. `ongoing`: no end rule holds in `s` (the last step
/// found no outcome at the end of a turn).
fn policy_step<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    buf: &mut Vec<Move>,
    rng: &mut SmallRng,
    ongoing: bool,
) -> Option<(Move, Undo<W>, Option<Outcome>)> {
    // Drawn without replacement, each checked only when drawn: uniform
    // over the moves the first rule accepts, at the cost of the moves
    // looked at.
    let mut kept = None;
    let mut draw = |n: u32| pick(rng, n as usize) as u32;
    let mut good = |s: &mut State<W>, mv: Move| {
        if fills_own_eye(m, s, mv) {
            return false;
        }
        kept = apply_unless_lost(m, s, mv);
        kept.is_some()
    };
    match m.sample_move_where(s, buf, &mut draw, &mut good, ongoing) {
        Sample::Move(mv) => {
            let (u, outcome) = kept.expect("an accepted move is played");
            return Some((mv, u, outcome));
        }
        Sample::Over(_) => return None,
        Sample::Stuck => {}
    }
    // Every legal move fills an eye or loses at once (or there is none).
    if m.legal_moves(s, buf).is_some() || buf.is_empty() {
        return None;
    }
    let n = buf.iter().filter(|&&mv| !loses_at_once(m, s, mv)).count();
    let mv = if n > 0 {
        let k = pick(rng, n);
        buf.iter()
            .copied()
            .filter(|&mv| !loses_at_once(m, s, mv))
            .nth(k)?
    } else {
        buf[pick(rng, buf.len())]
    };
    let u = m.apply(s, mv);
    let outcome = if s.pos.pending == 0 {
        m.outcome(s)
    } else {
        None
    };
    Some((mv, u, outcome))
}

impl Mcts {
    pub fn new(params: MctsParams) -> Self {
        Mcts {
            params,
            nodes: Vec::new(),
            moves: Vec::with_capacity(64),
            last: Default::default(),
            chosen: None,
        }
    }

    pub fn last(&self) -> crate::search::SearchInfo {
        self.last
    }

    /// Visits and mean result of each root move of the last search.
    pub fn root_stats(&self) -> Vec<(Move, u32, f64)> {
        let Some(root) = self.nodes.first() else {
            return Vec::new();
        };
        let a = root.first_child as usize;
        self.nodes[a..a + root.children as usize]
            .iter()
            .map(|n| (n.mv, n.visits, n.value / n.visits.max(1) as f64))
            .collect()
    }

    /// The most visited line from the root, from the move chosen.
    pub fn principal_variation(&self, max: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut at = 0usize;
        while line.len() < max && at < self.nodes.len() && self.nodes[at].expanded {
            let n = &self.nodes[at];
            let a = n.first_child as usize;
            let most = (a..a + n.children as usize).max_by_key(|&i| self.nodes[i].visits);
            let Some(best) = (if at == 0 { self.chosen.or(most) } else { most }) else {
                break;
            };
            if self.nodes[best].visits == 0 {
                break;
            }
            line.push(self.nodes[best].mv);
            at = best;
        }
        line
    }

    /// The most visited of `moves` after `playouts` playouts from `s`,
    /// ties drawn with `rng`.
    pub fn choose<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        moves: &[Move],
        rng: &mut SmallRng,
    ) -> Move {
        let started = Instant::now();
        self.nodes.clear();
        self.chosen = None;
        self.last = Default::default();
        let me = s.pos.to_move;
        self.nodes.push(Node {
            mv: moves[0],
            mover: me ^ 1,
            first_child: 1,
            children: moves.len() as u32,
            expanded: true,
            visits: 0,
            value: 0.0,
        });
        for &mv in moves {
            self.nodes.push(leaf(mv, me));
        }
        if moves.len() > 1 {
            let c = self.params.c_milli as f64 / 1000.0;
            let mut path: Vec<u32> = Vec::with_capacity(64);
            let mut undos: Vec<Undo<W>> = Vec::with_capacity(256);
            for _ in 0..self.params.playouts {
                path.clear();
                path.push(0);
                let mut at = 0usize;
                // Selection: down the expanded nodes by UCT.
                while self.nodes[at].expanded && self.nodes[at].children > 0 {
                    at = self.select(at, c);
                    path.push(at as u32);
                    undos.push(m.apply(s, self.nodes[at].mv));
                }
                // Expansion: the legal moves of the reached position.
                let mut result = None;
                let full = self.nodes.len() >= MCTS_MAX_NODES;
                // Terminal nodes are never expanded: the engine is asked again.
                if !self.nodes[at].expanded {
                    match m.legal_moves(s, &mut self.moves) {
                        Some(o) => result = Some(o.winner),
                        None if self.moves.is_empty() => result = Some(None),
                        None if full || self.nodes.len() + self.moves.len() > MCTS_MAX_NODES => {}
                        None => {
                            self.nodes[at].expanded = true;
                            let to_move = s.pos.to_move;
                            self.nodes[at].first_child = self.nodes.len() as u32;
                            self.nodes[at].children = self.moves.len() as u32;
                            for i in 0..self.moves.len() {
                                let mv = self.moves[i];
                                self.nodes.push(leaf(mv, to_move));
                            }
                        }
                    }
                }
                let depth = undos.len();
                let winner = match result {
                    Some(w) => w,
                    None => self.rollout(m, s, rng, &mut undos),
                };
                while let Some(u) = undos.pop() {
                    m.undo(s, u);
                }
                self.last.depth = self.last.depth.max(depth as u32);
                for &i in &path {
                    let n = &mut self.nodes[i as usize];
                    n.visits += 1;
                    n.value += match winner {
                        Some(w) if w == n.mover => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    };
                }
            }
        }
        let root = &self.nodes[0];
        let a = root.first_child as usize;
        // The most visited; among equally visited moves one drawn with the
        // seed (reservoir sampling, nothing drawn without a tie).
        let (mut best, mut ties) = (a, 0u32);
        for i in a..a + root.children as usize {
            let (v, top) = (self.nodes[i].visits, self.nodes[best].visits);
            if v > top || i == a {
                (best, ties) = (i, 1);
            } else if v == top {
                ties += 1;
                if pick(rng, ties as usize) == 0 {
                    best = i;
                }
            }
        }
        self.chosen = Some(best);
        let b = &self.nodes[best];
        self.last.nodes = self.params.playouts as u64;
        self.last.score = (1000.0 * b.value / b.visits.max(1) as f64).round() as i32;
        self.last.elapsed = started.elapsed();
        b.mv
    }

    /// The child of `at` with the highest UCT value; unvisited children first.
    fn select(&self, at: usize, c: f64) -> usize {
        let n = &self.nodes[at];
        let a = n.first_child as usize;
        let ln = (n.visits.max(1) as f64).ln();
        let mut best = (a, f64::MIN);
        for i in a..a + n.children as usize {
            let ch = &self.nodes[i];
            if ch.visits == 0 {
                return i;
            }
            let v = ch.value / ch.visits as f64 + c * (ln / ch.visits as f64).sqrt();
            if v > best.1 {
                best = (i, v);
            }
        }
        best.0
    }

    /// Play the policy to the end (or the ply cap, a draw); the winner.
    fn rollout<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        rng: &mut SmallRng,
        undos: &mut Vec<Undo<W>>,
    ) -> Option<u8> {
        let mut ongoing = false;
        for _ in 0..MCTS_PLAYOUT_PLIES {
            match policy_step(m, s, &mut self.moves, rng, ongoing) {
                Some((_, u, outcome)) => {
                    undos.push(u);
                    if let Some(o) = outcome {
                        return o.winner;
                    }
                    // The outcome was asked at the end of the turn.
                    ongoing = s.pos.pending == 0;
                }
                None => return m.legal_moves(s, &mut self.moves).and_then(|o| o.winner),
            }
        }
        None
    }
}

fn leaf(mv: Move, mover: u8) -> Node {
    Node {
        mv,
        mover,
        first_child: 0,
        children: 0,
        expanded: false,
        visits: 0,
        value: 0.0,
    }
}
