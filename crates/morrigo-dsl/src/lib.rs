//! The rule-expression language of Morrigo rulesets.
//!
//! Text (`grammar/expr.pest`) → [`Ast`] with byte spans → type-checked
//! [`Expr`] over the symbols of an [`Env`]. The language itself knows no game:
//! the names it can use (`in_hand`, `me`, phase names, parameters…) come from
//! the environment the ruleset compiler supplies, so a new primitive is a new
//! entry there, not a grammar change.

mod ast;
mod check;
pub mod pattern;

pub use ast::{parse, Ast, BinOp, Span, UnOp};
pub use check::{compile, fold, Binding, Env, Expr, Type};
pub use pattern::{History, Pattern};

/// An error in one expression; `span` is a byte range of the expression text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DslError {
    pub span: Span,
    pub message: String,
    pub expected: Option<String>,
    pub note: Option<String>,
}

impl DslError {
    /// An error at `span` (for environments reporting their own problems).
    pub fn at(span: Span, message: impl Into<String>) -> Self {
        Self::new(span, message)
    }

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
