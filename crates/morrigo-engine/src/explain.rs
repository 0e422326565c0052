//! Why a move is not allowed: the answer names the rule and quotes it from
//! the ruleset source, so a rule author sees which line of their file decided.

use crate::legality::Illegal;
use crate::machine::{Machine, State};
use crate::moves::{Move, MoveKind, Outcome};
use crate::notation::Intent;
use morrigo_rules::{ActionKind, Cond, ForbidRule, ImmediateReading, LineRule};
use std::fmt;

/// A refused move: what is wrong, and the rule (text and place) that says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// What is wrong with the move, in words.
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

/// The name rules write a built-in by.
fn prim_name(p: morrigo_rules::Prim) -> &'static str {
    morrigo_rules::vocab::VOCABULARY
        .iter()
        .find(|e| e.prim == p)
        .map_or("?", |e| e.name)
}

/// An [`Illegal`] in words, with the rule that decides it.
pub fn refusal<const W: usize>(m: &Machine<W>, s: &State<W>, mv: Move, why: Illegal) -> Refusal {
    let j = Judged {
        m,
        s,
        mv,
        who: &m.rules.players[s.pos.to_move as usize],
    };
    let who = j.who;
    match why {
        Illegal::GameOver(outcome) => j.game_over(outcome),
        Illegal::RemovalOwed if m.capture_owed(s) => Refusal::plain(format!(
            "{who} made a capture and must first remove a piece it allows (write `x<point>`)"
        )),
        Illegal::NotCaptureTarget => j.not_capture_target(),
        Illegal::RemovalOwed => j.line_removal_owed(),
        Illegal::NothingToRemove => {
            Refusal::plain("there is nothing to remove: no line was just completed")
        }
        Illegal::RemoveEmpty => Refusal::plain(format!(
            "{} is empty: there is no piece to remove",
            j.name(mv.to)
        )),
        Illegal::RemoveOwn => Refusal::plain(format!("{} holds {who}'s own piece", j.name(mv.to))),
        Illegal::NotRemovable => Refusal::by(
            format!("the piece on {} may not be removed", j.name(mv.to)),
            &j.line().removable,
        ),
        Illegal::RemoveGuardFails { phase } => j.remove_guard_fails(phase),
        Illegal::NotInPhase { phase, kind } => Refusal::plain(format!(
            "{who} is in phase `{}`, which does not allow `{}`",
            m.rules.phases[phase].name,
            kind.name()
        )),
        Illegal::GuardFails { phase, kind } => j.guard_fails(phase, kind),
        Illegal::Forbidden(i) => j.forbidden(i),
        Illegal::HandEmpty => Refusal::plain(format!("{who} has no pieces left in hand")),
        Illegal::Occupied => Refusal::plain(format!("{} is occupied", j.name(mv.to))),
        Illegal::Marked => j.marked(),
        Illegal::NotOwnPiece => {
            Refusal::plain(format!("{} holds no piece of {who}", j.name(mv.from)))
        }
        Illegal::NotAdjacent => j.not_adjacent(),
        Illegal::IsALeap => Refusal::plain(format!(
            "{}-{} jumps an opposing piece: it is a leap, which takes it",
            j.name(mv.from),
            j.name(mv.to)
        )),
        Illegal::NoLeap => j.no_leap(),
        Illegal::IsASlide => Refusal::plain(format!(
            "{}-{} is a slide to an adjacent point",
            j.name(mv.from),
            j.name(mv.to)
        )),
        Illegal::Suicide => j.keyed(
            format!(
                "a play on {} leaves its chain without liberty (suicide), which this ruleset forbids",
                j.name(mv.to)
            ),
            "suicide:",
            "play.suicide: illegal",
        ),
        Illegal::ImmediateRepetition => j.immediate_repetition(),
        Illegal::Superko => j.superko(),
        Illegal::NoSuchMove => Refusal::plain("there is no such move in this game"),
    }
}

/// A refused move in its position, with the mover's name: what every
/// reason's words are made from.
struct Judged<'a, const W: usize> {
    m: &'a Machine<W>,
    s: &'a State<W>,
    mv: Move,
    who: &'a str,
}

