//! Exact values of Go-style rulesets on tiny boards by a full-history search.
//!
//! The search is plain minimax with alpha-beta pruning over the engine's own
//! [`Machine`]: every move is made with `apply` and taken back with `undo`,
//! so every rule that reads the history (simple ko, superko, JK move
//! classes and D runs, the pass patterns of Art. 2.7 and 4.3, the
//! repetition rules of Art. 3.2 and 3.3) is applied exactly as in play.
//!
//! **No transposition table.** Two move orders that reach the same board
//! generally do not share a future under these rules (superko sets, board
//! occurrence counts, class patterns and D runs all read the path), and a
//! key covering everything the rules may read would be the whole history,
//! which never repeats within a tree. So every node is searched and the
//! node count is the size of the searched tree.
//!
//! Values are for the first player. A game counted by a `score` end rule is
//! worth the score difference (first minus second, komi included); a game
//! decided otherwise (suicide loses, Art. 3.2, Art. 3.3, …) is worth
//! ±[`WIN`], more than any count, so a win by rule beats a win on points;
//! a draw is 0. Without a `scoring:` section every count is 0, so the value
//! is just win / draw / loss.
//!
//! A ruleset whose history rules do not end every game (simple ko allows
//! cycles) could make the tree infinite, so a line is cut after a number of
//! plies from the start and counted as a draw. When lines were cut the
//! search is repeated with them counted as a loss and as a win for the
//! first player; if all three agree the value is exact (and likewise each
//! first move's). The cap starts at 16 plies and grows by a quarter (up to
//! `max_plies`) until no line is cut or the cut lines change no value;
//! otherwise the report gives the bounds, those of the deepest cap searched
//! within the node budget.

use morrigo_engine::{Machine, Move, MoveKind, Outcome, State};
use morrigo_rules::Verdict;
use std::time::{Duration, Instant};

/// Value of a game won by an end rule that does not count (for the first
/// player; a loss is `-WIN`).
pub const WIN: f64 = 1.0e9;
/// Default node budget (`--max-nodes`): 20 to 50 s of release-build search.
pub const DEFAULT_MAX_NODES: u64 = 100_000_000;
/// Default ply cap of one line of the search (see the module comment).
pub const DEFAULT_MAX_PLIES: u32 = 200;
/// Random games sampled for the size estimate made before searching.
pub const ESTIMATE_PROBES: u32 = 2_000;

/// The limits of one solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Nodes the search may visit; a tree estimated larger is refused
    /// before searching, and a search that reaches it stops.
    pub max_nodes: u64,
    /// The deepest ply cap (see the module comment).
    pub max_plies: u32,
    /// Bytes the transposition table may grow to (the table search only;
    /// within half the process's memory budget, which is the limit by
    /// default: the table grows only as entries fill it, and a search of
    /// 10^8 nodes and more loses much of its work to replacements in a
    /// table of 1 GiB).
    pub max_table_bytes: u64,
}

/// Default size limit of the transposition table: none of its own (half
/// the memory budget, see [`Limits::max_table_bytes`]).
pub const DEFAULT_TABLE_BYTES: u64 = u64::MAX;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nodes: DEFAULT_MAX_NODES,
            max_plies: DEFAULT_MAX_PLIES,
            max_table_bytes: DEFAULT_TABLE_BYTES,
        }
    }
}

/// Why no value was found.
#[derive(Clone, Debug, PartialEq)]
pub enum SolveError {
    /// Refused before searching: the estimated search is over the budget.
    TooBig(Estimate),
    /// The search reached the node budget before it finished.
    Budget {
        /// Nodes searched when it stopped.
        nodes: u64,
        /// The budget ([`Limits::max_nodes`]).
        max_nodes: u64,
    },
    /// The transposition table's first allocation was refused.
    Memory(morrigo_engine::memory::OutOfMemory),
}

