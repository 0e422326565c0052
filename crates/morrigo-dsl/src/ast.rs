//! Parsing with pest into a small AST that keeps byte spans for errors.

use crate::{DslError, MAX_EXPR_DEPTH, MAX_EXPR_LEN};
use pest::iterators::{Pair, Pairs};
use pest::Parser;

#[derive(pest_derive::Parser)]
#[grammar = "../../../grammar/expr.pest"]
struct ExprParser;

/// Byte range inside the expression text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset just past the last byte.
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

/// A binary operator: an infix operator, or `min`/`max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `a or b`: true if either condition holds.
    Or,
    /// `a and b`: true if both conditions hold.
    And,
    /// `a == b`: two values of one type are equal.
    Eq,
    /// `a != b`: two values of one type differ.
    Ne,
    /// `a < b`, on numbers.
    Lt,
    /// `a <= b`, on numbers.
    Le,
    /// `a > b`, on numbers.
    Gt,
    /// `a >= b`, on numbers.
    Ge,
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `min(a, b)`: written as a call, checked and evaluated as an operator.
    Min,
    /// `max(a, b)`.
    Max,
}

impl BinOp {
    /// The operator as written in an expression (`==`, `and`, `min`, …),
    /// for messages.
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
            BinOp::Min => "min",
            BinOp::Max => "max",
        }
    }
}

/// A prefix operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `not c`: the negation of a condition.
    Not,
    /// `-n`: the negation of a number.
    Neg,
}

/// A parsed expression, not yet type-checked. Every node keeps the span of
/// its text, so the checker's errors can point at it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ast {
    /// An integer literal.
    Int(i64, Span),
    /// `true` or `false`.
    Bool(bool, Span),
    /// A bare name, given its meaning by the environment when checked.
    Ident(String, Span),
    /// A quoted string; `Span` covers its content, without the quotes.
    Str(String, Span),
    /// `name(arg, …)`: a function of the environment, or `min`/`max`.
    Call {
        /// The function's name.
        name: String,
        /// Where the name is written: errors about the function point here.
        name_span: Span,
        /// The arguments, in order.
        args: Vec<Ast>,
        /// The whole call, from the name to the closing parenthesis.
        span: Span,
    },
    /// A prefix operator and its operand.
    Unary(UnOp, Box<Ast>, Span),
    /// An infix operator and its left and right operands.
    Binary(BinOp, Box<Ast>, Box<Ast>, Span),
    /// `if cond then a else b`: condition, then-value, else-value.
    If(Box<[Ast; 3]>, Span),
}

impl Ast {
    /// Where the node's text is (for [`Ast::Str`], its content without
    /// the quotes).
    pub fn span(&self) -> Span {
        match self {
            Ast::Int(_, s) | Ast::Bool(_, s) | Ast::Ident(_, s) | Ast::Str(_, s) => *s,
            Ast::Call { span, .. }
            | Ast::Unary(_, _, span)
            | Ast::Binary(_, _, _, span)
            | Ast::If(_, span) => *span,
        }
    }
}

/// Binding power of a prefix operator (as in pest's Pratt parser: looser
/// operators first; `not` binds looser than comparisons, `-` tightest).
fn prefix_op(rule: Rule) -> Option<(UnOp, u8)> {
    match rule {
        Rule::not => Some((UnOp::Not, 4)),
        Rule::neg => Some((UnOp::Neg, 8)),
        _ => None,
    }
}

/// Binding power of an infix operator; all are left-associative.
fn infix_op(rule: Rule) -> (BinOp, u8) {
    match rule {
        Rule::or => (BinOp::Or, 2),
        Rule::and => (BinOp::And, 3),
        Rule::eq => (BinOp::Eq, 5),
        Rule::ne => (BinOp::Ne, 5),
        Rule::lt => (BinOp::Lt, 5),
        Rule::le => (BinOp::Le, 5),
        Rule::gt => (BinOp::Gt, 5),
        Rule::ge => (BinOp::Ge, 5),
        Rule::add => (BinOp::Add, 6),
        Rule::sub => (BinOp::Sub, 6),
        Rule::mul => (BinOp::Mul, 7),
        other => unreachable!("grammar: {other:?} is not an operator"),
    }
}

