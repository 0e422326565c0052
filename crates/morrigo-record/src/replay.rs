//! Replaying a move record through the engine.

use crate::transcript::{PlyRecord, ResultRecord, Status, Transcript};
use morrigo_diag::{Diagnostic, SourceFile};
use morrigo_engine::notation::{self, Intent};
use morrigo_engine::{explain, with_machine, AnyMachine, Machine, MoveKind, State};
use morrigo_rules::Rules;

/// A record that could not be replayed to the end: the located error, and
/// everything that was played before it (work is never lost).
#[derive(Clone, Debug, thiserror::Error)]
#[error("{diagnostic}")]
pub struct ReplayError {
    pub diagnostic: Box<Diagnostic>,
    /// The game up to (not including) the failing ply.
    pub transcript: Box<Transcript>,
    /// 1-based number of the ply that failed.
    pub ply: usize,
}

/// Replay `record` from the start of a game.
///
/// `source` names where the record came from, for error locations: pass
/// `SourceFile::new("--moves", record)` for a command-line record, or the
/// file the record was read from (the record may be the file's whole text
/// or a part of it; each token is located by searching the file in order).
pub fn replay(
    any: &AnyMachine,
    record: &str,
    source: &SourceFile,
) -> Result<Transcript, ReplayError> {
    with_machine!(any, m => {
        let state = m.initial();
        replay_from(m, state, record, source, 0).map(|(t, _)| t)
    })
}

/// Replay `record` from a given state (a scenario set-up); returns the
/// transcript and the final state. `start` is the byte offset in `source`
/// from which the record's tokens are searched for (for error locations).
pub fn replay_from<const W: usize>(
    m: &Machine<W>,
    mut state: State<W>,
    record: &str,
    source: &SourceFile,
    start: usize,
) -> Result<(Transcript, State<W>), ReplayError> {
    let mut t = empty_transcript(&m.rules);
    let result = play(m, &mut state, record, source, start, &mut t);
    finish(m, &state, &mut t);
    match result {
        Ok(()) => Ok((t, state)),
        Err(diagnostic) => {
            let ply = t.plies.len() + 1;
            Err(ReplayError {
                diagnostic: Box::new(diagnostic),
                transcript: Box::new(t),
                ply,
            })
        }
    }
}

fn empty_transcript(rules: &Rules) -> Transcript {
    Transcript {
        ruleset: rules.name.clone(),
        players: rules.players.clone(),
        plies: Vec::new(),
        result: ResultRecord {
            status: Status::Ongoing,
            winner: None,
            reason: None,
            rule: None,
            rule_at: None,
            doc: None,
            to_move: rules.players[0].clone(),
        },
        board: String::new(),
    }
}

/// Byte offset in `source` of each token of `record`.
fn token_offsets(
    record: &str,
    toks: &[notation::Token],
    source: &SourceFile,
    start: usize,
) -> Vec<usize> {
    let text = &*source.text;
    let start = start.min(text.len());
    if let Some(p) = text[start..].find(record).filter(|_| !record.is_empty()) {
        return toks.iter().map(|t| start + p + t.offset).collect();
    }
    let mut cursor = start;
    toks.iter()
        .map(|t| {
            let at = find_word(text, cursor, &t.text).unwrap_or(cursor);
            cursor = (at + t.text.len()).min(text.len());
            at
        })
        .collect()
}

/// First occurrence of `word` at or after `from` not inside a longer word.
pub(crate) fn find_word(text: &str, from: usize, word: &str) -> Option<usize> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut from = from.min(text.len());
    while let Some(i) = text.get(from..)?.find(word) {
        let at = from + i;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if !before.is_some_and(is_word) && !after.is_some_and(is_word) {
            return Some(at);
        }
        from = at + word.len().max(1);
    }
    None
}

