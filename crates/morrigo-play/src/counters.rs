//! Per-rule event counts of simulated games: how often each rule of the
//! ruleset came into play. The playout loop adds to a flat array of
//! counters (no allocation, no hashing): one slot per move kind, per pass
//! kind, per forbid rule and per history event, laid out by [`CountPlan`].

use morrigo_engine::{notation::pass_text, Machine, Move, MoveKind, State};
use morrigo_rules::{ActionKind, MoveClass, Prim, Rules};
use serde::{Deserialize, Serialize};

/// Slots of the move kinds (`MoveKind as usize`).
const KINDS: usize = 7;
const D_RUNS: usize = KINDS;
const IMMEDIATE: usize = KINDS + 1;
const REPEATED: usize = KINDS + 2;
const PASSES: usize = KINDS + 3;

/// What to count for one ruleset, and where.
#[derive(Clone, Debug)]
pub struct CountPlan {
    passes: usize,
    forbids: usize,
    /// The ruleset keeps a move-class history (board plays or passes).
    history: bool,
    /// Board plays' immediate repetitions and repeated boards are tracked.
    plays: bool,
    board_repetitions: bool,
    ko_runs: bool,
    /// Move kinds each phase has (indexed by `ActionKind as usize`).
    phase_kinds: Vec<[bool; 5]>,
    /// Some forbid rule names board plays; the pass kinds some rule names.
    forbid_play: bool,
    forbid_passes: Vec<u8>,
}

/// One line of a report: an event and how many times it happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleEvent {
    /// `removals`, `flying moves`, `pass:E`, `D runs`, `forbid no_normal_pass`, …
    pub event: String,
    /// Over all games.
    pub count: u64,
}

impl CountPlan {
    /// The plan for `rules`: the events it can produce, each with its
    /// counter slot.
    pub fn new(rules: &Rules) -> Self {
        let mut forbid_play = false;
        let mut forbid_passes = Vec::new();
        for f in &rules.forbid {
            for c in &f.moves {
                match c {
                    MoveClass::Play => forbid_play = true,
                    MoveClass::Pass(k) if !forbid_passes.contains(k) => forbid_passes.push(*k),
                    // Judged per move (not counted per turn here).
                    _ => {}
                }
            }
        }
        CountPlan {
            passes: rules.passes.kinds.len(),
            forbids: rules.forbid.len(),
            history: rules.play.is_some() || !rules.passes.kinds.is_empty(),
            plays: rules.play.is_some(),
            board_repetitions: rules.uses(Prim::BoardRepetitions),
            ko_runs: rules.play.as_ref().is_some_and(|p| p.ko_runs.is_some()),
            phase_kinds: rules
                .phases
                .iter()
                .map(|p| {
                    let mut k = [false; 5];
                    p.actions.iter().for_each(|a| k[a.kind as usize] = true);
                    k
                })
                .collect(),
            forbid_play,
            forbid_passes,
        }
    }

    /// A zeroed counter array of this plan's length.
    pub fn counters(&self) -> Vec<u64> {
        vec![0; PASSES + self.passes + self.forbids]
    }

    /// At a turn start where a move is about to be made, with `moves` the
    /// candidates the engine generated for it (every allowed pass among
    /// them): the forbid rules that refuse a kind of move the phase has.
    /// A pass kind among the candidates was not refused, so only refused
    /// kinds cost a look at the rules (evaluated a second time: about a
    /// fifth of a random JK playout); nothing for a ruleset without forbid
    /// rules.
    #[inline]
    pub fn turn<const W: usize>(
        &self,
        m: &Machine<W>,
        s: &State<W>,
        moves: &[Move],
        c: &mut [u64],
    ) {
        if self.forbids == 0 || s.pos.pending > 0 {
            return;
        }
        let kinds = match self.phase_kinds.as_slice() {
            [only] => *only,
            all => all.get(m.phase(s)).copied().unwrap_or_default(),
        };
        let base = PASSES + self.passes;
        if self.forbid_play && kinds[ActionKind::Play as usize] {
            if let Some(i) = m.play_forbidden_by(s) {
                c[base + i] += 1;
            }
        }
        if kinds[ActionKind::Pass as usize] {
            // Move generation lists passes before or after all board plays:
            // look there only. A pass found nowhere is asked of the rules,
            // which answer `None` when it was allowed after all.
            let not_play = |mv: &&Move| mv.kind != MoveKind::Play;
            let head = moves.iter().take_while(not_play);
            let tail = moves.iter().rev().take_while(not_play);
            for &k in &self.forbid_passes {
                let pass = Move::pass(k);
                if head.clone().chain(tail.clone()).any(|mv| *mv == pass) {
                    continue;
                }
                if let Some(i) = m.pass_forbidden_by(s, k as usize) {
                    c[base + i] += 1;
                }
            }
        }
    }

    /// A move was made (`s` is the position after it).
    #[inline(always)]
    pub fn moved<const W: usize>(&self, s: &State<W>, mv: Move, c: &mut [u64]) {
        c[mv.kind as usize] += 1;
        if !self.history {
            return;
        }
        if mv.kind == MoveKind::Pass {
            c[PASSES + mv.to as usize] += 1;
        }
        if s.pos.pending == 0 {
            c[D_RUNS] += u64::from(self.ko_runs && s.last_ends_d());
        }
        if self.plays && mv.kind == MoveKind::Play {
            c[IMMEDIATE] += u64::from(s.pos.last_immediate_repetition);
            c[REPEATED] += u64::from(s.pos.last_board_repetitions > 1);
        }
    }

    /// The events this ruleset can produce, with their counts.
    pub fn events(&self, rules: &Rules, c: &[u64]) -> Vec<RuleEvent> {
        let has = |k: ActionKind| self.phase_kinds.iter().any(|p| p[k as usize]);
        let mut out = Vec::new();
        let mut push = |event: String, count: u64| out.push(RuleEvent { event, count });
        if rules.line_rule.is_some() {
            push("removals".into(), c[MoveKind::Remove as usize]);
        }
        if has(ActionKind::Fly) {
            push("flying moves".into(), c[MoveKind::Fly as usize]);
        }
        if rules
            .captures
            .iter()
            .any(|r| r.kind == morrigo_rules::CaptureKind::Leap)
        {
            push("leaps".into(), c[MoveKind::Leap as usize]);
        }
        for k in 0..self.passes {
            push(pass_text(rules, k as u8), c[PASSES + k]);
        }
        if self.ko_runs {
            push("D runs".into(), c[D_RUNS]);
        }
        if self.plays {
            push("immediate repetitions".into(), c[IMMEDIATE]);
        }
        if self.plays && self.board_repetitions {
            push("repeated boards".into(), c[REPEATED]);
        }
        for (i, f) in rules.forbid.iter().enumerate() {
            // Rules judged per candidate move are not counted per turn.
            if !f.per_move() {
                push(format!("forbid {}", f.name), c[PASSES + self.passes + i]);
            }
        }
        out
    }
}
