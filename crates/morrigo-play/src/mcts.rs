//! The Monte Carlo tree search agent, the same code for every ruleset.
//!
//! MC-RAVE after MoGo, Fuego and Pachi: UCT on the results of the moves
//! tried, blended with all-moves-as-first (AMAF) results early on
//! (`beta = n_amaf / (n_amaf + n + n·n_amaf / rave)`), and priors from the
//! engine's knowledge counted as playouts already run (captures, rescues of
//! chains in atari, self-ataris, eye fills, moves near the last one, the
//! ruleset's playout shapes, lines to close or block). `rave=0` is plain UCT
//! with exploration `c` and no priors.
//! Playouts follow [`policy_step`]: captures and rescues around the last
//! board play, then a point next to it where one of the ruleset's 3×3
//! `playout.shapes` holds, lines to close or block, otherwise uniform among the moves
//! that neither lose at once, nor fill an own eye, nor put a chain of two or
//! more stones in atari; passes only when nothing else is left. The tree is
//! kept from move to move (the subtree of the position reached), a `time=`
//! budget runs playouts until it is spent, `threads=N` searches N trees from
//! the root at once (root parallelism) and adds their root visits.

use crate::moves::{apply_unless_lost, loses_at_once, pick};
use crate::spec::MctsParams;
use morrigo_engine::{
    Bits, Machine, Move, MoveKind, Outcome, Point, Sample, State, Undo, NO_POINT,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// Plies of one playout before it is scored a draw.
pub const MCTS_PLAYOUT_PLIES: u32 = 600;

/// Most nodes of one search tree (48 bytes each: 96 MiB; `threads=N`
/// keeps N trees). A leaf reached when the tree is full is not expanded;
/// playouts from it still count.
pub const MCTS_MAX_NODES: usize = 1 << 21;

/// Plies below the last search's root where the new root is looked for.
const REUSE_PLIES: usize = 4;

// Priors, in playouts of equivalent experience (Pachi's "eqex"): every
// move starts at PRIOR_EVEN playouts of half wins, then gains wins or
// losses for what the engine sees in it.
const PRIOR_EVEN: u16 = 10;
const PRIOR_CAPTURE: u16 = 20;
const PRIOR_RESCUE: u16 = 20;
const PRIOR_SELF_ATARI: u16 = 20;
const PRIOR_EYE_FILL: u16 = 30;
const PRIOR_NEAR_LAST: u16 = 8;
const PRIOR_SHAPE: u16 = 10;
const PRIOR_LONE_EDGE: u16 = 10;
const PRIOR_PASS: u16 = 30;
const PRIOR_CLOSE_LINE: u16 = 20;
const PRIOR_BLOCK_LINE: u16 = 10;

#[derive(Clone, Copy, Debug)]
struct Node {
    mv: Move,
    /// The player who made `mv` (scores are from this player's view).
    mover: u8,
    expanded: bool,
    /// Prior playouts and wins, counted in `n` and `w`.
    pn: u16,
    first_child: u32,
    children: u32,
    /// Playouts through the node (priors included).
    n: u32,
    /// Sum of results for `mover`: 1 a win, ½ a draw, 0 a loss.
    w: f32,
    pw: f32,
    /// AMAF playouts and results: playouts below the parent in which
    /// `mover` played `mv` later.
    an: u32,
    aw: f32,
    /// Position key (with the ply) once expanded: where the tree is found
    /// again at the next move.
    key: u64,
}

// The memory bound above counts on this size.
const _: () = assert!(std::mem::size_of::<Node>() == 48);

impl Node {
    fn leaf(mv: Move, mover: u8, pn: u16, pw: f32) -> Self {
        Node {
            mv,
            mover,
            expanded: false,
            pn,
            first_child: 0,
            children: 0,
            n: pn as u32,
            w: pw,
            pw,
            an: 0,
            aw: 0.0,
            key: 0,
        }
    }

    /// Playouts run through the node (priors not counted).
    fn visits(&self) -> u32 {
        self.n - self.pn as u32
    }

    fn mean(&self) -> f64 {
        let v = self.visits();
        if v == 0 {
            0.5
        } else {
            ((self.w - self.pw) / v as f32) as f64
        }
    }
}

/// One search tree with its scratch space.
struct Tree {
    nodes: Vec<Node>,
    moves: Vec<Move>,
    /// Moves of the current playout from the root, with their movers.
    seq: Vec<(Move, u8)>,
    path: Vec<u32>,
    /// Per mover and move code: (generation, ply of first play).
    amaf: Vec<u32>,
    generation: u32,
    /// The last board play before the root (priors near it), when known.
    last: Point,
    depth: u32,
}

/// The trees of one seat, their arenas reused from move to move.
pub struct Mcts {
    params: MctsParams,
    trees: Vec<Tree>,
    last: crate::search::SearchInfo,
    /// Root moves of the last search: (move, visits, mean result).
    stats: Vec<(Move, u32, f64)>,
    /// The root move the last search chose (ties drawn), where its line
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

/// One move of the playout policy without knowing the last move: uniform
/// among the moves that neither lose at once, nor fill an own eye, nor put
/// an own chain of two or more stones in atari, nor pass; failing those,
/// a pass or a move that does not lose at once; failing those, any. `None`
/// when the turn has no move (the caller asks the engine why). `s` is left
/// as it was.
pub fn playout_move<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    buf: &mut Vec<Move>,
    rng: &mut SmallRng,
) -> Option<Move> {
    let (mv, u, _) = policy_step(m, s, buf, rng, false, NO_POINT)?;
    m.undo(s, u);
    Some(mv)
}

/// The empty points next to `chain`: how many (up to 2) and one of them.
#[inline]
fn liberties<const W: usize>(m: &Machine<W>, chain: &Bits<W>, empty: &Bits<W>) -> (u32, Point) {
    let nbrs = &m.rules.topology.neighbours;
    let mut libs = Bits::<W>::EMPTY;
    let (mut n, mut one) = (0, NO_POINT);
    for q in chain.iter() {
        for &r in &nbrs[q] {
            let r = r as usize;
            if empty.has(r) && !libs.has(r) {
                libs.set(r);
                n += 1;
                one = r as Point;
                if n >= 2 {
                    return (n, one);
                }
            }
        }
    }
    (n, one)
}

/// Liberties (up to 2) of the mover's chain through `p` after a play on
/// empty `p` that captures nothing.
#[inline]
fn libs_after_play<const W: usize>(m: &Machine<W>, s: &State<W>, p: Point) -> (u32, u32) {
    let me = s.pos.to_move as usize & 1;
    let mut mine = s.pos.occ[me];
    mine.set(p as usize);
    let mut empty = m.empty(s);
    empty.clear(p as usize);
    let chain = m.chain(&mine, p as usize);
    (liberties(m, &chain, &empty).0, chain.count())
}

/// A board play on empty `p` that captures nothing and leaves the mover's
/// chain through it, of at least `stones` stones, with one liberty or none.
#[inline]
fn self_atari<const W: usize>(m: &Machine<W>, s: &State<W>, p: Point, stones: u32) -> bool {
    let empty = m.empty(s);
    let free = m.rules.topology.neighbours[p as usize]
        .iter()
        .filter(|&&q| empty.has(q as usize))
        .count();
    if free >= 2 {
        return false;
    }
    if !m.play_effect(s, p).captured.is_empty() {
        return false;
    }
    let (libs, size) = libs_after_play(m, s, p);
    libs <= 1 && size >= stones
}

/// A self-atari of a chain of two or more stones (a single stone may be
/// thrown in).
#[inline]
fn big_self_atari<const W: usize>(m: &Machine<W>, s: &State<W>, p: Point) -> bool {
    self_atari(m, s, p, 2)
}

/// Most tactical candidates looked at per ply.
const MAX_CANDIDATES: usize = 16;

/// MoGo's replies to the last board play `last` (an opponent's stone):
/// capture its chain when in atari; save an own chain next to it left in
/// atari, by capturing an attacker in atari or by extending when that
/// gains liberties. Into `out`, returns how many.
fn replies_to<const W: usize>(
    m: &Machine<W>,
    s: &State<W>,
    last: Point,
    out: &mut [Point; MAX_CANDIDATES],
) -> usize {
    let me = s.pos.to_move as usize & 1;
    let opp = me ^ 1;
    let occ = &s.pos.occ;
    let empty = m.empty(s);
    let mut k = 0;
    let mut push = |p: Point, k: &mut usize| {
        if *k < MAX_CANDIDATES && p != NO_POINT && !out[..*k].contains(&p) {
            out[*k] = p;
            *k += 1;
        }
    };
    let l = last as usize;
    if !occ[opp].has(l) {
        return 0;
    }
    let nbrs = &m.rules.topology.neighbours;
    // A stone with two empty neighbours keeps its chain out of atari.
    let free = |q: usize| nbrs[q].iter().filter(|&&r| empty.has(r as usize)).count();
    if free(l) < 2 {
        let theirs = m.chain(&occ[opp], l);
        let (n, lib) = liberties(m, &theirs, &empty);
        if n == 1 {
            push(lib, &mut k);
        }
    }
    let mut seen = Bits::<W>::EMPTY;
    for &q in &nbrs[l] {
        let q = q as usize;
        if !occ[me].has(q) || seen.has(q) || free(q) >= 2 {
            continue;
        }
        let own = m.chain(&occ[me], q);
        seen = seen.or(own);
        let (n, lib) = liberties(m, &own, &empty);
        if n != 1 {
            continue;
        }
        let mut attackers = Bits::<W>::EMPTY;
        for st in own.iter() {
            for &r in &nbrs[st] {
                let r = r as usize;
                if occ[opp].has(r) && !attackers.has(r) {
                    let ch = m.chain(&occ[opp], r);
                    attackers = attackers.or(ch);
                    let (an, alib) = liberties(m, &ch, &empty);
                    if an == 1 {
                        push(alib, &mut k);
                    }
                }
            }
        }
        if libs_after_play(m, s, lib).0 >= 2 {
            push(lib, &mut k);
        }
    }
    k
}

/// MoGo's shape replies: an empty point next to the last board play
/// (diagonals included) where one of the ruleset's `playout.shapes`
/// holds, drawn at random among those that put no own chain in atari
/// (single stones included, as Pachi's `moggy` does), are legal and do not
/// lose at once. Played, with its undo and outcome.
fn shape_reply<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    last: Point,
    rng: &mut SmallRng,
) -> Option<(Move, Undo<W>, Option<Outcome>)> {
    let around = *m.cells_around(last)?;
    let empty = m.empty(s);
    let mut cands = [NO_POINT; 8];
    let mut k = 0;
    for q in around {
        if q != NO_POINT && empty.has(q as usize) && m.shape_at(s, q) {
            cands[k] = q;
            k += 1;
        }
    }
    while k > 0 {
        let i = pick(rng, k);
        let p = cands[i];
        cands.swap(i, k - 1);
        k -= 1;
        if self_atari(m, s, p, 1) || !m.play_legal(s, p) {
            continue;
        }
        if let Some((u, o)) = apply_unless_lost(m, s, Move::play(p)) {
            return Some((Move::play(p), u, o));
        }
    }
    None
}

