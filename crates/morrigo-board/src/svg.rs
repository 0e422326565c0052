//! SVG drawing of a board: edges as lines, points as dots labelled with
//! their names, pieces as discs; every point and piece carries its name as a
//! `<title>` (shown on hover).
//!
//! Positions come from the board's coordinates (y up). Triangular lattices
//! (edges two apart across, one apart diagonally) are stretched vertically
//! by √3 so their triangles are equilateral. Boards without coordinates are
//! laid out on a circle, points in definition order clockwise from the top.

use std::fmt::Write;

use crate::{Owner, PointId, Topology};

/// Pixels per coordinate unit, and around the drawing.
const UNIT: f64 = 48.0;
const MARGIN: f64 = 36.0;
const PIECE_RADIUS: f64 = 15.0;
const DOT_RADIUS: f64 = 4.0;

/// Fill colours for players whose name is not one of [`NAMED_COLOURS`]:
/// the first player dark, the second light.
const SEAT_COLOURS: [&str; 2] = ["#222222", "#f4f4f4"];
/// Player names that are drawn in their own colour.
const NAMED_COLOURS: [&str; 8] = [
    "black", "white", "red", "blue", "green", "yellow", "orange", "purple",
];

impl Topology {
    /// An SVG drawing of the board; `owner(p)` is what stands on `p` (a
    /// mark is drawn as a cross), and `players` the seats' names (for
    /// colours and hover titles).
    pub fn svg(&self, owner: impl Fn(PointId) -> Option<Owner>, players: &[String]) -> String {
        let at = self.svg_positions();
        let (w, h) = at.iter().fold((0.0f64, 0.0f64), |(w, h), &(x, y)| {
            (w.max(x + MARGIN), h.max(y + MARGIN))
        });
        let mut out = String::new();
        let _ = writeln!(
            out,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="sans-serif" font-size="11">"##
        );
        let _ = writeln!(
            out,
            r##"<rect width="100%" height="100%" fill="#e8c98f"/>"##
        );
        out.push_str("<g stroke=\"#3a2a10\" stroke-width=\"2\">\n");
        for p in self.points() {
            for &q in self.neighbours.get(usize::from(p)).into_iter().flatten() {
                if let (true, Some(a), Some(b)) =
                    (q > p, at.get(usize::from(p)), at.get(usize::from(q)))
                {
                    let _ = writeln!(
                        out,
                        r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/>"#,
                        a.0, a.1, b.0, b.1
                    );
                }
            }
        }
        out.push_str("</g>\n");
        for (p, &(x, y)) in self.points().zip(&at) {
            let name = escape(self.name(p));
            let _ = writeln!(
                out,
                r##"<circle cx="{x:.1}" cy="{y:.1}" r="{DOT_RADIUS}" fill="#3a2a10"><title>{name}</title></circle>"##
            );
            let _ = writeln!(
                out,
                r##"<text x="{:.1}" y="{:.1}" fill="#5a4020">{name}</text>"##,
                x + DOT_RADIUS + 2.0,
                y - DOT_RADIUS - 2.0
            );
        }
        for (p, &(x, y)) in self.points().zip(&at) {
            let Some(owner) = owner(p) else { continue };
            let Owner::Player(seat) = owner else {
                let d = PIECE_RADIUS * 0.7;
                let _ = writeln!(
                    out,
                    r##"<path d="M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}" stroke="#7a0000" stroke-width="4"><title>{}: marked</title></path>"##,
                    x - d,
                    y - d,
                    x + d,
                    y + d,
                    x - d,
                    y + d,
                    x + d,
                    y - d,
                    escape(self.name(p))
                );
                continue;
            };
            let player = players.get(usize::from(seat)).map_or("?", String::as_str);
            let fill = NAMED_COLOURS
                .iter()
                .find(|c| c.eq_ignore_ascii_case(player))
                .copied()
                .unwrap_or(SEAT_COLOURS[usize::from(seat.min(1))]);
            let _ = writeln!(
                out,
                r##"<circle cx="{x:.1}" cy="{y:.1}" r="{PIECE_RADIUS}" fill="{fill}" stroke="#000000" stroke-width="1.5"><title>{}: {}</title></circle>"##,
                escape(self.name(p)),
                escape(player)
            );
        }
        out.push_str("</svg>\n");
        out
    }

    /// Pixel position of each point (y down, as SVG has it); the drawing
    /// spans these plus a margin of 36 on every side.
    pub fn svg_positions(&self) -> Vec<(f64, f64)> {
        if !self.has_coords {
            return self.circle_positions();
        }
        let xs = self.coords.iter().map(|c| f64::from(c.0));
        let ys = self.coords.iter().map(|c| f64::from(c.1));
        let min_x = xs.fold(f64::INFINITY, f64::min);
        let max_y = ys.fold(f64::NEG_INFINITY, f64::max);
        let stretch = if self.is_triangular_lattice() {
            3f64.sqrt()
        } else {
            1.0
        };
        self.coords
            .iter()
            .map(|&(x, y)| {
                (
                    MARGIN + (f64::from(x) - min_x) * UNIT,
                    MARGIN + (max_y - f64::from(y)) * UNIT * stretch,
                )
            })
            .collect()
    }

    /// Every edge is two apart across or one apart diagonally, with both kinds present.
    fn is_triangular_lattice(&self) -> bool {
        let (mut across, mut slanted) = (false, false);
        for p in self.points() {
            let (px, py) = self.coords[usize::from(p)];
            for &q in &self.neighbours[usize::from(p)] {
                let (qx, qy) = self.coords[usize::from(q)];
                match ((qx - px).abs(), (qy - py).abs()) {
                    (2, 0) => across = true,
                    (1, 1) => slanted = true,
                    _ => return false,
                }
            }
        }
        across && slanted
    }

    fn circle_positions(&self) -> Vec<(f64, f64)> {
        let n = self.len().max(1) as f64;
        // Neighbouring points about one unit apart around the circle.
        let radius = (n * UNIT / std::f64::consts::TAU).max(UNIT);
        self.points()
            .map(|p| {
                let angle = std::f64::consts::TAU * f64::from(p) / n;
                (
                    MARGIN + radius + radius * angle.sin(),
                    MARGIN + radius - radius * angle.cos(),
                )
            })
            .collect()
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
