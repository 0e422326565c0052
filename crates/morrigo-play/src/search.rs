//! The alpha-beta agent: negamax with iterative deepening, a transposition
//! table keyed by the engine's Zobrist hash, and an evaluation built from
//! quantities every ruleset has (pieces, lines, liberties, captures).
//!
//! The table is keyed by the position hash alone, so two positions that
//! differ only in their histories (repetition counts, move classes) share an
//! entry: a search heuristic, as in every game-playing program; the engine
//! still decides every move's legality and every outcome.

use crate::spec::AlphaBetaParams;
use morrigo_engine::{Bits, Machine, Move, MoveKind, State};
use rand::rngs::SmallRng;
use std::time::{Duration, Instant};

/// Score of a won position at the root; a win `n` plies away scores
/// `WIN - n`, so faster wins are preferred and slower losses.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses found by the search.
const DECIDED: i32 = WIN - 10_000;

pub use morrigo_rules::EvalWeights;

/// Score of the position for the player to move, from the weights.
/// Summed in 64 bits (a hand may hold a million pieces) and kept inside
/// the range of undecided scores, so an evaluation is never read as a win.
pub fn evaluate<const W: usize>(m: &Machine<W>, s: &State<W>, w: &EvalWeights) -> i32 {
    let me = s.pos.to_move as usize & 1;
    let you = me ^ 1;
    let p = &s.pos;
    let mut score = 0i64;
    let diff = |a: [u32; 2]| a[me] as i64 - a[you] as i64;
    if w.material != 0 {
        let material = [
            p.on_board[0] as u64 + p.in_hand[0] as u64 * !m.rules.unlimited_hand as u64,
            p.on_board[1] as u64 + p.in_hand[1] as u64 * !m.rules.unlimited_hand as u64,
        ];
        score += w.material as i64 * (material[me] as i64 - material[you] as i64);
    }
    score += w.on_board as i64 * diff(p.on_board);
    score += w.captures as i64 * diff(p.captured);
    score += w.owed_removals as i64 * p.pending as i64;
    let empty = m.empty(s);
    let nbrs = &m.rules.topology.neighbours;
    if w.mobility != 0 {
        let mut mob = [0i64; 2];
        for (pl, n) in mob.iter_mut().enumerate() {
            for q in p.occ[pl].iter() {
                *n += nbrs[q].iter().filter(|&&r| empty.has(r as usize)).count() as i64;
            }
        }
        score += w.mobility as i64 * (mob[me] - mob[you]);
    }
    if w.lines != 0 || w.open_lines != 0 {
        let (mut full, mut open) = ([0i64; 2], [0i64; 2]);
        for line in &m.rules.topology.lines {
            let (mut own, mut gaps) = ([0usize; 2], 0usize);
            for &q in line {
                let q = q as usize;
                if p.occ[0].has(q) {
                    own[0] += 1;
                } else if p.occ[1].has(q) {
                    own[1] += 1;
                } else {
                    gaps += 1;
                }
            }
            for pl in 0..2 {
                if own[pl] == line.len() {
                    full[pl] += 1;
                } else if gaps == 1 && own[pl] + 1 == line.len() {
                    open[pl] += 1;
                }
            }
        }
        score +=
            w.lines as i64 * (full[me] - full[you]) + w.open_lines as i64 * (open[me] - open[you]);
    }
    if w.liberties != 0 || w.atari != 0 {
        for pl in 0..2 {
            let sign = if pl == me { 1 } else { -1 };
            let mut left = p.occ[pl];
            while let Some(q) = left.iter().next() {
                let chain = m.chain(&p.occ[pl], q);
                left = left.without(chain);
                let mut libs = Bits::<W>::EMPTY;
                for c in chain.iter() {
                    for &r in &nbrs[c] {
                        if empty.has(r as usize) {
                            libs.set(r as usize);
                        }
                    }
                }
                let n = libs.count() as i64;
                let atari = if n == 1 { w.atari as i64 } else { 0 };
                score += sign * (w.liberties as i64 * n.min(4) + atari);
            }
        }
    }
    score.clamp(-(DECIDED as i64) + 1, DECIDED as i64 - 1) as i32
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    mv: Option<Move>,
    score: i32,
    depth: u8,
    bound: Bound,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    mv: None,
    score: 0,
    depth: 0,
    bound: Bound::Upper,
};

