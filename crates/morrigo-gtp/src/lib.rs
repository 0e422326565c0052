//! GTP (the Go Text Protocol, version 2) for Morrigo's Go-style rulesets.
//!
//! * [`protocol`]: command lines, responses, vertices and colours.
//! * [`engine`]: `morrigo gtp`, an engine that plays any Go-style ruleset
//!   with a built-in agent, with typed passes (`pass:E`) and the
//!   `morrigo-explain`, `morrigo-legal` and `morrigo-classes` extensions.
//! * [`handicap`]: where handicap stones go (`fixed_handicap`,
//!   `place_free_handicap`).
//! * [`referee`]: `morrigo match`, a referee for two external GTP engines
//!   ([`client`] runs each one, with a deadline on every answer).

#![warn(missing_docs)]
// Unsafe code only where an item allows it (FFI, an allocator, atomics
// over a buffer), each with its reason.
#![deny(unsafe_code)]

pub mod client;
pub mod engine;
mod game;
pub mod handicap;
pub mod protocol;
pub mod referee;

pub use engine::{Config, Engine};
pub use protocol::{parse_line, Command, Reply};