/// The size of the game tree, estimated before searching by Knuth's method:
/// random games from the start (fixed seed), each giving
/// `1 + b1 + b1·b2 + …` (the `b`s being the numbers of legal moves along
/// it), averaged: an unbiased estimate of the full (unpruned) tree.
/// Alpha-beta visits at least about `sqrt(full)` of its nodes even with
/// perfect move order (Knuth and Moore's minimal tree, `b^(d/2)`), so a
/// position whose `sqrt(full)` is over the node budget cannot be solved
/// within it and is refused before searching. Below that the search runs
/// and stops at the budget if it gets there. Measured on 3x1 and 2x2, the
/// searches that finish visit 0.08 to 2 times `sqrt(full)`; Chinese 2x2
/// (cycles under simple ko) is estimated at 3.4e7 and runs to the budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Estimated nodes of the full game tree.
    pub full_tree: f64,
    /// Fewest nodes alpha-beta can visit on such a tree: `sqrt(full_tree)`.
    pub search: f64,
    /// Longest sampled game, in plies.
    pub longest: u32,
    /// The node budget `search` was compared with ([`Limits::max_nodes`]).
    pub max_nodes: u64,
}

/// How the transposition table served a solve (the table search of
/// `go` fills it in; the plain search has none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TtStats {
    /// Lookups made (one per searched node that is not a leaf).
    pub probes: u64,
    /// Lookups that found a usable entry.
    pub hits: u64,
    /// Entries stored.
    pub stores: u64,
    /// Nodes not stored because their value may depend on boards the key
    /// leaves out (path-dependent: graph-history interaction).
    pub tainted: u64,
    /// Entries stored with the answers their line gave for the interior
    /// boards that tainted them: they hold where a path gives the same.
    pub stored_with_answers: u64,
    /// Bytes the table held at the end.
    pub bytes: u64,
    /// Lines ended by Benson's unconditional life: on a settled board, at
    /// its count (see `go::settled`), or by a bound from the points each
    /// player holds for good.
    pub settled: u64,
}

/// The exact value of a position, its perfect-play line and the value of
/// every move from it.
#[derive(Clone, Debug, PartialEq)]
pub struct HistorySolution {
    /// Value for the first player (see the module comment).
    pub value: f64,
    /// Nodes searched (positions visited, the start included), over all
    /// searches made.
    pub nodes: u64,
    /// A perfect-play line from the position to the end of the game.
    pub line: Vec<Move>,
    /// How the line ends (`None` if it was cut at the ply cap).
    pub end: Option<Outcome>,
    /// The count at the end of the line, when it ends by a `score` rule.
    pub final_score: Option<[f64; 2]>,
    /// Each legal move of the position with its value, in move generation
    /// order (exact unless its entry in `move_bounds` is set).
    pub moves: Vec<(Move, f64)>,
    /// Per move: `None` if its value does not depend on the cut lines, else
    /// its value with cut lines lost and won by the first player.
    pub move_bounds: Vec<Option<(f64, f64)>>,
    /// A value-only solve (`go::TtOptions::every_first_move` off): `moves`
    /// holds the best move alone, and this many other first moves were
    /// proved no better than it, without values of their own. `None`:
    /// every first move is in `moves`.
    pub refuted: Option<usize>,
    /// Lines cut at the ply cap in the first search (counted as draws).
    pub cut_lines: u64,
    /// The ply cap of the search reported (the first of 16, 20, 25, 31, …
    /// up to `Limits::max_plies` at which no line was cut or the cut lines
    /// did not change the value).
    pub max_plies: u32,
    /// The deeper cap whose search ran out of node budget, when the value
    /// reported is that of a shallower cap whose cut lines matter.
    pub stopped_at: Option<u32>,
    /// When lines were cut and the value depends on how they are counted:
    /// the value with cut lines lost and won by the first player.
    pub bounds: Option<(f64, f64)>,
    /// Positions with no legal move where no end rule decides (counted as draws).
    pub stuck: u64,
    /// The size estimate made before searching (the plain search, which
    /// is refused by it; the table search makes none).
    pub estimate: Option<Estimate>,
    /// Wall-clock time of the whole solve, the estimate included.
    pub elapsed: Duration,
    /// Transposition-table statistics (`None` for the plain search).
    pub tt: Option<TtStats>,
}

impl HistorySolution {
    /// Whether the value does not depend on how cut lines are counted.
    pub fn exact(&self) -> bool {
        self.bounds.is_none()
    }

    /// Whether neither the value nor any move's value depends on it.
    pub fn all_exact(&self) -> bool {
        self.exact() && self.move_bounds.iter().all(Option::is_none)
    }
}

