//! Who moves next and removals not earned by a line: a phase's
//! `extra_turn` (the mover moves again), its `first` (who moves when the
//! game enters it) and its `remove` and `remove_own` actions (the move is
//! the removal of an opposing piece, or of one of the mover's own). All are
//! read only by rulesets that use them: the flags of
//! [`TurnOrder`](crate::tables::turns::TurnOrder) are decided when the
//! machine is built.

use crate::compiled::Op;
use crate::eval::{Ctx, NO_PHASE};
use crate::legality::Illegal;
use crate::machine::{Machine, State};
use crate::moves::{Move, Point};
use morrigo_rules::ActionKind;

impl<const W: usize> Machine<W> {
    /// The phase a rule read during a turn sees: the one the turn began in
    /// when it is kept, else found on demand.
    #[inline]
    pub(crate) fn turn_phase(&self, s: &State<W>) -> u8 {
        if self.turns.track_phase {
            s.pos.turn_phase
        } else {
            NO_PHASE
        }
    }

    /// The phase `player` would be in on this position.
    pub(crate) fn phase_for(&self, s: &State<W>, player: u8) -> usize {
        let ctx = Ctx::turn(player, NO_PHASE);
        self.phases
            .iter()
            .position(|p| p.when.as_ref().is_none_or(|w| self.eval(w, s, ctx) != 0))
            .unwrap_or(self.phases.len().saturating_sub(1))
    }

    /// Who moves after the turn that just ended (its counters are
    /// updated, `to_move` is still the mover): the mover again if the
    /// turn's phase grants an extra turn, else the opponent; then, if that
    /// player's phase is not the one the turn was played in and it names
    /// who moves `first`, that player.
    pub(crate) fn next_player(&self, s: &State<W>) -> u8 {
        let me = s.pos.to_move;
        let phase = s.pos.turn_phase;
        let ctx = Ctx {
            lines_formed: s.pos.lines_formed,
            ..Ctx::turn(me, phase)
        };
        let mut next = me ^ 1;
        if let Some(Some(extra)) = self.turns.extra.get(phase as usize) {
            if self.eval(extra, s, ctx) != 0 {
                next = me;
            }
        }
        if !self.turns.has_first {
            return next;
        }
        let entered = self.phase_for(s, next);
        if entered != phase as usize {
            if let Some(first) = &self.turns.first[entered] {
                next = (self.eval(first, s, ctx) & 1) as u8;
            }
        }
        next
    }

    /// Add the removals the phase's `remove` and `remove_own` actions
    /// allow as moves (opposing pieces, then own ones).
    pub(crate) fn removal_moves(&self, s: &State<W>, out: &mut Vec<Move>) {
        let phase = self.phase(s);
        let me = s.pos.to_move as usize;
        let actions = [(&self.turns.remove, me ^ 1), (&self.turns.remove_own, me)];
        for (action, owner) in actions {
            let Some(Some((guard, reads_blocked))) = action.get(phase) else {
                continue;
            };
            let mut ctx = Ctx::turn(s.pos.to_move, phase as u8);
            if *reads_blocked {
                ctx.no_legal_move = !self.has_other_move(s, phase);
            }
            for p in s.pos.occ[owner].iter() {
                ctx.target = p as Point;
                if self.eval(guard, s, ctx) != 0 {
                    out.push(Move::remove(p as Point));
                }
            }
        }
    }

    /// A `remove_own` action's move: the mover's piece on `at` leaves the
    /// board (out of line, so `apply` stays as it is for other rulesets).
    /// Such a removal is never owed by a line and forms none; marks of
    /// delayed removals apply to it as to any other.
    #[inline(never)]
    pub(crate) fn remove_own_piece(&self, s: &mut State<W>, at: Point) {
        let me = s.pos.to_move as usize;
        if self.mills.is_some() && self.removal_marks(s) {
            self.set_mark(s, at);
        }
        let pos = &mut s.pos;
        self.take_off(pos, me, at);
        pos.lines_formed = 0;
        pos.removed_this_turn = true;
    }

    /// `no_legal_move` as a `remove` condition reads it: the player has no
    /// legal placement, slide, fly or board play (passes and forbid rules
    /// are not asked, so no rule's answer depends on this one).
    fn has_other_move(&self, s: &State<W>, phase: usize) -> bool {
        let allowed = self.guarded_actions(s, phase);
        let me = s.pos.to_move as usize;
        let empty = self.empty(s);
        let has = |k: ActionKind| allowed[k as usize];
        if has(ActionKind::Place) && !self.hand_empty(s) && !empty.is_empty() {
            return true;
        }
        if has(ActionKind::Play)
            && !self.hand_empty(s)
            && empty.iter().any(|p| self.play_legal(s, p as Point))
        {
            return true;
        }
        let (slide, fly) = (has(ActionKind::Slide), has(ActionKind::Fly));
        (slide || fly)
            && s.pos.occ[me].iter().any(|from| {
                let reach = if fly {
                    empty
                } else {
                    self.neighbours[from].and(empty)
                };
                !reach.is_empty()
            })
    }

    /// Why a removal is not legal as a move of its own (no removal owed).
    pub(crate) fn removal_move_refusal(
        &self,
        s: &State<W>,
        phase: usize,
        at: Point,
    ) -> Result<(), Illegal> {
        let has = |a: &Vec<Option<(Op, bool)>>| a.get(phase).is_some_and(Option::is_some);
        let (opposing, own) = (has(&self.turns.remove), has(&self.turns.remove_own));
        if !opposing && !own {
            return Err(Illegal::NothingToRemove);
        }
        if at as usize >= self.n {
            return Err(Illegal::NoSuchMove);
        }
        match s.owner(at) {
            None => return Err(Illegal::RemoveEmpty),
            Some(o) if o == s.pos.to_move && !own => return Err(Illegal::RemoveOwn),
            Some(o) if o != s.pos.to_move && !opposing => {
                return Err(Illegal::RemoveGuardFails { phase })
            }
            Some(_) => {}
        }
        let mut moves = Vec::new();
        self.removal_moves(s, &mut moves);
        if moves.iter().any(|m| m.to == at) {
            Ok(())
        } else {
            Err(Illegal::RemoveGuardFails { phase })
        }
    }
}
