//! The compiled board.

use std::collections::HashMap;

use morrigo_diag::did_you_mean;

use crate::error::{BoardError, Usage};
use crate::{Named, Naming, PointId};

/// Which way a line runs, so rules can apply to some directions only
/// (a capture along the sides of the squares but not across them).
/// Read from the drawing coordinates; a board without coordinates has
/// lines of no known direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineDirection {
    /// Left to right (grids, lattices, explicit boards with coordinates).
    Horizontal,
    /// Bottom to top.
    Vertical,
    /// Any slanted line, including nested squares' corner diagonals.
    Diagonal,
    /// Nested squares: along a side of one square.
    Side,
    /// Nested squares: a midpoint link across the squares.
    Cross,
    /// A board without coordinates.
    Unknown,
}

impl LineDirection {
    /// Every direction, in declaration order.
    pub const ALL: [LineDirection; 6] = [
        LineDirection::Horizontal,
        LineDirection::Vertical,
        LineDirection::Diagonal,
        LineDirection::Side,
        LineDirection::Cross,
        LineDirection::Unknown,
    ];

    /// The name rules use for the direction (`side`, `horizontal`, …), as
    /// it is also serialized.
    pub fn name(self) -> &'static str {
        match self {
            LineDirection::Horizontal => "horizontal",
            LineDirection::Vertical => "vertical",
            LineDirection::Diagonal => "diagonal",
            LineDirection::Side => "side",
            LineDirection::Cross => "cross",
            LineDirection::Unknown => "unknown",
        }
    }

    /// The direction of a line through `points`; `cross_axis` is the
    /// midline coordinate of a nested-squares board.
    pub(crate) fn of(points: &[(i32, i32)], cross_axis: Option<i32>) -> LineDirection {
        let (Some(&(x0, y0)), Some(&(x1, y1))) = (points.first(), points.get(1)) else {
            return LineDirection::Unknown;
        };
        let orthogonal = x0 == x1 || y0 == y1;
        match cross_axis {
            Some(mid) if orthogonal => {
                let on_midline =
                    points.iter().all(|&(x, _)| x == mid) || points.iter().all(|&(_, y)| y == mid);
                if on_midline {
                    LineDirection::Cross
                } else {
                    LineDirection::Side
                }
            }
            _ if y0 == y1 => LineDirection::Horizontal,
            _ if x0 == x1 => LineDirection::Vertical,
            _ => LineDirection::Diagonal,
        }
    }
}

/// The steps from a point to the eight around it, in the order of
/// [`Topology::square_cells`]: the rows of a 3×3 shape read from the top.
pub const SQUARE_CELL_STEPS: [(i32, i32); 8] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The compiled board: flat tables indexed by [`PointId`]; immutable.
/// Only [`crate::build`] makes one, so every table is consistent.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Topology {
    /// PointId -> name.
    pub names: Vec<String>,
    /// Drawing coordinates (x to the right, y up). Explicit boards without
    /// coordinates get `(id, 0)` and `has_coords == false`.
    pub coords: Vec<(i32, i32)>,
    /// Whether `coords` came from the spec (and so are worth drawing).
    pub has_coords: bool,
    /// PointId -> adjacent points, sorted.
    pub neighbours: Vec<Vec<PointId>>,
    /// Each line's points, in path order.
    pub lines: Vec<Vec<PointId>>,
    /// PointId -> indices into `lines`, ascending.
    pub lines_through: Vec<Vec<u16>>,
    /// The direction of each line (same index as `lines`).
    pub line_directions: Vec<LineDirection>,
    /// Width of the bounding box of `coords`, counting coordinate positions
    /// (for generated boards: the grid size).
    pub width: u32,
    /// Height of the same bounding box.
    pub height: u32,
    /// Generator naming, if the board was generated.
    pub naming: Option<Naming>,
    #[serde(skip)]
    pub(crate) by_name: HashMap<String, PointId>,
    #[serde(skip)]
    pub(crate) edges: usize,
}

impl Topology {
    /// Number of points.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the board has no points; never true for a board
    /// [`crate::build`] made.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Exact name lookup; GTP boards also accept lower-case names.
    pub fn point(&self, name: &str) -> Option<PointId> {
        if let Some(&p) = self.by_name.get(name) {
            return Some(p);
        }
        match self.naming {
            Some(Naming::Gtp) => self.by_name.get(&name.to_ascii_uppercase()).copied(),
            _ => None,
        }
    }

    /// Name of a point; `"?"` for an id not on this board.
    pub fn name(&self, p: PointId) -> &str {
        self.names.get(usize::from(p)).map_or("?", String::as_str)
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.edges
    }

    /// Whether `a` and `b` are joined by an edge.
    pub fn adjacent(&self, a: PointId, b: PointId) -> bool {
        self.neighbours
            .get(usize::from(a))
            .is_some_and(|ns| ns.binary_search(&b).is_ok())
    }

    /// The eight points around each point of a square grid, row by row from
    /// the top (`(-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (0, -1),
    /// (1, -1)` in drawing coordinates), `None` off the board: what 3×3
    /// shapes are read from. `None` unless the board has coordinates and
    /// every point's neighbours are exactly the points one step away
    /// orthogonally, so a board that only looks like a grid is not read as one.
    pub fn square_cells(&self) -> Option<Vec<[Option<PointId>; 8]>> {
        if !self.has_coords {
            return None;
        }
        let at: HashMap<(i32, i32), PointId> = self
            .points()
            .map(|p| (self.coords[usize::from(p)], p))
            .collect();
        if at.len() != self.len() {
            return None;
        }
        let step = |p: PointId, dx: i32, dy: i32| {
            let (x, y) = self.coords[usize::from(p)];
            at.get(&(x + dx, y + dy)).copied()
        };
        let mut cells = Vec::with_capacity(self.len());
        for p in self.points() {
            let mut orthogonal: Vec<PointId> = [(0, 1), (-1, 0), (1, 0), (0, -1)]
                .iter()
                .filter_map(|&(dx, dy)| step(p, dx, dy))
                .collect();
            orthogonal.sort_unstable();
            if orthogonal != self.neighbours[usize::from(p)] {
                return None;
            }
            let mut c = [None; 8];
            for (slot, (dx, dy)) in c.iter_mut().zip(SQUARE_CELL_STEPS) {
                *slot = step(p, dx, dy);
            }
            cells.push(c);
        }
        Some(cells)
    }

    /// Iterates over all point ids.
    pub fn points(&self) -> impl Iterator<Item = PointId> + '_ {
        // build() guarantees len <= u16::MAX, so the conversion never fails.
        (0..self.len()).filter_map(|i| PointId::try_from(i).ok())
    }

    /// Looks up a name written in a source file; unknown names get a
    /// "did you mean" suggestion.
    pub fn resolve(&self, name: &Named) -> Result<PointId, BoardError> {
        self.point(&name.name).ok_or_else(|| {
            let gtp_i = self.naming == Some(Naming::Gtp) && name.name.starts_with(['I', 'i']);
            // A guess at a column next to `I` would be arbitrary; explain instead.
            let suggestion = match gtp_i {
                true => None,
                false => did_you_mean(&name.name, self.names.iter().map(String::as_str))
                    .map(String::from),
            };
            BoardError::UnknownPoint {
                name: name.name.clone(),
                usage: Usage::Reference,
                at: name.at.clone(),
                suggestion,
                hint: gtp_i.then_some("GTP column letters skip `I`: `H` is followed by `J`"),
            }
        })
    }
}
