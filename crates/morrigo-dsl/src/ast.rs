//! Parsing with pest into a small AST that keeps byte spans for errors.

use crate::DslError;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;
use std::sync::OnceLock;

#[derive(pest_derive::Parser)]
#[grammar = "../../../grammar/expr.pest"]
struct ExprParser;

/// Byte range inside the expression text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    fn of(pair: &Pair<'_, Rule>) -> Span {
        let s = pair.as_span();
        Span {
            start: s.start(),
            end: s.end(),
        }
    }

    fn join(a: Span, b: Span) -> Span {
        Span {
            start: a.start.min(b.start),
            end: a.end.max(b.end),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ast {
    Int(i64, Span),
    Bool(bool, Span),
    Ident(String, Span),
    /// A quoted string; `Span` covers its content, without the quotes.
    Str(String, Span),
    Call {
        name: String,
        name_span: Span,
        args: Vec<Ast>,
        span: Span,
    },
    Unary(UnOp, Box<Ast>, Span),
    Binary(BinOp, Box<Ast>, Box<Ast>, Span),
}

impl Ast {
    pub fn span(&self) -> Span {
        match self {
            Ast::Int(_, s) | Ast::Bool(_, s) | Ast::Ident(_, s) | Ast::Str(_, s) => *s,
            Ast::Call { span, .. } | Ast::Unary(_, _, span) | Ast::Binary(_, _, _, span) => *span,
        }
    }
}

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or, Assoc::Left))
            .op(Op::infix(Rule::and, Assoc::Left))
            .op(Op::prefix(Rule::not))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left))
            .op(Op::prefix(Rule::neg))
    })
}

/// Parse one expression.
pub fn parse(src: &str) -> Result<Ast, DslError> {
    let mut pairs = ExprParser::parse(Rule::expression, src).map_err(|e| syntax_error(src, e))?;
    let expression = pairs.next().expect("grammar: expression has one pair");
    let expr = expression
        .into_inner()
        .next()
        .expect("grammar: expression holds expr");
    build(expr.into_inner())
}

fn build(pairs: Pairs<'_, Rule>) -> Result<Ast, DslError> {
    pratt()
        .map_primary(primary)
        .map_prefix(|op, rhs| {
            let rhs = rhs?;
            let span = Span::join(Span::of(&op), rhs.span());
            let op = if op.as_rule() == Rule::not {
                UnOp::Not
            } else {
                UnOp::Neg
            };
            Ok(Ast::Unary(op, Box::new(rhs), span))
        })
        .map_infix(|lhs, op, rhs| {
            let (lhs, rhs) = (lhs?, rhs?);
            let span = Span::join(lhs.span(), rhs.span());
            let op = match op.as_rule() {
                Rule::or => BinOp::Or,
                Rule::and => BinOp::And,
                Rule::eq => BinOp::Eq,
                Rule::ne => BinOp::Ne,
                Rule::lt => BinOp::Lt,
                Rule::le => BinOp::Le,
                Rule::gt => BinOp::Gt,
                Rule::ge => BinOp::Ge,
                Rule::add => BinOp::Add,
                Rule::sub => BinOp::Sub,
                _ => BinOp::Mul,
            };
            Ok(Ast::Binary(op, Box::new(lhs), Box::new(rhs), span))
        })
        .parse(pairs)
}

fn primary(pair: Pair<'_, Rule>) -> Result<Ast, DslError> {
    let span = Span::of(&pair);
    match pair.as_rule() {
        Rule::int => pair
            .as_str()
            .parse()
            .map(|n| Ast::Int(n, span))
            .map_err(|_| DslError::new(span, "number too large").expected("an integer below 2^63")),
        Rule::boolean => Ok(Ast::Bool(pair.as_str() == "true", span)),
        Rule::ident => Ok(Ast::Ident(pair.as_str().to_string(), span)),
        Rule::string => {
            let inner = pair
                .into_inner()
                .next()
                .expect("grammar: string holds str_in");
            Ok(Ast::Str(inner.as_str().to_string(), Span::of(&inner)))
        }
        Rule::call => {
            let mut inner = pair.into_inner();
            let name = inner.next().expect("grammar: call starts with ident");
            let args = inner
                .map(|a| build(a.into_inner()))
                .collect::<Result<_, _>>()?;
            Ok(Ast::Call {
                name: name.as_str().to_string(),
                name_span: Span::of(&name),
                args,
                span,
            })
        }
        Rule::expr => build(pair.into_inner()),
        other => unreachable!("grammar: unexpected primary {other:?}"),
    }
}

