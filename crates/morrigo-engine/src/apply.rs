//! Transitions: apply a move (placement, slide, fly, removal, board play,
//! pass), the removals a completed line owes, the end of a turn, and undo.

use crate::eval::{Ctx, REPETITION_SCAN};
use crate::machine::{Machine, Position, State, Undo};
use crate::moves::{Move, MoveKind, Point};
use crate::records::NO_D;

impl<const W: usize> Machine<W> {
    /// Take one piece from a limited hand (nothing to do with an unlimited one).
    #[inline(always)]
    pub(crate) fn take_from_hand(&self, pos: &mut Position<W>, me: usize) {
        if !self.rules.unlimited_hand {
            pos.hash ^= self.hand_key(me, pos.in_hand[me]);
            pos.in_hand[me] -= 1;
            pos.hash ^= self.hand_key(me, pos.in_hand[me]);
        }
    }

    /// Move `me`'s piece from `from` to `to` (a slide, fly or leap).
    #[inline(always)]
    pub(crate) fn move_piece(&self, s: &mut State<W>, me: usize, from: Point, to: Point) {
        let pos = &mut s.pos;
        pos.occ[me].clear(from as usize);
        pos.occ[me].set(to as usize);
        let k = self.z_piece[me][from as usize] ^ self.z_piece[me][to as usize];
        pos.hash ^= k;
        pos.board_key ^= k;
    }

    /// Play a legal move (as produced by `legal_moves` or `sample_move`).
    pub fn apply(&self, s: &mut State<W>, m: Move) -> Undo<W> {
        // Two copies of the transition: rulesets without the extras
        // ([`Machine::extras`]) run one with none of their checks.
        if self.extras {
            self.apply_as::<true>(s, m)
        } else {
            self.apply_as::<false>(s, m)
        }
    }

    // Out of line: inlined into `apply`, the two copies cost more than
    // the call they save.
    #[inline(never)]
    fn apply_as<const EXTRAS: bool>(&self, s: &mut State<W>, m: Move) -> Undo<W> {
        let me = s.pos.to_move as usize;
        let opp = me ^ 1;
        // Capture rules are judged on the position before the move. Asked
        // here, so nothing borrows the undo record: a borrow keeps the
        // compiler from building the record in the caller's slot (a
        // 112-byte copy per apply).
        let armed = if EXTRAS && !self.captures.is_empty() && is_board_move(m.kind) {
            self.armed_captures(s)
        } else {
            0
        };
        let mut undo = Undo {
            pos: s.pos,
            pushed: false,
            recorded: false,
            placed: None,
        };
        if EXTRAS && self.turns.track_phase && s.pos.pending == 0 {
            s.pos.turn_phase = self.phase(s) as u8;
        }
        s.pos.ply += 1;
        if m.kind != MoveKind::Remove {
            // What the last move did; removals belong to the move that owed them.
            s.pos.last_suicide = false;
            s.pos.last_immediate_repetition = false;
            s.pos.last_board_repetitions = 0;
        }
        let mut class = 0u8;
        let mut d_start = NO_D;
        match m.kind {
            MoveKind::Place => self.place_piece(&mut s.pos, me, m.to),
            MoveKind::Slide | MoveKind::Fly | MoveKind::Leap => {
                self.move_piece(s, me, m.from, m.to)
            }
            MoveKind::Remove
                if EXTRAS && self.turns.has_remove_own && s.pos.occ[me].has(m.to as usize) =>
            {
                self.remove_own_piece(s, m.to)
            }
            MoveKind::Remove => {
                // The removals complete the turn of the move that owed them.
                class = s.pos.turn_class;
                d_start = s.pos.turn_d_start;
                self.remove_opposing::<EXTRAS>(s, opp, m.to);
            }
            MoveKind::Play => {
                undo.placed = Some((m.to, s.placed_at[m.to as usize]));
                self.take_from_hand(&mut s.pos, me);
                let (c, d) = self.apply_play(s, m.to);
                class = c;
                d_start = d;
                s.pos.turn_class = c;
                s.pos.turn_d_start = d;
            }
            MoveKind::Pass => {
                let stones = self.rules.passes.stones;
                s.pos.pass_stones[opp] += stones;
                class = self.rules.passes.kinds[m.to as usize];
            }
        }
        if armed != 0 {
            self.take_move_captures(s, armed, m);
        }
        // A board play's stone may be gone (a removed suicide): no line then.
        let forms_lines = match m.kind {
            MoveKind::Play => s.pos.occ[me].has(m.to as usize),
            kind => is_board_move(kind),
        };
        if forms_lines {
            self.after_line_move::<EXTRAS>(s, me, m.from, m.to);
        }
        if EXTRAS && armed != 0 {
            if let Some(x) = &self.choose {
                // Captures by removal owe their removals after the lines'.
                self.open_choice(x, s, m.to, armed);
            }
        }
        if s.pos.pending > 0 && !self.any_removable(s) {
            s.pos.pending = 0;
            self.close_choice(s);
        }
        if s.pos.pending == 0 {
            if self.record_moves {
                let is_play =
                    m.kind == MoveKind::Play || m.kind == MoveKind::Remove && s.pos.turn_class != 0;
                self.record_move(s, is_play, class, d_start);
                undo.recorded = true;
            }
            undo.pushed = self.reads.repetitions;
            self.end_turn::<EXTRAS>(s, m);
        }
        undo
    }

