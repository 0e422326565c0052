//! Captures a move makes by itself (`captures:` of a ruleset): custodian
//! and intervention along the board's lines. Compiled to one flat table of
//! point pairs per rule and point, so applying a move scans a few pairs and
//! tests bits; a ruleset without captures pays one emptiness check.

use crate::bits::Bits;
use crate::eval::Ctx;
use crate::machine::{Machine, State};
use crate::moves::{Move, MoveKind, Point};
use morrigo_rules::CaptureKind;

impl<const W: usize> Machine<W> {
    /// Which capture rules apply to the player to move's next move (bit i:
    /// rule i), judged before the move as the rules say. Out of line (as
    /// the other capture paths): rulesets without captures never call it,
    /// and inlining it slowed their move loop.
    #[inline(never)]
    pub(crate) fn armed_captures(&self, s: &State<W>) -> u64 {
        let ctx = Ctx::turn(s.pos.to_move, self.phase(s) as u8);
        self.captures
            .iter()
            .enumerate()
            .filter(|(_, c)| self.eval(&c.when, s, ctx) != 0)
            .fold(0, |mask, (i, _)| mask | 1 << i)
    }

    /// The leap rules armed for the player to move (bits as in
    /// [`Machine::armed_captures`]); 0 without leap rules.
    #[inline]
    pub(crate) fn armed_leaps(&self, s: &State<W>) -> u64 {
        if self.leap_rules == 0 {
            return 0;
        }
        self.armed_captures(s) & self.leap_rules
    }

    /// Where the piece on `from` may leap to under the armed leap rules:
    /// the far ends of triples whose middle holds an opposing piece and
    /// whose far end is empty.
    pub(crate) fn leap_targets(&self, s: &State<W>, from: usize, armed: u64) -> Bits<W> {
        let opp = (s.pos.to_move ^ 1) as usize;
        let mut to = Bits::EMPTY;
        for (over, end) in self.armed_pairs(from, armed) {
            if s.pos.occ[opp].has(over as usize) && s.owner(end).is_none() {
                to.set(end as usize);
            }
        }
        to
    }

    /// The opposing pieces a leap from `from` to `to` jumps over (every
    /// armed leap rule's triple joining the two).
    pub(crate) fn leaped(&self, s: &State<W>, from: usize, to: Point, armed: u64) -> Bits<W> {
        let opp = (s.pos.to_move ^ 1) as usize;
        let mut over_set = Bits::EMPTY;
        for (over, end) in self.armed_pairs(from, armed) {
            if end == to && s.pos.occ[opp].has(over as usize) {
                over_set.set(over as usize);
            }
        }
        over_set
    }

