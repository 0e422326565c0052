//! Type checking and lowering of the AST to [`Expr`], with constant folding
//! (parameters are constants, so `on_board(me) < min_pieces` becomes a
//! comparison against a literal before the game starts).

use crate::ast::{parse, Ast, BinOp, Span, UnOp};
use crate::DslError;
use std::fmt;

/// The value types of the language. Every value is an `i64` at run time
/// (booleans 0/1, players, points and phases by index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Bool,
    Player,
    Point,
    Phase,
    /// A quoted pattern over the move history, compiled by the environment.
    Pattern,
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Type::Int => "a number",
            Type::Bool => "a condition (true/false)",
            Type::Player => "a player",
            Type::Point => "a point",
            Type::Phase => "a phase",
            Type::Pattern => "a quoted history pattern",
        })
    }
}

/// What a name means in an environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Binding<S> {
    /// A value read from the game state when the expression is evaluated.
    Value { ty: Type, sym: S },
    /// A value fixed before the game starts (parameters, phase and player names).
    Const { ty: Type, value: i64 },
    /// A built-in function of the state.
    Function {
        params: Vec<Type>,
        ret: Type,
        sym: S,
    },
}

/// The names an expression may use. Supplied by the ruleset compiler.
pub trait Env<S> {
    fn lookup(&self, name: &str) -> Option<Binding<S>>;
    /// All names, for "did you mean" suggestions.
    fn names(&self) -> Vec<String>;
    /// Why a name that exists elsewhere is not available here, if it is
    /// (for example `target` outside a removal rule).
    fn unavailable(&self, _name: &str) -> Option<String> {
        None
    }
    /// Compile a quoted pattern; the result is its id in the environment's
    /// table. `span` locates the pattern text for errors.
    fn pattern(&self, _text: &str, span: Span) -> Result<i64, DslError> {
        Err(
            DslError::new(span, "history patterns cannot be used in this ruleset")
                .expected("a number, name or call"),
        )
    }
}

/// A checked expression over the environment's symbols `S`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr<S> {
    Const(i64),
    Var(S),
    Call(S, Box<[Expr<S>]>),
    Not(Box<Expr<S>>),
    Neg(Box<Expr<S>>),
    Bin(BinOp, Box<Expr<S>>, Box<Expr<S>>),
}

impl<S> Expr<S> {
    pub fn as_const(&self) -> Option<i64> {
        match self {
            Expr::Const(v) => Some(*v),
            _ => None,
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
        }
    }
}

/// Parse and check `src`, which must have type `want`.
pub fn compile<S: Copy>(src: &str, env: &impl Env<S>, want: Type) -> Result<Expr<S>, DslError> {
    let ast = parse(src)?;
    let (expr, ty) = check(&ast, env)?;
    if ty != want {
        return Err(DslError::new(
            ast.span(),
            format!("this is {ty}, but {want} is needed here"),
        )
        .expected(want.to_string()));
    }
    Ok(expr)
}

fn check<S: Copy>(ast: &Ast, env: &impl Env<S>) -> Result<(Expr<S>, Type), DslError> {
    match ast {
        Ast::Int(n, _) => Ok((Expr::Const(*n), Type::Int)),
        Ast::Bool(b, _) => Ok((Expr::Const(*b as i64), Type::Bool)),
        Ast::Str(text, span) => Ok((Expr::Const(env.pattern(text, *span)?), Type::Pattern)),
        Ast::Ident(name, span) => match resolve(name, *span, env)? {
            Binding::Value { ty, sym } => Ok((Expr::Var(sym), ty)),
            Binding::Const { ty, value } => Ok((Expr::Const(value), ty)),
            Binding::Function { params, .. } => Err(DslError::new(
                *span,
                format!("`{name}` is a function and needs arguments"),
            )
            .expected(format!("`{name}({})`", list(&params)))),
        },
        Ast::Call {
            name,
            name_span,
            args,
            span,
        } => {
            let Binding::Function { params, ret, sym } = resolve(name, *name_span, env)? else {
                return Err(
                    DslError::new(*name_span, format!("`{name}` is not a function"))
                        .expected("a name without `(…)`"),
                );
            };
            if params.len() != args.len() {
                return Err(DslError::new(
                    *span,
                    format!(
                        "`{name}` takes {} argument(s), {} given",
                        params.len(),
                        args.len()
                    ),
                )
                .expected(format!("`{name}({})`", list(&params))));
            }
            let mut checked = Vec::with_capacity(args.len());
            for (arg, want) in args.iter().zip(&params) {
                let (e, ty) = check(arg, env)?;
                if ty != *want {
                    return Err(mismatch(arg.span(), *want, ty)
                        .note(format!("`{name}` takes ({})", list(&params))));
                }
                checked.push(e);
            }
            Ok((Expr::Call(sym, checked.into()), ret))
        }
        Ast::Unary(op, inner, _) => {
            let (e, ty) = check(inner, env)?;
            let want = if *op == UnOp::Not {
                Type::Bool
            } else {
                Type::Int
            };
            if ty != want {
                return Err(mismatch(inner.span(), want, ty));
            }
            Ok(match (op, e.as_const()) {
                (UnOp::Not, Some(v)) => (Expr::Const((v == 0) as i64), ty),
                (UnOp::Neg, Some(v)) => (Expr::Const(v.wrapping_neg()), ty),
                (UnOp::Not, None) => (Expr::Not(Box::new(e)), ty),
                (UnOp::Neg, None) => (Expr::Neg(Box::new(e)), ty),
            })
        }
        Ast::Binary(op, l, r, span) => binary(*op, l, r, *span, env),
    }
}

fn binary<S: Copy>(
    op: BinOp,
    l: &Ast,
    r: &Ast,
    span: Span,
    env: &impl Env<S>,
) -> Result<(Expr<S>, Type), DslError> {
    let (le, lt) = check(l, env)?;
    let (re, rt) = check(r, env)?;
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
        BinOp::Add | BinOp::Sub | BinOp::Mul => {
            expect(l, lt, Type::Int)?;
            expect(r, rt, Type::Int)?;
            Type::Int
        }
    };
    if let (Some(a), Some(b)) = (le.as_const(), re.as_const()) {
        return Ok((Expr::Const(fold(op, a, b)), result));
    }
    Ok((Expr::Bin(op, Box::new(le), Box::new(re)), result))
}

/// The meaning of every binary operator on values; the engine uses it too.
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
        .expected("a parameter, phase, player or built-in name");
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
            Type::Pattern => "'pattern'",
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
}
