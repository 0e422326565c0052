//! The alpha-beta agent: principal variation search with iterative
//! deepening and aspiration windows at the root, a transposition table
//! keyed by the engine's Zobrist hash, killer and history move ordering,
//! late-move reductions (re-searched when they fail high), a quiescence
//! search over moves that close a line or capture, and an evaluation
//! built from quantities every ruleset has (pieces, lines, liberties,
//! captures). Depth counts turns: a move that leaves a removal owed keeps
//! the depth, so no position is ever evaluated while a removal is owed.
//! Where a solved table is at hand (a small game solved at once, or
//! `table=FILE`) its exact values replace the search.
//!
//! The table is keyed by the position hash alone, so two positions that
//! differ only in their histories (repetition counts, move classes) share an
//! entry: a search heuristic, as in every game-playing program; the engine
//! still decides every move's legality and every outcome.

use crate::spec::AlphaBetaParams;
use morrigo_engine::{Bits, Machine, Move, MoveKind, State};
use morrigo_solve::Value;
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
        // Gaps of open lines a piece can reach next turn (from the hand,
        // or sliding in from outside the line), two distinct ones kept.
        let mut threats = [[usize::MAX; 2]; 2];
        let hand = |pl: usize| p.in_hand[pl] > 0 && !m.rules.unlimited_hand;
        for line in &m.rules.topology.lines {
            let (mut own, mut gaps, mut gap) = ([0usize; 2], 0usize, 0usize);
            for &q in line {
                let q = q as usize;
                if p.occ[0].has(q) {
                    own[0] += 1;
                } else if p.occ[1].has(q) {
                    own[1] += 1;
                } else {
                    gaps += 1;
                    gap = q;
                }
            }
            for pl in 0..2 {
                if own[pl] == line.len() {
                    full[pl] += 1;
                } else if gaps == 1 && own[pl] + 1 == line.len() {
                    open[pl] += 1;
                    let t = &mut threats[pl];
                    if t[1] == usize::MAX
                        && t[0] != gap
                        && (hand(pl)
                            || nbrs[gap]
                                .iter()
                                .any(|&r| p.occ[pl].has(r as usize) && !line.contains(&r)))
                    {
                        t[usize::from(t[0] != usize::MAX)] = gap;
                    }
                }
            }
        }
        score +=
            w.lines as i64 * (full[me] - full[you]) + w.open_lines as i64 * (open[me] - open[you]);
        // Two lines the opponent can complete at two points: one block
        // leaves the other (after Sanmill's mill-threat ordering; worth
        // most of a piece with the default weights).
        if threats[you][1] != usize::MAX {
            score -= 6 * w.open_lines as i64;
        }
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
    /// The game the entry was stored in: clearing the table between
    /// games is a counter step, not a pass over the memory.
    age: u8,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    mv: None,
    score: 0,
    depth: 0,
    bound: Bound::Upper,
    age: 0,
};

/// Entries of the transposition table by default (a power of two): 2^18
/// entries of 24 bytes, 6 MiB per alpha-beta agent, allocated on its first
/// move. `hash=MiB` asks for another size (at most
/// [`AlphaBetaParams::MAX_HASH_MB`]), reserved from the memory budget.
pub const TT_ENTRIES: usize = 1 << 18;

/// Deepest quiescence line, in plies past the horizon (removals count):
/// bounds the search however many lines a board has.
const QUIESCENCE_PLIES: usize = 8;

/// Removals a quiescence node tries, best ordered first: a board with many
/// closable lines and many removable pieces (twelve pieces a side and
/// diagonals) otherwise multiplies both at every ply, and a depth-1 search
/// ran for minutes.
const QUIESCENCE_REMOVALS: usize = 3;

/// Quiescence nodes one horizon node may spend: where most moves close or
/// block a line, the noisy moves are most moves and the plies alone do not
/// bound the work. Spent, a line stands on its evaluation.
const QUIESCENCE_NODES: u32 = 256;

/// Half-width of the root's aspiration window (centipieces).
const ASPIRATION: i32 = 60;

/// Ordering classes: the table's move, then removals, captures and line
/// closings (the "noisy" moves quiescence searches), then killers, line
/// blocks and threats, then the rest by history.
const KEY_TT: i32 = 1 << 24;
const KEY_NOISY: i32 = 100_000;
const KEY_KILLER: i32 = 50_000;

