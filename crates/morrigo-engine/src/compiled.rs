//! Rule expressions lowered for evaluation in the hot loop. The checked
//! [`Expr`] tree is rewritten into [`Op`]s that fuse the common shapes —
//! `in_hand(me) > 0` becomes one comparison of one counter against a
//! constant — so a typical condition is two or three node visits.

use morrigo_dsl::{BinOp, Expr};
use morrigo_rules::Prim;

/// Whose counter a [`Op::Count`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Who {
    Me,
    Opponent,
    Player(u8),
}

/// Per-player counters kept in the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counter {
    InHand,
    OnBoard,
    Lost,
    Captured,
    PassStones,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Const(i64),
    /// A nullary built-in (`phase`, `repetitions`, …).
    Value(Prim),
    Count(Counter, Who),
    /// A built-in function of one argument (`in_line(target)`, `after('…')`).
    Call(Prim, Box<Op>),
    /// A built-in function of two arguments (`lines_formed_in(placing, me)`).
    Call2(Prim, Box<[Op; 2]>),
    /// `x <op> k` with a constant `k`.
    CmpConst(BinOp, Box<Op>, i64),
    /// `counter(who) <op> k`, the commonest shape of all (`in_hand(me) > 0`).
    CountCmp(Counter, Who, BinOp, i64),
    /// `value <op> k` (`turns_without_removal >= 50`).
    ValueCmp(Prim, BinOp, i64),
    Not(Box<Op>),
    Neg(Box<Op>),
    And(Box<Op>, Box<Op>),
    Or(Box<Op>, Box<Op>),
    Bin(BinOp, Box<Op>, Box<Op>),
    /// `if c then a else b`: `[c, a, b]`.
    If(Box<[Op; 3]>),
}

impl Op {
    /// `Some(v)` when the expression is a constant.
    pub(crate) fn constant(&self) -> Option<i64> {
        match self {
            Op::Const(v) => Some(*v),
            _ => None,
        }
    }
}

fn counter(p: Prim) -> Option<Counter> {
    Some(match p {
        Prim::InHand => Counter::InHand,
        Prim::OnBoard => Counter::OnBoard,
        Prim::Lost => Counter::Lost,
        Prim::Captured => Counter::Captured,
        Prim::PassStones => Counter::PassStones,
        _ => return None,
    })
}

fn who(arg: &Expr<Prim>) -> Option<Who> {
    match arg {
        Expr::Var(Prim::Me) => Some(Who::Me),
        Expr::Var(Prim::Opponent) => Some(Who::Opponent),
        Expr::Const(v) => Some(Who::Player((*v & 1) as u8)),
        _ => None,
    }
}

/// Mirror of a comparison when its operands swap sides (`3 > x` is `x < 3`).
fn mirrored(op: BinOp) -> Option<BinOp> {
    Some(match op {
        BinOp::Eq => BinOp::Eq,
        BinOp::Ne => BinOp::Ne,
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        _ => return None,
    })
}

pub(crate) fn lower(e: &Expr<Prim>) -> Op {
    match e {
        Expr::Const(v) => Op::Const(*v),
        Expr::Var(p) => Op::Value(*p),
        Expr::Call(f, args) if args.len() == 2 => {
            Op::Call2(*f, Box::new([lower(&args[0]), lower(&args[1])]))
        }
        Expr::Call(f, args) => match (counter(*f), who(&args[0])) {
            (Some(c), Some(w)) => Op::Count(c, w),
            _ => Op::Call(*f, Box::new(lower(&args[0]))),
        },
        Expr::Not(x) => Op::Not(Box::new(lower(x))),
        Expr::Neg(x) => Op::Neg(Box::new(lower(x))),
        Expr::Bin(BinOp::And, a, b) => Op::And(Box::new(lower(a)), Box::new(lower(b))),
        Expr::Bin(BinOp::Or, a, b) => Op::Or(Box::new(lower(a)), Box::new(lower(b))),
        Expr::Bin(op, a, b) => match (a.as_const(), b.as_const(), mirrored(*op)) {
            (_, Some(k), Some(_)) => compare(*op, lower(a), k),
            (Some(k), _, Some(m)) => compare(m, lower(b), k),
            _ => Op::Bin(*op, Box::new(lower(a)), Box::new(lower(b))),
        },
        Expr::If(p) => Op::If(Box::new([lower(&p[0]), lower(&p[1]), lower(&p[2])])),
    }
}

/// `x <op> k`, fused with `x` when it is a counter or a plain value.
fn compare(op: BinOp, x: Op, k: i64) -> Op {
    match x {
        Op::Count(c, w) => Op::CountCmp(c, w, op, k),
        Op::Value(p) => Op::ValueCmp(p, op, k),
        x => Op::CmpConst(op, Box::new(x), k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_comparisons_fuse_into_one_node() {
        let e = Expr::Bin(
            BinOp::Gt,
            Box::new(Expr::Call(Prim::InHand, Box::new([Expr::Var(Prim::Me)]))),
            Box::new(Expr::Const(0)),
        );
        assert_eq!(
            lower(&e),
            Op::CountCmp(Counter::InHand, Who::Me, BinOp::Gt, 0)
        );
    }

    #[test]
    fn constant_on_the_left_is_mirrored() {
        let e = Expr::Bin(
            BinOp::Gt,
            Box::new(Expr::Const(3)),
            Box::new(Expr::Var(Prim::Turn)),
        );
        assert_eq!(lower(&e), Op::ValueCmp(Prim::Turn, BinOp::Lt, 3));
    }
}
