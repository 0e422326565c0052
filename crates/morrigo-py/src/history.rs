//! The recent turns an observation shows: who made each, the kinds of its
//! plies and the move class the engine recorded for it (what the ruleset's
//! history patterns, `after('…')`, read, and the board planes cannot show:
//! under JK rules whether a pass is legal depends on it).
//!
//! An array of `turns` rows, row 0 the last completed turn, all zeros
//! before the first turn; columns (`features`):
//!
//! | column        | 1 when                                                        |
//! |---------------|---------------------------------------------------------------|
//! | `own turn`    | the observing seat made the turn                              |
//! | `kind K`      | a ply of the turn was of action block K (`drop`, `move`, `remove`, `pass`; the blocks the ruleset has) |
//! | `class X`     | the engine classed the turn X (`N`, `C`, a pass kind)         |
//! | `class D`     | a derived run (JK's `D`) ends with the turn                   |
//!
//! `turns` is the longest stretch of history any of the ruleset's patterns
//! reads, when every pattern's reach is bounded; else [`DEFAULT_TURNS`].

use crate::layout::Layout;
use crate::position::Position;
use morrigo_engine::game::Move;
use morrigo_rules::Rules;

/// Turns shown when no bound comes from the rules: no pattern, or one of
/// unbounded reach (`*`, `+`, a derived class).
pub const DEFAULT_TURNS: usize = 8;

/// The action blocks a ply's kind falls in, in the layout's order.
const KINDS: [&str; 4] = ["drop", "move", "remove", "pass"];

fn block_of(mv: Move) -> usize {
    match mv {
        Move::Place { .. } | Move::Play { .. } => 0,
        Move::Slide { .. } | Move::Fly { .. } | Move::Leap { .. } => 1,
        Move::Remove { .. } => 2,
        Move::Pass { .. } => 3,
    }
}

/// The history array's shape and columns for one ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryLayout {
    /// Rows: the turns shown.
    pub turns: usize,
    /// Column of each block of [`KINDS`] the ruleset has.
    kind_cols: [Option<usize>; 4],
    /// Plain class letters, in columns from `class_start`.
    classes: Vec<u8>,
    class_start: usize,
    /// Derived class letters, in columns after the plain ones.
    derived: Vec<u8>,
    /// Columns: the features of a turn.
    pub width: usize,
}

impl HistoryLayout {
    /// The layout for `rules`, whose action space is `layout`.
    pub fn of(rules: &Rules, layout: &Layout) -> Self {
        let reach: Option<Vec<usize>> = rules.patterns.iter().map(|p| p.max_len).collect();
        let turns = match reach {
            Some(r) if !r.is_empty() => r.into_iter().max().unwrap_or(1).max(1),
            _ => DEFAULT_TURNS,
        };
        let present = [layout.drop, layout.moves, layout.remove, layout.pass];
        let mut width = 1;
        let kind_cols = present.map(|b| {
            b.map(|_| {
                width += 1;
                width - 1
            })
        });
        let (classes, derived) = morrigo_rules::history_classes(rules.play.as_ref(), &rules.passes);
        let class_start = width;
        width += classes.len() + derived.len();
        HistoryLayout {
            turns,
            kind_cols,
            classes,
            class_start,
            derived,
            width,
        }
    }

    /// The columns' names, in order.
    pub fn features(&self) -> Vec<String> {
        let mut names = vec!["own turn".to_string()];
        for (k, col) in KINDS.iter().zip(self.kind_cols) {
            if col.is_some() {
                names.push(format!("kind {k}"));
            }
        }
        for c in self.classes.iter().chain(&self.derived) {
            names.push(format!("class {}", *c as char));
        }
        names
    }

    /// The rows, row-major `(turns, width)`, seen by `seat`.
    pub fn rows(&self, c: &Position, seat: usize) -> Vec<f32> {
        let w = self.width;
        let mut out = vec![0f32; self.turns * w];
        let now = c.s.turn();
        for ply in c.stack.iter().rev() {
            // Plies of the turn under way have no row yet.
            let Some(back) = now.checked_sub(ply.turn + 1) else {
                continue;
            };
            let back = back as usize;
            if back >= self.turns {
                break;
            }
            let row = &mut out[back * w..(back + 1) * w];
            row[0] = (ply.mover as usize == seat & 1) as u8 as f32;
            if let Some(col) = self.kind_cols[block_of(ply.mv)] {
                row[col] = 1.0;
            }
        }
        // One record per completed turn, the last one last: row `back` is
        // the record `back` from the end.
        let classes = c.s.classes();
        let recent = classes.iter().enumerate().rev().take(self.turns);
        for (back, (index, &class)) in recent.enumerate() {
            let row = &mut out[back * w..(back + 1) * w];
            if let Some(i) = self.classes.iter().position(|&x| x == class) {
                row[self.class_start + i] = 1.0;
            }
            // The engine tracks at most one derived class.
            if !self.derived.is_empty() && c.s.ends_d(index) {
                row[self.class_start + self.classes.len()] = 1.0;
            }
        }
        out
    }
}
