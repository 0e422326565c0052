//! Who moves next: the turn-order keys of a phase (`extra_turn`, `first`)
//! and the `remove` action, a removal made as a move of its own.

/// The action name of a removal made as a move (`actions: { remove: COND }`).
pub const REMOVE_ACTION: &str = "remove";
