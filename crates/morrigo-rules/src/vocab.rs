//! The vocabulary of rule expressions: every built-in name, its type, where
//! it may be used and what it means. The engine evaluates [`Prim`]s; this
//! table is the single source for type checking and for the DSL reference.

use morrigo_dsl::{Binding, Env, Type};

/// A built-in value or function of the game state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    /// `me`: the player whose turn it is.
    Me,
    /// `opponent`: the other player.
    Opponent,
    /// `phase`: the current phase of the player to move.
    Phase,
    /// `no_legal_move`: the player to move has no legal action.
    NoLegalMove,
    /// `repetitions`: occurrences of the current position (board, hands, player
    /// to move), this one included.
    Repetitions,
    /// `turns_without_removal`: turns by both sides since the last removal.
    TurnsWithoutRemoval,
    /// `turns_without_line`: turns by both sides since a line was last formed.
    TurnsWithoutLine,
    /// `quiet_turns`: turns by both sides since one last placed or removed a
    /// piece.
    QuietTurns,
    /// `turn`: turns played so far in the game.
    Turn,
    /// `empty_points`: empty points on the board.
    EmptyPoints,
    /// `target`: the piece considered for removal.
    Target,
    /// `lines_formed`: lines the move completed through the moved piece (in a
    /// forbid rule: would complete).
    LinesFormed,
    /// `in_hand(player)`: pieces the player still holds in hand.
    InHand,
    /// `on_board(player)`: pieces the player has on the board.
    OnBoard,
    /// `lines(player)`: complete lines the player owns on the board.
    Lines,
    /// `in_line(point)`: the piece on the point lies in a complete line of its
    /// owner.
    InLine,
    /// `all_in_lines(player)`: every piece of the player on the board lies in a
    /// complete line.
    AllInLines,
    /// `lost(player)`: pieces of the player removed so far.
    Lost,
    /// `after('pattern')`: the move-class history ends with the pattern (its
    /// argument is an index into [`crate::Rules::patterns`]).
    After,
    /// `captured(player)`: prisoners the player has taken (pass stones not
    /// included).
    Captured,
    /// `pass_stones(player)`: pass stones the player has received.
    PassStones,
    /// `last_play_suicide`: the last move was a board play that left a chain of
    /// its player without liberty.
    LastPlaySuicide,
    /// `immediate_repetition`: the last move was an immediate repetition.
    ImmediateRepetition,
    /// `board_repetitions`: occurrences of the board the last board play made,
    /// as the result of a board play (0 after other moves).
    BoardRepetitions,
    /// `no_safe_move`: every legal move of the player to move loses at once.
    NoSafeMove,
    /// `own_neighbours(point)`: pieces of the player to move next to the point.
    OwnNeighbours,
    /// The line a `counts` rule judges.
    Line,
    /// `formed_before(line)`: the player to move completed the line earlier in
    /// the game.
    FormedBefore,
    /// `turns_since_formed(line)`: turns by both sides since the player to move
    /// last completed the line (`u32::MAX` if never).
    TurnsSinceFormed,
    /// `turns_since_traded(line)`: turns by both sides since the player to move
    /// last moved a piece out of the complete line while completing another
    /// (`u32::MAX` if never).
    TurnsSinceTraded,
    /// Lines a player completed in turns begun in a phase.
    LinesFormedIn,
    /// `captures`: in a forbid rule, opposing pieces the judged move would take
    /// by itself.
    Captures,
    /// `run_length`: in a forbid rule, the longest run of the mover's pieces
    /// through the judged move's destination, after it, along one direction.
    RunLength,
    /// `lines_formed(cond)`: lines the judged move completes for which the
    /// condition holds (judged with `line` bound to each).
    LinesFormedWhere,
    /// Complete lines of the mover the judged move leaves.
    LinesBroken,
    /// `lines_broken(cond)`: those of `lines_broken` for which the condition
    /// holds (judged with `line` bound to each).
    LinesBrokenWhere,
    /// The point the judged move goes to.
    To,
    /// The point a judged slide, fly or leap leaves.
    From,
    /// The direction of the line the judged move goes along.
    Direction,
    /// `direction(line)`.
    DirectionOf,
}

