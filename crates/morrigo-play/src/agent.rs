//! Move-choosing agents. Each is deterministic given the random generator
//! (and, for alpha-beta, without a time budget): the same position, moves
//! and generator state always give the same move.

use crate::mcts::Mcts;
use crate::moves::{apply_unless_lost, pick};
use crate::search::{AlphaBeta, SearchInfo};
use crate::spec::AgentSpec;
use morrigo_engine::{Bits, Machine, Move, MoveKind, State};
use rand::rngs::SmallRng;
use rand::Rng;
use std::cell::RefCell;

/// One seat's agent: its specification and, for searching agents, the
/// tables it keeps from move to move (allocated once, here).
pub struct Player {
    /// What agent this is, with its parameters.
    pub spec: AgentSpec,
    search: Option<Box<AlphaBeta>>,
    mcts: Option<Box<Mcts>>,
    /// The perfect agent's table, found on its first move.
    perfect: Option<crate::perfect::Exact>,
    /// The root moves left after [`root_moves`], and scratch for it:
    /// allocated once, reused every move.
    safe: Vec<Move>,
    scratch: Vec<Move>,
}

impl Player {
    /// A player for `spec`, with nothing carried over from any game.
    pub fn new(spec: AgentSpec) -> Self {
        let search = match spec {
            AgentSpec::AlphaBeta(p) => Some(Box::new(AlphaBeta::new(p))),
            _ => None,
        };
        let mcts = match spec {
            AgentSpec::Mcts(p) => Some(Box::new(Mcts::new(p))),
            _ => None,
        };
        Player {
            spec,
            search,
            mcts,
            perfect: None,
            safe: Vec::with_capacity(64),
            scratch: Vec::with_capacity(64),
        }
    }

    /// Start a new game: forget what earlier games taught the tables, so a
    /// game's moves depend only on its own seed.
    pub fn new_game(&mut self) {
        if let Some(ab) = &mut self.search {
            ab.clear();
        }
        if let Some(mc) = &mut self.mcts {
            mc.clear();
        }
    }

    /// What the last search found (searching agents only).
    pub fn last_search(&self) -> Option<SearchInfo> {
        match (&self.search, &self.mcts) {
            (Some(ab), _) => Some(ab.last()),
            (_, Some(mc)) => Some(mc.last()),
            _ => None,
        }
    }

    /// Visits and mean result of each root move of the last Monte Carlo
    /// search (empty for other agents).
    pub fn root_stats(&self) -> Vec<(Move, u32, f64)> {
        self.mcts
            .as_ref()
            .map_or_else(Vec::new, |mc| mc.root_stats())
    }

    /// The exact value of each of `moves` at `s` for the player to move,
    /// from the perfect agent's table (found here if no move was chosen
    /// yet); `None` for other agents or where the table lacks a value.
    pub fn exact_values<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        moves: &[Move],
    ) -> Option<Vec<(Move, morrigo_solve::Value)>> {
        let AgentSpec::Perfect(p) = self.spec else {
            return None;
        };
        self.perfect_table(&m.rules, p)?.move_values(m, s, moves)
    }

    /// The perfect agent's table, found on first use.
    fn perfect_table(
        &mut self,
        rules: &morrigo_rules::Rules,
        p: crate::spec::PerfectParams,
    ) -> Option<&crate::perfect::Exact> {
        if self.perfect.is_none() {
            self.perfect = crate::perfect::exact(rules, p);
        }
        self.perfect.as_ref()
    }

    /// The line the last search expects from `s` (searching agents only;
    /// call it with the position the search started from).
    pub fn principal_variation<const W: usize>(
        &self,
        m: &Machine<W>,
        s: &State<W>,
        max: usize,
    ) -> Vec<Move> {
        match (&self.search, &self.mcts) {
            (Some(ab), _) => ab.principal_variation(m, s, max),
            (_, Some(mc)) => mc.principal_variation(max),
            _ => Vec::new(),
        }
    }

    /// Pick one of `moves` (the non-empty legal moves of `s`) for the
    /// player to move. `s` is left as it was (agents probe moves with
    /// apply/undo). Every agent but `uniform` chooses among [`root_moves`]:
    /// never a move that loses at once, nor a pass that loses by the count,
    /// while another move exists.
    pub fn choose<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        moves: &[Move],
        rng: &mut SmallRng,
    ) -> Move {
        debug_assert!(!moves.is_empty(), "choose needs at least one legal move");
        match self.spec {
            AgentSpec::Uniform => return moves[pick(rng, moves.len())],
            // Its own draws skip the moves a full filter would (same result).
            AgentSpec::Random => return random(m, s, moves, rng),
            _ => {}
        }
        let mut safe = std::mem::take(&mut self.safe);
        root_moves(m, s, moves, &mut safe, &mut self.scratch);
        let mv = self.choose_among(m, s, &safe, rng);
        self.safe = safe;
        mv
    }

    fn choose_among<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        moves: &[Move],
        rng: &mut SmallRng,
    ) -> Move {
        match self.spec {
            AgentSpec::Uniform => moves[pick(rng, moves.len())],
            AgentSpec::Random => random(m, s, moves, rng),
            AgentSpec::Greedy => greedy(m, s, moves, rng),
            AgentSpec::AlphaBeta(_) => match &mut self.search {
                Some(ab) => ab.choose(m, s, moves, rng),
                None => greedy(m, s, moves, rng),
            },
            AgentSpec::Mcts(_) => match &mut self.mcts {
                Some(mc) => mc.choose(m, s, moves, rng),
                None => greedy(m, s, moves, rng),
            },
            AgentSpec::Perfect(p) => match self.perfect_table(&m.rules, p) {
                Some(t) => t
                    .choose(m, s, moves, rng)
                    .map_or_else(|| greedy(m, s, moves, rng), |(mv, _)| mv),
                None => greedy(m, s, moves, rng),
            },
        }
    }
}

