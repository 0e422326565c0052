//! Move notation: `d1` place, `d1-d2` slide or fly, `xd2` removal (its own
//! ply), `g1xd2` or `d1-d2xg7` a move with its removal, `g1xd2xb4` a move
//! that completes two lines with its two removals. Go-style rulesets:
//! `D4` a board play (GTP names), `pass` where the ruleset has one pass kind,
//! `pass:E` where it has several.

use crate::moves::{Move, MoveKind};
use morrigo_board::{Named, Topology};
use morrigo_diag::{Diagnostic, Location};
use morrigo_rules::Rules;

/// What a token asks for, before it is matched against the legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    /// A piece or stone onto a point (a placement or a board play).
    Place(u16),
    /// A piece from the first point to the second (a slide, fly or leap).
    Move(u16, u16),
    /// The removal of the piece on a point.
    Remove(u16),
    /// A pass of the kind with this index in `Rules::passes`.
    Pass(u8),
}

/// Parse one token for a ruleset: pass tokens, then points and moves.
/// Without a line rule there are no removals, so `x` is an ordinary letter
/// (GTP has an X column).
pub fn parse_token_in(
    rules: &Rules,
    token: &str,
    at: Option<Location>,
) -> Result<Vec<Intent>, Diagnostic> {
    let lower = token.to_ascii_lowercase();
    if lower == "pass" || lower.starts_with("pass:") {
        return parse_pass(rules, token, at).map(|k| vec![Intent::Pass(k)]);
    }
    if rules.line_rule.is_none() && !token.contains('-') {
        let named = Named {
            name: token.to_string(),
            at,
        };
        return rules
            .topology
            .resolve(&named)
            .map(|p| vec![Intent::Place(p)])
            .map_err(|e| e.to_diagnostic());
    }
    parse_token(&rules.topology, token, at)
}

fn parse_pass(rules: &Rules, token: &str, at: Option<Location>) -> Result<u8, Diagnostic> {
    let kinds: Vec<String> = rules.passes.names();
    if kinds.is_empty() {
        return Err(
            Diagnostic::new(format!("`{token}`: ruleset `{}` has no pass", rules.name))
                .at_opt(at)
                .expected("a move on the board"),
        );
    }
    let written: Vec<String> = kinds.iter().map(|k| format!("`pass:{k}`")).collect();
    match token.split_once(':') {
        None if kinds.len() == 1 => Ok(0),
        None => Err(Diagnostic::new(format!(
            "`{token}` is ambiguous: ruleset `{}` has {} pass kinds",
            rules.name,
            kinds.len()
        ))
        .at_opt(at)
        .expected(written.join(" or "))),
        Some((_, kind)) => match kinds.iter().position(|k| k == kind) {
            Some(i) => Ok(i as u8),
            None => Err(Diagnostic::new(format!(
                "ruleset `{}` has no pass kind `{kind}`",
                rules.name
            ))
            .at_opt(at.map(|mut l| {
                l.col += 5;
                l
            }))
            .expected(written.join(" or "))),
        },
    }
}

/// The text of a pass of kind `kind`: `pass` when the ruleset has one kind.
pub fn pass_text(rules: &Rules, kind: u8) -> String {
    match rules.passes.kinds.as_slice() {
        [_] => "pass".to_string(),
        kinds => format!(
            "pass:{}",
            kinds.get(kind as usize).map_or('?', |k| *k as char)
        ),
    }
}

/// A token of a move record and where it stands in the record text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token as written.
    pub text: String,
    /// Byte offset in the record.
    pub offset: usize,
}

