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

/// One ruleset file: a whole ruleset, or a variant that states only what
/// differs from the parent it `extends`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(
    title = "Morrigo ruleset",
    description = "A Morris-family or Go-style game as data: its board, pieces, phases and rules (see docs/src/rulesets.md). `morrigo check FILE` checks what this schema cannot: expressions, names and ranges."
)]
pub struct RulesetFile {
    /// The ruleset's name, by which records and messages give it
    /// (`nine-mens-morris`).
    pub name: Option<String>,
    /// Parent ruleset: a built-in name or a path relative to this file.
    pub extends: Option<String>,
    /// A readable title (`Nine Men's Morris`); the name when absent.
    pub title: Option<String>,
    /// What the game is, in a few sentences.
    pub description: Option<String>,
    /// The board: exactly one of its kinds.
    pub board: Option<BoardFile>,
    /// Player names; the first moves first.
    pub players: Option<Vec<String>>,
    /// Named numbers the rules refer to: `min_pieces: 3`, or with the
    /// range `check` enforces, `fly_at: { value: 3, min: 0, max: 9 }`.
    pub params: Option<IndexMap<String, Option<ParamFile>>>,
    /// The starting position: pieces in hand, stones on the board, the first
    /// player.
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

/// Knowledge the Monte Carlo playouts play by.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayoutFile {
    /// 3×3 shapes worth playing next to the last board play (square grids).
    pub shapes: Option<Vec<ShapeFile>>,
}

/// A 3×3 shape worth playing next to the last board play.
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

/// Board plays (Go family): suicide and the move classes ko rules read.
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

/// What a suicide of one chain size does.
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
    /// One word for every chain size.
    Both(SuicideShorthand),
    /// One effect for a single stone, one for larger chains.
    Split {
        /// A single stone.
        single: SuicideEffectFile,
        /// A chain of two or more stones.
        multi: SuicideEffectFile,
    },
}

/// One suicide word for every chain size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SuicideShorthand {
    /// The mover loses.
    Lose,
    /// The play is not allowed.
    Illegal,
    /// The play stands and the mover's libertyless chain is removed.
    Legal,
}

/// Whether board plays are classed as ko captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum KoCaptureFile {
    /// A ko capture (C) or a normal play (N), by JK Art. 2.5.
    Jk,
    /// Every play is normal (N).
    None,
}

/// Which runs of ko captures a derived class names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DRunsFile {
    /// Runs of 4, 6, 8, … ko captures.
    Any,
    /// Runs of 4 or 6 only.
    FourOrSix,
}

/// Pass kinds and pass stones.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PassesFile {
    /// Pass kinds, one upper-case letter each (`[P, E]`).
    pub kinds: Option<Vec<String>>,
    /// Pass stones the passer gives the opponent.
    pub stones: Option<u32>,
}

/// A rule forbidding moves of some kinds when a condition holds.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForbidFile {
    /// Move kinds forbidden: pass kind letters and/or `play`.
    pub moves: Option<Vec<String>>,
    /// When they are forbidden.
    pub when: Option<Text>,
    /// What the rule is, for the reader.
    pub doc: Option<String>,
}

/// A capture a move makes by itself, not earned by a line.
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
    /// What the rule is, for the reader.
    pub doc: Option<String>,
}

/// How captured pieces leave the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaptureTakeFile {
    /// All at once, as part of the move.
    All,
    /// As removals the player makes, one a ply.
    Choose,
    /// A custodian capture earns one removal: one of the flanked pieces.
    ChooseOne,
}

/// The shape of a capture.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaptureKindFile {
    /// The moved piece and another own piece flank an opposing piece.
    Custodian,
    /// The moved piece lands between two opposing pieces.
    Intervention,
    /// A move of its own: an own piece jumps over an adjacent opposing piece
    /// to the empty point beyond.
    Leap,
}

/// Repetition of board states (Go family).
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
    /// Which occurrence of a board ends the game under `repeated_board`: 2 or
    /// more (default 3).
    pub count: Option<u32>,
}

/// What an immediate repetition does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImmediateFile {
    /// The player who makes it loses.
    Lose,
    /// It is not allowed.
    Illegal,
    /// Nothing.
    Allowed,
}

/// Which board plays are immediate repetitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImmediateReadingFile {
    /// Recreating the board as it stood before the opponent's last move, a
    /// board play (simple ko).
    SimpleKo,
    /// Recreating the board after the move two back, both moves board plays
    /// (JK Art. 3.2).
    Jk,
}

/// Which earlier boards a board play may not recreate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SuperkoFile {
    /// None: any board may recur.
    None,
    /// Any earlier board.
    Positional,
    /// Any earlier board with the same player to move.
    Situational,
}

/// What the `count`-th occurrence of a board does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RepeatedFile {
    /// Nothing.
    Off,
    /// More captured prisoners since the first occurrence wins, else a draw
    /// (JK Art. 3.3).
    Captures,
    /// A draw.
    Draw,
}

