//! Alpha-beta over the engine's `apply`/`undo` with a transposition table
//! keyed by [`PathStack::key`](super::path::PathStack::key).
//!
//! The search computes the values of the full-history search of
//! [`crate::history`] pass for pass: the same ply caps (16, 20, 25, …
//! from the root), cut lines counted as lost and won, and as a draw where
//! those differ. Each pass's value is found by null windows
//! (`null_windows`), every first move's by its own; the values are the
//! same minimax values, only found faster:
//! * an entry whose subtree met no cut line holds for the game itself and
//!   is used in any pass where its subtree (of `height` plies) stays above
//!   the cap, where the same search would meet no cut line either;
//! * an entry whose subtree met cut lines holds for its pass, its cap and
//!   its depth only: it is keyed with the depth and the pass's count of a
//!   cut line, and a new cap starts a new generation of them;
//! * a value that leans on anything of one pass only is such an entry
//!   too: a Benson bound taken because it bounds this pass (not every
//!   pass), and a value found in a window narrowed by this pass's entry
//!   (it holds under that entry's bound only). Both once went to the
//!   entries every pass reads; the null windows, which search a node again
//!   in other passes, showed it (chinese 2x2 read black by 4 where the
//!   game cycles between white and black by 4);
//! * a node whose subtree looked up boards its key leaves out (a tainted
//!   node, see `path`) is kept with its line's answers for those boards
//!   (`reads`) and used only where the path gives the same answers; with
//!   more such boards than an entry names, it is searched but not stored.

use super::keyspec::KeySpec;
use super::path::{Key128, PathStack};
use super::reads::{Answers, Interior, Reads};
use super::settled::settled_boards_end_lines;
use super::tt::{Bound, Entry, Table};
use crate::history::{
    count_node, deepen, outcome_value, solution, HistorySolution, Iteration, Limits, SolveError,
    TtStats,
};
use morrigo_engine::{Machine, Move, MoveKind, State};
use std::time::Instant;

mod null_windows;

/// Which of the search's exact shortcuts to take (all by default; the
/// tests turn each off to check it changes no value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtOptions {
    /// Positions symmetric under the board's symmetries share entries.
    pub symmetry: bool,
    /// Lines end on settled boards where the rules allow it
    /// ([`settled_boards_end_lines`]).
    pub settled: bool,
    /// Every first move gets its own value (its own null windows). Off:
    /// the root is one alpha-beta node, so the position's value and its
    /// best move are exact and the other first moves are only proved no
    /// better ([`HistorySolution::refuted`]), which is far cheaper on
    /// boards past 3x3, where most first moves lose by a margin nobody
    /// asked for.
    pub every_first_move: bool,
}

impl Default for TtOptions {
    fn default() -> Self {
        TtOptions {
            symmetry: true,
            settled: true,
            every_first_move: true,
        }
    }
}

/// What a search of one node found.
#[derive(Clone, Copy, Debug)]
struct Found {
    value: f64,
    /// The interior boards the subtree looked up that taint this node or
    /// an ancestor: the path indices whose values depend on boards their
    /// keys leave out.
    reads: Reads,
    /// The subtree met a cut line (its value is for this pass only).
    cut: bool,
    height: u32,
}

impl Found {
    fn leaf(value: f64, reads: Reads, cut: bool) -> Self {
        Found {
            value,
            reads,
            cut,
            height: 0,
        }
    }
}

/// Solve the position reached by `moves` from the start, with the
/// transposition key `spec` (from [`KeySpec::of`] of the machine's rules),
/// positions symmetric under the board's symmetries sharing entries. The
/// result is [`crate::history::solve_history`]'s, with table statistics.
pub fn solve_tt<const W: usize>(
    m: &Machine<W>,
    spec: KeySpec,
    moves: &[Move],
    limits: &Limits,
) -> Result<HistorySolution, SolveError> {
    solve_tt_with(m, spec, moves, limits, TtOptions::default(), &mut |_| {})
}

