//! The records the histories keep: one per completed move, and counted
//! board keys. Plain data, read by the machine and the repetition rules.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// `MoveRecord::d_start` when the move does not end a D.
pub const NO_D: u32 = u32::MAX;

/// One completed move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// `N`, `C` or a pass kind letter.
    pub class: u8,
    /// If this ko capture ends a D: the index of the D's first capture.
    pub d_start: u32,
    /// The board after the move.
    pub board_key: u64,
    pub is_play: bool,
    /// Captured prisoners of each player after the move (for JK Art. 3.3).
    pub captured: [u32; 2],
}

/// The history as a pattern sees it.
pub struct Classes<'a>(pub &'a [MoveRecord]);

impl morrigo_dsl::History for Classes<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn class(&self, i: usize) -> u8 {
        self.0[i].class
    }
    /// The ruleset declares at most one derived class (its ko-capture runs).
    fn derived_start(&self, _k: usize, i: usize) -> Option<usize> {
        let d = self.0[i].d_start;
        (d != NO_D).then_some(d as usize)
    }
}

/// Zobrist keys are already uniformly random: hash them as they are.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// A multiset of board keys, with removal for undo.
#[derive(Clone, Debug, Default)]
pub struct KeyCounts(HashMap<u64, u32, BuildHasherDefault<KeyHasher>>);

impl KeyCounts {
    pub fn add(&mut self, key: u64) {
        *self.0.entry(key).or_insert(0) += 1;
    }
    pub fn remove(&mut self, key: u64) {
        if let Some(c) = self.0.get_mut(&key) {
            *c -= 1;
            if *c == 0 {
                self.0.remove(&key);
            }
        }
    }
    pub fn count(&self, key: u64) -> u32 {
        self.0.get(&key).copied().unwrap_or(0)
    }
}