/// How bad a root move is at once: 0 neither of the below; 1 a pass after
/// which the opponent can end the game with a pass of their own and the
/// mover lost (two-pass endings: the count says so); 2 it ends the game at
/// once with its mover lost (a suicide that loses under JK included).
/// Only passes look a ply further: after any other move a pass cannot
/// end the game, and the check stays one apply per move.
#[inline]
pub fn danger<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    mv: Move,
    scratch: &mut Vec<Move>,
) -> u8 {
    let me = s.pos.to_move;
    let Some((u, outcome)) = apply_unless_lost(m, s, mv) else {
        return 2;
    };
    let mut level = 0;
    if mv.kind == MoveKind::Pass && outcome.is_none() && s.pos.pending == 0 && s.pos.to_move != me {
        match m.legal_moves(s, scratch) {
            Some(o) => level = u8::from(o.winner == Some(me ^ 1)),
            None => {
                for &reply in scratch.iter().filter(|r| r.kind == MoveKind::Pass) {
                    let u2 = m.apply(s, reply);
                    let lost = s.pos.pending == 0
                        && m.outcome(s).is_some_and(|o| o.winner == Some(me ^ 1));
                    m.undo(s, u2);
                    if lost {
                        level = 1;
                        break;
                    }
                }
            }
        }
    }
    m.undo(s, u);
    level
}

/// The moves of `moves` an agent may choose among, into `out`: those that
/// win at once if any do, else those of the lowest [`danger`] (all of them
/// when every move loses at once), in their order. The same for every ruleset: only the engine's outcomes
/// are read.
pub fn root_moves<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    moves: &[Move],
    out: &mut Vec<Move>,
    scratch: &mut Vec<Move>,
) {
    out.clear();
    if moves.len() == 1 {
        out.push(moves[0]);
        return;
    }
    // A move that ends the game at once, won, is played: a search that sees
    // a win either way (now or a few plies on) must not drift into the
    // longer line, where a budget or a playout can still lose it.
    out.extend(moves.iter().copied().filter(|&mv| wins_at_once(m, s, mv)));
    if !out.is_empty() {
        return;
    }
    let mut lowest = u8::MAX;
    for &mv in moves {
        let d = danger(m, s, mv, scratch);
        if d < lowest {
            lowest = d;
            out.clear();
        }
        if d == lowest {
            out.push(mv);
        }
    }
}

/// Whether playing `mv` ends the game at once (its turn over) with its
/// mover the winner.
pub fn wins_at_once<const W: usize>(m: &Machine<W>, s: &mut State<W>, mv: Move) -> bool {
    let me = s.pos.to_move;
    let u = m.apply(s, mv);
    let won = s.pos.pending == 0 && m.outcome(s).is_some_and(|o| o.winner == Some(me));
    m.undo(s, u);
    won
}

/// Draws tried before [`random`] looks at every move.
const RANDOM_TRIES: usize = 4;

thread_local! {
    /// Scratch move list for [`danger`]'s look past a pass.
    static DANGER: RefCell<Vec<Move>> = RefCell::new(Vec::with_capacity(64));
}

