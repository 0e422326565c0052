//! Reading scenario files: the only module of this crate that touches YAML.
//!
//! A scenario file states, for one ruleset, what must happen after a given
//! record of moves. Rule authors write them next to their rulesets and run
//! them with `morrigo test PATH`.
//!
//! ```yaml
//! ruleset: nine-mens-morris        # built-in name, or a path relative to this file
//! scenarios:
//!   - name: a mill by placing removes before the opponent moves
//!     rule: "Mill: forming a mill lets the mover remove one opposing piece"
//!     setup:                       # optional; default: the start of a game
//!       pieces: { white: [a1, d1], black: [d2] }
//!       in_hand: { white: 7, black: 8 }   # a player left out holds 0
//!       to_move: white                    # default: the first player
//!     moves: g1                    # a move record, replayed from the setup
//!     expect:                      # every key is optional
//!       to_move: white
//!       phase: remove              # a phase name, or `remove` when a removal is owed
//!       legal: [xd2]               # exactly these legal moves (any order)
//!       legal_includes: [xd2]
//!       legal_excludes: [d3]
//!       illegal:                   # one entry or a list: each must be refused now
//!         move: d3
//!         reason_contains: must first remove
//!       result: ongoing            # ongoing | draw | no result | "<player> wins"
//!       reason: blocked            # the end rule that decided the game
//!       board: |                   # the final board as `morrigo` draws it
//!         ...
//! ```
//!
//! Move records use the engine notation: `d1` place, `d1-d2` slide or fly,
//! `xd2` a removal (its own ply), `g1xd2` a move and its removal; Go-family
//! rulesets take GTP points, `pass` / `pass:E`, `resign` and `agree:D4,E5`.
//! Go files may give `size: 5` or `size: 7x5` (per file or per scenario) and
//! expect `class`, `classes`, `d`, `legal_passes` and `score` (see
//! `SCENARIOS.md`). Unknown keys, unknown points or players, a point used
//! twice and more pieces than the ruleset gives a player are reported as
//! located errors.

use morrigo_diag::{Diagnostic, Location, SourceFile};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A value and the byte offset in the file where it is written (or, when
/// it cannot be found exactly, where its key is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    /// The value read from the file.
    pub value: T,
    /// Its byte offset in the file (or its key's).
    pub offset: usize,
}

/// A parsed scenario file.
#[derive(Clone, Debug)]
pub struct ScenarioFile {
    /// The file's name and text.
    pub source: SourceFile,
    /// The file's path, for resolving a relative `ruleset`.
    pub path: PathBuf,
    /// The `ruleset:`: a built-in name or a path relative to the file.
    pub ruleset: Spanned<String>,
    /// Board size for every scenario (`5` or `7x5`), for grid rulesets.
    pub size: Option<Spanned<String>>,
    /// The scenarios, in file order.
    pub scenarios: Vec<Scenario>,
    /// Line starts of `source`, so each location is found without rescanning.
    pub lines: crate::lines::LineIndex,
}

/// One scenario: a record of moves, the position it starts from, and what
/// must hold after it.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The scenario's `name:`.
    pub name: Spanned<String>,
    /// The rule it checks, in the words of the spec.
    pub rule: String,
    /// Board size for this scenario, overriding the file's.
    pub size: Option<Spanned<String>>,
    /// The position the record starts from; `None`: the start of a game.
    pub setup: Option<Setup>,
    /// The record, and the offset from which its tokens are searched.
    pub moves: Spanned<String>,
    /// What must hold after the record.
    pub expect: Expect,
}

/// A scenario's `setup:`: the position its record starts from.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Where `setup:` is written.
    pub offset: usize,
    /// Player name → points holding that player's pieces.
    pub pieces: Vec<(Spanned<String>, Vec<Spanned<String>>)>,
    /// Player name → pieces in hand (a player left out holds none).
    pub in_hand: Vec<(Spanned<String>, u32)>,
    /// The player to move (default: the first player).
    pub to_move: Option<Spanned<String>>,
}

/// One move that must be refused, and a text the refusal must contain.
#[derive(Clone, Debug)]
pub struct Illegal {
    /// The move, as a record writes it.
    pub mv: Spanned<String>,
    /// Text the refusal's message must contain, if given.
    pub reason_contains: Option<String>,
}

