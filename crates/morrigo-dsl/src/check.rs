//! Type checking and lowering of the AST to [`Expr`], with constant folding
//! (parameters are constants, so `on_board(me) < min_pieces` becomes a
//! comparison against a literal before the game starts), and with interval
//! analysis: every arithmetic result is proved to fit in `i64` from the
//! bounds of the values it reads, so nothing wraps at fold or run time.

use crate::ast::{parse, Ast, BinOp, Span, UnOp};
use crate::DslError;
use std::fmt;

/// The value types of the language. Every value is an `i64` at run time
/// (booleans 0/1, players, points and phases by index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A number.
    Int,
    /// A condition: true or false (1 or 0).
    Bool,
    /// A player, by index.
    Player,
    /// A point of the board, by index.
    Point,
    /// A phase of the game, by index.
    Phase,
    /// A line of the board (by index), e.g. the line a `counts` rule judges.
    Line,
    /// A quoted pattern over the move history, compiled by the environment.
    Pattern,
    /// A direction of the board's lines (`side`, `horizontal`, …).
    Direction,
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Type::Int => "a number",
            Type::Bool => "a condition (true/false)",
            Type::Player => "a player",
            Type::Point => "a point",
            Type::Phase => "a phase",
            Type::Line => "a line",
            Type::Pattern => "a quoted history pattern",
            Type::Direction => "a direction",
        })
    }
}

/// What a name means in an environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Binding<S> {
    /// A value read from the game state when the expression is evaluated.
    Value {
        /// The value's type.
        ty: Type,
        /// The environment's symbol for it, which the engine evaluates.
        sym: S,
    },
    /// A value fixed before the game starts (parameters, phase and player names).
    Const {
        /// The value's type.
        ty: Type,
        /// The value, folded into the expression.
        value: i64,
    },
    /// A built-in function of the state.
    Function {
        /// The argument types, in order.
        params: Vec<Type>,
        /// The result type.
        ret: Type,
        /// The environment's symbol for it, which the engine evaluates.
        sym: S,
    },
}

/// The names an expression may use. Supplied by the ruleset compiler.
pub trait Env<S> {
    /// What `name` means here; `None` if it is unknown, or known but not
    /// available here (then [`Env::unavailable`] says why).
    fn lookup(&self, name: &str) -> Option<Binding<S>>;
    /// All names, for "did you mean" suggestions.
    fn names(&self) -> Vec<String>;
    /// Why a name that exists elsewhere is not available here, if it is
    /// (for example `target` outside a removal rule).
    fn unavailable(&self, _name: &str) -> Option<String> {
        None
    }
    /// The least and greatest value a number-typed built-in (`Value` or
    /// `Function` symbol) can have at run time. Arithmetic is accepted only
    /// where these bounds prove it cannot leave the `i64` range; the default
    /// proves nothing.
    fn bounds(&self, _sym: S) -> (i64, i64) {
        (i64::MIN, i64::MAX)
    }
    /// Compile a quoted pattern; the result is its id in the environment's
    /// table. `span` locates the pattern text for errors.
    fn pattern(&self, _text: &str, span: Span) -> Result<i64, DslError> {
        Err(
            DslError::new(span, "history patterns cannot be used in this ruleset")
                .expected("a number, name or call"),
        )
    }
    /// What a name means written as a call `name(…)`, where it may differ
    /// from the bare name (`lines_formed` and `lines_formed(cond)`).
    fn lookup_call(&self, name: &str) -> Option<Binding<S>> {
        self.lookup(name)
    }
    /// Why `name(…)` is not available here, as [`Env::unavailable`].
    fn unavailable_call(&self, name: &str) -> Option<String> {
        self.unavailable(name)
    }
    /// The environment the arguments of function `sym` are checked in, when
    /// it differs: a function counting the items for which a condition
    /// holds binds the item's name there (`line` in `lines_formed(cond)`).
    fn argument_env(&self, _sym: S) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
}

