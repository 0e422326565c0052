//! Patterns over a history of move classes (`"E C C E"`, `"D P (C C){0,2}"`),
//! compiled to a small NFA program and matched against the *end* of the
//! history by a memoised backtracker, so each (instruction, position) pair is
//! visited at most once per match.
//!
//! Classes are single upper-case letters, all declared by the ruleset: the
//! language itself knows none. A *plain* class matches one move of that
//! class; a *derived* class matches a run of moves that the history
//! recognises (in JK rules, `D`: a run of ko captures whose last takes the
//! stone placed by the first), reported through [`History::derived_start`].

use crate::ast::Span;
use crate::{DslError, MAX_PATTERN_DEPTH, MAX_PATTERN_SIZE, MAX_REPEAT};
use pest::iterators::Pair;
use pest::Parser;

use parser::PatternParser;
pub use parser::Rule;

/// The pest parser of `grammar/pattern.pest`. In a module of its own so that
/// allowing `missing_docs` covers only what pest generates: the public
/// `Rule` enum and its `all_rules`, which pest emits without docs.
#[allow(missing_docs)]
mod parser {
    #[derive(pest_derive::Parser)]
    #[grammar = "../../../grammar/pattern.pest"]
    pub(super) struct PatternParser;
}

/// What a pattern reads: the classes of the moves so far, oldest first.
pub trait History {
    /// Number of moves so far.
    fn len(&self) -> usize;
    /// Whether no move has been made yet.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Class letter of move `i`.
    fn class(&self, i: usize) -> u8;
    /// If moves `start..=i` form a run of derived class number `k` (its
    /// index in the letters given to [`Pattern::compile`]) ending at move
    /// `i`, `Some(start)`.
    fn derived_start(&self, k: usize, i: usize) -> Option<usize>;
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    Class(u8),
    Any,
    /// A derived class, by index.
    Derived(usize),
    Seq(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Box<Node>, u32, Option<u32>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Inst {
    Class(u8),
    Any,
    Derived(usize),
    /// Try `.0` first, then `.1`.
    Split(usize, usize),
    Jump(usize),
    Match,
}

/// A compiled pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    text: String,
    /// Program over the *reversed* pattern: it consumes the history backwards.
    prog: Vec<Inst>,
    /// The longest history suffix the pattern can need, if bounded (and no
    /// derived class).
    pub max_len: Option<usize>,
}

/// The matcher's buffers: visited (instruction, position) bits and the stack.
type Scratch = (Vec<u64>, Vec<(usize, usize)>);

thread_local! {
    /// Matcher buffers, reused by every match on this thread.
    static SCRATCH: std::cell::RefCell<Scratch> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

impl Pattern {
    /// Parse `text`. `classes` lists the plain class letters, `derived` the
    /// derived ones, both as the ruleset declares them.
    pub fn compile(text: &str, classes: &[u8], derived: &[u8]) -> Result<Pattern, DslError> {
        prescan(text)?;
        let mut pairs =
            PatternParser::parse(Rule::pattern, text).map_err(|e| syntax_error(text, e))?;
        let alt = pairs
            .next()
            .and_then(|p| p.into_inner().next())
            .expect("grammar: pattern holds alt");
        let node = build(alt, classes, derived)?;
        // Counted repeats multiply: size the program before building it.
        let steps = size(&node).saturating_add(1);
        if steps > MAX_PATTERN_SIZE as u64 {
            return Err(DslError::new(
                Span {
                    start: 0,
                    end: text.len(),
                },
                format!(
                    "pattern too large: it needs {steps} matcher steps, over the pattern size limit of {MAX_PATTERN_SIZE}"
                ),
            )
            .expected("smaller repetition counts (nested `{m,n}` multiply)"));
        }
        let max_len = bound(&node);
        let mut prog = Vec::new();
        emit_rev(&node, &mut prog);
        prog.push(Inst::Match);
        Ok(Pattern {
            text: text.to_string(),
            prog,
            max_len,
        })
    }

    /// The text the pattern was compiled from.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Does the history end with a match of the pattern?
    pub fn matches_end(&self, h: &impl History) -> bool {
        self.matches_suffix_of(h, h.len())
    }

    /// Does the prefix `0..end` of the history end with a match?
    pub fn matches_suffix_of(&self, h: &impl History, end: usize) -> bool {
        SCRATCH.with(|scratch| {
            let (seen, stack) = &mut *scratch.borrow_mut();
            self.run(h, end, seen, stack)
        })
    }

    fn run(
        &self,
        h: &impl History,
        end: usize,
        seen: &mut Vec<u64>,
        stack: &mut Vec<(usize, usize)>,
    ) -> bool {
        // Visited (pc, pos) pairs, so each is explored once: linear time.
        // The buffers are reused across calls: no allocation once warm.
        // A bounded pattern never reads further back than its longest match.
        let lowest = self.max_len.map_or(0, |k| end.saturating_sub(k));
        let width = end - lowest + 1;
        seen.clear();
        seen.resize((self.prog.len() * width).div_ceil(64), 0);
        stack.clear();
        stack.push((0, end));
        while let Some((pc, pos)) = stack.pop() {
            let key = pc * width + (pos - lowest);
            if seen[key / 64] >> (key % 64) & 1 == 1 {
                continue;
            }
            seen[key / 64] |= 1 << (key % 64);
            match self.prog[pc] {
                Inst::Match => return true,
                Inst::Class(c) => {
                    if pos > 0 && h.class(pos - 1) == c {
                        stack.push((pc + 1, pos - 1));
                    }
                }
                Inst::Any => {
                    if pos > 0 {
                        stack.push((pc + 1, pos - 1));
                    }
                }
                Inst::Derived(k) => {
                    if pos > 0 {
                        if let Some(start) = h.derived_start(k, pos - 1) {
                            stack.push((pc + 1, start));
                        }
                    }
                }
                Inst::Split(a, b) => {
                    stack.push((b, pos));
                    stack.push((a, pos));
                }
                Inst::Jump(t) => stack.push((t, pos)),
            }
        }
        false
    }
}

fn build(pair: Pair<'_, Rule>, classes: &[u8], derived: &[u8]) -> Result<Node, DslError> {
    let span = pair.as_span();
    match pair.as_rule() {
        Rule::alt => {
            let mut alts: Vec<Node> = pair
                .into_inner()
                .map(|p| build(p, classes, derived))
                .collect::<Result<_, _>>()?;
            Ok(if alts.len() == 1 {
                alts.remove(0)
            } else {
                Node::Alt(alts)
            })
        }
        Rule::seq => {
            let mut items: Vec<Node> = pair
                .into_inner()
                .map(|p| build(p, classes, derived))
                .collect::<Result<_, _>>()?;
            Ok(if items.len() == 1 {
                items.remove(0)
            } else {
                Node::Seq(items)
            })
        }
        Rule::item => {
            let mut inner = pair.into_inner();
            let atom = build(
                inner.next().expect("grammar: item has an atom"),
                classes,
                derived,
            )?;
            match inner.next() {
                None => Ok(atom),
                Some(q) => quantify(atom, q),
            }
        }
        Rule::class => {
            let c = pair.as_str().as_bytes()[0];
            if let Some(k) = derived.iter().position(|&d| d == c) {
                return Ok(Node::Derived(k));
            }
            if classes.contains(&c) {
                return Ok(Node::Class(c));
            }
            let known: Vec<String> = classes
                .iter()
                .chain(derived)
                .map(|c| (*c as char).to_string())
                .collect();
            Err(DslError::new(
                Span {
                    start: span.start(),
                    end: span.end(),
                },
                format!("unknown move class `{}`", c as char),
            )
            .expected(format!("one of {}", known.join(", "))))
        }
        Rule::any => Ok(Node::Any),
        other => unreachable!("grammar: unexpected {other:?}"),
    }
}

fn quantify(atom: Node, q: Pair<'_, Rule>) -> Result<Node, DslError> {
    let span = Span {
        start: q.as_span().start(),
        end: q.as_span().end(),
    };
    let inner = q.into_inner().next().expect("grammar: quant has a kind");
    let (min, max) = match inner.as_rule() {
        Rule::star => (0, None),
        Rule::plus => (1, None),
        Rule::opt => (0, Some(1)),
        _ => {
            let mut parts = inner.into_inner();
            let num = |p: Pair<'_, Rule>| {
                p.as_str()
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n <= MAX_REPEAT)
                    .ok_or_else(|| {
                        DslError::new(span, "repetition count too large")
                            .expected(format!("at most {MAX_REPEAT}"))
                    })
            };
            let min = num(parts.next().expect("grammar: range has a minimum"))?;
            match (parts.next(), parts.next()) {
                (None, _) => (min, Some(min)),
                (Some(_comma), None) => (min, None),
                (Some(_comma), Some(max)) => {
                    let max = num(max)?;
                    if max < min {
                        return Err(DslError::new(
                            span,
                            format!("repetition {{{min},{max}}} has its maximum below its minimum"),
                        )
                        .expected("{min,max} with min ≤ max"));
                    }
                    (min, Some(max))
                }
            }
        }
    };
    Ok(Node::Repeat(Box::new(atom), min, max))
}

