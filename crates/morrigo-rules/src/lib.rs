//! Ruleset files → checked, compiled [`Rules`].
//!
//! `load` reads YAML (the only module that does), `compile` resolves the
//! board, checks every rule expression against the [`vocab`] and produces
//! `Rules`: plain data with no text left to parse, ready for the engine.

pub mod builtin;
mod compile;
pub mod load;
pub mod schema;
pub mod vocab;

pub use compile::compile;
pub use vocab::{Context, Prim};

use morrigo_board::Topology;
use morrigo_diag::{Diagnostics, Location, SourceFile};
use morrigo_dsl::Expr;
use std::fmt;

/// Load and compile a ruleset by path or built-in name.
pub fn load_rules(spec: &str) -> Result<Rules, Diagnostics> {
    let loaded = load::load(spec)?;
    compile(&loaded)
}

/// Load and compile ruleset text held in memory.
pub fn rules_from_text(name: &str, text: &str) -> Result<Rules, Diagnostics> {
    let loaded = load::load_text(name, text)?;
    compile(&loaded)
}

/// A compiled rule expression with the text it came from.
#[derive(Clone, Debug)]
pub struct Cond {
    pub expr: Expr<Prim>,
    pub text: String,
    pub at: Option<Location>,
}

impl Cond {
    /// The expression is the constant `true` (or any non-zero constant).
    pub fn is_always(&self) -> bool {
        self.expr.as_const().is_some_and(|v| v != 0)
    }

    pub fn uses(&self, prim: Prim) -> bool {
        let mut found = false;
        self.expr.for_each_symbol(&mut |p| found |= *p == prim);
        found
    }
}

/// The kinds of action a phase may allow. Each is a built-in primitive of the
/// engine; rulesets choose them and guard them with conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// Put a piece from hand on an empty point.
    Place,
    /// Move an own piece along an edge to an adjacent empty point.
    Slide,
    /// Move an own piece to any empty point.
    Fly,
}

impl ActionKind {
    pub const ALL: [ActionKind; 3] = [ActionKind::Place, ActionKind::Slide, ActionKind::Fly];

    pub fn name(self) -> &'static str {
        match self {
            ActionKind::Place => "place",
            ActionKind::Slide => "slide",
            ActionKind::Fly => "fly",
        }
    }
}

#[derive(Clone, Debug)]
pub struct ActionRule {
    pub kind: ActionKind,
    pub guard: Cond,
}

#[derive(Clone, Debug)]
pub struct PhaseRule {
    pub name: String,
    /// `None`: the phase applies whenever no earlier phase does.
    pub when: Option<Cond>,
    pub actions: Vec<ActionRule>,
}

/// What completing a line through the moved piece does.
#[derive(Clone, Debug)]
pub struct LineRule {
    /// Number of removals owed (may use `lines_formed`).
    pub removals: Cond,
    /// Whether the opposing piece on `target` may be removed.
    pub removable: Cond,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The player to move loses.
    Lose,
    /// The player to move wins.
    Win,
    Draw,
}

#[derive(Clone, Debug)]
pub struct EndRule {
    pub name: String,
    pub verdict: Verdict,
    pub when: Cond,
    pub doc: Option<String>,
}

/// A compiled ruleset.
#[derive(Clone, Debug)]
pub struct Rules {
    pub name: String,
    pub title: String,
    pub description: Option<String>,
    /// The file and its `extends` ancestors, the file first.
    pub sources: Vec<SourceFile>,
    pub topology: Topology,
    pub players: Vec<String>,
    pub in_hand: u32,
    pub params: Vec<(String, i64)>,
    pub phases: Vec<PhaseRule>,
    pub line_rule: Option<LineRule>,
    pub end: Vec<EndRule>,
}

impl Rules {
    /// Does any rule read this primitive? (The engine skips tracking what no
    /// rule reads.)
    pub fn uses(&self, prim: Prim) -> bool {
        self.conds().any(|c| c.uses(prim))
    }

    pub fn conds(&self) -> impl Iterator<Item = &Cond> {
        let phase_conds = self
            .phases
            .iter()
            .flat_map(|p| p.when.iter().chain(p.actions.iter().map(|a| &a.guard)));
        let line = self
            .line_rule
            .iter()
            .flat_map(|l| [&l.removals, &l.removable]);
        phase_conds
            .chain(line)
            .chain(self.end.iter().map(|e| &e.when))
    }

    pub fn phase_index(&self, name: &str) -> Option<usize> {
        self.phases.iter().position(|p| p.name == name)
    }
}

/// A readable summary of the compiled rules (`morrigo show`, snapshots).
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "ruleset {} — {}", self.name, self.title)?;
        let chain: Vec<&str> = self.sources.iter().map(|s| &*s.name).collect();
        writeln!(f, "  from: {}", chain.join(" ← "))?;
        let t = &self.topology;
        writeln!(
            f,
            "  board: {} points, {} edges, {} lines",
            t.len(),
            t.edge_count(),
            t.lines.len()
        )?;
        writeln!(
            f,
            "  players: {} (first to move: {})",
            self.players.join(", "),
            self.players[0]
        )?;
        writeln!(f, "  in hand at start: {} each", self.in_hand)?;
        if !self.params.is_empty() {
            let ps: Vec<String> = self
                .params
                .iter()
                .map(|(n, v)| format!("{n} = {v}"))
                .collect();
            writeln!(f, "  params: {}", ps.join(", "))?;
        }
        writeln!(f, "  phases (first that applies):")?;
        for p in &self.phases {
            match &p.when {
                Some(w) => writeln!(f, "    {} when {}", p.name, w.text)?,
                None => writeln!(f, "    {} otherwise", p.name)?,
            }
            for a in &p.actions {
                if a.guard.is_always() {
                    writeln!(f, "      {}", a.kind.name())?;
                } else {
                    writeln!(f, "      {} if {}", a.kind.name(), a.guard.text)?;
                }
            }
        }
        match &self.line_rule {
            Some(l) => {
                writeln!(f, "  on line formed: remove {} piece(s)", l.removals.text)?;
                writeln!(f, "    removable: {}", l.removable.text)?;
            }
            None => writeln!(f, "  on line formed: nothing")?,
        }
        writeln!(f, "  end rules (checked in order at each turn):")?;
        for e in &self.end {
            let v = match e.verdict {
                Verdict::Lose => "player to move loses",
                Verdict::Win => "player to move wins",
                Verdict::Draw => "draw",
            };
            writeln!(f, "    {}: {v} if {}", e.name, e.when.text)?;
        }
        Ok(())
    }
}
