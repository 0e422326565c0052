//! The move-class history (JK: N, C, P, E and the derived D) and the board
//! states that repetition rules compare.

use crate::machine::{Machine, Move, MoveKind, State};
use morrigo_rules::{Immediate, Superko, CLASS_KO_CAPTURE};
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

impl<const W: usize> Machine<W> {
    /// The key superko compares: the board, with the player to move when
    /// the superko is situational.
    pub(crate) fn superko_key(&self, board_key: u64, to_move: u8) -> u64 {
        match self.rules.repetition.superko {
            Superko::Situational if to_move == 1 => board_key ^ self.z_side,
            _ => board_key,
        }
    }

    /// Would a board play ending with `key_after` break a repetition rule
    /// that makes it illegal?
    pub(crate) fn repetition_forbids(&self, s: &State<W>, key_after: u64) -> bool {
        let rep = &self.rules.repetition;
        if rep.immediate == Immediate::Illegal && self.recreates_two_back(s, key_after) {
            return true;
        }
        rep.superko != Superko::None
            && s.seen_keys
                .count(self.superko_key(key_after, s.pos.to_move ^ 1))
                > 0
    }

    /// The board after this play equals the board after the move two back,
    /// which was a board play (JK Art. 3.2).
    pub(crate) fn recreates_two_back(&self, s: &State<W>, key_after: u64) -> bool {
        let n = s.moves.len();
        n >= 2 && s.moves[n - 2].is_play && s.moves[n - 2].board_key == key_after
    }

    /// Append the move just made to the history (after its effects).
    pub(crate) fn record_move(&self, s: &mut State<W>, m: Move, class: u8, d_start: u32) {
        let is_play = m.kind == MoveKind::Play;
        let key = s.pos.board_key;
        if is_play {
            s.pos.last_immediate_repetition = self.recreates_two_back(s, key);
            if self.track_play_keys {
                s.pos.last_board_repetitions = s.play_keys.count(key) + 1;
                s.play_keys.add(key);
            }
        }
        if self.rules.repetition.superko != Superko::None {
            s.seen_keys.add(self.superko_key(key, s.pos.to_move ^ 1));
        }
        s.moves.push(MoveRecord {
            class,
            d_start,
            board_key: key,
            is_play,
            captured: s.pos.captured,
        });
    }

    pub(crate) fn unrecord_move(&self, s: &mut State<W>) {
        let Some(r) = s.moves.pop() else { return };
        if r.is_play && self.track_play_keys {
            s.play_keys.remove(r.board_key);
        }
        if self.rules.repetition.superko != Superko::None {
            // The mover of the popped move is the player to move before undo
            // restores the position: the one who is *not* to move now.
            s.seen_keys
                .remove(self.superko_key(r.board_key, s.pos.to_move));
        }
    }

    /// For a ko capture that is move number `n` (0-based) capturing the stones
    /// `captured`: the start of the D it ends, if any.
    pub(crate) fn d_start_for(&self, s: &State<W>, captured: &crate::Bits<W>) -> u32 {
        let Some(runs) = self.rules.play.as_ref().and_then(|p| p.ko_runs) else {
            return NO_D;
        };
        let n = s.moves.len();
        let mut run_start = n;
        while run_start > 0 && s.moves[run_start - 1].class == CLASS_KO_CAPTURE {
            run_start -= 1;
        }
        let mut best = NO_D;
        for q in captured.iter() {
            let i = s.placed_at[q] as usize;
            if i < run_start || i >= n {
                continue;
            }
            let len = n - i + 1;
            let length_ok = len.is_multiple_of(2) && len >= 4 && (!runs.four_or_six || len <= 6);
            if length_ok && (best == NO_D || i as u32 > best) {
                best = i as u32;
            }
        }
        best
    }

    /// JK Art. 3.3: the player who took more captured prisoners since the
    /// first occurrence of the current board (as a board-play result) wins.
    pub(crate) fn captures_since_first_repetition(&self, s: &State<W>) -> Option<u8> {
        let last = s.moves.last()?;
        let first = s
            .moves
            .iter()
            .position(|r| r.is_play && r.board_key == last.board_key)?;
        let base = s.moves[first].captured;
        let gained = [0, 1].map(|p| last.captured[p] - base[p]);
        match gained[0].cmp(&gained[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }
}