    /// A piece from `me`'s hand onto `to`. Inlined into `apply_as` (split
    /// out for reading only: the transition stays one function).
    #[inline(always)]
    fn place_piece(&self, pos: &mut Position<W>, me: usize, to: Point) {
        self.take_from_hand(pos, me);
        pos.hash ^= self.z_piece[me][to as usize];
        pos.board_key ^= self.z_piece[me][to as usize];
        pos.occ[me].set(to as usize);
        pos.on_board[me] += 1;
    }

    /// `player`'s piece on `at` off the board, lost (keys updated).
    #[inline(always)]
    pub(crate) fn take_off(&self, pos: &mut Position<W>, player: usize, at: Point) {
        pos.occ[player].clear(at as usize);
        pos.on_board[player] -= 1;
        pos.hash ^= self.z_piece[player][at as usize];
        pos.board_key ^= self.z_piece[player][at as usize];
        pos.lost[player] += 1;
    }

    /// The opposing piece on `at` taken off: an owed removal paid (or a
    /// `remove` action, which forms no line), a mark left where the rules
    /// delay removals, a capture by removal's choice advanced.
    #[inline(always)]
    fn remove_opposing<const EXTRAS: bool>(&self, s: &mut State<W>, opp: usize, at: Point) {
        if EXTRAS && self.mills.is_some() && self.removal_marks(s) {
            self.set_mark(s, at);
        }
        let pos = &mut s.pos;
        self.take_off(pos, opp, at);
        if pos.pending > 0 {
            pos.pending -= 1;
        } else {
            pos.lines_formed = 0;
        }
        pos.removed_this_turn = true;
        if let Some(x) = &self.choose {
            if s.choice.now.active() {
                self.chose(x, s, at);
            }
        }
    }

    #[inline(always)]
    fn after_line_move<const EXTRAS: bool>(
        &self,
        s: &mut State<W>,
        me: usize,
        from: Point,
        to: Point,
    ) {
        let mut formed = self.lines_at(&s.pos.occ[me], to as usize);
        if formed > 0 {
            s.pos.line_this_turn = true;
            if let Some(x) = self.mills.as_ref().filter(|_| EXTRAS) {
                formed = self.counting_lines(x, s, me, from, to);
            }
        }
        s.pos.lines_formed = formed as u16;
        if formed == 0 {
            return;
        }
        if let Some((removals, _)) = &self.removals {
            let ctx = Ctx {
                lines_formed: formed as u16,
                ..Ctx::turn(me as u8, self.turn_phase(s))
            };
            let mut owed = self.eval(removals, s, ctx).clamp(0, u16::MAX as i64) as u16;
            if let Some(x) = self.mills.as_ref().filter(|_| EXTRAS) {
                owed = self.removals_from_hand(x, s, me, owed, ctx);
            }
            s.pos.pending = owed;
        }
    }

