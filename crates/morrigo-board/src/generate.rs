//! Generators: turn a [`BoardSpec`] into plain named nodes, edges and lines,
//! so generated and explicit boards go through the same checks.

use crate::error::BoardError;
use crate::naming::point_name;
use crate::{BoardSpec, Named, Naming, MAX_RINGS};

type Pt = (i32, i32);

/// A board as lists of names, not yet checked.
pub(crate) struct RawBoard {
    pub nodes: Vec<(Named, Option<Pt>)>,
    pub edges: Vec<(Named, Named)>,
    pub lines: Vec<Vec<Named>>,
    pub naming: Option<Naming>,
    /// Grid size for generated boards (the bounding box otherwise).
    pub size: Option<(u32, u32)>,
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

fn check_line_length(value: u32) -> Result<usize, BoardError> {
    check_range("line_length", value, 2, u32::MAX, "")?;
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
    let k = check_line_length(line_length)?;
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
    Ok(shape.finish(Naming::Algebraic, (size, size)))
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
    diagonals: bool,
    naming: Naming,
    line_length: Option<u32>,
) -> Result<RawBoard, BoardError> {
    let max = naming.max_size();
    let why = match naming {
        Naming::Algebraic => " (columns a to z)",
        Naming::Gtp => " (GTP columns A to Z without I)",
    };
    check_range("width", width, 1, max, why)?;
    check_range("height", height, 1, max, why)?;
    let k = line_length.map(check_line_length).transpose()?;
    // Both sizes are <= 26 here, so they fit in i32.
    let (w, h) = (width as i32, height as i32);
    let mut dirs = vec![(1, 0), (0, 1)];
    if diagonals {
        dirs.extend([(1, 1), (-1, 1)]);
    }
    let mut shape = Shape::default();
    for y in 0..h {
        for x in 0..w {
            shape.points.push((x, y));
            for &(dx, dy) in &dirs {
                let next = (x + dx, y + dy);
                if in_grid(next, w, h) {
                    shape.edges.push(((x, y), next));
                }
                if let Some(line) = k.and_then(|k| run((x, y), (dx, dy), k, w, h)) {
                    shape.lines.push(line);
                }
            }
        }
    }
    Ok(shape.finish(naming, (width, height)))
}

fn in_grid((x, y): Pt, w: i32, h: i32) -> bool {
    (0..w).contains(&x) && (0..h).contains(&y)
}

/// The `k` points from `start` in direction `d`, if they all lie on the grid.
fn run(start: Pt, d: Pt, k: usize, w: i32, h: i32) -> Option<Vec<Pt>> {
    let steps = i32::try_from(k - 1).ok()?;
    let end = (start.0 + d.0 * steps, start.1 + d.1 * steps);
    if !in_grid(end, w, h) {
        return None;
    }
    Some(
        (0..=steps)
            .map(|i| (start.0 + d.0 * i, start.1 + d.1 * i))
            .collect(),
    )
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

    /// Names everything; points sorted by row then column, lines in a
    /// canonical order (rows, then columns, then diagonals).
    fn finish(mut self, naming: Naming, size: (u32, u32)) -> RawBoard {
        self.points.sort_by_key(|&(x, y)| (y, x));
        self.points.dedup();
        for line in &mut self.lines {
            orient(line);
        }
        self.lines.sort_by_key(|line| line_key(line));
        let name = |p: Pt| Named::new(name_of(naming, p));
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
            naming: Some(naming),
            size: Some(size),
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