/// A checked expression over the environment's symbols `S`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr<S> {
    /// A value known before the game starts, literal or folded.
    Const(i64),
    /// A value read from the game state ([`Binding::Value`]).
    Var(S),
    /// A built-in function of the state ([`Binding::Function`]) and its
    /// arguments.
    Call(S, Box<[Expr<S>]>),
    /// The negation of a condition.
    Not(Box<Expr<S>>),
    /// The negation of a number.
    Neg(Box<Expr<S>>),
    /// A binary operator and its left and right operands.
    Bin(BinOp, Box<Expr<S>>, Box<Expr<S>>),
    /// `if c then a else b`: `[c, a, b]`; only the chosen branch is evaluated.
    If(Box<[Expr<S>; 3]>),
}

impl<S> Expr<S> {
    /// The value, if the expression is a constant.
    pub fn as_const(&self) -> Option<i64> {
        match self {
            Expr::Const(v) => Some(*v),
            _ => None,
        }
    }

    /// The operands of a chain of `and`s (the expression itself when it is
    /// no `and`), left to right: the expression holds iff each of them does.
    pub fn conjuncts(&self) -> Vec<&Expr<S>> {
        match self {
            Expr::Bin(BinOp::And, a, b) => {
                let mut out = a.conjuncts();
                out.extend(b.conjuncts());
                out
            }
            e => vec![e],
        }
    }

    /// Visit every symbol used (to know which state the engine must track).
    pub fn for_each_symbol(&self, f: &mut impl FnMut(&S)) {
        match self {
            Expr::Const(_) => {}
            Expr::Var(s) => f(s),
            Expr::Call(s, args) => {
                f(s);
                args.iter().for_each(|a| a.for_each_symbol(f));
            }
            Expr::Not(e) | Expr::Neg(e) => e.for_each_symbol(f),
            Expr::Bin(_, a, b) => {
                a.for_each_symbol(f);
                b.for_each_symbol(f);
            }
            Expr::If(parts) => parts.iter().for_each(|e| e.for_each_symbol(f)),
        }
    }
}

/// Parse and check `src`, which must have type `want`.
pub fn compile<S: Copy>(src: &str, env: &impl Env<S>, want: Type) -> Result<Expr<S>, DslError> {
    compile_bounded(src, env, want).map(|(expr, _)| expr)
}

/// As [`compile`], also returning the least and greatest value the
/// expression can take at run time (from the environment's bounds).
pub fn compile_bounded<S: Copy>(
    src: &str,
    env: &impl Env<S>,
    want: Type,
) -> Result<(Expr<S>, (i64, i64)), DslError> {
    let ast = parse(src)?;
    let cx = Cx { src, env };
    let (expr, ty, range) = cx.check(&ast)?;
    if ty != want {
        return Err(DslError::new(
            ast.span(),
            format!("this is {ty}, but {want} is needed here"),
        )
        .expected(want.to_string()));
    }
    Ok((expr, range))
}

/// The values an expression can take, as an interval. Values of other
/// types than numbers are small indexes or 0/1 and take no part in
/// arithmetic (the type check sees to that).
type Range = (i64, i64);

const ANY: Range = (i64::MIN, i64::MAX);

struct Cx<'a, E> {
    src: &'a str,
    env: &'a E,
}