/// [`solve_tt`] with the shortcuts `options` allows, calling `progress`
/// with the nodes searched so far every
/// [`PROGRESS_EVERY`](crate::history::PROGRESS_EVERY) nodes and with what
/// each ply cap found when its search finishes
/// ([`SolveProgress`](crate::history::SolveProgress)).
pub fn solve_tt_with<const W: usize>(
    m: &Machine<W>,
    spec: KeySpec,
    moves: &[Move],
    limits: &Limits,
    options: TtOptions,
    progress: &mut dyn FnMut(crate::history::SolveProgress),
) -> Result<HistorySolution, SolveError> {
    let progress = crate::history::SharedProgress::new(progress);
    let mut nodes = progress.nodes();
    let t0 = Instant::now();
    let mut s = m.initial();
    let mut path = PathStack::new(spec, m, &s, options.symmetry);
    for &mv in moves {
        m.apply(&mut s, mv);
        path.push(&s, mv.kind == MoveKind::Play);
    }
    let start = s.clone();
    // No estimate and no refusal by one: the table cuts the tree by more
    // than any estimate made before searching knows (Tromp-Taylor 3x2:
    // 1.5e8 nodes where the plain search's least is put at 3.1e12), so the
    // node budget is the limit, and a search that reaches it stops.
    let mut search = Search {
        m,
        path,
        progress: &mut nodes,
        settled: options.settled && settled_boards_end_lines(&m.rules).is_ok(),
        refuted: 0,
        every_first_move: options.every_first_move,
        root_hint: None,
        guess: 0.0,
        move_guesses: Vec::new(),
        limits: *limits,
        nodes: 0,
        cut: 0,
        stuck: 0,
        cut_value: 0.0,
        cap: limits.max_plies,
        root_index: moves.len(),
        buffers: vec![Vec::new(); limits.max_plies as usize + 3],
        ranked: vec![Vec::new(); limits.max_plies as usize + 3],
        scratch: (Vec::new(), Vec::new()),
        order: vec![0; (m.points() + 16) * 2],
        stride: m.points() + 16,
        table: Table::new(table_bytes(limits)).map_err(SolveError::Memory)?,
        interior: Interior::within(interior_bytes()),
        stats: TtStats::default(),
    };
    let (it, stopped_at) = deepen(limits, |cap| {
        let it = search.iteration(&mut s, cap)?;
        progress.cap_done(&it, search.nodes, t0.elapsed());
        Ok(it)
    })?;
    let mut solved = solution(m, &start, it, search.nodes, stopped_at, None, t0.elapsed());
    solved.tt = Some(TtStats {
        bytes: search.table.bytes(),
        ..search.stats
    });
    if !options.every_first_move {
        solved.refuted = Some(search.refuted);
    }
    Ok(solved)
}

/// The table's size limit: [`Limits::max_table_bytes`], within half the
/// process's memory budget (the rest is the search's own).
fn table_bytes(limits: &Limits) -> u64 {
    let (budget, _) = morrigo_engine::memory::limit();
    limits.max_table_bytes.min(budget / 2)
}

/// Room for the interior boards entries name: an eighth of the process's
/// memory budget (the table takes at most half).
fn interior_bytes() -> u64 {
    morrigo_engine::memory::limit().0 / 8
}

/// Move-order ranks: lower is tried first.
const RANK_HINT: u32 = 0;
/// A pass that ends the game at once.
const RANK_ENDING_PASS: u32 = 1;
/// A pass after which the opponent can end the game with a pass (Tromp's
/// "passes first" for two-pass endings, JK's E after a board play).
const RANK_PASS_OFFERING_END: u32 = 2;
const RANK_PLAY: u32 = 3;
/// A pass that neither ends the game nor lets the opponent end it.
const RANK_OTHER_PASS: u32 = 4;

