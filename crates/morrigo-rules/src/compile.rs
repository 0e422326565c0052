//! Checking a merged ruleset file and compiling it to [`Rules`].

use crate::load::Loaded;
use crate::schema::{
    BoardFile, DRunsFile, DeadStonesFile, DerivedFile, DiagonalsFile, ExplicitFile, HandFile,
    ImmediateFile, ImmediateReadingFile, KoCaptureFile, NamingFile, NodeFile, RepeatedFile,
    ScoringMethodFile, SekiFile, SuicideEffectFile, SuicideFile, SuicideShorthand, SuperkoFile,
    Text,
};
use crate::vocab::{BoardBounds, Context, Prim, RuleEnv, VOCABULARY};
use crate::yaml::{Kind, Node, Pos};
use crate::{
    ActionKind, ActionRule, CaptureKind, CaptureRule, Cond, DeadStones, EndRule, ForbidRule,
    Immediate, ImmediateReading, KoRuns, LineRule, MoveClass, Passes, PhaseRule, PlayRule,
    Repeated, RepetitionRule, Rules, Scoring, ScoringMethod, Seki, Start, SuicideEffect, Superko,
    Verdict, CLASS_KO_CAPTURE, CLASS_NORMAL,
};
use crate::{EvalWeights, MAX_EVAL_WEIGHT};
use indexmap::IndexMap;
use morrigo_board::{BoardSpec, Diagonals, LineDirection, Named, Naming};
use morrigo_diag::{did_you_mean, Diagnostic, Diagnostics, Location};

/// The ways to give a board, in `BoardFile` field order.
const BOARD_KINDS: [&str; 5] = [
    "nested_squares",
    "grid",
    "triangular",
    "hexagonal",
    "explicit",
];
use morrigo_dsl::Type;
use std::cell::RefCell;
use std::collections::HashMap;

/// Most pass stones one pass may give (`passes.stones`).
pub const MAX_PASS_STONES: u32 = 1000;

