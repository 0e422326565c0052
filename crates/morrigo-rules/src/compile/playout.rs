//! Lowering the search hints: `eval:` weights and `playout.shapes`, which
//! steer the players but change no rule.

use super::Compiler;
use crate::shapes::{Shape, ShapeTable};
use crate::yaml::Pos;
use crate::{EvalWeights, MAX_EVAL_WEIGHT};
use morrigo_diag::Diagnostic;
use std::sync::Arc;

impl Compiler<'_> {
    /// The `eval:` section: each term given replaces the family default.
    pub(super) fn eval(&mut self, board_plays: bool) -> Option<EvalWeights> {
        let given = self.loaded.file.eval.as_ref()?;
        let mut weights = EvalWeights::family(board_plays);
        for ((name, value), (_, weight)) in given.terms().into_iter().zip(weights.terms_mut()) {
            let Some(v) = *value else { continue };
            if !(-MAX_EVAL_WEIGHT..=MAX_EVAL_WEIGHT).contains(&v) {
                self.error_value(
                    &["eval", name],
                    Diagnostic::new(format!(
                        "`eval.{name}` is {v}, beyond the evaluation-weight limit"
                    ))
                    .expected(format!(
                        "a whole number from -{MAX_EVAL_WEIGHT} to {MAX_EVAL_WEIGHT}"
                    )),
                );
                continue;
            }
            *weight = v as i32;
        }
        Some(weights)
    }

    /// The `playout.shapes` section: 3×3 shapes, read from the cells
    /// around a point, so only on a square grid and for board plays.
    pub(super) fn shapes(
        &mut self,
        topology: Option<&morrigo_board::Topology>,
        board_plays: bool,
    ) -> Option<Arc<ShapeTable>> {
        let given = self.loaded.file.playout.as_ref()?.shapes.as_ref()?;
        let grid = topology.is_some_and(|t| t.square_cells().is_some());
        if !self.check_shapes_apply(grid, board_plays) {
            return None;
        }
        let items: Vec<(usize, Option<Pos>)> = (0..given.len())
            .map(|i| {
                let node = self.loaded.node(&["playout", "shapes"]);
                (
                    i,
                    node.and_then(|n| n.items().get(i))
                        .map(|n| n.get("rows").map_or(n.pos, |r| r.pos)),
                )
            })
            .collect();
        let mut shapes = Vec::new();
        let mut names = Vec::new();
        for ((i, pos), file) in items.into_iter().zip(given) {
            match Shape::parse(&file.rows, file.to_move.as_deref()) {
                Ok(shape) => {
                    shapes.push(shape);
                    names.push(file.name.clone().unwrap_or_else(|| file.rows.clone()));
                }
                Err(why) => {
                    let at = pos.and_then(|p| self.loaded.location(p));
                    self.errors.push(
                        Diagnostic::new(format!("playout shape {}: {why}", i + 1))
                            .expected("`rows: \"XOX ... ???\"`: three rows of X, O, ., #, x, o, ? with `.` in the centre, and `to_move: X` or `O` or nothing")
                            .at_opt(at),
                    );
                }
            }
        }
        Some(Arc::new(ShapeTable::compile(&shapes, names)))
    }
}
