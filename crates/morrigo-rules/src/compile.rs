//! Checking a merged ruleset file and compiling it to [`Rules`].

use crate::load::Loaded;
use crate::schema::{
    BoardFile, DRunsFile, DerivedFile, HandFile, ImmediateFile, KoCaptureFile, NamingFile,
    NodeFile, RepeatedFile, ScoringMethodFile, SuicideEffectFile, SuicideFile, SuicideShorthand,
    SuperkoFile, Text,
};
use crate::vocab::{BoardBounds, Context, Prim, RuleEnv, VOCABULARY};
use crate::{
    ActionKind, ActionRule, Cond, EndRule, ForbidRule, Immediate, KoRuns, LineRule, MoveClass,
    Passes, PhaseRule, PlayRule, Repeated, RepetitionRule, Rules, Scoring, ScoringMethod,
    SuicideEffect, Superko, Verdict, CLASS_KO_CAPTURE, CLASS_NORMAL,
};
use indexmap::IndexMap;
use morrigo_board::{BoardSpec, Named, Naming};
use morrigo_diag::{did_you_mean, Diagnostic, Diagnostics};
use morrigo_dsl::Type;
use std::cell::RefCell;

/// Check and compile a loaded ruleset; reports every problem found.
pub fn compile(loaded: &Loaded) -> Result<Rules, Diagnostics> {
    let mut c = Compiler {
        loaded,
        errors: Vec::new(),
    };
    let rules = c.rules();
    match rules {
        Some(r) if c.errors.is_empty() => Ok(r),
        _ => Err(Diagnostics(c.errors)),
    }
}

struct Compiler<'a> {
    loaded: &'a Loaded,
    errors: Vec<Diagnostic>,
}

