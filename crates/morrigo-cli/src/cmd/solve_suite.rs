//! `compare --solve SUITE.yaml`: a suite of positions that rules texts use
//! to tell rule sets apart, each solved exactly under every rule set the
//! suite names, in one table (position by rule set) with the lines.
//!
//! Each position is a board size, stones set up at the start (no history
//! before them), a komi and a move record played from there. A position
//! under a rule set is that rule set with the board, stones and komi laid
//! over it (`extends`), so the rules are the built-in's own.

use super::solve_history::{self, short_value, HistorySearch};
use crate::fail::{Failure, Outcome};
use crate::game;
use morrigo_diag::{Diagnostic, Diagnostics, Location};
use morrigo_engine::notation::format_move_in;
use morrigo_engine::{with_machine, Game};
use morrigo_rules::load::Overrides;
use morrigo_solve::history::{Limits, SolveError, DEFAULT_MAX_PLIES};
use serde::Deserialize;
use std::io::Write;

/// A suite file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    pub name: String,
    /// The rule sets every position is solved under (built-in names or files).
    pub rulesets: Vec<String>,
    /// Prove each cell's value and best line only, not the value of every
    /// first move (`solve --value-only`): far cheaper where a capture
    /// opens a region both sides can play in.
    #[serde(default)]
    pub value_only: bool,
    pub positions: Vec<SuitePosition>,
}

/// One position of a suite.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuitePosition {
    pub name: String,
    /// Where the position comes from (a rules text, a figure, a page).
    pub source: String,
    /// `WxH` (`7x2`), or `N` for a square board, each side 1 to 25.
    pub board: String,
    #[serde(default)]
    pub komi: f64,
    /// Stones at the start, by point name.
    #[serde(default)]
    pub black: Vec<String>,
    #[serde(default)]
    pub white: Vec<String>,
    /// `black` (the default) or `white`.
    #[serde(default)]
    pub to_move: Option<String>,
    /// A move record played from the set-up position before solving.
    #[serde(default)]
    pub moves: String,
    /// The suite file's line that starts this position (1-based; for
    /// messages), and that line's text.
    #[serde(skip)]
    line: usize,
    #[serde(skip)]
    line_text: String,
}

impl SuitePosition {
    /// The line of the suite file that starts this position, for messages.
    fn location(&self, path: &str) -> Location {
        Location {
            file: path.into(),
            line: self.line,
            col: 1,
            source_line: (!self.line_text.is_empty()).then(|| self.line_text.as_str().into()),
        }
    }
}

/// The suite in `path`, if the file is one (a YAML mapping with a
/// `positions` key); a suite that does not read is an error.
pub fn read(path: &str) -> Result<Option<Suite>, Failure> {
    if !path.ends_with(".yaml") && !path.ends_with(".yml") {
        return Ok(None);
    }
    // Read within the input limit; a file that does not read is left to
    // the ruleset loader, whose message says why.
    let Ok(text) = morrigo_diag::read_input(std::path::Path::new(path)) else {
        return Ok(None);
    };
    let is_suite = serde_yaml::from_str::<serde_yaml::Value>(&text)
        .ok()
        .and_then(|v| v.as_mapping().map(|m| m.contains_key("positions")))
        .unwrap_or(false);
    if !is_suite {
        return Ok(None);
    }
    let mut suite: Suite = serde_yaml::from_str(&text).map_err(|e| {
        let at = e
            .location()
            .map_or(String::new(), |l| format!(":{}:{}", l.line(), l.column()));
        Failure::Game(Diagnostics(vec![Diagnostic::new(format!(
            "{path}{at}: not a suite of positions: {e}"
        ))
        .expected(
            "`name`, `rulesets` and `positions` (each with `name`, `source`, `board`)".to_string(),
        )]))
    })?;
    if suite.rulesets.is_empty() {
        return Err(Failure::Game(Diagnostics(vec![Diagnostic::new(format!(
            "{path}: suite `{}` names no rule set",
            suite.name
        ))
        .expected(
            "`rulesets: [...]` with at least one built-in name or file".to_string(),
        )])));
    }
    // Each position starts at the first `- name:` line naming it after the
    // previous one (serde_yaml keeps no spans past the parse).
    let lines: Vec<&str> = text.lines().collect();
    let mut from = 0;
    for p in &mut suite.positions {
        if let Some(i) = (from..lines.len()).find(|&i| {
            let l = lines[i].trim_start();
            l.starts_with("- name:") && l.contains(p.name.as_str())
        }) {
            p.line = i + 1;
            p.line_text = lines[i].to_string();
            from = i + 1;
        }
    }
    Ok(Some(suite))
}

/// The rule set `ruleset` with the position's board, stones and komi. The
/// rules are built from a small ruleset text over the built-in; its
/// messages are moved to the position's line in the suite file.
fn position_rules(
    path: &str,
    ruleset: &str,
    p: &SuitePosition,
) -> Result<morrigo_rules::Rules, Diagnostics> {
    let at = p.location(path);
    let in_suite = |d: Diagnostic| Diagnostic {
        location: Some(at.clone()),
        message: format!("position `{}` under {ruleset}: {}", p.name, d.message),
        ..d
    };
    // The board size is read as `--size` reads it (WxH, or N for NxN).
    let (w, h) = Overrides::parse_size(&p.board).map_err(|why| {
        Diagnostics(vec![in_suite(
            Diagnostic::new(format!("board `{}`: {why}", p.board)).expected("`WxH`, such as `3x2`"),
        )])
    })?;
    let list = |v: &[String]| v.join(", ");
    let text = format!(
        "name: {ruleset}\nextends: {ruleset}\nboard:\n  grid: {{ width: {w}, height: {h}, naming: gtp }}\n\
         setup:\n  in_hand: unlimited\n  stones:\n    black: [{}]\n    white: [{}]\n  to_move: {}\n\
         scoring:\n  komi: {}\n",
        list(&p.black),
        list(&p.white),
        p.to_move.as_deref().unwrap_or("black"),
        p.komi
    );
    morrigo_rules::rules_from_text(&format!("{} under {ruleset}", p.name), &text)
        .map_err(|ds| Diagnostics(ds.0.into_iter().map(in_suite).collect()))
}

