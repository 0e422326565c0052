//! Why a move is not allowed: the answer names the rule and quotes it from
//! the ruleset source, so a rule author sees which line of their file decided.

use crate::legality::Illegal;
use crate::machine::{Machine, Move, MoveKind, State};
use crate::notation::Intent;
use morrigo_rules::{ActionKind, Cond, ImmediateReading};
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

/// The move an intent stands for here, and the other form it may take (a
/// move between two points is a slide or a fly).
fn intent_moves<const W: usize>(m: &Machine<W>, s: &State<W>, intent: Intent) -> [Option<Move>; 2] {
    match intent {
        Intent::Remove(p) => [Some(Move::remove(p)), None],
        Intent::Pass(k) => [Some(Move::pass(k)), None],
        Intent::Place(p) => {
            let has = |kind| {
                m.rules.phases[m.phase(s)]
                    .actions
                    .iter()
                    .any(|a| a.kind == kind)
            };
            let play = has(ActionKind::Play) || !has(ActionKind::Place) && m.rules.play.is_some();
            [
                Some(if play { Move::play(p) } else { Move::place(p) }),
                None,
            ]
        }
        Intent::Move(from, to) => {
            let adjacent = m.rules.topology.neighbours[from as usize].contains(&to);
            let leaps = m.leap_rules != 0;
            let (first, second) = if adjacent {
                (MoveKind::Slide, MoveKind::Fly)
            } else if leaps
                && m.check_move(
                    s,
                    Move {
                        kind: MoveKind::Fly,
                        from,
                        to,
                    },
                )
                .is_err()
            {
                // Not a legal fly either: say why it is no leap.
                (MoveKind::Leap, MoveKind::Fly)
            } else {
                (MoveKind::Fly, MoveKind::Slide)
            };
            [first, second].map(|kind| Some(Move { kind, from, to }))
        }
    }
}

/// Why `intent` is not among the legal moves of `s`: the reason the
/// engine's legality check ([`Machine::check_move`]) gives, in words.
pub fn explain<const W: usize>(m: &Machine<W>, s: &State<W>, intent: Intent) -> Refusal {
    let [first, second] = intent_moves(m, s, intent);
    let first = first.expect("an intent stands for a move");
    let why = match (m.check_move(s, first), second.map(|mv| m.check_move(s, mv))) {
        (Err(why), None | Some(Err(_))) => why,
        _ => {
            return Refusal::plain(format!(
                "`{}` is legal here",
                intent.format(&m.rules.topology)
            ))
        }
    };
    refusal(m, s, first, why)
}

/// The name rules write a built-in by.
/// `name = value` of a value about the judged move, as a rule author
/// writes it (points and directions by name; a count of lines by a
/// condition once per use, with the values it took).
fn move_value_text<const W: usize>(
    m: &Machine<W>,
    s: &State<W>,
    mv: Move,
    rule: usize,
    p: morrigo_rules::Prim,
) -> String {
    use morrigo_rules::Prim;
    let name = prim_name(p);
    match p {
        Prim::To | Prim::From => {
            let v = m.move_value(p, s, mv);
            let point = u16::try_from(v).map_or("none", |q| m.rules.topology.name(q));
            format!("{name} = {point}")
        }
        Prim::Direction => {
            let v = m.move_value(p, s, mv) as usize;
            let d = morrigo_rules::vocab::DIRECTIONS.get(v).unwrap_or(&"none");
            format!("{name} = {d}")
        }
        Prim::LinesFormedWhere | Prim::LinesBrokenWhere => {
            let counts = m.lines_where_values(rule, p, s, mv);
            let shown: Vec<String> = counts.iter().map(i64::to_string).collect();
            format!("{name}(…) = {}", shown.join(", "))
        }
        _ => format!("{name} = {}", m.move_value(p, s, mv)),
    }
}

fn prim_name(p: morrigo_rules::Prim) -> &'static str {
    morrigo_rules::vocab::VOCABULARY
        .iter()
        .find(|e| e.prim == p)
        .map_or("?", |e| e.name)
}

