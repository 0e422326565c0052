//! The passes of a ply cap by null windows (Plaat's MTD(f)): a pass's
//! value is found by searches that each only ask whether it is at least
//! some number, the first from the last cap's value, so most of the tree
//! is cut at once. chinese-superko 3x3 by value only: 403,962 nodes,
//! where one full window at the root took 1,173,223; valuing every first
//! move, each by its own null windows: 24,036,494, where a full window
//! per move took 53,079,188.
//!
//! The null windows prove the value but not a line: a window that fails
//! high proves black's moves, and leaves White's unranked. The line is
//! therefore proved move by move afterwards: black's moves by the pass
//! counting cut lines lost (at least the value), White's by the pass
//! counting them won (at most the value). Every node of such a line is
//! worth the value in both passes (induction from the root, where they
//! agree), hence in the game: each move of the line is a best move.

/// Null windows tried in a pass before one window over the bounds left:
/// where the table keeps little (lines through long cycles, whose values
/// depend on the path), each null window searches the tree again.
const NULL_WINDOWS: u32 = 3;

// A null window is `(x.next_down(), x)`: no value lies strictly inside it,
// whatever the komi (a win by rule is ±`WIN`, 1e9, past any fixed epsilon).
use super::Search;
use crate::go::reads::Reads;
use crate::history::{bounds_of, outcome_value, Iteration, SolveError, WIN};
use morrigo_engine::{Move, MoveKind, Outcome, State};