fn syntax_error(src: &str, e: pest::error::Error<Rule>) -> DslError {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let found = src[pos..]
        .split_whitespace()
        .next()
        .map_or("the end of the expression".to_string(), |t| {
            format!("`{t}`")
        });
    let expected = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => describe(positives),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    DslError::new(
        Span {
            start: pos,
            end: (pos + 1).min(src.len()).max(pos),
        },
        format!("syntax error: unexpected {found}"),
    )
    .expected(expected)
}

/// Turn pest's rule list into words a rule author understands.
fn describe(rules: &[Rule]) -> String {
    let mut words: Vec<&str> = Vec::new();
    for r in rules {
        let w = match r {
            Rule::expr
            | Rule::int
            | Rule::boolean
            | Rule::ident
            | Rule::call
            | Rule::not
            | Rule::neg => "a value (number, true/false, name, call or `(`)",
            Rule::or | Rule::and => "`and`/`or`",
            Rule::eq | Rule::ne | Rule::lt | Rule::le | Rule::gt | Rule::ge => {
                "a comparison (== != < <= > >=)"
            }
            Rule::add | Rule::sub | Rule::mul => "an operator (+ - *)",
            Rule::EOI => "the end of the expression",
            _ => continue,
        };
        if !words.contains(&w) {
            words.push(w);
        }
    }
    if words.is_empty() {
        "a well-formed expression".into()
    } else {
        words.join(" or ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(a: &Ast) -> String {
        match a {
            Ast::Int(n, _) => n.to_string(),
            Ast::Bool(b, _) => b.to_string(),
            Ast::Ident(s, _) => s.clone(),
            Ast::Str(s, _) => format!("'{s}'"),
            Ast::Call { name, args, .. } => {
                format!(
                    "{name}({})",
                    args.iter().map(show).collect::<Vec<_>>().join(", ")
                )
            }
            Ast::Unary(UnOp::Not, e, _) => format!("(not {})", show(e)),
            Ast::Unary(UnOp::Neg, e, _) => format!("(-{})", show(e)),
            Ast::Binary(op, l, r, _) => format!("({} {} {})", show(l), op.symbol(), show(r)),
        }
    }

    #[test]
    fn precedence_binds_comparison_tighter_than_and() {
        let a = parse("phase == moving and on_board(me) < 3 or not x").unwrap();
        assert_eq!(
            show(&a),
            "(((phase == moving) and (on_board(me) < 3)) or (not x))"
        );
    }

    #[test]
    fn arithmetic_binds_tighter_than_comparison() {
        let a = parse("a + 2 * b >= -c - 1").unwrap();
        assert_eq!(show(&a), "((a + (2 * b)) >= ((-c) - 1))");
    }

    #[test]
    fn keywords_are_not_identifiers_but_prefixes_are() {
        assert_eq!(
            show(&parse("order and notable").unwrap()),
            "(order and notable)"
        );
        assert!(parse("and").is_err());
    }

    #[test]
    fn quoted_patterns_are_string_arguments() {
        let a = parse("after('E E | E C C E') and x").unwrap();
        assert_eq!(show(&a), "(after('E E | E C C E') and x)");
        let Ast::Binary(_, call, _, _) = a else {
            panic!()
        };
        let Ast::Call { args, .. } = *call else {
            panic!()
        };
        assert_eq!(args[0].span(), Span { start: 7, end: 20 });
    }

    #[test]
    fn spans_cover_the_source_text() {
        let src = "in_hand(me) > 0";
        let a = parse(src).unwrap();
        assert_eq!(
            a.span(),
            Span {
                start: 0,
                end: src.len()
            }
        );
    }

    #[test]
    fn syntax_error_points_at_the_bad_token() {
        let e = parse("on_board(me) < < 3").unwrap_err();
        assert_eq!(e.span.start, 15);
        assert!(e.message.contains("`<`"), "{}", e.message);
        assert!(e.expected.unwrap().contains("value"));
    }

    #[test]
    fn unclosed_call_is_reported_at_the_end() {
        let e = parse("in_hand(me").unwrap_err();
        assert_eq!(e.span.start, 10);
        assert!(e.message.contains("end of the expression"));
    }
}
