//! Board errors: one variant per kind of problem, each with the location of
//! the offending name where one is known.

use std::fmt;

use morrigo_diag::{Diagnostic, Location};

/// Where an unknown point name was used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Usage {
    /// As an end of an edge.
    Edge,
    /// As a point of a line.
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

/// Why a board spec is not a valid board, or a name not a point of one.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum BoardError {
    /// The board has no points.
    #[error("the board has no points")]
    Empty {
        /// Where the board was written, if known; [`crate::build`] gives
        /// `None`.
        at: Option<Location>,
    },

    /// More points than a [`crate::PointId`] can number.
    #[error("the board has {count} points; at most {max} are supported")]
    TooManyPoints {
        /// Points in the spec.
        count: usize,
        /// The most supported.
        max: usize,
        /// Where the first point over the limit was written.
        at: Option<Location>,
    },

    /// More lines than a `u16` index can number.
    #[error("the board has {count} lines; at most {max} are supported")]
    TooManyLines {
        /// Lines in the spec.
        count: usize,
        /// The most supported.
        max: usize,
        /// Where the first point of the first line over the limit was written.
        at: Option<Location>,
    },

    /// A point name a move record cannot hold: empty, with characters other
    /// than ASCII letters, digits and `_`, or `pass` or `resign` in any case.
    #[error("invalid point name `{name}`")]
    BadName {
        /// The name as written.
        name: String,
        /// Where it was written.
        at: Option<Location>,
    },

    /// Two points with one name.
    #[error("point `{name}` is defined twice")]
    DuplicatePoint {
        /// The name.
        name: String,
        /// Where the second definition was written.
        at: Option<Location>,
        /// Where it was first written (boxed to keep the error small).
        first: Option<Box<Location>>,
    },

    /// Some points have drawing coordinates and others have none.
    #[error("point `{name}` has no coordinates, but point `{other}` has")]
    MissingCoords {
        /// The first point without coordinates.
        name: String,
        /// The first point with coordinates.
        other: String,
        /// Where `name` was written.
        at: Option<Location>,
    },

    /// A name that is not a point of the board.
    #[error("unknown point `{name}`{usage}")]
    UnknownPoint {
        /// The name as written.
        name: String,
        /// What the name was used for.
        usage: Usage,
        /// Where it was written.
        at: Option<Location>,
        /// The closest point name, offered as "did you mean".
        suggestion: Option<String>,
        /// Extra help, e.g. that GTP columns skip `I`.
        hint: Option<&'static str>,
    },

    /// An edge joining a point to itself.
    #[error("edge from point `{name}` to itself")]
    SelfEdge {
        /// The point.
        name: String,
        /// Where the edge's second end was written (its first, if that is
        /// all that is known).
        at: Option<Location>,
    },

    /// An edge listed twice, in either order.
    #[error("edge `{a}`-`{b}` is listed twice")]
    DuplicateEdge {
        /// The first end, as written the second time.
        a: String,
        /// The second end, as written the second time.
        b: String,
        /// Where the repeated edge's first end was written.
        at: Option<Location>,
        /// Where it was first written (boxed to keep the error small).
        first: Option<Box<Location>>,
    },

    /// A line of fewer than 2 points.
    #[error("line has {len} point(s); a line needs at least 2")]
    ShortLine {
        /// The line's number of points.
        len: usize,
        /// Where its first point was written; `None` for an empty line.
        at: Option<Location>,
    },

    /// A point listed twice in one line.
    #[error("point `{name}` appears twice in one line")]
    RepeatedInLine {
        /// The point.
        name: String,
        /// Where its second appearance was written.
        at: Option<Location>,
    },

    /// A line listed twice, in either direction.
    #[error("line `{line}` is listed twice")]
    DuplicateLine {
        /// The repeated line's points as written, joined by `-`.
        line: String,
        /// Where the repeated line's first point was written.
        at: Option<Location>,
        /// Where it was first written (boxed to keep the error small).
        first: Option<Box<Location>>,
    },

    /// Consecutive points of a line that no edge joins.
    #[error("line is not a path of the board: `{a}` and `{b}` are not adjacent")]
    NotAPath {
        /// The earlier of the two points in the line.
        a: String,
        /// The later one.
        b: String,
        /// Where `b` was written.
        at: Option<Location>,
    },

    /// Points that cannot be reached from the first point along edges.
    #[error("the board is not connected: `{unreachable}` cannot be reached from `{from}`")]
    Disconnected {
        /// The first point, in definition order, that cannot be reached.
        unreachable: String,
        /// The board's first point.
        from: String,
        /// Where `unreachable` was written.
        at: Option<Location>,
    },

    /// A generator parameter outside the range the generator supports.
    #[error("board parameter `{param}` is {value}, out of range")]
    ParamOutOfRange {
        /// The parameter's key as a ruleset writes it (`rings`, `width`,
        /// `lines`, …), by which a caller can locate the error.
        param: &'static str,
        /// The value given.
        value: u32,
        /// The allowed range, e.g. "1 to 12".
        allowed: String,
        /// Where the parameter was written, if known; [`crate::build`] gives
        /// `None` (see `param`).
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