/// Refuse parentheses nested deeper than [`MAX_PATTERN_DEPTH`] before pest
/// (whose parser, like `build`, recurses once per parenthesis).
fn prescan(text: &str) -> Result<(), DslError> {
    let mut depth = 0;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' => {
                depth += 1;
                if depth > MAX_PATTERN_DEPTH {
                    return Err(DslError::new(
                        Span {
                            start: i,
                            end: i + 1,
                        },
                        format!(
                            "pattern nested too deeply: over the pattern depth limit of {MAX_PATTERN_DEPTH} parentheses"
                        ),
                    )
                    .expected("fewer nested `( … )`"));
                }
            }
            b')' => depth = usize::saturating_sub(depth, 1),
            _ => {}
        }
    }
    Ok(())
}

/// Instructions `emit_rev` produces for `n` (saturating: it can exceed
/// memory for a short text, which is why it is computed first).
fn size(n: &Node) -> u64 {
    match n {
        Node::Class(_) | Node::Any | Node::Derived(_) => 1,
        Node::Seq(items) => items.iter().fold(0, |t, i| t.saturating_add(size(i))),
        Node::Alt(alts) => alts.iter().fold(2 * (alts.len() as u64 - 1), |t, a| {
            t.saturating_add(size(a))
        }),
        Node::Repeat(inner, min, max) => {
            let s = size(inner);
            let optional = match max {
                Some(max) => ((*max - *min) as u64).saturating_mul(s.saturating_add(1)),
                None => s.saturating_add(2),
            };
            (*min as u64).saturating_mul(s).saturating_add(optional)
        }
    }
}