/// Line games: moves that close a line of the mover's (first) or fill
/// the last gap of an opponent's line (second).
fn line_moves<const W: usize>(m: &Machine<W>, s: &State<W>, moves: &[Move], close: bool) -> u32 {
    let me = s.pos.to_move as usize & 1;
    let mut count = 0;
    for &mv in moves {
        count += u32::from(line_kind(m, s, mv, me) == Some(close));
    }
    count
}

/// `Some(true)` when `mv` completes a line of the mover's, `Some(false)`
/// when it takes the last empty point of an opponent's line.
#[inline]
fn line_kind<const W: usize>(m: &Machine<W>, s: &State<W>, mv: Move, me: usize) -> Option<bool> {
    if !matches!(mv.kind, MoveKind::Place | MoveKind::Slide | MoveKind::Fly) {
        return None;
    }
    let to = mv.to as usize;
    let mut own = s.pos.occ[me];
    if mv.from != NO_POINT {
        own.clear(mv.from as usize);
    }
    own.set(to);
    if m.lines_at(&own, to) > 0 {
        return Some(true);
    }
    let mut theirs = s.pos.occ[me ^ 1];
    theirs.set(to);
    (m.lines_at(&theirs, to) > 0).then_some(false)
}

/// [`playout_move`], played, knowing the last board play (`NO_POINT` when
/// none): the move, its undo, and the outcome of the position reached
/// when the turn is over (as `Machine::outcome`; `None` while a removal
/// is owed). `ongoing`: no end rule holds in `s` (the last step found no
/// outcome at the end of a turn).
fn policy_step<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    buf: &mut Vec<Move>,
    rng: &mut SmallRng,
    ongoing: bool,
    last: Point,
) -> Option<(Move, Undo<W>, Option<Outcome>)> {
    let board = m.rules.play.is_some() && s.pos.pending == 0;
    let over = |s: &State<W>| !ongoing && m.outcome(s).is_some();
    if board && last != NO_POINT && !over(s) {
        let mut cands = [NO_POINT; MAX_CANDIDATES];
        let mut k = replies_to(m, s, last, &mut cands);
        if k > 0 && m.allowed_actions(s, m.phase(s))[morrigo_rules::ActionKind::Play as usize] {
            while k > 0 {
                let i = pick(rng, k);
                let p = cands[i];
                if m.play_legal(s, p) {
                    if let Some((u, o)) = apply_unless_lost(m, s, Move::play(p)) {
                        return Some((Move::play(p), u, o));
                    }
                }
                cands.swap(i, k - 1);
                k -= 1;
            }
        }
    }
    if board && last != NO_POINT && !over(s) {
        if let Some(step) = shape_reply(m, s, last, rng) {
            return Some(step);
        }
    }
    if !board && !m.rules.topology.lines.is_empty() && !over(s) {
        // Close a line, else block one, when such moves exist.
        if m.legal_moves(s, buf).is_none() && !buf.is_empty() {
            for close in [true, false] {
                let mut k = line_moves(m, s, buf, close);
                while k > 0 {
                    let j = pick(rng, k as usize) as u32;
                    let me = s.pos.to_move as usize & 1;
                    let mut seen = 0;
                    let mut chosen = None;
                    for (i, &mv) in buf.iter().enumerate() {
                        if line_kind(m, s, mv, me) == Some(close) {
                            if seen == j {
                                chosen = Some(i);
                                break;
                            }
                            seen += 1;
                        }
                    }
                    let i = chosen?;
                    let mv = buf[i];
                    if let Some((u, o)) = apply_unless_lost(m, s, mv) {
                        return Some((mv, u, o));
                    }
                    buf.swap_remove(i);
                    k -= 1;
                }
            }
        }
    }
    // Drawn without replacement, each checked only when drawn: uniform
    // over the moves the rule accepts, at the cost of the moves looked at.
    let mut kept = None;
    let mut draw = |n: u32| pick(rng, n as usize) as u32;
    let mut good = |s: &mut State<W>, mv: Move| {
        if mv.kind == MoveKind::Pass
            || fills_own_eye(m, s, mv)
            || (mv.kind == MoveKind::Play && big_self_atari(m, s, mv.to))
        {
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
    // Every legal move passes, fills an eye, puts a chain in atari or
    // loses at once (or there is none): a pass that does not lose, else
    // any move that does not, else any.
    if m.legal_moves(s, buf).is_some() || buf.is_empty() {
        return None;
    }
    let safe = |s: &mut State<W>, mv: Move| !loses_at_once(m, s, mv);
    let mut best = None;
    for pass_only in [true, false] {
        let n = buf
            .iter()
            .filter(|&&mv| (!pass_only || mv.kind == MoveKind::Pass) && safe(s, mv))
            .count();
        if n > 0 {
            let k = pick(rng, n);
            best = buf
                .iter()
                .copied()
                .filter(|&mv| (!pass_only || mv.kind == MoveKind::Pass) && safe(s, mv))
                .nth(k);
            break;
        }
    }
    let mv = best.unwrap_or_else(|| buf[pick(rng, buf.len())]);
    let u = m.apply(s, mv);
    let outcome = if s.pos.pending == 0 {
        m.outcome(s)
    } else {
        None
    };
    Some((mv, u, outcome))
}

/// Priors of `mv` in `s` (its mover to move): (playouts, wins).
fn prior<const W: usize>(m: &Machine<W>, s: &State<W>, mv: Move, last: Point) -> (u16, f32) {
    let (mut n, mut w) = (PRIOR_EVEN, PRIOR_EVEN as f32 / 2.0);
    let mut add = |playouts: u16, win: bool| {
        n += playouts;
        if win {
            w += playouts as f32;
        }
    };
    let me = s.pos.to_move as usize & 1;
    let nbrs = &m.rules.topology.neighbours;
    match mv.kind {
        MoveKind::Play => {
            let p = mv.to as usize;
            if fills_own_eye(m, s, mv) {
                add(PRIOR_EYE_FILL, false);
                return (n, w);
            }
            let e = m.play_effect(s, mv.to);
            let empty = m.empty(s);
            let (libs, stones) = libs_after_play(m, s, mv.to);
            if !e.captured.is_empty() {
                add(PRIOR_CAPTURE, true);
            } else if libs <= 1 && stones >= 2 {
                add(PRIOR_SELF_ATARI, false);
            }
            if libs >= 2 {
                let mine = &s.pos.occ[me];
                let rescues = nbrs[p].iter().any(|&q| {
                    mine.has(q as usize) && liberties(m, &m.chain(mine, q as usize), &empty).0 == 1
                });
                if rescues {
                    add(PRIOR_RESCUE, true);
                }
            }
            let mut near_last = false;
            let mut near_stone = false;
            let occupied = s.pos.occ[0].or(s.pos.occ[1]);
            for &q in &nbrs[p] {
                near_last |= q == last;
                near_stone |= occupied.has(q as usize);
                for &r in &nbrs[q as usize] {
                    near_last |= r == last;
                    near_stone |= occupied.has(r as usize);
                }
            }
            if near_last {
                add(PRIOR_NEAR_LAST, true);
            }
            if m.shape_at(s, mv.to) {
                add(PRIOR_SHAPE, true);
            }
            let most = nbrs.iter().map(Vec::len).max().unwrap_or(0);
            if !near_stone && nbrs[p].len() < most {
                add(PRIOR_LONE_EDGE, false);
            }
        }
        MoveKind::Pass if m.rules.play.is_some() => add(PRIOR_PASS, false),
        _ => match line_kind(m, s, mv, me) {
            Some(true) => add(PRIOR_CLOSE_LINE, true),
            Some(false) => add(PRIOR_BLOCK_LINE, true),
            None => {}
        },
    }
    (n, w)
}

/// Weight of the score margin in a counted playout's result (the win
/// weighs the rest): small, so winning stays what the search wants.
const SCORE_WEIGHT: f32 = 0.1;

/// How a playout ended: the winner, and for a game the count decided the
/// first player's score minus the second's.
#[derive(Clone, Copy, Debug)]
struct End {
    winner: Option<u8>,
    counted: bool,
    margin: f32,
}

/// The end of a playout at `s`, decided by `o` (`None`: a draw or cut off).
fn ended<const W: usize>(m: &Machine<W>, s: &State<W>, o: Option<Outcome>) -> End {
    let counted = o.is_some_and(|o| {
        m.rules
            .end
            .get(o.rule as usize)
            .is_some_and(|e| e.verdict == morrigo_rules::Verdict::Score)
    });
    let margin = if counted {
        let sc = m.score(s, &Bits::EMPTY);
        (sc[0] - sc[1]) as f32
    } else {
        0.0
    };
    End {
        winner: o.and_then(|o| o.winner),
        counted,
        margin,
    }
}

/// Key of a position for finding it in the tree again.
#[inline]
fn node_key<const W: usize>(s: &State<W>) -> u64 {
    s.pos.hash ^ (s.pos.ply as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Index of a move in the AMAF table (`None` for passes).
#[inline]
fn amaf_code(mv: Move, n: usize) -> Option<usize> {
    match mv.kind {
        MoveKind::Pass => None,
        _ if mv.from == NO_POINT => Some(mv.kind as usize * n + mv.to as usize),
        _ => Some(8 * n + mv.from as usize * n + mv.to as usize),
    }
}

fn amaf_size(n: usize) -> usize {
    8 * n + n * n
}

impl Tree {
    fn new() -> Self {
        Tree {
            nodes: Vec::new(),
            moves: Vec::with_capacity(64),
            seq: Vec::with_capacity(256),
            path: Vec::with_capacity(64),
            amaf: Vec::new(),
            generation: 0,
            last: NO_POINT,
            depth: 0,
        }
    }

    /// Set the root to `s` with children `moves`: the subtree of the last
    /// search's tree at `s` when found within [`REUSE_PLIES`], else fresh.
    fn set_root<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &State<W>,
        moves: &[Move],
        params: &MctsParams,
    ) {
        let key = node_key(s);
        let me = s.pos.to_move;
        let found = self.find(key);
        let priors = params.rave > 0;
        if let Some((_, last)) = found {
            self.last = last;
        } else {
            self.last = NO_POINT;
        }
        let mut fresh: Vec<Node> =
            Vec::with_capacity(self.nodes.len().min(1 << 16) + moves.len() + 1);
        fresh.push(Node {
            key,
            expanded: true,
            first_child: 1,
            children: moves.len() as u32,
            ..Node::leaf(moves[0], me ^ 1, 0, 0.0)
        });
        let old_root = found.map(|(i, _)| self.nodes[i]);
        if let Some(r) = old_root {
            fresh[0].n = r.n;
            fresh[0].w = r.w;
        }
        for &mv in moves {
            let old = old_root.filter(|r| r.expanded).and_then(|r| {
                let a = r.first_child as usize;
                (a..a + r.children as usize).find(|&i| self.nodes[i].mv == mv)
            });
            fresh.push(match old {
                Some(i) => self.nodes[i],
                None => {
                    let (pn, pw) = if priors {
                        prior(m, s, mv, self.last)
                    } else {
                        (0, 0.0)
                    };
                    Node::leaf(mv, me, pn, pw)
                }
            });
        }
        // Copy the kept subtrees breadth first, children kept together.
        let mut i = 1;
        while i < fresh.len() {
            let n = fresh[i];
            if n.expanded {
                let a = n.first_child as usize;
                fresh[i].first_child = fresh.len() as u32;
                fresh.extend_from_slice(&self.nodes[a..a + n.children as usize]);
            }
            i += 1;
        }
        self.nodes = fresh;
    }

    /// The node of `key` within [`REUSE_PLIES`] of the root, and the last
    /// board play on the way to it.
    fn find(&self, key: u64) -> Option<(usize, Point)> {
        if self.nodes.is_empty() {
            return None;
        }
        let mut level: Vec<(usize, Point)> = vec![(0, self.last)];
        for _ in 0..=REUSE_PLIES {
            let mut next = Vec::new();
            for &(i, last) in &level {
                let n = &self.nodes[i];
                if !n.expanded {
                    continue;
                }
                if n.key == key {
                    return Some((i, last));
                }
                let a = n.first_child as usize;
                for c in a..a + n.children as usize {
                    let mv = self.nodes[c].mv;
                    let l = if mv.kind == MoveKind::Play {
                        mv.to
                    } else {
                        last
                    };
                    next.push((c, l));
                }
            }
            level = next;
        }
        None
    }

    /// Run playouts from the root (`s`) until `playouts` are done or the
    /// deadline passes; the number run.
    fn search<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        params: &MctsParams,
        playouts: u32,
        deadline: Option<Instant>,
        rng: &mut SmallRng,
    ) -> u32 {
        let rave = params.rave as f64;
        let c = if params.rave > 0 {
            0.0
        } else {
            params.c_milli as f64 / 1000.0
        };
        let points = m.points();
        if params.rave > 0 && self.amaf.len() != 2 * amaf_size(points) {
            self.amaf = vec![0; 2 * amaf_size(points)];
            self.generation = 0;
        }
        let mut undos: Vec<Undo<W>> = Vec::with_capacity(256);
        let mut done = 0;
        while done < playouts {
            if done % 32 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            done += 1;
            self.path.clear();
            self.seq.clear();
            self.path.push(0);
            let mut at = 0usize;
            let mut last = self.last;
            while self.nodes[at].expanded && self.nodes[at].children > 0 {
                at = self.select(at, c, rave);
                self.path.push(at as u32);
                let n = &self.nodes[at];
                self.seq.push((n.mv, n.mover));
                if n.mv.kind == MoveKind::Play {
                    last = n.mv.to;
                }
                undos.push(m.apply(s, n.mv));
            }
            let mut result = None;
            if !self.nodes[at].expanded {
                match m.legal_moves(s, &mut self.moves) {
                    Some(o) => result = Some(ended(m, s, Some(o))),
                    None if self.moves.is_empty() => result = Some(ended(m, s, None)),
                    None if self.nodes.len() + self.moves.len() > MCTS_MAX_NODES => {}
                    None if params.rave > 0 && self.nodes[at].visits() == 0 => {}
                    None => {
                        let to_move = s.pos.to_move;
                        let first = self.nodes.len() as u32;
                        for i in 0..self.moves.len() {
                            let mv = self.moves[i];
                            let (pn, pw) = if params.rave > 0 {
                                prior(m, s, mv, last)
                            } else {
                                (0, 0.0)
                            };
                            self.nodes.push(Node::leaf(mv, to_move, pn, pw));
                        }
                        let n = &mut self.nodes[at];
                        n.expanded = true;
                        n.key = node_key(s);
                        n.first_child = first;
                        n.children = self.moves.len() as u32;
                    }
                }
            }
            self.depth = self.depth.max(undos.len() as u32);
            let end = match result {
                Some(e) => e,
                None => self.rollout(m, s, rng, &mut undos, last),
            };
            while let Some(u) = undos.pop() {
                m.undo(s, u);
            }
            self.update(end, params.rave > 0, points);
        }
        done
    }

    /// The child of `at` with the best value: UCT (`c` > 0, unvisited
    /// children first) or the RAVE blend.
    fn select(&self, at: usize, c: f64, rave: f64) -> usize {
        let n = &self.nodes[at];
        let a = n.first_child as usize;
        let ln = (n.n.max(1) as f64).ln();
        let mut best = (a, f64::MIN);
        for i in a..a + n.children as usize {
            let ch = &self.nodes[i];
            let v = if rave > 0.0 {
                let nn = ch.n.max(1) as f64;
                let q = if ch.n == 0 { 0.5 } else { ch.w as f64 / nn };
                if ch.an > 0 {
                    let an = ch.an as f64;
                    let beta = an / (an + nn + nn * an / rave);
                    (1.0 - beta) * q + beta * ch.aw as f64 / an
                } else {
                    q
                }
            } else {
                if ch.n == 0 {
                    return i;
                }
                let nn = ch.n as f64;
                ch.w as f64 / nn + c * (ln / nn).sqrt()
            };
            if v > best.1 {
                best = (i, v);
            }
        }
        best.0
    }

    /// Add a playout's result to the nodes of its path and, with RAVE, to
    /// the AMAF counts of their children.
    fn update(&mut self, end: End, rave: bool, points: usize) {
        // With RAVE (the full agent) a counted result also weighs the
        // margin a little, so lost and won positions still rank moves.
        let bonus = rave && end.counted;
        let score = |mover: u8| {
            let win = match end.winner {
                Some(w) if w == mover => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            if bonus {
                let margin = if mover == 0 { end.margin } else { -end.margin };
                let scaled = (margin / points.max(1) as f32).clamp(-1.0, 1.0);
                (1.0 - SCORE_WEIGHT) * win + SCORE_WEIGHT * (0.5 + 0.5 * scaled)
            } else {
                win
            }
        };
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.n += 1;
            n.w += score(n.mover);
        }
        if !rave {
            return;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.amaf.fill(0);
            self.generation = 1;
        }
        let size = amaf_size(points);
        let g = self.generation;
        let mut t = self.seq.len();
        for d in (0..self.path.len()).rev() {
            while t > d {
                t -= 1;
                let (mv, who) = self.seq[t];
                if let Some(code) = amaf_code(mv, points) {
                    self.amaf[(who as usize & 1) * size + code] = g;
                }
            }
            let n = self.nodes[self.path[d] as usize];
            if !n.expanded {
                continue;
            }
            let a = n.first_child as usize;
            for ch in &mut self.nodes[a..a + n.children as usize] {
                if let Some(code) = amaf_code(ch.mv, points) {
                    if self.amaf[(ch.mover as usize & 1) * size + code] == g {
                        ch.an += 1;
                        ch.aw += score(ch.mover);
                    }
                }
            }
        }
    }

    /// Play the policy to the end (or the ply cap, a draw); the winner.
    fn rollout<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        rng: &mut SmallRng,
        undos: &mut Vec<Undo<W>>,
        mut last: Point,
    ) -> End {
        let mut ongoing = false;
        for _ in 0..MCTS_PLAYOUT_PLIES {
            let mover = s.pos.to_move;
            match policy_step(m, s, &mut self.moves, rng, ongoing, last) {
                Some((mv, u, outcome)) => {
                    undos.push(u);
                    self.seq.push((mv, mover));
                    if mv.kind == MoveKind::Play {
                        last = mv.to;
                    }
                    if let Some(o) = outcome {
                        return ended(m, s, Some(o));
                    }
                    // The outcome was asked at the end of the turn.
                    ongoing = s.pos.pending == 0;
                }
                None => {
                    let o = m.legal_moves(s, &mut self.moves);
                    return ended(m, s, o);
                }
            }
        }
        ended(m, s, None)
    }
}

impl Mcts {
    /// A searcher with these parameters; its trees are built on the first
    /// search.
    pub fn new(params: MctsParams) -> Self {
        Mcts {
            params,
            trees: Vec::new(),
            last: Default::default(),
            stats: Vec::new(),
            chosen: None,
        }
    }

    /// Forget the trees (a new game: nothing carried over from the last).
    pub fn clear(&mut self) {
        self.trees.clear();
        self.stats.clear();
        self.chosen = None;
    }

    /// What the last search found (`nodes`: the playouts run).
    pub fn last(&self) -> crate::search::SearchInfo {
        self.last
    }

    /// Visits and mean result of each root move of the last search.
    pub fn root_stats(&self) -> Vec<(Move, u32, f64)> {
        self.stats.clone()
    }

    /// The most visited line from the root, from the move chosen (the
    /// first tree's line below the root).
    pub fn principal_variation(&self, max: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let Some(t) = self.trees.first() else {
            return line;
        };
        let Some(chosen) = self.chosen else {
            return line;
        };
        let mut at = 1 + chosen;
        while line.len() < max && at < t.nodes.len() {
            let n = &t.nodes[at];
            if n.visits() == 0 {
                break;
            }
            line.push(n.mv);
            if !n.expanded || n.children == 0 {
                break;
            }
            let a = n.first_child as usize;
            match (a..a + n.children as usize).max_by_key(|&i| t.nodes[i].visits()) {
                Some(best) => at = best,
                None => break,
            }
        }
        line
    }

    /// The most visited of `moves` after the budget's playouts from `s`,
    /// ties drawn with `rng`.
    pub fn choose<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        moves: &[Move],
        rng: &mut SmallRng,
    ) -> Move {
        let started = Instant::now();
        self.chosen = None;
        self.last = Default::default();
        let threads = self.params.threads.max(1) as usize;
        if self.trees.len() != threads {
            self.trees = (0..threads).map(|_| Tree::new()).collect();
        }
        let params = self.params;
        for t in &mut self.trees {
            t.set_root(m, s, moves, &params);
            t.depth = 0;
        }
        let deadline = params.time_ms.map(|ms| started + Duration::from_millis(ms));
        let mut total = 0u64;
        if moves.len() > 1 {
            if threads == 1 {
                total = self.trees[0].search(m, s, &params, params.playouts, deadline, rng) as u64;
            } else {
                // Each tree its own share of playouts, state and generator.
                let share = params.playouts.div_ceil(threads as u32);
                let seeds: Vec<u64> = (0..threads).map(|_| rng.random()).collect();
                let done: Vec<u32> = std::thread::scope(|scope| {
                    let handles: Vec<_> = self
                        .trees
                        .iter_mut()
                        .zip(seeds)
                        .map(|(t, seed)| {
                            let mut st = s.clone();
                            scope.spawn(move || {
                                let mut r = SmallRng::seed_from_u64(seed);
                                t.search(m, &mut st, &params, share, deadline, &mut r)
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| h.join().expect("a search thread panicked"))
                        .collect()
                });
                total = done.iter().map(|&d| d as u64).sum();
            }
        }
        // Root visits and results added over the trees.
        self.stats.clear();
        for (i, &mv) in moves.iter().enumerate() {
            let (mut v, mut w) = (0u32, 0f64);
            for t in &self.trees {
                let n = &t.nodes[1 + i];
                v += n.visits();
                w += n.mean() * n.visits() as f64;
            }
            let mean = if v == 0 { 0.5 } else { w / v as f64 };
            self.stats.push((mv, v, mean));
        }
        // The most visited; among equally visited moves one drawn with the
        // seed (reservoir sampling, nothing drawn without a tie).
        let (mut best, mut ties) = (0usize, 0u32);
        for i in 0..self.stats.len() {
            let (v, top) = (self.stats[i].1, self.stats[best].1);
            if v > top || i == 0 {
                (best, ties) = (i, 1);
            } else if v == top {
                ties += 1;
                if pick(rng, ties as usize) == 0 {
                    best = i;
                }
            }
        }
        self.chosen = Some(best);
        self.last.nodes = total;
        self.last.depth = self.trees.iter().map(|t| t.depth).max().unwrap_or(0);
        self.last.score = (1000.0 * self.stats[best].2).round() as i32;
        self.last.elapsed = started.elapsed();
        self.stats[best].0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use morrigo_engine::AnyMachine;
    use std::sync::Arc;

    /// A 7×7 Chinese board, with or without the shapes its parent gives.
    fn seven(ruleset: &str) -> Machine<1> {
        let overrides = morrigo_rules::load::Overrides {
            size: Some((7, 7)),
            ..Default::default()
        };
        let rules = morrigo_rules::load_rules_with(ruleset, &overrides).unwrap();
        let AnyMachine::W1(m) = AnyMachine::new(Arc::new(rules)).unwrap() else {
            panic!("a 7x7 board fits one word")
        };
        m
    }

    /// Black D4 and F4 either side of White's E4, which White just played;
    /// Black to move.
    fn hane(m: &Machine<1>) -> State<1> {
        let t = &m.rules.topology;
        let mut occ = [Bits::EMPTY; 2];
        for (who, v) in [(0, "D4"), (0, "F4"), (1, "E4")] {
            occ[who].set(t.point(v).unwrap() as usize);
        }
        m.state_from(occ[0], occ[1], m.initial().pos.in_hand, 0)
    }

    /// Of 200 seeded playout steps from [`hane`], those that answer next
    /// to E4 (each checked to be a point where a shape holds).
    fn answers_next_to_the_last_play(m: &Machine<1>) -> usize {
        let mut s = hane(m);
        let last = m.rules.topology.point("E4").unwrap();
        let around = m.cells_around(last).copied();
        let mut buf = Vec::new();
        let mut near = 0;
        for seed in 0..200 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let (mv, u, _) = policy_step(m, &mut s, &mut buf, &mut rng, false, last).unwrap();
            m.undo(&mut s, u);
            if around.is_some_and(|a| a.contains(&mv.to)) {
                assert!(
                    m.shape_at(&s, mv.to),
                    "{} holds no shape",
                    m.rules.topology.name(mv.to)
                );
                near += 1;
            }
        }
        near
    }

    /// No chain is in atari, so no capture or rescue applies: with the
    /// shapes Chinese rules inherit, the policy answers E4 where a shape
    /// holds next to it (the enclosing hane at E5 among them); without
    /// them, uniformly over the board.
    #[test]
    fn a_playout_answers_the_last_play_with_a_shape_next_to_it() {
        let with = seven("chinese");
        assert!(with.shape_at(&hane(&with), with.rules.topology.point("E5").unwrap()));
        assert_eq!(answers_next_to_the_last_play(&with), 200);
        let without = seven("../../tests/rulesets/go-without-shapes.yaml");
        assert!(without.cells_around(0).is_none());
        assert!(answers_next_to_the_last_play(&without) < 100);
    }
}