/// Who wins with perfect play: 0 (first player), 1, or `None` for a draw.
pub fn winner_of(value: f64) -> Option<u8> {
    if value > 0.0 {
        Some(0)
    } else if value < 0.0 {
        Some(1)
    } else {
        None
    }
}

/// Whether a value is a win or loss by an end rule that does not count.
pub fn decided_by_rule(value: f64) -> bool {
    value.abs() >= WIN
}

/// Value of a finished game for the first player.
pub fn outcome_value<const W: usize>(m: &Machine<W>, s: &State<W>, o: &Outcome) -> f64 {
    let counted = m
        .rules
        .end
        .get(o.rule as usize)
        .is_some_and(|e| e.verdict == Verdict::Score);
    if counted {
        let score = m.score(s, &morrigo_engine::Bits::EMPTY);
        return score[0] - score[1];
    }
    match o.winner {
        Some(0) => WIN,
        Some(_) => -WIN,
        None => 0.0,
    }
}

/// Estimate the search from `start` (see [`Estimate`]): `probes` random
/// games of at most `max_plies` plies, from a fixed seed.
pub fn estimate<const W: usize>(
    m: &Machine<W>,
    start: &State<W>,
    probes: u32,
    limits: &Limits,
) -> Estimate {
    let mut rng = 0x736F_6C76_6521_u64; // fixed: the same estimate every run
    let mut moves = Vec::new();
    let mut total = 0.0f64;
    let mut longest = 0;
    for _ in 0..probes.max(1) {
        let mut s = start.clone();
        let (mut nodes, mut width) = (1.0f64, 1.0f64);
        let mut plies = 0;
        while plies < limits.max_plies {
            if m.legal_moves(&s, &mut moves).is_some() || moves.is_empty() {
                break;
            }
            width *= moves.len() as f64;
            nodes += width;
            let pick = (splitmix(&mut rng) % moves.len() as u64) as usize;
            m.apply(&mut s, moves[pick]);
            plies += 1;
        }
        longest = longest.max(plies);
        total += nodes;
    }
    let full_tree = total / f64::from(probes.max(1));
    Estimate {
        full_tree,
        search: full_tree.sqrt(),
        longest,
        max_nodes: limits.max_nodes,
    }
}

/// SplitMix64: the fixed-seed random lines of [`estimate`] and of the
/// retrograde solver's probe ([`crate::probe`]).
pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Solve the position `start` under the machine's rules: refuse it (before
/// searching) if the estimated search exceeds `limits.max_nodes`, else
/// search it to the end of every line.
pub fn solve_history<const W: usize>(
    m: &Machine<W>,
    start: &State<W>,
    limits: &Limits,
) -> Result<HistorySolution, SolveError> {
    solve_history_with(m, start, limits, &mut |_| {})
}

/// Nodes between two calls of the progress callback.
pub const PROGRESS_EVERY: u64 = 1 << 16;

/// What a solve reports while it runs, for a progress display (the
/// solver prints nothing itself).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SolveProgress {
    /// The nodes searched so far, every [`PROGRESS_EVERY`] nodes.
    Nodes(u64),
    /// The search at one ply cap finished (16, 20, 25, 31, …): what it
    /// found, so a run stopped before the end keeps the caps it finished.
    CapDone(CapReport),
}

/// What the search at one ply cap found (see [`SolveProgress::CapDone`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CapReport {
    /// The ply cap.
    pub cap: u32,
    /// The value with cut lines counted as draws (the value, when
    /// `bounds` is `None`).
    pub value: f64,
    /// When the cut lines leave the value open: the value with cut lines
    /// lost and won by the first player (as [`HistorySolution::bounds`]).
    pub bounds: Option<(f64, f64)>,
    /// First moves whose values the cut lines leave open (at most one in
    /// a value-only solve, which values the best move alone).
    pub open_moves: usize,
    /// Lines cut at the cap (in the pass counting them as draws).
    pub cut_lines: u64,
    /// Nodes searched so far, over all caps.
    pub nodes: u64,
    /// Time since the solve started.
    pub elapsed: Duration,
}

/// One progress callback shared by a search's node counter (which the
/// search holds while it runs) and the caps' reports made between
/// searches.
pub(crate) struct SharedProgress<'a>(std::cell::RefCell<&'a mut dyn FnMut(SolveProgress)>);

