//! Board errors: one variant per kind of problem, each with the location of
//! the offending name where one is known.

use std::fmt;

use morrigo_diag::{Diagnostic, Location};

/// Where an unknown point name was used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Usage {
    Edge,
    Line,
    /// A name looked up with [`crate::Topology::resolve`].
    Reference,
}

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Usage::Edge => f.write_str(" in an edge"),
            Usage::Line => f.write_str(" in a line"),
            Usage::Reference => Ok(()),
        }
    }
}

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum BoardError {
    #[error("the board has no points")]
    Empty { at: Option<Location> },

    #[error("the board has {count} points; at most {max} are supported")]
    TooManyPoints {
        count: usize,
        max: usize,
        at: Option<Location>,
    },

    #[error("the board has {count} lines; at most {max} are supported")]
    TooManyLines {
        count: usize,
        max: usize,
        at: Option<Location>,
    },

    #[error("invalid point name `{name}`")]
    BadName { name: String, at: Option<Location> },

    #[error("point `{name}` is defined twice")]
    DuplicatePoint {
        name: String,
        at: Option<Location>,
        /// Where it was first written (boxed to keep the error small).
        first: Option<Box<Location>>,
    },

    #[error("point `{name}` has no coordinates, but point `{other}` has")]
    MissingCoords {
        name: String,
        other: String,
        at: Option<Location>,
    },

    #[error("unknown point `{name}`{usage}")]
    UnknownPoint {
        name: String,
        usage: Usage,
        at: Option<Location>,
        suggestion: Option<String>,
        /// Extra help, e.g. that GTP columns skip `I`.
        hint: Option<&'static str>,
    },

    #[error("edge from point `{name}` to itself")]
    SelfEdge { name: String, at: Option<Location> },

    #[error("edge `{a}`-`{b}` is listed twice")]
    DuplicateEdge {
        a: String,
        b: String,
        at: Option<Location>,
        /// Where it was first written (boxed to keep the error small).
        first: Option<Box<Location>>,
    },

    #[error("line has {len} point(s); a line needs at least 2")]
    ShortLine { len: usize, at: Option<Location> },

    #[error("point `{name}` appears twice in one line")]
    RepeatedInLine { name: String, at: Option<Location> },

    #[error("line `{line}` is listed twice")]
    DuplicateLine {
        line: String,
        at: Option<Location>,
        /// Where it was first written (boxed to keep the error small).
        first: Option<Box<Location>>,
    },

    #[error("line is not a path of the board: `{a}` and `{b}` are not adjacent")]
    NotAPath {
        a: String,
        b: String,
        at: Option<Location>,
    },

    #[error("the board is not connected: `{unreachable}` cannot be reached from `{from}`")]
    Disconnected {
        unreachable: String,
        from: String,
        at: Option<Location>,
    },

    #[error("board parameter `{param}` is {value}, out of range")]
    ParamOutOfRange {
        param: &'static str,
        value: u32,
        /// The allowed range, e.g. "1 to 12".
        allowed: String,
        at: Option<Location>,
    },
}

impl BoardError {
    /// Location of the offending name, if known.
    pub fn location(&self) -> Option<&Location> {
        use BoardError::*;
        match self {
            Empty { at }
            | TooManyPoints { at, .. }
            | TooManyLines { at, .. }
            | BadName { at, .. }
            | DuplicatePoint { at, .. }
            | MissingCoords { at, .. }
            | UnknownPoint { at, .. }
            | SelfEdge { at, .. }
            | DuplicateEdge { at, .. }
            | ShortLine { at, .. }
            | RepeatedInLine { at, .. }
            | DuplicateLine { at, .. }
            | NotAPath { at, .. }
            | Disconnected { at, .. }
            | ParamOutOfRange { at, .. } => at.as_ref(),
        }
    }

    /// A located diagnostic: message, location, what was expected, and notes.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let d = Diagnostic::new(self.to_string())
            .at_opt(self.location().cloned())
            .expected(self.expected());
        self.notes().into_iter().fold(d, Diagnostic::note)
    }

    fn expected(&self) -> String {
        use BoardError::*;
        match self {
            Empty { .. } => "at least one point".into(),
            TooManyPoints { max, .. } => format!("at most {max} points"),
            TooManyLines { max, .. } => format!("at most {max} lines"),
            BadName { .. } => "a point name of ASCII letters, digits and `_` (not `pass` or `resign`), which a move record can hold".into(),
            DuplicatePoint { .. } => "a point name not used before".into(),
            MissingCoords { .. } => "coordinates for every point or for none".into(),
            UnknownPoint { .. } => "the name of a point of the board".into(),
            SelfEdge { .. } => "an edge between two different points".into(),
            DuplicateEdge { .. } => "each edge listed once".into(),
            ShortLine { .. } => "a line of at least 2 points".into(),
            RepeatedInLine { .. } => "each point at most once in a line".into(),
            DuplicateLine { .. } => "each line listed once".into(),
            NotAPath { .. } => "consecutive points of a line to be joined by an edge".into(),
            Disconnected { from, .. } => format!("every point reachable from `{from}`"),
            ParamOutOfRange { param, allowed, .. } => format!("`{param}` from {allowed}"),
        }
    }

    fn notes(&self) -> Vec<String> {
        use BoardError::*;
        match self {
            DuplicatePoint {
                first: Some(loc), ..
            } => vec![format!("first defined at {loc}")],
            DuplicateEdge {
                first: Some(loc), ..
            }
            | DuplicateLine {
                first: Some(loc), ..
            } => {
                vec![format!("first listed at {loc}")]
            }
            UnknownPoint {
                suggestion, hint, ..
            } => {
                let did_you_mean = suggestion.as_ref().map(|s| format!("did you mean `{s}`?"));
                did_you_mean
                    .into_iter()
                    .chain(hint.map(String::from))
                    .collect()
            }
            NotAPath { a, b, .. } => vec![format!(
                "add an edge `{a}`-`{b}`, or list the line's points in path order"
            )],
            Disconnected { unreachable, .. } => {
                vec![format!(
                    "add an edge joining `{unreachable}` to the rest of the board"
                )]
            }
            _ => Vec::new(),
        }
    }
}
