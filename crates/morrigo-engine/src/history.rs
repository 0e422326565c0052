//! The move-class history (JK: N, C, P, E and the derived D) and the board
//! states that repetition rules compare.

use crate::legality::Illegal;
use crate::machine::{Machine, State};
use crate::records::{MoveRecord, NO_D};
use morrigo_rules::{Immediate, ImmediateReading, Superko, CLASS_KO_CAPTURE};

impl<const W: usize> Machine<W> {
    /// The key superko compares: the board, with the player to move when
    /// the superko is situational.
    pub(crate) fn superko_key(&self, board_key: u64, to_move: u8) -> u64 {
        match self.rules.repetition.superko {
            Superko::Situational if to_move == 1 => board_key ^ self.z_side,
            _ => board_key,
        }
    }

    /// The repetition rule that makes a board play ending with `key_after`
    /// illegal, if one does.
    pub(crate) fn repetition_refusal(&self, s: &State<W>, key_after: u64) -> Option<Illegal> {
        let rep = &self.rules.repetition;
        if rep.immediate == Immediate::Illegal && self.immediate_repetition(s, key_after) {
            return Some(Illegal::ImmediateRepetition);
        }
        let superko = rep.superko != Superko::None
            && s.seen_keys
                .count(self.superko_key(key_after, s.pos.to_move ^ 1))
                > 0;
        superko.then_some(Illegal::Superko)
    }

    /// Is a board play ending with `key_after` an immediate repetition, in
    /// the ruleset's reading of it?
    pub(crate) fn immediate_repetition(&self, s: &State<W>, key_after: u64) -> bool {
        let n = s.moves.len();
        match self.rules.repetition.reading {
            // JK Art. 3.2: the board after the move two back, also a board play.
            ImmediateReading::Jk => {
                n >= 2 && s.moves[n - 2].is_play && s.moves[n - 2].board_key == key_after
            }
            // Simple ko: the board as it stood before the opponent's last
            // move, a board play; what came before that does not matter.
            ImmediateReading::SimpleKo => {
                n >= 1 && s.moves[n - 1].is_play && {
                    let before = if n >= 2 {
                        s.moves[n - 2].board_key
                    } else {
                        s.start_board_key
                    };
                    before == key_after
                }
            }
        }
    }

    /// Append the move just made to the history (after its effects).
    #[inline(always)] // one call site, in `apply`'s hot path
    pub(crate) fn record_move(&self, s: &mut State<W>, is_play: bool, class: u8, d_start: u32) {
        let key = s.pos.board_key;
        if is_play {
            s.pos.last_immediate_repetition = self.immediate_repetition(s, key);
            if self.reads.board_repetitions {
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
        if r.is_play && self.reads.board_repetitions {
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

impl<const W: usize> State<W> {
    /// The move-class history patterns read, oldest first: each completed
    /// turn's class letter (`N`, `C`, a pass kind; 0 for a turn of no
    /// class) and whether a derived run (JK's `D`) ends with it. Empty
    /// unless the ruleset has board plays or passes.
    pub fn class_history(
        &self,
    ) -> impl DoubleEndedIterator<Item = (u8, bool)> + ExactSizeIterator + '_ {
        self.moves.iter().map(|r| (r.class, r.d_start != NO_D))
    }
}
