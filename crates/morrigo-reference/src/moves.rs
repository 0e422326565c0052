//! The values a forbid rule reads about the move being judged, read the
//! direct way off a board written out after the move (no tables):
//! `lines_formed` counts the complete lines of the mover through the
//! destination; `run_length` walks the board's lines, where a run goes on
//! from `x` through `y` to `z` when some line lists `x, y, z` one after the
//! other (either way round).

use morrigo_engine::Point;

/// The points a run through `y`, arriving from `x`, goes on to (every line
/// listing `x, y, z` consecutively, in either direction).
fn continues(t: &[Vec<Point>], x: Point, y: Point) -> Vec<Point> {
    let mut out = Vec::new();
    for line in t {
        for i in 0..line.len() {
            if line[i] != y {
                continue;
            }
            if i >= 1 && i + 1 < line.len() && line[i - 1] == x {
                out.push(line[i + 1]);
            }
            if i + 1 < line.len() && i >= 1 && line[i + 1] == x {
                out.push(line[i - 1]);
            }
        }
    }
    out
}

/// Points one step from `p` along some line.
fn steps(t: &[Vec<Point>], p: Point) -> Vec<Point> {
    let mut out = Vec::new();
    for line in t {
        for w in line.windows(2) {
            if w[0] == p && !out.contains(&w[1]) {
                out.push(w[1]);
            }
            if w[1] == p && !out.contains(&w[0]) {
                out.push(w[0]);
            }
        }
    }
    out
}

/// Pieces of `who` in a row going from `p` through `y` onwards (`p` not counted).
fn walk(t: &[Vec<Point>], board: &[Option<u8>], who: u8, p: Point, y: Point) -> u32 {
    let (mut x, mut y) = (p, y);
    let mut seen = vec![p];
    let mut count = 0;
    while !seen.contains(&y) && board[y as usize] == Some(who) {
        count += 1;
        seen.push(y);
        match continues(t, x, y).first() {
            Some(&z) => (x, y) = (y, z),
            None => break,
        }
    }
    count
}

/// The longest run of `who`'s pieces through `p` along one direction.
pub(crate) fn run_length(t: &[Vec<Point>], board: &[Option<u8>], who: u8, p: Point) -> u32 {
    let mut best = 1;
    for y in steps(t, p) {
        let back = continues(t, y, p)
            .first()
            .map_or(0, |&w| walk(t, board, who, p, w));
        best = best.max(1 + walk(t, board, who, p, y) + back);
    }
    best
}

/// Complete lines of `who` through `p`.
pub(crate) fn lines_formed(t: &[Vec<Point>], board: &[Option<u8>], who: u8, p: Point) -> u32 {
    t.iter()
        .filter(|l| l.contains(&p) && l.iter().all(|&q| board[q as usize] == Some(who)))
        .count() as u32
}

/// The direction of the line move `m` goes along: a slide or fly between
/// two neighbours on a line, a leap between the ends of three consecutive
/// points of a line; otherwise `none`.
pub(crate) fn direction(rules: &morrigo_rules::Rules, m: morrigo_engine::Move) -> i64 {
    use morrigo_engine::MoveKind;
    let apart = match m.kind {
        MoveKind::Slide | MoveKind::Fly => 1,
        MoveKind::Leap => 2,
        _ => return morrigo_rules::vocab::NO_DIRECTION,
    };
    let t = &rules.topology;
    for (i, line) in t.lines.iter().enumerate() {
        for w in 0..line.len() {
            let ends = (line[w], line.get(w + apart).copied());
            if ends == (m.from, Some(m.to)) || ends == (m.to, Some(m.from)) {
                return morrigo_rules::vocab::direction_value(t.line_directions[i]);
            }
        }
    }
    morrigo_rules::vocab::NO_DIRECTION
}