impl<E> Cx<'_, E> {
    fn check<S: Copy>(&self, ast: &Ast) -> Result<(Expr<S>, Type, Range), DslError>
    where
        E: Env<S>,
    {
        match ast {
            Ast::Int(n, _) => Ok((Expr::Const(*n), Type::Int, (*n, *n))),
            Ast::Bool(b, _) => Ok((Expr::Const(*b as i64), Type::Bool, (*b as i64, *b as i64))),
            Ast::Str(text, span) => Ok((
                Expr::Const(self.env.pattern(text, *span)?),
                Type::Pattern,
                ANY,
            )),
            Ast::Ident(name, span) => self.ident(name, *span),
            Ast::Call {
                name, args, span, ..
            } if builtin_function(name).is_some() => {
                let op = builtin_function(name).expect("matched");
                self.builtin_call(op, name, args, *span)
            }
            Ast::Call {
                name,
                name_span,
                args,
                span,
            } => self.call(name, *name_span, args, *span),
            Ast::Unary(op, inner, span) => self.unary(*op, inner, *span),
            Ast::Binary(op, l, r, span) => self.binary(*op, l, r, *span),
            Ast::If(parts, _) => self.conditional(parts),
        }
    }

    /// A bare name: a value or constant of the environment. `min` and
    /// `max` and the environment's functions need arguments.
    fn ident<S: Copy>(&self, name: &str, span: Span) -> Result<(Expr<S>, Type, Range), DslError>
    where
        E: Env<S>,
    {
        let env = self.env;
        if builtin_function(name).is_some() && env.lookup(name).is_none() {
            return Err(
                DslError::new(span, format!("`{name}` is a function and needs arguments"))
                    .expected(format!("`{name}(number, number)`")),
            );
        }
        match resolve(name, span, env)? {
            Binding::Value { ty, sym } => Ok((Expr::Var(sym), ty, range_of(env, ty, sym))),
            Binding::Const { ty, value } => Ok((Expr::Const(value), ty, (value, value))),
            Binding::Function { params, .. } => Err(DslError::new(
                span,
                format!("`{name}` is a function and needs arguments"),
            )
            .expected(format!("`{name}({})`", list(&params)))),
        }
    }

    /// `min(a, b)` or `max(a, b)`: a binary operator written as a call.
    fn builtin_call<S: Copy>(
        &self,
        op: BinOp,
        name: &str,
        args: &[Ast],
        span: Span,
    ) -> Result<(Expr<S>, Type, Range), DslError>
    where
        E: Env<S>,
    {
        let [l, r] = args else {
            return Err(DslError::new(
                span,
                format!("`{name}` takes 2 argument(s), {} given", args.len()),
            )
            .expected(format!("`{name}(number, number)`")));
        };
        self.binary(op, l, r, span)
    }

    /// A call of a function of the environment, its arguments checked
    /// against its parameters (in the environment it gives them, if any).
    fn call<S: Copy>(
        &self,
        name: &str,
        name_span: Span,
        args: &[Ast],
        span: Span,
    ) -> Result<(Expr<S>, Type, Range), DslError>
    where
        E: Env<S>,
    {
        let env = self.env;
        let Binding::Function { params, ret, sym } = self.call_binding(name, name_span)? else {
            return Err(
                DslError::new(name_span, format!("`{name}` is not a function"))
                    .expected("a name without `(…)`"),
            );
        };
        if params.len() != args.len() {
            return Err(DslError::new(
                span,
                format!(
                    "`{name}` takes {} argument(s), {} given",
                    params.len(),
                    args.len()
                ),
            )
            .expected(format!("`{name}({})`", list(&params))));
        }
        let mut checked = Vec::with_capacity(args.len());
        let inner = env.argument_env(sym);
        let scoped = inner.as_ref().map(|env| Cx { src: self.src, env });
        for (arg, want) in args.iter().zip(&params) {
            let (e, ty, _) = match &scoped {
                Some(cx) => cx.check(arg)?,
                None => self.check(arg)?,
            };
            if ty != *want {
                return Err(mismatch(arg.span(), *want, ty)
                    .note(format!("`{name}` takes ({})", list(&params))));
            }
            checked.push(e);
        }
        Ok((
            Expr::Call(sym, checked.into()),
            ret,
            range_of(env, ret, sym),
        ))
    }

    /// What `name(…)` means here, or why it cannot be used here.
    fn call_binding<S: Copy>(&self, name: &str, name_span: Span) -> Result<Binding<S>, DslError>
    where
        E: Env<S>,
    {
        let env = self.env;
        match env.lookup_call(name) {
            Some(b) => Ok(b),
            None => match env.unavailable_call(name) {
                Some(why) => Err(DslError::new(
                    name_span,
                    format!("`{name}(…)` cannot be used here"),
                )
                .note(why)),
                None => resolve(name, name_span, env),
            },
        }
    }

    /// `not c` (folded when `c` is constant) or `-n` (whose range must fit).
    fn unary<S: Copy>(
        &self,
        op: UnOp,
        inner: &Ast,
        span: Span,
    ) -> Result<(Expr<S>, Type, Range), DslError>
    where
        E: Env<S>,
    {
        let (e, ty, (lo, hi)) = self.check(inner)?;
        let want = if op == UnOp::Not {
            Type::Bool
        } else {
            Type::Int
        };
        if ty != want {
            return Err(mismatch(inner.span(), want, ty));
        }
        if op == UnOp::Not {
            return Ok(match e.as_const() {
                Some(v) => (
                    Expr::Const((v == 0) as i64),
                    ty,
                    ((v == 0) as i64, (v == 0) as i64),
                ),
                None => (Expr::Not(Box::new(e)), ty, (0, 1)),
            });
        }
        let range = self.fits(span, -(hi as i128), -(lo as i128), &[(lo, hi)])?;
        Ok(match e.as_const() {
            Some(_) => (Expr::Const(range.0), ty, range),
            None => (Expr::Neg(Box::new(e)), ty, range),
        })
    }

    /// `if c then a else b`: a condition and two values of one type; the
    /// result ranges over both branches (or is the chosen one when `c` is
    /// constant).
    fn conditional<S: Copy>(&self, parts: &[Ast; 3]) -> Result<(Expr<S>, Type, Range), DslError>
    where
        E: Env<S>,
    {
        let [c, a, b] = parts;
        let (ce, ct, _) = self.check(c)?;
        expect(c, ct, Type::Bool)?;
        let (ae, at, ar) = self.check(a)?;
        let (be, bt, br) = self.check(b)?;
        if at != bt {
            return Err(DslError::new(
                b.span(),
                format!("this is {bt}, but the `then` value is {at}"),
            )
            .expected(format!("{at}, like the `then` value"))
            .note("both values of `if … then … else …` must have one type"));
        }
        Ok(match ce.as_const() {
            Some(0) => (be, bt, br),
            Some(_) => (ae, at, ar),
            None => (
                Expr::If(Box::new([ce, ae, be])),
                at,
                (ar.0.min(br.0), ar.1.max(br.1)),
            ),
        })
    }

    fn binary<S: Copy>(
        &self,
        op: BinOp,
        l: &Ast,
        r: &Ast,
        span: Span,
    ) -> Result<(Expr<S>, Type, Range), DslError>
    where
        E: Env<S>,
    {
        let (le, lt, (a, b)) = self.check(l)?;
        let (re, rt, (c, d)) = self.check(r)?;
        let result = match op {
            BinOp::And | BinOp::Or => {
                expect(l, lt, Type::Bool)?;
                expect(r, rt, Type::Bool)?;
                Type::Bool
            }
            BinOp::Eq | BinOp::Ne => {
                if lt != rt {
                    return Err(
                        DslError::new(span, format!("cannot compare {lt} with {rt}")).expected(
                            format!("two values of the same type around `{}`", op.symbol()),
                        ),
                    );
                }
                Type::Bool
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                expect(l, lt, Type::Int)?;
                expect(r, rt, Type::Int)?;
                Type::Bool
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Min | BinOp::Max => {
                expect(l, lt, Type::Int)?;
                expect(r, rt, Type::Int)?;
                Type::Int
            }
        };
        // Interval arithmetic in i128, exact for i64 operands: an operation
        // is accepted only if every value it can produce is an i64, so the
        // evaluator never needs to check (or wrap) at run time.
        let (a, b, c, d) = (a as i128, b as i128, c as i128, d as i128);
        let range = match op {
            BinOp::Add => self.fits(
                span,
                a + c,
                b + d,
                &[(a as i64, b as i64), (c as i64, d as i64)],
            )?,
            BinOp::Sub => self.fits(
                span,
                a - d,
                b - c,
                &[(a as i64, b as i64), (c as i64, d as i64)],
            )?,
            BinOp::Mul => {
                let p = [a * c, a * d, b * c, b * d];
                let (lo, hi) = (*p.iter().min().expect("4"), *p.iter().max().expect("4"));
                self.fits(span, lo, hi, &[(a as i64, b as i64), (c as i64, d as i64)])?
            }
            BinOp::Min => (a.min(c) as i64, b.min(d) as i64),
            BinOp::Max => (a.max(c) as i64, b.max(d) as i64),
            _ => (0, 1),
        };
        if let (Some(x), Some(y)) = (le.as_const(), re.as_const()) {
            let v = fold(op, x, y);
            return Ok((Expr::Const(v), result, (v, v)));
        }
        Ok((Expr::Bin(op, Box::new(le), Box::new(re)), result, range))
    }

    /// `lo..=hi` as a range of `i64`, or a located error naming the
    /// expression, the value out of range and its operands' bounds.
    fn fits(&self, span: Span, lo: i128, hi: i128, operands: &[Range]) -> Result<Range, DslError> {
        let out = if hi > i64::MAX as i128 {
            hi
        } else if lo < i64::MIN as i128 {
            lo
        } else {
            return Ok((lo as i64, hi as i64));
        };
        let text = excerpt(self.src, span);
        let constant = operands.iter().all(|(lo, hi)| lo == hi);
        let err = if constant {
            DslError::new(
                span,
                format!("`{text}` overflows: {out} is outside the range of rule numbers"),
            )
        } else {
            let ranges: Vec<String> = operands
                .iter()
                .map(|(lo, hi)| {
                    if lo == hi {
                        lo.to_string()
                    } else {
                        format!("{lo}…{hi}")
                    }
                })
                .collect();
            DslError::new(
                span,
                format!(
                    "`{text}` can overflow: it can reach {out}, outside the range of rule numbers"
                ),
            )
            .note(format!(
                "its operands range over {}; built-in numbers are counts of at most {}",
                ranges.join(" and "),
                u32::MAX
            ))
        };
        Err(err.expected(format!("a value from {} to {}", i64::MIN, i64::MAX)))
    }
}