/// Entries of the transposition table (a power of two): 2^16 entries of
/// 24 bytes, 1.5 MiB per alpha-beta agent.
pub const TT_ENTRIES: usize = 1 << 16;

/// What the last search found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Deepest iteration completed.
    pub depth: u32,
    /// Score of the chosen move for the player to move (centipieces;
    /// beyond ±990000 a forced win or loss).
    pub score: i32,
    /// Positions visited, over all iterations.
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The alpha-beta searcher of one seat: its table and scratch lists are
/// allocated once and reused for every move.
pub struct AlphaBeta {
    params: AlphaBetaParams,
    tt: Vec<Entry>,
    /// Move lists and ordering keys by distance from the root.
    lists: Vec<Vec<(i32, Move)>>,
    scratch: Vec<Move>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    weights: EvalWeights,
    last: SearchInfo,
    /// The move the last search chose (its table entry may be overwritten).
    chosen: Option<Move>,
    /// Root moves of the last iteration scoring within `margin` of the
    /// best, with their scores: the seeded draw is among these.
    ties: Vec<(Move, i32)>,
    /// Each completed iteration's ties, kept while the next one runs.
    done_ties: Vec<(Move, i32)>,
    /// The root moves in the seeded order they are searched in.
    root_order: Vec<Move>,
}

impl AlphaBeta {
    pub fn new(params: AlphaBetaParams) -> Self {
        AlphaBeta {
            params,
            tt: vec![EMPTY_ENTRY; TT_ENTRIES],
            lists: Vec::new(),
            scratch: Vec::with_capacity(64),
            nodes: 0,
            deadline: None,
            stopped: false,
            weights: EvalWeights::PIECES,
            last: SearchInfo::default(),
            chosen: None,
            ties: Vec::with_capacity(64),
            done_ties: Vec::with_capacity(64),
            root_order: Vec::with_capacity(64),
        }
    }

    /// Forget every stored position (a new game: results must not depend
    /// on which games the agent played before).
    pub fn clear(&mut self) {
        self.tt.fill(EMPTY_ENTRY);
    }

    pub fn last(&self) -> SearchInfo {
        self.last
    }

    /// The expected line of play from `s` after a search of it: the
    /// table's best moves, followed while they are legal, at most `max`.
    pub fn principal_variation<const W: usize>(
        &self,
        m: &Machine<W>,
        s: &State<W>,
        max: usize,
    ) -> Vec<Move> {
        let mut s = s.clone();
        let mut line = Vec::new();
        while line.len() < max {
            let k = key(&s);
            let e = self.tt[k as usize & (TT_ENTRIES - 1)];
            let stored = e.mv.filter(|_| e.key == k);
            let Some(mv) = (if line.is_empty() { self.chosen } else { stored }) else {
                break;
            };
            if m.check_move(&s, mv).is_err() {
                break;
            }
            m.apply(&mut s, mv);
            line.push(mv);
        }
        line
    }

