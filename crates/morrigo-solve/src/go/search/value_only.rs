//! The value-only passes ([`TtOptions::every_first_move`](super::TtOptions)
//! off) by null windows (Plaat's MTD(f)): a pass's value is found by
//! searches that each only ask whether it is at least some number, the
//! first from the last cap's value, so most of the tree is cut at once
//! (chinese-superko 4x3: the first bounding pass at a 20-ply cap took
//! 105 million nodes with one full window, 10.3 million so).
//!
//! The null windows prove the value but not a line: a window that fails
//! high proves black's moves, and leaves White's unranked. The line is
//! therefore proved move by move afterwards: black's moves by the pass
//! counting cut lines lost (at least the value), White's by the pass
//! counting them won (at most the value). Every node of such a line is
//! worth the value in both passes (induction from the root, where they
//! agree), hence in the game: each move of the line is a best move.

// A null window is `(x.next_down(), x)`: no value lies strictly inside it,
// whatever the komi (a win by rule is ±`WIN`, 1e9, past any fixed epsilon).
use super::Search;
use crate::history::{outcome_value, Iteration, SolveError, WIN};
use morrigo_engine::{Move, MoveKind, State};

/// What the null-window searches of one pass proved of the root.
struct Proved {
    value: f64,
    /// The root move of the last search proving a lower bound.
    raising: Option<Move>,
    /// The root move of the last search proving an upper bound.
    lowering: Option<Move>,
    /// The proof of the upper bound met a cut line.
    upper_cut: bool,
}

impl<const W: usize> Search<'_, '_, W> {
    /// One cap's passes by null windows: the pass counting cut lines lost
    /// gives a lower bound of the game's value; where its proof of the
    /// matching upper bound met a cut line, the pass counting them won is
    /// asked only whether the value is at most that. If not, both passes'
    /// values and the draw pass's are found, as the full search reports.
    pub(super) fn iteration_value_only(
        &mut self,
        s: &mut State<W>,
    ) -> Result<Iteration, SolveError> {
        self.cut = 0;
        self.stuck = 0;
        self.nodes += 1;
        let cap = self.cap;
        let mut moves = Vec::new();
        let ended = self.m.legal_moves(s, &mut moves);
        if ended.is_some() || moves.is_empty() {
            self.stuck += u64::from(ended.is_none());
            let value = ended.map_or(0.0, |o| outcome_value(self.m, s, &o));
            return Ok(Iteration {
                value,
                moves: Vec::new(),
                move_bounds: Vec::new(),
                line: Vec::new(),
                cut: 0,
                stuck: self.stuck,
                bounds: None,
                cap,
            });
        }
        self.refuted = moves.len() - 1;
        let unbounded = (f64::NEG_INFINITY, f64::INFINITY);
        let low = self.mtdf(s, &moves, -WIN, self.guess, unbounded)?;
        self.guess = low.value;
        let mut high = None;
        if low.upper_cut {
            let (test, _) = self.window(s, &moves, WIN, (low.value, low.value.next_up()))?;
            if test.value > low.value {
                high = Some(test.value);
            }
        }
        let Some(high_at_least) = high else {
            let line = self.proved_line(s, low.value, (-WIN, WIN))?;
            self.root_hint = line.first().copied();
            let best = line
                .first()
                .copied()
                .expect("a node with moves starts a line");
            return Ok(Iteration {
                value: low.value,
                moves: vec![(best, low.value)],
                move_bounds: vec![None],
                line,
                cut: self.cut,
                stuck: self.stuck,
                bounds: None,
                cap,
            });
        };
        // One window from the bound just proved gives the exact value.
        let above = (high_at_least.next_down(), f64::INFINITY);
        let (high, _) = self.window(s, &moves, WIN, above)?;
        let draw = self.mtdf(s, &moves, 0.0, low.value, unbounded)?;
        let line = self.proved_line(s, draw.value, (0.0, 0.0))?;
        let best = line
            .first()
            .copied()
            .expect("a node with moves starts a line");
        let bounds = (low.value != draw.value || high.value != draw.value)
            .then_some((low.value, high.value));
        Ok(Iteration {
            value: draw.value,
            moves: vec![(best, draw.value)],
            move_bounds: vec![bounds],
            line,
            cut: self.cut,
            stuck: self.stuck,
            bounds,
            cap,
        })
    }

