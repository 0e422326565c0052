//! The ruleset file format, as serde types. Every field is optional here so
//! that one type describes both a complete ruleset and a variant that only
//! states what differs from its parent; required fields are checked after the
//! `extends` chain is merged.

use indexmap::IndexMap;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::borrow::Cow;
use std::fmt;

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(
    title = "Morrigo ruleset",
    description = "A Morris-family or Go-style game as data: its board, pieces, phases and rules (see the README's ruleset reference). `morrigo check FILE` checks what this schema cannot: expressions, names and ranges."
)]
pub struct RulesetFile {
    pub name: Option<String>,
    /// Parent ruleset: a built-in name or a path relative to this file.
    pub extends: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub board: Option<BoardFile>,
    /// Player names; the first moves first.
    pub players: Option<Vec<String>>,
    /// Named numbers the rules refer to: `min_pieces: 3`, or with the
    /// range `check` enforces, `fly_at: { value: 3, min: 0, max: 9 }`.
    pub params: Option<IndexMap<String, Option<ParamFile>>>,
    pub setup: Option<SetupFile>,
    /// Ordered; the current phase is the first whose `when` holds.
    pub phases: Option<IndexMap<String, Option<PhaseFile>>>,
    /// What completing a line does.
    pub on_line_formed: Option<LineRuleFile>,
    /// Ordered end rules, checked at the start of each turn.
    pub end: Option<IndexMap<String, Option<EndRuleFile>>>,
    /// Board plays (Go family): captures, suicide, ko-capture classification.
    pub play: Option<PlayFile>,
    /// Pass kinds (one upper-case letter each) and pass stones.
    pub passes: Option<PassesFile>,
    /// Named rules forbidding moves of some kinds when a condition holds.
    pub forbid: Option<IndexMap<String, Option<ForbidFile>>>,
    /// Named captures a move makes by itself (not earned by a line):
    /// custodian or intervention along lines of chosen directions.
    pub captures: Option<IndexMap<String, Option<CaptureFile>>>,
    /// Repetition of board states (Go family).
    pub repetition: Option<RepetitionFile>,
    /// How a game ended by a `score` rule or by agreement is counted.
    pub scoring: Option<ScoringFile>,
    /// Weights of the alpha-beta agent's evaluation, each a whole number.
    pub eval: Option<crate::EvalTerms<Option<i64>>>,
    /// Knowledge the Monte Carlo playouts play by.
    pub playout: Option<PlayoutFile>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayoutFile {
    /// 3×3 shapes worth playing next to the last board play (square grids).
    pub shapes: Option<Vec<ShapeFile>>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShapeFile {
    /// What the shape is called (shown by `show`).
    pub name: Option<String>,
    /// Nine cells, three rows from the top: `X`, `O`, `.`, `#`, `x`, `o`, `?`.
    pub rows: String,
    /// `X` or `O`: the shape is played only by the owner of those stones.
    pub to_move: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayFile {
    /// What a board play that leaves a chain of the mover without liberty does.
    pub suicide: Option<SuicideFile>,
    /// `jk`: a play is a ko capture (C) when, before removals, each side has
    /// exactly one libertyless single-stone chain (JK Art. 2.5); `none`: all N.
    pub ko_capture: Option<KoCaptureFile>,
    /// Derived move classes history patterns may name, by letter:
    /// `D: { ko_runs: any }`.
    pub derived: Option<IndexMap<String, Option<DerivedFile>>>,
}

/// The definition of a derived move class.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DerivedFile {
    /// A run of ko captures of even length ≥ 4 whose last capture takes the
    /// stone placed by the first: `any` (4, 6, 8, …) or `four_or_six`.
    pub ko_runs: Option<DRunsFile>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SuicideEffectFile {
    /// The mover loses (JK Art. 2.4).
    Lose,
    /// The play is not allowed.
    Illegal,
    /// The play stands and the mover's libertyless chain is removed.
    Remove,
}

/// `lose`, `illegal`, `legal`, or `{ single: …, multi: … }` per chain size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuicideFile {
    Both(SuicideShorthand),
    Split {
        single: SuicideEffectFile,
        multi: SuicideEffectFile,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SuicideShorthand {
    Lose,
    Illegal,
    Legal,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum KoCaptureFile {
    Jk,
    None,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DRunsFile {
    Any,
    FourOrSix,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PassesFile {
    /// Pass kinds, one upper-case letter each (`[P, E]`).
    pub kinds: Option<Vec<String>>,
    /// Pass stones the passer gives the opponent.
    pub stones: Option<u32>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForbidFile {
    /// Move kinds forbidden: pass kind letters and/or `play`.
    pub moves: Option<Vec<String>>,
    /// When they are forbidden.
    pub when: Option<Text>,
    pub doc: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaptureFile {
    /// `custodian` (the moved piece and another own piece flank one
    /// opposing piece) or `intervention` (the moved piece lands between two
    /// opposing pieces) or `leap` (a move of its own: an own piece jumps
    /// over an adjacent opposing piece to the empty point beyond).
    pub kind: Option<CaptureKindFile>,
    /// Line directions it works along (`side`, `cross`, `diagonal`,
    /// `horizontal`, `vertical`); every direction when left out.
    pub directions: Option<Vec<String>>,
    /// When it applies, judged for the mover before the move.
    pub when: Option<Text>,
    /// How the captured pieces leave: `all` at once (the default),
    /// `choose` as removals the player makes (and chooses against a
    /// line's removals), `choose_one` one flanked piece so.
    pub take: Option<CaptureTakeFile>,
    pub doc: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaptureTakeFile {
    All,
    Choose,
    ChooseOne,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaptureKindFile {
    Custodian,
    Intervention,
    Leap,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RepetitionFile {
    /// A board play that is an immediate repetition (see
    /// `immediate_reading`): `lose`, `illegal` or `allowed`.
    pub immediate: Option<ImmediateFile>,
    /// What `immediate` judges: `simple_ko` (the board as it stood before
    /// the opponent's last move, a board play) or `jk` (JK Art. 3.2: the
    /// board after the move two back, both moves board plays).
    pub immediate_reading: Option<ImmediateReadingFile>,
    /// Board plays recreating an earlier board are illegal: `positional`
    /// (any earlier board), `situational` (same player to move), or `none`.
    pub superko: Option<SuperkoFile>,
    /// When a board state occurs for the `count`-th time as the result of a
    /// board play: `captures` (JK Art. 3.3: more captured prisoners since the
    /// first occurrence wins, else draw), `draw`, or `off`.
    pub repeated_board: Option<RepeatedFile>,
    pub count: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImmediateFile {
    Lose,
    Illegal,
    Allowed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImmediateReadingFile {
    SimpleKo,
    Jk,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SuperkoFile {
    None,
    Positional,
    Situational,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RepeatedFile {
    Off,
    Captures,
    Draw,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoringFile {
    /// `jk`: territory by reachability + all prisoners (JK Art. 5);
    /// `area`: stones + empty points reaching only one colour (Tromp-Taylor).
    pub method: Option<ScoringMethodFile>,
    /// Points added to the second player's score.
    pub komi: Option<f64>,
    /// JK Art. 4.4: if the first player made the last move, the second gives
    /// one more pass stone.
    pub last_move_stone: Option<bool>,
    /// Territory scoring: `counted` (a region bordered by one colour is its
    /// territory) or `nobody` (regions bordered by a chain in seki are not:
    /// see `Seki::Nobody`).
    pub seki: Option<SekiFile>,
    /// `agreement`: at the end the players name the dead stones, removed
    /// before counting (a referee plays a clean-up when they disagree);
    /// `none` (default): no stone is dead, the board counts as it stands.
    pub dead_stones: Option<DeadStonesFile>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeadStonesFile {
    None,
    Agreement,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SekiFile {
    Counted,
    Nobody,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ScoringMethodFile {
    Jk,
    Area,
    Territory,
}

/// Exactly one of the three ways to give a board. A struct rather than an
/// enum so that a variant can change one generator field (`rings: 2`) and
/// inherit the rest through the merge.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardFile {
    pub nested_squares: Option<NestedSquaresFile>,
    pub grid: Option<GridFile>,
    pub triangular: Option<LatticeFile>,
    pub hexagonal: Option<LatticeFile>,
    pub explicit: Option<ExplicitFile>,
}

/// `triangular:` and `hexagonal:` boards: points along a side, line length.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LatticeFile {
    pub side: u32,
    pub lines: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
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

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridFile {
    pub width: u32,
    pub height: u32,
    #[serde(default)]
    pub diagonals: DiagonalsFile,
    #[serde(default)]
    pub naming: NamingFile,
    /// Length of the lines (runs of consecutive points) that count; none for Go.
    pub lines: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
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

/// `diagonals:` of a grid: a word, or `true` (all) / `false` (none).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum DiagonalsFile {
    #[default]
    None,
    Long,
    Alternate,
    All,
    Crossed,
}

impl<'de> Deserialize<'de> for DiagonalsFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = DiagonalsFile;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("`none`, `long`, `alternate`, `all`, `crossed`, `true` or `false`")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<DiagonalsFile, E> {
                Ok(if b {
                    DiagonalsFile::All
                } else {
                    DiagonalsFile::None
                })
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<DiagonalsFile, E> {
                const WORDS: &[&str] = &["none", "long", "alternate", "all", "crossed"];
                match s {
                    "none" => Ok(DiagonalsFile::None),
                    "long" => Ok(DiagonalsFile::Long),
                    "alternate" => Ok(DiagonalsFile::Alternate),
                    "all" => Ok(DiagonalsFile::All),
                    "crossed" => Ok(DiagonalsFile::Crossed),
                    other => Err(E::unknown_variant(other, WORDS)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Debug, Default, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NamingFile {
    #[default]
    Algebraic,
    Gtp,
}

/// A node: `a1` or `{ name: a1, at: [0, 0] }`.
#[derive(Debug)]
pub enum NodeFile {
    Name(String),
    Placed { name: String, at: [i32; 2] },
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupFile {
    /// Pieces each player holds in hand at the start: a number or `unlimited`.
    pub in_hand: Option<HandFile>,
    /// Stones on the board at the start, by player name (handicap stones).
    pub stones: Option<IndexMap<String, Option<Vec<String>>>>,
    /// The player who moves first (default: the first player).
    pub to_move: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandFile {
    Count(u32),
    Unlimited(UnlimitedWord),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnlimitedWord {
    Unlimited,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhaseFile {
    /// When this phase applies to the player to move; absent = always.
    pub when: Option<Text>,
    /// Action kind → condition under which it is allowed (`true` = always).
    pub actions: Option<IndexMap<String, Option<Text>>>,
    /// Try this phase before the named one (for variants that add a phase).
    pub before: Option<String>,
    /// When a turn played in this phase ends and this holds, the mover
    /// moves again.
    pub extra_turn: Option<Text>,
    /// The player (an expression) who moves first when the game enters
    /// this phase.
    pub first: Option<Text>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LineRuleFile {
    /// How many opposing pieces the mover removes (a number expression).
    pub removals: Option<Text>,
    /// Which opposing piece (`target`) may be removed.
    pub removable: Option<Text>,
    /// Whether a line just completed (`line`) counts: only counting lines
    /// make `lines_formed` and earn removals. Absent: every line counts.
    pub counts: Option<Text>,
    /// When this holds, the removals are taken from the opponent's hand
    /// (as many as it holds; the rest from the board).
    pub from_hand: Option<Text>,
    /// When this holds at a removal, the piece stays on its point as a mark
    /// until the condition no longer holds at the end of a turn.
    pub delay: Option<Text>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EndRuleFile {
    /// The player to move loses when this holds.
    pub lose: Option<Text>,
    /// The player to move wins when this holds.
    pub win: Option<Text>,
    /// The game is drawn when this holds.
    pub draw: Option<Text>,
    /// The game ends and the `scoring` section decides it.
    pub score: Option<Text>,
    /// The game ends; the player with more captured prisoners since the
    /// first occurrence of the repeated board wins, equal is a draw.
    pub compare_captures: Option<Text>,
    /// The game ends with no result (neither a win nor a draw).
    pub no_result: Option<Text>,
    /// Check this rule before the named one (for variants that add a rule).
    pub before: Option<String>,
    /// One line saying what the rule is, shown in transcripts.
    pub doc: Option<String>,
}

/// A param: a whole number, or `{ value, min, max, doc }`, whose range a
/// variant or a sweep that sets only the value keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamFile {
    pub value: i64,
    /// The least value the rules make sense with.
    pub min: Option<i64>,
    /// The greatest value the rules make sense with.
    pub max: Option<i64>,
    /// What the param means, for the reader.
    pub doc: Option<String>,
}

impl<'de> Deserialize<'de> for ParamFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ParamFile;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number, or `{ value: …, min: …, max: …, doc: … }`")
            }
            fn visit_i64<E: de::Error>(self, value: i64) -> Result<ParamFile, E> {
                Ok(ParamFile {
                    value,
                    min: None,
                    max: None,
                    doc: None,
                })
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<ParamFile, E> {
                i64::try_from(n)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(n), &self))
                    .and_then(|n| self.visit_i64(n))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<ParamFile, A::Error> {
                const KEYS: &[&str] = &["value", "min", "max", "doc"];
                let (mut value, mut min, mut max, mut doc) = (None, None, None, None);
                while let Some(key) = m.next_key::<String>()? {
                    match key.as_str() {
                        "value" => value = Some(m.next_value::<i64>()?),
                        "min" => min = Some(m.next_value::<i64>()?),
                        "max" => max = Some(m.next_value::<i64>()?),
                        "doc" => doc = Some(m.next_value::<String>()?),
                        other => return Err(de::Error::unknown_field(other, KEYS)),
                    }
                }
                Ok(ParamFile {
                    value: value.ok_or_else(|| de::Error::missing_field("value"))?,
                    min,
                    max,
                    doc,
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// DSL text; YAML scalars `true`, `3` are accepted as the text they spell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text(pub String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a rule expression (text, `true`/`false` or a whole number)")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Text, E> {
                Ok(Text(b.to_string()))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Text, E> {
                Ok(Text(n.to_string()))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Text, E> {
                Ok(Text(n.to_string()))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Text, E> {
                Ok(Text(s.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for HandFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = HandFile;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "a whole number from 0 to {} or `unlimited`", u32::MAX)
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<HandFile, E> {
                u32::try_from(n)
                    .map(HandFile::Count)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(n), &self))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<HandFile, E> {
                u64::try_from(n)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(n), &self))
                    .and_then(|n| self.visit_u64(n))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<HandFile, E> {
                match s {
                    "unlimited" => Ok(HandFile::Unlimited(UnlimitedWord::Unlimited)),
                    _ => Err(E::invalid_value(de::Unexpected::Str(s), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for NodeFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NodeFile;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a point name, or `{ name: …, at: [x, y] }`")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<NodeFile, E> {
                Ok(NodeFile::Name(s.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<NodeFile, A::Error> {
                const KEYS: &[&str] = &["name", "at"];
                let (mut name, mut at) = (None, None);
                while let Some(key) = m.next_key::<String>()? {
                    match key.as_str() {
                        "name" => name = Some(m.next_value::<String>()?),
                        "at" => at = Some(m.next_value::<[i32; 2]>()?),
                        other => return Err(de::Error::unknown_field(other, KEYS)),
                    }
                }
                let name = name.ok_or_else(|| de::Error::missing_field("name"))?;
                let at = at.ok_or_else(|| de::Error::missing_field("at"))?;
                Ok(NodeFile::Placed { name, at })
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for SuicideFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SuicideFile;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "`lose`, `illegal`, `legal`, or `{ single: …, multi: … }` with `lose`, `illegal` or `remove` each",
                )
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<SuicideFile, E> {
                const WORDS: &[&str] = &["lose", "illegal", "legal"];
                match s {
                    "lose" => Ok(SuicideFile::Both(SuicideShorthand::Lose)),
                    "illegal" => Ok(SuicideFile::Both(SuicideShorthand::Illegal)),
                    "legal" => Ok(SuicideFile::Both(SuicideShorthand::Legal)),
                    other => Err(E::unknown_variant(other, WORDS)),
                }
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<SuicideFile, A::Error> {
                const KEYS: &[&str] = &["single", "multi"];
                let (mut single, mut multi) = (None, None);
                while let Some(key) = m.next_key::<String>()? {
                    match key.as_str() {
                        "single" => single = Some(m.next_value()?),
                        "multi" => multi = Some(m.next_value()?),
                        other => return Err(de::Error::unknown_field(other, KEYS)),
                    }
                }
                Ok(SuicideFile::Split {
                    single: single.ok_or_else(|| de::Error::missing_field("single"))?,
                    multi: multi.ok_or_else(|| de::Error::missing_field("multi"))?,
                })
            }
        }
        d.deserialize_any(V)
    }
}

// ----- JSON Schema of the types read by hand ---------------------------------
// (what each `Deserialize` above accepts, for `rulesets/ruleset.schema.json`)

/// A schema of its own name for a type read by hand.
macro_rules! hand_schema {
    ($ty:ty, $name:literal, $schema:tt) => {
        impl JsonSchema for $ty {
            fn schema_name() -> Cow<'static, str> {
                $name.into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!($schema)
            }
        }
    };
}

hand_schema!(DiagonalsFile, "Diagonals", {
    "description": "Diagonals of a grid: a word, or `true` (all) / `false` (none).",
    "oneOf": [
        { "enum": ["none", "long", "alternate", "all", "crossed"] },
        { "type": "boolean" }
    ]
});

hand_schema!(ParamFile, "Param", {
    "description": "A whole number, or the number with the range `check` enforces.",
    "oneOf": [
        { "type": "integer" },
        {
            "type": "object",
            "properties": {
                "value": { "type": "integer" },
                "min": { "type": "integer", "description": "The least value the rules make sense with." },
                "max": { "type": "integer", "description": "The greatest value the rules make sense with." },
                "doc": { "type": "string", "description": "What the param means." }
            },
            "additionalProperties": false
        }
    ]
});

hand_schema!(Text, "Expression", {
    "description": "A rule expression (see the README's DSL reference); `true`, `false` and whole numbers are the expressions they spell.",
    "type": ["string", "boolean", "integer"]
});

hand_schema!(HandFile, "InHand", {
    "description": "Pieces each player starts with in hand, or `unlimited`.",
    "oneOf": [
        { "type": "integer", "minimum": 0, "maximum": 4294967295u64 },
        { "const": "unlimited" }
    ]
});

hand_schema!(NodeFile, "Node", {
    "description": "A point name, or `{ name: …, at: [x, y] }`.",
    "oneOf": [
        { "type": "string" },
        {
            "type": "object",
            "properties": {
                "name": { "type": "string" },
                "at": { "type": "array", "items": { "type": "integer" }, "minItems": 2, "maxItems": 2 }
            },
            "required": ["name", "at"],
            "additionalProperties": false
        }
    ]
});

hand_schema!(SuicideFile, "Suicide", {
    "description": "What a board play leaving a chain of the mover without liberty does: one word, or one per chain size.",
    "oneOf": [
        { "enum": ["lose", "illegal", "legal"] },
        {
            "type": "object",
            "properties": {
                "single": { "enum": ["lose", "illegal", "remove"] },
                "multi": { "enum": ["lose", "illegal", "remove"] }
            },
            "required": ["single", "multi"],
            "additionalProperties": false
        }
    ]
});

/// The JSON Schema (draft-07, what YAML editors read) of the files `T`
/// reads, as pretty JSON with a final newline; `adjust` edits it first.
/// One generator for the ruleset and scenario schemas.
pub fn draft07_schema<T: JsonSchema>(adjust: impl FnOnce(&mut Schema)) -> String {
    let generator = schemars::generate::SchemaSettings::draft07().into_generator();
    let mut schema = generator.into_root_schema_for::<T>();
    adjust(&mut schema);
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema is JSON");
    text.push('\n');
    text
}

/// The JSON Schema of ruleset files, as `rulesets/ruleset.schema.json`
/// holds it.
///
/// A variant writes only what differs from its parent, and mappings merge
/// key by key, so no key of a section is required in one file: `required`
/// is kept only inside lists (replaced whole) and the forms read by hand.
pub fn ruleset_schema() -> String {
    draft07_schema::<RulesetFile>(|schema| {
        if let Some(defs) = schema
            .get_mut("definitions")
            .and_then(serde_json::Value::as_object_mut)
        {
            for (name, def) in defs.iter_mut() {
                if name.ends_with("File") && name != "ShapeFile" {
                    if let Some(def) = def.as_object_mut() {
                        def.remove("required");
                    }
                }
            }
        }
    })
}
