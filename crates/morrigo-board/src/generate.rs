//! Generators: turn a [`BoardSpec`] into plain named nodes, edges and lines,
//! so generated and explicit boards go through the same checks.

use std::collections::HashSet;

use crate::error::BoardError;
use crate::naming::{point_name, MAX_ALGEBRAIC_SIZE};
use crate::{BoardSpec, Diagonals, Named, Naming, MAX_RINGS};

type Pt = (i32, i32);

/// A board as lists of names, not yet checked.
pub(crate) struct RawBoard {
    pub nodes: Vec<(Named, Option<Pt>)>,
    pub edges: Vec<(Named, Named)>,
    pub lines: Vec<Vec<Named>>,
    pub naming: Option<Naming>,
    /// Grid size for generated boards (the bounding box otherwise).
    pub size: Option<(u32, u32)>,
    /// Nested squares: the coordinate of the two midlines their cross
    /// lines (the midpoint links) lie on, which tells them from the sides.
    pub cross_axis: Option<i32>,
}

/// Points, edges and lines of a generated board, by coordinates.
#[derive(Default)]
struct Shape {
    points: Vec<Pt>,
    edges: Vec<(Pt, Pt)>,
    lines: Vec<Vec<Pt>>,
}

pub(crate) fn expand(spec: &BoardSpec) -> Result<RawBoard, BoardError> {
    match spec {
        BoardSpec::NestedSquares {
            rings,
            midpoint_links,
            corner_diagonals,
            line_length,
        } => nested_squares(*rings, *midpoint_links, *corner_diagonals, *line_length),
        BoardSpec::Grid {
            width,
            height,
            diagonals,
            naming,
            line_length,
        } => grid(*width, *height, *diagonals, *naming, *line_length),
        BoardSpec::Triangular { side, line_length } => triangular(*side, *line_length),
        BoardSpec::Hexagonal { side, line_length } => hexagonal(*side, *line_length),
        BoardSpec::Explicit {
            nodes,
            edges,
            lines,
        } => Ok(RawBoard {
            nodes: nodes.clone(),
            edges: edges.clone(),
            lines: lines.clone(),
            naming: None,
            size: None,
            cross_axis: None,
        }),
    }
}

fn check_range(
    param: &'static str,
    value: u32,
    lo: u32,
    hi: u32,
    why: &str,
) -> Result<(), BoardError> {
    if (lo..=hi).contains(&value) {
        return Ok(());
    }
    Err(BoardError::ParamOutOfRange {
        param,
        value,
        allowed: format!("{lo} to {hi}{why}"),
        at: None,
    })
}

/// `param` is the key a ruleset writes it under (`line_length` for nested
/// squares, `lines` for grids and lattices).
fn check_line_length(param: &'static str, value: u32) -> Result<usize, BoardError> {
    if value < 2 {
        return Err(BoardError::ParamOutOfRange {
            param,
            value,
            allowed: "2 upwards (a line joins at least two points)".to_string(),
            at: None,
        });
    }
    // A length beyond usize only means "no line fits".
    Ok(usize::try_from(value).unwrap_or(usize::MAX))
}

fn nested_squares(
    rings: u32,
    links: bool,
    diagonals: bool,
    line_length: u32,
) -> Result<RawBoard, BoardError> {
    check_range("rings", rings, 1, MAX_RINGS, "")?;
    let k = check_line_length("line_length", line_length)?;
    // rings <= 12, so every coordinate fits in i32 and in the a..z names.
    let n = rings as i32;
    let all: Vec<[Pt; 8]> = (0..n).map(|r| ring(n, r)).collect();
    let mut shape = Shape::default();
    for points in &all {
        shape.points.extend(points);
        for i in 0..8 {
            shape.edges.push((points[i], points[(i + 1) % 8]));
        }
        for side in 0..4 {
            let path = [
                points[2 * side],
                points[2 * side + 1],
                points[(2 * side + 2) % 8],
            ];
            shape.add_lines(&path, k);
        }
    }
    // Odd ring positions are side midpoints, even ones corners.
    let chains = [(links, [1, 3, 5, 7]), (diagonals, [0, 2, 4, 6])];
    for (wanted, positions) in chains {
        for pos in positions.into_iter().filter(|_| wanted) {
            let chain: Vec<Pt> = all.iter().map(|points| points[pos]).collect();
            shape.add_path(&chain, k);
        }
    }
    let size = 2 * rings + 1;
    Ok(RawBoard {
        cross_axis: Some(n),
        ..shape.finish(Naming::Algebraic, (size, size))
    })
}

/// Ring `k` (0 = outer) of `n`, counter-clockwise from its bottom-left corner.
fn ring(n: i32, k: i32) -> [Pt; 8] {
    let (lo, mid, hi) = (k, n, 2 * n - k);
    [
        (lo, lo),
        (mid, lo),
        (hi, lo),
        (hi, mid),
        (hi, hi),
        (mid, hi),
        (lo, hi),
        (lo, mid),
    ]
}