impl Prim {
    /// A piece count or who is who (`me`, `opponent`, `in_hand`,
    /// `on_board`, `lost`): the same in every position with the same
    /// pieces on the board and in hand per player and the same player to
    /// move (one sector of the Morris solvers).
    pub fn reads_piece_counts_only(self) -> bool {
        matches!(
            self,
            Prim::Me | Prim::Opponent | Prim::InHand | Prim::OnBoard | Prim::Lost
        )
    }
}

/// Whether `e` reads nothing but piece counts and who is who
/// ([`Prim::reads_piece_counts_only`]), so its value is one per sector and
/// player to move.
pub fn reads_piece_counts_only(e: &morrigo_dsl::Expr<Prim>) -> bool {
    let mut only = true;
    e.for_each_symbol(&mut |p| only &= p.reads_piece_counts_only());
    only
}

/// The names of line directions in expressions, by value: the board's
/// [`morrigo_board::LineDirection::ALL`] in order, then `none` (a move
/// along no line).
pub const DIRECTIONS: [&str; 7] = [
    "horizontal",
    "vertical",
    "diagonal",
    "side",
    "cross",
    "unknown",
    "none",
];

/// The value of `none`, the direction of a move along no line.
pub const NO_DIRECTION: i64 = 6;

/// The value of a direction in expressions.
pub fn direction_value(d: morrigo_board::LineDirection) -> i64 {
    morrigo_board::LineDirection::ALL
        .iter()
        .position(|x| *x == d)
        .unwrap_or(NO_DIRECTION as usize) as i64
}

/// Where an expression stands in a ruleset; decides which names it may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// `phases.NAME.when`
    PhaseWhen,
    /// `phases.NAME.actions.KIND`
    ActionGuard,
    /// `on_line_formed.removals`
    Removals,
    /// `on_line_formed.removable`
    Removable,
    /// `on_line_formed.counts` (judges one completed `line`)
    LineCounts,
    /// `end.NAME.lose|win|draw`
    End,
    /// `forbid.NAME.when`
    Forbid,
    /// `phases.NAME.actions.remove`: may read `target` and `no_legal_move`
    RemoveAction,
    /// `phases.NAME.extra_turn` and `phases.NAME.first`, read when a turn ends
    TurnEnd,
    /// The condition of `lines_formed(…)` / `lines_broken(…)` in a forbid
    /// rule, judged for each `line`
    EachLine,
}

/// One built-in name of the rule language: its type, meaning and where it
/// may be used.
pub struct Entry {
    /// The name as written in expressions; a name may have both a value form
    /// and a call form, as two entries.
    pub name: &'static str,
    /// What the engine evaluates for it.
    pub prim: Prim,
    /// Parameter types of the call form; empty for a value.
    pub params: &'static [Type],
    /// The type of the value, or of the call's result.
    pub ty: Type,
    /// What it means, as the expression reference (docs/src/expressions.md) says it.
    pub doc: &'static str,
    /// Contexts where the name is not available, with the reason.
    pub not_in: &'static [(Context, &'static str)],
}

