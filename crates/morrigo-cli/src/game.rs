//! Helpers shared by the commands: loading a machine, applying a move
//! record, drawing a position, naming moves and outcomes.

use crate::fail::Failure;
use morrigo_diag::{Diagnostic, SourceFile};
use morrigo_engine::notation::{self, Intent};
use morrigo_engine::{explain, AnyMachine, Machine, Move, Outcome, State};
use morrigo_rules::{load_rules, Rules, Verdict};
use std::sync::Arc;

/// Load, compile and build the machine for a ruleset path or built-in name.
pub fn machine(spec: &str) -> Result<AnyMachine, Failure> {
    let rules = load_rules(spec)?;
    Ok(AnyMachine::new(Arc::new(rules))?)
}

/// The letter shown on the board for a player's pieces: the initial of its
/// name (`W`, `B`), or `X`/`O` when the initials clash.
pub fn piece_letters(rules: &Rules) -> [char; 2] {
    let initial = |i: usize| {
        rules
            .players
            .get(i)
            .and_then(|n| n.chars().next())
            .map_or('?', |c| c.to_ascii_uppercase())
    };
    let (a, b) = (initial(0), initial(1));
    if a == b || !a.is_alphanumeric() || !b.is_alphanumeric() || a == '.' {
        ['X', 'O']
    } else {
        [a, b]
    }
}

/// The board with the pieces of `s` drawn as letters and empty points as `.`.
pub fn draw<const W: usize>(m: &Machine<W>, s: &State<W>) -> String {
    let letters = piece_letters(&m.rules);
    m.rules
        .topology
        .render(|p| s.owner(p).map_or('.', |o| letters[o as usize]))
}

/// The empty board.
pub fn draw_empty(rules: &Rules) -> String {
    rules.topology.render(|_| '.')
}

/// The text of one turn: its move followed by its removals (`g1xd2`).
pub fn turn_text(rules: &Rules, plies: &[Move]) -> String {
    plies
        .iter()
        .map(|m| notation::format_move(&rules.topology, m))
        .collect()
}

/// Name of the phase the player to move is in (`removing` while a
/// removal is owed).
pub fn phase_name<const W: usize>(m: &Machine<W>, s: &State<W>) -> String {
    if s.pos.pending > 0 {
        "removing".to_string()
    } else {
        m.rules
            .phases
            .get(m.phase(s))
            .map_or_else(|| "?".to_string(), |p| p.name.clone())
    }
}

pub fn player_name(rules: &Rules, player: u8) -> &str {
    rules
        .players
        .get(player as usize)
        .map_or("?", String::as_str)
}

/// "white wins (end rule `blocked`: a player who cannot move loses)".
pub fn outcome_text(rules: &Rules, o: &Outcome) -> String {
    let head = match o.winner {
        Some(w) => format!("{} wins", player_name(rules, w)),
        None => "draw".to_string(),
    };
    let Some(rule) = rules.end.get(o.rule as usize) else {
        return format!("{head} by {}", o.rule_name(rules));
    };
    let verdict = match rule.verdict {
        Verdict::Lose => "the player to move loses",
        Verdict::Win => "the player to move wins",
        Verdict::Draw => "draw",
        Verdict::Score => "the game ends and is counted",
        Verdict::CompareCaptures => "more captured prisoners since the first occurrence wins",
    };
    let why = rule.doc.clone().unwrap_or_else(|| verdict.to_string());
    format!(
        "{head} by end rule `{}`: {why}\n  rule: `{}`{}",
        rule.name,
        rule.when.text,
        rule.when
            .at
            .as_ref()
            .map(|l| format!(" ({l})"))
            .unwrap_or_default()
    )
}

/// The legal move that carries out `intent`, or why there is none.
pub fn find_move<const W: usize>(
    m: &Machine<W>,
    s: &State<W>,
    intent: Intent,
) -> Result<Move, morrigo_engine::Refusal> {
    let mut moves = Vec::new();
    m.legal_moves(s, &mut moves);
    moves
        .iter()
        .copied()
        .find(|mv| intent.matches(mv))
        .ok_or_else(|| explain(m, s, intent))
}

/// Turn a refusal into a diagnostic at `at`.
pub fn refusal_diagnostic(
    token: &str,
    refusal: &morrigo_engine::Refusal,
    at: Option<morrigo_diag::Location>,
) -> Diagnostic {
    let mut d = Diagnostic::new(format!("illegal move `{token}`: {}", refusal.reason)).at_opt(at);
    if let Some((text, place)) = &refusal.rule {
        d = d.note(match place {
            Some(p) => format!("rule: `{text}` ({p})"),
            None => format!("rule: `{text}`"),
        });
    }
    d
}

/// Play the plies one token names, all or nothing: on an error the state
/// is left as it was. Returns the plies played.
pub fn play_token<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    token: &str,
    at: Option<morrigo_diag::Location>,
) -> Result<Vec<Move>, Diagnostic> {
    let intents = notation::parse_token(&m.rules.topology, token, at.clone())?;
    let mut trial = s.clone();
    let mut played = Vec::with_capacity(intents.len());
    for intent in intents {
        let mv =
            find_move(m, &trial, intent).map_err(|r| refusal_diagnostic(token, &r, at.clone()))?;
        m.apply(&mut trial, mv);
        played.push(mv);
    }
    *s = trial;
    Ok(played)
}

/// Play a whole record (`--position`), reporting the first bad token at its
/// column in a source named `source`.
pub fn play_record<const W: usize>(
    m: &Machine<W>,
    s: &mut State<W>,
    record: &str,
    source: &str,
) -> Result<Vec<Move>, Diagnostic> {
    let file = SourceFile::new(source, record);
    let mut plies = Vec::new();
    for token in notation::tokens(record) {
        let at = file.location(token.offset);
        plies.extend(play_token(m, s, &token.text, Some(at))?);
    }
    Ok(plies)
}

/// The legal moves as text, removals included (`d1 d2 …` or `xd2 xa4`).
pub fn legal_text<const W: usize>(m: &Machine<W>, moves: &[Move]) -> String {
    let t = &m.rules.topology;
    moves
        .iter()
        .map(|mv| notation::format_move(t, mv))
        .collect::<Vec<_>>()
        .join(" ")
}