impl<'a> SharedProgress<'a> {
    pub(crate) fn new(progress: &'a mut dyn FnMut(SolveProgress)) -> Self {
        SharedProgress(std::cell::RefCell::new(progress))
    }

    /// The node counter a search calls (see [`count_node`]).
    pub(crate) fn nodes(&self) -> impl FnMut(u64) + use<'_, 'a> {
        |n| (*self.0.borrow_mut())(SolveProgress::Nodes(n))
    }

    /// Report the cap `it` finished, `nodes` searched so far.
    pub(crate) fn cap_done(&self, it: &Iteration, nodes: u64, elapsed: Duration) {
        let report = CapReport {
            cap: it.cap,
            value: it.value,
            bounds: it.bounds,
            open_moves: it.move_bounds.iter().filter(|b| b.is_some()).count(),
            cut_lines: it.cut,
            nodes,
            elapsed,
        };
        (*self.0.borrow_mut())(SolveProgress::CapDone(report));
    }
}

/// [`solve_history`], calling `progress` with the nodes searched so far
/// every [`PROGRESS_EVERY`] nodes and with what each ply cap found when
/// its search finishes (a progress display).
pub fn solve_history_with<const W: usize>(
    m: &Machine<W>,
    start: &State<W>,
    limits: &Limits,
    progress: &mut dyn FnMut(SolveProgress),
) -> Result<HistorySolution, SolveError> {
    let t0 = Instant::now();
    let estimate = estimate(m, start, ESTIMATE_PROBES, limits);
    if estimate.search > limits.max_nodes as f64 {
        return Err(SolveError::TooBig(estimate));
    }
    let progress = SharedProgress::new(progress);
    let mut nodes = progress.nodes();
    let mut search = Search::new(m, limits, &mut nodes);
    let mut s = start.clone();
    let (it, stopped_at) = deepen(limits, |cap| {
        let it = search.iteration(&mut s, cap)?;
        progress.cap_done(&it, search.nodes, t0.elapsed());
        Ok(it)
    })?;
    Ok(solution(
        m,
        start,
        it,
        search.nodes,
        stopped_at,
        Some(estimate),
        t0.elapsed(),
    ))
}

/// Count one more node of a search: past the budget an error, and every
/// [`PROGRESS_EVERY`] nodes a call of `progress`. Both Go searches count
/// their nodes here.
pub(crate) fn count_node(
    nodes: &mut u64,
    limits: &Limits,
    progress: &mut dyn FnMut(u64),
) -> Result<(), SolveError> {
    *nodes += 1;
    if *nodes > limits.max_nodes {
        return Err(SolveError::Budget {
            nodes: *nodes,
            max_nodes: limits.max_nodes,
        });
    }
    if nodes.is_multiple_of(PROGRESS_EVERY) {
        progress(*nodes);
    }
    Ok(())
}

/// Run `iteration` at ply caps 16, 20, 25, 31, … (a quarter more each
/// time) up to `limits.max_plies`
/// until no line is cut or the cut lines change no value; when a deeper
/// cap runs out of budget, the last finished one is kept, with the cap
/// that ran out.
pub(crate) fn deepen(
    limits: &Limits,
    mut iteration: impl FnMut(u32) -> Result<Iteration, SolveError>,
) -> Result<(Iteration, Option<u32>), SolveError> {
    let mut cap = FIRST_CAP.min(limits.max_plies);
    let mut found: Option<Iteration> = None;
    loop {
        match iteration(cap) {
            Ok(it) => {
                let exact = it.bounds.is_none() && it.move_bounds.iter().all(Option::is_none);
                if exact || cap >= limits.max_plies {
                    return Ok((it, None));
                }
                found = Some(it);
                cap = cap.saturating_add(cap / 4).min(limits.max_plies);
            }
            // Out of budget: keep the last finished cap, if there is one.
            Err(e) => return found.map(|it| (it, Some(cap))).ok_or(e),
        }
    }
}

