//! Checking a merged ruleset file and compiling it to [`Rules`]: the last
//! step of the ruleset path, after [`crate::yaml`] (the located tree) and
//! [`crate::load`] (files, `extends`, the merge): it uses both, neither uses it.
//!
//! [`compile`] reads the basics (name, board, players, params, phase
//! names, board play, passes), then lowers each rule section against them
//! (one submodule per subject) and runs the checks across sections
//! ([`check`]) where their diagnostics are due, so every message keeps its
//! order. Lowering reads the ruleset through the `Loaded` it is given;
//! nothing here reads a file or YAML text.

mod board;
mod capture;
mod check;
mod cond;
mod end;
mod forbid;
mod go;
mod phases;
mod playout;
mod setup;

use crate::load::Loaded;
use crate::schema::HandFile;
use crate::shapes::ShapeTable;
use crate::vocab::{BoardBounds, Context, RuleEnv};
use crate::yaml::Pos;
use crate::{
    history_classes, CaptureRule, EndRule, EvalWeights, ForbidRule, LineRule, Passes, PhaseRule,
    PlayRule, RepetitionRule, Rules, Scoring,
};
use morrigo_diag::{Diagnostic, Diagnostics, Location};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

/// Check and compile a loaded ruleset; reports every problem found.
pub fn compile(loaded: &Loaded) -> Result<Rules, Diagnostics> {
    let mut c = Compiler {
        loaded,
        errors: Vec::new(),
    };
    let rules = c.rules();
    match rules {
        Some(r) if c.errors.is_empty() => Ok(r),
        _ => {
            let mut errors = c.misspelt_inherited_keys();
            errors.extend(c.errors);
            Err(Diagnostics(errors))
        }
    }
}

/// The merged, located ruleset being compiled and every diagnostic found
/// so far (each `impl` block of the submodules adds to them).
struct Compiler<'a> {
    loaded: &'a Loaded,
    errors: Vec<Diagnostic>,
}

/// What every rule section is checked against: the names expressions know
/// and the board they are bounded by.
struct Basics {
    name: Option<String>,
    players: Vec<String>,
    params: Vec<(String, i64)>,
    hand: Option<HandFile>,
    topology: Option<morrigo_board::Topology>,
    phase_names: Vec<String>,
    play: Option<PlayRule>,
    passes: Passes,
    /// Move classes and derived classes history patterns may name.
    classes: Vec<u8>,
    derived: Vec<u8>,
}

impl Basics {
    /// The environment rule expressions are compiled in; each section sets
    /// its own context with `within`.
    fn env<'b>(&'b self, patterns: &'b RefCell<Vec<morrigo_dsl::Pattern>>) -> RuleEnv<'b> {
        RuleEnv {
            context: Context::End,
            players: &self.players,
            phases: &self.phase_names,
            params: &self.params,
            classes: &self.classes,
            derived: &self.derived,
            board: BoardBounds::of(self.topology.as_ref()),
            patterns,
            topology: self.topology.as_ref(),
        }
    }
}

/// The compiled rule sections of a ruleset.
struct Sections {
    phases: Vec<PhaseRule>,
    line_rule: Option<LineRule>,
    forbid: Vec<ForbidRule>,
    captures: Vec<CaptureRule>,
    repetition: RepetitionRule,
    end: Vec<EndRule>,
    scoring: Option<Scoring>,
    eval: Option<EvalWeights>,
    shapes: Option<Arc<ShapeTable>>,
}