/// [`danger`] with a per-thread scratch list.
#[inline]
pub(crate) fn danger_of<const W: usize>(m: &Machine<W>, s: &mut State<W>, mv: Move) -> u8 {
    DANGER.with(|b| danger(m, s, mv, &mut b.borrow_mut()))
}

/// Uniform over the moves of the lowest [`danger`]: those that neither
/// lose at once nor pass into a lost count, else those that do not lose at
/// once, else all. Rejection sampling first (each draw uniform, kept when
/// it is safe), then an exact count: both steps are uniform over the
/// kept moves, so their combination is too.
pub(crate) fn random<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    moves: &[Move],
    rng: &mut SmallRng,
) -> Move {
    for _ in 0..RANDOM_TRIES.min(moves.len()) {
        let mv = moves[pick(rng, moves.len())];
        if danger_of(m, s, mv) == 0 {
            return mv;
        }
    }
    random_by_count(m, s, moves, rng)
}

/// The exact step of [`random`]: find the lowest danger, count the moves
/// that have it and pick one.
pub(crate) fn random_by_count<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    moves: &[Move],
    rng: &mut SmallRng,
) -> Move {
    let (mut lowest, mut n) = (u8::MAX, 0usize);
    for &mv in moves {
        let d = danger_of(m, s, mv);
        if d < lowest {
            (lowest, n) = (d, 0);
        }
        n += usize::from(d == lowest);
    }
    if lowest == 2 {
        // Every move loses at once: uniform over all (no draw wasted).
        return moves[pick(rng, moves.len())];
    }
    let k = pick(rng, n);
    moves
        .iter()
        .copied()
        .filter(|&mv| danger_of(m, s, mv) == lowest)
        .nth(k)
        .unwrap_or(moves[0])
}

// Scores of the greedy agent's one-ply evaluation.
const WIN: i32 = 100_000;
const LOSS: i32 = -100_000;
const LINE: i32 = 1_000;
const OPEN_AGAINST: i32 = -40;
const OPEN_FOR: i32 = 10;

thread_local! {
    /// Scratch move list for the greedy agent's look at the reply position.
    static REPLIES: RefCell<Vec<Move>> = RefCell::new(Vec::with_capacity(64));
}

fn greedy<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    moves: &[Move],
    rng: &mut SmallRng,
) -> Move {
    if moves.len() == 1 {
        return moves[0];
    }
    let me = s.pos.to_move;
    let board_plays = m.rules.play.is_some();
    REPLIES.with(|buf| {
        let mut replies = buf.borrow_mut();
        let mut best = i32::MIN;
        let mut best_move = moves[0];
        let mut ties = 0u32;
        for &mv in moves {
            let score = if board_plays {
                evaluate_go(m, s, mv, me)
            } else {
                evaluate(m, s, mv, me, &mut replies)
            };
            if score > best {
                best = score;
                best_move = mv;
                ties = 1;
            } else if score == best {
                // Reservoir sampling: each of the tied moves equally likely.
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    best_move = mv;
                }
            }
        }
        best_move
    })
}

/// Score `mv` for player `me` by playing it and looking at the result.
fn evaluate<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    mv: Move,
    me: u8,
    replies: &mut Vec<Move>,
) -> i32 {
    let u = m.apply(s, mv);
    let mut score = 0;
    if mv.kind != MoveKind::Remove && s.pos.lines_formed > 0 {
        score += LINE;
    }
    if s.pos.pending == 0 {
        // The turn passed: does the game end at the start of the next one?
        if let Some(o) = m.legal_moves(s, replies) {
            score += match o.winner {
                Some(w) if w == me => WIN,
                Some(_) => LOSS,
                None => 0,
            };
        }
    }
    let (mine, theirs) = open_lines(m, s, me);
    score += OPEN_FOR * mine as i32 + OPEN_AGAINST * theirs as i32;
    m.undo(s, u);
    score
}

/// Lines one short of complete with the last point empty: `(me's, opponent's)`.
fn open_lines<const W: usize>(m: &Machine<W>, s: &State<W>, me: u8) -> (u32, u32) {
    let occ = &s.pos.occ;
    let (mut mine, mut theirs) = (0, 0);
    for line in &m.rules.topology.lines {
        let (mut own, mut opp, mut empty) = (0usize, 0usize, 0usize);
        for &p in line {
            let p = p as usize;
            if occ[me as usize].has(p) {
                own += 1;
            } else if occ[(me ^ 1) as usize].has(p) {
                opp += 1;
            } else {
                empty += 1;
            }
        }
        if empty == 1 {
            if own + 1 == line.len() {
                mine += 1;
            } else if opp + 1 == line.len() {
                theirs += 1;
            }
        }
    }
    (mine, theirs)
}