/// A scenario's `expect:`: what must hold after the record (every part
/// optional).
#[derive(Clone, Debug, Default)]
pub struct Expect {
    /// Where `expect:` is written (the scenario's `name:` when it has none).
    pub offset: usize,
    /// The player to move.
    pub to_move: Option<Spanned<String>>,
    /// The phase of the player to move, or `remove` when a removal is owed.
    pub phase: Option<Spanned<String>>,
    /// Exactly these legal moves, in any order.
    pub legal: Option<Vec<Spanned<String>>>,
    /// Moves that must be legal.
    pub legal_includes: Vec<Spanned<String>>,
    /// Moves that must not be legal.
    pub legal_excludes: Vec<Spanned<String>>,
    /// Moves that must be refused, each with an optional reason.
    pub illegal: Vec<Illegal>,
    /// `ongoing`, `draw`, `no result` or `<player> wins`.
    pub result: Option<Spanned<String>>,
    /// The end rule that decided the game.
    pub reason: Option<Spanned<String>>,
    /// The final board as `morrigo` draws it.
    pub board: Option<Spanned<String>>,
    /// Go family: the class letter of the last ply (`N`, `C`, `P`, `E`).
    pub class: Option<Spanned<String>>,
    /// Go family: the class letters of every ply of the record, in order.
    pub classes: Option<Spanned<String>>,
    /// Go family: whether a D ends at the last ply.
    pub d: Option<Spanned<bool>>,
    /// Go family: exactly the pass kinds (letters) the player to move may use.
    pub legal_passes: Option<Vec<Spanned<String>>>,
    /// The count: player name → score.
    pub score: Option<Spanned<Vec<(String, f64)>>>,
}

impl ScenarioFile {
    /// The `file:line:col` of a byte offset in the file.
    pub fn location(&self, offset: usize) -> Location {
        self.lines.location(&self.source, offset)
    }

    /// The path of the ruleset relative to this file, if such a file exists;
    /// otherwise the name as written (a built-in name).
    pub fn ruleset_spec(&self) -> String {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let candidate = dir.join(&self.ruleset.value);
        if candidate.is_file() {
            candidate.display().to_string()
        } else {
            self.ruleset.value.clone()
        }
    }
}

// ----- the YAML schema -------------------------------------------------------

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(
    title = "Morrigo scenario file",
    description = "What a ruleset must do, checked move by move by `morrigo test FILE` (see docs/src/scenarios.md)."
)]
struct FileYaml {
    ruleset: String,
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    #[serde(default)]
    size: Option<SizeYaml>,
    scenarios: Vec<ScenarioYaml>,
}

/// `size: 5` or `size: 7x5`.
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
enum SizeYaml {
    Number(u32),
    Text(String),
}