/// One cell: the outcome under best play, and the line (or why the
/// position does not apply). A position that does not build under a rule
/// set (an unknown point, a board the rule set refuses) is an error naming
/// the suite, the position and the rule set, never a silent blank.
fn solve_cell(
    path: &str,
    ruleset: &str,
    p: &SuitePosition,
    limits: &Limits,
    value_only: bool,
) -> Result<(String, String), Failure> {
    let rules = position_rules(path, ruleset, p)?;
    let played = Game::from(game::machine_of(rules)?);
    with_machine!(played.machine().as_ref(), m => {
        let record = (!p.moves.trim().is_empty()).then_some(p.moves.as_str());
        // A record this rule set cannot play (a pass kind it lacks) makes
        // the position not apply; the lines say why.
        let start = match game::start(&played, record) {
            Ok(s) => s,
            Err(d) => return Ok(("-".to_string(), format!("does not apply: {}", d.message))),
        };
        let clock = std::time::Instant::now();
        let (solved, _) = solve_history::solve(m, &start, limits, HistorySearch::Table { every_first_move: !value_only }, &mut |_| {});
        let rules = &m.rules;
        // Progress on stderr: a suite can take minutes, and the table
        // comes at the end.
        let nodes = match &solved {
            Ok(r) => r.nodes,
            Err(SolveError::Budget { nodes, .. }) => *nodes,
            Err(_) => 0,
        };
        eprintln!("{} under {ruleset}: {nodes} nodes, {:.2} s", p.name, clock.elapsed().as_secs_f64());
        Ok(match solved {
            Ok(r) => {
                let mut cell = match r.bounds {
                    Some((lo, hi)) => format!("{} to {}", short_value(rules, lo), short_value(rules, hi)),
                    None => short_value(rules, r.value),
                };
                if let (true, Some(o)) = (r.exact(), r.end) {
                    if o.is_no_result(rules) {
                        cell = format!("no result ({})", o.rule_name(rules));
                    } else if r.final_score.is_none() {
                        cell = format!("{cell} ({})", o.rule_name(rules));
                    }
                }
                let line: Vec<String> = r.line.iter().map(|mv| format_move_in(rules, mv)).collect();
                let line = if line.is_empty() { "(no move)".to_string() } else { line.join(" ") };
                (cell, line)
            }
            Err(SolveError::Budget { nodes, .. }) => {
                ("node budget reached".to_string(), format!("stopped after {nodes} nodes"))
            }
            Err(SolveError::TooBig(e)) => (
                "too big".to_string(),
                format!("refused: about {:.1e} nodes", e.search),
            ),
            Err(SolveError::Memory(e)) => return Err(Failure::game(Diagnostic::new(format!(
                "{path}: position `{}` under {ruleset}: {e}",
                p.name
            )))),
        })
    })
}

/// The suite's table and lines.
pub fn suite_table(path: &str, suite: &Suite, max_nodes: u64) -> Result<String, Failure> {
    let limits = Limits {
        max_nodes,
        max_plies: DEFAULT_MAX_PLIES,
        ..Limits::default()
    };
    let mut header = vec!["position".to_string()];
    header.extend(suite.rulesets.iter().cloned());
    let mut table = vec![header];
    let mut lines = String::new();
    for p in &suite.positions {
        let mut row = vec![p.name.clone()];
        lines += &format!(
            "\n{} ({}; {}, komi {}):\n",
            p.name, p.source, p.board, p.komi
        );
        let mut why_not = None;
        for ruleset in &suite.rulesets {
            let (cell, line) = solve_cell(path, ruleset, p, &limits, suite.value_only)?;
            if cell == "-" {
                why_not.get_or_insert_with(|| format!("{ruleset}: {line}"));
            }
            lines += &format!("  {ruleset}: {cell}: {line}\n");
            row.push(cell);
        }
        // A record no rule set of the suite can play is a mistake in the
        // suite (a move misspelt, a stone forgotten), not a row of dashes.
        if row[1..].iter().all(|cell| cell == "-") {
            return Err(Failure::Game(Diagnostics(vec![Diagnostic::new(format!(
                "position `{}` applies under none of the suite's rule sets ({})",
                p.name,
                why_not.unwrap_or_default()
            ))
            .at(p.location(path))
            .expected("a move record at least one of the suite's rule sets can play (`-` marks the others)".to_string())])));
        }
        table.push(row);
    }
    Ok(format!(
        "{}: outcome under best play (B+n: black wins by n; `-`: the position does not apply)\n\n{}\nperfect play from each position:\n{lines}",
        suite.name,
        solve_history::markdown(&table)
    ))
}

/// `compare --solve SUITE.yaml`.
pub fn run(path: &str, suite: &Suite, max_nodes: u64) -> Outcome {
    let text = suite_table(path, suite, max_nodes)?;
    write!(std::io::stdout().lock(), "{text}")?;
    Ok(())
}