// Scores of the greedy agent on Go-style rulesets. Every ordinary play
// scores above `PASS`; eye fills and suicides that only lose stones below it.
const CAPTURE_STONE: i32 = 1_000;
const RESCUE: i32 = 600;
const RESCUE_STONE: i32 = 100;
const SELF_ATARI: i32 = -3_000;
const SELF_ATARI_STONE: i32 = -100;
const ATARI: i32 = 50;
const LIBERTY: i32 = 5;
const PASS: i32 = -90_000;
const EYE_FILL: i32 = -95_000;
const SUICIDE_REMOVED: i32 = -97_000;

/// Score `mv` (a legal board play or pass) for player `me` on a ruleset
/// with board plays. Plays are judged from the engine's [`PlayEffect`]
/// and a liberty count; only captures, suicides and passes — the moves that
/// can end a game at once — are tried with apply/undo.
///
/// [`PlayEffect`]: morrigo_engine::PlayEffect
fn evaluate_go<const W: usize>(m: &Machine<W>, s: &mut State<W>, mv: Move, me: u8) -> i32 {
    match mv.kind {
        MoveKind::Play => {}
        MoveKind::Pass => {
            return match ends_game(m, s, mv, me) {
                Some(score) => score.max(LOSS + 1),
                None => PASS,
            }
        }
        // Not a Go move: judge it like any other ply (neutral).
        _ => return 0,
    }
    let p = mv.to as usize;
    let nbrs = &m.rules.topology.neighbours[p];
    let mine = s.pos.occ[me as usize];
    let theirs = s.pos.occ[(me ^ 1) as usize];
    let e = m.play_effect(s, mv.to);
    if e.suicide {
        return match e.suicide_effect {
            morrigo_rules::SuicideEffect::Remove => SUICIDE_REMOVED - e.own_chain.count() as i32,
            _ => ends_game(m, s, mv, me).unwrap_or(LOSS),
        };
    }
    if !nbrs.is_empty() && nbrs.iter().all(|&q| mine.has(q as usize)) {
        return EYE_FILL;
    }
    let captures = e.captured.count() as i32;
    let mut mine_after = mine;
    mine_after.set(p);
    let theirs_after = theirs.without(e.captured);
    let empty_before = m.empty(s);
    let empty_after = empty_before.or(e.captured).without(mine_after);
    let chain = m.chain(&mine_after, p);
    let libs = liberties(m, &chain, &empty_after);
    let mut score = CAPTURE_STONE * captures + LIBERTY * libs.min(4) as i32;
    if libs == 1 && captures == 0 {
        score += SELF_ATARI + SELF_ATARI_STONE * chain.count() as i32;
    }
    let mut seen = Bits::EMPTY;
    for &q in nbrs {
        let q = q as usize;
        if seen.has(q) {
            continue;
        }
        if mine.has(q) {
            // An own chain in atari before the play, with room after it.
            let own = m.chain(&mine, q);
            seen = seen.or(own);
            if libs >= 2 && liberties(m, &own, &empty_before) == 1 {
                score += RESCUE + RESCUE_STONE * own.count() as i32;
            }
        } else if theirs_after.has(q) {
            let other = m.chain(&theirs_after, q);
            seen = seen.or(other);
            if liberties(m, &other, &empty_after) == 1 {
                score += ATARI;
            }
        }
    }
    if captures > 0 {
        // Captures are where ko, repetition and end rules strike.
        if let Some(end) = ends_game(m, s, mv, me) {
            return end;
        }
    }
    score
}

/// If playing `mv` ends the game: `WIN`, `LOSS` or `PASS` for a draw.
fn ends_game<const W: usize>(m: &Machine<W>, s: &mut State<W>, mv: Move, me: u8) -> Option<i32> {
    let u = m.apply(s, mv);
    let outcome = if s.pos.pending == 0 {
        m.outcome(s)
    } else {
        None
    };
    m.undo(s, u);
    outcome.map(|o| match o.winner {
        Some(w) if w == me => WIN,
        Some(_) => LOSS,
        None => PASS,
    })
}

/// Empty points next to `chain`.
fn liberties<const W: usize>(m: &Machine<W>, chain: &Bits<W>, empty: &Bits<W>) -> u32 {
    let nbrs = &m.rules.topology.neighbours;
    let mut libs = Bits::<W>::EMPTY;
    for q in chain.iter() {
        for &r in &nbrs[q] {
            if empty.has(r as usize) {
                libs.set(r as usize);
            }
        }
    }
    libs.count()
}
