//! Board graphs for Morrigo.
//!
//! A board is described by a [`BoardSpec`] (a generator or an explicit
//! node/edge/line list), checked with a petgraph graph, and compiled by
//! [`build`] into an immutable [`Topology`] of flat tables indexed by
//! [`PointId`]. Every problem is a typed [`BoardError`] that carries the
//! location of the offending name, so it can become a located
//! [`morrigo_diag::Diagnostic`].
//!
//! ```
//! use morrigo_board::{build, BoardSpec};
//!
//! let board = build(&BoardSpec::nine_mens_morris()).expect("a valid board");
//! assert_eq!((board.len(), board.edge_count(), board.lines.len()), (24, 32, 16));
//! let d2 = board.point("d2");
//! let text = board.render(|p| if Some(p) == d2 { 'W' } else { '.' });
//! assert!(text.starts_with("7 .-----------.-----------."));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod compile;
mod error;
mod generate;
mod naming;
mod render;
mod svg;
mod topology;

pub use error::{BoardError, Usage};
pub use naming::{column_label, point_name, MAX_ALGEBRAIC_SIZE, MAX_GTP_SIZE};
pub use topology::{LineDirection, Topology, SQUARE_CELL_STEPS};

use morrigo_diag::Location;

/// Index of a point in a [`Topology`]'s tables.
pub type PointId = u16;

/// What stands on a point of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    /// A piece or stone of this player (0 = first).
    Player(u8),
    /// The mark a delayed removal leaves (`lines.removal: delayed`): no
    /// piece, and no placement until it is cleared.
    Mark,
}

/// Largest `rings` a [`BoardSpec::NestedSquares`] may have (a 25x25 grid).
pub const MAX_RINGS: u32 = 12;

/// A name written in a source file, with where it was written (for errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// The name as written.
    pub name: String,
    /// Where it was written, if it came from a source file.
    pub at: Option<Location>,
}

impl Named {
    /// A name with no known source location (generated or typed in code).
    pub fn new(name: impl Into<String>) -> Self {
        Named {
            name: name.into(),
            at: None,
        }
    }

    /// A name written at `at` in a source file.
    pub fn located(name: impl Into<String>, at: Location) -> Self {
        Named {
            name: name.into(),
            at: Some(at),
        }
    }
}

impl From<&str> for Named {
    fn from(name: &str) -> Self {
        Named::new(name)
    }
}

/// How generated boards name their points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Naming {
    /// Columns `a`, `b`, `c`..., rows `1`.. from the bottom (`a1` bottom-left).
    Algebraic,
    /// Columns `A`..`Z` skipping `I` (at most 25), rows `1`.. from the bottom.
    Gtp,
}

/// Which diagonal edges a [`BoardSpec::Grid`] has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diagonals {
    /// Orthogonal edges only.
    None,
    /// The two corner-to-corner diagonals of a square grid (Tapatan's board).
    Long,
    /// Diagonals through the points whose column + row is even (the
    /// alquerque pattern; on 3x3 the same as `Long`).
    Alternate,
    /// Both diagonals of every cell.
    All,
    /// Both diagonals of every cell, crossing at a new point at the cell's
    /// centre (Picaria's board on 3x3: 13 points). Coordinates and names are
    /// those of a `2*width-1` by `2*height-1` grid: `a1 c1 e1`, centres `b2 d2`.
    Crossed,
}

