//! Lowering `end:` to [`crate::EndRule`]s, with the rules `play` and
//! `repetition` add in front, in the order they are judged.

use super::Compiler;
use crate::schema::Text;
use crate::vocab::{Context, Prim, RuleEnv};
use crate::MAX_END_RULES;
use crate::{Cond, EndRule, Immediate, PlayRule, Repeated, RepetitionRule, SuicideEffect, Verdict};
use morrigo_diag::{did_you_mean, Diagnostic};
use morrigo_dsl::Type;

impl Compiler<'_> {
    pub(super) fn end_rules(&mut self, env: RuleEnv<'_>) -> Vec<EndRule> {
        let mut out: Vec<(EndRule, Option<String>)> = Vec::new();
        let count = self.loaded.file.end.as_ref().map_or(0, |e| e.len());
        let keep = self.limit(&["end"], count, MAX_END_RULES, "end rules");
        for (name, rule) in self.loaded.file.end.iter().flatten().take(keep) {
            let Some(rule) = rule else { continue };
            let at = self.loaded.key_at(&["end", name]);
            self.check_rule_name(name, at, "an end rule");
            let verdicts: Vec<(Verdict, &Text)> = [
                (Verdict::Lose, rule.lose.as_ref()),
                (Verdict::Win, rule.win.as_ref()),
                (Verdict::Draw, rule.draw.as_ref()),
                (Verdict::Score, rule.score.as_ref()),
                (Verdict::CompareCaptures, rule.compare_captures.as_ref()),
                (Verdict::NoResult, rule.no_result.as_ref()),
            ]
            .into_iter()
            .filter_map(|(v, t)| t.map(|t| (v, t)))
            .collect();
            let [(verdict, text)] = verdicts[..] else {
                let verdicts: Vec<Verdict> = verdicts.iter().map(|(v, _)| *v).collect();
                self.too_many_verdicts(name, &verdicts);
                continue;
            };
            let when = self.cond_at(
                text,
                &["end", name, verdict.key()],
                &env.within(Context::End),
                Type::Bool,
            );
            out.push((
                EndRule {
                    name: name.clone(),
                    verdict,
                    when,
                    doc: rule.doc.clone(),
                },
                rule.before.clone(),
            ));
        }
        self.order_end_rules(out)
    }

    /// Apply `before:` (a variant inserting a rule ahead of an inherited one).
    fn order_end_rules(&mut self, rules: Vec<(EndRule, Option<String>)>) -> Vec<EndRule> {
        let names: Vec<String> = rules.iter().map(|(r, _)| r.name.clone()).collect();
        let mut ordered: Vec<EndRule> = Vec::new();
        let mut deferred: Vec<(EndRule, String)> = Vec::new();
        for (rule, before) in rules {
            match before {
                Some(b) if names.contains(&b) => deferred.push((rule, b)),
                Some(b) => {
                    let mut d = Diagnostic::new(format!(
                        "end rule `{}` is to come before `{b}`, which does not exist",
                        rule.name
                    ))
                    .expected(format!("one of {}", names.join(", ")));
                    if let Some(s) = did_you_mean(&b, names.iter().map(String::as_str)) {
                        d = d.note(format!("did you mean `{s}`?"));
                    }
                    let at = self.loaded.value_at(&["end", &rule.name, "before"]);
                    self.errors.push(d.at_opt(at));
                    ordered.push(rule);
                }
                None => ordered.push(rule),
            }
        }
        for (rule, before) in deferred {
            let at = ordered
                .iter()
                .position(|r| r.name == before)
                .unwrap_or(ordered.len());
            ordered.insert(at, rule);
        }
        ordered
    }

    /// End rules implied by the `play` and `repetition` sections: they judge
    /// the move just made, so they come before the ruleset's own end rules.
    pub(super) fn synthesized_end_rules(
        &mut self,
        play: Option<&PlayRule>,
        rep: &RepetitionRule,
    ) -> Vec<EndRule> {
        let mut out = Vec::new();
        let mut rule =
            |this: &mut Self, name: &str, verdict, prim, text: &str, key: &[&str], doc: &str| {
                out.push(EndRule {
                    name: name.to_string(),
                    verdict,
                    when: Cond {
                        expr: morrigo_dsl::Expr::Var(prim),
                        text: text.to_string(),
                        at: this.loaded.key_at(key),
                    },
                    doc: Some(doc.to_string()),
                });
            };
        if play.is_some_and(|p| {
            p.suicide_single == SuicideEffect::Lose || p.suicide_multi == SuicideEffect::Lose
        }) {
            rule(
                self,
                "suicide",
                Verdict::Win,
                Prim::LastPlaySuicide,
                "last_play_suicide",
                &["play", "suicide"],
                "a board play leaving a chain of its player without liberty loses",
            );
        }
        if rep.immediate == Immediate::Lose {
            rule(
                self,
                "immediate_repetition",
                Verdict::Win,
                Prim::ImmediateRepetition,
                "immediate_repetition",
                &["repetition", "immediate"],
                "recreating the board of two moves back loses",
            );
        }
        if rep.repeated_board != Repeated::Off {
            let verdict = if rep.repeated_board == Repeated::Captures {
                Verdict::CompareCaptures
            } else {
                Verdict::Draw
            };
            out.push(EndRule {
                name: "repeated_board".to_string(),
                verdict,
                when: Cond {
                    expr: morrigo_dsl::Expr::Bin(
                        morrigo_dsl::BinOp::Ge,
                        Box::new(morrigo_dsl::Expr::Var(Prim::BoardRepetitions)),
                        Box::new(morrigo_dsl::Expr::Const(rep.count as i64)),
                    ),
                    text: format!("board_repetitions >= {}", rep.count),
                    at: self.loaded.key_at(&["repetition", "repeated_board"]),
                },
                doc: Some(
                    "a board state occurring again as the result of a board play ends the game"
                        .to_string(),
                ),
            });
        }
        out
    }
}
