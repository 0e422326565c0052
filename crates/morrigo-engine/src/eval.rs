//! Rule expressions evaluated on a state: the evaluation context, the
//! values the vocabulary names, and the two derived values every rule may
//! read (the phase and the repetition count).

use crate::compiled::{Counter, Op, Who};
use crate::machine::{Machine, State};
use crate::moves::{Move, MoveKind, Point, NO_POINT};
use morrigo_dsl::BinOp;
use morrigo_rules::Prim;

/// The longest reversible stretch of the history that [`Machine::repetitions`]
/// scans: short stretches (random playouts) are scanned, which costs less
/// than keeping a count table; past this length the counts are kept (by
/// `apply`) so a long game stays linear.
pub(crate) const REPETITION_SCAN: usize = 64;

/// `Ctx::phase` when the phase is not known yet: reading it finds it.
pub(crate) const NO_PHASE: u8 = u8::MAX;

/// Evaluation context of one expression.
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    pub(crate) me: u8,
    pub(crate) phase: u8,
    pub(crate) no_legal_move: bool,
    pub(crate) target: Point,
    // u16 (as in the position) keeps `Ctx` within two registers.
    pub(crate) lines_formed: u16,
    /// The move a forbid rule judges ([`NO_MOVE`] elsewhere).
    pub(crate) mv: Move,
}

/// `Ctx::mv` when no single move is judged.
pub(crate) const NO_MOVE: Move = Move {
    kind: MoveKind::Pass,
    from: NO_POINT,
    to: NO_POINT,
};

impl Ctx {
    pub(crate) fn turn(me: u8, phase: u8) -> Self {
        Ctx {
            me,
            phase,
            no_legal_move: false,
            target: NO_POINT,
            lines_formed: 0,
            mv: NO_MOVE,
        }
    }
}

/// A comparison of two numbers (the lowering only fuses comparisons).
#[inline(always)]
pub(crate) fn cmp(op: BinOp, v: i64, k: i64) -> i64 {
    (match op {
        BinOp::Eq => v == k,
        BinOp::Ne => v != k,
        BinOp::Lt => v < k,
        BinOp::Le => v <= k,
        BinOp::Gt => v > k,
        BinOp::Ge => v >= k,
        other => return morrigo_dsl::fold(other, v, k),
    }) as i64
}

