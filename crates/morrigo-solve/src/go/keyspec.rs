//! What a Go-style ruleset's rules read, derived from the compiled rules:
//! the parts of the game's history a transposition key must hold so that
//! two paths with equal keys have the same future (the same legal moves,
//! end verdicts and counts at every later node).

use morrigo_rules::{Immediate, Prim, Repeated, Rules, ScoringMethod, Superko};

/// How much of the move-class history (`N`, `C`, pass kinds, derived `D`)
/// the rules' `after('…')` patterns can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassWindow {
    /// No pattern: the classes are never read.
    None,
    /// Every pattern is bounded and names no derived class: the last `n`
    /// classes are all any pattern reads, now or after more moves (a later
    /// match reads the new moves first, then at most `n` in all).
    Last(usize),
    /// An unbounded pattern or one naming a derived class (whose runs reach
    /// back as far as the ko captures go): the whole class history.
    Whole,
}

/// The key components a ruleset needs (see the module comment of `go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeySpec {
    /// How much of the move-class history the rules' `after` patterns
    /// read: none, the last few classes, or all of them.
    pub classes: ClassWindow,
    /// A play's immediate repetition is judged (simple ko, JK Art. 3.2):
    /// the last two moves' kinds and the board before the last move.
    pub lookback: bool,
    /// Derived ko-capture runs (JK's D): the stones placed by the trailing
    /// run of ko captures, with their offsets.
    pub ko_runs: bool,
    /// Every earlier board is read (superko): the capture-epoch skeleton.
    pub superko: Superko,
    /// Earlier boards are counted (`board_repetitions`): the skeleton with
    /// the epochs' play results.
    pub occurrences: bool,
    /// Art. 3.3 compares captures since a board's first occurrence: the
    /// skeleton with each epoch's prisoner counts.
    pub occurrence_captures: bool,
    /// A count or a rule reads the prisoners and pass stones.
    pub prisoners: bool,
    /// The count reads whether any move was made (JK Art. 4.4's stone for
    /// the last move): the `turn == 0` bit.
    pub turn0: bool,
}

impl KeySpec {
    /// The key of `rules`, or why a transposition key cannot be derived
    /// (the plain full-history search still solves such rules).
    pub fn of(rules: &Rules) -> Result<KeySpec, String> {
        let name = &rules.name;
        if rules.play.is_none() {
            return Err(format!("{name} has no board plays"));
        }
        if rules.line_rule.is_some() || !rules.captures.is_empty() || rules.phases.len() > 1 {
            return Err(format!(
                "{name} has lines, capture rules or several phases, which the Go key does not cover"
            ));
        }
        let mut unsupported = None;
        for c in rules.conds() {
            c.expr.for_each_symbol(&mut |p| {
                if unsupported.is_none() && !position_or_keyed(*p) {
                    unsupported = Some(*p);
                }
            });
        }
        if let Some(p) = unsupported {
            return Err(format!(
                "{name} reads {p:?}, a history value the transposition key does not hold"
            ));
        }
        let classes = if rules.patterns.is_empty() {
            ClassWindow::None
        } else {
            rules
                .patterns
                .iter()
                .try_fold(0, |w, p| p.max_len.map(|n| w.max(n)))
                .map_or(ClassWindow::Whole, ClassWindow::Last)
        };
        let rep = &rules.repetition;
        let scoring = rules.scoring.as_ref();
        let counts_prisoners = scoring.is_some_and(|s| s.method != ScoringMethod::Area);
        Ok(KeySpec {
            classes,
            lookback: rep.immediate != Immediate::Allowed || rules.uses(Prim::ImmediateRepetition),
            ko_runs: rules.play.as_ref().is_some_and(|p| p.ko_runs.is_some()),
            superko: rep.superko,
            occurrences: rules.uses(Prim::BoardRepetitions) || rep.repeated_board != Repeated::Off,
            occurrence_captures: rep.repeated_board == Repeated::Captures,
            prisoners: counts_prisoners
                || rules.uses(Prim::Captured)
                || rules.uses(Prim::PassStones)
                || rep.repeated_board == Repeated::Captures,
            turn0: scoring.is_some_and(|s| s.last_move_stone),
        })
    }

    /// Whether earlier boards are read at all (the skeleton is kept).
    pub fn reads_boards(&self) -> bool {
        self.superko != Superko::None || self.occurrences
    }
}

/// Whether a primitive is a function of the position (and the move judged)
/// or of a history component the key holds. Every primitive is listed, so
/// a new one fails to compile here until it is classified.
fn position_or_keyed(p: Prim) -> bool {
    match p {
        Prim::Me
        | Prim::Opponent
        | Prim::Phase // one phase (checked above): a constant
        | Prim::NoLegalMove
        | Prim::EmptyPoints
        | Prim::Target
        | Prim::LinesFormed
        | Prim::InHand
        | Prim::OnBoard
        | Prim::Lines
        | Prim::InLine
        | Prim::AllInLines
        | Prim::Lost
        | Prim::Captured
        | Prim::PassStones
        | Prim::LastPlaySuicide
        | Prim::NoSafeMove
        | Prim::OwnNeighbours
        | Prim::Line
        | Prim::Captures
        | Prim::RunLength
        | Prim::LinesFormedWhere
        | Prim::LinesBroken
        | Prim::LinesBrokenWhere
        | Prim::To
        | Prim::From
        | Prim::Direction
        | Prim::DirectionOf => true,
        // Keyed: the class window, the look-back, the skeleton.
        Prim::After | Prim::ImmediateRepetition | Prim::BoardRepetitions => true,
        Prim::Repetitions
        | Prim::TurnsWithoutRemoval
        | Prim::QuietTurns
        | Prim::TurnsWithoutLine
        | Prim::Turn
        | Prim::FormedBefore
        | Prim::TurnsSinceFormed
        | Prim::TurnsSinceTraded
        | Prim::LinesFormedIn => false,
    }
}
