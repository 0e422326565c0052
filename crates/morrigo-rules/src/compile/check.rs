//! The checks of a ruleset across its keys and sections: on the merged,
//! located tree and on what lowering produced. They report, never lower.

use super::Compiler;
use crate::move_values::LineSteps;
use crate::turns::{REMOVE_ACTION, REMOVE_OWN_ACTION};
use crate::vocab::{Prim, VOCABULARY};
use crate::yaml::Pos;
use crate::MAX_POINTS;
use crate::{
    ActionKind, Cond, EndRule, ForbidRule, LineRule, MoveClass, Passes, PhaseRule, PlayRule, Rules,
    Scoring, Start, Verdict,
};
use morrigo_diag::{did_you_mean, Diagnostic, Location};
use std::collections::HashMap;

/// Words of the rule language, which no name may take.
const RESERVED_WORDS: &[&str] = &[
    "and", "or", "not", "true", "false", "if", "then", "else", "min", "max",
];

/// The phase name transcripts and scenario files give a pending removal.
const REMOVAL_PHASE: &str = "remove";

impl Compiler<'_> {
    /// Params, players and phases share one namespace in expressions.
    pub(super) fn check_clashes(&mut self, players: &[String], params: &[(String, i64)]) {
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

    /// Names of players, params, phases and rules are written in rule
    /// expressions and transcripts: one word, not a word of the language.
    pub(super) fn check_new_name(&mut self, name: &str, pos: Option<Pos>, what: &str) {
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

    /// Rule names are shown in transcripts and explanations, not written in
    /// expressions: one word.
    pub(super) fn check_rule_name(&mut self, name: &str, at: Option<Location>, what: &str) {
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

    /// The engine's widest machine holds `MAX_POINTS` points: a larger
    /// board is refused here, where its place in the file is known.
    pub(super) fn engine_runs_board(&mut self, points: usize) -> bool {
        if points <= MAX_POINTS {
            return true;
        }
        self.error_key(
            &["board"],
            Diagnostic::new(format!(
                "a board of {points} points is larger than the engine can run"
            ))
            .expected(format!(
                "at most {} points (the board-size limit; a 25×25 grid)",
                MAX_POINTS
            )),
        );
        false
    }

    /// `passes.stones` gives stones with passes, so it needs pass kinds.
    pub(super) fn check_pass_stones_have_kinds(&mut self, has_kinds: bool, stones_given: bool) {
        if !has_kinds && stones_given {
            self.error_key(
                &["passes", "stones"],
                Diagnostic::new("`passes.stones` is given, but the ruleset has no pass kinds")
                    .expected("`passes.kinds`, e.g. `[P]`"),
            );
        }
    }

    /// A phase's name: not the one records give a pending removal, and a
    /// name expressions can write.
    pub(super) fn check_phase_name(&mut self, name: &str, at: Option<Pos>) {
        if name == REMOVAL_PHASE {
            self.errors.push(
                Diagnostic::new(format!(
                    "`{REMOVAL_PHASE}` cannot be the name of a phase: transcripts and scenario files call a pending removal that"
                ))
                .at_opt(at.and_then(|p| self.loaded.location(p)))
                .expected("another phase name"),
            );
        }
        self.check_new_name(name, at, "a phase");
    }

    /// Only the last phase may go without `when`: the phases after one
    /// that always applies would never be tried.
    pub(super) fn check_phase_reachable(&mut self, name: &str, has_when: bool, last: bool) {
        if !has_when && !last {
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
    }

    /// A phase allows at least one action.
    pub(super) fn check_phase_allows_actions(&mut self, name: &str, allows_any: bool) {
        if !allows_any {
            self.error_key(
                &["phases", name],
                Diagnostic::new(format!("phase `{name}` allows no action"))
                    .expected("`actions:` with at least one of place, slide, fly"),
            );
        }
    }

    /// Every move an action allows has the rules it needs, and every move
    /// rule has a move it applies to.
    pub(super) fn check_moves_have_rules(
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

    /// Ko, superko and the move-class history of board plays take the
    /// players to alternate, so the turn-order keys are refused with them.
    pub(super) fn check_turn_order_without_plays(&mut self, phases: &[PhaseRule]) {
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
                (REMOVE_ACTION, p.remove.is_some()),
                (REMOVE_OWN_ACTION, p.remove_own.is_some()),
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

    /// A constant number of line removals is never negative.
    pub(super) fn check_removals_not_negative(&mut self, removals: &Cond) {
        if let Some(n) = removals.expr.as_const().filter(|n| *n < 0) {
            self.error_value(
                &["on_line_formed", "removals"],
                Diagnostic::new(format!(
                    "`on_line_formed.removals` is {n}: a number of pieces to remove cannot be negative"
                ))
                .expected("0 or more"),
            );
        }
    }

    pub(super) fn check_line_rule_has_lines(
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

    pub(super) fn check_repetition_has_plays(&mut self, play: Option<&PlayRule>) {
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
    pub(super) fn check_records_can_mark_removals(
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

    /// A forbid rule names at least one move (`forbids_none`: it names
    /// none, not even one refused).
    pub(super) fn check_forbid_names_moves(&mut self, name: &str, forbids_none: bool) {
        if forbids_none {
            self.error_key(
                &["forbid", name],
                Diagnostic::new(format!("forbid rule `{name}` forbids no move"))
                    .expected("`moves: [P, E]`, `moves: [slide]` or similar"),
            );
        }
    }

    /// A forbid rule judged per candidate move cannot also ask whether a
    /// legal move exists (that answer is made of the per-move judgements);
    /// `run_length` needs the board's lines to give one direction per step.
    pub(super) fn check_forbid_reads(
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
            if let Some(Err(a)) = topology.map(LineSteps::of) {
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

    /// A capture rule follows a move that puts a piece on a point, along
    /// the board's lines: refused where there is neither.
    pub(super) fn check_capture_can_apply(
        &mut self,
        name: &str,
        moves_a_piece: bool,
        board_has_no_lines: bool,
    ) {
        if !moves_a_piece {
            self.error_key(
                &["captures", name],
                Diagnostic::new(format!(
                    "capture rule `{name}` follows moves that put a piece on a point, and no phase allows one"
                ))
                .expected("a `place`, `slide` or `fly` action, or no `captures`"),
            );
        }
        if board_has_no_lines {
            self.error_key(
                &["captures", name],
                Diagnostic::new(format!(
                    "capture rule `{name}` works along the board's lines, and the board has none"
                ))
                .expected(
                    "a board with lines (`lines:` of a grid, an explicit board), or no `captures`",
                ),
            );
        }
    }

    /// An end rule with no verdict or several. Several may come from
    /// different files of an `extends` chain (the mappings merge): the
    /// error points at the verdict written in the most derived file (the
    /// later one within a file), and notes where the others are written.
    pub(super) fn too_many_verdicts(&mut self, name: &str, verdicts: &[Verdict]) {
        let diag = Diagnostic::new(format!(
            "end rule `{name}` must say exactly one of `lose`, `win`, `draw`, `score`, `compare_captures`, `no_result`"
        ))
        .expected("`{ lose: \"condition\" }`, `{ win: … }`, `{ draw: … }`, `{ score: … }` or `{ no_result: … }`");
        let keys: Vec<(&str, Pos)> = verdicts
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

    /// The rules `play` and `repetition` add come first; a ruleset's own
    /// end rule may not take one of their names.
    pub(super) fn check_end_names_unique(&mut self, end: &[EndRule]) {
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

    pub(super) fn check_score_has_scoring(&mut self, end: &[EndRule], scoring: Option<&Scoring>) {
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

    /// `playout.shapes` are read around a point of a square grid, for
    /// board plays: whether they apply (refused where not).
    pub(super) fn check_shapes_apply(&mut self, square_grid: bool, board_plays: bool) -> bool {
        if square_grid && board_plays {
            return true;
        }
        self.error_key(
            &["playout", "shapes"],
            Diagnostic::new(if board_plays {
                "`playout.shapes` are read from the eight points around a point, and this board is not a square grid"
            } else {
                "`playout.shapes` answer board plays, and this ruleset has none"
            })
            .expected("a square grid (`board: { grid: … }`) with a `play` action, or no `playout.shapes`"),
        );
        false
    }

    /// With board plays, every chain of set-up stones needs a liberty (a
    /// chain without one would have been captured).
    pub(super) fn check_start_liberties(
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

    /// `on_line_formed.delay` and `from_hand` need a board without board
    /// plays and a counted hand.
    pub(super) fn check_line_rule_fits_play_and_hand(
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
    pub(super) fn check_lines_formed_in(&mut self, rules: &Rules) {
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

    /// Entries a variant adds whose names are close to an inherited one
    /// (`movng:` next to the parent's `moving:`): likely misspellings, the
    /// probable cause when the merged ruleset does not compile.
    pub(super) fn misspelt_inherited_keys(&self) -> Vec<Diagnostic> {
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
}
