//! State kept outside [`crate::machine::Position`] with its own undo log.

/// A value with a log of earlier values tagged by the ply that changed
/// them: undo restores the ply, then takes back exactly the later changes,
/// so the position every undo copies stays small.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct PlyLog<T> {
    pub(crate) now: T,
    /// (ply of the change, value before it).
    log: Vec<(u32, T)>,
}

impl<T: Copy + PartialEq> PlyLog<T> {
    /// Change the value at `ply`, logging the old one.
    pub(crate) fn change(&mut self, ply: u32, f: impl FnOnce(&mut T)) {
        self.log.push((ply, self.now));
        f(&mut self.now);
    }

    /// Set the value at `ply`; logs nothing when it is unchanged.
    pub(crate) fn set(&mut self, ply: u32, new: T) {
        if self.now != new {
            self.change(ply, |v| *v = new);
        }
    }

    /// Undo the changes made by plies after `ply`.
    pub(crate) fn undo_after(&mut self, ply: u32) {
        while let Some(&(at, old)) = self.log.last() {
            if at <= ply {
                break;
            }
            self.now = old;
            self.log.pop();
        }
    }
}
