//! Is this move legal, and if not, why: the one answer. `legal_moves`
//! generates exactly the moves [`Machine::check_move`] accepts (a test
//! checks it on random games), and `explain` words its [`Illegal`].

use crate::machine::{Machine, State};
use crate::moves::{Move, MoveKind, Outcome, Point};
use morrigo_rules::{ActionKind, SuicideEffect};

/// Why a move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// An end rule decided the game at the start of this turn.
    GameOver(Outcome),
    /// The mover owes a removal: only removals are legal.
    RemovalOwed,
    /// A removal when none is owed.
    NothingToRemove,
    /// A removal of an empty point.
    RemoveEmpty,
    /// A removal of the mover's own piece.
    RemoveOwn,
    /// The line rule's `removable` does not hold for this piece.
    NotRemovable,
    /// A capture by removal is owed (`captures.*.take`) and this piece is
    /// not one it allows.
    NotCaptureTarget,
    /// The phase's `remove` action does not allow removing this piece now.
    RemoveGuardFails {
        /// The mover's phase (index into `Rules::phases`).
        phase: usize,
    },
    /// The phase (index into `Rules::phases`) has no such action.
    NotInPhase {
        /// The mover's phase (index into `Rules::phases`).
        phase: usize,
        /// The action the move is.
        kind: ActionKind,
    },
    /// The phase's condition for the action does not hold.
    GuardFails {
        /// The mover's phase (index into `Rules::phases`).
        phase: usize,
        /// The action whose condition fails.
        kind: ActionKind,
    },
    /// The forbid rule with this index (into `Rules::forbid`) holds.
    Forbidden(usize),
    /// A placement or board play with a limited hand that is empty.
    HandEmpty,
    /// The destination is not empty.
    Occupied,
    /// The destination holds the mark of a delayed removal.
    Marked,
    /// The piece to move is not the mover's.
    NotOwnPiece,
    /// A slide between points that are not adjacent (flying not allowed).
    NotAdjacent,
    /// A fly to an adjacent point while sliding is allowed: it is a slide.
    IsASlide,
    /// A slide or fly between the ends of a leap that is legal: the move
    /// is the leap, which takes the jumped piece.
    IsALeap,
    /// A leap no armed capture rule allows: no leap rule holds now, or no
    /// opposing piece lies between the two points on a line.
    NoLeap,
    /// A board play leaving its chain without liberty, which is illegal.
    Suicide,
    /// A board play that is an immediate repetition, which is illegal.
    ImmediateRepetition,
    /// A board play recreating an earlier board under superko.
    Superko,
    /// Not a move on this board or of this ruleset (a point or pass kind
    /// out of range).
    NoSuchMove,
}

impl<const W: usize> Machine<W> {
    /// `Ok` iff `legal_moves` would list `m`; otherwise the first reason,
    /// in the order: game over / owed removal, the action, the point.
    pub fn check_move(&self, s: &State<W>, m: Move) -> Result<(), Illegal> {
        if s.pos.pending > 0 {
            return self.owed_removal_refusal(s, m);
        }
        if let Some(o) = self.outcome(s) {
            return Err(Illegal::GameOver(o));
        }
        let phase = self.phase(s);
        match m.kind {
            MoveKind::Remove => self.removal_move_refusal(s, phase, m.to),
            MoveKind::Pass => self.pass_refusal(s, phase, m.to),
            MoveKind::Place | MoveKind::Play => self.placement_refusal(s, phase, m),
            MoveKind::Leap => self.leap_refusal(s, m),
            MoveKind::Slide | MoveKind::Fly => self.step_refusal(s, phase, m),
        }
    }

    #[inline]
    fn on_board(&self, p: Point) -> bool {
        (p as usize) < self.n
    }

    /// While a removal is owed only removals of removable opposing pieces
    /// (the capture's targets, when a capture by removal is owed) are legal.
    #[inline]
    fn owed_removal_refusal(&self, s: &State<W>, m: Move) -> Result<(), Illegal> {
        if m.kind != MoveKind::Remove {
            return Err(Illegal::RemovalOwed);
        }
        if !self.on_board(m.to) {
            return Err(Illegal::NoSuchMove);
        }
        match s.owner(m.to) {
            None => Err(Illegal::RemoveEmpty),
            Some(o) if o == s.pos.to_move => Err(Illegal::RemoveOwn),
            Some(_) if self.choose.is_some() && s.choice.now.active() => {
                let mut targets = Vec::new();
                self.choice_targets(s, &mut targets);
                if targets.contains(&m) {
                    self.judged(s, m)
                } else {
                    Err(Illegal::NotCaptureTarget)
                }
            }
            Some(_) if !self.removable(s, m.to as usize) => Err(Illegal::NotRemovable),
            Some(_) => self.judged(s, m),
        }
    }

    /// A pass of kind `kind`: the phase must allow passing, and no forbid
    /// rule may hold for it.
    #[inline]
    fn pass_refusal(&self, s: &State<W>, phase: usize, kind: Point) -> Result<(), Illegal> {
        if kind as usize >= self.rules.passes.kinds.len() {
            return Err(Illegal::NoSuchMove);
        }
        self.action_refusal(s, phase, ActionKind::Pass)?;
        match self.pass_forbidden_by(s, kind as usize) {
            Some(i) => Err(Illegal::Forbidden(i)),
            None => Ok(()),
        }
    }

