//! Positions as the page sees them: a move record replayed on the rules
//! (the same replay as `morrigo replay`), with the board, the legal moves
//! as clickable data and the passes with the rule refusing each.

use crate::error::{ApiError, ApiResult};
use crate::ruleset::Loaded;
use crate::AppState;
use morrigo_diag::{Diagnostic, SourceFile};
use morrigo_engine::game::Move;
use morrigo_engine::notation::{self, format_move_in};
use morrigo_engine::{GameState, Owner};
use morrigo_record::{replay_from, replay_more, ReplayError, Transcript};
use morrigo_rules::Rules;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::Mutex;

/// The most moves (tokens) a record may have in one request
/// (MAX_RECORD_MOVES): every request replays its record from the start.
pub const MAX_RECORD_MOVES: usize = 5000;

/// The source name record errors are located in.
const RECORD: &str = "record";

/// Replay `record` from the start, or take the position from the cache
/// when a request left it there (the page sends back the record it was
/// given, so a click replays nothing).
pub fn replay(
    app: &AppState,
    rules: &Loaded,
    record: &str,
) -> Result<(Transcript, GameState), ApiError> {
    let count = notation::tokens(record).len();
    if count > MAX_RECORD_MOVES {
        return Err(ApiError::bad(format!(
            "the record has {count} moves, more than the playground's limit of {MAX_RECORD_MOVES} (MAX_RECORD_MOVES)"
        ))
        .expected("a shorter record (`morrigo replay` takes longer ones)"));
    }
    if let Some(kept) = app.positions.get(rules.key, record.trim()) {
        return Ok(kept);
    }
    let file = SourceFile::new(RECORD, record);
    let (t, s) = replay_from(rules.game().start(), record, &file, 0)
        .map_err(|e| ApiError::diag(&e.diagnostic))?;
    app.positions.put(rules, &t, &s);
    Ok((t, s))
}

/// Play `more` (a move or a few) after the replayed game `t`, `s`: only
/// the new moves are played. A game the players ended is replayed whole
/// (a transcript does not carry a resignation), so its refusal is the
/// replay's.
pub fn play_on(
    app: &AppState,
    rules: &Loaded,
    (t, s): (&Transcript, &GameState),
    more: &str,
) -> Result<(Transcript, GameState), ReplayError> {
    let (t, s) = if t.result.status == morrigo_record::Status::Over {
        let full = format!("{} {more}", record_of(t));
        replay_from(
            rules.game().start(),
            &full,
            &SourceFile::new(RECORD, full.as_str()),
            0,
        )
    } else {
        replay_more(
            t.clone(),
            s.clone(),
            more,
            &SourceFile::new(RECORD, more),
            0,
        )
    }?;
    app.positions.put(rules, &t, &s);
    Ok((t, s))
}

/// The most replayed positions kept (POSITION_CACHE), the oldest dropped
/// first: each holds a transcript and a state of at most
/// MAX_RECORD_MOVES plies (about a megabyte at most), so the cache stays
/// within some 16 MB whatever the requests.
pub const POSITION_CACHE: usize = 16;

/// Positions the last requests replayed, by ruleset key and canonical
/// record, newest last.
#[derive(Default)]
pub struct Positions(Mutex<VecDeque<Kept>>);

struct Kept {
    key: u64,
    record: String,
    transcript: Transcript,
    state: GameState,
}

impl Positions {
    fn get(&self, key: u64, record: &str) -> Option<(Transcript, GameState)> {
        let mut kept = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let i = kept
            .iter()
            .position(|k| k.key == key && k.record == record)?;
        let hit = kept.remove(i)?;
        let found = (hit.transcript.clone(), hit.state.clone());
        kept.push_back(hit);
        Some(found)
    }

    fn put(&self, rules: &Loaded, t: &Transcript, s: &GameState) {
        let record = record_of(t);
        let mut kept = self.0.lock().unwrap_or_else(|p| p.into_inner());
        kept.retain(|k| !(k.key == rules.key && k.record == record));
        if kept.len() >= POSITION_CACHE {
            kept.pop_front();
        }
        kept.push_back(Kept {
            key: rules.key,
            record,
            transcript: t.clone(),
            state: s.clone(),
        });
    }

