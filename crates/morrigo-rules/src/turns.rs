//! Who moves next: the turn-order keys of a phase (`extra_turn`, `first`)
//! and the `remove` and `remove_own` actions, removals made as moves of
//! their own.

/// The action name of a removal made as a move (`actions: { remove: COND }`).
pub const REMOVE_ACTION: &str = "remove";

/// The action name of the removal of one's own piece made as a move
/// (`actions: { remove_own: COND }`).
pub const REMOVE_OWN_ACTION: &str = "remove_own";
