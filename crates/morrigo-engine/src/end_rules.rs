//! End rules: checked in order at the start of each turn.

use crate::bits::Bits;
use crate::eval::Ctx;
use crate::machine::{Machine, State};
use crate::moves::Outcome;
use morrigo_rules::Verdict;

impl<const W: usize> Machine<W> {
    /// The outcome at the start of this turn, if an end rule decides.
    pub fn outcome(&self, s: &State<W>) -> Option<Outcome> {
        if s.pos.pending > 0 {
            return None;
        }
        let phase = self.phase(s);
        let blocked = self.reads.no_legal_move && !self.has_legal_move(s, phase);
        self.outcome_with(s, phase, blocked)
    }

    pub(crate) fn outcome_with(
        &self,
        s: &State<W>,
        phase: usize,
        no_legal_move: bool,
    ) -> Option<Outcome> {
        let ctx = Ctx {
            no_legal_move,
            ..Ctx::turn(s.pos.to_move, phase as u8)
        };
        let rule = self
            .end
            .iter()
            .position(|(_, e)| self.eval(e, s, ctx) != 0)?;
        let me = s.pos.to_move;
        let winner = match self.end[rule].0 {
            Verdict::Lose => Some(me ^ 1),
            Verdict::Win => Some(me),
            Verdict::Draw | Verdict::NoResult => None,
            Verdict::Score => {
                let score = self.score(s, &Bits::EMPTY);
                crate::scoring::winner(score)
            }
            Verdict::CompareCaptures => self.captures_since_first_repetition(s),
        };
        Some(Outcome {
            winner,
            rule: rule as u16,
        })
    }
}