impl SizeYaml {
    fn text(self) -> String {
        match self {
            SizeYaml::Number(n) => n.to_string(),
            SizeYaml::Text(t) => t,
        }
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ScenarioYaml {
    name: String,
    rule: String,
    #[serde(default)]
    size: Option<SizeYaml>,
    #[serde(default)]
    setup: Option<SetupYaml>,
    #[serde(default)]
    moves: Option<String>,
    #[serde(default)]
    expect: Option<ExpectYaml>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SetupYaml {
    #[serde(default)]
    pieces: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    in_hand: BTreeMap<String, u32>,
    #[serde(default)]
    to_move: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ExpectYaml {
    to_move: Option<String>,
    phase: Option<String>,
    legal: Option<Vec<String>>,
    #[serde(default)]
    legal_includes: Vec<String>,
    #[serde(default)]
    legal_excludes: Vec<String>,
    #[serde(default)]
    illegal: Option<OneOrMany<IllegalYaml>>,
    result: Option<String>,
    reason: Option<String>,
    board: Option<String>,
    class: Option<String>,
    classes: Option<String>,
    d: Option<bool>,
    legal_passes: Option<Vec<String>>,
    score: Option<BTreeMap<String, f64>>,
}

/// One entry or a list of them. Not `#[serde(untagged)]`: that buffers the
/// value and turns every error inside it into "no variant matched", losing
/// the key and place of, say, a misspelt field.
enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for V<T> {
            type Value = OneOrMany<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("one entry (a mapping) or a list of entries")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                a: A,
            ) -> Result<Self::Value, A::Error> {
                T::deserialize(MapAccessDeserializer::new(a)).map(OneOrMany::One)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                a: A,
            ) -> Result<Self::Value, A::Error> {
                Vec::<T>::deserialize(SeqAccessDeserializer::new(a)).map(OneOrMany::Many)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

impl<T: JsonSchema> JsonSchema for OneOrMany<T> {
    fn schema_name() -> Cow<'static, str> {
        format!("OneOrMany_{}", T::schema_name()).into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let one = generator.subschema_for::<T>();
        json_schema!({
            "description": "One entry, or a list of entries.",
            "oneOf": [one, { "type": "array", "items": one }]
        })
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct IllegalYaml {
    #[serde(rename = "move")]
    mv: String,
    #[serde(default)]
    reason_contains: Option<String>,
}

/// The JSON Schema (draft-07, what YAML editors read) of scenario files, as
/// `rulesets/scenario.schema.json` holds it.
pub fn scenario_schema() -> String {
    morrigo_rules::schema::draft07_schema::<FileYaml>(|_| {})
}

// ----- reading ---------------------------------------------------------------

/// Read and parse a scenario file from disk.
pub fn read(path: &Path) -> Result<ScenarioFile, Diagnostic> {
    let text = morrigo_diag::read_input(path)?;
    parse(SourceFile::new(path.display().to_string(), text), path)
}

/// Parse scenario file text (`path` is used to resolve a relative ruleset).
pub fn parse(source: SourceFile, path: &Path) -> Result<ScenarioFile, Diagnostic> {
    // The file's shape is the fallback hint; a precise one (the keys a
    // misspelt key could have been) stays.
    let file: FileYaml = morrigo_rules::load::parse_yaml(&source).map_err(|d| {
        if d.expected.is_some() {
            return d;
        }
        d.expected(
            "a mapping with `ruleset:`, an optional `size:` and `scenarios:` (a list of `name`, `rule`, `size`, `setup`, `moves`, `expect`)",
        )
    })?;
    let text = &*source.text;
    let ruleset_key = key_at(text, 0, text.len(), "ruleset").unwrap_or(0);
    let ruleset = Spanned {
        offset: value_at(text, ruleset_key, text.len(), &file.ruleset),
        value: file.ruleset,
    };
    let size = file.size.map(|v| {
        let v = v.text();
        let key = key_at(text, 0, text.len(), "size").unwrap_or(0);
        Spanned {
            offset: value_at(text, key, text.len(), &v),
            value: v,
        }
    });
    let starts = scenario_starts(text, &file.scenarios);
    let mut scenarios = Vec::new();
    for (i, sc) in file.scenarios.into_iter().enumerate() {
        let start = starts[i];
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        let region = Region { text, start, end };
        scenarios.push(region.scenario(sc));
    }
    Ok(ScenarioFile {
        lines: crate::lines::LineIndex::new(&source.text),
        source,
        path: path.to_path_buf(),
        ruleset,
        size,
        scenarios,
    })
}

/// Offset of each scenario's `name:` line (a scenario's text runs to the next).
fn scenario_starts(text: &str, scenarios: &[ScenarioYaml]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = key_at(text, 0, text.len(), "scenarios").unwrap_or(0);
    for sc in scenarios {
        let mut found = None;
        let mut cursor = from;
        while let Some(k) = key_at(text, cursor, text.len(), "name") {
            let line_end = text[k..].find('\n').map_or(text.len(), |e| k + e);
            if text[k..line_end].contains(sc.name.as_str()) {
                found = Some(k);
                break;
            }
            cursor = k + 5;
        }
        let at = found.unwrap_or(from);
        // Back up to the start of the list item (`- name:`) where there is one.
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        out.push(line_start.max(from.min(at)));
        from = at + 1;
    }
    out
}

/// Offset of `key:` (as a key, not inside another word) in `text[from..end]`.
fn key_at(text: &str, from: usize, end: usize, key: &str) -> Option<usize> {
    let pattern = format!("{key}:");
    let mut cursor = from;
    while cursor < end {
        let i = text[cursor..end].find(&pattern)? + cursor;
        let before = text[..i].chars().next_back();
        if !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Some(i);
        }
        cursor = i + pattern.len();
    }
    None
}

/// Offset of `value` after `from` (before `end`), or `from` if not found.
fn value_at(text: &str, from: usize, end: usize, value: &str) -> usize {
    crate::replay::find_word(&text[..end], from.min(end), value)
        .or_else(|| text[from..end].find(value).map(|i| from + i))
        .unwrap_or(from)
}

struct Region<'a> {
    text: &'a str,
    start: usize,
    end: usize,
}

impl Region<'_> {
    fn key(&self, from: usize, key: &str) -> Option<usize> {
        key_at(self.text, from.max(self.start), self.end, key)
    }

    fn spanned(&self, from: usize, value: String) -> Spanned<String> {
        Spanned {
            offset: value_at(self.text, from, self.end, &value),
            value,
        }
    }

    /// A list of values written after `from`, located in order.
    fn list(&self, from: usize, values: Vec<String>) -> Vec<Spanned<String>> {
        let mut cursor = from;
        values
            .into_iter()
            .map(|v| {
                let s = self.spanned(cursor, v);
                if s.offset > cursor {
                    cursor = s.offset + s.value.len();
                }
                s
            })
            .collect()
    }

    fn scenario(&self, sc: ScenarioYaml) -> Scenario {
        let name_key = self.key(self.start, "name").unwrap_or(self.start);
        let name = self.spanned(name_key, sc.name);
        let setup = sc.setup.map(|s| self.setup(s));
        let size = sc.size.map(|v| {
            let key = self.key(self.start, "size").unwrap_or(self.start);
            self.spanned(key, v.text())
        });
        let moves_key = self.key(self.start, "moves").unwrap_or(self.start);
        let moves = Spanned {
            value: sc.moves.unwrap_or_default(),
            offset: moves_key + "moves:".len().min(self.end - moves_key),
        };
        let expect = sc.expect.map(|e| self.expect(e)).unwrap_or(Expect {
            offset: name_key,
            ..Expect::default()
        });
        Scenario {
            name,
            rule: sc.rule,
            size,
            setup,
            moves,
            expect,
        }
    }

    fn setup(&self, s: SetupYaml) -> Setup {
        let at = self.key(self.start, "setup").unwrap_or(self.start);
        let pieces_at = self.key(at, "pieces").unwrap_or(at);
        let pieces = s
            .pieces
            .into_iter()
            .map(|(player, points)| {
                let key = self.key(pieces_at, &player).unwrap_or(pieces_at);
                let player = Spanned {
                    value: player,
                    offset: key,
                };
                (player, self.list(key, points))
            })
            .collect();
        let hand_at = self.key(at, "in_hand").unwrap_or(at);
        let in_hand = s
            .in_hand
            .into_iter()
            .map(|(player, n)| {
                let key = self.key(hand_at, &player).unwrap_or(hand_at);
                (
                    Spanned {
                        value: player,
                        offset: key,
                    },
                    n,
                )
            })
            .collect();
        let to_move = s.to_move.map(|p| {
            let key = self.key(at, "to_move").unwrap_or(at);
            self.spanned(key, p)
        });
        Setup {
            offset: at,
            pieces,
            in_hand,
            to_move,
        }
    }

    fn expect(&self, e: ExpectYaml) -> Expect {
        let at = self.key(self.start, "expect").unwrap_or(self.start);
        let key = |k: &str| self.key(at, k).unwrap_or(at);
        let one = |k: &str, v: Option<String>| v.map(|v| self.spanned(key(k), v));
        let illegal = match e.illegal {
            None => Vec::new(),
            Some(OneOrMany::One(i)) => vec![i],
            Some(OneOrMany::Many(v)) => v,
        };
        let illegal_at = key("illegal");
        let mut cursor = illegal_at;
        let illegal = illegal
            .into_iter()
            .map(|i| {
                let k = self.key(cursor, "move").unwrap_or(cursor);
                cursor = k + 1;
                Illegal {
                    mv: self.spanned(k, i.mv),
                    reason_contains: i.reason_contains,
                }
            })
            .collect();
        Expect {
            offset: at,
            to_move: one("to_move", e.to_move),
            phase: one("phase", e.phase),
            legal: e.legal.map(|l| self.list(key("legal"), l)),
            legal_includes: self.list(key("legal_includes"), e.legal_includes),
            legal_excludes: self.list(key("legal_excludes"), e.legal_excludes),
            illegal,
            result: one("result", e.result),
            reason: one("reason", e.reason),
            board: e.board.map(|b| Spanned {
                value: b,
                offset: key("board"),
            }),
            class: one("class", e.class),
            classes: one("classes", e.classes),
            d: e.d.map(|value| Spanned {
                value,
                offset: key("d"),
            }),
            legal_passes: e.legal_passes.map(|l| self.list(key("legal_passes"), l)),
            score: e.score.map(|m| Spanned {
                value: m.into_iter().collect(),
                offset: key("score"),
            }),
        }
    }
}
