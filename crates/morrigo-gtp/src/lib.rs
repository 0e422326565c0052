//! GTP (the Go Text Protocol, version 2) for Morrigo's Go-style rulesets.
//!
//! * [`protocol`]: command lines, responses, vertices and colours.
//! * [`engine`]: `morrigo gtp`, an engine that plays any Go-style ruleset
//!   with a built-in agent, with typed passes (`pass:E`) and the
//!   `morrigo-explain`, `morrigo-legal` and `morrigo-classes` extensions.

pub mod engine;
mod game;
pub mod protocol;

pub use engine::{Config, Engine};
pub use protocol::{parse_line, Command, Reply};
