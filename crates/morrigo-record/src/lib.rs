//! Move records and scenarios for Morrigo.
//!
//! * [`replay`] plays a move record (`d1 d2 g1 xd2 d1-a1 …`) on a ruleset and
//!   returns a [`Transcript`]: every ply annotated with its player, phase and
//!   what it did, the result (naming the end rule that decided it) and the
//!   final board. A refused or unreadable move is a [`ReplayError`] with a
//!   located [`Diagnostic`](morrigo_diag::Diagnostic) that quotes the rule,
//!   and the transcript up to that point. Go-family records (`D4 pass:E
//!   resign`, `agree:D4,E5`) add each move's class (N, C, P, E), D marks, the
//!   next player's legal passes and the count ([`Transcript::to_json`]; the
//!   JSON shape is documented in `JSON.md`).
//! * [`run_file`] / [`run_path`] run scenario files: YAML files in which rule
//!   authors state what a ruleset must do (see [`scenario_file`] for the
//!   format, also documented in `SCENARIOS.md`).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod lines;
mod replay;
mod scenario;
pub mod scenario_file;
mod transcript;

pub use replay::{render_board, replay, replay_from, replay_more, ReplayError, MAX_RECORD_TOKENS};
pub use scenario::{
    run_file, run_path, run_text, Check, FileReport, PathReport, ScenarioOutcome, ScenarioResult,
};
pub use transcript::{GoPly, PlyRecord, ResultRecord, Score, Status, Transcript};
