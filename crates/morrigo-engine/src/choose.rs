//! Captures taken by removals the player chooses (`captures.*.take:
//! choose | choose_one`, the reading of the Sanmill app): a custodian or
//! intervention pattern takes nothing by itself; its pieces become the
//! targets of removals the mover makes as further plies of the turn.
//!
//! - custodian: the flanked pieces a removal could take (the line rule's
//!   `removable`; any piece without a line rule) are the targets, one
//!   removal each (`choose_one`: one removal);
//! - intervention: both ends of each line the piece landed in the middle
//!   of, when either end could be removed; two removals, the second being
//!   the first one's partner on its line;
//! - when the move also completes a line that owes removals, the mover owes
//!   the larger count, and the first removal decides: a custodian target
//!   takes the custodian capture, an intervention target the intervention,
//!   any other removable piece the line's removals (the captures lapse).
//!
//! The open choice is kept outside [`crate::machine::Position`] with a
//! ply-tagged log (as the marks), and enters the position key. A ruleset
//! without such rules has no [`ChooseRules`] and never reaches this module.

use crate::bits::Bits;
use crate::machine::{Machine, State};
use crate::moves::{Move, Point};
use crate::tables::captures::CompiledCapture;
use crate::tables::choose::{Choice, ChooseRules};
use morrigo_rules::CaptureKind;

impl<const W: usize> Machine<W> {
    /// Replace the choice (and its part of the position key).
    fn set_choice(&self, x: &ChooseRules, s: &mut State<W>, new: Choice<W>) {
        s.pos.hash ^= x.key(&s.choice.now) ^ x.key(&new);
        s.choice.set(s.pos.ply, new);
    }

    /// Whether a capture by removal may target the opposing piece on `p`.
    fn capture_removable(&self, s: &State<W>, p: usize) -> bool {
        self.removals.is_none() || self.removable(s, p)
    }

    /// After a move to `to` (its lines judged, `pending` what they owe):
    /// open the choice the capture rules of `armed` taking by removals make.
    pub(crate) fn open_choice(&self, x: &ChooseRules, s: &mut State<W>, to: Point, armed: u64) {
        let armed = armed & x.rules;
        if armed == 0 {
            return;
        }
        let me = s.pos.to_move as usize;
        let (mine, theirs) = (s.pos.occ[me], s.pos.occ[me ^ 1]);
        let mut cust = Bits::EMPTY;
        let mut inter = Bits::EMPTY;
        for (i, c) in self.captures.iter().enumerate() {
            if armed & (1 << i) == 0 {
                continue;
            }
            for (a, b) in pairs_at(c, to) {
                let (a, b) = (a as usize, b as usize);
                match c.kind {
                    CaptureKind::Custodian => {
                        if theirs.has(a) && mine.has(b) && self.capture_removable(s, a) {
                            cust.set(a);
                        }
                    }
                    CaptureKind::Intervention => {
                        let either =
                            || self.capture_removable(s, a) || self.capture_removable(s, b);
                        if theirs.has(a) && theirs.has(b) && either() {
                            inter.set(a);
                            inter.set(b);
                        }
                    }
                    CaptureKind::Leap => {}
                }
            }
        }
        if cust.is_empty() && inter.is_empty() {
            return;
        }
        let cust_owed = if armed & x.custodian & x.one != 0 {
            cust.count().min(1)
        } else {
            cust.count()
        } as u16;
        let inter_owed = if inter.is_empty() { 0 } else { 2 };
        let line = s.pos.pending;
        s.pos.pending = line.max(cust_owed).max(inter_owed);
        let choice = Choice {
            cust,
            inter,
            line,
            cust_owed,
            centre: to,
            armed: armed & !x.custodian,
            open: true,
        };
        self.set_choice(x, s, choice);
    }

