//! Mill rules beyond "a completed line owes removals": which completed
//! lines count (`on_line_formed.counts`, with the per-line history it may
//! read), removals taken from the opponent's hand (`from_hand`), and the
//! marks delayed removals leave (`delay`); also the line counts per phase
//! `lines_formed_in` reads (`crate::phase_lines`). A ruleset without them has no
//! [`MillExtras`] and pays one `Option` check per line-forming move.
//!
//! Repetition: positions are compared by board, marks, hands and player to
//! move. The per-line history is not part of the key (as in the app these
//! options come from): two positions that differ only in which lines were
//! formed before count as the same position.

use crate::bits::Bits;
use crate::eval::{Ctx, NO_PHASE};
use crate::machine::{Machine, State};
use crate::moves::{Point, NO_POINT};
use crate::tables::mills::{MillExtras, FORMED, TRADED};
use morrigo_rules::Prim;

/// `turns_since_…` of a line that never had the event: longer ago than any game.
const NEVER: i64 = u32::MAX as i64;

impl<const W: usize> Machine<W> {
    /// The lines through `to` that `me` just completed and that count;
    /// records the per-line history when a rule reads it. `from` is the
    /// point a slide or fly left ([`NO_POINT`] otherwise).
    pub(crate) fn counting_lines(
        &self,
        x: &MillExtras,
        s: &mut State<W>,
        me: usize,
        from: Point,
        to: Point,
    ) -> u32 {
        let occ = s.pos.occ[me];
        let complete = |l: &u16| self.line_masks[*l as usize].within(&occ);
        let mut counting = 0;
        for &l in self.lines_of(to as usize).iter().filter(|l| complete(l)) {
            counting += match &x.counts {
                None => 1,
                Some(c) => {
                    let ctx = Ctx {
                        target: l, // the line judged (see `Prim::Line`)
                        ..Ctx::turn(me as u8, NO_PHASE)
                    };
                    (self.eval(c, s, ctx) != 0) as u32
                }
            };
        }
        if x.history {
            // Recorded after every line is judged: a line completed by this
            // move was not "formed before" for its neighbour either.
            let now = s.pos.turn + 1;
            let ply = s.pos.ply;
            for &l in self.lines_of(to as usize).iter().filter(|l| complete(l)) {
                let i = s.lines.index(FORMED, me, l as usize);
                s.lines.set(ply, i, now);
            }
            if from != NO_POINT {
                let mut before = occ;
                before.clear(to as usize);
                before.set(from as usize);
                for &l in self.lines_of(from as usize) {
                    if self.line_masks[l as usize].within(&before) {
                        let i = s.lines.index(TRADED, me, l as usize);
                        s.lines.set(ply, i, now);
                    }
                }
            }
        }
        if x.phase_lines {
            self.add_phase_lines(s, me, s.pos.turn_phase, counting);
        }
        counting
    }

    /// `formed_before`, `turns_since_formed`, `turns_since_traded` of
    /// `line` for the player to move.
    pub(crate) fn line_history_value(&self, f: Prim, line: i64, s: &State<W>) -> i64 {
        let lines = &s.lines;
        if lines.turns.is_empty() || line < 0 || line as usize >= self.line_masks.len() {
            return 0;
        }
        let me = s.pos.to_move as usize;
        let what = if f == Prim::TurnsSinceTraded {
            TRADED
        } else {
            FORMED
        };
        let at = lines.turns[lines.index(what, me, line as usize)];
        match f {
            Prim::FormedBefore => (at != 0) as i64,
            _ if at == 0 => NEVER,
            _ => i64::from(s.pos.turn) + 1 - i64::from(at),
        }
    }

    /// Take up to `owed` removals from the opponent's hand when
    /// `from_hand` holds; returns the removals still owed (from the board).
    pub(crate) fn removals_from_hand(
        &self,
        x: &MillExtras,
        s: &mut State<W>,
        me: usize,
        owed: u16,
        ctx: Ctx,
    ) -> u16 {
        let Some(from_hand) = &x.from_hand else {
            return owed;
        };
        let opp = me ^ 1;
        if owed == 0 || s.pos.in_hand[opp] == 0 || self.eval(from_hand, s, ctx) == 0 {
            return owed;
        }
        let taken = u32::from(owed).min(s.pos.in_hand[opp]);
        let pos = &mut s.pos;
        pos.hash ^= self.hand_key(opp, pos.in_hand[opp]);
        pos.in_hand[opp] -= taken;
        pos.hash ^= self.hand_key(opp, pos.in_hand[opp]);
        pos.lost[opp] += taken;
        pos.removed_this_turn = true;
        owed - taken as u16
    }

    /// Whether the removal about to be made leaves a mark (`delay` holds).
    pub(crate) fn removal_marks(&self, s: &State<W>) -> bool {
        let Some(delay) = self.mills.as_ref().and_then(|x| x.delay.as_ref()) else {
            return false;
        };
        let ctx = Ctx {
            lines_formed: s.pos.lines_formed,
            ..Ctx::turn(s.pos.to_move, NO_PHASE)
        };
        self.eval(delay, s, ctx) != 0
    }

    pub(crate) fn set_mark(&self, s: &mut State<W>, p: Point) {
        if let Some(x) = &self.mills {
            s.marks.change(s.pos.ply, |m| m.set(p as usize));
            s.pos.hash ^= x.z_mark[p as usize];
        }
    }

    /// At the end of a turn (the next player to move): clear the marks
    /// once `delay` no longer holds.
    pub(crate) fn release_marks(&self, x: &MillExtras, s: &mut State<W>) {
        let Some(delay) = &x.delay else { return };
        if s.marks.now.is_empty() || self.eval(delay, s, Ctx::turn(s.pos.to_move, NO_PHASE)) != 0 {
            return;
        }
        for p in s.marks.now.iter() {
            s.pos.hash ^= x.z_mark[p];
        }
        s.marks.change(s.pos.ply, |m| *m = Bits::EMPTY);
    }

    /// Points holding a mark of a delayed removal.
    pub fn marked(&self, s: &State<W>) -> Bits<W> {
        s.marks.now
    }
}
