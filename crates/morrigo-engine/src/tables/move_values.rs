//! What judging single moves needs (forbid rules judged per move, and
//! the board's line directions `run_length` walks), built once with the
//! machine; [`crate::move_values`] judges the moves.

use morrigo_rules::move_values::LineSteps;
use morrigo_rules::{Prim, Rules};

/// What judging single moves needs, built once with the machine.
#[derive(Clone, Debug, Default)]
pub(crate) struct MoveJudge {
    /// Some forbid rule is judged per move.
    pub(crate) any: bool,
    /// The board's line directions, when a rule reads `run_length`.
    pub(crate) steps: Option<LineSteps>,
}

impl MoveJudge {
    pub(crate) fn of(rules: &Rules) -> Self {
        let any = rules.forbid.iter().any(|f| f.per_move());
        let steps = rules
            .forbid
            .iter()
            .any(|f| f.when.uses(Prim::RunLength))
            // `check` refuses a board whose lines are ambiguous for runs.
            .then(|| LineSteps::of(&rules.topology).unwrap_or_default());
        MoveJudge { any, steps }
    }
}