const NO_PHASE: (Context, &str) = (
    Context::PhaseWhen,
    "the phase is decided by the `when` conditions, so they cannot depend on it",
);
const NO_MOVES_IN_WHEN: (Context, &str) = (
    Context::PhaseWhen,
    "legal moves depend on the phase, so its `when` cannot use them",
);
const NO_MOVES_IN_GUARD: (Context, &str) = (
    Context::ActionGuard,
    "legal moves are decided by the action conditions, so they cannot use them",
);
const NO_MOVES_IN_REMOVE: (Context, &str) = (
    Context::RemoveAction,
    "which removals are legal is what this condition decides, so it cannot ask whether every legal \
     move loses; `no_legal_move` here means no other legal move",
);
const NO_MOVES_AT_TURN_END: (Context, &str) = (
    Context::TurnEnd,
    "the turn has just ended and the next player is not decided yet, so there are no legal moves to ask about",
);
const NO_MOVES_PER_LINE: (Context, &str) = (
    Context::EachLine,
    "a condition judged for each line of a move cannot ask about every legal move",
);
const NO_MOVES_IN_FORBID: (Context, &str) = (
    Context::Forbid,
    "forbid rules decide which moves are legal, so their `when` cannot ask whether every legal \
     move loses (the answer would depend on the rule itself); end rules can, and a forbid rule \
     can read `no_legal_move`",
);
const ONLY_REMOVABLE: &[(Context, &str)] = &[
    (
        Context::PhaseWhen,
        "`target` exists only in `on_line_formed.removable` and in a `remove` action's condition",
    ),
    (
        Context::ActionGuard,
        "`target` exists only in `on_line_formed.removable` and in a `remove` action's condition",
    ),
    (
        Context::Removals,
        "`target` exists only in `on_line_formed.removable` and in a `remove` action's condition",
    ),
    (
        Context::End,
        "`target` exists only in `on_line_formed.removable` and in a `remove` action's condition",
    ),
    (
        Context::TurnEnd,
        "`target` exists only in `on_line_formed.removable` and in a `remove` action's condition",
    ),
    (
        Context::LineCounts,
        "`target` exists only in `on_line_formed.removable`",
    ),
    (
        Context::EachLine,
        "`target` exists only in `on_line_formed.removable` and in a `remove` action's condition",
    ),
];
const ONLY_LINE_COUNTS: &[(Context, &str)] = &[
    (
        Context::PhaseWhen,
        "`line` exists only in `on_line_formed.counts` and in the condition of `lines_formed(…)` and `lines_broken(…)`",
    ),
    (
        Context::ActionGuard,
        "`line` exists only in `on_line_formed.counts` and in the condition of `lines_formed(…)` and `lines_broken(…)`",
    ),
    (
        Context::Removals,
        "`line` exists only in `on_line_formed.counts` and in the condition of `lines_formed(…)` and `lines_broken(…)`",
    ),
    (
        Context::Removable,
        "`line` exists only in `on_line_formed.counts` and in the condition of `lines_formed(…)` and `lines_broken(…)`",
    ),
    (
        Context::End,
        "`line` exists only in `on_line_formed.counts` and in the condition of `lines_formed(…)` and `lines_broken(…)`",
    ),
    (
        Context::Forbid,
        "`line` exists only in `on_line_formed.counts` and in the condition of `lines_formed(…)` and `lines_broken(…)`",
    ),
];
const ONLY_LINE_RULE: &[(Context, &str)] = &[
    (
        Context::PhaseWhen,
        "`lines_formed` exists only in `on_line_formed`, `extra_turn`, `first` and forbid rules' `when`",
    ),
    (
        Context::ActionGuard,
        "`lines_formed` exists only in `on_line_formed`, `extra_turn`, `first` and forbid rules' `when`; to refuse moves by it, write a forbid rule naming their kind",
    ),
    (
        Context::End,
        "`lines_formed` exists only in `on_line_formed`, `extra_turn`, `first` and forbid rules' `when`",
    ),
    (
        Context::RemoveAction,
        "`lines_formed` exists only in `on_line_formed`, `extra_turn`, `first` and forbid rules' `when` (a removal forms no line)",
    ),
    (
        Context::LineCounts,
        "`lines_formed` is the number of lines `counts` lets count, so `counts` cannot read it",
    ),
];
/// Values about the candidate move exist only where a move is judged.
const ONLY_FORBID: &[(Context, &str)] = &[
    (
        Context::PhaseWhen,
        "values about the move being judged exist only in forbid rules' `when`",
    ),
    (
        Context::ActionGuard,
        "values about the move being judged exist only in forbid rules' `when`; to refuse moves by it, write a forbid rule naming their kind (e.g. `moves: [slide]`)",
    ),
    (
        Context::Removals,
        "values about the move being judged exist only in forbid rules' `when`",
    ),
    (
        Context::Removable,
        "values about the move being judged exist only in forbid rules' `when`",
    ),
    (
        Context::End,
        "values about the move being judged exist only in forbid rules' `when`",
    ),
    (
        Context::RemoveAction,
        "`lines_formed` exists only in `on_line_formed`, `extra_turn` and `first` (a removal forms no line)",
    ),
    (
        Context::LineCounts,
        "`lines_formed` is the number of lines `counts` lets count, so `counts` cannot read it",
    ),
];

