//! Why a move is not allowed: the answer names the rule and quotes it from
//! the ruleset source, so a rule author sees which line of their file decided.

use crate::machine::{Machine, State};
use crate::notation::Intent;
use morrigo_rules::{ActionKind, Cond};
use std::fmt;

/// A refused move: what is wrong, and the rule (text and place) that says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub reason: String,
    /// The rule text and `file:line:col` where it is written.
    pub rule: Option<(String, Option<String>)>,
}

impl Refusal {
    fn plain(reason: impl Into<String>) -> Self {
        Refusal {
            reason: reason.into(),
            rule: None,
        }
    }

    fn by(reason: impl Into<String>, cond: &Cond) -> Self {
        Refusal {
            reason: reason.into(),
            rule: Some((cond.text.clone(), cond.at.as_ref().map(|l| l.to_string()))),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)?;
        match &self.rule {
            Some((text, Some(at))) => write!(f, "\n  rule: `{text}` ({at})"),
            Some((text, None)) => write!(f, "\n  rule: `{text}`"),
            None => Ok(()),
        }
    }
}

/// Why `intent` is not among the legal moves of `s` (call only for an
/// intent that matched none of them).
pub fn explain<const W: usize>(m: &Machine<W>, s: &State<W>, intent: Intent) -> Refusal {
    let rules = &m.rules;
    let t = &rules.topology;
    let me = s.pos.to_move as usize;
    let who = &rules.players[me];
    let name = |p: u16| t.name(p).to_string();
    let mut moves = Vec::new();
    if let Some(outcome) = m.legal_moves(s, &mut moves) {
        let rule = &rules.end[outcome.rule as usize];
        return Refusal::by(
            format!("the game is over: end rule `{}` decided it", rule.name),
            &rule.when,
        );
    }
    if s.pos.pending > 0 {
        let line = rules
            .line_rule
            .as_ref()
            .expect("removals are owed only under a line rule");
        return match intent {
            Intent::Remove(p) => match s.owner(p) {
                None => Refusal::plain(format!("{} is empty: there is no piece to remove", name(p))),
                Some(o) if o as usize == me => Refusal::plain(format!("{} holds {who}'s own piece", name(p))),
                Some(_) => Refusal::by(format!("the piece on {} may not be removed", name(p)), &line.removable),
            },
            _ => Refusal {
                reason: format!(
                    "{who} completed a line and must first remove an opposing piece (write `x<point>`)"
                ),
                rule: Some((
                    format!("on_line_formed: removals {}", line.removals.text),
                    line.removals.at.as_ref().map(|l| l.to_string()),
                )),
            },
        };
    }
    let phase_index = m.phase(s);
    let phase = &rules.phases[phase_index];
    let allowed = m.allowed_actions(s, phase_index);
    let guard = |kind: ActionKind| {
        phase
            .actions
            .iter()
            .find(|a| a.kind == kind)
            .map(|a| &a.guard)
    };
    let forbidden = |kind: ActionKind| -> Option<Refusal> {
        if allowed[kind as usize] {
            return None;
        }
        Some(match guard(kind) {
            Some(g) => Refusal::by(
                format!(
                    "{who} may {} only when this holds, and it does not",
                    kind.name()
                ),
                g,
            ),
            None => Refusal::plain(format!(
                "{who} is in phase `{}`, which does not allow `{}`",
                phase.name,
                kind.name()
            )),
        })
    };
    match intent {
        Intent::Remove(_) => {
            Refusal::plain("there is nothing to remove: no line was just completed")
        }
        Intent::Pass(k) => {
            if let Some(r) = forbidden(ActionKind::Pass) {
                return r;
            }
            let kind = crate::notation::pass_text(rules, k);
            match m.pass_forbidden_by(s, k as usize) {
                Some(i) => {
                    let rule = &rules.forbid[i];
                    Refusal::by(
                        format!("`{kind}` is forbidden here by rule `{}`", rule.name),
                        &rule.when,
                    )
                }
                None => Refusal::plain(format!("`{kind}` is not legal here")),
            }
        }
        Intent::Place(p)
            if allowed[ActionKind::Play as usize] || guard(ActionKind::Play).is_some() =>
        {
            explain_play(m, s, p, &forbidden)
        }
        Intent::Place(p) => {
            if let Some(r) = forbidden(ActionKind::Place) {
                return r;
            }
            if s.pos.in_hand[me] == 0 {
                return Refusal::plain(format!("{who} has no pieces left in hand"));
            }
            occupied(s, p, &name)
                .unwrap_or_else(|| Refusal::plain("this placement is not legal here"))
        }
        Intent::Move(from, to) => {
            if forbidden(ActionKind::Slide).is_some() && forbidden(ActionKind::Fly).is_some() {
                return forbidden(ActionKind::Slide).expect("checked above");
            }
            if s.owner(from) != Some(me as u8) {
                return Refusal::plain(format!("{} holds no piece of {who}", name(from)));
            }
            if let Some(r) = occupied(s, to, &name) {
                return r;
            }
            let adjacent = t.neighbours[from as usize].contains(&to);
            match (adjacent, allowed[ActionKind::Fly as usize]) {
                (false, false) => {
                    let why = format!("{} and {} are not adjacent", name(from), name(to));
                    match guard(ActionKind::Fly) {
                        Some(g) => {
                            Refusal::by(format!("{why}, and {who} may fly only when this holds"), g)
                        }
                        None => Refusal::plain(format!(
                            "{why}, and phase `{}` does not allow flying",
                            phase.name
                        )),
                    }
                }
                _ => forbidden(ActionKind::Slide)
                    .unwrap_or_else(|| Refusal::plain("this move is not legal here")),
            }
        }
    }
}

