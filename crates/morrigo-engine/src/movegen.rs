//! Move generation: which actions the phase allows, forbid rules, the
//! legal moves of a turn (or the owed removals), and random sampling.

use crate::eval::{Ctx, NO_PHASE};
use crate::machine::{Machine, State};
use crate::moves::{Move, MoveKind, Outcome, Point, Sample};
use morrigo_rules::{ActionKind, MoveClass};
use std::cell::RefCell;

impl<const W: usize> Machine<W> {
    /// Fill `out` with the legal moves; when the turn starts in a finished
    /// game, leave it empty and return the outcome.
    pub fn legal_moves(&self, s: &State<W>, out: &mut Vec<Move>) -> Option<Outcome> {
        out.clear();
        if s.pos.pending > 0 {
            self.removal_targets(s, out);
            return None;
        }
        let phase = self.phase(s);
        self.turn_moves(s, phase, out);
        let outcome = self.outcome_with(s, phase, out.is_empty());
        if outcome.is_some() {
            out.clear();
        }
        outcome
    }

    /// Which action kinds the phase allows the player to move, right now
    /// (indexed by `ActionKind as usize`).
    pub fn allowed_actions(&self, s: &State<W>, phase: usize) -> [bool; 5] {
        let mut allowed = self.guarded_actions(s, phase);
        if allowed[ActionKind::Play as usize]
            && (self.hand_empty(s) || self.play_forbidden_by(s).is_some())
        {
            allowed[ActionKind::Play as usize] = false;
        }
        allowed
    }

    /// The action kinds whose condition in the phase holds (forbid rules
    /// and the hand not considered).
    pub(crate) fn guarded_actions(&self, s: &State<W>, phase: usize) -> [bool; 5] {
        let ctx = Ctx::turn(s.pos.to_move, phase as u8);
        let compiled = &self.phases[phase];
        let mut allowed = compiled.always;
        for (kind, guard) in &compiled.guarded {
            if !allowed[*kind as usize] && self.eval(guard, s, ctx) != 0 {
                allowed[*kind as usize] = true;
            }
        }
        allowed
    }

    /// The player to move has a limited hand and nothing left in it (no
    /// placement and no board play).
    #[inline]
    pub(crate) fn hand_empty(&self, s: &State<W>) -> bool {
        !self.rules.unlimited_hand && s.pos.in_hand[s.pos.to_move as usize] == 0
    }

    /// Index of the first forbid rule (in `Rules::forbid`) naming `class`
    /// whose condition holds now.
    pub(crate) fn forbidden_by(&self, s: &State<W>, class: MoveClass) -> Option<usize> {
        if self.forbid.is_empty() {
            return None;
        }
        let ctx = Ctx::turn(s.pos.to_move, NO_PHASE);
        self.forbid.iter().position(|f| {
            // Rules reading a value about the move are judged per move.
            if !f.classes.contains(&class) || f.reads_move {
                return false;
            }
            let ctx = if f.blocked {
                Ctx {
                    no_legal_move: !self.has_move_outside(s, &f.classes),
                    ..ctx
                }
            } else {
                ctx
            };
            self.eval(&f.when, s, ctx) != 0
        })
    }

    /// `no_legal_move` as a forbid rule reads it: the player to move has no
    /// legal move of a class outside `classes` (the rule's own), judged by
    /// the phase, the hand, board-play legality and the forbid rules that
    /// do not read `no_legal_move` (so no rule's answer depends on itself).
    /// Only rulesets that use it pay for it.
    fn has_move_outside(&self, s: &State<W>, classes: &[MoveClass]) -> bool {
        let ctx = Ctx::turn(s.pos.to_move, NO_PHASE);
        let plainly_allowed = |class: MoveClass| {
            !classes.contains(&class)
                && !self.forbid.iter().any(|f| {
                    !f.blocked
                        && !f.reads_move
                        && f.classes.contains(&class)
                        && self.eval(&f.when, s, ctx) != 0
                })
        };
        let mut allowed = self.guarded_actions(s, self.phase(s));
        if allowed[ActionKind::Play as usize]
            && !self.hand_empty(s)
            && plainly_allowed(MoveClass::Play)
            && self.empty(s).iter().any(|p| self.play_legal(s, p as Point))
        {
            return true;
        }
        if allowed[ActionKind::Pass as usize]
            && (0..self.rules.passes.kinds.len()).any(|k| {
                plainly_allowed(MoveClass::Pass(k as u8))
                    && self.move_forbidden_by(s, Move::pass(k as u8)).is_none()
            })
        {
            return true;
        }
        allowed[ActionKind::Play as usize] = false;
        allowed[ActionKind::Pass as usize] = false;
        let mut moves = Vec::new();
        self.turn_moves_with(s, allowed, &mut moves);
        !moves.is_empty()
    }

