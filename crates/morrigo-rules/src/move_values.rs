//! Values about the move being judged (`lines_formed`, `captures`,
//! `run_length`) as forbid rules read them, and the board's line
//! directions that `run_length` walks.
//!
//! A run continues from `x` through `y` to `z` when `x, y, z` are three
//! consecutive points of one board line (in either order). So a run follows
//! a board line and carries on into the next line that overlaps it in the
//! same direction: on a grid whose lines are the 3-point windows of each row
//! and column, a run follows the whole row. A line of two points is a run of
//! at most two (it has no triple to continue by).

use crate::{ForbidRule, MoveClass, Passes, Prim};
use morrigo_board::Topology;

/// The values a forbid rule may read about the candidate move.
pub const MOVE_VALUES: [Prim; 9] = [
    Prim::LinesFormed,
    Prim::Captures,
    Prim::RunLength,
    Prim::LinesFormedWhere,
    Prim::LinesBroken,
    Prim::LinesBrokenWhere,
    Prim::To,
    Prim::From,
    Prim::Direction,
];

impl MoveClass {
    /// The kinds a forbid rule names by word (pass kinds are letters).
    pub const WORDS: [(&'static str, MoveClass); 6] = [
        ("place", MoveClass::Place),
        ("slide", MoveClass::Slide),
        ("fly", MoveClass::Fly),
        ("leap", MoveClass::Leap),
        ("remove", MoveClass::Remove),
        ("play", MoveClass::Play),
    ];

    /// The name a forbid rule writes it by.
    pub fn name(self, passes: &Passes) -> String {
        match self {
            MoveClass::Pass(i) => (passes.kinds[i as usize] as char).to_string(),
            other => MoveClass::WORDS
                .iter()
                .find(|(_, c)| *c == other)
                .map_or_else(String::new, |(w, _)| w.to_string()),
        }
    }

    /// Judged once per turn (not per candidate) when the rule reads no
    /// move value: board plays and passes, as before move values existed.
    pub fn per_turn(self) -> bool {
        matches!(self, MoveClass::Play | MoveClass::Pass(_))
    }
}

impl ForbidRule {
    /// The rule reads a value about the candidate move.
    pub fn reads_move(&self) -> bool {
        MOVE_VALUES.iter().any(|p| self.when.uses(*p))
    }

    /// The rule is judged move by move (not once per turn): it reads a move
    /// value or names a kind other than board plays and passes.
    pub fn per_move(&self) -> bool {
        self.reads_move() || self.moves.iter().any(|c| !c.per_turn())
    }
}

/// Where a run through `y` coming from `x` goes next: `next[y]` lists
/// `(x, z)`. Built from the board's lines; see the module docs.
#[derive(Clone, Debug, Default)]
pub struct LineSteps {
    /// Per point: the points one step away along a board line.
    pub steps: Vec<Vec<u16>>,
    /// Per point `y`: `(x, z)` for each run continuing from `x` via `y` to `z`.
    pub next: Vec<Vec<(u16, u16)>>,
}

/// Two different continuations of one step: the board's lines do not give
/// `run_length` one direction here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ambiguous {
    /// The point the run comes from.
    pub from: u16,
    /// The point it goes through.
    pub via: u16,
    /// The two points it could go on to.
    pub to: [u16; 2],
}

impl LineSteps {
    /// The steps and continuations of board `t`'s lines, or the first place
    /// where a run could go on two ways.
    pub fn of(t: &Topology) -> Result<Self, Ambiguous> {
        let n = t.len();
        let mut steps: Vec<Vec<u16>> = vec![Vec::new(); n];
        let mut next: Vec<Vec<(u16, u16)>> = vec![Vec::new(); n];
        for line in &t.lines {
            for w in line.windows(2) {
                for (a, b) in [(w[0], w[1]), (w[1], w[0])] {
                    if !steps[a as usize].contains(&b) {
                        steps[a as usize].push(b);
                    }
                }
            }
            for w in line.windows(3) {
                for (x, y, z) in [(w[0], w[1], w[2]), (w[2], w[1], w[0])] {
                    let at = &mut next[y as usize];
                    match at.iter().find(|(px, _)| *px == x) {
                        Some(&(_, pz)) if pz != z => {
                            return Err(Ambiguous {
                                from: x,
                                via: y,
                                to: [pz, z],
                            })
                        }
                        Some(_) => {}
                        None => at.push((x, z)),
                    }
                }
            }
        }
        Ok(LineSteps { steps, next })
    }

    /// The point after `y` on a run coming from `x`.
    #[inline]
    pub fn after(&self, x: u16, y: u16) -> Option<u16> {
        self.next[y as usize]
            .iter()
            .find(|(px, _)| *px == x)
            .map(|&(_, z)| z)
    }

    /// The longest run of points `mine` holds through `p` along one
    /// direction (`p` itself counted whether held or not).
    pub fn run_through(&self, p: u16, mine: impl Fn(u16) -> bool) -> u32 {
        let walk = |mut x: u16, mut y: u16| {
            let mut count = 0;
            // A run visits each point at most once (a closed loop of lines stops).
            for _ in 0..self.steps.len() {
                if y == p || !mine(y) {
                    break;
                }
                count += 1;
                match self.after(x, y) {
                    Some(z) => (x, y) = (y, z),
                    None => break,
                }
            }
            count
        };
        let mut best = 1;
        for &y in &self.steps[p as usize] {
            let back = self.after(y, p).map_or(0, |w| walk(p, w));
            best = best.max(1 + walk(p, y) + back);
        }
        best
    }
}