    #[inline(always)]
    fn end_turn<const EXTRAS: bool>(&self, s: &mut State<W>, last: Move) {
        let pos = &mut s.pos;
        // With limited hands a player's pieces (board plus hand) only ever
        // decrease, so after a placement or a removal no earlier position can
        // come back. With an unlimited supply (Go) captured stones are
        // replaced by new plays and any earlier position may recur.
        let placed_or_removed =
            pos.removed_this_turn || matches!(last.kind, MoveKind::Place | MoveKind::Play);
        let irreversible = !self.rules.unlimited_hand && placed_or_removed;
        pos.quiet_turns = if placed_or_removed {
            0
        } else {
            pos.quiet_turns + 1
        };
        pos.turns_without_removal = if pos.removed_this_turn {
            0
        } else {
            pos.turns_without_removal + 1
        };
        pos.turns_without_line = if pos.line_this_turn {
            0
        } else {
            pos.turns_without_line + 1
        };
        pos.removed_this_turn = false;
        pos.line_this_turn = false;
        pos.turn_class = 0;
        pos.turn_d_start = NO_D;
        pos.turn += 1;
        if EXTRAS && self.turns.order {
            let next = self.next_player(s);
            let pos = &mut s.pos;
            if next != pos.to_move {
                pos.to_move = next;
                pos.hash ^= self.z_side;
            }
        } else {
            pos.to_move ^= 1;
            pos.hash ^= self.z_side;
        }
        if let Some(x) = self.mills.as_ref().filter(|_| EXTRAS) {
            self.release_marks(x, s);
        }
        let pos = &mut s.pos;
        if self.reads.repetitions {
            if irreversible {
                pos.reversible_from = s.history.len() as u32;
            }
            s.history.push(pos.hash);
            if s.history.len() - pos.reversible_from as usize > REPETITION_SCAN {
                // Count what is not counted yet: each entry once per push.
                for &h in &s.history[s.history_counted as usize..] {
                    s.history_counts.add(h);
                }
                s.history_counted = s.history.len() as u32;
            }
        }
    }

    /// Hand the turn to the other player without a move, as a GTP
    /// controller asks by playing two moves of one colour in a row (GUIs set
    /// up positions that way). Nothing enters the history: no move class, no
    /// pass stone, no position to repeat; only the player to move (and so
    /// the position key) changes. Calling it again takes it back. Refused
    /// (false) in the middle of a turn, while a removal is owed.
    pub fn hand_over(&self, s: &mut State<W>) -> bool {
        if s.pos.pending != 0 {
            return false;
        }
        s.pos.to_move ^= 1;
        s.pos.hash ^= self.z_side;
        true
    }

    /// Take back the move `apply` returned `u` for: `s` is exactly as it
    /// was before it (position, histories and logs).
    pub fn undo(&self, s: &mut State<W>, u: Undo<W>) {
        if u.recorded {
            self.unrecord_move(s);
        }
        if let Some((at, prev)) = u.placed {
            s.placed_at[at as usize] = prev;
        }
        s.pos = u.pos;
        // Only the line-rule extras and capture choices keep logs of their own.
        if self.logs {
            if self.mills.is_some() {
                s.lines.undo_after(s.pos.ply);
                s.marks.undo_after(s.pos.ply);
                s.phase_lines.undo_after(s.pos.ply);
            }
            if self.choose.is_some() {
                s.choice.undo_after(s.pos.ply);
            }
        }
        if u.pushed {
            if let Some(h) = s.history.pop() {
                if s.history_counted as usize > s.history.len() {
                    s.history_counts.remove(h);
                    s.history_counted -= 1;
                }
            }
        }
    }
}

/// A move that puts the mover's piece on a point of the board by a Morris
/// action (captures and lines follow it).
#[inline(always)]
fn is_board_move(kind: MoveKind) -> bool {
    matches!(
        kind,
        MoveKind::Place | MoveKind::Slide | MoveKind::Fly | MoveKind::Leap
    )
}