struct Search<'m, 'p, const W: usize> {
    m: &'m Machine<W>,
    path: PathStack<W>,
    progress: &'p mut dyn FnMut(u64),
    /// End lines on settled boards, at their count.
    settled: bool,
    /// Value every root move (see [`TtOptions::every_first_move`]).
    every_first_move: bool,
    /// The best root move of the last pass, tried first in the next.
    root_hint: Option<Move>,
    /// Root moves the last value-only pass proved no better than the best.
    refuted: usize,
    /// The value the next value-only cap's null windows start from: the
    /// last cap's lower bound.
    guess: f64,
    /// Each first move's lower value at the last cap: where its null
    /// windows start at the next.
    move_guesses: Vec<(Move, f64)>,
    limits: Limits,
    nodes: u64,
    cut: u64,
    stuck: u64,
    cut_value: f64,
    cap: u32,
    /// Path index of the root.
    root_index: usize,
    buffers: Vec<Vec<Move>>,
    ranked: Vec<Vec<(u32, u32, Move)>>,
    scratch: (Vec<Move>, Vec<Move>),
    /// History heuristic: cutoffs per (play or pass, point or kind).
    order: Vec<u32>,
    stride: usize,
    /// Entries whose subtree met no cut line (valid in every pass), and
    /// entries of this pass whose subtree met cut lines, keyed with depth.
    table: Table,
    /// The interior boards looked up, by id.
    interior: Interior<W>,
    stats: TtStats,
}

impl<const W: usize> Search<'_, '_, W> {
    fn order_index(&self, mv: &Move) -> usize {
        let kind = usize::from(mv.kind == MoveKind::Pass);
        kind * self.stride + (mv.to as usize).min(self.stride - 1)
    }

    /// The key of an entry whose subtree met cut lines: valid at this
    /// depth, under this cap and for this pass's count of cut lines only
    /// (the cap's passes share the table: a value-only search switches
    /// between them while it proves its line).
    fn capped_key(&self, key: u128, depth: usize) -> u128 {
        let mut k = Key128::new(5);
        k.feed128(key);
        k.feed(depth as u64);
        k.feed(self.cut_value.to_bits());
        k.get()
    }

    /// The passes at ply cap `cap`: cut lines counted as lost for the first
    /// player, then (if any line was cut) as won; where both agree the
    /// value is exact and no draw pass is needed. Otherwise the draw pass
    /// gives the value reported between the bounds, as the plain search
    /// reports it (see [`crate::history`]).
    fn iteration(&mut self, s: &mut State<W>, cap: u32) -> Result<Iteration, SolveError> {
        self.cap = cap;
        self.table.next_pass();
        let moves = match self.start_cap(s) {
            Ok(moves) => moves,
            Err(leaf) => return Ok(*leaf),
        };
        if self.every_first_move {
            self.iteration_every_move(s, moves)
        } else {
            self.iteration_value_only(s, moves)
        }
    }

    /// Search the position after `mv` at `depth`.
    fn child(
        &mut self,
        s: &mut State<W>,
        mv: Move,
        depth: usize,
        alpha: f64,
        beta: f64,
    ) -> Result<Found, SolveError> {
        let u = self.m.apply(s, mv);
        let by_play = mv.kind == MoveKind::Play;
        self.path.push(s, by_play);
        let f = self.search(s, depth, alpha, beta, by_play);
        self.path.pop();
        self.m.undo(s, u);
        f
    }

    /// The rank of a pass for move order: whether it ends the game, or lets
    /// the opponent end it with a pass of their own.
    fn pass_rank(&mut self, s: &mut State<W>, mv: Move) -> u32 {
        let (mut replies, mut after) = std::mem::take(&mut self.scratch);
        let u = self.m.apply(s, mv);
        let rank = if self.m.legal_moves(s, &mut replies).is_some() {
            RANK_ENDING_PASS
        } else {
            let offers = replies.iter().any(|&r| {
                r.kind == MoveKind::Pass && {
                    let u2 = self.m.apply(s, r);
                    let ends = self.m.legal_moves(s, &mut after).is_some();
                    self.m.undo(s, u2);
                    ends
                }
            });
            if offers {
                RANK_PASS_OFFERING_END
            } else {
                RANK_OTHER_PASS
            }
        };
        self.m.undo(s, u);
        self.scratch = (replies, after);
        rank
    }

