//! `lines_formed_in(phase, player)`: the lines a player completed in the
//! turns it began in a phase, counted as `lines_formed` counts them. Once
//! the phase is over the count stops changing, so a later phase can read a
//! number fixed at the phase change (El Filja: the removals each side makes
//! when placing ends follow the mills each made while placing).
//!
//! Kept only when a rule reads it (then [`crate::tables::mills::MillExtras`] exists
//! and the turn's phase is tracked), in [`State`] with a log tagged by the
//! ply that made each change, like the per-line history: undo restores the
//! ply first and takes back exactly the later changes, and `Position`, which
//! every undo copies, does not grow.

use crate::machine::{Machine, State};
use crate::tables::phase_lines::PhaseLines;

impl<const W: usize> Machine<W> {
    /// Count `lines` counting lines just completed by `me` in a turn begun
    /// in phase `phase` (called with the move's counting lines, after them).
    pub(crate) fn add_phase_lines(&self, s: &mut State<W>, me: usize, phase: u8, lines: u32) {
        let t = &mut s.phase_lines;
        let i = PhaseLines::index(phase as usize, me);
        if lines == 0 || i >= t.counts.len() {
            return;
        }
        t.log.push((s.pos.ply, i as u32, t.counts[i]));
        t.counts[i] += lines;
    }

    /// `lines_formed_in(phase, player)`.
    pub(crate) fn lines_formed_in(&self, phase: i64, player: i64, s: &State<W>) -> i64 {
        let (Ok(phase), Ok(player)) = (usize::try_from(phase), usize::try_from(player & 1)) else {
            return 0;
        };
        s.phase_lines
            .counts
            .get(PhaseLines::index(phase, player))
            .map_or(0, |&n| n as i64)
    }

    /// A built-in function of two arguments.
    pub(crate) fn call2(&self, f: morrigo_rules::Prim, a: i64, b: i64, s: &State<W>) -> i64 {
        match f {
            morrigo_rules::Prim::LinesFormedIn => self.lines_formed_in(a, b, s),
            _ => 0,
        }
    }
}
