//! What passes between the machine and its callers: points, moves, how a
//! game ended, and what one random move turned out to be. Plain values,
//! read by every layer above.

use morrigo_rules::{Rules, Verdict};

/// A point of the board: its index in the topology (u16, as the board
/// tables; a board has at most [`crate::MAX_POINTS`] points).
pub type Point = u16;
/// No point: the `from` of a move that starts nowhere, an off-board cell.
pub const NO_POINT: Point = Point::MAX;

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Put a piece from the hand on `to`.
    Place,
    /// Move the piece on `from` to the adjacent point `to`.
    Slide,
    /// Move the piece on `from` to any empty point `to`.
    Fly,
    /// Remove the opposing piece on `to` (a step of the same turn).
    Remove,
    /// A board play on `to` (stone from an unlimited supply, then captures).
    Play,
    /// A pass; `to` is the index of the pass kind in `Rules::passes`.
    Pass,
    /// A capture rule's leap: the piece on `from` jumps over the opposing
    /// piece between it and `to` (the middle of three consecutive points of
    /// a line) and takes it.
    Leap,
}

impl MoveKind {
    /// The kind's name in JSON output (the Python and web APIs).
    pub fn name(self) -> &'static str {
        match self {
            MoveKind::Place => "place",
            MoveKind::Slide => "slide",
            MoveKind::Fly => "fly",
            MoveKind::Remove => "remove",
            MoveKind::Play => "play",
            MoveKind::Pass => "pass",
            MoveKind::Leap => "leap",
        }
    }
}

/// One ply. `from` is [`NO_POINT`] except for slides, flies and leaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// What the move does.
    pub kind: MoveKind,
    /// The point the moving piece leaves ([`NO_POINT`] if none does).
    pub from: Point,
    /// The point the move puts a piece on or removes one from (a pass:
    /// the pass kind's index).
    pub to: Point,
}

impl Move {
    /// A placement on `to`.
    pub fn place(to: Point) -> Self {
        Move {
            kind: MoveKind::Place,
            from: NO_POINT,
            to,
        }
    }
    /// The removal of the piece on `at`.
    pub fn remove(at: Point) -> Self {
        Move {
            kind: MoveKind::Remove,
            from: NO_POINT,
            to: at,
        }
    }
    /// A board play on `at`.
    pub fn play(at: Point) -> Self {
        Move {
            kind: MoveKind::Play,
            from: NO_POINT,
            to: at,
        }
    }
    /// A pass of the kind with index `kind` in `Rules::passes`.
    pub fn pass(kind: u8) -> Self {
        Move {
            kind: MoveKind::Pass,
            from: NO_POINT,
            to: kind as Point,
        }
    }
    /// Whether two moves have the same effect (slide and fly to the same point do).
    pub fn same_effect(&self, o: &Move) -> bool {
        let moving = |k| matches!(k, MoveKind::Slide | MoveKind::Fly);
        // A leap is not the same move as a fly between the same points: it
        // takes the jumped piece (and a fly there is never listed, see
        // `turn_moves_with`).
        self.from == o.from
            && self.to == o.to
            && (self.kind == o.kind || moving(self.kind) && moving(o.kind))
    }
}

/// How a game ended, and which end rule decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<u8>,
    /// Index into `Rules::end`, or [`Outcome::RESIGNATION`] / [`Outcome::AGREEMENT`].
    pub rule: u16,
}

impl Outcome {
    /// A player resigned (a session action, not an end rule).
    pub const RESIGNATION: u16 = u16::MAX;
    /// The players agreed on the end and the dead stones; the game was counted.
    pub const AGREEMENT: u16 = u16::MAX - 1;

    /// The game ended with no result (an end rule with `no_result:`):
    /// neither a win nor a draw.
    pub fn is_no_result(&self, rules: &Rules) -> bool {
        rules
            .end
            .get(self.rule as usize)
            .is_some_and(|e| e.verdict == Verdict::NoResult)
    }

    /// The name of what decided the game.
    pub fn rule_name<'r>(&self, rules: &'r Rules) -> &'r str {
        match self.rule {
            Outcome::RESIGNATION => "resignation",
            Outcome::AGREEMENT => "agreement",
            r => rules
                .end
                .get(r as usize)
                .map_or("unknown", |e| e.name.as_str()),
        }
    }
}

/// The result of asking for one random legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sample {
    /// The legal move drawn.
    Move(Move),
    /// The game is over: no move is drawn.
    Over(Outcome),
    /// No legal move and no end rule decides: the rules leave the game stuck.
    Stuck,
}

/// What decided a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecidedBy {
    /// The end rule with this index into `Rules::end`.
    Rule(usize),
    /// A player resigned.
    Resignation,
    /// The players agreed on the end and the dead stones.
    Agreement,
}

impl Outcome {
    /// What decided the game, without the sentinel rule numbers.
    pub fn decided_by(&self) -> DecidedBy {
        match self.rule {
            Outcome::RESIGNATION => DecidedBy::Resignation,
            Outcome::AGREEMENT => DecidedBy::Agreement,
            r => DecidedBy::Rule(usize::from(r)),
        }
    }

    /// Whether the game was decided by a count: a `score` end rule, or the
    /// players' agreement (which is counted).
    pub fn is_counted(&self, rules: &Rules) -> bool {
        match self.decided_by() {
            DecidedBy::Agreement => true,
            DecidedBy::Resignation => false,
            DecidedBy::Rule(r) => rules
                .end
                .get(r)
                .is_some_and(|e| e.verdict == morrigo_rules::Verdict::Score),
        }
    }
}