/// The run-time bounds of a symbol of type `ty`.
fn range_of<S>(env: &impl Env<S>, ty: Type, sym: S) -> Range {
    match ty {
        Type::Int => env.bounds(sym),
        Type::Bool => (0, 1),
        _ => ANY,
    }
}

/// The source text of `span`, shortened for a message.
fn excerpt(src: &str, span: Span) -> String {
    let text = src.get(span.start..span.end).unwrap_or("");
    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// The meaning of every binary operator on values; the engine uses it too.
/// Arithmetic wraps here only in name: the checker accepts an expression
/// only when interval analysis proves no operation can leave `i64`, and it
/// folds constants with the same proof, so no result ever wraps.
pub fn fold(op: BinOp, a: i64, b: i64) -> i64 {
    match op {
        BinOp::Or => (a != 0 || b != 0) as i64,
        BinOp::And => (a != 0 && b != 0) as i64,
        BinOp::Eq => (a == b) as i64,
        BinOp::Ne => (a != b) as i64,
        BinOp::Lt => (a < b) as i64,
        BinOp::Le => (a <= b) as i64,
        BinOp::Gt => (a > b) as i64,
        BinOp::Ge => (a >= b) as i64,
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Min => a.min(b),
        BinOp::Max => a.max(b),
    }
}

/// The language's own functions, written as calls: `min(a, b)`, `max(a, b)`.
fn builtin_function(name: &str) -> Option<BinOp> {
    match name {
        "min" => Some(BinOp::Min),
        "max" => Some(BinOp::Max),
        _ => None,
    }
}

fn expect(ast: &Ast, got: Type, want: Type) -> Result<(), DslError> {
    if got == want {
        Ok(())
    } else {
        Err(mismatch(ast.span(), want, got))
    }
}

fn mismatch(span: Span, want: Type, got: Type) -> DslError {
    DslError::new(span, format!("this is {got}, but {want} is needed here"))
        .expected(want.to_string())
}

fn resolve<S>(name: &str, span: Span, env: &impl Env<S>) -> Result<Binding<S>, DslError> {
    if let Some(b) = env.lookup(name) {
        return Ok(b);
    }
    if let Some(why) = env.unavailable(name) {
        return Err(DslError::new(span, format!("`{name}` cannot be used here")).note(why));
    }
    let names = env.names();
    let err = DslError::new(span, format!("unknown name `{name}`"))
        .expected("a parameter, phase, player, point or built-in name");
    match suggest(name, &names) {
        Some(s) => Err(err.note(format!("did you mean `{s}`?"))),
        None => Err(err),
    }
}

fn suggest<'a>(wrong: &str, names: &'a [String]) -> Option<&'a str> {
    morrigo_diag::did_you_mean(wrong, names.iter().map(String::as_str))
}

