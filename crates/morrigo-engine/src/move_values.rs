//! Forbid rules judged move by move, and the values they read about the
//! move being judged: `lines_formed`, `captures`, `run_length`. Only
//! rulesets with such a rule pay for any of it (`MoveJudge::any`).

use crate::bits::Bits;
use crate::eval::{Ctx, NO_PHASE};
use crate::machine::{Machine, State};
use crate::moves::{Move, MoveKind, Point};
use morrigo_rules::{MoveClass, Prim, SuicideEffect};

/// The class a forbid rule names a move by.
pub(crate) fn class_of(m: Move) -> MoveClass {
    match m.kind {
        MoveKind::Place => MoveClass::Place,
        MoveKind::Slide => MoveClass::Slide,
        MoveKind::Fly => MoveClass::Fly,
        MoveKind::Leap => MoveClass::Leap,
        MoveKind::Remove => MoveClass::Remove,
        MoveKind::Play => MoveClass::Play,
        MoveKind::Pass => MoveClass::Pass(m.to as u8),
    }
}

impl<const W: usize> Machine<W> {
    /// The first forbid rule judged per move that refuses `m` now (rules
    /// judged once per turn are asked by `forbidden_by`).
    #[inline(always)]
    pub(crate) fn move_forbidden_by(&self, s: &State<W>, m: Move) -> Option<usize> {
        if !self.judge.any {
            return None;
        }
        self.judge_move(s, m)
    }

    #[inline(never)]
    fn judge_move(&self, s: &State<W>, m: Move) -> Option<usize> {
        let class = class_of(m);
        let ctx = Ctx {
            mv: m,
            // A forbid rule reading `target` names only removals.
            target: m.to,
            ..Ctx::turn(s.pos.to_move, NO_PHASE)
        };
        self.forbid.iter().position(|f| {
            f.classes.contains(&class)
                && (f.reads_move || !class.per_turn())
                && f.by_counts
                    .as_ref()
                    .is_none_or(|c| self.eval(c, s, ctx) != 0)
                && self.eval(&f.when, s, ctx) != 0
        })
    }

    /// Whether some forbid rule may refuse a move of the player to move in
    /// a position with `s`'s piece counts: false when every rule has a
    /// conjunct reading piece counts only that is false here, so a caller
    /// that knows the counts stay put (a Morris sector) need not ask the
    /// engine about each move.
    pub fn forbid_may_apply(&self, s: &State<W>) -> bool {
        let ctx = Ctx::turn(s.pos.to_move, NO_PHASE);
        self.forbid.iter().any(|f| {
            f.by_counts
                .as_ref()
                .is_none_or(|c| self.eval(c, s, ctx) != 0)
        })
    }

    /// Keep only the moves of `out[start..]` no forbid rule refuses. The
    /// test is inlined into move generation so other rulesets pay one branch.
    #[inline(always)]
    pub(crate) fn drop_forbidden(&self, s: &State<W>, out: &mut Vec<Move>, start: usize) {
        if self.judge.any {
            self.drop_judged(s, out, start);
        }
    }

    #[inline(never)]
    fn drop_judged(&self, s: &State<W>, out: &mut Vec<Move>, start: usize) {
        let mut kept = start;
        for i in start..out.len() {
            let m = out[i];
            if self.judge_move(s, m).is_none() {
                out[kept] = m;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// A value about move `m` of the player to move, as a forbid rule reads it.
    /// Out of line: `value` is inlined into every evaluation.
    #[inline(never)]
    pub fn move_value(&self, p: Prim, s: &State<W>, m: Move) -> i64 {
        match p {
            Prim::Captures => self.captures(s, m) as i64,
            Prim::LinesFormed => self
                .mover_after(s, m)
                .map_or(0, |mine| self.lines_at(&mine, m.to as usize) as i64),
            Prim::RunLength => match (&self.judge.steps, self.mover_after(s, m)) {
                (Some(steps), Some(mine)) => {
                    steps.run_through(m.to, |q| mine.has(q as usize)) as i64
                }
                _ => 0,
            },
            Prim::To | Prim::From | Prim::Direction | Prim::LinesBroken => {
                self.judged_value(p, s, m)
            }
            _ => 0,
        }
    }

    /// Opposing pieces move `m` takes by itself (not the removals a line
    /// earns). The one place other capture kinds are to be added.
    pub fn captures(&self, s: &State<W>, m: Move) -> u32 {
        match m.kind {
            MoveKind::Play => self.play_effect(s, m.to).captured.count(),
            MoveKind::Place | MoveKind::Slide | MoveKind::Fly | MoveKind::Leap => {
                self.rule_captures(s, m)
            }
            MoveKind::Remove | MoveKind::Pass => 0,
        }
    }

    /// The mover's pieces after `m`, when `m` leaves a piece on `m.to`
    /// (`None` for removals, passes and a board play whose stone is taken
    /// off as a suicide).
    pub(crate) fn mover_after(&self, s: &State<W>, m: Move) -> Option<Bits<W>> {
        let mut mine = s.pos.occ[s.pos.to_move as usize];
        match m.kind {
            MoveKind::Place => {}
            MoveKind::Slide | MoveKind::Fly | MoveKind::Leap => mine.clear(m.from as usize),
            MoveKind::Play => {
                let e = self.play_effect(s, m.to);
                if e.suicide && e.suicide_effect == SuicideEffect::Remove {
                    return None;
                }
            }
            MoveKind::Remove | MoveKind::Pass => return None,
        }
        mine.set(m.to as usize);
        Some(mine)
    }
}

/// `Point` is what runs walk; the board tables are `u16` too.
const _: () = assert!(std::mem::size_of::<Point>() == std::mem::size_of::<u16>());

/// `Ctx` is passed by value in every evaluation: adding the judged move
/// must not push it past two registers.
const _: () = assert!(std::mem::size_of::<crate::eval::Ctx>() <= 16);