fn play<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    record: &str,
    source: &SourceFile,
    start: usize,
    t: &mut Transcript,
) -> Result<(), Diagnostic> {
    let rules = &m.rules;
    let topo = &rules.topology;
    let toks = notation::tokens(record);
    let offsets = token_offsets(record, &toks, source, start);
    let mut moves = Vec::new();
    for (tok, &offset) in toks.iter().zip(&offsets) {
        let at = source.location(offset);
        let intents = notation::parse_token(topo, &tok.text, Some(at)).map_err(|mut d| {
            d.message = format!("ply {}: {}", t.plies.len() + 1, d.message);
            d
        })?;
        let x = tok.text.find(['x', 'X']).unwrap_or(0);
        for (i, intent) in intents.iter().enumerate() {
            let part_offset = if i > 0 || tok.text.starts_with(['x', 'X']) {
                offset + x
            } else {
                offset
            };
            let n = t.plies.len() + 1;
            let me = s.pos.to_move as usize;
            let player = rules.players[me].clone();
            let outcome = m.legal_moves(s, &mut moves);
            let Some(mv) = moves.iter().copied().find(|mv| intent.matches(mv)) else {
                return Err(refused(m, s, *intent, n, &moves, outcome.is_some())
                    .at(source.location(part_offset)));
            };
            let phase = if s.pos.pending > 0 {
                "remove".to_string()
            } else {
                rules.phases[m.phase(s)].name.clone()
            };
            m.apply(s, mv);
            let mut notes = Vec::new();
            if mv.kind == MoveKind::Fly {
                notes.push("flies".to_string());
            }
            if mv.kind != MoveKind::Remove && s.pos.lines_formed > 0 {
                let lines = match s.pos.lines_formed {
                    1 => "completes a line".to_string(),
                    k => format!("completes {k} lines"),
                };
                notes.push(match (&rules.line_rule, s.pos.pending) {
                    (None, _) => lines,
                    (Some(_), 0) => format!("{lines}: no piece can be removed"),
                    (Some(_), k) => format!("{lines}: removes {k}"),
                });
            }
            if mv.kind == MoveKind::Remove && s.pos.pending > 0 {
                notes.push(format!("{} more to remove", s.pos.pending));
            }
            t.plies.push(PlyRecord {
                n,
                player,
                mv: notation::format_move(topo, &mv),
                phase,
                note: (!notes.is_empty()).then(|| notes.join("; ")),
            });
        }
    }
    Ok(())
}

fn refused<const W: usize>(
    m: &Machine<W>,
    s: &State<W>,
    intent: Intent,
    n: usize,
    legal: &[morrigo_engine::Move],
    over: bool,
) -> Diagnostic {
    let rules = &m.rules;
    let topo = &rules.topology;
    let who = &rules.players[s.pos.to_move as usize];
    let refusal = explain(m, s, intent);
    let mut d = Diagnostic::new(format!(
        "ply {n}: {who} cannot play `{}`: {}",
        intent.format(topo),
        refusal.reason
    ));
    if let Some((text, at)) = &refusal.rule {
        d = d.note(match at {
            Some(at) => format!("rule: `{text}` ({at})"),
            None => format!("rule: `{text}`"),
        });
    }
    if !over {
        const SHOWN: usize = 12;
        let mut names: Vec<String> = legal
            .iter()
            .map(|mv| notation::format_move(topo, mv))
            .collect();
        names.sort();
        let more = names.len().saturating_sub(SHOWN);
        names.truncate(SHOWN);
        let mut list = names.join(", ");
        if more > 0 {
            list.push_str(&format!(" … and {more} more"));
        }
        d = d.expected(format!("a legal move: {list}"));
    }
    d
}

/// Fill in the result and the final board.
fn finish<const W: usize>(m: &Machine<W>, s: &State<W>, t: &mut Transcript) {
    let rules = &m.rules;
    let mut moves = Vec::new();
    let outcome = m.legal_moves(s, &mut moves);
    let to_move = rules.players[s.pos.to_move as usize].clone();
    t.result = match outcome {
        None => ResultRecord {
            status: Status::Ongoing,
            winner: None,
            reason: None,
            rule: None,
            rule_at: None,
            doc: None,
            to_move,
        },
        Some(o) => {
            let rule = &rules.end[o.rule as usize];
            ResultRecord {
                status: Status::Over,
                winner: o.winner.map(|w| rules.players[w as usize].clone()),
                reason: Some(rule.name.clone()),
                rule: Some(rule.when.text.clone()),
                rule_at: rule.when.at.as_ref().map(|l| l.to_string()),
                doc: rule.doc.clone(),
                to_move,
            }
        }
    };
    t.board = render_board(m, s);
}

/// The board with one letter per player (initials upper-cased, or `X`/`O`
/// when the initials clash) and `.` for an empty point.
pub fn render_board<const W: usize>(m: &Machine<W>, s: &State<W>) -> String {
    let marks = piece_marks(&m.rules.players);
    m.rules
        .topology
        .render(|p| s.owner(p).map_or('.', |o| marks[o as usize]))
}

pub(crate) fn piece_marks(players: &[String]) -> [char; 2] {
    let initial = |i: usize| {
        players
            .get(i)
            .and_then(|p| p.chars().next())
            .map(|c| c.to_ascii_uppercase())
    };
    match (initial(0), initial(1)) {
        (Some(a), Some(b)) if a != b && a != '.' && b != '.' => [a, b],
        _ => ['X', 'O'],
    }
}