/// The contexts outside forbid rules, each refusing values about the
/// judged move (with `$extra` contexts appended): one list for both tables
/// below.
macro_rules! judged_only {
    ($($extra:expr),* $(,)?) => {
        &[
            (
                Context::PhaseWhen,
                "values about the move being judged exist only in forbid rules' `when`",
            ),
            (
                Context::ActionGuard,
                "values about the move being judged exist only in forbid rules' `when`; to refuse moves by it, write a forbid rule naming their kind (e.g. `moves: [slide]`)",
            ),
            (
                Context::Removals,
                "values about the move being judged exist only in forbid rules' `when`",
            ),
            (
                Context::Removable,
                "values about the move being judged exist only in forbid rules' `when`",
            ),
            (
                Context::End,
                "values about the move being judged exist only in forbid rules' `when`",
            ),
            (
                Context::RemoveAction,
                "values about the move being judged exist only in forbid rules' `when`; to refuse removals by it, write a forbid rule naming `remove`",
            ),
            (
                Context::LineCounts,
                "values about the move being judged exist only in forbid rules' `when`",
            ),
            (
                Context::TurnEnd,
                "values about the move being judged exist only in forbid rules' `when`",
            ),
            $($extra,)*
        ]
    };
}

/// Values about the judged move that are not counts of lines: forbid
/// rules only (and the per-line conditions inside them).
const ONLY_JUDGED: &[(Context, &str)] = judged_only!();
/// Counts of lines meeting a condition: forbid rules, not nested.
const ONLY_JUDGED_OUTERMOST: &[(Context, &str)] = judged_only!((
    Context::EachLine,
    "a condition judged for each line cannot count lines by a condition in turn",
));

const P: &[Type] = &[Type::Player];