/// The solution an iteration found, its line played out from `start` to
/// report how it ends.
pub(crate) fn solution<const W: usize>(
    m: &Machine<W>,
    start: &State<W>,
    it: Iteration,
    nodes: u64,
    stopped_at: Option<u32>,
    estimate: Option<Estimate>,
    elapsed: Duration,
) -> HistorySolution {
    let mut end_state = start.clone();
    for &mv in &it.line {
        m.apply(&mut end_state, mv);
    }
    let mut buf = Vec::new();
    let end = m.legal_moves(&end_state, &mut buf);
    let final_score = end.and_then(|o| {
        let counted = m
            .rules
            .end
            .get(o.rule as usize)
            .is_some_and(|e| e.verdict == Verdict::Score);
        counted.then(|| m.score(&end_state, &morrigo_engine::Bits::EMPTY))
    });
    HistorySolution {
        value: it.value,
        nodes,
        line: it.line,
        end,
        final_score,
        moves: it.moves,
        move_bounds: it.move_bounds,
        cut_lines: it.cut,
        max_plies: it.cap,
        stopped_at,
        bounds: it.bounds,
        stuck: it.stuck,
        estimate,
        elapsed,
        tt: None,
        refuted: None,
    }
}

/// The bounds of a value and of each root move (in generation order in
/// every pass) when cut lines counted lost (`low`) and won (`high`) move
/// them: `None` where they do not.
#[allow(clippy::type_complexity)]
pub(crate) fn bounds_of(
    value: f64,
    moves: &[(Move, f64)],
    (low, low_moves): (f64, &[(Move, f64)]),
    (high, high_moves): (f64, &[(Move, f64)]),
) -> (Option<(f64, f64)>, Vec<Option<(f64, f64)>>) {
    let bounds = (low != value || high != value).then_some((low, high));
    let move_bounds = moves
        .iter()
        .zip(low_moves.iter().zip(high_moves))
        .map(|((_, v), ((_, lo), (_, hi)))| (lo != v || hi != v).then_some((*lo, *hi)))
        .collect();
    (bounds, move_bounds)
}

/// The first ply cap tried; each next one is a quarter more, up to
/// `Limits::max_plies`. The tree grows exponentially with the cap, so the
/// last (finishing) iteration costs the most, and a cap just past the
/// longest line that matters is what makes it cheap: against doubling,
/// New Zealand 5x1 takes 625,501 nodes instead of 13,168,548 and Japanese
/// 3x2 525,428 instead of 15,843,260.
const FIRST_CAP: u32 = 16;

/// What one search at one ply cap found.
pub(crate) struct Iteration {
    pub(crate) value: f64,
    pub(crate) moves: Vec<(Move, f64)>,
    pub(crate) move_bounds: Vec<Option<(f64, f64)>>,
    pub(crate) line: Vec<Move>,
    pub(crate) cut: u64,
    pub(crate) stuck: u64,
    pub(crate) bounds: Option<(f64, f64)>,
    pub(crate) cap: u32,
}

/// The search state: scratch move lists and principal variations per ply
/// (allocated once, reused), and a history-heuristic table for move order
/// (it changes only the order moves are tried, never a value).
struct Search<'m, 'p, const W: usize> {
    m: &'m Machine<W>,
    progress: &'p mut dyn FnMut(u64),
    limits: Limits,
    nodes: u64,
    /// Lines cut at the ply cap, positions with no move and no verdict.
    cut: u64,
    stuck: u64,
    /// Value of a line cut at the ply cap.
    cut_value: f64,
    /// Plies from the start after which a line is cut (this iteration).
    cap: u32,
    buffers: Vec<Vec<Move>>,
    /// `pv[d]`: the best line found from the node at depth `d`.
    pv: Vec<Vec<Move>>,
    order: Vec<u32>,
    stride: usize,
}

impl<'m, 'p, const W: usize> Search<'m, 'p, W> {
    fn new(m: &'m Machine<W>, limits: &Limits, progress: &'p mut dyn FnMut(u64)) -> Self {
        let depth = limits.max_plies as usize + 2;
        let stride = m.points() + 16;
        Search {
            m,
            progress,
            limits: *limits,
            nodes: 0,
            cut: 0,
            stuck: 0,
            cut_value: 0.0,
            cap: limits.max_plies,
            buffers: vec![Vec::new(); depth],
            pv: vec![Vec::new(); depth],
            order: vec![0; stride * 7],
            stride,
        }
    }

