//! Exact game values of Morrigo rulesets.
//!
//! [`history`]: a full-history game-tree search (alpha-beta over the
//! engine's apply/undo) for rulesets whose legality or end rules read the
//! history (ko, superko, JK move classes and D runs, pass patterns), on
//! boards small enough for it to finish.

pub mod history;