/// An [`Illegal`] in words, with the rule that decides it.
pub fn refusal<const W: usize>(m: &Machine<W>, s: &State<W>, mv: Move, why: Illegal) -> Refusal {
    let rules = &m.rules;
    let t = &rules.topology;
    let me = s.pos.to_move as usize;
    let who = &rules.players[me];
    let name = |p: u16| t.name(p).to_string();
    let keyed = |reason: String, key: &str, text: &str| Refusal {
        reason,
        rule: Some((
            text.to_string(),
            rules.locate_key(key).map(|l| l.to_string()),
        )),
    };
    let guard = |phase: usize, kind: ActionKind| {
        rules.phases[phase]
            .actions
            .iter()
            .find(|a| a.kind == kind)
            .map(|a| &a.guard)
    };
    let line = || {
        rules
            .line_rule
            .as_ref()
            .expect("removals are owed only under a line rule")
    };
    match why {
        Illegal::GameOver(outcome) => {
            let rule = &rules.end[outcome.rule as usize];
            Refusal::by(
                format!("the game is over: end rule `{}` decided it", rule.name),
                &rule.when,
            )
        }
        Illegal::RemovalOwed if m.capture_owed(s) => Refusal::plain(format!(
            "{who} made a capture and must first remove a piece it allows (write `x<point>`)"
        )),
        Illegal::NotCaptureTarget => {
            let targets: Vec<String> = m.capture_targets(s).iter().map(|p| name(p as u16)).collect();
            let also = if m.capture_owed_lines(s) {
                ", or a piece the completed line lets it remove"
            } else {
                ""
            };
            Refusal::plain(format!(
                "{who}'s capture made {} removable, and the piece on {} is not one of them{also}",
                targets.join(", "),
                name(mv.to)
            ))
        }
        Illegal::RemovalOwed => Refusal {
            reason: format!(
                "{who} completed a line and must first remove an opposing piece (write `x<point>`)"
            ),
            rule: Some((
                format!("on_line_formed: removals {}", line().removals.text),
                line().removals.at.as_ref().map(|l| l.to_string()),
            )),
        },
        Illegal::NothingToRemove => {
            Refusal::plain("there is nothing to remove: no line was just completed")
        }
        Illegal::RemoveEmpty => Refusal::plain(format!(
            "{} is empty: there is no piece to remove",
            name(mv.to)
        )),
        Illegal::RemoveOwn => Refusal::plain(format!("{} holds {who}'s own piece", name(mv.to))),
        Illegal::NotRemovable => Refusal::by(
            format!("the piece on {} may not be removed", name(mv.to)),
            &line().removable,
        ),
        Illegal::RemoveGuardFails { phase } => {
            let p = &rules.phases[phase];
            let own = s.owner(mv.to) == Some(me as u8);
            match if own { &p.remove_own } else { &p.remove } {
                Some(g) => Refusal::by(
                    format!(
                        "{who} may remove the piece on {} only when this holds, and it does not",
                        name(mv.to)
                    ),
                    g,
                ),
                None if !own => Refusal::plain(format!(
                    "{} holds an opposing piece, and in phase `{}` {who} may remove only their own pieces",
                    name(mv.to),
                    p.name
                )),
                None => Refusal::plain("there is nothing to remove"),
            }
        }
        Illegal::NotInPhase { phase, kind } => Refusal::plain(format!(
            "{who} is in phase `{}`, which does not allow `{}`",
            rules.phases[phase].name,
            kind.name()
        )),
        Illegal::GuardFails { phase, kind } => match guard(phase, kind) {
            Some(g) => Refusal::by(
                format!("{who} may {} only when this holds, and it does not", kind.name()),
                g,
            ),
            None => Refusal::plain(format!("{who} may not {} here", kind.name())),
        },
        Illegal::Forbidden(i) => {
            let rule = &rules.forbid[i];
            let what = match mv.kind {
                MoveKind::Pass => format!("`{}` is", crate::notation::pass_text(rules, mv.to as u8)),
                MoveKind::Play if rule.reads_move() => format!("a play on {} is", name(mv.to)),
                MoveKind::Play => "board plays are".to_string(),
                MoveKind::Place => format!("placing on {} is", name(mv.to)),
                MoveKind::Slide | MoveKind::Fly | MoveKind::Leap => {
                    format!("the move {}-{} is", name(mv.from), name(mv.to))
                }
                MoveKind::Remove => format!("removing the piece on {} is", name(mv.to)),
            };
            // The values about the move the rule read, so the author sees why.
            let read: Vec<String> = morrigo_rules::move_values::MOVE_VALUES
                .iter()
                .filter(|p| rule.when.uses(**p))
                .map(|p| move_value_text(m, s, mv, i, *p))
                .collect();
            let values = if read.is_empty() {
                String::new()
            } else {
                format!(" ({})", read.join(", "))
            };
            Refusal::by(
                format!("{what} forbidden here by rule `{}`{values}", rule.name),
                &rule.when,
            )
        }
        Illegal::HandEmpty => Refusal::plain(format!("{who} has no pieces left in hand")),
        Illegal::Occupied => Refusal::plain(format!("{} is occupied", name(mv.to))),
        Illegal::Marked => {
            let reason = format!(
                "{} holds the mark of a piece taken, blocked while this holds",
                name(mv.to)
            );
            match rules.line_rule.as_ref().and_then(|l| l.delay.as_ref()) {
                Some(delay) => Refusal::by(reason, delay),
                None => Refusal::plain(reason),
            }
        }
        Illegal::NotOwnPiece => {
            Refusal::plain(format!("{} holds no piece of {who}", name(mv.from)))
        }
        Illegal::NotAdjacent => {
            let why = format!("{} and {} are not adjacent", name(mv.from), name(mv.to));
            let phase = m.phase(s);
            match guard(phase, ActionKind::Fly) {
                Some(g) => Refusal::by(format!("{why}, and {who} may fly only when this holds"), g),
                None => Refusal::plain(format!(
                    "{why}, and phase `{}` does not allow flying",
                    rules.phases[phase].name
                )),
            }
        }
        Illegal::IsALeap => Refusal::plain(format!(
            "{}-{} jumps an opposing piece: it is a leap, which takes it",
            name(mv.from),
            name(mv.to)
        )),
        Illegal::NoLeap => {
            let leaps: Vec<&str> = rules
                .captures
                .iter()
                .filter(|c| c.kind == morrigo_rules::CaptureKind::Leap)
                .map(|c| c.name.as_str())
                .collect();
            Refusal::plain(format!(
                "{}-{} is no leap: no opposing piece lies between them on a line that capture rule {} allows now",
                name(mv.from),
                name(mv.to),
                leaps.join(", ")
            ))
        }
        Illegal::IsASlide => Refusal::plain(format!(
            "{}-{} is a slide to an adjacent point",
            name(mv.from),
            name(mv.to)
        )),
        Illegal::Suicide => keyed(
            format!(
                "a play on {} leaves its chain without liberty (suicide), which this ruleset forbids",
                name(mv.to)
            ),
            "suicide:",
            "play.suicide: illegal",
        ),
        Illegal::ImmediateRepetition => {
            let at = name(mv.to);
            let reason = match rules.repetition.reading {
                ImmediateReading::SimpleKo => format!(
                    "a play on {at} recreates the board as it was before the opponent's last play (ko)"
                ),
                ImmediateReading::Jk => format!(
                    "a play on {at} recreates the board of two moves back (ko, JK Art. 3.2)"
                ),
            };
            keyed(reason, "immediate:", "repetition.immediate: illegal")
        }
        Illegal::Superko => {
            let text = format!("repetition.superko: {:?}", rules.repetition.superko).to_lowercase();
            keyed(
                format!("a play on {} recreates an earlier board (superko)", name(mv.to)),
                "superko:",
                &text,
            )
        }
        Illegal::NoSuchMove => Refusal::plain("there is no such move in this game"),
    }
}
