//! Lowering `forbid:` to [`crate::ForbidRule`]s: the moves each forbids and
//! its condition.

use super::Compiler;
use crate::schema::CaptureKindFile;
use crate::vocab::{Context, RuleEnv};
use crate::MAX_FORBID_RULES;
use crate::{ActionKind, ForbidRule, MoveClass, Passes, PhaseRule};
use morrigo_diag::{did_you_mean, Diagnostic, Location};
use morrigo_dsl::Type;

impl Compiler<'_> {
    pub(super) fn forbid_rules(
        &mut self,
        env: RuleEnv<'_>,
        passes: &Passes,
        phases: &[PhaseRule],
        has_line_rule: bool,
        topology: Option<&morrigo_board::Topology>,
    ) -> Vec<ForbidRule> {
        let allows = |kind: ActionKind| {
            phases
                .iter()
                .any(|p| p.actions.iter().any(|a| a.kind == kind))
        };
        let leaps = self.loaded.file.captures.iter().flatten().any(|(_, c)| {
            c.as_ref()
                .is_some_and(|c| matches!(c.kind, Some(CaptureKindFile::Leap)))
        });
        // The move kinds this ruleset has, by the word a forbid rule names them.
        let has = |c: MoveClass| match c {
            MoveClass::Leap => leaps,
            MoveClass::Place => allows(ActionKind::Place),
            MoveClass::Slide => allows(ActionKind::Slide),
            MoveClass::Fly => allows(ActionKind::Fly),
            MoveClass::Play => allows(ActionKind::Play),
            MoveClass::Remove => has_line_rule,
            MoveClass::Pass(_) => true,
        };
        let mut kinds: Vec<String> = MoveClass::WORDS
            .iter()
            .filter(|(_, c)| has(*c))
            .map(|(w, _)| format!("`{w}`"))
            .collect();
        kinds.extend(passes.names().iter().map(|k| format!("`{k}`")));
        let mut out = Vec::new();
        let count = self.loaded.file.forbid.as_ref().map_or(0, |f| f.len());
        let keep = self.limit(&["forbid"], count, MAX_FORBID_RULES, "forbid rules");
        let mut steps_checked = false;
        for (name, rule) in self.loaded.file.forbid.iter().flatten().take(keep) {
            let Some(rule) = rule else { continue };
            let at = self.loaded.key_at(&["forbid", name]);
            self.check_rule_name(name, at, "a forbid rule");
            let mut moves = Vec::new();
            for m in rule.moves.iter().flatten() {
                let word = MoveClass::WORDS
                    .iter()
                    .find(|(w, _)| w == m)
                    .map(|(_, c)| *c);
                let class = word.or_else(|| {
                    m.bytes()
                        .next()
                        .filter(|_| m.len() == 1)
                        .and_then(|b| passes.kind_index(b))
                        .map(|i| MoveClass::Pass(i as u8))
                });
                let at = self.forbid_move_location(name, m);
                match class {
                    Some(c) if has(c) => moves.push(c),
                    Some(_) => {
                        let d = Diagnostic::new(format!(
                            "forbid rule `{name}` names `{m}`, but this ruleset has no such moves"
                        ))
                        .expected(format!("one of {}", kinds.join(", ")));
                        self.errors.push(d.at_opt(at));
                    }
                    None => {
                        let mut d = Diagnostic::new(format!(
                            "forbid rule `{name}` names `{m}`, which is not a move kind it can forbid"
                        ))
                        .expected(format!(
                            "one of {} (the move kinds of this ruleset)",
                            kinds.join(", ")
                        ));
                        let names = passes.names();
                        let words = MoveClass::WORDS.iter().map(|(w, _)| *w);
                        if let Some(sug) =
                            did_you_mean(m, names.iter().map(String::as_str).chain(words))
                        {
                            if m.len() > 1 {
                                d = d.note(format!("did you mean `{sug}`?"));
                            }
                        }
                        self.errors.push(d.at_opt(at));
                    }
                }
            }
            let none_written = rule.moves.as_ref().is_none_or(|m| m.is_empty());
            self.check_forbid_names_moves(name, moves.is_empty() && none_written);
            let Some(when) = rule.when.as_ref() else {
                self.error_key(
                    &["forbid", name],
                    Diagnostic::new(format!("forbid rule `{name}` has no `when`"))
                        .expected("a condition, e.g. `after('N | P')`"),
                );
                continue;
            };
            let when = self.cond_at(
                when,
                &["forbid", name, "when"],
                &env.within(Context::Forbid),
                Type::Bool,
            );
            let rule = ForbidRule {
                name: name.clone(),
                moves,
                when,
                doc: rule.doc.clone(),
            };
            self.check_forbid_reads(&rule, topology, &mut steps_checked);
            out.push(rule);
        }
        out
    }

    /// Where `moves: [..]` of a forbid rule names `m`.
    fn forbid_move_location(&self, rule: &str, m: &str) -> Option<Location> {
        self.list_item(&["forbid", rule, "moves"], m)
    }
}