impl<const W: usize> Machine<W> {
    /// How often the current position occurred, this time included.
    #[inline(never)]
    pub fn repetitions(&self, s: &State<W>) -> u32 {
        let from = (s.pos.reversible_from as usize).min(s.history.len());
        if s.history.len() - from > REPETITION_SCAN {
            // `end_turn` keeps the whole history counted on a long stretch.
            // Keys from before `from` cannot match: a placement or removal
            // changed the pieces in hand or on the board for good.
            return s.history_counts.count(s.pos.hash);
        }
        // Only positions with the same player to move can match (the key
        // includes it), and while players alternate those are every second
        // entry back from the end.
        let recent = &s.history[from..];
        if self.turns.order {
            return recent.iter().filter(|&&h| h == s.pos.hash).count() as u32;
        }
        // A constant step: a step read from the rules costs a division.
        recent
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == s.pos.hash)
            .count() as u32
    }

    /// The phase (index into `Rules::phases`) of the player to move.
    pub fn phase(&self, s: &State<W>) -> usize {
        self.phase_for(s, s.pos.to_move)
    }

    /// Evaluate a lowered expression. The shapes nearly every rule uses are
    /// handled here, inlined at the call site; the rest recurse through
    /// [`Machine::eval_tree`], so the common case pays no call frame.
    #[inline(always)]
    pub(crate) fn eval(&self, e: &Op, s: &State<W>, c: Ctx) -> i64 {
        match e {
            Op::Const(v) => *v,
            Op::CountCmp(counter, who, op, k) => cmp(*op, self.count(*counter, *who, s, c), *k),
            Op::ValueCmp(p, op, k) => cmp(*op, self.value(*p, s, c), *k),
            Op::Value(p) => self.value(*p, s, c),
            _ => self.eval_tree(e, s, c),
        }
    }

    #[inline(never)]
    pub(crate) fn eval_tree(&self, e: &Op, s: &State<W>, c: Ctx) -> i64 {
        match e {
            Op::And(a, b) => (self.eval(a, s, c) != 0 && self.eval(b, s, c) != 0) as i64,
            Op::Or(a, b) => (self.eval(a, s, c) != 0 || self.eval(b, s, c) != 0) as i64,
            Op::Not(x) => (self.eval(x, s, c) == 0) as i64,
            Op::Count(counter, who) => self.count(*counter, *who, s, c),
            Op::CmpConst(op, x, k) => cmp(*op, self.eval(x, s, c), *k),
            Op::Call(f @ (Prim::LinesFormedWhere | Prim::LinesBrokenWhere), cond) => {
                self.lines_where(*f, cond, s, c)
            }
            Op::Call(f, arg) => {
                let a = self.eval(arg, s, c);
                self.call(*f, a, s, c.me)
            }
            Op::Call2(f, args) => {
                let (a, b) = (self.eval(&args[0], s, c), self.eval(&args[1], s, c));
                self.call2(*f, a, b, s)
            }
            Op::Neg(x) => self.eval(x, s, c).wrapping_neg(),
            Op::Bin(op, a, b) => morrigo_dsl::fold(*op, self.eval(a, s, c), self.eval(b, s, c)),
            Op::If(p) => match self.eval(&p[0], s, c) {
                0 => self.eval(&p[2], s, c),
                _ => self.eval(&p[1], s, c),
            },
            Op::Const(_) | Op::CountCmp(..) | Op::ValueCmp(..) | Op::Value(_) => self.eval(e, s, c),
        }
    }

    #[inline(always)]
    pub(crate) fn count(&self, counter: Counter, who: Who, s: &State<W>, c: Ctx) -> i64 {
        let p = match who {
            Who::Me => c.me,
            Who::Opponent => c.me ^ 1,
            Who::Player(p) => p,
        } as usize;
        let pos = &s.pos;
        (match counter {
            Counter::InHand => pos.in_hand[p],
            Counter::OnBoard => pos.on_board[p],
            Counter::Lost => pos.lost[p],
            Counter::Captured => pos.captured[p],
            Counter::PassStones => pos.pass_stones[p],
        }) as i64
    }

    /// Values read straight from the context or the position.
    #[inline(always)]
    pub(crate) fn value(&self, p: Prim, s: &State<W>, c: Ctx) -> i64 {
        let pos = &s.pos;
        match p {
            Prim::Me => c.me as i64,
            Prim::Opponent => (c.me ^ 1) as i64,
            // Found on demand where the caller has not found it already
            // (forbid rules, the line rule); a phase `when` cannot read it.
            Prim::Phase if c.phase == NO_PHASE => self.phase(s) as i64,
            Prim::Phase => c.phase as i64,
            Prim::NoLegalMove => c.no_legal_move as i64,
            Prim::TurnsWithoutRemoval => pos.turns_without_removal as i64,
            Prim::TurnsWithoutLine => pos.turns_without_line as i64,
            Prim::QuietTurns => pos.quiet_turns as i64,
            Prim::Turn => pos.turn as i64,
            Prim::Target => c.target as i64,
            Prim::LinesFormed if c.mv.to == NO_POINT => c.lines_formed as i64,
            Prim::LinesFormed
            | Prim::Captures
            | Prim::RunLength
            | Prim::To
            | Prim::From
            | Prim::Direction
            | Prim::LinesBroken => self.move_value(p, s, c.mv),
            // `counts` judges a line where `removable` judges a target: the
            // two never meet, so one field holds either (Ctx stays small).
            Prim::Line => c.target as i64,
            _ => self.computed_value(p, s),
        }
    }

    /// Values that take some work; kept out of line so the cheap ones stay cheap.
    #[inline(never)]
    pub(crate) fn computed_value(&self, p: Prim, s: &State<W>) -> i64 {
        let pos = &s.pos;
        match p {
            Prim::Repetitions => self.repetitions(s) as i64,
            Prim::EmptyPoints => {
                self.n as i64 - (pos.on_board[0] + pos.on_board[1] + s.marks.now.count()) as i64
            }
            Prim::LastPlaySuicide => pos.last_suicide as i64,
            Prim::ImmediateRepetition => pos.last_immediate_repetition as i64,
            Prim::BoardRepetitions => pos.last_board_repetitions as i64,
            Prim::NoSafeMove => !self.has_safe_move(s) as i64,
            // Functions are reached through `call`; a bare use cannot type-check.
            _ => 0,
        }
    }

    pub(crate) fn call(&self, f: Prim, arg: i64, s: &State<W>, me: u8) -> i64 {
        let pos = &s.pos;
        let player = (arg & 1) as usize;
        match f {
            Prim::InHand => pos.in_hand[player] as i64,
            Prim::OnBoard => pos.on_board[player] as i64,
            Prim::Lost => pos.lost[player] as i64,
            Prim::Captured => pos.captured[player] as i64,
            Prim::PassStones => pos.pass_stones[player] as i64,
            Prim::Lines => self
                .line_masks
                .iter()
                .filter(|m| m.within(&pos.occ[player]))
                .count() as i64,
            Prim::AllInLines => pos.occ[player].within(&self.lined(&pos.occ[player])) as i64,
            Prim::InLine => {
                let p = arg as usize;
                match s.owner(p as Point) {
                    Some(o) => (self.lines_at(&pos.occ[o as usize], p) > 0) as i64,
                    None => 0,
                }
            }
            Prim::OwnNeighbours => self
                .neighbours
                .get(arg as usize)
                .map_or(0, |n| n.and(pos.occ[me as usize & 1]).count() as i64),
            Prim::FormedBefore | Prim::TurnsSinceFormed | Prim::TurnsSinceTraded => {
                self.line_history_value(f, arg, s)
            }
            Prim::DirectionOf => self.line_direction(arg),
            Prim::After => self
                .rules
                .patterns
                .get(arg as usize)
                .is_some_and(|p| p.matches_end(&crate::records::Classes(&s.moves)))
                as i64,
            _ => 0,
        }
    }
}