/// The DSL's built-in names.
pub const VOCABULARY: &[Entry] = &[
    Entry { name: "me", prim: Prim::Me, params: &[], ty: Type::Player, doc: "the player whose turn it is", not_in: &[] },
    Entry { name: "opponent", prim: Prim::Opponent, params: &[], ty: Type::Player, doc: "the other player", not_in: &[] },
    Entry { name: "phase", prim: Prim::Phase, params: &[], ty: Type::Phase, doc: "the current phase of the player to move (compare with a phase name)", not_in: &[NO_PHASE] },
    Entry { name: "no_safe_move", prim: Prim::NoSafeMove, params: &[], ty: Type::Bool, doc: "every legal move of the player to move loses at once (a suicide or an immediate repetition that the ruleset makes a loss): the JK \"no-play points\" reading", not_in: &[NO_MOVES_IN_WHEN, NO_MOVES_IN_GUARD, NO_MOVES_IN_FORBID, NO_MOVES_IN_REMOVE, NO_MOVES_AT_TURN_END, NO_MOVES_PER_LINE] },
    Entry { name: "no_legal_move", prim: Prim::NoLegalMove, params: &[], ty: Type::Bool, doc: "the player to move has no legal action (in a forbid rule: none outside the moves the rule names, judged by the forbid rules that do not read `no_legal_move`)", not_in: &[NO_MOVES_IN_WHEN, NO_MOVES_IN_GUARD, NO_MOVES_AT_TURN_END, NO_MOVES_PER_LINE] },
    Entry { name: "repetitions", prim: Prim::Repetitions, params: &[], ty: Type::Int, doc: "how many times the current position (board, hands, player to move) has occurred, this time included", not_in: &[] },
    Entry { name: "turns_without_removal", prim: Prim::TurnsWithoutRemoval, params: &[], ty: Type::Int, doc: "turns played by both sides together since the last removal (a turn is a move plus its removals; a capture is a removal)", not_in: &[] },
    Entry { name: "quiet_turns", prim: Prim::QuietTurns, params: &[], ty: Type::Int, doc: "turns played by both sides together since a turn last placed or removed a piece (a quiet turn only moves one: the Sanmill app's n-move rule; in Go, the passes since the last play)", not_in: &[] },
    Entry { name: "turns_without_line", prim: Prim::TurnsWithoutLine, params: &[], ty: Type::Int, doc: "turns played by both sides together since a line was last formed", not_in: &[] },
    Entry { name: "turn", prim: Prim::Turn, params: &[], ty: Type::Int, doc: "turns played so far in the game", not_in: &[] },
    Entry { name: "empty_points", prim: Prim::EmptyPoints, params: &[], ty: Type::Int, doc: "number of empty points on the board", not_in: &[] },
    Entry { name: "target", prim: Prim::Target, params: &[], ty: Type::Point, doc: "the piece considered for removal (in `on_line_formed.removable`, a `remove` action's condition, and a forbid rule naming only `remove`: an opposing piece, the one the judged removal takes; in a `remove_own` action's condition: one of the mover's own)", not_in: ONLY_REMOVABLE },
    Entry { name: "lines_formed", prim: Prim::LinesFormed, params: &[], ty: Type::Int, doc: "lines the move just completed through the moved piece (in `extra_turn` and `first`: the lines the turn's move completed; in a forbid rule: the lines the move being judged would complete through its destination)", not_in: ONLY_LINE_RULE },
    Entry { name: "captures", prim: Prim::Captures, params: &[], ty: Type::Int, doc: "in a forbid rule: opposing pieces the move being judged would take by itself (a board play: the stones it captures; a placement, slide, fly or leap: what the ruleset's `captures:` rules would take; removals a line earns are not counted)", not_in: ONLY_FORBID },
    Entry { name: "lines_formed", prim: Prim::LinesFormedWhere, params: &[Type::Bool], ty: Type::Int, doc: "in a forbid rule: the lines the move being judged would complete through its destination for which the condition holds, judged for each as `line` on the position before the move (`lines_formed(turns_since_traded(line) <= 2)`)", not_in: ONLY_JUDGED_OUTERMOST },
    Entry { name: "lines_broken", prim: Prim::LinesBroken, params: &[], ty: Type::Int, doc: "in a forbid rule: the complete lines of the mover through the point the move being judged leaves (a slide, fly or leap; 0 for other moves)", not_in: ONLY_JUDGED },
    Entry { name: "lines_broken", prim: Prim::LinesBrokenWhere, params: &[Type::Bool], ty: Type::Int, doc: "in a forbid rule: those of `lines_broken` for which the condition holds, judged for each as `line`", not_in: ONLY_JUDGED_OUTERMOST },
    Entry { name: "to", prim: Prim::To, params: &[], ty: Type::Point, doc: "in a forbid rule: the point the move being judged goes to (placed on, moved to, removed from; a pass has none)", not_in: ONLY_JUDGED },
    Entry { name: "from", prim: Prim::From, params: &[], ty: Type::Point, doc: "in a forbid rule: the point a slide, fly or leap being judged leaves (other moves have none)", not_in: ONLY_JUDGED },
    Entry { name: "direction", prim: Prim::Direction, params: &[], ty: Type::Direction, doc: "in a forbid rule: the direction of the board line the move being judged goes along: a slide or fly between two consecutive points of a line, a leap over the middle of three (`none` for other moves)", not_in: ONLY_JUDGED },
    Entry { name: "direction", prim: Prim::DirectionOf, params: &[Type::Line], ty: Type::Direction, doc: "the direction of the line (see *Line directions*)", not_in: &[] },
    Entry { name: "run_length", prim: Prim::RunLength, params: &[], ty: Type::Int, doc: "in a forbid rule: the longest run of the mover's pieces through the destination of the move being judged, after it, along one line direction of the board (0 for removals and passes)", not_in: ONLY_FORBID },
    Entry { name: "in_hand", prim: Prim::InHand, params: P, ty: Type::Int, doc: "pieces the player still holds in hand", not_in: &[] },
    Entry { name: "on_board", prim: Prim::OnBoard, params: P, ty: Type::Int, doc: "pieces the player has on the board", not_in: &[] },
    Entry { name: "lines", prim: Prim::Lines, params: P, ty: Type::Int, doc: "complete lines the player owns on the board", not_in: &[] },
    Entry { name: "in_line", prim: Prim::InLine, params: &[Type::Point], ty: Type::Bool, doc: "the piece on the point lies in a complete line of its owner", not_in: &[] },
    Entry { name: "all_in_lines", prim: Prim::AllInLines, params: P, ty: Type::Bool, doc: "every piece the player has on the board lies in a complete line", not_in: &[] },
    Entry { name: "lost", prim: Prim::Lost, params: P, ty: Type::Int, doc: "pieces of the player removed so far (captured stones included)", not_in: &[] },
    Entry { name: "after", prim: Prim::After, params: &[Type::Pattern], ty: Type::Bool, doc: "the move-class history ends with the quoted pattern, e.g. `after('E E | E C C E')` (the classes the ruleset declares)", not_in: &[] },
    Entry { name: "captured", prim: Prim::Captured, params: P, ty: Type::Int, doc: "captured prisoners the player has taken (pass stones not included)", not_in: &[] },
    Entry { name: "pass_stones", prim: Prim::PassStones, params: P, ty: Type::Int, doc: "pass stones the player has received", not_in: &[] },
    Entry { name: "last_play_suicide", prim: Prim::LastPlaySuicide, params: &[], ty: Type::Bool, doc: "the last move was a board play that left a chain of its player without liberty", not_in: &[] },
    Entry { name: "immediate_repetition", prim: Prim::ImmediateRepetition, params: &[], ty: Type::Bool, doc: "the last move was an immediate repetition in the reading `repetition.immediate_reading` names (simple ko, or JK Art. 3.2)", not_in: &[] },
    Entry { name: "own_neighbours", prim: Prim::OwnNeighbours, params: &[Type::Point], ty: Type::Int, doc: "pieces of the player to move on the points next to the point", not_in: &[] },
    Entry { name: "board_repetitions", prim: Prim::BoardRepetitions, params: &[], ty: Type::Int, doc: "if the last move was a board play: how often its resulting board has occurred as the result of a board play, this time included; else 0", not_in: &[] },
    Entry { name: "line", prim: Prim::Line, params: &[], ty: Type::Line, doc: "the line just completed that `on_line_formed.counts` judges, or the line the condition of `lines_formed(…)` or `lines_broken(…)` judges", not_in: ONLY_LINE_COUNTS },
    Entry { name: "formed_before", prim: Prim::FormedBefore, params: &[Type::Line], ty: Type::Bool, doc: "the player to move completed this line earlier in the game (a line counts as completed whether or not it counted or earned a removal)", not_in: &[] },
    Entry { name: "turns_since_formed", prim: Prim::TurnsSinceFormed, params: &[Type::Line], ty: Type::Int, doc: "turns played by both sides together since the player to move last completed this line (4294967295 if never)", not_in: &[] },
    Entry { name: "lines_formed_in", prim: Prim::LinesFormedIn, params: &[Type::Phase, Type::Player], ty: Type::Int, doc: "lines the player completed in the turns it began in the phase, counted as `lines_formed` counts them, this turn's move included once made: a count that stops changing when the phase is over (El Filja's removals fixed when placing ends)", not_in: &[] },
    Entry { name: "turns_since_traded", prim: Prim::TurnsSinceTraded, params: &[Type::Line], ty: Type::Int, doc: "turns played by both sides together since the player to move traded this line: moved a piece out of it while it was complete, completing another line with that move (4294967295 if never)", not_in: &[] },
];