/// Longest match length, if bounded and free of derived classes.
fn bound(n: &Node) -> Option<usize> {
    match n {
        Node::Class(_) | Node::Any => Some(1),
        Node::Derived(_) => None,
        Node::Seq(items) => items.iter().map(bound).sum(),
        Node::Alt(alts) => alts
            .iter()
            .map(bound)
            .try_fold(0, |m, b| b.map(|b| m.max(b))),
        Node::Repeat(inner, _, max) => Some(bound(inner)? * (*max)? as usize),
    }
}

/// Emit code matching `n` read backwards (sequences in reverse order).
fn emit_rev(n: &Node, prog: &mut Vec<Inst>) {
    match n {
        Node::Class(c) => prog.push(Inst::Class(*c)),
        Node::Any => prog.push(Inst::Any),
        Node::Derived(k) => prog.push(Inst::Derived(*k)),
        Node::Seq(items) => items.iter().rev().for_each(|i| emit_rev(i, prog)),
        Node::Alt(alts) => {
            let mut jumps = Vec::new();
            for (k, alt) in alts.iter().enumerate() {
                if k + 1 < alts.len() {
                    let split = prog.len();
                    prog.push(Inst::Split(split + 1, 0));
                    emit_rev(alt, prog);
                    jumps.push(prog.len());
                    prog.push(Inst::Jump(0));
                    let next = prog.len();
                    prog[split] = Inst::Split(split + 1, next);
                } else {
                    emit_rev(alt, prog);
                }
            }
            let end = prog.len();
            for j in jumps {
                prog[j] = Inst::Jump(end);
            }
        }
        Node::Repeat(inner, min, max) => {
            for _ in 0..*min {
                emit_rev(inner, prog);
            }
            match max {
                Some(max) => {
                    // Each optional copy: Split(take, skip-all).
                    let mut exits = Vec::new();
                    for _ in *min..*max {
                        exits.push(prog.len());
                        prog.push(Inst::Split(prog.len() + 1, 0));
                        emit_rev(inner, prog);
                    }
                    let end = prog.len();
                    for e in exits {
                        prog[e] = Inst::Split(e + 1, end);
                    }
                }
                None => {
                    let top = prog.len();
                    prog.push(Inst::Split(top + 1, 0));
                    emit_rev(inner, prog);
                    prog.push(Inst::Jump(top));
                    let end = prog.len();
                    prog[top] = Inst::Split(top + 1, end);
                }
            }
        }
    }
}