fn list(types: &[Type]) -> String {
    types
        .iter()
        .map(|t| match t {
            Type::Int => "number",
            Type::Bool => "condition",
            Type::Player => "player",
            Type::Point => "point",
            Type::Phase => "phase",
            Type::Line => "line",
            Type::Pattern => "'pattern'",
            Type::Direction => "direction",
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Sym {
        InHand,
        Me,
        Phase,
    }

    struct TestEnv;
    impl Env<Sym> for TestEnv {
        fn lookup(&self, name: &str) -> Option<Binding<Sym>> {
            Some(match name {
                "in_hand" => Binding::Function {
                    params: vec![Type::Player],
                    ret: Type::Int,
                    sym: Sym::InHand,
                },
                "me" => Binding::Value {
                    ty: Type::Player,
                    sym: Sym::Me,
                },
                "phase" => Binding::Value {
                    ty: Type::Phase,
                    sym: Sym::Phase,
                },
                "moving" => Binding::Const {
                    ty: Type::Phase,
                    value: 1,
                },
                "limit" => Binding::Const {
                    ty: Type::Int,
                    value: 50,
                },
                _ => return None,
            })
        }
        fn names(&self) -> Vec<String> {
            ["in_hand", "me", "phase", "moving", "limit"]
                .map(String::from)
                .to_vec()
        }
        fn bounds(&self, _sym: Sym) -> (i64, i64) {
            (0, 1000)
        }
        fn unavailable(&self, name: &str) -> Option<String> {
            (name == "target").then(|| "`target` exists only in removal rules".into())
        }
    }

    #[test]
    fn calls_and_phases_typecheck() {
        let e = compile("in_hand(me) > 0 and phase == moving", &TestEnv, Type::Bool).unwrap();
        assert!(matches!(e, Expr::Bin(BinOp::And, _, _)));
    }

    #[test]
    fn an_and_chain_splits_into_its_operands_and_an_or_does_not() {
        let e = compile(
            "in_hand(me) > 0 and phase == moving and in_hand(me) < 5",
            &TestEnv,
            Type::Bool,
        )
        .unwrap();
        assert_eq!(e.conjuncts().len(), 3);
        let e = compile("in_hand(me) > 0 or phase == moving", &TestEnv, Type::Bool).unwrap();
        assert_eq!(e.conjuncts(), vec![&e]);
    }

    #[test]
    fn constants_fold_before_the_game() {
        assert_eq!(
            compile("limit * 2 + 1", &TestEnv, Type::Int).unwrap(),
            Expr::Const(101)
        );
        assert_eq!(
            compile("not (limit > 10)", &TestEnv, Type::Bool).unwrap(),
            Expr::Const(0)
        );
    }

    #[test]
    fn unknown_name_suggests_the_nearest() {
        let e = compile("in_hnd(me) > 0", &TestEnv, Type::Bool).unwrap_err();
        assert_eq!(e.message, "unknown name `in_hnd`");
        assert_eq!(e.note.as_deref(), Some("did you mean `in_hand`?"));
        assert_eq!(e.span, Span { start: 0, end: 6 });
    }

    #[test]
    fn wrong_argument_type_is_located_on_the_argument() {
        let e = compile("in_hand(3) > 0", &TestEnv, Type::Bool).unwrap_err();
        assert_eq!(e.span, Span { start: 8, end: 9 });
        assert!(
            e.message.contains("a number, but a player is needed"),
            "{}",
            e.message
        );
    }

    #[test]
    fn condition_must_be_boolean() {
        let e = compile("in_hand(me)", &TestEnv, Type::Bool).unwrap_err();
        assert!(e.message.contains("this is a number"), "{}", e.message);
    }

    #[test]
    fn comparing_a_phase_with_a_number_is_an_error() {
        let e = compile("phase == 1", &TestEnv, Type::Bool).unwrap_err();
        assert_eq!(e.message, "cannot compare a phase with a number");
    }

    #[test]
    fn unavailable_names_explain_why() {
        let e = compile("target == target", &TestEnv, Type::Bool).unwrap_err();
        assert_eq!(
            e.note.as_deref(),
            Some("`target` exists only in removal rules")
        );
    }

    #[test]
    fn arity_errors_show_the_signature() {
        let e = compile("in_hand(me, me) > 0", &TestEnv, Type::Bool).unwrap_err();
        assert_eq!(e.expected.as_deref(), Some("`in_hand(player)`"));
    }

    #[test]
    fn constant_overflow_is_a_located_error() {
        let e = compile("limit + 9223372036854775800 > 0", &TestEnv, Type::Bool).unwrap_err();
        assert_eq!(
            e.message,
            "`limit + 9223372036854775800` overflows: 9223372036854775850 is outside the range of rule numbers"
        );
        assert_eq!(e.span, Span { start: 0, end: 27 });
        let e = compile("-(0 - 9223372036854775807 - 1)", &TestEnv, Type::Int).unwrap_err();
        assert!(
            e.message.contains("overflows: 9223372036854775808"),
            "{}",
            e.message
        );
        // At the edge, folding is exact.
        assert_eq!(
            compile("0 - 9223372036854775807 - 1", &TestEnv, Type::Int).unwrap(),
            Expr::Const(i64::MIN)
        );
    }

    /// Run-time arithmetic is accepted only when the bounds of the built-in
    /// values prove it stays within i64 (in_hand is 0..=1000 here).
    #[test]
    fn runtime_overflow_is_refused_from_the_bounds() {
        let ok = "in_hand(me) * 9223372036854775 + 7 > 0";
        assert!(compile(ok, &TestEnv, Type::Bool).is_ok());
        let bad = "in_hand(me) * 9223372036854776 > 0";
        let e = compile(bad, &TestEnv, Type::Bool).unwrap_err();
        assert_eq!(
            e.message,
            "`in_hand(me) * 9223372036854776` can overflow: it can reach 9223372036854776000, outside the range of rule numbers"
        );
        assert!(e.note.unwrap().contains("0…1000 and 9223372036854776"));
        let e = compile(
            "-in_hand(me) - 9223372036854775000 < 0",
            &TestEnv,
            Type::Bool,
        )
        .unwrap_err();
        assert!(
            e.message.contains("can reach -9223372036854776000"),
            "{}",
            e.message
        );
    }

    #[test]
    fn conditionals_check_and_fold() {
        // A constant condition folds to the branch it picks.
        assert_eq!(
            compile("if limit > 10 then limit else 0", &TestEnv, Type::Int).unwrap(),
            Expr::Const(50)
        );
        let e = compile("if in_hand(me) > 0 then 1 else 2", &TestEnv, Type::Int).unwrap();
        assert!(matches!(e, Expr::If(_)), "{e:?}");
        // The condition must be a condition, both values one type.
        let e = compile("if in_hand(me) then 1 else 2", &TestEnv, Type::Int).unwrap_err();
        assert_eq!(e.span, Span { start: 3, end: 14 });
        assert_eq!(
            e.message,
            "this is a number, but a condition (true/false) is needed here"
        );
        let src = "if phase == moving then 1 else true";
        let e = compile(src, &TestEnv, Type::Int).unwrap_err();
        assert_eq!(e.span, Span { start: 31, end: 35 });
        assert_eq!(
            e.message,
            "this is a condition (true/false), but the `then` value is a number"
        );
        // A boolean is not a number: `if` yields its branches' type.
        let e = compile("(if true then 1 > 0 else false) + 1", &TestEnv, Type::Int).unwrap_err();
        assert!(e.message.contains("this is a condition"), "{}", e.message);
    }

    /// The interval of an `if` is the union of its branches', so overflow is
    /// proved (or refused) over both.
    #[test]
    fn conditional_bounds_cover_both_branches() {
        let ok =
            "(if in_hand(me) > 3 then in_hand(me) else 0 - in_hand(me)) * 9223372036854775 > 0";
        assert!(compile(ok, &TestEnv, Type::Bool).is_ok());
        let bad = "(if in_hand(me) > 3 then 1 else 0 - in_hand(me)) * 9223372036854776 > 0";
        let e = compile(bad, &TestEnv, Type::Bool).unwrap_err();
        assert!(
            e.message.contains("can reach -9223372036854776000"),
            "{}",
            e.message
        );
    }

    #[test]
    fn min_and_max_take_two_numbers() {
        assert_eq!(
            compile("min(limit, 7)", &TestEnv, Type::Int).unwrap(),
            Expr::Const(7)
        );
        assert_eq!(
            compile("max(limit, 7)", &TestEnv, Type::Int).unwrap(),
            Expr::Const(50)
        );
        let e = compile("min(in_hand(me), 3)", &TestEnv, Type::Int).unwrap();
        assert!(matches!(e, Expr::Bin(BinOp::Min, _, _)), "{e:?}");
        let e = compile("max(in_hand(me))", &TestEnv, Type::Int).unwrap_err();
        assert_eq!(e.message, "`max` takes 2 argument(s), 1 given");
        let e = compile("max(1, phase == moving)", &TestEnv, Type::Int).unwrap_err();
        assert_eq!(e.span, Span { start: 7, end: 22 });
        let e = compile("min + 1", &TestEnv, Type::Int).unwrap_err();
        assert_eq!(e.message, "`min` is a function and needs arguments");
        // Bounds: min(0…1000, 5) is 0…5, so this product is provably safe,
        // and max(0…1000, 5) is 5…1000, so this one is not.
        assert!(compile(
            "min(in_hand(me), 5) * 1844674407370955161 > 0",
            &TestEnv,
            Type::Bool
        )
        .is_ok());
        assert!(compile(
            "max(in_hand(me), 5) * 1844674407370955162 > 0",
            &TestEnv,
            Type::Bool
        )
        .is_err());
    }

    /// At the depth limit every pass (check and fold) runs within it.
    #[test]
    fn deepest_expression_checks_and_folds() {
        // A call is two levels; 98 of them summed and compared: 100.
        let terms = crate::MAX_EXPR_DEPTH - 2;
        let src = format!("{} > 0", vec!["in_hand(me)"; terms].join(" + "));
        assert!(compile(&src, &TestEnv, Type::Bool).is_ok());
        let src = format!("{} > 0", vec!["in_hand(me)"; terms + 1].join(" + "));
        assert!(compile(&src, &TestEnv, Type::Bool).is_err());
        let src = format!("{}1", "-".repeat(crate::MAX_EXPR_DEPTH - 1));
        assert_eq!(compile(&src, &TestEnv, Type::Int).unwrap(), Expr::Const(-1));
    }
}
