//! The ruleset file format, as serde types. Every field is optional here so
//! that one type describes both a complete ruleset and a variant that only
//! states what differs from its parent; required fields are checked after the
//! `extends` chain is merged.

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetFile {
    pub name: Option<String>,
    /// Parent ruleset: a built-in name or a path relative to this file.
    pub extends: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub board: Option<BoardFile>,
    /// Player names; the first moves first.
    pub players: Option<Vec<String>>,
    /// Named numbers the rules refer to (`min_pieces: 3`).
    pub params: Option<IndexMap<String, Option<i64>>>,
    pub setup: Option<SetupFile>,
    /// Ordered; the current phase is the first whose `when` holds.
    pub phases: Option<IndexMap<String, Option<PhaseFile>>>,
    /// What completing a line does.
    pub on_line_formed: Option<LineRuleFile>,
    /// Ordered end rules, checked at the start of each turn.
    pub end: Option<IndexMap<String, Option<EndRuleFile>>>,
}

/// Exactly one of the three ways to give a board. A struct rather than an
/// enum so that a variant can change one generator field (`rings: 2`) and
/// inherit the rest through the merge.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardFile {
    pub nested_squares: Option<NestedSquaresFile>,
    pub grid: Option<GridFile>,
    pub explicit: Option<ExplicitFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NestedSquaresFile {
    pub rings: u32,
    #[serde(default = "yes")]
    pub midpoint_links: bool,
    #[serde(default)]
    pub corner_diagonals: bool,
    #[serde(default = "three")]
    pub line_length: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridFile {
    pub width: u32,
    pub height: u32,
    #[serde(default)]
    pub diagonals: bool,
    #[serde(default)]
    pub naming: NamingFile,
    /// Length of the lines (runs of consecutive points) that count; none for Go.
    pub lines: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplicitFile {
    pub nodes: Vec<NodeFile>,
    #[serde(default)]
    pub edges: Vec<[String; 2]>,
    #[serde(default)]
    pub lines: Vec<Vec<String>>,
}

fn yes() -> bool {
    true
}

fn three() -> u32 {
    3
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NamingFile {
    #[default]
    Algebraic,
    Gtp,
}

/// A node: `a1` or `{ name: a1, at: [0, 0] }`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum NodeFile {
    Name(String),
    Placed { name: String, at: [i32; 2] },
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupFile {
    /// Pieces each player holds in hand at the start.
    pub in_hand: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhaseFile {
    /// When this phase applies to the player to move; absent = always.
    pub when: Option<Text>,
    /// Action kind → condition under which it is allowed (`true` = always).
    pub actions: Option<IndexMap<String, Option<Text>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineRuleFile {
    /// How many opposing pieces the mover removes (a number expression).
    pub removals: Option<Text>,
    /// Which opposing piece (`target`) may be removed.
    pub removable: Option<Text>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndRuleFile {
    /// The player to move loses when this holds.
    pub lose: Option<Text>,
    /// The player to move wins when this holds.
    pub win: Option<Text>,
    /// The game is drawn when this holds.
    pub draw: Option<Text>,
    /// Check this rule before the named one (for variants that add a rule).
    pub before: Option<String>,
    /// One line saying what the rule is, shown in transcripts.
    pub doc: Option<String>,
}

/// DSL text; YAML scalars `true`, `3` are accepted as the text they spell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text(pub String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Scalar {
            Bool(bool),
            Int(i64),
            Str(String),
        }
        let text = match Scalar::deserialize(d).map_err(|_| {
            serde::de::Error::custom("expected a rule expression (text, true/false or a number)")
        })? {
            Scalar::Bool(b) => b.to_string(),
            Scalar::Int(n) => n.to_string(),
            Scalar::Str(s) => s,
        };
        Ok(Text(text))
    }
}
