//! Lowering `phases:` and `on_line_formed:`: the phase order, each phase's
//! condition, actions and turn order, and the line rule.

use super::Compiler;
use crate::schema::{PhaseFile, Text};
use crate::turns::{REMOVE_ACTION, REMOVE_OWN_ACTION};
use crate::vocab::{Context, RuleEnv};
use crate::{ActionKind, ActionRule, Cond, LineRule, PhaseRule, MAX_PHASES};
use morrigo_diag::{did_you_mean, Diagnostic};
use morrigo_dsl::Type;

impl Compiler<'_> {
    /// The phases (deleted ones left out) in the order they are tried: as
    /// written, with each phase that says `before: NAME` moved ahead of
    /// NAME (a variant inserting a phase ahead of an inherited one).
    pub(super) fn phase_order(&mut self) -> Vec<String> {
        let Some(phases) = self.loaded.file.phases.as_ref() else {
            return Vec::new();
        };
        let live: Vec<(&String, Option<&String>)> = phases
            .iter()
            .filter_map(|(n, p)| p.as_ref().map(|p| (n, p.before.as_ref())))
            .collect();
        let names: Vec<&str> = live.iter().map(|(n, _)| n.as_str()).collect();
        let mut ordered: Vec<String> = Vec::new();
        let mut deferred: Vec<(&String, &String)> = Vec::new();
        for (name, before) in &live {
            match before {
                Some(b) if *b != *name && names.contains(&b.as_str()) => deferred.push((name, b)),
                Some(b) => {
                    let others: Vec<&str> = names.iter().copied().filter(|n| n != name).collect();
                    let what = if *b == *name {
                        "itself"
                    } else {
                        "a phase that does not exist"
                    };
                    let mut d =
                        Diagnostic::new(format!("phase `{name}` is to come before `{b}`, {what}"))
                            .expected(format!("one of {}", others.join(", ")));
                    if let Some(s) = did_you_mean(b, others.iter().copied()) {
                        d = d.note(format!("did you mean `{s}`?"));
                    }
                    let at = self.loaded.value_at(&["phases", name, "before"]);
                    self.errors.push(d.at_opt(at));
                    ordered.push(name.to_string());
                }
                None => ordered.push(name.to_string()),
            }
        }
        for (name, before) in deferred {
            let at = ordered
                .iter()
                .position(|n| n == before)
                .unwrap_or(ordered.len());
            ordered.insert(at, name.clone());
        }
        ordered
    }

    pub(super) fn phases(&mut self, env: RuleEnv<'_>) -> Vec<PhaseRule> {
        let Some(phases) = self.loaded.file.phases.as_ref() else {
            self.required(None::<()>, "phases", "at least one phase with its actions");
            return Vec::new();
        };
        let mut out = Vec::new();
        // In the order `phase_order` decided (the names expressions know).
        let live: Vec<_> = env
            .phases
            .iter()
            .filter_map(|n| phases.get(n).and_then(Option::as_ref).map(|p| (n, p)))
            .collect();
        if live.is_empty() {
            self.required(None::<()>, "phases", "at least one phase with its actions");
        }
        let live =
            &live[..live
                .len()
                .min(self.limit(&["phases"], live.len(), MAX_PHASES, "phases"))];
        let phase_at = self.key_positions("phases");
        for (i, (name, phase)) in live.iter().enumerate() {
            self.check_phase_name(name, phase_at.get(name.as_str()).copied());
            let when = phase.when.as_ref().map(|w| {
                self.cond_at(
                    w,
                    &["phases", name, "when"],
                    &env.within(Context::PhaseWhen),
                    Type::Bool,
                )
            });
            self.check_phase_reachable(name, when.is_some(), i + 1 == live.len());
            let (actions, remove, remove_own) = self.phase_actions(phase, name, env);
            self.check_phase_allows_actions(
                name,
                !actions.is_empty() || remove.is_some() || remove_own.is_some(),
            );
            let (extra_turn, first) = self.turn_order(phase, name, env);
            out.push(PhaseRule {
                name: name.to_string(),
                when,
                actions,
                remove,
                remove_own,
                extra_turn,
                first,
            });
        }
        out
    }

    /// A phase's `actions:`: the guarded moves, then the guards of its
    /// `remove` and `remove_own` actions.
    fn phase_actions(
        &mut self,
        phase: &PhaseFile,
        name: &str,
        env: RuleEnv<'_>,
    ) -> (Vec<ActionRule>, Option<Cond>, Option<Cond>) {
        let mut actions = Vec::new();
        let (mut remove, mut remove_own) = (None, None);
        for (kind_name, guard) in phase.actions.iter().flatten() {
            let Some(guard) = guard else { continue };
            let slot = match kind_name.as_str() {
                REMOVE_ACTION => Some(&mut remove),
                REMOVE_OWN_ACTION => Some(&mut remove_own),
                _ => None,
            };
            if let Some(slot) = slot {
                *slot = Some(self.cond_at(
                    guard,
                    &["phases", name, "actions", kind_name],
                    &env.within(Context::RemoveAction),
                    Type::Bool,
                ));
                continue;
            }
            let Some(kind) = ActionKind::ALL.into_iter().find(|k| k.name() == kind_name) else {
                let mut names: Vec<&str> = ActionKind::ALL.iter().map(|k| k.name()).collect();
                names.push(REMOVE_ACTION);
                names.push(REMOVE_OWN_ACTION);
                let mut d =
                    Diagnostic::new(format!("unknown action `{kind_name}` in phase `{name}`"))
                        .expected(format!("one of {}", names.join(", ")));
                if let Some(s) = did_you_mean(kind_name, names) {
                    d = d.note(format!("did you mean `{s}`?"));
                }
                self.error_key(&["phases", name, "actions", kind_name], d);
                continue;
            };
            let guard = self.cond_at(
                guard,
                &["phases", name, "actions", kind_name],
                &env.within(Context::ActionGuard),
                Type::Bool,
            );
            actions.push(ActionRule { kind, guard });
        }
        (actions, remove, remove_own)
    }

    /// A phase's `extra_turn` (a condition) and `first` (a player), both
    /// read when a turn played in the phase ends.
    fn turn_order(
        &mut self,
        phase: &PhaseFile,
        name: &str,
        env: RuleEnv<'_>,
    ) -> (Option<Cond>, Option<Cond>) {
        let env = env.within(Context::TurnEnd);
        let extra = phase
            .extra_turn
            .as_ref()
            .map(|t| self.cond_at(t, &["phases", name, "extra_turn"], &env, Type::Bool));
        let first = phase
            .first
            .as_ref()
            .map(|t| self.cond_at(t, &["phases", name, "first"], &env, Type::Player));
        (extra, first)
    }

    pub(super) fn line_rule(&mut self, env: RuleEnv<'_>) -> Option<LineRule> {
        let l = self.loaded.file.on_line_formed.as_ref()?;
        let one = Text("1".into());
        let anyone = Text("true".into());
        let removals = self.cond_at_checked(
            l.removals.as_ref().unwrap_or(&one),
            &["on_line_formed", "removals"],
            &env.within(Context::Removals),
            Type::Int,
            true,
        );
        let removable = self.cond_at(
            l.removable.as_ref().unwrap_or(&anyone),
            &["on_line_formed", "removable"],
            &env.within(Context::Removable),
            Type::Bool,
        );
        self.check_removals_not_negative(&removals);
        let counts = l.counts.as_ref().map(|t| {
            self.cond_at(
                t,
                &["on_line_formed", "counts"],
                &env.within(Context::LineCounts),
                Type::Bool,
            )
        });
        let mut optional = |key: &str| {
            let text = match key {
                "from_hand" => l.from_hand.as_ref(),
                _ => l.delay.as_ref(),
            }?;
            let path = ["on_line_formed", key];
            Some(self.cond_at(text, &path, &env.within(Context::Removals), Type::Bool))
        };
        let from_hand = optional("from_hand");
        let delay = optional("delay");
        Some(LineRule {
            removals,
            removable,
            counts,
            from_hand,
            delay,
        })
    }
}