/// What the null-window searches of one pass proved of the root.
struct Proved {
    value: f64,
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
        moves: Vec<Move>,
    ) -> Result<Iteration, SolveError> {
        let cap = self.cap;
        self.refuted = moves.len() - 1;
        let unbounded = (f64::NEG_INFINITY, f64::INFINITY);
        let low = self.mtdf(s, &moves, -WIN, self.guess, unbounded)?;
        self.guess = low.value;
        let mut high = None;
        if low.upper_cut {
            let test = self.window(s, &moves, WIN, (low.value, low.value.next_up()))?;
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
        let high = self.window(s, &moves, WIN, above)?;
        let draw = self.mtdf(s, &moves, 0.0, low.value, unbounded)?;
        let line = self.proved_line(s, draw.value, (0.0, 0.0))?;
        let best = line
            .first()
            .copied()
            .expect("a node with moves starts a line");
        // The best move alone has a value: its bounds are the root's.
        let valued = [(best, draw.value)];
        let (bounds, move_bounds) = bounds_of(
            draw.value,
            &valued,
            (low.value, &[(best, low.value)]),
            (high.value, &[(best, high.value)]),
        );
        Ok(Iteration {
            value: draw.value,
            moves: valued.to_vec(),
            move_bounds,
            line,
            cut: self.cut,
            stuck: self.stuck,
            bounds,
            cap,
        })
    }

    /// One cap's passes with a value for every first move, each move's
    /// found by its own null windows (the root searched over that move
    /// alone): the pass counting cut lines lost; where its proof met a cut
    /// line, the pass counting them won; where those differ, the draw
    /// pass. The values and bounds are the full-window search's;
    /// the line is proved as in the value-only passes.
    pub(super) fn iteration_every_move(
        &mut self,
        s: &mut State<W>,
        moves: Vec<Move>,
    ) -> Result<Iteration, SolveError> {
        let cap = self.cap;
        let unbounded = (f64::NEG_INFINITY, f64::INFINITY);
        let (mut lows, mut highs, mut draws) = (Vec::new(), Vec::new(), Vec::new());
        for &mv in &moves {
            let guess = self
                .move_guesses
                .iter()
                .find(|(m, _)| *m == mv)
                .map_or(self.guess, |&(_, g)| g);
            let one = [mv];
            let low = self.mtdf(s, &one, -WIN, guess, unbounded)?;
            let mut high = low.value;
            if low.upper_cut {
                let at_most = (low.value, low.value.next_up());
                let test = self.window(s, &one, WIN, at_most)?;
                if test.value > low.value {
                    high = self
                        .mtdf(s, &one, WIN, test.value, (test.value, f64::INFINITY))?
                        .value;
                }
            }
            // A move's draw pass lies between its bounds.
            let draw = if high == low.value {
                low.value
            } else {
                self.mtdf(s, &one, 0.0, low.value, (low.value, high))?.value
            };
            lows.push((mv, low.value));
            highs.push((mv, high));
            draws.push((mv, draw));
        }
        self.move_guesses.clone_from(&lows);
        let black = s.pos.to_move == 0;
        let best_of = |values: &[(Move, f64)]| {
            let pick = |a: f64, b: f64| if black { a.max(b) } else { a.min(b) };
            let first = values[0].1;
            values.iter().fold(first, |acc, &(_, v)| pick(acc, v))
        };
        let (low, high, value) = (best_of(&lows), best_of(&highs), best_of(&draws));
        self.guess = low;
        let (bounds, move_bounds) = bounds_of(value, &draws, (low, &lows), (high, &highs));
        let exact = move_bounds.iter().all(Option::is_none);
        let cut_values = if exact { (-WIN, WIN) } else { (0.0, 0.0) };
        self.root_hint = draws.iter().find(|&&(_, v)| v == value).map(|&(mv, _)| mv);
        let line = self.proved_line(s, value, cut_values)?;
        Ok(Iteration {
            value,
            moves: draws,
            move_bounds,
            line,
            cut: self.cut,
            stuck: self.stuck,
            bounds,
            cap,
        })
    }

    /// A cap's counts started and the root's moves, or the iteration of a
    /// root the rules end or that has no move.
    pub(super) fn start_cap(&mut self, s: &State<W>) -> Result<Vec<Move>, Box<Iteration>> {
        self.cut = 0;
        self.stuck = 0;
        self.nodes += 1;
        let mut moves = Vec::new();
        let ended = self.m.legal_moves(s, &mut moves);
        if ended.is_some() || moves.is_empty() {
            return Err(Box::new(self.leaf_iteration(s, ended)));
        }
        Ok(moves)
    }

    /// The iteration of a root the rules end, or that has no move.
    fn leaf_iteration(&mut self, s: &State<W>, ended: Option<Outcome>) -> Iteration {
        self.stuck += u64::from(ended.is_none());
        let value = ended.map_or(0.0, |o| outcome_value(self.m, s, &o));
        Iteration {
            value,
            moves: Vec::new(),
            move_bounds: Vec::new(),
            line: Vec::new(),
            cut: 0,
            stuck: self.stuck,
            bounds: None,
            cap: self.cap,
        }
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
            upper_cut: true,
        };
        let mut windows = 0;
        while lower < upper {
            windows += 1;
            if windows > NULL_WINDOWS {
                // One window over what is left gives the value inside it.
                let f = self.window(s, moves, cut_value, (lower.next_down(), upper.next_up()))?;
                debug_assert!(lower <= f.value && f.value <= upper, "inside the bounds");
                (lower, upper) = (f.value, f.value);
                proved.upper_cut = f.cut;
                break;
            }
            let beta = if g <= lower { lower.next_up() } else { g };
            let f = self.window(s, moves, cut_value, (beta.next_down(), beta))?;
            g = f.value;
            if g < beta {
                upper = g;
                proved.upper_cut = f.cut;
            } else {
                lower = g;
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
    ) -> Result<super::Found, SolveError> {
        self.cut_value = cut_value;
        self.rank_moves(s, 0, moves, self.root_hint);
        let (f, best) = self.children(s, 0, alpha, beta, Reads::NONE)?;
        // The move that proved the side to move's bound goes first next.
        if best.is_some() && (f.value >= beta) == (s.pos.to_move == 0) {
            self.root_hint = best;
        }
        Ok(f)
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
                Some(mv) if self.settled && self.m.is_settled_with_answers(&s.pos.occ) => Some(mv),
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
    /// The root's best move is tried first.
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
        // Below the root, the rules' order alone (passes that end the game
        // or offer to end it first): of the moves keeping the value, the
        // line shows the one that ends the game soonest where a pass does,
        // not whichever the proof happened to try first.
        let hint = if depth == 0 { self.root_hint } else { None };
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
}
