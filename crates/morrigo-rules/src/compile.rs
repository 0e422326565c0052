//! Checking a merged ruleset file and compiling it to [`Rules`].

use crate::load::Loaded;
use crate::schema::{
    BoardFile, DRunsFile, HandFile, ImmediateFile, ImmediateReadingFile, KoCaptureFile, NamingFile,
    NodeFile, RepeatedFile, ScoringMethodFile, SuicideEffectFile, SuicideFile, SuicideShorthand,
    SuperkoFile, Text,
};
use crate::vocab::{Context, Prim, RuleEnv, VOCABULARY};
use crate::yaml::{Kind, Node};
use crate::{
    ActionKind, ActionRule, Cond, EndRule, ForbidRule, Immediate, ImmediateReading, LineRule,
    MoveClass, Passes, PhaseRule, PlayRule, Repeated, RepetitionRule, Rules, Scoring,
    ScoringMethod, SuicideEffect, Superko, Verdict, CLASS_KO_CAPTURE, CLASS_NORMAL,
};
use morrigo_board::{BoardSpec, Named, Naming};
use morrigo_diag::{did_you_mean, Diagnostic, Diagnostics, Location};
use morrigo_dsl::Type;
use std::cell::RefCell;

/// Most pass stones one pass may give (`passes.stones`).
pub const MAX_PASS_STONES: u32 = 1000;

