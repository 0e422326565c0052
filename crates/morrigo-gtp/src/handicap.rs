//! Handicap stone placement for GTP's tournament set-up commands
//! (`fixed_handicap`, `place_free_handicap`), as (column, row) pairs from
//! the bottom left, both from 0.
//!
//! The fixed placement is the GTP 2 standard's (section 4.1.1): boards
//! from 7x7, at most 4 stones on 7x7 and on even sizes (no centre point),
//! at most 9 on odd sizes from 9x9; the stones go on the third line up to
//! 11x11 and on the fourth from 12x12 up (as GNU Go, the reference
//! engine, places them), in the standard's order (the 19x19 list is D4
//! Q16 D16 Q4, then K10 for an odd count, D10 Q10, K4 K16).

/// The largest fixed handicap of a `size`×`size` board (0: none).
pub fn fixed_max(size: u32) -> u32 {
    match size {
        0..=6 => 0,
        7 => 4,
        s if s % 2 == 0 => 4,
        _ => 9,
    }
}

/// The standard's points for `n` stones on a `size`×`size` board, in its
/// order; `None` when it defines none (`n` below 2 or above
/// [`fixed_max`]).
pub fn fixed(size: u32, n: u32) -> Option<Vec<(u32, u32)>> {
    if n < 2 || n > fixed_max(size) {
        return None;
    }
    let low = if size < 12 { 2 } else { 3 };
    let (mid, high) = (size / 2, size - 1 - low);
    // Corners: lower left, upper right, upper left, lower right.
    let mut points = vec![(low, low), (high, high), (low, high), (high, low)];
    points.truncate(n.min(4) as usize);
    if n >= 6 {
        points.extend([(low, mid), (high, mid)]);
    }
    if n >= 8 {
        points.extend([(mid, low), (mid, high)]);
    }
    if n % 2 == 1 && n >= 5 {
        points.push((mid, mid));
    }
    Some(points)
}

/// `n` stones for `place_free_handicap` on a `width`×`height` board (`n`
/// at most the points less one): the fixed placement of up to `n` stones
/// when the board has one, then, one at a time, the empty point farthest
/// (straight-line distance) from every stone placed, points off the edge
/// first, ties to the point farthest from the edge, then the lowest row
/// and column. On an empty board the first stone is the centre.
pub fn free(width: u32, height: u32, n: u32) -> Vec<(u32, u32)> {
    let mut chosen = match width == height {
        true => fixed(width, n.min(fixed_max(width))).unwrap_or_default(),
        false => Vec::new(),
    };
    let points: Vec<(u32, u32)> = (0..height)
        .flat_map(|r| (0..width).map(move |c| (c, r)))
        .collect();
    let dist2 = |a: (u32, u32), b: (u32, u32)| {
        let dx = i64::from(a.0) - i64::from(b.0);
        let dy = i64::from(a.1) - i64::from(b.1);
        dx * dx + dy * dy
    };
    let edge = |p: (u32, u32)| p.0.min(p.1).min(width - 1 - p.0).min(height - 1 - p.1);
    // The squared distance from each point to the nearest chosen stone
    // (0 on a stone), kept up to date as stones are added.
    let mut nearest: Vec<i64> = points
        .iter()
        .map(|&p| {
            chosen
                .iter()
                .map(|&s| dist2(p, s))
                .min()
                .unwrap_or(i64::MAX)
        })
        .collect();
    while (chosen.len() as u32) < n {
        let best = points
            .iter()
            .enumerate()
            .filter(|&(i, _)| nearest[i] > 0)
            .max_by_key(|&(i, &p)| {
                let (c, r) = p;
                (
                    edge(p) > 0,
                    nearest[i],
                    edge(p),
                    -i64::from(r),
                    -i64::from(c),
                )
            })
            .map(|(_, &p)| p);
        let Some(p) = best else { break };
        chosen.push(p);
        for (i, &q) in points.iter().enumerate() {
            nearest[i] = nearest[i].min(dist2(p, q));
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::vertex_text;

    fn names(points: &[(u32, u32)]) -> String {
        points
            .iter()
            .map(|&(c, r)| vertex_text(c, r))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The standard's table for 19x19, in its order.
    #[test]
    fn fixed_19x19_is_the_standard_table() {
        let table = [
            "D4 Q16",
            "D4 Q16 D16",
            "D4 Q16 D16 Q4",
            "D4 Q16 D16 Q4 K10",
            "D4 Q16 D16 Q4 D10 Q10",
            "D4 Q16 D16 Q4 D10 Q10 K10",
            "D4 Q16 D16 Q4 D10 Q10 K4 K16",
            "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10",
        ];
        for (n, want) in (2..).zip(table) {
            assert_eq!(names(&fixed(19, n).unwrap()), want, "{n} stones");
        }
    }

    /// Up to 11x11 the stones are on the third line; from 12x12 on the
    /// fourth.
    #[test]
    fn fixed_small_boards_use_the_third_line_larger_ones_the_fourth() {
        assert_eq!(names(&fixed(9, 9).unwrap()), "C3 G7 C7 G3 C5 G5 E3 E7 E5");
        assert_eq!(names(&fixed(9, 4).unwrap()), "C3 G7 C7 G3");
        assert_eq!(names(&fixed(13, 5).unwrap()), "D4 K10 D10 K4 G7");
        assert_eq!(names(&fixed(7, 4).unwrap()), "C3 E5 C5 E3");
        assert_eq!(names(&fixed(11, 2).unwrap()), "C3 J9");
        assert_eq!(names(&fixed(12, 2).unwrap()), "D4 J9");
    }

    /// No fixed placement below 7x7, for fewer than 2 stones, above 4 on
    /// 7x7 and even sizes, above 9 on odd sizes.
    #[test]
    fn fixed_counts_outside_the_table_have_no_placement() {
        assert_eq!(fixed(6, 2), None);
        assert_eq!(fixed(19, 1), None);
        assert_eq!(fixed(19, 10), None);
        assert_eq!(fixed(7, 5), None);
        assert_eq!(fixed(10, 5), None);
        assert!(fixed(10, 4).is_some());
        assert!(fixed(25, 9).is_some());
    }

    /// Free placement: the fixed points where they exist, then points
    /// spread over the board, never twice the same, up to all points less
    /// one.
    #[test]
    fn free_placement_extends_the_fixed_one_without_repeats() {
        assert_eq!(free(19, 19, 4), fixed(19, 4).unwrap());
        let ten = free(19, 19, 10);
        assert_eq!(ten[..9], fixed(19, 9).unwrap()[..]);
        assert_eq!(names(&free(5, 5, 3)), "C3 B2 D2");
        for (w, h) in [(5, 5), (9, 9), (7, 5), (2, 1)] {
            let all = w * h - 1;
            let mut stones = free(w, h, all);
            assert_eq!(stones.len() as u32, all, "{w}x{h}");
            stones.sort();
            stones.dedup();
            assert_eq!(stones.len() as u32, all, "no point twice on {w}x{h}");
            assert!(stones.iter().all(|&(c, r)| c < w && r < h));
        }
    }
}