impl<'a, const W: usize> Judged<'a, W> {
    fn name(&self, p: u16) -> &'a str {
        self.m.rules.topology.name(p)
    }

    /// A refusal by a rule that has no condition to quote: its text, placed
    /// where its key is written.
    fn keyed(&self, reason: String, key: &str, text: &str) -> Refusal {
        Refusal {
            reason,
            rule: Some((
                text.to_string(),
                self.m.rules.locate_key(key).map(|l| l.to_string()),
            )),
        }
    }

    /// The condition of the phase's action of this kind, if it has one.
    fn guard(&self, phase: usize, kind: ActionKind) -> Option<&'a Cond> {
        self.m.rules.phases[phase]
            .actions
            .iter()
            .find(|a| a.kind == kind)
            .map(|a| &a.guard)
    }

    fn line(&self) -> &'a LineRule {
        self.m
            .rules
            .line_rule
            .as_ref()
            .expect("removals are owed only under a line rule")
    }

    fn game_over(&self, outcome: Outcome) -> Refusal {
        let rule = &self.m.rules.end[outcome.rule as usize];
        Refusal::by(
            format!("the game is over: end rule `{}` decided it", rule.name),
            &rule.when,
        )
    }

    fn not_capture_target(&self) -> Refusal {
        let (m, s) = (self.m, self.s);
        let targets: Vec<&str> = m
            .capture_targets(s)
            .iter()
            .map(|p| self.name(p as u16))
            .collect();
        let also = if m.capture_owed_lines(s) {
            ", or a piece the completed line lets it remove"
        } else {
            ""
        };
        Refusal::plain(format!(
            "{}'s capture made {} removable, and the piece on {} is not one of them{also}",
            self.who,
            targets.join(", "),
            self.name(self.mv.to)
        ))
    }

    /// A completed line owes a removal: the line rule's `removals` says how many.
    fn line_removal_owed(&self) -> Refusal {
        let removals = &self.line().removals;
        Refusal {
            reason: format!(
                "{} completed a line and must first remove an opposing piece (write `x<point>`)",
                self.who
            ),
            rule: Some((
                format!("on_line_formed: removals {}", removals.text),
                removals.at.as_ref().map(|l| l.to_string()),
            )),
        }
    }

    fn remove_guard_fails(&self, phase: usize) -> Refusal {
        let (who, to) = (self.who, self.name(self.mv.to));
        let p = &self.m.rules.phases[phase];
        let own = self.s.owner(self.mv.to) == Some(self.s.pos.to_move);
        match if own { &p.remove_own } else { &p.remove } {
            Some(g) => Refusal::by(
                format!("{who} may remove the piece on {to} only when this holds, and it does not"),
                g,
            ),
            None if !own => Refusal::plain(format!(
                "{to} holds an opposing piece, and in phase `{}` {who} may remove only their own pieces",
                p.name
            )),
            None => Refusal::plain("there is nothing to remove"),
        }
    }

    fn guard_fails(&self, phase: usize, kind: ActionKind) -> Refusal {
        match self.guard(phase, kind) {
            Some(g) => Refusal::by(
                format!(
                    "{} may {} only when this holds, and it does not",
                    self.who,
                    kind.name()
                ),
                g,
            ),
            None => Refusal::plain(format!("{} may not {} here", self.who, kind.name())),
        }
    }

    /// Forbid rule `i` holds for the move.
    fn forbidden(&self, i: usize) -> Refusal {
        let rule = &self.m.rules.forbid[i];
        let what = self.forbidden_move_text(rule);
        // The values about the move the rule read, so the author sees why.
        let read: Vec<String> = morrigo_rules::move_values::MOVE_VALUES
            .iter()
            .filter(|p| rule.when.uses(**p))
            .map(|p| move_value_text(self.m, self.s, self.mv, i, *p))
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

    /// The subject of "… forbidden here": the move, or all board plays when
    /// the rule does not read which play it is.
    fn forbidden_move_text(&self, rule: &ForbidRule) -> String {
        let mv = self.mv;
        match mv.kind {
            MoveKind::Pass => format!(
                "`{}` is",
                crate::notation::pass_text(&self.m.rules, mv.to as u8)
            ),
            MoveKind::Play if rule.reads_move() => format!("a play on {} is", self.name(mv.to)),
            MoveKind::Play => "board plays are".to_string(),
            MoveKind::Place => format!("placing on {} is", self.name(mv.to)),
            MoveKind::Slide | MoveKind::Fly | MoveKind::Leap => {
                format!("the move {}-{} is", self.name(mv.from), self.name(mv.to))
            }
            MoveKind::Remove => format!("removing the piece on {} is", self.name(mv.to)),
        }
    }

    fn marked(&self) -> Refusal {
        let reason = format!(
            "{} holds the mark of a piece taken, blocked while this holds",
            self.name(self.mv.to)
        );
        match self
            .m
            .rules
            .line_rule
            .as_ref()
            .and_then(|l| l.delay.as_ref())
        {
            Some(delay) => Refusal::by(reason, delay),
            None => Refusal::plain(reason),
        }
    }

    /// A move between points that are not adjacent: what flying needs, or
    /// that the phase does not fly at all.
    fn not_adjacent(&self) -> Refusal {
        let who = self.who;
        let why = format!(
            "{} and {} are not adjacent",
            self.name(self.mv.from),
            self.name(self.mv.to)
        );
        let phase = self.m.phase(self.s);
        match self.guard(phase, ActionKind::Fly) {
            Some(g) => Refusal::by(format!("{why}, and {who} may fly only when this holds"), g),
            None => Refusal::plain(format!(
                "{why}, and phase `{}` does not allow flying",
                self.m.rules.phases[phase].name
            )),
        }
    }

    /// A leap no capture rule allows: the leap rules are named, so the
    /// author sees which were asked.
    fn no_leap(&self) -> Refusal {
        let leaps: Vec<&str> = self
            .m
            .rules
            .captures
            .iter()
            .filter(|c| c.kind == morrigo_rules::CaptureKind::Leap)
            .map(|c| c.name.as_str())
            .collect();
        Refusal::plain(format!(
            "{}-{} is no leap: no opposing piece lies between them on a line that capture rule {} allows now",
            self.name(self.mv.from),
            self.name(self.mv.to),
            leaps.join(", ")
        ))
    }

    /// A ko: the words say which earlier board the ruleset's reading compares.
    fn immediate_repetition(&self) -> Refusal {
        let at = self.name(self.mv.to);
        let reason = match self.m.rules.repetition.reading {
            ImmediateReading::SimpleKo => format!(
                "a play on {at} recreates the board as it was before the opponent's last play (ko)"
            ),
            ImmediateReading::Jk => {
                format!("a play on {at} recreates the board of two moves back (ko, JK Art. 3.2)")
            }
        };
        self.keyed(reason, "immediate:", "repetition.immediate: illegal")
    }

    fn superko(&self) -> Refusal {
        let text =
            format!("repetition.superko: {:?}", self.m.rules.repetition.superko).to_lowercase();
        self.keyed(
            format!(
                "a play on {} recreates an earlier board (superko)",
                self.name(self.mv.to)
            ),
            "superko:",
            &text,
        )
    }
}