/// Parse one expression. Its size and parenthesis nesting are checked
/// before pest runs (pest's parser recurses once per parenthesis).
pub fn parse(src: &str) -> Result<Ast, DslError> {
    prescan(src)?;
    let mut pairs = ExprParser::parse(Rule::expression, src).map_err(|e| syntax_error(src, e))?;
    let expression = pairs.next().expect("grammar: expression has one pair");
    let expr = expression
        .into_inner()
        .next()
        .expect("grammar: expression holds expr");
    Ok(build(expr.into_inner())?.0)
}

/// Refuse texts over [`MAX_EXPR_LEN`] bytes or with parentheses nested
/// deeper than [`MAX_EXPR_DEPTH`] (quoted patterns are checked by their own
/// compiler).
fn prescan(src: &str) -> Result<(), DslError> {
    if src.len() > MAX_EXPR_LEN {
        let mut at = MAX_EXPR_LEN;
        while !src.is_char_boundary(at) {
            at -= 1;
        }
        return Err(DslError::new(
            Span {
                start: at,
                end: at + 1,
            },
            format!(
                "expression too long: {} bytes, over the expression length limit of {MAX_EXPR_LEN} bytes",
                src.len()
            ),
        )
        .expected("a shorter expression (name repeated parts with `params` or split the rule)"));
    }
    let mut depth = 0;
    let mut quoted = false;
    for (i, b) in src.bytes().enumerate() {
        match b {
            b'\'' => quoted = !quoted,
            b'(' if !quoted => {
                depth += 1;
                if depth > MAX_EXPR_DEPTH {
                    return Err(too_deep(Span {
                        start: i,
                        end: i + 1,
                    }));
                }
            }
            b')' if !quoted => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn too_deep(span: Span) -> DslError {
    DslError::new(
        span,
        format!(
            "expression nested too deeply: over the expression depth limit of {MAX_EXPR_DEPTH} levels"
        ),
    )
    .expected("fewer nested parentheses, calls and chained operators")
    .note("each parenthesis, call, operator or `not`/`-` in a chain counts as one level")
}

/// A built node and the depth of its tree.
type Built = (Ast, usize);

/// One more level above `depth`, within [`MAX_EXPR_DEPTH`]. Every later
/// pass over the tree recurses at most this deep.
fn level(depth: usize, at: Span) -> Result<usize, DslError> {
    if depth >= MAX_EXPR_DEPTH {
        return Err(too_deep(at));
    }
    Ok(depth + 1)
}

/// Operator-precedence parsing of one `expr` level (a flat list of
/// prefixes, operands and infixes). It follows pest's Pratt parser exactly,
/// with an explicit stack instead of recursion, so a long chain of
/// operators cannot exhaust the call stack; only parenthesised operands
/// recurse, at most [`MAX_EXPR_DEPTH`] deep.
fn build(pairs: Pairs<'_, Rule>) -> Result<Built, DslError> {
    enum Pending {
        Prefix(UnOp, Span),
        Infix(Built, BinOp, Span),
    }
    let mut pairs = pairs.peekable();
    // Each entry: the binding power to restore, and the operator waiting
    // for its right operand.
    let mut stack: Vec<(u8, Pending)> = Vec::new();
    let mut rbp = 0u8;
    loop {
        // Prefixes, then an operand.
        let mut lhs = loop {
            let pair = pairs.next().expect("grammar: an operand follows");
            match prefix_op(pair.as_rule()) {
                Some((op, power)) => {
                    stack.push((rbp, Pending::Prefix(op, Span::of(&pair))));
                    rbp = power - 1;
                }
                None => break primary(pair)?,
            }
        };
        // Infixes binding tighter than `rbp` start a right operand; when
        // none does, the innermost pending operator takes `lhs`.
        loop {
            let next = pairs.peek().map(|p| infix_op(p.as_rule()));
            match next {
                Some((op, power)) if rbp < power => {
                    let pair = pairs.next().expect("peeked");
                    stack.push((rbp, Pending::Infix(lhs, op, Span::of(&pair))));
                    rbp = power;
                    break;
                }
                _ => {
                    let Some((outer, pending)) = stack.pop() else {
                        return Ok(lhs);
                    };
                    let (rhs, rd) = lhs;
                    lhs = match pending {
                        Pending::Prefix(op, at) => {
                            let span = Span::join(at, rhs.span());
                            (Ast::Unary(op, Box::new(rhs), span), level(rd, at)?)
                        }
                        Pending::Infix((l, ld), op, at) => {
                            let span = Span::join(l.span(), rhs.span());
                            let depth = level(ld.max(rd), at)?;
                            (Ast::Binary(op, Box::new(l), Box::new(rhs), span), depth)
                        }
                    };
                    rbp = outer;
                }
            }
        }
    }
}

fn primary(pair: Pair<'_, Rule>) -> Result<Built, DslError> {
    let span = Span::of(&pair);
    let leaf = match pair.as_rule() {
        Rule::int => pair
            .as_str()
            .parse()
            .map(|n| Ast::Int(n, span))
            .map_err(|_| {
                DslError::new(span, "number too large").expected("an integer below 2^63")
            })?,
        Rule::boolean => Ast::Bool(pair.as_str() == "true", span),
        Rule::ident => Ast::Ident(pair.as_str().to_string(), span),
        Rule::string => {
            let inner = pair
                .into_inner()
                .next()
                .expect("grammar: string holds str_in");
            Ast::Str(inner.as_str().to_string(), Span::of(&inner))
        }
        Rule::call => {
            let mut inner = pair.into_inner();
            let name = inner.next().expect("grammar: call starts with ident");
            let name_span = Span::of(&name);
            let mut args = Vec::new();
            let mut depth = 0;
            for a in inner {
                let (arg, d) = build(a.into_inner())?;
                depth = depth.max(d);
                args.push(arg);
            }
            let call = Ast::Call {
                name: name.as_str().to_string(),
                name_span,
                args,
                span,
            };
            return Ok((call, level(depth, name_span)?));
        }
        Rule::cond => {
            let mut parts = Vec::with_capacity(3);
            let mut depth = 0;
            let mut at = span;
            for p in pair.into_inner() {
                match p.as_rule() {
                    Rule::kw_if => at = Span::of(&p),
                    Rule::expr => {
                        let (e, d) = build(p.into_inner())?;
                        depth = depth.max(d);
                        parts.push(e);
                    }
                    _ => {}
                }
            }
            let [c, a, b]: [Ast; 3] = parts
                .try_into()
                .expect("grammar: if holds three expressions");
            return Ok((Ast::If(Box::new([c, a, b]), span), level(depth, at)?));
        }
        Rule::expr => return build(pair.into_inner()),
        other => unreachable!("grammar: unexpected primary {other:?}"),
    };
    Ok((leaf, 1))
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
            | Rule::neg
            | Rule::cond
            | Rule::kw_if => "a value (number, true/false, name, call, `if` or `(`)",
            Rule::kw_then => "`then`",
            Rule::kw_else => "`else`",
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
            Ast::If(p, _) => format!(
                "(if {} then {} else {})",
                show(&p[0]),
                show(&p[1]),
                show(&p[2])
            ),
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

    /// The length limit: `MAX_EXPR_LEN` bytes parse, one more is refused at
    /// the first byte past the limit, before pest runs.
    #[test]
    fn length_limit_at_and_past() {
        let at = format!("x{}", " ".repeat(MAX_EXPR_LEN - 1));
        assert!(parse(&at).is_ok());
        let past = format!("{at} ");
        let e = parse(&past).unwrap_err();
        assert_eq!(e.span.start, MAX_EXPR_LEN);
        assert!(
            e.message.contains("expression length limit of 4096 bytes"),
            "{}",
            e.message
        );
    }

    fn depth_error(src: &str) -> Option<usize> {
        match parse(src) {
            Ok(_) => None,
            Err(e) => {
                assert!(
                    e.message.contains("expression depth limit of 100 levels"),
                    "{}",
                    e.message
                );
                Some(e.span.start)
            }
        }
    }

    #[test]
    fn parenthesis_depth_at_and_past_the_limit() {
        let nest = |n: usize| format!("{}x{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(depth_error(&nest(MAX_EXPR_DEPTH)), None);
        assert_eq!(depth_error(&nest(MAX_EXPR_DEPTH + 1)), Some(MAX_EXPR_DEPTH));
        // Parentheses inside a quoted pattern are the pattern's business.
        let quoted = format!("after('{}E{}')", "(".repeat(200), ")".repeat(200));
        assert_eq!(depth_error(&quoted), None);
    }

    #[test]
    fn operator_chain_depth_at_and_past_the_limit() {
        // n terms joined by `+` make a tree n levels deep.
        let sum = |n: usize| vec!["x"; n].join("+");
        assert_eq!(depth_error(&sum(MAX_EXPR_DEPTH)), None);
        // The error is at the `+` that adds the 101st level.
        assert_eq!(
            depth_error(&sum(MAX_EXPR_DEPTH + 1)),
            Some(2 * MAX_EXPR_DEPTH - 1)
        );
        let neg = |n: usize| format!("{}x", "-".repeat(n));
        assert_eq!(depth_error(&neg(MAX_EXPR_DEPTH - 1)), None);
        assert_eq!(depth_error(&neg(MAX_EXPR_DEPTH)), Some(0));
        let calls = |n: usize| format!("{}x{}", "f(".repeat(n), ")".repeat(n));
        assert_eq!(depth_error(&calls(MAX_EXPR_DEPTH - 1)), None);
        assert!(depth_error(&calls(MAX_EXPR_DEPTH)).is_some());
    }

    /// `if … then … else …` is an operand; its `else` part extends as far
    /// right as it can, and `if`/`then`/`else` are keywords.
    #[test]
    fn conditionals_parse_as_operands() {
        assert_eq!(
            show(&parse("1 + if a then b else c * 2").unwrap()),
            "(1 + (if a then b else (c * 2)))"
        );
        assert_eq!(
            show(&parse("(if a and b then 1 else 2) > x").unwrap()),
            "((if (a and b) then 1 else 2) > x)"
        );
        assert_eq!(
            show(&parse("if a then if b then 1 else 2 else 3").unwrap()),
            "(if a then (if b then 1 else 2) else 3)"
        );
        assert_eq!(
            show(&parse("iffy + elsewhere").unwrap()),
            "(iffy + elsewhere)"
        );
        assert!(parse("then").is_err());
    }

    /// An `if` without `else` is refused at the end, saying `else` is missing.
    #[test]
    fn if_without_else_is_located() {
        let src = "if x then 1";
        let e = parse(src).unwrap_err();
        assert_eq!(e.span.start, src.len());
        assert!(e.expected.as_deref().unwrap().contains("`else`"), "{e:?}");
        let e = parse("if x 1 else 2").unwrap_err();
        assert_eq!(e.span.start, 5);
        assert!(e.expected.as_deref().unwrap().contains("`then`"), "{e:?}");
    }

    /// The explicit-stack parser keeps pest's Pratt semantics: `not` is
    /// looser than comparisons, `-` tightest, all infixes left-associative.
    #[test]
    fn prefixes_bind_as_before() {
        assert_eq!(
            show(&parse("not a == b and c").unwrap()),
            "((not (a == b)) and c)"
        );
        assert_eq!(
            show(&parse("- - a * b - c").unwrap()),
            "(((-(-a)) * b) - c)"
        );
        assert_eq!(show(&parse("a - b - c").unwrap()), "((a - b) - c)");
        assert_eq!(
            show(&parse("a or not b or c").unwrap()),
            "((a or (not b)) or c)"
        );
        assert_eq!(show(&parse("a == not b").unwrap()), "(a == (not b))");
        assert_eq!(show(&parse("a * -(b + c)").unwrap()), "(a * (-(b + c)))");
    }
}