    /// A bound of the game's value from the points each player already
    /// holds for good (alive stones and their safe regions: the count can
    /// only give them to their owner), when it settles this node's search:
    /// a count at most alpha, or at least beta. Taken only where it also
    /// bounds this pass's value: the pass counting cut lines as lost is
    /// below the game's value, so an upper bound holds for it, and the
    /// pass counting them as won above it, so a lower bound holds.
    fn settled_bound(&mut self, s: &State<W>, alpha: f64, beta: f64) -> Option<f64> {
        if !self.settled || self.cut_value == 0.0 {
            return None;
        }
        // Cut lines lost for black: only an upper bound (white's points).
        let bound = Some(self.count_bound(s, usize::from(self.cut_value < 0.0))).filter(|&b| {
            if self.cut_value < 0.0 {
                b <= alpha
            } else {
                b >= beta
            }
        });
        self.stats.settled += u64::from(bound.is_some());
        bound
    }

    /// The value of a line cut at the ply cap in the passes that bound the
    /// game's: instead of a loss (a win) for black, the least (the most)
    /// the count can give black from the points black (white) holds for
    /// good there. Still at most (at least) the game's value below the
    /// cut, so the pass still bounds the game's value, only more tightly:
    /// a line cut where a player's life is already settled no longer
    /// stops the two passes agreeing.
    fn held_bound(&mut self, s: &State<W>) -> Option<f64> {
        if !self.settled || self.cut_value == 0.0 {
            return None;
        }
        // Lost for black: black's points give a lower bound.
        Some(self.count_bound(s, usize::from(self.cut_value > 0.0)))
    }

    /// The bound of the count from the points `player` holds for good
    /// (alive stones and their safe regions): a lower bound of the value
    /// for black (player 0), an upper bound for white.
    fn count_bound(&self, s: &State<W>, player: usize) -> f64 {
        // A lone stone holds points for good on the smallest boards only:
        // skipping the test there only loosens the bound.
        let held = if s.pos.occ[player].count() < 2 {
            0.0
        } else {
            let life = self.m.life_with_answers(&s.pos.occ, player);
            f64::from(life.alive.or(life.safe).count())
        };
        let n = self.m.points() as f64;
        let komi = self.m.rules.scoring.as_ref().map_or(0.0, |sc| sc.komi);
        if player == 1 {
            n - 2.0 * held - komi
        } else {
            2.0 * held - n - komi
        }
    }

    fn search(
        &mut self,
        s: &mut State<W>,
        depth: usize,
        alpha: f64,
        beta: f64,
        by_play: bool,
    ) -> Result<Found, SolveError> {
        count_node(&mut self.nodes, &self.limits, &mut *self.progress)?;
        let mut reads = Reads::NONE;
        let (path, interior) = (&self.path, &mut self.interior);
        path.tainting_lookups(self.m, s, by_play, |y, at| reads.add(interior.id(y), at));
        // The per-depth buffer: no allocation per node once it has grown.
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        let found = self.search_node(s, depth, alpha, beta, reads, &mut moves);
        self.buffers[depth] = moves;
        found
    }

    /// [`Search::search`] with the node's moves in `moves`: a line's end,
    /// a table hit, a Benson bound, or the children searched and the
    /// result stored.
    fn search_node(
        &mut self,
        s: &mut State<W>,
        depth: usize,
        mut alpha: f64,
        mut beta: f64,
        reads: Reads,
        moves: &mut Vec<Move>,
    ) -> Result<Found, SolveError> {
        if let Some(f) = self.line_end(s, depth, reads, moves) {
            return Ok(f);
        }
        // Entries are kept in a frame all symmetric positions share (see
        // `canonical_key`): moves and boards are mapped into it and back.
        let (key, frame) = self.path.canonical_key(s);
        let keys = (key, self.capped_key(key, depth));
        let miss = match self.probe(keys, frame, depth, &mut alpha, &mut beta, reads) {
            Ok(f) => return Ok(f),
            Err(miss) => miss,
        };
        if let Some(bound) = self.settled_bound(s, alpha, beta) {
            // A bound of this pass only (the game's value bounds the pass
            // counting cut lines lost from above, not the others): kept
            // out of the entries every pass reads, as a cut line is.
            return Ok(Found::leaf(bound, reads, true));
        }
        self.rank_moves(s, depth, moves, miss.hint);
        let (mut f, best_move) = self.children(s, depth, alpha, beta, reads)?;
        // A value found in a window narrowed by an entry holds where the
        // entry does: in its pass only, with its boards' answers only.
        f.cut |= miss.narrowed_by_pass;
        f.reads.merge(&miss.narrowed_reads);
        f.reads.keep_to(self.root_index + depth);
        self.store(keys, frame, (alpha, beta), &f, best_move);
        Ok(f)
    }