/// Why a board play on `p` is refused.
fn explain_play<const W: usize>(
    m: &Machine<W>,
    s: &State<W>,
    p: u16,
    forbidden: &dyn Fn(ActionKind) -> Option<Refusal>,
) -> Refusal {
    let rules = &m.rules;
    let name = rules.topology.name(p).to_string();
    if let Some(i) = m.play_forbidden_by(s) {
        let rule = &rules.forbid[i];
        return Refusal::by(
            format!("board plays are forbidden here by rule `{}`", rule.name),
            &rule.when,
        );
    }
    if let Some(r) = forbidden(ActionKind::Play) {
        return r;
    }
    if s.owner(p).is_some() {
        return Refusal::plain(format!("{name} is occupied"));
    }
    let effect = m.play_effect(s, p);
    let keyed = |reason: String, key: &str, text: &str| Refusal {
        reason,
        rule: Some((
            text.to_string(),
            rules.locate_key(key).map(|l| l.to_string()),
        )),
    };
    if effect.suicide && effect.suicide_effect == morrigo_rules::SuicideEffect::Illegal {
        return keyed(
            format!("a play on {name} leaves its chain without liberty (suicide), which this ruleset forbids"),
            "suicide:",
            "play.suicide: illegal",
        );
    }
    let rep = &rules.repetition;
    if rep.immediate == morrigo_rules::Immediate::Illegal
        && m.immediate_repetition(s, effect.key_after)
    {
        let reason = match rep.reading {
            morrigo_rules::ImmediateReading::SimpleKo => format!(
                "a play on {name} recreates the board as it was before the opponent's last play (ko)"
            ),
            morrigo_rules::ImmediateReading::Jk => format!(
                "a play on {name} recreates the board of two moves back (ko, JK Art. 3.2)"
            ),
        };
        return keyed(reason, "immediate:", "repetition.immediate: illegal");
    }
    if rep.superko != morrigo_rules::Superko::None {
        let text = format!("repetition.superko: {:?}", rep.superko).to_lowercase();
        return keyed(
            format!("a play on {name} recreates an earlier board (superko)"),
            "superko:",
            &text,
        );
    }
    Refusal::plain(format!("a play on {name} is not legal here"))
}

fn occupied<const W: usize>(
    s: &State<W>,
    p: u16,
    name: &impl Fn(u16) -> String,
) -> Option<Refusal> {
    s.owner(p)
        .map(|_| Refusal::plain(format!("{} is occupied", name(p))))
}