fn grid(
    width: u32,
    height: u32,
    diagonals: Diagonals,
    naming: Naming,
    line_length: Option<u32>,
) -> Result<RawBoard, BoardError> {
    let max = naming.max_size();
    let why = match naming {
        Naming::Algebraic => " (columns a to z)",
        Naming::Gtp => " (GTP columns A to Z without I)",
    };
    // Crossed diagonals name the cell centres too: a `2n-1` grid of names.
    let (max, why) = match diagonals {
        Diagonals::Crossed => (max.div_ceil(2), format!("{why} with crossed diagonals")),
        _ => (max, why.to_string()),
    };
    check_range("width", width, 1, max, &why)?;
    check_range("height", height, 1, max, &why)?;
    if diagonals == Diagonals::Long && width != height {
        let why = " (`diagonals: long` joins the corners of a square grid)";
        check_range("height", height, width, width, why)?;
    }
    let k = line_length
        .map(|k| check_line_length("lines", k))
        .transpose()?;
    // Both sizes are <= 26 here, so they fit in i32.
    let (w, h) = (width as i32, height as i32);
    let orthogonal = [(1, 0), (0, 1)];
    let diagonal = [(1, 1), (-1, 1)];
    let shape = match diagonals {
        Diagonals::None => lattice(cells(w, h, 1), &orthogonal, |_, _| true, k),
        Diagonals::All => lattice(
            cells(w, h, 1),
            &[(1, 0), (0, 1), (1, 1), (-1, 1)],
            |_, _| true,
            k,
        ),
        Diagonals::Long => {
            let on_long = |(x, y): Pt, (dx, _): Pt| match dx {
                1 if x == y => true,
                -1 if x + y == w - 1 => true,
                _ => false,
            };
            let steps = [(1, 0), (0, 1), (1, 1), (-1, 1)];
            lattice(
                cells(w, h, 1),
                &steps,
                |p, d| d.1 == 0 || d.0 == 0 || on_long(p, d),
                k,
            )
        }
        Diagonals::Alternate => {
            let steps = [(1, 0), (0, 1), (1, 1), (-1, 1)];
            lattice(
                cells(w, h, 1),
                &steps,
                |(x, y), d| d.0 == 0 || d.1 == 0 || (x + y) % 2 == 0,
                k,
            )
        }
        Diagonals::Crossed => {
            let mut points = cells(w, h, 2);
            points.extend(
                cells(w - 1, h - 1, 2)
                    .into_iter()
                    .map(|(x, y)| (x + 1, y + 1)),
            );
            // Orthogonal steps join corners only: centres are joined to corners.
            let corner = |(x, y): Pt| x % 2 == 0 && y % 2 == 0;
            let steps = [(2, 0), (0, 2), diagonal[0], diagonal[1]];
            let shape = lattice(
                points,
                &steps,
                |p, d| (d.0 != 0 && d.1 != 0) || corner(p),
                k,
            );
            let size = (2 * width - 1, 2 * height - 1);
            return Ok(shape.finish(naming, size));
        }
    };
    Ok(shape.finish(naming, (width, height)))
}

/// Points `(step*x, step*y)` for `x < w`, `y < h`.
fn cells(w: i32, h: i32, step: i32) -> Vec<Pt> {
    (0..h)
        .flat_map(|y| (0..w).map(move |x| (step * x, step * y)))
        .collect()
}

/// Edges from each point one step on in each direction when `joined`
/// allows it; with `k`, a line for every run of `k` joined points.
fn lattice(
    points: Vec<Pt>,
    steps: &[Pt],
    joined: impl Fn(Pt, Pt) -> bool,
    k: Option<usize>,
) -> Shape {
    let set: HashSet<Pt> = points.iter().copied().collect();
    let next = |p: Pt, d: Pt| {
        let q = (p.0 + d.0, p.1 + d.1);
        (set.contains(&q) && joined(p, d)).then_some(q)
    };
    let mut shape = Shape::default();
    for &p in &points {
        for &d in steps {
            if let Some(q) = next(p, d) {
                shape.edges.push((p, q));
            }
            let Some(k) = k else { continue };
            let mut line = vec![p];
            // Stops at the board's edge, so a huge `k` only means no line.
            while line.len() < k {
                match line.last().and_then(|&last| next(last, d)) {
                    Some(q) => line.push(q),
                    None => break,
                }
            }
            if line.len() == k {
                shape.lines.push(line);
            }
        }
    }
    shape.points = points;
    shape
}