    /// The node's value when the line ends here: the game is over, no move
    /// is left, the board is settled, or the ply cap is reached.
    fn line_end(
        &mut self,
        s: &State<W>,
        depth: usize,
        reads: Reads,
        moves: &mut Vec<Move>,
    ) -> Option<Found> {
        if let Some(o) = self.m.legal_moves(s, moves) {
            return Some(Found::leaf(outcome_value(self.m, s, &o), reads, false));
        }
        if moves.is_empty() {
            self.stuck += 1;
            return Some(Found::leaf(0.0, reads, false));
        }
        if self.settled && self.m.is_settled_with_answers(&s.pos.occ) {
            // The game's value whatever the history (see `settled`), so
            // not a cut line: kept for every pass.
            self.stats.settled += 1;
            let score = self.m.score(s, &morrigo_engine::Bits::EMPTY);
            return Some(Found::leaf(score[0] - score[1], reads, false));
        }
        if depth >= self.cap as usize {
            self.cut += 1;
            let value = self.held_bound(s).unwrap_or(self.cut_value);
            return Some(Found::leaf(value, reads, true));
        }
        None
    }

    /// Look the node up (its game entry, then this pass's capped one; an
    /// entry tied to interior boards' answers only where the path gives
    /// the same): `Ok` with the value where the entry settles the window
    /// (narrowed by a bound otherwise), else `Err` with what the entry
    /// still tells the search.
    fn probe(
        &mut self,
        (key, capped_key): (u128, u128),
        frame: usize,
        depth: usize,
        alpha: &mut f64,
        beta: &mut f64,
        reads: Reads,
    ) -> Result<Found, Miss> {
        self.stats.probes += 1;
        let room = self.cap as usize - depth;
        // An entry's boards are kept in its frame, as its move is.
        let map = self.path.map(frame);
        let holds_here = |e: &Entry| {
            e.answers.pairs().all(|(id, a)| {
                let y = map.board_back(self.interior.board(id));
                self.path.occurrences(&y) == Some(a)
            })
        };
        let hit = match self.table.get(key, false) {
            Some(e) if (e.height as usize) < room && holds_here(&e) => Some((e, false)),
            _ => self
                .table
                .get(capped_key, true)
                .filter(|e| holds_here(e))
                .map(|e| (e, true)),
        };
        let Some((e, cut)) = hit else {
            return Err(Miss::NOTHING);
        };
        // The entry's boards taint this path where they lie inside its
        // epochs, as they would have had the subtree been searched here.
        let mut entry_reads = Reads::NONE;
        for (id, _) in e.answers.pairs() {
            let y = map.board_back(self.interior.board(id));
            let at = self.path.taint_threshold(&y);
            if at != usize::MAX {
                entry_reads.add(self.interior.id(&y), at);
            }
        }
        let hint = e.best.map(|mv| map.mv(mv, true));
        let done = match e.bound {
            Bound::Exact => true,
            Bound::Lower => {
                *alpha = alpha.max(e.value);
                *alpha >= *beta
            }
            Bound::Upper => {
                *beta = beta.min(e.value);
                *alpha >= *beta
            }
        };
        if !done {
            return Err(Miss {
                hint,
                narrowed_by_pass: cut,
                narrowed_reads: entry_reads,
            });
        }
        self.stats.hits += 1;
        let mut reads = reads;
        reads.merge(&entry_reads);
        Ok(Found {
            value: e.value,
            reads,
            cut,
            height: e.height,
        })
    }