/// The `ply` [`AlphaBeta::order`] is given in quiescence.
const QUIESCENCE: usize = usize::MAX;

/// What the last search found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Deepest iteration completed (0: the move came from a solved table).
    pub depth: u32,
    /// Score of the chosen move for the player to move (centipieces;
    /// beyond ±990000 a forced win or loss).
    pub score: i32,
    /// Positions visited, over all iterations.
    pub nodes: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

/// How one root iteration ended.
enum Iteration {
    Done(Move, i32),
    /// The first move scored outside the aspiration window.
    Outside,
    /// The budget ran out; a move proven better than the previous
    /// iteration's best, if one was.
    Stopped(Option<(Move, i32)>),
}

/// The alpha-beta searcher of one seat: its table and scratch lists are
/// allocated once and reused for every move.
pub struct AlphaBeta {
    params: AlphaBetaParams,
    tt: Vec<Entry>,
    age: u8,
    /// Move lists and ordering keys by distance from the root.
    lists: Vec<Vec<(i32, Move)>>,
    scratch: Vec<Move>,
    /// Two quiet moves per ply that last caused a cut-off.
    killers: Vec<[Option<Move>; 2]>,
    /// Cut-offs by quiet moves, by (from, to), weighted by depth².
    history: Vec<u32>,
    points: usize,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Budgets are checked from the second iteration on, so a move is
    /// always chosen by a completed search.
    budgeted: bool,
    stopped: bool,
    /// Quiescence nodes left to the horizon node being searched.
    quiet_left: u32,
    weights: EvalWeights,
    /// The solved table, once looked for (`Some(None)`: none to be had).
    table: Option<Option<crate::perfect::Exact>>,
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
    /// A searcher with these parameters; its transposition table is
    /// allocated on the first search.
    pub fn new(params: AlphaBetaParams) -> Self {
        AlphaBeta {
            params,
            tt: Vec::new(),
            age: 0,
            lists: Vec::new(),
            scratch: Vec::with_capacity(64),
            killers: Vec::new(),
            history: Vec::new(),
            points: 0,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            budgeted: false,
            stopped: false,
            quiet_left: 0,
            weights: EvalWeights::PIECES,
            table: None,
            last: SearchInfo::default(),
            chosen: None,
            ties: Vec::with_capacity(64),
            done_ties: Vec::with_capacity(64),
            root_order: Vec::with_capacity(64),
        }
    }

    /// The same searcher reading no solved table: the search alone (to
    /// check it against a table, or time it).
    pub fn without_table(mut self) -> Self {
        self.table = Some(None);
        self
    }

    /// Forget every stored position and the move-ordering statistics (a
    /// new game: results must not depend on which games the agent played
    /// before).
    pub fn clear(&mut self) {
        self.age = self.age.wrapping_add(1);
        if self.age == 0 {
            // Ages wrapped: an entry 256 games old would read as new.
            self.tt.fill(EMPTY_ENTRY);
            self.age = 1;
        }
        self.history.fill(0);
        self.killers.fill([None; 2]);
    }

    /// What the last search found.
    pub fn last(&self) -> SearchInfo {
        self.last
    }

    /// The table's entries: `hash=` MiB, else [`TT_ENTRIES`], as a power
    /// of two; halved while the memory budget refuses it.
    fn allocate_tt(&mut self) {
        if !self.tt.is_empty() {
            return;
        }
        let size = std::mem::size_of::<Entry>() as u64;
        let mut n = match self.params.hash_mb {
            Some(mb) => ((mb as u64) << 20) / size,
            None => TT_ENTRIES as u64,
        };
        n = n.max(1024);
        n = 1 << (63 - n.leading_zeros());
        loop {
            match morrigo_engine::memory::vec_of(EMPTY_ENTRY, n as usize, "the search table") {
                Ok(v) => {
                    self.tt = v;
                    break;
                }
                Err(_) if n > 1024 => n /= 2,
                Err(_) => {
                    self.tt = vec![EMPTY_ENTRY; 1024];
                    break;
                }
            }
        }
        self.age = 1;
    }

    #[inline]
    fn slot(&self, k: u64) -> usize {
        k as usize & (self.tt.len() - 1)
    }