/// Rows of a triangular lattice: `(first x, count)` per row from the
/// bottom; neighbours in a row are 2 apart in x, across rows 1 apart.
fn triangular_lattice(rows: &[(i32, i32)], k: Option<usize>, size: (u32, u32)) -> RawBoard {
    let points = rows
        .iter()
        .zip(0..)
        .flat_map(|(&(first, count), y)| (0..count).map(move |i| (first + 2 * i, y)))
        .collect();
    let shape = lattice(points, &[(2, 0), (1, 1), (-1, 1)], |_, _| true, k);
    // Names count points within the row, not lattice columns.
    let name = |(x, y): Pt| {
        let first = usize::try_from(y)
            .ok()
            .and_then(|y| rows.get(y))
            .map_or(0, |r| r.0);
        name_of(Naming::Algebraic, ((x - first) / 2, y))
    };
    shape.finish_with(None, size, name)
}

fn triangular(side: u32, line_length: Option<u32>) -> Result<RawBoard, BoardError> {
    check_range("side", side, 1, MAX_ALGEBRAIC_SIZE, " (columns a to z)")?;
    let k = line_length
        .map(|k| check_line_length("lines", k))
        .transpose()?;
    let n = side as i32;
    let rows: Vec<(i32, i32)> = (0..n).map(|y| (y, n - y)).collect();
    Ok(triangular_lattice(&rows, k, (2 * side - 1, side)))
}

fn hexagonal(side: u32, line_length: Option<u32>) -> Result<RawBoard, BoardError> {
    let max = MAX_ALGEBRAIC_SIZE.div_ceil(2);
    check_range(
        "side",
        side,
        1,
        max,
        " (the middle row has 2*side-1 points, named a to z)",
    )?;
    let k = line_length
        .map(|k| check_line_length("lines", k))
        .transpose()?;
    let n = side as i32;
    let rows: Vec<(i32, i32)> = (0..2 * n - 1)
        .map(|y| {
            let indent = (y - (n - 1)).abs();
            (indent, 2 * n - 1 - indent)
        })
        .collect();
    Ok(triangular_lattice(&rows, k, (4 * side - 3, 2 * side - 1)))
}

impl Shape {
    /// Every window of `k` consecutive points along `path` becomes a line.
    fn add_lines(&mut self, path: &[Pt], k: usize) {
        self.lines.extend(path.windows(k).map(<[Pt]>::to_vec));
    }

    /// A chain of links: edges between consecutive points, plus its lines.
    fn add_path(&mut self, path: &[Pt], k: usize) {
        self.edges.extend(path.windows(2).map(|w| (w[0], w[1])));
        self.add_lines(path, k);
    }

    /// Names everything from the coordinates (see [`Shape::finish_with`]).
    fn finish(self, naming: Naming, size: (u32, u32)) -> RawBoard {
        self.finish_with(Some(naming), size, |p| name_of(naming, p))
    }

    /// Names everything; points sorted by row then column, lines in a
    /// canonical order (rows, then columns, then diagonals). `naming` is
    /// what the board reports: a grid whose columns are labelled by it.
    fn finish_with(
        mut self,
        naming: Option<Naming>,
        size: (u32, u32),
        name: impl Fn(Pt) -> String,
    ) -> RawBoard {
        self.points.sort_by_key(|&(x, y)| (y, x));
        self.points.dedup();
        for line in &mut self.lines {
            orient(line);
        }
        self.lines.sort_by_key(|line| line_key(line));
        let name = |p: Pt| Named::new(name(p));
        RawBoard {
            nodes: self.points.iter().map(|&p| (name(p), Some(p))).collect(),
            edges: self
                .edges
                .iter()
                .map(|&(a, b)| (name(a), name(b)))
                .collect(),
            lines: self
                .lines
                .iter()
                .map(|l| l.iter().map(|&p| name(p)).collect())
                .collect(),
            naming,
            size: Some(size),
            cross_axis: None,
        }
    }
}

fn name_of(naming: Naming, (x, y): Pt) -> String {
    let named = u32::try_from(x)
        .ok()
        .zip(u32::try_from(y).ok())
        .and_then(|(x, y)| point_name(naming, x, y));
    // Generators stay in range, so the fallback is never seen; no panic though.
    named.unwrap_or_else(|| format!("({x},{y})"))
}

/// Make a line run from its lowest point (by row, then column).
fn orient(line: &mut [Pt]) {
    let key = |&(x, y): &Pt| (y, x);
    if let (Some(first), Some(last)) = (line.first(), line.last()) {
        if key(first) > key(last) {
            line.reverse();
        }
    }
}

fn line_key(line: &[Pt]) -> (u8, i32, i32, i32) {
    let (x, y) = line.first().copied().unwrap_or_default();
    let (nx, ny) = line.get(1).copied().unwrap_or((x, y));
    match (nx - x, ny - y) {
        (_, 0) => (0, y, x, 0),
        (0, _) => (1, x, y, 0),
        (dx, _) => (2, y, x, dx),
    }
}