/// Words of the rule language, which no name may take.
const RESERVED_WORDS: &[&str] = &["and", "or", "not", "true", "false"];
/// The phase name transcripts and scenario files give a pending removal.
const REMOVAL_PHASE: &str = "remove";

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
        self.check_clashes(&players, &params);
        let hand = self.required(
            f.setup.as_ref().and_then(|s| s.in_hand),
            "setup.in_hand",
            "the number of pieces each player starts with in hand, or `unlimited`",
        );
        let topology = board.and_then(|b| self.board(b));
        let topology = topology.filter(|t| self.engine_runs_board(t.len()));
        let phase_names: Vec<String> = f.phases.iter().flat_map(|p| p.keys().cloned()).collect();
        let play = self.play_rule();
        let passes = self.passes();
        let mut classes = Vec::new();
        if play.is_some() {
            classes.extend([CLASS_NORMAL, CLASS_KO_CAPTURE]);
        }
        classes.extend(&passes.kinds);
        let patterns = RefCell::new(Vec::new());
        let env = RuleEnv {
            context: Context::End,
            players: &players,
            phases: &phase_names,
            params: &params,
            classes: &classes,
            derived_d: play.as_ref().is_some_and(|p| p.ko_capture),
            patterns: &patterns,
        };
        let phases = self.phases(env);
        self.check_moves_have_rules(&phases, play.as_ref(), &passes);
        let line_rule = self.line_rule(env);
        let forbid = self.forbid_rules(env, &passes, &phases);
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
            Some(HandFile::Count(n)) if n > crate::MAX_IN_HAND => {
                self.error_at(
                    "in_hand:",
                    None,
                    Diagnostic::new(format!(
                        "`setup.in_hand: {n}` is more pieces than the engine can count"
                    ))
                    .expected(format!(
                        "at most {} pieces in hand (the hand-size limit), or `unlimited`",
                        crate::MAX_IN_HAND
                    )),
                );
                (None, false)
            }
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

    /// The engine's widest machine holds `MAX_POINTS` points: a larger
    /// board is refused here, where its place in the file is known.
    fn engine_runs_board(&mut self, points: usize) -> bool {
        if points <= crate::MAX_POINTS {
            return true;
        }
        self.error_at(
            "board:",
            None,
            Diagnostic::new(format!(
                "a board of {points} points is larger than the engine can run"
            ))
            .expected(format!(
                "at most {} points (the board-size limit; a 25×25 grid)",
                crate::MAX_POINTS
            )),
        );
        false
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

    /// An error about the key at the end of a path (`phases.moving` → `moving:`).
    fn error_key(&mut self, path: &[&str], d: Diagnostic) {
        let at = self.loaded.key_at(path);
        self.errors.push(d.at_opt(at));
    }

    /// Where `moves: [..]` of a forbid rule names `m`.
    fn forbid_move_location(&self, rule: &str, m: &str) -> Option<Location> {
        let list = self.loaded.node(&["forbid", rule, "moves"])?;
        let item = list.items().iter().find(|n| n.as_str() == Some(m))?;
        self.loaded.location(item.pos)
    }

    /// Every move an action allows has the rules it needs, and every move
    /// rule has a move it applies to.
    fn check_moves_have_rules(
        &mut self,
        phases: &[PhaseRule],
        play: Option<&PlayRule>,
        passes: &Passes,
    ) {
        let mut allows_pass = false;
        let mut allows_play = false;
        for p in phases {
            for a in &p.actions {
                allows_pass |= a.kind == ActionKind::Pass;
                allows_play |= a.kind == ActionKind::Play;
                if a.kind == ActionKind::Pass && passes.kinds.is_empty() {
                    self.error_key(
                        &["phases", &p.name, "actions", "pass"],
                        Diagnostic::new(format!(
                            "phase `{}` allows `pass`, but the ruleset has no pass kinds",
                            p.name
                        ))
                        .expected("a `passes: { kinds: [P] }` section, or no `pass` action"),
                    );
                }
                if a.kind == ActionKind::Play && play.is_none() {
                    self.error_key(
                        &["phases", &p.name, "actions", "play"],
                        Diagnostic::new(format!(
                            "phase `{}` allows `play` (a board play with captures), but the ruleset has no `play:` section",
                            p.name
                        ))
                        .expected("a `play:` section (e.g. `play: { suicide: illegal }`), or `place` instead of `play`"),
                    );
                }
            }
        }
        if !passes.kinds.is_empty() && !allows_pass && !phases.is_empty() {
            self.error_key(
                &["passes", "kinds"],
                Diagnostic::new("the ruleset has pass kinds, but no phase allows `pass`")
                    .expected("`pass: true` in the actions of a phase, or no `passes:` section"),
            );
        }
        if play.is_some() && !allows_play && !phases.is_empty() {
            self.error_key(
                &["play"],
                Diagnostic::new(
                    "the `play:` section sets rules for board plays, but no phase allows `play`",
                )
                .expected("`play: true` in the actions of a phase, or no `play:` section"),
            );
        }
        if let Some(p) = play {
            if self
                .loaded
                .file
                .play
                .as_ref()
                .is_some_and(|f| f.d_runs.is_some())
                && !p.ko_capture
            {
                self.error_key(
                    &["play", "d_runs"],
                    Diagnostic::new(
                        "`play.d_runs` counts runs of ko captures, but `ko_capture` is not `jk`",
                    )
                    .expected("`ko_capture: jk`, or no `d_runs`"),
                );
            }
        }
    }

    /// An error about the value at a path.
    /// Refuse more than `max` entries of the section at `path` (a limit of
    /// the engine's tables); returns how many to go on checking.
    fn limit(&mut self, path: &[&str], count: usize, max: usize, what: &str) -> usize {
        if count > max {
            self.error_key(
                path,
                Diagnostic::new(format!(
                    "the ruleset has {count} {what}, more than the limit of {max}"
                ))
                .expected(format!("at most {max} {what} (the engine's limit)")),
            );
        }
        count.min(max)
    }

    fn error_value(&mut self, path: &[&str], d: Diagnostic) {
        let at = self.loaded.value_at(path);
        self.errors.push(d.at_opt(at));
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
        let located: Vec<Option<Location>> = match self.loaded.node(&["players"]) {
            Some(list) => list
                .items()
                .iter()
                .map(|n| self.loaded.location(n.pos))
                .collect(),
            None => Vec::new(),
        };
        for (i, p) in players.iter().enumerate() {
            let at = located.get(i).cloned().flatten();
            if players[..i].contains(p) {
                self.errors.push(
                    Diagnostic::new(format!("player `{p}` is listed twice")).at_opt(at.clone()),
                );
            }
            self.check_new_name(p, at, "a player");
        }
        players
    }

    /// Names of players, params, phases and rules are written in rule
    /// expressions and transcripts: one word, not a word of the language.
    fn check_new_name(&mut self, name: &str, at: Option<Location>, what: &str) {
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        let expected = "a name of ASCII letters, digits and `_`, starting with a letter or `_`, \
             that is not a built-in name or a word of the rule language";
        if !valid {
            self.errors.push(
                Diagnostic::new(format!("`{name}` cannot be the name of {what}"))
                    .at_opt(at)
                    .expected(expected),
            );
        } else if VOCABULARY.iter().any(|e| e.name == name) || RESERVED_WORDS.contains(&name) {
            self.errors.push(
                Diagnostic::new(format!(
                    "`{name}` is a reserved word and cannot be the name of {what}"
                ))
                .at_opt(at)
                .expected(expected),
            );
        }
    }

    /// Params, players and phases share one namespace in expressions.
    fn check_clashes(&mut self, players: &[String], params: &[(String, i64)]) {
        let phases: Vec<String> = self
            .loaded
            .file
            .phases
            .iter()
            .flat_map(|p| p.keys().cloned())
            .collect();
        let mut seen: Vec<(String, &str)> = Vec::new();
        let mut check = |this: &mut Self, name: &str, what: &'static str, at: Option<Location>| {
            if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name) {
                this.errors.push(
                    Diagnostic::new(format!(
                        "`{name}` names both {first} and {what}, so rule expressions cannot tell them apart"
                    ))
                    .at_opt(at)
                    .expected(format!("another name for the {}", what.trim_start_matches("a "))),
                );
            } else {
                seen.push((name.to_string(), what));
            }
        };
        for p in &phases {
            let at = self.loaded.key_at(&["phases", p]);
            check(self, p, "a phase", at);
        }
        for p in players {
            check(self, p, "a player", None);
        }
        for (p, _) in params {
            let at = self.loaded.key_at(&["params", p]);
            check(self, p, "a param", at);
        }
    }

    fn params(&mut self) -> Vec<(String, i64)> {
        let mut out = Vec::new();
        for (name, value) in self.loaded.file.params.iter().flatten() {
            let at = self.loaded.key_at(&["params", name]);
            self.check_new_name(name, at, "a param");
            if let Some(v) = value {
                out.push((name.clone(), *v));
            }
        }
        out
    }

    /// Where each name of an explicit board list (`nodes`, `edges`,
    /// `lines`) is written, in order: one location per name, read from the
    /// merged tree, so inherited names point into the parent file.
    fn explicit_locations(&self, list: &str) -> Vec<Option<Location>> {
        let mut locators: Vec<_> = self.loaded.chain.iter().map(|s| s.locator()).collect();
        let mut out = Vec::new();
        let Some(items) = self.loaded.node(&["board", "explicit", list]) else {
            return out;
        };
        let mut at = |n: &Node| {
            locators
                .get_mut(n.pos.file)
                .map(|l| l.location(n.pos.start))
        };
        for item in items.items() {
            match &item.kind {
                Kind::Scalar { .. } => out.push(at(item)),
                Kind::Map(_) => out.push(item.get("name").and_then(&mut at)),
                Kind::Seq(names) => out.extend(names.iter().map(&mut at)),
            }
        }
        out
    }

    /// Typed names paired with where they are written.
    fn located_names<'n>(
        &self,
        list: &str,
        names: impl IntoIterator<Item = &'n str>,
    ) -> Vec<Named> {
        let mut at = self.explicit_locations(list).into_iter();
        names
            .into_iter()
            .map(|name| Named {
                name: name.to_string(),
                at: at.next().flatten(),
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
            let node_names = e.nodes.iter().map(|n| match n {
                NodeFile::Name(name) | NodeFile::Placed { name, .. } => name.as_str(),
            });
            let nodes = self.located_names("nodes", node_names);
            let coords = e.nodes.iter().map(|n| match n {
                NodeFile::Name(_) => None,
                NodeFile::Placed { at, .. } => Some((at[0], at[1])),
            });
            let edge_names = e.edges.iter().flat_map(|[a, b]| [a.as_str(), b.as_str()]);
            let mut edge_named = self.located_names("edges", edge_names).into_iter();
            let mut edges = Vec::new();
            while let (Some(a), Some(b)) = (edge_named.next(), edge_named.next()) {
                edges.push((a, b));
            }
            let line_names = e.lines.iter().flatten().map(String::as_str);
            let mut line_named = self.located_names("lines", line_names).into_iter();
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

    /// Compile the expression at a path of keys of the merged ruleset; a
    /// column inside it is mapped back through the YAML scalar's quoting,
    /// escapes and folding to where it is written.
    fn cond_at(&mut self, text: &Text, path: &[&str], env: &RuleEnv<'_>, want: Type) -> Cond {
        let key = path.last().copied().unwrap_or("");
        let node = self.loaded.node(path).cloned();
        let loaded = self.loaded;
        self.compile_cond(text, key, env, want, |i| {
            let node = node.as_ref()?;
            let src = loaded.source_of(node.pos)?;
            Some(src.location(node.value_offset(&src.text, i)))
        })
    }

    fn compile_cond(
        &mut self,
        text: &Text,
        key: &str,
        env: &RuleEnv<'_>,
        want: Type,
        locate: impl Fn(usize) -> Option<Location>,
    ) -> Cond {
        let at = locate(0);
        match morrigo_dsl::compile(&text.0, env, want) {
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
                self.errors.push(d.at_opt(locate(e.span.start)));
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
        let live = &live[..live.len().min(self.limit(
            &["phases"],
            live.len(),
            crate::MAX_PHASES,
            "phases",
        ))];
        for (i, (name, phase)) in live.iter().enumerate() {
            let at = self.loaded.key_at(&["phases", name]);
            if *name == REMOVAL_PHASE {
                self.errors.push(
                    Diagnostic::new(format!(
                        "`{REMOVAL_PHASE}` cannot be the name of a phase: transcripts and scenario files call a pending removal that"
                    ))
                    .at_opt(at.clone())
                    .expected("another phase name"),
                );
            }
            self.check_new_name(name, at, "a phase");
            let when = phase.when.as_ref().map(|w| {
                self.cond_at(
                    w,
                    &["phases", name, "when"],
                    &env.within(Context::PhaseWhen),
                    Type::Bool,
                )
            });
            if when.is_none() && i + 1 < live.len() {
                self.error_key(
                    &["phases", name],
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
            if actions.is_empty() {
                self.error_key(
                    &["phases", name],
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
        let removals = self.cond_at(
            l.removals.as_ref().unwrap_or(&one),
            &["on_line_formed", "removals"],
            &env.within(Context::Removals),
            Type::Int,
        );
        let removable = self.cond_at(
            l.removable.as_ref().unwrap_or(&anyone),
            &["on_line_formed", "removable"],
            &env.within(Context::Removable),
            Type::Bool,
        );
        if let Some(n) = removals.expr.as_const().filter(|n| *n < 0) {
            self.error_value(
                &["on_line_formed", "removals"],
                Diagnostic::new(format!(
                    "`on_line_formed.removals` is {n}: a number of pieces to remove cannot be negative"
                ))
                .expected("0 or more"),
            );
        }
        Some(LineRule {
            removals,
            removable,
        })
    }

    fn end_rules(&mut self, env: RuleEnv<'_>) -> Vec<EndRule> {
        let mut out: Vec<(EndRule, Option<String>)> = Vec::new();
        let count = self.loaded.file.end.as_ref().map_or(0, |e| e.len());
        let keep = self.limit(&["end"], count, crate::MAX_END_RULES, "end rules");
        for (name, rule) in self.loaded.file.end.iter().flatten().take(keep) {
            let Some(rule) = rule else { continue };
            let at = self.loaded.key_at(&["end", name]);
            self.check_new_name(name, at, "an end rule");
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
                self.error_key(
                    &["end", name],
                    Diagnostic::new(format!(
                        "end rule `{name}` must say exactly one of `lose`, `win`, `draw`, `score`, `compare_captures`"
                    ))
                    .expected("`{ lose: \"condition\" }`, `{ win: … }`, `{ draw: … }` or `{ score: … }`"),
                );
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
        Some(PlayRule {
            suicide_single: single,
            suicide_multi: multi,
            ko_capture: p.ko_capture == Some(KoCaptureFile::Jk),
            d_four_or_six: p.d_runs == Some(DRunsFile::FourOrSix),
        })
    }

    fn passes(&mut self) -> Passes {
        let Some(p) = self.loaded.file.passes.as_ref() else {
            return Passes::default();
        };
        let mut kinds = Vec::new();
        for k in p.kinds.iter().flatten() {
            let letter = k.as_bytes();
            if letter.len() != 1
                || !letter[0].is_ascii_uppercase()
                || matches!(letter[0], b'N' | b'C' | b'D')
            {
                self.error_at(
                    k,
                    Some("kinds"),
                    Diagnostic::new(format!("`{k}` cannot name a pass kind")).expected(
                        "one upper-case letter other than N, C and D (those name board plays)",
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
        let stones = p.stones.unwrap_or(0);
        if stones > MAX_PASS_STONES {
            self.error_value(
                &["passes", "stones"],
                Diagnostic::new(format!(
                    "`passes.stones` is {stones}, more than the limit of {MAX_PASS_STONES}"
                ))
                .expected(format!(
                    "a number of pass stones from 0 to {MAX_PASS_STONES}"
                )),
            );
        }
        if kinds.is_empty() && p.stones.is_some() {
            self.error_key(
                &["passes", "stones"],
                Diagnostic::new("`passes.stones` is given, but the ruleset has no pass kinds")
                    .expected("`passes.kinds`, e.g. `[P]`"),
            );
        }
        Passes {
            kinds,
            stones: stones.min(MAX_PASS_STONES),
        }
    }

    fn forbid_rules(
        &mut self,
        env: RuleEnv<'_>,
        passes: &Passes,
        phases: &[PhaseRule],
    ) -> Vec<ForbidRule> {
        let allows = |kind: ActionKind| {
            phases
                .iter()
                .any(|p| p.actions.iter().any(|a| a.kind == kind))
        };
        let mut out = Vec::new();
        for (name, rule) in self.loaded.file.forbid.iter().flatten() {
            let Some(rule) = rule else { continue };
            let at = self.loaded.key_at(&["forbid", name]);
            self.check_new_name(name, at, "a forbid rule");
            let mut moves = Vec::new();
            for m in rule.moves.iter().flatten() {
                let class = if m == "play" && allows(ActionKind::Play) {
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
                        let mut kinds: Vec<String> = Vec::new();
                        if allows(ActionKind::Play) {
                            kinds.push("`play`".into());
                        }
                        kinds.extend(passes.names().iter().map(|k| format!("`{k}`")));
                        let mut d = Diagnostic::new(format!(
                            "forbid rule `{name}` names `{m}`, which is not a move kind it can forbid"
                        ));
                        d = if kinds.is_empty() {
                            let own: Vec<&str> = ActionKind::ALL
                                .into_iter()
                                .filter(|k| allows(*k))
                                .map(|k| k.name())
                                .collect();
                            d.expected("no forbid rules: they apply to board plays (`play`) and pass kinds, and this ruleset has neither")
                                .note(format!("the moves of this ruleset are: {}; limit them with the conditions of the phases' actions", own.join(", ")))
                        } else {
                            d.expected(format!("one of {}", kinds.join(", ")))
                        };
                        let names: Vec<String> = passes.names();
                        if let Some(sug) =
                            did_you_mean(m, names.iter().map(String::as_str).chain(["play"]))
                        {
                            if !kinds.is_empty() {
                                d = d.note(format!("did you mean `{sug}`?"));
                            }
                        }
                        let at = self.forbid_move_location(name, m);
                        self.errors.push(d.at_opt(at));
                    }
                }
            }
            if moves.is_empty() && rule.moves.as_ref().is_none_or(|m| m.is_empty()) {
                self.error_key(
                    &["forbid", name],
                    Diagnostic::new(format!("forbid rule `{name}` forbids no move"))
                        .expected("`moves: [P, E]` or similar"),
                );
            }
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
                &env.within(Context::ActionGuard),
                Type::Bool,
            );
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
            reading: match r.immediate_reading {
                None => default.reading,
                Some(ImmediateReadingFile::SimpleKo) => ImmediateReading::SimpleKo,
                Some(ImmediateReadingFile::Jk) => ImmediateReading::Jk,
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
            count: match r.count {
                None => default.count,
                Some(n) if n < 2 => {
                    self.error_value(
                        &["repetition", "count"],
                        Diagnostic::new(format!(
                            "`repetition.count` is {n}; a board can first repeat at its 2nd occurrence"
                        ))
                        .expected(format!("a number from 2 to {}", u32::MAX)),
                    );
                    default.count
                }
                Some(n) => {
                    if matches!(r.repeated_board, None | Some(RepeatedFile::Off)) {
                        self.error_key(
                            &["repetition", "count"],
                            Diagnostic::new(
                                "`repetition.count` says which occurrence of a board ends the game, but `repeated_board` is off",
                            )
                            .expected("`repeated_board: captures` or `draw`, or no `count`"),
                        );
                    }
                    n
                }
            },
        }
    }

    fn scoring(&mut self) -> Option<Scoring> {
        let s = self.loaded.file.scoring.as_ref()?;
        Some(Scoring {
            method: match s.method {
                None | Some(ScoringMethodFile::Area) => ScoringMethod::Area,
                Some(ScoringMethodFile::Jk) => ScoringMethod::Jk,
            },
            komi: match s.komi {
                Some(k) if !k.is_finite() => {
                    self.error_value(
                        &["scoring", "komi"],
                        Diagnostic::new(format!("`scoring.komi` is {k}"))
                            .expected("a finite number such as 6.5 or -3"),
                    );
                    0.0
                }
                k => k.unwrap_or(0.0),
            },
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