impl Compiler<'_> {
    fn rules(&mut self) -> Option<Rules> {
        let f = &self.loaded.file;
        let name = self.required(
            f.name.clone(),
            "name",
            "a ruleset name such as `nine-mens-morris`",
        );
        let board = self.required(
            f.board.as_ref(),
            "board",
            "a board (`nested_squares`, `grid` or `explicit`)",
        );
        let players = self.players();
        let params = self.params();
        let hand = self.required(
            f.setup.as_ref().and_then(|s| s.in_hand),
            "setup.in_hand",
            "the number of pieces each player starts with in hand, or `unlimited`",
        );
        let topology = board.and_then(|b| self.board(b));
        let phase_names: Vec<String> = f.phases.iter().flat_map(|p| p.keys().cloned()).collect();
        let play = self.play_rule();
        let ko_runs = play.as_ref().and_then(|p| p.ko_runs);
        let passes = self.passes(ko_runs.map(|r| r.letter));
        // The classes patterns may name, as the ruleset declares them: the
        // play classes, the pass kinds and the derived classes.
        let mut classes = Vec::new();
        if let Some(p) = &play {
            classes.push(CLASS_NORMAL);
            if p.ko_capture {
                classes.push(CLASS_KO_CAPTURE);
            }
        }
        classes.extend(&passes.kinds);
        let derived: Vec<u8> = ko_runs.iter().map(|r| r.letter).collect();
        let patterns = RefCell::new(Vec::new());
        let env = RuleEnv {
            context: Context::End,
            players: &players,
            phases: &phase_names,
            params: &params,
            classes: &classes,
            derived: &derived,
            board: BoardBounds::of(topology.as_ref()),
            patterns: &patterns,
        };
        let phases = self.phases(env);
        let line_rule = self.line_rule(env);
        let forbid = self.forbid_rules(env, &passes);
        let repetition = self.repetition();
        let mut end = self.synthesized_end_rules(play.as_ref(), &repetition);
        end.extend(self.end_rules(env));
        let scoring = self.scoring();
        if scoring.is_none() && end.iter().any(|e| e.verdict == Verdict::Score) {
            self.error_at(
                "score:",
                None,
                Diagnostic::new("an end rule ends the game by `score`, but the ruleset has no `scoring` section")
                    .expected("`scoring: { method: jk | area, komi: … }`"),
            );
        }
        let (in_hand, unlimited_hand) = match hand {
            Some(HandFile::Count(n)) => (Some(n), false),
            Some(HandFile::Unlimited(_)) => (Some(0), true),
            None => (None, false),
        };
        Some(Rules {
            name: name?,
            title: f
                .title
                .clone()
                .unwrap_or_else(|| f.name.clone().unwrap_or_default()),
            description: f.description.clone(),
            sources: self.loaded.chain.clone(),
            topology: topology?,
            players,
            in_hand: in_hand?,
            unlimited_hand,
            params,
            phases,
            line_rule,
            end,
            play,
            passes,
            forbid,
            repetition,
            scoring,
            patterns: patterns.into_inner(),
        })
    }

    fn required<T>(&mut self, value: Option<T>, field: &str, what: &str) -> Option<T> {
        if value.is_none() {
            self.errors.push(
                Diagnostic::new(format!("the ruleset has no `{field}`"))
                    .at(self.loaded.start())
                    .expected(what.to_string()),
            );
        }
        value
    }

    fn error_at(&mut self, needle: &str, key: Option<&str>, d: Diagnostic) {
        let at = self.loaded.locate(needle, key);
        self.errors.push(d.at_opt(at));
    }

    fn players(&mut self) -> Vec<String> {
        let players = self
            .loaded
            .file
            .players
            .clone()
            .unwrap_or_else(|| vec!["white".into(), "black".into()]);
        if players.len() != 2 {
            self.error_at(
                "players",
                None,
                Diagnostic::new(format!(
                    "a ruleset has two players, this one lists {}",
                    players.len()
                ))
                .expected("two names, first to move first"),
            );
        }
        for (i, p) in players.iter().enumerate() {
            if players[..i].contains(p) {
                self.error_at(
                    p,
                    Some("players"),
                    Diagnostic::new(format!("player `{p}` is listed twice")),
                );
            }
            self.check_new_name(p, "players");
        }
        players
    }

    fn check_new_name(&mut self, name: &str, key: &str) {
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            self.error_at(
                name,
                Some(key),
                Diagnostic::new(format!("`{name}` cannot be used as a name in rules"))
                    .expected("letters, digits and `_`, starting with a letter"),
            );
        } else if VOCABULARY.iter().any(|e| e.name == name)
            || ["and", "or", "not", "true", "false"].contains(&name)
        {
            self.error_at(
                name,
                Some(key),
                Diagnostic::new(format!(
                    "`{name}` is a built-in name and cannot be redefined"
                ))
                .expected("another name"),
            );
        }
    }

    fn params(&mut self) -> Vec<(String, i64)> {
        let mut out = Vec::new();
        for (name, value) in self.loaded.file.params.iter().flatten() {
            self.check_new_name(name, name);
            if let Some(v) = value {
                out.push((name.clone(), *v));
            }
        }
        out
    }

    /// Names of an explicit board, located in order: each list (`nodes:`,
    /// `edges:`, `lines:`) is read from where its key stands, and each name
    /// is found as a whole word after the previous one, so a one-letter
    /// name lands on its own entry and not on the first `a` of the file.
    fn names_in(&self, key: &str, names: &[&str]) -> Vec<Named> {
        let source = self
            .loaded
            .chain
            .iter()
            .find(|src| src.text.contains("explicit:") && src.text.contains(key));
        let mut cursor = source.and_then(|src| {
            let start = src.text.find("explicit:")?;
            src.text[start..].find(key).map(|k| start + k + key.len())
        });
        names
            .iter()
            .map(|name| {
                let at = match (source, cursor) {
                    (Some(src), Some(from)) => match find_word(&src.text, name, from) {
                        Some(hit) => {
                            cursor = Some(hit + name.len());
                            Some(src.location(hit))
                        }
                        None => None,
                    },
                    _ => None,
                };
                Named {
                    name: name.to_string(),
                    at: at.or_else(|| self.loaded.locate(name, None)),
                }
            })
            .collect()
    }

    fn board(&mut self, board: &BoardFile) -> Option<morrigo_board::Topology> {
        let given = [
            board.nested_squares.is_some(),
            board.grid.is_some(),
            board.explicit.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            self.error_at(
                "board:",
                None,
                Diagnostic::new("a board is given in exactly one way")
                    .expected("one of `nested_squares:`, `grid:`, `explicit:`"),
            );
            return None;
        }
        let spec = if let Some(n) = &board.nested_squares {
            BoardSpec::NestedSquares {
                rings: n.rings,
                midpoint_links: n.midpoint_links,
                corner_diagonals: n.corner_diagonals,
                line_length: n.line_length,
            }
        } else if let Some(g) = &board.grid {
            BoardSpec::Grid {
                width: g.width,
                height: g.height,
                diagonals: g.diagonals,
                naming: match g.naming {
                    NamingFile::Algebraic => Naming::Algebraic,
                    NamingFile::Gtp => Naming::Gtp,
                },
                line_length: g.lines,
            }
        } else {
            let e = board.explicit.as_ref()?;
            let node_names: Vec<&str> = e
                .nodes
                .iter()
                .map(|n| match n {
                    NodeFile::Name(name) | NodeFile::Placed { name, .. } => name.as_str(),
                })
                .collect();
            let nodes = self.names_in("nodes:", &node_names);
            let coords = e.nodes.iter().map(|n| match n {
                NodeFile::Name(_) => None,
                NodeFile::Placed { at, .. } => Some((at[0], at[1])),
            });
            let edge_names: Vec<&str> = e
                .edges
                .iter()
                .flat_map(|[a, b]| [a.as_str(), b.as_str()])
                .collect();
            let mut edge_named = self.names_in("edges:", &edge_names).into_iter();
            let mut edges = Vec::new();
            while let (Some(a), Some(b)) = (edge_named.next(), edge_named.next()) {
                edges.push((a, b));
            }
            let line_names: Vec<&str> = e.lines.iter().flatten().map(String::as_str).collect();
            let mut line_named = self.names_in("lines:", &line_names).into_iter();
            let lines = e
                .lines
                .iter()
                .map(|l| line_named.by_ref().take(l.len()).collect())
                .collect();
            BoardSpec::Explicit {
                nodes: nodes.into_iter().zip(coords).collect(),
                edges,
                lines,
            }
        };
        match morrigo_board::build(&spec) {
            Ok(t) => Some(t),
            Err(e) => {
                let d = e.to_diagnostic();
                let fallback = self.loaded.locate("board", None);
                self.errors.push(d.at_opt(fallback));
                None
            }
        }
    }

    /// Compile one expression written at `key` in the file.
    fn cond(&mut self, text: &Text, key: &str, env: &RuleEnv<'_>, want: Type) -> Cond {
        self.cond_checked(text, key, env, want, false)
    }

    /// As `cond`; a `count` must provably never be negative.
    fn cond_checked(
        &mut self,
        text: &Text,
        key: &str,
        env: &RuleEnv<'_>,
        want: Type,
        count: bool,
    ) -> Cond {
        let located = self
            .loaded
            .find(&text.0, Some(key))
            .map(|(s, o)| (s.clone(), o));
        let at = located.as_ref().map(|(s, o)| s.location(*o));
        let checked =
            morrigo_dsl::compile_bounded(&text.0, env, want).and_then(|(expr, (lo, _))| {
                if count && lo < 0 {
                    let whole = morrigo_dsl::Span {
                        start: 0,
                        end: text.0.len(),
                    };
                    return Err(morrigo_dsl::DslError::at(
                        whole,
                        format!("this can be {lo}, but it counts pieces"),
                    )
                    .with_expected("a number that is never negative"));
                }
                Ok(expr)
            });
        match checked {
            Ok(expr) => Cond {
                expr,
                text: text.0.clone(),
                at,
            },
            Err(e) => {
                let mut d = Diagnostic::new(format!("in `{key}`: {}", e.message));
                if let Some(x) = e.expected {
                    d = d.expected(x);
                }
                if let Some(n) = e.note {
                    d = d.note(n);
                }
                let loc = located.map(|(s, o)| s.location(o + e.span.start));
                self.errors.push(d.at_opt(loc));
                Cond {
                    expr: morrigo_dsl::Expr::Const(0),
                    text: text.0.clone(),
                    at,
                }
            }
        }
    }

    fn phases(&mut self, env: RuleEnv<'_>) -> Vec<PhaseRule> {
        let Some(phases) = self.loaded.file.phases.as_ref() else {
            self.required(None::<()>, "phases", "at least one phase with its actions");
            return Vec::new();
        };
        let mut out = Vec::new();
        let live: Vec<_> = phases
            .iter()
            .filter_map(|(n, p)| p.as_ref().map(|p| (n, p)))
            .collect();
        if live.is_empty() {
            self.required(None::<()>, "phases", "at least one phase with its actions");
        }
        for (i, (name, phase)) in live.iter().enumerate() {
            self.check_new_name(name, name);
            let when = phase
                .when
                .as_ref()
                .map(|w| self.cond(w, "when", &env.within(Context::PhaseWhen), Type::Bool));
            if when.is_none() && i + 1 < live.len() {
                self.error_at(
                    &format!("{name}:"),
                    None,
                    Diagnostic::new(format!(
                        "phase `{name}` has no `when`, so the phases after it can never apply"
                    ))
                    .expected(format!(
                        "a `when:` condition for `{name}`, or `{name}` as the last phase"
                    )),
                );
            }
            let mut actions = Vec::new();
            for (kind_name, guard) in phase.actions.iter().flatten() {
                let Some(guard) = guard else { continue };
                let Some(kind) = ActionKind::ALL.into_iter().find(|k| k.name() == kind_name) else {
                    let names: Vec<&str> = ActionKind::ALL.iter().map(|k| k.name()).collect();
                    let mut d =
                        Diagnostic::new(format!("unknown action `{kind_name}` in phase `{name}`"))
                            .expected(format!("one of {}", names.join(", ")));
                    if let Some(s) = did_you_mean(kind_name, names) {
                        d = d.note(format!("did you mean `{s}`?"));
                    }
                    self.error_at(&format!("{kind_name}:"), None, d);
                    continue;
                };
                let guard = self.cond(
                    guard,
                    kind_name,
                    &env.within(Context::ActionGuard),
                    Type::Bool,
                );
                actions.push(ActionRule { kind, guard });
            }
            if actions.is_empty() {
                self.error_at(
                    &format!("{name}:"),
                    None,
                    Diagnostic::new(format!("phase `{name}` allows no action"))
                        .expected("`actions:` with at least one of place, slide, fly"),
                );
            }
            out.push(PhaseRule {
                name: name.to_string(),
                when,
                actions,
            });
        }
        out
    }

    fn line_rule(&mut self, env: RuleEnv<'_>) -> Option<LineRule> {
        let l = self.loaded.file.on_line_formed.as_ref()?;
        let one = Text("1".into());
        let anyone = Text("true".into());
        let removals = self.cond_checked(
            l.removals.as_ref().unwrap_or(&one),
            "removals",
            &env.within(Context::Removals),
            Type::Int,
            true,
        );
        let removable = self.cond(
            l.removable.as_ref().unwrap_or(&anyone),
            "removable",
            &env.within(Context::Removable),
            Type::Bool,
        );
        Some(LineRule {
            removals,
            removable,
        })
    }

    fn end_rules(&mut self, env: RuleEnv<'_>) -> Vec<EndRule> {
        let mut out: Vec<(EndRule, Option<String>)> = Vec::new();
        for (name, rule) in self.loaded.file.end.iter().flatten() {
            let Some(rule) = rule else { continue };
            let verdicts: Vec<(Verdict, &Text)> = [
                (Verdict::Lose, rule.lose.as_ref()),
                (Verdict::Win, rule.win.as_ref()),
                (Verdict::Draw, rule.draw.as_ref()),
                (Verdict::Score, rule.score.as_ref()),
                (Verdict::CompareCaptures, rule.compare_captures.as_ref()),
            ]
            .into_iter()
            .filter_map(|(v, t)| t.map(|t| (v, t)))
            .collect();
            let [(verdict, text)] = verdicts[..] else {
                self.error_at(
                    &format!("{name}:"),
                    None,
                    Diagnostic::new(format!(
                        "end rule `{name}` must say exactly one of `lose`, `win`, `draw`, `score`, `compare_captures`"
                    ))
                    .expected("`{ lose: \"condition\" }`, `{ win: … }`, `{ draw: … }` or `{ score: … }`"),
                );
                continue;
            };
            let when = self.cond(text, verdict.key(), &env.within(Context::End), Type::Bool);
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

    fn play_rule(&mut self) -> Option<PlayRule> {
        let p = self.loaded.file.play.as_ref()?;
        let effect = |e: SuicideEffectFile| match e {
            SuicideEffectFile::Lose => SuicideEffect::Lose,
            SuicideEffectFile::Illegal => SuicideEffect::Illegal,
            SuicideEffectFile::Remove => SuicideEffect::Remove,
        };
        let (single, multi) = match p.suicide {
            None | Some(SuicideFile::Both(SuicideShorthand::Illegal)) => {
                (SuicideEffect::Illegal, SuicideEffect::Illegal)
            }
            Some(SuicideFile::Both(SuicideShorthand::Lose)) => {
                (SuicideEffect::Lose, SuicideEffect::Lose)
            }
            Some(SuicideFile::Both(SuicideShorthand::Legal)) => {
                (SuicideEffect::Remove, SuicideEffect::Remove)
            }
            Some(SuicideFile::Split { single, multi }) => (effect(single), effect(multi)),
        };
        let ko_capture = p.ko_capture == Some(KoCaptureFile::Jk);
        let ko_runs = self.derived_classes(p.derived.as_ref(), ko_capture);
        Some(PlayRule {
            suicide_single: single,
            suicide_multi: multi,
            ko_capture,
            ko_runs,
        })
    }

    /// `play.derived`: the derived classes patterns may name. The engine
    /// recognises one kind, runs of ko captures, once per ruleset.
    fn derived_classes(
        &mut self,
        derived: Option<&IndexMap<String, Option<DerivedFile>>>,
        ko_capture: bool,
    ) -> Option<KoRuns> {
        let mut out = None;
        for (name, def) in derived.into_iter().flatten() {
            let Some(def) = def else { continue };
            let letter = name.as_bytes();
            let error = if letter.len() != 1
                || !letter[0].is_ascii_uppercase()
                || matches!(letter[0], CLASS_NORMAL | CLASS_KO_CAPTURE)
            {
                Diagnostic::new(format!("`{name}` cannot name a derived class"))
                    .expected("one upper-case letter other than N and C (those name board plays)")
            } else if let Some(runs) = def.ko_runs.filter(|_| ko_capture && out.is_none()) {
                out = Some(KoRuns {
                    letter: letter[0],
                    four_or_six: runs == DRunsFile::FourOrSix,
                });
                continue;
            } else if def.ko_runs.is_none() {
                Diagnostic::new(format!("derived class `{name}` has no definition")).expected(
                    "`ko_runs: any` (runs of 4, 6, 8, … ko captures) or `ko_runs: four_or_six`",
                )
            } else if !ko_capture {
                Diagnostic::new(format!(
                    "derived class `{name}` is made of ko captures, but plays are not classified as ko captures"
                ))
                .expected("`ko_capture: jk` in `play`")
            } else {
                Diagnostic::new(format!(
                    "derived class `{name}`: only one class of ko-capture runs can be declared"
                ))
            };
            self.error_at(name, Some("derived"), error);
        }
        out
    }

    /// `derived`: the derived class letter, which a pass kind cannot reuse.
    fn passes(&mut self, derived: Option<u8>) -> Passes {
        let Some(p) = self.loaded.file.passes.as_ref() else {
            return Passes::default();
        };
        let mut kinds = Vec::new();
        for k in p.kinds.iter().flatten() {
            let letter = k.as_bytes();
            if letter.len() != 1
                || !letter[0].is_ascii_uppercase()
                || matches!(letter[0], CLASS_NORMAL | CLASS_KO_CAPTURE)
                || derived == Some(letter[0])
            {
                self.error_at(
                    k,
                    Some("kinds"),
                    Diagnostic::new(format!("`{k}` cannot name a pass kind")).expected(
                        "one upper-case letter other than N, C (those name board plays) and the derived classes",
                    ),
                );
            } else if kinds.contains(&letter[0]) {
                self.error_at(
                    k,
                    Some("kinds"),
                    Diagnostic::new(format!("pass kind `{k}` is listed twice")),
                );
            } else {
                kinds.push(letter[0]);
            }
        }
        Passes {
            kinds,
            stones: p.stones.unwrap_or(0),
        }
    }

    fn forbid_rules(&mut self, env: RuleEnv<'_>, passes: &Passes) -> Vec<ForbidRule> {
        let mut out = Vec::new();
        for (name, rule) in self.loaded.file.forbid.iter().flatten() {
            let Some(rule) = rule else { continue };
            let mut moves = Vec::new();
            for m in rule.moves.iter().flatten() {
                let class = if m == "play" {
                    Some(MoveClass::Play)
                } else {
                    m.bytes()
                        .next()
                        .filter(|_| m.len() == 1)
                        .and_then(|b| passes.kind_index(b))
                        .map(|i| MoveClass::Pass(i as u8))
                };
                match class {
                    Some(c) => moves.push(c),
                    None => {
                        let kinds = passes.names();
                        self.error_at(
                            m,
                            Some("moves"),
                            Diagnostic::new(format!("forbid rule `{name}` names `{m}`, which is not a move kind of this ruleset"))
                                .expected(format!("`play` or a pass kind ({})", kinds.join(", "))),
                        );
                    }
                }
            }
            if moves.is_empty() {
                self.error_at(
                    &format!("{name}:"),
                    None,
                    Diagnostic::new(format!("forbid rule `{name}` forbids no move"))
                        .expected("`moves: [P, E]` or similar"),
                );
            }
            let Some(when) = rule.when.as_ref() else {
                self.error_at(
                    &format!("{name}:"),
                    None,
                    Diagnostic::new(format!("forbid rule `{name}` has no `when`"))
                        .expected("a condition, e.g. `after('N | P')`"),
                );
                continue;
            };
            let when = self.cond(when, "when", &env.within(Context::ActionGuard), Type::Bool);
            out.push(ForbidRule {
                name: name.clone(),
                moves,
                when,
                doc: rule.doc.clone(),
            });
        }
        out
    }

    fn repetition(&mut self) -> RepetitionRule {
        let Some(r) = self.loaded.file.repetition.as_ref() else {
            return RepetitionRule::default();
        };
        let default = RepetitionRule::default();
        RepetitionRule {
            immediate: match r.immediate {
                None | Some(ImmediateFile::Allowed) => Immediate::Allowed,
                Some(ImmediateFile::Lose) => Immediate::Lose,
                Some(ImmediateFile::Illegal) => Immediate::Illegal,
            },
            superko: match r.superko {
                None | Some(SuperkoFile::None) => Superko::None,
                Some(SuperkoFile::Positional) => Superko::Positional,
                Some(SuperkoFile::Situational) => Superko::Situational,
            },
            repeated_board: match r.repeated_board {
                None | Some(RepeatedFile::Off) => Repeated::Off,
                Some(RepeatedFile::Captures) => Repeated::Captures,
                Some(RepeatedFile::Draw) => Repeated::Draw,
            },
            count: r.count.unwrap_or(default.count).max(2),
        }
    }

    fn scoring(&mut self) -> Option<Scoring> {
        let s = self.loaded.file.scoring.as_ref()?;
        Some(Scoring {
            method: match s.method {
                None | Some(ScoringMethodFile::Area) => ScoringMethod::Area,
                Some(ScoringMethodFile::Jk) => ScoringMethod::Jk,
            },
            komi: s.komi.unwrap_or(0.0),
            last_move_stone: s.last_move_stone.unwrap_or(false),
        })
    }

    /// End rules implied by the `play` and `repetition` sections: they judge
    /// the move just made, so they come before the ruleset's own end rules.
    fn synthesized_end_rules(
        &mut self,
        play: Option<&PlayRule>,
        rep: &RepetitionRule,
    ) -> Vec<EndRule> {
        let mut out = Vec::new();
        let mut rule =
            |this: &mut Self, name: &str, verdict, prim, text: &str, key: &str, doc: &str| {
                out.push(EndRule {
                    name: name.to_string(),
                    verdict,
                    when: Cond {
                        expr: morrigo_dsl::Expr::Var(prim),
                        text: text.to_string(),
                        at: this.loaded.locate(key, None),
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
                "suicide:",
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
                "immediate:",
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
                    at: self.loaded.locate("repeated_board:", None),
                },
                doc: Some(
                    "a board state occurring again as the result of a board play ends the game"
                        .to_string(),
                ),
            });
        }
        out
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
                    self.error_at(&b, Some("before"), d);
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
}

/// Byte offset of `word` in `text` at or after `from`, not inside a longer name.
fn find_word(text: &str, word: &str, from: usize) -> Option<usize> {
    let is_name = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let mut start = from;
    while let Some(i) = text.get(start..)?.find(word) {
        let at = start + i;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if !before.is_some_and(is_name) && !after.is_some_and(is_name) {
            return Some(at);
        }
        start = at + word.len();
    }
    None
}