    #[inline]
    fn probe(&self, k: u64) -> Option<Entry> {
        let e = self.tt[self.slot(k)];
        (e.key == k && e.age == self.age).then_some(e)
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
            let stored = if self.tt.is_empty() {
                None
            } else {
                self.probe(key(&s)).and_then(|e| e.mv)
            };
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
    /// finding every tie costs nodes, so it is asked for with `margin`.
    /// Where a solved table holds `s`, a best move by the table is drawn
    /// with `rng` instead, as the perfect agent plays. `s` is left as it was.
    pub fn choose<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        moves: &[Move],
        rng: &mut SmallRng,
    ) -> Move {
        let started = Instant::now();
        self.allocate_tt();
        if self.table.is_none() {
            self.table = Some(crate::perfect::search_table(&m.rules, self.params.table));
        }
        if let Some(t) = self.table.clone().flatten() {
            if let Some((mv, v)) = t.choose(m, s, moves, rng) {
                self.last = SearchInfo {
                    depth: 0,
                    score: value_score(v, 0),
                    nodes: 0,
                    elapsed: started.elapsed(),
                };
                self.chosen = Some(mv);
                return mv;
            }
        }
        let points = m.rules.topology.names.len() + 1;
        if self.points != points {
            self.points = points;
            self.history = vec![0; points * points];
        }
        self.weights = m.rules.eval_weights();
        self.deadline = self
            .params
            .time_ms
            .map(|t| started + Duration::from_millis(t));
        self.node_limit = self.params.nodes.unwrap_or(u64::MAX);
        self.stopped = false;
        self.budgeted = false;
        self.nodes = 0;
        // History from earlier moves, aged so this position's cut-offs lead.
        for h in self.history.iter_mut() {
            *h >>= 2;
        }
        let mut order = std::mem::take(&mut self.root_order);
        order.clear();
        order.extend_from_slice(moves);
        for i in (1..order.len()).rev() {
            order.swap(i, crate::moves::pick(rng, i + 1));
        }
        let mut best = order[0];
        let mut info = SearchInfo::default();
        self.done_ties.clear();
        let mut prev: Option<i32> = None;
        for depth in 1..=self.params.depth {
            let mut window = match prev {
                Some(p) if depth >= 3 && p.abs() < DECIDED => (p - ASPIRATION, p + ASPIRATION),
                _ => (-WIN - 1, WIN + 1),
            };
            let result = loop {
                match self.root(m, s, &order, depth as i32, best, window) {
                    Iteration::Outside => window = (-WIN - 1, WIN + 1),
                    r => break r,
                }
            };
            match result {
                Iteration::Done(mv, score) => {
                    best = mv;
                    info.depth = depth;
                    info.score = score;
                    prev = Some(score);
                    std::mem::swap(&mut self.ties, &mut self.done_ties);
                }
                Iteration::Stopped(better) => {
                    // A move proven better than the last iteration's best
                    // (the best is searched first) is played; its ties
                    // are not known, so none is drawn.
                    if let Some((mv, score)) = better {
                        best = mv;
                        info.score = score;
                        self.done_ties.clear();
                    }
                    break;
                }
                Iteration::Outside => unreachable!("re-searched with a full window"),
            }
            self.budgeted = true;
            if info.score.abs() >= DECIDED || moves.len() == 1 {
                break;
            }
        }
        // The draw among the deepest completed iteration's ties (nothing
        // drawn when there is one), made once, after the search: the
        // generator's use does not depend on how many iterations ran.
        if self.done_ties.len() > 1 {
            let (mv, v) = self.done_ties[crate::moves::pick(rng, self.done_ties.len())];
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

    /// One iteration at the root, the first move searched in `window`
    /// (an aspiration window, or the full one). With `margin` > 0 the root
    /// moves scoring within it of the best are left in `ties`.
    ///
    /// Ties are found soundly with one unit of window: after the first
    /// move, each is searched with alpha `best - margin - 1`, so a move
    /// scoring `best - margin` or more comes back above alpha (then
    /// searched again for its exact score) and a worse one fails low;
    /// alpha only rises, so a move dropped earlier is below every later
    /// bound too. Wins and losses tie only exactly: a margin never trades
    /// a quicker win for a slower one.
    fn root<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        moves: &[Move],
        depth: i32,
        first: Move,
        window: (i32, i32),
    ) -> Iteration {
        let me = s.pos.to_move;
        let margin = self.params.margin as i32;
        let mut list = self.take_list(0);
        list.extend(moves.iter().map(|&mv| (0, mv)));
        self.order(m, s, &mut list, Some(first), 0);
        let (lo, hi) = window;
        let mut best = (first, -WIN - 1);
        let mut better = None;
        let mut ties = std::mem::take(&mut self.ties);
        ties.clear();
        let mut outcome = None;
        for i in 0..list.len() {
            let mv = next_best(&mut list, i);
            let v = if i == 0 {
                let v = self.child(m, s, mv, me, depth, 1, lo, hi);
                if !self.stopped && (v <= lo || v >= hi) {
                    outcome = Some(Iteration::Outside);
                    break;
                }
                v
            } else {
                let alpha = if margin > 0 {
                    best.1 - slack(best.1, margin) - 1
                } else {
                    best.1
                };
                let mut v = self.child(m, s, mv, me, depth, 1, alpha, alpha + 1);
                if v > alpha && !self.stopped {
                    v = self.child(m, s, mv, me, depth, 1, alpha, hi);
                    if v >= hi && !self.stopped {
                        outcome = Some(Iteration::Outside);
                        break;
                    }
                }
                v
            };
            if self.stopped {
                outcome = Some(Iteration::Stopped(better));
                break;
            }
            if v > best.1 {
                if i > 0 {
                    better = Some((mv, v));
                }
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
        if let Some(o) = outcome {
            return o;
        }
        self.store(key(s), best.0, best.1, depth, Bound::Exact, 0);
        Iteration::Done(best.0, best.1)
    }

    /// Play `mv`, search the reply position and score it for `me`. A move
    /// that leaves a removal owed keeps `depth` (the turn goes on); any
    /// other spends a ply of it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        mv: Move,
        me: u8,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let u = m.apply(s, mv);
        let same = s.pos.to_move == me;
        let d = if same && s.pos.pending > 0 {
            depth
        } else {
            depth - 1
        };
        // A removal owed keeps the same player to move: no sign change.
        let v = if same {
            self.search(m, s, d, ply, alpha, beta)
        } else {
            -self.search(m, s, d, ply, -beta, -alpha)
        };
        m.undo(s, u);
        v
    }

    /// Count a node; true when the budget (nodes or time) has run out.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.budgeted
            && !self.stopped
            && (self.nodes >= self.node_limit
                || (self.nodes & 1023 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d)))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The exact score of `s` by the solved table, if one holds it.
    #[inline]
    fn table_score<const W: usize>(&self, s: &State<W>, ply: usize) -> Option<i32> {
        let t = self.table.as_ref()?.as_ref()?;
        Some(value_score(t.value(&s.pos)?, ply))
    }

    /// A node's common start: count it, then its legal moves (the
    /// scratch list, to be handed back to `self.scratch`), or its score
    /// when nothing is left to search: the budget is spent, the game is
    /// over, no move exists, or the solved table holds it.
    #[inline]
    fn enter<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &State<W>,
        ply: usize,
    ) -> Result<Vec<Move>, i32> {
        if self.tick() {
            return Err(0);
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let outcome = m.legal_moves(s, &mut scratch);
        let score = if let Some(o) = outcome {
            Some(terminal(o.winner, s.pos.to_move, ply))
        } else if scratch.is_empty() {
            // Stuck: no move and no end rule; nobody can win from here.
            Some(0)
        } else {
            self.table_score(s, ply)
        };
        match score {
            Some(v) => {
                self.scratch = scratch;
                Err(v)
            }
            None => Ok(scratch),
        }
    }

    fn search<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let scratch = match self.enter(m, s, ply) {
            Ok(moves) => moves,
            Err(v) => return v,
        };
        let me = s.pos.to_move;
        if depth <= 0 && s.pos.pending == 0 {
            let mut list = self.take_list(ply);
            list.extend(scratch.iter().map(|&mv| (0, mv)));
            self.scratch = scratch;
            self.quiet_left = QUIESCENCE_NODES;
            return self.quiesce(m, s, list, ply, 0, alpha, beta);
        }
        let depth = depth.max(0);
        let k = key(s);
        let mut tt_move = None;
        if let Some(e) = self.probe(k) {
            tt_move = e.mv;
            if e.depth as i32 >= depth {
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
        self.order(m, s, &mut list, tt_move, ply);
        let alpha0 = alpha;
        let pv = beta - alpha > 1;
        let removing = s.pos.pending > 0;
        let mut best = (list[0].1, -WIN - 1);
        for i in 0..list.len() {
            let mv = next_best(&mut list, i);
            let class = list[i].0;
            let quiet = class < KEY_KILLER && !removing;
            let v = if i == 0 {
                self.child(m, s, mv, me, depth, ply + 1, alpha, beta)
            } else {
                // Late quiet moves are searched a ply shallower first
                // (two past the eighth); one that fails high is searched
                // again at full depth, then with the full window.
                let r = if quiet && depth >= 3 && i >= 3 {
                    1 + i32::from(i >= 8 && depth >= 5)
                } else {
                    0
                };
                let mut v = self.child(m, s, mv, me, depth - r, ply + 1, alpha, alpha + 1);
                if r > 0 && v > alpha && !self.stopped {
                    v = self.child(m, s, mv, me, depth, ply + 1, alpha, alpha + 1);
                }
                if pv && v > alpha && v < beta && !self.stopped {
                    v = self.child(m, s, mv, me, depth, ply + 1, alpha, beta);
                }
                v
            };
            if self.stopped {
                break;
            }
            if v > best.1 {
                best = (mv, v);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        if quiet {
                            self.reward(mv, ply, depth);
                        }
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

    /// Quiescence at the horizon: the player to move may stand on the
    /// evaluation or play a noisy move (one that closes a line or
    /// captures); a removal owed is always played out. `list` holds the
    /// legal moves of `s`.
    #[allow(clippy::too_many_arguments)]
    fn quiesce<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        mut list: Vec<(i32, Move)>,
        ply: usize,
        qply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let me = s.pos.to_move;
        let removing = s.pos.pending > 0;
        let mut best = -WIN - 1;
        if !removing {
            let stand = evaluate(m, s, &self.weights);
            if stand >= beta || qply >= QUIESCENCE_PLIES || self.quiet_left == 0 {
                self.lists[ply] = list;
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        self.order(m, s, &mut list, None, QUIESCENCE);
        for i in 0..list.len() {
            let mv = next_best(&mut list, i);
            if (!removing && list[i].0 < KEY_NOISY) || (removing && i >= QUIESCENCE_REMOVALS) {
                break;
            }
            let u = m.apply(s, mv);
            let same = s.pos.to_move == me;
            let v = if same {
                self.qnode(m, s, ply + 1, qply + 1, alpha, beta)
            } else {
                -self.qnode(m, s, ply + 1, qply + 1, -beta, -alpha)
            };
            m.undo(s, u);
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
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
        best
    }

    fn qnode<const W: usize>(
        &mut self,
        m: &Machine<W>,
        s: &mut State<W>,
        ply: usize,
        qply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.quiet_left = self.quiet_left.saturating_sub(1);
        let scratch = match self.enter(m, s, ply) {
            Ok(moves) => moves,
            Err(v) => return v,
        };
        let mut list = self.take_list(ply);
        list.extend(scratch.iter().map(|&mv| (0, mv)));
        self.scratch = scratch;
        self.quiesce(m, s, list, ply, qply, alpha, beta)
    }

    /// A quiet move cut off: remember it as a killer of its ply and in
    /// the history.
    fn reward(&mut self, mv: Move, ply: usize, depth: i32) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; 2]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let i = self.history_index(mv);
        let d = depth.max(1) as u32;
        self.history[i] = self.history[i].saturating_add(d * d);
    }

    #[inline]
    fn history_index(&self, mv: Move) -> usize {
        let n = self.points;
        (mv.from as usize).min(n - 1) * n + (mv.to as usize).min(n - 1)
    }

    fn store(&mut self, k: u64, mv: Move, score: i32, depth: i32, bound: Bound, ply: usize) {
        let i = self.slot(k);
        self.tt[i] = Entry {
            key: k,
            mv: Some(mv),
            score: to_tt(score, ply),
            depth: depth.clamp(0, u8::MAX as i32) as u8,
            bound,
            age: self.age,
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

    /// Ordering keys, generic over the rulesets (after Sanmill's move
    /// picker): the table's move first; then removals, by how many of the
    /// opponent's nearly full lines the removed piece is in; moves that
    /// capture or complete a line; the ply's killers; moves that block an
    /// opponent's nearly full line or make one of the mover's own; the
    /// rest by history. `ply` is [`QUIESCENCE`] in quiescence, where only
    /// the noisy moves are searched and the quiet ones are not ranked.
    fn order<const W: usize>(
        &self,
        m: &Machine<W>,
        s: &State<W>,
        list: &mut [(i32, Move)],
        first: Option<Move>,
        ply: usize,
    ) {
        let me = s.pos.to_move as usize & 1;
        let you = me ^ 1;
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let topo = &m.rules.topology;
        // Of the lines through `q`, besides `q`: how many hold only
        // `own`'s pieces (a piece at `q` completes them), and how many
        // hold all but one of `own`'s pieces and one empty point (a piece
        // at `q` makes a threat).
        let lines_near = |own: &Bits<W>, other: &Bits<W>, q: usize| -> (i32, i32) {
            let (mut full, mut threats) = (0, 0);
            for &li in &topo.lines_through[q] {
                let line = &topo.lines[li as usize];
                let (mut mine, mut empty) = (0, 0);
                for &r in line {
                    let r = r as usize;
                    if r == q {
                        continue;
                    }
                    if own.has(r) {
                        mine += 1;
                    } else if !other.has(r) {
                        empty += 1;
                    }
                }
                if mine + 1 == line.len() {
                    full += 1;
                } else if mine + 2 == line.len() && empty == 1 {
                    threats += 1;
                }
            }
            (full, threats)
        };
        for (k, mv) in list.iter_mut() {
            *k = if Some(*mv) == first {
                KEY_TT
            } else {
                match mv.kind {
                    MoveKind::Remove => {
                        // Break a line the opponent is one piece short of.
                        let q = mv.to as usize;
                        let mut threats = 0;
                        for &li in &topo.lines_through[q] {
                            let line = &topo.lines[li as usize];
                            let (mut opp, mut empty) = (0, 0);
                            for &r in line {
                                let r = r as usize;
                                if s.pos.occ[you].has(r) {
                                    opp += 1;
                                } else if !s.pos.occ[me].has(r) {
                                    empty += 1;
                                }
                            }
                            threats += i32::from(opp + 1 == line.len() && empty == 1);
                        }
                        KEY_NOISY * 2 + 100 * threats
                    }
                    MoveKind::Pass => -1,
                    MoveKind::Play => {
                        let captured = m.play_effect(s, mv.to).captured.count() as i32;
                        if captured > 0 {
                            KEY_NOISY + captured
                        } else if ply == QUIESCENCE {
                            0
                        } else if killers.contains(&Some(*mv)) {
                            KEY_KILLER
                        } else {
                            self.history_key(*mv)
                        }
                    }
                    MoveKind::Place | MoveKind::Slide | MoveKind::Fly | MoveKind::Leap => {
                        let to = mv.to as usize;
                        let mut occ = s.pos.occ[me];
                        if mv.kind != MoveKind::Place {
                            occ.clear(mv.from as usize);
                        }
                        occ.set(to);
                        let lines = m.lines_at(&occ, to) as i32;
                        // A leap takes a piece: ordered like a line closed.
                        let noisy = lines + i32::from(mv.kind == MoveKind::Leap);
                        if noisy > 0 {
                            KEY_NOISY + 1000 * noisy
                        } else if ply == QUIESCENCE {
                            0
                        } else if killers.contains(&Some(*mv)) {
                            KEY_KILLER
                        } else {
                            let blocks = lines_near(&s.pos.occ[you], &occ, to).0;
                            let threats = lines_near(&occ, &s.pos.occ[you], to).1;
                            20_000 * i32::from(blocks > 0)
                                + 2_000 * blocks
                                + 1_000 * threats
                                + self.history_key(*mv)
                        }
                    }
                }
            };
        }
    }

    /// A quiet move's history as an ordering key below 1000.
    #[inline]
    fn history_key(&self, mv: Move) -> i32 {
        let h = self.history[self.history_index(mv)];
        (32 - h.leading_zeros() as i32) * 30
    }
}

/// Score of a finished game for the player to move `me`, `ply` plies
/// from the root.
#[inline]
fn terminal(winner: Option<u8>, me: u8, ply: usize) -> i32 {
    match winner {
        Some(w) if w == me => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
        None => 0,
    }
}

/// A table value as a search score `ply` plies from the root (distances
/// capped so a table win stays a decided score).
#[inline]
fn value_score(v: Value, ply: usize) -> i32 {
    match v {
        Value::Win(d) => WIN - ply as i32 - d.min(5000) as i32,
        Value::Loss(d) => -(WIN - ply as i32 - d.min(5000) as i32),
        Value::Draw => 0,
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