impl Compiler<'_> {
    /// The whole ruleset: the basics, then the rule sections checked and
    /// lowered against them, then the checks across the finished rules.
    fn rules(&mut self) -> Option<Rules> {
        let basics = self.basics();
        let patterns = RefCell::new(Vec::new());
        let sections = self.sections(&basics, basics.env(&patterns));
        let start = self.checked_start(&basics);
        let (in_hand, unlimited_hand) = self.hand_size(basics.hand);
        self.check_line_rule_fits_play_and_hand(
            basics.play.as_ref(),
            sections.line_rule.as_ref(),
            unlimited_hand,
        );
        let f = &self.loaded.file;
        let rules = Rules {
            name: basics.name?,
            title: f
                .title
                .clone()
                .unwrap_or_else(|| f.name.clone().unwrap_or_default()),
            description: f.description.clone(),
            sources: self.loaded.chain.clone(),
            topology: basics.topology?,
            players: basics.players,
            in_hand: in_hand?,
            unlimited_hand,
            start,
            params: basics.params,
            phases: sections.phases,
            line_rule: sections.line_rule,
            end: sections.end,
            play: basics.play,
            passes: basics.passes,
            forbid: sections.forbid,
            captures: sections.captures,
            repetition: sections.repetition,
            scoring: sections.scoring,
            patterns: patterns.into_inner(),
            eval: sections.eval,
            shapes: sections.shapes,
        };
        self.check_lines_formed_in(&rules);
        Some(rules)
    }

    /// Name, board, players, params, hand size, phase names, board play and
    /// passes: what the rule sections are checked against, so read first.
    fn basics(&mut self) -> Basics {
        let f = &self.loaded.file;
        let name = self.required(
            f.name.clone(),
            "name",
            "a ruleset name such as `nine-mens-morris`",
        );
        let board = self.required(
            f.board.as_ref(),
            "board",
            "a board (`nested_squares`, `grid`, `triangular`, `hexagonal` or `explicit`)",
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
        let phase_names = self.phase_order();
        let play = self.play_rule();
        let ko_runs = play.as_ref().and_then(|p| p.ko_runs);
        let passes = self.passes(ko_runs.map(|r| r.letter));
        let (classes, derived) = history_classes(play.as_ref(), &passes);
        Basics {
            name,
            players,
            params,
            hand,
            topology,
            phase_names,
            play,
            passes,
            classes,
            derived,
        }
    }

    /// Every rule section compiled against the basics, with the checks
    /// between sections, in the order their diagnostics are reported.
    fn sections(&mut self, b: &Basics, env: RuleEnv<'_>) -> Sections {
        let play = b.play.as_ref();
        let topology = b.topology.as_ref();
        let phases = self.phases(env);
        self.check_moves_have_rules(&phases, play, &b.passes);
        if play.is_some() {
            self.check_turn_order_without_plays(&phases);
        }
        let line_rule = self.line_rule(env);
        self.check_line_rule_has_lines(line_rule.as_ref(), topology);
        self.check_repetition_has_plays(play);
        self.check_records_can_mark_removals(&phases, line_rule.is_some(), topology);
        let forbid = self.forbid_rules(env, &b.passes, &phases, line_rule.is_some(), topology);
        let captures = self.capture_rules(env, &phases, topology, line_rule.as_ref());
        let repetition = self.repetition();
        let mut end = self.synthesized_end_rules(play, &repetition);
        end.extend(self.end_rules(env));
        let scoring = self.scoring();
        let eval = self.eval(play.is_some());
        let shapes = self.shapes(topology, play.is_some());
        self.check_end_names_unique(&end);
        self.check_score_has_scoring(&end, scoring.as_ref());
        Sections {
            phases,
            line_rule,
            forbid,
            captures,
            repetition,
            end,
            scoring,
            eval,
            shapes,
        }
    }

    /// A section the ruleset must have: reported at the top of the file
    /// when missing.
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

    /// An error about the value at a path.
    fn error_value(&mut self, path: &[&str], d: Diagnostic) {
        let at = self.loaded.value_at(path);
        self.errors.push(d.at_opt(at));
    }

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

    /// Where the list at `path` holds `value` (the last such item: a
    /// repeated one is reported where it is repeated).
    fn list_item(&self, path: &[&str], value: &str) -> Option<Location> {
        let list = self.loaded.node(path)?;
        let item = list
            .items()
            .iter()
            .rev()
            .find(|n| n.as_str() == Some(value))?;
        self.loaded.location(item.pos)
    }

    /// Where each key of a top-level section is written.
    fn key_positions(&self, section: &str) -> HashMap<String, Pos> {
        self.loaded
            .node(&[section])
            .map(|n| {
                n.entries()
                    .iter()
                    .filter_map(|(k, _)| Some((k.as_str()?.to_string(), k.pos)))
                    .collect()
            })
            .unwrap_or_default()
    }
}