    /// Order the node's moves into `ranked[depth]`: the table's move, then
    /// passes by what they let end, plays by the history heuristic.
    fn rank_moves(&mut self, s: &mut State<W>, depth: usize, moves: &[Move], hint: Option<Move>) {
        let mut ranked = std::mem::take(&mut self.ranked[depth]);
        ranked.clear();
        for &mv in moves {
            let rank = if Some(mv) == hint {
                RANK_HINT
            } else if mv.kind == MoveKind::Pass {
                self.pass_rank(s, mv)
            } else {
                RANK_PLAY
            };
            ranked.push((rank, u32::MAX - self.order[self.order_index(&mv)], mv));
        }
        ranked.sort_unstable_by_key(|&(rank, order, _)| (rank, order));
        self.ranked[depth] = ranked;
    }

    /// Alpha-beta over the ranked moves: the node's value (with the least
    /// taint, whether a cut line was met, the height) and its best move.
    fn children(
        &mut self,
        s: &mut State<W>,
        depth: usize,
        mut alpha: f64,
        mut beta: f64,
        mut reads: Reads,
    ) -> Result<(Found, Option<Move>), SolveError> {
        let ranked = std::mem::take(&mut self.ranked[depth]);
        let maximising = s.pos.to_move == 0;
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let (mut best_move, mut cut, mut height) = (None, false, 0);
        let mut result = Ok(());
        for &(_, _, mv) in &ranked {
            let f = match self.child(s, mv, depth + 1, alpha, beta) {
                Ok(f) => f,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            reads.merge(&f.reads);
            cut |= f.cut;
            height = height.max(f.height + 1);
            if (maximising && f.value > best) || (!maximising && f.value < best) {
                best = f.value;
                best_move = Some(mv);
            }
            if maximising {
                alpha = alpha.max(f.value);
            } else {
                beta = beta.min(f.value);
            }
            if alpha >= beta {
                let i = self.order_index(&mv);
                self.order[i] = self.order[i].saturating_add(1);
                break;
            }
        }
        self.ranked[depth] = ranked;
        result?;
        let found = Found {
            value: best,
            reads,
            cut,
            height,
        };
        Ok((found, best_move))
    }

    /// Keep a searched node's value: in the game table when no cut line
    /// was met, else in this pass's, keyed with the depth; a bound where it
    /// fell outside the window `(alpha0, beta0)` the node was searched
    /// with. A node whose value may depend on boards its key leaves out (a
    /// tainted node) is kept with its line's answers for those boards, or
    /// not at all where some could not be named.
    fn store(
        &mut self,
        (key, capped_key): (u128, u128),
        frame: usize,
        (alpha0, beta0): (f64, f64),
        f: &Found,
        best_move: Option<Move>,
    ) {
        // Every board left in `reads` taints this node (see `keep_to`). The
        // boards are kept in the entry's frame, as its move is.
        let map = self.path.map(frame);
        let (path, interior) = (&self.path, &mut self.interior);
        let answers = Answers::of(&f.reads, |id| {
            let y = *interior.board(id);
            let answer = path.occurrences(&y)?;
            Some((interior.id(&map.board(&y))?, answer))
        });
        let Some(answers) = answers else {
            self.stats.tainted += 1;
            return;
        };
        self.stats.stored_with_answers += u64::from(!answers.is_empty());
        let bound = if f.value <= alpha0 {
            Bound::Upper
        } else if f.value >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let entry = Entry {
            value: f.value,
            bound,
            best: best_move.map(|mv| self.path.map(frame).mv(mv, false)),
            height: f.height,
            answers,
        };
        self.stats.stores += 1;
        if f.cut {
            self.table.put(capped_key, entry, true);
        } else {
            self.table.put(key, entry, false);
        }
    }
}

/// What a probe that did not settle the node found.
struct Miss {
    /// The entry's best move, in the node's frame.
    hint: Option<Move>,
    /// A bound of this pass's entry narrowed the window.
    narrowed_by_pass: bool,
    /// The interior boards the narrowing entry's value rests on.
    narrowed_reads: Reads,
}

impl Miss {
    const NOTHING: Miss = Miss {
        hint: None,
        narrowed_by_pass: false,
        narrowed_reads: Reads::NONE,
    };
}