    /// A placement or a board play onto `m.to`.
    #[inline]
    fn placement_refusal(&self, s: &State<W>, phase: usize, m: Move) -> Result<(), Illegal> {
        let kind = if m.kind == MoveKind::Place {
            ActionKind::Place
        } else {
            ActionKind::Play
        };
        if !self.on_board(m.to) {
            return Err(Illegal::NoSuchMove);
        }
        self.action_refusal(s, phase, kind)?;
        if s.owner(m.to).is_some() {
            return Err(Illegal::Occupied);
        }
        if s.marks.now.has(m.to as usize) {
            return Err(Illegal::Marked);
        }
        match self.play_refusal(s, m.to) {
            Some(why) if kind == ActionKind::Play => Err(why),
            _ if kind == ActionKind::Play => Ok(()),
            _ => self.judged(s, m),
        }
    }

    /// A leap: an armed leap rule, the mover's piece, an empty landing
    /// point with an opposing piece between.
    #[inline]
    fn leap_refusal(&self, s: &State<W>, m: Move) -> Result<(), Illegal> {
        if !self.on_board(m.from) || !self.on_board(m.to) {
            return Err(Illegal::NoSuchMove);
        }
        let leaps = self.armed_leaps(s);
        if leaps == 0 {
            return Err(Illegal::NoLeap);
        }
        if s.owner(m.from) != Some(s.pos.to_move) {
            return Err(Illegal::NotOwnPiece);
        }
        if s.owner(m.to).is_some() {
            return Err(Illegal::Occupied);
        }
        if self
            .leap_targets(s, m.from as usize, leaps)
            .has(m.to as usize)
        {
            self.judged(s, m)
        } else {
            Err(Illegal::NoLeap)
        }
    }

    /// A slide or a fly: which of the two the move is depends on the
    /// points (adjacent or not) and on what the phase allows.
    #[inline]
    fn step_refusal(&self, s: &State<W>, phase: usize, m: Move) -> Result<(), Illegal> {
        if !self.on_board(m.from) || !self.on_board(m.to) {
            return Err(Illegal::NoSuchMove);
        }
        let me = s.pos.to_move;
        let leaps = self.armed_leaps(s);
        if leaps != 0
            && s.owner(m.from) == Some(me)
            && s.owner(m.to).is_none()
            && self
                .leap_targets(s, m.from as usize, leaps)
                .has(m.to as usize)
        {
            return Err(Illegal::IsALeap);
        }
        let slide = self.action_refusal(s, phase, ActionKind::Slide);
        let fly = self.action_refusal(s, phase, ActionKind::Fly);
        if let (Err(why), Err(_)) = (slide, fly) {
            return Err(why);
        }
        if s.owner(m.from) != Some(me) {
            return Err(Illegal::NotOwnPiece);
        }
        if s.owner(m.to).is_some() {
            return Err(Illegal::Occupied);
        }
        if s.marks.now.has(m.to as usize) {
            return Err(Illegal::Marked);
        }
        let adjacent = self.neighbours[m.from as usize].has(m.to as usize);
        match (m.kind, adjacent) {
            (MoveKind::Slide, true) => slide.or(fly),
            (MoveKind::Slide, false) => Err(Illegal::NotAdjacent),
            (_, true) if slide.is_ok() => Err(Illegal::IsASlide),
            (_, _) if fly.is_err() && !adjacent => Err(Illegal::NotAdjacent),
            (_, _) => fly,
        }
        .and_then(|()| self.judged(s, m))
    }

    /// Why the phase does not allow an action of `kind` now, if it does not:
    /// the same decision as [`Machine::allowed_actions`], with its reason.
    pub fn action_refusal(
        &self,
        s: &State<W>,
        phase: usize,
        kind: ActionKind,
    ) -> Result<(), Illegal> {
        if !self.rules.phases[phase]
            .actions
            .iter()
            .any(|a| a.kind == kind)
        {
            return Err(Illegal::NotInPhase { phase, kind });
        }
        if !self.allowed_actions(s, phase)[kind as usize] {
            if matches!(kind, ActionKind::Place | ActionKind::Play) && self.hand_empty(s) {
                return Err(Illegal::HandEmpty);
            }
            if kind == ActionKind::Play {
                if let Some(i) = self.play_forbidden_by(s) {
                    return Err(Illegal::Forbidden(i));
                }
            }
            return Err(Illegal::GuardFails { phase, kind });
        }
        if kind == ActionKind::Place && self.hand_empty(s) {
            return Err(Illegal::HandEmpty);
        }
        Ok(())
    }

    /// Why a board play on empty point `p` is illegal, if it is.
    pub fn play_refusal(&self, s: &State<W>, p: Point) -> Option<Illegal> {
        let e = self.play_effect(s, p);
        if e.suicide && e.suicide_effect == SuicideEffect::Illegal {
            return Some(Illegal::Suicide);
        }
        self.repetition_refusal(s, e.key_after).or_else(|| {
            self.move_forbidden_by(s, Move::play(p))
                .map(Illegal::Forbidden)
        })
    }

    /// The forbid rules judged per move, on a move otherwise legal.
    fn judged(&self, s: &State<W>, m: Move) -> Result<(), Illegal> {
        match self.move_forbidden_by(s, m) {
            Some(i) => Err(Illegal::Forbidden(i)),
            None => Ok(()),
        }
    }
}
