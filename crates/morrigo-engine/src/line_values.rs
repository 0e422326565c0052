//! Values about the judged move beyond counts of pieces: the points it
//! goes from and to, the direction of the line it goes along, the lines it
//! leaves, and counts of the lines it completes or leaves for which a
//! per-line condition holds (`lines_formed(cond)`, `lines_broken(cond)`).
//! Reached only from forbid rules that read them (see `move_values.rs`).

use crate::bits::Bits;
use crate::compiled::Op;
use crate::eval::Ctx;
use crate::machine::{Machine, State};
use crate::moves::{Move, MoveKind};
use morrigo_rules::vocab::{direction_value, NO_DIRECTION};
use morrigo_rules::Prim;

/// `to` or `from` of a move that has no such point: equal to no point.
const NO_SUCH_POINT: i64 = -1;

impl<const W: usize> Machine<W> {
    /// `to`, `from`, `direction` and `lines_broken` of move `m`.
    pub(crate) fn judged_value(&self, p: Prim, s: &State<W>, m: Move) -> i64 {
        let moves_piece = matches!(m.kind, MoveKind::Slide | MoveKind::Fly | MoveKind::Leap);
        match p {
            Prim::To if m.kind == MoveKind::Pass => NO_SUCH_POINT,
            Prim::To => i64::from(m.to),
            Prim::From if moves_piece => i64::from(m.from),
            Prim::From => NO_SUCH_POINT,
            Prim::Direction => self.move_direction(m),
            Prim::LinesBroken if moves_piece => {
                let mine = &s.pos.occ[s.pos.to_move as usize];
                self.lines_at(mine, m.from as usize) as i64
            }
            _ => 0,
        }
    }

    /// The direction of the line a slide or fly goes along (its points
    /// consecutive on the line) or a leap jumps along (two apart).
    fn move_direction(&self, m: Move) -> i64 {
        let apart = match m.kind {
            MoveKind::Slide | MoveKind::Fly => 1,
            MoveKind::Leap => 2,
            _ => return NO_DIRECTION,
        };
        let t = &self.rules.topology;
        for &l in self.lines_of(m.from as usize) {
            let line = &t.lines[l as usize];
            let at = |p| line.iter().position(|&q| q == p);
            if let (Some(i), Some(j)) = (at(m.from), at(m.to)) {
                if i.abs_diff(j) == apart {
                    return direction_value(t.line_directions[l as usize]);
                }
            }
        }
        NO_DIRECTION
    }

    /// `direction(line)`.
    pub(crate) fn line_direction(&self, line: i64) -> i64 {
        usize::try_from(line)
            .ok()
            .and_then(|l| self.rules.topology.line_directions.get(l))
            .map_or(NO_DIRECTION, |d| direction_value(*d))
    }

    /// `lines_formed(cond)` / `lines_broken(cond)` of the judged move: the
    /// lines counted by the plain value for which `cond` holds, judged with
    /// `line` bound to each on the position before the move.
    #[inline(never)]
    pub(crate) fn lines_where(&self, f: Prim, cond: &Op, s: &State<W>, c: Ctx) -> i64 {
        let m = c.mv;
        let (mine, at): (Bits<W>, usize) = match f {
            Prim::LinesFormedWhere => match self.mover_after(s, m) {
                Some(mine) => (mine, m.to as usize),
                None => return 0,
            },
            _ if matches!(m.kind, MoveKind::Slide | MoveKind::Fly | MoveKind::Leap) => {
                (s.pos.occ[s.pos.to_move as usize], m.from as usize)
            }
            _ => return 0,
        };
        self.lines_of(at)
            .iter()
            .filter(|&&l| {
                self.line_masks[l as usize].within(&mine)
                    && self.eval(cond, s, Ctx { target: l, ..c }) != 0
            })
            .count() as i64
    }

    /// The value of each `f(cond)` forbid rule `rule` reads, for move `m`
    /// (what `explain` shows).
    pub(crate) fn lines_where_values(
        &self,
        rule: usize,
        f: Prim,
        s: &State<W>,
        m: Move,
    ) -> Vec<i64> {
        fn conds<'o>(op: &'o Op, f: Prim, out: &mut Vec<&'o Op>) {
            match op {
                Op::Call(g, c) if *g == f => out.push(c),
                Op::Call(_, x) | Op::CmpConst(_, x, _) | Op::Not(x) | Op::Neg(x) => {
                    conds(x, f, out)
                }
                Op::And(a, b) | Op::Or(a, b) | Op::Bin(_, a, b) => {
                    conds(a, f, out);
                    conds(b, f, out);
                }
                Op::If(p) => p.iter().for_each(|x| conds(x, f, out)),
                Op::Call2(_, args) => args.iter().for_each(|x| conds(x, f, out)),
                Op::Const(_)
                | Op::Value(_)
                | Op::Count(..)
                | Op::CountCmp(..)
                | Op::ValueCmp(..) => {}
            }
        }
        let mut found = Vec::new();
        conds(&self.forbid[rule].when, f, &mut found);
        let c = Ctx {
            mv: m,
            ..Ctx::turn(s.pos.to_move, crate::eval::NO_PHASE)
        };
        found
            .into_iter()
            .map(|cond| self.lines_where(f, cond, s, c))
            .collect()
    }
}