    /// The table pairs at point `p` of the capture rules armed in `armed`.
    fn armed_pairs(&self, p: usize, armed: u64) -> impl Iterator<Item = (Point, Point)> + '_ {
        self.captures
            .iter()
            .enumerate()
            .filter(move |(i, _)| armed & (1 << i) != 0)
            .flat_map(move |(_, c)| {
                c.pairs[c.start[p] as usize..c.start[p + 1] as usize]
                    .iter()
                    .copied()
            })
    }

    /// The captures of move `m`, just applied to `s`, under the rules
    /// `armed` before it (judged on the mover's phase and counts before the
    /// move): a leap takes what it jumps, then every armed custodian and
    /// intervention rule taking at once takes around `m.to`.
    #[inline(never)]
    pub(crate) fn take_move_captures(&self, s: &mut State<W>, armed: u64, m: Move) {
        let me = s.pos.to_move as usize;
        if m.kind == MoveKind::Leap {
            let over = self.leaped(s, m.from as usize, m.to, armed & self.leap_rules);
            self.take_pieces(s, me ^ 1, over);
        }
        // Captures by removal take nothing here (`open_choice` owes them).
        self.take_captures(s, me, m.to, armed & !self.by_removal());
    }

    /// Bits of the capture rules taking by removals (0 without them).
    fn by_removal(&self) -> u64 {
        self.choose.as_ref().map_or(0, |x| x.rules)
    }

    /// Take the pieces the move that just put `me`'s piece on `to` captures
    /// under the armed rules (leap rules excepted: a leap takes what it
    /// jumps over); returns how many.
    fn take_captures(&self, s: &mut State<W>, me: usize, to: Point, armed: u64) -> u32 {
        let taken = self.flanked(&s.pos.occ[me], &s.pos.occ[me ^ 1], to, armed);
        self.take_pieces(s, me ^ 1, taken)
    }

    /// The opposing pieces (`theirs`) the custodian and intervention rules
    /// of `armed` take around `to` on a board where the mover holds `mine`.
    fn flanked(&self, mine: &Bits<W>, theirs: &Bits<W>, to: Point, armed: u64) -> Bits<W> {
        let mut taken = Bits::<W>::EMPTY;
        for (i, c) in self.captures.iter().enumerate() {
            if armed & (1 << i) == 0 || c.kind == CaptureKind::Leap {
                continue;
            }
            let range = c.start[to as usize] as usize..c.start[to as usize + 1] as usize;
            for &(x, y) in &c.pairs[range] {
                let (x, y) = (x as usize, y as usize);
                match c.kind {
                    CaptureKind::Custodian => {
                        if theirs.has(x) && mine.has(y) {
                            taken.set(x);
                        }
                    }
                    CaptureKind::Intervention => {
                        if theirs.has(x) && theirs.has(y) {
                            taken.set(x);
                            taken.set(y);
                        }
                    }
                    CaptureKind::Leap => {}
                }
            }
        }
        taken
    }

    /// How many opposing pieces the capture rules would take if the player
    /// to move played `m` (a placement, slide, fly or leap) now.
    #[inline(never)]
    pub(crate) fn rule_captures(&self, s: &State<W>, m: Move) -> u32 {
        if self.captures.is_empty() {
            return 0;
        }
        let armed = self.armed_captures(s);
        if armed == 0 {
            return 0;
        }
        let me = s.pos.to_move as usize;
        let mut mine = s.pos.occ[me];
        let mut theirs = s.pos.occ[me ^ 1];
        let mut count = 0;
        if m.kind != MoveKind::Place {
            mine.clear(m.from as usize);
        }
        if m.kind == MoveKind::Leap {
            let over = self.leaped(s, m.from as usize, m.to, armed & self.leap_rules);
            count += over.count();
            theirs = theirs.without(over);
        }
        mine.set(m.to as usize);
        // Captures by removal take nothing with the move itself.
        count
            + self
                .flanked(&mine, &theirs, m.to, armed & !self.by_removal())
                .count()
    }

    /// Moves of pieces when leap rules are armed: the leaps, then slides
    /// and flies except between a leap's ends (that move is the leap).
    #[inline(never)]
    pub(crate) fn moves_with_leaps(
        &self,
        s: &State<W>,
        slide: bool,
        fly: bool,
        leaps: u64,
        out: &mut Vec<Move>,
    ) {
        let me = s.pos.to_move as usize;
        let empty = self.empty(s);
        for from in s.pos.occ[me].iter() {
            let jumps = self.leap_targets(s, from, leaps);
            let kind_to = |kind, to: usize| Move {
                kind,
                from: from as Point,
                to: to as Point,
            };
            out.extend(jumps.iter().map(|to| kind_to(MoveKind::Leap, to)));
            if !(slide || fly) {
                continue;
            }
            let adjacent = self.neighbours[from];
            let reach = if fly { empty } else { adjacent.and(empty) };
            for to in reach.without(jumps).iter() {
                // A fly to an adjacent point is the same move as a slide.
                let kind = if slide && adjacent.has(to) {
                    MoveKind::Slide
                } else {
                    MoveKind::Fly
                };
                out.push(kind_to(kind, to));
            }
        }
    }

    /// Remove `opp`'s pieces on `taken` as a capture (lost, a removal).
    pub(crate) fn take_pieces(&self, s: &mut State<W>, opp: usize, taken: Bits<W>) -> u32 {
        let count = taken.count();
        if count == 0 {
            return 0;
        }
        let pos = &mut s.pos;
        for p in taken.iter() {
            pos.occ[opp].clear(p);
            pos.hash ^= self.z_piece[opp][p];
            pos.board_key ^= self.z_piece[opp][p];
        }
        pos.on_board[opp] -= count;
        pos.lost[opp] += count;
        pos.removed_this_turn = true;
        count
    }
}