/// The names visible in one place of one ruleset.
#[derive(Clone, Copy)]
pub struct RuleEnv<'a> {
    /// Where the expression stands, which decides the built-in names it may use.
    pub context: Context,
    /// Player names, constants of type player (their index).
    pub players: &'a [String],
    /// Phase names, constants of type phase (their index).
    pub phases: &'a [String],
    /// Params by name, whole-number constants.
    pub params: &'a [(String, i64)],
    /// Move classes a history pattern may name; empty: no patterns.
    pub classes: &'a [u8],
    /// Derived classes (runs of moves the engine recognises), by letter.
    pub derived: &'a [u8],
    /// What the board bounds, for proving arithmetic cannot overflow.
    pub board: BoardBounds,
    /// Patterns compiled so far; `after('…')` holds an index into it.
    pub patterns: &'a std::cell::RefCell<Vec<morrigo_dsl::Pattern>>,
    /// The board, whose point names and line directions are values
    /// (`None` when the board has an error).
    pub topology: Option<&'a morrigo_board::Topology>,
}

/// Counts the board bounds (`None` when the board is not known, for
/// instance because it has an error).
#[derive(Clone, Copy, Debug, Default)]
pub struct BoardBounds {
    /// Points on the board.
    pub points: Option<usize>,
    /// Lines of the board.
    pub lines: Option<usize>,
    /// The most lines through one point.
    pub lines_at_a_point: Option<usize>,
}