    /// The forbid rule (index into `Rules::forbid`) forbidding pass kind `kind` now.
    pub fn pass_forbidden_by(&self, s: &State<W>, kind: usize) -> Option<usize> {
        self.forbidden_by(s, MoveClass::Pass(kind as u8))
            .or_else(|| self.move_forbidden_by(s, Move::pass(kind as u8)))
    }

    /// The forbid rule forbidding board plays now.
    pub fn play_forbidden_by(&self, s: &State<W>) -> Option<usize> {
        self.forbidden_by(s, MoveClass::Play)
    }

    pub(crate) fn pass_allowed(&self, s: &State<W>, kind: usize) -> bool {
        self.pass_forbidden_by(s, kind).is_none()
    }

    pub(crate) fn turn_moves(&self, s: &State<W>, phase: usize, out: &mut Vec<Move>) {
        let allowed = self.allowed_actions(s, phase);
        self.turn_moves_with(s, allowed, out);
    }

    /// Is there any legal move? Board plays are tried one by one, stopping
    /// at the first legal one.
    pub(crate) fn has_legal_move(&self, s: &State<W>, phase: usize) -> bool {
        let mut allowed = self.allowed_actions(s, phase);
        if allowed[ActionKind::Play as usize]
            && self.empty(s).iter().any(|p| self.play_legal(s, p as Point))
        {
            return true;
        }
        allowed[ActionKind::Play as usize] = false;
        self.any_turn_move(s, allowed)
    }

    /// Does any move of the allowed kinds exist? Generated into a buffer
    /// kept per thread, so that `outcome` (which asks this for end rules
    /// on `no_legal_move`) does not allocate.
    fn any_turn_move(&self, s: &State<W>, allowed: [bool; 5]) -> bool {
        if !self.extras {
            // Without the extras every generated move is legal, so asking
            // the bitsets beats generating the list (end rules ask this on
            // every turn of a Morris game).
            let any = self.any_plain_move(s, allowed);
            debug_assert_eq!(any, {
                let mut moves = Vec::new();
                self.turn_moves_as::<false>(s, allowed, &mut moves);
                !moves.is_empty()
            });
            return any;
        }
        thread_local! {
            static SCRATCH: RefCell<Vec<Move>> = const { RefCell::new(Vec::new()) };
        }
        SCRATCH.with(|cell| {
            // Asked again while generating (a rule reading it): a fresh one.
            // One call site, so move generation is inlined here only once.
            let (mut guard, mut fresh);
            let moves: &mut Vec<Move> = match cell.try_borrow_mut() {
                Ok(g) => {
                    guard = g;
                    &mut guard
                }
                Err(_) => {
                    fresh = Vec::new();
                    &mut fresh
                }
            };
            moves.clear();
            self.turn_moves_with(s, allowed, moves);
            !moves.is_empty()
        })
    }

    /// Whether `turn_moves_as::<false>` would give any move, stopping at
    /// the first one found.
    fn any_plain_move(&self, s: &State<W>, allowed: [bool; 5]) -> bool {
        let me = s.pos.to_move as usize;
        let [place, slide, fly, play, pass] = allowed;
        let empty = self.empty(s);
        let any_pass =
            || pass && (0..self.rules.passes.kinds.len()).any(|k| self.pass_allowed(s, k));
        if empty.is_empty() {
            return any_pass();
        }
        if place && !self.hand_empty(s) {
            return true;
        }
        if fly && !s.pos.occ[me].is_empty() {
            return true;
        }
        if slide
            && s.pos.occ[me]
                .iter()
                .any(|from| !self.neighbours[from].and(empty).is_empty())
        {
            return true;
        }
        (play && empty.iter().any(|p| self.play_legal(s, p as Point))) || any_pass()
    }

