//! Lowering `captures:` to [`crate::CaptureRule`]s: each rule's kind,
//! directions, condition and how its captures are taken.

use super::Compiler;
use crate::schema::{CaptureFile, CaptureKindFile, CaptureTakeFile};
use crate::vocab::{Context, RuleEnv};
use crate::{ActionKind, CaptureKind, CaptureRule, Cond, LineRule, PhaseRule};
use crate::{CaptureTake, MAX_CAPTURE_RULES};
use morrigo_board::LineDirection;
use morrigo_diag::{did_you_mean, Diagnostic};
use morrigo_dsl::Type;

/// What each capture rule is checked against.
struct CaptureCx<'a> {
    env: RuleEnv<'a>,
    /// Some phase puts a piece on a point (a capture needs such a move).
    moves_a_piece: bool,
    /// The board compiled (else its lines are unknown, not missing).
    board_known: bool,
    /// The directions the board's lines run in, in a fixed order.
    board_dirs: Vec<LineDirection>,
    line_rule: Option<&'a LineRule>,
}

impl Compiler<'_> {
    /// `captures:`: each a kind, the line directions it works along (every
    /// direction the board has when left out) and a condition. Refused
    /// where it could never capture: no lines, no direction of the board,
    /// no move that puts a piece on a point.
    pub(super) fn capture_rules(
        &mut self,
        env: RuleEnv<'_>,
        phases: &[PhaseRule],
        topology: Option<&morrigo_board::Topology>,
        line_rule: Option<&LineRule>,
    ) -> Vec<CaptureRule> {
        let Some(file) = self.loaded.file.captures.as_ref() else {
            return Vec::new();
        };
        let entries: Vec<(String, Option<&CaptureFile>)> =
            file.iter().map(|(n, c)| (n.clone(), c.as_ref())).collect();
        let keep = self.limit(
            &["captures"],
            entries.len(),
            MAX_CAPTURE_RULES,
            "capture rules",
        );
        let moves_a_piece = phases.iter().any(|p| {
            p.actions.iter().any(|a| {
                matches!(
                    a.kind,
                    ActionKind::Place | ActionKind::Slide | ActionKind::Fly
                )
            })
        });
        // The directions the board's lines run in, in a fixed order.
        let board_dirs: Vec<LineDirection> = topology.map_or(Vec::new(), |t| {
            LineDirection::ALL
                .into_iter()
                .filter(|d| t.line_directions.contains(d))
                .collect()
        });
        let cx = CaptureCx {
            env,
            moves_a_piece,
            board_known: topology.is_some(),
            board_dirs,
            line_rule,
        };
        let mut out = Vec::new();
        for (name, rule) in entries.into_iter().take(keep) {
            let Some(rule) = rule else { continue };
            out.extend(self.capture_rule(name, rule, &cx));
        }
        out
    }

    /// One capture rule; `None` when it has no `kind`.
    fn capture_rule(
        &mut self,
        name: String,
        rule: &CaptureFile,
        cx: &CaptureCx<'_>,
    ) -> Option<CaptureRule> {
        let at = self.loaded.key_at(&["captures", &name]);
        self.check_rule_name(&name, at, "a capture rule");
        let board_has_no_lines = cx.board_known && cx.board_dirs.is_empty();
        self.check_capture_can_apply(&name, cx.moves_a_piece, board_has_no_lines);
        let Some(kind) = rule.kind else {
            self.error_key(
                &["captures", &name],
                Diagnostic::new(format!("capture rule `{name}` has no `kind`"))
                    .expected("`kind: custodian`, `kind: intervention` or `kind: leap`"),
            );
            return None;
        };
        let kind = match kind {
            CaptureKindFile::Custodian => CaptureKind::Custodian,
            CaptureKindFile::Intervention => CaptureKind::Intervention,
            CaptureKindFile::Leap => CaptureKind::Leap,
        };
        let directions = match &rule.directions {
            None => cx.board_dirs.clone(),
            Some(names) => self.capture_directions(&name, names, &cx.board_dirs),
        };
        let when = match rule.when.as_ref() {
            Some(w) => self.cond_at(
                w,
                &["captures", &name, "when"],
                &cx.env.within(Context::ActionGuard),
                Type::Bool,
            ),
            None => Cond {
                expr: morrigo_dsl::Expr::Const(1),
                text: "true".to_string(),
                at: self.loaded.key_at(&["captures", &name]),
            },
        };
        let take = self.capture_take(&name, rule, kind, cx.line_rule);
        Some(CaptureRule {
            name,
            kind,
            directions,
            when,
            take,
            doc: rule.doc.clone(),
        })
    }

    /// `captures.NAME.directions`: each a direction the board's lines run
    /// in, kept once, in the order written.
    fn capture_directions(
        &mut self,
        name: &str,
        names: &[String],
        board_dirs: &[LineDirection],
    ) -> Vec<LineDirection> {
        let mut dirs = Vec::new();
        for d in names {
            let found = LineDirection::ALL
                .into_iter()
                .find(|k| k.name() == d)
                .filter(|k| board_dirs.contains(k));
            match found {
                Some(k) if !dirs.contains(&k) => dirs.push(k),
                Some(_) => {}
                None => {
                    let have: Vec<&str> = board_dirs.iter().map(|k| k.name()).collect();
                    let mut diag = Diagnostic::new(format!(
                        "capture rule `{name}` names the direction `{d}`, which no line of this board runs in"
                    ))
                    .expected(if have.is_empty() {
                        "no directions: the board has no lines".to_string()
                    } else {
                        format!("one of {}", have.join(", "))
                    });
                    if let Some(s) = did_you_mean(d, have.iter().copied()) {
                        diag = diag.note(format!("did you mean `{s}`?"));
                    }
                    let at = self.list_item(&["captures", name, "directions"], d);
                    self.errors.push(diag.at_opt(at));
                }
            }
        }
        if names.is_empty() {
            self.error_key(
                &["captures", name, "directions"],
                Diagnostic::new(format!("capture rule `{name}` works along no direction"))
                    .expected(
                        "a list of directions, e.g. `[side, cross]`, or no `directions` for all",
                    ),
            );
        }
        dirs
    }

    /// `captures.NAME.take`: refused where it has no reading — a leap takes
    /// what it jumps as part of the move, an intervention by removals takes
    /// one line's two ends, and removals a line rule takes from the hand or
    /// delays leave no removal to choose against.
    fn capture_take(
        &mut self,
        name: &str,
        rule: &CaptureFile,
        kind: CaptureKind,
        line_rule: Option<&LineRule>,
    ) -> CaptureTake {
        let take = match rule.take {
            None | Some(CaptureTakeFile::All) => return CaptureTake::All,
            Some(CaptureTakeFile::Choose) => CaptureTake::Choose,
            Some(CaptureTakeFile::ChooseOne) => CaptureTake::ChooseOne,
        };
        let path = ["captures", name, "take"];
        let refuse = |why: String, expected: &str| Diagnostic::new(why).expected(expected);
        if kind == CaptureKind::Leap {
            let d = refuse(
                format!("capture rule `{name}` is a leap, which takes the piece it jumps as part of the move: `take: {}` does not apply", take.name()),
                "`take: all` or no `take`",
            );
            self.error_value(&path, d);
        } else if kind == CaptureKind::Intervention && take == CaptureTake::ChooseOne {
            let d = refuse(
                format!("capture rule `{name}` is an intervention: taken by removals it takes the two ends of one line, never one piece"),
                "`take: choose` or `take: all`",
            );
            self.error_value(&path, d);
        }
        if let Some(l) = line_rule {
            for (key, cond) in [("from_hand", &l.from_hand), ("delay", &l.delay)] {
                if cond.is_some() {
                    let d = refuse(
                        format!("capture rule `{name}` is taken by removals chosen against the line rule's, but `on_line_formed.{key}` changes what those removals are"),
                        &format!("`take: all`, or no `on_line_formed.{key}`"),
                    );
                    self.error_value(&path, d);
                }
            }
        }
        take
    }
}
