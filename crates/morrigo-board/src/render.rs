//! ASCII rendering of a board: points on a 4-column x 2-row character pitch,
//! edges drawn between them, row numbers left and column letters below.

use std::collections::HashSet;

use crate::naming::column_label;
use crate::{PointId, Topology};

const PITCH_X: i64 = 4;
const PITCH_Y: i64 = 2;
/// Coordinate spans beyond this would give an unreadable drawing: list instead.
const MAX_SPAN: i64 = 64;

/// Where each point lands on the character canvas.
struct Layout {
    min_x: i64,
    max_y: i64,
    rows: usize,
    cols: usize,
    /// PointId -> (row, column) on the canvas.
    pos: Vec<(usize, usize)>,
}

impl Topology {
    /// ASCII drawing; `cell(p)` is the character shown at point `p`.
    /// Boards without usable coordinates are shown as a "name: neighbours" list.
    pub fn render(&self, cell: impl Fn(PointId) -> char) -> String {
        match self.layout() {
            Some(layout) => self.draw(&layout, &cell),
            None => self.list(&cell),
        }
    }

    /// None when there are no coordinates, they span too far, or two points
    /// share a spot (the drawing would hide one).
    fn layout(&self) -> Option<Layout> {
        if !self.has_coords {
            return None;
        }
        let xs = self.coords.iter().map(|c| i64::from(c.0));
        let ys = self.coords.iter().map(|c| i64::from(c.1));
        let (min_x, max_x) = (xs.clone().min()?, xs.max()?);
        let (min_y, max_y) = (ys.clone().min()?, ys.max()?);
        if max_x - min_x > MAX_SPAN || max_y - min_y > MAX_SPAN {
            return None;
        }
        let to_usize = |v: i64| usize::try_from(v).ok();
        let pos: Vec<(usize, usize)> = self
            .coords
            .iter()
            .map(|&(x, y)| {
                Some((
                    to_usize((max_y - i64::from(y)) * PITCH_Y)?,
                    to_usize((i64::from(x) - min_x) * PITCH_X)?,
                ))
            })
            .collect::<Option<_>>()?;
        if pos.iter().collect::<HashSet<_>>().len() != pos.len() {
            return None;
        }
        Some(Layout {
            min_x,
            max_y,
            rows: to_usize((max_y - min_y) * PITCH_Y + 1)?,
            cols: to_usize((max_x - min_x) * PITCH_X + 1)?,
            pos,
        })
    }

    fn draw(&self, layout: &Layout, cell: &impl Fn(PointId) -> char) -> String {
        let mut canvas = vec![vec![' '; layout.cols]; layout.rows];
        for p in self.points() {
            for &q in self.neighbours.get(usize::from(p)).into_iter().flatten() {
                if let (true, Some(&a), Some(&b)) = (
                    q > p,
                    layout.pos.get(usize::from(p)),
                    layout.pos.get(usize::from(q)),
                ) {
                    draw_edge(&mut canvas, a, b);
                }
            }
        }
        for (p, &(r, c)) in self.points().zip(&layout.pos) {
            put_point(&mut canvas, r, c, cell(p));
        }
        self.frame(layout, canvas)
    }

    /// Adds row numbers and column letters for generated boards.
    fn frame(&self, layout: &Layout, canvas: Vec<Vec<char>>) -> String {
        let Some(naming) = self.naming else {
            return finish(canvas.into_iter().map(|row| row.into_iter().collect()));
        };
        let gutter = (layout.max_y + 1).to_string().len();
        let rows = canvas.into_iter().enumerate().map(|(r, row)| {
            let row: String = row.into_iter().collect();
            let label = match r % 2 {
                0 => (layout.max_y + 1 - (r / 2) as i64).to_string(),
                _ => String::new(),
            };
            format!("{label:>gutter$} {row}")
        });
        let mut letters = vec![' '; layout.cols];
        for (i, slot) in letters.iter_mut().step_by(4).enumerate() {
            let x = u32::try_from(layout.min_x + i as i64).ok();
            *slot = x.and_then(|x| column_label(naming, x)).unwrap_or('?');
        }
        let footer = format!("{:gutter$} {}", "", letters.into_iter().collect::<String>());
        finish(rows.chain(std::iter::once(footer)))
    }

    fn list(&self, cell: &impl Fn(PointId) -> char) -> String {
        finish(self.points().map(|p| {
            let ns: Vec<&str> = self.neighbours[usize::from(p)]
                .iter()
                .map(|&q| self.name(q))
                .collect();
            format!("{} {}: {}", cell(p), self.name(p), ns.join(" "))
        }))
    }
}

/// One line per row, trailing spaces trimmed, ending in a newline.
fn finish(rows: impl Iterator<Item = String>) -> String {
    rows.map(|r| r.trim_end().to_string() + "\n").collect()
}

fn put_point(canvas: &mut [Vec<char>], r: usize, c: usize, ch: char) {
    if let Some(slot) = canvas.get_mut(r).and_then(|row| row.get_mut(c)) {
        *slot = ch;
    }
}

/// Edge characters; crossings become '+' or 'X'.
fn put_edge(canvas: &mut [Vec<char>], r: usize, c: usize, ch: char) {
    if let Some(slot) = canvas.get_mut(r).and_then(|row| row.get_mut(c)) {
        *slot = match (*slot, ch) {
            (' ', new) => new,
            (old, new) if old == new => new,
            ('/', '\\') | ('\\', '/') | ('X', _) => 'X',
            _ => '+',
        };
    }
}

fn draw_edge(canvas: &mut [Vec<char>], (r0, c0): (usize, usize), (r1, c1): (usize, usize)) {
    if r0 == r1 {
        for c in c0.min(c1) + 1..c0.max(c1) {
            put_edge(canvas, r0, c, '-');
        }
    } else if c0 == c1 {
        for r in r0.min(r1) + 1..r0.max(r1) {
            put_edge(canvas, r, c0, '|');
        }
    } else {
        draw_slant(canvas, (r0, c0), (r1, c1));
    }
}

/// One character per canvas row between the ends, at the interpolated column.
fn draw_slant(canvas: &mut [Vec<char>], a: (usize, usize), b: (usize, usize)) {
    let ((ra, ca), (rb, cb)) = if a.0 < b.0 { (a, b) } else { (b, a) };
    let ch = if cb > ca { '\\' } else { '/' };
    let (ra, ca, rb, cb) = (ra as i64, ca as i64, rb as i64, cb as i64);
    for r in ra + 1..rb {
        // Rounded interpolation, kept in integers.
        let c = ca + ((cb - ca) * (r - ra) * 2 + (rb - ra)).div_euclid(2 * (rb - ra));
        if let (Ok(r), Ok(c)) = (usize::try_from(r), usize::try_from(c)) {
            put_edge(canvas, r, c, ch);
        }
    }
}