/// Split a move record into tokens (whitespace or commas separate them;
/// move numbers such as `1.` are skipped).
pub fn tokens(record: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in record
        .char_indices()
        .chain(std::iter::once((record.len(), ' ')))
    {
        let sep = c.is_whitespace() || c == ',' || c == ';';
        match (sep, start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                let text = &record[s..i];
                let is_number = text
                    .trim_end_matches('.')
                    .chars()
                    .all(|c| c.is_ascii_digit())
                    && text.ends_with('.');
                if !is_number {
                    out.push(Token {
                        text: text.to_string(),
                        offset: s,
                    });
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Parse one token into the plies it names.
pub fn parse_token(
    t: &Topology,
    token: &str,
    at: Option<Location>,
) -> Result<Vec<Intent>, Diagnostic> {
    let bad = |what: &str| {
        Diagnostic::new(format!("cannot read move `{token}`: {what}"))
            .at_opt(at.clone())
            .expected("`d1` (place), `d1-d2` (slide or fly), `xd2` (remove) or `g1xd2`")
    };
    let point = |name: &str, offset: usize| {
        let named = Named {
            name: name.to_string(),
            at: at.clone().map(|mut l| {
                l.col += offset;
                l
            }),
        };
        t.resolve(&named).map_err(|e| e.to_diagnostic())
    };
    // `g1xd2xb4`: a move, then one removal per `x` (a move that completes
    // two lines owes two).
    let mut parts = token.split(['x', 'X']);
    let main = parts.next().unwrap_or_default();
    let mut out = Vec::new();
    if !main.is_empty() {
        match main.split_once('-') {
            Some((from, to)) if !from.is_empty() && !to.is_empty() => {
                out.push(Intent::Move(point(from, 0)?, point(to, from.len() + 1)?))
            }
            Some(_) => return Err(bad("a move needs a point on each side of `-`")),
            None => out.push(Intent::Place(point(main, 0)?)),
        }
    }
    let mut offset = main.len();
    for target in parts {
        offset += 1;
        if target.is_empty() {
            return Err(bad("`x` must be followed by the point to remove"));
        }
        out.push(Intent::Remove(point(target, offset)?));
        offset += target.len();
    }
    if out.is_empty() {
        return Err(bad("empty move"));
    }
    Ok(out)
}

impl Intent {
    /// Does this legal move carry out the intent?
    pub fn matches(&self, m: &Move) -> bool {
        match *self {
            Intent::Place(p) => matches!(m.kind, MoveKind::Place | MoveKind::Play) && m.to == p,
            Intent::Pass(k) => m.kind == MoveKind::Pass && m.to == k as u16,
            Intent::Move(f, t) => {
                matches!(m.kind, MoveKind::Slide | MoveKind::Fly | MoveKind::Leap)
                    && m.from == f
                    && m.to == t
            }
            Intent::Remove(p) => m.kind == MoveKind::Remove && m.to == p,
        }
    }

    /// The intent as a token, with the board's point names (a pass as
    /// `pass:<index>`).
    pub fn format(&self, t: &Topology) -> String {
        match *self {
            Intent::Place(p) => t.name(p).to_string(),
            Intent::Move(f, to) => format!("{}-{}", t.name(f), t.name(to)),
            Intent::Remove(p) => format!("x{}", t.name(p)),
            Intent::Pass(k) => format!("pass:{k}"),
        }
    }
}

/// The standard text of a move (passes as `pass:<index>`; use
/// [`format_move_in`] for the ruleset's pass letters).
pub fn format_move(t: &Topology, m: &Move) -> String {
    match m.kind {
        MoveKind::Place | MoveKind::Play => t.name(m.to).to_string(),
        MoveKind::Pass => format!("pass:{}", m.to),
        MoveKind::Slide | MoveKind::Fly | MoveKind::Leap => {
            format!("{}-{}", t.name(m.from), t.name(m.to))
        }
        MoveKind::Remove => format!("x{}", t.name(m.to)),
    }
}

/// The standard text of a move in a ruleset (`pass`, `pass:E`, `D4`, `d1-d2`).
pub fn format_move_in(rules: &Rules, m: &Move) -> String {
    match m.kind {
        MoveKind::Pass => pass_text(rules, m.to as u8),
        _ => format_move(&rules.topology, m),
    }
}

/// The move an intent names (the kind of a placement is settled by the
/// ruleset: a board play where there are board plays; a move between two
/// points as a slide, which the engine matches to a fly as well).
pub fn intent_move(rules: &Rules, intent: Intent) -> Move {
    match intent {
        Intent::Place(p) if rules.play.is_some() => Move::play(p),
        Intent::Place(p) => Move::place(p),
        Intent::Move(f, t) => Move {
            kind: MoveKind::Slide,
            from: f,
            to: t,
        },
        Intent::Remove(p) => Move::remove(p),
        Intent::Pass(k) => Move::pass(k),
    }
}