    /// Is there a legal move that does not lose at once? Passes and moves
    /// other than board plays are safe; a board play is unsafe when it is a
    /// suicide or an immediate repetition that the ruleset makes a loss.
    pub(crate) fn has_safe_move(&self, s: &State<W>) -> bool {
        let phase = self.phase(s);
        let mut allowed = self.allowed_actions(s, phase);
        if allowed[ActionKind::Play as usize] {
            let safe = self.empty(s).iter().any(|p| {
                let p = p as Point;
                self.play_legal(s, p) && !self.play_loses(s, p)
            });
            if safe {
                return true;
            }
        }
        allowed[ActionKind::Play as usize] = false;
        self.any_turn_move(s, allowed)
    }

    /// A legal board play on `p` that loses at once.
    pub(crate) fn play_loses(&self, s: &State<W>, p: Point) -> bool {
        let e = self.play_effect(s, p);
        let suicide = e.suicide && e.suicide_effect == morrigo_rules::SuicideEffect::Lose;
        let repeats = self.rules.repetition.immediate == morrigo_rules::Immediate::Lose
            && self.immediate_repetition(s, e.key_after);
        suicide || repeats
    }

    /// One legal move chosen uniformly at random, without generating them
    /// all when board plays make that costly: candidates are drawn in a
    /// random order and the first legal one is taken, which is uniform over
    /// the legal moves. `rng(n)` returns a number below `n`.
    pub fn sample_move(
        &self,
        s: &State<W>,
        buf: &mut Vec<Move>,
        rng: &mut impl FnMut(u32) -> u32,
    ) -> Sample {
        let board_plays = self.rules.play.is_some() && s.pos.pending == 0;
        if !board_plays {
            return match self.legal_moves(s, buf) {
                Some(o) => Sample::Over(o),
                None if buf.is_empty() => Sample::Stuck,
                None => Sample::Move(buf[rng(buf.len() as u32) as usize]),
            };
        }
        if let Some(o) = self.outcome(s) {
            return Sample::Over(o);
        }
        let phase = self.phase(s);
        let allowed = self.allowed_actions(s, phase);
        buf.clear();
        // Everything but board plays is legal as generated; plays are
        // checked only when drawn.
        let mut cheap = allowed;
        cheap[ActionKind::Play as usize] = false;
        self.turn_moves_with(s, cheap, buf);
        if allowed[ActionKind::Play as usize] {
            buf.extend(self.empty(s).iter().map(|p| Move::play(p as Point)));
        }
        while !buf.is_empty() {
            let i = rng(buf.len() as u32) as usize;
            let m = buf[i];
            if m.kind != MoveKind::Play || self.play_legal(s, m.to) {
                return Sample::Move(m);
            }
            buf.swap_remove(i);
        }
        Sample::Stuck
    }

    /// One legal move that `accept` takes, chosen uniformly among those:
    /// candidates are drawn in a random order, each checked (legality,
    /// then `accept`, which may apply and undo moves on the state) only
    /// when drawn, and a refused one is not drawn again. Board plays and
    /// passes are checked only when drawn, so a playout policy pays for
    /// the moves it looks at. `Stuck` when no legal move is accepted
    /// (`legal_moves` tells whether there is any). `ongoing`: the caller
    /// has just asked [`Machine::outcome`] of `s` and no end rule holds,
    /// so the end rules are not evaluated again.
    pub fn sample_move_where(
        &self,
        s: &mut State<W>,
        buf: &mut Vec<Move>,
        rng: &mut impl FnMut(u32) -> u32,
        accept: &mut impl FnMut(&mut State<W>, Move) -> bool,
        ongoing: bool,
    ) -> Sample {
        let board_plays = self.rules.play.is_some() && s.pos.pending == 0;
        let (play, pass) = if board_plays {
            if let Some(o) = (!ongoing).then(|| self.outcome(s)).flatten() {
                return Sample::Over(o);
            }
            let allowed = self.allowed_actions(s, self.phase(s));
            let (play, pass) = (
                allowed[ActionKind::Play as usize],
                allowed[ActionKind::Pass as usize],
            );
            let mut cheap = allowed;
            cheap[ActionKind::Play as usize] = false;
            cheap[ActionKind::Pass as usize] = false;
            buf.clear();
            self.turn_moves_with(s, cheap, buf);
            if pass {
                buf.extend((0..self.rules.passes.kinds.len()).map(|k| Move::pass(k as u8)));
            }
            if play {
                buf.extend(self.empty(s).iter().map(|p| Move::play(p as Point)));
            }
            (play, pass)
        } else if ongoing && s.pos.pending == 0 {
            // The moves `legal_moves` would give, without its end rules.
            buf.clear();
            self.turn_moves(s, self.phase(s), buf);
            (false, false)
        } else {
            if let Some(o) = self.legal_moves(s, buf) {
                return Sample::Over(o);
            }
            (false, false)
        };
        while !buf.is_empty() {
            let i = rng(buf.len() as u32) as usize;
            let m = buf[i];
            let legal = match m.kind {
                MoveKind::Play if play => self.play_legal(s, m.to),
                MoveKind::Pass if pass => self.pass_allowed(s, m.to as usize),
                _ => true,
            };
            if legal && accept(s, m) {
                return Sample::Move(m);
            }
            buf.swap_remove(i);
        }
        Sample::Stuck
    }

