//! The rule-expression language of Morrigo rulesets.
//!
//! Text (`grammar/expr.pest`) → [`Ast`] with byte spans → type-checked
//! [`Expr`] over the symbols of an [`Env`]. The language itself knows no game:
//! the names it can use (`in_hand`, `me`, phase names, parameters…) come from
//! the environment the ruleset compiler supplies, so a new primitive is a new
//! entry there, not a grammar change.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod ast;
mod check;
pub mod pattern;

pub use ast::{parse, Ast, BinOp, Span, UnOp};
pub use check::{compile, compile_bounded, fold, Binding, Env, Expr, Type};
pub use pattern::{History, Pattern};

// Limits. Each is checked before the work it bounds, so no input can
// exhaust the stack or memory, in debug and release builds alike.

/// Longest expression text, in bytes.
pub const MAX_EXPR_LEN: usize = 4096;
/// Deepest expression tree: parentheses, calls and chained operators each
/// count a level. Every pass over an expression (type check, folding,
/// the engine's lowering and evaluation) recurses at most this deep.
pub const MAX_EXPR_DEPTH: usize = 100;
/// Deepest parenthesis nesting in a history pattern.
pub const MAX_PATTERN_DEPTH: usize = 32;
/// Largest compiled history pattern, in matcher steps (counted repeats
/// multiply: `(E{8}){8}` is 64 steps).
pub const MAX_PATTERN_SIZE: usize = 1024;
/// Largest repetition count in a pattern's `{m,n}`.
pub const MAX_REPEAT: u32 = 64;

/// An error in one expression; `span` is a byte range of the expression text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DslError {
    /// The part of the expression text the error is about.
    pub span: Span,
    /// What is wrong, in one line; also the error's `Display` text.
    pub message: String,
    /// What was expected instead, when there is something useful to say.
    pub expected: Option<String>,
    /// One more line of help, such as a "did you mean" suggestion or why a
    /// name cannot be used here.
    pub note: Option<String>,
}

impl DslError {
    /// An error at `span` (for environments reporting their own problems).
    pub fn at(span: Span, message: impl Into<String>) -> Self {
        Self::new(span, message)
    }

    /// With what was expected instead (for errors made with [`DslError::at`]).
    pub fn with_expected(self, what: impl Into<String>) -> Self {
        self.expected(what)
    }

    fn new(span: Span, message: impl Into<String>) -> Self {
        DslError {
            span,
            message: message.into(),
            expected: None,
            note: None,
        }
    }

    fn expected(mut self, what: impl Into<String>) -> Self {
        self.expected = Some(what.into());
        self
    }

    fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }
}