impl BoardBounds {
    /// The bounds of board `t`, all unknown without one.
    pub fn of(t: Option<&morrigo_board::Topology>) -> Self {
        match t {
            None => BoardBounds::default(),
            Some(t) => BoardBounds {
                points: Some(t.len()),
                lines: Some(t.lines.len()),
                lines_at_a_point: Some(t.lines_through.iter().map(Vec::len).max().unwrap_or(0)),
            },
        }
    }
}

impl RuleEnv<'_> {
    /// The same names, for an expression in another context.
    pub fn within(self, context: Context) -> Self {
        RuleEnv { context, ..self }
    }

    /// The vocabulary entry `name` stands for: written as a call (`call`)
    /// the one with parameters, else the value, when a name has both.
    fn entry(name: &str, call: bool) -> Option<&'static Entry> {
        let mut named = VOCABULARY.iter().filter(|e| e.name == name);
        let first = named.clone().next()?;
        Some(named.find(|e| e.params.is_empty() != call).unwrap_or(first))
    }

    /// A built-in name, a direction or a point of the board; other names
    /// take precedence over a point of the same name.
    fn builtin(&self, name: &str, call: bool) -> Option<Binding<Prim>> {
        if let Some(entry) = Self::entry(name, call) {
            if entry.not_in.iter().any(|(c, _)| *c == self.context) {
                return None;
            }
            return Some(if entry.params.is_empty() {
                Binding::Value {
                    ty: entry.ty,
                    sym: entry.prim,
                }
            } else {
                Binding::Function {
                    params: entry.params.to_vec(),
                    ret: entry.ty,
                    sym: entry.prim,
                }
            });
        }
        if let Some(i) = DIRECTIONS.iter().position(|d| *d == name) {
            return self.has_direction(i).then_some(Binding::Const {
                ty: Type::Direction,
                value: i as i64,
            });
        }
        let p = self.topology?.point(name)?;
        Some(Binding::Const {
            ty: Type::Point,
            value: i64::from(p),
        })
    }

    /// Whether some line of the board runs in direction `i` (`none` always
    /// exists; an unknown board has every direction).
    fn has_direction(&self, i: usize) -> bool {
        i as i64 == NO_DIRECTION
            || self.topology.is_none_or(|t| {
                t.line_directions
                    .iter()
                    .any(|d| direction_value(*d) == i as i64)
            })
    }
}

