//! Board plays: chains, liberties, captures, suicide and the JK ko-capture
//! test, all on bitsets.

use crate::bits::Bits;
use crate::machine::{Machine, State};
use crate::moves::Point;
use crate::records::NO_D;
use morrigo_rules::{SuicideEffect, CLASS_KO_CAPTURE, CLASS_NORMAL};

/// What a board play on a point would do.
#[derive(Clone, Copy, Debug)]
pub struct PlayEffect<const W: usize> {
    /// Opposing stones removed.
    pub captured: Bits<W>,
    /// The mover's chain through the played point, after captures.
    pub own_chain: Bits<W>,
    /// The mover's chain has no liberty after captures.
    pub suicide: bool,
    /// What the rules make of that suicide (meaningless without one).
    pub suicide_effect: SuicideEffect,
    /// `N` or `C`.
    pub class: u8,
    /// The board key after the complete play.
    pub key_after: u64,
}

impl<const W: usize> Machine<W> {
    /// All points adjacent to a set.
    #[inline]
    pub(crate) fn dilate(&self, set: &Bits<W>) -> Bits<W> {
        match &self.grid {
            Some(g) => g.dilate(set),
            None => set
                .iter()
                .fold(Bits::EMPTY, |acc, p| acc.or(self.neighbours[p])),
        }
    }

    /// The chain of `stones` through `start`.
    pub fn chain(&self, stones: &Bits<W>, start: usize) -> Bits<W> {
        let mut chain = Bits::EMPTY;
        chain.set(start);
        let mut frontier = chain;
        loop {
            let grown = self.dilate(&frontier).and(*stones).without(chain);
            if grown.is_empty() {
                return chain;
            }
            chain = chain.or(grown);
            frontier = grown;
        }
    }

    /// What playing on empty point `p` would do (the point must be empty).
    pub fn play_effect(&self, s: &State<W>, p: Point) -> PlayEffect<W> {
        let p = p as usize;
        let me = s.pos.to_move as usize;
        let opp = me ^ 1;
        let mut mine = s.pos.occ[me];
        mine.set(p);
        let theirs = s.pos.occ[opp];
        let empty_after_place = self.all.without(mine.or(theirs));
        let around = self.neighbours[p];
        let mut captured = Bits::EMPTY;
        let mut seen = Bits::EMPTY;
        let mut captured_singles = 0;
        for q in around.and(theirs).iter() {
            // A neighbour with an empty neighbour of its own keeps its chain alive.
            if seen.has(q) || !self.neighbours[q].and(empty_after_place).is_empty() {
                continue;
            }
            let chain = self.chain(&theirs, q);
            seen = seen.or(chain);
            if self.dilate(&chain).and(empty_after_place).is_empty() {
                captured = captured.or(chain);
                captured_singles += (chain.count() == 1) as u32;
            }
        }
        let rule = self.rules.play.as_ref();
        // JK Art. 2.5: before removal each side has exactly one libertyless
        // single-stone chain. The mover's can only be the stone just played.
        let mover_single = around.and(mine).is_empty() && around.and(empty_after_place).is_empty();
        let class = if rule.is_some_and(|r| r.ko_capture) && mover_single && captured_singles == 1 {
            CLASS_KO_CAPTURE
        } else {
            CLASS_NORMAL
        };
        let mut key_after = s.pos.board_key ^ self.z_piece[me][p];
        for q in captured.iter() {
            key_after ^= self.z_piece[opp][q];
        }
        let (mut own_chain, mut suicide) = (Bits::EMPTY, false);
        if captured.is_empty() && around.and(empty_after_place).is_empty() {
            own_chain = self.chain(&mine, p);
            let empty_after = self.all.without(mine.or(theirs));
            suicide = self.dilate(&own_chain).and(empty_after).is_empty();
        }
        let suicide_effect = match rule {
            Some(r) if own_chain.count() > 1 => r.suicide_multi,
            Some(r) => r.suicide_single,
            None => SuicideEffect::Illegal,
        };
        if suicide && suicide_effect == SuicideEffect::Remove {
            for q in own_chain.iter() {
                key_after ^= self.z_piece[me][q];
            }
        }
        PlayEffect {
            captured,
            own_chain,
            suicide,
            suicide_effect,
            class,
            key_after,
        }
    }

    /// Is a board play on empty point `p` legal?
    #[inline]
    pub fn play_legal(&self, s: &State<W>, p: Point) -> bool {
        self.play_refusal(s, p).is_none()
    }

    /// Carry out a legal board play; returns its class and D start.
    // Inlined into `apply`'s one call site: out of line it cost Go
    // playouts about 1% more instructions.
    #[inline(always)]
    pub(crate) fn apply_play(&self, s: &mut State<W>, p: Point) -> (u8, u32) {
        let e = self.play_effect(s, p);
        let me = s.pos.to_move as usize;
        let opp = me ^ 1;
        let d_start = if e.class == CLASS_KO_CAPTURE {
            self.d_start_for(s, &e.captured)
        } else {
            NO_D
        };
        s.placed_at[p as usize] = s.moves.len() as u32;
        let pos = &mut s.pos;
        pos.occ[me].set(p as usize);
        pos.on_board[me] += 1;
        pos.occ[opp] = pos.occ[opp].without(e.captured);
        let taken = e.captured.count();
        pos.captured[me] += taken;
        pos.on_board[opp] -= taken;
        pos.lost[opp] += taken;
        // A capture is a removal for `turns_without_removal` and `lost`.
        pos.removed_this_turn |= taken > 0;
        if e.suicide {
            match e.suicide_effect {
                SuicideEffect::Remove => {
                    pos.occ[me] = pos.occ[me].without(e.own_chain);
                    let lost = e.own_chain.count();
                    pos.captured[opp] += lost;
                    pos.on_board[me] -= lost;
                    pos.lost[me] += lost;
                    pos.removed_this_turn = true;
                }
                SuicideEffect::Lose | SuicideEffect::Illegal => pos.last_suicide = true,
            }
        }
        pos.hash ^= pos.board_key ^ e.key_after;
        pos.board_key = e.key_after;
        (e.class, d_start)
    }
}
