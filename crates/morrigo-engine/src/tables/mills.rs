//! What the line rule's extras keep: their conditions and hash keys,
//! built once with the machine, and the per-line history and the marks of
//! delayed removals, logged in the state. [`crate::mills`] applies them.

use crate::bits::Bits;
use crate::compiled::{lower, Op};
use crate::ply_log::PlyLog;
use morrigo_rules::{Prim, Rules};

/// The compiled extras of the line rule.
#[derive(Debug)]
pub(crate) struct MillExtras {
    pub(crate) counts: Option<Op>,
    pub(crate) from_hand: Option<Op>,
    pub(crate) delay: Option<Op>,
    /// Some rule reads the per-line history: keep it.
    pub(crate) history: bool,
    /// Some rule reads `lines_formed_in`: count lines per phase and player.
    pub(crate) phase_lines: bool,
    /// Hash keys of a mark on each point (empty without `delay`).
    pub(crate) z_mark: Vec<u64>,
}

impl MillExtras {
    /// `None` when the ruleset uses none of the extras. `key` draws the
    /// next hash key (drawn after every other key, so they are unchanged).
    pub(crate) fn of(rules: &Rules, points: usize, key: &mut dyn FnMut() -> u64) -> Option<Self> {
        let phase_lines = rules.uses(Prim::LinesFormedIn);
        let l = rules.line_rule.as_ref();
        let history = [
            Prim::FormedBefore,
            Prim::TurnsSinceFormed,
            Prim::TurnsSinceTraded,
        ]
        .into_iter()
        .any(|p| rules.uses(p));
        // No extras, no rule reading the history (a forbid rule may) and
        // none counting lines per phase: no per-move work at all.
        if l.is_none_or(|l| l.extras().next().is_none()) && !history && !phase_lines {
            return None;
        }
        let cond = |c: Option<&morrigo_rules::Cond>| c.map(|c| lower(&c.expr));
        let z_mark = match l.and_then(|l| l.delay.as_ref()) {
            Some(_) => (0..points).map(|_| key()).collect(),
            None => Vec::new(),
        };
        Some(MillExtras {
            counts: cond(l.and_then(|l| l.counts.as_ref())),
            from_hand: cond(l.and_then(|l| l.from_hand.as_ref())),
            delay: cond(l.and_then(|l| l.delay.as_ref())),
            history,
            phase_lines,
            z_mark,
        })
    }
}

/// For each player and line: the turn (plus one; 0 = never) the player
/// last completed it, then the turn the player last traded it. Changes are
/// logged with the ply that made them, so undo (which restores the ply
/// first) takes back exactly the later ones and `Undo` carries nothing;
/// the table is sized once and the log grows with the game like the
/// position history.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LineHistory {
    pub(crate) turns: Vec<u32>,
    /// (ply after the change, index, previous value).
    pub(crate) log: Vec<(u32, u32, u32)>,
}

/// The marks of delayed removals, logged (as [`LineHistory`]) outside the
/// position.
pub(crate) type Marks<const W: usize> = PlyLog<Bits<W>>;

/// Which turn [`LineHistory::index`] reads: the line formed, or traded.
pub(crate) const FORMED: usize = 0;
pub(crate) const TRADED: usize = 1;

impl LineHistory {
    pub(crate) fn new(lines: usize) -> Self {
        LineHistory {
            turns: vec![0; 4 * lines],
            log: Vec::with_capacity(256),
        }
    }

    pub(crate) fn index(&self, what: usize, player: usize, line: usize) -> usize {
        let lines = self.turns.len() / 4;
        (what * 2 + player) * lines + line
    }

    pub(crate) fn set(&mut self, ply: u32, i: usize, value: u32) {
        self.log.push((ply, i as u32, self.turns[i]));
        self.turns[i] = value;
    }

    /// Undo the changes made by plies after `ply`.
    pub(crate) fn undo_after(&mut self, ply: u32) {
        while let Some(&(at, i, old)) = self.log.last() {
            if at <= ply {
                break;
            }
            self.turns[i as usize] = old;
            self.log.pop();
        }
    }
}