/// How a counted game is scored.
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

/// Whether stones are removed as dead before counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeadStonesFile {
    /// No stone is dead: the board counts as it stands.
    None,
    /// The players name the dead stones at the end, removed before counting.
    Agreement,
}

/// Whether territory scoring counts the regions of chains in seki.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SekiFile {
    /// A region bordered by one colour is its territory, seki or not.
    Counted,
    /// A region bordered by a chain in seki counts for nobody (Japanese).
    Nobody,
}

/// What the score is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ScoringMethodFile {
    /// Territory by reachability plus all prisoners (JK Art. 5).
    Jk,
    /// Stones plus empty points reaching only one colour (Tromp-Taylor).
    Area,
    /// Territory plus prisoners: captured, pass and dead stones.
    Territory,
}

/// Exactly one of the five ways to give a board. A struct rather than an
/// enum so that a variant can change one generator field (`rings: 2`) and
/// inherit the rest through the merge.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardFile {
    /// Concentric squares, as Morris boards are.
    pub nested_squares: Option<NestedSquaresFile>,
    /// A rectangle of points.
    pub grid: Option<GridFile>,
    /// A triangle of points on a triangular lattice.
    pub triangular: Option<LatticeFile>,
    /// A hexagon of points on a triangular lattice.
    pub hexagonal: Option<LatticeFile>,
    /// Points, edges and lines listed one by one.
    pub explicit: Option<ExplicitFile>,
}

/// `triangular:` and `hexagonal:` boards: points along a side, line length.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LatticeFile {
    /// Points along each side.
    pub side: u32,
    /// Points in a line, in each of the three directions; no lines when absent.
    pub lines: Option<u32>,
}

/// `nested_squares:` boards: concentric squares, each ring's points joined
/// around it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NestedSquaresFile {
    /// Number of squares.
    pub rings: u32,
    /// Join each ring's side midpoints to the next ring's (default `true`).
    #[serde(default = "yes")]
    pub midpoint_links: bool,
    /// Join each ring's corners to the next ring's (default `false`).
    #[serde(default)]
    pub corner_diagonals: bool,
    /// Points in a line (default 3).
    #[serde(default = "three")]
    pub line_length: u32,
}

/// `grid:` boards: a rectangle of points joined along rows and columns,
/// and diagonally if asked.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridFile {
    /// Points across.
    pub width: u32,
    /// Points up.
    pub height: u32,
    /// Which diagonal edges the grid has (default none).
    #[serde(default)]
    pub diagonals: DiagonalsFile,
    /// How the points are named (default `algebraic`).
    #[serde(default)]
    pub naming: NamingFile,
    /// Length of the lines (runs of consecutive points) that count; none for Go.
    pub lines: Option<u32>,
}

/// `explicit:` boards: every point, edge and line listed.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplicitFile {
    /// Every point, with drawing coordinates for all points or for none.
    pub nodes: Vec<NodeFile>,
    /// Pairs of adjacent points, each written once, either way round.
    #[serde(default)]
    pub edges: Vec<[String; 2]>,
    /// Each line's points in order, consecutive points adjacent.
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
    /// Orthogonal edges only.
    #[default]
    None,
    /// The two corner-to-corner diagonals of a square grid.
    Long,
    /// Diagonals through the points whose column + row is even (alquerque).
    Alternate,
    /// Both diagonals of every cell.
    All,
    /// Both diagonals of every cell, crossing at a new point at its centre.
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

/// How a grid's points are named.
#[derive(Debug, Default, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NamingFile {
    /// Columns `a`, `b`, …, rows from 1 at the bottom (`a1`).
    #[default]
    Algebraic,
    /// Columns `A` to `Z` without `I`, rows from 1 at the bottom (`A1`).
    Gtp,
}

/// A node: `a1` or `{ name: a1, at: [0, 0] }`.
#[derive(Debug)]
pub enum NodeFile {
    /// A point by name alone.
    Name(String),
    /// A point with drawing coordinates.
    Placed {
        /// The point's name.
        name: String,
        /// Its drawing coordinates, `[x, y]`.
        at: [i32; 2],
    },
}

/// The starting position.
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

/// Pieces each player holds in hand at the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandFile {
    /// That many.
    Count(u32),
    /// `unlimited`: stones enough for any game (Go).
    Unlimited(UnlimitedWord),
}

/// The word `unlimited`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnlimitedWord {
    /// `unlimited`.
    Unlimited,
}

/// A phase: when it applies and the actions a player may take in it.
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

/// What completing a line does.
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

/// An end rule: one verdict key holding its condition.
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
    /// The number.
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
    "description": "A rule expression (see docs/src/expressions.md); `true`, `false` and whole numbers are the expressions they spell.",
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