impl Env<Prim> for RuleEnv<'_> {
    fn lookup(&self, name: &str) -> Option<Binding<Prim>> {
        if let Some((_, v)) = self.params.iter().find(|(n, _)| n == name) {
            return Some(Binding::Const {
                ty: Type::Int,
                value: *v,
            });
        }
        if let Some(i) = self.players.iter().position(|p| p == name) {
            return Some(Binding::Const {
                ty: Type::Player,
                value: i as i64,
            });
        }
        if let Some(i) = self.phases.iter().position(|p| p == name) {
            return Some(Binding::Const {
                ty: Type::Phase,
                value: i as i64,
            });
        }
        self.builtin(name, false)
    }

    fn lookup_call(&self, name: &str) -> Option<Binding<Prim>> {
        self.lookup(name)
            .filter(|b| matches!(b, Binding::Function { .. }))
            .or_else(|| self.builtin(name, true))
    }

    fn unavailable_call(&self, name: &str) -> Option<String> {
        let entry = Self::entry(name, true)?;
        entry
            .not_in
            .iter()
            .find(|(c, _)| *c == self.context)
            .map(|(_, why)| why.to_string())
    }

    fn argument_env(&self, sym: Prim) -> Option<Self> {
        matches!(sym, Prim::LinesFormedWhere | Prim::LinesBrokenWhere)
            .then(|| self.within(Context::EachLine))
    }

    fn names(&self) -> Vec<String> {
        let builtins = VOCABULARY
            .iter()
            .filter(|e| !e.not_in.iter().any(|(c, _)| *c == self.context))
            .map(|e| e.name.to_string());
        let directions = (0..DIRECTIONS.len())
            .filter(|&i| self.has_direction(i))
            .map(|i| DIRECTIONS[i].to_string());
        let points = self.topology.map_or(&[][..], |t| &t.names[..]);
        self.params
            .iter()
            .map(|(n, _)| n.clone())
            .chain(self.players.iter().cloned())
            .chain(self.phases.iter().cloned())
            .chain(builtins)
            .chain(directions)
            .chain(points.iter().cloned())
            .collect()
    }

    fn unavailable(&self, name: &str) -> Option<String> {
        if let Some(i) = DIRECTIONS.iter().position(|d| *d == name) {
            let t = self.topology?;
            let mut here: Vec<&str> = t.line_directions.iter().map(|d| d.name()).collect();
            here.sort_unstable();
            here.dedup();
            return (!self.has_direction(i)).then(|| {
                format!(
                    "no line of this board runs `{name}`; its lines run {}",
                    if here.is_empty() {
                        "nowhere (it has no lines)".to_string()
                    } else {
                        here.join(", ")
                    }
                )
            });
        }
        let entry = VOCABULARY.iter().find(|e| e.name == name)?;
        entry
            .not_in
            .iter()
            .find(|(c, _)| *c == self.context)
            .map(|(_, why)| why.to_string())
    }

    /// Every built-in number is a count the engine keeps in 32 bits; those
    /// the board limits are bounded by it. The checker proves from these
    /// that arithmetic cannot overflow.
    fn bounds(&self, sym: Prim) -> (i64, i64) {
        let b = self.board;
        let hi = match sym {
            Prim::OnBoard | Prim::EmptyPoints | Prim::OwnNeighbours => b.points,
            Prim::Lines => b.lines,
            Prim::LinesFormed => b.lines_at_a_point,
            Prim::Captures | Prim::RunLength => b.points,
            Prim::LinesFormedWhere | Prim::LinesBroken | Prim::LinesBrokenWhere => {
                b.lines_at_a_point
            }
            _ => None,
        };
        (0, hi.map_or(u32::MAX as i64, |n| n as i64))
    }

    fn pattern(&self, text: &str, span: morrigo_dsl::Span) -> Result<i64, morrigo_dsl::DslError> {
        if self.classes.is_empty() {
            return Err(morrigo_dsl::DslError::at(
                span,
                "this ruleset records no move classes, so history patterns mean nothing here",
            )
            .with_expected("a ruleset with `play:` or `passes:`"));
        }
        let pattern =
            morrigo_dsl::Pattern::compile(text, self.classes, self.derived).map_err(|mut e| {
                // The pattern's own spans are relative to its text.
                e.span = morrigo_dsl::Span {
                    start: span.start + e.span.start,
                    end: span.start + e.span.end,
                };
                e
            })?;
        let mut table = self.patterns.borrow_mut();
        if let Some(i) = table.iter().position(|p| p.text() == pattern.text()) {
            return Ok(i as i64);
        }
        table.push(pattern);
        Ok(table.len() as i64 - 1)
    }
}

/// The DSL reference as Markdown (kept in docs/src/expressions.md; `docs::the_expression_reference_is_the_vocabulary` in morrigo-cli checks it is current).
pub fn reference_markdown() -> String {
    let mut out = String::from("| name | type | meaning |\n|---|---|---|\n");
    for e in VOCABULARY {
        let sig = if e.params.is_empty() {
            e.name.to_string()
        } else {
            let ps: Vec<&str> = e
                .params
                .iter()
                .map(|t| match t {
                    Type::Player => "player",
                    Type::Point => "point",
                    Type::Line => "line",
                    Type::Phase => "phase",
                    Type::Pattern => "'pattern'",
                    Type::Bool => "condition",
                    _ => "value",
                })
                .collect();
            format!("{}({})", e.name, ps.join(", "))
        };
        let ty = match e.ty {
            Type::Int => "number",
            Type::Bool => "condition",
            Type::Player => "player",
            Type::Point => "point",
            Type::Phase => "phase",
            Type::Line => "line",
            Type::Pattern => "pattern",
            Type::Direction => "direction",
        };
        out.push_str(&format!("| `{sig}` | {ty} | {} |\n", e.doc));
    }
    out
}