fn syntax_error(src: &str, e: pest::error::Error<Rule>) -> DslError {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let found = src[pos..]
        .chars()
        .next()
        .map_or("the end of the pattern".to_string(), |c| format!("`{c}`"));
    DslError::new(Span { start: pos, end: (pos + 1).min(src.len()) }, format!("pattern syntax error: unexpected {found}"))
        .expected("move classes (upper-case letters), `.`, `( … )`, `|`, and `*` `+` `?` `{m,n}` after an item")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A history written as letters; `d` after a move marks "this move ends
    /// a derived run starting where its run of equal classes starts".
    struct Hist {
        classes: Vec<u8>,
        d: Vec<Option<usize>>,
    }

    fn hist(s: &str) -> Hist {
        let mut classes = Vec::new();
        let mut d = Vec::new();
        for ch in s.chars().filter(|c| !c.is_whitespace()) {
            if ch == 'd' {
                // ends a derived run: the moves of the same class before
                // it, back to the run's start
                let end = classes.len() - 1;
                let mut start = end;
                while start > 0 && classes[start - 1] == classes[end] {
                    start -= 1;
                }
                *d.last_mut().unwrap() = Some(start);
            } else {
                classes.push(ch as u8);
                d.push(None);
            }
        }
        Hist { classes, d }
    }

    impl History for Hist {
        fn len(&self) -> usize {
            self.classes.len()
        }
        fn class(&self, i: usize) -> u8 {
            self.classes[i]
        }
        fn derived_start(&self, k: usize, i: usize) -> Option<usize> {
            assert_eq!(k, 0, "the tests declare one derived class");
            self.d[i]
        }
    }

    fn p(text: &str) -> Pattern {
        Pattern::compile(text, b"NCPE", b"D").unwrap()
    }

    #[test]
    fn game_ending_sequences_match_at_the_end_only() {
        let end = p("EE | ECCE | ECCCCE");
        assert!(end.matches_end(&hist("NNEE")));
        assert!(end.matches_end(&hist("NECCE")));
        assert!(end.matches_end(&hist("ECCCCE")));
        assert!(!end.matches_end(&hist("EEN")));
        assert!(!end.matches_end(&hist("ECCCE")));
        assert!(!end.matches_end(&hist("")));
    }

    #[test]
    fn no_normal_pass_after_n_p_e_ecc_ecccc() {
        let forbid = p("N | P | E | E C C | E C C C C");
        for yes in ["N", "CP", "E", "NECC", "NECCCC"] {
            assert!(forbid.matches_end(&hist(yes)), "{yes}");
        }
        for no in ["C", "ECCC", "NCC", ""] {
            assert!(!forbid.matches_end(&hist(no)), "{no}");
        }
    }

    #[test]
    fn d_matches_only_runs_marked_as_d() {
        let after_dp = p("D P (C C){0,2}");
        assert!(after_dp.matches_end(&hist("NCCCCdP")));
        assert!(after_dp.matches_end(&hist("NCCCCdPCC")));
        assert!(after_dp.matches_end(&hist("NCCCCdPCCCC")));
        assert!(!after_dp.matches_end(&hist("NCCCCdPCCCCCC")));
        assert!(
            !after_dp.matches_end(&hist("NCCCCP")),
            "four Cs that are not a D"
        );
        let ed = p("E D");
        assert!(ed.matches_end(&hist("ECCCCd")));
        assert!(!ed.matches_end(&hist("ECCCC")));
    }

    #[test]
    fn unbounded_repetition_and_any() {
        let q = p("E .* E");
        assert!(q.matches_end(&hist("NENNCE")));
        assert!(!q.matches_end(&hist("NNNE")));
        assert_eq!(p("E C{2,4}").max_len, Some(5));
        assert_eq!(p("E C*").max_len, None);
    }

    #[test]
    fn unknown_class_is_located() {
        let e = Pattern::compile("E X E", b"NCPE", b"D").unwrap_err();
        assert_eq!(e.span, Span { start: 2, end: 3 });
        assert!(e.expected.unwrap().contains("N, C, P, E, D"));
    }

    #[test]
    fn syntax_errors_are_located() {
        let e = Pattern::compile("E (C C", b"NCPE", b"D").unwrap_err();
        assert_eq!(e.span.start, 6);
        let e = Pattern::compile("C{3,1}", b"NCPE", b"D").unwrap_err();
        assert!(e.message.contains("maximum below its minimum"));
    }

    #[test]
    fn pattern_depth_at_and_past_the_limit() {
        let nest = |n: usize| format!("{}E{}", "(".repeat(n), ")".repeat(n));
        assert!(Pattern::compile(&nest(MAX_PATTERN_DEPTH), b"NCPE", b"D").is_ok());
        let e = Pattern::compile(&nest(MAX_PATTERN_DEPTH + 1), b"NCPE", b"D").unwrap_err();
        assert_eq!(e.span.start, MAX_PATTERN_DEPTH);
        assert!(
            e.message.contains("pattern depth limit of 32"),
            "{}",
            e.message
        );
    }

    /// The size is computed from the tree before the program is built, and
    /// is exactly the program's length.
    #[test]
    fn pattern_size_at_and_past_the_limit() {
        let at = Pattern::compile("(E{31}){33}", b"NCPE", b"D").unwrap();
        assert_eq!(at.prog.len(), MAX_PATTERN_SIZE);
        let e = Pattern::compile("(E{32}){32}", b"NCPE", b"D").unwrap_err();
        assert!(
            e.message
                .contains("1025 matcher steps, over the pattern size limit of 1024"),
            "{}",
            e.message
        );
        let e = Pattern::compile("(((((E{64}){64}){64}){64}){64})", b"NCPE", b"D").unwrap_err();
        assert!(
            e.message.contains("1073741825 matcher steps"),
            "{}",
            e.message
        );
        for text in [
            "E C* | (N|P){2,5} D?",
            "D P (C C){0,2}",
            "E .* E",
            "(C|N)+ E{3}",
        ] {
            let p = p(text);
            assert_eq!(size_of(text) + 1, p.prog.len() as u64, "{text}");
        }
    }

    fn size_of(text: &str) -> u64 {
        let alt = PatternParser::parse(Rule::pattern, text)
            .unwrap()
            .next()
            .and_then(|p| p.into_inner().next())
            .unwrap();
        size(&build(alt, b"NCPE", b"D").unwrap())
    }

    /// The language knows no letter: classes and derived classes are
    /// whatever the caller declares.
    #[test]
    fn letters_come_from_the_declaration() {
        let q = Pattern::compile("Z X", b"XY", b"Z").unwrap();
        assert!(q.matches_end(&hist("YYdX")));
        assert!(!q.matches_end(&hist("YYX")));
        let e = Pattern::compile("D", b"XY", b"Z").unwrap_err();
        assert_eq!(e.message, "unknown move class `D`");
        assert_eq!(e.expected.as_deref(), Some("one of X, Y, Z"));
        assert!(Pattern::compile("C D", b"NC", b"").is_err());
    }
}
