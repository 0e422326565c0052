//! The `lines_formed_in` counts a state keeps, with their undo log;
//! [`crate::phase_lines`] counts and reads them.

/// Per phase and player: lines completed. (ply of the change, index, old value).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PhaseLines {
    pub(crate) counts: Vec<u32>,
    pub(crate) log: Vec<(u32, u32, u32)>,
}

impl PhaseLines {
    pub(crate) fn new(phases: usize) -> Self {
        PhaseLines {
            counts: vec![0; 2 * phases],
            log: Vec::new(),
        }
    }

    pub(crate) fn index(phase: usize, player: usize) -> usize {
        2 * phase + player
    }

    /// Undo the changes made by plies after `ply`.
    pub(crate) fn undo_after(&mut self, ply: u32) {
        while let Some(&(at, i, old)) = self.log.last() {
            if at <= ply {
                break;
            }
            self.counts[i as usize] = old;
            self.log.pop();
        }
    }
}
