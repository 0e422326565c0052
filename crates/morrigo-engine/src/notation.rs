//! Move notation: `d1` place, `d1-d2` slide or fly, `xd2` removal (its own
//! ply), `g1xd2` or `d1-d2xg7` a move with its removal.

use crate::machine::{Move, MoveKind};
use morrigo_board::{Named, Topology};
use morrigo_diag::{Diagnostic, Location};

/// What a token asks for, before it is matched against the legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    Place(u16),
    Move(u16, u16),
    Remove(u16),
}

/// A token of a move record and where it stands in the record text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
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
    let (main, removal) = match token.find(['x', 'X']) {
        Some(i) => (&token[..i], Some((&token[i + 1..], i + 1))),
        None => (token, None),
    };
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
    if let Some((target, offset)) = removal {
        if target.is_empty() {
            return Err(bad("`x` must be followed by the point to remove"));
        }
        out.push(Intent::Remove(point(target, offset)?));
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
            Intent::Place(p) => m.kind == MoveKind::Place && m.to == p,
            Intent::Move(f, t) => {
                matches!(m.kind, MoveKind::Slide | MoveKind::Fly) && m.from == f && m.to == t
            }
            Intent::Remove(p) => m.kind == MoveKind::Remove && m.to == p,
        }
    }

    pub fn format(&self, t: &Topology) -> String {
        match *self {
            Intent::Place(p) => t.name(p).to_string(),
            Intent::Move(f, to) => format!("{}-{}", t.name(f), t.name(to)),
            Intent::Remove(p) => format!("x{}", t.name(p)),
        }
    }
}

/// The standard text of a move.
pub fn format_move(t: &Topology, m: &Move) -> String {
    match m.kind {
        MoveKind::Place => t.name(m.to).to_string(),
        MoveKind::Slide | MoveKind::Fly => format!("{}-{}", t.name(m.from), t.name(m.to)),
        MoveKind::Remove => format!("x{}", t.name(m.to)),
    }
}
