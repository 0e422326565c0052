//! Dilation by shifts on plain grids, used by board plays and scoring.

use crate::bits::Bits;

/// Dilation by shifts for boards whose points are numbered row by row on a
/// rectangle with orthogonal neighbours — checked against the neighbour
/// table when the machine is built, so no board is trusted to be a grid.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GridShifts<const W: usize> {
    width: u32,
    /// Points that have a neighbour to their left / right.
    not_first_column: Bits<W>,
    not_last_column: Bits<W>,
    all: Bits<W>,
}

impl<const W: usize> GridShifts<W> {
    #[inline(always)]
    pub(crate) fn dilate(&self, set: &Bits<W>) -> Bits<W> {
        let left = set.and(self.not_first_column).shr(1);
        let right = set.and(self.not_last_column).shl(1);
        let up = set.shl(self.width);
        let down = set.shr(self.width);
        left.or(right).or(up).or(down).and(self.all)
    }

    /// Shifts for a `width`-wide row-major grid, if they reproduce `neighbours`.
    pub(crate) fn detect(width: u32, neighbours: &[Bits<W>]) -> Option<Self> {
        let n = neighbours.len();
        if width == 0 || width >= 64 || !n.is_multiple_of(width as usize) {
            return None;
        }
        let mut first = Bits::EMPTY;
        let mut last = Bits::EMPTY;
        for p in 0..n {
            if p % width as usize != 0 {
                first.set(p);
            }
            if p % width as usize != width as usize - 1 {
                last.set(p);
            }
        }
        let g = GridShifts {
            width,
            not_first_column: first,
            not_last_column: last,
            all: Bits::first(n),
        };
        (0..n)
            .all(|p| {
                let mut one = Bits::EMPTY;
                one.set(p);
                g.dilate(&one) == neighbours[p]
            })
            .then_some(g)
    }
}