    /// Forget everything (the rules a key names may have changed).
    pub fn clear(&self) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

/// The canonical record of a transcript: one ply per token.
pub fn record_of(t: &Transcript) -> String {
    t.plies
        .iter()
        .map(|p| p.mv.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The position after a replayed record.
pub fn position(t: &Transcript, s: &GameState) -> Value {
    let rules = s.rules();
    let topo = &rules.topology;
    let board: Vec<Value> = topo
        .points()
        .map(|p| match s.owner(p) {
            Some(Owner::Player(o)) => json!(o),
            Some(Owner::Mark) => json!("mark"),
            None => Value::Null,
        })
        .collect();
    let mut moves = Vec::new();
    let ended = s.legal_moves_into(&mut moves);
    let over = ended.is_some() || t.result.status == morrigo_record::Status::Over;
    if over {
        moves.clear();
    }
    let name = |p: u16| topo.name(p).to_string();
    let legal: Vec<Value> = moves
        .iter()
        .map(|mv| {
            json!({
                "text": format_move_in(rules, &mv.packed()),
                "kind": mv.kind_name(),
                "from": mv.from_point().map(name),
                "to": mv.to_point().map(name),
            })
        })
        .collect();
    let passes: Vec<Value> = (0..rules.passes.kinds.len())
        .map(|k| {
            let text = notation::pass_text(rules, k as u8);
            let allowed = moves.contains(&Move::Pass { kind: k as u8 });
            let by = (!allowed && !over)
                .then(|| s.pass_forbidden_by(k))
                .flatten()
                .and_then(|i| rules.forbid.get(i))
                .map(|f| f.name.clone());
            json!({ "text": text, "legal": allowed, "forbidden_by": by })
        })
        .collect();
    let phase = s.phase_name();
    json!({
        "record": record_of(t),
        "transcript": t.to_json(),
        "result": {
            "status": t.result.status.as_str(),
            "summary": t.result.summary(),
            "winner": t.result.winner,
            "reason": t.result.reason,
            "rule": t.result.rule,
            "rule_at": t.result.rule_at,
            "doc": t.result.doc,
        },
        "over": over,
        "to_move": s.to_move(),
        "phase": phase,
        "pending": s.pending_removals(),
        "in_hand": s.in_hand(),
        "on_board": [s.pieces(0).len(), s.pieces(1).len()],
        "captured": s.captured(),
        "pass_stones": s.pass_stones(),
        "board": board,
        "legal": legal,
        "passes": passes,
    })
}

/// Why `token` is refused on `s`, with the rule that decides it and the
/// line it is written on (for the page to quote).
pub fn refusal_json(s: &GameState, token: &str, d: &Diagnostic) -> Value {
    let mut d = d.clone();
    // One move at a time: the ply number and the record's place say
    // nothing the player does not know (as `morrigo play` says it).
    if let Some(rest) = d.message.strip_prefix("ply ") {
        if let Some((_, msg)) = rest.split_once(": ") {
            d.message = msg.to_string();
        }
    }
    d.location = None;
    let rule = match notation::parse_token_in(s.rules(), token, None).as_deref() {
        Ok([intent]) => s
            .explain(*intent)
            .rule
            .map(|(text, at)| rule_json(s.rules(), &text, at.as_deref())),
        _ => None,
    };
    json!({
        "move": token,
        "message": d.message,
        "expected": d.expected,
        "notes": d.notes,
        "text": d.to_string(),
        "rule": rule,
    })
}

/// A rule's text and place (`file:line:col`), with the source line.
pub fn rule_json(rules: &Rules, text: &str, at: Option<&str>) -> Value {
    let place = at.and_then(|at| {
        let mut parts = at.rsplitn(3, ':');
        let col: usize = parts.next()?.parse().ok()?;
        let line: usize = parts.next()?.parse().ok()?;
        let file = parts.next()?.to_string();
        Some((file, line, col))
    });
    let source_line = place.as_ref().and_then(|(file, line, _)| {
        rules
            .sources
            .iter()
            .find(|s| &*s.name == file)
            .and_then(|s| s.text.lines().nth(line - 1).map(str::to_string))
    });
    json!({
        "text": text,
        "at": at,
        "file": place.as_ref().map(|p| &p.0),
        "line": place.as_ref().map(|p| p.1),
        "col": place.as_ref().map(|p| p.2),
        "source_line": source_line,
    })
}

/// One token, no whitespace: the move a click or a button sends.
pub fn one_move(token: &str) -> ApiResult<()> {
    let toks = notation::tokens(token);
    if toks.len() != 1 {
        return Err(ApiError::bad(format!(
            "`move` must be one move, found {} tokens",
            toks.len()
        ))
        .expected("a move such as `d1`, `d1-d2`, `xd2`, `D4` or `pass:E`"));
    }
    Ok(())
}