    /// The removal moves while a choice is owed (before forbid rules).
    pub(crate) fn choice_targets(&self, s: &State<W>, out: &mut Vec<Move>) {
        let c = &s.choice.now;
        let targets = c.cust.or(c.inter);
        out.extend(targets.iter().map(|p| Move::remove(p as Point)));
        if c.open && c.line > 0 {
            let opp = (s.pos.to_move ^ 1) as usize;
            for p in s.pos.occ[opp].without(targets).iter() {
                if self.removable(s, p) {
                    out.push(Move::remove(p as Point));
                }
            }
        }
    }

    /// Whether some removal `choice_targets` lists passes `allowed`
    /// (without building the list).
    pub(crate) fn any_choice_target(&self, s: &State<W>, allowed: impl Fn(usize) -> bool) -> bool {
        let c = &s.choice.now;
        let targets = c.cust.or(c.inter);
        if targets.iter().any(&allowed) {
            return true;
        }
        let opp = (s.pos.to_move ^ 1) as usize;
        c.open
            && c.line > 0
            && s.pos.occ[opp]
                .without(targets)
                .iter()
                .any(|p| self.removable(s, p) && allowed(p))
    }

    /// The removal of the piece on `at` was just made (`pending` already
    /// lowered): the first one decides which capture the turn takes.
    pub(crate) fn chose(&self, x: &ChooseRules, s: &mut State<W>, at: Point) {
        let mut c = s.choice.now;
        let at = at as usize;
        if c.open {
            c.open = false;
            if c.inter.has(at) {
                // The partner: the other end of a line centred where the
                // capturing piece landed.
                let mut partners = Bits::EMPTY;
                for (i, rule) in self.captures.iter().enumerate() {
                    if c.armed & (1 << i) == 0 {
                        continue;
                    }
                    for (a, b) in pairs_at(rule, c.centre) {
                        let (a, b) = (a as usize, b as usize);
                        if a == at && c.inter.has(b) {
                            partners.set(b);
                        } else if b == at && c.inter.has(a) {
                            partners.set(a);
                        }
                    }
                }
                c.inter = partners;
                c.cust = Bits::EMPTY;
                s.pos.pending = u16::from(!partners.is_empty());
            } else if c.cust.has(at) {
                c.cust.clear(at);
                c.inter = Bits::EMPTY;
                s.pos.pending = c.cust_owed - 1;
            } else {
                // The line's removals: ordinary ones from here on.
                s.pos.pending = c.line - 1;
                c = Choice::NONE;
            }
        } else {
            c.cust.clear(at);
            c.inter.clear(at);
            if !c.active() {
                // No target left for what is owed (never with the counts
                // above; kept so a removal is never left unbounded).
                s.pos.pending = 0;
            }
        }
        if s.pos.pending == 0 {
            c = Choice::NONE;
        }
        self.set_choice(x, s, c);
    }

    /// Nothing more is owed (no target left): drop the choice.
    pub(crate) fn close_choice(&self, s: &mut State<W>) {
        if let Some(x) = &self.choose {
            self.set_choice(x, s, Choice::NONE);
        }
    }

    /// Whether the removals owed now are a capture's (its choice still
    /// open or made).
    pub fn capture_owed(&self, s: &State<W>) -> bool {
        self.choose.is_some() && s.choice.now.active()
    }

    /// Whether the open choice also lets the line's removals be taken.
    pub fn capture_owed_lines(&self, s: &State<W>) -> bool {
        s.choice.now.open && s.choice.now.line > 0
    }

    /// The pieces a capture by removal has made removable now, custodian
    /// and intervention targets together (empty when none is owed).
    pub fn capture_targets(&self, s: &State<W>) -> Bits<W> {
        let c = &s.choice.now;
        c.cust.or(c.inter)
    }
}

/// A capture rule's table pairs at point `p` (see [`CompiledCapture`]).
fn pairs_at(c: &CompiledCapture, p: Point) -> impl Iterator<Item = (Point, Point)> + '_ {
    c.pairs[c.start[p as usize] as usize..c.start[p as usize + 1] as usize]
        .iter()
        .copied()
}
