//! The fixed action space of a ruleset: every move kind the ruleset can
//! produce gets a block of integers, so RL code sees one `Discrete(n)`
//! space for the whole game (the legal ones are given by a mask).
//!
//! Blocks, in this order, each present only when the ruleset has that kind
//! of move (N = number of points, in the board's point order):
//!
//! | block    | size  | action `a` stands for                                     |
//! |----------|-------|-----------------------------------------------------------|
//! | `drop`   | N     | a piece placed from hand, or a board play, on point `a`   |
//! | `move`   | N × N | the piece on `a // N` moved to `a % N` (slide, fly, leap) |
//! | `remove` | N     | the piece on point `a` removed                            |
//! | `pass`   | K     | a pass of the ruleset's kind `a` (K kinds)                |
//!
//! A slide and a fly between the same points have the same effect and the
//! engine never lists both, so one `move` action stands for either.

use morrigo_engine::game::Move;
use morrigo_engine::notation::Intent;
use morrigo_rules::{ActionKind, CaptureKind, Rules};

/// A ruleset's action space: where each block starts (`None`: the ruleset
/// has no such move) and how many actions there are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Number of points of the board.
    pub n: usize,
    /// Start of the `drop` block (N actions).
    pub drop: Option<usize>,
    /// Start of the `move` block (N × N actions).
    pub moves: Option<usize>,
    /// Start of the `remove` block (N actions).
    pub remove: Option<usize>,
    /// Start of the `pass` block (one action per pass kind).
    pub pass: Option<usize>,
    /// Number of pass kinds.
    pub passes: usize,
    /// Size of the whole action space.
    pub size: usize,
}

impl Layout {
    /// The action space of `rules`.
    pub fn of(rules: &Rules) -> Self {
        let n = rules.topology.len();
        let has = |k: ActionKind| {
            rules
                .phases
                .iter()
                .any(|p| p.actions.iter().any(|a| a.kind == k))
        };
        let drops = has(ActionKind::Place) || has(ActionKind::Play) || rules.play.is_some();
        let moves = has(ActionKind::Slide)
            || has(ActionKind::Fly)
            || rules.captures.iter().any(|c| c.kind == CaptureKind::Leap);
        let removes = rules.line_rule.is_some()
            || rules
                .phases
                .iter()
                .any(|p| p.remove.is_some() || p.remove_own.is_some());
        let passes = rules.passes.kinds.len();
        let mut size = 0;
        let mut block = |present: bool, len: usize| {
            present.then(|| {
                let start = size;
                size += len;
                start
            })
        };
        let drop = block(drops, n);
        let moves = block(moves, n * n);
        let remove = block(removes, n);
        let pass = block(passes > 0, passes);
        Layout {
            n,
            drop,
            moves,
            remove,
            pass,
            passes,
            size,
        }
    }

    /// The action of an engine move (`None`: its kind has no block, which
    /// the layout rules out for moves the engine generates).
    pub fn action(&self, mv: Move) -> Option<usize> {
        let n = self.n;
        match mv {
            Move::Place { to: p } | Move::Play { at: p } => self.drop.map(|b| b + p as usize),
            Move::Slide { from, to } | Move::Fly { from, to } | Move::Leap { from, to } => {
                self.moves.map(|b| b + from as usize * n + to as usize)
            }
            Move::Remove { at } => self.remove.map(|b| b + at as usize),
            Move::Pass { kind } => self.pass.map(|b| b + kind as usize),
        }
    }

    /// What an action asks for (`None` outside the space).
    pub fn intent(&self, a: usize) -> Option<Intent> {
        let n = self.n;
        let within = |start: Option<usize>, len: usize| {
            start.and_then(|s| (a >= s && a < s + len).then(|| a - s))
        };
        if let Some(p) = within(self.drop, n) {
            return Some(Intent::Place(p as u16));
        }
        if let Some(i) = within(self.moves, n * n) {
            return Some(Intent::Move((i / n) as u16, (i % n) as u16));
        }
        if let Some(p) = within(self.remove, n) {
            return Some(Intent::Remove(p as u16));
        }
        within(self.pass, self.passes).map(|k| Intent::Pass(k as u8))
    }

    /// `(name, start, length)` of each block present.
    pub fn blocks(&self) -> Vec<(&'static str, usize, usize)> {
        let n = self.n;
        [
            ("drop", self.drop, n),
            ("move", self.moves, n * n),
            ("remove", self.remove, n),
            ("pass", self.pass, self.passes),
        ]
        .into_iter()
        .filter_map(|(name, start, len)| start.map(|s| (name, s, len)))
        .collect()
    }
}