    /// The moves of the allowed action kinds (indexed by `ActionKind as usize`).
    pub(crate) fn turn_moves_with(&self, s: &State<W>, allowed: [bool; 5], out: &mut Vec<Move>) {
        if self.extras {
            self.turn_moves_as::<true>(s, allowed, out)
        } else {
            self.turn_moves_as::<false>(s, allowed, out)
        }
    }

    #[inline(always)]
    fn turn_moves_as<const EXTRAS: bool>(
        &self,
        s: &State<W>,
        allowed: [bool; 5],
        out: &mut Vec<Move>,
    ) {
        let me = s.pos.to_move as usize;
        let [place, slide, fly, play, pass] = allowed;
        let empty = self.empty(s);
        let start = out.len();
        if place && !self.hand_empty(s) {
            out.extend(empty.iter().map(|p| Move::place(p as Point)));
        }
        // Leaps come with their capture rule's condition, not a phase
        // action; rulesets without leap rules keep the plain loop below.
        let leaps = if EXTRAS { self.armed_leaps(s) } else { 0 };
        if leaps != 0 {
            self.moves_with_leaps(s, slide, fly, leaps, out);
        } else if slide || fly {
            for from in s.pos.occ[me].iter() {
                let adjacent = self.neighbours[from];
                let reach = if fly { empty } else { adjacent.and(empty) };
                for to in reach.iter() {
                    // A fly to an adjacent point is the same move as a slide.
                    let kind = if slide && adjacent.has(to) {
                        MoveKind::Slide
                    } else {
                        MoveKind::Fly
                    };
                    out.push(Move {
                        kind,
                        from: from as Point,
                        to: to as Point,
                    });
                }
            }
        }
        if EXTRAS {
            self.drop_forbidden(s, out, start);
        }
        if play {
            for p in empty.iter() {
                if self.play_legal(s, p as Point) {
                    out.push(Move::play(p as Point));
                }
            }
        }
        if pass {
            for k in 0..self.rules.passes.kinds.len() {
                if self.pass_allowed(s, k) {
                    out.push(Move::pass(k as u8));
                }
            }
        }
        if EXTRAS && self.turns.has_remove {
            self.removal_moves(s, out);
        }
    }

    #[inline]
    pub(crate) fn removable(&self, s: &State<W>, target: usize) -> bool {
        let Some((_, removable)) = &self.removals else {
            return false;
        };
        let ctx = Ctx {
            target: target as Point,
            lines_formed: s.pos.lines_formed,
            ..Ctx::turn(s.pos.to_move, self.turn_phase(s))
        };
        self.eval(removable, s, ctx) != 0
    }

    pub(crate) fn removal_targets(&self, s: &State<W>, out: &mut Vec<Move>) {
        let opp = (s.pos.to_move ^ 1) as usize;
        let start = out.len();
        if self.choose.is_some() && s.choice.now.active() {
            self.choice_targets(s, out);
            self.drop_forbidden(s, out, start);
            return;
        }
        for p in s.pos.occ[opp].iter() {
            if self.removable(s, p) {
                out.push(Move::remove(p as Point));
            }
        }
        self.drop_forbidden(s, out, start);
    }

    pub(crate) fn any_removable(&self, s: &State<W>) -> bool {
        let opp = (s.pos.to_move ^ 1) as usize;
        let allowed = |p: usize| {
            self.move_forbidden_by(s, Move::remove(p as Point))
                .is_none()
        };
        if self.choose.is_some() && s.choice.now.active() {
            return self.any_choice_target(s, allowed);
        }
        s.pos.occ[opp]
            .iter()
            .any(|p| self.removable(s, p) && allowed(p))
    }
}