/// What a board looks like, before it is checked and compiled by [`build`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardSpec {
    /// Concentric squares (Morris boards) on a `2*rings+1` grid, algebraic names.
    /// Ring k (k=0 outer) has 4 corners and 4 side midpoints at offset k from
    /// the edge. Edges join consecutive points around each ring, plus
    /// midpoint links and corner diagonals to the next ring inwards if asked.
    /// Lines are every window of `line_length` consecutive points along each
    /// ring side (corner-mid-corner) and along each link/diagonal chain.
    NestedSquares {
        /// Number of squares, 1 to [`MAX_RINGS`].
        rings: u32,
        /// Join each ring's side midpoints to the next ring's.
        midpoint_links: bool,
        /// Join each ring's corners to the next ring's.
        corner_diagonals: bool,
        /// Points in a line, at least 2.
        line_length: u32,
    },
    /// Rectangular grid with orthogonal (and optionally diagonal) adjacency.
    /// `line_length: Some(k)` makes a line of every run of k points in each
    /// adjacency direction; `None` makes no lines (Go boards).
    Grid {
        /// Points across: at least 1, at most what `naming` can label
        /// ([`Naming::max_size`]; about half that with [`Diagonals::Crossed`]).
        width: u32,
        /// Points up, within the same bounds as `width` (and equal to it
        /// with [`Diagonals::Long`]).
        height: u32,
        /// Which diagonal edges the grid has.
        diagonals: Diagonals,
        /// How the points are named.
        naming: Naming,
        /// Points in a line (at least 2), or `None` for no lines.
        line_length: Option<u32>,
    },
    /// A triangle of points on a triangular lattice, `side` points along
    /// each side; each point joined to its up to 6 neighbours. Rows are
    /// named from the bottom (`a1`..), columns left to right within a row.
    /// `line_length: Some(k)` makes a line of every run of k points in each
    /// of the three directions.
    Triangular {
        /// Points along each side, 1 to [`MAX_ALGEBRAIC_SIZE`].
        side: u32,
        /// Points in a line (at least 2), or `None` for no lines.
        line_length: Option<u32>,
    },
    /// A hexagon of points on a triangular lattice, `side` points along each
    /// of its six sides (`3*side*(side-1)+1` points); named and lined as
    /// [`BoardSpec::Triangular`].
    Hexagonal {
        /// Points along each side, 1 to 13 (the middle row's `2*side-1`
        /// points are named `a` to `z`).
        side: u32,
        /// Points in a line (at least 2), or `None` for no lines.
        line_length: Option<u32>,
    },
    /// Fully explicit: nodes (with optional drawing coordinates), edges, lines.
    Explicit {
        /// Every point's name, with drawing coordinates for all points or
        /// for none.
        nodes: Vec<(Named, Option<(i32, i32)>)>,
        /// Pairs of adjacent points, each written once, either way round.
        edges: Vec<(Named, Named)>,
        /// Each line's points in path order: consecutive points must be
        /// adjacent.
        lines: Vec<Vec<Named>>,
    },
}

impl BoardSpec {
    /// Nine Men's Morris: three rings joined at the side midpoints.
    pub fn nine_mens_morris() -> Self {
        BoardSpec::NestedSquares {
            rings: 3,
            midpoint_links: true,
            corner_diagonals: false,
            line_length: 3,
        }
    }

    /// Twelve Men's Morris / Morabaraba: Nine Men's board plus corner diagonals.
    pub fn twelve_mens_morris() -> Self {
        BoardSpec::NestedSquares {
            rings: 3,
            midpoint_links: true,
            corner_diagonals: true,
            line_length: 3,
        }
    }

    /// Six Men's Morris: two rings joined at the side midpoints.
    pub fn six_mens_morris() -> Self {
        BoardSpec::NestedSquares {
            rings: 2,
            midpoint_links: true,
            corner_diagonals: false,
            line_length: 3,
        }
    }

    /// Three Men's Morris: 3x3 grid with diagonals, lines of three.
    pub fn three_mens_morris() -> Self {
        BoardSpec::Grid {
            width: 3,
            height: 3,
            diagonals: Diagonals::All,
            naming: Naming::Algebraic,
            line_length: Some(3),
        }
    }

    /// A square Go board with GTP names and no lines.
    pub fn go(size: u32) -> Self {
        BoardSpec::Grid {
            width: size,
            height: size,
            diagonals: Diagonals::None,
            naming: Naming::Gtp,
            line_length: None,
        }
    }
}

/// Checks a spec and compiles it into a [`Topology`].
pub fn build(spec: &BoardSpec) -> Result<Topology, BoardError> {
    let raw = generate::expand(spec)?;
    compile::compile(raw)
}