    fn order_index(&self, mv: &Move) -> usize {
        let kind = match mv.kind {
            MoveKind::Place => 0,
            MoveKind::Slide => 1,
            MoveKind::Fly => 2,
            MoveKind::Remove => 3,
            MoveKind::Play => 4,
            MoveKind::Pass => 5,
            MoveKind::Leap => 6,
        };
        kind * self.stride + (mv.to as usize).min(self.stride - 1)
    }

    /// One search with the ply cap `cap`, cut lines counted as draws, and
    /// if lines were cut, two more counting them lost and won.
    fn iteration(&mut self, s: &mut State<W>, cap: u32) -> Result<Iteration, SolveError> {
        self.cap = cap;
        let (value, moves) = self.root(s, 0.0)?;
        let (cut, stuck) = (self.cut, self.stuck);
        let line = self.pv[0].clone();
        let (mut bounds, mut move_bounds) = (None, vec![None; moves.len()]);
        if cut > 0 {
            let (low, low_moves) = self.root(s, -WIN)?;
            let (high, high_moves) = self.root(s, WIN)?;
            (bounds, move_bounds) =
                bounds_of(value, &moves, (low, &low_moves), (high, &high_moves));
        }
        Ok(Iteration {
            value,
            moves,
            move_bounds,
            line,
            cut,
            stuck,
            bounds,
            cap,
        })
    }

    /// Every move of the root searched with a full window, so each gets its
    /// exact value; returns the best value and the moves' values.
    fn root(
        &mut self,
        s: &mut State<W>,
        cut_value: f64,
    ) -> Result<(f64, Vec<(Move, f64)>), SolveError> {
        self.cut_value = cut_value;
        self.cut = 0;
        self.stuck = 0;
        self.nodes += 1;
        let mut moves = Vec::new();
        if let Some(o) = self.m.legal_moves(s, &mut moves) {
            self.pv[0].clear();
            return Ok((outcome_value(self.m, s, &o), Vec::new()));
        }
        if moves.is_empty() {
            self.stuck += 1;
            self.pv[0].clear();
            return Ok((0.0, Vec::new()));
        }
        let maximising = s.pos.to_move == 0;
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut values = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let u = self.m.apply(s, mv);
            let v = self.search(s, 1, f64::NEG_INFINITY, f64::INFINITY);
            self.m.undo(s, u);
            let v = v?;
            values.push((mv, v));
            if (maximising && v > best) || (!maximising && v < best) {
                best = v;
                let (head, tail) = self.pv.split_at_mut(1);
                head[0].clear();
                head[0].push(mv);
                head[0].extend_from_slice(&tail[0]);
            }
        }
        Ok((best, values))
    }

    fn search(
        &mut self,
        s: &mut State<W>,
        depth: usize,
        mut alpha: f64,
        mut beta: f64,
    ) -> Result<f64, SolveError> {
        count_node(&mut self.nodes, &self.limits, &mut *self.progress)?;
        self.pv[depth].clear();
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        if let Some(o) = self.m.legal_moves(s, &mut moves) {
            self.buffers[depth] = moves;
            return Ok(outcome_value(self.m, s, &o));
        }
        if moves.is_empty() {
            self.buffers[depth] = moves;
            self.stuck += 1;
            return Ok(0.0);
        }
        if depth >= self.cap as usize {
            self.buffers[depth] = moves;
            self.cut += 1;
            return Ok(self.cut_value);
        }
        moves.sort_unstable_by_key(|mv| std::cmp::Reverse(self.order[self.order_index(mv)]));
        let maximising = s.pos.to_move == 0;
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut result = Ok(());
        for &mv in &moves {
            let u = self.m.apply(s, mv);
            let v = self.search(s, depth + 1, alpha, beta);
            self.m.undo(s, u);
            let v = match v {
                Ok(v) => v,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            if (maximising && v > best) || (!maximising && v < best) {
                best = v;
                let (head, tail) = self.pv.split_at_mut(depth + 1);
                let line = &mut head[depth];
                line.clear();
                line.push(mv);
                line.extend_from_slice(&tail[0]);
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                let i = self.order_index(&mv);
                self.order[i] = self.order[i].saturating_add(1);
                break;
            }
        }
        self.buffers[depth] = moves;
        result.map(|()| best)
    }
}
