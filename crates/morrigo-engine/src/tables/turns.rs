//! The turn-order rules (`extra_turn`, `first`, `remove`, `remove_own`)
//! compiled per phase, with flags saying which a ruleset uses, built once
//! with the machine; [`crate::turns`] applies them.

use crate::compiled::{lower, Op};
use morrigo_rules::{Prim, Rules};

/// The compiled turn-order rules, per phase.
#[derive(Clone, Debug, Default)]
pub(crate) struct TurnOrder {
    pub(crate) extra: Vec<Option<Op>>,
    pub(crate) first: Vec<Option<Op>>,
    /// The `remove` action's condition and whether it reads `no_legal_move`.
    pub(crate) remove: Vec<Option<(Op, bool)>>,
    /// The same for `remove_own`.
    pub(crate) remove_own: Vec<Option<(Op, bool)>>,
    /// Some phase has `extra_turn` or `first`: the next player is decided
    /// by rules, so players need not alternate.
    pub(crate) order: bool,
    /// Some phase names who moves `first`.
    pub(crate) has_first: bool,
    /// Some phase has a `remove` or `remove_own` action.
    pub(crate) has_remove: bool,
    /// Some phase has a `remove_own` action: a removal may take the
    /// mover's own piece.
    pub(crate) has_remove_own: bool,
    /// Keep the phase each turn began in (`Position::turn_phase`): the
    /// turn-order rules read it, and so does a line rule reading `phase`.
    pub(crate) track_phase: bool,
}

impl TurnOrder {
    pub(crate) fn of(rules: &Rules) -> Self {
        let op = |c: &Option<morrigo_rules::Cond>| c.as_ref().map(|c| lower(&c.expr));
        let extra: Vec<_> = rules.phases.iter().map(|p| op(&p.extra_turn)).collect();
        let first: Vec<_> = rules.phases.iter().map(|p| op(&p.first)).collect();
        let guard = |c: &Option<morrigo_rules::Cond>| {
            c.as_ref()
                .map(|c| (lower(&c.expr), c.uses(Prim::NoLegalMove)))
        };
        let remove: Vec<_> = rules.phases.iter().map(|p| guard(&p.remove)).collect();
        let remove_own: Vec<_> = rules.phases.iter().map(|p| guard(&p.remove_own)).collect();
        let order = extra.iter().chain(&first).any(Option::is_some);
        let line_reads_phase = rules
            .line_rule
            .as_ref()
            .is_some_and(|l| l.removals.uses(Prim::Phase) || l.removable.uses(Prim::Phase));
        let has_remove_own = remove_own.iter().any(Option::is_some);
        TurnOrder {
            has_first: first.iter().any(Option::is_some),
            has_remove: has_remove_own || remove.iter().any(Option::is_some),
            has_remove_own,
            extra,
            first,
            remove,
            remove_own,
            order,
            // `lines_formed_in` counts by the phase the turn began in.
            track_phase: order || line_reads_phase || rules.uses(Prim::LinesFormedIn),
        }
    }
}