    /// The best of `moves` (the non-empty legal moves of `s`) by iterative
    /// deepening, ties settled with `rng` so seeded games differ: the root
    /// moves are searched in a seeded order (within each ordering class),
    /// so of equally scored moves a seeded one is found first and played;
    /// with `margin` > 0, every move within the margin is found (see
    /// [`AlphaBeta::root`]) and one drawn. The seeded order costs nothing;
    /// finding every tie costs nodes (Nine Men's Morris, depth 5: +71%), so
    /// it is asked for with `margin`. `s` is left as it was.
    pub fn choose<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        moves: &[Move],
        rng: &mut SmallRng,
    ) -> Move {
        let started = Instant::now();
        self.weights = m.rules.eval_weights();
        self.deadline = self
            .params
            .time_ms
            .map(|t| started + Duration::from_millis(t));
        self.stopped = false;
        self.nodes = 0;
        let mut order = std::mem::take(&mut self.root_order);
        order.clear();
        order.extend_from_slice(moves);
        for i in (1..order.len()).rev() {
            order.swap(i, crate::agent::pick(rng, i + 1));
        }
        let mut best = order[0];
        let mut info = SearchInfo::default();
        self.done_ties.clear();
        for depth in 1..=self.params.depth {
            let Some((mv, score)) = self.root(m, s, &order, depth, best) else {
                break;
            };
            best = mv;
            info.depth = depth;
            info.score = score;
            std::mem::swap(&mut self.ties, &mut self.done_ties);
            if score.abs() >= DECIDED || moves.len() == 1 {
                break;
            }
        }
        // The draw among the deepest completed iteration's ties (nothing
        // drawn when there is one), made once, after the search: the
        // generator's use does not depend on how many iterations ran.
        if self.done_ties.len() > 1 {
            let (mv, v) = self.done_ties[crate::agent::pick(rng, self.done_ties.len())];
            best = mv;
            info.score = v;
        }
        self.root_order = order;
        info.nodes = self.nodes;
        info.elapsed = started.elapsed();
        self.last = info;
        self.chosen = Some(best);
        best
    }

    /// One iteration at the root; `None` when the time ran out in it. With
    /// `margin` > 0 the root moves scoring within it of the best are left
    /// in `ties`.
    ///
    /// Ties are found soundly with one unit of window: after the first
    /// move, each is searched with alpha `best - margin - 1`, so a move
    /// scoring `best - margin` or more comes back exact (above alpha) and a
    /// worse one fails low; alpha only rises, so a move dropped earlier is
    /// below every later bound too. Searching with alpha `best` (the usual
    /// window) would return a tie as a fail-low bound, indistinguishable
    /// from a worse move; a full window at the root would search every
    /// move exactly, several times the cost. Wins and losses tie only
    /// exactly: a margin never trades a quicker win for a slower one.
    fn root<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        moves: &[Move],
        depth: u32,
        first: Move,
    ) -> Option<(Move, i32)> {
        let me = s.pos.to_move;
        let margin = self.params.margin as i32;
        let mut list = self.take_list(0);
        list.extend(moves.iter().map(|&mv| (0, mv)));
        self.order(m, s, &mut list, Some(first));
        let beta = WIN + 1;
        let mut best = (first, -WIN - 1);
        let mut ties = std::mem::take(&mut self.ties);
        ties.clear();
        for i in 0..list.len() {
            let mv = next_best(&mut list, i);
            let alpha = if i == 0 {
                -WIN - 1
            } else if margin > 0 {
                best.1 - slack(best.1, margin) - 1
            } else {
                best.1
            };
            let v = self.child(m, s, mv, me, depth - 1, 1, alpha, beta);
            if self.stopped {
                self.lists[0] = list;
                self.ties = ties;
                return None;
            }
            if v > best.1 {
                best = (mv, v);
                let floor = v - slack(v, margin);
                ties.retain(|&(_, t)| t >= floor);
            }
            if margin > 0 && v >= best.1 - slack(best.1, margin) {
                ties.push((mv, v));
            }
        }
        self.lists[0] = list;
        self.ties = ties;
        self.store(key(s), best.0, best.1, depth, Bound::Exact, 0);
        Some(best)
    }

    /// Play `mv`, search the reply position and score it for `me`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        mv: Move,
        me: u8,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let u = m.apply(s, mv);
        // A removal owed keeps the same player to move: no sign change.
        let v = if s.pos.to_move == me {
            self.search(m, s, depth, ply, alpha, beta)
        } else {
            -self.search(m, s, depth, ply, -beta, -alpha)
        };
        m.undo(s, u);
        v
    }

    fn search<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let me = s.pos.to_move;
        let mut scratch = std::mem::take(&mut self.scratch);
        let outcome = m.legal_moves(s, &mut scratch);
        if let Some(o) = outcome {
            self.scratch = scratch;
            return match o.winner {
                Some(w) if w == me => WIN - ply as i32,
                Some(_) => -(WIN - ply as i32),
                None => 0,
            };
        }
        if scratch.is_empty() {
            // Stuck: no move and no end rule; nobody can win from here.
            self.scratch = scratch;
            return 0;
        }
        if depth == 0 {
            self.scratch = scratch;
            return evaluate(m, s, &self.weights);
        }
        let k = key(s);
        let e = self.tt[k as usize & (TT_ENTRIES - 1)];
        let mut tt_move = None;
        if e.key == k {
            tt_move = e.mv;
            if e.depth as u32 >= depth {
                let score = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    self.scratch = scratch;
                    return score;
                }
            }
        }
        let mut list = self.take_list(ply);
        list.extend(scratch.iter().map(|&mv| (0, mv)));
        self.scratch = scratch;
        self.order(m, s, &mut list, tt_move);
        let alpha0 = alpha;
        let mut best = (list[0].1, -WIN - 1);
        for i in 0..list.len() {
            let mv = next_best(&mut list, i);
            let v = self.child(m, s, mv, me, depth - 1, ply + 1, alpha, beta);
            if self.stopped {
                break;
            }
            if v > best.1 {
                best = (mv, v);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        if self.stopped {
            return 0;
        }
        let bound = if best.1 <= alpha0 {
            Bound::Upper
        } else if best.1 >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(k, best.0, best.1, depth, bound, ply);
        best.1
    }

    fn store(&mut self, k: u64, mv: Move, score: i32, depth: u32, bound: Bound, ply: usize) {
        self.tt[k as usize & (TT_ENTRIES - 1)] = Entry {
            key: k,
            mv: Some(mv),
            score: to_tt(score, ply),
            depth: depth.min(u8::MAX as u32) as u8,
            bound,
        };
    }

    fn take_list(&mut self, ply: usize) -> Vec<(i32, Move)> {
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, || Vec::with_capacity(64));
        }
        let mut l = std::mem::take(&mut self.lists[ply]);
        l.clear();
        l
    }

    /// Ordering keys: the table's move first, then removals, captures and
    /// moves that complete a line; the rest keep the generator's order.
    fn order<const W: usize>(
        &self,
        m: &Machine<W>,
        s: &State<W>,
        list: &mut [(i32, Move)],
        first: Option<Move>,
    ) {
        let me = s.pos.to_move as usize & 1;
        for (k, mv) in list.iter_mut() {
            *k = if Some(*mv) == first {
                1 << 20
            } else {
                match mv.kind {
                    MoveKind::Remove => 1000,
                    MoveKind::Play => 100 * m.play_effect(s, mv.to).captured.count() as i32,
                    MoveKind::Pass => -1,
                    MoveKind::Place | MoveKind::Slide | MoveKind::Fly | MoveKind::Leap => {
                        // A leap takes a piece: ordered like a removal.
                        let capture = if mv.kind == MoveKind::Leap { 900 } else { 0 };
                        let mut occ = s.pos.occ[me];
                        if mv.kind != MoveKind::Place {
                            occ.clear(mv.from as usize);
                        }
                        occ.set(mv.to as usize);
                        capture + 500 * m.lines_at(&occ, mv.to as usize) as i32
                    }
                }
            };
        }
    }
}

/// How far below `best` a root move may score and still tie: `margin`
/// for undecided scores, none for wins and losses.
#[inline]
fn slack(best: i32, margin: i32) -> i32 {
    if best.abs() >= DECIDED {
        0
    } else {
        margin
    }
}

/// Selection sort step: move the best remaining entry to `i` and return it
/// (cut-offs usually come early, so sorting the whole list would be waste).
#[inline]
fn next_best(list: &mut [(i32, Move)], i: usize) -> Move {
    let mut b = i;
    for j in i + 1..list.len() {
        if list[j].0 > list[b].0 {
            b = j;
        }
    }
    list.swap(i, b);
    list[i].1
}

/// The table key: the engine's hash, with the removals owed mixed in (a
/// mid-turn position differs from the same board at a turn's start).
#[inline]
fn key<const W: usize>(s: &State<W>) -> u64 {
    s.pos.hash ^ (s.pos.pending as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Win scores are stored relative to the node, so a table hit at another
/// distance from the root still prefers the faster win.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= DECIDED {
        score + ply as i32
    } else if score <= -DECIDED {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= DECIDED {
        score - ply as i32
    } else if score <= -DECIDED {
        score + ply as i32
    } else {
        score
    }
}