    /// The root's value in the pass counting cut lines at `cut_value`,
    /// known to lie in `(lower, upper)` (inclusive), by null-window
    /// searches from `guess`: each proves a bound, the next asks just past
    /// it, until the bounds meet.
    fn mtdf(
        &mut self,
        s: &mut State<W>,
        moves: &[Move],
        cut_value: f64,
        guess: f64,
        (mut lower, mut upper): (f64, f64),
    ) -> Result<Proved, SolveError> {
        let mut g = guess.clamp(lower, upper);
        let mut proved = Proved {
            value: g,
            raising: None,
            lowering: None,
            upper_cut: true,
        };
        while lower < upper {
            let beta = if g <= lower { lower.next_up() } else { g };
            let (f, best) = self.window(s, moves, cut_value, (beta.next_down(), beta))?;
            g = f.value;
            if g < beta {
                upper = g;
                proved.lowering = best;
                proved.upper_cut = f.cut;
            } else {
                lower = g;
                proved.raising = best;
            }
        }
        debug_assert_eq!(lower, upper, "a pass's searches agree");
        proved.value = lower;
        Ok(proved)
    }

    /// The root searched as one alpha-beta node with the window `window`
    /// in the pass counting cut lines at `cut_value` (fail-soft: the value
    /// returned bounds the pass's from the side it fell on).
    fn window(
        &mut self,
        s: &mut State<W>,
        moves: &[Move],
        cut_value: f64,
        (alpha, beta): (f64, f64),
    ) -> Result<(super::Found, Option<Move>), SolveError> {
        self.cut_value = cut_value;
        self.rank_moves(s, 0, moves, self.root_hint);
        let (f, best) = self.children(s, 0, alpha, beta, usize::MAX)?;
        // The move that proved the side to move's bound goes first next.
        if best.is_some() && (f.value >= beta) == (s.pos.to_move == 0) {
            self.root_hint = best;
        }
        Ok((f, best))
    }

    /// A perfect-play line for the value `value` (see the module's
    /// comment), to the game's end or the cap: black's moves proved in the
    /// pass counting cut lines at `cut_values.0`, White's at `cut_values.1`
    /// (a node worth `value` in both, or in one pass for the line of that
    /// pass alone).
    fn proved_line(
        &mut self,
        s: &mut State<W>,
        value: f64,
        cut_values: (f64, f64),
    ) -> Result<Vec<Move>, SolveError> {
        let (mut line, mut undos, mut moves) = (Vec::new(), Vec::new(), Vec::new());
        let result = loop {
            let depth = line.len();
            if depth >= self.cap as usize
                || self.m.legal_moves(s, &mut moves).is_some()
                || moves.is_empty()
            {
                break Ok(());
            }
            // On a settled board the search took the count without playing
            // on: the players end the game by passing (always legal there).
            let pass = moves.iter().find(|mv| mv.kind == MoveKind::Pass).copied();
            let next = match pass {
                Some(mv) if self.settled && self.m.is_settled(&s.pos.occ) => Some(mv),
                _ => match self.keeping_move(s, depth, &moves, value, cut_values) {
                    Ok(mv) => mv,
                    Err(e) => break Err(e),
                },
            };
            let Some(mv) = next else {
                break Ok(());
            };
            line.push(mv);
            undos.push(self.m.apply(s, mv));
            self.path.push(s, mv.kind == MoveKind::Play);
        };
        for u in undos.into_iter().rev() {
            self.path.pop();
            self.m.undo(s, u);
        }
        result.map(|()| line)
    }

    /// A move of the node at `depth` (on a line worth `value`) that keeps
    /// it: for black, at least `value` in the pass counting cut lines at
    /// `cut_values.0`; for White, at most in the one at `cut_values.1`.
    /// The table's move is tried first.
    fn keeping_move(
        &mut self,
        s: &mut State<W>,
        depth: usize,
        moves: &[Move],
        value: f64,
        cut_values: (f64, f64),
    ) -> Result<Option<Move>, SolveError> {
        let black = s.pos.to_move == 0;
        let (cut_value, window) = if black {
            (cut_values.0, (value.next_down(), value))
        } else {
            (cut_values.1, (value, value.next_up()))
        };
        self.cut_value = cut_value;
        // The root is never stored: its last proving move instead.
        let hint = if depth == 0 {
            self.root_hint
        } else {
            self.table_move(s, depth)
        };
        self.rank_moves(s, depth, moves, hint);
        let ranked = std::mem::take(&mut self.ranked[depth]);
        let mut found = Ok(None);
        for &(_, _, mv) in &ranked {
            match self.child(s, mv, depth + 1, window.0, window.1) {
                Ok(f) if (black && f.value >= value) || (!black && f.value <= value) => {
                    found = Ok(Some(mv));
                    break;
                }
                Ok(_) => {}
                Err(e) => {
                    found = Err(e);
                    break;
                }
            }
        }
        self.ranked[depth] = ranked;
        found
    }

    /// The best move the table holds for the node at `depth` in this pass,
    /// mapped out of the table's frame.
    fn table_move(&mut self, s: &State<W>, depth: usize) -> Option<Move> {
        let (key, frame) = self.path.canonical_key(s);
        let entry = self
            .table
            .get(key, false)
            .or_else(|| self.table.get(self.capped_key(key, depth), true))?;
        entry.best.map(|mv| self.path.map(frame).mv(mv, true))
    }
}