/// Words of the rule language, which no name may take.
const RESERVED_WORDS: &[&str] = &[
    "and", "or", "not", "true", "false", "if", "then", "else", "min", "max",
];
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
        _ => {
            let mut errors = c.misspelt_inherited_keys();
            errors.extend(c.errors);
            Err(Diagnostics(errors))
        }
    }
}

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
    shapes: Option<std::sync::Arc<crate::shapes::ShapeTable>>,
}

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
        let (classes, derived) = crate::history_classes(play.as_ref(), &passes);
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

    fn check_line_rule_has_lines(
        &mut self,
        line_rule: Option<&LineRule>,
        topology: Option<&morrigo_board::Topology>,
    ) {
        if line_rule.is_some() && topology.is_some_and(|t| t.lines.is_empty()) {
            self.error_key(
                &["on_line_formed"],
                Diagnostic::new("`on_line_formed` says what completing a line does, but the board has no lines")
                    .expected("a board with lines (`lines:` of a grid or an explicit board), or no `on_line_formed`"),
            );
        }
    }

    fn check_repetition_has_plays(&mut self, play: Option<&PlayRule>) {
        let repetition_set = self.loaded.file.repetition.as_ref().is_some_and(|r| {
            r.immediate.is_some() || r.superko.is_some() || r.repeated_board.is_some()
        });
        if repetition_set && play.is_none() {
            self.error_key(
                &["repetition"],
                Diagnostic::new("`repetition` rules judge board plays, and this ruleset has none")
                    .expected("a `play:` section and a `play` action, or no `repetition` (repeated positions: an end rule on `repetitions`)"),
            );
        }
    }

    /// Only records of removals and of moves along the board use the `x`
    /// mark, so only their rulesets keep it out of point names.
    fn check_records_can_mark_removals(
        &mut self,
        phases: &[PhaseRule],
        has_line_rule: bool,
        topology: Option<&morrigo_board::Topology>,
    ) {
        let moves_pieces = phases.iter().any(|p| {
            p.actions
                .iter()
                .any(|a| matches!(a.kind, ActionKind::Slide | ActionKind::Fly))
        });
        if has_line_rule || moves_pieces {
            if let Some(t) = topology {
                self.check_no_removal_mark(t);
            }
        }
    }

    /// The rules `play` and `repetition` add come first; a ruleset's own
    /// end rule may not take one of their names.
    fn check_end_names_unique(&mut self, end: &[EndRule]) {
        for (i, e) in end.iter().enumerate() {
            if end[..i].iter().any(|f| f.name == e.name) {
                self.error_key(
                    &["end", &e.name],
                    Diagnostic::new(format!(
                        "end rule `{}` has the name of a rule the `play` or `repetition` settings add",
                        e.name
                    ))
                    .expected("another name"),
                );
            }
        }
    }

    fn check_score_has_scoring(&mut self, end: &[EndRule], scoring: Option<&Scoring>) {
        if let Some(e) = end
            .iter()
            .find(|e| e.verdict == Verdict::Score)
            .filter(|_| scoring.is_none())
        {
            let path = ["end", e.name.as_str(), "score"];
            self.error_key(
                &path,
                Diagnostic::new("an end rule ends the game by `score`, but the ruleset has no `scoring` section")
                    .expected("`scoring: { method: jk | area | territory, komi: … }`"),
            );
        }
    }

    /// `setup`'s stones and player to move (none without a board), checked
    /// for liberties when board plays capture.
    fn checked_start(&mut self, b: &Basics) -> Start {
        let start = b
            .topology
            .as_ref()
            .map(|t| self.start(t, &b.players))
            .unwrap_or_default();
        if let (Some(t), Some(_)) = (&b.topology, &b.play) {
            self.check_start_liberties(t, &b.players, &start);
        }
        start
    }

    /// `setup.in_hand` as (pieces in hand, unlimited); `None` pieces when
    /// missing or over the hand-size limit.
    fn hand_size(&mut self, hand: Option<HandFile>) -> (Option<u32>, bool) {
        match hand {
            Some(HandFile::Count(n)) if n > crate::MAX_IN_HAND => {
                self.error_value(
                    &["setup", "in_hand"],
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
        }
    }

    /// `on_line_formed.delay` and `from_hand` need a board without board
    /// plays and a counted hand.
    fn check_line_rule_fits_play_and_hand(
        &mut self,
        play: Option<&PlayRule>,
        line_rule: Option<&LineRule>,
        unlimited_hand: bool,
    ) {
        if play.is_some() && line_rule.is_some_and(|l| l.delay.is_some()) {
            self.error_key(
                &["on_line_formed", "delay"],
                Diagnostic::new(
                    "`on_line_formed.delay` leaves marks on the board, which board plays and their captures do not know",
                )
                .expected("no `delay` in a ruleset with `play:`"),
            );
        }
        if unlimited_hand && line_rule.is_some_and(|l| l.from_hand.is_some()) {
            self.error_key(
                &["on_line_formed", "from_hand"],
                Diagnostic::new(
                    "`on_line_formed.from_hand` takes removals from the opponent's hand, but hands are unlimited",
                )
                .expected("a number for `setup.in_hand`, or no `from_hand`"),
            );
        }
    }

    /// `lines_formed_in` counts completed lines: refused on a board
    /// without lines, where it could only ever be 0.
    fn check_lines_formed_in(&mut self, rules: &Rules) {
        if !rules.topology.lines.is_empty() {
            return;
        }
        if let Some(c) = rules.conds().find(|c| c.uses(Prim::LinesFormedIn)) {
            self.errors.push(
                Diagnostic::new(
                    "`lines_formed_in` counts the lines a player completed, but the board has no lines",
                )
                .at_opt(c.at.clone())
                .expected("a board with lines (`lines:` of a grid or an explicit board), or no `lines_formed_in`"),
            );
        }
    }

    /// `setup.stones` and `setup.to_move`: every point on the board, none
    /// given twice or to both players; the players named are the ruleset's.
    fn start(&mut self, t: &morrigo_board::Topology, players: &[String]) -> Start {
        let mut start = Start::default();
        let Some(setup) = self.loaded.file.setup.as_ref() else {
            return start;
        };
        if let Some(name) = &setup.to_move {
            match players.iter().position(|p| p == name) {
                Some(i) => start.to_move = i as u8,
                None => self.error_value(
                    &["setup", "to_move"],
                    Diagnostic::new(format!("`setup.to_move: {name}` is not a player"))
                        .expected(format!("one of {}", players.join(", "))),
                ),
            }
        }
        let mut owner: Vec<Option<usize>> = vec![None; t.len()];
        for (name, points) in setup.stones.iter().flatten() {
            let Some(pl) = players.iter().position(|p| p == name) else {
                self.error_key(
                    &["setup", "stones", name],
                    Diagnostic::new(format!("`setup.stones.{name}`: `{name}` is not a player"))
                        .expected(format!("stones of {}", players.join(", "))),
                );
                continue;
            };
            let path = ["setup", "stones", name.as_str()];
            for point in points.iter().flatten() {
                let at = self.list_item(&path, point);
                let Some(p) = t.point(point) else {
                    let mut d = Diagnostic::new(format!(
                        "setup stone `{point}` of {name} is not a point of the board"
                    ))
                    .expected(format!(
                        "a point of the {}-point board, such as `{}`",
                        t.len(),
                        t.name(0)
                    ));
                    // A point two edits away is a guess only in the same column.
                    let near =
                        did_you_mean(point, t.names.iter().map(String::as_str)).filter(|s| {
                            s.get(..1)
                                .zip(point.get(..1))
                                .is_some_and(|(a, b)| a.eq_ignore_ascii_case(b))
                        });
                    if let Some(s) = near {
                        d = d.note(format!("did you mean `{s}`?"));
                    }
                    let sized = ["width", "height"].iter().any(|k| {
                        self.loaded
                            .node(&["board", "grid", k])
                            .is_some_and(|n| n.pos.file == usize::MAX)
                    });
                    if sized {
                        d = d.note("the board's size comes from `--size` on the command line");
                    }
                    self.errors.push(d.at_opt(at));
                    continue;
                };
                match owner[p as usize] {
                    Some(o) => {
                        let what = if o == pl {
                            format!("setup stone `{point}` of {name} is given twice")
                        } else {
                            format!(
                                "setup stone `{point}` is given to both {} and {name}",
                                players[o]
                            )
                        };
                        self.errors.push(
                            Diagnostic::new(what)
                                .at_opt(at)
                                .expected("each point at most once, to one player"),
                        );
                    }
                    None => {
                        owner[p as usize] = Some(pl);
                        start.stones[pl].push(p);
                    }
                }
            }
        }
        for s in &mut start.stones {
            s.sort_unstable();
        }
        start
    }

    /// With board plays, every chain of set-up stones needs a liberty (a
    /// chain without one would have been captured).
    fn check_start_liberties(
        &mut self,
        t: &morrigo_board::Topology,
        players: &[String],
        start: &Start,
    ) {
        let mut owner: Vec<Option<usize>> = vec![None; t.len()];
        for (pl, stones) in start.stones.iter().enumerate() {
            for &p in stones {
                owner[p as usize] = Some(pl);
            }
        }
        let mut seen = vec![false; t.len()];
        for (pl, stones) in start.stones.iter().enumerate() {
            for &first in stones {
                if seen[first as usize] {
                    continue;
                }
                seen[first as usize] = true;
                let (mut todo, mut chain, mut free) = (vec![first], vec![first], false);
                while let Some(p) = todo.pop() {
                    for &q in &t.neighbours[p as usize] {
                        match owner[q as usize] {
                            None => free = true,
                            Some(o) if o == pl && !seen[q as usize] => {
                                seen[q as usize] = true;
                                todo.push(q);
                                chain.push(q);
                            }
                            Some(_) => {}
                        }
                    }
                }
                if !free {
                    chain.sort_unstable();
                    let names: Vec<&str> = chain.iter().map(|&p| t.name(p)).collect();
                    let name = players.get(pl).map_or("", String::as_str);
                    let at = self.list_item(&["setup", "stones", name], t.name(first));
                    self.errors.push(
                        Diagnostic::new(format!(
                            "the set-up stones of {name} at {} form a chain without a liberty",
                            names.join(" ")
                        ))
                        .at_opt(at)
                        .expected("a position where every chain has an empty neighbour (a chain without one would have been captured)"),
                    );
                }
            }
        }
    }

    /// The engine's widest machine holds `MAX_POINTS` points: a larger
    /// board is refused here, where its place in the file is known.
    fn engine_runs_board(&mut self, points: usize) -> bool {
        if points <= crate::MAX_POINTS {
            return true;
        }
        self.error_key(
            &["board"],
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

    /// In a record of a ruleset with removals or moves along the board, `x`
    /// marks a removal (`g1xd2`, `d1-d2xg7`), so no point name may hold it.
    fn check_no_removal_mark(&mut self, t: &morrigo_board::Topology) {
        let locations = self.explicit_locations("nodes");
        let bad = (0..t.len()).find(|&i| t.names[i].contains(['x', 'X']));
        if let Some(i) = bad {
            let name = &t.names[i];
            self.errors.push(
                Diagnostic::new(format!(
                    "point name `{name}` holds an `x`, which marks a removal in the move records of this ruleset"
                ))
                .at_opt(locations.get(i).cloned().flatten().or_else(|| self.loaded.key_at(&["board"])))
                .expected("a point name without `x` or `X`"),
            );
        }
    }

    /// Where `moves: [..]` of a forbid rule names `m`.
    fn forbid_move_location(&self, rule: &str, m: &str) -> Option<Location> {
        self.list_item(&["forbid", rule, "moves"], m)
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

    fn players(&mut self) -> Vec<String> {
        let players = self
            .loaded
            .file
            .players
            .clone()
            .unwrap_or_else(|| vec!["white".into(), "black".into()]);
        if players.len() != 2 {
            self.error_value(
                &["players"],
                Diagnostic::new(format!(
                    "a ruleset has two players, this one lists {}",
                    players.len()
                ))
                .expected("two names, first to move first"),
            );
        }
        let located: Vec<Pos> = match self.loaded.node(&["players"]) {
            Some(list) => list.items().iter().map(|n| n.pos).collect(),
            None => Vec::new(),
        };
        for (i, p) in players.iter().enumerate().take(2) {
            let at = located.get(i).copied();
            if players[..i].contains(p) {
                let loc = at.and_then(|pos| self.loaded.location(pos));
                self.errors
                    .push(Diagnostic::new(format!("player `{p}` is listed twice")).at_opt(loc));
            }
            self.check_new_name(p, at, "a player");
        }
        players
    }

    /// Names of players, params, phases and rules are written in rule
    /// expressions and transcripts: one word, not a word of the language.
    fn check_new_name(&mut self, name: &str, pos: Option<Pos>, what: &str) {
        // Located only when refused: files may hold many names.
        let loaded = self.loaded;
        let at = || pos.and_then(|p| loaded.location(p));
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
                    .at_opt(at())
                    .expected(expected),
            );
        } else if VOCABULARY.iter().any(|e| e.name == name) || RESERVED_WORDS.contains(&name) {
            let kind = if RESERVED_WORDS.contains(&name) {
                "a word of the rule language"
            } else {
                "a built-in name"
            };
            self.errors.push(
                Diagnostic::new(format!(
                    "`{name}` is {kind} and cannot be the name of {what}"
                ))
                .at_opt(at())
                .expected(expected),
            );
        }
    }

    /// Entries a variant adds whose names are close to an inherited one
    /// (`movng:` next to the parent's `moving:`): likely misspellings, the
    /// probable cause when the merged ruleset does not compile.
    fn misspelt_inherited_keys(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for section in [
            "phases",
            "end",
            "forbid",
            "captures",
            "params",
            "setup",
            "board",
            "play",
            "passes",
            "repetition",
            "scoring",
            "on_line_formed",
        ] {
            let Some(node) = self.loaded.node(&[section]) else {
                continue;
            };
            let inherited: Vec<&str> = node
                .entries()
                .iter()
                .filter(|(k, _)| k.pos.file > 0)
                .filter_map(|(k, _)| k.as_str())
                .collect();
            for (k, _) in node.entries().iter().filter(|(k, _)| k.pos.file == 0) {
                let Some(name) = k.as_str() else { continue };
                if let Some(s) = did_you_mean(name, inherited.iter().copied()) {
                    out.push(
                        Diagnostic::new(format!(
                            "`{section}.{name}` is new in this file, and the parent ruleset has `{s}`"
                        ))
                        .at_opt(self.loaded.location(k.pos))
                        .expected(format!("`{s}:` to change the inherited entry"))
                        .note(format!("did you mean `{s}`?")),
                    );
                }
            }
        }
        out
    }

    /// Rule names are shown in transcripts and explanations, not written in
    /// expressions: one word.
    fn check_rule_name(&mut self, name: &str, at: Option<Location>, what: &str) {
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            self.errors.push(
                Diagnostic::new(format!("`{name}` cannot be the name of {what}"))
                    .at_opt(at)
                    .expected(
                        "a name of ASCII letters, digits and `_`, starting with a letter or `_`",
                    ),
            );
        }
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

    /// Params, players and phases share one namespace in expressions.
    fn check_clashes(&mut self, players: &[String], params: &[(String, i64)]) {
        let phases: Vec<String> = self
            .loaded
            .file
            .phases
            .iter()
            .flat_map(|p| p.keys().cloned())
            .collect();
        let mut seen: HashMap<String, &str> = HashMap::new();
        let mut check = |this: &mut Self, name: &str, what: &'static str, at: Option<Pos>| {
            if let Some(first) = seen.get(name) {
                this.errors.push(
                    Diagnostic::new(format!(
                        "`{name}` names both {first} and {what}, so rule expressions cannot tell them apart"
                    ))
                    .at_opt(at.and_then(|p| this.loaded.location(p)))
                    .expected(format!("another name for the {}", what.trim_start_matches("a "))),
                );
            } else {
                seen.insert(name.to_string(), what);
            }
        };
        let phase_at = self.key_positions("phases");
        for p in &phases {
            check(self, p, "a phase", phase_at.get(p).copied());
        }
        for p in players {
            check(self, p, "a player", None);
        }
        let param_at = self.key_positions("params");
        for (p, _) in params {
            check(self, p, "a param", param_at.get(p).copied());
        }
    }

    fn params(&mut self) -> Vec<(String, i64)> {
        let mut out = Vec::new();
        let param_at = self.key_positions("params");
        for (name, value) in self.loaded.file.params.iter().flatten() {
            let at = param_at.get(name).copied();
            self.check_new_name(name, at, "a param");
            let Some(p) = value else {
                continue;
            };
            let (lo, hi) = (p.min.unwrap_or(i64::MIN), p.max.unwrap_or(i64::MAX));
            let range = match (p.min, p.max) {
                (Some(a), Some(b)) => format!("from {a} to {b}"),
                (Some(a), None) => format!("at least {a}"),
                (None, Some(b)) => format!("at most {b}"),
                (None, None) => String::new(),
            };
            if lo > hi {
                self.error_value(
                    &["params", name, "min"],
                    Diagnostic::new(format!("param `{name}` has min {lo} above max {hi}"))
                        .expected("`min` at most `max`"),
                );
            } else if !(lo..=hi).contains(&p.value) {
                // Located where the value was set (a variant's file); a
                // value from no file (a sweep's grid) is left for the
                // caller to locate, with the declaration as a note.
                let set_at = self.loaded.value_at(&["params", name, "value"]);
                let declared_at = self.loaded.value_at(&["params", name]);
                let mut d =
                    Diagnostic::new(format!("param `{name}` is {}, outside its range", p.value))
                        .expected(format!("a value {range}"));
                if set_at.is_none() {
                    if let Some(at) = declared_at {
                        d = d.note(format!("the range is declared at {at}"));
                    }
                }
                self.errors.push(d.at_opt(set_at));
            }
            out.push((name.clone(), p.value));
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
            board.triangular.is_some(),
            board.hexagonal.is_some(),
            board.explicit.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            self.report_board_not_given_once();
            return None;
        }
        let spec = self.board_spec(board)?;
        match morrigo_board::build(&spec) {
            Ok(t) => Some(t),
            Err(e) => {
                self.report_board_error(&e, given);
                None
            }
        }
    }

    /// No way or several ways of giving the board: at the board's own kind
    /// (or `board:`), with a note for each kind a parent ruleset gave.
    fn report_board_not_given_once(&mut self) {
        let mut d = Diagnostic::new("a board is given in exactly one way").expected(
            "one of `nested_squares:`, `grid:`, `triangular:`, `hexagonal:`, `explicit:`",
        );
        // A variant replacing its parent's kind of board must delete it.
        let inherited: Vec<&str> = BOARD_KINDS
            .into_iter()
            .filter(|k| {
                self.loaded
                    .node(&["board", k])
                    .is_some_and(|n| n.pos.file > 0)
            })
            .collect();
        let own: Option<&str> = BOARD_KINDS.into_iter().find(|k| {
            self.loaded
                .node(&["board", k])
                .is_some_and(|n| n.pos.file == 0)
        });
        for k in &inherited {
            if own.is_some() {
                d = d.note(format!(
                    "`{k}:` is inherited from the parent ruleset; write `{k}: null` under `board:` to replace it"
                ));
            }
        }
        let at = own
            .and_then(|k| self.loaded.key_at(&["board", k]))
            .or_else(|| self.loaded.key_at(&["board"]));
        self.errors.push(d.at_opt(at));
    }

    /// The board crate's description of the one board given.
    fn board_spec(&self, board: &BoardFile) -> Option<BoardSpec> {
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
                diagonals: match g.diagonals {
                    DiagonalsFile::None => Diagonals::None,
                    DiagonalsFile::Long => Diagonals::Long,
                    DiagonalsFile::Alternate => Diagonals::Alternate,
                    DiagonalsFile::All => Diagonals::All,
                    DiagonalsFile::Crossed => Diagonals::Crossed,
                },
                naming: match g.naming {
                    NamingFile::Algebraic => Naming::Algebraic,
                    NamingFile::Gtp => Naming::Gtp,
                },
                line_length: g.lines,
            }
        } else if let Some(t) = &board.triangular {
            BoardSpec::Triangular {
                side: t.side,
                line_length: t.lines,
            }
        } else if let Some(h) = &board.hexagonal {
            BoardSpec::Hexagonal {
                side: h.side,
                line_length: h.lines,
            }
        } else {
            self.explicit_spec(board.explicit.as_ref()?)
        };
        Some(spec)
    }

    /// An explicit board, each name of a node, edge and line paired with
    /// where it is written.
    fn explicit_spec(&self, e: &ExplicitFile) -> BoardSpec {
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
    }

    /// A board the board crate refuses. `given` says which kind of board
    /// was given, in `BOARD_KINDS` order.
    fn report_board_error(&mut self, e: &morrigo_board::BoardError, given: [bool; 5]) {
        let mut d = e.to_diagnostic();
        // A generator parameter out of range is located at its key
        // (the board crate names parameters by their ruleset keys).
        let param = match e {
            morrigo_board::BoardError::ParamOutOfRange { param, .. } => Some(*param),
            _ => None,
        };
        let kind = BOARD_KINDS
            .into_iter()
            .zip(given)
            .find(|g| g.1)
            .map(|g| g.0);
        let path = kind.zip(param).map(|(k, p)| ["board", k, p]);
        // `--size` replaces the value but not the key written in the file.
        let from_command_line = path
            .as_ref()
            .and_then(|p| self.loaded.node(p))
            .is_some_and(|n| n.pos.file == usize::MAX);
        let fallback = match from_command_line {
            true => {
                d = d.note("the value comes from `--size` on the command line");
                self.loaded.key_at(&["board"])
            }
            false => path
                .as_ref()
                .and_then(|p| self.loaded.key_at(p))
                .or_else(|| self.loaded.key_at(&["board"])),
        };
        self.errors.push(d.at_opt(fallback));
    }

    /// Compile the expression at a path of keys of the merged ruleset; a
    /// column inside it is mapped back through the YAML scalar's quoting,
    /// escapes and folding to where it is written.
    fn cond_at(&mut self, text: &Text, path: &[&str], env: &RuleEnv<'_>, want: Type) -> Cond {
        self.cond_at_checked(text, path, env, want, false)
    }

    /// As `cond_at`; with `count`, the value must provably never be negative.
    fn cond_at_checked(
        &mut self,
        text: &Text,
        path: &[&str],
        env: &RuleEnv<'_>,
        want: Type,
        count: bool,
    ) -> Cond {
        let key = path.last().copied().unwrap_or("");
        let node = self.loaded.node(path).cloned();
        let loaded = self.loaded;
        self.compile_cond(text, key, env, want, count, |i| {
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
        count: bool,
        locate: impl Fn(usize) -> Option<Location>,
    ) -> Cond {
        let at = locate(0);
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
        // In the order `phase_order` decided (the names expressions know).
        let live: Vec<_> = env
            .phases
            .iter()
            .filter_map(|n| phases.get(n).and_then(Option::as_ref).map(|p| (n, p)))
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
        let phase_at = self.key_positions("phases");
        for (i, (name, phase)) in live.iter().enumerate() {
            let at = phase_at.get(name.as_str()).copied();
            if *name == REMOVAL_PHASE {
                self.errors.push(
                    Diagnostic::new(format!(
                        "`{REMOVAL_PHASE}` cannot be the name of a phase: transcripts and scenario files call a pending removal that"
                    ))
                    .at_opt(at.and_then(|p| self.loaded.location(p)))
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
            let (mut remove, mut remove_own) = (None, None);
            for (kind_name, guard) in phase.actions.iter().flatten() {
                let Some(guard) = guard else { continue };
                let slot = match kind_name.as_str() {
                    crate::turns::REMOVE_ACTION => Some(&mut remove),
                    crate::turns::REMOVE_OWN_ACTION => Some(&mut remove_own),
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
                    names.push(crate::turns::REMOVE_ACTION);
                    names.push(crate::turns::REMOVE_OWN_ACTION);
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
            if actions.is_empty() && remove.is_none() && remove_own.is_none() {
                self.error_key(
                    &["phases", name],
                    Diagnostic::new(format!("phase `{name}` allows no action"))
                        .expected("`actions:` with at least one of place, slide, fly"),
                );
            }
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

    /// Ko, superko and the move-class history of board plays take the
    /// players to alternate, so the turn-order keys are refused with them.
    fn check_turn_order_without_plays(&mut self, phases: &[PhaseRule]) {
        for p in phases {
            let keys = [
                ("extra_turn", p.extra_turn.is_some()),
                ("first", p.first.is_some()),
            ];
            for (key, _) in keys.iter().filter(|(_, set)| *set) {
                self.error_key(
                    &["phases", &p.name, key],
                    Diagnostic::new(format!(
                        "`{key}` decides who moves next, but the board-play rules of this ruleset (ko, superko, move classes) take the players to alternate"
                    ))
                    .expected(format!("no `{key}` in a ruleset with a `play:` section")),
                );
            }
            let removals = [
                (crate::turns::REMOVE_ACTION, p.remove.is_some()),
                (crate::turns::REMOVE_OWN_ACTION, p.remove_own.is_some()),
            ];
            for (action, _) in removals.iter().filter(|(_, set)| *set) {
                self.error_key(
                    &["phases", &p.name, "actions", action],
                    Diagnostic::new(format!(
                        "a `{action}` action takes a piece off the board outside the board-play rules (ko, superko, captures) of this ruleset"
                    ))
                    .expected(format!("no `{action}` action in a ruleset with a `play:` section")),
                );
            }
        }
    }

    /// A phase's `extra_turn` (a condition) and `first` (a player), both
    /// read when a turn played in the phase ends.
    fn turn_order(
        &mut self,
        phase: &crate::schema::PhaseFile,
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

    /// The phases (deleted ones left out) in the order they are tried: as
    /// written, with each phase that says `before: NAME` moved ahead of
    /// NAME (a variant inserting a phase ahead of an inherited one).
    fn phase_order(&mut self) -> Vec<String> {
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

    fn line_rule(&mut self, env: RuleEnv<'_>) -> Option<LineRule> {
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
        if let Some(n) = removals.expr.as_const().filter(|n| *n < 0) {
            self.error_value(
                &["on_line_formed", "removals"],
                Diagnostic::new(format!(
                    "`on_line_formed.removals` is {n}: a number of pieces to remove cannot be negative"
                ))
                .expected("0 or more"),
            );
        }
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

    fn end_rules(&mut self, env: RuleEnv<'_>) -> Vec<EndRule> {
        let mut out: Vec<(EndRule, Option<String>)> = Vec::new();
        let count = self.loaded.file.end.as_ref().map_or(0, |e| e.len());
        let keep = self.limit(&["end"], count, crate::MAX_END_RULES, "end rules");
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

    /// An end rule with no verdict or several. Several may come from
    /// different files of an `extends` chain (the mappings merge): the
    /// error points at the verdict written in the most derived file (the
    /// later one within a file), and notes where the others are written.
    fn too_many_verdicts(&mut self, name: &str, verdicts: &[Verdict]) {
        let diag = Diagnostic::new(format!(
            "end rule `{name}` must say exactly one of `lose`, `win`, `draw`, `score`, `compare_captures`, `no_result`"
        ))
        .expected("`{ lose: \"condition\" }`, `{ win: … }`, `{ draw: … }`, `{ score: … }` or `{ no_result: … }`");
        let keys: Vec<(&str, crate::yaml::Pos)> = verdicts
            .iter()
            .filter_map(|v| {
                let node = self.loaded.node(&["end", name])?;
                let (k, _) = node.entry(v.key())?;
                Some((v.key(), k.pos))
            })
            .collect();
        // The root file is the first of the chain: the most derived.
        let Some(&(key, pos)) = keys
            .iter()
            .min_by_key(|(_, p)| (p.file, std::cmp::Reverse(p.start)))
        else {
            self.error_key(&["end", name], diag);
            return;
        };
        let mut diag = diag;
        for &(other, p) in keys.iter().filter(|(k, _)| *k != key) {
            if let Some(at) = self.loaded.location(p) {
                diag = diag.note(format!("`{other}` is written at {at}"));
            }
        }
        if keys.iter().any(|(_, p)| p.file != pos.file) {
            diag = diag.note(format!(
                "an inherited verdict stays unless the variant removes it: `{}: null`",
                keys.iter()
                    .find(|(_, p)| p.file != pos.file)
                    .map_or("lose", |(k, _)| k)
            ));
        }
        self.errors.push(diag.at_opt(self.loaded.location(pos)));
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
            self.error_key(&["play", "derived", name], error);
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
                let at = self.list_item(&["passes", "kinds"], k);
                self.errors.push(
                    Diagnostic::new(format!("`{k}` cannot name a pass kind"))
                        .expected(
                            "one upper-case letter other than N, C (those name board plays) and the derived classes",
                        )
                        .at_opt(at),
                );
            } else if kinds.contains(&letter[0]) {
                let at = self.list_item(&["passes", "kinds"], k);
                self.errors
                    .push(Diagnostic::new(format!("pass kind `{k}` is listed twice")).at_opt(at));
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
                .is_some_and(|c| matches!(c.kind, Some(crate::schema::CaptureKindFile::Leap)))
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
        let keep = self.limit(&["forbid"], count, crate::MAX_FORBID_RULES, "forbid rules");
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
            if moves.is_empty() && rule.moves.as_ref().is_none_or(|m| m.is_empty()) {
                self.error_key(
                    &["forbid", name],
                    Diagnostic::new(format!("forbid rule `{name}` forbids no move"))
                        .expected("`moves: [P, E]`, `moves: [slide]` or similar"),
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

    /// A forbid rule judged per candidate move cannot also ask whether a
    /// legal move exists (that answer is made of the per-move judgements);
    /// `run_length` needs the board's lines to give one direction per step.
    fn check_forbid_reads(
        &mut self,
        rule: &ForbidRule,
        topology: Option<&morrigo_board::Topology>,
        steps_checked: &mut bool,
    ) {
        let name = rule.name.as_str();
        if rule.when.uses(Prim::Target) && rule.moves.iter().any(|m| *m != MoveClass::Remove) {
            self.error_key(
                &["forbid", name, "when"],
                Diagnostic::new(format!(
                    "forbid rule `{name}` reads `target`, the piece a removal takes, but names moves that are not removals"
                ))
                .expected("`moves: [remove]` in a forbid rule reading `target`")
                .note("split it into two rules"),
            );
        }
        if rule.per_move() && rule.when.uses(Prim::NoLegalMove) {
            self.error_key(
                &["forbid", name, "when"],
                Diagnostic::new(format!(
                    "forbid rule `{name}` reads `no_legal_move` and is judged move by move"
                ))
                .expected(
                    "a forbid rule reading `no_legal_move` names only `play` and pass kinds and reads no value about the move being judged (`lines_formed`, `captures`, `run_length`, `to`, `from`, `direction`, …)",
                )
                .note("split it into two rules"),
            );
        }
        if !*steps_checked && rule.when.uses(Prim::RunLength) {
            *steps_checked = true;
            if let Some(Err(a)) = topology.map(crate::move_values::LineSteps::of) {
                let t = topology.expect("checked above");
                self.error_key(
                    &["forbid", name, "when"],
                    Diagnostic::new(format!(
                        "`run_length` needs one line direction per step, but the board's lines continue from {} through {} both to {} and to {}",
                        t.name(a.from),
                        t.name(a.via),
                        t.name(a.to[0]),
                        t.name(a.to[1])
                    ))
                    .expected("board lines that overlap only along one straight direction, or no `run_length`"),
                );
            }
        }
    }

    /// `captures:`: each a kind, the line directions it works along (every
    /// direction the board has when left out) and a condition. Refused
    /// where it could never capture: no lines, no direction of the board,
    /// no move that puts a piece on a point.
    fn capture_rules(
        &mut self,
        env: RuleEnv<'_>,
        phases: &[PhaseRule],
        topology: Option<&morrigo_board::Topology>,
        line_rule: Option<&crate::LineRule>,
    ) -> Vec<CaptureRule> {
        let Some(file) = self.loaded.file.captures.as_ref() else {
            return Vec::new();
        };
        let entries: Vec<(String, Option<&crate::schema::CaptureFile>)> =
            file.iter().map(|(n, c)| (n.clone(), c.as_ref())).collect();
        let keep = self.limit(
            &["captures"],
            entries.len(),
            crate::MAX_CAPTURE_RULES,
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
        rule: &crate::schema::CaptureFile,
        cx: &CaptureCx<'_>,
    ) -> Option<CaptureRule> {
        let at = self.loaded.key_at(&["captures", &name]);
        self.check_rule_name(&name, at, "a capture rule");
        if !cx.moves_a_piece {
            self.error_key(
                &["captures", &name],
                Diagnostic::new(format!(
                    "capture rule `{name}` follows moves that put a piece on a point, and no phase allows one"
                ))
                .expected("a `place`, `slide` or `fly` action, or no `captures`"),
            );
        }
        if cx.board_known && cx.board_dirs.is_empty() {
            self.error_key(
                &["captures", &name],
                Diagnostic::new(format!(
                    "capture rule `{name}` works along the board's lines, and the board has none"
                ))
                .expected(
                    "a board with lines (`lines:` of a grid, an explicit board), or no `captures`",
                ),
            );
        }
        let Some(kind) = rule.kind else {
            self.error_key(
                &["captures", &name],
                Diagnostic::new(format!("capture rule `{name}` has no `kind`"))
                    .expected("`kind: custodian`, `kind: intervention` or `kind: leap`"),
            );
            return None;
        };
        let kind = match kind {
            crate::schema::CaptureKindFile::Custodian => CaptureKind::Custodian,
            crate::schema::CaptureKindFile::Intervention => CaptureKind::Intervention,
            crate::schema::CaptureKindFile::Leap => CaptureKind::Leap,
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
        rule: &crate::schema::CaptureFile,
        kind: CaptureKind,
        line_rule: Option<&crate::LineRule>,
    ) -> crate::CaptureTake {
        use crate::schema::CaptureTakeFile;
        use crate::CaptureTake;
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

    /// The `eval:` section: each term given replaces the family default.
    fn eval(&mut self, board_plays: bool) -> Option<EvalWeights> {
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
    fn shapes(
        &mut self,
        topology: Option<&morrigo_board::Topology>,
        board_plays: bool,
    ) -> Option<std::sync::Arc<crate::shapes::ShapeTable>> {
        let given = self.loaded.file.playout.as_ref()?.shapes.as_ref()?;
        let grid = topology.is_some_and(|t| t.square_cells().is_some());
        if !grid || !board_plays {
            self.error_key(
                &["playout", "shapes"],
                Diagnostic::new(if board_plays {
                    "`playout.shapes` are read from the eight points around a point, and this board is not a square grid"
                } else {
                    "`playout.shapes` answer board plays, and this ruleset has none"
                })
                .expected("a square grid (`board: { grid: … }`) with a `play` action, or no `playout.shapes`"),
            );
            return None;
        }
        let items: Vec<(usize, Option<crate::yaml::Pos>)> = (0..given.len())
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
            match crate::shapes::Shape::parse(&file.rows, file.to_move.as_deref()) {
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
        Some(std::sync::Arc::new(crate::shapes::ShapeTable::compile(
            &shapes, names,
        )))
    }

    fn scoring(&mut self) -> Option<Scoring> {
        let s = self.loaded.file.scoring.as_ref()?;
        Some(Scoring {
            method: match s.method {
                None | Some(ScoringMethodFile::Area) => ScoringMethod::Area,
                Some(ScoringMethodFile::Jk) => ScoringMethod::Jk,
                Some(ScoringMethodFile::Territory) => ScoringMethod::Territory,
            },
            seki: match (s.seki, s.method) {
                (None | Some(SekiFile::Counted), _) => Seki::Counted,
                (Some(SekiFile::Nobody), Some(ScoringMethodFile::Territory)) => Seki::Nobody,
                (Some(SekiFile::Nobody), _) => {
                    // Only territory scoring reads seki; elsewhere it would do nothing.
                    self.error_value(
                        &["scoring", "seki"],
                        Diagnostic::new("`scoring.seki: nobody` applies to territory scoring only")
                            .expected("`method: territory`, or no `seki`"),
                    );
                    Seki::Counted
                }
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
            last_move_stone: match (s.last_move_stone, s.method) {
                (Some(true), None | Some(ScoringMethodFile::Area)) => {
                    // Area scoring counts stones and territory, never prisoners.
                    self.error_value(
                        &["scoring", "last_move_stone"],
                        Diagnostic::new(
                            "`scoring.last_move_stone` gives a pass stone, which area scoring does not count",
                        )
                        .expected("`method: jk` (territory + prisoners), or no `last_move_stone`"),
                    );
                    false
                }
                (v, _) => v.unwrap_or(false),
            },
            dead_stones: match s.dead_stones {
                None | Some(DeadStonesFile::None) => DeadStones::None,
                Some(DeadStonesFile::Agreement) => DeadStones::Agreement,
            },
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
}
